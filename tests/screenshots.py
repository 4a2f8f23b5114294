"""Render every screen of the table app at 800x480, 480x800, 1280x720 and 720x1280 into a
folder.

    .venv/bin/python tests/screenshots.py [OUT_DIR] [--text-scale 130] [--size 800x480]...
                                          [--lang de] [SCENARIO...]   (default: ./screenshots)

A test program, built from the tests' own set-ups: each screen is shown in a typical
state of a game (set up with `factories.py`), at each resolution, saved as
``OUT_DIR/<size>/<scenario>.png``, and checked against the quality bar
(`ui_support.layout_problems`: nothing outside the window, no text under 14 px, no text
overflowing, touch targets of 48 px, about 9 mm on the table's 7-inch panel; and
`ui_support.glyph_problems`: no character its font has no glyph for, drawn as a box;
`ui_support.broken_words`: no word broken between two letters for want of room). Then, as
the table uses them: the scenario's main actions must be in sight without scrolling
(`ui_support.main_out_of_sight`), and no button may move while any stepper on the screen
is tapped up and down (`ui_support.stepper_moves`) or a control meant to be tapped again
and again is (`Scenario.repeat`, `ui_support.repeat_moves`).
``OUT_DIR/report.json`` lists, per scenario and size, the problems found (layout, main
actions out of sight, buttons that moved), every text on screen, the frame as read back
from the framebuffer (its size, how many colours it shows), and the purse totals of
that moment, so a test can prove that no screen but the peek and the final reveal shows one.
Run by hand (or with `run(..., pngs=True)`), every screen is saved as a PNG; the tests ask
for none unless ``UI_SCREENSHOTS=DIR`` is set: their checks read the widget tree and the
frame in memory.

Kivy's offscreen window cannot grow after it is made, so the rendering runs in a child
process whose window starts at 1280x1280 and is shrunk to each size in turn; its frames are
uncapped (``KCFG_GRAPHICS_MAXFPS=0``: the same pictures, without waiting for a 60 fps tick).

``--readme`` renders the README's pictures (`README_SHOTS`, at 800x480) and writes them to
``docs/screenshots/<scenario>.png`` (kept in git for the README; not in the wheel)::

    .venv/bin/python tests/screenshots.py --readme

``--text-scale 130`` renders with the app's text size setting (``display.text_scale``)
applied as the app applies it (`companion.kivy_config.apply_text_scale`, before any widget
is imported); `LARGEST_TEXT` lists the main screens checked that way at 800x480.

``--lang fr`` (or ``de``, or the pseudo-locale ``qps``: every text about 40 % longer, in
accented letters) renders with the table speaking that language from the first frame, as
``display.language`` makes it (`companion.i18n.use`); ``--size`` (again and again) renders
only those sizes of `SIZES`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SIZES = {"800x480": (800, 480), "480x800": (480, 800), "1280x720": (1280, 720),
         "720x1280": (720, 1280)}
"""The sizes every scenario is rendered and checked at: the table's 7-inch panel in
landscape and in portrait (the sizes the table is played at), a 1280x720 screen and a
taller portrait one."""

README_SHOTS = ("table_midgame", "map_conquer", "market", "undo_bar", "rules",
                "game_end_bgstats", "table_far_side", "settings")
"""The scenarios the README shows ("The table at 800x480"), in its order."""
README_LANGUAGE_SHOTS = (("table_midgame", "fr"), ("market", "de"))
"""The README's pictures of a table speaking another language: (scenario, language), each
written as ``<scenario>_<language>.png``."""
README_DIR = ROOT / "docs" / "screenshots"


@dataclass(frozen=True)
class Scenario:
    name: str
    build: Callable[[Any], None]
    """Put the app in the state to show (gets the app)."""
    private: bool = False
    """Shows purse totals on purpose (the peek, the final reveal)."""
    main: tuple[str, ...] = ()
    """Its main action controls (an action key, a kv id or a button's text, as
    `ui_support.control` finds them): each must lie whole in sight without scrolling."""
    repeat: tuple[str, ...] = ()
    """Controls tapped again and again in a row (the reveal): no button may move while
    they are."""


# -- game set-ups --------------------------------------------------------------------------

def _distinct_purses(s: Any, seats: int) -> None:
    """First round: every player picks and scores an unusual number, so that a purse total
    on screen could not be mistaken for any other number."""
    from factories import play_turn

    for seat in range(seats):
        play_turn(s, row=(0, 2, 1, 3, 0)[seat], coins=300 + 111 * seat)


FIVE_RACES = ("Amazons", "Skeletons", "Ratmen", "Elves", "Trolls", "Ghouls", "Giants",
              "Halflings", "Humans", "Wizards")
FIVE_POWERS = ("Commando", "Flying", "Dragon Master", "Stout", "Fortified", "Seafaring",
               "Wealthy", "Berserk", "Heroic", "Hill")


def _five_players(store: Any = None, **kwargs: Any) -> Any:
    import random

    from factories import created

    from companion.rules.catalog import load_catalog
    from companion.session import Session

    s = Session(load_catalog(), rng=random.Random(0), store=store)
    s.begin(created(5, races=FIVE_RACES, powers=FIVE_POWERS, **kwargs))
    return s


def _midgame(store: Any = None) -> Any:
    """Five players in turn 2: one in decline, the current one conquering with Amazons."""
    s = _five_players(store)
    _distinct_purses(s, 5)
    s.decline()  # seat 0 puts its race in decline at the start of turn 2
    s.score()
    s.end_turn()
    return s


def _picking() -> Any:
    """Turn 3 of five players: Ann, whose race went into decline, picks a new combo."""
    from factories import play_turn

    s = _midgame()
    while s.state.track.seat != 0:
        play_turn(s, coins=2)
    return s


def _conquering() -> tuple[Any, int]:
    """Seat 1 (Flying Skeletons) conquering in turn 2, one region taken; returns a target."""
    from companion.rules.conquest import immunity, reach
    from companion.rules.game import attacker

    s = _midgame()
    state = s.state
    who = attacker(state)
    targets = [rid for rid in state.map.regions
               if immunity(state.map, rid, state.regions.regions, who) is None
               and reach(state.map, rid, who).reachable]
    s.conquer(targets[0], tokens=3)
    state = s.state
    who = attacker(state)
    targets = [rid for rid in state.map.regions
               if immunity(state.map, rid, state.regions.regions, who) is None
               and reach(state.map, rid, who).reachable]
    mountain = [rid for rid in targets if state.regions[rid].markers.mountain]
    return s, (mountain or targets)[0]


def _scoring() -> Any:
    s, target = _conquering()
    s.conquer(target, tokens=4)
    s.finish_conquests()
    s.finish_redeployment()
    return s


def _final_turn() -> Any:
    from factories import play_turn, session

    s = session(3)
    _distinct_purses(s, 3)
    while s.state.track.turn < s.state.track.turns:
        play_turn(s, coins=2)
    return s


def _over(tie: bool) -> Any:
    """A finished 3-player game; with `tie`, Ann and Bob end on the same total."""
    from factories import play_turn, session

    s = session(3)
    for seat in range(3):
        first = (400 if seat < 2 else 300) if tie else 300 + 111 * seat
        play_turn(s, row=0, coins=first)
    while not s.state.is_over:
        seat = s.state.track.seat
        play_turn(s, coins=2 if tie else (7 if seat == 0 else 3))
    return s


def _over_saved() -> Any:
    """A finished 4-player game saved in a store of its own (a temporary folder): Ann
    declines in turn 4 and takes a second race in turn 5."""
    import random
    import tempfile
    from pathlib import Path

    from factories import created, end_turn, play_turn

    from companion.rules.catalog import load_catalog
    from companion.session import Session
    from companion.store import Store

    store = Store.open(Path(tempfile.mkdtemp()) / "companion.sqlite3")
    store.conn.execute("PRAGMA synchronous=OFF")  # a throwaway file: no need to wait on disk
    s = Session(load_catalog(), rng=random.Random(5), store=store)
    s.begin(created(4, races=FIVE_RACES, powers=FIVE_POWERS))
    while not s.state.is_over:
        seat, turn = s.state.track.seat, s.state.track.turn
        if seat == 0 and turn == 4:
            s.decline()
            s.score(3)
            end_turn(s)
            continue
        play_turn(s, row=0, coins=(9, 8, 5, 4)[seat] + turn % 3)
    return s


def _necromancer(placing: bool = False) -> Any:
    """Necromancer Island, four at the table: Di, the Necromancer, at the start of his first
    turn (purses over 300, so a leak would show); with `placing`, placing his Ghosts."""
    import random

    from factories import COLOURS, NAMES, play_turn

    from companion.rules.events import Seat
    from companion.session import Session

    s = Session(rng=random.Random(3))
    s.new_game([Seat(NAMES[i], COLOURS[i]) for i in range(4)], first_seat=0, necromancer=True)
    for seat in range(4):
        s.adjust_coins(seat, 300 + 111 * seat, "purses nobody could take for another number")
    while s.state.track.seat != 3:
        play_turn(s)
    if placing:
        s.buy_ghost()
        s.buy_ghost()
        s.conquer(21, tokens=2)
        s.conquer(22, tokens=1)
        s.finish_conquests()
    return s


def _teams(step: str) -> Any:
    """Six players in teams on the 5-player board (purses over 300): "monsters", before the
    first turn; "tavern", Bob's turn 1 scored with Glandulf's Tavern found (Ann has found and
    moved the Golden Soapbar); "over", the game finished."""
    import random

    from factories import end_turn, finish_redeployment
    from team_support import COLOURS, MONSTERS, NAMES, play_to_the_end

    from companion.rules.events import Seat
    from companion.session import Session

    s = Session(rng=random.Random(13))  # its pile starts with the Soapbar, then the Tavern
    s.new_game([Seat(NAMES[i], COLOURS[i]) for i in range(6)], first_seat=0, teams=True)
    if step == "over":
        play_to_the_end(s, {0: 320, 1: 410, 2: 333, 3: 350, 4: 300, 5: 390})
        return s
    for seat in range(6):
        s.adjust_coins(seat, 300 + 111 * seat, "purses nobody could take for another number")
    if step == "monsters":
        s.place_monster(MONSTERS[0])
        return s
    for region in MONSTERS:
        s.place_monster(region)
    for region, soapbar in ((6, 5), (12, None)):
        s.pick(0)
        s.conquer(region, tokens=4)
        s.finish_conquests()
        finish_redeployment(s)
        s.score()
        if soapbar is not None:
            s.move_soapbar(soapbar)
            end_turn(s)
    return s


def _river(step: str) -> Any:
    """River World on the test board (`tests/data/river-test.json`), three at the table,
    events Quiet waters, Storm, Pirates: "caravel", Bob's turn 1 with the Shipyard taken,
    the Caravel on river 8 and the Temple taken; "storm", Bob's turn 2 (he holds the
    Temple); "scoring", Ann's turn 1 to score with a harbor by a pirate ship."""
    from factories import end_turn, finish_redeployment
    from river_support import end_turns, river_session

    from companion.rules.river import RiverEvent

    s = river_session(RiverEvent.QUIET_WATERS, RiverEvent.STORM, RiverEvent.PIRATES)
    s.pick(0)
    for region in (3, 4, 2, 7):
        s.conquer(region)
    s.finish_conquests()
    finish_redeployment(s)
    if step == "scoring":
        return s
    s.score()
    end_turn(s)
    s.pick(0)
    s.conquer(20)
    s.place_caravel(8)
    s.conquer(9)
    if step == "caravel":
        return s
    s.finish_conquests()
    finish_redeployment(s)
    s.score()
    end_turn(s)
    end_turns(s, 2)  # Cy, then Ann
    return s


_ARCHIVE: list[Any] = []


def _archive() -> Any:
    """A store (in a temporary folder) with saved players, one with a PIN, and three
    finished games whose totals stay under 100 (so they are never taken for a purse of the
    game being played, whose totals are over 300)."""
    if _ARCHIVE:
        return _ARCHIVE[0]
    import random
    import tempfile
    from pathlib import Path

    from factories import created, play_turn

    from companion.rules.catalog import load_catalog
    from companion.session import Session
    from companion.store import Store

    store = Store.open(Path(tempfile.mkdtemp()) / "companion.sqlite3")
    store.conn.execute("PRAGMA synchronous=OFF")  # a throwaway file: no need to wait on disk
    for name, colour in (("Ann", "blue"), ("Bob", "orange"), ("Cy", "green"),
                         ("Di", "yellow"), ("Bartholomew-Alexander", "sky")):
        store.add_profile(name, colour, pin="2468" if name == "Ann" else None)
    for game, players in enumerate((3, 4, 3)):
        s = Session(load_catalog(), rng=random.Random(game), store=store)
        s.begin(created(players, races=FIVE_RACES[game:], powers=FIVE_POWERS[game:]))
        while not s.state.is_over:
            seat = s.state.track.seat
            play_turn(s, row=(seat + game) % 3, coins=3 + (seat * 2 + game) % 5)
        tied = s.tied_for_first()
        s.finish({seat: 8 + seat for seat in tied} if tied else None)
    _ARCHIVE.append(store)
    _ARCHIVE.append(_midgame(store))
    return store


def _live() -> Any:
    """The game being played (turn 2 of five players, purses over 300), saved in the
    archive: the history, stats, players and settings are shown beside it."""
    _archive()
    return _ARCHIVE[1]


# -- scenarios -------------------------------------------------------------------------------

def scenarios() -> list[Scenario]:
    import ui_support
    from factories import session

    from companion.session import Session

    def show(app: Any, s: Any, screen: str) -> None:
        app.use_session(s, screen=screen)

    def home(app: Any) -> None:
        show(app, Session(), "home")

    def home_game(app: Any) -> None:
        show(app, _midgame(), "home")

    def new_game(app: Any) -> None:
        show(app, Session(), "new_game")
        p = app.presenters["new_game"]
        p.reset()
        p.add_default_player()
        p.add_default_player()
        p.set_name(2, "Bartholomew-Alexander")
        p.choose_first(1)

    def table_start(app: Any) -> None:
        show(app, session(3), "table")

    def table_midgame(app: Any) -> None:
        show(app, _midgame(), "table")

    def table_conquer(app: Any) -> None:
        s, _ = _conquering()
        show(app, s, "table")

    def undo_bar(app: Any) -> None:  # a conquest taken back: the bar with Redo
        s, _ = _conquering()
        show(app, s, "table")
        app.presenters["table"].act("undo")

    def table_final(app: Any) -> None:
        show(app, _final_turn(), "table")

    def market(app: Any) -> None:
        s = _picking()
        s.adjust_coins(0, -(s.state.players[0].coins - 2), "poor, for the picture")
        show(app, s, "market")

    def market_confirm(app: Any) -> None:
        s = _picking()
        show(app, s, "market")
        app.presenters["market"].choose(2)

    def market_table_deals(app: Any) -> None:
        s = session(3, dealing="table")
        show(app, s, "market")
        app.presenters["market"].set_race("Amazons")

    def map_conquer(app: Any) -> None:
        s, target = _conquering()
        show(app, s, "map")
        app.presenters["map"].tap(target)

    def map_final(app: Any) -> None:  # one token in hand: the die's last conquest shown
        map_conquer(app)
        app.presenters["map"].set_tokens_left(1)

    def map_idle(app: Any) -> None:
        show(app, _scoring(), "map")
        app.presenters["map"].tap(1)

    def scoring(app: Any) -> None:
        show(app, _scoring(), "scoring")

    def scoring_quick(app: Any) -> None:
        show(app, _scoring(), "scoring")
        p = app.presenters["scoring"]
        p.act("quick")
        p.set_count("active.farmland", 2)
        p.set_count("active.mines", 1)

    def die(app: Any) -> None:  # a Berserk roll before the next conquest
        from factories import session

        s = session(3, races=("Ratmen",), powers=("Berserk",))
        s.pick(0)
        show(app, s, "die")
        app.presenters["die"].roll()
        _settle(app)

    def die_none(app: Any) -> None:  # no roll allowed: the button disabled, the reason
        s, _ = _conquering()
        s.finish_conquests()
        show(app, s, "die")

    def die_final(app: Any) -> None:
        s, target = _conquering()
        show(app, s, "map")
        app.presenters["die"].start_final(target, 1)  # one token short: the die decides
        _settle(app)

    def peek(app: Any) -> None:
        show(app, _midgame(), "table")
        app.presenters["table"].peek(2)

    def around(app: Any, screen: str) -> Any:
        """The screen lying in the middle of the table: the seats alternate near and far,
        and it is Bob's turn (seat 1, across the table): the picture is upside down."""
        from companion.seating import default_sides

        app.ctx.seats.use("around")
        app.ctx.seats.chosen = default_sides(5)
        s = _midgame()
        show(app, s, screen)
        return s

    def table_far_side(app: Any) -> None:
        around(app, "table")

    def peek_far_side(app: Any) -> None:  # Cy (near) peeks during Bob's (far) turn
        around(app, "table")
        app.presenters["table"].peek(2)

    def game_end(app: Any) -> None:
        show(app, _over(tie=False), "game_end")
        p = app.presenters["game_end"]
        for _ in range(3):
            p.reveal_next()

    def game_end_reveal(app: Any) -> None:
        show(app, _over(tie=False), "game_end")
        app.presenters["game_end"].reveal_next()

    def game_end_tie(app: Any) -> None:
        show(app, _over(tie=True), "game_end")
        p = app.presenters["game_end"]
        for _ in range(3):
            p.reveal_next()

    def game_end_saved(app: Any) -> None:
        show(app, _over_saved(), "game_end")
        p = app.presenters["game_end"]
        for _ in range(4):
            p.reveal_next()
        for row in p.tie_rows:
            p.set_tokens(row["seat"], 8 + row["seat"])
        if p.needs_tiebreak:
            p.decide()

    def game_end_bgstats(app: Any) -> None:
        game_end_saved(app)
        app.presenters["game_end"].show_side("bgstats")

    def settings(app: Any) -> None:
        show(app, Session(), "settings")
        app.presenters["settings"].load()

    def settings_sound(app: Any) -> None:
        """Scrolled down to the sound (mute, volume, quiet hours)."""
        import ui_support

        settings(app)
        ui_support.pump()
        ui_support.scroll_to(app.screens["settings"].ids.sound_section)

    def settings_saved(app: Any) -> None:
        show(app, _live(), "settings")
        p = app.presenters["settings"]
        p.config_path = Path(os.environ["XDG_CONFIG_HOME"]) / "companion.toml"
        p.load()
        p._write("display.rotation", 180)

    def profiles(app: Any) -> None:
        show(app, _live(), "profiles")
        app.presenters["profiles"].load()

    def new_game_players(app: Any) -> None:
        show(app, Session(store=_archive()), "new_game")
        p = app.presenters["new_game"]
        p.reset(["Ann", "Bob"])
        p.add_player()

    def name_pad(app: Any) -> None:
        show(app, Session(), "new_game")
        p = app.presenters["new_game"]
        p.reset(["Player 1", "Player 2", "Player 3"])
        p.choose_player(1)
        for char in "bart":
            ui_support.dialogs()[-1].press(char)

    def pin_pad(app: Any) -> None:
        show(app, _live(), "table")
        app.presenters["table"].peek(0)  # Ann has a PIN
        ui_support.dialogs()[-1].press("2")

    def history(app: Any) -> None:
        show(app, _live(), "history")
        app.presenters["history"].load()

    def history_game(app: Any) -> None:
        show(app, _live(), "history")
        p = app.presenters["history"]
        p.load()
        p.open_game(p.games[-1]["game_id"])

    def history_game_bgstats(app: Any) -> None:
        history_game(app)
        app.presenters["history_game"].show_side("bgstats")

    def stats(app: Any) -> None:
        show(app, _live(), "stats")
        p = app.presenters["stats"]
        p.load()
        p.act("players")

    def stats_combos(app: Any) -> None:
        show(app, _live(), "stats")
        p = app.presenters["stats"]
        p.load()
        p.act("combos")

    def message(app: Any) -> None:
        show(app, session(3), "table")
        app.presenters["table"].act("finish_conquests")

    def necromancer_table(app: Any) -> None:
        show(app, _necromancer(), "table")

    def necromancer_buying(app: Any) -> None:
        show(app, _necromancer(), "necromancer")

    def necromancer_map(app: Any) -> None:
        show(app, _necromancer(), "map")
        app.presenters["map"].tap(21)

    def necromancer_placing(app: Any) -> None:
        show(app, _necromancer(placing=True), "necromancer")

    def team_monsters(app: Any) -> None:
        show(app, _teams("monsters"), "table")

    def team_monsters_map(app: Any) -> None:
        show(app, _teams("monsters"), "map")
        app.presenters["map"].tap(12)

    def team_table(app: Any) -> None:
        show(app, _teams("tavern"), "table")

    def team_game_end(app: Any) -> None:
        show(app, _teams("over"), "game_end")
        p = app.presenters["game_end"]
        for _ in range(6):
            p.reveal_next()

    def river_table(app: Any) -> None:
        show(app, _river("caravel"), "table")

    def river_map(app: Any) -> None:
        show(app, _river("caravel"), "map")
        app.presenters["map"].tap(8)

    def river_seer(app: Any) -> None:
        show(app, _river("storm"), "table")
        app.presenters["table"].act("seer")

    def river_scoring(app: Any) -> None:
        show(app, _river("scoring"), "scoring")

    def river_quick(app: Any) -> None:
        show(app, _river("scoring"), "scoring")
        app.presenters["scoring"].act("quick")

    def rules(app: Any) -> None:
        show(app, _midgame(), "table")
        app.presenters["rules"].show("race", "Amazons")
        app.ctx.nav.go("rules")

    def rules_search(app: Any) -> None:
        show(app, Session(), "home")
        app.ctx.nav.go("rules")
        app.presenters["rules"].search("se")

    def rules_pad(app: Any) -> None:
        show(app, Session(), "rules")
        app.presenters["rules"].search("")
        app.presenters["rules"].act("search")
        for char in "pira":
            ui_support.dialogs()[-1].press(char)

    def choice(app: Any) -> None:
        s, target = _conquering()
        show(app, s, "map")
        app.presenters["map"].tap(target)
        app.presenters["map"].correct()

    return [
        Scenario("home", home, main=("new_game",)),
        Scenario("home_game", home_game, main=("continue",)),
        Scenario("new_game", new_game, main=("start",)),
        Scenario("table_start", table_start, main=("market",)),
        Scenario("table_midgame", table_midgame, main=("map", "finish_conquests")),
        Scenario("table_conquer", table_conquer, main=("map", "finish_conquests")),
        Scenario("table_final", table_final, main=("map", "finish_conquests")),
        Scenario("undo_bar", undo_bar, main=("redo", "map")),
        Scenario("table_far_side", table_far_side, main=("map", "finish_conquests")),
        Scenario("market", market, main=("back",)),
        Scenario("market_confirm", market_confirm, main=("yes", "no")),
        Scenario("market_table_deals", market_table_deals, main=("reveal",)),
        Scenario("map_conquer", map_conquer,
                 main=("conquer", "correct", "finish_conquests", "back")),
        Scenario("map_final", map_final, main=("final", "conquer", "correct")),
        Scenario("map_idle", map_idle, main=("correct", "back")),
        Scenario("scoring", scoring, main=("score",)),
        Scenario("scoring_quick", scoring_quick, main=("score_quick",)),
        Scenario("die", die, main=("roll",)),
        Scenario("die_final", die_final, main=("done",)),
        Scenario("die_none", die_none, main=("back",)),
        Scenario("peek", peek, private=True, main=("peek_total",)),
        Scenario("peek_far_side", peek_far_side, private=True, main=("peek_total",)),
        Scenario("game_end", game_end, private=True, main=("new_game", "home")),
        Scenario("game_end_reveal", game_end_reveal, private=True, main=("reveal",),
                 repeat=("reveal",)),
        Scenario("game_end_tie", game_end_tie, private=True, main=("decide",)),
        Scenario("game_end_saved", game_end_saved, private=True, main=("export", "new_game")),
        Scenario("game_end_bgstats", game_end_bgstats, private=True, main=("bgstats",)),
        Scenario("settings", settings, main=("back",)),
        Scenario("message", message, main=("ok",)),
        Scenario("choice", choice, main=("cancel",)),
        Scenario("settings_saved", settings_saved, main=("back",)),
        Scenario("settings_sound", settings_sound, main=("back", "mute")),
        Scenario("profiles", profiles, main=("add",)),
        Scenario("new_game_players", new_game_players, main=("start",)),
        Scenario("name_pad", name_pad, main=("done",), repeat=("key:A",)),
        Scenario("pin_pad", pin_pad, main=("digit:0", "cancel")),
        Scenario("history", history, main=("back",)),
        Scenario("history_game", history_game, main=("export", "back")),
        Scenario("history_game_bgstats", history_game_bgstats, main=("bgstats", "back")),
        Scenario("stats", stats, main=("back",)),
        Scenario("stats_combos", stats_combos, main=("back",)),
        Scenario("necromancer_table", necromancer_table, main=("necromancer",)),
        Scenario("necromancer_buying", necromancer_buying, main=("buy_ghost", "map"),
                 repeat=("buy_ghost",)),
        Scenario("necromancer_map", necromancer_map, main=("conquer", "correct")),
        Scenario("necromancer_placing", necromancer_placing, main=("confirm",)),
        Scenario("team_monsters", team_monsters, main=("monster_map",)),
        Scenario("team_monsters_map", team_monsters_map, main=("monster", "correct")),
        Scenario("team_table", team_table, main=("end_turn",)),
        Scenario("team_game_end", team_game_end, private=True, main=("new_game",)),
        Scenario("river_table", river_table, main=("map",)),
        Scenario("river_map", river_map, main=("conquer", "correct")),
        Scenario("river_seer", river_seer, main=("seer",)),
        Scenario("river_scoring", river_scoring, main=("score",)),
        Scenario("river_quick", river_quick, main=("score_quick",)),
        Scenario("rules", rules, main=("back",)),
        Scenario("rules_search", rules_search, main=("search",)),
        Scenario("rules_pad", rules_pad, main=("done",)),
    ]


LARGEST_TEXT = ("home", "new_game", "table_start", "table_midgame", "table_final", "market",
                "map_conquer", "scoring", "die", "game_end_reveal", "settings")
"""The main screens, checked at the largest text size at 800x480 (tests/test_text_scale.py)."""


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DRAWN_COLOURS = 16
"""A drawn screen shows at least this many colours (a blank frame shows one; any text,
with its anti-aliased edges, hundreds)."""


def purse_leaks(report: dict[str, Any]) -> tuple[int, list[str]]:
    """The purse totals of 100 or more (set up to be unmistakable) that a screen not
    private shows, and how many were looked for. A number inside a file path (the
    settings' "Saved in /tmp/pytest-305/...") is a folder's name, not a purse."""
    leaks: list[str] = []
    checked = 0
    for name, sizes in report.items():
        for size, found in sizes.items():
            if found["private"]:
                continue
            purses = [p for p in found["purses"] if p >= 100]
            checked += len(purses)
            for purse in purses:
                pattern = re.compile(rf"(?<![\d/-]){purse}(?![\d/])")
                leaks += [f"{name} {size}: {text!r}" for text in found["texts"]
                          if pattern.search(text)]
    return checked, leaks


def frame_faults(report: dict[str, Any]) -> list[str]:
    """What is wrong with the frames of a report (`run`): each read back at its size, with
    something drawn on it, and its PNG a PNG where one was saved."""
    faults = []
    for name, sizes in report.items():
        for size_name, found in sizes.items():
            frame = found["frame"]
            if tuple(frame["size"]) != SIZES[size_name]:
                faults.append(f"{name} at {size_name}: a frame of {frame['size']}")
            if frame["colours"] < DRAWN_COLOURS:
                faults.append(f"{name} at {size_name}: {frame['colours']} colours drawn")
            shot = found["screenshot"]
            if shot is not None and Path(shot).read_bytes()[:8] != PNG_SIGNATURE:
                faults.append(f"{name} at {size_name}: {shot} is no PNG")
    return faults


def _settle(app: Any) -> None:
    import ui_support

    ui_support.wait(1.3)


def render(out: Path, sizes: dict[str, tuple[int, int]] | None = None,
           only: list[str] | None = None, pngs: bool = False) -> dict[str, Any]:
    """Render the scenarios in this process (its window must be at least 1280x1280). Each
    frame is read back from the framebuffer in memory (its size and how many colours it
    shows go in the report); with `pngs`, it is saved as a PNG too. Kivy's clock is held
    (`ui_support.held_clock`): a scenario's wait (a die settling) moves it on without
    drawing the frames between, and every run draws the same moments."""
    import ui_support

    from companion.session import Session

    sizes = sizes or SIZES
    app = ui_support.app_for(Session())
    report: dict[str, Any] = {}
    with ui_support.held_clock():  # a wait moves the clock on: no frame drawn, no sleep
        for scenario in scenarios():
            if only and scenario.name not in only:
                continue
            for size_name, size in sizes.items():
                ui_support.close_dialogs()
                ui_support.resize(size, draw=False)
                scenario.build(app)
                ui_support.lay_out(6)
                frame = ui_support.frame()  # drawn now
                path = (ui_support.screenshot(out / size_name / f"{scenario.name}.png")
                        if pngs else None)
                state = app.session.history.state if app.session.history else None
                roots = [ui_support.window()]
                report.setdefault(scenario.name, {})[size_name] = {
                    "screenshot": str(path) if path else None,
                    "frame": {"size": [frame.width, frame.height], "colours": frame.colours()},
                    "screen": app.ctx.nav.current,
                    "problems": screen_problems(roots),
                    "texts": [t for r in roots for t in ui_support.texts(r)],
                    "purses": [p.coins for p in state.players] if state else [],
                    "private": scenario.private,
                    "main": list(scenario.main),
                    "out_of_sight": ui_support.main_out_of_sight(scenario.main),
                    "controls": sorted({str(getattr(w, "action_key", "") or getattr(w, "text", ""))
                                        for w, _ in ui_support.button_places().values()}),
                    "rotation": int(ui_support.window().rotation),
                }
                print("drawn", scenario.name, size_name, flush=True)  # for `run_child`
                # Last, as they tap: the steppers and the repeated controls move nothing.
                tapped: list[str] = []
                moves = ui_support.stepper_moves(tapped=tapped)
                moves += ui_support.repeat_moves(scenario.repeat, tapped=tapped)
                report[scenario.name][size_name].update(moves=moves, tapped=tapped)
                app.presenters["table"].end_peek()
                app.ctx.seats.use("one side")  # the screen upright again for the next one
    ui_support.close_dialogs()
    return report


def _child(out: Path, argv: list[str]) -> None:
    pngs = "--pngs" in argv
    text_scale, sizes, only, language = _options([word for word in argv if word != "--pngs"])
    if text_scale != 100:  # as the run command does, before any widget is imported
        from companion.kivy_config import apply_text_scale

        apply_text_scale(text_scale)
    if language != "en":  # as the app does with ``display.language``, before the first frame
        from companion import i18n

        i18n.use(language)
    chosen = {name: SIZES[name] for name in sizes} if sizes else None
    report = render(out, sizes=chosen, only=only or None, pngs=pngs)
    (out / "report.json").write_text(json.dumps(report, indent=1))


def _options(argv: list[str]) -> tuple[int, list[str], list[str], str]:
    """(text scale, size names, scenario names, language) from ``[--text-scale N]
    [--size S]... [--lang L] [SCENARIO...]``."""
    text_scale, sizes, names, language = 100, [], [], "en"
    words = iter(argv)
    for word in words:
        if word == "--text-scale":
            text_scale = int(next(words))
        elif word == "--lang":
            language = next(words)
        elif word == "--size":
            sizes.append(next(words))
        else:
            names.append(word)
    return text_scale, sizes, names, language


def child_env(out: Path) -> dict[str, str]:
    """The environment of a rendering child process writing into `out`: Kivy headless, a
    1280x1280 offscreen window (shrunk to each size in turn), frames uncapped, nothing
    written outside `out` (Kivy's home, exports, backups, the config file)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCFG_")}
    env.pop("KIVY_METRICS_FONTSCALE", None)
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON",
               KIVY_NO_FILELOG="1", KCFG_GRAPHICS_WIDTH="1280", KCFG_GRAPHICS_HEIGHT="1280",
               KCFG_GRAPHICS_MAXFPS="0")  # frames uncapped
    env.setdefault("KIVY_HOME", str(out / ".kivy"))
    # Exports, backups and the config file written by the settings go here, never home.
    env.update(XDG_DATA_HOME=str(out / ".data"), XDG_CONFIG_HOME=str(out / ".config"))
    env.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    return env


def screen_problems(roots: list[Any]) -> list[str]:
    """The quality bar's problems of what `roots` show: layout, missing glyphs, words
    broken between two letters, words cut short by a shortened label, lines dropped by a
    box too short."""
    import ui_support

    return [p for r in roots for p in (*ui_support.layout_problems(r),
                                       *ui_support.glyph_problems(r),
                                       *ui_support.broken_words(r),
                                       *ui_support.cut_words(r),
                                       *ui_support.dropped_lines(r))]


def run_child(argv: list[str], env: dict[str, str], what: str,
              stall: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a child process that prints a line each time it gets on (a screen drawn, a state
    looked at), for as long as it gets on: a loaded machine's child is slow, not stuck.
    Fails, killing it, only when `stall` seconds pass without a new line, saying what was
    awaited and the child's last lines."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(argv, stdout=out, stderr=err, text=True, env=env, cwd=ROOT)
        printed, since = -1, time.monotonic()
        while child.poll() is None:
            if (size := os.fstat(out.fileno()).st_size) != printed:
                printed, since = size, time.monotonic()
            elif time.monotonic() - since > stall:
                child.kill()
                child.wait()
                out.seek(0)
                err.seek(0)
                raise AssertionError(
                    f"{what}: the child printed nothing new for {stall:.0f} s; its last "
                    f"lines: {out.read()[-600:]!r}; its errors: {err.read()[-1200:]!r}")
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=1)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(argv, child.returncode, out.read(), err.read())


def run(out: Path, only: list[str] | None = None, *,
        text_scale: int = 100, sizes: list[str] | None = None,
        language: str = "en", pngs: bool = False) -> dict[str, Any]:
    """Render in a child process (a fresh 1280x1280 offscreen window); return the report.
    `text_scale`: the text size in percent (``display.text_scale``); `sizes`: the size
    names to render (default: all of `SIZES`); `language`: the language the screens speak
    (``en``, ``fr``, ``de`` or the pseudo-locale ``qps``); `pngs`: save each screen as
    ``out/<size>/<scenario>.png`` (the checks read the frames in memory and need none)."""
    out.mkdir(parents=True, exist_ok=True)
    env = child_env(out)
    options = ["--text-scale", str(text_scale), "--lang", language, *(["--pngs"] if pngs else [])]
    for size in sizes or []:
        options += ["--size", size]
    result = run_child([sys.executable, str(Path(__file__).resolve()), "--child", str(out),
                        *options, *(only or [])], env, f"drawing the screens in {language}")
    if result.returncode != 0:
        raise RuntimeError(f"rendering failed:\n{result.stdout}\n{result.stderr}")
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    return report


def readme(folder: Path = README_DIR) -> int:
    """Render `README_SHOTS` (and `README_LANGUAGE_SHOTS`, each in its language) at
    800x480 and copy them into `folder`; 1 if any has a problem (then nothing is copied)."""
    import shutil
    import tempfile

    runs = [("en", list(README_SHOTS))] + [(lang, [name]) for name, lang in
                                          README_LANGUAGE_SHOTS]
    with tempfile.TemporaryDirectory() as tmp:
        made: list[tuple[Path, str]] = []
        for language, names in runs:
            out = Path(tmp) / language
            report = run(out, names, sizes=["800x480"], language=language, pngs=True)
            bad = [f"{name} ({language}): {problem}" for name, found in report.items()
                   for problem in found["800x480"]["problems"]]
            if bad:
                print("\n".join(bad))
                return 1
            made += [(out / "800x480" / f"{name}.png",
                      name if language == "en" else f"{name}_{language}") for name in names]
        folder.mkdir(parents=True, exist_ok=True)
        for source, name in made:
            shutil.copyfile(source, folder / f"{name}.png")
            print(f"{folder / name}.png: {(folder / f'{name}.png').stat().st_size} bytes")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        _child(Path(argv[1]), argv[2:])
        return 0
    if argv == ["--readme"]:
        return readme()
    out = ROOT / "screenshots"
    if argv and not argv[0].startswith("--"):
        out, argv = Path(argv[0]), argv[1:]
    text_scale, sizes, names, language = _options(argv)
    report = run(out, names, text_scale=text_scale, sizes=sizes, language=language, pngs=True)
    bad = 0
    for name, found_sizes in report.items():
        for size, found in found_sizes.items():
            for problem in found["problems"]:
                bad += 1
                print(f"{name} {size}: {problem}")
    print(f"{sum(len(s) for s in report.values())} screenshots in {out}; {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
