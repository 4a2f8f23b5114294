"""The app's lifecycle, in the real `TableApp` (one offscreen window): one subscription to
the session whatever is resumed, only the screen on show updated for a new state (the
others once, when shown, with the latest state), and the garbage collector's timetable
(start-up frozen, each screen's young objects collected and everything frozen as it is
built, collections at ends of turn, none on a tap, ``malloc_trim`` after them where the C
library has it).
"""

from __future__ import annotations

import gc
import random
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from kivy.app import App

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))

import ui_support as ui
from screen_steps import answer_yes, screen

from bench.scripted import ScriptedPlayer, seats
from companion.rules.troops_game import waiting_hands
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store
from companion.ui import memory
from companion.ui.app import PREBUILT_DIALOGS, SCREENS, LazyScreens, TableApp
from companion.ui.presenters.base import Question

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


# -- the garbage collector ---------------------------------------------------------------


def test_start_up_is_frozen_without_a_pass_and_each_screen_collected_as_it_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ui.window()
    running = App.get_running_app()
    fresh = TableApp(session=Session())
    App._running_app = running  # Kivy took the new one for the running app
    events: list[tuple[str, int]] = []  # ("freeze" or "collect", screens built by then)
    real_freeze, real_collect = gc.freeze, fresh.memory.collect

    def freeze() -> None:
        events.append(("freeze", len(fresh.screens._built)))
        real_freeze()

    def collect(*, young: bool = False) -> None:
        events.append(("young collect" if young else "collect", len(fresh.screens._built)))
        real_collect(young=young)

    monkeypatch.setattr(gc, "freeze", freeze)
    monkeypatch.setattr(fresh.memory, "collect", collect)
    if isinstance(running, TableApp):  # this process's own app: its calm moments (its idle
        # collection 3 s into a slow machine's start-up) freeze too, and are not counted here
        monkeypatch.setattr(running.memory, "collect", lambda *, young=False: None)
    gc.unfreeze()
    try:
        fresh.build()
        assert len(fresh.screens._built) == 1 and not fresh.memory.settled  # the home screen
        ui.wait(0.2)
        assert events == []
        for _ in range(200):
            if fresh.memory.settled:
                break
            ui.wait(0.05)
        everyday = [name for name in SCREENS if name not in LazyScreens.RARE]
        assert set(fresh.screens._built) == set(everyday)  # the rare ones wait to be shown
        # start-up's heap frozen with no pass over it, then each screen's young objects
        # collected and everything frozen in the frame that built it, then the same for
        # each dialog built ahead of the first question, and for the rule book read ahead
        # of the map's first tap
        built = [n for n in range(2, len(everyday) + 1)] + [len(everyday)] * (
            len(PREBUILT_DIALOGS) + 1)
        assert fresh.presenters.made("rules") is not None
        assert events == [("freeze", 1)] + [
            (kind, n) for n in built for kind in ("young collect", "freeze")]
        dialogs = [fresh._dialog_pool[kind][0] for kind in PREBUILT_DIALOGS]
        tracked = {id(o) for o in gc.get_objects()}  # frozen objects are in no generation
        assert not {id(fresh.screens[name]) for name in everyday} & tracked
        assert not {id(dialog) for dialog in dialogs} & tracked
        assert gc.get_threshold()[2] == memory.FULL_THRESHOLD
        ui.wait(0.2)
        assert len(events) == 1 + 2 * len(built)
    finally:
        fresh.on_stop()  # it stops watching the window's touches
        window = ui.window()  # and its Escape and close button, the running app's alone
        window.funbind("on_keyboard", fresh.escape_pressed)
        window.funbind("on_request_close", fresh.close_requested)


def test_a_whole_game_collects_at_the_ends_of_turns_and_never_in_a_tap(app: Any) -> None:
    trims: list[int] = []
    settled(app)
    app.memory.trim = lambda: trims.append(app.memory.collections)
    session = app.session
    tapping = [False]
    full: list[bool] = []  # one per full collection: whether a tap's work was running

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(tapping[0])

    def tap(work: Callable[[], Any]) -> None:
        tapping[0] = True
        try:
            work()
        finally:
            tapping[0] = False
        ui.pump(1)

    gc.callbacks.append(watch)
    try:
        tap(lambda: session.new_game(seats(5), first_seat=0))
        tap(lambda: app.ctx.nav.go("table"))
        player = ScriptedPlayer(session, random.Random(7))
        ends = 0
        while not session.state.is_over:
            name = SCREEN_FOR_PHASE[session.state.track.phase]
            if app.ctx.nav.current != name:
                tap(partial(app.ctx.nav.go, name))
                continue
            key = (session.state.track.turn, session.state.track.seat)
            tap(player.intent)
            ends += (session.state.track.turn, session.state.track.seat) != key
        ui.pump(2)
    finally:
        gc.callbacks.remove(watch)
        app.memory.trim = None
    assert ends >= 30 and len(trims) >= ends  # a whole game: 8 or more turns of 5
    assert True not in full  # no full collection inside a tap's work
    assert len(full) >= ends  # one after each turn (and the game's start and end)
    assert trims == list(range(app.memory.collections - len(trims) + 1,
                               app.memory.collections + 1))  # a trim after each collection


def test_the_end_of_turn_collection_comes_after_the_frame_then_malloc_trim(app: Any) -> None:
    session = app.session
    session.new_game(seats(3), first_seat=0)
    app.ctx.nav.go("table")
    settled(app)
    player = ScriptedPlayer(session, random.Random(2), undo_rate=0)
    while session.state.track.phase is not Phase.FINISHED or waiting_hands(session.state):
        player.intent()
    ui.pump(2)
    order: list[str] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            order.append("collect")

    app.memory.trim = lambda: order.append("trim")
    gc.callbacks.append(watch)
    try:
        session.end_turn()
        assert order == []  # not in the tap that ended the turn
        ui.pump(1)  # the frame that shows the next player
        ui.pump(1)
        assert order == ["collect", "trim"]
    finally:
        gc.callbacks.remove(watch)
        app.memory.trim = None


def test_a_touch_on_a_dialog_counts_as_activity(app: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    ui.pump(2)  # the app watches the window's touches from its first frame
    app.ctx.notices.tell("Something to read.", "Note")
    ui.pump()
    touches: list[int] = []
    monkeypatch.setattr(app.memory, "activity", lambda: touches.append(1))
    ui.tap(ui.dialogs()[-1].ids.ok)
    assert touches and not ui.dialogs()


def test_a_c_library_without_malloc_trim_is_harmless(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctypes

    assert memory.find_malloc_trim() is not None  # glibc here
    monkeypatch.setattr(ctypes, "CDLL", lambda _name: object())  # e.g. musl: no such symbol
    assert memory.find_malloc_trim() is None

    def cannot_load(_name: Any) -> Any:
        raise OSError("no C library")

    monkeypatch.setattr(ctypes, "CDLL", cannot_load)
    assert memory.find_malloc_trim() is None
    policy = memory.MemoryPolicy(memory.find_malloc_trim())
    policy.collect()
    assert (policy.collections, policy.trims) == (1, 0)


def test_an_idle_app_collects_once_then_waits_for_something_to_happen(
        kivy_clock: None) -> None:
    ui.window()
    # Kivy's clock is held: it moves only as the test waits, so a late frame on a loaded
    # machine cannot make the idle time come sooner than the test says.
    policy = memory.MemoryPolicy(None)
    policy.settled = True
    policy.activity()
    ui.pump(2)
    assert policy.collections == 0  # not yet idle
    ui.wait(memory.IDLE_SECONDS - 0.5)
    policy.activity()  # a touch: calm is counted again from here
    ui.wait(memory.IDLE_SECONDS - 0.5)
    assert policy.collections == 0  # idle for less than IDLE_SECONDS since the touch
    ui.wait(1.0)
    assert policy.collections == 1
    ui.wait(2 * memory.IDLE_SECONDS)
    assert policy.collections == 1  # nothing happened since


def test_the_first_question_and_message_open_dialogs_built_in_the_background(app: Any) -> None:
    settled(app)
    prebuilt = {kind: list(app._dialog_pool[kind]) for kind in PREBUILT_DIALOGS}
    # one of each, built in the background (or more, kept from a test before this one in
    # the same process that had two questions open at once)
    assert all(len(built) >= 1 for built in prebuilt.values()), prebuilt
    app.ctx.notices.ask(Question("End Ana's turn?", "End the turn", lambda: None))
    app.ctx.notices.tell("Saved.", "Saved games")
    ui.pump()
    assert app.dialogs == [prebuilt[kind][0] for kind in PREBUILT_DIALOGS]
    assert {kind: app._dialog_pool[kind] for kind in PREBUILT_DIALOGS} == prebuilt
