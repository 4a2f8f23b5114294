"""The undo bar's words in French and German: a step taken back reads as one sentence of
the language spoken, with the races and powers named as that language's edition prints
them, and no English word left.

Driven on the real headless app at 800x480 with a real saved-games file: the language is
switched (`companion.i18n.use`, as the settings and home screens do), a combo is picked, a
region conquered and a race put in decline, each taken back with the table's Undo button,
and the bar "Took back: ..." is read off its label.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ui_support as ui
from factories import created, end_turn, finish_redeployment, play_turn
from screen_steps import screen, tap_action, tap_id

from companion import i18n
from companion.rules.catalog import load_catalog
from companion.rules.conquest import conquest_cost
from companion.rules.errors import RulesError
from companion.rules.events import RegionConquered
from companion.rules.game import attacker, refusal
from companion.session import Session
from companion.store import Store
from companion.ui import names

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RACE, POWER = "Ratmen", "Flying"
"""Ann's combo: both named otherwise on the French and German editions."""

ENGLISH = {"took", "back", "picking", "taking", "putting", "decline", "going", "into", "the",
           RACE.casefold(), POWER.casefold()}
"""The English words the same bars say in English (besides Ann's name and the words German
writes alike: "in", "Region")."""
ALSO_ENGLISH = {"fr": {"region", "in"}, "de": set()}
"""Words of the English bars that are not words of the language too."""


@pytest.fixture
def table(headless_app: Any, tmp_path: Path) -> Iterator[tuple[Any, Session]]:
    """Ann and Bob on the table screen, Ann's Flying Ratmen first in the market, saved to
    a real file; English again afterwards."""
    s = Session(load_catalog(), rng=random.Random(3),
                store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(2, races=(RACE,), powers=(POWER,)))
    headless_app.use_session(s, screen="table")
    ui.resize((800, 480))
    ui.pump()
    try:
        yield headless_app, s
    finally:
        i18n.use(i18n.SOURCE)
        ui.close_dialogs()
        headless_app.presenters["table"].hide_redo()
        assert s.store is not None
        s.store.close()


def took_back(app: Any) -> str:
    """Undo on the table, and the bar's words."""
    tap_id(app, "undo")
    ui.pump()
    table = screen(app)
    assert table.p.redo_offered and ui.is_shown(table.ids.undo_bar)
    text: str = table.ids.took_back.text
    return text


def english_words(text: str, language: str) -> set[str]:
    english = ENGLISH | ALSO_ENGLISH[language]
    return {word for word in re.findall(r"[A-Za-z]+", text.casefold()) if word in english}


def a_conquest(s: Session) -> tuple[int, int]:
    """A region Ann may take now with enough tokens, and those tokens."""
    state = s.state
    who = attacker(state)
    for rid in sorted(state.map.regions):
        try:
            cost = conquest_cost(state.map, rid, state.regions.regions, who).total
        except RulesError:  # a region the rules refuse outright
            continue
        if refusal(state, RegionConquered(state.track.seat, rid, cost)) is None:
            return rid, cost
    raise AssertionError("no region to conquer")


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_pick_a_conquest_and_a_decline_taken_back_read_in_the_language_spoken(
    table: tuple[Any, Session], language: str
) -> None:
    app, s = table
    i18n.use(language)
    ui.pump()
    combo, race = names.combo(POWER, RACE), names.race(RACE)
    assert RACE not in combo and POWER not in combo  # the edition's names differ

    s.pick(0)
    picked = took_back(app)
    assert combo in picked and "Ann" in picked
    assert english_words(picked, language) == set(), picked
    tap_action(app, "redo")
    assert s.state.current.active is not None and s.state.current.active.race == RACE

    region, tokens = a_conquest(s)
    s.conquer(region, tokens)
    taken = took_back(app)
    assert str(region) in taken and "Ann" in taken
    assert english_words(taken, language) == set(), taken
    tap_action(app, "redo")
    assert s.state.regions[region].occupant is not None

    s.finish_conquests()
    finish_redeployment(s)
    s.score(1)
    end_turn(s)
    play_turn(s, coins=1)  # Bob
    s.decline()
    declined = took_back(app)
    assert race in declined and "Ann" in declined
    assert english_words(declined, language) == set(), declined
    assert s.state.current.active is not None and s.state.current.active.race == RACE


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_games_story_reads_in_the_language_spoken(language: str) -> None:
    """The game end's story lines: each a sentence of the language spoken, the combo by
    the edition's names (what the game end screen passes), the count in its plural."""
    from companion import story

    spans = (story.RaceSpan(RACE, POWER, 1, 4, 23, declined_turn=4),
             story.RaceSpan(RACE, POWER, 5, 5, 1),
             story.RaceSpan(RACE, POWER, 5, 10, 36, split=False))
    english = [story.race_line(span, names.combo) for span in spans]
    assert english[0] == "Flying Ratmen, turns 1 to 4, declined in turn 4: 23 coins (in " \
        "decline too)"
    try:
        i18n.use(language)
        combo = names.combo(POWER, RACE)
        lines = [story.race_line(span, names.combo) for span in spans]
        lines += [story.best_line(story.BestTurn(0, 3, 12)), story.best_line(None)]
        for line in lines:
            assert english_words(line, language) - {"in"} == set(), line
            assert not {"coin", "coins", "turn", "turns", "declined", "best"} & set(
                re.findall(r"[a-z]+", line.casefold())), line
        assert all(combo in line for line in lines[:3])
        assert "23" in lines[0] and "36" in lines[2] and "12" in lines[3]
        assert lines[1].replace("\u00a0", " ").endswith(  # the singular
            {"fr": ": 1 pièce", "de": ": 1 Münze"}[language])
    finally:
        i18n.use(i18n.SOURCE)


@pytest.mark.parametrize(("language", "pot", "river"), [
    ("en", "a Pot of Gold", "river"), ("fr", "un Pot d'or", "rivière"),
    ("de", "einen Goldtopf", "Fluss")])
def test_an_expansions_marker_and_terrain_are_worded_by_its_view(
    language: str, pot: str, river: str
) -> None:
    """The shared words name no expansion: a Pot of Gold in a sentence is the
    mini-expansions' view's (`marker_words`), a river in a sentence River World's
    (`TerrainLook.word`); the base game's own stay the shared module's."""
    from companion.ui.describe import marker_name
    from companion.ui.presenters.expansion import terrain_words

    try:
        i18n.use(language)
        assert marker_name("pot_of_gold") == pot
        assert terrain_words("river") == river
        assert marker_name("fortress") == i18n._("a Fortress")
        assert terrain_words("forest") == i18n._("forest")
        assert marker_name("no_such_marker") == "no such marker"
        assert terrain_words("no_such_terrain") == "no_such_terrain"
    finally:
        i18n.use(i18n.SOURCE)


def test_a_redeployment_taken_back_names_who_placed_which_race() -> None:
    """Tokens put back on the board (a defender's hand at a turn's end, or the player's own
    spread) read as who placed which race, in each language; the undo's bar said "the last
    action" for them."""
    from companion import i18n
    from companion.rules import TroopsRedeployed
    from companion.ui.describe import event_text

    placed = TroopsRedeployed(0, "Giants", ((38, 3),))
    said = {}
    for language in ("en", "fr", "de"):
        i18n.use(language)
        said[language] = event_text(placed, ["Ann", "Bob"])
    assert said == {"en": "Ann placing the Giants on the board",
                    "fr": "Ann place les Géants sur le plateau",
                    "de": "Ann setzt die Riesen aufs Spielbrett"}
