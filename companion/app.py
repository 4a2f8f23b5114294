"""Starting the companion: the one place where the saved games, the session, the devices and
the screens are put together.

`run_app` opens the saved-games file (locked for this app alone: a second app on it
raises `DatabaseInUse` before any window opens; a damaged file, or one whose game in
progress cannot be replayed, is set aside and the newest good backup restored, and the
home screen says so), makes the
session on it with the catalog as the group corrected it in the settings, offers the
unfinished game for resuming, connects the die button and the sensor grid when there are
any (and says on the home screen when there are not), and runs `TableApp`. Device
callbacks reach the app through Kivy's clock, on the main thread.

Under systemd (the kiosk's service) it tells systemd ``READY=1`` once the first frame is
drawn and pings the watchdog (``WATCHDOG=1``) from Kivy's main loop every third of
``$WATCHDOG_USEC`` (`companion.notify`): a main loop that hangs stops pinging, and systemd
kills and restarts the app. Without a watchdog no timer runs. Switching the table off from
the home screen closes the saved games (checkpointed, lock released) before the app stops.
Importing this module imports Kivy; the command line imports it only when the app starts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.clock import Clock
from kivy.config import Config as KivyConfig

from companion.notify import READY, WATCHDOG, sd_notify, watchdog_interval
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.store.corrections import catalog_for
from companion.store.errors import DatabaseInUse, StoreError
from companion.ui.app import TableApp
from companion.ui.describe import resume_text
from companion.ui.dimmer import IdleDimmer
from companion.ui.grid import open_grid
from hardware.backlight import Backlight

ROLL_LOCKOUT = 1.2
"""Seconds the die button is ignored after a press: the roll animation and a margin."""


@dataclass
class Devices:
    """The devices that could be opened, and what the home screen says about them."""

    die_status: str = "Die button: none (roll on screen)"
    grid_status: str = "Sensor grid: not used (tap the map)"
    opened: list[Any] = field(default_factory=list)
    dimmer: IdleDimmer | None = None  # held here: Kivy's clock keeps only weak references
    heartbeat: Any = None  # the watchdog's interval event, when systemd set one

    def close(self) -> None:
        for device in self.opened:
            device.close()


def open_die_button(app: TableApp, pin: int | None, devices: Devices,
                    dimmer: IdleDimmer | None = None, **button_options: Any) -> None:
    """The die button on `pin`: each press starts the roll the rules allow now, or only
    shows why there is none (`TableApp.die_button_pressed`, on the main thread); absent
    hardware is no error. `button_options` go to `DieButton` (tests: a `pin_factory` and
    a `clock`)."""
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
        devices.die_status = f"Die button: none on GPIO{pin} (roll on screen)"
        return
    devices.opened.append(button)
    devices.die_status = f"Die button: ready on GPIO{pin}"


def open_store(path: Path) -> tuple[Store, str | None]:
    """The saved games, and a message when a damaged file had to be set aside."""
    store = Store.open(path)
    return store, store.recovery.message if store.recovery is not None else None


def start_heartbeat(devices: Devices) -> float | None:
    """Tell systemd the app is up after the next frame, and ping its watchdog from the
    main loop when it set one; returns the seconds between pings (None: no pings)."""
    Clock.schedule_once(lambda _dt: sd_notify(READY), 0)
    interval = watchdog_interval()
    if interval is not None:
        sd_notify(WATCHDOG)  # the first one now: start-up may have taken a while
        devices.heartbeat = Clock.schedule_interval(lambda _dt: sd_notify(WATCHDOG), interval)
    return interval


def offer_resume(app: TableApp, store: Store) -> None:
    """Offer the unfinished game on the home screen; say so if it cannot be read.

    `Store.open` has already checked that the game in progress replays (and restored a
    backup when it did not), so a failure here is a read failing now (a card going bad):
    the home screen says it, and the app still starts.
    """
    try:
        game_id = store.unfinished_game()
        if game_id is not None:
            app.set_resume(resume_text(store.load_history(game_id).state))
    except StoreError as failed:
        app.ctx.notices.tell(f"The saved game cannot be offered for resuming: {failed}",
                             "Saved games")  # fmt: skip


def run_app(db_path: Path, *, fullscreen: bool = False, die_pin: int | None = None,
            dim_after: float = 0, dim_brightness: int = 20, grid_port: str = "",
            grid_baud: int = 115200, config_path: Path | None = None) -> None:
    """Open the app's window and run until it is closed.

    `dim_after` seconds without a touch dim the screen (0: never) to `dim_brightness`
    percent of the backlight where the panel has one. `grid_port` is the sensor grid's
    serial port ("" for none).
    """
    if fullscreen:
        # Must be set before the window exists, which App.run() creates.
        KivyConfig.set("graphics", "fullscreen", "auto")
    try:
        store, recovered = open_store(db_path)  # the store makes its folder, 0700
    except DatabaseInUse:
        raise  # another app holds the file: this one does not start (see `companion run`)
    except StoreError as refused:
        store, recovered = None, str(refused)
    except (OSError, ValueError) as error:  # e.g. a NUL in the path: play, unsaved
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        store, recovered = None, f"Games cannot be saved: {db_path} cannot be opened ({why})."
    catalog, not_corrected = catalog_for(store, load_catalog())  # the group's own numbers
    session = Session(catalog, store=store)
    app = TableApp(session)
    devices = Devices()

    def resume() -> None:
        try:
            resumed = session.resume()
        except StoreError as failed:
            app.ctx.notices.tell(f"The saved game cannot be resumed: {failed}", "Resume")
            return
        if resumed is not None:
            app.use_session(session)
            app.set_resume(None)

    def switched_off() -> None:
        """The system accepted a power-off or a restart: save and close, then stop."""
        if devices.heartbeat is not None:
            devices.heartbeat.cancel()
        devices.close()
        devices.opened.clear()
        if store is not None:
            store.close()
        app.stop()

    def started(_app: Any) -> None:
        app.ctx.on_resume = resume
        app.presenters["home"].on_switched_off = switched_off
        if config_path is not None:
            app.presenters["settings"].config_path = config_path
        if store is not None:
            offer_resume(app, store)
        if dim_after:
            devices.dimmer = IdleDimmer(dim_after, dim_brightness, Backlight.find())
        open_die_button(app, die_pin, devices, devices.dimmer)
        home = app.presenters["home"]
        home.die_status, home.grid_status = devices.die_status, devices.grid_status
        grid = open_grid(app, grid_port, grid_baud)
        if grid is not None:
            devices.opened.append(grid)
        if recovered:
            app.ctx.notices.tell(recovered, "Saved games")
        if not_corrected:
            app.ctx.notices.tell(not_corrected, "Corrected numbers")
        start_heartbeat(devices)
        # The garbage collector's timetable (freeze once the last screen is built, collect
        # at the end of each turn, never on a tap) is `companion.ui.memory`'s, run by the app.

    app.bind(on_start=started)
    try:
        app.run()
    finally:
        devices.close()
        if store is not None:
            store.close()
