"""The reinforcement die: the roll the rules allow now, from the screen or the hardware button.

Which roll the moment allows is the rules' (`die.die_roll_allowed`, through
`Session.die_chance`): Berserk's roll before a conquest, or the final conquest (its region
chosen on the map first); when the rules allow none, the roll button is disabled and the
hint says why in one line. The face is drawn and saved by the session before anything moves
on screen; the animation only shows a result that is already recorded (`rolls` counts the
rolls so the screen knows when to animate, and calls `land` when it stops, which words the
outcome). The table hears the die start rolling and land (`Cue.DIE_ROLL`, then
`Cue.DIE_FACE` or `Cue.DIE_BLANK`), once per roll. A final conquest names its region and
the tokens left first; the session rolls and records the outcome in one step. A roll is
never undone nor repeated.
"""

from __future__ import annotations

from enum import StrEnum
from typing import assert_never

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.cues import Cue
from companion.i18n import N_, _, ngettext
from companion.rules import DieChance, DiePurpose, GameState
from companion.session import FinalAttempt
from companion.ui.presenters.base import Context, Presenter
from companion.ui.presenters.intents import known
from companion.ui.wording import say

TITLE = N_("The reinforcement die")
ROLL_DIE = N_("Roll the die")
ROLL_TEXT: dict[DiePurpose, str] = {DiePurpose.BERSERK: N_("Roll for Berserk"),
             DiePurpose.FINAL_CONQUEST: N_("Choose the region on the map"),
             DiePurpose.UNRECORDED: ROLL_DIE}
"""What the roll button says for each roll the rules may allow (translated where shown)."""


class Action(StrEnum):
    """The die screen's buttons (the values are their keys)."""

    ROLL = "roll"
    BACK = "back"


def parse(key: str) -> Action:
    """The die screen's action for `key`; `UnknownAction` when it has none."""
    return known("die", key, Action)


class DiePresenter(Presenter, parse=parse):
    title = StringProperty(TITLE)
    hint = StringProperty("")
    face = NumericProperty(-1)
    """The face rolled last (-1: not rolled on this screen yet)."""
    rolls = NumericProperty(0)
    landed = BooleanProperty(True)
    result_text = StringProperty("")
    mode = StringProperty("plain")
    """"plain" (no roll shown), "berserk" or "final" (the roll shown is for that)."""
    can_roll = BooleanProperty(False)
    roll_kind = StringProperty("dimmed")
    roll_text = StringProperty(ROLL_DIE)
    reason = StringProperty("")
    """Why no roll is allowed now (one line), or "" when one is."""
    succeeded = BooleanProperty(False)

    def __init__(self, ctx: Context, **kwargs: object) -> None:
        self._attempt: FinalAttempt | None = None
        self._winner = ""
        self._game: object = None
        super().__init__(ctx, **kwargs)

    def _same_game(self) -> None:
        """Another game than the one last seen (another table's session, or another game in
        this one): forget that game's last roll."""
        history = self.session.history
        game = (self.session, history.log[0] if history is not None else None)
        if not isinstance(self._game, tuple) or any(
                a is not b for a, b in zip(game, self._game, strict=True)):
            self._game, self._attempt, self.mode, self.title = game, None, "plain", _(TITLE)
            self.face, self.result_text, self.landed, self.succeeded = -1, "", True, False

    def refresh(self, state: GameState) -> None:
        self._same_game()
        chance = self.session.die_chance()
        self.can_roll = chance.allowed
        self.reason = "" if chance.allowed else say(chance.reason)
        self.roll_kind = "primary" if chance.allowed else "dimmed"
        self.roll_text = _(ROLL_DIE if chance.purpose is None else ROLL_TEXT[chance.purpose])
        self._reword()
        if self.mode == "final":
            return
        self.hint = self._hint(chance)

    def _reword(self, result: bool = True) -> None:
        """The title and hint of the roll on show (and its outcome, with `result`), in the
        language spoken now."""
        attempt = self._attempt
        if self.mode == "final" and attempt is not None:
            self.title = _("Final conquest of region {region}").format(region=attempt.region)
            short = attempt.cost - attempt.tokens_left
            self.hint = (ngettext(
                "{n} token left against a cost of {cost}: the die must show {short} or more.",
                "{n} tokens left against a cost of {cost}: the die must show {short} or more.",
                attempt.tokens_left) if short > 0 else ngettext(
                "{n} token left against a cost of {cost}: enough even without the die.",
                "{n} tokens left against a cost of {cost}: enough even without the die.",
                attempt.tokens_left)).format(n=attempt.tokens_left, cost=attempt.cost,
                                             short=short)
        elif self.mode == "berserk":
            self.title = _("Berserk roll")
            self.hint = _("The face comes off the cost of the next conquest, and only that "
                          "one.")
        else:
            self.title = _(TITLE)
        if not result or self.mode == "plain" or int(self.face) < 0:
            return
        self.result_text = self._outcome() if self.landed else _("Rolling...")

    def _outcome(self) -> str:
        """What the face on show means, in words."""
        face = int(self.face)
        if self.mode == "final" and self._attempt is not None:
            return final_outcome(self._attempt, self._winner)
        if self.mode == "berserk":
            return berserk_outcome(face)
        return _("Rolled {face}.").format(face=face)

    @staticmethod
    def _hint(chance: DieChance) -> str:
        if chance.purpose is DiePurpose.BERSERK:
            return _("{reason} The face comes off that conquest's cost (a blank: "
                     "nothing).").format(reason=say(chance.reason))
        if chance.purpose is DiePurpose.FINAL_CONQUEST:
            return _("{reason} Tap the region on the map, then \"Last conquest: try with "
                     "the die\".").format(reason=say(chance.reason))
        return say(chance.reason)

    # -- intents -------------------------------------------------------------------------
    def do(self, action: Action) -> None:
        match action:
            case Action.ROLL:
                self.roll()
            case Action.BACK:
                self.back()
            case _:
                assert_never(action)

    def roll(self) -> None:
        """The roll button: the roll the rules allow now (saved first, then shown)."""
        self._same_game()  # before the roll: a refresh after it keeps it on show
        chance = self.session.die_chance()
        if chance.purpose is DiePurpose.FINAL_CONQUEST:
            self.go("map")  # the region is chosen before the roll
            return
        if chance.purpose is None:
            self.ctx.notices.tell(say(chance.reason), _("No roll now"))
            return
        face = self.attempt(self.session.roll_for_berserk, _("No roll now"))
        if face is None:
            return
        self.mode = "berserk"
        self._attempt = None
        self._reword(result=False)
        self._start(face)

    def roll_from_button(self) -> None:
        """The hardware die button (called on the UI thread): the roll the rules allow now.

        No roll allowed: only the reason is shown (never a roll). Berserk: the roll, on the
        die screen. The final conquest: the roll for the region chosen on the map, if one
        is chosen and the map offers the attempt; else the map, to choose it first.
        """
        chance = self.session.die_chance()
        if chance.purpose is None:
            self.ctx.notices.tell(say(chance.reason), _("No roll now"))
            return
        if not self.landed:  # a roll is still tumbling
            return
        if chance.purpose is DiePurpose.BERSERK:
            self.go("die")
            self.roll()
            return
        board = self.ctx.presenters.get("map")
        if (board is not None and board.selected is not None and self.ctx.nav.current == "map"
                and any(action.get("key") == "final" for action in board.actions)):
            self.start_final(int(board.selected), int(board.tokens_left))
            return
        self.go("map")
        self.ctx.notices.tell(_("Tap the region for the final conquest on the map first; "
                                "then press the die button again."), _("Choose the region"))

    def start_final(self, region: int, tokens_left: int) -> None:
        """The final conquest of `region` with `tokens_left` tokens and the die."""
        self._same_game()  # before the roll: a refresh after it keeps it on show
        state = self.state
        winner = state.current.name if state is not None else ""
        attempt = self.attempt(lambda: self.session.attempt_final_conquest(region, tokens_left))
        if attempt is None:
            return
        self.mode = "final"
        self._attempt = attempt
        self._winner = winner
        self._reword(result=False)
        self.go("die")
        self._start(attempt.face)

    def _start(self, face: int) -> None:
        self.face = face
        self.result_text = _("Rolling...")
        self.succeeded = False
        self.landed = False
        self.rolls += 1
        self.ctx.cues.play(Cue.DIE_ROLL)

    def land(self) -> None:
        """The animation stopped: say what the (already saved) face means, in words. An
        animation that stops after its game was left (no face on show) says nothing."""
        if int(self.face) < 0:
            self.landed = True
            return
        tumbling, self.landed = not self.landed, True
        attempt = self._attempt
        face = int(self.face)
        if tumbling:  # heard once per roll
            self.ctx.cues.play(Cue.DIE_BLANK if face == 0 else Cue.DIE_FACE)
        self.succeeded = self.mode == "final" and attempt is not None and attempt.succeeded
        self.result_text = self._outcome()

    def back(self) -> None:
        self.mode = "plain"
        self._attempt = None
        self.title = _(TITLE)
        if self.state is not None:
            self.refresh(self.state)
        self.go("table")


def final_outcome(attempt: FinalAttempt, winner: str) -> str:
    """The final conquest's roll in words: the sum, and whether the region was taken."""
    total = attempt.tokens_left + attempt.face
    if attempt.succeeded:
        return _("Rolled {face}: {left} + {face} = {total}, enough: region {region} is "
                 "{name}'s. Conquests are over for this turn.").format(
            face=attempt.face, left=attempt.tokens_left, total=total, region=attempt.region,
            name=winner)
    return _("Rolled {face}: {left} + {face} = {total}, short of {cost}: region {region} "
             "stays as it is. Put the tokens back in one of your regions; conquests are "
             "over.").format(face=attempt.face, left=attempt.tokens_left, total=total,
                             cost=attempt.cost, region=attempt.region)


def berserk_outcome(face: int) -> str:
    """A Berserk roll in words: what the next conquest costs."""
    if face == 0:
        return _("Rolled a blank: the next conquest costs the usual number of tokens.")
    return ngettext("Rolled {face}: the next conquest costs {n} token less.",
                    "Rolled {face}: the next conquest costs {n} tokens less.", face).format(
        face=face, n=face)

