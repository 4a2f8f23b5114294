"""Two instances: two apps on one saved-games file, as the kiosk service and a
`companion run` over SSH would be.

- Two real `companion run` processes on one file (headless), N times: the first reaches
  its main loop; the second must be refused, exiting non-zero with one line naming the
  first's process, while the first runs on undisturbed. (A kiosk app, COMPANION_KIOSK=1,
  may wait for the lock instead; this drill starts both as a person would, without it.)
- Two Stores in two processes appending to one file at once, N rounds of a few seconds,
  each playing a game from its own view of it (`drills/two_stores_child.py`). With the
  one-app lock the second is refused (`DatabaseInUse`); without it (as if the lock were
  lost), every step one saves from a stale view must be refused (`StepConflict`). After
  each round the log must still replay (log corruption: goal 0), no step number may be
  confirmed to both, and every confirmed step must be in the log as confirmed (confirmed
  actions lost: goal 0).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from drills.app_process import alive_after, app_env, start
from drills.report import Drill

CHILD = Path(__file__).resolve().parent / "two_stores_child.py"
ROOT = CHILD.parents[1]


def two_apps(work: Path, pairs: int) -> dict[str, Any]:
    work.mkdir(parents=True, exist_ok=True)
    db = work / "companion.sqlite3"
    counts = {"pairs": 0, "first_started": 0, "refused_naming_first": 0, "first_undisturbed": 0,
              "crashes": 0}
    examples: list[str] = []
    for n in range(pairs):
        counts["pairs"] += 1
        first = start(["run", "--db", str(db)], app_env(work), work / f"first-{n}.stderr")
        try:
            if not first.started:
                counts["crashes"] += first.exited not in (None, 0)
                examples.append(f"pair {n}: the first did not start ({first.exited}): "
                                f"{first.errors()[-400:]}")
                continue
            counts["first_started"] += 1
            second = subprocess.run(
                [sys.executable, "-m", "companion", "run", "--db", str(db)],
                env=app_env(work, kivy_log=False), cwd=ROOT, capture_output=True, text=True,
                timeout=120, stdin=subprocess.DEVNULL)
            lines = [line for line in second.stderr.splitlines() if line.strip()]
            named = (second.returncode != 0 and len(lines) == 1
                     and f"process {first.process.pid}" in lines[0]
                     and "Traceback" not in second.stderr)
            counts["refused_naming_first"] += named
            if not named and len(examples) < 10:
                examples.append(f"pair {n}: the second exited {second.returncode}: "
                                f"{second.stderr[-400:]}")
            if alive_after(first, 0.5):
                counts["first_undisturbed"] += 1
            else:
                counts["crashes"] += 1
                examples.append(f"pair {n}: the first ended ({first.process.returncode}): "
                                f"{first.errors()[-400:]}")
        finally:
            first.stop()
    return {**counts, "examples": examples}


def _a_game(db: Path) -> None:
    from bench.scripted import ScriptedPlayer, seats
    from companion.rules.catalog import load_catalog
    from companion.session import Session
    from companion.store import Store

    catalog = load_catalog()
    with Store.open(db, catalog=catalog) as store:
        session = Session(catalog, rng=random.Random(1), store=store)
        session.new_game(seats(3), first_seat=0)
        player = ScriptedPlayer(session, random.Random(2))
        for _ in range(10):
            player.intent()


def two_stores(work: Path, rounds: int, seconds: float = 3.0, seed: int = 20260316
               ) -> dict[str, Any]:
    from companion.rules.catalog import load_catalog
    from companion.rules.history import replay
    from companion.store import Store
    from drills.two_stores_child import step_hash

    catalog = load_catalog()
    rng = random.Random(seed)
    counts = {"rounds": 0, "locked_rounds": 0, "second_refused_in_use": 0, "saved": 0,
              "conflicts": 0, "other_refusals": 0, "both_saved_one_step": 0,
              "log_corrupted": 0, "confirmed_lost": 0, "crashes": 0}
    examples: list[str] = []
    for n in range(rounds):
        exclusive = n % 2 == 0  # every other round with the lock, as the apps have it
        folder = work / f"round-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "companion.sqlite3"
        _a_game(db)
        children = []
        for k in range(2):
            err = open(folder / f"child-{k}.stderr", "w")  # noqa: SIM115
            children.append(subprocess.Popen(
                [sys.executable, str(CHILD), str(db), str(rng.randrange(1 << 30)),
                 str(seconds), "1" if exclusive else "0"],
                stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT))
            err.close()
        outputs = [child.communicate(timeout=seconds + 120)[0] for child in children]
        counts["rounds"] += 1
        counts["locked_rounds"] += exclusive
        confirmed: dict[tuple[int, int], list[str]] = {}
        for k, (child, out) in enumerate(zip(children, outputs, strict=True)):
            if child.returncode != 0:
                counts["crashes"] += 1
                examples.append(f"round {n} child {k} exited {child.returncode}: "
                                f"{(folder / f'child-{k}.stderr').read_text()[-400:]}")
            for line in out.splitlines():
                fields = line.split()
                if not fields:
                    continue
                if fields[0] == "in-use":
                    counts["second_refused_in_use"] += 1
                elif fields[0] == "ok" and len(fields) == 4:
                    counts["saved"] += 1
                    confirmed.setdefault((int(fields[1]), int(fields[2])), []).append(fields[3])
                elif fields[0] == "conflict":
                    counts["conflicts"] += 1
                elif fields[0] == "refused":
                    counts["other_refusals"] += 1
        counts["both_saved_one_step"] += sum(len(v) > 1 for v in confirmed.values())
        try:
            with Store.open(db, catalog=catalog) as store:
                for game in store.games():
                    log = store.load_log(game.id)
                    try:
                        replay(log, catalog)
                    except Exception as error:
                        counts["log_corrupted"] += 1
                        examples.append(f"round {n}: game {game.id} no longer replays: {error}")
                    for (game_id, number), hashes in confirmed.items():
                        if game_id != game.id:
                            continue
                        there = step_hash(log[number - 1]) if number <= len(log) else None
                        counts["confirmed_lost"] += sum(h != there for h in hashes)
        except Exception:
            counts["crashes"] += 1
            examples.append(f"round {n}: " + traceback.format_exc()[-500:])
    return {**counts, "examples": examples}


def drill(work: Path, *, pairs: int = 10, rounds: int = 10, seconds: float = 3.0) -> Drill:
    started = time.monotonic()
    apps = two_apps(work / "apps", pairs)
    stores = two_stores(work / "stores", rounds, seconds)
    result = Drill(
        "Two instances",
        f"{pairs} times two real `companion run` on one file (headless), the second started "
        f"once the first reached its main loop; {rounds} rounds of two processes playing "
        f"one game on one file for {seconds:g} s each from their own view of it, every other "
        "round without the one-app lock (as if it were lost), the log replayed after each",
    )
    result.check("apps: the second refused, one line naming the first's process",
                 f"{apps['refused_naming_first']} of {apps['pairs']}", "all",
                 apps["refused_naming_first"] == apps["pairs"])
    result.check("apps: the first running on undisturbed",
                 f"{apps['first_undisturbed']} of {apps['pairs']}", "all",
                 apps["first_undisturbed"] == apps["pairs"])
    result.check("apps: crashes", apps["crashes"], "0", apps["crashes"] == 0)
    result.check("stores, with the lock: the second refused (DatabaseInUse)",
                 f"{stores['second_refused_in_use']} of {stores['locked_rounds']}", "all",
                 stores["second_refused_in_use"] == stores["locked_rounds"])
    result.check("stores: steps saved / refused as stale (StepConflict) / busy",
                 f"{stores['saved']} / {stores['conflicts']} / {stores['other_refusals']}")
    result.check("stores: step numbers confirmed to both", stores["both_saved_one_step"], "0",
                 stores["both_saved_one_step"] == 0)
    result.check("stores: logs that no longer replay", stores["log_corrupted"], "0",
                 stores["log_corrupted"] == 0)
    result.check("stores: confirmed actions lost", stores["confirmed_lost"], "0",
                 stores["confirmed_lost"] == 0)
    result.check("stores: crashes", stores["crashes"], "0", stores["crashes"] == 0)
    result.seconds = time.monotonic() - started
    result.detail = {"apps": apps, "stores": stores}
    return result
