"""The Kivy benchmarks, run in child processes with a real offscreen window.

Each measurement starts `bench/kivy_probe.py` (one process per run, so that every run
starts cold the same way) with ``SDL_VIDEODRIVER=offscreen``, a throwaway ``KIVY_HOME``,
data and config directories, ``GPIOZERO_PIN_FACTORY=mock`` and an 800x480 window (the
Pi's touchscreen), and reads the one ``RESULT`` line it prints. The baselines run the same
way in the same run: a minimal Kivy app drawing one label (start-up, idle CPU, memory), and
a well-written small app (`bench/baseline_app.py`) for the taps.

The children run as the kiosk runs: Kivy reads the shipped ``deploy/kivy-pi.ini`` (its
graphics settings: ``multisamples = 0``, ``maxfps = 60``...), and Python reads compiled
bytecode, as after ``pip install`` (``PYTHONDONTWRITEBYTECODE`` is unset for them and the
project's packages are compiled first with ``compileall``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
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
KIVY_PI_INI = ROOT / "deploy" / "kivy-pi.ini"
COMPILED_PACKAGES = ("companion", "hardware", "bench", "kv")
FRAME_MS = 1000 / 60  # Kivy's default maxfps


class ProbeFailed(RuntimeError):
    pass


def kivy_home(home: Path) -> None:
    """`home`/config.ini: the shipped ``deploy/kivy-pi.ini``, as the installer puts it, with
    its ``[input]`` section left empty: the probe posts its own touches, and a provider
    reading this machine's input devices would only add noise. The window is 800x480 and
    not fullscreen (environment variables ``KCFG_*``, set by `kivy_env`)."""
    home.mkdir(parents=True, exist_ok=True)
    # What Kivy makes in its home on import, made here once: two probes started together
    # (the idle measurement runs the app and the minimal app in parallel) raced to make
    # it, and the loser died with FileExistsError before its first frame.
    (home / "mods").mkdir(exist_ok=True)
    spec = importlib.util.find_spec("kivy")
    if spec is not None and spec.submodule_search_locations:
        logo = Path(next(iter(spec.submodule_search_locations))) / "data" / "logo"
        if logo.is_dir():
            shutil.copytree(logo, home / "icon", dirs_exist_ok=True)
    lines, section = [], ""
    for line in KIVY_PI_INI.read_text().splitlines():
        if line.startswith("["):
            section = line.strip()
        elif section == "[input]" and line.strip() and not line.startswith(";"):
            continue
        lines.append(line)
    (home / "config.ini").write_text("\n".join(lines) + "\n")


def compile_bytecode() -> None:
    """Compile the project's packages to bytecode, as ``pip install`` does for a wheel (the
    libraries in the virtual environment were compiled when pip installed them)."""
    for package in COMPILED_PACKAGES:
        if (ROOT / package).is_dir():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / package)],
                           check=True, stdout=subprocess.DEVNULL)


def installed(work: Path) -> tuple[str, str]:
    """An interpreter that sees the project as ``pip install`` leaves it on the Pi (the
    wheel's files, compiled; no editable install's finder, which costs every start-up
    some 15-20 ms of imports here) and the libraries of this virtual environment: returns
    its python and the folder to put on ``PYTHONPATH``."""
    import sysconfig

    target, venv = work / "installed", work / "venv"
    if not target.is_dir():
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-build-isolation", "--target", str(target), str(ROOT)],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(target)], check=True,
                       stdout=subprocess.DEVNULL)
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv",
                        "--without-pip", str(venv)], check=True)
        site = Path(subprocess.run([str(python), "-c", "import sysconfig; print("
                                    "sysconfig.get_paths()['purelib'])"], check=True,
                                   capture_output=True, text=True).stdout.strip())
        # this environment's libraries, without its .pth files (the editable finder)
        (site / "libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return str(python), str(target)


def kivy_env(work: Path) -> dict[str, str]:
    """The environment of a headless Kivy child: nothing of the user's is read or written;
    Kivy configured as shipped (`kivy_home`), Python allowed to use and write bytecode."""
    kivy_home(work / "kivy")
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
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
        "KCFG_GRAPHICS_FULLSCREEN": "0",
        "KIVY_CLIPBOARD": "sdl2",
        "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
    })
    env.pop("COMPANION_KIOSK", None)
    return env


def start_probe(mode: str, args: dict[str, Any], env: dict[str, str],
                python: str = sys.executable) -> subprocess.Popen[str]:
    """A probe child; Kivy's errors (only those) reach its stderr, so a probe that dies
    before its result says why (Kivy exits 1 when it gets no window, saying so only in its
    log)."""
    env = {**env, "KCFG_KIVY_LOG_LEVEL": "error"}
    env.pop("KIVY_NO_CONSOLELOG", None)
    return subprocess.Popen([python, str(PROBE), mode, json.dumps(args)],
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
              timeout: float = 120, python: str = sys.executable) -> dict[str, Any]:
    return read_probe(start_probe(mode, args, env, python), timeout)


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
    """Launch to the first drawn frame: `companion run` against the minimal Kivy app, as
    installed: bytecode compiled first, and the warm-up round writes whatever was missing."""
    compile_bytecode()
    python, package = installed(work)
    env = {**kivy_env(work), "PYTHONPATH": package}
    db = work / "startup.sqlite3"
    saved_games(db)
    times: dict[str, list[float]] = {"startup-app": [], "startup-minimal": []}
    screens: set[str] = set()
    offers: set[str] = set()  # what the first home frame's Resume button says
    # A first round warms the disk cache and lets Kivy write its config.ini.
    for n in range(runs + 1 if warmup else runs):
        for mode in ("startup-app", "startup-minimal"):
            launched = time.monotonic()
            result = run_probe(mode, {"db": str(db)}, env, python=python)
            if n or not warmup:
                times[mode].append(result["first_frame"] - launched)
            if mode == "startup-app":
                screens.add(result["screen"])
                offers.add(str(result.get("offer")))
    app = summary([t * 1000 for t in times["startup-app"]])
    minimal = summary([t * 1000 for t in times["startup-minimal"]])
    # the first frame offers the saved game (read from its summary, not replayed later)
    offered = bool(offers) and all(offer.startswith("Resume ") and ": turn " in offer
                                   for offer in offers)
    ok = app["p50"] <= 1.2 * minimal["p50"]
    return [Result("startup", "Start-up to the first home frame, as installed (p50)",
                   app["p50"], "ms", minimal["p50"], "minimal Kivy app", "<= 1.2x minimal app",
                   ok and screens == {"home"} and offered,
                   detail={"app_ms": app, "minimal_ms": minimal, "screens": sorted(screens),
                           "offers": sorted(offers)},
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


# --- memory after games ------------------------------------------------------------------------


def kept_objects(measured: dict[str, Any]) -> str:
    """Python blocks and widgets after a rare screen was released, against before it was
    shown (the resident memory also holds the GL driver's caches, which stay)."""
    objects = measured.get("objects")
    if not objects:
        return "?"
    before, after = objects["before"], objects["released"]
    return f"{after['blocks'] - before['blocks']:+d}/{after['widgets'] - before['widgets']:+d}"


def by_gen(table: dict[Any, Any], generation: int) -> Any:
    """`table`[generation], whether JSON made its keys strings or not."""
    return table.get(str(generation), table.get(generation, 0))


def rss(work: Path, minimal_mb: float | None = None, players: int = 5, games: int = 10,
        max_intents: int | None = None) -> list[Result]:
    """Resident memory after each of `games` whole games played with the app on screen (an
    evening: rows for games 1, 2, 3 and the last, and the growth from game 2 to the last),
    and the garbage collector's pauses meanwhile; the minimal app's memory for scale
    (measured here unless given). `max_intents` stops each game early (for the smoke test
    only).

    Both apps draw with Mesa's software rasteriser on their main thread
    (``LP_NUM_THREADS=0``): its own threads keep some 30 MB of a frame's binned drawing
    that is held or let go from one frame to the next (a game's reading was 249 or 276 MB
    at random, the same code), which hid any trend of the app's own memory; a Pi's GPU
    driver keeps none."""
    env = {**kivy_env(work), "LP_NUM_THREADS": "0"}
    if minimal_mb is None:
        minimal_mb = float(run_probe("rss-minimal", {}, env)["memory"]["VmRSS"])
    result = run_probe("rss", {"db": str(work / "rss.sqlite3"), "players": players,
                               "games": games, "max_intents": max_intents}, env, timeout=900)
    rows: list[Result] = []
    played = result["games"]
    shown = {1, 2, 3, len(played)}
    for n, game in enumerate(played, 1):
        if n not in shown:
            continue
        mb = game["memory"]["VmRSS"]
        rows.append(Result(f"rss_game{n}", f"Resident memory after {players}-player game {n}",
                           mb, "MB", minimal_mb, "minimal Kivy app", "<= 1.5x minimal app",
                           mb <= 1.5 * minimal_mb, detail=game if n > 1 else result,
                           note=f"{game['intents']} intents in {game['seconds']:.0f} s"
                                + ("" if game["over"] else " (stopped early)")
                                + (f"; {result['memory_before_games']['VmRSS']:.0f} MB before "
                                   f"the games; peak {result['memory']['VmHWM']:.0f} MB"
                                   if n == 1 else "")))
    if len(played) >= 3:
        growth = played[-1]["memory"]["VmRSS"] - played[1]["memory"]["VmRSS"]
        rows.append(Result("rss_growth", f"  game {len(played)} - game 2", growth, "MB", None,
                           "", "<= 10 MB", growth <= 10.0,
                           note="every game's: " + " / ".join(
                               f"{g['memory']['VmRSS']:.0f}" for g in played) + " MB"))
    rare = result.get("rare_screens") or {}
    if rare:
        kept = {name: m["released"] - m["before"] for name, m in rare.items()}
        rows.append(Result("rss_rare_screen", "  a rare screen shown, then released",
                           max(kept.values()), "MB", None, "", "", None, detail=rare,
                           note="most kept after showing then releasing one of "
                                + ", ".join(sorted(rare)) + "; on show: "
                                + ", ".join(f"{name} {m['shown'] - m['before']:+.1f}"
                                            for name, m in sorted(rare.items())) + " MB"
                                + "; Python blocks / widgets kept: "
                                + ", ".join(kept_objects(m) for _, m in sorted(rare.items()))))
    gc = result["gc"]
    worst = gc["longest_ms"]
    gc_longest = gc.get("longest_by_generation_ms", {})
    full = result.get("idle_full_collection")
    full_note = ("" if full is None else
                 f"; after the games a full collection (which the app never runs) would "
                 f"find {full['found']} objects in {full['ms']:.0f} ms, "
                 f"RSS then {full['memory']['VmRSS']:.0f} MB")
    rows.append(Result("gc_pauses", f"Longest GC pause during the {len(played)} games", worst, "ms",
                       None, "", "none over 16 ms", gc["over_16ms"] == 0, detail=gc,
                       note=f"{gc['count']} collections (generation 0/1/2: "
                            f"{'/'.join(str(by_gen(gc['by_generation'], g)) for g in (0, 1, 2))}"
                            f", the longest of each "
                            f"{'/'.join(f'{by_gen(gc_longest, g):.1f}' for g in (0, 1, 2))} ms), "
                            f"{gc['over_16ms']} over 16 ms, {gc['total_ms']:.0f} ms in all; "
                            f"the longest a generation-{gc['longest_generation']} collection "
                            f"({gc.get('longest_moment', '?')})" + full_note))
    return rows


# --- tap to screen -------------------------------------------------------------------------------


TAPS = (
    # key, label, goal on p99 (None: information only)
    ("row_to_dialog", "Tap a combo row -> its purchase dialog drawn", "<= 1.2x baseline"),
    ("confirm_to_table", "Tap 'Take' -> purchase saved and shown on the table",
     "<= 1.2x baseline"),
    ("press_to_roll", "Die button press -> die screen rolling (face saved)", "<= 1.2x baseline"),
    ("map_to_panel", "Tap a map region -> its panel drawn", "<= 1.2x baseline"),
    ("turn_to_next", "Tap 'End the turn' -> the next player's turn shown",
     "<= 1.2x baseline"),
    ("press_to_face", "Die button press -> rolled face drawn (after the tumble)", None),
)


SAMPLES = (*(key for key, _, _ in TAPS), "region_redraw", "region_frame")
"""The probe's lists of samples (seconds), pooled over the runs."""


def cpu_row(key: str, goal: str | None, app: dict[str, Any],
            base: dict[str, Any]) -> list[Result]:
    """The main thread's CPU seconds a tap costs, from the finger (or the pin) to the
    frame, against the baseline app's (p50): the app's own work, Kivy's and the GL
    driver's on that thread, not the driver's rasteriser threads."""
    a = summary([v * 1000 for v in app.get("cpu", {}).get(key, [])])
    b = summary([v * 1000 for v in base.get("cpu", {}).get(key, [])])
    if not (a and b and goal):
        return []
    return [Result(f"cpu_{key}", "  its CPU on the main thread (p50)", a["p50"], "ms",
                   b["p50"], "baseline app", "<= 2x baseline", a["p50"] <= 2 * b["p50"],
                   detail={"app": a, "baseline": b},
                   note=f"the main thread's CPU from the finger (the pin) to the frame, the "
                        f"GL driver's rasteriser threads left out; p99 {a['p99']:.1f} ms "
                        f"(baseline {b['p99']:.1f} ms)")]


def taps(work: Path, row_taps: int = 60, presses: int = 40, map_taps: int | None = None,
         region_changes: int = 20, turn_taps: int = 60, rounds: int = 2) -> list[Result]:
    """From the finger (or the pin) to the end of the first frame that shows the result, for
    the app and the baseline app, in alternating runs (app, baseline, app, baseline...);
    each run takes its share of the samples. Then the map widget's redraw of one region
    change (the seconds spent in `BoardMap`'s methods, wrapped from outside)."""
    env = kivy_env(work)
    map_taps = row_taps if map_taps is None else map_taps
    share = max(1, rounds)

    def part(total: int) -> int:
        return max(1, -(-total // share)) if total else 0

    args = {"row_taps": part(row_taps), "presses": part(presses), "map_taps": part(map_taps),
            "region_changes": part(region_changes), "turn_taps": part(turn_taps)}
    merged: dict[str, dict[str, Any]] = {"taps": {}, "taps-baseline": {}}
    for n in range(share):
        for mode in ("taps", "taps-baseline"):
            result = run_probe(mode, {**args, "db": str(work / f"{mode}-{n}.sqlite3"),
                                      "seed": 11 + n},
                               env, timeout=120 + 2 * sum(args.values()) + 3 * args["presses"])
            into = merged[mode]
            for key, value in result.items():
                if key in SAMPLES:
                    into.setdefault(key, []).extend(value)
                elif key == "cpu":
                    for tapped, seconds in value.items():
                        into.setdefault("cpu", {}).setdefault(tapped, []).extend(seconds)
                elif key == "timeouts":
                    into[key] = into.get(key, 0) + value
                else:
                    into[key] = value
    app, base = merged["taps"], merged["taps-baseline"]
    rows: list[Result] = []
    for key, label, goal in TAPS:
        a = summary([v * 1000 for v in app.get(key, [])])
        b = summary([v * 1000 for v in base.get(key, [])])
        if not a:
            rows.append(Result(f"tap_{key}", label, None, "ms", b.get("p99"), "baseline app",
                               goal or "(information)", False if goal else None,
                               note="no sample"))
            continue
        for q in ("p50", "p99"):
            ok = None
            if goal and q == "p99" and b:
                ok = a[q] <= 1.2 * b[q]
            rows.append(Result(f"tap_{key}_{q}", f"{label} ({q})", a[q], "ms", b.get(q),
                               "baseline app", (goal or "(information)") if q == "p99" else "",
                               ok, detail={"app": a, "baseline": b} if q == "p50" else {},
                               note=f"n={a['n']} (baseline n={b.get('n', 0)})"
                                    if q == "p50" else ""))
        rows.extend(cpu_row(key, goal, app, base))
    redraw = summary([v * 1000 for v in app.get("region_redraw", [])])
    base_redraw = summary([v * 1000 for v in base.get("region_redraw", [])])
    if redraw:
        rows.append(Result("region_redraw", "One region change redrawn by the map (p50)",
                           redraw["p50"], "ms", base_redraw.get("p50"), "baseline app",
                           "<= 2 ms", redraw["p50"] <= 2.0,
                           detail={"app": redraw, "baseline": base_redraw},
                           note=f"n={redraw['n']}: a conquest or its undo on the map screen; "
                                "the seconds spent in BoardMap's methods up to the next "
                                f"frame; p99 {redraw['p99']:.1f} ms"))
    frame = summary([v * 1000 for v in app.get("region_frame", [])])
    base_frame = summary([v * 1000 for v in base.get("region_frame", [])])
    if frame:
        rows.append(Result("region_frame", "  the change -> the frame showing it (p50)",
                           frame["p50"], "ms", base_frame.get("p50"), "baseline app",
                           "(information)", None, detail={"app": frame, "baseline": base_frame},
                           note=f"the session's call (the baseline's update), the publishing, "
                                f"the map and the drawing; p99 {frame['p99']:.1f} ms"))
    timeouts = app.get("timeouts", 0) + base.get("timeouts", 0)
    if timeouts and rows:
        rows[-1].note += f"; {timeouts} samples never showed within 5 s"
    for r in rows:
        r.detail.setdefault("multisamples", app.get("multisamples"))
        r.detail.setdefault("window", app.get("window"))
    return rows
