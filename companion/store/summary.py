"""The Resume offer's summary: the unfinished game's players and where it stands, read at
start before anything else of the store (and before the rules) is imported.

Concept: the home screen's first frame says "Resume Ana, Ben and Cy: turn 2 of 10, Cy's
turn". What it needs is kept in the saved-games file itself: the players' names in
``game_seats``, and the game turn and whose turn it is in the game's row (``turn``,
``seat``: migration m003, written with the row, see `companion.store.games.touch`). `read`
opens the file read-only with plain ``sqlite3`` and reads them for the game `Store`
would resume (the same choice as `companion.store.games.unfinished`).

Invariants:
- standard library only: importing this module imports nothing else of the companion;
- `read` never raises and never writes: a missing, damaged, locked, older (no summary
  columns yet) or newer file, or a game saved before m003 and not played since, is "no
  summary" (None). The store, opened after the first frame, checks the file and has the
  last word (the offer is then made again from it, from a replay if need be);
- a summary is the state's: names as the rules take them (stripped), a seat that is one
  of the game's seats.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

READ_TIMEOUT = 0.2
"""Seconds a read waits for a lock before giving up (only another program writing)."""


@dataclass(frozen=True, slots=True)
class ResumeSummary:
    """The unfinished game the app offers to resume: who plays, and where it stands."""

    game_id: int
    names: tuple[str, ...]  # by seat
    turn: int
    turns: int
    seat: int  # whose turn it is

    @property
    def current(self) -> str:
        """The name of the player whose turn it is."""
        return self.names[self.seat]


def read(path: Path) -> ResumeSummary | None:
    """The summary of the game to resume in the saved-games file at `path`; None when
    there is none or it cannot be read (never raises, never writes the file)."""
    try:
        if not Path(path).is_file():
            return None
        uri = Path(path).absolute().as_uri() + "?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=READ_TIMEOUT)) as conn:
            return from_connection(conn)
    except (sqlite3.Error, OSError, ValueError, TypeError):  # a damaged row: no summary
        return None


def from_connection(conn: sqlite3.Connection) -> ResumeSummary | None:
    """`read`, on an open connection; None when there is no unfinished game or it has no
    summary (saved before m003 and not played since). SQLite errors are passed on (an
    older file, without the summary's columns, raises one)."""
    row = conn.execute(
        "SELECT id, turn, turns, seat FROM games WHERE finished_at IS NULL "
        "ORDER BY played DESC, id DESC LIMIT 1"
    ).fetchone()
    if row is None or any(value is None for value in row):
        return None
    game_id, turn, turns, seat = (int(value) for value in row)
    names = tuple(str(name).strip() for (name,) in conn.execute(
        "SELECT name FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)))  # fmt: skip
    if not 0 <= seat < len(names):
        return None
    return ResumeSummary(game_id, names, turn, turns, seat)
