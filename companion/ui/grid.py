"""The region sensor grid inside the app: the link, the latest settled board, calibrations.

Concept
-------
`GridController` owns the `hardware.grid.link.GridLink` when a serial port is configured
(`open_grid`, called once by the composition root). The link's reader thread hands every
callback to Kivy's main thread (its `schedule` is `Clock.schedule_once`), so everything
here runs on the main thread: the store, the presenters and the widgets are safe.

It keeps what the screens need and decides nothing about the game:

- `link_state` and a `status` sentence for the home screen's status line
  ("Sensor grid: connected, 23 regions", "Sensor grid: offline, playing by hand",
  "Sensor grid: refused: protocol 2.0, update the companion");
- `snapshot`: the latest *settled* snapshot while the link is up (the link settles), else
  None, so a stale board is never compared with the game;
- the calibration of each board, kept in the store's settings under
  ``grid.calibration.<board>`` (`Calibration.to_dict`), read once and cached. A grid that
  says it is the simulator (`companion grid-sim`) and has no saved calibration is read with
  the simulator's own wiring (sensor N under region N).

The map presenter compares `snapshot` with the record (`differences`, pure: a region is
held on record when a race, active or in decline, or a Lost Tribe stands there) and shows
what differs; the calibration presenter feeds the snapshots to a `CalibrationWizard`.
Presenters that have a `grid` property get this controller (`attach`).

Invariants
----------
- Nothing here runs on the link's thread; nothing here writes the game.
- `snapshot` is None unless `link_state` is "up".
- No Clock interval: the link has its own thread; the UI only reacts to its callbacks.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import NumericProperty, ObjectProperty, OptionProperty, StringProperty

from companion.rules.game import GameState
from companion.rules.maps import Board
from companion.store.errors import StoreError
from companion.ui.presenters.base import Context
from hardware.grid.calibration import Calibration, CalibrationError, regions_differing
from hardware.grid.link import GridLink
from hardware.grid.protocol import Hello, Snapshot

SETTING_PREFIX = "grid.calibration."
"""Store setting key of a board's calibration: this prefix and the board's name."""

SIMULATOR_FIRMWARE = "grid-sim"
"""Firmware names starting with this are `companion grid-sim` (wired sensor N = region N)."""

NOT_USED = "Sensor grid: not used (tap the map)"
LOOKING = "Sensor grid: looking for it"
OFFLINE = "Sensor grid: offline, playing by hand"


def setting_key(board: str) -> str:
    return SETTING_PREFIX + board


def refusal_status(reason: str) -> str:
    """The status line for a refused grid, from the link's reason."""
    version = re.search(r"speaks protocol (\d+\.\d+)", reason)
    fix = "update the companion" if "update the companion" in reason else (
        "flash the grid's firmware" if "flash" in reason else "")
    if version is None or not fix:
        return f"Sensor grid: refused: {reason}"
    return f"Sensor grid: refused: protocol {version[1]}, {fix}"


class GridController(EventDispatcher):  # type: ignore[misc]  # Kivy ships no types
    """The grid as the app sees it; see the module docstring."""

    link_state = OptionProperty(
        "stopped", options=["stopped", "connecting", "up", "offline", "refused"])
    status = StringProperty(LOOKING)
    """The home screen's status line about the grid."""
    reason = StringProperty("")
    """The link's own words for its last change (for a details line or the log)."""
    snapshot = ObjectProperty(None, allownone=True)
    """The latest settled `Snapshot` while the link is up; None otherwise."""
    hello = ObjectProperty(None, allownone=True)
    """The grid's HELLO while it is (or was last) up."""
    board = ObjectProperty(None, allownone=True)
    """The `Board` in play (the status line counts its sensed regions)."""
    calibrations = NumericProperty(0)
    """Goes up by one whenever a calibration is saved: bind to it to recompute."""
    snapshot_at = NumericProperty(0.0)
    """`time.monotonic()` when the latest snapshot reached the main thread."""

    def __init__(self, ctx: Context, port: str, *, baudrate: int = 115200,
                 schedule: Callable[..., Any] | None = None,
                 link_factory: Callable[..., GridLink] = GridLink,
                 **link_options: Any) -> None:
        super().__init__()
        self.ctx = ctx
        self.port = port
        self._memory: dict[str, Calibration | None] = {}
        self.link = link_factory(
            port, baudrate=baudrate,
            schedule=schedule if schedule is not None else Clock.schedule_once,
            on_snapshot=self._settled, on_link_up=self._up, on_link_down=self._down,
            on_refused=self._refused, **link_options)
        self.fbind("board", self._restate)
        self.fbind("calibrations", self._restate)

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> None:
        self.link_state = "connecting"
        self.status = f"{LOOKING} on {self.port}"
        self.link.start()

    def close(self) -> None:
        """Stop the link's thread and close the port (the app is closing)."""
        self.link.stop()
        self.link_state = "stopped"
        self.snapshot = None

    def attach(self, presenters: Mapping[str, Any]) -> None:
        """Give this controller to every presenter with a `grid` property; keep the home
        screen's status line up to date."""
        for presenter in presenters.values():
            if hasattr(presenter, "grid"):
                presenter.grid = self
        home = presenters.get("home")
        if home is not None and hasattr(home, "grid_status"):
            home.grid_status = self.status
            self.fbind("status", lambda _c, text: setattr(home, "grid_status", text))

    def use_board(self, board: Board | None) -> None:
        """The board in play changed (None: no game)."""
        self.board = board

    def request_snapshot(self) -> bool:
        """Ask the grid for a snapshot now (it arrives through `snapshot` once settled)."""
        return self.link.request_snapshot()

    @property
    def up(self) -> bool:
        return bool(self.link_state == "up")

    @property
    def simulated(self) -> bool:
        hello = self.hello
        return hello is not None and str(hello.firmware).startswith(SIMULATOR_FIRMWARE)

    # -- calibrations --------------------------------------------------------------------
    def saved_calibration(self, board: str) -> Calibration | None:
        """The calibration saved for `board` (None: none, or one that cannot be read)."""
        key = setting_key(board)
        if key in self._memory:
            return self._memory[key]
        store = self.ctx.session.store
        found: Calibration | None = None
        if store is not None:
            try:
                data = store.setting(key)
            except StoreError:
                data = None  # unreadable: calibrated anew, as for a broken calibration
            if data is not None:
                try:
                    found = Calibration.from_dict(data)
                except CalibrationError:
                    found = None  # the wizard makes a new one; the broken one is replaced
        self._memory[key] = found
        return found

    def calibration_for(self, board: Board) -> Calibration | None:
        """The calibration to read `board` with now: the saved one; for the simulator
        without one, its own wiring (sensor N under region N); else None."""
        saved = self.saved_calibration(board.name)
        if saved is not None:
            return saved
        hello = self.hello
        if self.simulated and hello is not None:
            wiring = {c: c + 1 for c in range(hello.regions) if c + 1 in board.regions}
            return Calibration(board.name, hello.regions, wiring)
        return None

    def save_calibration(self, calibration: Calibration) -> None:
        """Keep `calibration` for its board (in the store when there is one).

        Raises `StoreError` when the store refuses; nothing changes then.
        """
        store = self.ctx.session.store
        key = setting_key(calibration.board)
        if store is not None:
            store.set_setting(key, calibration.to_dict())
        self._memory[key] = calibration
        self.calibrations += 1

    # -- the link's callbacks (on the main thread) ----------------------------------------
    def _up(self, hello: Hello | None) -> None:
        self.hello = hello
        self.reason = self.link.reason
        self.link_state = "up"
        self._restate()

    def _down(self, reason: str) -> None:
        self.reason = reason
        self.link_state = "offline"
        self.snapshot = None
        self._restate()

    def _refused(self, reason: str) -> None:
        self.reason = reason
        self.link_state = "refused"
        self.snapshot = None
        self._restate()

    def _settled(self, snapshot: Snapshot) -> None:
        if self.link_state != "up":
            return
        self.snapshot_at = time.monotonic()
        self.snapshot = snapshot

    def _restate(self, *_args: Any) -> None:
        state = self.link_state
        if state == "refused":
            self.status = refusal_status(self.reason)
        elif state == "offline":
            self.status = OFFLINE
        elif state == "up":
            self.status = "Sensor grid: connected, " + self._coverage()
        elif state == "connecting":
            self.status = f"{LOOKING} on {self.port}"

    def _coverage(self) -> str:
        board, hello = self.board, self.hello
        if board is None:
            count = hello.regions if hello is not None else 0
            return f"{count} sensor" + ("" if count == 1 else "s")
        calibration = self.calibration_for(board)
        if calibration is None:
            return "not calibrated for this board"
        count = len(calibration.sensed_regions)
        return f"{count} region" + ("" if count == 1 else "s")


def open_grid(app: Any, port: str, baudrate: int = 115200,
              **link_options: Any) -> GridController | None:
    """Start the grid on `port` for `app` (a `TableApp` after its build); None without a
    port. The caller keeps the controller and calls `close()` when the app ends."""
    if not port:
        return None
    controller = GridController(app.ctx, port, baudrate=baudrate, **link_options)
    controller.attach(app.presenters)
    state = app.session.history.state if app.session.history is not None else None
    controller.use_board(state.map if state is not None else None)
    controller.start()
    return controller


# -- the sensed board against the record (pure) ------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One region where the sensed board and the record disagree.

    ``kind`` is "added" (tokens sensed, none recorded) or "removed" (recorded as held,
    nothing sensed); ``count`` is the sensed token count when the grid counts.
    """

    region: int
    kind: str
    count: int | None = None

    @property
    def covered(self) -> bool:
        """Whether the grid senses tokens in the region."""
        return self.kind == "added"


def recorded_held(state: GameState) -> frozenset[int]:
    """The regions the record says hold tokens: a race's (active or in decline) or a Lost
    Tribe's."""
    return frozenset(rid for rid, here in state.regions.regions.items()
                     if here.occupant is not None or here.lost_tribe)


def differences(calibration: Calibration, snapshot: Snapshot,
                state: GameState) -> list[Difference]:
    """Where `snapshot` (read with `calibration`) differs from `state`, by region id.

    Raises `CalibrationError` when the snapshot does not fit the calibration.
    """
    added, removed = regions_differing(calibration, snapshot, recorded_held(state))
    readings = calibration.readings(snapshot)
    found = [Difference(rid, "added", readings[rid].count or None) for rid in added]
    found += [Difference(rid, "removed") for rid in removed]
    return sorted(found, key=lambda d: d.region)
