"""Past games: every finished game, newest first, and the way to one game's detail.

A finished game's totals were revealed to everybody at its end, so they may be shown here;
the game being played now is never listed (it is not finished). The list is read from the
store each time the screen is opened (`load`), never on a timer.

Also the words shared by the history, game and stats screens (`board_words`, `board_name`,
`when`) and where exports are written (`export_dir`, `write_exports`).

The words are in the language spoken (`companion.i18n`) when the list is read; the files
exported are not worded (ids and English keys, as saved).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.utils import escape_markup, get_hex_from_color

from companion.i18n import N_, _, ngettext
from companion.paths import user_data_dir
from companion.records import GameRecord, Records, RecordsError
from companion.ui import palette
from companion.ui.presenters.base import Presenter
from companion.ui.presenters.intents import argument, known, number
from companion.ui.wording import say

ACCENT = get_hex_from_color(palette.ACCENT)

EXPORT_FORMATS = (("json", N_("JSON (everything)"), "json"),
                  ("csv", N_("CSV (a score sheet for a spreadsheet)"), "csv"),
                  ("bgstats", N_("BG Stats (a play to log)"), "bgstats.json"))
"""(format, what it is in words (marked; shown through `_`), file name ending) for each
export."""
MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"),
          N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))
"""The months as a date shows them, short."""


def coins(n: int) -> str:
    """A count of coins in the language spoken ("1 coin", "12 coins")."""
    return ngettext("{count} coin", "{count} coins", n).format(count=n)


def export_dir() -> Path:
    """Where exports are written: ``exports`` in the user's data directory (XDG)."""
    return user_data_dir() / "exports"


def write_exports(store: Records, game_ids: Sequence[int],
                  formats: Sequence[str] = ("json", "csv", "bgstats")) -> list[Path]:
    """Write each game in each format into `export_dir()`; return the files written.

    Raises RecordsError (a game that cannot be read) or OSError (the folder cannot be
    written); the caller says so in words.
    """
    folder = export_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    endings = {fmt: ending for fmt, _words, ending in EXPORT_FORMATS}
    for game_id in game_ids:
        for fmt in formats:
            path = folder / ("small-world-game-" + str(game_id) + "." + endings[fmt])
            path.write_text(store.export(game_id, fmt), encoding="utf-8")
            written.append(path)
    return written


def board_words(board: str) -> str:
    """A board as players say it: "2p" is "the 2-player board"."""
    found = re.fullmatch(r"(\d)p", board)
    if found:
        return _("the {players}-player board").format(players=found.group(1))
    return _("the {board} board").format(board=board)


def board_name(board: str) -> str:
    """A board's name for a play log (BG Stats' variant): "2p" is "2-player board"."""
    found = re.fullmatch(r"(\d)p", board)
    if found:
        return _("{players}-player board").format(players=found.group(1))
    return _("{board} board").format(board=board)


def when(moment: datetime) -> str:
    """A date and time in local time, e.g. "12 Mar 2025, 20:41"."""
    local = moment.astimezone()
    return _("{day} {month} {year}, {time}").format(
        day=local.day, month=_(MONTHS[local.month - 1]), year=local.year,
        time=local.strftime("%H:%M"))


def winner_words(game: GameRecord) -> str:
    winners = game.winners
    if not winners:
        return _("No winner recorded")
    total = coins(winners[0].final_coins or 0)
    if len(winners) == 1:
        return _("{name} won with {coins}").format(name=winners[0].name, coins=total)
    names = _("{some} and {last}").format(
        some=", ".join(seat.name for seat in winners[:-1]), last=winners[-1].name)
    return _("{names} shared the win with {coins}").format(names=names, coins=total)


class Action(StrEnum):
    """The history screen's buttons (the values are their keys)."""

    STATS = "stats"
    BACK = "back"


@dataclass(frozen=True)
class OpenGame:
    """A past game tapped ("game:<id>")."""

    game_id: int


def parse(key: str) -> Action | OpenGame:
    """The history screen's action for `key`; `UnknownAction` when it has none."""
    game_id = number(argument(key, "game:"))
    if game_id is not None:
        return OpenGame(game_id)
    return known("history", key, Action, "game:<id>")


class HistoryPresenter(Presenter, parse=parse):
    games = ListProperty([])
    """Finished games, newest first: dicts {game_id, title, players, winner, tie, text}
    (`text`: all of it as Kivy markup, for the game's button)."""
    empty = BooleanProperty(True)
    empty_text = StringProperty("")
    error_text = StringProperty("")

    def load(self) -> None:
        """Read the finished games from the store (when the screen opens)."""
        store = self.session.records
        self.error_text = ""
        records: list[GameRecord] = []
        if store is None:
            self.empty_text = _("Games are not being saved, so there is no history.")
        else:
            self.empty_text = _("No finished game yet. A game appears here once its winner "
                                "is decided on the final screen.")
            try:
                records = store.games(finished=True)
            except RecordsError as failed:
                self.error_text = _("The past games cannot be read: {reason}").format(
                    reason=say(failed))
        rows = [self._row(game) for game in records]
        self.games = rows
        self.empty = not rows

    def _row(self, game: GameRecord) -> dict[str, Any]:
        date = when(game.finished_at or game.created_at)
        row = {
            "game_id": game.id,
            "title": f"{date}, {board_words(game.board)}",
            "players": _("Seats: {names}").format(names=", ".join(game.names)),
            "winner": winner_words(game),
            "tie": (_("Tie-break: {rule}").format(rule=game.tie_break) if game.tie_break
                    else ""),
        }
        lines = [f"[b]{escape_markup(row['title'])}[/b]", escape_markup(row["players"]),
                 "[color=" + ACCENT + "]" + escape_markup(row["winner"]) + "[/color]"]
        if row["tie"]:
            lines.append(escape_markup(row["tie"]))
        return {**row, "text": "\n".join(lines)}

    def do(self, action: Action | OpenGame) -> None:
        match action:
            case OpenGame(game_id):
                self.open_game(game_id)
            case Action.STATS:
                self.go("stats")
            case Action.BACK:
                self.go("home")
            case _:
                assert_never(action)

    def open_game(self, game_id: int) -> None:
        detail = self.ctx.presenters.get("history_game")
        if detail is not None and detail.load(game_id):
            self.go("history_game")
