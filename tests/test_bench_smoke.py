"""Every benchmark and fault drill runs, once, on tiny sizes.

Only that they run and report is checked here: speed is the benchmark's business
(`make bench` prints it), never a test's, so no number is compared with a goal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import pure, ui  # noqa: E402
from bench.common import RESULT_HEADER, Result, result_rows, table  # noqa: E402
from drills import bad_input, button, grid, power_cut  # noqa: E402
from drills.report import Drill  # noqa: E402

FAST_LINK = {"settle_time": 0.05, "silence_timeout": 0.6, "hello_interval": 0.1,
             "reconnect_interval": 0.1, "poll_interval": 0.02}


def measured(results: list[Result]) -> list[Result]:
    assert results
    table(result_rows(results), RESULT_HEADER)  # every line prints
    for result in results:
        assert result.value is not None, f"{result.metric}: {result.note}"
    return results


def ran(drill: Drill) -> Drill:
    assert drill.checks and drill.tried
    assert all(check.value for check in drill.checks)
    return drill


def test_the_benchmarks_without_a_window_run(tmp_path: Path) -> None:
    game = pure.PlayedGame(tmp_path, players=2)
    try:
        measured(pure.durable_intent(game))
        measured(pure.replay_bench(game, repeats=1))
        measured(pure.scoring_bench(game, loops=1))
    finally:
        game.close()
    measured(pure.parser_bench(frames=200, chunks=(1, 64)))
    opened = measured(pure.open_bench(tmp_path / "open", sizes=(20, 60), runs=1))
    assert [r.key for r in opened] == ["open_20", "open_60"]
    for row in opened:  # each size measured against replaying twice, in the same run
        assert row.baseline is not None, row.metric
        assert row.detail["events"] >= int(row.key.split("_")[1])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_kivy_benchmarks_run_in_their_child_processes(tmp_path: Path) -> None:
    for name in ("startup", "idle", "rss", "taps"):
        (tmp_path / name).mkdir()
    results = measured(ui.startup(tmp_path / "startup", runs=1, warmup=False))
    assert results[0].detail["screens"] == ["home"]
    rows, minimal = ui.idle(tmp_path / "idle", seconds=0.3, settle=0.2)
    measured(rows)
    memory = measured(ui.rss(tmp_path / "rss", minimal["memory"]["VmRSS"], players=2,
                             games=3, max_intents=3))
    assert {r.key for r in memory} >= {"rss_game1", "rss_game3", "rss_growth", "gc_pauses"}
    taps = ui.taps(tmp_path / "taps", row_taps=1, presses=1, map_taps=1, region_changes=1,
                   turn_taps=1, rounds=1)
    assert {r.key for r in taps} >= {"tap_row_to_dialog_p99", "tap_confirm_to_table_p99",
                                     "tap_press_to_roll_p99", "tap_map_to_panel_p99",
                                     "tap_turn_to_next_p99", "cpu_turn_to_next",
                                     "region_redraw"}
    for row in taps:  # every tap measured on the baseline app too, in the same run
        assert row.baseline is not None, row.metric
    measured([r for r in taps if "face" not in r.key])


def test_the_drills_run(tmp_path: Path) -> None:
    ran(power_cut.drill(tmp_path, kills=2, lanes=1, max_wait=0.05))
    ran(grid.serial_abuse(tmp_path, total_bytes=5000, bursts=1, timings=FAST_LINK))
    ran(grid.unplug_storm(tmp_path, cycles=1, max_unplugged=0.05, timings=FAST_LINK))
    ran(button.drill(scale=1))
    for sub in ("score", "config"):
        (tmp_path / "bad" / sub).mkdir(parents=True)
    ran(bad_input.drill(tmp_path / "bad", small=True))
