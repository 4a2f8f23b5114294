"""Settling snapshots, and calibrating which sensor cell lies under which region."""

from __future__ import annotations

import json

import pytest

from hardware.grid.calibration import (
    Calibration,
    CalibrationError,
    CalibrationWizard,
    RegionReading,
    regions_differing,
)
from hardware.grid.protocol import Snapshot
from hardware.grid.settle import Settler


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def snap(*covered: int, cells: int = 6, seq: int = 0) -> Snapshot:
    return Snapshot(seq, tuple(i in covered for i in range(cells)))


# --- settling -------------------------------------------------------------------------


def test_a_snapshot_is_believed_only_after_the_board_was_still_for_the_settle_time() -> None:
    clock = FakeClock()
    settler = Settler(0.5, clock=clock)
    assert settler.offer(snap(1)) is None
    clock.now += 0.49
    assert settler.poll() is None
    clock.now += 0.02
    assert settler.poll() == snap(1)
    assert settler.poll() is None  # handed over once


def test_a_storm_of_snapshots_gives_only_the_state_it_ends_in() -> None:
    clock = FakeClock()
    settler = Settler(0.5, clock=clock)
    handed: list[Snapshot] = []
    for step in range(40):  # a hand sweeping over the board, a change every 30 ms
        result = settler.offer(snap(step % 6, seq=step))
        handed += [result] if result else []
        clock.now += 0.03
        result = settler.poll()
        handed += [result] if result else []
    settler.offer(snap(2, 4, seq=40))
    clock.now += 0.6
    handed += [s for s in [settler.poll()] if s]
    assert [s.covered() for s in handed] == [frozenset({2, 4})]


def test_the_same_state_again_is_not_handed_over_twice_unless_reset() -> None:
    clock = FakeClock()
    settler = Settler(0.2, clock=clock)
    settler.offer(snap(1, seq=1))
    clock.now += 0.3
    assert settler.poll() is not None
    settler.offer(snap(1, seq=2))  # a GET answer: same board, new SEQ
    clock.now += 0.3
    assert settler.poll() is None
    settler.reset()  # after a reconnect the app wants the board again
    settler.offer(snap(1, seq=3))
    clock.now += 0.3
    assert settler.poll() == snap(1, seq=3)


def test_a_flicker_back_to_the_settled_state_hands_nothing_over() -> None:
    clock = FakeClock()
    settler = Settler(0.2, clock=clock)
    settler.offer(snap(1))
    clock.now += 0.3
    settler.poll()
    settler.offer(snap(1, 2))
    clock.now += 0.05
    settler.offer(snap(1))
    clock.now += 0.3
    assert settler.poll() is None


def test_a_settle_time_of_zero_hands_every_change_over_at_once() -> None:
    settler = Settler(0.0, clock=FakeClock())
    assert settler.offer(snap(3)) == snap(3)


def test_a_negative_settle_time_is_refused() -> None:
    with pytest.raises(ValueError, match="settle time -1 s is negative"):
        Settler(-1)


# --- calibration ----------------------------------------------------------------------


def test_a_calibration_maps_covered_cells_to_regions() -> None:
    calibration = Calibration("2p", 6, {0: 12, 1: 3, 4: 3})
    assert calibration.region_of(1) == 3
    assert calibration.region_of(5) is None
    assert calibration.cells_of(3) == (1, 4)
    assert calibration.covered_regions(snap(0, 4, 5)) == {12, 3}


def test_readings_sum_counts_and_agree_on_owners() -> None:
    calibration = Calibration("2p", 3, {0: 7, 1: 7, 2: 8})
    snapshot = Snapshot(0, (True, True, False), counts=(2, 1, 0), owners=(1, 1, None))
    assert calibration.readings(snapshot) == {
        7: RegionReading(True, 3, 1),
        8: RegionReading(False, 0, None),
    }
    mixed = Snapshot(0, (True, True, False), counts=(2, 1, 0), owners=(0, 1, None))
    assert calibration.readings(mixed)[7].owner is None


def test_a_snapshot_of_another_grid_size_is_refused_with_both_sizes() -> None:
    calibration = Calibration.identity("3p", 6)
    with pytest.raises(CalibrationError, match=r"reports 5 cells .* made for 6"):
        calibration.covered_regions(snap(1, cells=5))


def test_the_identity_calibration_puts_cell_i_under_region_i_plus_1() -> None:
    assert Calibration.identity("2p", 3).regions_by_cell == {0: 1, 1: 2, 2: 3}


def test_a_calibration_survives_the_config_file() -> None:
    calibration = Calibration("4p", 48, {0: 1, 17: 39, 18: 39})
    stored = json.loads(json.dumps(calibration.to_dict()))
    assert Calibration.from_dict(stored) == calibration


@pytest.mark.parametrize(
    ("data", "complaint"),
    [
        ({"format": 1, "board": "2p", "cells": 6}, "lacks regions_by_cell"),
        ({"format": 9, "board": "2p", "cells": 6, "regions_by_cell": {}}, "format 9 is not 1"),
        ({"format": 1, "board": "2p", "cells": "6", "regions_by_cell": {}}, "cells '6'"),
        ({"format": 1, "board": "2p", "cells": 6, "regions_by_cell": {"x": 1}}, "cell 'x'"),
        ({"format": 1, "board": "2p", "cells": 6, "regions_by_cell": {"9": 1}},
         "cell 9 is outside 0..5"),
        ({"format": 1, "board": "2p", "cells": 6, "regions_by_cell": {"1": "a"}},
         "region 'a' is not a region id"),
        ({"format": 1, "board": "", "cells": 6, "regions_by_cell": {}}, "board name is empty"),
    ],
)  # fmt: skip
def test_a_broken_stored_calibration_is_refused_naming_what_is_wrong(
    data: dict[str, object], complaint: str
) -> None:
    with pytest.raises(CalibrationError, match=complaint):
        Calibration.from_dict(data)


def test_differences_between_the_board_and_the_record_are_both_ways() -> None:
    calibration = Calibration("2p", 6, {0: 1, 1: 2, 2: 3})
    sensed_only, recorded_only = regions_differing(calibration, snap(0, 1), held=[2, 3, 20])
    assert sensed_only == {1}
    assert recorded_only == {3}  # region 20 has no sensor: the grid says nothing about it


# --- the wizard -----------------------------------------------------------------------


def test_the_wizard_takes_one_new_cell_per_region_in_turn() -> None:
    wizard = CalibrationWizard("2p", [1, 2, 3], baseline=snap())
    assert wizard.prompt().message == "Put a token on region 1"
    step = wizard.observe(snap(4))
    assert (step.kind, step.region, step.cell) == ("assigned", 1, 4)
    assert "Put a token on region 2" in step.message
    # The first token stays where it is; the second one goes on region 2.
    assert wizard.observe(snap(4, 0)).cell == 0
    # Or the player takes tokens away between regions.
    assert wizard.observe(snap(5)).cell == 5
    assert wizard.done
    assert wizard.calibration.regions_by_cell == {4: 1, 0: 2, 5: 3}
    assert wizard.prompt().kind == "done"


def test_the_wizard_waits_while_nothing_new_is_covered() -> None:
    wizard = CalibrationWizard("2p", [1, 2], baseline=snap(3))  # a stuck sensor
    assert wizard.observe(snap(3)).kind == "waiting"
    assert wizard.observe(snap(3, 1)).cell == 1


def test_the_wizard_assigns_nothing_when_two_new_cells_are_covered() -> None:
    wizard = CalibrationWizard("2p", [7], baseline=snap())
    step = wizard.observe(snap(1, 2))
    assert step.kind == "ambiguous" and step.cells == (1, 2)
    assert "leave a token on region 7 only" in step.message
    assert wizard.calibration.regions_by_cell == {}


def test_the_wizard_can_skip_a_region_and_undo() -> None:
    wizard = CalibrationWizard("2p", [1, 2, 3], baseline=snap())
    wizard.observe(snap(0))
    wizard.skip()  # region 2 has no sensor
    assert wizard.current_region == 3
    wizard.undo()
    wizard.undo()
    assert wizard.current_region == 1
    assert wizard.calibration.regions_by_cell == {}


def test_the_wizard_refuses_a_grid_that_changed_size() -> None:
    wizard = CalibrationWizard("2p", [1], baseline=snap())
    with pytest.raises(CalibrationError, match="now reports 5 cells, not 6"):
        wizard.observe(snap(cells=5))
