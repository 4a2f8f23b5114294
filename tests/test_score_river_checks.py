"""River World's facts the rules cannot produce are refused in a score scenario and by
scoring itself, naming the field and the bound: a site on water or on a river, Harbors on
rivers in a quick count, an active Aquatic race's regions next to a pirate ship that are
neither coastal nor inland; and no counts the checks accept make a total negative."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_support import river_count, river_region, run_score
from words_support import in_language

from companion.json_fields import BadInput
from companion.rules.catalog import load_catalog
from companion.rules.maps import Terrain
from companion.rules.river import (
    RIVER,
    RiverCounts,
    Site,
    counts_of,
    holds_sites,
    recounted,
    site_refusal,
)
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    ScoringInput,
    ScoringInputError,
    score_turn,
)
from companion.scenario import score_scenario

CATALOG = load_catalog()


def active(**race: Any) -> dict[str, Any]:
    return {"turn": 5, "player": {"active": race}}


# --- a site on water or on a river ---------------------------------------------------------


def test_a_site_stands_on_land_that_is_not_a_river() -> None:
    assert holds_sites(Terrain.HILL) and holds_sites(Terrain.FARMLAND)
    assert not holds_sites(RIVER)
    assert not holds_sites(Terrain.SEA) and not holds_sites(Terrain.LAKE)
    assert site_refusal(Terrain.HILL, {Site.HARBOR}) is None
    assert site_refusal(RIVER, ()) is None
    assert str(site_refusal(RIVER, {Site.HARBOR, Site.TEMPLE})) == (
        "a river cannot have a harbor, shipyard or temple (found harbor, temple)")


@pytest.mark.parametrize(("terrain", "power", "feature"), [
    ("river", "Hill", "harbor"),
    ("River", "Hill", "HARBOR"),
    ("sea", "Seafaring", "harbor"),
    ("lake", "Seafaring", "shipyard"),
    ("river", "Seafaring", "temple"),
])
def test_a_region_object_with_a_site_on_water_or_a_river_is_refused(
    terrain: str, power: str, feature: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = active(race="Ratmen", power=power,
                 regions=[{"terrain": "hill", "features": ["harbor"]},
                          {"terrain": terrain, "features": [feature]}])
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, out) == (2, "")
    kind = terrain.casefold()
    assert err == (
        f"companion score: player.active.regions[1].features: a {kind} cannot have a "
        f"harbor, shipyard or temple (found {feature.casefold()}); harbors, shipyards and "
        "temples stand on land regions that are not rivers\n")


def test_the_same_sites_on_land_still_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = active(race="Ratmen", power="Hill",
                 regions=[{"terrain": "hill", "features": ["harbor"]},
                          {"terrain": "farmland", "features": ["harbor", "temple"]},
                          {"terrain": "river"}])
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"total": 5, "lines": [
        {"label": "Regions held by Ratmen", "coins": 3},
        {"label": "Hill: one per hill region", "coins": 1},
        {"label": "Harbors: 2 held score 1 + 2 (1 each already counted as a region)",
         "coins": 1}]}


@pytest.mark.parametrize("terrain", [RIVER, Terrain.SEA])
def test_scoring_refuses_a_harbor_said_to_stand_on_water_or_a_river(terrain: Terrain) -> None:
    inp = ScoringInput(4, ActiveHoldings("Ratmen", "Seafaring", (
        river_region(Terrain.HILL, harbor=True), river_region(terrain, harbor=True))))
    with pytest.raises(ScoringInputError) as refused:
        score_turn(inp, CATALOG)
    assert refused.value.field == "active.regions[1].harbor"
    assert str(refused.value) == (
        f"active.regions[1].harbor: a {terrain.value} cannot have a harbor, shipyard or "
        "temple (found harbor); harbors, shipyards and temples stand on land regions that "
        "are not rivers")


def test_a_quick_count_holds_no_more_harbors_than_land_regions_that_are_not_rivers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = active(race="Ratmen", power="Seafaring",
                 counts={"hill": 1, "river": 2, "sea": 1, "harbors": 2})
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, out) == (2, "")
    assert err == ("companion score: player.active.counts.harbors: 2 is more than 1 (the "
                   "land regions counted that are not rivers)\n")
    doc["player"]["active"]["counts"]["harbors"] = 1
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out)["total"] == 4


# --- an active Aquatic race's regions next to a pirate ship -----------------------------------


AQUATIC_REFUSED = ("companion score: player.active.counts.next_to_pirates: 2 is more than 1 "
                   "(for an active Aquatic race: the coastal regions counted, plus the inland "
                   "ones next to a pirate ship)\n")


@pytest.mark.parametrize("counts", [
    {"river": 3, "next_to_pirates": 2, "inland_next_to_pirates": 1},
    {"hill": 3, "coastal": 1, "next_to_pirates": 2, "inland_next_to_pirates": 0},
])
def test_aquatic_regions_next_to_a_ship_beyond_the_inland_ones_must_be_coastal(
    counts: dict[str, int], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run_score(capsys, active(race="Ratmen", power="Aquatic", counts=counts),
                         tmp_path)
    assert (code, out, err) == (2, "", AQUATIC_REFUSED)


def test_scoring_refuses_the_impossible_aquatic_split() -> None:
    count = river_count({RIVER: 3}, next_to_pirates=2, inland_next_to_pirates=1)
    with pytest.raises(ScoringInputError) as refused:
        score_turn(ScoringInput(5, ActiveHoldings("Ratmen", "Aquatic", count)), CATALOG)
    assert refused.value.field == "active.regions.next_to_pirates"


@pytest.mark.parametrize(("race", "declined"), [
    ({"race": "Ratmen", "power": "Hill"}, False),
    ({"race": "Ratmen", "power": "Aquatic"}, True),
])
def test_the_same_counts_stay_accepted_where_the_split_is_not_read(
    race: dict[str, Any], declined: bool, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    held = {**race, "counts": {"river": 3, "next_to_pirates": 2, "inland_next_to_pirates": 1}}
    doc = ({"turn": 5, "player": {"declined": [held]}} if declined else
           {"turn": 5, "player": {"active": held}})
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out)["total"] == 1  # 3 regions, 2 of them one coin less


def test_a_valid_aquatic_split_scores_as_before(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    counts = {"hill": 3, "coastal": 2, "next_to_pirates": 2, "inland_next_to_pirates": 1}
    code, out, err = run_score(capsys, active(race="Ratmen", power="Aquatic", counts=counts),
                         tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out)["total"] == 3


def test_left_out_the_inland_count_is_the_fewest_the_other_counts_allow(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # three hills, none said to be coastal: both regions beside the ship are inland and
    # earn nothing under Aquatic, so they lose nothing (it was -2)
    code, out, err = run_score(capsys, active(race="Ratmen", power="Aquatic",
                                        counts={"hill": 3, "next_to_pirates": 2}), tmp_path)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["total"] == 0
    assert [line["label"] for line in result["lines"]] == [
        "Regions held by Ratmen", "Aquatic: one less per inland region"]
    assert result["notes"][1] == (
        "player.active.counts.inland_next_to_pirates left out: taken as 2 (those next to a "
        "pirate ship beyond the coastal regions counted), so the rest of them are taken as "
        "coastal and lose a coin each")
    # one coastal: one region beside the ship is taken as coastal and loses its coin
    code, out, err = run_score(capsys, active(race="Ratmen", power="Aquatic", counts={
        "hill": 3, "coastal": 1, "next_to_pirates": 2}), tmp_path)
    result = json.loads(out)
    assert result["total"] == 1
    assert result["lines"][-1] == {
        "label": "Pirate ships next to 1 region of Ratmen: one coin less each", "coins": -1}


# --- no counts the checks accept make a total negative ---------------------------------------

COMBOS = [("Ratmen", "Aquatic"), ("Ratmen", "Hill"), ("Tritons", "Seafaring"),
          ("Humans", "Aquatic"), ("Dwarves", "Forest")]


@st.composite
def counts_of_race(draw: st.DrawFn) -> dict[str, int]:
    """Small quick counts, mostly within the bounds each count has on its own (so most
    reach the rules that weigh them together), sometimes with a sea or the split left out."""
    counts = {name: draw(st.integers(0, 3)) for name in ("hill", "forest", "river")}
    if draw(st.booleans()):
        counts["sea"] = draw(st.integers(0, 2))
    land = counts["hill"] + counts["forest"] + counts["river"]
    regions = land + counts.get("sea", 0)
    counts["coastal"] = draw(st.integers(0, land))
    counts["harbors"] = draw(st.integers(0, land))
    counts["next_to_pirates"] = draw(st.integers(0, regions))
    if draw(st.booleans()):
        counts["inland_next_to_pirates"] = draw(st.integers(
            0, min(counts["next_to_pirates"], land - counts["coastal"])))
    return counts


def region_objects() -> st.SearchStrategy[list[dict[str, Any]]]:
    region = st.fixed_dictionaries(
        {"terrain": st.sampled_from(["hill", "forest", "river", "sea"])},
        optional={"coastal": st.booleans(), "next_to_pirates": st.booleans(),
                  "features": st.sampled_from([[], ["harbor"], ["temple"]])})
    return st.lists(region, max_size=4)


def scored(doc: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return score_scenario(json.dumps(doc), CATALOG)
    except BadInput:
        return None


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(combo=st.sampled_from(COMBOS), held=st.one_of(
    counts_of_race().map(lambda c: {"counts": c}),
    region_objects().map(lambda r: {"regions": r})), in_decline=st.booleans())
def test_no_accepted_river_world_count_makes_a_total_negative(
    combo: tuple[str, str], held: dict[str, Any], in_decline: bool
) -> None:
    race = {"race": combo[0], "power": combo[1], **held}
    doc = ({"turn": 5, "player": {"declined": [race]}} if in_decline else
           {"turn": 5, "player": {"active": race}})
    result = scored(doc)
    if result is None:
        return
    assert result["total"] >= 0, result
    assert result["total"] == sum(line["coins"] for line in result["lines"])
    regions = result["lines"][0]["coins"] + sum(
        line["coins"] for line in result["lines"] if line["label"].startswith("Seas and lakes"))
    for line in result["lines"]:
        if line["label"].startswith("Pirate ships"):
            assert 0 < -line["coins"] <= regions, result


def test_a_quick_count_the_scoring_screen_steps_to_keeps_its_hidden_inland_count_in_bounds(
) -> None:
    from companion.ui.presenters.river import RiverView

    # the map: three hills, two coastal and next to a ship; the player then counts no coast
    from_map = river_count({Terrain.HILL: 3}, coastal=2, next_to_pirates=2,
                           inland_next_to_pirates=0)
    stepped = RiverView().scoring_counted(
        river_count({Terrain.HILL: 3}, coastal=0, next_to_pirates=2, inland_next_to_pirates=0),
        {"next_to_pirates": 2})
    for count in (from_map, stepped):
        total = score_turn(ScoringInput(5, ActiveHoldings("Ratmen", "Aquatic", count)),
                           CATALOG).total
        assert total >= 0
    assert score_turn(ScoringInput(5, ActiveHoldings("Ratmen", "Aquatic", stepped)),
                      CATALOG).total == 0
    # fewer ships on the steppers than the map's inland ones: still a count the rules take
    fewer = RiverView().scoring_counted(
        river_count({Terrain.HILL: 3}, next_to_pirates=2, inland_next_to_pirates=2),
        {"next_to_pirates": 1})
    declined = ScoringInput(5, None, (DeclinedHoldings("Ratmen", "Hill", fewer),))
    assert score_turn(declined, CATALOG).total == 2


def test_recounting_keeps_the_inland_count_no_stepper_shows_within_the_new_counts() -> None:
    # three hills, one coastal, both regions next to a ship inland
    count = river_count({Terrain.HILL: 3}, coastal=1, next_to_pirates=2,
                        inland_next_to_pirates=2)
    # one ship-side region stepped away: no more inland ones than regions next to a ship
    assert counts_of(recounted(count, harbors=1, next_to_pirates=1)) == RiverCounts(1, 1, 1)
    # none inland said, three regions next to a ship stepped: those beyond the coastal one
    # are inland (no fewer), but no more than the two inland regions counted
    none_inland = river_count({Terrain.HILL: 3}, coastal=1, next_to_pirates=1,
                              inland_next_to_pirates=0)
    assert counts_of(recounted(none_inland, harbors=0, next_to_pirates=3)) == (
        RiverCounts(0, 3, 2))
    assert counts_of(recounted(none_inland, harbors=0, next_to_pirates=2)) == (
        RiverCounts(0, 2, 1))
    # every hill stepped to coastal: none of the regions next to a ship is inland any more
    all_coastal = river_count({Terrain.HILL: 3}, coastal=3, next_to_pirates=2,
                              inland_next_to_pirates=2)
    assert counts_of(recounted(all_coastal, harbors=0, next_to_pirates=2)) == (
        RiverCounts(0, 2, 0))
    # not said stays not said: the rules take the fewest the other counts allow
    unsaid = river_count({Terrain.HILL: 3}, next_to_pirates=1)
    assert counts_of(recounted(unsaid, harbors=2, next_to_pirates=2)) == RiverCounts(2, 2, None)


# --- in the table's language ------------------------------------------------------------------


def worded(language: str, doc: dict[str, Any]) -> str:
    """The refusal of scenario `doc` in `language`."""
    with pytest.raises(BadInput) as refused:
        score_scenario(json.dumps(doc), CATALOG)
    return in_language(language, refused.value)


def test_the_new_refusals_are_worded_in_french_and_german_with_fields_and_values_kept() -> None:
    harbor_on_river = active(race="Ratmen", power="Hill",
                             regions=[{"terrain": "river", "features": ["harbor"]}])
    assert worded("fr", harbor_on_river) == (
        "player.active.regions[0].features: une région de type river ne peut avoir ni port, "
        "ni chantier naval, ni temple (trouvé harbor)\u00a0; les ports, chantiers navals et "
        "temples se trouvent sur des régions terrestres qui ne sont pas des rivières")
    assert worded("de", harbor_on_river) == (
        "player.active.regions[0].features: eine Region vom Typ river kann keinen Hafen, keine "
        "Werft und keinen Tempel haben (gefunden: harbor); Häfen, Werften und Tempel stehen "
        "auf Landregionen, die keine Flüsse sind")
    split = active(race="Ratmen", power="Aquatic",
                   counts={"river": 3, "next_to_pirates": 2, "inland_next_to_pirates": 1})
    assert worded("de", split) == (
        "player.active.counts.next_to_pirates: 2 ist mehr als 1 (für ein aktives aquatisches "
        "Volk: die gezählten Küstenregionen plus die Binnenregionen neben einem Piratenschiff)")
    harbors = active(race="Ratmen", power="Hill", counts={"river": 2, "harbors": 1})
    assert worded("fr", harbors) == (
        "player.active.counts.harbors: 1 dépasse 0 (les régions terrestres comptées qui ne "
        "sont pas des rivières)")
