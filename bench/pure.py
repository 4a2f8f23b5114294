"""The benchmarks that need no window: durable intent, replay, scoring, grid parser.

Each function measures one thing for this project and its baseline in the same run and
returns `Result`s. Sizes are arguments so that the smoke test can run them tiny.
"""

from __future__ import annotations

import gc
import random
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Result, filesystem_of, summary
from bench.scripted import ScriptedPlayer, seats
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.events import TurnEnded
from companion.rules.game import GameState
from companion.rules.history import replay
from companion.rules.income import income, scoring_input
from companion.rules.scoring import score_turn
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store
from companion.store.database import DEFAULT_TIMEOUT
from hardware.grid import bench as grid_bench

MS = 1000.0
US = 1_000_000.0


def _clock(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


# --- a finished 5-player game in a store ------------------------------------------------


class PlayedGame:
    """A 5-player game played through a Session with a real Store, timed intent by intent.

    While it plays, a bare sqlite3 connection with the store's pragmas commits one row of
    the same size as a step beside each intent, in the same folder, alternately right
    after it and right before the next one: the baseline sees the same disk at the same
    moment, and neither always goes second.
    """

    def __init__(self, folder: Path, *, players: int = 5, seed: int = 2025,
                 catalog: Catalog | None = None, bare_commits: bool = True) -> None:
        self.folder = folder
        self.catalog = catalog or load_catalog()
        self.path = folder / "bench-game.sqlite3"
        self.store = Store.open(self.path, catalog=self.catalog)
        self.session = Session(self.catalog, rng=random.Random(seed), store=self.store)
        self.intent_s: list[tuple[str, float]] = []  # (intent, seconds), backups included
        self.append_s: list[float] = []  # Store.append_step alone
        self.backup_s: list[float] = []  # Store.backup (after each end of turn)
        self.bare_s: list[float] = []
        self.step_bytes: list[int] = []
        self._bare = _bare_connection(folder / "bench-bare.sqlite3") if bare_commits else None
        self._wrap_store()
        self.session.new_game(seats(players), first_seat=0)
        assert self.session.game_id is not None
        self.game_id: int = self.session.game_id
        player = ScriptedPlayer(TimedSession(self.session, self.intent_s),  # type: ignore[arg-type]
                                random.Random(seed + 1))
        intents, bare = 0, self._bare
        while not self.session.state.is_over:
            # The bare commit goes before the intent every other time, after it otherwise:
            # the one that runs second finds the disk just flushed by the first.
            before = intents % 2 == 1
            if bare is not None and before:
                self.bare_s.append(_bare_commit(bare, self.step_bytes[-1]))
            player.intent()
            intents += 1
            if bare is not None and not before:
                self.bare_s.append(_bare_commit(bare, self.step_bytes[-1]))
        if self._bare is not None:
            self._bare.close()

    def _wrap_store(self) -> None:
        from companion.store import events as store_events

        store = self.store
        append, backup = store.append_step, store.backup

        def timed_append(game_id: int, step: Any, *, number: int | None = None) -> int:
            self.step_bytes.append(sum(len(store_events.encode(e)[2]) for e in step))
            started = time.perf_counter()
            number = append(game_id, step, number=number)
            self.append_s.append(time.perf_counter() - started)
            return number

        def timed_backup() -> Path | None:
            started = time.perf_counter()
            made = backup()
            self.backup_s.append(time.perf_counter() - started)
            return made

        store.append_step = timed_append  # type: ignore[method-assign]
        store.backup = timed_backup  # type: ignore[method-assign]

    def close(self) -> None:
        self.store.close()


class TimedSession:
    """The session as the scripted players see it, timing each intent from call to return.

    Only the session's work is timed (rules, store, publishing), not the script's
    choosing of what to do next.
    """

    def __init__(self, session: Session, sink: list[tuple[str, float]]) -> None:
        self._session = session
        self._sink = sink

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._session, name)
        if name.startswith("_") or not callable(attribute):
            return attribute

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return attribute(*args, **kwargs)
            finally:
                self._sink.append((name, time.perf_counter() - started))

        return timed


def _bare_connection(path: Path) -> sqlite3.Connection:
    """A bare sqlite3 connection set up exactly as the store sets up its own."""
    conn = sqlite3.connect(str(path), timeout=DEFAULT_TIMEOUT, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(DEFAULT_TIMEOUT * 1000)}")
    conn.execute("PRAGMA journal_mode = WAL").fetchall()
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    return conn


def _bare_commit(conn: sqlite3.Connection, size: int) -> float:
    """One row of `size` bytes in one transaction, as the store writes a step."""
    body = "x" * size
    started = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO log (body) VALUES (?)", (body,))
    conn.execute("COMMIT")
    return time.perf_counter() - started


def durable_intent(game: PlayedGame) -> list[Result]:
    """One intent saved (rules, one transaction, fsync) against a bare sqlite3 commit."""
    plain = [s for name, s in game.intent_s if name != "end_turn"]
    ends = [s for name, s in game.intent_s if name == "end_turn"]
    intent = summary([s * MS for s in plain])
    append = summary([s * MS for s in game.append_s])
    bare = summary([s * MS for s in game.bare_s])
    backups = summary([s * MS for s in game.backup_s])
    turn_end = summary([s * MS for s in ends])
    disk = filesystem_of(game.folder)
    detail = {"intent_ms": intent, "append_step_ms": append, "bare_commit_ms": bare,
              "end_turn_with_backup_ms": turn_end, "backup_ms": backups,
              "disk": disk, "folder": str(game.folder),
              "step_bytes": summary([float(b) for b in game.step_bytes])}
    ratio_ok = bool(bare) and intent["p50"] <= 1.5 * bare["p50"]
    append_ok = bool(bare) and append["p50"] <= 1.1 * bare["p50"]
    rows = [
        Result("durable_intent", "Durable intent (p50): rules + 1 transaction + fsync",
               intent.get("p50"), "ms", bare.get("p50"), "bare sqlite3 commit",
               "<= 1.5x bare commit", ratio_ok if bare else None, detail=detail,
               note=f"{len(plain)} intents of a 5-player game (end of turn apart); {disk}"),
        Result("durable_append", "  of which Store.append_step (p50)", append.get("p50"), "ms",
               bare.get("p50"), "bare sqlite3 commit", "<= 1.1x bare commit",
               append_ok if bare else None),
        Result("durable_intent_p99", "Durable intent (p99)", intent.get("p99"), "ms",
               bare.get("p99"), "bare commit p99", "(information)", None),
        Result("end_turn", "End of turn with its backup (p50)", turn_end.get("p50"), "ms",
               bare.get("p50"), "bare sqlite3 commit", "(information)", None,
               note="VACUUM INTO a new backup, fsync, rename, prune"),
    ]
    return rows


# --- replay ------------------------------------------------------------------------------


def replay_bench(game: PlayedGame, repeats: int = 20) -> list[Result]:
    """Rebuilding the finished 5-player game from its events (load, decode, replay)."""
    store, game_id, catalog = game.store, game.game_id, game.catalog
    log = store.load_log(game_id)
    expected = game.session.state

    def raw_rows() -> None:
        store.conn.execute(
            "SELECT step, seq, type, v, payload FROM events WHERE game_id = ? "
            "ORDER BY step, seq", (game_id,)).fetchall()

    loads, replays, raws = [], [], []
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        history = store.load_history(game_id)
        loads.append(time.perf_counter() - started)
        assert history.state == expected, "the replayed game differs from the game played"
        replays.append(_clock(lambda: replay(log, catalog)))
        raws.append(_clock(raw_rows))
    load = summary([s * MS for s in loads])
    pure = summary([s * MS for s in replays])
    raw = summary([s * MS for s in raws])
    events = sum(len(step) for step in log)
    detail = {"load_history_ms": load, "replay_only_ms": pure, "select_rows_ms": raw,
              "steps": len(log), "events": events}
    return [
        Result("replay", "Replay an ended 5-player game (load, decode, replay from its "
               "last snapshot, p50)",
               load.get("p50"), "ms", raw.get("p50"), "SELECT of its rows", "< 50 ms",
               load.get("p50", 1e9) < 50, detail=detail,
               note=f"{len(log)} steps, {events} events"),
        Result("replay_only", "  of which replay() of the decoded log (p50)", pure.get("p50"),
               "ms", None, "", "(information)", None),
    ]


# --- scoring -------------------------------------------------------------------------------


def scoring_states(game: PlayedGame) -> list[GameState]:
    """Each end-of-turn scoring of the game (the state in the SCORE phase), last turn first."""
    history = game.session.history
    assert history is not None
    found = [s for s in history.states if s.track.phase is Phase.SCORE]
    return list(reversed(found))


def scoring_bench(game: PlayedGame, loops: int = 200) -> list[Result]:
    """A full 5-player end-of-turn scoring: income() read off the board, itemised."""
    states = scoring_states(game)
    per_state: list[float] = []
    engine: list[float] = []
    for state in states:
        income(state)  # warm
        gc.disable()
        try:
            started = time.perf_counter()
            for _ in range(loops):
                income(state)
            per_state.append((time.perf_counter() - started) / loops)
            inp = scoring_input(state)
            started = time.perf_counter()
            for _ in range(loops):
                score_turn(inp, state.catalog)
            engine.append((time.perf_counter() - started) / loops)
        finally:
            gc.enable()
    full = summary([s * US for s in per_state])
    core = summary([s * US for s in engine])
    last_turn = [s * US for s, st in zip(per_state, states, strict=True)
                 if st.track.turn == st.track.turns]
    worst = max(per_state) * MS if per_state else None
    return [
        Result("scoring", "End-of-turn scoring, 5 players (worst of the game)", worst, "ms",
               None, "", "< 1 ms", worst is not None and worst < 1.0,
               detail={"income_us": full, "score_turn_only_us": core,
                       "last_turn_us": last_turn, "scorings": len(states)},
               note=f"p50 {full.get('p50', 0):.0f} us over {len(states)} scorings"),
    ]


# --- grid parser -----------------------------------------------------------------------------


def parser_bench(frames: int = 20000, chunks: tuple[int, ...] = (1, 64, 256, 4096)) -> list[Result]:
    """The grid parser against the 115200-baud line rate, fed in reads of several sizes."""
    stream = grid_bench.sample_stream(frames)
    line_rate = grid_bench.LINE_RATE_BAUD / 10
    measured = {chunk: grid_bench.measure(chunk, stream) for chunk in chunks}
    detail = {str(c): {"bytes_per_s": t.bytes_per_second, "x_line_rate": t.line_rate_multiple,
                       "frames": t.frames, "seconds": t.seconds} for c, t in measured.items()}
    main = measured.get(64) or next(iter(measured.values()))
    rows = [
        Result("grid_parser", f"Grid parser throughput ({main.chunk}-byte reads)",
               main.bytes_per_second / 1e6, "MB/s", line_rate / 1e6, "115200 baud line",
               ">= 100x line rate", main.line_rate_multiple >= 100, detail=detail,
               note=f"{main.frames} frames, {main.bytes_parsed} bytes"),
    ]
    if 1 in measured and main.chunk != 1:
        one = measured[1]
        rows.append(Result("grid_parser_1", "Grid parser throughput (1-byte reads)",
                           one.bytes_per_second / 1e6, "MB/s", line_rate / 1e6,
                           "115200 baud line", "(information)", None))
    return rows


# --- opening a saved game in progress --------------------------------------------------

OPEN_SIZES = (100, 1000, 5000)


def game_in_progress(path: Path, events: int, *, players: int = 5, seed: int = 2026,
                     catalog: Catalog | None = None) -> tuple[int, int, int]:
    """A saved-games file at `path` holding one unfinished game of `players` whose log has
    at least `events` events (about as many), as a table has it: the backup of its last
    end of turn beside it. Returns its steps, events and steps in force.

    Scripted play (seeded) grows the log; a finished 5-player game holds about 300
    events, so undo grows it further: while the log is short of its share of `events`
    for how far the game has gone, the scripted player undoes most of what it does
    (each undo is a step, and what it took back is played again), so the game is still
    going, at about four fifths of its turns or less, when the log is long enough.
    """
    catalog = catalog or load_catalog()
    session = Session(catalog, rng=random.Random(seed))  # no store: saved in one go below
    session.new_game(seats(players), first_seat=0)
    player = ScriptedPlayer(session, random.Random(seed + 1), undo_rate=0.0)
    history = session.history
    assert history is not None
    logged = sum(len(step) for step in history.log)
    while logged < events:
        track = session.state.track
        done = ((track.turn - 1) * track.players + (track.seat - track.first_seat)
                % track.players) / (track.turns * track.players)
        player.undo_rate = 0.7 if logged / events < done / 0.8 else 0.0
        before = len(history.log)
        player.intent()
        history = session.history
        assert history is not None
        logged += sum(len(step) for step in history.log[before:])
        if session.state.is_over:
            raise RuntimeError(f"the scripted game ended after {logged} of {events} events")
    with Store.open(path, catalog=catalog) as store:
        store.conn.execute("PRAGMA synchronous = OFF")  # building the file, not timing it
        game_id = store.new_game(history.log[0])
        ended = 0
        for number, step in enumerate(history.log[1:], start=2):
            store.append_step(game_id, step, number=number)
            if any(isinstance(event, TurnEnded) for event in step):
                ended = number
        store.conn.execute("PRAGMA synchronous = FULL")
        if ended:  # what the last end of turn left: its snapshot and its backup
            store.save_snapshot(game_id, ended, replay(history.log[:ended - 1], catalog).state)
            store.backup()
    return len(history.log), logged, len(history.in_force)


def _open_and_resume(path: Path, catalog: Catalog, *, twice: bool) -> float:
    """Seconds from `Store.open(path)` to `Session.resume()` returning the game; with
    `twice`, the store lets go of the history its open check replayed (as before it kept
    it), so resume replays the log again (from its snapshot, if the file has one)."""
    gc.collect()
    started = time.perf_counter()
    store = Store.open(path, catalog=catalog)
    try:
        if twice:
            store.forget_replay()
        resumed = Session(catalog, rng=random.Random(0), store=store).resume()
        took = time.perf_counter() - started
    finally:
        store.close()
    assert resumed is not None and not resumed.is_over, "no game in progress was resumed"
    return took


def open_bench(folder: Path, sizes: tuple[int, ...] = OPEN_SIZES, runs: int = 7,
               goal_ms: float = 50.0) -> list[Result]:
    """Opening the saved games with a game in progress and resuming it, at each size.

    Each run opens a fresh `Store` (lock, checks, the open check's replay from the
    snapshot of the last end of turn) and resumes with a new `Session`; the runs
    alternate with the baseline, as before issue 27: a copy of the file without its
    snapshot, the store's kept history let go (the whole log replayed twice). The median
    of `runs` each; `replay()` of the whole decoded log alone is given too. The goal is
    for the largest size.
    """
    catalog = load_catalog()
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[Result] = []
    for size in sizes:
        path = folder / f"open-{size}.sqlite3"
        steps, events, in_force = game_in_progress(path, size, catalog=catalog)
        whole = folder / f"open-{size}-no-snapshot.sqlite3"
        shutil.copyfile(path, whole)
        with sqlite3.connect(whole) as conn:
            conn.execute("DELETE FROM snapshots")
        conn.close()
        _open_and_resume(path, catalog, twice=False)  # warm the disk cache
        _open_and_resume(whole, catalog, twice=True)
        once: list[float] = []
        twice: list[float] = []
        for _ in range(runs):
            once.append(_open_and_resume(path, catalog, twice=False))
            twice.append(_open_and_resume(whole, catalog, twice=True))
        with Store.open(path, catalog=catalog, recover=False, exclusive=False) as store:
            log = store.load_log(store.unfinished_game() or 0)
        alone: list[float] = []
        for _ in range(max(1, runs // 2)):
            started = time.perf_counter()
            replay(log, catalog)
            alone.append(time.perf_counter() - started)
        after = summary([s * MS for s in once])
        before = summary([s * MS for s in twice])
        pure = summary([s * MS for s in alone])
        largest = size == max(sizes)
        rows.append(Result(
            f"open_{size}", f"Open + resume a game in progress, {events:,} events (p50)",
            after.get("p50"), "ms", before.get("p50"), "before: whole log, twice",
            f"< {goal_ms:.0f} ms" if largest else "(information)",
            after.get("p50", 1e9) < goal_ms if largest else None,
            detail={"open_resume_ms": after, "replayed_twice_ms": before,
                    "replay_only_ms": pure, "steps": steps, "events": events,
                    "in_force": in_force, "runs": runs, "file_bytes": path.stat().st_size},
            note=f"{steps:,} steps ({in_force} in force), {events:,} events; replay() "
                 f"alone {pure.get('p50', 0):.1f} ms"))
    return rows
