"""The end of the game: every total revealed in turn, the tie-break, and the coins chart.

Totals are read only here and only once the game is over (`views.final_totals`). They are
revealed one by one from the fewest coins up, so the winner comes last; each reveal is
heard (`Cue.REVEAL`, and `Cue.WINNER` for the last). A tie for the most
coins asks for the race tokens on the board of the tied players (prefilled from the map when
it knows them) and the rules decide (`game_standings`, which asks the game's expansions
first; who counts tokens is `tied_for_first`'s); the session saves that result in the
history of finished games (`Session.finish`). The chart shows each player's coins at the
end of every game turn, replayed from the game's history. An expansion's view may reveal a
seat it plays itself first or last (`reveal_group`), and show its own standings rows and
caption (`standings`).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, assert_never

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion import bgstats, story
from companion.cues import Cue
from companion.i18n import N_, _, ngettext
from companion.records import GameSummary, RecordsError
from companion.rules import (
    GameState,
    RulesError,
    final_totals,
    game_standings,
    tied_for_first,
    tokens_on_board,
)
from companion.ui import names as shown_names
from companion.ui import palette
from companion.ui.describe import coins, on_the_board
from companion.ui.presenters import expansions
from companion.ui.presenters.base import Presenter, plain
from companion.ui.presenters.history import board_name
from companion.ui.presenters.intents import known
from companion.ui.wording import say

ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th"), 5: N_("5th"),
            6: N_("6th")}
"""A placing in words (marked here, translated where shown)."""
NOT_OVER = N_("The game is not over yet.")
REVEAL_ONE_BY_ONE = N_("Everybody's coins, one at a time, from the fewest to the most. "
                       "Tap to reveal the next.")
TIE = N_("A tie for the most coins: the tied player with more race tokens on the board "
         "wins. Count them and enter the counts.")
FINAL_STANDINGS = N_("The final standings.")


def placing_text(rank: int) -> str:
    """A placing in words ("1st"), in the language spoken now; past the sixth, its number."""
    word = ORDINALS.get(rank)
    return _(word) if word is not None else str(rank)


def coins_by_turn(session_history: Any) -> tuple[int, list[list[int]]]:
    """(turns, per seat: coins at the start and at the end of each game turn)."""
    states = session_history.states
    first = states[0]
    turns = first.track.turns
    series = [[p.coins] + [p.coins] * turns for p in first.players]
    for state in states:
        turn = state.track.turn
        for p in state.players:
            for t in range(turn, turns + 1):
                series[p.seat][t] = p.coins
    return turns, series


def reveal_group(state: GameState, seat: int) -> int:
    """When `seat`'s coins are revealed: 1 among everybody, unless an expansion says 0
    (first) or 2 (last) for a seat it plays itself."""
    return next((group for view in expansions.played(state)
                 if (group := view.reveal_group(state, seat)) is not None), 1)


class Action(StrEnum):
    """The end screen's buttons (the values are their keys)."""

    REVEAL = "reveal"
    DECIDE = "decide"
    EXPORT = "export"
    NEW_GAME = "new_game"
    HOME = "home"


def parse(key: str) -> Action:
    """The game_end screen's action for `key`; `UnknownAction` when it has none."""
    return known("game_end", key, Action)


class ChartOrCode(EventDispatcher):  # type: ignore[misc]
    """A finished game's right-hand side, for a presenter to inherit beside `Presenter`:
    the coins chart, or the QR code of BG Stats' create-play link of the game
    (`bgstats_url`, "" when it is not a play)."""

    chart_series = ListProperty([])
    chart_turns = NumericProperty(0)
    bgstats_url = StringProperty("")
    side = StringProperty("chart")
    """What the right-hand side shows: "chart" (the coins chart) or "bgstats" (the QR code
    of `bgstats_url`)."""
    qr_shown = BooleanProperty(False)
    """Whether `side` is "bgstats" (the QR code shows; the kv's texts follow it)."""

    def on_side(self, *_args: Any) -> None:
        self.qr_shown = self.side == "bgstats"

    def show_side(self, side: str) -> None:
        """Show the coins chart ("chart") or the BG Stats QR code ("bgstats", when the game
        has a link)."""
        self.side = "bgstats" if side == "bgstats" and self.bgstats_url else "chart"

    def show_chart(self, history: Any, seats: Iterable[Any]) -> None:
        """The coins chart of `history`'s game: a line a seat (its name, colour and seat)."""
        self.chart_turns, series = coins_by_turn(history)
        self.chart_series = [{"name": s.name, "rgba": palette.rgba(s.colour),
                              "values": series[s.seat]} for s in seats]


class GameEndPresenter(ChartOrCode, Presenter, parse=parse):
    title = StringProperty(N_("The game is over"))
    hint = StringProperty("")
    revealed = ListProperty([])
    revealed_count = NumericProperty(0)
    all_revealed = BooleanProperty(False)
    reveal_text = StringProperty(N_("Reveal the next total"))
    tie_rows = ListProperty([])
    needs_tiebreak = BooleanProperty(False)
    can_export = BooleanProperty(False)  # once the standings are saved with the game
    winner_text = StringProperty("")
    standings = ListProperty([])
    over = BooleanProperty(False)
    story_rows = ListProperty([])
    """The game's story once it is saved (`companion.story`): dicts {seat, name, rgba,
    lines} in seat order, `lines` one string of a line a race and the best turn."""
    story_best = StringProperty("")
    """The game's best turn, in words ("" until the game is saved)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._order: list[tuple[int, str, int]] = []
        self._tokens: dict[int, int] = {}
        self._game: object = None
        super().__init__(*args, **kwargs)
        # Saved (can_export) and decided (winner_text): both are set anew for every game
        # that ends, so a link is never left over from the game before.
        self.fbind("can_export", self._saved_changed)
        self.fbind("winner_text", self._saved_changed)

    # -- the saved game: BG Stats' link ----------------------------------------------------
    def _saved_changed(self, *_args: Any) -> None:
        """The game is saved with its standings (or no longer shown): read back what the
        records keep of it, so the link says what the past games say."""
        records, game_id = self.session.records, self.session.game_id
        url, summary = "", None
        if (self.can_export and self.winner_text and records is not None
                and game_id is not None):
            try:
                summary = records.game_summary(game_id)
                url = bgstats.play_url(summary, board_name)
            except (RecordsError, bgstats.NotAPlay):
                url = ""
        self.bgstats_url = url
        if not url:
            self.side = "chart"
        self._story(summary)

    def _story(self, summary: GameSummary | None) -> None:
        """Each player's races, declines and best turn, from the saved summary and this
        game's events (the same game: the session saves every step to it)."""
        if summary is None:
            self.story_rows, self.story_best = [], ""
            return
        history = self.session.history
        declined = story.declines(history) if history is not None else {}
        rows = []
        for player in story.stories(summary, declined):
            lines = [story.race_line(span, shown_names.combo) for span in player.races]
            lines.append(story.best_line(player.best_turn))
            rows.append({"seat": player.seat, "name": player.name,
                         "rgba": palette.rgba(player.colour), "lines": "\n".join(lines)})
        self.story_rows = rows
        best = story.game_best_turn(summary)
        names = {seat.seat: seat.name for seat in summary.game.seats}
        self.story_best = ("" if best is None else ngettext(
            "Best turn of the game: {name}, {n} coin in turn {turn}.",
            "Best turn of the game: {name}, {n} coins in turn {turn}.", best.coins).format(
            name=names[best.seat], n=best.coins, turn=best.turn))

    def refresh(self, state: GameState) -> None:
        history = self.session.history
        game = history.log[0] if history is not None else None
        same_game = game is self._game
        self._game = game
        was_over = self.over and same_game
        self.over = state.is_over
        self.title = _("The game is over")
        if not state.is_over:
            self._reset()
            self.hint = _(NOT_OVER)
            return
        if was_over and self._order:
            self._reword(state)
            return
        totals = final_totals(state)
        self._order = sorted(((seat, name, total) for seat, (name, total) in enumerate(totals)),
                             key=lambda item: (reveal_group(state, item[0]), item[2], -item[0]))
        self.revealed_count = 0
        self.revealed = []
        self.all_revealed = False
        self.winner_text = ""
        self.standings = []
        self.hint = _(REVEAL_ONE_BY_ONE)
        coins_now = {seat: total for seat, (_, total) in enumerate(totals)}
        tied = tied_for_first(state, coins_now)  # the game's expansions say first
        self._tokens = {seat: tokens_on_board(state.regions.regions, seat) or 0 for seat in tied}
        self._tie_rows(state)
        if history is not None:
            self.show_chart(history, state.players)
        self._update_reveal_text()

    def _reset(self) -> None:
        self._order, self._tokens = [], {}
        self.revealed, self.standings, self.tie_rows = [], [], []
        self.revealed_count, self.all_revealed = 0, False
        self.needs_tiebreak, self.winner_text = False, ""
        self.chart_series, self.chart_turns = [], 0
        self.can_export = False

    def _tie_rows(self, state: GameState) -> None:
        self.tie_rows = [{"seat": seat, "name": state.players[seat].name,
                          "value": self._tokens[seat]} for seat in sorted(self._tokens)]

    def _update_reveal_text(self) -> None:
        left = len(self._order) - int(self.revealed_count)
        self.reveal_text = (_("Reveal the winner's total") if left == 1
                            else _("Reveal the next total ({left} to go)").format(left=left))

    def _reword(self, state: GameState) -> None:
        """The same end of the game in the language spoken now (the texts this screen
        made; the rules' reason and an expansion's rows come as they came)."""
        self._update_reveal_text()
        self.revealed = [dict(row, coins=coins(total))
                         for row, (_seat, _name, total) in zip(self.revealed, self._order,
                                                               strict=False)]
        if self.needs_tiebreak:
            self.hint = _(TIE)
        elif not self.all_revealed:
            self.hint = _(REVEAL_ONE_BY_ONE)
        elif self.winner_text:
            own = next((found for v in expansions.played(state)
                        if (found := v.standings(state)) is not None), None)
            self.hint = _(FINAL_STANDINGS) if own is None else own[1]
            self.standings = [self._worded(row) if "placing" in row else row
                              for row in self.standings]
        self._saved_changed()

    @staticmethod
    def _worded(row: dict[str, Any]) -> dict[str, Any]:
        """A standings row with its rank and coins in words, and the tokens on the board
        where they decided (its `detail`, under the name)."""
        tokens = row.get("on_board")
        return dict(row, rank=placing_text(row["placing"]), coins=coins(row["total"]),
                    detail="" if tokens is None else on_the_board(tokens))

    # -- intents -------------------------------------------------------------------------
    def do(self, action: Action) -> None:
        match action:
            case Action.REVEAL:
                self.reveal_next()
            case Action.DECIDE:
                self.decide()
            case Action.EXPORT:
                self.export()
            case Action.NEW_GAME:
                self.go("new_game")
            case Action.HOME:
                self.go("home")
            case _:
                assert_never(action)

    def export(self) -> None:
        """Export this finished game (JSON, CSV, BG Stats), as from the past games."""
        game_id = self.session.game_id
        past = self.ctx.presenters.get("history_game")
        if not self.can_export or game_id is None or past is None:
            self.ctx.notices.tell(_("This game can be exported once its standings are saved."))
            return
        if past.load(game_id):
            past.export()

    def reveal_next(self) -> None:
        state = self.state
        if state is None or not state.is_over or self.all_revealed:
            return
        seat, name, total = self._order[int(self.revealed_count)]
        colour = palette.rgba(state.players[seat].colour)
        self.revealed = [*self.revealed, {"seat": seat, "name": name, "coins": coins(total),
                                          "rgba": colour, "ink": palette.ink_on(colour)}]
        self.revealed_count += 1
        self._update_reveal_text()
        last = self.revealed_count >= len(self._order)
        self.ctx.cues.play(Cue.WINNER if last else Cue.REVEAL)
        if last:
            self.all_revealed = True
            # A game that counts its tokens knows the tie-break; an older one asks.
            self.needs_tiebreak = bool(self._tokens) and state.troops is None
            if self.needs_tiebreak:
                self.hint = _(TIE)
            else:
                self.decide()

    def set_tokens(self, seat: int, value: int) -> None:
        if seat in self._tokens and self.state is not None:
            self._tokens[seat] = max(0, int(value))
            self._tie_rows(self.state)

    def decide(self) -> None:
        state = self.state
        if state is None or not state.is_over:
            return
        totals = final_totals(state)
        names = {seat: name for seat, (name, _) in enumerate(totals)}
        try:
            # Saved in the history of games (past games, stats), when games are saved.
            result = self.session.finish(self._tokens)
            self.can_export = self.session.records is not None and self.session.game_id is not None
        except RulesError as refused:
            self.ctx.notices.tell(plain(say(refused)))
            return
        except RecordsError as failed:
            self.ctx.notices.tell(_("{reason} The result is shown, but it is not in the past "
                                    "games.").format(reason=say(failed)), _("Not saved"))
            result = game_standings(state, self._tokens, names)
        self.needs_tiebreak = False
        self.winner_text = plain(say(result.reason))
        own = next((found for v in expansions.played(state)
                    if (found := v.standings(state)) is not None), None)
        self.hint = _(FINAL_STANDINGS) if own is None else own[1]
        rows = []
        for placing in result.placings:
            colour = palette.rgba(state.players[placing.seat].colour)
            rows.append(self._worded({
                "seat": placing.seat, "name": names[placing.seat], "rgba": colour,
                "ink": palette.ink_on(colour), "placing": placing.rank,
                "total": placing.coins, "on_board": placing.tokens}))
        # an expansion's own rows when it ranks sides, else one row a player
        self.standings = rows if own is None else own[0]
