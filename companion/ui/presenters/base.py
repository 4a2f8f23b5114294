"""What every presenter shares: the session, the navigator and the notices.

`Context` bundles the one `Session`, a `Navigator` (which screen shows), `Notices`
(messages and questions the app shows as dialogs), the sound cues (`cues`) and where the
players sit (`seats`). A
`Presenter` refreshes itself from the game state whenever the session publishes one, and
runs every intent through `attempt`, which turns a refused intent (`RulesError`) into a
plain message and changes nothing.

Until start-up has made the session (after the app's first frame, see `companion.app`),
`Context.session` is `NO_SESSION`: no game, no store, nothing published. Importing this
module imports neither the rules nor the session, so the home screen's first frame does
not wait for them.

The default words of a notice (a message's title "Not now", a question's "Cancel") are
worded in the language spoken when the notice is made (`companion.i18n`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, StringProperty

from companion.cues import SILENT, CuePlayer
from companion.i18n import N_, _
from companion.records import RecordsError
from companion.ui.seats import TableSeats

if TYPE_CHECKING:
    from companion.rules import GameState
    from companion.session import Session

T = TypeVar("T")

NOT_NOW = N_("Not now")
"""A message's title unless it says its own."""
CANCEL = N_("Cancel")
NOT_SAVED = N_("Not saved")
NOT_POSSIBLE = N_("That is not possible now.")


class Navigator(EventDispatcher):  # type: ignore[misc]
    """Which screen shows; the app's ScreenManager follows `current`.

    `leaving_for` is the screen an intent being run leads to once done (None: it stays on
    this one): the app does not refresh the screen being left for the states it publishes.
    """

    current = StringProperty("home")
    previous = StringProperty("home")
    leaving_for: str | None = None

    def go(self, name: str) -> None:
        if name != self.current:
            self.previous = self.current
            self.current = name


@dataclass
class Question:
    text: str
    yes: str
    on_yes: Callable[[], None]
    title: str = ""
    no: str = field(default_factory=lambda: _(CANCEL))
    kind: str = "primary"


@dataclass
class Choice:
    title: str
    choices: list[tuple[str, str]]
    on_choice: Callable[[str], None]
    text: str = ""


class Notices(EventDispatcher):  # type: ignore[misc]
    """Messages and questions for the player; the app shows each as a dialog.

    `on_message(title, text)`, `on_question(Question)` and `on_choice(Choice)` fire once
    per notice. `last_message` keeps the latest message's text (for tests and the log).
    """

    last_message = StringProperty("")
    last_title = StringProperty("")

    __events__ = ("on_message", "on_question", "on_choice")

    def tell(self, text: str, title: str | None = None) -> None:
        """`title`: the message's own (None: "Not now" in the language spoken)."""
        title = _(NOT_NOW) if title is None else title
        self.last_title, self.last_message = title, text
        self.dispatch("on_message", title, text)

    def ask(self, question: Question) -> None:
        self.dispatch("on_question", question)

    def choose(self, choice: Choice) -> None:
        self.dispatch("on_choice", choice)

    def on_message(self, title: str, text: str) -> None:
        pass

    def on_question(self, question: Question) -> None:
        pass

    def on_choice(self, choice: Choice) -> None:
        pass


class _NoSession:
    """The session before start-up has made one: no game, no records, nothing to publish
    (its listeners are kept for nothing). Anything else asked of it is a mistake."""

    history = None
    game_id = None
    records = None

    def subscribe(self, _listener: Any) -> None:
        pass

    def unsubscribe(self, _listener: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        # a programming error, never shown to players: not translated
        raise AttributeError("there is no session yet (start-up is not over): " + name)


NO_SESSION = cast("Session", _NoSession())
"""`Context.session` until start-up has made the session (`TableApp.use_session`)."""


@dataclass
class Context:
    """The one session and the app-wide helpers every presenter uses."""

    session: Session = NO_SESSION
    nav: Navigator = field(default_factory=Navigator)
    notices: Notices = field(default_factory=Notices)
    on_resume: Callable[[], None] | None = None
    presenters: Mapping[str, Any] = field(default_factory=dict)
    """Every screen's presenter by screen name (one presenter may hand work to another);
    the app's is lazy: a presenter is made when first asked for."""
    cues: CuePlayer = SILENT
    """Where a presenter asks for a sound cue (`companion.cues.Cue`); silent until the
    composition root hands over the app's sounds after the first frame."""
    seats: TableSeats = field(default_factory=TableSeats)
    """Where the players sit around the screen (``display.seating`` and each seat's side);
    the app turns the window from it."""


def plain(reason: str, *, capital: bool = True) -> str:
    """A rules message as a sentence: capital first letter (unless not `capital`: a reason
    after a colon that starts with a name spelt as it is, e.g. a setting's key), full stop
    at the end."""
    text = reason.strip()
    if not text:
        return _(NOT_POSSIBLE)
    if capital:
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


class Presenter(EventDispatcher):  # type: ignore[misc]
    """Base of the screen presenters; `refresh(state)` runs after every published state."""

    has_game = BooleanProperty(False)
    _parse: ClassVar[Callable[[str], Any]]

    def __init_subclass__(cls, *, parse: Callable[[str], Any] | None = None,
                          **kwargs: Any) -> None:
        """`parse`: the screen's own (its module's), a button's key -> its typed intent."""
        super().__init_subclass__(**kwargs)
        if parse is not None:
            cls._parse = staticmethod(parse)

    def __init__(self, ctx: Context, **kwargs: Any) -> None:
        self.ctx = ctx
        super().__init__(**kwargs)

    @property
    def session(self) -> Session:
        return self.ctx.session

    @property
    def state(self) -> GameState | None:
        return self.session.history.state if self.session.history is not None else None

    def forget(self) -> None:
        """Another table's session is played now: let go of what the last table chose on
        this screen (a tab, names typed); nothing here."""

    def update(self, state: GameState | None) -> None:
        """Called with every new state (None: no game yet)."""
        self.has_game = state is not None
        if state is not None:
            self.refresh(state)
        else:
            self.clear()

    def refresh(self, state: GameState) -> None:
        """Recompute the display properties from `state`."""

    def clear(self) -> None:
        """No game any more: forget what was shown of the last one."""

    def attempt(self, intent: Callable[[], T], title: str | None = None, *,
                then: str | None = None) -> T | None:
        """Run an intent; a refusal or a failed save becomes a plain message and None.

        Either way nothing changed: the screen still shows what is saved. `then`: the
        screen the intent leads to once done; it is shown (up to date) and the screen left
        is not refreshed for the new state meanwhile (it is when next shown).
        """
        from companion.rules import RulesError
        from companion.ui.wording import say

        nav = self.ctx.nav
        before, nav.leaving_for = nav.leaving_for, then
        try:
            done = intent()
        except RulesError as refused:
            self.ctx.notices.tell(plain(say(refused)), title)
            return None
        except RecordsError as failed:
            self.ctx.notices.tell(say(failed), _(NOT_SAVED))
            return None
        finally:
            nav.leaving_for = before
        if then is not None:
            self.go(then)
        return done

    def go(self, screen: str) -> None:
        self.ctx.nav.go(screen)

    def act(self, key: str) -> None:
        """A button's intent, named by its key: parsed (`UnknownAction` when the screen has
        none), then done."""
        self.do(type(self)._parse(key))

    def do(self, action: Any) -> None:
        """Do a typed intent of this screen (each screen's own `match`)."""
        raise NotImplementedError
