"""The expansions' parts of a score scenario (`companion score`, docs/score-format.md).

The rules (`companion.rules.expansion.Expansion`) know nothing of this JSON format: each
expansion with fields of its own in a scenario has a `ScorePart` here, next to the
command, in the registry's order (`PARTS`), which `companion.scenario` asks for:
- its fields of "player" (`fields`) and the lines they add (`lines`: team play's Relics
  and Places);
- its fields of a race (`active_fields`, `declined_fields`, read by `active` and
  `declined`, noted when left out by `checks`: the mini-expansions');
- its facts of a region object (`region_fields`, `region`) and of a quick count
  (`count_fields`, `counts`, noted when left out by `count_notes`), and their names when
  given (`facts`; in words, `facts_words`), which a seat that does not score them refuses
  (River World's harbors and pirate ships);
- a seat it plays itself (`own`, its field of "player": `turn` and `notes`; `refusal` of
  a race banner named as its pieces: the Necromancer's turn).

Invariants: pure readers; a fault is raised with `companion.json_fields.fail` and the same
words as the base game's fields, through the `ScenarioReader` the scenario lends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.json_fields import a_list, a_string, fail, flag, optional_flag, show
from companion.rules.catalog import Catalog
from companion.rules.errors import UnknownName
from companion.rules.maps import Board, Terrain
from companion.rules.mini_game import MINI_EXPANSIONS, HistorianEvents, MiniFacts, with_facts
from companion.rules.names import (
    AQUATIC,
    FORTIFIED,
    GYPSIES,
    HISTORIAN,
    LEPRECHAUNS,
    PEACE_LOVING,
    PILLAGING,
    PRIESTESSES,
    SEAFARING,
)
from companion.rules.necromancer import (
    BARRED_POWERS,
    GHOSTS,
    NECROMANCER_ISLAND,
    POWERS_DRAWN,
    REGIONS_LINE,
    income_lines,
)
from companion.rules.river import (
    RIVER_WORLD,
    RiverCounts,
    RiverRegionFacts,
    Site,
    counts_of,
    region_facts,
    sites_among,
    sites_refused,
    with_counts,
    with_region_facts,
)
from companion.rules.said import N_, Name, Said, listed, said
from companion.rules.scoring import (
    MAX_FORTRESSES,
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    Regions,
    ScoringInputError,
    regions_held,
)
from companion.rules.teams import (
    MARKERS,
    SOAPBAR,
    SOAPBAR_COINS,
    TAVERN,
    TAVERN_COINS,
    TEAM_PLAY,
    marker_name,
)


@dataclass(frozen=True)
class ScenarioReader:
    """What `companion score`'s reader lends an expansion reading its part of a scenario:
    its field checks, each failing with `companion.json_fields.fail` and the same words as
    for the base game's fields, and the expansions' facts a region or a count gives, as
    (name, what they are in words)."""

    fields_of: Callable[[str, object, frozenset[str]], Mapping[str, Any]]
    required: Callable[[str, Mapping[str, Any], str], Any]
    whole: Callable[[str, object], int]
    regions: Callable[[str, Mapping[str, Any], Board | None], Regions]
    held_notes: Callable[[str, Mapping[str, Any]], list[str]]
    region_notes: Callable[[str, Mapping[str, Any], str, str, bool], list[str]]
    left_out: Callable[[str, str, str], str]
    holds_a_region: Callable[[Mapping[str, Any]], bool]
    counted: Callable[[Mapping[str, Any], str], int]
    expansion_facts: Callable[[HeldRegion | QuickCount], list[tuple[str, str]]]


@dataclass(frozen=True)
class ScorePart:
    """An expansion's part of a score scenario (`name`: the expansion's), its fields and
    readers as the module's docstring lists them (`facts_words` an English template marked
    `N_`); a reader left None reads nothing."""

    name: str
    fields: tuple[str, ...] = ()
    lines: Callable[[Mapping[str, Any], bool], list[tuple[str, int]]] | None = None
    active_fields: tuple[str, ...] = ()
    active: Callable[[str, Mapping[str, Any], ActiveHoldings, ScenarioReader],
                     ActiveHoldings] | None = None
    declined_fields: tuple[str, ...] = ()
    declined: Callable[[str, Mapping[str, Any], DeclinedHoldings, ScenarioReader],
                       DeclinedHoldings] | None = None
    checks: Callable[[Mapping[str, Any], str, str, bool, ScenarioReader],
                     list[tuple[str, str, str]]] | None = None
    region_fields: tuple[str, ...] = ()
    region: Callable[[str, Mapping[str, Any], Sequence[str], HeldRegion], HeldRegion] | None = None
    count_fields: tuple[str, ...] = ()
    counts: Callable[[Mapping[str, int], QuickCount], QuickCount] | None = None
    count_notes: Callable[[Mapping[str, Any], str, str, bool, ScenarioReader],
                          list[tuple[str, str, str]]] | None = None
    facts: Callable[[HeldRegion | QuickCount], tuple[str, ...]] | None = None
    facts_words: str = ""
    own: str = ""
    turn: Callable[[Mapping[str, Any], Board | None, Catalog, ScenarioReader],
                   list[tuple[str, int]]] | None = None
    notes: Callable[[Mapping[str, Any], Catalog, ScenarioReader], list[str]] | None = None
    refusal: Callable[[str], Said | None] | None = None


# --- Necromancer Island -------------------------------------------------------------------

_SCENARIO_FIELDS = frozenset(
    {"powers", "regions", "counts", "conquered_non_empty", "attacked_active_race", "fortresses"}
)
SCENARIO_REGIONS_LABEL = "Regions held by the Necromancer's Ghosts"


def _scenario_powers(field: str, value: object, catalog: Catalog,
                     read: ScenarioReader) -> tuple[str, ...]:
    items = a_list(field, value)
    if not 1 <= len(items) <= POWERS_DRAWN:
        fail(field, said("{n} powers; the Necromancer has 1 to {most} in use (the one placed "
                         "with the Well of Souls, then those he bought)", n=len(items),
                         most=POWERS_DRAWN))
    powers: list[str] = []
    for index, item in enumerate(items):
        where = f"{field}[{index}]"
        try:
            name = catalog.power(a_string(where, item)).name
        except UnknownName as error:
            fail(where, error.said)
        if name in BARRED_POWERS:
            fail(where, said("the Necromancer never holds {power} ({barred} are drawn again "
                             "when he draws them)", power=Name("power", name),
                             barred=listed(Name("power", barred) for barred in BARRED_POWERS)))
        if name in powers:
            fail(where, said("{power} is listed twice; he holds each badge once",
                             power=Name("power", name)))
        try:
            income_lines((), (name,))
        except ScoringInputError as error:
            fail(where, said("scoring the power '{power}' is not supported: {problem}",
                             power=Name("power", name), problem=error.problem_said))
        powers.append(name)
    return tuple(powers)


def _scenario_regions(field: str, regions: Regions, powers: tuple[str, ...],
                      read: ScenarioReader) -> None:
    """No Island among his regions; seas only with Seafaring; no expansion's facts of the
    regions (River World's harbors and pirate ships: `read.expansion_facts`)."""
    island = said("the Lake holds Necromancer Island, which is not a region: it pays him "
                  "nothing and nobody holds it; leave it out")
    sea = said("a sea only with Seafaring among his powers")
    if isinstance(regions, QuickCount):
        if regions.terrains.get(Terrain.LAKE):
            fail(f"{field}.counts.lake", island)
        if regions.terrains.get(Terrain.SEA) and SEAFARING not in powers:
            fail(f"{field}.counts.sea", sea)
        for name, words in read.expansion_facts(regions):
            fail(f"{field}.counts.{name}", _not_scored(words))
        return
    for index, region in enumerate(regions):
        where = f"{field}.regions[{index}]"
        if region.terrain is Terrain.LAKE:
            fail(where, island)
        if region.terrain is Terrain.SEA and SEAFARING not in powers:
            fail(where, sea)
        for _name, words in read.expansion_facts(region):
            fail(where, _not_scored(words))


def _not_scored(words: str) -> Said:
    """Why an expansion's facts of the regions (`words`, a template marked where it is
    written) are refused on his."""
    return said("{words} are not scored for the Necromancer, here as in the app",
                words=Said(words))


def seat_field(seat: str, field: str) -> str:
    """The JSON path, under `seat` ("player", "player.necromancer"), of a field the scoring
    engine named; a quick count's (`active.regions.terrains.hill`, `regions.mines`) is under
    "counts" (`player.active.counts.hill`, `player.necromancer.counts.mines`)."""
    counted = re.fullmatch(r"((?:.*?\.)?)regions\.(?:terrains\.)?(.+)", field)
    return f"{seat}.{field}" if counted is None else f"{seat}.{counted[1]}counts.{counted[2]}"


def _necromancer_refusal(race: str) -> Said | None:
    if race.strip().casefold() != GHOSTS.casefold():
        return None
    return said("Ghosts are the Necromancer's tokens, not a race banner; score his turn "
                "with {field} ({example})", field="player.necromancer",
                example='{"powers": [...], "regions": [...]}')


def _necromancer_turn(player: Mapping[str, Any], board: Board | None, catalog: Catalog,
                      read: ScenarioReader) -> list[tuple[str, int]]:
    """The coins of the Necromancer's turn (`player.necromancer`), by the game's own
    rule (`income_lines`): a coin per region his Ghosts hold, then his
    powers' bonuses. The Island pays nothing and is refused as a region."""
    field = "player.necromancer"
    others = [key for key in ("active", "declined") if key in player]
    others += sorted(key for key in player if key not in ("active", "declined", "necromancer"))
    for other in others:
            fail(f"player.{other}", said("the Necromancer plays no race banner and holds "
                                         "nothing another expansion scores; leave it out "
                                         "beside player.necromancer"))
    doc = read.fields_of(field, player["necromancer"], _SCENARIO_FIELDS)
    powers = _scenario_powers(f"{field}.powers", read.required(field, doc, "powers"),
                              catalog, read)
    regions = read.regions(field, doc, board)
    _scenario_regions(field, regions, powers, read)
    held = regions_held(regions)
    conquered = read.whole(f"{field}.conquered_non_empty", doc.get("conquered_non_empty", 0))
    if conquered > held:
        fail(f"{field}.conquered_non_empty", said(
            "{n} is more than the {held} regions his Ghosts hold", n=conquered, held=held))
    attacked = optional_flag(f"{field}.attacked_active_race", doc.get("attacked_active_race"))
    if attacked is None and PEACE_LOVING in powers:
        fail(f"{field}.attacked_active_race", said(
            "not said: Peace-Loving earns 3 coins only if no other active race was "
            "attacked this turn; say true or false"))
    fortresses = read.whole(f"{field}.fortresses", doc.get("fortresses", 0))
    if fortresses and FORTIFIED not in powers:
        fail(f"{field}.fortresses", said("only with Fortified among his powers"))
    in_box = catalog.pieces.get("fortresses", MAX_FORTRESSES)
    if fortresses > min(held, in_box):
        fail(f"{field}.fortresses",
             said("{n} is more than the {held} regions his Ghosts hold", n=fortresses,
                  held=held) if held <= in_box else
             said("{n} is more than the {most} fortresses in the box", n=fortresses,
                  most=in_box))
    try:
        lines = income_lines(
            regions,
            powers,
            conquered_non_empty=conquered,
            attacked_active_race=bool(attacked),
            fortresses=fortresses,
        )
    except ScoringInputError as error:
        fail(seat_field(field, error.field), error.problem_said)
    return [
        (SCENARIO_REGIONS_LABEL if label == REGIONS_LINE else label, coins)
        for label, coins in lines
    ]


def _necromancer_notes(player: Mapping[str, Any], catalog: Catalog,
                       read: ScenarioReader) -> list[str]:
    necro = player["necromancer"]
    powers = {catalog.power(name).name for name in necro["powers"]}
    notes = read.held_notes("player.necromancer", necro)
    if PILLAGING in powers and "conquered_non_empty" not in necro:
        notes.append(read.left_out("player.necromancer.conquered_non_empty", "0",
                                   "Pillaging earns nothing"))
    if FORTIFIED in powers and "fortresses" not in necro:
        notes.append(read.left_out("player.necromancer.fortresses", "0",
                                   "Fortified earns nothing"))
    for power in sorted(powers & {AQUATIC}):
        notes += read.region_notes("player.necromancer", necro, GHOSTS, power, True)
    return notes


# --- River World --------------------------------------------------------------------------


def _river_region(field: str, doc: Mapping[str, Any], symbols: Sequence[str],
                  region: HeldRegion) -> HeldRegion:
    """A region object's Harbor (among its "features") and "next_to_pirates"."""
    problem = sites_refused(region.terrain, sites_among(symbols))
    if problem is not None:
        fail(f"{field}.features", problem)
    pirates = flag(f"{field}.next_to_pirates", doc.get("next_to_pirates", False))
    return with_region_facts(region, RiverRegionFacts(harbor=Site.HARBOR in symbols,
                                                      next_to_pirates=pirates))


def _river_counts(counts: Mapping[str, int], count: QuickCount) -> QuickCount:
    return with_counts(count, RiverCounts(
        harbors=counts.get("harbors", 0),
        next_to_pirates=counts.get("next_to_pirates", 0),
        inland_next_to_pirates=counts.get("inland_next_to_pirates")))


def _river_count_notes(doc: Mapping[str, Any], race: str, power: str, active: bool,
                       read: ScenarioReader) -> list[tuple[str, str, str]]:
    """An Aquatic race counting regions next to pirate ships: which of them are inland
    (they earn nothing, so lose nothing); left out, the fewest the other counts allow
    (`inland_beside_pirates`)."""
    pirates = read.counted(doc, "next_to_pirates")
    if not (active and power == AQUATIC and pirates):
        return []
    inland = max(0, pirates - read.counted(doc, "coastal"))
    return [("inland_next_to_pirates",
             f"{inland} (those next to a pirate ship beyond the coastal regions "
             "counted)", "the rest of them are taken as coastal and lose a coin each")]


def _river_facts(held: HeldRegion | QuickCount) -> tuple[str, ...]:
    if isinstance(held, QuickCount):
        counts = counts_of(held)
        return tuple(name for name, given in (
            ("harbors", counts.harbors), ("next_to_pirates", counts.next_to_pirates),
            ("inland_next_to_pirates", counts.inland_next_to_pirates)) if given)
    facts = region_facts(held)
    return tuple(name for name, given in (("harbor", facts.harbor),
                                          ("next_to_pirates", facts.next_to_pirates))
                 if given)


# --- team play ----------------------------------------------------------------------------

_RELIC_COINS = {SOAPBAR: SOAPBAR_COINS, TAVERN: TAVERN_COINS}


def _relic_lines(player: Mapping[str, Any], has_active: bool) -> list[tuple[str, int]]:
    """The coins of the Relics and Places the player's active race holds at the end of
    the turn (`player.relics`, names); only the Soapbar and the Tavern pay."""
    names = a_list("player.relics", player.get("relics", []))
    known = {name.casefold(): name for name in MARKERS}
    seen: set[str] = set()
    lines: list[tuple[str, int]] = []
    for index, value in enumerate(names):
        at = f"player.relics[{index}]"
        name = known.get(a_string(at, value).strip().casefold())
        if name is None:
            fail(at, said("unknown Relic or Place {value}; allowed: {allowed}",
                          value=show(value), allowed=", ".join(MARKERS)))
        if name in seen:
            fail(at, said("{name} is listed twice; there is one of each",
                          name=marker_name(name)))
        if not has_active:
            fail(at, said("{name} works only for an active race, and player.active is "
                          "missing", name=marker_name(name)))
        seen.add(name)
        coins = _RELIC_COINS.get(name, 0)
        if coins:
            lines.append((f"{name}: held by the active race at the end of the turn",
                          coins))
    return lines


# --- the mini-expansions ------------------------------------------------------------------

_SCENARIO_HISTORIAN = frozenset({"in_decline_when_picked", "others_declined"})


def _scenario_historian(field: str, doc: Mapping[str, Any],
                        read: ScenarioReader) -> HistorianEvents:
    """A scenario race's `historian` field: the declines its coins count."""
    if "historian" not in doc:
        return HistorianEvents()
    counts = read.fields_of(f"{field}.historian", doc["historian"], _SCENARIO_HISTORIAN)
    return HistorianEvents(**{name: read.whole(f"{field}.historian.{name}", counts.get(name, 0))
                              for name in ("in_decline_when_picked", "others_declined")})


def _mini_active(field: str, doc: Mapping[str, Any], holdings: ActiveHoldings,
                 read: ScenarioReader) -> ActiveHoldings:
    facts = MiniFacts(
        pots_of_gold=read.whole(f"{field}.pots_of_gold", doc.get("pots_of_gold", 0)),
        historian=_scenario_historian(field, doc, read),
    )
    return replace(
        holdings,
        abandoned=read.whole(f"{field}.abandoned", doc.get("abandoned", 0)),
        attacked_active_race=optional_flag(
            f"{field}.attacked_active_race", doc.get("attacked_active_race")
        ),
        facts=with_facts(holdings.facts, facts),
    )


def _mini_declined(field: str, doc: Mapping[str, Any], holdings: DeclinedHoldings,
                   read: ScenarioReader) -> DeclinedHoldings:
    facts = MiniFacts(
        ivory_tower=read.whole(f"{field}.ivory_tower", doc.get("ivory_tower", 0)),
        pots_of_gold=read.whole(f"{field}.pots_of_gold", doc.get("pots_of_gold", 0)),
        historian=_scenario_historian(field, doc, read),
    )
    return replace(holdings, facts=with_facts(holdings.facts, facts))


def _mini_checks(doc: Mapping[str, Any], race: str, power: str, active: bool,
                 read: ScenarioReader) -> list[tuple[str, str, str]]:
    checks: list[tuple[str, str, str]] = []
    first_turn = doc.get("first_turn") is True
    this_turn = doc.get("this_turn") is True
    if active:
        if race == GYPSIES:
            checks.append(("abandoned", "0", "no coin from regions abandoned this turn"))
        if race == LEPRECHAUNS and not first_turn:
            checks.append(("pots_of_gold", "0", "no Pot of Gold is collected"))
        if power == HISTORIAN:
            checks.append(("historian.others_declined", "0", "no coin for other declines"))
            if first_turn:
                checks.append(("historian.in_decline_when_picked", "0",
                               "no coin for the races in decline when it was picked"))
        return checks
    if power == HISTORIAN:
        checks.append(("this_turn", "false", "the Historians' last coin, paid on going "
                                             "into decline, is not paid"))
    if race == LEPRECHAUNS:
        checks.append(("this_turn", "false", "no Pot of Gold can be collected"))
    if this_turn and race == LEPRECHAUNS:
        checks.append(("pots_of_gold", "0", "no Pot of Gold is collected"))
    if this_turn and power == HISTORIAN:
        checks.append(("historian.others_declined", "0", "no coin for other declines"))
    if race == PRIESTESSES and read.holds_a_region(doc):
        checks.append(("ivory_tower", "0", "the Ivory Tower scores nothing"))
    return checks


PARTS: tuple[ScorePart, ...] = (
    ScorePart(NECROMANCER_ISLAND.name, own="necromancer", turn=_necromancer_turn,
              notes=_necromancer_notes, refusal=_necromancer_refusal),
    ScorePart(RIVER_WORLD.name, region_fields=("next_to_pirates",), region=_river_region,
              count_fields=("harbors", "next_to_pirates", "inland_next_to_pirates"),
              counts=_river_counts, count_notes=_river_count_notes, facts=_river_facts,
              facts_words=N_("River World's harbors and pirate ships")),
    ScorePart(TEAM_PLAY.name, fields=("relics",), lines=_relic_lines),
    ScorePart(MINI_EXPANSIONS.name,
              active_fields=("abandoned", "attacked_active_race", "pots_of_gold", "historian"),
              active=_mini_active, declined_fields=("ivory_tower", "pots_of_gold", "historian"),
              declined=_mini_declined, checks=_mini_checks),
)
"""Every expansion's part of a scenario, in the registry's order."""
