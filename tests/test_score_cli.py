"""`companion score`: a JSON scenario in, the itemised score out; bad input exits 2."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scoring_support import run_score, score_ok

from companion.commands.score import main
from companion.rules.maps import Feature, Terrain, load_board

SCENARIOS = Path(__file__).parent / "scenarios"
BOARD = load_board("2p")


def test_a_position_on_the_two_player_board_is_scored_from_region_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Forest Wizards on a magic farmland and a forest; Dwarves in decline on a mine mountain
    assert Feature.MAGIC in BOARD.region(2).features
    assert (
        BOARD.region(3).terrain is Terrain.FOREST and Feature.MAGIC not in BOARD.region(3).features
    )
    assert Feature.MINE in BOARD.region(6).features
    doc = {
        "map": "2p",
        "turn": 4,
        "player": {
            "active": {"race": "Wizards", "power": "Forest", "regions": [2, 3]},
            "declined": [{"race": "Dwarves", "power": "Hill", "regions": [6]}],
        },
    }
    assert score_ok(capsys, doc, tmp_path) == {
        "total": 6,
        "lines": [
            {"label": "Regions held by Wizards", "coins": 2},
            {"label": "Wizards: one per magic source region", "coins": 1},
            {"label": "Forest: one per forest region", "coins": 1},
            {"label": "Regions held by Dwarves (in decline)", "coins": 1},
            {"label": "Dwarves (in decline): one per mine region", "coins": 1},
        ],
    }


def test_the_issue_example_mixing_ids_and_region_objects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {
        "map": "2p",
        "turn": 4,
        "player": {
            "active": {
                "race": "Orcs",
                "power": "Pillaging",
                "first_turn": False,
                "regions": [3, 7, {"terrain": "hill", "features": ["mine"], "coastal": True}],
                "conquered_non_empty": 2,
                "fortresses": 0,
            },
            "declined": [
                {"race": "Dwarves", "power": "Hill", "regions": [5, 9], "this_turn": False}
            ],
        },
    }
    result = score_ok(capsys, doc, tmp_path)
    # 3 regions + Orcs 2 + Pillaging 2; Dwarves 2 regions, no mine among 5 and 9
    assert result["total"] == 3 + 2 + 2 + 2


def test_the_worked_examples_of_the_rulebook_as_scenario_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, total in [
        ("merchant_skeletons.json", 6),
        ("hill_tritons_declined_skeletons.json", 4),
    ]:
        assert main([str(SCENARIOS / name)]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        assert json.loads(out)["total"] == total


def test_without_a_map_regions_are_objects_and_names_ignore_case(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {
        "turn": 2,
        "player": {
            "active": {
                "race": "HUMANS",
                "power": "merchant",
                "regions": [{"terrain": "Farmland"}, {"terrain": "hill", "features": ["MINE"]}],
            }
        },
    }
    assert score_ok(capsys, doc, tmp_path)["total"] == 2 + 1 + 2


def test_the_quick_count_gives_the_same_number_as_the_map(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    by_map = {
        "map": "2p",
        "turn": 3,
        "player": {"active": {"race": "Dwarves", "power": "Swamp", "regions": [4, 6, 19]}},
    }
    by_count = {
        "turn": 3,
        "player": {
            "active": {
                "race": "Dwarves",
                "power": "Swamp",
                "counts": {"swamp": 2, "mountain": 1, "mines": 2},
            }
        },
    }
    assert score_ok(capsys, by_map, tmp_path) == score_ok(capsys, by_count, tmp_path)


def test_standard_input_is_read_for_a_dash(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = {
        "turn": 1,
        "player": {"active": {"race": "Trolls", "power": "Wealthy", "first_turn": True,
                              "regions": []}},
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(doc)))
    assert main(["-"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "total": 7,
        "lines": [
            {"label": "Regions held by Trolls", "coins": 0},
            {"label": "Wealthy: once, on the turn the combo was picked", "coins": 7},
        ],
    }


def test_the_module_runs_as_a_program() -> None:
    doc = {
        "turn": 2,
        "player": {
            "active": None,
            "declined": [{"race": "Orcs", "power": "Hill", "regions": [{"terrain": "hill"}]}],
        },
    }
    done = subprocess.run(
        [sys.executable, "-m", "companion.commands.score"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["total"] == 1


GOOD_ACTIVE = {"race": "Orcs", "power": "Hill", "regions": [3]}


def scenario(**changes: Any) -> dict[str, Any]:
    """A good scenario with some fields changed (an active field set to None is left out)."""
    merged = {**GOOD_ACTIVE, **changes.pop("active", {})}
    active = {k: v for k, v in merged.items() if v is not None}
    doc: dict[str, Any] = {"map": "2p", "turn": 4, "player": {"active": active}}
    doc.update(changes)
    return doc


BAD_INPUTS = {
    "unknown race": (scenario(active={"race": "Orks"}), "player.active.race", "Orks"),
    "unknown power": (scenario(active={"power": "Hilly"}), "player.active.power", "Hilly"),
    "expansion count for the wrong race": (
        scenario(active={"race": "Goblins", "pots_of_gold": 2}),
        "player.active.pots_of_gold",
        "Leprechauns",
    ),
    "id not on the board": (
        scenario(active={"regions": [3, 99]}),
        "player.active.regions[1]",
        "99",
    ),
    "id without a map": (
        {"turn": 4, "player": {"active": GOOD_ACTIVE}},
        "player.active.regions[0]",
        "map",
    ),
    "region listed twice": (
        {
            "map": "2p",
            "turn": 4,
            "player": {
                "active": GOOD_ACTIVE,
                "declined": [{"race": "Elves", "power": "Hill", "regions": [5, 3]}],
            },
        },
        "player.declined[0].regions[1]",
        "region 3",
    ),
    "negative count": (
        scenario(active={"conquered_non_empty": -1}),
        "player.active.conquered_non_empty",
        "-1",
    ),
    "negative quick count": (
        scenario(active={"regions": None, "counts": {"hill": -2}}),
        "player.active.counts.hill",
        "-2",
    ),
    "malformed JSON": ('{"turn": 4, "player": ', "input", "malformed JSON"),
    "not an object": ("[1, 2]", "input", "[1, 2]"),
    "turn is a string": (scenario(turn="4"), "turn", '"4"'),
    "turn is a boolean": (scenario(turn=True), "turn", "true"),
    "turn past the board's last": (scenario(turn=11), "turn", "11"),
    "turn zero": (scenario(turn=0), "turn", "0"),
    "regions not a list": (scenario(active={"regions": 3}), "player.active.regions", "3"),
    "first_turn not a boolean": (
        scenario(active={"first_turn": "yes"}),
        "player.active.first_turn",
        "yes",
    ),
    "race not a string": (scenario(active={"race": 5}), "player.active.race", "5"),
    "region id a boolean": (
        scenario(active={"regions": [True]}),
        "player.active.regions[0]",
        "true",
    ),
    "unknown terrain": (
        scenario(active={"regions": [{"terrain": "desert"}]}),
        "player.active.regions[0].terrain",
        "desert",
    ),
    "unknown feature": (
        scenario(active={"regions": [{"terrain": "hill", "features": ["gold"]}]}),
        "player.active.regions[0].features[0]",
        "gold",
    ),
    "misspelt field": (
        scenario(active={"conquered_nonempty": 2}),
        "player.active.conquered_nonempty",
        "unknown",
    ),
    "unknown map": (scenario(map="6p"), "map", "6p"),
    "missing player": ({"turn": 4}, "player", "missing"),
    "missing race": (
        {"turn": 4, "player": {"active": {"power": "Hill"}}},
        "player.active.race",
        "missing",
    ),
    "declined not a list": (scenario(player={"declined": {}}), "player.declined", "{}"),
    "water without seafaring": (
        scenario(active={"regions": [3, 1]}),
        "player.active.regions[1]",
        "sea region 1",
    ),
    "counted water without seafaring": (
        scenario(active={"regions": None, "counts": {"hill": 1, "lake": 1}}),
        "player.active.counts.lake",
        "Seafaring",
    ),
    "more mines than regions": (
        scenario(active={"regions": None, "counts": {"hill": 1, "mines": 2}}),
        "player.active.counts.mines",
        "2",
    ),
    "both regions and counts": (
        scenario(active={"counts": {"hill": 1}}),
        "player.active.counts",
        "not both",
    ),
    "negative abandoned": (
        scenario(active={"race": "Gypsies", "abandoned": -1}),
        "player.active.abandoned",
        "-1",
    ),
    "abandoned by a race other than Gypsies": (
        scenario(active={"abandoned": 2}),
        "player.active.abandoned",
        "Gypsies",
    ),
    "Peace-Loving without saying whether it attacked": (
        scenario(active={"power": "Peace-Loving"}),
        "player.active.attacked_active_race",
        "true or false",
    ),
    "attacked_active_race not a boolean": (
        scenario(active={"power": "Peace-Loving", "attacked_active_race": "no"}),
        "player.active.attacked_active_race",
        "no",
    ),
    "historian not an object": (
        scenario(active={"power": "Historian", "historian": 2}),
        "player.active.historian",
        "2",
    ),
    "historian unknown count": (
        scenario(active={"power": "Historian", "historian": {"declines": 1}}),
        "player.active.historian.declines",
        "unknown",
    ),
    "historian on a race picked earlier": (
        scenario(active={"power": "Historian", "historian": {"in_decline_when_picked": 1}}),
        "player.active.historian.in_decline_when_picked",
        "first_turn",
    ),
    "ivory tower on the active race": (
        scenario(active={"race": "Priestesses", "ivory_tower": 3}),
        "player.active.ivory_tower",
        "unknown",
    ),
    "ivory tower over two regions": (
        scenario(
            player={
                "declined": [
                    {"race": "Priestesses", "power": "Hill", "regions": [5, 9], "ivory_tower": 2}
                ]
            }
        ),
        "player.declined[0].regions",
        "Ivory Tower",
    ),
    "pots of gold in decline since an earlier turn": (
        scenario(
            player={
                "declined": [
                    {"race": "Leprechauns", "power": "Hill", "regions": [5], "pots_of_gold": 1}
                ]
            }
        ),
        "player.declined[0].pots_of_gold",
        "earlier turn",
    ),
    "more coastal regions than land counted": (
        scenario(active={"regions": None, "counts": {"hill": 1, "coastal": 2}}),
        "player.active.counts.coastal",
        "2",
    ),
    "duplicate key": ('{"turn": 4, "turn": 5, "player": {"active": null}}', "turn", "twice"),
    "NaN": ('{"turn": NaN, "player": {"active": null}}', "input", "NaN"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS), ids=list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_naming_the_field_and_value(
    case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc, field, value = BAD_INPUTS[case]
    code, out, err = run_score(capsys, doc, tmp_path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert f" {field}: " in err
    assert value in err


DOC = Path(__file__).parent.parent / "docs" / "score-format.md"
DOC_EXAMPLES = re.findall(
    r"<!-- example -->\n```json\n(.*?)```\n```json\n(.*?)```", DOC.read_text("utf-8"), re.S
)


def test_the_format_document_has_an_example_for_each_new_field() -> None:
    scenarios = "".join(scenario for scenario, _ in DOC_EXAMPLES)
    for name in (
        '"map"',
        '"counts"',
        '"coastal"',
        '"abandoned"',
        '"attacked_active_race"',
        '"pots_of_gold"',
        '"ivory_tower"',
        '"in_decline_when_picked"',
        '"others_declined"',
        '"Were-"',
        '"harbors"',
        '"next_to_pirates"',
        '"inland_next_to_pirates"',
        '"relics"',
        '"necromancer"',
    ):
        assert name in scenarios, name
    assert any('"notes"' in output for _, output in DOC_EXAMPLES)


@pytest.mark.parametrize(("doc", "expected"), DOC_EXAMPLES)
def test_every_example_of_the_format_document_prints_its_documented_output(
    doc: str, expected: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert score_ok(capsys, doc, tmp_path) == json.loads(expected)


def test_mini_expansion_fields_left_out_score_as_the_base_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {
        "turn": 5,
        "player": {
            "active": {"race": "Kobolds", "power": "Were-", "regions": [{"terrain": "hill"}]},
            "declined": [{"race": "Priestesses", "power": "Mercenary", "regions": []}],
        },
    }
    assert score_ok(capsys, doc, tmp_path) == {
        "total": 1,
        "lines": [
            {"label": "Regions held by Kobolds", "coins": 1},
            {
                "label": "Regions held by Priestesses (in decline): the Ivory Tower scores instead",
                "coins": 0,
            },
        ],
    }


def test_a_missing_file_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([str(tmp_path / "nowhere.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "nowhere.json" in err


def test_two_file_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["a.json", "b.json"])
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1


def test_the_companion_command_line_has_the_score_subcommand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main as companion

    scenario = tmp_path / "turn.json"
    scenario.write_text(json.dumps({"turn": 2, "player": {"active": {
        "race": "Humans", "power": "Merchant", "regions": [{"terrain": "farmland"}]}}}))
    assert companion(["score", str(scenario)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 1 + 1 + 1


def test_a_number_too_long_for_python_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"turn": ' + "9" * 5000 + "}"))
    assert main(["-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "input" in err


def test_relics_held_by_the_active_race_pay_the_soapbar_and_the_tavern(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {"turn": 3, "player": {
        "active": {"race": "Orcs", "power": "Hill", "regions": [{"terrain": "forest"}],
                   "conquered_non_empty": 0},
        "relics": ["glandulf's tavern", "Bony's Boneyard"]}}
    assert score_ok(capsys, doc, tmp_path) == {"total": 3, "lines": [
        {"label": "Regions held by Orcs", "coins": 1},
        {"label": "Glandulf's Tavern: held by the active race at the end of the turn",
         "coins": 2}]}


@pytest.mark.parametrize(("player", "field", "value"), [
    ({"relics": ["Golden Soapbar"]}, "player.relics[0]", "player.active is missing"),
    ({"active": {"race": "Orcs", "power": "Hill", "regions": []},
      "relics": ["Golden Soapbar", "golden soapbar"]}, "player.relics[1]", "listed twice"),
    ({"active": {"race": "Orcs", "power": "Hill", "regions": []},
      "relics": ["Holy Grail"]}, "player.relics[0]", "Golden Soapbar"),
    ({"active": {"race": "Orcs", "power": "Hill", "regions": []},
      "relics": "Golden Soapbar"}, "player.relics", "expected a list"),
])
def test_a_bad_relic_is_refused_naming_the_field(
    player: dict[str, object], field: str, value: str,
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    code, out, err = run_score(capsys, {"turn": 3, "player": player}, tmp_path)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f" {field}: " in err and value in err


# --- impossible positions and fields left out -------------------------------------------


def test_leprechauns_picked_this_turn_are_refused_pots_of_gold_that_cannot_exist_yet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {"turn": 3, "player": {"active": {
        "race": "Leprechauns", "power": "Hill", "first_turn": True,
        "counts": {"hill": 2}, "pots_of_gold": 2}}}
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, out) == (2, "")
    assert err.startswith("companion score: player.active.pots_of_gold: ")
    assert "picked this turn" in err and err.count("\n") == 1


def test_an_aquatic_region_object_without_coastal_is_noted_in_the_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {"turn": 5, "player": {"active": {"race": "Ratmen", "power": "Aquatic", "regions": [
        {"terrain": "hill", "coastal": True}, {"terrain": "forest"}, {"terrain": "swamp"}]}}}
    result = score_ok(capsys, doc, tmp_path)
    assert result["total"] == 3 + 1 - 2  # the default is still taken: old scenarios score alike
    assert result["notes"] == [
        "player.active.regions[1].coastal, player.active.regions[2].coastal left out: taken "
        "as false (inland), so Aquatic pays one coin less for each instead of one more"
    ]
    doc["player"]["active"]["regions"][1]["coastal"] = False  # type: ignore[index]
    doc["player"]["active"]["regions"][2]["coastal"] = False  # type: ignore[index]
    assert "notes" not in score_ok(capsys, doc, tmp_path)


_LEFT_OUT = [
    ({"active": {"race": "Ratmen", "power": "Aquatic", "counts": {"hill": 2}}},
     "player.active.counts.coastal", {"coastal": 1}),
    ({"active": {"race": "Ratmen", "power": "Aquatic",
                 "counts": {"hill": 2, "coastal": 1, "next_to_pirates": 2}}},
     "player.active.counts.inland_next_to_pirates", {"inland_next_to_pirates": 1}),
    ({"active": {"race": "Ratmen", "power": "Wealthy", "counts": {"hill": 1}}},
     "player.active.first_turn", {"first_turn": False}),
    ({"active": {"race": "Orcs", "power": "Hill", "counts": {"hill": 1}}},
     "player.active.conquered_non_empty", {"conquered_non_empty": 0}),
    ({"active": {"race": "Ratmen", "power": "Pillaging", "counts": {"hill": 1}}},
     "player.active.conquered_non_empty", {"conquered_non_empty": 1}),
    ({"active": {"race": "Ratmen", "power": "Fortified", "counts": {"hill": 1}}},
     "player.active.fortresses", {"fortresses": 1}),
    ({"active": {"race": "Gypsies", "power": "Hill", "counts": {"hill": 1}}},
     "player.active.abandoned", {"abandoned": 1}),
    ({"active": {"race": "Leprechauns", "power": "Hill", "counts": {"hill": 1}}},
     "player.active.pots_of_gold", {"pots_of_gold": 1}),
    ({"active": {"race": "Ratmen", "power": "Historian", "counts": {"hill": 1}}},
     "player.active.historian.others_declined", {"historian": {"others_declined": 0}}),
    ({"active": {"race": "Dwarves", "power": "Hill", "counts": {"mountain": 1}}},
     "player.active.counts.mines", {"mines": 1}),
    ({"active": {"race": "Wizards", "power": "Hill", "counts": {"hill": 1}}},
     "player.active.counts.magic_sources", {"magic_sources": 1}),
    ({"declined": [{"race": "Ratmen", "power": "Historian", "counts": {"hill": 1}}]},
     "player.declined[0].this_turn", {"this_turn": False}),
    ({"declined": [{"race": "Leprechauns", "power": "Hill", "counts": {"hill": 1},
                    "this_turn": True}]},
     "player.declined[0].pots_of_gold", {"pots_of_gold": 2}),
    ({"declined": [{"race": "Priestesses", "power": "Hill", "counts": {"hill": 1}}]},
     "player.declined[0].ivory_tower", {"ivory_tower": 3}),
    ({"active": {"race": "Elves", "power": "Flying"}},
     "player.active.regions", {"regions": []}),
]


@pytest.mark.parametrize(("player", "field", "given"), _LEFT_OUT)
def test_a_field_left_out_that_changes_the_score_is_noted_and_given_it_is_not(
    player: dict[str, Any], field: str, given: dict[str, Any],
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    result = score_ok(capsys, {"turn": 4, "player": player}, tmp_path)
    assert [note.split(" left out: ")[0] for note in result["notes"]] == [field]
    race = player["active"] if "active" in player else player["declined"][0]
    for key, value in given.items():
        if key in ("coastal", "inland_next_to_pirates", "mines", "magic_sources"):
            race["counts"][key] = value
        else:
            race[key] = value
    assert "notes" not in score_ok(capsys, {"turn": 4, "player": player}, tmp_path)


def test_fields_left_out_that_no_race_or_power_reads_leave_no_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {"turn": 4, "player": {
        "active": {"race": "Elves", "power": "Flying", "regions": [{"terrain": "hill"}]},
        "declined": [{"race": "Dwarves", "power": "Hill", "regions": [{"terrain": "forest"}]}]}}
    assert score_ok(capsys, doc, tmp_path) == {
        "total": 2, "lines": [{"label": "Regions held by Elves", "coins": 1},
                              {"label": "Regions held by Dwarves (in decline)", "coins": 1}]}
