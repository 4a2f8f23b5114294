"""The maps: regions, terrain, features and adjacency of the four base-game boards."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.rules.catalog import load_catalog
from companion.rules.errors import DataError, UnknownName
from companion.rules.maps import (
    BOARD_NAMES,
    Board,
    Feature,
    Terrain,
    board_for_players,
    known_terrains,
    load_board,
    parse_board,
)

SHARED = Path(__file__).resolve().parents[2] / "shared"

# The counts published for each printed board (regions, land regions, terrain, features,
# Lost Tribes, regions on the edge, First Conquest regions, coastal regions, borders).
PUBLISHED = {
    "2p": {"players": 2, "turns": 10, "regions": 23, "land": 20,
           "terrain": {"farmland": 4, "forest": 4, "hill": 4, "lake": 1, "mountain": 4,
                       "sea": 2, "swamp": 4},
           "mine": 4, "magic": 4, "cavern": 4, "lost_tribes": 9, "border": 15, "entry": 14,
           "coastal": 10, "adjacency_pairs": 51},
    "3p": {"players": 3, "turns": 10, "regions": 30, "land": 27,
           "terrain": {"farmland": 5, "forest": 5, "hill": 5, "lake": 1, "mountain": 7,
                       "sea": 2, "swamp": 5},
           "mine": 5, "magic": 5, "cavern": 5, "lost_tribes": 10, "border": 16, "entry": 16,
           "coastal": 13, "adjacency_pairs": 71},
    "4p": {"players": 4, "turns": 9, "regions": 39, "land": 36,
           "terrain": {"farmland": 7, "forest": 7, "hill": 7, "lake": 1, "mountain": 8,
                       "sea": 2, "swamp": 7},
           "mine": 7, "magic": 7, "cavern": 7, "lost_tribes": 14, "border": 18, "entry": 21,
           "coastal": 17, "adjacency_pairs": 95},
    "5p": {"players": 5, "turns": 8, "regions": 48, "land": 45,
           "terrain": {"farmland": 9, "forest": 9, "hill": 9, "lake": 1, "mountain": 9,
                       "sea": 2, "swamp": 9},
           "mine": 9, "magic": 9, "cavern": 9, "lost_tribes": 18, "border": 21, "entry": 25,
           "coastal": 20, "adjacency_pairs": 119},
}  # fmt: skip


def _counts(board: Board) -> dict[str, Any]:
    regions = board.regions.values()
    pairs = {frozenset((r.id, other)) for r in regions for other in r.adjacent}
    return {
        "players": board.players,
        "turns": board.turns,
        "regions": len(board.regions),
        "land": sum(not r.is_water for r in regions),
        "terrain": dict(Counter(r.terrain.value for r in regions)),
        **{f.value: sum(f in r.features for r in regions) for f in Feature},
        "lost_tribes": sum(r.lost_tribe for r in regions),
        "border": sum(r.border for r in regions),
        "entry": sum(r.entry for r in regions),
        "coastal": sum(r.coastal for r in regions),
        "adjacency_pairs": len(pairs),
    }


@pytest.fixture(params=BOARD_NAMES)
def board(request: pytest.FixtureRequest) -> Board:
    return load_board(request.param)


# --- the printed boards -------------------------------------------------------------------


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_each_board_matches_its_published_counts(name: str) -> None:
    assert _counts(load_board(name)) == PUBLISHED[name]


def test_adjacency_is_symmetric(board: Board) -> None:
    for region in board.regions.values():
        for other in region.adjacent:
            assert region.id in board.regions[other].adjacent, (board.name, region.id, other)
            assert board.are_adjacent(other, region.id)


def test_no_region_borders_itself(board: Board) -> None:
    assert all(r.id not in r.adjacent for r in board.regions.values())


def test_every_region_can_be_reached_from_every_other(board: Board) -> None:
    seen, todo = {1}, [1]
    while todo:
        for other in board.regions[todo.pop()].adjacent - seen:
            seen.add(other)
            todo.append(other)
    assert seen == set(board.regions)


def test_region_ids_run_from_1_without_gaps(board: Board) -> None:
    assert list(board.regions) == list(range(1, len(board.regions) + 1))
    assert all(board.regions[i].id == i for i in board.regions)


def test_seas_and_lakes_are_never_entry_coastal_or_inhabited(board: Board) -> None:
    for region in board.regions.values():
        if region.is_water:
            assert not (region.entry or region.coastal or region.lost_tribe or region.features)


def test_coastal_regions_are_the_land_next_to_water(board: Board) -> None:
    for r in board.regions.values():
        beside_water = any(board.regions[i].is_water for i in r.adjacent)
        assert r.coastal == (not r.is_water and beside_water), (board.name, r.id)


def test_a_race_enters_at_the_edge_or_from_a_sea_that_touches_it(board: Board) -> None:
    for r in board.regions.values():
        edge_sea = any(
            board.regions[i].terrain is Terrain.SEA and board.regions[i].border for i in r.adjacent
        )
        assert r.entry == (not r.is_water and (r.border or edge_sea)), (board.name, r.id)


def test_every_region_has_a_position_inside_the_board(board: Board) -> None:
    assert board.aspect is not None and 0.5 < board.aspect < 2.5
    for r in board.regions.values():
        assert r.position is not None
        assert 0 <= r.position[0] <= 1 and 0 <= r.position[1] <= 1


def test_boards_follow_the_catalogs_turn_track(board: Board) -> None:
    assert board.turns == load_catalog().turns_by_players[board.players]


def test_the_box_has_a_mountain_and_a_lost_tribe_for_every_symbol(board: Board) -> None:
    pieces = load_catalog().pieces
    regions = board.regions.values()
    assert sum(r.terrain is Terrain.MOUNTAIN for r in regions) <= pieces["mountains"]
    assert sum(r.lost_tribe for r in regions) <= pieces["lost_tribe_tokens"]


def test_the_2p_board_as_printed() -> None:
    board = load_board("2p")
    assert board.region(8).terrain is Terrain.LAKE
    assert board.region(6).terrain is Terrain.MOUNTAIN
    assert board.region(6).features == {Feature.MINE, Feature.CAVERN}
    assert board.region(22).entry and not board.region(22).border  # on the shore of sea 23
    assert not board.region(7).entry
    assert board.are_adjacent(1, 2) and not board.are_adjacent(1, 3)
    assert board.region(14).adjacent == {8, 9, 13, 15, 19, 20, 21}


@pytest.mark.skipif(not (SHARED / "reference").is_dir(), reason="no ../shared/reference here")
def test_boards_match_the_shared_reference(board: Board) -> None:
    ref = json.loads((SHARED / "reference" / f"map-{board.name}.json").read_text())
    layout = json.loads((SHARED / "reference" / f"layout-{board.name}.json").read_text())
    assert (board.players, board.turns, board.aspect) == (
        ref["players"],
        ref["turns"],
        layout["aspect"],
    )
    assert len(board.regions) == len(ref["regions"])
    for want in ref["regions"]:
        got = board.region(want["id"])
        assert got.terrain.value == want["terrain"]
        assert {f.value for f in got.features} == set(want["features"])
        flags = ("lost_tribe", "border", "entry", "coastal")
        assert [getattr(got, f) for f in flags] == [want[f] for f in flags], got.id
        assert got.adjacent == set(want["adjacent"])
        assert got.position == tuple(layout["regions"][str(want["id"])])


# --- looking things up --------------------------------------------------------------------


def test_a_board_is_chosen_by_the_number_of_players() -> None:
    for players in (2, 3, 4, 5):
        board = board_for_players(players)
        assert (board.name, board.players) == (f"{players}p", players)


@pytest.mark.parametrize("players", [0, 1, 6, True, 3.0, "3"])
def test_there_is_no_board_for_other_player_counts(players: int) -> None:
    with pytest.raises(UnknownName, match=r"allowed: 2, 3, 4, 5$"):
        board_for_players(players)


def test_board_names_ignore_case() -> None:
    assert load_board("2P") is load_board("2p")


def test_an_unknown_board_lists_the_board_names() -> None:
    with pytest.raises(UnknownName, match=r"^unknown board '6p'; allowed: 2p, 3p, 4p, 5p$"):
        load_board("6p")


def test_an_unknown_region_names_the_boards_id_range() -> None:
    board = load_board("4p")
    for bad in (0, 40, True):
        with pytest.raises(UnknownName, match=r"^unknown region .*; allowed: 1\.\.39$"):
            board.region(bad)
    with pytest.raises(UnknownName, match="unknown region 40"):
        board.are_adjacent(1, 40)


def test_boards_are_read_once() -> None:
    assert load_board("3p") is board_for_players(3)


def test_boards_cannot_be_changed() -> None:
    board = load_board("2p")
    with pytest.raises(TypeError):
        board.regions[1] = board.regions[2]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.region(1).lost_tribe = True  # type: ignore[misc]
    assert hash(board) == hash(load_board("2p"))


def test_seas_and_lakes_are_water() -> None:
    assert {t for t in known_terrains() if t.is_water} == {Terrain.SEA, Terrain.LAKE}
    assert load_board("2p").region(1).is_water and not load_board("2p").region(2).is_water


# --- a broken board fails loudly, naming the file and the region --------------------------


def _tiny() -> dict[str, Any]:
    """Sea 1 on the edge; farmland 2 on the edge; hill 3 on its shore; forest 4 inland."""

    def region(id_: int, terrain: str, adjacent: list[int], **flags: Any) -> dict[str, Any]:
        doc = {"id": id_, "terrain": terrain, "features": [], "lost_tribe": False,
               "border": False, "entry": False, "coastal": False, "adjacent": adjacent,
               "position": [0.25 * id_ - 0.1, 0.5]}  # fmt: skip
        doc.update(flags)
        return doc

    return {
        "schema": 1,
        "name": "tiny",
        "players": 2,
        "turns": 10,
        "aspect": 1.5,
        "regions": [
            region(1, "sea", [2, 3], border=True),
            region(2, "farmland", [1, 3, 4], border=True, entry=True, coastal=True),
            region(3, "hill", [1, 2, 4], entry=True, coastal=True),
            region(4, "forest", [2, 3], features=["mine"], lost_tribe=True),
        ],
    }


def test_the_tiny_test_board_is_valid() -> None:
    board = parse_board(_tiny(), source="tiny.json")
    assert board.region(4).features == {Feature.MINE} and board.region(3).entry


Change = Callable[[dict[str, Any]], None]


def _region(id_: int, key: str, value: Any) -> Change:
    def change(doc: dict[str, Any]) -> None:
        doc["regions"][id_ - 1][key] = value

    return change


def _board(key: str, value: Any) -> Change:
    def change(doc: dict[str, Any]) -> None:
        doc[key] = value

    return change


def _unlink_4_from_2(doc: dict[str, Any]) -> None:
    doc["regions"][1]["adjacent"] = [1, 3]


def _drop_terrain_of_4(doc: dict[str, Any]) -> None:
    del doc["regions"][3]["terrain"]


def _landlocked(doc: dict[str, Any]) -> None:
    doc["regions"] = [
        {"id": 1, "terrain": "hill", "features": [], "lost_tribe": False, "border": False,
         "entry": False, "coastal": False, "adjacent": [2]},
        {"id": 2, "terrain": "swamp", "features": [], "lost_tribe": False, "border": False,
         "entry": False, "coastal": False, "adjacent": [1]},
    ]  # fmt: skip


BROKEN: list[tuple[str, Change, str]] = [
    ("asymmetric adjacency", _unlink_4_from_2,
     "tiny.json: region 4: adjacent lists 2 but region 2 does not list 4"),
    ("adjacent to an unknown id", _region(4, "adjacent", [2, 3, 9]),
     "tiny.json: region 4: adjacent lists 9, which is not a region of this board (ids 1..4)"),
    ("adjacent to itself", _region(4, "adjacent", [2, 3, 4]),
     "tiny.json: region 4: adjacent lists the region itself"),
    ("adjacent twice", _region(4, "adjacent", [2, 3, 2]),
     "tiny.json: region 4: adjacent lists 2 twice"),
    ("adjacent not an id", _region(4, "adjacent", [2, "3"]),
     "tiny.json: region 4: adjacent must list region ids (whole numbers), found \"3\""),
    ("duplicate id", _region(4, "id", 1),
     "tiny.json: region 1: this id is used by two regions"),
    ("gap in the ids", _region(4, "id", 5),
     "tiny.json: region 5: id is outside 1..4: the 4 regions must be numbered 1 to 4"),
    ("id not a number", _region(4, "id", "4"),
     "tiny.json: region entry #4: id must be a whole number, got \"4\""),
    ("id zero", _region(4, "id", 0),
     "tiny.json: region entry #4: id must be at least 1, got 0"),
    ("unknown terrain", _region(4, "terrain", "desert"),
     "tiny.json: region 4: unknown terrain \"desert\"; allowed: farmland, hill, forest, swamp, "
     "mountain, sea, lake"),
    ("unknown feature", _region(4, "features", ["gold"]),
     "tiny.json: region 4: unknown feature \"gold\"; allowed: mine, magic, cavern"),
    ("feature twice", _region(4, "features", ["mine", "mine"]),
     "tiny.json: region 4: features lists mine twice"),
    ("sea flagged entry", _region(1, "entry", True),
     "tiny.json: region 1: a sea cannot be an entry region (entry must be false)"),
    ("sea flagged coastal", _region(1, "coastal", True),
     "tiny.json: region 1: a sea cannot be coastal"),
    ("lost tribe at sea", _region(1, "lost_tribe", True),
     "tiny.json: region 1: a sea cannot start with a Lost Tribe"),
    ("magic at sea", _region(1, "features", ["magic"]),
     "tiny.json: region 1: a sea cannot have features (found magic)"),
    ("coastal without water", _region(4, "coastal", True),
     "tiny.json: region 4: coastal is true but no neighbour is a sea or lake"),
    ("not coastal beside the sea", _region(3, "coastal", False),
     "tiny.json: region 3: coastal is false but it borders sea region 1"),
    ("a lake is no way in", _region(1, "terrain", "lake"),
     "tiny.json: region 3: entry is true but the region neither touches the board edge nor "
     "borders a sea that does"),
    ("edge region not an entry", _region(2, "entry", False),
     "tiny.json: region 2: entry is false but the region touches the board edge"),
    ("shore of an edge sea not an entry", _region(3, "entry", False),
     "tiny.json: region 3: entry is false but it borders sea region 1, which touches the board"),
    ("inland entry", _region(4, "entry", True),
     "tiny.json: region 4: entry is true but the region neither touches the board edge nor"),
    ("position off the board", _region(4, "position", [1.2, 0.5]),
     "tiny.json: region 4: position must be [x, y] with both between 0 and 1, or null; got "
     "[1.2, 0.5]"),
    ("position with one number", _region(4, "position", [0.5]),
     "tiny.json: region 4: position must be [x, y]"),
    ("missing field", _drop_terrain_of_4,
     "tiny.json: region 4: missing field 'terrain'"),
    ("misspelt field", _region(4, "postion", [0.5, 0.5]),
     "tiny.json: region 4: unknown field 'postion'; allowed: adjacent, border, coastal, "),
    ("flag as text", _region(4, "lost_tribe", "yes"),
     "tiny.json: region 4: lost_tribe must be true or false, got \"yes\""),
    ("features not a list", _region(4, "features", "mine"),
     "tiny.json: region 4: features must be a list, got \"mine\""),
    ("region not an object", lambda d: d["regions"].append([5]),
     "tiny.json: region entry #5: expected a JSON object, got [5]"),
    ("unsupported schema", _board("schema", 2),
     "tiny.json: board: schema 2 is not supported (this version reads 1)"),
    ("one player", _board("players", 1), "tiny.json: board: players must be at least 2, got 1"),
    ("no turns", _board("turns", 0), "tiny.json: board: turns must be at least 1, got 0"),
    ("fractional turns", _board("turns", 9.5),
     "tiny.json: board: turns must be a whole number, got 9.5"),
    ("negative aspect", _board("aspect", -1),
     "tiny.json: board: aspect must be a positive number (width / height) or null, got -1"),
    ("empty name", _board("name", ""), "tiny.json: board: name must be a non-empty string"),
    ("no regions", _board("regions", []),
     "tiny.json: board: regions is empty; a board needs at least one region"),
    ("regions not a list", _board("regions", {"1": {}}),
     "tiny.json: board: regions must be a list"),
    ("unknown board field", _board("region", []), "tiny.json: board: unknown field 'region'"),
    ("no way in", _landlocked,
     "tiny.json: board: no region is an entry region, so no race could ever enter the board"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_broken_board_names_the_file_and_the_region(change: Change, message: str) -> None:
    doc = _tiny()
    change(doc)
    with pytest.raises(DataError) as err:
        parse_board(doc, source="tiny.json")
    assert str(err.value).startswith(message), str(err.value)


def test_a_board_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(DataError, match=r"^tiny\.json: board: expected a JSON object, got \[\]"):
        parse_board([], source="tiny.json")  # type: ignore[arg-type]


def test_the_error_keeps_the_file_and_the_region_apart() -> None:
    doc = _tiny()
    _unlink_4_from_2(doc)
    with pytest.raises(DataError) as err:
        parse_board(doc, source="boards/custom.json")
    assert (err.value.source, err.value.entry) == ("boards/custom.json", "region 4")


def test_a_custom_board_may_leave_out_positions_aspect_and_notes() -> None:
    doc = _tiny()
    del doc["aspect"]
    for region in doc["regions"]:
        del region["position"]
    board = parse_board(doc, source="custom.json")
    assert board.aspect is None
    assert all(r.position is None for r in board.regions.values())


def test_a_custom_board_keeps_its_regions_in_id_order() -> None:
    doc = _tiny()
    doc["regions"].reverse()
    board = parse_board(copy.deepcopy(doc), source="custom.json")
    assert list(board.regions) == [1, 2, 3, 4]
