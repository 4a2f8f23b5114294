"""The store's fault drills (damaged database, two instances, bad config) run, once, on
tiny sizes, and meet their goals there: no crash, nothing confirmed lost.

Speed is never checked here; `make drills` prints the full sizes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from drills import bad_config, damaged_database, two_instances  # noqa: E402
from drills.report import Drill  # noqa: E402


def met(drill: Drill) -> None:
    assert drill.checks and drill.tried
    assert all(check.value for check in drill.checks)
    assert drill.met, [c for c in drill.checks if c.met is False]


def test_the_damaged_database_drill_runs_and_loses_nothing_silently(tmp_path: Path) -> None:
    drill = damaged_database.drill(tmp_path, wal_rounds=2, probes=5, small=True)
    met(drill)
    assert drill.detail["deleted_wal"]["rounds"] == 2
    assert drill.detail["probe"]["cases"] == 5


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_two_instance_drill_runs_and_the_second_app_is_refused(tmp_path: Path) -> None:
    drill = two_instances.drill(tmp_path, pairs=1, rounds=2, seconds=0.5)
    met(drill)
    assert drill.detail["apps"]["refused_naming_first"] == 1
    assert drill.detail["stores"]["second_refused_in_use"] == 1


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_bad_config_drill_starts_the_kiosk_app_with_a_bad_value(tmp_path: Path) -> None:
    drill = bad_config.drill(tmp_path, limit=1)  # database = "~nosuchuser/x"
    met(drill)
    assert drill.detail["app_running"] == drill.detail["files"] == 1
