"""The Kivy benchmarks, run in child processes with a real offscreen window.

Each measurement starts `bench/kivy_probe.py` (one process per run, so that every run
starts cold the same way) with ``SDL_VIDEODRIVER=offscreen``, a throwaway ``KIVY_HOME``,
data and config directories, ``GPIOZERO_PIN_FACTORY=mock`` and an 800x480 window (the
Pi's touchscreen), and reads the one ``RESULT`` line it prints. The baseline, a minimal
Kivy app drawing one label, runs the same way in the same run.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import ROOT, Result, summary
from bench.scripted import ScriptedPlayer, play_game, seats
from companion.rules.catalog import load_catalog
from companion.rules.standings import needs_token_count
from companion.session import Session
from companion.store import Store

PROBE = ROOT / "bench" / "kivy_probe.py"
FRAME_MS = 1000 / 60  # Kivy's default maxfps


class ProbeFailed(RuntimeError):
    pass


def kivy_env(work: Path) -> dict[str, str]:
    """The environment of a headless Kivy child: nothing of the user's is read or written."""
    env = dict(os.environ)
    env.update({
        "SDL_VIDEODRIVER": "offscreen",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_HOME": str(work / "kivy"),
        "XDG_DATA_HOME": str(work / "data"),
        "XDG_CONFIG_HOME": str(work / "config"),
        "GPIOZERO_PIN_FACTORY": "mock",
        "KCFG_GRAPHICS_WIDTH": "800",
        "KCFG_GRAPHICS_HEIGHT": "480",
        "KIVY_CLIPBOARD": "sdl2",
        "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
    })
    env.pop("COMPANION_KIOSK", None)
    return env


def start_probe(mode: str, args: dict[str, Any], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(PROBE), mode, json.dumps(args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=env["KIVY_HOME"].rsplit("/", 1)[0])


def read_probe(child: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        raise ProbeFailed(f"the probe took over {timeout:.0f} s: {err[-1500:]}") from None
    for line in out.splitlines():
        if line.startswith("RESULT "):
            result: dict[str, Any] = json.loads(line[len("RESULT "):])
            if "error" in result:
                raise ProbeFailed(f"{result['error']}\n{err[-1500:]}")
            return result
    raise ProbeFailed(f"no result (exit {child.returncode}): {err[-2000:]}")


def run_probe(mode: str, args: dict[str, Any], env: dict[str, str],
              timeout: float = 120) -> dict[str, Any]:
    return read_probe(start_probe(mode, args, env), timeout)


def saved_games(path: Path, *, seed: int = 5, unfinished_intents: int = 120,
                players: int = 5) -> None:
    """A saved-games file as a table has it: one finished game and one half-way."""
    catalog = load_catalog()
    with Store.open(path, catalog=catalog) as store:
        finished = Session(catalog, rng=random.Random(seed), store=store)
        play_game(finished, random.Random(seed + 1), players)
        coins = {p.seat: p.coins for p in finished.state.players}
        finished.finish({seat: 10 + seat for seat in needs_token_count(coins)} or None)
        playing = Session(catalog, rng=random.Random(seed + 2), store=store)
        playing.new_game(seats(players), first_seat=0)
        player = ScriptedPlayer(playing, random.Random(seed + 3))
        for _ in range(unfinished_intents):
            if playing.state.is_over:
                break
            player.intent()


# --- start-up ----------------------------------------------------------------------------


def startup(work: Path, runs: int = 5, warmup: bool = True) -> list[Result]:
    """Launch to the first drawn frame: `companion run` against the minimal Kivy app."""
    env = kivy_env(work)
    db = work / "startup.sqlite3"
    saved_games(db)
    times: dict[str, list[float]] = {"startup-app": [], "startup-minimal": []}
    screens: set[str] = set()
    # A first round warms the disk cache and lets Kivy write its config.ini.
    for n in range(runs + 1 if warmup else runs):
        for mode in ("startup-app", "startup-minimal"):
            launched = time.monotonic()
            result = run_probe(mode, {"db": str(db)}, env)
            if n or not warmup:
                times[mode].append(result["first_frame"] - launched)
            if mode == "startup-app":
                screens.add(result["screen"])
    app = summary([t * 1000 for t in times["startup-app"]])
    minimal = summary([t * 1000 for t in times["startup-minimal"]])
    ok = app["p50"] <= 1.5 * minimal["p50"]
    return [Result("startup", "Start-up to the first frame of the home screen (p50)",
                   app["p50"], "ms", minimal["p50"], "minimal Kivy app", "<= 1.5x minimal app",
                   ok and screens == {"home"},
                   detail={"app_ms": app, "minimal_ms": minimal, "screens": sorted(screens)},
                   note=f"{runs} runs each, alternating, after one warm-up run")]


# --- idle CPU ------------------------------------------------------------------------------


def idle(work: Path, seconds: float = 20, settle: float = 3) -> tuple[list[Result], dict[str, Any]]:
    """CPU seconds over `seconds` on the table screen, against the minimal app, side by side."""
    env = kivy_env(work)
    db = work / "idle.sqlite3"
    saved_games(db)
    args = {"db": str(db), "seconds": seconds, "settle": settle}
    children = {mode: start_probe(mode, args, env) for mode in ("idle-app", "idle-minimal")}
    results = {mode: read_probe(child, seconds + settle + 90)
               for mode, child in children.items()}
    app, minimal = results["idle-app"], results["idle-minimal"]
    margin = max(minimal["cpu_seconds"] * 0.10, 0.05)  # measurement noise, see README
    share = app["cpu_seconds"] / app["wall"] * 100
    ok = (app["cpu_seconds"] <= minimal["cpu_seconds"] + margin and share < 2.0
          and app["screen"] == "table")
    return [
        Result("idle_cpu", f"Idle CPU over {seconds:g} s on the table screen", app["cpu_seconds"],
               "CPU s", minimal["cpu_seconds"], "minimal Kivy app",
               "<= minimal app, < 2% of a core", ok,
               detail={"app": app, "minimal": minimal, "app_percent_of_core": share},
               note=f"{share:.2f}% of a core; {app['frames_drawn']} frames drawn while idle; "
                    f"screen {app['screen']}"),
    ], minimal


# --- memory after a game -----------------------------------------------------------------------


def rss(work: Path, minimal_mb: float | None, players: int = 5,
        max_intents: int | None = None) -> list[Result]:
    """Resident memory after a whole 5-player game played with the app on screen.

    `max_intents` stops the game early (for the smoke test only).
    """
    env = kivy_env(work)
    result = run_probe("rss", {"db": str(work / "rss.sqlite3"), "players": players,
                               "max_intents": max_intents}, env, timeout=600)
    mb = result["memory"]["VmRSS"]
    return [Result("rss", f"Resident memory after a full {players}-player game", mb, "MB",
                   minimal_mb, "minimal Kivy app", "< 150 MB", mb < 150,
                   detail=result,
                   note=f"{result['memory_before_game']['VmRSS']:.0f} MB before the game; "
                        f"{result['intents']} intents; peak {result['memory']['VmHWM']:.0f} MB")]


# --- tap to screen -------------------------------------------------------------------------------


def taps(work: Path, row_taps: int = 60, presses: int = 40) -> list[Result]:
    """From the finger (or the pin) to the end of the first frame that shows the result."""
    env = kivy_env(work)
    result = run_probe("taps", {"db": str(work / "taps.sqlite3"), "row_taps": row_taps,
                                "presses": presses}, env, timeout=120 + row_taps + 3 * presses)
    frame = 1000 / result.get("maxfps", 60) if result.get("maxfps") else FRAME_MS
    rows: list[Result] = []
    for key, label, goal in (
        ("row_to_dialog", "Tap a combo row -> its purchase dialog drawn", True),
        ("confirm_to_table", "Tap 'Take' -> purchase saved and shown on the table", True),
        ("press_to_roll", "Die button press -> die screen rolling (face saved)", True),
        ("press_to_face", "Die button press -> rolled face drawn (after the tumble)", False),
    ):
        values = [v * 1000 for v in result.get(key, [])]
        s = summary(values)
        if not s:
            rows.append(Result(f"tap_{key}", label, None, "ms", frame, "1 frame",
                               "p99 <= 2 frames" if goal else "(information)", False if goal
                               else None, note="no sample"))
            continue
        for q in ("p50", "p99"):
            met = (s[q] <= 2 * frame) if goal and q == "p99" else None
            rows.append(Result(f"tap_{key}_{q}", f"{label} ({q})", s[q], "ms", frame,
                               "1 frame at 60 fps",
                               ("p99 <= 2 frames" if goal else "(information)") if q == "p99"
                               else "", met, detail=s if q == "p50" else {},
                               note=f"n={s['n']}" if q == "p50" else ""))
    if result.get("timeouts"):
        rows[-1].note += f"; {result['timeouts']} samples never showed within 5 s"
    return rows
