"""A light sentence worded without the rules says exactly what the rules' wording says.

Start-up writes its lines (a config file's warnings, the saved-games file in use) before
the first frame, where the rules may not be imported: `companion.sentence.Sentence.say`
words a sentence that holds no rules' `Said` with gettext alone. Each check here compares
it, in French and German, with `companion.ui.wording.say` of the same sentence's `said`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from words_support import in_language

from companion import i18n
from companion.commands import say
from companion.config import load_config
from companion.sentence import Sentence

BAD_FILES = (
    "[display]\nrotation = 45\n",
    "[sound]\nvolume = 250\nquiet_hours = \"25:00-07:00\"\n",
    "[display]\ncolour = \"red\"\n",
    "[display\nrotation = 0\n",
    "[die]\nbutton_pin = 17\nled_pin = 17\n",
)


def light_in(language: str, sentence: Sentence) -> str:
    i18n.use(language)
    try:
        return sentence.say(i18n._)
    finally:
        i18n.use(i18n.SOURCE)


@pytest.mark.parametrize("text", BAD_FILES)
def test_a_config_warning_is_worded_alike_without_the_rules(tmp_path: Path, text: str) -> None:
    file = tmp_path / "companion.toml"
    file.write_text(text)
    warnings = load_config(file)[1]
    assert warnings
    for warning in warnings:
        assert warning.sentence.light
        assert light_in("en", warning.sentence) == warning.message
        for language in ("fr", "de"):
            worded = light_in(language, warning.sentence)
            assert worded == in_language(language, warning.said)
            assert worded != warning.message  # it was translated, not left in English


def test_a_saved_games_error_is_worded_alike_without_the_rules() -> None:
    from companion.store.errors import DatabaseInUse

    in_use = DatabaseInUse(  # as companion.store.lock says it
        "The saved-games file {database} is already in use by another companion app "
        "(process {pid}); close that one first, then start this one again.", 42,
        database="/tmp/games.sqlite3", pid=42)
    for language in ("fr", "de"):
        i18n.use(language)
        try:
            worded = say(in_use)
        finally:
            i18n.use(i18n.SOURCE)
        assert worded == in_language(language, in_use) != str(in_use)


def test_a_sentence_holding_a_rules_sentence_is_worded_through_the_rules() -> None:
    from companion.rules.said import Name, said

    sentence = Sentence("{key} cannot be {value}: {allowed}", key="setup.race",
                        value=said("{race}", race=Name("race", "ratmen")), allowed="a race")
    assert not sentence.light
    with pytest.raises(TypeError):
        sentence.say(i18n._)
    i18n.use("fr")
    try:
        assert say(sentence) == say(sentence.said)
    finally:
        i18n.use(i18n.SOURCE)


def test_plain_text_with_braces_is_said_as_it_is() -> None:
    for text in ("no {value} here", "a } alone"):
        assert light_in("fr", Sentence(text)) == text == in_language("fr", Sentence(text).said)
