"""An expansion's part of the board format (`maps.BoardPart`): the board file reader names
no expansion; River World's river, sites, pirate symbol and checks are River World's own,
handed to `maps` by the registry, and a toy expansion's part (a terrain of its own too) is
read the same way."""

from __future__ import annotations

import ast
import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from companion.rules import expansions
from companion.rules.errors import DataError
from companion.rules.expansion import Expansion
from companion.rules.maps import (
    BoardPart,
    Region,
    Terrain,
    known_terrains,
    parse_board,
    parse_board_text,
    symbol_names,
)
from companion.rules.river import (
    RIVER,
    RIVER_BOARD,
    Site,
    has_pirate_symbol,
    is_river,
    is_river_world,
    sites,
    with_site,
)
from companion.rules.said import Said, said

MAPS = Path(__file__).resolve().parents[1] / "companion" / "rules" / "maps.py"


def _doc() -> dict[str, Any]:
    """Farmland 1 and mountain 2 on the edge, side by side."""

    def region(id_: int, terrain: str, adjacent: list[int], **more: Any) -> dict[str, Any]:
        doc = {"id": id_, "terrain": terrain, "features": [], "lost_tribe": False,
               "border": True, "entry": True, "coastal": False, "adjacent": adjacent}
        doc.update(more)
        return doc

    return {"schema": 1, "name": "toy", "players": 2, "turns": 10,
            "regions": [region(1, "farmland", [2]), region(2, "mountain", [1])]}  # fmt: skip


class Volcanic(BoardPart):
    """A toy part: a volcano symbol, and a `smoking` field true only where one stands."""

    symbols = ("volcano",)
    flags = ("smoking",)

    def refuse(self, region: Region) -> Said | None:
        if "smoking" in region.flags and "volcano" not in region.symbols:
            return said("{field} is true but no volcano stands here", field="smoking")
        return None


class Volcanoes(Expansion):
    name = "Volcanoes"
    board_part = Volcanic()


LAVA = Terrain("lava", is_water=False)
"""A toy expansion's own terrain: land."""
TAR = Terrain("tar", is_water=True)
"""A toy expansion's own water: a tar lake."""


class LavaPart(BoardPart):
    """A toy part that adds two terrains and nothing else."""

    terrains = (LAVA, TAR)


class LavaFields(Expansion):
    name = "Lava Fields"
    board_part = LavaPart()


def test_the_board_reader_names_no_expansion() -> None:
    tree = ast.parse(MAPS.read_text("utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {node.name for node in ast.walk(tree)
              if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    strings = {node.value for node in ast.walk(tree)
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    river_world = {"Site", "sites", "pirate", "is_river", "is_river_world", "with_site",
                   "harbor", "shipyard", "temple", "RIVER", "river"}
    assert not names & river_world
    assert not {s for s in strings if s in river_world or s.startswith("pirate")}


def test_river_world_hands_its_part_to_the_board_reader() -> None:
    assert RIVER_BOARD in expansions.board_parts()
    assert symbol_names() == ("mine", "magic", "cavern", "harbor", "shipyard", "temple")


def test_a_river_world_region_is_read_into_its_own_terms() -> None:
    doc = _doc()
    doc["regions"][0]["features"] = ["mine", "harbor", "temple"]
    doc["regions"][1].update(terrain="river", pirate=True)
    board = parse_board(doc, source="toy.json")
    land, water = board.region(1), board.region(2)
    assert sites(land) == {Site.HARBOR, Site.TEMPLE} and land.symbols == {"harbor", "temple"}
    assert [f.value for f in land.features] == ["mine"]
    assert has_pirate_symbol(water) and not has_pirate_symbol(land)
    assert is_river(water) and water.terrain is RIVER and not water.is_water
    assert is_river_world(board) and with_site(board, Site.TEMPLE) == (1,)


def test_a_board_without_river_world_is_not_one() -> None:
    board = parse_board(_doc(), source="toy.json")
    assert not is_river_world(board)
    assert all(not r.symbols and not r.flags for r in board.regions.values())


def test_a_toy_expansions_part_is_read_while_it_is_registered() -> None:
    doc = _doc()
    doc["regions"][1].update(features=["volcano"], smoking=True)
    with pytest.raises(DataError) as unknown:
        parse_board(copy.deepcopy(doc), source="toy.json")
    assert str(unknown.value) == (
        "toy.json: region 2: unknown field 'smoking'; allowed: adjacent, border, coastal, "
        "entry, features, id, lost_tribe, pirate, position, terrain")
    del doc["regions"][1]["smoking"]
    with pytest.raises(DataError) as unknown:
        parse_board(copy.deepcopy(doc), source="toy.json")
    assert str(unknown.value) == (
        'toy.json: region 2: unknown feature "volcano"; allowed: mine, magic, cavern, harbor, '
        "shipyard, temple")
    doc["regions"][1]["smoking"] = True
    with expansions.extended(Volcanoes()):
        board = parse_board(copy.deepcopy(doc), source="toy.json")
        assert board.region(2).symbols == {"volcano"} and board.region(2).flags == {"smoking"}
        assert "volcano" in symbol_names()
        doc["regions"][1]["features"] = []
        with pytest.raises(DataError) as err:
            parse_board(doc, source="toy.json")
    assert str(err.value) == "toy.json: region 2: smoking is true but no volcano stands here"
    assert "volcano" not in symbol_names()


def test_river_world_brings_the_river_terrain() -> None:
    assert RIVER_BOARD.terrains == (RIVER,) and not RIVER.is_water
    assert known_terrains() == (Terrain.FARMLAND, Terrain.HILL, Terrain.FOREST, Terrain.SWAMP,
                                Terrain.MOUNTAIN, Terrain.SEA, Terrain.LAKE, RIVER)
    assert not hasattr(Terrain, "RIVER")


def test_a_toy_expansions_terrain_is_read_while_its_part_is_registered() -> None:
    doc = _doc()
    doc["regions"][1]["terrain"] = "lava"
    with pytest.raises(DataError) as unknown:
        parse_board(copy.deepcopy(doc), source="toy.json")
    assert str(unknown.value) == (
        'toy.json: region 2: unknown terrain "lava"; allowed: farmland, hill, forest, swamp, '
        "mountain, sea, lake, river")
    with expansions.extended(LavaFields()):
        assert known_terrains()[-2:] == (LAVA, TAR)
        board = parse_board(copy.deepcopy(doc), source="toy.json")
        lava = board.region(2)
        assert lava.terrain is LAVA and lava.terrain == "lava" and not lava.is_water
        assert lava.entry and not lava.coastal  # land: the land rules for entry and coastal
        doc["regions"][1]["terrain"] = "basalt"
        with pytest.raises(DataError) as unknown:
            parse_board(copy.deepcopy(doc), source="toy.json")
    assert str(unknown.value) == (
        'toy.json: region 2: unknown terrain "basalt"; allowed: farmland, hill, forest, swamp, '
        "mountain, sea, lake, river, lava, tar")
    assert LAVA not in known_terrains()
    doc["regions"][1]["terrain"] = "lava"
    with pytest.raises(DataError, match="unknown terrain"):
        parse_board(doc, source="toy.json")


def test_a_board_text_is_read_again_with_the_parts_registered_now() -> None:
    # a game's saved board is read by its text, cached: the cache must not hand back the
    # board read with other parts (or a refusal made without them)
    doc = _doc()
    doc["regions"][1]["terrain"] = "lava"
    text = json.dumps(doc)
    with pytest.raises(DataError, match='unknown terrain "lava"'):
        parse_board_text(text, source="toy.json")
    with expansions.extended(LavaFields()):
        assert parse_board_text(text, source="toy.json").region(2).terrain is LAVA
    with pytest.raises(DataError, match='unknown terrain "lava"'):
        parse_board_text(text, source="toy.json")


def test_a_toy_expansions_water_follows_the_water_rules() -> None:
    doc = _doc()
    doc["regions"][1].update(terrain="tar", border=True, entry=False)
    with expansions.extended(LavaFields()):
        with pytest.raises(DataError) as inland:
            parse_board(copy.deepcopy(doc), source="toy.json")
        assert str(inland.value) == (
            "toy.json: region 1: coastal is false but it borders tar region 2")
        doc["regions"][0]["coastal"] = True
        board = parse_board(doc, source="toy.json")
    assert board.region(2).is_water and board.region(2).terrain is TAR


def test_a_terrain_is_one_value_like_an_enum_member() -> None:
    assert Terrain("sea") is Terrain.SEA and Terrain("lava") is LAVA
    assert Terrain("forest", is_water=False) is Terrain.FOREST
    assert Terrain.SEA == "sea" and Terrain.SEA.value == "sea" and f"{Terrain.SEA}" == "sea"
    with pytest.raises(ValueError, match="already declared as water"):
        Terrain("sea", is_water=False)
    with pytest.raises(ValueError, match="not a declared terrain"):
        Terrain("moor")
    region = parse_board(_doc(), source="toy.json").region(2)
    assert copy.deepcopy(region).terrain is Terrain.MOUNTAIN
    assert pickle.loads(pickle.dumps(RIVER)) is RIVER
    with pytest.raises(AttributeError):
        Terrain.SEA.is_water = False  # type: ignore[misc]


def test_a_part_s_field_must_be_true_or_false() -> None:
    doc = _doc()
    doc["regions"][0]["pirate"] = "yes"
    with pytest.raises(DataError, match=r'^toy\.json: region 1: pirate must be true or false'):
        parse_board(doc, source="toy.json")
