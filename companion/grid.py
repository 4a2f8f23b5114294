"""The region sensor grid as the app uses it: its serial link, and each board's calibration.

Concept
-------
Two things the composition root (`companion.app`) makes when a serial port is configured
and hands to the screens' grid view (`companion.ui.grid.GridController`), which keeps
only what the screens show:

- `SensorGrid` owns the `hardware.grid.link.GridLink` (its reader thread, the port) and
  reports its facts through the callbacks it was given: the link is up (with the grid's
  HELLO and the link's words), down or refused (with the reason), a snapshot settled.
  The root gives it Kivy's ``Clock.schedule_once`` as ``schedule``, so the callbacks run
  on the main thread. It answers two commands: `request_snapshot` and `close`.
- `Calibrations` keeps each board's `Calibration` (which sensor lies under which region)
  in the saved records' settings under ``grid.calibration.<board>``
  (`Calibration.to_dict`), read once and cached; a grid that says it is the simulator
  (`companion grid-sim`) and has no saved calibration is read with the simulator's own
  wiring (sensor N under region N). It also makes the `CalibrationWizard` the
  calibration screen runs, compares a sensed board with the record (`compare`, from
  `differences`: pure) and names the error both may raise (`refused`), so that the
  screens never import `hardware`.

Invariants
----------
- Nothing here decides or writes the game; the grid never changes it by itself.
- A calibration that cannot be read (records refusing, a broken saved value) is no
  calibration: the wizard makes a new one, which replaces it.
- `Calibrations.save` keeps nothing new when the records refuse (`RecordsError`).
- Importing this module imports `hardware.grid.link` but not pyserial (the link imports
  it when it opens a port); the root imports this module only when a port is configured.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.records import Records, RecordsError
from companion.rules.game import GameState
from companion.rules.maps import Board
from hardware.grid.calibration import (
    Calibration,
    CalibrationError,
    CalibrationWizard,
    regions_differing,
)
from hardware.grid.link import GridLink
from hardware.grid.protocol import Hello, Snapshot

SETTING_PREFIX = "grid.calibration."
"""Records setting key of a board's calibration: this prefix and the board's name."""

SIMULATOR_FIRMWARE = "grid-sim"
"""Firmware names starting with this are `companion grid-sim` (wired sensor N = region N)."""


def setting_key(board: str) -> str:
    return SETTING_PREFIX + board


def is_simulator(hello: Hello | None) -> bool:
    """Whether the grid that said `hello` is `companion grid-sim`."""
    return hello is not None and str(hello.firmware).startswith(SIMULATOR_FIRMWARE)


class SensorGrid:
    """The grid's serial link, reporting facts; see the module docstring."""

    def __init__(self, port: str, *, on_up: Callable[[Hello | None, str], object],
                 on_down: Callable[[str], object], on_refused: Callable[[str], object],
                 on_snapshot: Callable[[Snapshot], object], baudrate: int = 115200,
                 schedule: Callable[..., Any] | None = None,
                 link_factory: Callable[..., GridLink] = GridLink,
                 **link_options: Any) -> None:
        self.port = port
        self._on_up = on_up
        self.link = link_factory(
            port, baudrate=baudrate, schedule=schedule, on_snapshot=on_snapshot,
            on_link_up=self._up, on_link_down=on_down, on_refused=on_refused,
            **link_options)

    def _up(self, hello: Hello | None) -> None:
        self._on_up(hello, self.link.reason)

    def start(self) -> None:
        """Start the link's thread: it looks for the grid until it is closed."""
        self.link.start()

    def request_snapshot(self) -> bool:
        """Ask the grid for a snapshot now (it arrives through `on_snapshot` once settled)."""
        return self.link.request_snapshot()

    def close(self) -> None:
        """Stop the link's thread and close the port (the app is closing)."""
        self.link.stop()


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


class Calibrations:
    """Each board's calibration, kept in the records' settings; see the module docstring.

    `records` gives the records of the moment (None: games are not saved; the
    calibrations are then kept for this run only).
    """

    refused: ClassVar[type[Exception]] = CalibrationError
    """What `wizard`, a wizard's `observe` and `compare` raise when a snapshot does not
    fit (the grid changed size): start the calibration again."""

    is_simulator = staticmethod(is_simulator)

    def __init__(self, records: Callable[[], Records | None]) -> None:
        self._records = records
        self._memory: dict[str, Calibration | None] = {}

    def saved(self, board: str) -> Calibration | None:
        """The calibration saved for `board` (None: none, or one that cannot be read)."""
        key = setting_key(board)
        if key in self._memory:
            return self._memory[key]
        records = self._records()
        found: Calibration | None = None
        if records is not None:
            try:
                data = records.setting(key)
            except RecordsError:
                data = None  # unreadable: calibrated anew, as for a broken calibration
            if data is not None:
                try:
                    found = Calibration.from_dict(data)
                except CalibrationError:
                    found = None  # the wizard makes a new one; the broken one is replaced
        self._memory[key] = found
        return found

    def for_board(self, board: Board, hello: Hello | None) -> Calibration | None:
        """The calibration to read `board` with now, from the grid that said `hello`: the
        saved one; for the simulator without one, its own wiring (sensor N under region
        N); else None."""
        saved = self.saved(board.name)
        if saved is not None:
            return saved
        if is_simulator(hello) and hello is not None:
            wiring = {c: c + 1 for c in range(hello.regions) if c + 1 in board.regions}
            return Calibration(board.name, hello.regions, wiring)
        return None

    def save(self, calibration: Calibration) -> None:
        """Keep `calibration` for its board (in the records when there are some).

        Raises `RecordsError` when the records refuse; nothing changes then.
        """
        records = self._records()
        key = setting_key(calibration.board)
        if records is not None:
            records.set_setting(key, calibration.to_dict())
        self._memory[key] = calibration

    def forget(self) -> None:
        """Read every calibration from the records again when next asked (as after a
        restart)."""
        self._memory.clear()

    def wizard(self, board: str, regions: Sequence[int],
               baseline: Snapshot) -> CalibrationWizard:
        """A wizard to calibrate `board`'s `regions`, from the clear board's `baseline`."""
        return CalibrationWizard(board, regions, baseline)

    def compare(self, calibration: Calibration, snapshot: Snapshot,
                state: GameState) -> tuple[list[Difference], frozenset[int]]:
        """Where the sensed board differs from the record (`differences`), and the regions
        the grid senses tokens in. Raises `refused` when the snapshot does not fit."""
        return (differences(calibration, snapshot, state),
                calibration.covered_regions(snapshot))
