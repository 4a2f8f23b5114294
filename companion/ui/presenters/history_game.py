"""One finished game: standings, the tie-break, each player's turns and combos, the chart.

The chart is the game end's (`game_end.coins_by_turn`): each player's coins at the end of
every turn, replayed from the saved game's events. Export writes the game as JSON, CSV or
a BG Stats play into the user's data directory and says where.

Every text is worded in the language spoken (`companion.i18n`) when the game is loaded
(each time the screen is opened); the files exported are never worded.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import ListProperty, StringProperty

from companion import bgstats
from companion.i18n import N_, _
from companion.records import ComboPlayed, GameSummary, RecordsError, minutes
from companion.ui import names as shown_names
from companion.ui import palette
from companion.ui.describe import on_the_board
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.game_end import ChartOrCode
from companion.ui.presenters.history import (
    EXPORT_FORMATS,
    board_name,
    board_words,
    coins,
    export_dir,
    when,
    winner_words,
    write_exports,
)
from companion.ui.presenters.intents import known
from companion.ui.wording import say


def expansions_words(summary: GameSummary, names: dict[str, str]) -> str:
    sets = [shown_names.expansion(ident, names.get(ident, ident))
            for ident in summary.game.expansions]
    if not sets:
        return _("Decks: the base game")
    return _("Decks: {sets}").format(sets=", ".join(sets))


class Action(StrEnum):
    """The buttons of a past game's screen (the values are their keys)."""

    EXPORT = "export"
    BACK = "back"


def parse(key: str) -> Action:
    """The history_game screen's action for `key`; `UnknownAction` when it has none."""
    return known("history_game", key, Action)


def combo_words(combo: ComboPlayed) -> str:
    """A combo picked and its race's own coins, active and in decline; said when they
    cannot be split from a race in decline's (a total typed without its lines)."""
    earned = coins(combo.coins) if combo.split else _("coins not split by race")
    return _("{combo} (turn {turn}, {coins})").format(
        combo=shown_names.combo(combo.power, combo.race), turn=combo.turn, coins=earned)


A_PAST_GAME = N_("A past game")
RANKS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th"), 5: N_("5th"), 6: N_("6th")}
"""A player's place in the standings, in words."""


class GameHistoryPresenter(ChartOrCode, Presenter, parse=parse):
    title = StringProperty(A_PAST_GAME)
    summary_text = StringProperty("")
    winner_text = StringProperty("")
    tie_text = StringProperty("")
    standings = ListProperty([])
    """Dicts {rank, name, coins, rgba, ink} by rank (ResultList rows)."""
    players = ListProperty([])
    """Dicts {name, rgba, ink, turns, combos} in seat order."""
    chart_note = StringProperty("")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.game_id: int | None = None
        super().__init__(*args, **kwargs)

    def load(self, game_id: int) -> bool:
        """Show the finished game `game_id`; False (and a message) when it cannot be read."""
        store = self.session.records
        if store is None:
            return False
        try:
            summary = store.game_summary(game_id)
        except RecordsError as failed:
            self.ctx.notices.tell(_("That game cannot be shown: {reason}").format(
                reason=say(failed)), _("Past games"))
            return False
        self.game_id = game_id
        game = summary.game
        names = dict(self.session.catalog.expansions)
        self.title = _("Game {number}: {date}").format(number=game.id,
                                                       date=when(summary.finished_at))
        board = board_words(game.board)
        self.summary_text = _("{board}, {turns} turns, {minutes} minutes. {decks}.").format(
            board=board[:1].upper() + board[1:], turns=game.turns, minutes=minutes(summary),
            decks=expansions_words(summary, names))
        self.winner_text = _("{winner}.").format(winner=winner_words(game))
        self.tie_text = (_("Tie-break: {rule}").format(rule=game.tie_break) if game.tie_break
                         else "")
        rows = []
        for seat in sorted(game.seats, key=lambda s: (s.rank or 99, s.seat)):
            colour = palette.rgba(seat.colour)
            rank = _(RANKS[seat.rank]) if seat.rank in RANKS else ""
            rows.append({"rank": rank, "name": seat.name, "coins": coins(seat.final_coins or 0),
                         "detail": "" if seat.tie_tokens is None
                         else on_the_board(seat.tie_tokens),
                         "rgba": colour, "ink": palette.ink_on(colour)})
        self.standings = rows
        players = []
        for seat in game.seats:
            colour = palette.rgba(seat.colour)
            income = ", ".join(str(n) for n in summary.income_of(seat.seat))
            picked = "; ".join(combo_words(c) for c in summary.combos_of(seat.seat))
            name = (_("{name} (started)").format(name=seat.name) if seat.start_player
                    else seat.name)
            players.append({"name": name, "rgba": colour,
                            "ink": palette.ink_on(colour),
                            "turns": _("Coins scored each turn: {coins}").format(coins=income),
                            "combos": (_("Combos: {combos}").format(combos=picked) if picked
                                       else _("Combos: none"))})
        self.players = players
        self._chart(game_id, summary)
        self._bgstats(summary)
        return True

    def _bgstats(self, summary: GameSummary) -> None:
        try:
            self.bgstats_url = bgstats.play_url(summary, board_name)
        except bgstats.NotAPlay:
            self.bgstats_url = ""
        self.side = "chart"

    def _chart(self, game_id: int, summary: GameSummary) -> None:
        store = self.session.records
        assert store is not None
        try:
            history = store.load_history(game_id)
        except RecordsError:
            self.chart_series, self.chart_turns = [], 0
            self.chart_note = _("This game's turns cannot be replayed, so there is no chart.")
            return
        self.show_chart(history, summary.game.seats)
        self.chart_note = _("Coins at the end of each turn")

    # -- intents ---------------------------------------------------------------------------
    def do(self, action: Action) -> None:
        match action:
            case Action.EXPORT:
                self.export()
            case Action.BACK:
                self.go("history")
            case _:
                assert_never(action)

    def export(self) -> None:
        choices = [("all", _("All three files"))] + [
            (fmt, _(words)) for fmt, words, _ending in EXPORT_FORMATS]
        self.ctx.notices.choose(Choice(_("Export this game"), choices, self._export,
                                       text=_("The files go to {folder}.").format(
                                           folder=export_dir())))

    def _export(self, key: str) -> None:
        store = self.session.records
        if store is None or self.game_id is None:
            return
        formats = [fmt for fmt, _words, _ending in EXPORT_FORMATS] if key == "all" else [key]
        try:
            written = write_exports(store, [self.game_id], formats)
        except (RecordsError, OSError) as failed:
            self.ctx.notices.tell(_("The export could not be written: {reason}").format(
                reason=say(failed)), _("Not exported"))
            return
        self.ctx.notices.tell(_("Saved in {folder}: {files}.").format(
            folder=export_dir(), files=", ".join(path.name for path in written)), _("Exported"))
