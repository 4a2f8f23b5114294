"""The child process of the Kivy benchmarks: one real (offscreen) window per run.

    python bench/kivy_probe.py MODE '{"db": "...", ...}'

Every mode prints one line ``RESULT {json}`` on stdout and exits at once (``os._exit``:
the teardown of Kivy is not part of any measurement). The parent (`bench.ui`) sets the
environment: ``SDL_VIDEODRIVER=offscreen``, a throwaway ``KIVY_HOME`` and data
directory, ``GPIOZERO_PIN_FACTORY=mock`` and an 800x480 window, the Pi's touchscreen.

Modes:
- ``startup-app``: ``companion run --db DB`` as the kiosk starts it, until the first frame
  of the home screen has been drawn (the end of the first buffer flip);
- ``startup-minimal``: a minimal Kivy app drawing one label, until its first frame;
- ``idle-app`` / ``idle-minimal``: the app resumed on its table screen (or the minimal
  app), then the process's CPU seconds over ``seconds`` of nothing happening;
- ``rss-minimal``: the minimal app's resident memory, once it has drawn for a moment;
- ``rss``: three whole 5-player games played through the session, the app showing each
  screen the players would look at; the resident memory after each game, every garbage
  collection of the games (``gc.callbacks``: generation, duration, and the moment it ran
  in: an end of turn, an intent, a screen shown...), and at the end what a full
  collection (everything unfrozen; the app never runs one) would find and free;
- ``taps`` / ``taps-baseline``: simulated touches on the market's combo rows, on the
  confirmation, on the table's "End the turn" and on the map's regions, and presses of the
  mock die button, each timed from the finger (or the pin) to the end of the flip of the
  first frame that shows the result; and the time the map widget takes to redraw one
  region change. ``taps`` drives the companion, ``taps-baseline`` the well-written
  baseline app (`bench/baseline_app.py`) the same way (`CompanionTarget` and
  `BaselineTarget` below).

Every flip is followed by ``glFinish()``, as a real display's buffer swap waits for the
frame to be drawn: without it, Mesa's llvmpipe (software GL, and ``SDL_VIDEODRIVER=
offscreen``) queues frames it has not drawn, and the first texture upload after them waits
for the whole backlog, so a tap's time would measure the queue, not the app.
"""

from __future__ import annotations

import json
import os
import sys
import time

STARTED = time.monotonic()

from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # for `bench`; `companion` comes first from PYTHONPATH, as
    sys.path.append(str(ROOT))  # installed when the start-up is measured

from typing import Any  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
ARGS: dict[str, Any] = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}


PROFILER: Any = None


def start_profile() -> None:
    """With ``"profile": PATH`` in the arguments, profile the main thread into PATH (with
    ``"profile_cpu": true``, in its CPU seconds: a wait for the disk or the next frame
    counts nothing)."""
    global PROFILER
    if ARGS.get("profile") and PROFILER is None:
        import cProfile

        PROFILER = (cProfile.Profile(time.thread_time) if ARGS.get("profile_cpu")
                    else cProfile.Profile())
        PROFILER.enable()


def finish(data: dict[str, Any]) -> None:
    """Print the result and leave at once, whatever thread this is."""
    if PROFILER is not None:
        PROFILER.disable()
        PROFILER.dump_stats(str(ARGS["profile"]))
    data.setdefault("mode", MODE)
    data.setdefault("process_started", STARTED)
    sys.stdout.write("RESULT " + json.dumps(data) + "\n")
    sys.stdout.flush()
    os._exit(0)


def fail(message: str) -> None:
    finish({"error": message})


def memory() -> dict[str, float]:
    """VmRSS and VmHWM (peak) of this process, in MB."""
    found: dict[str, float] = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) / 1024
    return found


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each thread of this process so far, by thread name (Linux)."""
    found: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/self/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        found[name] = found.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return found


def cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main_cpu() -> float:
    """The main thread's CPU seconds so far (user and system), read from any thread: the
    app's own work, Kivy's and the GL driver's on that thread; not the driver's
    rasteriser threads (Mesa's llvmpipe draws the pixels on threads of its own, a Pi's
    GPU on its own silicon)."""
    import threading

    ident = threading.main_thread().ident
    assert ident is not None
    return time.clock_gettime(time.pthread_getcpuclockid(ident))


class FlipWatch:
    """Hooks the window's buffer flip: counts frames and checks waiting conditions.

    A condition is checked right after each flip; the first flip after which it holds is
    the frame that shows what it describes (everything on screen was drawn before it).
    """

    def __init__(self, window: Any) -> None:
        import threading

        self.frames = 0
        self.last = 0.0
        self._lock = threading.Lock()
        self._waiting: list[dict[str, Any]] = []
        self.on_first: list[Any] = []
        original = window.flip
        finish_frame: Any = None
        if ARGS.get("gl_finish", True):
            from kivy.graphics.opengl import glFinish

            finish_frame = glFinish

        def flip() -> None:
            original()
            if finish_frame is not None:
                finish_frame()  # what a display's swap does: the frame is drawn by now
            now = time.monotonic()
            cpu = time.thread_time()  # the main thread's CPU seconds so far (see main_cpu)
            self.frames += 1
            self.last = now
            if self.frames == 1:
                for callback in self.on_first:
                    callback(now)
            with self._lock:
                waiting = list(self._waiting)
            for entry in waiting:
                try:
                    ready = entry["condition"]()
                except Exception as error:  # a probe bug: say so instead of hanging
                    entry["error"] = repr(error)
                    ready = True
                if ready:
                    entry["at"] = now
                    entry["cpu"] = cpu
                    entry["frames"] = self.frames
                    with self._lock:
                        self._waiting.remove(entry)
                    entry["event"].set()

        window.flip = flip

    def expect(self, condition: Any) -> dict[str, Any]:
        import threading

        entry = {"condition": condition, "event": threading.Event(), "at": None,
                 "frames0": self.frames}
        with self._lock:
            self._waiting.append(entry)
        return entry

    def wait(self, entry: dict[str, Any], timeout: float = 5.0) -> float | None:
        """When the frame that satisfied `entry` was flipped (None: not within timeout)."""
        if not entry["event"].wait(timeout):
            with self._lock:
                if entry in self._waiting:
                    self._waiting.remove(entry)
            return None
        if "error" in entry:
            fail(f"a condition failed: {entry['error']}")
        at: float | None = entry["at"]
        return at


# --- the minimal baseline app -----------------------------------------------------------


def minimal_app(on_start: Any) -> None:
    from kivy.app import App
    from kivy.uix.label import Label

    class Minimal(App):  # type: ignore[misc]
        def build(self) -> Any:
            return Label(text="Table Companion for Small World")

        def on_start(self) -> None:
            on_start(self)

    Minimal().run()


def companion_app(on_start: Any, db: str) -> None:
    """`companion run --db DB`, as the kiosk runs it, with `on_start(app)` called at start:
    for the start-up modes as the app starts (before its first frame), for the others once
    start-up is over: `TableApp.ready` (the session, the store and the devices are there,
    which the app makes after its first frame) and the screens built in the background
    (`MemoryPolicy.settled`, about a second later), so that a tap measured is a tap on the
    app at rest, not one that shares its frame with a screen being built."""
    from kivy.clock import Clock

    import companion.app as start

    base: Any = start.TableApp  # type: ignore[attr-defined]

    class Probe(base):  # type: ignore[misc]
        def on_start(self) -> None:
            super().on_start()
            if MODE.startswith("startup"):
                self.started()
            else:
                self._waiting = Clock.schedule_interval(self._at_rest, 0.05)

        def _at_rest(self, _dt: float) -> None:
            if self.ready and self.memory.settled:
                self._waiting.cancel()
                self.started()

        def started(self) -> None:
            if ARGS.get("gc_freeze"):  # what-if: the start-up heap left out of collections
                import gc

                gc.collect()
                gc.freeze()
            on_start(self)

    start.TableApp = Probe  # type: ignore[attr-defined]
    from companion.cli import main

    main(["run", "--db", db])


# --- start-up -----------------------------------------------------------------------------


def startup(app: Any, screen: Any, offer: Any = None) -> None:
    """The end of the first flip that shows the home screen (`screen(app)` says which), and
    what its Resume button says on that frame (`offer(app)`)."""
    from kivy.core.window import Window

    watch = FlipWatch(Window)
    first: dict[str, float] = {}

    def flipped(at: float) -> None:
        first["at"] = at

    watch.on_first.append(flipped)

    def shown() -> bool:
        on_show = screen(app) in ("home", "minimal")
        if on_show and offer is not None:
            first["offer"] = offer(app)
        return on_show

    entry = watch.expect(shown)

    def wait_for_it() -> None:
        at = watch.wait(entry, timeout=60)
        if PROFILER is not None:
            PROFILER.disable()
        finish({"first_frame": at, "any_first_frame": first.get("at"), "screen": screen(app),
                "frames": entry.get("frames"), "offer": first.get("offer"),
                "memory": memory()})

    import threading

    threading.Thread(target=wait_for_it, daemon=True).start()


def resume_offer(app: Any) -> str:
    """What the home screen's Resume button says."""
    return str(app.presenters["home"].resume_text)


def home_shown(app: Any) -> str:
    manager = app.manager
    if manager is None or manager.transition.is_active or manager.current_screen is None:
        return "(changing)"
    return str(manager.current_screen.name)


# --- idle CPU -----------------------------------------------------------------------------


def idle(app: Any, *, resume: bool) -> None:
    from kivy.clock import Clock
    from kivy.core.window import Window

    watch = FlipWatch(Window)
    seconds = float(ARGS.get("seconds", 20))
    settle = float(ARGS.get("settle", 3))
    state: dict[str, Any] = {}

    def begin(_dt: float) -> None:
        if resume:
            app.presenters["home"].resume()  # the Resume button's action
        Clock.schedule_once(measure, settle)

    def measure(_dt: float) -> None:
        state["cpu"], state["wall"], state["frames"] = cpu_seconds(), time.monotonic(), watch.frames
        state["threads"] = thread_cpu()
        start_profile()  # with "profile": PATH, the idle seconds only
        Clock.schedule_once(end, seconds)

    def end(_dt: float) -> None:
        cpu = cpu_seconds() - state["cpu"]
        wall = time.monotonic() - state["wall"]
        threads = {name: round(seconds - state["threads"].get(name, 0.0), 3)
                   for name, seconds in thread_cpu().items()}
        screen = app.manager.current if resume else "minimal"
        events = [getattr(e.get_callback(), "__qualname__", "?") for e in Clock.get_events()
                  if getattr(e, "loop", False)]
        pending = [getattr(e.get_callback(), "__qualname__", "?") for e in Clock.get_events()]
        finish({"cpu_seconds": cpu, "wall": wall, "frames_drawn": watch.frames - state["frames"],
                "screen": screen, "repeating_events": events, "scheduled_events": pending,
                "thread_cpu_seconds": {k: v for k, v in threads.items() if v},
                "memory": memory()})

    Clock.schedule_once(begin, 0.5)


# --- memory after whole games --------------------------------------------------------------


SCREEN_FOR_PHASE = {"PICK_COMBO": "market", "CONQUER": "map", "REDEPLOY": "map",
                    "SCORE": "scoring", "FINISHED": "table"}


MOMENTS = (("_calm", "end of turn"), ("_when_idle", "idle"), ("screen_built", "screen built"),
           ("_build_one_more", "screen built"), ("intent", "in an intent"),
           ("_navigate", "showing a screen"))
"""Where a collection ran, from the functions on the stack (innermost first): the memory
policy's calm moments, or inside a tap's work (an intent, a screen shown)."""


def gc_moment() -> str:
    frame: Any = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_name
        for function, moment in MOMENTS:
            if name == function:
                return moment
        frame = frame.f_back
    return "other"


class GcWatch:
    """Every garbage collection while installed: generation, duration and moment
    (``gc.callbacks``; `gc_moment`).

    `paused` leaves out the collections the probe itself asks for (``gc.collect()`` before
    reading the memory), which no player would wait for.
    """

    def __init__(self) -> None:
        self.collections: list[tuple[int, float, str]] = []  # (generation, seconds, moment)
        self.paused = False
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif not self.paused:
            took = time.perf_counter() - self._started
            self.collections.append((int(info.get("generation", -1)), took, gc_moment()))

    def install(self) -> None:
        import gc

        gc.callbacks.append(self)

    def report(self) -> dict[str, Any]:
        durations = [d * 1000 for _, d, _ in self.collections]
        by_generation = {g: sum(1 for gen, _, _ in self.collections if gen == g)
                         for g in (0, 1, 2)}
        longest_by_generation = {g: max((d * 1000 for gen, d, _ in self.collections if gen == g),
                                        default=0.0) for g in (0, 1, 2)}
        moments: dict[str, dict[str, float]] = {}
        for gen, d, moment in self.collections:
            row = moments.setdefault(f"{moment}, generation {gen}",
                                     {"count": 0, "longest_ms": 0.0, "total_ms": 0.0})
            row["count"] += 1
            row["longest_ms"] = max(row["longest_ms"], d * 1000)
            row["total_ms"] += d * 1000
        longest = max(self.collections, key=lambda c: c[1], default=(-1, 0.0, ""))
        return {"count": len(durations), "by_generation": by_generation,
                "longest_by_generation_ms": longest_by_generation, "by_moment": moments,
                "longest_ms": longest[1] * 1000, "longest_generation": longest[0],
                "longest_moment": longest[2],
                "over_16ms": sum(1 for d in durations if d > 16.0),
                "total_ms": sum(durations),
                "slowest_ms": sorted(durations, reverse=True)[:10]}


def python_objects() -> dict[str, int]:
    """Python's share: its allocated blocks, and the Kivy widgets alive."""
    from kivy.uix import widget

    return {"blocks": sys.getallocatedblocks(), "widgets": len(widget._widget_destructors)}


def quiet_collect(watch: GcWatch | None = None) -> None:
    """A full collection for the memory reading, not counted as a pause."""
    import gc

    if watch is not None:
        watch.paused = True
    try:
        gc.collect()
    finally:
        if watch is not None:
            watch.paused = False


def rss_minimal(app: Any) -> None:
    """The minimal app's resident memory after a second of drawing (the scale for `rss`)."""
    from kivy.clock import Clock

    def done(_dt: float) -> None:
        quiet_collect()
        finish({"memory": memory()})

    Clock.schedule_once(done, float(ARGS.get("settle", 1.0)))


def rss(app: Any) -> None:
    """Three whole games (``games``), one intent per frame, each screen shown as players
    would look at it; after each game two frames (the game end shown, then the app's own
    collection and trim), a full collection, then ``VmRSS``. Then each rare screen shown,
    left and released."""
    import random

    from kivy.clock import Clock

    from bench.scripted import ScriptedPlayer, seats

    players = int(ARGS.get("players", 5))
    games = int(ARGS.get("games", 3))
    limit = ARGS.get("max_intents")
    session = app.session
    watch = GcWatch()
    quiet_collect()
    before = memory()
    state: dict[str, Any] = {"intents": 0, "games": [], "game_intents": 0}
    rng = random.Random(int(ARGS.get("seed", 7)))

    def begin(_dt: float) -> None:
        watch.install()
        start_profile()
        new_game()
        state["event"] = Clock.schedule_interval(step, 0)

    def new_game() -> None:
        if session.history is not None and session.state.is_over:
            import contextlib

            with contextlib.suppress(Exception):  # a tie to settle by tokens: over anyway
                session.finish()
        session.new_game(seats(players), first_seat=0)
        app.ctx.nav.go("table")
        state["player"] = ScriptedPlayer(session, rng)
        state["game_intents"] = 0
        state["started"] = time.monotonic()

    def step(_dt: float) -> None:
        over = session.state.is_over or (limit is not None and state["game_intents"] >= limit)
        if over and state.setdefault("waited", 0) < 2:  # the game end's frame, then the
            state["waited"] += 1  # app's own collection and trim (`MemoryPolicy`)
            return
        if over:
            state["waited"] = 0
            quiet_collect(watch)
            state["games"].append({"memory": memory(), "intents": state["game_intents"],
                                   "seconds": time.monotonic() - state["started"],
                                   "over": session.state.is_over,
                                   "gc_so_far": watch.report()["count"]})
            if len(state["games"]) >= games:
                state["event"].cancel()
                Clock.schedule_once(done, 0.5)
            else:
                new_game()
            return
        phase = session.state.track.phase.name
        screen = SCREEN_FOR_PHASE.get(phase, "table")
        if app.ctx.nav.current != screen:
            app.ctx.nav.go(screen)  # show it this frame; act the next one
            return
        state["player"].intent()
        state["intents"] += 1
        state["game_intents"] += 1

    def done(_dt: float) -> None:
        import gc

        gc.callbacks.remove(watch)
        quiet_collect()
        after, frozen = memory(), gc.get_freeze_count()
        started = time.perf_counter()  # what a full collection would free (none is run)
        gc.unfreeze()
        found = gc.collect()
        full: dict[str, Any] = {"found": found,
                                "ms": (time.perf_counter() - started) * 1000}
        gc.freeze()
        app.memory.collect()  # the trim after it
        full["memory"] = memory()
        state["result"] = {"memory": after, "memory_before_games": before,
                           "games": state["games"], "intents": state["intents"],
                           "screen": app.manager.current, "gc": watch.report(),
                           "frozen": frozen, "idle_full_collection": full,
                           "screens_built": sorted(app.screens._built)}
        state["rare"] = [name for name in getattr(app.screens, "RARE", ())
                         if ARGS.get("rare_screens", True)]
        state["rare_memory"] = {}
        Clock.schedule_once(show_rare, 0)

    def show_rare(_dt: float) -> None:
        """Each rare screen shown for a moment, then left and released: the resident
        memory on show, and after the idle moment's full collection (run here at once)."""
        if not state["rare"]:
            state["result"]["rare_screens"] = state["rare_memory"]
            finish(state["result"])
        name = state["rare"][0]
        state["rare_memory"][name] = {"before": memory()["VmRSS"], "objects": {}}
        state["rare_memory"][name]["objects"]["before"] = python_objects()
        app.ctx.nav.go(name)
        Clock.schedule_once(leave_rare, 0.3)

    def leave_rare(_dt: float) -> None:
        name = state["rare"].pop(0)
        quiet_collect()
        app.memory.collect()  # the trim
        state["rare_memory"][name]["shown"] = memory()["VmRSS"]
        state["rare_memory"][name]["objects"]["shown"] = python_objects()
        app.ctx.nav.go("home")
        Clock.schedule_once(lambda _dt: released(name), 1.2)  # a scroll bar's fade ends

    def released(name: str) -> None:
        app.memory.collect()  # what the app does after a release (it was never frozen)
        state["rare_memory"][name]["released"] = memory()["VmRSS"]
        state["rare_memory"][name]["objects"]["released"] = python_objects()
        state["rare_memory"][name]["built"] = name in app.screens._built
        Clock.schedule_once(show_rare, 0)

    Clock.schedule_once(begin, 0.3)


# --- tap to screen ----------------------------------------------------------------------------


class Timed:
    """Wraps every method of a class (the companion's `BoardMap`) to add up the seconds spent
    in it, outermost calls only, from outside: the class is not edited. Touch handlers
    are left out: `seconds` is the drawing and its bookkeeping."""

    def __init__(self, cls: type) -> None:
        import functools
        import inspect

        self.seconds = 0.0
        self.calls = 0
        self._depth = 0
        for name, value in list(vars(cls).items()):
            if name.startswith("__") or name.startswith("on_touch") or name == "on_region_tap" \
                    or not inspect.isfunction(value):
                continue

            def wrapper(*args: Any, _fn: Any = value, **kwargs: Any) -> Any:
                if self._depth:
                    return _fn(*args, **kwargs)
                self._depth += 1
                started = time.perf_counter()
                try:
                    return _fn(*args, **kwargs)
                finally:
                    self.seconds += time.perf_counter() - started
                    self.calls += 1
                    self._depth -= 1

            setattr(cls, name, functools.wraps(value)(wrapper))

    def take(self) -> float:
        """Seconds added up since the last `take`."""
        seconds, self.seconds = self.seconds, 0.0
        return seconds


def modal_open() -> Any:
    """The dialog on screen (a ModalView on the window), or None."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in Window.children:
        if isinstance(child, ModalView):
            return child
    return None


class CompanionTarget:
    """How the driver taps the companion: its screens, presenters and session."""

    name = "app"

    def __init__(self, app: Any) -> None:
        self.app = app
        self.manager = app.manager
        self.session = app.session
        self.map_timer: Timed | None = MAP_TIMER

    def go(self, screen: str) -> None:
        self.app.ctx.nav.go(screen)

    def new_game(self) -> None:
        from bench.scripted import seats

        self.session.new_game(seats(5), first_seat=0)

    # -- market --
    def choose_row(self, rng: Any) -> tuple[int, str, int] | None:
        """(row, the combo's words, the seat buying) or None: a new game is needed."""
        from companion.rules.turns import Phase
        from companion.rules.views import pick_refusal

        state = self.session.state
        if state.track.phase is not Phase.PICK_COMBO:
            return None
        rows = [r for r in range(3) if pick_refusal(state, r) is None]
        row = rng.choice(rows)
        combo = state.market.rows[row].combo
        return row, f"{combo.power} {combo.race}", state.track.seat

    def row_widget(self, row: int) -> Any:
        return self.app.screens["market"].ids.rows.row(f"row{row}")

    def yes_widget(self) -> Any:
        return modal_open().ids.yes

    def purchase_shown(self, seat: int, wanted: str) -> bool:
        return wanted in self.app.screens["table"].ids.players.row(seat).ids.combo.text

    def undo(self) -> bool:
        """Undo the purchase (False: it cannot be undone, start a new game)."""
        if self.session.history.undo_blocker() is None:
            self.session.undo()
            return True
        return False

    # -- the die button --
    def die_ready(self) -> None:
        from bench.scripted import berserk_game

        if not self.session.die_chance().allowed:  # Berserk: one roll per conquest
            berserk_game(self.session, 5)

    def rolling(self) -> Any:
        die = self.app.presenters["die"]
        rolls = die.rolls
        return lambda: die.rolls == rolls + 1 and die.result_text == "Rolling..." \
            and self.session.state.last_roll == die.face

    def landed(self) -> Any:
        die = self.app.presenters["die"]
        return lambda: die.landed and self.app.screens["die"].ids.die.face == die.face \
            and die.result_text.startswith("Rolled")

    # -- the map --
    def map_ready(self) -> None:
        """A game in which the first player conquers (the map highlights its targets)."""
        from bench.scripted import seats

        self.session.new_game(seats(5), first_seat=0)
        self.session.pick(0)

    def map_region(self, rng: Any, previous: int | None) -> tuple[int, tuple[float, float]]:
        board = self.app.screens["map"].ids.board
        regions = [rid for rid in board.geometry.cells if rid != previous]
        rid = rng.choice(regions)
        return rid, board.to_window(*board.anchor_on_screen(rid))

    def panel_shown(self, rid: int) -> bool:
        return str(self.app.screens["map"].ids.region_title.text).startswith(f"Region {rid}:")

    def change_region(self, rng: Any) -> Any:
        """Conquer one region (one region changes); returns how to put it back."""
        from bench.scripted import cost_of, targets

        state = self.session.state
        options = [(rid, cost_of(state, rid)) for rid in targets(state)]
        rid, cost = rng.choice([(r, c) for r, c in options if c is not None])
        self.session.conquer(rid, cost)
        return self.session.undo

    # -- the end of a turn --
    def turn_ready(self, rng: Any) -> str:
        """The current player's turn played through the session's intents up to where the
        table offers "End the turn" (every defender's hand put back); a new game when that
        end would end the game. Returns the name of the player whose turn comes next."""
        from bench.scripted import ScriptedPlayer
        from companion.rules import troops_game
        from companion.rules.events import TurnEnded
        from companion.rules.game import apply
        from companion.rules.turns import Phase

        player = ScriptedPlayer(self.session, rng, undo_rate=0.0)
        while True:
            state = self.session.state
            ending = state.track.phase is Phase.FINISHED and not troops_game.waiting_hands(state)
            if state.is_over or (ending and apply(state, TurnEnded(state.track.seat)).is_over):
                self.new_game()
            elif ending:
                return str(state.players[state.track.next_seat].name)
            else:
                player.intent()

    def end_turn_widget(self) -> Any:
        return next(button for button in self.app.screens["table"].ids.actions.children
                    if button.action_key == "end_turn")

    def turn_shown(self, name: str) -> bool:
        """The turn's banner names `name`."""
        return name in self.app.screens["table"].ids.current.text


class BaselineTarget:
    """How the driver taps the baseline app (`bench/baseline_app.py`): the same way."""

    name = "baseline"

    def __init__(self, app: Any) -> None:
        self.app = app
        self.manager = app.manager
        self.map_timer: Timed | None = None
        self._rolls = 0

    def go(self, screen: str) -> None:
        self.manager.current = screen

    def new_game(self) -> None:
        pass

    def choose_row(self, rng: Any) -> tuple[int, str, int] | None:
        row = rng.choice(range(3))
        race, power = self.app.market[row]
        return row, f"{power} {race}", self.app.seat

    def row_widget(self, row: int) -> Any:
        return self.app.rows[row].ids.pick

    def yes_widget(self) -> Any:
        return modal_open().ids.yes

    def purchase_shown(self, seat: int, wanted: str) -> bool:
        return wanted in self.app.players[seat].ids.combo.text

    def undo(self) -> bool:
        self.app.undo()
        return True

    def die_ready(self) -> None:
        pass

    def rolling(self) -> Any:
        rolls = self.app.rolls
        return lambda: self.app.rolls == rolls + 1 and self.app.die_result.text == "Rolling..."

    def landed(self) -> Any:
        return lambda: self.app.die_result.text.startswith("Rolled")

    def map_ready(self) -> None:
        pass

    def map_region(self, rng: Any, previous: int | None) -> tuple[int, tuple[float, float]]:
        from bench.baseline_app import COLS, ROWS

        rid = rng.choice([n for n in range(COLS * ROWS) if n != previous])
        board = self.app.board
        return rid, board.to_window(*board.centre_of(rid))

    def panel_shown(self, rid: int) -> bool:
        return str(self.app.region_title.text).startswith(f"Region {rid}:")

    def change_region(self, rng: Any) -> Any:
        from bench.baseline_app import COLS, ROWS

        rid = rng.randrange(COLS * ROWS)
        self._timed(rid, rng.randrange(5))
        return lambda: self._timed(rid, None)

    def turn_ready(self, _rng: Any) -> str:
        from bench.baseline_app import NAMES

        return NAMES[(self.app.seat + 1) % len(NAMES)]

    def end_turn_widget(self) -> Any:
        return self.app.end_turn_button

    def turn_shown(self, name: str) -> bool:
        return name in self.app.heading.text

    def _timed(self, rid: int, seat: int | None) -> None:
        started = time.perf_counter()
        self.app.change_region(rid, seat)
        self.redraw_seconds = time.perf_counter() - started


MAP_TIMER: Timed | None = None


def taps(target: Any) -> None:
    """Drive `target` (a `CompanionTarget` or a `BaselineTarget`) from a "finger" thread."""
    import random
    import threading

    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    watch = FlipWatch(Window)
    rng = random.Random(int(ARGS.get("seed", 11)))
    row_taps = int(ARGS.get("row_taps", 100))
    presses = int(ARGS.get("presses", 50))
    map_taps = int(ARGS.get("map_taps", row_taps))
    changes = int(ARGS.get("region_changes", 20))
    turn_taps = int(ARGS.get("turn_taps", 30))
    manager = target.manager
    results: dict[str, Any] = {"row_to_dialog": [], "confirm_to_table": [],
                               "press_to_roll": [], "press_to_face": [], "map_to_panel": [],
                               "turn_to_next": [], "region_redraw": [], "region_frame": [],
                               "timeouts": 0, "cpu": {}, "target": target.name}

    def spent(key: str, entry: dict[str, Any], cpu0: float) -> None:
        """The main thread's CPU seconds from the finger (or the pin) to the frame."""
        if entry.get("cpu") is not None:
            results["cpu"].setdefault(key, []).append(entry["cpu"] - cpu0)

    def call(fn: Any) -> Any:
        """Run `fn` on the main thread (Kivy's) and return its result."""
        done = threading.Event()
        box: dict[str, Any] = {}

        def run(_dt: float) -> None:
            try:
                box["value"] = fn()
            except BaseException as error:
                box["error"] = error
            done.set()

        Clock.schedule_once(run, -1)
        if not done.wait(10):
            fail(f"the main thread did not run {fn!r}")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def settled(name: str) -> bool:
        return manager.current == name and not manager.transition.is_active \
            and manager.current_screen is not None and manager.current_screen.name == name

    def next_frame() -> None:
        entry = watch.expect(lambda: True)
        call(lambda: Window.canvas.ask_update())
        watch.wait(entry)

    def show(name: str) -> None:
        entry = watch.expect(lambda: settled(name))
        call(lambda: target.go(name))
        call(lambda: Window.canvas.ask_update())
        if watch.wait(entry) is None:
            fail(f"the {name} screen never showed")
        time.sleep(0.03)

    def tap(where: Any, condition: Any, key: str) -> float | None:
        """Finger down at `where()` (window x, y), up after a moment; seconds from up to
        the frame that satisfies `condition` (and the main thread's CPU seconds meanwhile,
        under `key`)."""
        x, y = call(where)
        touch = call(lambda: UnitTestTouch(x, y))
        call(touch.touch_down)
        time.sleep(rng.uniform(0.06, 0.12))  # a finger rests a little
        entry = watch.expect(condition)
        lifted, cpu0 = time.monotonic(), main_cpu()
        Clock.schedule_once(lambda _dt: touch.touch_up(), -1)  # the provider's queue
        at = watch.wait(entry)
        if at is None:
            results["timeouts"] += 1
            return None
        spent(key, entry, cpu0)
        return at - lifted

    def centre(widget_of: Any) -> Any:
        return lambda: widget_of().to_window(*widget_of().center)

    def new_game() -> None:
        call(target.new_game)
        show("table")

    def market() -> None:
        new_game()
        for _ in range(row_taps):
            chosen = call(lambda: target.choose_row(rng))
            if chosen is None:
                new_game()
                chosen = call(lambda: target.choose_row(rng))
            row, wanted, seat = chosen
            show("market")
            latency = tap(centre(lambda row=row: target.row_widget(row)),
                          lambda: modal_open() is not None, "row_to_dialog")
            if latency is None:
                continue
            results["row_to_dialog"].append(latency)

            def purchase_shown(seat: int = seat, wanted: str = wanted) -> bool:
                return settled("table") and modal_open() is None \
                    and target.purchase_shown(seat, wanted)

            latency = tap(centre(target.yes_widget), purchase_shown, "confirm_to_table")
            if latency is not None:
                results["confirm_to_table"].append(latency)
            time.sleep(0.03)
            if not call(target.undo):
                new_game()
            time.sleep(0.03)

    def board() -> None:
        call(target.map_ready)
        show("map")
        previous: int | None = None
        for _ in range(map_taps):
            rid, xy = call(lambda previous=previous: target.map_region(rng, previous))
            latency = tap(lambda xy=xy: xy, lambda rid=rid: target.panel_shown(rid),
                          "map_to_panel")
            if latency is not None:
                results["map_to_panel"].append(latency)
                previous = rid
            time.sleep(0.03)
        # One region changed (a conquest, then its undo), the map on screen: the seconds
        # the map widget spends redrawing up to the next frame, and the whole of it, from
        # the change to the end of the frame that shows it.
        back: Any = None
        for _ in range(changes):
            for change in ("do", "undo"):
                next_frame()
                if target.map_timer is not None:
                    target.map_timer.take()

                def changed(change: str = change) -> tuple[float, dict[str, Any]]:
                    nonlocal back
                    started = time.monotonic()
                    if change == "do":
                        back = target.change_region(rng)
                    else:
                        back()
                    return started, watch.expect(lambda: True)  # the next frame shows it

                started, entry = call(changed)
                at = watch.wait(entry)
                if at is not None:
                    results["region_frame"].append(at - started)
                if target.map_timer is not None:
                    results["region_redraw"].append(target.map_timer.take())
                else:
                    results["region_redraw"].append(target.redraw_seconds)
                time.sleep(0.02)

    def die() -> None:
        from gpiozero import Device  # type: ignore[import-untyped]

        pin = Device.pin_factory.pin(int(ARGS.get("pin", 17)))
        lockout = float(ARGS.get("lockout", 1.2))
        for _ in range(presses):
            call(target.die_ready)
            show("table")
            time.sleep(rng.uniform(0.0, 1 / 60))
            rolling = call(target.rolling)
            entry = watch.expect(lambda rolling=rolling: settled("die") and rolling())
            pressed, cpu0 = time.monotonic(), main_cpu()
            pin.drive_low()  # gpiozero's thread on a Pi: the callback crosses to Kivy
            at = watch.wait(entry)
            if at is None:
                results["timeouts"] += 1
            else:
                results["press_to_roll"].append(at - pressed)
                spent("press_to_roll", entry, cpu0)
            face_entry = watch.expect(call(target.landed))
            time.sleep(0.08)
            pin.drive_high()
            at = watch.wait(face_entry, timeout=5)
            if at is not None:
                results["press_to_face"].append(at - pressed)
            time.sleep(max(0.0, lockout - (time.monotonic() - pressed)) + 0.05)

    def turns() -> None:
        for _ in range(turn_taps):
            name = call(lambda: target.turn_ready(rng))
            show("table")
            latency = tap(centre(target.end_turn_widget),
                          lambda name=name: settled("table") and target.turn_shown(name),
                          "turn_to_next")
            if latency is not None:
                results["turn_to_next"].append(latency)
            next_frame()  # the app's snapshot and backup run in the frame after the one
            next_frame()  # that showed the turn: both done before the next sample starts

    def finger() -> None:
        try:
            call(start_profile)
            market()
            die()
            turns()
            if map_taps or changes:
                board()
            results["frames"] = watch.frames
            results["maxfps"] = call(lambda: __import__("kivy.config").config.Config.getint(
                "graphics", "maxfps"))
            results["multisamples"] = call(lambda: __import__("kivy.config").config.Config.get(
                "graphics", "multisamples"))
            results["window"] = call(lambda: list(Window.size))
            results["memory"] = memory()
            finish(results)
        except BaseException as error:  # report instead of hanging the parent
            import traceback

            fail("".join(traceback.format_exception(error))[-3000:])

    threading.Thread(target=finger, name="finger", daemon=True).start()


# --- the modes ----------------------------------------------------------------------------------


def main() -> None:
    db = str(ARGS.get("db", ""))
    if MODE.startswith("startup"):
        start_profile()  # with "profile": PATH, everything from here to the first frame
    if MODE == "startup-minimal":
        minimal_app(lambda app: startup(app, lambda _app: "minimal"))
    elif MODE == "startup-app":
        companion_app(lambda app: startup(app, home_shown, resume_offer), db)
    elif MODE == "idle-minimal":
        minimal_app(lambda app: idle(app, resume=False))
    elif MODE == "idle-app":
        companion_app(lambda app: idle(app, resume=True), db)
    elif MODE == "rss-minimal":
        minimal_app(rss_minimal)
    elif MODE == "rss":
        companion_app(rss, db)
    elif MODE == "taps":
        global MAP_TIMER
        from companion.ui.map_widget import BoardMap

        MAP_TIMER = Timed(BoardMap)  # before any map is built
        companion_app(lambda app: taps(CompanionTarget(app)), db)
    elif MODE == "taps-baseline":
        from bench import baseline_app

        baseline_app.run(db, lambda app: taps(BaselineTarget(app)))
    else:
        fail(f"unknown mode {MODE!r}")
    fail("the app ended before the measurement did")


if __name__ == "__main__":
    main()
