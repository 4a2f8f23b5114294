"""Rare screens in the real `TableApp` (one offscreen window): built when first shown, let go
when left, rebuilt on their next show with their presenter's current state; once let go
and the idle collection has run, no widget of theirs is alive and the app holds as many
widgets as before. And the garbage collector's calm collections walk only what was made
since the last one: a game's ends of turn never walk the built screens again.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import random
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest
from kivy.core.text import LabelBase
from kivy.graphics import Canvas, Fbo
from kivy.graphics.instructions import Instruction
from kivy.graphics.texture import Texture
from kivy.graphics.vbo import VBO
from kivy.uix import widget as kivy_widget
from kivy.uix.label import Label

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))

import ui_support as ui

from bench.scripted import ScriptedPlayer, seats
from companion.session import Session
from companion.ui import label_textures, map_widget, memory
from companion.ui.app import SCREENS, LazyScreens

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RARE = sorted(LazyScreens.RARE)


@pytest.fixture
def app() -> Any:
    table_app = ui.app_for(Session(rng=random.Random(3)))
    ui.resize((800, 480))
    for _ in range(400):  # the everyday screens built in the background, frozen
        if table_app.memory.settled:
            break
        ui.wait(0.05)
    assert table_app.memory.settled
    table_app.memory.hold()
    # calm sooner than the app's IDLE_SECONDS, though later than a scroll view's bar fades
    # (0.5 s, then a 0.5 s animation that holds the view until it ends)
    table_app.memory._idle.timeout = 1.2
    go(table_app, "home")
    yield table_app
    go(table_app, "home")
    table_app.memory._idle.timeout = memory.IDLE_SECONDS


def go(app: Any, name: str) -> None:
    app.ctx.nav.go(name)
    ui.pump(3)


def widgets_alive() -> int:
    """How many Kivy widgets exist in the process (each registers its destructor)."""
    return len(kivy_widget._widget_destructors)


def test_no_rare_screen_is_built_until_shown_and_each_is_let_go_when_left(app: Any) -> None:
    assert not set(RARE) & set(app.screens._built)
    assert set(app.screens._built) == set(SCREENS) - set(RARE)
    for name in RARE:
        go(app, name)
        assert app.manager.current_screen is app.screens._built[name]
        go(app, "home")
        assert name not in app.screens._built
        assert name not in app.manager.screen_names
        assert app.presenters[name] is not None  # the presenter lives on


def test_a_let_go_screen_is_rebuilt_on_its_next_show_with_its_presenters_state(
        app: Any) -> None:
    presenter = app.presenters["history_game"]
    go(app, "history_game")
    first = weakref.ref(app.screens["history_game"])
    go(app, "home")
    presenter.title = "Game 7: yesterday"
    presenter.winner_text = "Ann won with 93 coins."
    presenter.players = [{"name": "Ann", "rgba": (0.8, 0.2, 0.2, 1), "ink": (1, 1, 1, 1),
                          "turns": "Coins scored each turn: 9, 12",
                          "combos": "Combos: Elves (turn 1, 9 coins)"}]
    go(app, "history_game")
    again = app.screens["history_game"]
    assert again is not first()
    assert again.ids.title.text == "Game 7: yesterday"
    assert again.ids.winner.text == "Ann won with 93 coins."
    shown = ui.texts(again)
    assert "Coins scored each turn: 9, 12" in shown
    assert "Combos: Elves (turn 1, 9 coins)" in shown


@pytest.mark.parametrize("name", RARE)
def test_a_rare_screen_left_is_freed_by_the_apps_own_collections_never_a_full_one(
        app: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rare screen is never frozen: a calm collection while it is on show (an idle
    moment) keeps it where the collections after its release find it (the frame after,
    or an idle moment when something held it a little longer), so all its widgets die
    without a full collection, which the app never runs (nothing is unfrozen)."""
    unfrozen: list[int] = []
    real_unfreeze = gc.unfreeze
    monkeypatch.setattr(gc, "unfreeze", lambda: (unfrozen.append(1), real_unfreeze())[1])
    before = widgets_alive()
    go(app, name)
    screen = app.screens._built[name]
    assert widgets_alive() > before
    alive = [weakref.ref(w) for w in screen.walk(restrict=True)]
    del screen
    app.memory.collect()  # an idle moment on the screen
    done = app.memory.collections
    go(app, "home")
    for _ in range(400):  # the collections after the release, up to RELEASED_WAITS of them
        if all(r() is None for r in alive):
            break
        ui.wait(0.05)
    assert [r() for r in alive if r() is not None] == []
    assert app.memory.collections > done
    assert widgets_alive() == before
    assert unfrozen == []


def test_a_whole_game_s_calm_collections_walk_a_turn_s_objects_not_the_screens(
        app: Any) -> None:
    session = app.session
    walked: list[int] = []  # objects a full pass walks, at each one's start

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            walked.append(len(gc.get_objects()))  # frozen objects are in no generation

    built = [weakref.ref(app.screens._built[n]) for n in app.screens._built]
    app.memory.collect()  # frozen again (each test leaves the collector as it found it)
    frozen = gc.get_freeze_count()
    gc.callbacks.append(watch)
    try:
        session.new_game(seats(5), first_seat=0)
        go(app, "table")
        player = ScriptedPlayer(session, random.Random(11))
        while not session.state.is_over:
            player.intent()
            ui.pump(2)
    finally:
        gc.callbacks.remove(watch)
    assert len(walked) >= 30  # a calm collection after each turn (8 or more of 5 players)
    assert max(walked) < frozen / 4  # each walks a turn's objects, not the screens'
    tracked = {id(o) for o in gc.get_objects()}
    assert not {id(r()) for r in built} & tracked  # the screens stay out of every pass


SCREEN_FOR_PHASE = {"PICK_COMBO": "market", "CONQUER": "map", "REDEPLOY": "map",
                    "SCORE": "scoring"}
"""The screen the players look at in each phase of a turn (the table otherwise)."""


def graphics_alive() -> collections.Counter[str]:
    """Kivy's graphics objects alive in the process, by kind: textures, off-screen buffers
    (`Fbo`), canvases and every other instruction, and the vertex buffers behind them.
    Frozen objects are in no generation: the count is taken with everything unfrozen,
    before any collection, so a drawing that only a full collection would free counts.
    Left out of the textures, as bounded by what they belong to: the labels' table of drawn
    texts (as many as fit its bound in pixels, more or fewer with the sizes of the texts
    drawn last: its pixels are counted apart, "Text pixels"), the map's texts (one per
    text, size and colour) and the texture each label shows, and its core label drew (one
    or two a label: as many as there are labels, whose canvases are counted)."""
    kinds = {"Texture": Texture, "Fbo": Fbo, "Canvas": Canvas, "Instruction": Instruction,
             "VBO": VBO}
    kept = {id(drawn[0]) for drawn in label_textures._TABLE.values()}
    kept |= {id(texture) for texture in map_widget._TEXTURES.values()}
    kept |= {id(thing.texture) for thing in gc.get_objects()  # (a dead weak proxy: no
             if issubclass(type(thing), (LabelBase, Label))}  # isinstance)
    counts: collections.Counter[str] = collections.Counter()
    counts["Text pixels"] = label_textures._HELD[0]
    for thing in gc.get_objects():
        if id(thing) in kept:
            continue
        for kind, cls in kinds.items():
            if issubclass(type(thing), cls):  # (a dead weak proxy has no isinstance)
                counts[kind] += 1
                break
    return counts


def play_a_game(app: Any, seed: int) -> None:
    """A whole 5-player game through the session, each phase on the screen the players
    look at then (the market, the map, the scoring), a frame per intent."""
    session = app.session
    session.new_game(seats(5), first_seat=0)
    go(app, "table")
    player = ScriptedPlayer(session, random.Random(seed))
    while not session.state.is_over:
        screen = SCREEN_FOR_PHASE.get(session.state.track.phase.name, "table")
        if app.ctx.nav.current != screen:
            go(app, screen)
        player.intent()
        ui.pump(1)
    with contextlib.suppress(Exception):  # a tie to settle by tokens: over anyway
        session.finish()
    go(app, "table")


def test_an_evening_of_games_keeps_as_many_graphics_objects_and_leaves_no_garbage_behind(
        app: Any) -> None:
    """After each whole game, with the map, the market and the scoring shown as the
    players would: the same number of textures, off-screen buffers and instructions alive
    (a map drawn anew lets go of the old drawing at once, by reference counts), and a full
    collection finds no more than it did after the first game (no drawing, animation or
    widget left in a reference cycle per game)."""
    alive: list[collections.Counter[str]] = []
    found: list[int] = []
    try:
        for seed in (21, 22, 23):
            play_a_game(app, seed)
            app.memory.collect()  # the app's own calm collection at the game's end
            gc.unfreeze()  # everything in sight of the count and of the collection
            alive.append(graphics_alive())
            found.append(gc.collect())
            gc.freeze()
    finally:
        gc.freeze()
    first, *later = alive
    for after in later:
        assert (after["Fbo"], after["Canvas"]) == (first["Fbo"], first["Canvas"]), alive
        # the map's contents differ with the final board, and a text seen for the first
        # time (a token count) adds its texture to the map's cache: a few either way,
        # where a drawing left behind per game is tens of thousands of instructions
        for kind in ("Texture", "Instruction", "VBO"):
            assert after[kind] <= first[kind] * 1.05, (kind, alive)
        assert after["Text pixels"] <= label_textures.PIXELS, alive
    assert max(found[1:]) <= max(found[0], 100), found


class _Screen:
    """Stands for a released screen: in a reference cycle of its own, as widgets are."""

    def __init__(self) -> None:
        self.me = self


def test_a_released_screen_held_for_a_moment_is_waited_for_unfrozen() -> None:
    """A released rare screen that something still holds (a scroll bar fading out) is
    not frozen by the collection after its release: the next one, once it is let go,
    frees it."""
    policy = memory.MemoryPolicy(None)
    policy.begun = True  # freezing, as the running app does
    policy.rare_shown()
    screen = _Screen()
    held = [screen]  # the fading animation
    gone = weakref.ref(screen)
    policy.screen_released(screen)
    del screen
    frozen = gc.get_freeze_count()
    policy.collect()
    assert gone() is not None
    assert gc.get_freeze_count() == frozen  # nothing frozen while it is waited for
    held.clear()
    policy.collect()
    assert gone() is None


def test_a_map_drawn_anew_is_frozen_after_its_frame_so_no_end_of_turn_walks_it(
        app: Any) -> None:
    session = app.session
    session.new_game(seats(3), first_seat=0)
    session.pick(0)
    go(app, "map")
    board = app.screens["map"].ids.board
    rebuilds, done = board.rebuilds, app.memory.collections
    ui.resize((790, 480))  # a new size: the map is drawn anew
    try:
        assert board.rebuilds == rebuilds + 1
        ui.pump(2)
        assert app.memory.collections > done
        tracked = {id(o) for o in gc.get_objects()}  # frozen objects are in no generation
        assert not {id(i) for i in board.canvas.children} & tracked
    finally:
        ui.resize((800, 480))
