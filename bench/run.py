"""`make bench`: how fast the companion is, against baselines measured in the same run.

    .venv/bin/python bench/run.py [--quick] [--only KEY ...] [--dir DIR] [--json FILE]

Prints one table (metric, this project, baseline, ratio, goal, met?) and writes the same
results, with the machine they were taken on, to ``bench-results.json`` at the top of the
repository. `bench/README.md` says what each line measures and how. Nothing is asserted:
a goal that is not met is a line that says NO, and the command still exits 0; it exits 1
only when a measurement could not be taken at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    RESULT_HEADER,
    Result,
    filesystem_of,
    machine,
    result_rows,
    table,
)

SECTIONS = ("startup", "idle", "rss", "taps", "durable", "replay", "open", "scoring",
            "parser")


def _failed(key: str, error: BaseException) -> Result:
    text = "".join(traceback.format_exception_only(error)).strip().splitlines()[-1]
    return Result(key, f"{key}: could not be measured", None, "", goal="", met=False,
                  note=text[:300], detail={"traceback": traceback.format_exc()[-3000:]})


def run(only: set[str], work: Path, quick: bool, log: Callable[[str], None]) -> list[Result]:
    from bench import pure, ui

    results: list[Result] = []
    minimal_rss: float | None = None

    def section(key: str, measure: Callable[[], list[Result]]) -> None:
        if key not in only:
            return
        log(f"bench: {key}...")
        started = time.monotonic()
        try:
            found = measure()
        except Exception as error:  # one broken measurement must not hide the others
            found = [_failed(key, error)]
        for result in found:
            result.detail.setdefault("seconds_taken", round(time.monotonic() - started, 1))
        results.extend(found)

    def idle() -> list[Result]:
        nonlocal minimal_rss
        rows, minimal = ui.idle(work / "idle", seconds=5 if quick else 20,
                                settle=1 if quick else 3)
        minimal_rss = minimal.get("memory", {}).get("VmRSS")
        return rows

    for folder in ("startup", "idle", "rss", "taps", "store"):
        (work / folder).mkdir(parents=True, exist_ok=True)
    section("startup", lambda: ui.startup(work / "startup", runs=2 if quick else 5))
    section("idle", idle)
    section("rss", lambda: ui.rss(work / "rss", minimal_rss))
    section("taps", lambda: ui.taps(work / "taps", row_taps=16 if quick else 60,
                                    presses=8 if quick else 30, map_taps=16 if quick else 60,
                                    region_changes=6 if quick else 20,
                                    turn_taps=8 if quick else 60))
    game: list[pure.PlayedGame] = []

    def played() -> pure.PlayedGame:
        if not game:
            game.append(pure.PlayedGame(work / "store"))
        return game[0]

    section("durable", lambda: pure.durable_intent(played()))
    section("replay", lambda: pure.replay_bench(played(), repeats=5 if quick else 20))
    section("open", lambda: pure.open_bench(work / "open", runs=3 if quick else 7))
    section("scoring", lambda: pure.scoring_bench(played(), loops=50 if quick else 200))
    section("parser", lambda: pure.parser_bench(frames=5000 if quick else 20000))
    for g in game:
        g.close()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and samples")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS),
                        metavar="KEY", help=f"measure only these: {', '.join(SECTIONS)}")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the databases are written (default: a temporary folder)")
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results.json",
                        help="where the results go (default: bench-results.json)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=args.dir) as tmp:
        work = Path(tmp)
        results = run(set(args.only), work, args.quick,
                      lambda text: print(text, file=sys.stderr, flush=True))
        disk = filesystem_of(work)
    info = machine()
    took = time.monotonic() - started
    load_after = os.getloadavg()
    load = (f"load average {load_before[0]:.2f} at the start, {load_after[0]:.2f} at the end "
            f"({load_after[2]:.2f} over 15 min)")
    print()
    print(f"Table Companion benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC: {info['cpu']}, "
          f"{info['cores']} cores, Python {info['python']}, Kivy {info['kivy']}, "
          f"SQLite {info['sqlite']}; databases on {disk}; took {took:.0f} s"
          + (" (--quick)" if args.quick else "") + f"; {load}")
    print()
    print(table(result_rows(results), RESULT_HEADER))
    notes = [f"- {r.metric.strip()}: {r.note}" for r in results if r.note]
    if notes:
        print()
        print("\n".join(notes))
    unmet = [r.metric.strip() for r in results if r.met is False]
    print()
    print(f"goals met: {sum(r.met is True for r in results)}, not met: {len(unmet)}")
    document = {
        "taken": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {**info, "disk": disk},
        "quick": args.quick,
        "seconds": round(took, 1),
        "load_average": {"start": load_before, "end": load_after},
        "results": [r.as_json() for r in results],
    }
    args.json.write_text(json.dumps(document, indent=2, default=str) + "\n")
    print(f"results written to {args.json}")
    return 1 if any(r.value is None and r.met is False for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
