"""Player profiles: the regulars at the table, with a colour and an optional PIN.

Concept: a profile is a name (unique, whatever its case), a favourite colour and an
optional PIN that guards the private look at one's own coin total. A game's seats are
linked to profiles when the game is created, so stats follow a player from game to game;
the seat keeps its own copy of the name and colour, so removing or renaming a profile
never rewrites the history of a game.

The PIN is never stored: only a salted scrypt hash of it, written as
``scrypt$N$r$p$<salt hex>$<hash hex>`` so that the cost can be raised later without
breaking old hashes. Checking compares in constant time.

Invariants: names are stripped, non-empty and unique ignoring case; a PIN is 4 to 8
digits.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3

from companion.records import Profile
from companion.store.database import from_text
from companion.store.errors import N_, ProfileError

PIN_DIGITS = (4, 8)

# scrypt cost: 16 MiB of memory and a fraction of a second on a Raspberry Pi, once per
# check. A PIN of 4 digits has only 10,000 values, so no hash protects it from someone who
# copies the file: the PIN only keeps the curious at the table from peeking at a total.
# The salted, costly hash keeps the PIN itself (which a player may use elsewhere) from
# being read straight out of the file.
_N, _R, _P = 2**14, 8, 1
_SALT_BYTES = 16
_HASH_BYTES = 32


def clean_name(name: str) -> str:
    """The name as stored; ProfileError when it is empty."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise ProfileError(N_("a player needs a name"))
    return cleaned


def check_pin_format(pin: str) -> None:
    low, high = PIN_DIGITS
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise ProfileError(N_("a PIN is {low} to {high} digits"), low=low, high=high)


def hash_pin(pin: str) -> str:
    """A salted scrypt hash of `pin`, in the stored form."""
    check_pin_format(pin)
    salt = secrets.token_bytes(_SALT_BYTES)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=_HASH_BYTES)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """Whether `pin` is the PIN hashed as `stored` (False for anything malformed)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = bytes.fromhex(digest)
        actual = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                                p=int(p), dklen=len(expected))  # fmt: skip
    except ValueError:
        return False
    return hmac.compare_digest(actual, expected)


def _row_to_profile(row: tuple[int, str, str, str | None, str]) -> Profile:
    return Profile(int(row[0]), row[1], row[2], row[3] is not None, from_text(row[4]))


_SELECT = "SELECT id, name, colour, pin, created_at FROM players"


def all_profiles(conn: sqlite3.Connection) -> list[Profile]:
    """Every profile, by name."""
    return [_row_to_profile(r) for r in conn.execute(f"{_SELECT} ORDER BY name, id")]


def get(conn: sqlite3.Connection, profile_id: int) -> Profile:
    row = conn.execute(f"{_SELECT} WHERE id = ?", (profile_id,)).fetchone()
    if row is None:
        raise ProfileError(N_("there is no player profile {profile}"), profile=profile_id)
    return _row_to_profile(row)


def ids_by_name(conn: sqlite3.Connection) -> dict[str, int]:
    """Profile ids by case-folded name."""
    return {name.casefold(): int(pid) for pid, name in conn.execute("SELECT id, name FROM players")}


def _check_free(conn: sqlite3.Connection, name: str, but: int | None = None) -> None:
    taken = ids_by_name(conn).get(name.casefold())
    if taken is not None and taken != but:
        raise ProfileError(N_("there is already a player called {name}; choose another name"),
                           name=name)


def add(
    conn: sqlite3.Connection, name: str, colour: str, pin: str | None, at: str
) -> int:
    """Add a profile; return its id. Call inside a transaction."""
    name = clean_name(name)
    if not colour.strip():
        raise ProfileError(N_("{name} needs a colour"), name=name)
    _check_free(conn, name)
    stored = None if pin is None else hash_pin(pin)
    cursor = conn.execute(
        "INSERT INTO players (name, colour, pin, created_at) VALUES (?, ?, ?, ?)",
        (name, colour.strip(), stored, at),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def update(
    conn: sqlite3.Connection, profile_id: int, *, name: str | None, colour: str | None
) -> None:
    """Rename a profile or change its colour. Call inside a transaction."""
    profile = get(conn, profile_id)
    new_name = profile.name if name is None else clean_name(name)
    new_colour = profile.colour if colour is None else colour.strip()
    if not new_colour:
        raise ProfileError(N_("{name} needs a colour"), name=new_name)
    _check_free(conn, new_name, but=profile_id)
    conn.execute("UPDATE players SET name = ?, colour = ? WHERE id = ?",
                 (new_name, new_colour, profile_id))  # fmt: skip


def set_pin(conn: sqlite3.Connection, profile_id: int, pin: str | None) -> None:
    """Set, change or (with None) remove a profile's PIN. Call inside a transaction."""
    get(conn, profile_id)
    stored = None if pin is None else hash_pin(pin)
    conn.execute("UPDATE players SET pin = ? WHERE id = ?", (stored, profile_id))


def check_pin(conn: sqlite3.Connection, profile_id: int, pin: str) -> bool:
    """Whether `pin` opens the profile; a profile without a PIN opens with any."""
    row = conn.execute("SELECT pin FROM players WHERE id = ?", (profile_id,)).fetchone()
    if row is None:
        raise ProfileError(N_("there is no player profile {profile}"), profile=profile_id)
    stored: str | None = row[0]
    return True if stored is None else pin_matches(pin, stored)


def remove(conn: sqlite3.Connection, profile_id: int) -> None:
    """Remove a profile; past games keep their seats' names. Call inside a transaction."""
    get(conn, profile_id)
    conn.execute("DELETE FROM players WHERE id = ?", (profile_id,))
