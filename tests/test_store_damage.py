"""Start-up never fails on data: a game in progress that cannot be read back or replayed,
or a file SQLite cannot read, is damage. The file is set aside (never deleted), the newest
good backup restored (or, with none, a new empty file started), and the home screen says
what happened and what was kept.

Real SQLite files, damaged the way the issue found them (one unreadable record written
with the ``sqlite3`` shell's SQL, pages overwritten), and the real app started headless.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from factories import created, play_turn

from companion.rules.catalog import load_catalog
from companion.rules.history import replay
from companion.session import Session
from companion.store import Store, StoreError, UnreadableGame
from companion.store.errors import StoreReadError

CATALOG = load_catalog()
PAGE = 4096


def played(db: Path, *, turns: int, backup_after: int | None = None) -> tuple[int, int]:
    """A game of 3 saved in `db`, `turns` turns played; a backup (only) after turn
    `backup_after` when given. Returns the game id and its steps at the backup."""
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(7), store=None)
        s.begin(created(3))
        assert s.history is not None
        game_id = store.new_game(s.history.log[0])
        at_backup = 0
        for turn in range(turns):
            play_turn(s, coins=2)
            for step in s.history.log[store.steps(game_id):]:
                store.append_step(game_id, step)
            if backup_after is not None and turn + 1 == backup_after:
                assert store.backup() is not None
                at_backup = store.steps(game_id)
        return game_id, at_backup


def break_last_record(db: Path) -> None:
    """The issue's case: the last event's payload is no longer JSON (quick_check: ok)."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE events SET payload = '{' WHERE (game_id, step, seq) = "
                     "(SELECT game_id, step, seq FROM events WHERE game_id = (SELECT id FROM games "
                     "ORDER BY played DESC LIMIT 1) ORDER BY step DESC, seq DESC LIMIT 1)")
    assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    conn.close()


def aside(db: Path) -> list[Path]:
    """The damaged files set aside beside `db` (without their -wal/-shm companions)."""
    return sorted(p for p in db.parent.iterdir() if p.name.startswith(f"{db.name}.damaged-")
                  and not p.name.endswith(("-wal", "-shm", "-journal")))


def test_an_unreadable_record_in_the_game_in_progress_restores_the_newest_backup(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, at_backup = played(db, turns=3, backup_after=2)
    break_last_record(db)
    with Store.open(db, catalog=CATALOG) as store:
        report = store.recovery
        assert report is not None and report.backup is not None
        assert store.steps(game_id) == at_backup  # the game as the backup kept it
        replay(store.load_log(game_id), CATALOG)
        assert report.game_id == game_id
        assert "set aside as companion.sqlite3.damaged-" in report.message
        assert "The newest good backup" in report.message
        assert "is back at turn" in report.message
        assert "newer release" not in " ".join(report.problems)
        assert "damaged record" in report.problems[0]
    [kept] = aside(db)
    with sqlite3.connect(kept) as conn:  # the damaged file is kept as it was, never deleted
        assert conn.execute("SELECT payload FROM events ORDER BY step DESC, seq DESC "
                            "LIMIT 1").fetchone() == ("{",)


def test_an_unreadable_record_without_a_backup_starts_an_empty_file_and_says_so(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=1)
    break_last_record(db)
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is not None and store.recovery.backup is None
        assert "there was no backup" in store.recovery.message
        assert store.games() == [] and store.unfinished_game() is None
    assert len(aside(db)) == 1


def test_a_log_the_rules_refuse_to_replay_is_damage_too(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, _ = played(db, turns=2)
    conn = sqlite3.connect(db)
    with conn:  # the last step is saved twice over: the log no longer replays
        last = conn.execute("SELECT max(step) FROM events WHERE game_id = ?",
                            (game_id,)).fetchone()[0]
        conn.execute("INSERT INTO events (game_id, step, seq, type, v, payload, at) "
                     "SELECT game_id, step + 1, seq, type, v, payload, at FROM events "
                     "WHERE game_id = ? AND step = ?", (game_id, last))
        conn.execute("UPDATE games SET steps = steps + 1 WHERE id = ?", (game_id,))
    conn.close()
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is not None
        assert "cannot be replayed" in store.recovery.problems[0]
        assert store.unfinished_game() is None


def test_without_recovery_the_tool_reads_the_file_as_it_is(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, _ = played(db, turns=1)
    break_last_record(db)
    with Store.open(db, catalog=CATALOG, recover=False, exclusive=False) as store:
        assert store.recovery is None
        with pytest.raises(UnreadableGame, match="holds a damaged record"):
            store.load_history(game_id)
    assert aside(db) == []


def test_a_read_the_file_refuses_is_the_stores_own_error(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=1)
    with Store.open(db, catalog=CATALOG) as store:
        other = sqlite3.connect(db)
        other.execute("DROP TABLE game_combos")  # the file changes under the app
        other.close()
        with pytest.raises(StoreReadError) as failed:
            store.combo_stats()
        assert isinstance(failed.value, StoreError)
        assert isinstance(failed.value.__cause__, sqlite3.OperationalError)
        assert "could not be read" in str(failed.value)
        assert "Restart the companion" in str(failed.value)


PROBE = """
import sys
from pathlib import Path
from kivy.clock import Clock
import companion.app as start

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def look(_dt):
            home = self.presenters["home"]
            print("SCREEN", self.ctx.nav.current)
            print("TITLE", self.ctx.notices.last_title)
            print("MESSAGE", self.ctx.notices.last_message)
            print("RESUME", home.can_resume, home.resume_text)
            self.stop()
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.3))  # start-up is over

start.TableApp = Probe
start.run_app(Path(sys.argv[1]))
"""


def start_app(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_HOME": str(tmp_path / "kivy")}
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    return subprocess.run([sys.executable, str(script), str(db)], capture_output=True,
                          text=True, timeout=120, env=env)


def test_the_app_starts_on_an_unreadable_record_and_offers_the_restored_game(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=3, backup_after=2)
    break_last_record(db)
    run = start_app(tmp_path, db)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    out = run.stdout
    assert "SCREEN home" in out
    assert "TITLE Saved games" in out
    assert "The saved games could not be read: the file was damaged." in out
    assert "(not deleted)" in out and "The newest good backup" in out
    assert "Anything played after that backup is lost" in out
    assert "RESUME True Resume Ann, Bob and Cy" in out
    assert len(aside(db)) == 1


def test_the_app_starts_on_damaged_pages_with_no_backup_and_says_it_starts_empty(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=2)
    data = bytearray(db.read_bytes())
    rng = random.Random(5)
    data[PAGE:] = rng.randbytes(len(data) - PAGE)  # every page after the header
    db.write_bytes(bytes(data))
    run = start_app(tmp_path, db)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "SCREEN home" in out
    assert "there was no backup, so the companion starts with no saved games" in out
    assert "RESUME False" in out
    assert len(aside(db)) == 1


LOSER = """
import random, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from factories import created, play_turn
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store

catalog = load_catalog()
store = Store.open(Path(sys.argv[1]), catalog=catalog)
s = Session(catalog, rng=random.Random(7), store=store)
s.begin(created(3))
play_turn(s, coins=2)
store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file holds this much
for _ in range(3):
    play_turn(s, coins=2)  # each end of turn takes a backup; these steps stay in the WAL
s.finish_conquests()  # one more step after the last backup
print("STEPS", store.steps(s.game_id), flush=True)
sys.stdin.read()
"""


def test_steps_lost_with_the_wal_are_found_and_the_longer_backup_restored(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", LOSER, str(db),
                              str(Path(__file__).parent)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    played_steps = int(child.stdout.readline().split()[1])
    child.kill()  # SIGKILL during play
    child.wait(timeout=60)
    for suffix in ("-wal", "-shm"):
        db.with_name(db.name + suffix).unlink()
    with Store.open(db, catalog=CATALOG) as store:
        report = store.recovery
        assert report is not None and report.lost and not report.kept
        [loss] = report.lost
        assert 0 < loss.in_file < loss.in_backup == played_steps - 1  # all but the undo
        game_id = store.unfinished_game()
        assert game_id == loss.game_id and store.steps(game_id) == loss.in_backup
        replay(store.load_log(game_id), CATALOG)
        assert report.damaged is not None and report.damaged.name.startswith(
            "companion.sqlite3.short-")
        assert report.damaged.exists()  # the shorter file is kept
        assert report.message.startswith("Some of what was played was missing from the "
                                         "saved games")
        assert f"{loss.in_backup - loss.in_file} of {loss.in_backup} steps missing" in (
            report.message)
        assert "That backup was restored" in report.message
        assert "is back at turn" in report.message
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is None  # once restored, nothing more is missing


def test_a_file_that_holds_more_than_the_backup_elsewhere_is_kept_and_the_loss_told(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, at_backup = played(db, turns=2, backup_after=1)
    [backup] = sorted((tmp_path / "backups").iterdir())
    with sqlite3.connect(db) as conn:  # the file loses game 1's last turn...
        conn.execute("DELETE FROM events WHERE game_id = ? AND step > ?",
                     (game_id, at_backup - 1))
        conn.execute("UPDATE games SET steps = ? WHERE id = ?", (at_backup - 1, game_id))
    conn.close()
    # ...but holds a game the backup lacks (saved without the checks, as a tool would)
    with Store.open(db, catalog=CATALOG, recover=False) as store:
        s = Session(CATALOG, rng=random.Random(3), store=store)
        s.begin(created(2))
    with Store.open(db, catalog=CATALOG) as store:
        report = store.recovery
        assert report is not None and report.kept and report.damaged is None
        assert report.lost[0].game_id == game_id
        assert "both were kept as they are" in report.message
        assert backup.name in report.message
        assert len(store.games()) == 2  # nothing of the file was replaced
