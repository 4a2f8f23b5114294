"""The rules' sentences as `Said` values: English by `str()`, worded in the table's
language by `companion.ui.wording.say`, names shown as the edition prints them."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.rules import Combo, IllegalAction, Name, RulesError, Said
from companion.rules.said import ENGLISH, listed, said, said_n
from companion.session import NO_GAME, Session
from companion.ui.wording import say


def test_str_is_the_english_sentence_with_names_as_their_ids() -> None:
    sentence = said("the {race} hold no region", race=Name("race", "Ghouls"))
    assert str(sentence) == "the Ghouls hold no region"
    assert sentence.say(ENGLISH) == str(sentence)


def test_a_plural_follows_its_count_and_fills_n() -> None:
    assert str(said_n("{n} token", "{n} tokens", 1)) == "1 token"
    assert str(said_n("{n} token", "{n} tokens", 3)) == "3 tokens"


def test_every_placeholder_needs_its_value_when_made() -> None:
    with pytest.raises(ValueError, match="race"):
        said("the {race} hold no region")


def test_values_inside_are_worded_too() -> None:
    inner = said("{player} has no active race", player="Ann")
    outer = said("not now: {reason}; pick {combos}",
                 reason=inner, combos=listed([Combo("Mounted", "Orcs"), Name("race", "Ghouls")]))
    assert str(outer) == "not now: Ann has no active race; pick Mounted Orcs, Ghouls"


def test_an_error_raised_with_plain_text_says_it_as_it_is_braces_and_all() -> None:
    error = RulesError("a {brace} and {another}")
    assert str(error) == "a {brace} and {another}"
    assert say(error) == "a {brace} and {another}"


def test_a_refusal_is_worded_in_the_language_in_use() -> None:
    refused = IllegalAction(said("no {race} tokens in hand to put on the board",
                                 race=Name("race", "Ghouls")))
    assert str(refused) == "no Ghouls tokens in hand to put on the board"
    i18n.use("fr")
    french = say(refused)
    i18n.use("de")
    german = say(refused)
    i18n.use("en")
    assert "Zombies" in french and "tokens" not in french  # Ghouls are "Zombies" in French
    assert "Ghule" in german and "tokens" not in german
    assert say(refused) == str(refused)


def test_a_combo_follows_the_languages_order() -> None:
    sentence = said("pick {combo}", combo=Combo("Mounted", "Orcs"))
    i18n.use("fr")
    try:
        assert "Orcs Montés" in say(sentence)
    finally:
        i18n.use("en")


def test_the_session_refuses_in_the_tables_language() -> None:
    with pytest.raises(IllegalAction) as refused:
        Session().state  # noqa: B018 - asking is the intent
    assert str(refused.value) == NO_GAME
    i18n.use("de")
    try:
        assert say(refused.value) != NO_GAME
    finally:
        i18n.use("en")


def test_a_broken_translation_falls_back_to_english() -> None:
    class Broken:
        def gettext(self, template: str) -> str:
            return "{nope}"

        def ngettext(self, singular: str, plural: str, count: int) -> str:
            return "{nope}"

        def name(self, name: Name) -> str:
            return name.id

        def combo(self, combo: Combo) -> str:
            return str(combo)

    sentence = said("{player} has no active race", player="Ann")
    assert sentence.say(Broken()) == "Ann has no active race"
    assert isinstance(sentence, Said)


def test_a_score_line_reads_in_the_tables_language_and_keeps_its_english_label() -> None:
    from scoring_support import active, declined, hills, score

    result = score(active("Ghouls", "Merchant", hills(3)), declined("Ratmen", "Commando",
                                                                   hills(2)))
    labels = [line.label for line in result.lines]
    assert labels == ["Regions held by Ghouls", "Merchant: one per region held",
                      "Regions held by Ratmen (in decline)"]
    i18n.use("fr")
    try:
        french = [say(line.words) for line in result.lines]
    finally:
        i18n.use("en")
    assert french == ["Régions des Zombies", "Marchands\u00a0: une par région occupée",
                      "Régions des Hommes-rats (en déclin)"]
