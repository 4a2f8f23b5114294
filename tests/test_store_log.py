"""The event log: steps saved whole, read back in order, and a game resumed exactly.

Every test uses a real SQLite file in a temporary folder.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from factories import NAMES, final_target, play_turn, session

from companion.rules.catalog import load_catalog
from companion.rules.events import SCHEMA_VERSION, ComboPicked, StepUndone, TurnScored
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import GameAlreadyFinished, Store, StoreError, UnknownGame, UnreadableGame

CATALOG = load_catalog()


def sync(store: Store, game_id: int | None, s: Session) -> int:
    """Save the session's steps the store does not have yet; return the game id."""
    assert s.history is not None
    if game_id is None:
        game_id = store.new_game(s.history.log[0])
    for step in s.history.log[store.steps(game_id):]:
        store.append_step(game_id, step)
    return game_id


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


def test_a_new_game_is_step_one_and_each_intent_the_next_step(db: Path) -> None:
    s = session(3)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = store.new_game(s.history.log[0])  # type: ignore[union-attr]
        s.pick(2)
        assert store.append_step(game_id, s.history.log[-1]) == 2  # type: ignore[union-attr]
        s.finish_conquests()
        assert store.append_step(game_id, s.history.log[-1]) == 3  # type: ignore[union-attr]
        assert store.load_log(game_id) == list(s.history.log)  # type: ignore[union-attr]


def test_every_event_row_says_game_step_sequence_type_version_payload_and_time(
    db: Path,
) -> None:
    s = session(3)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        rows = store.conn.execute(
            "SELECT game_id, step, seq, type, v, payload, at FROM events ORDER BY step, seq"
        ).fetchall()
    assert [r[:3] for r in rows] == [(game_id, 1, seq) for seq in range(len(s.history.log[0]))]  # type: ignore[union-attr]
    assert rows[0][3] == "game_created" and rows[1][3] == "combo_revealed"
    assert all(r[4] == SCHEMA_VERSION for r in rows)
    assert '"board":"3p"' in rows[0][5]
    assert datetime.fromisoformat(rows[0][6]).tzinfo is not None


def test_the_pragmas_are_set_on_every_connection_again(db: Path) -> None:
    for _ in range(2):  # synchronous resets when a connection closes
        with Store.open(db, catalog=CATALOG) as store:
            assert store.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            assert store.conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
            assert store.conn.execute("PRAGMA foreign_keys").fetchone() == (1,)


def test_a_game_is_resumed_mid_turn_with_its_undo_history(db: Path) -> None:
    s = session(4, seed=7)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        for row in (0, 2, 1, 0):
            play_turn(s, row=row, coins=row + 2)
        play_turn(s, coins=4)  # the first player's second turn
        s.finish_conquests()
        s.undo()  # back to conquering: undone, still in the log
        region, tokens_left = final_target(s)
        s.attempt_final_conquest(region, tokens_left)  # then conquests are over: redeploying
        s.finish_redeployment()  # mid-turn: scoring next
        sync(store, game_id, s)
    live = s.history
    assert live is not None and live.state.track.phase is Phase.SCORE

    with Store.open(db, catalog=CATALOG) as store:
        assert store.unfinished_game() == game_id
        resumed = store.load_history(game_id)
    assert resumed == live  # log, steps in force and every state: undo history included
    assert resumed.state == live.state
    assert resumed.state.track.turn == 2 and resumed.state.current.name == NAMES[1]
    # Undo after the resume does what it would have done before it.
    assert resumed.record((StepUndone(),)) == live.record((StepUndone(),))


def test_replay_of_the_saved_log_equals_the_live_game_at_every_step(db: Path) -> None:
    s = session(2, seed=3)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        while not s.state.is_over:
            play_turn(s, row=1, coins=3)
            sync(store, game_id, s)
            assert store.load_history(game_id) == s.history


def test_the_most_recently_played_unfinished_game_is_the_one_resumed(db: Path) -> None:
    first, second = session(3), session(2)
    with Store.open(db, catalog=CATALOG) as store:
        assert store.unfinished_game() is None
        one = sync(store, None, first)
        two = sync(store, None, second)
        assert store.unfinished_game() == two
        first.pick(0)
        sync(store, one, first)
        assert store.unfinished_game() == one


def test_a_step_that_cannot_be_encoded_writes_nothing(db: Path) -> None:
    s = session(3)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        bad = TurnScored(0, 3, lines=(("regions", object()),))  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            store.append_step(game_id, (ComboPicked(0, 0, "Amazons", "Alchemist"), bad))
        assert store.steps(game_id) == 1
        assert store.load_log(game_id) == list(s.history.log)  # type: ignore[union-attr]
        assert not store.conn.in_transaction


def test_an_unknown_game_is_named(db: Path) -> None:
    with Store.open(db, catalog=CATALOG) as store:
        with pytest.raises(UnknownGame, match="no game 42"):
            store.append_step(42, (StepUndone(),))
        with pytest.raises(UnknownGame, match="no game 42"):
            store.load_log(42)


def test_a_first_step_must_create_the_game(db: Path) -> None:
    with Store.open(db, catalog=CATALOG) as store, pytest.raises(ValueError, match="GameCreated"):
        store.new_game((StepUndone(),))


def test_a_record_this_release_cannot_read_is_reported_not_guessed(db: Path) -> None:
    s = session(3)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        store.conn.execute("UPDATE events SET v = 99 WHERE step = 1 AND seq = 1")
        with pytest.raises(UnreadableGame, match=r"step 1 .*schema version 99"):
            store.load_log(game_id)


def test_a_finished_game_takes_no_more_steps(db: Path) -> None:
    from companion.rules.standings import final_standings

    s = session(2)
    while not s.state.is_over:
        play_turn(s, coins=1 + s.state.track.seat)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        coins = {p.seat: p.coins for p in s.state.players}
        store.finish_game(game_id, final_standings(coins))
        with pytest.raises(GameAlreadyFinished, match="finished"):
            store.append_step(game_id, (StepUndone(),))
        assert store.unfinished_game() is None


def test_an_unfinished_game_cannot_be_closed_as_finished(db: Path) -> None:
    from companion.rules.standings import final_standings

    s = session(2)
    play_turn(s, coins=2)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        with pytest.raises(StoreError, match=r"not over yet \(turn 1 of 10"):
            store.finish_game(game_id, final_standings({0: 7, 1: 5}))
        assert store.game(game_id).finished_at is None


def test_times_come_from_the_clock_given(db: Path) -> None:
    @dataclass
    class Clock:
        now: datetime

        def __call__(self) -> datetime:
            return self.now

    clock = Clock(datetime(2025, 3, 1, 19, 0, tzinfo=UTC))
    s = session(2)
    with Store.open(db, catalog=CATALOG, clock=clock) as store:
        game_id = sync(store, None, s)
        clock.now = datetime(2025, 3, 1, 19, 5, tzinfo=UTC)
        s.pick(0)
        sync(store, game_id, s)
        game = store.game(game_id)
    assert game.created_at == datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
    assert game.updated_at == datetime(2025, 3, 1, 19, 5, tzinfo=UTC)


def test_the_store_leaves_no_write_open_between_calls(db: Path) -> None:
    s = session(3)
    with Store.open(db, catalog=CATALOG) as store:
        sync(store, None, s)
        assert not store.conn.in_transaction
        other = sqlite3.connect(db, timeout=0)
        other.execute("BEGIN IMMEDIATE")  # the writer lock is free: a tool may write
        other.rollback()
        other.close()


def test_the_store_imports_no_ui_or_device_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import companion.store\n"
        "print(sorted(m for m in sys.modules "
        "if m.split('.')[0] in {'kivy', 'gpiozero', 'serial', 'hardware'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_record_repeated_in_the_log_is_decoded_once(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo and redo write the same records again: reading the log decodes each distinct
    record once and hands back equal steps."""
    from companion.store import events as stored

    s = session(2, seed=3)
    s.pick(0)
    for _ in range(5):
        s.undo()
        s.redo()
    assert s.history is not None
    decoded: list[tuple[str, int, str]] = []
    real = stored.decode

    def counting(kind: str, version: int, payload: str) -> object:
        decoded.append((kind, version, payload))
        return real(kind, version, payload)

    with Store.open(db, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        monkeypatch.setattr(stored, "decode", counting)
        log = store.load_log(game_id)
    assert log == list(s.history.log)
    assert len(decoded) == len(set(decoded))
    assert len(decoded) < sum(len(step) for step in log)
