"""The schema of the saved-games file, as an ordered list of sqlite-utils migrations.

Concept: the schema is never edited in place. Each change is a new migration function,
registered below in order, that turns the previous schema into the next one; sqlite-utils
runs every migration a file has not had yet, each in its own transaction together with the
record of it in the ``_sqlite_migrations`` table. So a file written by any earlier release
is brought up to date when it is opened, and a file that was interrupted half-way through
a migration simply runs that migration again.

Invariants:
- migrations already released are never changed or reordered; only new ones are appended
  (``tests/data/`` holds a file made by an earlier release to prove it still opens);
- a file whose migrations include one this release does not know was written by a newer
  release; it is refused (`StoreOpenError`) rather than guessed at;
- the event log (``events``) is the truth of a game; everything else about a game
  (``game_seats`` results, ``turn_scores``, ``game_combos``) is derived from it when the
  game is finished, and could be derived again.

Tables (schema of migration ``m001_initial``, as changed by the later ones listed below):

- ``games``: one row per game: when it was created and last changed, board, turns,
  expansions (JSON list), dealing, first seat, ``steps`` (the number of the last step
  saved; since m002 written at the end of each turn, not at every step: the log says
  how far a game goes), ``played`` (m002: the order games were last played in), and
  once finished: ``finished_at``, the outcome in words (``result``) and the tie-break
  used, if any (``tie_break``);
- ``game_seats``: the players of a game in seat order: name, colour, the profile they
  played as (if any) and, once finished, final coins, rank, winner flag and the race
  tokens counted for a tie-break;
- ``events``: the event log: game, step number, sequence in the step, event type, schema
  version, JSON payload (the event's fields) and the time it was saved; since m002 a
  ``WITHOUT ROWID`` table whose primary key is (game, step, sequence);
- ``turn_scores``: a finished game's income per game turn and seat, with its lines;
- ``game_combos``: a finished game's combos, per seat and turn picked, with the coins its
  race scored, active and in decline (games finished before that was split by race hold
  the coins scored while it was the latest combo; `companion.store.games.summary` and the
  stats credit them again from ``turn_scores``);
- ``players``: player profiles: name (unique whatever its case), colour, optional PIN
  (salted scrypt hash, see `companion.store.profiles`);
- ``settings``: key and JSON value.

Changes since (see each migration's docstring): ``m002_events_keyed`` makes ``events`` a
``WITHOUT ROWID`` table keyed by (game, step, sequence) and adds ``games.played``;
``m003_resume_summary`` adds ``games.turn`` and ``games.seat``: where an unfinished game
stands (the game turn being played, whose turn it is), written with the rest of the row
(`companion.store.games.touch`), so that the home screen's Resume offer is read without a
replay (`companion.store.summary`). ``m004_snapshots`` adds ``snapshots``: a game in
progress's state saved with its latest end of turn (`companion.store.snapshots`).

sqlite-utils is imported only when a file needs a migration: `bring_up_to_date` first reads
the names of the migrations the file has had with plain ``sqlite3``, so a file that is up
to date (every start but the first after an update) is opened without it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from companion.sentence import N_
from companion.store.errors import StoreOpenError

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

MIGRATION_SET = "smallworld-companion"
MIGRATIONS_TABLE = "_sqlite_migrations"
"""Where sqlite-utils records the migrations a file has had (set, name, time applied)."""

_Fn = TypeVar("_Fn", bound=Callable[["Database"], None])

_REGISTERED: list[tuple[str, Callable[[Database], None]]] = []
_MADE: list[Migrations] = []  # sqlite-utils' migration set, made on first use


def _migration(name: str) -> Callable[[_Fn], _Fn]:
    """Register the decorated function as the next migration, under `name`."""

    def register(fn: _Fn) -> _Fn:
        _REGISTERED.append((name, fn))
        return fn

    return register


def migrations() -> Migrations:
    """sqlite-utils' migration set of the saved-games file (sqlite-utils is imported by
    the first call)."""
    if not _MADE:
        from sqlite_utils.migrations import Migrations

        made = Migrations(MIGRATION_SET)
        for name, fn in _REGISTERED:
            made(name=name)(fn)
        _MADE.append(made)
    return _MADE[0]


def __getattr__(name: str) -> Any:
    """``MIGRATIONS``: the set `migrations()` makes, made when first asked for."""
    if name == "MIGRATIONS":
        return migrations()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@_migration("m001_initial")
def m001_initial(db: Database) -> None:
    """The first schema (release 0.1)."""
    db.executescript(
        """
        CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            colour TEXT NOT NULL,
            pin TEXT,
            created_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            board TEXT NOT NULL,
            turns INTEGER NOT NULL,
            expansions TEXT NOT NULL,
            dealing TEXT NOT NULL,
            first_seat INTEGER NOT NULL,
            steps INTEGER NOT NULL DEFAULT 0,
            finished_at TEXT,
            result TEXT,
            tie_break TEXT
        ) STRICT;

        CREATE TABLE game_seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            colour TEXT NOT NULL,
            player_id INTEGER REFERENCES players (id) ON DELETE SET NULL,
            final_coins INTEGER,
            rank INTEGER,
            winner INTEGER,
            tie_tokens INTEGER,
            PRIMARY KEY (game_id, seat)
        ) STRICT;
        CREATE INDEX game_seats_player ON game_seats (player_id);

        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            step INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            v INTEGER NOT NULL,
            payload TEXT NOT NULL,
            at TEXT NOT NULL,
            UNIQUE (game_id, step, seq)
        ) STRICT;

        CREATE TABLE turn_scores (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            turn INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            coins INTEGER NOT NULL,
            lines TEXT NOT NULL,
            PRIMARY KEY (game_id, turn, seat)
        ) STRICT;

        CREATE TABLE game_combos (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            row INTEGER NOT NULL,
            race TEXT NOT NULL,
            power TEXT NOT NULL,
            coins INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat, turn)
        ) STRICT;
        CREATE INDEX game_combos_combo ON game_combos (race, power);

        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            updated_at TEXT NOT NULL
        ) STRICT;
        """
    )


@_migration("m002_events_keyed")
def m002_events_keyed(db: Database) -> None:
    """One page per saved step (the release after 0.1.0): ``events`` becomes a
    ``WITHOUT ROWID`` table whose primary key is (game_id, step, seq), replacing the rowid
    table and its UNIQUE index on the same columns, so a step's rows land in one B-tree
    instead of two; and
    ``games`` gets ``played``, the order games were last played in (see
    `companion.store.games.unfinished`), which the events' row ids gave until now.

    Every saved event is copied, unchanged, in this migration's one transaction: the new
    table is filled, the old one dropped and the new one renamed, so the file has either
    the old table or the new one, never half of each. ``played`` numbers the games in the
    order of their latest written event (its row id), then by id, as the old
    "most recently played" did.
    """
    conn = db.conn
    conn.execute("ALTER TABLE games ADD COLUMN played INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        "UPDATE games SET played = ranked.n FROM (SELECT g.id AS id, row_number() OVER ("
        "ORDER BY (SELECT max(e.id) FROM events e WHERE e.game_id = g.id), g.id) AS n "
        "FROM games g) AS ranked WHERE games.id = ranked.id"
    )
    conn.execute(
        """
        CREATE TABLE events_keyed (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            step INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            v INTEGER NOT NULL,
            payload TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, step, seq)
        ) STRICT, WITHOUT ROWID
        """
    )
    conn.execute(
        "INSERT INTO events_keyed (game_id, step, seq, type, v, payload, at) "
        "SELECT game_id, step, seq, type, v, payload, at FROM events "
        "ORDER BY game_id, step, seq"
    )
    conn.execute("DROP TABLE events")
    conn.execute("ALTER TABLE events_keyed RENAME TO events")


@_migration("m003_resume_summary")
def m003_resume_summary(db: Database) -> None:
    """Where an unfinished game stands, kept in its row (the release after m002): ``turn``
    (the game turn being played) and ``seat`` (whose turn it is), for the home screen's
    Resume offer, which is then read before anything else at start, without a replay.

    Only columns are added: every saved game is kept as it was. The games saved before
    this migration have NULL there until their next saved step writes their row (see
    `companion.store.games.touch`); until then their offer comes from a replay.
    """
    db.conn.execute("ALTER TABLE games ADD COLUMN turn INTEGER")
    db.conn.execute("ALTER TABLE games ADD COLUMN seat INTEGER")


@_migration("m004_snapshots")
def m004_snapshots(db: Database) -> None:
    """``snapshots``: one row per game in progress, the state saved with its latest end of
    turn, so that opening it replays only the turn since (`companion.store.snapshots`).

    A table is added, nothing else changes: every game saved before has none until its
    next end of turn, and is replayed from its log until then.
    """
    db.conn.execute(
        "CREATE TABLE snapshots ("
        "game_id INTEGER PRIMARY KEY REFERENCES games(id), "
        "step INTEGER NOT NULL, events INTEGER NOT NULL, last TEXT NOT NULL, "
        "rules TEXT NOT NULL, state BLOB NOT NULL)")


def known() -> list[str]:
    """The names of this release's migrations, in the order they run."""
    return [name for name, _ in _REGISTERED]


def applied(db: Database) -> list[str]:
    """The names of the migrations the file has had, in the order they ran."""
    return [migration.name for migration in migrations().applied(db)]


def applied_names(conn: sqlite3.Connection) -> list[str]:
    """`applied`, read with plain ``sqlite3`` (no sqlite-utils): the names of the
    migrations the file has had, in the order they ran. SQLite errors are passed on."""
    has_table = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MIGRATIONS_TABLE,)
    ).fetchone()
    if has_table is None:
        return []
    return [str(row[0]) for row in conn.execute(
        f"SELECT name FROM {MIGRATIONS_TABLE} WHERE migration_set = ? ORDER BY rowid",
        (MIGRATION_SET,),
    )]  # fmt: skip


def _refuse_newer(done: list[str]) -> None:
    """`StoreOpenError` for a file that had a migration this release does not know."""
    newer = [name for name in done if name not in known()]
    if newer:
        raise StoreOpenError(N_(
            "The saved-games file was written by a newer release of the companion (it has "
            "the change {change}, which this release does not know). Nothing was "
            "changed; update the companion to open it."), change=repr(newer[0]))


def migrate(db: Database) -> list[str]:
    """Bring the file's schema up to date; return the names of the migrations run now.

    Raises `StoreOpenError` for a file written by a newer release, and passes on a SQLite
    error from a migration (whose own transaction was then rolled back).
    """
    _refuse_newer(applied(db))
    made = migrations()
    pending = [migration.name for migration in made.pending(db)]
    if pending:
        made.apply(db)
    return pending


def bring_up_to_date(conn: sqlite3.Connection) -> list[str]:
    """`migrate` the file behind `conn`; sqlite-utils is imported only when a migration is
    pending (the names applied are read with plain ``sqlite3`` first)."""
    done = applied_names(conn)
    _refuse_newer(done)
    if not set(known()) - set(done):
        return []
    return migrate(connect_for_migrations(conn))


def connect_for_migrations(conn: sqlite3.Connection) -> Database:
    """A sqlite-utils view of `conn` (no plugins loaded, nothing changed on it)."""
    from sqlite_utils import Database

    return Database(conn, execute_plugins=False, recursive_triggers=False)
