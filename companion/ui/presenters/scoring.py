"""Scoring the turn: the breakdown from the board, line by line, or a count by hand.

The lines come from `income.income(state)`; they are public (everybody sees the regions).
The player's purse total is never shown here. A board the rules cannot score (an expansion
race, say) says so and leaves the count by hand.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.rules.errors import RulesError
from companion.rules.game import GameState
from companion.rules.income import income
from companion.rules.turns import Phase
from companion.ui.describe import coins
from companion.ui.presenters.base import Presenter, plain


class ScoringPresenter(Presenter):
    title = StringProperty("Score the turn")
    hint = StringProperty("")
    lines = ListProperty([])
    total_text = StringProperty("")
    can_score = BooleanProperty(False)
    board_ok = BooleanProperty(True)
    quick = BooleanProperty(False)
    quick_coins = NumericProperty(0)
    score_text = StringProperty("Score")
    quick_text = StringProperty("Score 0 coins")

    def refresh(self, state: GameState) -> None:
        name = state.current.name
        self.can_score = state.track.phase is Phase.SCORE and not state.is_over
        self.title = f"{name} scores the turn"
        try:
            earned = income(state)
        except RulesError as refused:
            self.board_ok = False
            self.lines = []
            self.total_text = ""
            self.quick = True
            self.hint = ("The app cannot work this turn out from the map: "
                         f"{plain(str(refused))} Count the coins by hand.")
        else:
            self.board_ok = True
            self.lines = [{"label": line.label, "coins": f"+{line.coins}"}
                          for line in earned.lines]
            self.total_text = f"This turn: {coins(earned.total)}"
            self.score_text = f"Score {coins(earned.total)}"
            self.hint = ("Worked out from the map. Check it against the board, then score. "
                         "If the map is not up to date, count by hand.")
        if not self.can_score:
            self.hint = "Scoring comes after the redeployment. " + phase_note(state)
        self.quick_text = f"Score {coins(int(self.quick_coins))}"

    def on_quick_coins(self, *_args: object) -> None:
        self.quick_text = f"Score {coins(int(self.quick_coins))}"

    def act(self, key: str) -> None:
        if key == "score":
            self.score_board()
        elif key == "quick":
            self.quick = True
        elif key == "board":
            self.quick = False
        elif key == "score_quick":
            self.score_quick()
        elif key == "back":
            self.go("table")

    def set_quick(self, value: int) -> None:
        self.quick_coins = max(0, int(value))

    def score_board(self) -> None:
        if self.attempt(self.session.score) is not None:
            self._done()

    def score_quick(self) -> None:
        amount = int(self.quick_coins)
        if self.attempt(lambda: self.session.score(coins=amount)) is not None:
            self._done()

    def _done(self) -> None:
        self.quick = False
        self.quick_coins = 0
        self.go("table")


def phase_note(state: GameState) -> str:
    return f"The turn is at: {state.track.phase.value}."
