"""Power cut: SIGKILL a process playing games through the Session and a real Store.

`drills/power_cut_child.py` opens the saved games as the app does, resumes the unfinished
game and plays scripted intents for ever, printing each one once the session has returned
(saved, and so confirmed to the players). This drill kills it at a random moment, over and
over, and after every kill:

- checks the file (``PRAGMA quick_check``) and that every confirmed step is there: the
  game has at least as many steps as were confirmed, and replaying it up to the last
  confirmed step gives exactly the turn, player, phase and purses the child reported;
- starts the next child, which resumes: it must come back to the last confirmed turn,
  player and phase, or to one step later when the killed intent was already saved (it was
  in flight: saved, not yet shown, which is allowed), and nowhere else.

Kills are spread over `lanes` databases in parallel (one child per lane at a time) so
that 200 kills fit in a minute or two.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.rules.catalog import load_catalog
from companion.rules.history import replay
from companion.store import Store
from drills.report import Drill

CHILD = Path(__file__).resolve().parent / "power_cut_child.py"
ROOT = CHILD.parents[1]


@dataclass
class Lane:
    db: Path
    kills: int = 0
    confirmed: int = 0
    lost: int = 0
    resumes: int = 0
    resumes_right: int = 0
    resumes_wrong: list[str] = field(default_factory=list)
    in_flight_saved: int = 0
    games_finished: int = 0
    bad_files: list[str] = field(default_factory=list)
    mid_write: int = 0
    errors: list[str] = field(default_factory=list)


def _where(fields: list[str]) -> tuple[int, int, str]:
    """(game, steps, 'turn seat phase coins') of an ``ok``/``resumed`` line's fields."""
    return int(fields[0]), int(fields[1]), " ".join(fields[2:])


def _state_line(history_state: object) -> str:
    state = history_state
    t = state.track  # type: ignore[attr-defined]
    coins = ",".join(str(p.coins) for p in state.players)  # type: ignore[attr-defined]
    return f"{t.turn} {t.seat} {t.phase.name} {coins}"


def _check_file(lane: Lane, last_ok: tuple[int, int, str] | None) -> None:
    raw = sqlite3.connect(lane.db)
    try:
        problems = raw.execute("PRAGMA quick_check").fetchall()
    finally:
        raw.close()
    if problems != [("ok",)]:
        lane.bad_files.append(str(problems)[:200])
        return
    if last_ok is None:
        return
    game, steps, line = last_ok
    with Store.open(lane.db, recover=False, catalog=load_catalog()) as store:
        log = store.load_log(game)
        if len(log) < steps:
            lane.lost += steps - len(log)
            return
        if _state_line(replay(log[:steps], store.catalog).state) != line:
            lane.lost += 1  # the step is there but is not the one confirmed


def start_child(db: Path, seed: int, errors: Path) -> tuple[subprocess.Popen[str], list[str]]:
    """Start a child playing on `db`; it and the words of its first line ("resumed ...").

    A child that did not start (its first line is not "resumed") is ended, and its words
    are what it said. stderr goes to `errors`: with two pipes, communicate() would read
    past what readline() has already buffered, and lines would be lost.
    """
    with open(errors, "w") as err_file:
        child = subprocess.Popen([sys.executable, str(CHILD), str(db), str(seed)],
                                 stdout=subprocess.PIPE, stderr=err_file, text=True, cwd=ROOT)
    assert child.stdout is not None
    first = child.stdout.readline().split()
    if not first or first[0] != "resumed":
        child.kill()
        child.communicate()
    return child, first


def started(first: list[str]) -> bool:
    """Whether a child's first line says it resumed (see `start_child`)."""
    return bool(first) and first[0] == "resumed"


def run_lane(lane: Lane, kills: int, rng: random.Random, max_wait: float) -> None:
    expected: tuple[int, int, str] | None = None  # where the next resume must come back
    in_flight = False
    new_game_in_flight = False
    for n in range(kills):
        errors = lane.db.with_suffix(".stderr")
        child, first = start_child(lane.db, rng.randrange(1 << 30), errors)
        if not started(first):
            lane.errors.append(f"kill {n}: the child did not start: {first} "
                               f"{errors.read_text()[-500:]}")
            return
        lane.resumes += 1
        got = None if first[1] == "none" else _where(first[1:])
        right = got == expected
        if not right and in_flight and expected is not None and got is not None:
            right = got[0] == expected[0] and got[1] == expected[1] + 1
            lane.in_flight_saved += right
        if not right and new_game_in_flight and got is not None and got[1] == 1:
            right = True  # the new game was saved just before the cut
            lane.in_flight_saved += 1
        if not right and new_game_in_flight and got is None and expected is None:
            right = True
        if not right and got is None and expected is not None and "GAME_OVER" in expected[2]:
            right = True  # the finished game was closed just before the cut
        if right:
            lane.resumes_right += 1
        else:
            lane.resumes_wrong.append(f"expected {expected} (in flight: {in_flight}), got {got}")
        time.sleep(rng.uniform(0.0, max_wait))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        lane.kills += 1
        if child.returncode != -signal.SIGKILL:
            lane.errors.append(f"kill {n}: the child ended by itself ({child.returncode}): "
                               f"{errors.read_text()[-500:]}")
        lines = out.split("\n")
        cut = lines[-1]  # cut short (or empty)
        last_ok = got
        in_flight = new_game_in_flight = False
        finished_after_ok = False
        for line in lines[:-1]:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "ok":
                last_ok = _where(fields[1:])
                lane.confirmed += 1
                in_flight = new_game_in_flight = finished_after_ok = False
            elif fields[0] == "try":
                in_flight = True
                new_game_in_flight = finished_after_ok
            elif fields[0] == "finished":
                lane.games_finished += 1
                finished_after_ok = True
        if cut:
            in_flight = True
        lane.mid_write += in_flight
        _check_file(lane, last_ok)
        expected = None if finished_after_ok else last_ok
        if finished_after_ok:
            in_flight = False
            new_game_in_flight = True


def drill(work: Path, kills: int = 200, lanes: int = 2, max_wait: float = 0.3,
          seed: int = 20260301) -> Drill:
    started = time.monotonic()
    rng = random.Random(seed)
    per_lane = [kills // lanes + (i < kills % lanes) for i in range(lanes)]
    all_lanes = [Lane(work / f"power-cut-{i}.sqlite3") for i in range(lanes)]
    threads = [threading.Thread(target=run_lane,
                                args=(lane, n, random.Random(rng.random()), max_wait))
               for lane, n in zip(all_lanes, per_lane, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = {name: sum(getattr(lane, name) for lane in all_lanes)
             for name in ("kills", "confirmed", "lost", "resumes", "resumes_right",
                          "in_flight_saved", "games_finished", "mid_write")}
    wrong = [w for lane in all_lanes for w in lane.resumes_wrong]
    bad = [b for lane in all_lanes for b in lane.bad_files]
    errors = [e for lane in all_lanes for e in lane.errors]
    result = Drill(
        "Power cut",
        f"{total['kills']} SIGKILLs, at a random moment up to {max_wait:g} s after each start, "
        f"of a process playing scripted 2- to 5-player games through the Session with a real "
        f"Store ({lanes} databases in parallel); after each kill the file is checked and the "
        "next process resumes the unfinished game",
    )
    result.check("kills", total["kills"], f"{kills}", total["kills"] == kills)
    result.check("actions confirmed before a kill", total["confirmed"])
    result.check("kills that fell between an intent's start and its confirmation",
                 total["mid_write"])
    result.check("confirmed actions lost", total["lost"], "0", total["lost"] == 0)
    result.check("files failing quick_check", len(bad), "0", not bad)
    result.check("resumes back at the right turn, player and phase",
                 f"{total['resumes_right']} of {total['resumes']}", "all",
                 total["resumes_right"] == total["resumes"])
    result.check("  of which one step on: saved in flight, not yet shown",
                 total["in_flight_saved"])
    result.check("games played to their end and closed", total["games_finished"])
    result.check("child processes that failed", len(errors), "0", not errors)
    result.seconds = time.monotonic() - started
    result.detail = {**total, "resumes_wrong": wrong[:10], "bad_files": bad[:10],
                     "errors": errors[:5]}
    return result
