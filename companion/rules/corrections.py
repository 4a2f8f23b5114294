"""Corrections: a group's own count of the catalog numbers that rest on one source.

Some numbers of the mini-expansions (a banner's or a badge's tokens, a race's tokens in the
box) were found in one public source only; the data files list them in each entry's
`single_source`. A group holding the box can correct those, and only those, in the app's
settings. A correction is data, `Override` = (kind, name, field, value): the settings keep
them as a document ``{"races": {"Homunculi": {"tokens": 6}}, "powers": {"Were-":
{"tokens": 5}}}`` (`read_document` / `document`), a new game records them in
`GameCreated.corrections`, and `corrected(catalog, overrides)` is the catalog with them
applied. The packaged files are never changed.

Invariants:
- `corrected` always starts from the packaged numbers (`uncorrected`), so corrections never
  stack, and `corrected(c, ())` is the packaged catalog; `Catalog.corrections` lists the
  corrections in force with the packaged number each replaced;
- a corrected catalog keeps every catalog invariant: a banner gives 1 to `MOST_TOKENS`
  tokens, a badge 0 to `MOST_TOKENS`, and a race's tokens in the box (when known, at most
  `MOST_IN_BOX`) are at least its banner number plus its conquest-only tokens;
- a refused correction raises `CorrectionError` (an `IllegalAction`) naming the race or
  power, the field and what is allowed, and nothing is applied.

Pure: standard library and `companion.rules` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.rules.catalog import Catalog, Correction, Power, Race
from companion.rules.errors import IllegalAction, UnknownName

Override = tuple[str, str, str, int]
"""(kind "race" or "power", name, field "tokens" or "max_tokens", value)."""

MOST_TOKENS = 20
"""No banner or badge gives more tokens than this (the base game's most is 15)."""
MOST_IN_BOX = 30
"""No race has more tokens in the box than this (the base game's most is 18)."""
KINDS = {"races": "race", "powers": "power"}


class CorrectionError(IllegalAction):
    """A correction refused: `kind` and `name` say which banner or badge, `field` which
    number, and the message what is allowed."""

    def __init__(self, kind: str, name: object, field: str, problem: str) -> None:
        shown = name if isinstance(name, str) else repr(name)
        super().__init__(f"{kind} {shown}, {field}: {problem}")
        self.kind = kind
        self.name = name
        self.field = field
        self.problem = problem


def uncorrected(catalog: Catalog) -> Catalog:
    """The catalog with the packaged numbers back in place of its corrections."""
    if not catalog.corrections:
        return catalog
    races, powers = list(catalog.races), list(catalog.powers)
    for c in catalog.corrections:
        if c.kind == "race":
            races = [_set(r, c.field, c.was) if r.name == c.name else r for r in races]
        else:
            powers = [_set(p, c.field, c.was) if p.name == c.name else p for p in powers]
    return replace(catalog, races=tuple(races), powers=tuple(powers), corrections=())


def correctable(catalog: Catalog) -> tuple[Correction, ...]:
    """Every number a group may correct, with its value now and its packaged value."""
    packaged = uncorrected(catalog)
    out: list[Correction] = []
    for kind, entries, now in (("race", packaged.races, catalog.race),
                               ("power", packaged.powers, catalog.power)):
        for entry in entries:
            for name in entry.single_source:
                value = getattr(now(entry.name), name)
                out.append(Correction(kind, entry.name, name, value, getattr(entry, name)))
    return tuple(out)


def overrides(catalog: Catalog) -> tuple[Override, ...]:
    """The corrections in force, as recorded in a new game."""
    return tuple((c.kind, c.name, c.field, c.value) for c in catalog.corrections)


def corrected(catalog: Catalog, given: Iterable[Override]) -> Catalog:
    """The packaged catalog with `given` applied; `CorrectionError` for a bad one."""
    packaged = uncorrected(catalog)
    races = {r.name: r for r in packaged.races}
    powers = {p.name: p for p in packaged.powers}
    done: list[Correction] = []
    items = sorted(_checked(packaged, given), key=lambda o: o[2] == "max_tokens")  # tokens first
    for kind, name, field, value in items:
        if any((c.kind, c.name, c.field) == (kind, name, field) for c in done):
            raise CorrectionError(kind, name, field, "corrected twice; give one number")
        if kind == "race":
            race = races[name]
            _check_race(race, field, value)
            done.append(Correction(kind, name, field, value, getattr(race, field)))
            races[name] = _set(race, field, value)
        else:
            _check_number(kind, name, field, value, 0, MOST_TOKENS)
            done.append(Correction(kind, name, field, value, getattr(powers[name], field)))
            powers[name] = _set(powers[name], field, value)
    return replace(packaged, races=tuple(races.values()), powers=tuple(powers.values()),
                   corrections=tuple(done))


def _checked(packaged: Catalog, given: Iterable[Override]) -> list[Override]:
    """Each override with the catalog's spelling of its name; refuses what cannot be
    corrected."""
    out: list[Override] = []
    for item in given:
        if not (isinstance(item, tuple | list) and len(item) == 4):
            raise CorrectionError("correction", item, "?",
                                  "must be (kind, name, field, value)")
        kind, name, field, value = item
        if kind not in KINDS.values():
            raise CorrectionError(str(kind), name, str(field), "the kind must be race or power")
        try:
            entry: Race | Power = packaged.race(name) if kind == "race" else packaged.power(name)
        except UnknownName:
            raise CorrectionError(kind, name, str(field),
                                  f"no such {kind}; {_listing(packaged)}") from None
        if field not in entry.single_source:
            if entry.single_source:
                allowed = f"only {', '.join(entry.single_source)} can be corrected"
            else:
                allowed = f"its numbers are cross-checked; {_listing(packaged)}"
            raise CorrectionError(kind, entry.name, str(field),
                                  f"does not rest on one source, so it is not corrected here; "
                                  f"{allowed}")
        out.append((kind, entry.name, field, value))
    return out


def _listing(packaged: Catalog) -> str:
    numbers = [f"{c.name} {c.field}" for c in correctable(packaged)]
    return "the numbers that can be corrected: " + ", ".join(numbers)


def _check_number(kind: str, name: str, field: str, value: object, least: int,
                  most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise CorrectionError(kind, name, field,
                              f"{value!r} is not allowed; a whole number from {least} to {most}")
    return value


def _check_race(race: Race, field: str, value: object) -> None:
    if field == "tokens":
        most = MOST_TOKENS
        if race.max_tokens is not None:
            most = min(most, race.max_tokens - race.conquest_only_tokens)
        _check_number("race", race.name, field, value, 1, most)
    else:
        least = race.tokens + race.conquest_only_tokens
        _check_number("race", race.name, field, value, least, MOST_IN_BOX)


def _set(entry: Any, field: str, value: object) -> Any:
    return replace(entry, **{field: value})


# --- the settings document ----------------------------------------------------------------


def read_document(doc: object) -> tuple[Override, ...]:
    """The overrides of a settings document (see the module docstring); its shape only is
    checked here, the numbers by `corrected`."""
    if doc is None:
        return ()
    if not isinstance(doc, Mapping) or set(doc) - set(KINDS):
        raise CorrectionError("corrections", doc, "document",
                              'must be {"races": {name: {field: n}}, "powers": {...}}')
    out: list[Override] = []
    for group, kind in KINDS.items():
        entries = doc.get(group, {})
        if not isinstance(entries, Mapping):
            raise CorrectionError(kind, group, "document", f"{group} must map names to numbers")
        for name, numbers in entries.items():
            if not isinstance(numbers, Mapping):
                raise CorrectionError(kind, name, "document", "must map fields to numbers")
            for field, value in numbers.items():
                out.append((kind, str(name), str(field), value))
    return tuple(out)


def document(given: Iterable[Override]) -> dict[str, dict[str, dict[str, int]]]:
    """The settings document holding `given` (the reverse of `read_document`)."""
    doc: dict[str, dict[str, dict[str, int]]] = {}
    for kind, name, field, value in given:
        group = "races" if kind == "race" else "powers"
        doc.setdefault(group, {}).setdefault(name, {})[field] = value
    return doc
