"""`make drills`: fault drills that show how sturdy the companion is.

    .venv/bin/python drills/run.py [--quick] [--only NAME ...] [--dir DIR] [--json FILE]
        [--wal-kills N] [--probes N] [--instances N] [--config-every-key]
        [--power-cuts N]

(through make: ``make drills DRILLS_ARGS="--only two_instances --instances 30"``)

Each drill prints what it tried and what survived, check by check, with the goal of each
check; with ``--json FILE`` the results also go to FILE, with the machine they ran on.
Nothing is asserted: a goal not met is a line that says NO, and the command exits 0; it
exits 1 when a drill could not run at all, or, with ``--strict``, when any goal was not
met. A drill that cannot be taken on this machine (the power-loss drill where FUSE cannot
be used) is reported as SKIPPED with the reason, never as met.
"""

from __future__ import annotations

import argparse
import json
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

from bench.common import machine, table  # noqa: E402
from drills.report import Drill  # noqa: E402

NAMES = ("power_cut", "serial_abuse", "unplug_storm", "button_abuse", "bad_input",
         "damaged_database", "two_instances", "bad_config", "power_loss")


def drills(work: Path, quick: bool, args: argparse.Namespace | None = None
           ) -> dict[str, Callable[[], Drill]]:
    from drills import (
        bad_config,
        bad_input,
        button,
        damaged_database,
        grid,
        power_cut,
        power_loss,
        two_instances,
    )

    def size(name: str, full: int, small: int) -> int:
        given = getattr(args, name, None)
        return int(given) if given is not None else small if quick else full

    def folder(name: str) -> Path:
        path = work / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def bad() -> Drill:
        for sub in ("score", "config"):
            folder(f"bad_input/{sub}")
        return bad_input.drill(work / "bad_input")

    return {
        "power_cut": lambda: power_cut.drill(folder("power_cut"), kills=20 if quick else 200),
        "serial_abuse": lambda: grid.serial_abuse(
            folder("serial_abuse"), total_bytes=100_000 if quick else 1_000_000,
            bursts=4 if quick else 20),
        "unplug_storm": lambda: grid.unplug_storm(folder("unplug_storm"),
                                                  cycles=8 if quick else 100),
        "button_abuse": lambda: button.drill(),
        "bad_input": bad,
        "damaged_database": lambda: damaged_database.drill(
            folder("damaged_database"), wal_rounds=size("wal_kills", 100, 10),
            probes=size("probes", 200, 40)),
        "two_instances": lambda: two_instances.drill(
            folder("two_instances"), pairs=size("instances", 20, 2),
            rounds=size("instances", 20, 2)),
        "bad_config": lambda: bad_config.drill(
            folder("bad_config"), every_key=bool(getattr(args, "config_every_key", False))),
        "power_loss": lambda: power_loss.drill(
            folder("power_loss"), quick=quick, scale=getattr(args, "power_cuts", None)),
    }


def show(drill: Drill) -> str:
    if drill.skipped is not None:
        return f"== {drill.name}: SKIPPED, not run here: {drill.skipped}"
    lines = [f"== {drill.name} ({drill.seconds:.0f} s)", f"tried: {drill.tried}", ""]
    rows = [[c.what, c.value, c.goal, {True: "yes", False: "NO", None: "-"}[c.met]]
            for c in drill.checks]
    lines.append(table(rows, ("survived", "count", "goal", "met?")))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="drills/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a minute or so)")
    parser.add_argument("--only", nargs="+", choices=NAMES, default=list(NAMES), metavar="NAME",
                        help=f"run only these: {', '.join(NAMES)}")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the drills work (default: a temporary folder)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when any goal is not met")
    parser.add_argument("--json", type=Path, default=None,
                        help="also write the results, with the machine, to this file")
    parser.add_argument("--wal-kills", type=int, default=None, metavar="N",
                        help="damaged_database: kills followed by a deleted -wal (100)")
    parser.add_argument("--probes", type=int, default=None, metavar="N",
                        help="damaged_database: random page damages (200)")
    parser.add_argument("--instances", type=int, default=None, metavar="N",
                        help="two_instances: pairs of apps, and rounds of two stores (20)")
    parser.add_argument("--power-cuts", type=int, default=None, metavar="N",
                        help="power_loss: about N cuts, spread over the faults and moments "
                             "as in the full run (150)")
    parser.add_argument("--config-every-key", action="store_true",
                        help="bad_config: one start per key and bad value (about 290; "
                             "10 minutes) instead of one per bad value")
    args = parser.parse_args(argv)
    started = time.monotonic()
    results: list[Drill] = []
    with tempfile.TemporaryDirectory(prefix="companion-drills-", dir=args.dir) as tmp:
        work = Path(tmp)
        available = drills(work, args.quick, args)
        for name in args.only:
            print(f"drills: {name}...", file=sys.stderr, flush=True)
            begun = time.monotonic()
            try:
                drill = available[name]()
            except Exception as error:  # a drill that breaks is itself a finding
                drill = Drill(name, "the drill could not run")
                drill.check("error", "".join(traceback.format_exception_only(error)).strip()
                            [-300:], "none", False)
                drill.detail = {"traceback": traceback.format_exc()[-3000:]}
                drill.seconds = time.monotonic() - begun
            results.append(drill)
            print(show(drill), flush=True)
            print(flush=True)
        info = machine()
        took = time.monotonic() - started
        skipped = [d for d in results if d.skipped is not None]
        failed = [d.name for d in results if not d.met and d.skipped is None]
        print(f"drills: {len(results) - len(failed) - len(skipped)} of {len(results)} met "
              "every goal"
              + (f"; not met: {', '.join(failed)}" if failed else "")
              + "".join(f"; SKIPPED: {d.name} ({d.skipped})" for d in skipped)
              + f" ({took:.0f} s on {info['cpu']}, {info['cores']} cores, Python {info['python']})")
        document = {"taken": datetime.now(UTC).isoformat(timespec="seconds"), "machine": info,
                    "quick": args.quick, "seconds": round(took, 1),
                    "drills": [d.as_json() for d in results]}
        if args.json:
            args.json.write_text(json.dumps(document, indent=2, default=str) + "\n")
            print(f"results written to {args.json}")
    broken = any(d.tried == "the drill could not run" for d in results)
    return 1 if broken or (args.strict and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
