"""The reinforcement die: a roll on screen or from the hardware button, and the final conquest.

The face is drawn and saved by the session before anything moves on screen; the animation
only shows a result that is already recorded (`rolls` counts the rolls so the screen knows
when to animate, and calls `land` when it stops). A final conquest names its region and the
tokens left first; the session rolls and records the outcome in one step.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.rules.game import BERSERK, GameState
from companion.rules.turns import Phase
from companion.session import FinalAttempt
from companion.ui.describe import tokens
from companion.ui.presenters.base import Context, Presenter

FACE_WORDS = {0: "a blank face: no extra tokens", 1: "1 extra token", 2: "2 extra tokens",
              3: "3 extra tokens"}


class DiePresenter(Presenter):
    title = StringProperty("The reinforcement die")
    hint = StringProperty("")
    face = NumericProperty(-1)
    """The face rolled last (-1: not rolled on this screen yet)."""
    rolls = NumericProperty(0)
    landed = BooleanProperty(True)
    result_text = StringProperty("")
    mode = StringProperty("plain")
    can_roll = BooleanProperty(False)
    roll_kind = StringProperty("dimmed")
    succeeded = BooleanProperty(False)

    def __init__(self, ctx: Context, **kwargs: object) -> None:
        self._attempt: FinalAttempt | None = None
        self._game: object = None
        super().__init__(ctx, **kwargs)

    def refresh(self, state: GameState) -> None:
        history = self.session.history
        game = history.log[0] if history is not None else None
        if game is not self._game:  # another game: forget this one's last roll
            self._game, self._attempt, self.mode = game, None, "plain"
            self.face, self.result_text, self.landed, self.succeeded = -1, "", True, False
        self.can_roll = state.track.phase is Phase.CONQUER and not state.is_over
        self.roll_kind = "primary" if self.can_roll else "dimmed"
        if self.mode == "final":
            return
        name = state.current.name
        if self.can_roll:
            self.hint = (f"{name} rolls for a last conquest (or for Berserk). A blank face adds "
                         "nothing; 1, 2 or 3 add that many tokens.")
        else:
            self.hint = "The die is rolled during conquests."

    # -- intents -------------------------------------------------------------------------
    def act(self, key: str) -> None:
        if key == "roll":
            self.roll()
        elif key == "back":
            self.back()

    def roll(self) -> None:
        """Roll for the current player: saved first, then shown."""
        face = self.attempt(self.session.roll_die, "Not now")
        if face is None:
            return
        self.mode = "plain"
        self._attempt = None
        self.title = "The reinforcement die"
        self._start(face)

    def roll_from_button(self) -> None:
        """The hardware die button (called on the UI thread)."""
        self.go("die")
        if self.landed:
            self.roll()

    def start_final(self, region: int, tokens_left: int) -> None:
        """The final conquest of `region` with `tokens_left` tokens and the die."""
        attempt = self.attempt(lambda: self.session.attempt_final_conquest(region, tokens_left))
        if attempt is None:
            return
        self.mode = "final"
        self._attempt = attempt
        self.title = f"Final conquest of region {region}"
        self.hint = (f"{tokens(attempt.tokens_left)} left against a cost of {attempt.cost}: "
                     f"the die must show {attempt.cost - attempt.tokens_left} or more.")
        self.go("die")
        self._start(attempt.face)

    def _start(self, face: int) -> None:
        self.face = face
        self.result_text = "Rolling..."
        self.landed = False
        self.rolls += 1

    def land(self) -> None:
        """The animation stopped: say what the (already saved) face means."""
        self.landed = True
        attempt = self._attempt
        if self.mode == "final" and attempt is not None:
            total = attempt.tokens_left + attempt.face
            self.succeeded = attempt.succeeded
            if attempt.succeeded:
                self.result_text = (f"Rolled {attempt.face}: {attempt.tokens_left} + "
                                    f"{attempt.face} = {total}, enough for {attempt.cost}. "
                                    f"Region {attempt.region} is conquered! Conquests are over "
                                    "for this turn.")
            else:
                self.result_text = (f"Rolled {attempt.face}: {attempt.tokens_left} + "
                                    f"{attempt.face} = {total}, short of {attempt.cost}. "
                                    f"Region {attempt.region} stays as it is; put the tokens "
                                    "back in one of your regions. Conquests are over.")
        else:
            self.succeeded = False
            self.result_text = f"Rolled {FACE_WORDS.get(int(self.face), str(int(self.face)))}."
            state = self.state
            if state is not None and state.last_roll is not None and not state.is_over:
                active = state.current.active
                if active is not None and active.power == BERSERK:
                    off = tokens(state.last_roll) if state.last_roll else "nothing"
                    self.result_text += f" Berserk: {off} off the cost of the next conquest."

    def back(self) -> None:
        self.mode = "plain"
        self._attempt = None
        if self.state is not None:
            self.refresh(self.state)
        self.go("table")
