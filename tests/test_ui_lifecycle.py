"""The app's lifecycle, in the real `TableApp` (one offscreen window): one subscription to
the session whatever is resumed, only the screen on show updated for a new state (the
others once, when shown, with the latest state), and the garbage collector's timetable
(frozen after the last screen is built, full collections at ends of turn, none on a tap,
``malloc_trim`` after them where the C library has it).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))

import ui_support as ui
from screen_steps import answer_yes, screen

from bench.scripted import ScriptedPlayer, seats
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SCREEN_FOR_PHASE = {Phase.PICK_COMBO: "market", Phase.CONQUER: "map", Phase.REDEPLOY: "map",
                    Phase.SCORE: "scoring", Phase.FINISHED: "table"}
"""The screen a player looks at in each phase of a turn."""


@pytest.fixture
def app() -> Any:
    table_app = ui.app_for(Session(rng=random.Random(3)))
    ui.resize((800, 480))
    return table_app


@pytest.fixture
def updates(app: Any) -> Iterator[dict[str, int]]:
    """How many times each presenter was updated (with a state or None) from now on."""
    counts = dict.fromkeys(app.presenters, 0)
    originals = {}
    for name, presenter in app.presenters.items():
        originals[name] = presenter.update

        def counted(state: Any, _name: str = name, _update: Any = presenter.update) -> None:
            counts[_name] += 1
            _update(state)

        presenter.update = counted
    yield counts
    for name, presenter in app.presenters.items():
        presenter.update = originals[name]


def settled(app: Any) -> None:
    """Wait until the app has built its last screen and frozen the heap; automatic full
    collections held off (again: each test leaves the collector as it found it)."""
    for _ in range(400):
        if app.memory.settled:
            break
        ui.wait(0.05)
    assert app.memory.settled
    app.memory.hold()


def zero(counts: dict[str, int]) -> None:
    for name in counts:
        counts[name] = 0


def changed(counts: dict[str, int]) -> dict[str, int]:
    return {name: n for name, n in counts.items() if n}


# -- one subscription ------------------------------------------------------------------------


def test_after_resume_the_app_listens_once_and_each_action_updates_the_table_once(
        app: Any, updates: dict[str, int], tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.sqlite3")
    try:
        session = Session(rng=random.Random(5), store=store)
        app.use_session(session, screen="home")
        session.new_game(seats(3), first_seat=0)
        app.ctx.nav.go("table")
        ui.pump()
        assert session.listeners == 1
        zero(updates)
        session.pick(0)
        assert updates["table"] == 1

        def resume() -> None:  # what the started app's Resume does (companion.app)
            if session.resume() is not None:
                app.use_session(session)
                app.set_resume(None)

        app.ctx.nav.go("home")
        app.ctx.on_resume = resume
        app.set_resume("Resume: a game of 3")
        app.presenters["home"].resume()
        ui.pump()
        assert app.ctx.nav.current == "table"
        assert session.listeners == 1
        zero(updates)
        session.finish_conquests()
        assert changed(updates) == {"table": 1}
        app.use_session(session)  # handed the same session again: still one listener
        assert session.listeners == 1
        zero(updates)
        session.finish_redeployment()
        assert changed(updates) == {"table": 1}
    finally:
        app.ctx.on_resume = None
        app.use_session(Session(), screen="home")
        store.close()


def test_another_session_takes_the_app_from_the_last_one(app: Any) -> None:
    old = app.session
    assert old.listeners == 1
    new = Session(rng=random.Random(6))
    app.use_session(new, screen="home")
    assert (old.listeners, new.listeners) == (0, 1)


# -- only the screen on show -----------------------------------------------------------------


def test_a_new_state_updates_the_screen_on_show_and_no_other(
        app: Any, updates: dict[str, int]) -> None:
    session = app.session
    session.new_game(seats(3), first_seat=0)
    app.ctx.nav.go("table")
    ui.pump()
    zero(updates)
    session.pick(0)
    session.finish_conquests()
    session.finish_redeployment()
    assert changed(updates) == {"table": 3}
    zero(updates)
    app.ctx.nav.go("market")
    app.ctx.nav.go("table")
    app.ctx.nav.go("market")
    assert changed(updates) == {"market": 1}  # stale once; the table had seen this state


def test_take_updates_the_table_it_leads_to_and_not_the_market_it_leaves(
        app: Any, updates: dict[str, int]) -> None:
    session = app.session
    session.new_game(seats(3), first_seat=0)
    app.ctx.nav.go("market")
    ui.pump()
    zero(updates)
    ui.tap(screen(app).ids.rows.row("row0"))
    answer_yes()  # "Take the ..."
    assert app.ctx.nav.current == "table"
    assert session.state.track.phase is Phase.CONQUER
    assert changed(updates) == {"table": 1}


def test_a_screen_shown_after_many_changes_shows_the_latest_state(
        app: Any, updates: dict[str, int]) -> None:
    session = app.session
    session.new_game(seats(3), first_seat=0)
    app.ctx.nav.go("table")
    ui.pump()
    player = ScriptedPlayer(session, random.Random(11), undo_rate=0)
    zero(updates)
    while session.state.track.turn == 1 or session.state.track.seat != 1:
        player.intent()
    assert set(changed(updates)) == {"table"}
    assert updates["table"] >= 10
    zero(updates)
    for name in ("map", "scoring", "market"):
        app.ctx.nav.go(name)
        ui.pump()
        shown = ui.texts(screen(app))
        app.presenters[name].update(session.state)  # what a fresh update would show
        ui.pump()
        assert ui.texts(screen(app)) == shown
    assert changed(updates) == {"map": 2, "scoring": 2, "market": 2}
