"""Damaged database: the saved-games file damaged as a card, a crash or a hand damages
it, then opened as the app opens it. Three parts:

- Damaged 7 ways: a file with a finished and an unfinished game and its backups, damaged
  (header overwritten, a page zeroed, bytes sprinkled, cut to half, replaced by text,
  emptied, and the last record no longer JSON, which passes SQLite's ``quick_check``).
  The damaged file must be set aside byte for byte (never deleted), the newest backup
  restored, the players told in words, and the unfinished game of the backup resumable;
  opened as a tool opens it (no recovery), it must be refused with a message and left
  untouched (except the unreadable record, which only the companion's own check finds).
- Deleted WAL: `drills/power_cut_child.py` plays on one file and is killed with SIGKILL at
  a random moment; the ``-wal`` file is deleted (every step since the last checkpoint goes
  with it) and the file opened as the app opens it. Every confirmed action missing then
  must have been told: the longer backup restored, or the loss reported. Actions lost
  without a word are the goal-0 count; actions played after the newest backup are lost
  with the WAL by design (the message says so: "anything played after that backup is
  lost"), and are counted apart.
- Random damage that passes ``quick_check``: a real file with a random page damaged
  (overwritten with random bytes, zeroed, or a few bytes changed), N times. Every case is
  opened as the app opens it and then read as every screen reads (every game replayed,
  exported, the finished games, the statistics, the profiles and settings). The store
  must open it and either give a sound game or set the file aside and restore a backup; a
  later read may be refused in words (the store's own error, which every screen shows),
  never crash. Crashes (any other exception) are the goal-0 count; the cases that pass
  ``quick_check`` are the ones that matter and are counted apart.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import signal
import sqlite3
import time
import traceback
from pathlib import Path
from typing import Any

from drills.power_cut import start_child, started
from drills.report import Drill

PAGE = 4096

# --- damaged seven ways ------------------------------------------------------------------


def _damage(path: Path, kind: str, rng: random.Random) -> None:
    if kind == UNREADABLE_RECORD:  # SQLite finds nothing wrong: quick_check says ok
        conn = sqlite3.connect(path)
        with conn:
            conn.execute("UPDATE events SET payload = '{' WHERE (game_id, step, seq) = "
                         "(SELECT game_id, step, seq FROM events WHERE game_id = (SELECT id "
                         "FROM games ORDER BY played DESC LIMIT 1) "
                         "ORDER BY step DESC, seq DESC LIMIT 1)")
        conn.close()
        return
    data = bytearray(path.read_bytes())
    if kind == "header overwritten":
        data[0:100] = bytes(rng.randrange(256) for _ in range(100))
    elif kind == "a page zeroed":
        at = PAGE * (len(data) // PAGE // 2)
        data[at : at + PAGE] = bytes(PAGE)
    elif kind == "bytes sprinkled over the tables":
        for _ in range(200):
            at = rng.randrange(PAGE, len(data))
            data[at] = rng.randrange(256)
    elif kind == "cut to half":
        data = data[: len(data) // 2]
    elif kind == "replaced by text":
        data = bytearray(b"this is not a database\n" * 100)
    elif kind == "emptied (0 bytes)":
        data = bytearray()
    path.write_bytes(bytes(data))


UNREADABLE_RECORD = "the last record no longer JSON (passes quick_check)"
DAMAGE = ("header overwritten", "a page zeroed", "bytes sprinkled over the tables",
          "cut to half", "replaced by text", "emptied (0 bytes)", UNREADABLE_RECORD)


def pristine_games(folder: Path, *, small: bool) -> tuple[Path, int]:
    """A saved-games file with a finished and an unfinished game, and its backups."""
    from bench.ui import saved_games
    from companion.store import Store

    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "companion.sqlite3"
    saved_games(db, unfinished_intents=40 if small else 150, players=2 if small else 5)
    with Store.open(db) as store:
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        game = store.unfinished_game()
        steps = store.steps(game) if game else 0
    for sidecar in ("-wal", "-shm"):
        db.with_name(db.name + sidecar).unlink(missing_ok=True)
    return db, steps


def database_cases(work: Path, pristine: Path, steps_on_disk: int, seed: int = 9,
                   kinds: int | None = None) -> dict[str, Any]:
    from companion.store import Store
    from companion.store.errors import StoreError, StoreOpenError

    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    for kind in DAMAGE[:kinds]:
        folder = work / kind.replace(" ", "-").replace("(", "").replace(")", "")
        shutil.copytree(pristine.parent, folder)
        db = folder / pristine.name
        _damage(db, kind, rng)
        damaged = hashlib.sha256(db.read_bytes()).hexdigest()
        case: dict[str, Any] = {"damage": kind}
        # a tool (no recovery): refused in words, nothing touched
        try:
            Store.open(db, recover=False).close()
            case["tool"] = "opened"
        except StoreOpenError as error:
            case["tool"] = "refused"
            case["tool_message"] = str(error)
        case["tool_left_it"] = db.exists() and hashlib.sha256(db.read_bytes()).hexdigest() \
            == damaged
        # the app: set aside, restore, tell
        try:
            with Store.open(db) as store:
                report = store.recovery
                case["message"] = report.message if report else None
                aside = report.damaged if report else None
                case["kept_aside_intact"] = bool(
                    aside and aside.exists()
                    and hashlib.sha256(aside.read_bytes()).hexdigest() == damaged)
                resumed = store.unfinished_game()
                if resumed is not None:
                    history = store.load_history(resumed)
                    case["resumed_steps"] = len(history.log)
                    case["steps_lost"] = steps_on_disk - len(history.log)
                else:
                    case["resumed_steps"] = 0
                    case["steps_lost"] = steps_on_disk
                case["finished_games"] = len(store.games(finished=True))
        except StoreError as error:
            case["app_error"] = str(error)
        cases.append(case)
    return {"steps_in_the_unfinished_game": steps_on_disk, "cases": cases}


def _database_ok(case: dict[str, Any]) -> bool:
    # a tool reads the file as it is: SQLite refuses it, except a file only the
    # companion's own checks find damaged (its unreadable record is the tool's to report)
    tool = "opened" if case["damage"] == UNREADABLE_RECORD else "refused"
    return (case.get("tool") == tool and case.get("tool_left_it", False)
            and bool(case.get("message")) and case.get("kept_aside_intact", False)
            and case.get("resumed_steps", 0) > 0 and case.get("finished_games", 0) >= 1)


# --- a deleted -wal file -----------------------------------------------------------------


def _confirmed(out: str, confirmed: dict[int, int]) -> None:
    """The steps of each game that the killed child confirmed (its ``ok`` lines)."""
    for line in out.split("\n")[:-1]:  # the last one may be cut short
        fields = line.split()
        if len(fields) > 2 and fields[0] == "ok" and fields[1] != "None":
            game, steps = int(fields[1]), int(fields[2])
            confirmed[game] = max(confirmed.get(game, 0), steps)


def deleted_wal(work: Path, rounds: int, seed: int = 20260314, min_wait: float = 0.2,
                max_wait: float = 1.0) -> dict[str, Any]:
    from companion.rules.catalog import load_catalog
    from companion.store import Store
    from companion.store.errors import StoreError, UnknownGame

    catalog = load_catalog()
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    db = work / "companion.sqlite3"
    wal = db.with_name(db.name + "-wal")
    confirmed: dict[int, int] = {}
    totals = {"rounds": 0, "confirmed": 0, "wal_held_steps": 0, "loss_found": 0,
              "longer_restored": 0, "told_kept": 0, "lost_told": 0, "lost_silently": 0,
              "crashes": 0, "unsound": 0}
    examples: list[str] = []
    for n in range(rounds):
        errors = work / "child.stderr"
        child, first = start_child(db, rng.randrange(1 << 30), errors)
        if not started(first):
            totals["crashes"] += 1
            examples.append(f"round {n}: the child did not start: {errors.read_text()[-300:]}")
            break
        time.sleep(rng.uniform(min_wait, max_wait))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        before = dict(confirmed)
        _confirmed(out, confirmed)
        totals["rounds"] += 1
        totals["confirmed"] += sum(confirmed[g] - before.get(g, 0) for g in confirmed)
        if wal.exists() and wal.stat().st_size > 0:
            totals["wal_held_steps"] += 1
        wal.unlink(missing_ok=True)  # as a hand, or a card that lost it, would
        try:
            with Store.open(db, catalog=catalog) as store:
                report = store.recovery
                told = report is not None and bool(report.lost or report.damaged)
                if report is not None and report.lost:
                    totals["loss_found"] += 1
                    totals["longer_restored"] += not report.kept
                    totals["told_kept"] += report.kept
                lost = 0
                for game, steps in confirmed.items():
                    try:
                        have = store.steps(game)
                    except UnknownGame:
                        have = 0
                    lost += max(0, steps - have)
                totals["lost_told" if told else "lost_silently"] += lost
                if lost and not told and len(examples) < 10:
                    examples.append(f"round {n}: {lost} confirmed steps lost without a word")
                unfinished = store.unfinished_game()
                if unfinished is not None:
                    store.load_history(unfinished)  # the game offered replays
                # what the next child starts from is what the players now have
                confirmed = {game: store.steps(game) for game in
                             (g.id for g in store.games())}
        except StoreError as error:
            totals["unsound"] += 1
            examples.append(f"round {n}: refused at open: {error}"[:300])
        except Exception:
            totals["crashes"] += 1
            examples.append(f"round {n}: " + traceback.format_exc()[-600:])
    return {**totals, "examples": examples}


# --- random damage that passes quick_check -----------------------------------------------


def _corrupt(path: Path, rng: random.Random) -> str:
    """Damage one random page of the file at `path`; say how."""
    data = bytearray(path.read_bytes())
    pages = len(data) // PAGE
    page = rng.randrange(pages)
    at = page * PAGE
    how = rng.choice(("random bytes", "zeros", "a few bytes"))
    if how == "random bytes":
        data[at : at + PAGE] = rng.randbytes(PAGE)
    elif how == "zeros":
        data[at : at + PAGE] = bytes(PAGE)
    else:
        for _ in range(rng.randint(1, 8)):
            data[at + rng.randrange(PAGE)] = rng.randrange(256)
    path.write_bytes(bytes(data))
    return f"page {page + 1} of {pages}: {how}"


def _passes_quick_check(path: Path) -> bool:
    try:
        conn = sqlite3.connect(path)
    except sqlite3.Error:
        return False
    try:
        return conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def _read_everything(store: Any) -> list[str]:
    """Read what every screen reads; the store's own refusals, in words (never a crash)."""
    from companion.store.errors import StoreError

    refused: list[str] = []
    reads: list[Any] = [store.finished_games, store.all_player_stats, store.combo_stats,
                        store.profiles, store.settings, store.unfinished_game]
    for game in store.games():
        reads.append(lambda g=game.id: store.load_history(g))
        if game.finished_at is not None:  # the history screen exports finished games
            reads.append(lambda g=game.id: store.game_summary(g))
            reads.append(lambda g=game.id: store.export(g, "json"))
    for read in reads:
        try:
            read()
        except StoreError as error:
            refused.append(str(error)[:200])
    return refused


def quick_check_probe(work: Path, pristine: Path, cases: int, seed: int = 20260315
                      ) -> dict[str, Any]:
    from companion.rules.catalog import load_catalog
    from companion.store import Store
    from companion.store.errors import StoreError

    catalog = load_catalog()
    rng = random.Random(seed)
    backups = pristine.parent / "backups"
    folder = work / "probe"
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / pristine.name
    counts = {"cases": 0, "passed_quick_check": 0, "sound": 0, "set_aside": 0,
              "read_refused_in_words": 0, "refused_at_open": 0, "crashes": 0}
    passed = {key: 0 for key in ("sound", "set_aside", "read_refused_in_words",
                                 "refused_at_open", "crashes")}
    examples: list[str] = []
    for n in range(cases):
        for leftover in folder.iterdir():
            leftover.unlink()
        shutil.copyfile(pristine, db)
        how = _corrupt(db, rng)
        ok = _passes_quick_check(db)
        counts["cases"] += 1
        counts["passed_quick_check"] += ok
        outcome = "crashes"
        try:
            with Store.open(db, backups=backups, catalog=catalog) as store:
                set_aside = store.recovery is not None
                refused = _read_everything(store)
                if refused:
                    outcome = "read_refused_in_words"
                    if len(examples) < 10:
                        examples.append(f"case {n} ({how}): {len(refused)} reads refused, "
                                        f"the first: {refused[0]}")
                else:
                    outcome = "set_aside" if set_aside else "sound"
        except StoreError as error:
            outcome = "refused_at_open"
            if len(examples) < 10:
                examples.append(f"case {n} ({how}): refused at open: {error}"[:300])
        except Exception:
            if len(examples) < 10:
                examples.append(f"case {n} ({how}): " + traceback.format_exc()[-600:])
        counts[outcome] += 1
        if ok:
            passed[outcome] += 1
    return {**counts, "of_those_passing": passed, "examples": examples}


# --- the drill ---------------------------------------------------------------------------


def drill(work: Path, *, wal_rounds: int = 100, probes: int = 200, small: bool = False
          ) -> Drill:
    """`small`: two kinds of damage and a small file (for the smoke test)."""
    started = time.monotonic()
    pristine, steps_on_disk = pristine_games(work / "pristine", small=small)
    ways = database_cases(work / "ways", pristine, steps_on_disk, kinds=2 if small else None)
    wal = deleted_wal(work / "wal", wal_rounds)
    probe = quick_check_probe(work / "probe", pristine, probes)
    result = Drill(
        "Damaged database",
        f"the saved-games file damaged {len(DAMAGE)} ways ({', '.join(DAMAGE)}); "
        f"{wal_rounds} SIGKILLs of a process playing on one file, each followed by its -wal "
        f"file deleted and the file opened as the app opens it; {probes} copies of a real "
        "file with one random page damaged (random bytes, zeros or a few bytes), opened "
        "as the app opens it and read as every screen reads",
    )
    good = [c for c in ways["cases"] if _database_ok(c)]
    result.check("damaged ways: set aside intact, backup restored, players told",
                 f"{len(good)} of {len(ways['cases'])}", "all",
                 len(good) == len(ways["cases"]))
    lost = [c.get("steps_lost") for c in ways["cases"]]
    result.check("  steps played since the last backup (in the file set aside)",
                 ", ".join(str(x) for x in lost), "(by design: the backup is per turn)")
    result.check("deleted WAL: kills, confirmed actions before them",
                 f"{wal['rounds']}, {wal['confirmed']}")
    result.check("  kills whose -wal held steps when deleted", wal["wal_held_steps"])
    result.check("  loss found at open: longer backup restored / kept and told",
                 f"{wal['longer_restored']} / {wal['told_kept']}")
    result.check("  confirmed actions lost, players told (played after the newest backup)",
                 wal["lost_told"])
    result.check("  confirmed actions lost silently", wal["lost_silently"], "0",
                 wal["lost_silently"] == 0)
    result.check("  crashes", wal["crashes"], "0", wal["crashes"] == 0)
    passed = probe["of_those_passing"]
    result.check("random page damage: cases passing quick_check",
                 f"{probe['passed_quick_check']} of {probe['cases']}")
    result.check("  of those: sound game / set aside and restored",
                 f"{passed['sound']} / {passed['set_aside']}")
    result.check("  of those: game in progress sound, an older game refused in words",
                 passed["read_refused_in_words"])
    result.check("  of those: refused at open in words", passed["refused_at_open"])
    result.check("all cases: sound / set aside / read refused in words / refused at open",
                 f"{probe['sound']} / {probe['set_aside']} / {probe['read_refused_in_words']}"
                 f" / {probe['refused_at_open']}")
    result.check("  crashes (any other exception)", probe["crashes"], "0",
                 probe["crashes"] == 0)
    result.seconds = time.monotonic() - started
    result.detail = {"ways": ways, "deleted_wal": wal, "probe": probe}
    return result
