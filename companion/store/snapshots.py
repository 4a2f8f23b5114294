"""Snapshots: the state of a game in progress saved with the end of a turn, so that
opening it replays only the turn since, not the whole log.

Concept: the log is the truth; a snapshot is a shortcut through it that is used only when
it provably belongs to the log on disk, and is otherwise ignored (the game is replayed as
before). One row per unfinished game in ``snapshots`` (m004): the number `step` of the step
that ended a turn, the state before that step, and what ties the two to the log and to
this release:

- ``rules``: a digest of this release's rules (the code and data a replay runs on,
  `rules_digest`): a state written by other rules may differ from what these rules make
  of the log, so it is not used;
- ``events``: how many events the log held up to step `step` when it was saved, and
  ``last``: a digest of step `step`'s own stored records; the log is append-only (its
  primary key refuses a second step of the same number), so a log that still has them
  is the log the snapshot was made from;
- step `step` must be in force (never undone) when the log is replayed
  (`companion.rules.history.replay`).

Invariants:
- a snapshot never changes what a game is: `replay(log, snapshot=s)` equals
  `replay(log)` whenever `read` hands `s` back (tests prove it for every end of turn of
  whole scripted games);
- reading never fails on data: a missing, foreign, stale or damaged snapshot is `None`;
- a state is stored with pickle restricted to the rules' own classes: reading builds
  nothing else (`_RulesOnly`), so a crafted file cannot run code;
- the catalog is not stored: the reader's own is put back in every state.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import logging
import pickle
import sqlite3
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.rules.catalog import Catalog
from companion.rules.history import Step
from companion.rules.state import GameState

_logger = logging.getLogger(__name__)

_RULES_PACKAGES = ("companion.rules", "companion.data")
_CATALOG = "catalog"  # the persistent id the catalog is stored as
_DIGEST: list[str] = []  # this release's `rules_digest`, worked out once


def rules_digest() -> str:
    """A digest of what a replay runs on: the rules' modules and the game data (races,
    powers, components, boards), and the Python version pickle writes for."""
    if not _DIGEST:
        digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
        for package in _RULES_PACKAGES:
            folder = Path(importlib.import_module(package).__file__ or "").parent
            for path in sorted(p for p in folder.rglob("*")
                               if p.suffix in (".py", ".json", ".toml", ".txt")):
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
        _DIGEST.append(digest.hexdigest())
    return _DIGEST[0]


def _frozen(mapping: dict[Any, Any]) -> Mapping[Any, Any]:
    """A read-only mapping again (the rules keep some as `MappingProxyType`)."""
    return MappingProxyType(mapping)


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> str | None:
        return _CATALOG if isinstance(obj, Catalog) else None

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is MappingProxyType:
            return _frozen, (dict(obj),)
        return NotImplemented


class _RulesOnly(pickle.Unpickler):
    """Builds the rules' own classes and nothing else."""

    def __init__(self, data: bytes, catalog: Catalog) -> None:
        super().__init__(io.BytesIO(data))
        self._catalog = catalog

    def persistent_load(self, pid: Any) -> Any:
        if pid != _CATALOG:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return self._catalog

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_frozen":
            return _frozen
        if module.startswith("companion.rules.") and "." not in name:
            found = getattr(sys.modules.get(module), name, None)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not one of the rules' classes")


def encode(state: GameState) -> bytes:
    """The state as bytes (`decode` gives it back, with the reader's catalog)."""
    out = io.BytesIO()
    _Pickler(out, protocol=5).dump(state)
    return out.getvalue()


def decode(data: bytes, catalog: Catalog) -> GameState:
    """The state `encode` made; raises `ValueError` for anything else."""
    try:
        state = _RulesOnly(data, catalog).load()
    except Exception as error:  # pickle raises many kinds on damaged bytes
        raise ValueError(f"not a saved state: {error}") from error
    if not isinstance(state, GameState):
        raise ValueError(f"not a saved state: a {type(state).__name__}")
    return state


def _step_digest(conn: sqlite3.Connection, game_id: int, step: int) -> str:
    rows = conn.execute("SELECT seq, type, v, payload FROM events "
                        "WHERE game_id = ? AND step = ? ORDER BY seq", (game_id, step))
    digest = hashlib.sha256()
    for row in rows:
        digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()


def _events_to(conn: sqlite3.Connection, game_id: int, step: int) -> int:
    found = conn.execute("SELECT count(*) FROM events WHERE game_id = ? AND step <= ?",
                         (game_id, step)).fetchone()
    return int(found[0])


def save(conn: sqlite3.Connection, game_id: int, step: int, before: GameState) -> None:
    """Keep `before`, the state before step `step` (saved: a turn's end), as the game's
    snapshot in place of its last; nothing for a finished game. Call inside a
    transaction."""
    conn.execute(
        "INSERT OR REPLACE INTO snapshots (game_id, step, events, last, rules, state) "
        "SELECT id, ?, ?, ?, ?, ? FROM games WHERE id = ? AND finished_at IS NULL",
        (step, _events_to(conn, game_id, step), _step_digest(conn, game_id, step),
         rules_digest(), encode(before), game_id))


def drop(conn: sqlite3.Connection, game_id: int) -> None:
    """Forget the game's snapshot (its game is finished). Call inside a transaction."""
    conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))


def read(conn: sqlite3.Connection, game_id: int, log: tuple[Step, ...] | list[Step],
         catalog: Catalog) -> tuple[int, GameState] | None:
    """(step, the state before it) for `replay`, when the game's snapshot belongs to
    `log` (its steps as read from this connection) and to these rules; else None.

    SQLite errors are passed on (the caller decides whether they are damage); anything
    wrong with the snapshot itself is logged and makes it None.
    """
    row = conn.execute("SELECT step, events, last, rules, state FROM snapshots "
                       "WHERE game_id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    step, events, last, rules, data = row
    why = None
    if rules != rules_digest():
        why = "it was saved by other rules"
    elif not isinstance(step, int) or not 1 < step <= len(log):
        why = f"its step {step!r} is not in the log of {len(log)} steps"
    elif sum(len(s) for s in log[:step]) != events:
        why = "the log up to its step holds other events"
    elif _step_digest(conn, game_id, step) != last:
        why = "its step is recorded otherwise in the log"
    else:
        try:
            return step, decode(data if isinstance(data, bytes) else b"", catalog)
        except ValueError as error:
            why = str(error)
    _logger.info("game %s: its snapshot is not used (%s); the log is replayed", game_id, why)
    return None
