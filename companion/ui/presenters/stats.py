"""Stats: each saved player's record and each combo's, over the finished games.

Per player: games, wins, average and best final score, best single turn, favourite combo
(picked most) and most successful combo (most coins per pick). Per combo: picks, games,
wins of the players who picked it, and coins per pick. All from `Store.all_player_stats`
and `Store.combo_stats`, read when the screen opens; finished games only, so nothing of
the game being played shows here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, OptionProperty, StringProperty

from companion.records import ComboTally, PlayerStats, RecordsError
from companion.ui import palette
from companion.ui.describe import coins
from companion.ui.presenters.base import Presenter
from companion.ui.presenters.intents import UnknownAction, allowed, member


def _number(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _times(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def player_lines(stats: PlayerStats) -> list[str]:
    """A player's record in words, one line each."""
    if not stats.games:
        return ["No finished game yet."]
    lines = [f"{_times(stats.games, 'game')}, {_times(stats.wins, 'win')}"]
    if stats.average_score is not None and stats.best_score is not None:
        lines.append(f"Final coins: {_number(stats.average_score)} on average, "
                     f"best {stats.best_score}")
    if stats.best_turn is not None:
        lines.append(f"Best single turn: {coins(stats.best_turn)}")
    if stats.favourite_combo is not None:
        fav = stats.favourite_combo
        lines.append(f"Favourite combo: {fav.name} ({_times(fav.picks, 'pick')})")
    if stats.most_successful_combo is not None and stats.most_successful_combo.counted:
        best = stats.most_successful_combo
        lines.append(f"Most successful: {best.name} "
                     f"({_number(best.average)} coins a pick)")
    return lines


NOT_SPLIT = "coins not split by race (scored as a total beside a race in decline)"
"""Said of a pick whose coins cannot be told apart from its player's race in decline."""


def combo_line(tally: ComboTally) -> str:
    """A combo's record in words: coins are its race's own, active and in decline; picks
    whose coins cannot be split by race are said, not counted."""
    picks = f"{_times(tally.picks, 'pick')} in {_times(tally.games, 'game')}"
    if not tally.counted:
        earned = NOT_SPLIT
    else:
        earned = f"{_number(tally.average)} coins a pick (best {tally.best})"
        if tally.unsplit:
            earned += f"; {tally.unsplit} of the picks not counted: {NOT_SPLIT}"
    return f"{picks}, {earned}, {_times(tally.wins, 'win')}"


class Action(StrEnum):
    """The stats screen's buttons (the values are their keys)."""

    PLAYERS = "players"
    COMBOS = "combos"
    HISTORY = "history"
    BACK = "back"


def parse(key: str) -> Action:
    """The stats screen's action for `key`; `UnknownAction` when it has none."""
    action = member(Action, key)
    if action is None:
        raise UnknownAction("stats", key, allowed(Action))
    return action


class StatsPresenter(Presenter):
    mode = OptionProperty("players", options=["players", "combos"])
    players = ListProperty([])
    """Dicts {name, rgba, ink, text}: one card per saved player, most wins first."""
    combos = ListProperty([])
    """Dicts {name, text}: one row per combo picked, best average first."""
    empty = BooleanProperty(True)
    empty_text = StringProperty("")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._failed = ""
        super().__init__(*args, **kwargs)

    def load(self) -> None:
        """Read the stats from the store (when the screen opens)."""
        store = self.session.records
        players: list[dict[str, Any]] = []
        combos: list[dict[str, Any]] = []
        self._failed = ""
        if store is not None:
            try:
                stats = store.all_player_stats()
                tallies = store.combo_stats()
                colours = {p.id: p.colour for p in store.profiles()}
            except RecordsError as failed:
                self._failed = f"The stats cannot be read: {failed}"
                stats, tallies, colours = [], [], {}
            stats.sort(key=lambda s: (-s.wins, -s.games, s.name.casefold()))
            for record in stats:
                colour = palette.rgba(colours.get(record.player_id, ""))
                players.append({"name": record.name, "rgba": colour,
                                "ink": palette.ink_on(colour),
                                "text": "\n".join(player_lines(record))})
            combos = [{"name": t.name, "text": combo_line(t)} for t in tallies]
        self.players = players
        self.combos = combos
        self._empty()

    def _empty(self) -> None:
        if self.session.records is None or self._failed:
            self.empty = True
            self.empty_text = (self._failed
                               or "Games are not being saved, so there are no stats.")
            return
        if self.mode == "players":
            self.empty = not self.players
            self.empty_text = ("No saved players yet. Players typed in a new game are saved, "
                               "and their finished games count here.")
        else:
            self.empty = not self.combos
            self.empty_text = "No finished game yet, so no combo has a record."

    def act(self, key: str) -> None:
        self.do(parse(key))

    def do(self, action: Action) -> None:
        match action:
            case Action.PLAYERS | Action.COMBOS:
                self.mode = action.value
                self._empty()
            case Action.HISTORY:
                self.go("history")
            case Action.BACK:
                self.go("home")
            case _:
                assert_never(action)
