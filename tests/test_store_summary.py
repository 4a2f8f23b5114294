"""The Resume offer's summary (``games.turn`` / ``games.seat``, migration m003): read with
plain sqlite3 before anything else at start, it says what a replay of the game says, and
a file it cannot use gives no summary, never an error."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from factories import created, play_turn

from bench.scripted import ScriptedPlayer, seats
from companion.rules.catalog import load_catalog
from companion.rules.standings import needs_token_count
from companion.session import Session
from companion.store import Store
from companion.store.summary import ResumeSummary, read
from companion.ui.describe import resume_text

CATALOG = load_catalog()
DATA = Path(__file__).parent / "data"


def replayed(store: Store) -> ResumeSummary | None:
    """The summary a replay of the unfinished game gives."""
    game_id = store.unfinished_game()
    if game_id is None:
        return None
    state = store.load_history(game_id).state
    return ResumeSummary(game_id, tuple(p.name for p in state.players), state.track.turn,
                         state.track.turns, state.track.seat)  # fmt: skip


def test_a_new_game_is_summed_up_at_its_first_turn(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        session = Session(CATALOG, rng=random.Random(1), store=store)
        session.begin(created(4, first_seat=2))
        assert read(db) == ResumeSummary(1, ("Ann", "Bob", "Cy", "Di"), 1, 9, 2)
        assert store.resume_summary() == read(db) == replayed(store)


def test_the_summary_follows_every_end_of_turn_undos_and_all(tmp_path: Path) -> None:
    """A whole 5-player game played at random (undos included): after every intent the
    summary read from the file (the app still running on it) is the replay's."""
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        session = Session(CATALOG, rng=random.Random(3), store=store)
        session.new_game(seats(5), first_seat=1)
        player = ScriptedPlayer(session, random.Random(4))
        player.undo_rate = 0.2
        seen: set[tuple[int, int]] = set()
        while not session.state.is_over:
            player.intent()
            summary = read(db)
            assert summary is not None and summary == replayed(store)
            seen.add((summary.turn, summary.seat))
        assert len(seen) > 5 * 4  # it moved on with the game, seat by seat


def test_the_app_offers_the_game_a_replay_would(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        session = Session(CATALOG, rng=random.Random(4), store=store)
        session.begin(created(3))
        for _ in range(4):
            play_turn(session, coins=2)
    summary = read(db)
    assert summary is not None
    assert resume_text(summary) == "Resume Ann, Bob and Cy: turn 2 of 10, Bob's turn"


def test_a_game_saved_before_the_summary_is_offered_from_a_replay_until_it_is_played(
    tmp_path: Path,
) -> None:
    from companion.app import summary_of

    db = tmp_path / "companion.sqlite3"
    shutil.copyfile(DATA / "store-0.1.0-m002.sqlite3", db)
    assert read(db) is None  # no summary columns yet: no offer before the first frame
    with Store.open(db, catalog=CATALOG) as store:
        game_id = store.unfinished_game()
        assert game_id is not None
        assert store.resume_summary() is None  # migrated, but never written since
        history = store.load_history(game_id)
        offer = summary_of(game_id, history.state)
        assert offer == replayed(store)
        session = Session(CATALOG, rng=random.Random(5), store=store)
        assert session.resume() is not None
        ScriptedPlayer(session, random.Random(6)).intent()  # the first step writes the row
        assert store.resume_summary() == replayed(store)
    assert read(db) is not None


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 300,
                                     b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_file_that_is_not_a_saved_games_file_has_no_summary(tmp_path: Path,
                                                              content: bytes) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(content)
    assert read(db) is None
    assert db.read_bytes() == content  # read, never written


def test_no_file_no_folder_a_folder_or_a_bad_path_has_no_summary(tmp_path: Path) -> None:
    assert read(tmp_path / "none.sqlite3") is None
    assert not (tmp_path / "none.sqlite3").exists()  # not created by reading
    assert read(tmp_path / "no" / "folder.sqlite3") is None
    assert read(tmp_path) is None
    assert read(Path("bad\x00path.sqlite3")) is None


def test_a_finished_game_is_not_offered(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        session = Session(CATALOG, rng=random.Random(7), store=store)
        session.new_game(seats(3), first_seat=0)
        player = ScriptedPlayer(session, random.Random(8))
        while not session.state.is_over:
            player.intent()
        coins = {p.seat: p.coins for p in session.state.players}
        session.finish({seat: 10 + seat for seat in needs_token_count(coins)} or None)
    assert read(db) is None


def test_a_damaged_summary_row_gives_no_summary(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        Session(CATALOG, rng=random.Random(9), store=store).begin(created(3))
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE games SET seat = 7")  # no such seat
    conn.close()
    assert read(db) is None


@pytest.mark.parametrize("fixture", ["store-0.1.0.sqlite3", "store-0.1.0-m002.sqlite3"])
def test_m003_adds_the_summary_and_keeps_every_saved_game(tmp_path: Path,
                                                          fixture: str) -> None:
    db = tmp_path / "companion.sqlite3"
    shutil.copyfile(DATA / fixture, db)

    def contents() -> list[object]:
        conn = sqlite3.connect(db)
        try:
            return [conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                    for table in ("game_seats", "turn_scores", "game_combos", "players")] + [
                conn.execute("SELECT game_id, step, seq, type, v, payload, at FROM events "
                             "ORDER BY game_id, step, seq").fetchall(),
                conn.execute("SELECT id, created_at, board, turns, finished_at, result "
                             "FROM games ORDER BY id").fetchall()]
        finally:
            conn.close()

    before = contents()
    with Store.open(db, catalog=CATALOG) as store:
        assert "m003_resume_summary" in store.migrated
        assert store.resume_summary() is None  # not written until the game is played
        games = store.conn.execute("SELECT count(*), count(turn), count(seat) FROM games")
        assert games.fetchone()[1:] == (0, 0)
    assert contents() == before  # every saved game as it was


@pytest.mark.parametrize("expansion", [{"necromancer": True}, {"river_world": True}])
def test_the_summary_follows_an_expansion_game_as_a_replay_does(
        tmp_path: Path, expansion: dict[str, bool]) -> None:
    """The summary moves the rules' turn track once per end of turn; a game with the
    Necromancer or on River World passes its turns as the replay does."""
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        session = Session(CATALOG, rng=random.Random(3), store=store)
        session.new_game(seats(4), first_seat=1, **expansion)
        player = ScriptedPlayer(session, random.Random(4))
        turns: set[int] = set()
        while not session.state.is_over:
            player.intent()
            summary = read(db)
            assert summary is not None and summary == replayed(store)
            turns.add(summary.turn)
        assert len(turns) == session.state.track.turns
