"""The event log: every step of every game, append-only, in the ``events`` table.

Concept: a game is its log. A *step* is the tuple of events one player intent produced
(see `companion.rules.history`); it is saved as one row per event, numbered by game, step
number (1, 2, 3... per game; step 1 creates the game) and sequence within the step
(0, 1, 2...), with the event's type, its schema version, its fields as a JSON payload and
the time it was saved. Undo is a step of its own, so nothing is ever updated or deleted.

Invariants:
- a game's steps are always 1..n with no gap, each complete: a step's rows are written in
  one transaction, only as the step after the last one on disk, and (game_id, step, seq)
  is the table's primary key, so a second writer's step with a number already taken is
  refused by the key itself (`StepConflict`), whatever either writer believed;
- a step writes only its own rows: one B-tree (the table is ``WITHOUT ROWID``, its key
  the primary key), so a step of a few events is one page of the write-ahead log;
- how far a game goes is read from the log (`count`: its highest step), never from a
  counter kept elsewhere;
- reading gives back exactly the events written: `from_record` of the stored record
  equals the event (older schema versions are upgraded by `companion.rules.events`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from companion.rules.codec import from_record
from companion.rules.events import BadRecord, Event, to_record
from companion.rules.history import Step
from companion.sentence import N_
from companion.store.database import SQLITE_CONSTRAINT, primary_code
from companion.store.errors import (
    GameAlreadyFinished,
    StepConflict,
    UnknownGame,
    UnreadableGame,
)

_INSERT = (
    "INSERT INTO events (game_id, step, seq, type, v, payload, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def encode(event: Event) -> tuple[str, int, str]:
    """(type, schema version, JSON payload) of one event."""
    record = to_record(event)
    kind = record.pop("type")
    version = record.pop("v")
    payload = json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return str(kind), int(version), payload


class DamagedRecord(BadRecord):
    """A stored record that is not even JSON: damage, not a record of another release."""


def decode(kind: str, version: int, payload: str) -> Event:
    """The event stored as (type, schema version, JSON payload).

    Raises `DamagedRecord` when the payload is not a JSON object, BadRecord when its
    fields are not an event this release knows.
    """
    try:
        fields: dict[str, Any] = json.loads(payload)
    except (json.JSONDecodeError, TypeError) as error:
        raise DamagedRecord(f"{kind}: the payload is not JSON ({error})") from error
    if not isinstance(fields, dict):
        raise DamagedRecord(f"{kind}: the payload is not a JSON object")
    return from_record({**fields, "type": kind, "v": version})


def append(
    conn: sqlite3.Connection,
    game_id: int,
    step: Sequence[Event],
    at: str,
    *,
    number: int | None = None,
    last: int | None = None,
) -> int:
    """Add `step` as the game's next step; return its number. Call inside a transaction.

    `number`, when given, is the number the caller expects the step to get (the steps it
    has seen, plus one); if the game on disk has another next step, `StepConflict` is
    raised. `last` is the number of the game's last step as the caller remembers it
    (`Store` keeps it in memory): trusted when it agrees with `number`, so the log is not
    read before the rows are written; when it is stale (another writer saved in between)
    the primary key refuses the rows and the log is read to say so. Without `number`
    the step is the next one on disk. Raises `UnknownGame` when there is no such game
    and `GameAlreadyFinished` when the game is finished. Nothing is written when any of
    these is raised (the caller's transaction is rolled back).
    """
    if not step:
        raise ValueError("an empty step records nothing")
    rows = [encode(event) for event in step]
    found = conn.execute("SELECT finished_at FROM games WHERE id = ?", (game_id,)).fetchone()
    if found is None:
        raise UnknownGame(N_("there is no game {game} in the saved games"), game=game_id)
    if found[0] is not None:
        raise GameAlreadyFinished(
            N_("game {game} is finished and its history is closed; start a new game"),
            game=game_id)
    if number is None or last is None or number != last + 1:
        last = count(conn, game_id)
    if number is not None and number != last + 1:
        raise _conflict(game_id, last, number)
    number = last + 1
    try:
        conn.executemany(
            _INSERT,
            [
                (game_id, number, seq, kind, v, payload, at)
                for seq, (kind, v, payload) in enumerate(rows)
            ],
        )
    except sqlite3.IntegrityError as error:
        if primary_code(error) != SQLITE_CONSTRAINT or not _taken(conn, game_id, number):
            raise
        raise _conflict(game_id, count(conn, game_id), number) from error
    return number


def _taken(conn: sqlite3.Connection, game_id: int, number: int) -> bool:
    """Whether the game already has a step `number` (another writer saved it)."""
    found = conn.execute(
        "SELECT 1 FROM events WHERE game_id = ? AND step = ? AND seq = 0", (game_id, number)
    ).fetchone()
    return found is not None


def _conflict(game_id: int, saved: int, number: int) -> StepConflict:
    return StepConflict(N_(
        "The last action was not saved: game {game} has {saved} saved steps, "
        "but this screen has seen {seen}, so another companion app saved to the "
        "same file. Nothing was changed; restart the companion to see the game as saved."),
        game=game_id, saved=saved, seen=number - 1)


def load(conn: sqlite3.Connection, game_id: int) -> list[Step]:
    """Every step of the game, in order, undo steps included. The same record (type,
    version, payload) is decoded once: a step redone, an undo, a turn's end repeat.

    Raises `UnknownGame` for a game that does not exist and `UnreadableGame` when a
    stored record cannot be read or the steps are not numbered 1..n.
    """
    if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise UnknownGame(N_("there is no game {game} in the saved games"), game=game_id)
    steps: list[Step] = []
    current: list[Event] = []
    number = 0
    decoded: dict[tuple[str, int, str], Event] = {}  # events are immutable: one of each
    cursor = conn.execute(
        "SELECT step, seq, type, v, payload FROM events WHERE game_id = ? ORDER BY step, seq",
        (game_id,),
    )
    for step, seq, kind, version, payload in cursor:
        if step != number:
            if current:
                steps.append(tuple(current))
            if step != number + 1:
                raise UnreadableGame(
                    N_("game {game} cannot be read back: step {step} is missing"),
                    game=game_id, step=number + 1)
            number, current = step, []
        if seq != len(current):
            raise UnreadableGame(
                N_("game {game} cannot be read back: event {event} of step {step} is missing"),
                game=game_id, event=len(current), step=step)
        key = (kind, version, payload)
        try:
            event = decoded.get(key)
            if event is None:
                event = decoded[key] = decode(kind, version, payload)
            current.append(event)
        except DamagedRecord as error:
            raise UnreadableGame(
                N_("game {game} cannot be read back: step {step} holds a damaged record "
                   "({error})"), game=game_id, step=step, error=str(error)) from error
        except BadRecord as error:
            raise UnreadableGame(
                N_("game {game} cannot be read back: step {step} holds an event this "
                   "release cannot read ({error})"), game=game_id, step=step,
                error=str(error)) from error
    if current:
        steps.append(tuple(current))
    return steps


def count(conn: sqlite3.Connection, game_id: int) -> int:
    """The number of the game's last saved step (0 when it has none), read from the log
    (one look-up in its primary key)."""
    row = conn.execute(
        "SELECT (SELECT 1 FROM games WHERE id = ?), "
        "(SELECT max(step) FROM events WHERE game_id = ?)",
        (game_id, game_id),
    ).fetchone()
    if row[0] is None:
        raise UnknownGame(N_("there is no game {game} in the saved games"), game=game_id)
    return 0 if row[1] is None else int(row[1])
