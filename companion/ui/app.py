"""`TableApp`: the Kivy app of the table companion. Small on purpose.

It makes one presenter and one screen per screen name, each when first needed: `build`
makes only the screen on show (the home screen at start: its module and kv file, and the
shared widgets', are all that is imported and loaded before the first frame); a screen's
module, kv file and presenter are loaded when it is first shown or its presenter first
asked for (`SCREENS`, `LazyPresenters`, `LazyScreens`), and the screens not shown yet are
built one per frame once start-up is over. It keeps the
ScreenManager on the navigator's `current`, shows the presenters' notices as dialogs (and
the letters pad and the PIN pad they ask for), and hands the states the session publishes
to the presenters. All game decisions are the session's and the rules'; all words are the
presenters'.

Invariants of the plumbing:
- The app is subscribed to exactly one session, once (`use_session` moves it).
- A published state updates only the presenter of the screen on show, and not even that
  one when the intent leads elsewhere (`Navigator.leaving_for`) or the game just ended on
  a playing screen (the game end shows). Every publish bumps a version; a presenter is
  updated when its screen is shown if it last saw an older version, never twice for one.
- The turn passing and the final turn beginning are heard once each, from the states
  published (`companion.cues.turn_cue`, played through `ctx.cues`).
- The window's rotation is set here and nowhere else (`_face`): the display's own
  rotation (``display.rotation``, Kivy's at start) plus, when the players sit around the
  screen (`ctx.seats`), a half turn while the table, the die screen or a private peek
  faces a far-side seat (`companion.seating.rotation`). It is worked out again from what
  is on show after every publish (so it follows undo, redo and resume), every screen
  change, every peek and every change of the seats; the screens are only turned, never
  built again.
- The garbage collector's timetable is `companion.ui.memory`: start-up and each screen
  frozen once built, a collection of what a turn made after each turn's frame, a full one
  only when idle, never on a tap.
- The rare screens (`LazyScreens.RARE`: settings, players, past games, stats, calibration,
  rules)
  are built when shown and let go on the frame after they are left; their presenters stay,
  so a rebuilt screen shows the same state.

Hooks for the rest of the program:
- `TableApp(session=...)`: play an existing session (e.g. one the store resumed);
  `use_session` swaps it later. `TableApp()` starts with no session (`NO_SESSION`: the
  home screen can be drawn before the rules are imported) until `use_session`; `ready`
  says when start-up is over. `after_first_frame`: what runs in the tick after the first
  frame (start-up's second half); the other screens are built in the background after it.
- `on_resume` / `set_resume(text)`: what the home screen's Resume button does and says.
- `presenters["settings"].config_path`: the ``companion.toml`` the settings screen writes
  (None: the user's, ``~/.config/smallworld-companion/companion.toml``); set it with
  `presenters.when_made("settings", ...)` so the settings are not loaded for it.
- The language (`companion.ui.language.LANGUAGE`): a change words the presenter on show
  again at once and the others when next shown (`_language_changed`); kv's static texts
  follow by themselves (``lang.tr``).
- `die_button_pressed()`: the hardware die button; call it on the UI thread
  (`Clock.schedule_once(lambda dt: app.die_button_pressed())` from a device thread).

Escape never ends the app at once (Kivy's own ``exit_on_escape`` is turned off): on a
desktop it asks first (`LEAVE_QUESTION`; the game is saved at every step, so leaving
loses nothing), and in kiosk mode (``COMPANION_KIOSK=1``) it is ignored: a keyboard
plugged into the table must not leave the players with a dark screen. An open dialog
takes Escape first and closes, as a tap on Cancel would.

The window's close button (a request to close: `on_request_close`) asks the same question
in the same reused dialog on a desktop, and the window stays open until "Leave" is tapped;
a second request while the question is open keeps it open. In kiosk mode there is no close
button: a request to close comes from the system, so it is let through, with a line in the
log saying so: the game is saved at every step and resumes where it was, and holding the
request would only make the switch-off wait for systemd to kill the app. The system's
SIGTERM (``systemctl stop``, the table's own switch-off, a desktop's log-out) never asks,
kiosk or not: `stop_at_the_systems_request`.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.layout import Layout
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget

from companion.cues import turn_cue
from companion.i18n import N_, _
from companion.kivy_config import is_kiosk
from companion.paths import kv_file
from companion.seating import Seating, rotation
from companion.ui import palette, quiet_rules
from companion.ui.language import LANGUAGE
from companion.ui.memory import MemoryPolicy, find_malloc_trim
from companion.ui.presenters.base import Choice, Context, Question
from companion.ui.presenters.keypads import (
    NAME_LENGTH,
    PIN_LENGTH,
    KeypadNotices,
    NameRequest,
    PinRequest,
)
from companion.ui.widgets import (
    ChoiceDialog,
    ConfirmDialog,
    MessageDialog,
    NamePad,
    PinPad,
    Scroller,
)

if TYPE_CHECKING:
    from companion.rules import GameState
    from companion.session import Session

TITLE = N_("Table Companion for Small World")
"""The window's title, in the language spoken (`TableApp.title`)."""

ESCAPE = 27
"""The key code Kivy gives Escape (and Android's Back)."""

LEAVE_QUESTION = N_("Leave the table? The game is saved.")
LEAVE_UNSAVED = N_("Leave the table? Games are not being saved here, so this one is lost.")

log = logging.getLogger(__name__)

SHARED_KV = "widgets.kv"
"""The layouts of the shared widgets, loaded before any screen's."""

BASE_SCREENS: dict[str, tuple[str, str, str]] = {
    "home": ("home:HomePresenter", "home:HomeScreen", "home.kv"),
    "new_game": ("new_game:NewGamePresenter", "new_game:NewGameScreen", "new_game.kv"),
    "table": ("table:TablePresenter", "table:TableScreen", "table.kv"),
    "market": ("market:MarketPresenter", "market:MarketScreen", "market.kv"),
    "map": ("map:MapPresenter", "map:MapScreen", "map.kv"),
    "scoring": ("scoring:ScoringPresenter", "scoring:ScoringScreen", "scoring.kv"),
    "die": ("die:DiePresenter", "die:DieScreen", "die.kv"),
    "game_end": ("game_end:GameEndPresenter", "game_end:GameEndScreen", "game_end.kv"),
    "settings": ("settings:SettingsPresenter", "settings:SettingsScreen", "settings.kv"),
    "profiles": ("profiles:ProfilesPresenter", "profiles:ProfilesScreen", "profiles.kv"),
    "history": ("history:HistoryPresenter", "history:HistoryScreen", "history.kv"),
    "history_game": ("history_game:GameHistoryPresenter", "history_game:GameHistoryScreen",
                     "history_game.kv"),
    "calibration": ("calibration:CalibrationPresenter", "calibration:CalibrationScreen",
                    "calibration.kv"),
    "stats": ("stats:StatsPresenter", "stats:StatsScreen", "stats.kv"),
    "rules": ("rules:RulesPresenter", "rules:RulesScreen", "rules.kv"),
}
"""Screen name -> its presenter (``module:Class`` in `companion.ui.presenters`), its screen
(``module:Class`` in `companion.ui.screens`, or a bare ``Class`` that its kv file declares
as ``<Class@PresenterScreen>``: a screen with no code of its own) and its kv file: each is
imported or loaded when the screen (or its presenter) is first needed (`presenter_class`,
`screen_class`), so start-up imports and loads only the home screen's. The app's own
screens; an expansion's view brings its own (`ExpansionView.screens`), in `SCREENS`."""


class _Screens(Mapping[str, tuple[str, str, str]]):
    """`BASE_SCREENS`, then the screens the expansions' views bring. The views (which
    import the rules) are read only when a name that is not a base screen is asked for,
    or every screen is: never for the home screen's first frame."""

    def __init__(self, base: dict[str, tuple[str, str, str]]) -> None:
        self._base = base
        self._every: dict[str, tuple[str, str, str]] | None = None

    def _all(self) -> dict[str, tuple[str, str, str]]:
        if self._every is None:
            from companion.ui.presenters.expansions import registered

            self._every = {**self._base, **{name: where for view in registered()
                                            for name, where in view.screens.items()}}
        return self._every

    def __getitem__(self, name: str) -> tuple[str, str, str]:
        found = self._base.get(name)
        return self._all()[name] if found is None else found

    def __contains__(self, name: object) -> bool:
        return name in self._base or name in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


SCREENS: Mapping[str, tuple[str, str, str]] = _Screens(BASE_SCREENS)
"""Every screen: the app's (`BASE_SCREENS`) and the expansions' views'."""


def kv_files() -> tuple[str, ...]:
    """The app's layouts, shared widgets first (read from `SCREENS` when called)."""
    return (SHARED_KV, *(kv for _, _, kv in SCREENS.values()))


FIRST_SCREEN = "home"
"""The screen the app starts on."""

FIRST_FRAME_SHARED = ("Screenful", "Caption", "BigButton")
"""The classes whose `SHARED_KV` rules the first screen is drawn with: those rules are
parsed alone before the first frame (the whole file takes most of the kv parsing before
it), the file's others in the tick after it (`TableApp.build`)."""

PREBUILT_DIALOGS = (ConfirmDialog, MessageDialog)
"""The dialogs built in the background after the screens: a game's first question (a
combo's price, an undo, the end of a turn) or message then opens one already built."""

BACKGROUND_BUILD_DELAY = 0.5
"""Seconds after start-up (the first frame and what follows it) before the screens not yet
shown are built, one per frame."""


def _imported(package: str, where: str) -> type:
    module, _, name = where.partition(":")
    found: type = getattr(importlib.import_module(f"{package}.{module}"), name)
    return found


def presenter_class(name: str) -> type:
    """The presenter class of screen `name`, imported when first asked for (KeyError for
    no such screen)."""
    return _imported("companion.ui.presenters", SCREENS[name][0])


def screen_class(name: str) -> type:
    """The screen class of screen `name`, imported when first asked for, with its kv file
    (and the shared widgets' before it) loaded (KeyError for no such screen). The first
    screen shown needs only the shared rules it is drawn with (`FIRST_FRAME_SHARED`)."""
    if name == FIRST_SCREEN:
        load_first_frame_kv()
    else:
        load_kv(SHARED_KV)
    load_kv(SCREENS[name][2])
    where = SCREENS[name][1]
    if ":" in where:
        return _imported("companion.ui.screens", where)
    from kivy.factory import Factory  # a class its kv file declares, e.g. <X@PresenterScreen>

    import companion.ui.screens.base  # noqa: F401 (registers PresenterScreen with Kivy's Factory)

    found: type = getattr(Factory, where)
    return found


class Cut(NoTransition):  # type: ignore[misc]
    """Kivy's `NoTransition`, over in the frame it starts in.

    Kivy's runs an animation of no duration, which ends at the next tick of the clock:
    the frame after a switch drew the screen shown over the one left (both were in the
    manager), and the one left was taken away only in the frame after. Here the screen
    shown is added, the one left taken away and every event of the switch dispatched
    (`on_pre_enter`, `on_pre_leave`, `on_enter`, `on_leave`, in Kivy's order) at once."""

    def start(self, manager: ScreenManager) -> None:
        """(The manager stops the last switch before it starts the next.)"""
        self.manager = manager
        self.add_screen(self.screen_in)
        self.screen_in.transition_state, self.screen_out.transition_state = "in", "out"
        self.screen_in.dispatch("on_pre_enter")
        self.screen_out.dispatch("on_pre_leave")
        self.is_active = True
        self._on_progress(1.0)  # where Kivy's animation ends
        self._on_complete()


def display_rotation() -> int:
    """The display's own rotation (Kivy's ``[graphics] rotation``: ``display.rotation``
    in kiosk mode), which the window had when it opened, whatever turned it since."""
    from kivy.config import Config as KivyConfig

    try:
        return int(KivyConfig.getint("graphics", "rotation")) % 360
    except ValueError:
        return 0


def lay_out(root: Widget) -> None:
    """Lay `root` and everything in it out now, top down, at its current size.

    Kivy lays a new widget tree out over the first frame, one level per pass, and each
    label renders its text at every width it is given meanwhile (a wrapped label at its
    default width of 100 px first, which is most of the first frame's text work); laid out
    before that frame, each renders once, at the width it is shown at.
    """
    for widget in root.walk(restrict=True):
        if isinstance(widget, Layout):
            widget.do_layout()


class LazyPresenters(Mapping[str, Any]):
    """The app's presenters by screen name, each made when first asked for (`in` does not
    make one). `when_made(name, hook)` runs `hook(presenter)` once it exists."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._made: dict[str, Any] = {}
        self._hooks: dict[str, list[Callable[[Any], None]]] = {}

    def __getitem__(self, name: str) -> Any:
        presenter = self._made.get(name)
        if presenter is None:
            presenter = presenter_class(name)(self._ctx)
            self._made[name] = presenter
            for hook in self._hooks.pop(name, ()):
                hook(presenter)
        return presenter

    def __contains__(self, name: object) -> bool:
        return name in SCREENS

    def __iter__(self) -> Iterator[str]:
        return iter(SCREENS)

    def __len__(self) -> int:
        return len(SCREENS)

    def made(self, name: str) -> Any:
        """`name`'s presenter if it was made already, else None (none is made for it)."""
        return self._made.get(name)

    def when_made(self, name: str, hook: Callable[[Any], None]) -> None:
        """Run `hook(presenter)` on `name`'s presenter: now if it exists, else once made."""
        if name in self._made:
            hook(self._made[name])
        else:
            self._hooks.setdefault(name, []).append(hook)


class LazyScreens(Mapping[str, Any]):
    """The app's screens by name, each built (and added to the manager) when first asked
    for: start-up builds only the screen it shows, `build_next` the others but the `RARE`
    ones, which are built when shown and let go (`release`) when left."""

    RARE = frozenset({"settings", "profiles", "history", "history_game", "stats",
                      "calibration", "rules"})
    """Screens seldom shown (not during a game): built when shown, released when left."""

    def __init__(self, presenters: Mapping[str, Any], manager: ScreenManager | None,
                 on_built: Callable[[Any], None] = lambda _screen: None) -> None:
        self._presenters = presenters
        self._manager = manager
        self._on_built = on_built
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        screen = self._built.get(name)
        if screen is None:
            if name not in SCREENS or self._manager is None:
                raise KeyError(name)
            screen = screen_class(name)(self._presenters[name], name=name)
            self._built[name] = screen
            self._manager.add_widget(screen)
            self._on_built(screen)
        return screen

    def __iter__(self) -> Iterator[str]:
        return iter(SCREENS)

    def __len__(self) -> int:
        return len(SCREENS)

    def built(self, name: str) -> bool:
        """Whether screen `name` is built (and not released since)."""
        return name in self._built

    def build_next(self) -> bool:
        """Build one screen not built yet (rare ones aside); False when none is left."""
        for name in SCREENS:
            if name not in self._built and name not in self.RARE:
                self[name]
                return True
        return False

    def release(self, name: str) -> Any:
        """Let the built screen `name` go (out of the manager and of this mapping), if it
        is rare and not on show; its presenter stays. The screen let go, or None."""
        screen = self._built.get(name)
        if (screen is None or name not in self.RARE or self._manager is None
                or self._manager.current == name or screen.parent is not None):
            return None
        del self._built[name]
        self._manager.remove_widget(screen)
        transition = self._manager.transition  # it keeps the last screens it switched
        shown = self._manager.current_screen  # (None is not allowed there)
        for end in ("screen_in", "screen_out"):
            if getattr(transition, end) is screen and shown is not None:
                setattr(transition, end, shown)
        return screen


PLAYING = ("table", "market", "map", "scoring", "die")
"""Screens that give way to the game end when the last turn ends."""


def load_kv(*names: str) -> None:
    """Load the kv files `names` (all of them: `kv_files`) once per process (loading one
    twice would double its rules); of a file whose first-frame rules are loaded already
    (`load_first_frame_kv`), the others."""
    for name in names or kv_files():
        path = str(kv_file(name))
        if path in Builder.files:
            continue
        if _first_part(path) in Builder.files:
            text = Path(path).read_text(encoding="utf8")
            Builder.load_string(kv_rules(text, FIRST_FRAME_SHARED, chosen=False),
                                filename=path)  # fmt: skip
        else:
            Builder.load_file(path)


def load_first_frame_kv() -> None:
    """Load the `SHARED_KV` rules of `FIRST_FRAME_SHARED` alone (once per process), unless
    the whole file is loaded already."""
    path = str(kv_file(SHARED_KV))
    if path not in Builder.files and _first_part(path) not in Builder.files:
        text = Path(path).read_text(encoding="utf8")
        Builder.load_string(kv_rules(text, FIRST_FRAME_SHARED, chosen=True),
                            filename=_first_part(path))  # fmt: skip


def _first_part(path: str) -> str:
    """The name the first-frame rules of the kv file at `path` are loaded under."""
    return f"{path} (first frame)"


def kv_rules(text: str, classes: Collection[str], *, chosen: bool) -> str:
    """The kv `text` with only its rules for `classes` (`chosen`), or only the others, and
    its directives; every line left out is left blank, so that errors keep their line
    numbers. A rule for several classes (``<A,B>:``) goes with any of them."""
    wanted = set(classes)
    keep = True  # directives and comments before the first rule: in both
    lines = []
    for line in text.splitlines():
        if line.startswith("<"):
            header = line.strip().removesuffix(":").strip().strip("<>")
            names = {part.split("@")[0].strip().lstrip("-") for part in header.split(",")}
            keep = bool(names & wanted) == chosen
        lines.append(line if keep else "")
    return "\n".join(lines) + "\n"


D = TypeVar("D")
"""A kind of dialog (`_spare`)."""


class TableApp(App):  # type: ignore[misc]  # Kivy ships no type information
    """The table companion's app: a ScreenManager over the presenters."""

    ready = BooleanProperty(False)
    """Whether start-up is over: the session is there (given to the constructor, or by
    `companion.app` after the first frame, with the saved games and the devices)."""

    def __init__(self, session: Session | None = None, *,
                 on_resume: Callable[[], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = _(TITLE)
        self.ctx = Context(on_resume=on_resume, notices=KeypadNotices())
        if session is not None:
            self.ctx.session = session
        self.ready = session is not None
        self.presenters = LazyPresenters(self.ctx)
        self.ctx.presenters = self.presenters
        self.screens = LazyScreens(self.presenters, None)
        self.manager: ScreenManager | None = None
        self.version = 0
        """How many states were published (the app's own `None` at start and on a new
        session included)."""
        self.seen: dict[str, int] = {}
        """Screen name -> the version its presenter was last updated with."""
        self.memory = MemoryPolicy(find_malloc_trim())
        self._window: Any = None
        """The window whose touches are watched for the memory policy."""
        self._turn: tuple[object, int, int, bool] | None = None
        """The game, turn and seat last published, and whether it was over."""
        self._heard: tuple[object, GameState] | None = None
        """The game and state last published, for the turn's cues (`_cue_check`)."""
        self.after_first_frame: list[Callable[[], None]] = []
        """Run once in the tick after the first frame was flipped, once the shared layouts
        it did without are loaded (start-up's second half: `companion.app`)."""
        self.dialogs: list[Any] = []
        """Dialogs opened so far that are still open (tests read it)."""
        self._dialog_pool: dict[type, list[Any]] = {}
        """Every dialog built, by kind: each is filled again and reopened (`_spare`)."""
        self._leaving: Any = None
        """The question Escape or the close button asked ("Leave the table?") while it is
        open."""
        self.base_rotation: int | None = None
        """The display's own rotation (`display_rotation`, read when the app is built):
        the seats' turn is added to it (`_face`)."""
        self._seated: object = None
        """The game (its first step, by identity) whose seats' sides `ctx.seats` holds."""
        self._pin_seat: int | None = None
        """The seat whose PIN the open PIN pad asks for (it faces them), if any."""

    # -- building --------------------------------------------------------------------------
    def build(self) -> Widget:
        """The screen on show (the home screen at start) and nothing else: the other
        screens' modules, kv files and presenters are loaded when first needed."""
        from kivy.core.window import Window  # made by now, or made here: App.run needs it

        quiet_rules.install()  # before the first rule is bound: none formats a trace line
        ctx = self.ctx
        if self.base_rotation is None:
            self.base_rotation = display_rotation()
        manager = ScreenManager(transition=Cut())
        # Kivy's rule clips the manager with the stencil (two rectangles over the whole
        # window into the stencil buffer, and a test of every pixel, at every frame) for
        # screens that slide in; these never slide, and the manager fills the window.
        manager.canvas.before.clear()
        manager.canvas.after.clear()
        self.manager = manager
        self.screens = LazyScreens(self.presenters, manager, self._screen_made)
        manager.current = self.screens[ctx.nav.current].name
        ctx.nav.fbind("current", self._navigate)
        ctx.notices.fbind("on_message", self._message)
        ctx.notices.fbind("on_question", self._question)
        ctx.notices.fbind("on_choice", self._choice)
        ctx.notices.fbind("on_name", self._name)
        ctx.notices.fbind("on_pin", self._pin)
        ctx.seats.fbind("seating", self._face)
        ctx.seats.fbind("sides", self._face)
        LANGUAGE.bind(code=self._language_changed)  # weakly: an app let go is forgotten
        self.presenters.when_made("table", lambda table: table.fbind("peek_seat", self._face))
        ctx.session.subscribe(self._published)
        self._published(None)
        Clock.schedule_once(self._watch_touches, 0)  # the window exists by then
        Window.clearcolor = palette.BACKGROUND  # what every screen is drawn on (`Screenful`)
        window = EventLoop.window
        if window is not None:  # the size the window will give it: laid out once, now
            manager.size = window.size
            lay_out(manager)
            window.fbind("on_flip", self._flipped)
            window.canvas.ask_update()  # a frame is drawn even if nothing else changes
        else:
            Clock.schedule_once(self._first_frame_shown, 0)
        return manager

    def _flipped(self, window: Any) -> None:
        """The first frame is being flipped: what waited for it runs in the next tick."""
        window.funbind("on_flip", self._flipped)
        Clock.schedule_once(self._first_frame_shown, 0)

    def _first_frame_shown(self, _dt: float) -> None:
        """The first frame is on screen: the shared rules it did without (dialogs...), the
        hooks (the rest of start-up: the session), then the other screens in the
        background (a presenter may need the session)."""
        from companion.ui import label_textures, text_measure

        text_measure.install()  # every label measures a word once per font from now on
        label_textures.install()  # and shows a text drawn before from its texture
        load_kv(SHARED_KV)
        self._watch_escape()
        for hook in self.after_first_frame:
            hook()
        Clock.schedule_once(self._build_one_more, BACKGROUND_BUILD_DELAY)

    def _watch_escape(self) -> None:
        """Escape asks before the app ends (kiosk mode: nothing); Kivy's own handling,
        which ends it at once, is turned off. Bound once the dialogs' rules are loaded."""
        from kivy.config import Config as KivyConfig

        KivyConfig.set("kivy", "exit_on_escape", "0")
        window = EventLoop.window
        if window is not None:
            window.fbind("on_keyboard", self.escape_pressed)
            window.fbind("on_request_close", self.close_requested)

    def escape_pressed(self, _window: Any = None, key: int = ESCAPE, *_args: Any) -> bool:
        """A key on the window's keyboard: Escape asks whether to leave (on a desktop) or
        is swallowed (kiosk mode); True when the key was Escape (handled here)."""
        if key != ESCAPE:
            return False
        if is_kiosk():
            return True
        leaving = self._leaving
        if leaving is not None and leaving in self.dialogs:  # Escape again: stay
            self._leaving = None
            leaving.answer(False)
            return True
        self._ask_to_leave()
        return True

    def close_requested(self, *_args: Any, **_kwargs: Any) -> bool:
        """The window is asked to close (its close button): True keeps it open. On a
        desktop the leave question is asked (or stays open when it is already); in kiosk
        mode the request, the system's, is let through and logged."""
        if is_kiosk():
            log.info("Closing at the system's request; the game is saved and resumes "
                     "where it was at the next start.")
            return False
        leaving = self._leaving
        if leaving is None or leaving not in self.dialogs:
            self._ask_to_leave()
        return True

    def stop_at_the_systems_request(self) -> None:
        """The system asked the app to end (SIGTERM: `companion.app.stop_on_sigterm`): it
        ends now, the leave question closed if it was open; every step is saved already."""
        log.info("Closing at the system's request; the game is saved and resumes "
                 "where it was at the next start.")
        leaving, self._leaving = self._leaving, None
        if leaving is not None and leaving in self.dialogs:
            leaving.dismiss()
        self.stop()

    def _ask_to_leave(self) -> None:
        """Ask "Leave the table?" (the reused question dialog); "Leave" ends the app."""
        saved = self.ctx.session.records is not None or self.ctx.session.history is None
        question = Question(_(LEAVE_QUESTION if saved else LEAVE_UNSAVED), _("Leave"),
                            self.stop, title=_("Leave the table"), no=_("Stay"),
                            kind="danger")
        self.ctx.notices.ask(question)
        self._leaving = self.dialogs[-1] if self.dialogs else None

    def _watch_touches(self, _dt: float) -> None:
        """Every touch, on a screen or a dialog, is activity for the memory policy."""
        window = EventLoop.window
        if window is not None and self._window is None:
            self._window = window
            window.fbind("on_touch_down", self._touched)

    def on_stop(self) -> None:
        if self._window is not None:
            self._window.funbind("on_touch_down", self._touched)
            self._window = None

    def _build_one_more(self, _dt: float) -> None:
        """After start-up, the screens not shown yet (rare ones aside) are built one per
        frame, so the first frame comes sooner and no later tap waits for a screen to be
        built; then the dialogs a game asks with (`PREBUILT_DIALOGS`), then the rule book
        (the map's panel asks it what a region's pieces have an entry for), for the same
        reason. Each is collected and frozen as soon as it is built, so no collection
        walks it again (`MemoryPolicy`)."""
        self.memory.begin()
        if self.screens.build_next() or self._build_dialog() or self._read_rule_book():
            self.memory.screen_built()
            Clock.schedule_once(self._build_one_more, 0)
        else:
            self.memory.settle()

    def _build_dialog(self) -> bool:
        """Build one dialog of `PREBUILT_DIALOGS` not built yet; False when all are."""
        for kind in PREBUILT_DIALOGS:
            if not self._dialog_pool.get(kind):
                self._spare(kind)
                return True
        return False

    def _read_rule_book(self) -> bool:
        """Make the rules' presenter (it reads the rule book) unless it is made; False
        when it was."""
        if self.presenters.made("rules") is not None:
            return False
        self.presenters["rules"]
        return True

    def _touched(self, *_args: Any) -> None:
        self.memory.activity()

    # -- the rest of the program's hooks -----------------------------------------------------
    @property
    def session(self) -> Session:
        return self.ctx.session

    def use_session(self, session: Session, screen: str | None = None) -> None:
        """Play `session` from now on (a resumed game); shows `screen` or the table."""
        if session is not self.ctx.session:
            self.ctx.session.unsubscribe(self._published)
            self.ctx.session = session
            for name in SCREENS:  # another table: what the last one chose on each screen goes
                presenter = self.presenters.made(name)
                if presenter is not None:
                    presenter.forget()
        session.subscribe(self._published)  # once: subscribing again changes nothing
        self._published(None)
        if screen is not None:
            self.ctx.nav.go(screen)
        elif session.history is not None:
            self.ctx.nav.go("game_end" if session.state.is_over else "table")

    def set_resume(self, offer: Callable[[], str] | str | None) -> None:
        """What the home screen's Resume button says (None: nothing to resume): its words,
        or how to word them (worded again when the language changes)."""
        self.presenters["home"].offer_resume(offer)

    def die_button_pressed(self) -> None:
        """The hardware die button was pressed (on the UI thread): the roll the rules allow
        now, or only the reason why there is none."""
        self.presenters["die"].roll_from_button()

    def _language_changed(self, *_args: Any) -> None:
        """Another language: the presenter on show words its texts again now, the others
        when next shown, as for a new state (`version`); no screen is built again."""
        self.version += 1
        self.title = _(TITLE)
        window = EventLoop.window
        if window is not None:
            window.set_title(self.title)
        self._refresh(self.ctx.nav.current)

    # -- plumbing ----------------------------------------------------------------------------
    def _published(self, _state: GameState | None, *_args: Any) -> None:
        """A new state: the screen on show is updated now (unless the intent leads to
        another, or the game end takes over), the others when next shown (updating every
        screen on every tap made taps slow)."""
        self.version += 1
        nav = self.ctx.nav
        state = self._state()
        self.memory.activity()
        self._turn_check(state)
        self._cue_check(state)
        self._seat_check(state)
        self._face()
        if state is not None and state.is_over and nav.current in PLAYING:
            nav.go("game_end")
        elif nav.leaving_for is None:
            self._refresh(nav.current)

    def _turn_check(self, state: GameState | None) -> None:
        """A new turn, game or game over: the garbage collector's calm moment."""
        history = self.ctx.session.history
        turn = (None if state is None or history is None else
                (history.log[0] if history.log else None, state.track.turn,
                 state.track.seat, state.is_over))
        if turn != self._turn:
            self._turn = turn
            self.memory.turn_ended()

    def _cue_check(self, state: GameState | None) -> None:
        """The turn passing or the final turn beginning, heard once (`cues.turn_cue`):
        only between two states of the same game, so a new or resumed game is silent."""
        history = self.ctx.session.history
        game = history.log[0] if history is not None and history.log else None
        heard = self._heard
        self._heard = None if state is None else (game, state)
        if state is None or heard is None or heard[0] is not game:
            return
        cue = turn_cue(heard[1], state)
        if cue is not None:
            self.ctx.cues.play(cue)

    def _seat_check(self, state: GameState | None) -> None:
        """Another game (started, resumed, or none): its seats' sides (`TableSeats.join`)."""
        session = self.ctx.session
        history = session.history
        game = history.log[0] if history is not None and history.log else None
        if game is not self._seated:
            self._seated = game
            self.ctx.seats.join(session.records, session.game_id,
                                len(state.players) if state is not None else 0)

    def facing_rotation(self) -> int:
        """The window's rotation for what is on show now (`companion.seating.rotation`)."""
        seats = self.ctx.seats
        state = self._state()
        current = None if state is None or state.is_over else state.track.seat
        peek = self._pin_seat  # the PIN is typed by the one about to peek
        table = self.presenters.made("table")
        if table is not None and table.peek_seat >= 0:
            peek = int(table.peek_seat)
        return rotation(self.base_rotation or 0, Seating(seats.seating), seats.sides,
                        self.ctx.nav.current, current, peek)

    def _face(self, *_args: Any) -> None:
        """Turn the window to face whom the screen on show faces (only turned: no screen
        is built or laid out again; a half turn keeps the window's size)."""
        if self.base_rotation is None:
            return  # the window is not there yet: `build` faces it
        window = EventLoop.window
        if window is None:
            return
        wanted = self.facing_rotation()
        if int(window.rotation) != wanted:
            window.rotation = wanted
            # Kivy turns the touches at once but the picture only on a resize, and a half
            # turn keeps the size: the picture is turned here, with the same matrices.
            window.update_viewport()
            Scroller.window_turned()

    def _state(self) -> GameState | None:
        history = self.ctx.session.history
        return history.state if history is not None else None

    def _refresh(self, name: str) -> None:
        """Update `name`'s presenter unless it has seen the latest state already."""
        if self.seen.get(name) != self.version:
            self.seen[name] = self.version
            self.presenters[name].update(self._state())

    def _screen_made(self, screen: Any) -> None:
        """A screen was built: the memory policy hears when its map (if it has one, as
        `board`) is drawn anew."""
        board = screen.ids.get("board")
        if board is not None and "on_drawn_anew" in getattr(board, "__events__", ()):
            board.fbind("on_drawn_anew", lambda *_args: self.memory.drawing_made())

    def _navigate(self, _nav: Any, name: str) -> None:
        self.memory.activity()
        self._refresh(name)
        self._face()
        if self.manager is not None and self.manager.current != name:
            if name in LazyScreens.RARE and not self.screens.built(name):
                self.memory.rare_shown()  # about to be built: kept out of the freezes
            self.manager.current = self.screens[name].name
            Clock.schedule_once(self._release_left, 0)  # once the switch is over

    def _release_left(self, _dt: float) -> None:
        """The rare screens built but not on show are let go (`LazyScreens.release`)."""
        for name in LazyScreens.RARE:
            screen = self.screens.release(name)
            if screen is not None:
                self.memory.screen_released(screen)

    def _spare(self, kind: type[D]) -> D:
        """A dialog of `kind` to fill and open: the one built the first time, reused.

        Another of the same kind is built only while every one of it is open (a question
        asked while another waits for its answer: both stay on show, the newer on top,
        as before); it is kept and reused too.
        """
        spares = self._dialog_pool.setdefault(kind, [])
        free = [d for d in spares if d not in self.dialogs and d.parent is None]
        if free:
            return cast(D, free[0])
        made: Any = kind()
        made.bind(on_dismiss=self._closed)
        spares.append(made)
        return cast(D, made)

    def _closed(self, dialog: Any) -> None:
        if dialog in self.dialogs:
            self.dialogs.remove(dialog)
        if isinstance(dialog, PinPad) and self._pin_seat is not None:
            self._pin_seat = None
            self._face()

    def _open(self, kind: type, *args: Any, **words: Any) -> None:
        """Fill a dialog of `kind` (`_spare`) with `args` and `words`, and open it."""
        dialog: Any = self._spare(kind)
        dialog.fill(*args, **words)
        self.dialogs.append(dialog)
        dialog.open()

    def _message(self, _notices: Any, title: str, text: str) -> None:
        self._open(MessageDialog, title=title, text=text)

    def _question(self, _notices: Any, question: Question) -> None:
        self._open(ConfirmDialog, question.on_yes, title=question.title, text=question.text,
                   yes_text=question.yes, no_text=question.no, yes_kind=question.kind)

    def _choice(self, _notices: Any, choice: Choice) -> None:
        self._open(ChoiceDialog, choice.on_choice, choices=choice.choices, title=choice.title,
                   text=choice.text)

    def _name(self, _notices: Any, request: NameRequest) -> None:
        self._open(NamePad, request.on_done, title=request.title, text=request.text,
                   value=request.initial, max_length=NAME_LENGTH)

    def _pin(self, _notices: Any, request: PinRequest) -> None:
        self._pin_seat = request.seat
        self._face()  # before it opens: the pad faces the one who types
        self._open(PinPad, request.on_done, title=request.title, text=request.text,
                   length=PIN_LENGTH)
