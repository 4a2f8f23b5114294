"""The rule book: an entry with words for everything a player may look up, found by name."""

from __future__ import annotations

import pytest

from companion.rules.catalog import load_catalog
from companion.rules.errors import DataError, UnknownName
from companion.rules.river import RULE_EVENT as EVENT
from companion.rules.river import RiverEvent
from companion.rules.rule_entry import PIECE, POWER, RACE, TURN, RuleEntry, english
from companion.rules.rulebook import KINDS, Rulebook, fold, load_rulebook
from companion.rules.teams import MARKERS, Kind
from companion.rules.teams import RULE_PLACE as PLACE
from companion.rules.teams import RULE_RELIC as RELIC


def test_every_race_and_power_of_the_catalog_has_words() -> None:
    book = load_rulebook()
    catalog = load_catalog()
    names = dict(catalog.expansions)
    for race in catalog.races:
        entry = book.entry(RACE, race.name)
        assert english(entry.text).strip() and entry.expansion == names[race.expansion]
        assert english(entry.facts).startswith("Banner:")
    for power in catalog.powers:
        entry = book.entry(POWER, power.name)
        assert english(entry.text).strip() and entry.expansion == names[power.expansion]
        assert english(entry.facts).startswith("Badge:")


def test_every_river_event_relic_and_place_has_words() -> None:
    book = load_rulebook()
    for event in RiverEvent:
        assert english(book.entry(EVENT, event.value).text).strip()
    for marker in MARKERS.values():
        kind = RELIC if marker.kind is Kind.RELIC else PLACE
        assert english(book.entry(kind, marker.name).text).strip()


def test_expansion_pieces_and_the_turn_are_there() -> None:
    book = load_rulebook()
    for name in ("Necromancer", "Ghosts", "Well of Souls", "Necromancer Island", "Monsters",
                 "Pirate ship", "Harbor", "Temple of the Seer"):
        assert english(book.entry(PIECE, name).text).strip()
    steps = [e.name for e in book.entries if e.kind == TURN]
    assert steps[0] == "Pick a combo" and steps[-1] == "Score" and len(steps) >= 6
    assert all(english(e.text).strip() for e in book.entries)
    assert {e.kind for e in book.entries} == set(KINDS)


def test_search_finds_part_of_a_name_ignoring_case_and_accents() -> None:
    book = load_rulebook()
    assert [e.name for e in book.search("AMAZ")] == ["Amazons"]
    assert "Dwarves" in [e.name for e in book.search("warv")]
    assert [e.name for e in book.search("glandulfs")] == ["Glandulf's Tavern"]
    assert [e.name for e in book.search("peace lov")] == ["Peace-Loving"]
    assert [e.name for e in book.search("Sé")] != []  # é folds to e
    assert book.search("zzzz") == ()
    assert book.search("  ") == book.entries


def test_search_ranks_starts_before_contains_then_kind_then_name() -> None:
    book = load_rulebook()
    found = book.search("s")
    starts = [e for e in found if fold(e.name).startswith("s")]
    assert list(found[: len(starts)]) == starts
    keys = [(KINDS.index(e.kind), e.place, fold(e.name)) for e in starts]
    assert keys == sorted(keys)
    # a race that starts with the text comes before a piece that only contains it
    names = [e.name for e in book.search("ghost")]
    assert names == ["Ghosts"]
    names = [e.name for e in book.search("necro")]
    assert names == ["Necromancer", "Necromancer Island"]


def test_entry_ignores_case_and_an_unknown_name_is_a_clear_error() -> None:
    book = load_rulebook()
    assert book.entry(RACE, "  amazons ").name == "Amazons"
    with pytest.raises(UnknownName, match="unknown race 'Unicorns'; allowed: Amazons"):
        book.entry(RACE, "Unicorns")
    with pytest.raises(UnknownName, match="unknown kind of rule 'spell'"):
        book.entry("spell", "Amazons")


def test_a_rulebook_refuses_blank_text_and_twice_the_same_name() -> None:
    with pytest.raises(DataError, match="no text"):
        Rulebook([RuleEntry(RACE, "Elves", " ", "Base game")])
    with pytest.raises(DataError, match="listed twice"):
        Rulebook([RuleEntry(RACE, "Elves", "x", "Base game"), RuleEntry(RACE, "ELVES", "y", "b")])
    both = [RuleEntry(RACE, "Elves", "x", "b"), RuleEntry(POWER, "Elves", "y", "b")]
    assert len(Rulebook(both)) == 2
