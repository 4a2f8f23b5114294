"""A game killed at any moment comes back with every confirmed action.

A child process plays games as fast as it can, saving every step through the store, and
prints each step once `append_step` has returned (the moment the table would be shown
it). The parent kills it with SIGKILL at random moments, many times, and after each kill
checks the file: it passes ``quick_check``, every step the child reported is there, in
order and unchanged, and the log replays to the very state the child had.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion.rules.catalog import load_catalog
from companion.rules.events import to_record
from companion.rules.history import History, Step, replay
from companion.store import Store

ROOT = Path(__file__).resolve().parents[1]
CATALOG = load_catalog()
KILLS = 20

CHILD = textwrap.dedent(
    """
    import hashlib, json, random, sys
    from pathlib import Path

    from companion.rules.catalog import load_catalog
    from companion.rules.errors import IllegalAction
    from companion.rules.events import Seat, TurnEnded, to_record
    from companion.rules.history import replay
    from companion.rules.turns import Phase
    from companion.session import Session
    from companion.store import Store

    def step_digest(step):
        text = json.dumps([to_record(e) for e in step], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def state_digest(state):
        t = state.track
        return f"{t.turn}/{t.seat}/{t.phase.name}/" + ",".join(
            str(p.coins) for p in state.players)

    path, seed = Path(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    catalog = load_catalog()
    store = Store.open(path, catalog=catalog)
    s = Session(catalog, rng=random.Random(seed))
    game = store.unfinished_game()
    if game is not None:
        s.history = replay(store.load_log(game), catalog)
    print("ready", flush=True)

    def report(number, step):
        print(game, number, step_digest(step), state_digest(s.state), flush=True)

    while True:
        if game is None or s.state.is_over:
            players = rng.randint(2, 5)
            s.new_game([Seat(n, c) for n, c in zip(
                ("Ann", "Bob", "Cy", "Di", "Ed"),
                ("blue", "orange", "green", "yellow", "purple"))][:players])
            game = store.new_game(s.history.log[0])
            report(1, s.history.log[0])
            continue
        phase = s.state.track.phase
        try:
            if rng.random() < 0.15:
                s.undo()
            elif phase is Phase.PICK_COMBO:
                s.pick(rng.randrange(3))
            elif phase is Phase.CONQUER:
                choice = rng.random()
                if choice < 0.2:
                    s.roll_for_berserk()  # refused unless Berserk: the rules say why
                elif choice < 0.3:
                    s.decline()
                else:
                    s.finish_conquests()
            elif phase is Phase.REDEPLOY:
                s.finish_redeployment()
            elif phase is Phase.SCORE:
                s.score(rng.randrange(10))
            else:
                s.end_turn()
        except IllegalAction:
            continue
        step = s.history.log[-1]
        number = store.append_step(game, step)
        report(number, step)
        if isinstance(step[0], TurnEnded):
            store.backup()  # the end of a turn, as the session does it
    """
)


def step_digest(step: Step) -> str:
    import hashlib

    text = json.dumps([to_record(e) for e in step], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def state_digest(history: History) -> str:
    state = history.state
    t = state.track
    return f"{t.turn}/{t.seat}/{t.phase.name}/" + ",".join(str(p.coins) for p in state.players)


def check(db: Path, reported: dict[int, dict[int, tuple[str, str]]], touched: set[int]) -> None:
    """Check the file against everything the child ever reported.

    Every reported step is compared; the games the last child played (`touched`) are
    replayed too (the others were replayed after an earlier kill, and are unchanged).
    """
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    finally:
        raw.close()
    with Store.open(db, catalog=CATALOG, recover=False) as store:
        assert store.recovery is None
        for game_id, steps in reported.items():
            log = store.load_log(game_id)
            assert len(log) >= max(steps), f"game {game_id} lost confirmed steps"
            for number, (digest, _) in steps.items():
                assert step_digest(log[number - 1]) == digest, (game_id, number)
            if game_id not in touched:
                continue
            replay(log, CATALOG)  # what is on disk, unconfirmed last step included, replays
            last = max(steps)
            assert state_digest(replay(log[:last], CATALOG)) == steps[last][1]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_every_confirmed_step_survives_sigkill_at_random_moments(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rng = random.Random(20250301)
    reported: dict[int, dict[int, tuple[str, str]]] = {}
    kills_mid_write = 0
    errors = tmp_path / "child-stderr.txt"
    for kill in range(KILLS):
        # stderr goes to a file, and stdout is read through its own buffer to the end:
        # `communicate(timeout=...)` reads the pipe beneath that buffer, losing what
        # `readline` had read ahead (whole lines reported, or the start of one).
        with errors.open("w") as err_file:
            child = subprocess.Popen(
                [sys.executable, str(script), str(db), str(kill)],
                stdout=subprocess.PIPE, stderr=err_file, text=True, env=env, cwd=tmp_path,
            )  # fmt: skip
            assert child.stdout is not None
            ready = child.stdout.readline()
            if ready != "ready\n":
                child.kill()
                child.communicate(timeout=30)
                pytest.fail(f"the child did not start: {ready!r} {errors.read_text()}")
            # Killed at a random moment once it writes (however slow its start-up was):
            # after its first confirmed step, within the next 0.2 s.
            first = child.stdout.readline()
            time.sleep(rng.uniform(0.0, 0.2))
            child.send_signal(signal.SIGKILL)
            rest = child.stdout.read()  # to the end: the killed child's pipe closes
            child.wait(timeout=30)
            out = first + rest
        assert child.returncode == -signal.SIGKILL, errors.read_text()
        lines = out.split("\n")[:-1]  # the last piece is cut short or empty
        touched: set[int] = set()
        for line in lines:
            game, number, digest, state = line.split()
            reported.setdefault(int(game), {})[int(number)] = (digest, state)
            touched.add(int(game))
        kills_mid_write += bool(lines)
        check(db, reported, touched)
    assert kills_mid_write == KILLS, "a kill came before the child's first confirmed step"
    assert sum(len(steps) for steps in reported.values()) > 100
    # Backups taken between kills are all complete: a killed backup never has a final name.
    with Store.open(db, catalog=CATALOG, recover=False) as store:
        for backup in store.backups():
            copy = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
            try:
                assert copy.execute("PRAGMA quick_check").fetchall() == [("ok",)]
            finally:
                copy.close()
