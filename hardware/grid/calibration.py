"""Calibration: which sensor cell of the grid lies under which region of a board.

Concept
-------
A grid reports cells by index (0, 1, 2...: the order its multiplexers are wired in); the
game talks about regions (the board's region ids, 1..N). A :class:`Calibration` maps cells
to regions for one board. It is made once per board by a :class:`CalibrationWizard` (the
settings screen asks the player to put a token on each highlighted region in turn and
feeds it the settled snapshots) and kept in the config through :meth:`Calibration.to_dict`
and :meth:`Calibration.from_dict`.

Everything here is pure: no I/O, no clock, values only.

Invariants
----------
- A cell belongs to at most one region; a region may have several cells (a big region
  with two sensors) or none (a region the grid cannot sense: the game asks by hand).
- Cells are 0..cells-1 of the grid the calibration was made for; a snapshot of another
  size is refused with a ``CalibrationError`` naming both sizes.
- ``Calibration.from_dict(c.to_dict()) == c``; ``from_dict`` refuses anything malformed
  with a ``CalibrationError`` that names the key and the value that was wrong.
- The wizard assigns a cell only when exactly one new cell is covered, so a stray token
  or a hand never produces a wrong mapping; it says what it is waiting for instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hardware.grid.protocol import MAX_CELLS, Snapshot

FORMAT_VERSION = 1
"""The version of the dict written by :meth:`Calibration.to_dict`."""


class CalibrationError(ValueError):
    """A calibration that cannot be made, read or applied; the message says why."""


@dataclass(frozen=True)
class RegionReading:
    """What the grid says about one region: covered, and (if sensed) count and owner."""

    present: bool
    count: int | None = None
    owner: int | None = None


@dataclass(frozen=True)
class Calibration:
    """The cell -> region map of one board on one grid of ``cells`` sensors."""

    board: str
    cells: int
    regions_by_cell: Mapping[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.board:
            raise CalibrationError("the calibration's board name is empty")
        if not 1 <= self.cells <= MAX_CELLS:
            raise CalibrationError(f"a grid of {self.cells} cells is outside 1..{MAX_CELLS}")
        for cell, region in self.regions_by_cell.items():
            if not 0 <= cell < self.cells:
                raise CalibrationError(f"cell {cell} is outside 0..{self.cells - 1}")
            if isinstance(region, bool) or not isinstance(region, int) or region < 1:
                raise CalibrationError(f"cell {cell}: region {region!r} is not a region id 1..N")
        frozen = MappingProxyType(dict(sorted(self.regions_by_cell.items())))
        object.__setattr__(self, "regions_by_cell", frozen)

    def __hash__(self) -> int:  # the dataclass's would fail: a mapping is not hashable
        return hash((self.board, self.cells, tuple(self.regions_by_cell.items())))

    @classmethod
    def identity(cls, board: str, cells: int) -> Calibration:
        """Cell ``i`` under region ``i + 1`` for every cell: the simulator's wiring."""
        return cls(board, cells, {cell: cell + 1 for cell in range(cells)})

    def region_of(self, cell: int) -> int | None:
        """The region over this cell, or ``None`` when the cell is not calibrated."""
        return self.regions_by_cell.get(cell)

    def cells_of(self, region: int) -> tuple[int, ...]:
        """The cells under this region (none if the grid cannot sense it)."""
        return tuple(c for c, r in self.regions_by_cell.items() if r == region)

    @property
    def sensed_regions(self) -> frozenset[int]:
        """The regions that have at least one cell."""
        return frozenset(self.regions_by_cell.values())

    def with_cell(self, cell: int, region: int) -> Calibration:
        """This calibration with ``cell`` under ``region`` (replacing what it was)."""
        return Calibration(self.board, self.cells, {**self.regions_by_cell, cell: region})

    def without_region(self, region: int) -> Calibration:
        """This calibration with every cell of ``region`` forgotten."""
        kept = {c: r for c, r in self.regions_by_cell.items() if r != region}
        return Calibration(self.board, self.cells, kept)

    def _check(self, snapshot: Snapshot) -> None:
        if snapshot.cells != self.cells:
            raise CalibrationError(
                f"the grid reports {snapshot.cells} cells but the calibration of board "
                f"{self.board!r} was made for {self.cells}; calibrate again"
            )

    def covered_regions(self, snapshot: Snapshot) -> frozenset[int]:
        """The regions with at least one covered cell."""
        self._check(snapshot)
        return frozenset(
            region for cell, region in self.regions_by_cell.items() if snapshot.presence[cell]
        )

    def readings(self, snapshot: Snapshot) -> dict[int, RegionReading]:
        """What the snapshot says about every sensed region.

        A region's count is the sum over its cells; its owner is the one owner its covered
        cells agree on (``None`` when they disagree or the grid does not sense owners).
        """
        self._check(snapshot)
        result: dict[int, RegionReading] = {}
        for region in sorted(self.sensed_regions):
            cells = self.cells_of(region)
            present = any(snapshot.presence[c] for c in cells)
            count = None if snapshot.counts is None else sum(snapshot.counts[c] for c in cells)
            owner = None
            if snapshot.owners is not None:
                owners = {snapshot.owners[c] for c in cells if snapshot.presence[c]} - {None}
                owner = owners.pop() if len(owners) == 1 else None
            result[region] = RegionReading(present, count, owner)
        return result

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for the config file (cell numbers become string keys)."""
        return {
            "format": FORMAT_VERSION,
            "board": self.board,
            "cells": self.cells,
            "regions_by_cell": {str(c): r for c, r in self.regions_by_cell.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibration:
        """The calibration a :meth:`to_dict` dict describes; ``CalibrationError`` if broken."""
        if not isinstance(data, Mapping):
            raise CalibrationError(f"a calibration must be a mapping, not {type(data).__name__}")
        missing = {"format", "board", "cells", "regions_by_cell"} - set(data)
        if missing:
            raise CalibrationError(f"calibration lacks {', '.join(sorted(missing))}")
        if data["format"] != FORMAT_VERSION:
            raise CalibrationError(
                f"calibration format {data['format']!r} is not {FORMAT_VERSION}; calibrate again"
            )
        board, cells, mapping = data["board"], data["cells"], data["regions_by_cell"]
        if not isinstance(board, str):
            raise CalibrationError(f"calibration board {board!r} is not a name")
        if isinstance(cells, bool) or not isinstance(cells, int):
            raise CalibrationError(f"calibration cells {cells!r} is not a whole number")
        if not isinstance(mapping, Mapping):
            raise CalibrationError(f"calibration regions_by_cell {mapping!r} is not a mapping")
        parsed: dict[int, int] = {}
        for key, region in mapping.items():
            if not (isinstance(key, str) and key.isdigit()) and not (
                isinstance(key, int) and not isinstance(key, bool)
            ):
                raise CalibrationError(f"calibration cell {key!r} is not a cell number")
            parsed[int(key)] = region
        return cls(board, cells, parsed)


# --- the wizard ----------------------------------------------------------------------


@dataclass(frozen=True)
class WizardStep:
    """What the wizard says after a snapshot: its state and a sentence for the player.

    ``kind`` is one of ``"waiting"`` (put a token on ``region``), ``"assigned"`` (``cell``
    now belongs to ``region``; the wizard moved on), ``"ambiguous"`` (several new cells,
    listed in ``cells``, are covered; nothing was assigned) or ``"done"``.
    """

    kind: str
    region: int | None
    message: str
    cell: int | None = None
    cells: tuple[int, ...] = ()


class CalibrationWizard:
    """Builds a :class:`Calibration` from a token put on each region in turn.

    Start with the board empty (what is covered then is the baseline and ignored: a stuck
    sensor or a token left aside). Then, for each region of ``regions`` in order, the
    player puts a token on it; the wizard takes the single newly covered cell as that
    region's. Tokens may be left in place or taken away between regions. Feed it settled
    snapshots with :meth:`observe`; :meth:`skip` leaves a region without a cell,
    :meth:`undo` goes back one region.
    """

    def __init__(self, board: str, regions: Sequence[int], baseline: Snapshot) -> None:
        if not regions:
            raise CalibrationError(f"board {board!r}: there are no regions to calibrate")
        if len(set(regions)) != len(regions):
            raise CalibrationError(f"board {board!r}: a region appears twice in the list")
        self._regions = tuple(regions)
        self._baseline = baseline.covered()
        self._calibration = Calibration(board, baseline.cells)
        self._index = 0
        self._assigned: list[int | None] = []

    @property
    def current_region(self) -> int | None:
        """The region the player should put a token on now (``None`` when done)."""
        return self._regions[self._index] if self._index < len(self._regions) else None

    @property
    def done(self) -> bool:
        return self._index >= len(self._regions)

    @property
    def progress(self) -> tuple[int, int]:
        """(regions handled, regions in all)."""
        return (self._index, len(self._regions))

    @property
    def calibration(self) -> Calibration:
        """The calibration so far (complete once :attr:`done`)."""
        return self._calibration

    def prompt(self) -> WizardStep:
        region = self.current_region
        if region is None:
            sensed = len(self._calibration.sensed_regions)
            return WizardStep(
                "done", None, f"Calibration finished: {sensed} of {len(self._regions)} regions"
            )
        return WizardStep("waiting", region, f"Put a token on region {region}")

    def observe(self, snapshot: Snapshot) -> WizardStep:
        """Take a settled snapshot; say what happened."""
        if snapshot.cells != self._calibration.cells:
            raise CalibrationError(
                f"the grid now reports {snapshot.cells} cells, not {self._calibration.cells}; "
                "start the calibration again"
            )
        region = self.current_region
        if region is None:
            return self.prompt()
        assigned = set(self._calibration.regions_by_cell)
        new = sorted(snapshot.covered() - self._baseline - assigned)
        if not new:
            return self.prompt()
        if len(new) > 1:
            return WizardStep(
                "ambiguous",
                region,
                f"{len(new)} new cells are covered ({', '.join(map(str, new))}); "
                f"leave a token on region {region} only",
                cells=tuple(new),
            )
        (cell,) = new
        self._calibration = self._calibration.with_cell(cell, region)
        self._assigned.append(cell)
        self._index += 1
        message = f"Region {region} is cell {cell}. {self.prompt().message}"
        return WizardStep("assigned", region, message, cell)

    def skip(self) -> WizardStep:
        """Leave the current region without a cell (the grid cannot sense it)."""
        if not self.done:
            self._assigned.append(None)
            self._index += 1
        return self.prompt()

    def undo(self) -> WizardStep:
        """Go back one region and forget its cell."""
        if self._index > 0:
            self._index -= 1
            self._assigned.pop()
            region = self._regions[self._index]
            self._calibration = self._calibration.without_region(region)
        return self.prompt()


def regions_differing(
    calibration: Calibration, snapshot: Snapshot, held: Iterable[int]
) -> tuple[frozenset[int], frozenset[int]]:
    """(sensed but not recorded, recorded but not sensed), among the sensed regions.

    ``held`` is what the game records as occupied. Regions without a cell never appear:
    the grid says nothing about them.
    """
    covered = calibration.covered_regions(snapshot)
    recorded = frozenset(held) & calibration.sensed_regions
    return covered - recorded, recorded - covered
