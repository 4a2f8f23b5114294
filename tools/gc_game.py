"""Garbage collection over a whole scripted game, in the real app, headless.

    .venv/bin/python tools/gc_game.py [--players 5] [--seed 7] [--games 1]

Starts the app as the kiosk does (`companion run --db ...` in a throwaway folder, one
offscreen 800x480 window), waits until every screen is built, then plays whole games
through the session (`bench.scripted.ScriptedPlayer`, one intent per frame), showing the
screen a player would look at in each phase, as the memory benchmark does. Every garbage
collection is timed with `gc.callbacks` and counted as "in an intent" (the tap's work),
or "elsewhere" (between frames: an end-of-turn or idle collection). Prints one JSON line:
collections per generation, the full (generation 2) ones and their longest pause, the
longest pause of any collection in an intent, and the resident memory after each game
(as it is, and after a full collection and ``malloc_trim(0)``). With ``GC_GAME_COUNT=1``
it also lists the objects in generations 2, 1 and 0 at the start of the last full
collections (slow: for finding out what a full pass has to scan). A measuring aid only:
nothing in the app imports it; the kiosk's own measurements are `make bench`'s.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def collected_rss() -> float:
    """The resident memory after a full collection and ``malloc_trim(0)`` (glibc)."""
    import ctypes
    import gc

    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)
    return round(rss_mb(), 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="gc-game-"))
    os.environ.update({"SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
                       "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1",
                       "KIVY_HOME": str(work / "kivy"), "XDG_DATA_HOME": str(work / "data"),
                       "GPIOZERO_PIN_FACTORY": "mock", "KCFG_GRAPHICS_WIDTH": "800",
                       "KCFG_GRAPHICS_HEIGHT": "480", "KCFG_GRAPHICS_MULTISAMPLES": "0"})

    import gc
    import random

    from kivy.clock import Clock

    import companion.app as start
    from bench.scripted import ScriptedPlayer, seats

    screens_for = {"PICK_COMBO": "market", "CONQUER": "map", "REDEPLOY": "map",
                   "SCORE": "scoring", "FINISHED": "table"}
    where = {"now": "start"}
    collections: list[dict[str, Any]] = []
    began: dict[int, float] = {}
    sizes: list[tuple[int, int, int]] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if os.environ.get("GC_GAME_COUNT") and info["generation"] == 2:
                sizes.append((len(gc.get_objects(2)), len(gc.get_objects(1)),
                              len(gc.get_objects(0))))
            began[info["generation"]] = time.perf_counter()
        else:
            ms = (time.perf_counter() - began.pop(info["generation"], time.perf_counter())) * 1000
            collections.append({"gen": info["generation"], "ms": ms, "where": where["now"]})

    base: Any = start.TableApp  # type: ignore[attr-defined]
    result: dict[str, Any] = {"players": args.players, "seed": args.seed, "games": []}

    class Probe(base):  # type: ignore[misc]
        def on_start(self) -> None:
            super().on_start()
            Clock.schedule_once(lambda _dt: self.wait_for_screens(), 0.5)

        def wait_for_screens(self) -> None:
            if len(self.screens._built) < len(self.screens):
                Clock.schedule_once(lambda _dt: self.wait_for_screens(), 0.2)
                return
            Clock.schedule_once(lambda _dt: self.play(0), 1.0)

        def play(self, number: int) -> None:
            session = self.session
            gc.callbacks.append(timed)
            del collections[:]
            session.new_game(seats(args.players), first_seat=0)
            self.ctx.nav.go("table")
            player = ScriptedPlayer(session, random.Random(args.seed + number))
            counts = {"intents": 0}

            def step(_dt: float) -> bool:
                if session.state.is_over:
                    Clock.schedule_once(lambda _dt: self.game_done(number, counts), 1.0)
                    return False
                screen = screens_for.get(session.state.track.phase.name, "table")
                where["now"] = "intent"
                try:
                    if self.ctx.nav.current != screen:
                        self.ctx.nav.go(screen)  # a tap that shows a screen
                    else:
                        player.intent()
                        counts["intents"] += 1
                finally:
                    where["now"] = "between"
                return True

            Clock.schedule_interval(step, 0)

        def game_done(self, number: int, counts: dict[str, int]) -> None:
            gc.callbacks.remove(timed)
            full = [c for c in collections if c["gen"] == 2]
            tapped = [c for c in collections if c["where"] == "intent"]
            result["games"].append({
                "intents": counts["intents"],
                "collections": {g: sum(1 for c in collections if c["gen"] == g)
                                for g in (0, 1, 2)},
                "full": len(full),
                "full_in_intents": sum(1 for c in full if c["where"] == "intent"),
                "longest_full_ms": round(max((c["ms"] for c in full), default=0.0), 1),
                "full_ms": sorted(round(c["ms"], 1) for c in full),
                "longest_in_intent_ms": round(max((c["ms"] for c in tapped), default=0.0), 1),
                "longest_elsewhere_ms": round(max((c["ms"] for c in collections
                                                  if c["where"] != "intent"), default=0.0), 1),
                "rss_mb": round(rss_mb(), 1),
                "rss_collected_trimmed_mb": collected_rss(),
                "sizes": sizes[-5:],
                "frozen": gc.get_freeze_count(),
                "thresholds": gc.get_threshold(),
            })
            if number + 1 < args.games:
                Clock.schedule_once(lambda _dt: self.play(number + 1), 0.5)
                return
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
            os._exit(0)

    start.TableApp = Probe  # type: ignore[attr-defined]
    from companion.cli import main as cli

    cli(["run", "--db", str(work / "games.sqlite3")])


if __name__ == "__main__":
    main()
