"""The maps: regions, their terrain and features, and which regions share a border.

A `Board` is one printed map (or a map a group writes themselves): its name, the player
count and number of turns it is made for, and its `Region`s by id. A region never changes
during a game; who holds it lives in `companion.rules.board`.

Invariants of every `Board` that `parse_board` returns (a file that breaks one is refused
with a `DataError` naming the file and the region):

- region ids run 1..N without gaps, one region per id;
- adjacency is symmetric, never lists the region itself, and names only regions of the board;
- seas and lakes (`is_water`, as is a water terrain a board part adds) hold no feature, no
  Lost Tribe, and are neither `entry` nor `coastal`;
- `coastal` is true exactly for land regions next to a sea or a lake (water);
- `entry` (a legal First Conquest) is true exactly for land regions that touch the board's
  edge (`border`) or border a sea that does; at least one region is an entry;
- `position` (where the region is drawn) is null or an [x, y] pair inside 0..1, x from the
  left edge and y from the top, as fractions of the board's width and height; `aspect` is
  the board's width / height (null if unknown);
- a terrain that is not water (a river of River World's boards too) follows the land rules
  for `entry` and `coastal`;
- every registered `BoardPart` (an expansion's part of the format) finds nothing wrong
  with any region (River World's: `companion.rules.river`).

The file format (`companion/data/boards/2p.json` ... `5p.json`, schema 1)::

    {"schema": 1, "name": "2p", "players": 2, "turns": 10, "aspect": 1.888,
     "notes": ["optional free text"],
     "regions": [
       {"id": 1, "terrain": "sea", "features": [], "lost_tribe": false, "border": true,
        "entry": false, "coastal": false, "adjacent": [2, 6], "position": [0.123, 0.123]},
       ...]}

`terrain` is one of farmland, hill, forest, swamp, mountain, sea, lake (a mountain region
gets a Mountain token at setup) or a terrain a registered board part adds (River World's
river); `features` a subset of mine, magic (a Magic Source) and cavern, and of the
symbols the registered board parts print (kept apart as the region's `symbols`);
`lost_tribe` says the region starts with a Lost Tribe token. `aspect`, `notes` and
`position` may be left out, and so may a board part's own true/false fields (kept as the
region's `flags`, those that are true); every other field is required and no other field
is allowed (a misspelt field is an error, not a silent default). The full format, for a
group writing its own board, is `docs/board-format.md`.

**An expansion's part of the format** is a `BoardPart`: the terrains it adds, the symbols it
prints in a region, its own true/false region fields and its checks of a region. This
module names no expansion: the registry (`companion.rules.expansions`) hands the
registered expansions' parts over once, at import (`use_board_parts`), as it does the
pieces and the scoring rules, and every board read afterwards knows them. A terrain is a
small immutable value (`Terrain`: its name and whether it is water), not an enum, so an
expansion declares its own in its module (River World's river, land for the board's
rules) and scoring and the screens key their counts and colours by `Terrain` alike;
`known_terrains()` is the base game's and the parts' in use, what a board file and a score
scenario may name.

Pure: standard library and `companion.rules.errors` only; the packaged boards are read
with `importlib.resources`, imported when first needed.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from companion.rules.datafile import Where, show
from companion.rules.errors import DataError, UnknownName
from companion.rules.said import N_, Said, listed, said

BOARD_NAMES: tuple[str, ...] = ("2p", "3p", "4p", "5p")
_PACKAGE = "companion.data"
_INF = float("inf")


class Terrain(str):
    """The kind of land (or water) a region is: its name in a board file (the string itself,
    also `value`) and whether it is water (`is_water`: seas and lakes, not conquerable
    without a power that allows it).

    The base game's terrains are the class's constants (`Terrain.FARMLAND` ...
    `Terrain.LAKE`); an expansion declares its own in its module and lists them in its
    `BoardPart.terrains` (River World's river: `companion.rules.river`). A terrain is
    declared once, `Terrain(name, is_water=...)`, and is that one value from then on:
    `Terrain(name)` is the terrain declared with that name (`ValueError` for a name never
    declared, or declared again as the other kind), so `region.terrain is Terrain.SEA` holds
    for every region read. Which terrains a board may have is `known_terrains()`: the base
    game's and the parts' in use. Immutable; equal to (and hashed as) its name, like the
    enum it replaces."""

    FARMLAND: ClassVar[Terrain]
    HILL: ClassVar[Terrain]
    FOREST: ClassVar[Terrain]
    SWAMP: ClassVar[Terrain]
    MOUNTAIN: ClassVar[Terrain]
    SEA: ClassVar[Terrain]
    LAKE: ClassVar[Terrain]

    _declared: ClassVar[dict[str, Terrain]] = {}
    is_water: bool

    def __new__(cls, value: str, is_water: bool | None = None) -> Terrain:
        declared = cls._declared.get(value) if isinstance(value, str) else None
        if declared is not None:
            if is_water is None or bool(is_water) == declared.is_water:
                return declared
            kind = "water" if declared.is_water else "land"
            raise ValueError(f"the terrain {value!r} is already declared as {kind}")
        if is_water is None:
            raise ValueError(f"{value!r} is not a declared terrain")
        if not isinstance(value, str) or not value:
            raise ValueError(f"a terrain's name is a non-empty string, not {value!r}")
        terrain = super().__new__(cls, value)
        object.__setattr__(terrain, "is_water", bool(is_water))
        cls._declared[value] = terrain
        return terrain

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a terrain cannot change ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a terrain cannot change ({name})")

    def __copy__(self) -> Terrain:
        return self

    def __deepcopy__(self, memo: object) -> Terrain:
        return self

    def __reduce__(self) -> tuple[type[Terrain], tuple[str, bool]]:
        return (Terrain, (self.value, self.is_water))

    def __repr__(self) -> str:
        return f"Terrain({self.value!r})"

    @property
    def value(self) -> str:
        """Its name as a board file writes it ("farmland", "sea")."""
        return str(self)


Terrain.FARMLAND = Terrain("farmland", is_water=False)
Terrain.HILL = Terrain("hill", is_water=False)
Terrain.FOREST = Terrain("forest", is_water=False)
Terrain.SWAMP = Terrain("swamp", is_water=False)
Terrain.MOUNTAIN = Terrain("mountain", is_water=False)
Terrain.SEA = Terrain("sea", is_water=True)
Terrain.LAKE = Terrain("lake", is_water=True)

BASE_TERRAINS: tuple[Terrain, ...] = (
    Terrain.FARMLAND, Terrain.HILL, Terrain.FOREST, Terrain.SWAMP, Terrain.MOUNTAIN,
    Terrain.SEA, Terrain.LAKE,
)
"""The base game's terrains, in the order messages list them."""


class Feature(StrEnum):
    """A symbol printed in a region."""

    MINE = "mine"
    MAGIC = "magic"
    CAVERN = "cavern"


@dataclass(frozen=True, slots=True)
class Region:
    """One region of a board, as printed: `symbols` are those of a board part printed in it
    (written in `features` in a file), `flags` the board parts' own fields that are true."""

    id: int
    terrain: Terrain
    features: frozenset[Feature]
    lost_tribe: bool
    border: bool
    entry: bool
    coastal: bool
    adjacent: frozenset[int]
    position: tuple[float, float] | None
    symbols: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()

    @property
    def is_water(self) -> bool:
        return self.terrain.is_water


@dataclass(frozen=True, slots=True)
class Board:
    """A map: its regions by id, for a number of players and turns."""

    name: str
    players: int
    turns: int
    aspect: float | None
    regions: Mapping[int, Region]

    def __hash__(self) -> int:
        return hash((self.name, self.players, self.turns, self.aspect, tuple(self.regions)))

    def region(self, region_id: int) -> Region:
        """The region with this id; `UnknownName` naming the board's ids otherwise."""
        found = None if isinstance(region_id, bool) else self.regions.get(region_id)
        if found is None:
            raise UnknownName(N_("region"), region_id, (_id_range(self.regions),))
        return found

    def are_adjacent(self, a: int, b: int) -> bool:
        """Whether regions `a` and `b` share a border (a region is not adjacent to itself)."""
        self.region(b)
        return b in self.region(a).adjacent


class BoardPart:
    """An expansion's part of the board format: the `terrains` it adds (declared in its
    module, written in a region's `terrain`), the `symbols` it prints in a region (written
    in a region's `features`, read into `Region.symbols`), its own optional true/false
    region `flags` (false when left out; those true read into `Region.flags`) and `refuse`,
    its check of a region once the base format's checks pass. A subclass overrides what it
    adds; its names must not be the base format's."""

    terrains: ClassVar[tuple[Terrain, ...]] = ()
    symbols: ClassVar[tuple[str, ...]] = ()
    flags: ClassVar[tuple[str, ...]] = ()

    def refuse(self, region: Region) -> Said | None:
        """What is wrong with `region` in this part's terms (None: nothing)."""
        return None


def _no_parts() -> Sequence[BoardPart]:
    return ()


_parts_of: Callable[[], Sequence[BoardPart]] = _no_parts
"""Where the expansions' parts of the format come from (`use_board_parts`)."""


def use_board_parts(registered: Callable[[], Sequence[BoardPart]]) -> None:
    """Read boards with the parts `registered()` gives, asked at each board read (so a part
    of an expansion registered for a while is known too); called once, by the registry."""
    global _parts_of
    _parts_of = registered


def board_parts() -> tuple[BoardPart, ...]:
    """The parts of the format boards are read with now, in the registry's order."""
    return tuple(_parts_of())


def known_terrains() -> tuple[Terrain, ...]:
    """Every terrain a region may have now: the base game's, then the parts' (each once)."""
    return _terrains_of(board_parts())


def _terrains_of(parts: Sequence[BoardPart]) -> tuple[Terrain, ...]:
    return tuple(dict.fromkeys((*BASE_TERRAINS, *(t for part in parts for t in part.terrains))))


def symbol_names() -> tuple[str, ...]:
    """Every symbol a region's `features` may name: the base game's, then the parts'."""
    return (*(f.value for f in Feature), *(s for part in board_parts() for s in part.symbols))


def _id_range(regions: Mapping[int, Region]) -> str:
    return f"{min(regions)}..{max(regions)}" if regions else "none"


# --- reading the packaged boards ----------------------------------------------------------


def load_board(name: str) -> Board:
    """One of the packaged boards by name ("2p" .. "5p", any case); cached."""
    key = name.strip().casefold() if isinstance(name, str) else None
    if key not in BOARD_NAMES:
        raise UnknownName(N_("board"), name, BOARD_NAMES)
    return _load_packaged(key)


def board_for_players(players: int) -> Board:
    """The base-game board made for this many players (2 to 5)."""
    allowed = range(2, 2 + len(BOARD_NAMES))
    if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
        raise UnknownName(N_("player count"), players, allowed)
    return load_board(f"{players}p")


@functools.cache
def _load_packaged(name: str) -> Board:
    from importlib import resources  # here, not at import: it pulls in tempfile and random

    file = f"{name}.json"
    source = f"boards/{file}"
    text = resources.files(_PACKAGE).joinpath("boards").joinpath(file).read_text("utf-8")
    board = parse_board(_decode(text, source), source=source)
    if board.name != name:
        raise DataError(source, said("board"), said("name is {name} but the file is {file}",
                                                 name=repr(board.name), file=file))
    return board


def _decode(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(source, said("line {line}", line=err.lineno),
                        said("not valid JSON: {reason}", reason=err.msg)) from err
    except RecursionError as err:
        raise DataError(source, said("board"), said("not valid JSON: nested too deeply")) from err


def parse_board_text(text: str, *, source: str) -> Board:
    """A board from the text of a board file (JSON); cached, as a game asks for its map often.

    `DataError` names `source` (and the line, for text that is not JSON, or the region).
    """
    return _parse_text(text, source, board_parts())


@functools.lru_cache(maxsize=32)
def _parse_text(text: str, source: str, parts: tuple[BoardPart, ...]) -> Board:
    """`parts` is read by `parse_board` itself; it is a parameter only to key the cache, so
    a text read again while other board parts are registered is parsed with them."""
    return parse_board(_decode(text, source), source=source)


def board_document(text: str, *, source: str) -> str:
    """The board file's text as a compact JSON document, checked (what a game saves).

    Raises `DataError` like `parse_board_text`; the document parses to the same `Board`.
    """
    doc = _decode(text, source)
    parse_board(doc, source=source)
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# --- parsing and validation ---------------------------------------------------------------

_BOARD_REQUIRED = ("name", "players", "turns", "regions")  # and the header's schema
_BOARD_OPTIONAL = ("aspect",)  # and the header's notes
_REGION_REQUIRED = frozenset(
    {"id", "terrain", "features", "lost_tribe", "border", "entry", "coastal", "adjacent"}
)
_REGION_OPTIONAL = frozenset({"position"})


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_board(doc: Mapping[str, Any], *, source: str) -> Board:
    """Check a board document (see the module docstring) and build the `Board`.

    `source` names the file in every error, e.g. ``boards/2p.json: region 7: ...``.
    """
    where = Where(source, said("board"))
    fields = where.header(doc, _BOARD_REQUIRED, _BOARD_OPTIONAL)
    name = where.text(fields["name"], "name")
    players = where.integer(fields["players"], "players", 2)
    turns = where.integer(fields["turns"], "turns", 1)
    aspect = _aspect(where, fields.get("aspect"))
    parts = board_parts()
    regions = _regions(source, where.array(fields["regions"], "regions"), parts)
    _check_ids(source, regions)
    for region in regions.values():
        _check_adjacency(source, region, regions)
        _check_flags(source, region, regions, parts)
    if not any(r.entry for r in regions.values()):
        where.fail(said("no region is an entry region, so no race could ever enter the board"))
    return Board(name, players, turns, aspect, MappingProxyType(dict(sorted(regions.items()))))


def _aspect(where: Where, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < _INF:
        where.fail(said("{field} must be a positive number (width / height) or null, got {value}",
                        field="aspect", value=show(value)))
    return float(value)


def _regions(source: str, docs: Sequence[Any], parts: Sequence[BoardPart]) -> dict[int, Region]:
    if not docs:
        raise DataError(source, said("board"), said("{field} is empty; a board needs at least "
                                                    "one region", field="regions"))
    regions: dict[int, Region] = {}
    for index, doc in enumerate(docs, start=1):
        region = _region(source, index, doc, parts)
        if region.id in regions:
            raise DataError(source, _region_entry(region.id),
                            said("this id is used by two regions"))
        regions[region.id] = region
    return regions


def _region(source: str, index: int, doc: object, parts: Sequence[BoardPart]) -> Region:
    where = Where(source, _region_label(index, doc))
    flags = [flag for part in parts for flag in part.flags]
    fields = where.fields(doc, _REGION_REQUIRED, _REGION_OPTIONAL | set(flags))
    region_id = where.integer(fields["id"], "id", 1)
    symbols = [symbol for part in parts for symbol in part.symbols]
    features, printed = _features(where, where.array(fields["features"], "features"), symbols)
    return Region(
        id=region_id,
        terrain=_terrain(where, fields["terrain"], _terrains_of(parts)),
        features=features,
        lost_tribe=where.boolean(fields["lost_tribe"], "lost_tribe"),
        border=where.boolean(fields["border"], "border"),
        entry=where.boolean(fields["entry"], "entry"),
        coastal=where.boolean(fields["coastal"], "coastal"),
        adjacent=_adjacent(where, region_id, where.array(fields["adjacent"], "adjacent")),
        position=_position(where, fields.get("position")),
        symbols=printed,
        flags=frozenset(f for f in flags if where.boolean(fields.get(f, False), f)),
    )


def _region_label(index: int, doc: object) -> Said:
    """Call the entry "region 7" when it has a usable id, else name its place in the list."""
    region_id = doc.get("id") if isinstance(doc, Mapping) else None
    if isinstance(region_id, int) and not isinstance(region_id, bool) and region_id >= 1:
        return _region_entry(region_id)
    return said("region entry #{index}", index=index)


def _region_entry(region_id: int) -> Said:
    """The entry a region's error names: "region 7"."""
    return said("region {region}", region=region_id)


def _terrain(where: Where, value: object, known: Sequence[Terrain]) -> Terrain:
    for terrain in known:
        if isinstance(value, str) and value == terrain.value:
            return terrain
    where.fail(said("unknown terrain {value}; allowed: {allowed}", value=show(value),
                    allowed=listed(t.value for t in known)))


def _features(
    where: Where, values: Sequence[Any], symbols: Sequence[str]
) -> tuple[frozenset[Feature], frozenset[str]]:
    """The printed symbols: the base game's features and the board parts' `symbols`, apart."""
    allowed = listed([*(f.value for f in Feature), *symbols])
    found: set[str] = set()
    for value in values:
        if not isinstance(value, str) or not (
            value in Feature._value2member_map_ or value in symbols
        ):
            where.fail(said("unknown feature {value}; allowed: {allowed}", value=show(value),
                            allowed=allowed))
        if value in found:
            where.fail(said("{field} lists {value} twice", field="features", value=value))
        found.add(value)
    features = frozenset(Feature(v) for v in found if v in Feature._value2member_map_)
    return features, frozenset(found - set(Feature._value2member_map_))


def _adjacent(where: Where, region_id: int, values: Sequence[Any]) -> frozenset[int]:
    seen: set[int] = set()
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            where.fail(said("{field} must list region ids (whole numbers), found {value}",
                            field="adjacent", value=show(value)))
        if value == region_id:
            where.fail(said("{field} lists the region itself", field="adjacent"))
        if value in seen:
            where.fail(said("{field} lists {value} twice", field="adjacent", value=value))
        seen.add(value)
    return frozenset(seen)


def _position(where: Where, value: object) -> tuple[float, float] | None:
    if value is None:
        return None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(_is_number(v) and 0.0 <= v <= 1.0 for v in value)
    ):
        return (float(value[0]), float(value[1]))
    where.fail(said("{field} must be [x, y] with both between 0 and 1, or null; got {value}",
                    field="position", value=show(value)))


def _check_ids(source: str, regions: Mapping[int, Region]) -> None:
    count = len(regions)
    for region_id in sorted(regions):
        if region_id > count:
            raise DataError(
                source,
                _region_entry(region_id),
                said("id is outside 1..{n}: the {n} regions must be numbered 1 to {n} without "
                     "gaps", n=count),
            )


def _check_adjacency(source: str, region: Region, regions: Mapping[int, Region]) -> None:
    where = Where(source, _region_entry(region.id))
    for other in sorted(region.adjacent):
        if other not in regions:
            where.fail(said("{field} lists {other}, which is not a region of this board (ids "
                            "{ids})", field="adjacent", other=other, ids=_id_range(regions)))
        if region.id not in regions[other].adjacent:
            where.fail(said("{field} lists {other} but region {other} does not list {region}",
                            field="adjacent", other=other, region=region.id))


def _check_flags(
    source: str, region: Region, regions: Mapping[int, Region], parts: Sequence[BoardPart]
) -> None:
    where = Where(source, _region_entry(region.id))
    if region.is_water:
        _check_water(where, region)
    else:
        _check_coastal(where, region, regions)
        _check_entry(where, region, regions)
    for part in parts:
        problem = part.refuse(region)
        if problem is not None:
            where.fail(problem)


def _check_water(where: Where, region: Region) -> None:
    kind = region.terrain.value
    if region.entry:
        where.fail(said("a {terrain} cannot be an entry region ({field} must be false)",
                        terrain=kind, field="entry"))
    if region.coastal:
        where.fail(said("a {terrain} cannot be coastal ({field} is for land next to water)",
                        terrain=kind, field="coastal"))
    if region.lost_tribe:
        where.fail(said("a {terrain} cannot start with a Lost Tribe", terrain=kind))
    if region.features:
        names = listed(sorted(f.value for f in region.features))
        where.fail(said("a {terrain} cannot have {field} (found {found})",
                        terrain=kind, field="features", found=names))


def _check_coastal(where: Where, region: Region, regions: Mapping[int, Region]) -> None:
    water = sorted(i for i in region.adjacent if regions[i].is_water)
    if region.coastal and not water:
        where.fail(said("{field} is true but no neighbour is a sea or lake", field="coastal"))
    if not region.coastal and water:
        first = regions[water[0]]
        where.fail(said("{field} is false but it borders {terrain} region {region}",
                        field="coastal", terrain=first.terrain.value, region=first.id))


def _check_entry(where: Where, region: Region, regions: Mapping[int, Region]) -> None:
    edge_seas = sorted(
        i for i in region.adjacent if regions[i].terrain is Terrain.SEA and regions[i].border
    )
    if region.border and not region.entry:
        where.fail(said("{field} is false but the region touches the board edge ({border} is "
                        "true)", field="entry", border="border"))
    if not region.border and edge_seas and not region.entry:
        where.fail(said("{field} is false but it borders sea region {region}, which touches the "
                        "board edge", field="entry", region=edge_seas[0]))
    if region.entry and not region.border and not edge_seas:
        where.fail(said("{field} is true but the region neither touches the board edge nor "
                        "borders a sea that does", field="entry"))
