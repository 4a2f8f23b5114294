"""One page per save: the keyed event log, the step count in memory, the games row once a turn.

- the migration to the keyed log (``m002_events_keyed``) keeps every saved game, on the
  0.1.0 file and on a file written the way the store wrote until then: every event is
  there unchanged, every game replays to the same state, the game to resume is the same,
  and the next steps append;
- a second store whose remembered step count is stale is refused (`StepConflict`) by the
  log's primary key, writes nothing, and the log still replays;
- an ordinary step writes one page to the write-ahead log (counted from the real -wal
  file's size), a step that ends a turn two (the games row too);
- what the games row no longer says at every step (steps, last change) is read from the
  log, so it is right after a power cut in the middle of a turn, and so is the loss found
  at start by comparing the file with a backup.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from companion.rules.catalog import load_catalog
from companion.rules.events import GameCreated, TurnEnded
from companion.rules.game import GameState
from companion.rules.history import replay
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store
from companion.store import events as store_events
from companion.store.errors import GameAlreadyFinished, StepConflict, StoreOpenError
from companion.store.migrations import MIGRATIONS, applied, connect_for_migrations, known
from companion.store.recovery import find_loss
from tests.factories import created, end_turn, finish_redeployment, play_turn

CATALOG = load_catalog()
DATA = Path(__file__).parent / "data"
KEYED = "m002_events_keyed"
ROWS = "SELECT game_id, step, seq, type, v, payload, at FROM events ORDER BY game_id, step, seq"


def states(conn: sqlite3.Connection) -> dict[int, GameState]:
    """Every game's state, replayed from its log as stored (any schema)."""
    ids = [int(row[0]) for row in conn.execute("SELECT id FROM games ORDER BY id")]
    return {g: replay(store_events.load(conn, g), CATALOG).state for g in ids}


def keyed_schema(conn: sqlite3.Connection) -> None:
    """The log is a WITHOUT ROWID table keyed (game_id, step, seq), with no other index."""
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()
    assert "WITHOUT ROWID" in sql and "PRIMARY KEY (game_id, step, seq)" in sql
    indexes = conn.execute("PRAGMA index_list(events)").fetchall()
    assert [row[3] for row in indexes] == ["pk"]  # the key itself; no UNIQUE index beside it


def play_on(store: Store, game_id: int) -> None:
    """Resume the game in a session on `store`, end its turn and play one more."""
    s = Session(CATALOG, rng=random.Random(5), store=store)
    assert s.resume() is not None and s.game_id == game_id
    assert s.history is not None
    before = len(s.history.log)
    if s.state.track.phase in (Phase.PICK_COMBO, Phase.CONQUER):
        play_turn(s, coins=1)
    else:  # stopped after conquering
        if s.state.track.phase is Phase.REDEPLOY:
            finish_redeployment(s)
        s.score(1)
        end_turn(s)
    play_turn(s, coins=1)  # and a whole turn more
    assert len(s.history.log) > before + 3
    assert store.load_log(game_id) == list(s.history.log)
    assert store.steps(game_id) == len(s.history.log)


def migrated_keeps_everything(db: Path, unfinished: int) -> None:
    with closing(sqlite3.connect(db)) as conn:
        assert applied(connect_for_migrations(conn)) == known()[: known().index(KEYED)]
        rows = conn.execute(ROWS).fetchall()
        before = states(conn)
    assert rows and before
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is None and KEYED in store.migrated
        keyed_schema(store.conn)
        assert store.conn.execute(ROWS).fetchall() == rows  # every event, unchanged
        assert states(store.conn) == before  # every game replays to the same state
        for game_id, state in before.items():
            assert store.load_history(game_id).state == state
            assert store.steps(game_id) == store.game(game_id).steps
        assert store.unfinished_game() == unfinished
        play_on(store, unfinished)  # and the next steps append
    with Store.open(db, catalog=CATALOG) as store:  # as saved, after a restart
        assert store.unfinished_game() == unfinished
        replay(store.load_log(unfinished), CATALOG)


def test_the_keyed_log_keeps_every_game_of_the_0_1_0_file(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    shutil.copyfile(DATA / "store-0.1.0.sqlite3", db)
    with closing(sqlite3.connect(db)) as conn:
        (finished,) = conn.execute("SELECT id FROM games WHERE finished_at IS NOT NULL "
                                   "LIMIT 1").fetchone()  # fmt: skip
    migrated_keeps_everything(db, unfinished=2)
    with Store.open(db, catalog=CATALOG) as store:
        log = store.load_log(finished)
        with pytest.raises(GameAlreadyFinished):
            store.append_step(finished, log[-1], number=len(log) + 1)


def save_the_old_way(conn: sqlite3.Connection, game_id: int | None, s: Session, at: str) -> int:
    """Save the steps of `s` the file lacks as the store did before the keyed log: the
    games row's counter at every step, one rowid row per event. Return the game id."""
    assert s.history is not None
    log = s.history.log
    if game_id is None:
        first = s.history.log[0][0]
        assert isinstance(first, GameCreated)
        game_id = conn.execute(
            "INSERT INTO games (created_at, updated_at, board, turns, expansions, dealing, "
            "first_seat) VALUES (?, ?, ?, ?, '[\"base\"]', ?, ?)",
            (at, at, first.board, first.turns, first.dealing, first.first_seat),
        ).lastrowid
        assert game_id is not None
    (steps,) = conn.execute("SELECT steps FROM games WHERE id = ?", (game_id,)).fetchone()
    for step in log[steps:]:
        (number,) = conn.execute("UPDATE games SET steps = steps + 1, updated_at = ? "
                                 "WHERE id = ? RETURNING steps", (at, game_id)).fetchone()
        conn.executemany(
            "INSERT INTO events (game_id, step, seq, type, v, payload, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, number, seq, *store_events.encode(e), at) for seq, e in enumerate(step)],
        )  # fmt: skip
    return game_id


def test_the_keyed_log_keeps_every_game_of_a_file_written_before_it(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        MIGRATIONS.apply(connect_for_migrations(conn), stop_before=KEYED)  # today's schema
        conn.execute("BEGIN")
        at = "2025-03-01T19:00:00.000+00:00"
        done = Session(CATALOG, rng=random.Random(1))
        done.begin(created(2))
        for _ in range(3):
            play_turn(done, coins=2)
        one = save_the_old_way(conn, None, done, at)
        conn.execute("UPDATE games SET finished_at = ?, result = 'over' WHERE id = ?", (at, one))
        older = Session(CATALOG, rng=random.Random(2))
        older.begin(created(3))
        play_turn(older, coins=1)
        two = save_the_old_way(conn, None, older, at)
        newer = Session(CATALOG, rng=random.Random(3))
        newer.begin(created(4))
        play_turn(newer, coins=3)
        save_the_old_way(conn, None, newer, at)  # created last...
        older.pick(0)
        older.finish_conquests()
        finish_redeployment(older)
        save_the_old_way(conn, two, older, at)  # ...but the older game was played last,
        conn.execute("COMMIT")  # stopped in the middle of a turn
    migrated_keeps_everything(db, unfinished=two)



def test_a_migration_that_fails_half_way_leaves_the_old_log_whole(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    shutil.copyfile(DATA / "store-0.1.0.sqlite3", db)
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(ROWS).fetchall()
        with conn:  # a table in the way makes the migration fail after its first changes
            conn.execute("CREATE TABLE events_keyed (x)")
    with pytest.raises(StoreOpenError, match="could not be brought up to date"):
        Store.open(db, catalog=CATALOG, recover=False)
    with closing(sqlite3.connect(db)) as conn:
        assert applied(connect_for_migrations(conn)) == ["m001_initial"]
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
        assert "played" not in columns  # its first change was rolled back with the rest
        (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()
        assert "UNIQUE" in sql and conn.execute(ROWS).fetchall() == rows
        with conn:
            conn.execute("DROP TABLE events_keyed")
    with Store.open(db, catalog=CATALOG) as store:  # the next start migrates it whole
        assert KEYED in store.migrated and store.conn.execute(ROWS).fetchall() == rows


# -- the step count in memory, the primary key as the judge -------------------------------


@pytest.fixture
def two_stores(tmp_path: Path) -> Iterator[tuple[Store, Store, int, list[Any]]]:
    """Two stores on one file (as two apps would be without the lock), a game created by
    the first, and the steps of a session playing it (not saved yet beyond the first)."""
    db = tmp_path / "companion.sqlite3"
    s = Session(CATALOG, rng=random.Random(7))
    s.begin(created(3))
    play_turn(s, coins=1)
    assert s.history is not None
    log = list(s.history.log)
    first = Store.open(db, catalog=CATALOG, exclusive=False)
    second = Store.open(db, catalog=CATALOG, exclusive=False)
    try:
        game_id = first.new_game(log[0])
        yield first, second, game_id, log
    finally:
        first.close()
        second.close()


def test_a_stale_step_count_is_refused_by_the_key_and_the_log_still_replays(
    two_stores: tuple[Store, Store, int, list[Any]],
) -> None:
    first, second, game_id, log = two_stores
    assert second.append_step(game_id, log[1], number=2) == 2  # the second remembers 2
    assert first.append_step(game_id, log[2], number=3) == 3  # the first reads 2 and saves
    with pytest.raises(StepConflict) as refused:  # the second's memory (2) is stale
        second.append_step(game_id, log[3], number=3)
    assert refused.value.reason == "conflict"
    assert "game 1 has 3 saved steps, but this screen has seen 2" in str(refused.value)
    assert second.load_log(game_id) == log[:3]  # nothing of the refused step was written
    replay(second.load_log(game_id), CATALOG)
    assert second.append_step(game_id, log[3], number=4) == 4  # read again: the next one
    with pytest.raises(StepConflict):  # the first remembers 3: refused, not duplicated
        first.append_step(game_id, log[3], number=4)
    assert first.load_log(game_id) == log[:4]
    assert first.append_step(game_id, log[4], number=5) == 5
    assert first.steps(game_id) == second.steps(game_id) == 5
    assert replay(first.load_log(game_id), CATALOG).log == tuple(log[:5])


def test_the_key_refuses_a_second_copy_of_a_step_whatever_the_store_remembers(
    two_stores: tuple[Store, Store, int, list[Any]],
) -> None:
    first, _second, game_id, log = two_stores
    first.append_step(game_id, log[1], number=2)
    with pytest.raises(sqlite3.IntegrityError):  # the log itself, under any writer
        first.conn.execute(
            "INSERT INTO events (game_id, step, seq, type, v, payload, at) "
            "VALUES (?, 2, 0, 'x', 1, '{}', 'now')", (game_id,))
    with pytest.raises(StepConflict):
        first._last_step[game_id] = 1  # as if another store's step 2 had not been seen
        first.append_step(game_id, log[2], number=2)
    assert first.load_log(game_id) == log[:2]


# -- one page per save --------------------------------------------------------------------


def test_a_step_writes_one_page_and_an_end_of_turn_two(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    wal = db.with_name(db.name + "-wal")
    with Store.open(db, catalog=CATALOG) as store:
        store.conn.execute("PRAGMA wal_autocheckpoint = 0")  # the -wal file only grows
        page = int(store.conn.execute("PRAGMA page_size").fetchone()[0])
        frame = page + 24  # a WAL frame: its header and one page
        s = Session(CATALOG, rng=random.Random(4), store=store)
        s.begin(created(3))
        frames: dict[str, list[int]] = {"step": [], "turn end": []}
        saved = store.append_step

        def counted(game_id: int, step: Any, *, number: int | None = None) -> int:
            size = wal.stat().st_size
            pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
            number = saved(game_id, step, number=number)
            grown = store.conn.execute("PRAGMA page_count").fetchone()[0] != pages
            if not grown:  # a full leaf split adds pages: not this mechanism
                written, rest = divmod(wal.stat().st_size - size, frame)
                assert rest == 0
                kind = "turn end" if any(isinstance(e, TurnEnded) for e in step) else "step"
                frames[kind].append(written)
            return number

        store.append_step = counted  # type: ignore[method-assign]
        for _ in range(6):
            play_turn(s, coins=2)
    assert len(frames["step"]) >= 12 and len(frames["turn end"]) >= 3
    assert set(frames["step"]) == {1}  # the log's page alone
    assert set(frames["turn end"]) == {2}  # and the games row, once a turn


# -- what the games row no longer says at every step ------------------------------------


def test_a_game_cut_off_mid_turn_reads_right_from_its_log(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(6), store=store)
        s.begin(created(3))
        play_turn(s, coins=2)  # the games row is written at the end of the turn
        at_turn_end = store.steps(s.game_id or 0)
        s.pick(0)
        s.finish_conquests()  # two steps more, the row not written again
        assert s.history is not None and s.game_id is not None
        game_id, steps = s.game_id, len(s.history.log)
    # the plug is pulled here: a new store reads the file as it is
    with Store.open(db, catalog=CATALOG) as store:
        (row,) = store.conn.execute("SELECT steps FROM games WHERE id = ?", (game_id,)).fetchone()
        assert row == at_turn_end < steps  # the row is as of the end of the turn...
        assert store.steps(game_id) == store.game(game_id).steps == steps  # ...the log says
        assert store.unfinished_game() == game_id
        assert len(store.load_log(game_id)) == steps


def test_loss_is_counted_in_the_log_not_in_the_games_row(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(8), store=store)
        s.begin(created(3))
        play_turn(s, coins=2)
        s.pick(0)
        s.finish_conquests()
        finish_redeployment(s)  # mid-turn: the games row says less than the log
        assert s.game_id is not None and s.history is not None
        game_id, steps = s.game_id, len(s.history.log)
        backup = store.backup()
        assert backup is not None
    with closing(sqlite3.connect(db)) as conn:
        with conn:  # the file loses its last two steps (a -wal file lost, say)
            conn.execute("DELETE FROM events WHERE game_id = ? AND step > ?",
                         (game_id, steps - 2))
        (row,) = conn.execute("SELECT steps FROM games WHERE id = ?", (game_id,)).fetchone()
        assert row < steps - 2  # by the rows, nothing would be missing
        lost, covers = find_loss(conn, backup)
    assert [(x.game_id, x.in_file, x.in_backup) for x in lost] == [(game_id, steps - 2, steps)]
    assert covers
