"""Starting the companion: the one place where the saved games, the session, the devices and
the screens are put together.

`run_app` starts in two halves, so that the home screen shows as soon as a bare Kivy app
would show its first frame:

1. Before the first frame: the saved-games file is locked for this app alone (a second
   app on it raises `DatabaseInUse` before any window opens), the Resume offer is read
   from the file's summary with plain ``sqlite3`` (`companion.store.summary`: never an
   error, at worst no offer yet), and `TableApp` runs, building only the home screen.
   Nothing of the rules, the session, the store proper, sqlite-utils, gpiozero or pyserial
   is imported for it.
2. Right after the first frame is flipped, in the next tick of Kivy's clock, the rest in one
   go on the main thread (`Startup.finish`): the store is opened (a damaged file, or one
   whose game in progress cannot be replayed, is set aside and the newest good backup
   restored, and the home screen says so; migrations run), the session is made on it with
   the catalog as the group corrected it in the settings, the offer is made again from the
   store (from a replay for a game saved before the summary existed), the die button and the
   sensor grid are connected when there are any (the home screen says when there are not),
   and the notices are shown. A notice about the saved games (a damaged file set aside, a
   file that cannot be opened, corrections left out, a game that cannot be offered or
   resumed) is worded from the store's sentence (`error.said`, `RecoveryReport.said`,
   through `companion.ui.wording`) in the language the table speaks when it is shown; its
   English stays the store's `str(error)`. Touches that arrive meanwhile wait in Kivy's
   queue and are handled after it, on a session. `TableApp.ready` is then True. In the tick
   after that the sound cues are loaded (`open_sounds`: SDL's mixer opened, each cue's file
   loaded once; no sound device: one line in the log, and silence).

The devices are made here and nowhere else: the die button (`open_die_button`), the
sensor grid (`open_grid`: its serial link in `companion.grid`, its view for the screens in
`companion.ui.grid`) and the panel's backlight, handed to the dimmer. The screens get
their facts (callbacks, plain data) and never import `hardware`. Device callbacks reach
the app through Kivy's clock, on the main thread.

Under systemd (the kiosk's service) it tells systemd ``READY=1`` once start-up is over and
pings the watchdog (``WATCHDOG=1``) from Kivy's main loop every third of
``$WATCHDOG_USEC`` (`companion.notify`): a main loop that hangs stops pinging, and systemd
kills and restarts the app. Without a watchdog no timer runs. Switching the table off from
the home screen closes the saved games (checkpointed, lock released) before the app stops.
Importing this module imports Kivy; the command line imports it only when the app starts.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.clock import Clock
from kivy.config import Config as KivyConfig

from companion.i18n import _
from companion.notify import READY, WATCHDOG, sd_notify, watchdog_interval
from companion.store import summary
from companion.store.errors import DatabaseInUse, StoreError
from companion.store.lock import DatabaseLock
from companion.ui.app import TableApp
from companion.ui.describe import resume_text

if TYPE_CHECKING:
    from companion.config import SoundConfig
    from companion.rules.game import GameState
    from companion.store import Store
    from companion.store.store import RecoveryReport
    from companion.ui.dimmer import IdleDimmer
    from companion.ui.grid import GridController

ROLL_LOCKOUT = 1.2
"""Seconds the die button is ignored after a press: the roll animation and a margin."""


@dataclass
class Devices:
    """The devices that could be opened, and what the home screen says about them (how
    to word it: worded again in the language spoken when the language changes)."""

    die_words: Callable[[], str] = lambda: _("Die button: none (roll on screen)")
    grid_words: Callable[[], str] = lambda: _("Sensor grid: not used (tap the map)")
    opened: list[Any] = field(default_factory=list)
    dimmer: IdleDimmer | None = None  # held here: Kivy's clock keeps only weak references
    heartbeat: Any = None  # the watchdog's interval event, when systemd set one
    sounds: Any = None  # the sound cues (`companion.sounds.Sounds`), once opened

    @property
    def die_status(self) -> str:
        """The die button's line, in the language spoken now."""
        return self.die_words()

    def close(self) -> None:
        for device in self.opened:
            device.close()


def open_die_button(app: TableApp, pin: int | None, devices: Devices,
                    dimmer: IdleDimmer | None = None, **button_options: Any) -> None:
    """The die button on `pin`: each press starts the roll the rules allow now, or only
    shows why there is none (`TableApp.die_button_pressed`, on the main thread); absent
    hardware is no error. `button_options` go to `DieButton` (tests: a `pin_factory` and
    a `clock`). Without a pin nothing is imported (gpiozero is imported by the button)."""
    if pin is None:
        return
    from hardware.button import ButtonUnavailable, DieButton

    def pressed() -> None:
        button.lock_out(ROLL_LOCKOUT)
        if dimmer is not None:
            dimmer.wake()
        app.die_button_pressed()

    try:
        button = DieButton(pin, on_press=pressed, schedule=Clock.schedule_once,
                           **button_options)
    except ButtonUnavailable:
        devices.die_words = lambda: _("Die button: none on GPIO{pin} (roll on screen)").format(
            pin=pin)
        return
    devices.opened.append(button)
    devices.die_words = lambda: _("Die button: ready on GPIO{pin}").format(pin=pin)


def open_grid(app: TableApp, port: str, baudrate: int = 115200,
              **link_options: Any) -> GridController | None:
    """The sensor grid on `port` for `app` (after its build), started; None without a
    port. The device (`companion.grid.SensorGrid`, the serial link) reports its facts to
    the screens' view of it (`GridController`, given to the presenters that show the
    grid) on the main thread; the boards' calibrations are kept in the session's saved
    records. The caller keeps the view and calls its `close()` (which closes the device)
    when the app ends. `link_options` go to the link (tests: quicker timeouts)."""
    if not port:
        return None
    from companion.grid import Calibrations, SensorGrid
    from companion.ui.grid import GridController

    ctx = app.ctx
    calibrations = Calibrations(lambda: ctx.session.records)
    view = GridController(port, calibrations)
    device = SensorGrid(port, baudrate=baudrate, schedule=Clock.schedule_once,
                        on_up=view.link_up, on_down=view.link_down,
                        on_refused=view.link_refused, on_snapshot=view.settled,
                        **link_options)  # fmt: skip
    view.use_device(device.request_snapshot, device.close)
    view.attach(app.presenters)
    state = app.session.history.state if app.session.history is not None else None
    view.use_board(state.map if state is not None else None)
    view.connecting()
    device.start()
    return view


def open_sounds(app: TableApp, settings: SoundConfig, devices: Devices,
                **sound_options: Any) -> None:
    """The sound cues by `settings`, loaded once and handed to the presenters and the app
    (`ctx.cues`). Without a sound device the log says so once and the table stays silent;
    never an error. `sound_options` go to `Sounds.open` (tests: a fake mixer, a clock)."""
    from companion.sounds import Sounds

    sounds = Sounds.open(settings, **sound_options)
    devices.sounds = sounds
    app.ctx.cues = sounds


def open_store(path: Path, lock: DatabaseLock | None = None,
               ) -> tuple[Store, Callable[[], str] | None]:
    """The saved games (on `lock`, when the caller took it already), and how to word the
    message when a damaged file had to be set aside (in the language spoken when shown)."""
    from companion.store import Store

    store = Store.open(path, lock=lock)
    recovery = store.recovery
    return store, (partial(say_store, recovery) if recovery is not None else None)


def say_store(what: StoreError | RecoveryReport) -> str:
    """A message of the saved games (an error, the recovery report) in the language spoken
    now; its English is ``str(error)`` or the report's ``message``. Imports the rules'
    wording: called after the first frame, when a message is shown."""
    from companion.ui.wording import say

    return say(what.said)


def start_heartbeat(devices: Devices) -> float | None:
    """Tell systemd the app is up after the next frame, and ping its watchdog from the
    main loop when it set one; returns the seconds between pings (None: no pings)."""
    Clock.schedule_once(lambda _dt: sd_notify(READY), 0)
    interval = watchdog_interval()
    if interval is not None:
        sd_notify(WATCHDOG)  # the first one now: start-up may have taken a while
        devices.heartbeat = Clock.schedule_interval(lambda _dt: sd_notify(WATCHDOG), interval)
    return interval


def summary_of(game_id: int, state: GameState) -> summary.ResumeSummary:
    """The Resume offer's summary of a replayed game (for one saved before m003)."""
    track = state.track
    return summary.ResumeSummary(game_id, tuple(p.name for p in state.players), track.turn,
                                 track.turns, track.seat)  # fmt: skip


def after_the_frame(work: Callable[[], None]) -> None:
    """Run `work` in the frame after this one: after the one that shows what led to it
    (the session's backup after a turn, so no tap waits for its copy and fsync)."""
    Clock.schedule_once(lambda _dt: work(), 0)


def offer_resume(app: TableApp, store: Store) -> None:
    """Offer the unfinished game on the home screen (or nothing, when there is none); say
    so if it cannot be read.

    The offer is read from the game's row (`Store.resume_summary`); a game saved before
    the row held it is replayed for it. `Store.open` has already checked that the game
    in progress replays (and restored a backup when it did not), so a failure here is a
    read failing now (a card going bad): the home screen says it, and the app still starts.
    """
    try:
        found = store.resume_summary()
        game_id = store.unfinished_game() if found is None else None
        if game_id is not None:
            found = summary_of(game_id, store.load_history(game_id).state)
        app.set_resume(None if found is None else partial(resume_text, found))
    except StoreError as failed:
        app.ctx.notices.tell(_("The saved game cannot be offered for resuming: {reason}").format(
            reason=say_store(failed)), _("Saved games"))


def take_lock(db_path: Path) -> DatabaseLock | None:
    """Lock the saved games for this app before its window opens: `DatabaseInUse` is
    raised. Any other failure gives None: the store is tried again after the first
    frame, and the home screen then says why the games cannot be saved."""
    try:
        return DatabaseLock.acquire(db_path)
    except DatabaseInUse:
        raise
    except (StoreError, OSError, ValueError):  # e.g. a folder that cannot be made
        return None


class Startup:
    """The app's start-up after its first frame (`finish`), and what it opened (closed by
    `close`, or by switching the table off)."""

    def __init__(self, app: TableApp, db_path: Path, lock: DatabaseLock | None, *,
                 die_pin: int | None, dim_after: float, dim_brightness: int, grid_port: str,
                 grid_baud: int, config_path: Path | None,
                 sound: SoundConfig | None = None) -> None:
        self.app = app
        self.db_path = db_path
        self.lock = lock
        self.die_pin, self.grid_port, self.grid_baud = die_pin, grid_port, grid_baud
        self.dim_after, self.dim_brightness = dim_after, dim_brightness
        self.config_path = config_path
        self.sound = sound
        self.store: Store | None = None
        self.devices = Devices()

    # -- before the first frame ----------------------------------------------------------
    def started(self, _app: Any = None) -> None:
        """`on_start`: hooks the home screen needs, and `finish` in the tick after the
        first frame was flipped (`TableApp.after_first_frame`)."""
        app = self.app
        app.presenters["home"].on_switched_off = self.switched_off
        config_path = self.config_path
        if config_path is not None:
            app.presenters.when_made("settings",
                                     lambda settings: setattr(settings, "config_path",
                                                              config_path))  # fmt: skip
        app.after_first_frame.append(self.finish)

    # -- after the first frame -----------------------------------------------------------
    def finish(self) -> None:
        """The rest of start-up, in one go on the main thread (see the module docstring)."""
        from companion.rules.catalog import load_catalog
        from companion.session import Session
        from companion.store.corrections import corrected_catalog

        app, devices = self.app, self.devices
        store, recovered = self._open_store()
        self.store = store
        catalog, not_corrected = corrected_catalog(store, load_catalog())  # the group's
        app.use_session(Session(catalog, store=store, later=after_the_frame))
        app.ctx.on_resume = self.resume
        if store is not None:
            offer_resume(app, store)
        if self.dim_after:
            from companion.ui.dimmer import IdleDimmer
            from hardware.backlight import Backlight

            devices.dimmer = IdleDimmer(self.dim_after, self.dim_brightness, Backlight.find())
        open_die_button(app, self.die_pin, devices, devices.dimmer)
        home = app.presenters["home"]
        home.say_devices(devices.die_words, devices.grid_words)
        if self.grid_port:
            grid = open_grid(app, self.grid_port, self.grid_baud)
            if grid is not None:  # it words its own line on the home screen
                devices.opened.append(grid)
        if recovered is not None:  # worded now, in the language the table speaks
            app.ctx.notices.tell(recovered(), _("Saved games"))
        if not_corrected is not None:
            from companion.ui.wording import say

            app.ctx.notices.tell(say(not_corrected), _("Corrected numbers"))
        start_heartbeat(devices)
        app.ready = True
        if self.sound is not None:  # the sound device opens in a tick of its own
            sound = self.sound
            Clock.schedule_once(lambda _dt: open_sounds(app, sound, devices), 0)
        # The garbage collector's timetable (freeze once the last screen is built, collect
        # at the end of each turn, never on a tap) is `companion.ui.memory`'s, run by the app.

    def _open_store(self) -> tuple[Store | None, Callable[[], str] | None]:
        """The saved games, and how to word what the home screen says about them (a
        damaged file set aside, or why there are none), if anything."""
        lock, self.lock = self.lock, None  # the store holds it from now on
        try:
            return open_store(self.db_path, lock)  # the store makes its folder, 0700
        except StoreError as refused:  # another app too, should it have got in first
            return None, partial(say_store, refused)
        except (OSError, ValueError) as error:  # e.g. a NUL in the path: play, unsaved
            why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            path = self.db_path
            return None, lambda: _("Games cannot be saved: {path} cannot be opened ({why}).",
                                   ).format(path=path, why=why)

    def resume(self) -> None:
        """The home screen's Resume: the saved game, on the table."""
        app = self.app
        session = app.session
        try:
            resumed = session.resume()
        except StoreError as failed:
            app.ctx.notices.tell(_("The saved game cannot be resumed: {reason}").format(
                reason=say_store(failed)), _("Resume"))
            return
        if resumed is not None:
            app.use_session(session)
            app.set_resume(None)

    def switched_off(self) -> None:
        """The system accepted a power-off or a restart: save and close, then stop."""
        if self.devices.heartbeat is not None:
            self.devices.heartbeat.cancel()
        self.close()
        self.app.stop()

    def close(self) -> None:
        """Close the devices and the saved games (or let go of the lock, when start-up
        ended before the store was opened)."""
        self.devices.close()
        self.devices.opened.clear()
        if self.store is not None:
            self.store.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def run_app(db_path: Path, *, fullscreen: bool = False, die_pin: int | None = None,
            dim_after: float = 0, dim_brightness: int = 20, grid_port: str = "",
            grid_baud: int = 115200, config_path: Path | None = None,
            sound: SoundConfig | None = None, seating: str = "one side") -> None:
    """Open the app's window and run until it is closed.

    `dim_after` seconds without a touch dim the screen (0: never) to `dim_brightness`
    percent of the backlight where the panel has one. `grid_port` is the sensor grid's
    serial port ("" for none). `sound`: the cues' settings (None: no sound at all).
    `seating`: ``display.seating`` (``"around"``: the table turns to face the player).
    """
    if fullscreen:
        # Must be set before the window exists, which App.run() creates.
        KivyConfig.set("graphics", "fullscreen", "auto")
    gc.disable()  # no pass over the heap while start-up builds it: `MemoryPolicy.begin`
    lock = take_lock(db_path)  # DatabaseInUse: this app does not start
    first = summary.read(db_path) if lock is not None else None
    app = TableApp()
    app.ctx.seats.use(seating)
    app.set_resume(None if first is None else partial(resume_text, first))
    startup = Startup(app, db_path, lock, die_pin=die_pin, dim_after=dim_after,
                      dim_brightness=dim_brightness, grid_port=grid_port, grid_baud=grid_baud,
                      config_path=config_path, sound=sound)  # fmt: skip
    app.bind(on_start=startup.started)
    stop_on_sigterm(app)
    try:
        app.run()
    finally:
        startup.close()


def stop_on_sigterm(app: TableApp) -> None:
    """The system's SIGTERM (``systemctl stop``, a desktop's log-out, ``kill``) ends the app
    in the next frame, without a question: it is not the table's. Installed before the
    window: SDL then leaves it in place instead of turning the signal into a request to
    close, which a desktop app answers with the leave question."""
    import signal

    def stop(_signum: int, _frame: object) -> None:
        Clock.schedule_once(lambda _dt: app.stop_at_the_systems_request(), 0)

    signal.signal(signal.SIGTERM, stop)
