"""A special power shown alone reads as a name; inside a combo it reads as printed.

Some French badges are printed as the end of a phrase after the race ("Mi-portions et leur
Dragon", "Nains des Collines"). names.toml gives such a power two French forms: ``fr``, the
badge alone (its noun: "Dragon", "Collines"), and ``fr_combo``, the printed words a combo
shows. These tests hold the app to that:

- `companion.ui.names.power` (the Rules screen's title, a market row's badge, a reminder)
  shows the alone form, and it never begins with the small words that only read after a
  race (et, des, de, du, d');
- `companion.ui.names.combo` keeps the printed words, in the edition's order;
- a catalogue sentence that opens with a power's English name and a colon ("Dragon Master:
  once per turn...") opens with the power's name alone in French and German, as
  `names.power` shows it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import companion
from companion import i18n
from companion.ui import names

LOCALE = Path(companion.__file__).parent / "locale"
LANGUAGES = ("fr", "de")
PHRASE_START = re.compile(r"^(et|des|de|du|d['\u2019])\s", re.IGNORECASE)
"""Words a French badge begins with when it is printed to follow the race."""


@pytest.fixture(scope="module")
def powers() -> dict[str, Any]:
    with (LOCALE / "names.toml").open("rb") as stream:
        return dict(tomllib.load(stream)["powers"])


@pytest.fixture
def french() -> Iterator[None]:
    i18n.use("fr")
    yield
    i18n.use(i18n.SOURCE)


def test_the_printed_suffix_badges_have_a_name_alone_and_their_printed_combo_words(
        powers: dict[str, Any]) -> None:
    suffixes = {key for key, entry in powers.items()
                if PHRASE_START.match(entry.get("fr_combo", entry["fr"]))}
    assert suffixes == {"Dragon Master", "Forest", "Hill", "Swamp", "Underworld", "Hordes of"}
    for key in suffixes:
        assert not PHRASE_START.match(powers[key]["fr"]), (key, powers[key]["fr"])
        assert powers[key]["fr"].casefold() in powers[key]["fr_combo"].casefold(), key


def test_a_badge_alone_is_its_noun_and_a_combo_keeps_the_printed_words(french: None) -> None:
    assert names.power("Dragon Master") == "Dragon"
    assert names.power("Hill") == "Collines"
    assert names.power("Underworld") == "Cavernes"
    assert names.power("Hordes of") == "Horde"
    assert names.combo("Dragon Master", "Halflings") == "Mi-portions et leur Dragon"
    assert names.combo("Hill", "Dwarves") == "Nains des Collines"
    assert names.combo("Swamp", "Trolls") == "Trolls des Marais"
    assert names.combo("Hordes of", "Ratmen") == "Hommes-rats de la horde"
    assert names.combo("Mounted", "Orcs") == "Orcs Montés"  # no combo form: the name itself


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_badge_alone_reads_as_the_end_of_a_phrase(
        powers: dict[str, Any], language: str) -> None:
    i18n.use(language)
    try:
        shown = {key: names.power(key) for key in powers}
    finally:
        i18n.use(i18n.SOURCE)
    assert not {k: v for k, v in shown.items() if PHRASE_START.match(v)}
    assert all(v[:1].isupper() for v in shown.values()), shown


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sentence_opening_with_a_power_opens_with_its_name_alone(
        powers: dict[str, Any], language: str) -> None:
    with (LOCALE / language / "LC_MESSAGES" / "companion.po").open("rb") as stream:
        catalog = read_po(stream)
    alone = {key: str(entry[language]) for key, entry in powers.items()}
    checked, wrong = 0, list[tuple[str, str]]()
    for message in catalog:
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        first = str(ids[0] or "")
        if message.context or not first:
            continue
        said = message.string
        strings = [str(s) for s in (said if isinstance(said, (tuple, list)) else (said,))]
        for key, name in alone.items():
            if first.startswith(f"{key}:"):
                checked += 1
                wrong += [(key, s) for s in strings if not s.startswith(name)]
    assert checked >= 20, checked  # the reminders, cost and score lines that open with a badge
    assert not wrong, wrong


@pytest.mark.parametrize(("language", "were", "hordes"), [
    ("en", "Were-Trolls", "Hordes of Ratmen"),
    ("fr", "Trolls Garous", "Hommes-rats de la horde"),
    ("de", "Wer-Trolle", "Rotte der Rattenmenschen"),
])
def test_a_prefix_badge_is_one_word_with_its_race_and_the_german_horde_is_of_the_race(
        language: str, were: str, hordes: str) -> None:
    i18n.use(language)
    try:
        assert names.combo("Were-", "Trolls") == were
        assert names.combo("Hordes of", "Ratmen") == hordes
        assert names.power("Hordes of") == {"en": "Hordes of", "fr": "Horde", "de": "Rotte"}[
            language]
    finally:
        i18n.use(i18n.SOURCE)
