"""Settings: the companion's preferences, as keys with JSON values.

Concept: a setting is a key (a short dotted name such as ``"backups.keep"``) and any value
JSON can hold. The store does not know what the keys mean; each feature reads its own,
with its own default, so a file from an older release that lacks a key simply gives the
default.

Invariants: a stored value is valid JSON and reads back equal to what was written (tuples
come back as lists); writing a key replaces its value in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any


def encode(key: str, value: Any) -> str:
    """The JSON text of a setting's value; ValueError naming the key when it has none."""
    if not key or not key.strip():
        raise ValueError("a setting needs a name")
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise ValueError(f"setting {key!r} cannot be saved: {error}") from error


def get(conn: sqlite3.Connection, key: str, default: Any = None) -> Any:
    row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return default if row is None else json.loads(row[0])


def put(conn: sqlite3.Connection, key: str, value: Any, at: str) -> None:
    """Set `key` to `value`. Call inside a transaction."""
    conn.execute(
        "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, encode(key, value), at),
    )


def delete(conn: sqlite3.Connection, key: str) -> None:
    """Forget `key` (its default applies again). Call inside a transaction."""
    conn.execute("DELETE FROM settings WHERE key = ?", (key,))


def all_settings(conn: sqlite3.Connection) -> dict[str, Any]:
    rows = conn.execute("SELECT key, value FROM settings ORDER BY key")
    return {key: json.loads(value) for key, value in rows}
