"""The French and German names file (`companion/locale/names.toml`) covers everything the
app names and says where each name comes from.

Every race and power of the packaged catalog (and so every name in
`companion.rules.names`), every River World event, Relic, Place and expansion rule of the
rule book, every terrain and feature of the board format and every expansion has a French
and a German name; no name is blank; within one kind no two entries share a translated name
in the same language; a name marked confirmed names its source, one of the file's
`[sources]`, a name not confirmed names none, and every listed source is cited (by an
entry or in a note). The wheel carries the file: pyproject.toml declares it as package data
of `companion` (tests/test_packaging.py builds the wheel itself).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import companion
from companion.rules import names
from companion.rules.catalog import load_catalog
from companion.rules.maps import Feature, known_terrains
from companion.rules.river import RiverEvent
from companion.rules.rule_entry import PIECE
from companion.rules.rulebook import load_rulebook
from companion.rules.teams import MARKERS, Kind

NAMES_FILE = Path(companion.__file__).parent / "locale" / "names.toml"
LANGUAGES = ("fr", "de")
KINDS = ("races", "powers", "relics", "places", "events", "pieces", "terrains", "features",
         "expansions")
ALLOWED_FIELDS = {"en", "note"} | {
    f"{lang}{suffix}" for lang in LANGUAGES
    for suffix in ("", "_confirmed", "_source", "_combo")
}


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    with NAMES_FILE.open("rb") as file:
        return tomllib.load(file)


def _entries(data: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    for kind in KINDS:
        for key, entry in data[kind].items():
            yield kind, key, entry


def test_the_file_parses_and_has_every_kind(data: dict[str, Any]) -> None:
    assert data["schema"] == 1
    assert set(data) == {"schema", "sources", *KINDS}
    for kind in KINDS:
        assert data[kind], kind


def test_every_entry_has_a_french_and_a_german_name(data: dict[str, Any]) -> None:
    for kind, key, entry in _entries(data):
        where = f"{kind}.{key}"
        assert isinstance(entry, dict), where
        assert set(entry) <= ALLOWED_FIELDS, (where, set(entry) - ALLOWED_FIELDS)
        for lang in LANGUAGES:
            name = entry.get(lang)
            assert isinstance(name, str) and name.strip(), (where, lang)
            assert name == name.strip() and "  " not in name, (where, lang, name)
            assert isinstance(entry.get(f"{lang}_confirmed"), bool), (where, lang)


def test_a_confirmed_name_cites_a_listed_source_and_only_then(data: dict[str, Any]) -> None:
    sources = data["sources"]
    for source_id, url in sources.items():
        assert isinstance(url, str) and url.startswith(("http://", "https://")), source_id
    used = set()
    notes = " ".join(entry.get("note", "") for _, _, entry in _entries(data))
    for kind, key, entry in _entries(data):
        for lang in LANGUAGES:
            source = entry.get(f"{lang}_source")
            if entry[f"{lang}_confirmed"]:
                assert source in sources, (f"{kind}.{key}", lang, source)
                used.add(source)
            else:
                assert source is None, (f"{kind}.{key}", lang, "unconfirmed names cite none")
    unused = {s for s in sources if s not in used and s not in notes}
    assert not unused, f"sources no entry or note cites: {sorted(unused)}"


def test_no_two_entries_of_a_kind_share_a_translated_name(data: dict[str, Any]) -> None:
    for kind in KINDS:
        for lang in LANGUAGES:
            seen: dict[str, str] = {}
            for key, entry in data[kind].items():
                folded = entry[lang].casefold()
                assert folded not in seen, (kind, lang, entry[lang], key, seen.get(folded))
                seen[folded] = key


def test_every_race_and_power_of_the_catalog_is_named(data: dict[str, Any]) -> None:
    catalog = load_catalog()
    assert set(data["races"]) == {race.name for race in catalog.races}
    assert set(data["powers"]) == {power.name for power in catalog.powers}
    assert set(names.RACES) <= set(data["races"])
    assert set(names.POWERS) <= set(data["powers"])


def test_every_event_relic_place_and_expansion_rule_is_named(data: dict[str, Any]) -> None:
    assert set(data["events"]) == {event.value for event in RiverEvent}
    assert set(data["relics"]) == {n for n, m in MARKERS.items() if m.kind is Kind.RELIC}
    assert set(data["places"]) == {n for n, m in MARKERS.items() if m.kind is Kind.PLACE}
    pieces = {entry.name for entry in load_rulebook().entries if entry.kind == PIECE}
    assert pieces
    assert pieces <= set(data["pieces"]), pieces - set(data["pieces"])


def test_every_terrain_feature_and_expansion_is_named(data: dict[str, Any]) -> None:
    assert set(data["terrains"]) == {terrain.value for terrain in known_terrains()}
    assert set(data["features"]) == {feature.value for feature in Feature}
    expansion_ids = {expansion_id for expansion_id, _ in load_catalog().expansions}
    assert expansion_ids <= set(data["expansions"]), expansion_ids - set(data["expansions"])
    for kind in ("terrains", "features", "expansions"):
        for key, entry in data[kind].items():
            assert isinstance(entry.get("en"), str) and entry["en"].strip(), (kind, key)


def test_the_file_is_declared_as_package_data() -> None:
    root = Path(companion.__file__).parents[1]
    with (root / "pyproject.toml").open("rb") as file:
        package_data = tomllib.load(file)["tool"]["setuptools"]["package-data"]
    relative = NAMES_FILE.relative_to(Path(companion.__file__).parent)
    assert any(relative.match(pattern) for pattern in package_data.get("companion", []))


def test_a_combo_form_is_a_powers_and_is_used_in_a_combo(data: dict[str, Any]) -> None:
    """``<lang>_combo`` is a power's word inside a combo (German adjectives take an -e
    before the plural race); a badge shown alone keeps its printed name."""
    from companion import i18n
    from companion.ui import names

    for kind in KINDS:
        if kind != "powers":
            assert not [k for k, e in data[kind].items() if any(f.endswith("_combo") for f in e)]
    i18n.use("de")
    try:
        assert names.combo("Flying", "Skeletons") == "Fliegende Skelette"
        assert names.power("Flying") == "Fliegend"
        assert names.combo("Merchant", "Wizards") == "Händler Zauberer"  # a noun: as printed
    finally:
        i18n.use("en")
    assert names.combo("Flying", "Skeletons") == "Flying Skeletons"
