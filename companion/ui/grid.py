"""The region sensor grid as the screens see it: its state, the latest settled board.

Concept
-------
`GridController` is the grid's view for the screens. The composition root
(`companion.app.open_grid`) makes it when a serial port is configured, together with the
device (`companion.grid.SensorGrid`, which owns the serial link) and the boards'
calibrations (`companion.grid.Calibrations`, kept in the saved records), and hands it the
link's facts as they come (`connecting`, `link_up`, `link_down`, `link_refused`,
`settled`: on Kivy's main thread). It keeps what the screens need and decides nothing
about the game:

- `link_state` and a `status` sentence for the home screen's status line
  ("Sensor grid: connected, 23 regions", "Sensor grid: offline, playing by hand",
  "Sensor grid: refused: protocol 2.0, update the companion");
- `snapshot`: the latest *settled* snapshot while the link is up (the link settles), else
  None, so a stale board is never compared with the game;
- the calibration of each board (`saved_calibration`, `calibration_for`,
  `save_calibration`), the calibration wizard (`new_wizard`), the comparison of the
  sensed board with the record (`compare`) and the error those raise
  (`calibration_error`), all from the `Calibrations` the root made.

The map presenter compares `snapshot` with the record and shows what differs; the
calibration presenter feeds the snapshots to a wizard. Presenters that have a `grid`
property get this controller (`attach`).

Invariants
----------
- Nothing here runs on the link's thread; nothing here writes the game.
- `snapshot` is None unless `link_state` is "up".
- No Clock interval: the link has its own thread; the UI only reacts to its facts.
- This module imports neither `hardware` nor the records: the root hands it all.
- `status` is in the language spoken (`companion.i18n`) and worded again when it changes;
  the link's own `reason` stays as the link wrote it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kivy.event import EventDispatcher
from kivy.properties import NumericProperty, ObjectProperty, OptionProperty, StringProperty

from companion import i18n
from companion.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from companion.grid import Calibrations, Difference
    from companion.rules import Board, GameState

LOOKING = N_("Sensor grid: looking for it")
OFFLINE = N_("Sensor grid: offline, playing by hand")
"""The status lines (marked here, translated where shown: ``_(OFFLINE)``)."""


def refusal_detail(reason: str) -> str:
    """Why a grid was refused, in short, in the language spoken: the protocol it speaks
    and what to do ("protocol 2.0, update the companion"), else the link's own reason."""
    version = re.search(r"speaks protocol (\d+\.\d+)", reason)
    if version is not None and "update the companion" in reason:
        return _("protocol {version}, update the companion").format(version=version[1])
    if version is not None and "flash" in reason:
        return _("protocol {version}, flash the grid's firmware").format(version=version[1])
    return reason


def resized(now: int, before: int) -> str:
    """What a screen says when the grid's snapshot no longer fits its calibration
    (`GridController.calibration_error`): it has `now` sensors, the calibration `before`."""
    return _("The sensor grid now has {now} sensors, not {before}: start the calibration "
             "again.").format(now=now, before=before)


def refusal_status(reason: str) -> str:
    """The status line for a refused grid, from the link's reason."""
    return _("Sensor grid: refused: {detail}").format(detail=refusal_detail(reason))


class GridController(EventDispatcher):  # type: ignore[misc]  # Kivy ships no types
    """The grid as the app sees it; see the module docstring."""

    link_state = OptionProperty(
        "stopped", options=["stopped", "connecting", "up", "offline", "refused"])
    status = StringProperty("")
    """The home screen's status line about the grid."""
    reason = StringProperty("")
    """The link's own words for its last change (for a details line or the log)."""
    snapshot = ObjectProperty(None, allownone=True)
    """The latest settled `Snapshot` while the link is up; None otherwise."""
    hello = ObjectProperty(None, allownone=True)
    """The grid's HELLO while it is (or was last) up; None until it has been up once (a
    table with no grid plugged in never has one)."""
    board = ObjectProperty(None, allownone=True)
    """The `Board` in play (the status line counts its sensed regions)."""
    calibrations = NumericProperty(0)
    """Goes up by one whenever a calibration is saved: bind to it to recompute."""
    snapshot_at = NumericProperty(0.0)
    """`time.monotonic()` when the latest snapshot reached the main thread."""

    def __init__(self, port: str, calibrations: Calibrations) -> None:
        """`port`: the grid's serial port (for the status line); `calibrations`: the
        boards' calibrations (`companion.grid.Calibrations`)."""
        super().__init__()
        self.port = port
        self.book = calibrations
        self._request: Callable[[], bool] | None = None
        self._stop: Callable[[], None] | None = None
        self.fbind("board", self._restate)
        self.fbind("calibrations", self._restate)
        self.status = _(LOOKING)
        i18n.subscribe(self._reword)

    def _reword(self, _language: str) -> None:
        """The language changed: the status line in the new one."""
        if self.link_state == "stopped":
            self.status = _(LOOKING)
        self._restate()

    def use_device(self, request_snapshot: Callable[[], bool],
                   stop: Callable[[], None]) -> None:
        """The device's commands: ask for a snapshot now, stop (see `close`)."""
        self._request, self._stop = request_snapshot, stop

    # -- life cycle --------------------------------------------------------------------
    def connecting(self) -> None:
        """The device started looking for the grid."""
        self.link_state = "connecting"
        self.status = _("Sensor grid: looking for it on {port}").format(port=self.port)

    def close(self) -> None:
        """Stop the device (the app is closing); the status line is no longer worded."""
        i18n.unsubscribe(self._reword)
        if self._stop is not None:
            self._stop()
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
            home.grid_words_itself()
            home.grid_status = self.status
            self.fbind("status", lambda _c, text: setattr(home, "grid_status", text))

    def use_board(self, board: Board | None) -> None:
        """The board in play changed (None: no game)."""
        self.board = board

    def request_snapshot(self) -> bool:
        """Ask the grid for a snapshot now (it arrives through `snapshot` once settled)."""
        return self._request() if self._request is not None else False

    @property
    def up(self) -> bool:
        return bool(self.link_state == "up")

    @property
    def simulated(self) -> bool:
        """Whether the grid is `companion grid-sim` (read with its own wiring)."""
        return self.book.is_simulator(self.hello)

    # -- calibrations (the root's `Calibrations`) ----------------------------------------
    def saved_calibration(self, board: str) -> Any:
        """The `Calibration` saved for `board` (None: none, or one that cannot be read)."""
        return self.book.saved(board)

    def calibration_for(self, board: Board) -> Any:
        """The `Calibration` to read `board` with now: the saved one; for the simulator
        without one, its own wiring (sensor N under region N); else None."""
        return self.book.for_board(board, self.hello)

    def save_calibration(self, calibration: Any) -> None:
        """Keep `calibration` for its board (in the saved records when there are some).

        Raises `RecordsError` when the records refuse; nothing changes then.
        """
        self.book.save(calibration)
        self.calibrations += 1

    def new_wizard(self, board: str, regions: Sequence[int], baseline: Any) -> Any:
        """A `CalibrationWizard` for `board`'s `regions` from the clear board's `baseline`
        (a snapshot)."""
        return self.book.wizard(board, regions, baseline)

    def compare(self, calibration: Any, state: GameState) -> tuple[list[Difference],
                                                                   frozenset[int]]:
        """Where the latest snapshot, read with `calibration`, differs from `state`, and
        the regions it senses tokens in (`calibration_error` when it does not fit)."""
        return self.book.compare(calibration, self.snapshot, state)

    @property
    def calibration_error(self) -> type[Exception]:
        """What the wizard and `compare` raise when a snapshot does not fit (the grid
        changed size): start the calibration again."""
        return self.book.refused

    # -- the device's facts (on the main thread) ------------------------------------------
    def link_up(self, hello: Any, reason: str = "") -> None:
        """The link is up: the grid said `hello` (a `Hello`); `reason`: the link's words."""
        self.hello = hello
        self.reason = reason
        self.link_state = "up"
        self._restate()

    def link_down(self, reason: str) -> None:
        self.reason = reason
        self.link_state = "offline"
        self.snapshot = None
        self._restate()

    def link_refused(self, reason: str) -> None:
        self.reason = reason
        self.link_state = "refused"
        self.snapshot = None
        self._restate()

    def settled(self, snapshot: Any) -> None:
        """A settled `Snapshot` of the board."""
        if self.link_state != "up":
            return
        self.snapshot_at = time.monotonic()
        self.snapshot = snapshot

    def _restate(self, *_args: Any) -> None:
        state = self.link_state
        if state == "refused":
            self.status = refusal_status(self.reason)
        elif state == "offline":
            self.status = _(OFFLINE)
        elif state == "up":
            self.status = self._coverage()
        elif state == "connecting":
            self.status = _("Sensor grid: looking for it on {port}").format(port=self.port)

    def _coverage(self) -> str:
        """The status line while the grid is up: what it senses."""
        board, hello = self.board, self.hello
        if board is None:
            count = hello.regions if hello is not None else 0
            return ngettext("Sensor grid: connected, {count} sensor",
                            "Sensor grid: connected, {count} sensors", count).format(count=count)
        calibration = self.calibration_for(board)
        if calibration is None:
            return _("Sensor grid: connected, not calibrated for this board")
        count = len(calibration.sensed_regions)
        return ngettext("Sensor grid: connected, {count} region",
                        "Sensor grid: connected, {count} regions", count).format(count=count)
