"""One undo rule on the real screens (800x480): every undo takes effect at once and shows
the bar "Took back: <what> [Redo]"; Redo puts back exactly the step taken back; the next
intent ends the offer; the bar is one widget, reused, and never covers a main button."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created, final_target
from screen_steps import screen, tap_action, tap_id

from companion.rules.catalog import load_catalog
from companion.rules.events import DieRolled
from companion.rules.game import attacker
from companion.session import Session
from companion.store import Store
from companion.ui.presenters.table import UNDO_BAR_SECONDS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def holds(s: Session, region: int) -> bool:
    occupant = s.state.regions[region].occupant
    return occupant is not None and occupant.seat == 0


def rolls(s: Session) -> list[DieRolled]:
    assert s.history is not None
    return [e for step in s.history.log for e in step if isinstance(e, DieRolled)]


@pytest.fixture
def game(headless_app: Any, tmp_path: Path) -> Any:
    """Ann's Berserk Ratmen, saved to a real file, on the table screen."""
    s = Session(load_catalog(), rng=random.Random(5), store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(2, races=("Ratmen",), powers=("Berserk",)))
    s.pick(0)
    headless_app.use_session(s, screen="table")
    ui.resize((800, 480))
    ui.pump()
    yield headless_app, s
    ui.close_dialogs()
    headless_app.presenters["table"].hide_redo()
    assert s.store is not None
    s.store.close()


def test_a_conquest_is_taken_back_at_once_and_redo_puts_it_back_with_its_die_face(
        game: Any) -> None:
    app, s = game
    region, _ = final_target(s)
    face = s.roll_for_berserk()
    s.conquer(region)
    before, coins = s.state, [p.coins for p in s.state.players]
    table = screen(app)
    bar = table.ids.undo_bar
    assert not table.p.redo_offered

    tap_id(app, "undo")
    assert ui.dialogs() == []  # no question first
    assert not holds(s, region)
    assert attacker(s.state).berserk_roll == face
    assert table.p.redo_offered and ui.is_shown(bar)
    assert table.ids.took_back.text == f"Took back: Ann taking region {region}"

    tap_action(app, "redo")
    assert s.state == before
    assert holds(s, region)
    assert [p.coins for p in s.state.players] == coins
    assert rolls(s) == [DieRolled(0, face, rolls(s)[0].purpose)]  # rolled once, never again
    assert not table.p.redo_offered and not ui.is_shown(bar)
    assert s.store is not None and s.game_id is not None
    assert tuple(s.store.load_log(s.game_id)) == s.history.log  # the redo is saved


def test_a_score_is_taken_back_at_once_and_redo_puts_it_back(game: Any) -> None:
    app, s = game
    s.finish_conquests()
    s.finish_redeployment()
    s.score(7)
    before = s.state
    table = screen(app)
    bar = table.ids.undo_bar

    tap_id(app, "undo")
    assert ui.dialogs() == []  # it used to ask first; now every undo acts at once
    assert s.state.players[0].coins == before.players[0].coins - 7
    assert table.p.redo_offered
    assert table.ids.took_back.text == "Took back: Ann scoring 7 coins for the turn"

    tap_id(app, "undo")  # undos stack: the end of the redeployment too
    assert table.ids.undo_bar is bar  # the same widget, updated in place
    assert len(s.redo_steps) == 2

    tap_action(app, "redo")
    assert table.p.redo_offered  # one more to put back
    assert table.ids.took_back.text == "Took back: Ann scoring 7 coins for the turn"
    tap_action(app, "redo")
    assert s.state == before
    assert not table.p.redo_offered and ui.dialogs() == []


def test_a_new_intent_after_an_undo_ends_the_redo_offer(game: Any) -> None:
    app, s = game
    s.finish_conquests()
    table = screen(app)
    tap_id(app, "undo")
    assert table.p.redo_offered and s.redo_steps
    tap_action(app, "finish_conquests")
    assert not table.p.redo_offered and s.redo_steps == ()
    assert not ui.is_shown(table.ids.undo_bar)


def test_a_step_saved_from_another_screen_hides_the_bar(game: Any) -> None:
    app, s = game
    s.finish_conquests()
    table = screen(app)
    tap_id(app, "undo")
    s.finish_conquests()  # what the map screen or a device would do
    app.ctx.nav.go("table")
    ui.pump()
    assert not table.p.redo_offered


def test_the_bar_goes_after_a_few_seconds(game: Any, kivy_clock: None) -> None:
    app, s = game
    s.finish_conquests()
    table = screen(app)
    tap_id(app, "undo")
    assert table.p.redo_offered and ui.is_shown(table.ids.undo_bar)
    ui.wait(UNDO_BAR_SECONDS - 0.5)  # Kivy's clock is held: only the test moves it
    assert table.p.redo_offered  # not before its few seconds are over
    ui.wait(1.0)
    assert not table.p.redo_offered and not ui.is_shown(table.ids.undo_bar)
    assert s.redo_steps  # only the offer on screen went; nothing changed in the game


def test_a_refused_undo_keeps_its_message_and_offers_no_redo(game: Any) -> None:
    app, s = game
    s.roll_for_berserk()
    table = screen(app)
    tap_id(app, "undo")
    (dialog,) = ui.dialogs()
    assert "cannot be undone: a die roll" in str(dialog.text)
    assert not table.p.redo_offered


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_bar_covers_no_main_button_and_a_hidden_bar_lets_taps_through(
        game: Any, size: tuple[int, int]) -> None:
    app, s = game
    s.finish_conquests()
    s.finish_redeployment()
    s.score(3)
    ui.resize(size)
    table = screen(app)
    tap_id(app, "undo")
    ui.pump(4)
    bar = table.ids.undo_bar
    assert ui.is_shown(bar) and ui.layout_problems(table) == []

    def box(widget: Any) -> tuple[float, float, float, float]:
        x0, y0 = widget.to_window(widget.x, widget.y)
        x1, y1 = widget.to_window(widget.right, widget.top)
        return x0, y0, x1, y1

    def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1

    mains = [*table.ids.actions.children, table.ids.undo, table.ids.die,
             *table.ids.top_bar.children]
    assert len(table.ids.actions.children) >= 1
    for button in mains:
        assert not overlap(box(bar), box(button)), getattr(button, "action_key", button)

    tap_action(app, "redo")  # hidden: a finger where it was reaches what lies under it
    ui.pump()
    under = [row for row in table.ids.players.children if overlap(box(bar), box(row))]
    for row in under:
        assert bar.on_touch_down(ui.UnitTestTouch(*row.ids.name_button.center)) is False
    ui.resize((800, 480))


def test_a_list_of_players_shorter_than_its_place_stays_at_its_top() -> None:
    """Three players' rows fill less than their place at 800x480: they stay at its top,
    under the hint, whatever Kivy's scroll effect makes of a list that fits (it put them
    at the foot, where the undo's bar then covered the last player's name)."""
    s = Session(load_catalog(), rng=random.Random(3))
    s.begin(created(3))
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("table")
    ui.pump(4)
    table = screen(app)
    scroll, players = table.ids.players_scroll, table.ids.players
    assert players.height < scroll.height
    first = players.row(0)
    assert first is not None
    top = first.to_window(first.x, first.top)[1]
    assert abs(top - scroll.to_window(scroll.x, scroll.top)[1]) <= 1
