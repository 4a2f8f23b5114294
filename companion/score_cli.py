"""`companion score [FILE|-]`: score one player's end of turn from a JSON scenario.

Reads the scenario from FILE, or from standard input when FILE is "-" or left out, and
prints ``{"total": N, "lines": [{"label": ..., "coins": n}, ...]}`` on one line, where the
lines add up to the total. The scenario::

    {"map": "2p",                 optional: "2p" | "3p" | "4p" | "5p" (regions may be ids)
     "turn": 4,                   the game turn, 1 or more
     "player": {
       "active": {                or null / left out
         "race": "Orcs", "power": "Pillaging",
         "first_turn": false,     optional: true on the turn the combo was picked
         "regions": [3, 7, {"terrain": "hill", "features": ["mine"], "coastal": true}],
         "conquered_non_empty": 2,   optional, default 0
         "fortresses": 0},            optional, default 0
       "declined": [              optional, zero or more
         {"race": "Dwarves", "power": "Hill", "regions": [5, 9], "this_turn": false}]}}

A region is a board id (needs "map") or an object with "terrain" and optional "features"
(mine, magic, cavern) and "coastal". Instead of "regions" a race may give "counts", the
quick count: ``{"hill": 2, "farmland": 1, "mines": 1, "magic_sources": 0, "coastal": 1}``
(regions per terrain, and how many of them hold a mine or a magic source or border water).
Race, power, terrain and feature names ignore case. Any other field is refused, so a
misspelt field never falls back to a default silently.

Optional fields for the mini-expansions (all default to 0, false or "not said"; see
docs/score-format.md): on "active", "abandoned" (Gypsies), "attacked_active_race"
(Peace-Loving, required for it), "pots_of_gold" (Leprechauns) and "historian":
{"in_decline_when_picked": n, "others_declined": n}; on a declined race, "ivory_tower"
(Priestesses), "pots_of_gold" and "historian": {"others_declined": n} on the turn it
declined.

Optional fields for River World (no public data of its boards exists, so it is scored
from what the players count): a region object may list "harbor" in "features" (also
"shipyard" and "temple", which score nothing) and say "next_to_pirates": true; "counts"
may give "harbors", "next_to_pirates" and (for Aquatic) "inland_next_to_pirates".
Harbors of all the player's races score 1 + 2 + 3 ...; a region next to a pirate ship
scores one less, unless it earns nothing (an Aquatic inland region); a river held (Harsh
Winter, Seafaring) is a region of terrain "river".

Were- needs no field: night turns (even-numbered) only change conquest costs. Team play:
"relics" on "player" lists the Righteous Relics and Popular Places the active race holds
at the end of the turn ("Golden Soapbar" +1, "Glandulf's Tavern" +2, the others nothing).

Exit status 0 with the result on stdout; 2 with exactly one line on stderr naming the field
and the value at fault (and nothing on stdout) for any bad input: malformed JSON, a wrong
type, an unknown race, power, board or region, a region listed twice, a negative count, or a
position the rules cannot produce.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from companion.commands.score import configure
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.errors import UnknownName
from companion.rules.maps import Board, Feature, Site, Terrain, load_board
from companion.rules.relics import MARKERS as RELICS_AND_PLACES
from companion.rules.relics import SOAPBAR, SOAPBAR_COINS, TAVERN, TAVERN_COINS
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    HistorianEvents,
    QuickCount,
    Regions,
    ScoringInput,
    ScoringInputError,
    score_turn,
)

EXIT_OK = 0
EXIT_BAD_INPUT = 2

_TOP = frozenset({"map", "turn", "player"})
_PLAYER = frozenset({"active", "declined", "relics"})
_ACTIVE = frozenset(
    {
        "race",
        "power",
        "first_turn",
        "regions",
        "counts",
        "conquered_non_empty",
        "fortresses",
        "abandoned",
        "attacked_active_race",
        "pots_of_gold",
        "historian",
    }
)
_DECLINED = frozenset(
    {"race", "power", "regions", "counts", "this_turn", "ivory_tower", "pots_of_gold", "historian"}
)
_REGION = frozenset({"terrain", "features", "coastal", "next_to_pirates"})
_HISTORIAN = frozenset({"in_decline_when_picked", "others_declined"})
_COUNT_EXTRAS = (
    "mines", "magic_sources", "coastal", "harbors", "next_to_pirates", "inland_next_to_pirates"
)


class BadInput(Exception):
    """One fault in the scenario: the field (a JSON path) and what is wrong with it."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def _fail(field: str, problem: str) -> NoReturn:
    raise BadInput(field, problem)


def _show(value: object) -> str:
    shown = json.dumps(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


# --- decoding --------------------------------------------------------------------------


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            _fail(key, f"the field {_show(key)} is given twice in one object")
        found[key] = value
    return found


def _no_constant(name: str) -> NoReturn:
    _fail("input", f"{name} is not a number JSON allows")


def decode(text: str) -> Any:
    """The JSON document in `text`; `BadInput` naming the place if it is malformed."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        _fail("input", f"malformed JSON at line {error.lineno} column {error.colno}: {error.msg}")
    except RecursionError:
        _fail("input", "JSON nested too deeply")
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        _fail("input", f"a number JSON cannot hold here ({error})")


def _object(field: str, value: object, allowed: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        _fail(field, f"expected an object, got {_show(value)}")
    unknown = sorted(set(value) - allowed)
    if unknown:
        _fail(
            unknown[0] if field == "input" else f"{field}.{unknown[0]}",
            f"unknown field; allowed here: {', '.join(sorted(allowed))}",
        )
    return value


def _text(field: str, value: object) -> str:
    if not isinstance(value, str):
        _fail(field, f"expected a string, got {_show(value)}")
    return value


def _whole(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(field, f"expected a whole number, got {_show(value)}")
    if value < 0:
        _fail(field, f"{value} is negative")
    return value


def _flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        _fail(field, f"expected true or false, got {_show(value)}")
    return value


def _list(field: str, value: object) -> Sequence[Any]:
    if not isinstance(value, list):
        _fail(field, f"expected a list, got {_show(value)}")
    return value


def _choice(field: str, value: object, kind: str, choices: Sequence[str]) -> str:
    name = _text(field, value)
    key = name.strip().casefold()
    for choice in choices:
        if choice.casefold() == key:
            return choice
    _fail(field, f"unknown {kind} {_show(value)}; allowed: {', '.join(choices)}")


_TERRAINS = tuple(t.value for t in Terrain)
_FEATURES = (*(f.value for f in Feature), *(s.value for s in Site))


def _region(field: str, value: object, board: Board | None) -> HeldRegion:
    if isinstance(value, int) and not isinstance(value, bool):
        if board is None:
            _fail(field, f'region id {value} needs "map" to say which board it is on')
        try:
            region = board.region(value)
        except UnknownName as error:
            _fail(field, f"{error} (board {board.name})")
        return HeldRegion(region.terrain, region.features, region.coastal, region.id)
    if not isinstance(value, dict):
        _fail(field, f"expected a board id or a region object, got {_show(value)}")
    doc = _object(field, value, _REGION)
    if "terrain" not in doc:
        _fail(f"{field}.terrain", "missing: a region object needs its terrain")
    terrain = Terrain(_choice(f"{field}.terrain", doc["terrain"], "terrain", _TERRAINS))
    symbols = [
        _choice(f"{field}.features[{i}]", f, "feature", _FEATURES)
        for i, f in enumerate(_list(f"{field}.features", doc.get("features", [])))
    ]
    features = frozenset(Feature(f) for f in symbols if f in Feature._value2member_map_)
    coastal = _flag(f"{field}.coastal", doc.get("coastal", False))
    pirates = _flag(f"{field}.next_to_pirates", doc.get("next_to_pirates", False))
    return HeldRegion(
        terrain, features, coastal, harbor=Site.HARBOR in symbols, next_to_pirates=pirates
    )


def _counts(field: str, value: object) -> QuickCount:
    allowed = (*_TERRAINS, *_COUNT_EXTRAS)
    if not isinstance(value, dict):
        _fail(field, f"expected an object of counts, got {_show(value)}")
    numbers: dict[str, int] = {}
    for key, count in value.items():
        name = key.strip().casefold()
        if name not in allowed:
            _fail(f"{field}.{key}", f"unknown count; allowed: {', '.join(allowed)}")
        if name in numbers:
            _fail(f"{field}.{key}", f"the {name} count is given twice")
        numbers[name] = _whole(f"{field}.{key}", count)
    terrains = {Terrain(name): n for name, n in numbers.items() if name in _TERRAINS}
    return QuickCount(
        terrains,
        mines=numbers.get("mines", 0),
        magic_sources=numbers.get("magic_sources", 0),
        coastal=numbers.get("coastal", 0),
        harbors=numbers.get("harbors", 0),
        next_to_pirates=numbers.get("next_to_pirates", 0),
        inland_next_to_pirates=numbers.get("inland_next_to_pirates", 0),
    )


def _regions(field: str, doc: Mapping[str, Any], board: Board | None) -> Regions:
    if "regions" in doc and "counts" in doc:
        _fail(f"{field}.counts", 'give either "regions" or "counts", not both')
    if "counts" in doc:
        return _counts(f"{field}.counts", doc["counts"])
    items = _list(f"{field}.regions", doc.get("regions", []))
    return tuple(_region(f"{field}.regions[{i}]", item, board) for i, item in enumerate(items))


def _required(field: str, doc: Mapping[str, Any], key: str) -> Any:
    if key not in doc:
        _fail(f"{field}.{key}", "missing")
    return doc[key]


def _historian(field: str, doc: Mapping[str, Any]) -> HistorianEvents:
    if "historian" not in doc:
        return HistorianEvents()
    counts = _object(f"{field}.historian", doc["historian"], _HISTORIAN)
    return HistorianEvents(
        in_decline_when_picked=_whole(
            f"{field}.historian.in_decline_when_picked", counts.get("in_decline_when_picked", 0)
        ),
        others_declined=_whole(
            f"{field}.historian.others_declined", counts.get("others_declined", 0)
        ),
    )


def _optional_flag(field: str, value: object) -> bool | None:
    return None if value is None else _flag(field, value)


def _active(field: str, value: object, board: Board | None) -> ActiveHoldings | None:
    if value is None:
        return None
    doc = _object(field, value, _ACTIVE)
    return ActiveHoldings(
        race=_text(f"{field}.race", _required(field, doc, "race")),
        power=_text(f"{field}.power", _required(field, doc, "power")),
        regions=_regions(field, doc, board),
        first_turn=_flag(f"{field}.first_turn", doc.get("first_turn", False)),
        conquered_non_empty=_whole(
            f"{field}.conquered_non_empty", doc.get("conquered_non_empty", 0)
        ),
        fortresses=_whole(f"{field}.fortresses", doc.get("fortresses", 0)),
        abandoned=_whole(f"{field}.abandoned", doc.get("abandoned", 0)),
        attacked_active_race=_optional_flag(
            f"{field}.attacked_active_race", doc.get("attacked_active_race")
        ),
        pots_of_gold=_whole(f"{field}.pots_of_gold", doc.get("pots_of_gold", 0)),
        historian=_historian(field, doc),
    )


def _declined(field: str, value: object, board: Board | None) -> DeclinedHoldings:
    doc = _object(field, value, _DECLINED)
    return DeclinedHoldings(
        race=_text(f"{field}.race", _required(field, doc, "race")),
        power=_text(f"{field}.power", _required(field, doc, "power")),
        regions=_regions(field, doc, board),
        this_turn=_flag(f"{field}.this_turn", doc.get("this_turn", False)),
        ivory_tower=_whole(f"{field}.ivory_tower", doc.get("ivory_tower", 0)),
        pots_of_gold=_whole(f"{field}.pots_of_gold", doc.get("pots_of_gold", 0)),
        historian=_historian(field, doc),
    )


def parse_scenario(doc: object) -> ScoringInput:
    """The scoring input a decoded scenario describes; `BadInput` on the first fault."""
    top = _object("input", doc, _TOP)
    board: Board | None = None
    if top.get("map") is not None:
        try:
            board = load_board(_text("map", top["map"]))
        except UnknownName as error:
            _fail("map", str(error))
    if "turn" not in top:
        _fail("turn", "missing: the game turn (1 or more)")
    turn = _whole("turn", top["turn"])
    if turn < 1:
        _fail("turn", f"{turn} is not a game turn (1 or more)")
    if board is not None and turn > board.turns:
        _fail("turn", f"{turn} is past the last turn ({board.turns}) of the {board.name} board")
    if "player" not in top:
        _fail("player", "missing: the scoring player's races")
    player = _object("player", top["player"], _PLAYER)
    active = _active("player.active", player.get("active"), board)
    declined_docs = _list("player.declined", player.get("declined", []))
    declined = tuple(
        _declined(f"player.declined[{i}]", item, board) for i, item in enumerate(declined_docs)
    )
    return ScoringInput(turn, active, declined)


def _json_field(error: ScoringInputError) -> str:
    """The JSON path of a field the scoring engine named (`active.regions[0]`...)."""
    field = error.field
    if field == "turn":
        return field
    counted = re.match(r"(active|declined\[(\d+)\])\.regions\.(?:terrains\.)?(.+)", field)
    if counted:
        return f"player.{counted.group(1)}.counts.{counted.group(3)}"
    return f"player.{field}"


_RELIC_COINS = {SOAPBAR: SOAPBAR_COINS, TAVERN: TAVERN_COINS}


def relic_lines(doc: Mapping[str, Any], inp: ScoringInput) -> list[tuple[str, int]]:
    """Team play: the coins of the Relics and Places the player's active race holds at the
    end of the turn (`player.relics`, names); only the Soapbar and the Tavern pay."""
    player = doc["player"]
    names = _list("player.relics", player.get("relics", []))
    known = {name.casefold(): name for name in RELICS_AND_PLACES}
    seen: set[str] = set()
    lines: list[tuple[str, int]] = []
    for index, value in enumerate(names):
        field = f"player.relics[{index}]"
        name = known.get(_text(field, value).strip().casefold())
        if name is None:
            _fail(field, f"unknown Relic or Place {_show(value)}; allowed: "
                         + ", ".join(RELICS_AND_PLACES))
        if name in seen:
            _fail(field, f"{name} is listed twice; there is one of each")
        if inp.active is None:
            _fail(field, f"{name} works only for an active race, and player.active is missing")
        seen.add(name)
        coins = _RELIC_COINS.get(name, 0)
        if coins:
            lines.append((f"{name}: held by the active race at the end of the turn", coins))
    return lines


def score_scenario(text: str, catalog: Catalog) -> dict[str, Any]:
    """The JSON result for a scenario's text; `BadInput` when anything is wrong with it."""
    doc = decode(text)
    inp = parse_scenario(doc)
    extra = relic_lines(doc, inp)
    try:
        result = score_turn(inp, catalog)
    except ScoringInputError as error:
        _fail(_json_field(error), error.problem)
    lines = [(line.label, line.coins) for line in result.lines] + extra
    return {
        "total": sum(coins for _, coins in lines),
        "lines": [{"label": label, "coins": coins} for label, coins in lines],
    }


# --- the command -----------------------------------------------------------------------


def _read(path: str) -> str:
    if path == "-":
        try:
            return sys.stdin.read()
        except UnicodeDecodeError as error:
            _fail("input", f"not UTF-8 text ({error.reason})")
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        _fail("FILE", f"cannot read {path!r}: {error.strerror or error}")
    except UnicodeDecodeError as error:
        _fail("FILE", f"{path!r} is not UTF-8 text ({error.reason})")


def run(args: argparse.Namespace) -> int:
    """Score the scenario named by `args.file`; 0, or 2 with one line on stderr."""
    try:
        result = score_scenario(_read(args.file), load_catalog())
    except BadInput as error:
        print(_one_line(f"companion score: {error}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(result))
    return EXIT_OK


def _one_line(message: str) -> str:
    return " ".join(message.split())


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, _one_line(f"{self.prog}: {message}") + "\n")


def main(argv: list[str] | None = None) -> int:
    """`companion score [FILE|-]` as a program of its own."""
    parser = _Parser(
        prog="companion score",
        description="Score one player's end of turn from a JSON scenario.",
    )
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
