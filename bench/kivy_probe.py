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
- ``rss``: a whole 5-player game played through the session, the app showing each screen
  the players would look at; then the resident memory;
- ``taps``: simulated touches on the market's combo rows and on the confirmation, and
  presses of the mock die button, each timed from the finger (or the pin) to the end of
  the flip of the first frame that shows the result.
"""

from __future__ import annotations

import json
import os
import sys
import time

STARTED = time.monotonic()

from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from typing import Any  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
ARGS: dict[str, Any] = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}


PROFILER: Any = None


def start_profile() -> None:
    """With ``"profile": PATH`` in the arguments, profile the main thread into PATH."""
    global PROFILER
    if ARGS.get("profile") and PROFILER is None:
        import cProfile

        PROFILER = cProfile.Profile()
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


def cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


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

        def flip() -> None:
            original()
            now = time.monotonic()
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
    """`companion run --db DB`, as the kiosk runs it, with `on_start(app)` called at start."""
    import companion.app as start

    base: Any = start.TableApp  # type: ignore[attr-defined]

    class Probe(base):  # type: ignore[misc]
        def on_start(self) -> None:
            super().on_start()
            if ARGS.get("gc_freeze"):  # what-if: the start-up heap left out of collections
                import gc

                gc.collect()
                gc.freeze()
            on_start(self)

    start.TableApp = Probe  # type: ignore[attr-defined]
    from companion.cli import main

    main(["run", "--db", db])


# --- start-up -----------------------------------------------------------------------------


def startup(app: Any, screen: Any) -> None:
    """The end of the first flip that shows the home screen (`screen(app)` says which)."""
    from kivy.core.window import Window

    watch = FlipWatch(Window)
    first: dict[str, float] = {}

    def flipped(at: float) -> None:
        first["at"] = at

    watch.on_first.append(flipped)

    def shown() -> bool:
        return screen(app) in ("home", "minimal")

    entry = watch.expect(shown)

    def wait_for_it() -> None:
        at = watch.wait(entry, timeout=60)
        if PROFILER is not None:
            PROFILER.disable()
        finish({"first_frame": at, "any_first_frame": first.get("at"), "screen": screen(app),
                "frames": entry.get("frames"), "memory": memory()})

    import threading

    threading.Thread(target=wait_for_it, daemon=True).start()


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
        Clock.schedule_once(end, seconds)

    def end(_dt: float) -> None:
        cpu = cpu_seconds() - state["cpu"]
        wall = time.monotonic() - state["wall"]
        screen = app.manager.current if resume else "minimal"
        events = [getattr(e.get_callback(), "__qualname__", "?") for e in Clock.get_events()
                  if getattr(e, "loop", False)]
        finish({"cpu_seconds": cpu, "wall": wall, "frames_drawn": watch.frames - state["frames"],
                "screen": screen, "repeating_events": events, "memory": memory()})

    Clock.schedule_once(begin, 0.5)


# --- memory after a whole game --------------------------------------------------------------


SCREEN_FOR_PHASE = {"PICK_COMBO": "market", "CONQUER": "map", "REDEPLOY": "map",
                    "SCORE": "scoring", "FINISHED": "table"}


def rss(app: Any) -> None:
    import gc
    import random

    from kivy.clock import Clock

    from bench.scripted import ScriptedPlayer, seats

    players = int(ARGS.get("players", 5))
    session = app.session
    before = memory()
    state: dict[str, Any] = {"intents": 0}

    def begin(_dt: float) -> None:
        session.new_game(seats(players), first_seat=0)
        app.ctx.nav.go("table")
        state["player"] = ScriptedPlayer(session, random.Random(int(ARGS.get("seed", 7))))
        state["event"] = Clock.schedule_interval(step, 0)

    limit = ARGS.get("max_intents")

    def step(_dt: float) -> None:
        if session.state.is_over or (limit is not None and state["intents"] >= limit):
            state["event"].cancel()
            Clock.schedule_once(done, 0.5)
            return
        phase = session.state.track.phase.name
        screen = SCREEN_FOR_PHASE.get(phase, "table")
        if app.ctx.nav.current != screen:
            app.ctx.nav.go(screen)  # show it this frame; act the next one
            return
        state["player"].intent()
        state["intents"] += 1

    def done(_dt: float) -> None:
        gc.collect()
        finish({"memory": memory(), "memory_before_game": before, "intents": state["intents"],
                "screen": app.manager.current, "game_over": session.state.is_over,
                "steps": len(session.history.log)})

    Clock.schedule_once(begin, 0.3)


# --- tap to screen ----------------------------------------------------------------------------


def taps(app: Any) -> None:
    import random
    import threading

    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from bench.scripted import berserk_game, seats
    from companion.rules.turns import Phase
    from companion.rules.views import pick_refusal

    watch = FlipWatch(Window)
    rng = random.Random(int(ARGS.get("seed", 11)))
    row_taps = int(ARGS.get("row_taps", 100))
    presses = int(ARGS.get("presses", 50))
    session = app.session
    manager = app.manager
    results: dict[str, Any] = {"row_to_dialog": [], "confirm_to_table": [],
                               "press_to_roll": [], "press_to_face": [], "timeouts": 0}

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

    def show(name: str) -> None:
        entry = watch.expect(lambda: settled(name))
        call(lambda: app.ctx.nav.go(name))
        call(lambda: Window.canvas.ask_update())
        if watch.wait(entry) is None:
            fail(f"the {name} screen never showed")
        time.sleep(0.03)

    def tap(widget_of: Any, condition: Any) -> float | None:
        """Finger down on the widget, up after a moment; seconds from up to the frame."""
        x, y = call(lambda: widget_of().to_window(*widget_of().center))
        touch = call(lambda: UnitTestTouch(x, y))
        call(touch.touch_down)
        time.sleep(rng.uniform(0.06, 0.12))  # a finger rests a little
        entry = watch.expect(condition)
        lifted = time.monotonic()
        Clock.schedule_once(lambda _dt: touch.touch_up(), -1)  # the provider's queue
        at = watch.wait(entry)
        if at is None:
            results["timeouts"] += 1
            return None
        return at - lifted

    def new_game() -> None:
        call(lambda: session.new_game(seats(5), first_seat=0))
        show("table")

    def finger() -> None:
        try:
            call(start_profile)
            new_game()
            # -- combo rows: tap a row, then confirm; undo between samples -----------------
            for _ in range(row_taps):
                state = session.state
                if state.track.phase is not Phase.PICK_COMBO:
                    new_game()
                    state = session.state
                rows = [r for r in range(3) if pick_refusal(state, r) is None]
                row = rng.choice(rows)
                combo = state.market.rows[row].combo
                seat = state.track.seat
                show("market")
                screen = app.screens["market"]
                latency = tap(lambda row=row, screen=screen: screen.ids.rows.row(f"row{row}"),
                              lambda: bool(app.dialogs) and app.dialogs[-1].parent is Window)
                if latency is None:
                    continue
                results["row_to_dialog"].append(latency)
                dialog = app.dialogs[-1]
                table = app.screens["table"]
                wanted = f"{combo.power} {combo.race}"

                def purchase_shown(table: Any = table, seat: int = seat,
                                   wanted: str = wanted) -> bool:
                    return settled("table") and not app.dialogs \
                        and wanted in table.ids.players.row(seat).ids.combo.text

                latency = tap(lambda dialog=dialog: dialog.ids.yes, purchase_shown)
                if latency is not None:
                    results["confirm_to_table"].append(latency)
                time.sleep(0.03)
                if session.history.undo_blocker() is None:
                    call(session.undo)
                else:
                    new_game()
                time.sleep(0.03)
            # -- the die button ------------------------------------------------------------
            from gpiozero import Device  # type: ignore[import-untyped]

            pin = Device.pin_factory.pin(int(ARGS.get("pin", 17)))
            die = app.presenters["die"]
            for _ in range(presses):
                if not session.die_chance().allowed:  # Berserk: one roll per conquest
                    call(lambda: berserk_game(session, 5))
                show("table")
                time.sleep(rng.uniform(0.0, 1 / 60))
                rolls = die.rolls

                def rolling(rolls: float = rolls) -> bool:
                    return settled("die") and die.rolls == rolls + 1 \
                        and die.result_text == "Rolling..." \
                        and session.state.last_roll == die.face

                entry = watch.expect(rolling)
                pressed = time.monotonic()
                pin.drive_low()  # gpiozero's thread on a Pi: the callback crosses to Kivy
                at = watch.wait(entry)
                if at is None:
                    results["timeouts"] += 1
                else:
                    results["press_to_roll"].append(at - pressed)
                face_entry = watch.expect(
                    lambda: die.landed and app.screens["die"].ids.die.face == die.face
                    and die.result_text.startswith("Rolled"))
                time.sleep(0.08)
                pin.drive_high()
                at = watch.wait(face_entry, timeout=5)
                if at is not None:
                    results["press_to_face"].append(at - pressed)
                lockout = float(ARGS.get("lockout", 1.2))
                time.sleep(max(0.0, lockout - (time.monotonic() - pressed)) + 0.05)
            results["frames"] = watch.frames
            results["maxfps"] = call(lambda: __import__("kivy.config").config.Config.getint(
                "graphics", "maxfps"))
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
        companion_app(lambda app: startup(app, home_shown), db)
    elif MODE == "idle-minimal":
        minimal_app(lambda app: idle(app, resume=False))
    elif MODE == "idle-app":
        companion_app(lambda app: idle(app, resume=True), db)
    elif MODE == "rss":
        companion_app(rss, db)
    elif MODE == "taps":
        companion_app(taps, db)
    else:
        fail(f"unknown mode {MODE!r}")
    fail("the app ended before the measurement did")


if __name__ == "__main__":
    main()
