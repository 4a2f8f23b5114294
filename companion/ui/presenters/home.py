"""Home: a new game, back to the game on the table, resume a saved one, past games and
stats, settings, a status line, and switching the table off.

Switching off is offered only in kiosk mode (``COMPANION_KIOSK=1``, the table's service):
on a developer's laptop the button is not there, so it never powers the laptop off. Once
the system has accepted the power-off or restart (`companion.system_actions`), the saved
games are closed (SQLite checkpoints its log into the file; the lock is released) and
then `on_switched_off` stops the app. When the system refuses, one line on the home
screen says why and everything stays as it was, the saved games open.

The language the table speaks is chosen here too (the button shows the language spoken,
in its own words): the choice is saved and applied by the settings presenter
(`SettingsPresenter.set_language`), so both write the same ``companion.toml``. Every text
here is worded in the language spoken (`companion.i18n`) and worded again when it changes.

The home screen is the app's first frame: this module imports neither the rules nor the
session (`resume_text` comes from the store's summary, see `companion.app`).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, assert_never

from kivy.properties import BooleanProperty, StringProperty

from companion import i18n, system_actions
from companion.i18n import N_, _
from companion.kivy_config import is_kiosk
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.intents import known

if TYPE_CHECKING:
    from companion.rules import GameState


class Action(StrEnum):
    """The home screen's buttons (the values are their keys)."""

    NEW_GAME = "new_game"
    CONTINUE = "continue"
    RESUME = "resume"
    HISTORY = "history"
    SETTINGS = "settings"
    LANGUAGE = "language"


def parse(key: str) -> Action:
    """The home screen's action for `key`; `UnknownAction` when it has none."""
    return known("home", key, Action)


GOING = {
    "poweroff": N_("Shutting down. Switch off at the wall once the screen is dark."),
    "reboot": N_("Restarting. The table is back in about a minute."),
}


NO_GAME = N_("No game on the table.")
SAVED_GAME = N_("Your saved game is waiting: Resume puts it back on the table.")
"""The line above the buttons when no game is on the table but one can be resumed: the
Resume button below names it, so the line must not say there is no game."""
RESUME = N_("Resume a saved game")
"""The Resume button's words when there is nothing to resume (the offer names the game)."""
NO_DIE = N_("Die button: none (roll on screen)")
NO_GRID = N_("Sensor grid: not connected (tap the map)")
"""The status line until start-up has looked at the devices."""


def language_choices() -> list[tuple[str, str]]:
    """The languages a table may choose, as (code, its name in its own words)."""
    return [(code, i18n.NAMES[code]) for code in i18n.LANGUAGES]


class HomePresenter(Presenter, parse=parse):
    game_text = StringProperty("")
    can_resume = BooleanProperty(False)
    resume_text = StringProperty(RESUME)
    """Set by whoever knows the saved games (e.g. "Resume: Ann, Bob, Cy, turn 3")."""
    resume_button = StringProperty("")
    """What the Resume button says: the offer, or `RESUME` in the language spoken."""
    die_status = StringProperty("")
    grid_status = StringProperty("")
    can_switch_off = BooleanProperty(False)
    """Whether the Switch off button shows (kiosk mode only)."""
    power_text = StringProperty("")
    """One line after Shut down or Restart: what happens now, or why it did not."""
    language_text = StringProperty("")
    """The language button: the language spoken, in its own words ("Deutsch")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.can_switch_off = is_kiosk()
        self.on_switched_off: Callable[[], None] | None = None
        """Stops the app once the table is going down (set by `companion.app`)."""
        self._going: str | None = None
        """The power action the system accepted (its line is worded again), if any."""
        self._defaults = {"die_status": "", "grid_status": ""}
        """The status lines as last worded here, until start-up says how to word them."""
        self._say: dict[str, Callable[[], str] | None] = {}
        """How to word each status line (`say_devices`); None: its device words it."""
        self._resume: Callable[[], str] | None = None
        """How to word the Resume offer (`offer_resume`), if there is one."""
        self._worded()

    def say_devices(self, die: Callable[[], str], grid: Callable[[], str] | None) -> None:
        """How to word the die button's and the sensor grid's lines (None: the grid
        words its own line), in whatever language is spoken when they show."""
        self._say = {"die_status": die, "grid_status": grid}
        self._worded()

    def grid_words_itself(self) -> None:
        """A sensor grid is attached: its controller words the grid's line from now on."""
        self._say["grid_status"] = None

    def offer_resume(self, offer: Callable[[], str] | str | None) -> None:
        """The Resume offer (None: nothing to resume), or how to word it."""
        self._resume = (lambda: offer) if isinstance(offer, str) else offer
        self.can_resume = offer is not None
        self.resume_text = self._resume() if self._resume is not None else _(RESUME)

    _on_table = False
    """Whether a game is on the table (`refresh`), rather than none (`clear`)."""

    def on_can_resume(self, *_args: Any) -> None:
        """The Resume offer came or went (it is made at start-up, from the saved games,
        after the first frame's text): the line above the buttons agrees with it."""
        if not self._on_table:
            self.game_text = self._no_game_text()
        self.on_resume_text()

    def on_resume_text(self, *_args: Any) -> None:
        offer = self.resume_text if self.can_resume else ""
        self.resume_button = _(RESUME) if offer in ("", RESUME) else offer

    def _no_game_text(self) -> str:
        return _(SAVED_GAME) if self.can_resume else _(NO_GAME)

    def _worded(self) -> None:
        """The texts that follow no state, in the language spoken now."""
        for name, words in (("die_status", NO_DIE), ("grid_status", NO_GRID)):
            say = self._say.get(name)
            if say is not None:
                setattr(self, name, say())
            elif getattr(self, name) == self._defaults[name]:  # no device has worded it
                self._defaults[name] = _(words)
                setattr(self, name, self._defaults[name])
        if self._going is not None:
            self.power_text = _(GOING[self._going])
        self.language_text = i18n.NAMES[i18n.language()]
        if self._resume is not None:
            self.resume_text = self._resume()
        self.on_resume_text()
        if not self._on_table:
            self.game_text = self._no_game_text()

    def update(self, state: GameState | None) -> None:
        """A new state, or the same one in another language: every text worded again."""
        self._worded()
        super().update(state)

    def refresh(self, state: GameState) -> None:
        self._on_table = True
        names = ", ".join(p.name for p in state.players)
        if state.is_over:
            self.game_text = _("Finished: {names}.").format(names=names)
        else:
            track = state.track
            self.game_text = _("On the table: {names}, turn {turn} of {turns}.").format(
                names=names, turn=track.turn, turns=track.turns)

    def clear(self) -> None:
        self._on_table = False
        self.game_text = self._no_game_text()

    def do(self, action: Action) -> None:
        match action:
            case Action.NEW_GAME:
                names = [p.name for p in self.state.players] if self.state is not None else None
                presenter = self.ctx.presenters.get("new_game")
                if presenter is not None:
                    presenter.reset(names)
                self.go("new_game")
            case Action.CONTINUE:
                state = self.state
                self.go("game_end" if state is not None and state.is_over else "table")
            case Action.RESUME:
                self.resume()
            case Action.HISTORY:
                self.go("history")
            case Action.SETTINGS:
                self.go("settings")
            case Action.LANGUAGE:
                self.choose_language()
            case _:
                assert_never(action)

    def resume(self) -> None:
        if self.ctx.on_resume is None or not self.can_resume:
            self.ctx.notices.tell(_("There is no saved game to resume."), _("Resume"))
            return
        self.ctx.on_resume()

    def choose_language(self) -> None:
        """Offer the languages, each in its own words; the one chosen is saved and spoken
        at once (by the settings presenter, which writes ``companion.toml``)."""
        self.ctx.notices.choose(Choice(
            _("Language"), language_choices(),
            lambda code: self.ctx.presenters["settings"].set_language(code),
            text=_("The table speaks this language from now on.")))

    def switch_off(self, action: str) -> bool:
        """Power the table off ("poweroff") or restart it ("reboot"); True once the system
        has accepted. The saved games are closed only then; a refusal is shown in one
        line and changes nothing."""
        if not self.can_switch_off or action not in GOING:
            return False
        try:
            system_actions.switch_off(action)
        except system_actions.ActionFailed as failed:
            from companion.ui.wording import say  # the rules' words: not on the first frame

            self._going = None
            self.power_text = say(failed)
            return False
        self._going = action
        self.power_text = _(GOING[action])
        store = self.session.records
        if store is not None:
            store.close()
        if self.on_switched_off is not None:
            self.on_switched_off()
        return True
