"""A written scenario, read and scored: one player's end of turn given as JSON.

:func:`score_scenario` reads the scenario's text and answers
``{"total": N, "lines": [{"label": ..., "coins": n}, ...]}``, where the lines add up to
the total; ``companion score [FILE|-]`` (:mod:`companion.commands.score`) prints it on one
line. The scenario::

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

An expansion's optional fields (of "player", a race, a region object and "counts": 0,
false or "not said" when left out) and a seat it plays itself ("necromancer") are its
`companion.score_parts.ScorePart`'s, read after the base game's with this module's field
checks (lent as a `ScenarioReader`); docs/score-format.md lists them. A region object's
"features" may name the symbols of the board parts (`maps.symbol_names`). Were- needs no
field: night turns (even-numbered) only change conquest costs.

When a field that a race or power of the scenario reads is left out (an Aquatic region
without "coastal", Orcs without "conquered_non_empty"...), its default is taken as before
and the result gains "notes": one line per such field (`notes_for`); "total" and "lines"
are unchanged, and "notes" is absent when there is nothing to say.

Any bad input raises :class:`companion.json_fields.BadInput`, one message naming the field
and the value at fault (``companion score`` prints it as one line and exits 2): malformed
JSON, a wrong type, an unknown race, power, board or region, a region listed twice, a
negative count, a count above the regions of the largest board (:func:`most_regions`, 48: no
count of regions, mines, harbors, conquests or turns can be higher, nor can a race list more
regions), or a position the rules cannot produce.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from companion.json_fields import a_list, a_string, fail, flag, show
from companion.rules import names
from companion.rules.catalog import Catalog
from companion.rules.errors import UnknownName
from companion.rules.maps import (
    BOARD_NAMES,
    Board,
    Feature,
    Terrain,
    known_terrains,
    load_board,
    symbol_names,
)
from companion.rules.said import N_, Said, said
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    Regions,
    ScoringInput,
    ScoringInputError,
    score_turn,
)
from companion.score_parts import PARTS, ScenarioReader, ScorePart, seat_field

_TOP = frozenset({"map", "turn", "player"})
_PLAYER = frozenset({"active", "declined",
                     *(name for part in PARTS for name in part.fields),
                     *(part.own for part in PARTS if part.own)})
_ACTIVE = frozenset(
    {
        "race",
        "power",
        "first_turn",
        "regions",
        "counts",
        "conquered_non_empty",
        "fortresses",
        *(name for part in PARTS for name in part.active_fields),
    }
)
_DECLINED = frozenset(
    {"race", "power", "regions", "counts", "this_turn",
     *(name for part in PARTS for name in part.declined_fields)}
)
_REGION = frozenset({"terrain", "features", "coastal",
                     *(name for part in PARTS for name in part.region_fields)})
_COUNT_EXTRAS = ("mines", "magic_sources", "coastal",
                 *(name for part in PARTS for name in part.count_fields))


# --- decoding --------------------------------------------------------------------------


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            fail(key, said("the field {field} is given twice in one object", field=show(key)))
        found[key] = value
    return found


def _no_constant(name: str) -> NoReturn:
    fail("input", said("{value} is not a number JSON allows", value=name))


def decode(text: str) -> Any:
    """The JSON document in `text`; `BadInput` naming the place if it is malformed."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        fail("input", said("malformed JSON at line {line} column {column}: {reason}",
                           line=error.lineno, column=error.colno, reason=error.msg))
    except RecursionError:
        fail("input", said("JSON nested too deeply"))
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        fail("input", said("a number JSON cannot hold here ({reason})", reason=str(error)))


def _object(field: str, value: object, allowed: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        fail(field, said("expected an object, got {value}", value=show(value)))
    unknown = sorted(set(value) - allowed)
    if unknown:
        fail(
            unknown[0] if field == "input" else f"{field}.{unknown[0]}",
            said("unknown field; allowed here: {allowed}", allowed=", ".join(sorted(allowed))),
        )
    return value


@functools.cache
def most_regions() -> int:
    """The regions of the largest packaged board: no count of a scenario can be higher.

    Every count a scenario gives (regions of a terrain, mines, harbors, conquests, turns...)
    counts regions, things on regions or turns, and no board has more regions than this
    (nor more turns), so a higher count is a position no game can reach.
    """
    return max(len(load_board(name).regions) for name in BOARD_NAMES)


def _whole(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(field, said("expected a whole number, got {value}", value=show(value)))
    if value < 0:
        fail(field, said("{value} is negative", value=value))
    if value > most_regions():
        fail(field, said("{value} is more than any board can hold (at most {most}, the "
                         "regions of the largest board)", value=show(value),
                         most=most_regions()))
    return value


def _choice(field: str, value: object, unknown: str, choices: Sequence[str]) -> str:
    """The one of `choices` `value` names (any case); else `unknown`, a template marked
    `N_` with ``{value}`` and ``{allowed}`` ("unknown terrain {value}; allowed: ...")."""
    key = a_string(field, value).strip().casefold()
    for choice in choices:
        if choice.casefold() == key:
            return choice
    fail(field, Said(unknown, (("allowed", ", ".join(choices)), ("value", show(value)))))


_UNKNOWN_TERRAIN = N_("unknown terrain {value}; allowed: {allowed}")
_UNKNOWN_FEATURE = N_("unknown feature {value}; allowed: {allowed}")


def _terrains() -> tuple[str, ...]:
    """The terrains a region object or a count may name: the base game's, then those the
    registered expansions' board parts add (River World's river)."""
    return tuple(t.value for t in known_terrains())


def _region(field: str, value: object, board: Board | None) -> HeldRegion:
    if isinstance(value, int) and not isinstance(value, bool):
        if board is None:
            fail(field, said('region id {region} needs "map" to say which board it is on',
                             region=value))
        try:
            region = board.region(value)
        except UnknownName as error:
            fail(field, said("{error} (board {board})", error=error.said, board=board.name))
        return HeldRegion(region.terrain, region.features, region.coastal, region.id)
    if not isinstance(value, dict):
        fail(field, said("expected a board id or a region object, got {value}",
                         value=show(value)))
    doc = _object(field, value, _REGION)
    if "terrain" not in doc:
        fail(f"{field}.terrain", said("missing: a region object needs its terrain"))
    terrain = Terrain(_choice(f"{field}.terrain", doc["terrain"], _UNKNOWN_TERRAIN, _terrains()))
    symbols = [
        _choice(f"{field}.features[{i}]", f, _UNKNOWN_FEATURE, symbol_names())
        for i, f in enumerate(a_list(f"{field}.features", doc.get("features", [])))
    ]
    features = frozenset(Feature(f) for f in symbols if f in Feature._value2member_map_)
    coastal = flag(f"{field}.coastal", doc.get("coastal", False))
    held = HeldRegion(terrain, features, coastal)
    for part in PARTS:
        if part.region is not None:
            held = part.region(field, doc, symbols, held)
    return held


def _counts(field: str, value: object) -> QuickCount:
    allowed = (*_terrains(), *_COUNT_EXTRAS)
    if not isinstance(value, dict):
        fail(field, said("expected an object of counts, got {value}", value=show(value)))
    numbers: dict[str, int] = {}
    for key, count in value.items():
        name = key.strip().casefold()
        if name not in allowed:
            fail(f"{field}.{key}", said("unknown count; allowed: {allowed}",
                                        allowed=", ".join(allowed)))
        if name in numbers:
            fail(f"{field}.{key}", said("the {count} count is given twice", count=name))
        numbers[name] = _whole(f"{field}.{key}", count)
    terrains = {Terrain(name): n for name, n in numbers.items() if name in _terrains()}
    if sum(terrains.values()) > most_regions():
        fail(field, said("{n} regions in all is more than any board has (at most {most}, "
                         "the regions of the largest board)", n=sum(terrains.values()),
                         most=most_regions()))
    count = QuickCount(
        terrains,
        mines=numbers.get("mines", 0),
        magic_sources=numbers.get("magic_sources", 0),
        coastal=numbers.get("coastal", 0),
    )
    for part in PARTS:
        if part.counts is not None:
            count = part.counts(numbers, count)
    return count


def _regions(field: str, doc: Mapping[str, Any], board: Board | None) -> Regions:
    if "regions" in doc and "counts" in doc:
        fail(f"{field}.counts", said('give either "regions" or "counts", not both'))
    if "counts" in doc:
        return _counts(f"{field}.counts", doc["counts"])
    items = a_list(f"{field}.regions", doc.get("regions", []))
    if len(items) > most_regions():
        fail(f"{field}.regions", said("{n} regions is more than any board has (at most "
                                      "{most}, the regions of the largest board)",
                                      n=len(items), most=most_regions()))
    return tuple(_region(f"{field}.regions[{i}]", item, board) for i, item in enumerate(items))


def _required(field: str, doc: Mapping[str, Any], key: str) -> Any:
    if key not in doc:
        fail(f"{field}.{key}", said("missing"))
    return doc[key]


def _race(field: str, doc: Mapping[str, Any]) -> str:
    """The race banner's name (an expansion may refuse one of its own pieces' names)."""
    race = a_string(f"{field}.race", _required(field, doc, "race"))
    for part in PARTS:
        refusal = None if part.refusal is None else part.refusal(race)
        if refusal is not None:
            fail(f"{field}.race", refusal)
    return race


def _active(field: str, value: object, board: Board | None) -> ActiveHoldings | None:
    if value is None:
        return None
    doc = _object(field, value, _ACTIVE)
    holdings = ActiveHoldings(
        race=_race(field, doc),
        power=a_string(f"{field}.power", _required(field, doc, "power")),
        regions=_regions(field, doc, board),
        first_turn=flag(f"{field}.first_turn", doc.get("first_turn", False)),
        conquered_non_empty=_whole(
            f"{field}.conquered_non_empty", doc.get("conquered_non_empty", 0)
        ),
        fortresses=_whole(f"{field}.fortresses", doc.get("fortresses", 0)),
    )
    for part in PARTS:
        if part.active is not None:
            holdings = part.active(field, doc, holdings, _READER)
    return holdings


def _declined(field: str, value: object, board: Board | None) -> DeclinedHoldings:
    doc = _object(field, value, _DECLINED)
    holdings = DeclinedHoldings(
        race=_race(field, doc),
        power=a_string(f"{field}.power", _required(field, doc, "power")),
        regions=_regions(field, doc, board),
        this_turn=flag(f"{field}.this_turn", doc.get("this_turn", False)),
    )
    for part in PARTS:
        if part.declined is not None:
            holdings = part.declined(field, doc, holdings, _READER)
    return holdings


def _board_and_turn(top: Mapping[str, Any]) -> tuple[Board | None, int]:
    board: Board | None = None
    if top.get("map") is not None:
        try:
            board = load_board(a_string("map", top["map"]))
        except UnknownName as error:
            fail("map", error.said)
    if "turn" not in top:
        fail("turn", said("missing: the game turn (1 or more)"))
    turn = _whole("turn", top["turn"])
    if turn < 1:
        fail("turn", said("{value} is not a game turn (1 or more)", value=turn))
    if board is not None and turn > board.turns:
        fail("turn", said("{turn} is past the last turn ({last}) of the {board} board",
                          turn=turn, last=board.turns, board=board.name))
    return board, turn


def _player(top: Mapping[str, Any]) -> Mapping[str, Any]:
    if "player" not in top:
        fail("player", said("missing: the scoring player's races"))
    return _object("player", top["player"], _PLAYER)


def parse_scenario(doc: object) -> ScoringInput:
    """The scoring input a decoded scenario describes; `BadInput` on the first fault."""
    top = _object("input", doc, _TOP)
    board, turn = _board_and_turn(top)
    player = _player(top)
    own = _own(player)
    if own is not None:
        fail(f"player.{own.own}", said("{expansion}'s seat is scored on its own "
                                             "(score_scenario)",
                                             expansion=own.name))
    active = _active("player.active", player.get("active"), board)
    declined_docs = a_list("player.declined", player.get("declined", []))
    declined = tuple(
        _declined(f"player.declined[{i}]", item, board) for i, item in enumerate(declined_docs)
    )
    return ScoringInput(turn, active, declined)


def score_scenario(text: str, catalog: Catalog) -> dict[str, Any]:
    """The JSON result for a scenario's text; `BadInput` when anything is wrong with it.

    ``{"total": N, "lines": [...]}``, plus ``"notes": [...]`` only when a field that
    changes this score was left out and its default taken (`notes_for`)."""
    doc = decode(text)
    top = _object("input", doc, _TOP)
    own = _own(top["player"]) if isinstance(top.get("player"), dict) else None
    if own is not None and own.turn is not None:
        board, _turn = _board_and_turn(top)
        lines = own.turn(_player(top), board, catalog, _READER)
    else:
        inp = parse_scenario(doc)
        extra = [line for part in PARTS if part.lines is not None
                 for line in part.lines(doc["player"], inp.active is not None)]
        try:
            result = score_turn(inp, catalog)
        except ScoringInputError as error:
            field = error.field
            fail(field if field == "turn" else seat_field("player", field), error.problem_said)
        lines = [(line.label, line.coins) for line in result.lines] + extra
    scored: dict[str, Any] = {
        "total": sum(coins for _, coins in lines),
        "lines": [{"label": label, "coins": coins} for label, coins in lines],
    }
    notes = notes_for(top, catalog)
    if notes:
        scored["notes"] = notes
    return scored


# --- fields left out that change the score ------------------------------------------------


def _water() -> frozenset[str]:
    """The water terrains' names (seas and lakes): a region there is never inland."""
    return frozenset(t.value for t in known_terrains() if t.is_water)


def _given(doc: Mapping[str, Any], path: str) -> bool:
    """Whether `path` (a key, or "outer.inner") is given in `doc`."""
    outer, _, inner = path.partition(".")
    if outer not in doc:
        return False
    if not inner:
        return True
    value = doc[outer]
    return isinstance(value, dict) and inner in value


def _count_given(doc: Mapping[str, Any], key: str) -> bool:
    counts = doc.get("counts")
    return isinstance(counts, dict) and any(k.strip().casefold() == key for k in counts)


def _counted(doc: Mapping[str, Any], key: str) -> int:
    counts = doc.get("counts")
    if not isinstance(counts, dict):
        return 0
    return sum(v for k, v in counts.items() if k.strip().casefold() == key)


def _left_out(field: str, default: str, effect: str) -> str:
    return f"{field} left out: taken as {default}, so {effect}"


def _race_notes(
    field: str, doc: Mapping[str, Any], race: str, power: str, *, active: bool
) -> list[str]:
    """Notes for the fields this race or power reads that `doc` leaves out."""
    checks: list[tuple[str, str, str]] = []  # (field, default, what that costs)
    if active:
        if power == names.WEALTHY:
            checks.append(("first_turn", "false", "Wealthy's 7 coins are not paid"))
        if race == names.ORCS or power == names.PILLAGING:
            checks.append(("conquered_non_empty", "0", "no coin for non-empty regions conquered"))
        if power == names.FORTIFIED:
            checks.append(("fortresses", "0", "Fortified earns nothing for fortresses"))
    for part in PARTS:
        if part.checks is not None:
            checks += part.checks(doc, race, power, active, _READER)
    notes = _held_notes(field, doc)
    notes += [_left_out(f"{field}.{key}", default, effect)
              for key, default, effect in checks if not _given(doc, key)]
    return notes + _region_notes(field, doc, race, power, active=active)


def _held_notes(field: str, doc: Mapping[str, Any]) -> list[str]:
    """A race (or a seat an expansion scores itself) given neither `regions` nor `counts`
    holds nothing."""
    if "regions" in doc or "counts" in doc:
        return []
    return [_left_out(f"{field}.regions", "[] (no region held)", "no coin for regions")]


def _holds_a_region(doc: Mapping[str, Any]) -> bool:
    if "counts" in doc and isinstance(doc["counts"], dict):
        return any(isinstance(v, int) and v > 0 for k, v in doc["counts"].items()
                   if k.strip().casefold() in _terrains())
    regions = doc.get("regions")
    return isinstance(regions, list) and bool(regions)


def _region_notes(field: str, doc: Mapping[str, Any], race: str, power: str,
                  active: bool) -> list[str]:
    """Notes for facts of the regions (quick count or region objects) left out."""
    notes: list[str] = []
    aquatic = active and power == names.AQUATIC
    if "counts" in doc:
        counts = f"{field}.counts"
        wanted: list[tuple[str, str, str]] = []  # (count, default, what that costs)
        if race == names.DWARVES:
            wanted.append(("mines", "0", "Dwarves earn nothing for mines"))
        if active and race == names.WIZARDS:
            wanted.append(("magic_sources", "0", "Wizards earn nothing for magic sources"))
        if aquatic:
            wanted.append(("coastal", "0", "every land region counts as inland for Aquatic "
                                           "(one coin less each)"))
        for part in PARTS:
            if part.count_notes is not None:
                wanted += part.count_notes(doc, race, power, active, _READER)
        notes += [_left_out(f"{counts}.{key}", default, effect)
                  for key, default, effect in wanted if not _count_given(doc, key)]
        return notes
    regions = doc.get("regions")
    if aquatic and isinstance(regions, list):
        missing = [
            f"{field}.regions[{index}].coastal"
            for index, region in enumerate(regions)
            if isinstance(region, dict) and "coastal" not in region
            and str(region.get("terrain", "")).strip().casefold() not in _water()
        ]
        if missing:
            notes.append(_left_out(", ".join(missing), "false (inland)",
                                   "Aquatic pays one coin less for each instead of one more"))
    return notes


def _own(player: Mapping[str, Any]) -> ScorePart | None:
    """The expansion whose own seat the scenario's player scores (`ScorePart.own`)."""
    return next((part for part in PARTS
                 if part.own and part.own in player), None)


def _expansion_facts(held: HeldRegion | QuickCount) -> list[tuple[str, str]]:
    """The expansions' facts `held` gives, as (name, what they are in words)."""
    return [(name, part.facts_words)
            for part in PARTS if part.facts is not None for name in part.facts(held)]


_READER = ScenarioReader(_object, _required, _whole, _regions, _held_notes, _region_notes,
                         _left_out, _holds_a_region, _counted, _expansion_facts)


def notes_for(doc: Mapping[str, Any], catalog: Catalog) -> list[str]:
    """What the output should say about fields left out that change this score: a race or
    power reads them and their default was taken (an Aquatic region without `coastal`...).
    Called only on a scenario that scored, so every name in it resolves."""
    player = doc["player"]
    notes: list[str] = []
    own = _own(player)
    if own is not None and own.notes is not None:
        return own.notes(player, catalog, _READER)
    active = player.get("active")
    if isinstance(active, dict):
        notes += _race_notes("player.active", active, catalog.race(active["race"]).name,
                             catalog.power(active["power"]).name, active=True)
    for index, declined in enumerate(player.get("declined", [])):
        notes += _race_notes(f"player.declined[{index}]", declined,
                             catalog.race(declined["race"]).name,
                             catalog.power(declined["power"]).name, active=False)
    return notes
