"""The grid's screens at 800x480, 1280x720 and 720x1280: inside the window, readable, saved.

The map with differences, the map when the grid is not calibrated or offline, the
calibration wizard before, during and after, and the home screen's status line with a
refused grid. Kivy's offscreen window cannot grow once made, so the rendering runs in a
child process whose window starts at 1280x1280 (as `tests/screenshots.py` does). The grid
is a stand-in link here: the controller's callbacks are called as the link would call
them on the main thread (the real link on a real pty is `test_ui_grid.py`). Each frame is
read back from the framebuffer in memory and checked there; PNGs are saved only when asked
for (set UI_SCREENSHOTS=DIR to keep them: DIR/grid/<size>/*.png).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import screenshots

ROOT = Path(__file__).resolve().parents[1]
SIZES = ("800x480", "1280x720", "720x1280")
SCENARIOS = ("map_no_grid", "map_differences", "map_not_calibrated", "map_offline",
             "calibration_idle", "calibration_running", "calibration_done", "home_refused")


# -- the child: render every scenario at every size ------------------------------------------

def _render(out: Path, pngs: bool) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "tests"))
    import ui_support as ui
    from factories import created

    from companion.grid import Calibrations
    from companion.rules.catalog import load_catalog
    from companion.session import Session
    from companion.ui.grid import GridController
    from companion.ui.presenters.map import MapPresenter
    from hardware.grid.protocol import PROTOCOL_VERSION, Capability, Hello, Snapshot

    app = ui.app_for(Session())
    grid = GridController("/dev/smallworld-grid",
                          Calibrations(lambda: app.ctx.session.records))
    grid.attach(app.presenters)

    def hello(firmware: str = "grid-sim-1.0") -> Hello:
        return Hello(0, PROTOCOL_VERSION, firmware, 30, frozenset({Capability.PRESENCE}))

    def snap(*sensors: int) -> Snapshot:
        return Snapshot(1, tuple(s + 1 in sensors for s in range(30)))

    def game() -> Session:
        s = Session(load_catalog())
        s.begin(created(3, races=("Ratmen",), powers=("Alchemist",)))
        s.pick(0)
        s.conquer(MapPresenter._targets(s.state)[0], tokens=3)
        return s

    def held(s: Session) -> list[int]:
        return [rid for rid, here in s.state.regions.regions.items()
                if here.occupant is not None or here.lost_tribe]

    def map_no_grid() -> None:  # first: the grid has never been up
        app.use_session(game(), screen="map")
        grid.link_down("no grid on /dev/smallworld-grid")

    def map_differences() -> None:
        s = game()
        app.use_session(s, screen="map")
        grid.link_up(hello())
        mine = s.state.regions.held_by(0)[0]
        tribe = max(held(s))
        # Ann's tokens and a Lost Tribe lifted; tokens put on 5 and 18
        covered = [r for r in held(s) if r not in (mine, tribe)] + [5, 18]
        grid.settled(snap(*covered))

    def map_not_calibrated() -> None:
        app.use_session(game(), screen="map")
        grid.link_up(hello("pico-grid-1.0"))
        grid.settled(snap())

    def map_offline() -> None:
        app.use_session(game(), screen="map")
        grid.link_down("the grid on /dev/smallworld-grid was unplugged")

    def calibration_idle() -> None:
        app.use_session(Session(), screen="home")
        grid.link_up(hello())
        grid.settled(snap())
        app.ctx.nav.go("calibration")

    def calibration_running() -> None:
        calibration_idle()
        p = app.presenters["calibration"]
        p.act("start")
        for n, sensor in enumerate((30, 29, 28), start=1):
            grid.settled(snap(*range(28 + 3 - n, 31)))
            assert p.badges.get(n) == str(sensor), p.badges
        grid.settled(snap(28, 29, 30, 4, 5))  # two new sensors at once

    def calibration_done() -> None:
        calibration_idle()
        p = app.presenters["calibration"]
        p.act("start")
        for _ in range(30):
            p.act("skip")
        p.act("undo")
        grid.settled(snap(7))

    def home_refused() -> None:
        app.use_session(Session(), screen="home")
        grid.link_refused("the grid on /dev/smallworld-grid speaks protocol 2.0 (firmware "
                      "'pico-grid-2.0') but this companion speaks 1.x: update the companion")

    builders = {name: value for name, value in locals().items() if name in SCENARIOS}
    report: dict[str, Any] = {}
    for name in SCENARIOS:
        for size_name, size in ui.SIZES.items():
            ui.close_dialogs()
            ui.resize(size)
            builders[name]()
            ui.pump(6)
            frame = ui.frame()
            path = ui.screenshot(out / size_name / f"{name}.png") if pngs else None
            report.setdefault(name, {})[size_name] = {
                "screenshot": str(path) if path else None,
                "frame": {"size": [frame.width, frame.height], "colours": frame.colours()},
                "screen": app.ctx.nav.current,
                "problems": ui.layout_problems(ui.window()),
                "texts": ui.texts(ui.window()),
            }
            p = app.presenters["calibration"]
            p.wizard, p.running, p._last = None, False, ""
    return report


def _child(out: Path, pngs: bool) -> None:
    report = _render(out, pngs)
    (out / "report.json").write_text(json.dumps(report, indent=1))


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    keep = os.environ.get("UI_SCREENSHOTS")
    out = Path(keep) / "grid" if keep else tmp_path_factory.mktemp("grid-screens")
    out.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCFG_")}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON",
               KIVY_NO_FILELOG="1", KCFG_GRAPHICS_WIDTH="1280", KCFG_GRAPHICS_HEIGHT="1280",
               KCFG_GRAPHICS_MAXFPS="0")  # frames uncapped
    env.setdefault("KIVY_HOME", str(out / ".kivy"))
    result = subprocess.run([sys.executable, __file__, "--child", str(out),
                             *(["--pngs"] if keep else [])],
                            capture_output=True, text=True, timeout=240, env=env, cwd=ROOT)
    assert result.returncode == 0, f"rendering failed:\n{result.stdout}\n{result.stderr}"
    found: dict[str, Any] = json.loads((out / "report.json").read_text())
    return found


def test_every_grid_scenario_is_rendered_at_the_three_sizes(report: dict[str, Any]) -> None:
    assert set(report) == set(SCENARIOS)
    for sizes in report.values():
        assert set(sizes) == set(SIZES)
    assert screenshots.frame_faults(report) == []  # drawn at its size; a kept PNG is a PNG


def test_nothing_lies_outside_the_window_and_no_text_is_small_or_clipped(
    report: dict[str, Any],
) -> None:
    problems = [f"{name} at {size}: {problem}"
                for name, sizes in report.items()
                for size, found in sizes.items()
                for problem in found["problems"]]
    assert problems == []


def test_the_screens_say_what_the_grid_sees(report: dict[str, Any]) -> None:
    def said(name: str) -> str:
        return " | ".join(report[name]["800x480"]["texts"])

    assert "The board differs from the record in 4 regions" in said("map_differences")
    assert "Show region 30" in said("map_differences")
    assert "Ann's Ratmen recorded, no tokens on the board." in said("map_differences")
    assert "Ann abandoned it" in said("map_differences")
    assert "Calibrate the sensor grid" in said("map_not_calibrated")
    assert "Sensor grid offline: playing by hand." in said("map_offline")
    # a table that has never seen its grid (none plugged in): the map's panel keeps its
    # room for the region; the home screen's status line says where the grid stands
    assert "Sensor grid" not in said("map_no_grid")
    assert "Put a token on region 4." in said("calibration_running")
    assert "Several new sensors are covered (sensors 4, 5)" in said("calibration_running")
    assert "Every region done" in said("calibration_done")
    assert "Sensor grid: refused: protocol 2.0, update the companion" in said("home_refused")


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    _child(Path(sys.argv[2]), "--pngs" in sys.argv[3:])
