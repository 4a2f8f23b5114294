"""The catalog: every race and special power, the expansions they come from, the coins,
the reinforcement die and the turn track.

A combo is one race banner plus one special power badge; picking it gives
`Race.tokens + Power.tokens` race tokens (`Catalog.combo_tokens`), never more than the race
tokens in the box (`Race.max_tokens`, when known). Amazons also take 4 tokens that only
attack (`Race.conquest_only_tokens`), counted apart.

Invariants of every `Catalog` that `parse_catalog` returns (a broken file is refused with a
`DataError` naming the file and the entry):

- race names are unique ignoring case, and so are power names; lookups ignore case;
- every race and power names an expansion of the expansions table, whose first id is "base";
- token numbers are whole and not negative; a race's banner number is at least 1, and
  `max_tokens`, when known, is at least the banner number plus its conquest-only tokens;
- `confidence` is "high", "medium" or "low": how sure the transcription of the numbers is;
  `single_source` names the numbers of an entry that rest on one source only ("tokens",
  and for a race "max_tokens" when it is known): those a group may correct in the settings
  (`companion.rules.corrections`; the corrections in force are `Catalog.corrections`);
- coin values are distinct and positive (`coin_values` descending), the starting coins are
  coins of one of those values.

The files (`companion/data/`, schema 1; every listed field is required unless marked
optional, any other field is an error)::

    races.json   {"schema": 1, "notes": [...optional], "races": [
                   {"name": "Amazons", "tokens": 6, "max_tokens": 15, "expansion": "base",
                    "conquest_only_tokens": 4 (optional, 0), "confidence": "high" (optional),
                    "single_source": ["max_tokens"] (optional, none),
                    "summary": "what the race does, in the project's own words"}, ...]}
    powers.json  {"schema": 1, "notes": [...optional], "powers": [
                   {"name", "tokens", "expansion", "confidence" (optional),
                    "single_source" (optional), "summary"}, ...]}
    components.json  {"schema": 1, "notes": [...optional],
                   "expansions": [{"id": "base", "name": "Base game"}, ...],
                   "die_faces": [0, 0, 0, 1, 2, 3],
                   "coins": [{"value": 10, "count": 30}, ...],
                   "starting_coins": {"value": 1, "count": 5},
                   "turns_by_players": {"2": 10, ...},
                   "pieces": {"fortresses": 6, ...},
                   "river_world_pieces": {"pirate_ships": 12, ...} (optional)}

Every error's entry and problem is a `Said` (`companion.rules.said`), so a screen words it
in the table's language; its English (`str(error)`) is the message as it always read. Field
names, ids and values quoted from a file are values of the sentence, shown as they are.

Pure: standard library and `companion.rules.errors` only; the packaged files are read
with `importlib.resources`, imported when first needed.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from companion.rules.datafile import Where, show
from companion.rules.errors import DataError, UnknownName
from companion.rules.said import N_, Said, said, said_n

CONFIDENCE_LEVELS: tuple[str, ...] = ("high", "medium", "low")
RACE_NUMBERS: tuple[str, ...] = ("tokens", "max_tokens")
POWER_NUMBERS: tuple[str, ...] = ("tokens",)
BASE = "base"
_PACKAGE = "companion.data"
_DEFAULT_SOURCE = "package data"
_EXPANSION_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

_ENTRY_WORDS: Mapping[str, tuple[str, str, str]] = MappingProxyType({
    "race": (N_("race #{index}"), N_("race {name}"),
             N_("the name is used twice (also race #{index}; case is ignored)")),
    "power": (N_("power #{index}"), N_("power {name}"),
              N_("the name is used twice (also power #{index}; case is ignored)")),
})
"""For each kind of list entry (race, power): how an entry is named by its place and by
its name, and the refusal of a repeated name (one whole sentence each, for translation)."""


@dataclass(frozen=True, slots=True)
class Race:
    """A race banner: the tokens it gives and what the race does."""

    name: str
    tokens: int
    max_tokens: int | None
    expansion: str
    summary: str
    conquest_only_tokens: int = 0
    confidence: str = "high"
    single_source: tuple[str, ...] = ()  # its numbers that rest on one source only


@dataclass(frozen=True, slots=True)
class Power:
    """A special power badge: the tokens it adds and what the power does."""

    name: str
    tokens: int
    expansion: str
    summary: str
    confidence: str = "high"
    single_source: tuple[str, ...] = ()  # its numbers that rest on one source only


@dataclass(frozen=True, slots=True)
class Correction:
    """A group's own count of a number that rests on one source: `kind` "race" or "power",
    the banner or badge `name`, the `field` ("tokens", "max_tokens") and its `value`;
    `was` is the number the packaged data gives (None: unknown)."""

    kind: str
    name: str
    field: str
    value: int
    was: int | None = None


_Named = TypeVar("_Named", Race, Power)


def _empty() -> Mapping[Any, int]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every race, power and component the companion knows."""

    races: tuple[Race, ...]
    powers: tuple[Power, ...]
    expansions: tuple[tuple[str, str], ...]
    die_faces: tuple[int, ...]
    coin_values: tuple[int, ...]
    starting_coins: int
    turns_by_players: Mapping[int, int]
    coin_counts: Mapping[int, int] = field(default_factory=_empty)
    pieces: Mapping[str, int] = field(default_factory=_empty)
    river_world_pieces: Mapping[str, int] = field(default_factory=_empty)
    corrections: tuple[Correction, ...] = ()  # the group's corrections in force

    def __hash__(self) -> int:
        return hash((self.races, self.powers, self.expansions, self.die_faces))

    def race(self, name: str) -> Race:
        """The race of that name, ignoring case; `UnknownName` listing the races otherwise."""
        return _find(self.races, name, N_("race"))

    def power(self, name: str) -> Power:
        """The power of that name, ignoring case; `UnknownName` listing the powers otherwise."""
        return _find(self.powers, name, N_("power"))

    def races_in(self, expansions: Iterable[str]) -> tuple[Race, ...]:
        """The races of these expansions (ids), in catalog order."""
        chosen = self._expansion_ids(expansions)
        return tuple(r for r in self.races if r.expansion in chosen)

    def powers_in(self, expansions: Iterable[str]) -> tuple[Power, ...]:
        """The powers of these expansions (ids), in catalog order."""
        chosen = self._expansion_ids(expansions)
        return tuple(p for p in self.powers if p.expansion in chosen)

    def combo_tokens(self, race: str, power: str) -> int:
        """Race tokens a player takes with this combo: banner + badge, capped by the box.

        Amazons' 4 conquest-only tokens are not included (see `Race.conquest_only_tokens`).
        """
        picked = self.race(race)
        total = picked.tokens + self.power(power).tokens
        return total if picked.max_tokens is None else min(total, picked.max_tokens)

    def _expansion_ids(self, expansions: Iterable[str]) -> frozenset[str]:
        wanted = [expansions] if isinstance(expansions, str) else list(expansions)
        known = [ident for ident, _ in self.expansions]
        chosen: set[str] = set()
        for ident in wanted:
            key = ident.strip().casefold() if isinstance(ident, str) else None
            if key not in known:
                raise UnknownName(N_("expansion"), ident, known)
            chosen.add(key)
        return frozenset(chosen)


@functools.lru_cache(maxsize=1024)
def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


_INDEXES: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = {}
"""A catalog's races (or powers) by `_key`, per tuple (by identity, the tuple kept with its
index so that its id is not reused): a name is looked up, not searched for, at every tap."""


def _find(items: tuple[_Named, ...], name: str, kind: str) -> _Named:
    """The first of `items` of that name (ignoring case and spacing), else `UnknownName`."""
    if isinstance(name, str):
        entry = _INDEXES.get(id(items))
        if entry is None or entry[0] is not items:
            if len(_INDEXES) >= 64:  # catalogs come and go (corrections): a bounded memo
                _INDEXES.clear()
            index: dict[str, Any] = {}
            for item in items:
                index.setdefault(_key(item.name), item)
            entry = _INDEXES[id(items)] = (items, index)
        found: _Named | None = entry[1].get(_key(name))
        if found is not None:
            return found
    raise UnknownName(kind, name, [item.name for item in items])


# --- reading the packaged files -----------------------------------------------------------


@functools.cache
def load_catalog() -> Catalog:
    """The catalog from the package data (read once)."""
    return parse_catalog(_read("races.json"), _read("powers.json"), _read("components.json"))


def _read(name: str) -> Any:
    from importlib import resources  # here, not at import: it pulls in tempfile and random

    text = resources.files(_PACKAGE).joinpath(name).read_text("utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(name, said("line {line}", line=err.lineno),
                        said("not valid JSON: {reason}", reason=err.msg)) from err


# --- parsing and validation ---------------------------------------------------------------


def _file(name: str, source: str) -> str:
    return name if source == _DEFAULT_SOURCE else f"{source}/{name}"


def parse_catalog(
    races: Mapping[str, Any],
    powers: Mapping[str, Any],
    components: Mapping[str, Any],
    *,
    source: str = _DEFAULT_SOURCE,
) -> Catalog:
    """Check the three documents (see the module docstring) and build the `Catalog`.

    `source` says where they came from: a folder, named before each file in an error
    (``my-house-rules/races.json: race 'Amazons': ...``); for the package data errors name
    the bare file (``races.json: ...``).
    """
    top = said("top level")
    parts = _components(components, Where(_file("components.json", source), top))
    expansion_ids = tuple(ident for ident, _ in parts.expansions)
    race_list = _races(races, Where(_file("races.json", source), top), expansion_ids)
    power_list = _powers(powers, Where(_file("powers.json", source), top), expansion_ids)
    return Catalog(
        races=race_list,
        powers=power_list,
        expansions=parts.expansions,
        die_faces=parts.die_faces,
        coin_values=tuple(sorted(parts.coin_counts, reverse=True)),
        starting_coins=parts.starting_coins,
        turns_by_players=parts.turns_by_players,
        coin_counts=parts.coin_counts,
        pieces=parts.pieces,
        river_world_pieces=parts.river_world_pieces,
    )


def _confidence(where: Where, fields: Mapping[str, Any]) -> str:
    value = fields.get("confidence", "high")
    if value not in CONFIDENCE_LEVELS:
        where.fail(said("{field} must be one of {allowed}, got {value}", field="confidence",
                        allowed=", ".join(CONFIDENCE_LEVELS), value=show(value)))
    return str(value)


def _expansion(where: Where, value: object, expansion_ids: Sequence[str]) -> str:
    if value not in expansion_ids:
        known = ", ".join(expansion_ids)
        where.fail(said("unknown expansion {value}; allowed: {allowed} ({file})",
                        value=show(value), allowed=known, file="components.json"))
    return str(value)


def _entries(where: Where, items: Sequence[Any], kind: str) -> list[tuple[Where, object]]:
    """Each entry of a race or power list with its name for errors; refuses repeated names."""
    by_place, by_name, twice = _ENTRY_WORDS[kind]
    named: list[tuple[Where, object]] = []
    seen: dict[str, int] = {}
    for index, doc in enumerate(items, start=1):
        entry = where.at(said(by_place, index=index))
        name = doc.get("name") if isinstance(doc, Mapping) else None
        if isinstance(name, str) and name.strip():
            entry = where.at(said(by_name, name=repr(name)))
            if _key(name) in seen:
                entry.fail(said(twice, index=seen[_key(name)]))
            seen[_key(name)] = index
        named.append((entry, doc))
    return named


def _races(doc: object, where: Where, expansion_ids: Sequence[str]) -> tuple[Race, ...]:
    items = where.array(where.header(doc, ("races",))["races"], "races", non_empty=True)
    return tuple(
        _race(entry, item, expansion_ids) for entry, item in _entries(where, items, "race")
    )


def _race(where: Where, doc: object, expansion_ids: Sequence[str]) -> Race:
    fields = where.fields(
        doc,
        ("name", "tokens", "max_tokens", "expansion", "summary"),
        ("conquest_only_tokens", "confidence", "single_source"),
    )
    tokens = where.integer(fields["tokens"], "tokens", 1)
    conquest_only = where.integer(fields.get("conquest_only_tokens", 0), "conquest_only_tokens")
    max_tokens = fields["max_tokens"]
    if max_tokens is not None:
        least = tokens + conquest_only
        max_tokens = where.integer(max_tokens, "max_tokens")
        if max_tokens < least:
            where.fail(said_n("{field} {value} is fewer than the {n} tokens the banner gives",
                              "{field} {value} is fewer than the {n} tokens the banner gives",
                              least, field="max_tokens", value=max_tokens))
    return Race(
        name=where.text(fields["name"], "name").strip(),
        tokens=tokens,
        max_tokens=max_tokens,
        expansion=_expansion(where, fields["expansion"], expansion_ids),
        summary=where.text(fields["summary"], "summary"),
        conquest_only_tokens=conquest_only,
        confidence=_confidence(where, fields),
        single_source=_single_source(where, fields, RACE_NUMBERS),
    )


def _powers(doc: object, where: Where, expansion_ids: Sequence[str]) -> tuple[Power, ...]:
    items = where.array(where.header(doc, ("powers",))["powers"], "powers", non_empty=True)
    return tuple(
        _power(entry, item, expansion_ids) for entry, item in _entries(where, items, "power")
    )


def _power(where: Where, doc: object, expansion_ids: Sequence[str]) -> Power:
    fields = where.fields(
        doc, ("name", "tokens", "expansion", "summary"), ("confidence", "single_source")
    )
    return Power(
        name=where.text(fields["name"], "name").strip(),
        tokens=where.integer(fields["tokens"], "tokens"),
        expansion=_expansion(where, fields["expansion"], expansion_ids),
        summary=where.text(fields["summary"], "summary"),
        confidence=_confidence(where, fields),
        single_source=_single_source(where, fields, POWER_NUMBERS),
    )


def _single_source(where: Where, fields: Mapping[str, Any], numbers: Sequence[str]) -> tuple[
    str, ...
]:
    value = fields.get("single_source", [])
    names = where.array(value, "single_source")
    for name in names:
        if name not in numbers:
            where.fail(said("{field} lists {value}; allowed: {allowed}", field="single_source",
                            value=show(name), allowed=", ".join(numbers)))
    if "max_tokens" in names and fields.get("max_tokens") is None:
        where.fail(said("{field} lists {number}, which is not known (null)",
                        field="single_source", number="max_tokens"))
    return tuple(str(name) for name in names)


# --- components.json ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Components:
    expansions: tuple[tuple[str, str], ...]
    die_faces: tuple[int, ...]
    coin_counts: Mapping[int, int]
    starting_coins: int
    turns_by_players: Mapping[int, int]
    pieces: Mapping[str, int]
    river_world_pieces: Mapping[str, int]


_COMPONENT_FIELDS = (
    "expansions",
    "die_faces",
    "coins",
    "starting_coins",
    "turns_by_players",
    "pieces",
)


def _components(doc: object, where: Where) -> _Components:
    fields = where.header(doc, _COMPONENT_FIELDS, ("river_world_pieces",))
    coins = _coins(where.at("coins"), fields["coins"])
    return _Components(
        expansions=_expansions(where, fields["expansions"]),
        die_faces=_die_faces(where.at("die_faces"), fields["die_faces"]),
        coin_counts=coins,
        starting_coins=_starting_coins(where.at("starting_coins"), fields["starting_coins"], coins),
        turns_by_players=_turns(where.at("turns_by_players"), fields["turns_by_players"]),
        pieces=_counts(where.at("pieces"), fields["pieces"]),
        river_world_pieces=_counts(
            where.at("river_world_pieces"), fields.get("river_world_pieces", {})
        ),
    )


def _expansions(where: Where, value: object) -> tuple[tuple[str, str], ...]:
    table: list[tuple[str, str]] = []
    for index, doc in enumerate(where.array(value, "expansions", non_empty=True), start=1):
        entry = where.at(_numbered("expansions", index))
        fields = entry.fields(doc, ("id", "name"))
        ident = entry.text(fields["id"], "id")
        if not _EXPANSION_ID.fullmatch(ident):
            entry.fail(said("{field} {value} must be lower-case letters, digits and single "
                            "dashes", field="id", value=repr(ident)))
        if any(ident == known for known, _ in table):
            entry.fail(said("{field} {value} is used twice", field="id", value=repr(ident)))
        table.append((ident, entry.text(fields["name"], "name")))
    if table[0][0] != BASE:
        where.at(_numbered("expansions", 1)).fail(said(
            "the first expansion must be {base}, got {value}", base=repr(BASE),
            value=repr(table[0][0])))
    return tuple(table)


def _die_faces(where: Where, value: object) -> tuple[int, ...]:
    each = said("each face")
    return tuple(
        where.integer(face, each) for face in where.array(value, "die_faces", non_empty=True)
    )


def _coins(where: Where, value: object) -> Mapping[int, int]:
    counts: dict[int, int] = {}
    for index, doc in enumerate(where.array(value, "coins", non_empty=True), start=1):
        entry = where.at(_numbered("coins", index))
        fields = entry.fields(doc, ("value", "count"))
        coin = entry.integer(fields["value"], "value", 1)
        if coin in counts:
            entry.fail(said("{field} {value} is listed twice", field="value", value=coin))
        counts[coin] = entry.integer(fields["count"], "count")
    return MappingProxyType(dict(sorted(counts.items(), reverse=True)))


def _starting_coins(where: Where, value: object, coins: Mapping[int, int]) -> int:
    fields = where.fields(value, ("value", "count"))
    coin = where.integer(fields["value"], "value", 1)
    if coin not in coins:
        where.fail(said("{field} {value} is not one of the coins ({coins})", field="value",
                        value=coin, coins=", ".join(map(str, coins))))
    return coin * where.integer(fields["count"], "count")


def _turns(where: Where, value: object) -> Mapping[int, int]:
    if not isinstance(value, Mapping) or not value:
        where.fail(said("expected a non-empty object of player count: turns, got {value}",
                        value=show(value)))
    turns: dict[int, int] = {}
    for key, count in value.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) >= 2):
            where.fail(said("player count {value} must be a whole number of at least {least}",
                            value=repr(key), least=2))
        turns[int(key)] = where.integer(count, said("turns for {players} players", players=key), 1)
    return MappingProxyType(dict(sorted(turns.items())))


def _counts(where: Where, value: object) -> Mapping[str, int]:
    if not isinstance(value, Mapping):
        where.fail(said("expected an object of piece: count, got {value}", value=show(value)))
    return MappingProxyType({str(k): where.integer(n, str(k)) for k, n in value.items()})


def _numbered(field: str, index: int) -> Said:
    """The entry at `index` (from 1) of the list `field` of a file: ``coins #2``."""
    return said("{field} #{index}", field=field, index=index)
