"""The sensor grid inside the app, end to end: a simulated grid on a real pty, the real link
and its reader thread, the app headless with real touches.

A `PtyGrid` plays the grid behind a symlink (the ``/dev/serial/by-id/...`` name); the app
is the one real (offscreen) window of this process at 800x480. Covering a sensor in the
simulator must show on the map as a difference within a second (measured from the toggle
to the frame that draws it); one tap accepts it as the current player's conquest; pulling
and plugging the cable back recovers on its own, and the home screen's status line says
so; the calibration wizard learns which sensor lies under which region and saves it per
board in the store's settings.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created

from companion.app import open_grid
from companion.grid import differences, recorded_held, setting_key
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.ui.grid import OFFLINE, GridController, refusal_status
from hardware.grid.calibration import Calibration
from hardware.grid.link import refusal_reason
from hardware.grid.protocol import PROTOCOL_VERSION, Hello, ProtocolVersion, Snapshot
from hardware.grid.sim import PtyGrid, SimulatedGrid

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SENSORS = 30  # the 3-player board has 30 regions


@pytest.fixture(scope="module")
def shots() -> Path | None:
    """Where screenshots go when asked for: UI_SCREENSHOTS/grid/live (else none is saved)."""
    keep = os.environ.get("UI_SCREENSHOTS")
    return Path(keep) / "grid" / "live" if keep else None


PATIENCE = 60.0
"""How long `until` waits at most: what takes a second here may take ten on a loaded
machine; a condition met returns at once, so only a failing test waits this long."""


def until(condition: Callable[[], bool], what: str) -> float:
    """Pump frames until `condition` holds; the seconds it took. Fails, saying `what` was
    awaited, after `PATIENCE`."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > PATIENCE:
            raise AssertionError(f"still waiting after {PATIENCE:.0f} s for: {what}")
        ui.pump(1)
        time.sleep(0.005)
    return time.monotonic() - start


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PtyGrid]:
    link = tmp_path_factory.mktemp("dev") / "smallworld-grid"
    with PtyGrid(SimulatedGrid(SENSORS), link=link, heartbeat_interval=0.5) as grid:
        yield grid


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    opened = Store.open(tmp_path_factory.mktemp("db") / "companion.sqlite3")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def app(store: Store) -> Any:
    table_app = ui.app_for(Session(store=store))
    ui.resize((800, 480))
    return table_app


@pytest.fixture(scope="module")
def grid(app: Any, sim: PtyGrid) -> Iterator[GridController]:
    assert sim.link is not None
    # as the composition root starts it, with a quicker reconnection for the test
    controller = open_grid(app, str(sim.link), reconnect_interval=0.3, hello_interval=0.3)
    assert controller is not None
    until(lambda: controller.up and controller.snapshot is not None, "the grid is up")
    yield controller
    controller.close()
    for presenter in app.presenters.values():
        if hasattr(presenter, "grid"):
            presenter.grid = None


def new_game(app: Any, store: Store) -> Session:
    """Three players; Ann has picked her combo and conquers (the 3-player board)."""
    session = Session(load_catalog(), store=store)
    session.begin(created(3, races=("Ratmen",), powers=("Alchemist",)))
    session.pick(0)
    app.use_session(session, screen="map")
    ui.pump()
    return session


def screen(app: Any) -> Any:
    return app.screens[app.ctx.nav.current]


def clear_board(sim: PtyGrid) -> None:
    for sensor in sim.grid.covered():
        sim.grid.set_present(sensor, False)
    sim.send_snapshot()


def sensed_clear(sim: PtyGrid, grid: GridController) -> None:
    """Clear the board and wait until the grid's snapshot says so."""
    clear_board(sim)
    until(lambda: grid.snapshot is not None and not grid.snapshot.covered(), "clear board")


def targets(app: Any) -> list[int]:
    return sorted(app.presenters["map"].highlight)


def test_a_refused_grid_is_told_in_a_few_words_on_the_status_line() -> None:
    def hello(major: int, minor: int) -> Hello:
        return Hello(0, ProtocolVersion(major, minor), "pico", 30)

    newer = refusal_reason(hello(2, 0), "/dev/smallworld-grid")
    older = refusal_reason(hello(0, 9), "/dev/smallworld-grid")
    assert refusal_status(newer) == "Sensor grid: refused: protocol 2.0, update the companion"
    assert refusal_status(older) == "Sensor grid: refused: protocol 0.9, flash the grid's firmware"
    assert refusal_status("odd") == "Sensor grid: refused: odd"


def test_no_port_means_no_grid() -> None:
    assert open_grid(object(), "") is None


def test_differences_count_race_tokens_and_lost_tribes_as_held_and_read_counts() -> None:
    session = Session(load_catalog())
    session.begin(created(3))
    state = session.state
    tribes = recorded_held(state)
    assert tribes and all(state.regions[r].lost_tribe for r in tribes)
    calibration = Calibration.identity("3p", SENSORS)
    counts = tuple(4 if c + 1 == 9 else 0 for c in range(SENSORS))
    covered = tuple(c + 1 == 9 or (c + 1 in tribes and c + 1 != min(tribes))
                    for c in range(SENSORS))
    found = differences(calibration, Snapshot(0, covered, counts), state)
    assert [(d.region, d.kind, d.count) for d in found] == sorted(
        [(9, "added", 4), (min(tribes), "removed", None)])


def test_a_covered_sensor_shows_as_a_difference_on_the_map_within_a_second(
    app: Any, store: Store, sim: PtyGrid, grid: GridController, shots: Path | None
) -> None:
    new_game(app, store)
    clear_board(sim)
    lost_tribes = {rid for rid, here in app.session.state.regions.regions.items()
                   if here.lost_tribe}
    for rid in lost_tribes:  # the Lost Tribes' tokens stand on the board
        sim.grid.set_present(rid, True)
    sim.send_snapshot()
    board = screen(app).ids.board
    until(lambda: not board.differs and grid.snapshot is not None
          and grid.snapshot.covered() == {r - 1 for r in lost_tribes}, "the board matches")

    target = next(r for r in targets(app) if r not in lost_tribes)
    drawn = board.redraws
    started = time.monotonic()
    sim.set_present(target, True)
    took = until(lambda: board.badges.get(target) == "+" and board.redraws > drawn,
                 f"region {target} is drawn as a difference")
    print(f"\ntoggle -> difference drawn on the map: {took * 1000:.0f} ms (settled snapshot "
          f"on the main thread after {(grid.snapshot_at - started) * 1000:.0f} ms)")
    assert target in board.differs
    texts = ui.texts(screen(app))
    assert any(f"Region {target}" in t and "none recorded" in t for t in texts)
    if shots:
        ui.screenshot(shots / "map-difference-800x480.png")


def test_one_tap_accepts_a_difference_as_the_current_players_conquest(
    app: Any, grid: GridController
) -> None:
    board = screen(app).ids.board
    (target,) = board.differs
    accept = ui.button(screen(app), f"grid_accept:{target}")
    assert "Ann conquered it" in accept.text
    ui.tap(accept)
    here = app.session.state.regions[target].occupant
    assert here is not None and here.seat == 0 and here.race == "Ratmen"
    assert here.tokens is not None and here.tokens >= 2
    assert not board.differs and not ui.dialogs()
    assert "matches" in app.presenters["map"].grid_text


def test_a_dismissed_difference_stays_away_until_that_region_changes_again(
    app: Any, sim: PtyGrid, grid: GridController
) -> None:
    board = screen(app).ids.board
    held = {rid for rid, here in app.session.state.regions.regions.items()
            if here.occupant is not None}
    (mine,) = held
    sim.set_present(mine, False)  # Ann's tokens lifted off the board
    until(lambda: board.differs == {mine} and board.badges[mine] == "-", "a '-' difference")
    ui.tap(ui.button(screen(app), f"grid_dismiss:{mine}"))
    assert not board.differs
    before = app.session.state
    sim.set_present(mine, True)
    until(lambda: grid.snapshot is not None and (mine - 1) in grid.snapshot.covered(),
          "the tokens are back")
    assert not board.differs
    sim.set_present(mine, False)
    until(lambda: board.differs == {mine}, "the difference is back after a change")
    assert app.session.state is before  # nothing was recorded by the grid itself
    accept = ui.button(screen(app), f"grid_accept:{mine}")
    assert accept.text == "Ann abandoned it"
    ui.tap(accept)  # the rules refuse: it was conquered this turn
    (dialog,) = ui.dialogs()
    print(f"\nrefused: {dialog.text}")
    assert "abandon" in dialog.text and dialog.text.endswith(".")
    assert app.session.state is before
    ui.tap(dialog.ids.ok)
    assert board.differs == {mine}
    sim.set_present(mine, True)
    until(lambda: not board.differs, "the tokens are back")


def test_a_lost_tribe_gone_from_the_board_is_shown_for_correction_not_abandoned(
    app: Any, sim: PtyGrid, grid: GridController
) -> None:
    board = screen(app).ids.board
    state = app.session.state
    tribe = max(rid for rid, here in state.regions.regions.items() if here.lost_tribe)
    sim.set_present(tribe, False)
    until(lambda: board.differs == {tribe}, "the Lost Tribe's region differs")
    show = ui.button(screen(app), f"grid_show:{tribe}")
    assert show.text == f"Show region {tribe}"
    ui.tap(show)
    assert app.presenters["map"].selected == tribe and board.selected == tribe
    assert ui.button(screen(app), "correct").text == "Correct this region"
    assert app.session.state is state
    sim.set_present(tribe, True)
    until(lambda: not board.differs, "the tribe is back")


def test_a_refused_acceptance_is_a_plain_message_and_changes_nothing(
    app: Any, sim: PtyGrid, grid: GridController
) -> None:
    board = screen(app).ids.board
    state = app.session.state
    far = next(rid for rid in sorted(state.map.regions)
               if rid not in targets(app) and not state.regions[rid].lost_tribe
               and state.regions[rid].occupant is None)
    sim.set_present(far, True)
    until(lambda: far in board.differs, "a region Ann cannot reach")
    ui.tap(ui.button(screen(app), f"grid_accept:{far}"))
    (dialog,) = ui.dialogs()
    assert dialog.text[0].isupper() and dialog.text.endswith(".")
    assert app.session.state is state
    ui.tap(dialog.ids.ok)
    assert far in board.differs
    sim.set_present(far, False)
    until(lambda: far not in board.differs, "the stray token is gone")


def test_unplugging_and_plugging_back_recovers_and_the_status_line_says_so(
    app: Any, sim: PtyGrid, grid: GridController
) -> None:
    app.ctx.nav.go("home")
    ui.pump()
    status = app.screens["home"].ids.status
    assert "Sensor grid: connected, 30 regions" in status.text
    sim.unplug()
    until(lambda: OFFLINE in status.text, "the status line says offline")
    assert app.presenters["map"].differs == frozenset()
    assert "offline" in app.presenters["map"].grid_text
    sim.replug()
    took = until(lambda: "Sensor grid: connected, 30 regions" in status.text,
                 "the status line says connected again")
    print(f"\nreplug -> connected on the status line: {took * 1000:.0f} ms")
    until(lambda: grid.snapshot is not None, "a snapshot after the replug")


def test_an_attached_grid_words_its_own_line_over_the_words_start_up_gave(
    app: Any, grid: GridController
) -> None:
    from companion.app import Devices

    home = app.presenters["home"]
    said = dict(home._say)  # how the shared app's home words its lines, put back after
    try:
        devices = Devices()
        home.say_devices(devices.die_words, devices.grid_words)  # start-up, before the grid
        grid.attach(app.presenters)  # as `open_grid` does once the port opens
        app.ctx.nav.go("home")
        ui.pump()
        assert "Sensor grid: connected, 30 regions" in app.screens["home"].ids.status.text
    finally:
        home._say = said


def test_a_grid_speaking_another_protocol_is_refused_on_the_status_line(
    app: Any, sim: PtyGrid, grid: GridController
) -> None:
    status = app.screens["home"].ids.status
    sim.send(sim.grid.boot(ProtocolVersion(2, 0)))
    until(lambda: "refused" in status.text, "the status line says refused")
    assert "Sensor grid: refused: protocol 2.0, update the companion" in status.text
    assert grid.snapshot is None
    sim.send(sim.grid.boot(PROTOCOL_VERSION))
    until(lambda: "connected" in status.text, "back again")


def test_the_calibration_wizard_assigns_sensors_to_regions_and_saves_them_per_board(
    app: Any, store: Store, sim: PtyGrid, grid: GridController, shots: Path | None
) -> None:
    sensed_clear(sim, grid)
    app.ctx.nav.go("calibration")
    ui.pump()
    p = app.presenters["calibration"]
    assert p.board.name == "3p"  # the board in play
    ui.tap(ui.button(screen(app), "board:2p"))
    assert p.board.name == "2p" and "2-player" in p.title
    ui.tap(ui.button(screen(app), "board:3p"))
    ui.tap(ui.button(screen(app), "start"))
    assert p.running and p.selected == 1 and p.highlight == {1}

    wiring = {1: 30, 2: 29, 3: 28}  # region -> sensor: wired in reverse
    for region, sensor in wiring.items():
        assert p.prompt == f"Put a token on region {region}."
        sim.set_present(sensor, True)  # tokens stay on: only the new sensor counts
        until(lambda r=region: p.selected == r + 1, f"region {region} assigned")
        assert p.badges[region] == str(sensor)
    if shots:
        ui.screenshot(shots / "calibration-800x480.png")

    ui.tap(ui.button(screen(app), "skip"))  # region 4 has no sensor
    assert p.selected == 5
    ui.tap(ui.button(screen(app), "undo"))
    assert p.selected == 4
    sim.set_present(1, True)
    sim.set_present(2, True)  # two new sensors at once: nothing is assigned
    until(lambda: "Several new sensors" in p.detail, "an ambiguous step is told")
    assert p.selected == 4
    sim.set_present(2, False)
    until(lambda: p.selected == 5, "region 4 assigned once one new sensor is left")

    ui.tap(ui.button(screen(app), "done"))
    saved = Calibration.from_dict(store.setting(setting_key("3p")))
    assert dict(saved.regions_by_cell) == {29: 1, 28: 2, 27: 3, 0: 4}
    assert not p.running and "Saved: 4 of 30" in p.detail
    assert grid.calibration_for(app.session.state.map) == saved
    grid.book.forget()  # as after a restart: read back from the store
    assert grid.calibration_for(app.session.state.map) == saved

    # the map now reads the board through it (regions 1-4 only): sensor 30 is region 1
    clear_board(sim)
    app.ctx.nav.go("map")
    ui.pump()
    board = screen(app).ids.board
    held = recorded_held(app.session.state) & {1, 2, 3, 4}
    until(lambda: board.differs == held, "the held regions 1-4 differ on a clear board")
    sim.set_present(30, True)
    until(lambda: board.differs == held ^ {1}, "sensor 30 is region 1")
    clear_board(sim)
    store.delete_setting(setting_key("3p"))
    grid.book.forget()


def test_a_grid_that_changes_size_while_calibrating_stops_the_wizard_in_the_tables_language(
    app: Any, sim: PtyGrid, grid: GridController
) -> None:
    from companion import i18n

    sensed_clear(sim, grid)
    app.ctx.nav.go("calibration")
    ui.pump()
    p = app.presenters["calibration"]
    ui.tap(ui.button(screen(app), "start"))
    assert p.running
    cells = grid.snapshot.cells
    p.observe(Snapshot(seq=1, presence=(False,) * (cells - 1)))  # a grid of another size
    assert not p.running and p.wizard is None
    assert p.detail == (f"The sensor grid now has {cells - 1} sensors, not {cells}: start "
                        "the calibration again.")
    i18n.use("de")
    try:
        p.refresh(app.session.state)
        assert p.detail.startswith(f"Das Sensorraster hat jetzt {cells - 1} Sensoren")
    finally:
        i18n.use(i18n.SOURCE)
        app.ctx.nav.go("home")
        ui.pump()


def test_a_calibration_the_grid_no_longer_fits_is_told_on_the_map_in_the_tables_language(
    app: Any, store: Store, sim: PtyGrid, grid: GridController
) -> None:
    """A board calibrated for a grid of another size: the map says so in the language
    spoken (not the calibration's English) and offers to calibrate again."""
    from companion import i18n

    sensed_clear(sim, grid)
    cells = grid.snapshot.cells
    store.set_setting(setting_key("3p"), Calibration("3p", cells + 1, {0: 1}).to_dict())
    grid.book.forget()
    i18n.use("de")
    try:
        app.ctx.nav.go("map")
        ui.pump()
        p = app.presenters["map"]
        until(lambda: "Sensoren" in p.grid_text, "the map says the grid changed size")
        assert p.grid_text.startswith(
            f"Das Sensorraster hat jetzt {cells} Sensoren")
        assert [a["key"] for a in p.grid_actions] == ["grid_calibrate"]
    finally:
        i18n.use(i18n.SOURCE)
        store.delete_setting(setting_key("3p"))
        grid.book.forget()
        app.ctx.nav.go("home")
        ui.pump()


def test_idle_is_idle_with_the_grid_connected(app: Any, grid: GridController) -> None:
    """The link reads on its own thread; the UI only reacts (no interval, no animation
    once Kivy's scroll bars have faded after the last change)."""
    ui.wait(0.8)  # the last snapshot of the previous test settles, the bars fade
    assert ui.repeating_events(1.0) == []
