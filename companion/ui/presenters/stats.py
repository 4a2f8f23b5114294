"""Stats: each saved player's record and each combo's, over the finished games.

Per player: games, wins, average and best final score, best single turn, favourite combo
(picked most) and most successful combo (most coins per pick). Per combo: picks, games,
wins of the players who picked it, and coins per pick. All from `Store.all_player_stats`
and `Store.combo_stats`, read when the screen opens; finished games only, so nothing of
the game being played shows here.

Every line is worded in the language spoken (`companion.i18n`) when the stats are read
(each time the screen opens), numbers with its decimal separator.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, OptionProperty, StringProperty

from companion.i18n import N_, _, ngettext, pgettext
from companion.records import ComboTally, PlayerStats, RecordsError
from companion.ui import names, palette
from companion.ui.presenters.base import Presenter
from companion.ui.presenters.history import coins
from companion.ui.presenters.intents import known
from companion.ui.wording import say


def _number(value: float) -> str:
    """`value` to a tenth ("2.5"; "3", not "3.0"), with the language's decimal separator."""
    return f"{value:.1f}".removesuffix(".0").replace(
        ".", pgettext("decimal separator", "."))


def _games(n: int) -> str:
    return ngettext("{count} game", "{count} games", n).format(count=n)


def _wins(n: int) -> str:
    return ngettext("{count} win", "{count} wins", n).format(count=n)


def _picks(n: int) -> str:
    return ngettext("{count} pick", "{count} picks", n).format(count=n)


def player_lines(stats: PlayerStats) -> list[str]:
    """A player's record in words, one line each."""
    if not stats.games:
        return [_("No finished game yet.")]
    lines = [_("{games}, {wins}").format(games=_games(stats.games), wins=_wins(stats.wins))]
    if stats.average_score is not None and stats.best_score is not None:
        lines.append(_("Final coins: {average} on average, best {best}").format(
            average=_number(stats.average_score), best=stats.best_score))
    if stats.best_turn is not None:
        lines.append(_("Best single turn: {coins}").format(coins=coins(stats.best_turn)))
    if stats.favourite_combo is not None:
        fav = stats.favourite_combo
        lines.append(_("Favourite combo: {combo} ({picks})").format(
            combo=names.combo(fav.power, fav.race), picks=_picks(fav.picks)))
    if stats.most_successful_combo is not None and stats.most_successful_combo.counted:
        best = stats.most_successful_combo
        lines.append(_("Most successful: {combo} ({average} coins a pick)").format(
            combo=names.combo(best.power, best.race), average=_number(best.average)))
    return lines


NOT_SPLIT = N_("coins not split by race (scored as a total beside a race in decline)")
"""Said of a pick whose coins cannot be told apart from its player's race in decline."""


def combo_line(tally: ComboTally) -> str:
    """A combo's record in words: coins are its race's own, active and in decline; picks
    whose coins cannot be split by race are said, not counted."""
    picks = _("{picks} in {games}").format(picks=_picks(tally.picks),
                                           games=_games(tally.games))
    if not tally.counted:
        earned = _(NOT_SPLIT)
    elif tally.unsplit:
        earned = _("{average} coins a pick (best {best}); {count} of the picks not counted: "
                   "{why}").format(average=_number(tally.average), best=tally.best,
                                   count=tally.unsplit, why=_(NOT_SPLIT))
    else:
        earned = _("{average} coins a pick (best {best})").format(
            average=_number(tally.average), best=tally.best)
    return _("{picks}, {coins}, {wins}").format(picks=picks, coins=earned,
                                               wins=_wins(tally.wins))


class Action(StrEnum):
    """The stats screen's buttons (the values are their keys)."""

    PLAYERS = "players"
    COMBOS = "combos"
    HISTORY = "history"
    BACK = "back"


def parse(key: str) -> Action:
    """The stats screen's action for `key`; `UnknownAction` when it has none."""
    return known("stats", key, Action)


class StatsPresenter(Presenter, parse=parse):
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
                self._failed = _("The stats cannot be read: {reason}").format(reason=say(failed))
                stats, tallies, colours = [], [], {}
            stats.sort(key=lambda s: (-s.wins, -s.games, s.name.casefold()))
            for record in stats:
                colour = palette.rgba(colours.get(record.player_id, ""))
                players.append({"name": record.name, "rgba": colour,
                                "ink": palette.ink_on(colour),
                                "text": "\n".join(player_lines(record))})
            combos = [{"name": names.combo(t.power, t.race), "text": combo_line(t)}
                      for t in tallies]
        self.players = players
        self.combos = combos
        self._empty()

    def _empty(self) -> None:
        if self.session.records is None or self._failed:
            self.empty = True
            self.empty_text = (self._failed
                               or _("Games are not being saved, so there are no stats."))
            return
        if self.mode == "players":
            self.empty = not self.players
            self.empty_text = _("No saved players yet. Players typed in a new game are "
                                "saved, and their finished games count here.")
        else:
            self.empty = not self.combos
            self.empty_text = _("No finished game yet, so no combo has a record.")

    def forget(self) -> None:
        self.mode = "players"

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
