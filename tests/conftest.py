"""Shared by every test: each test leaves the garbage collector as it found it; and the
fixtures several test files use.

- `pin_factory`: gpiozero's `MockFactory`, set as `Device.pin_factory` for the test, then
  reset (every pin released) and the previous factory put back.
- `store_path` and `store`: a real SQLite file in the test's temporary directory, and the
  store opened on it (on the packaged catalog), closed after the test.
- `headless_app`: the process's one headless Kivy app (`ui_support.app_for`) playing a new
  game session, in an 800x480 window.
- `kivy_clock`: Kivy's clock held still during the test, moved on only by the test's own
  waits (`ui_support.held_clock`): no timer fires early or late on a loaded machine.

Each imports its library when used, so a test that uses none of them loads no Kivy,
gpiozero or SQLite.

The app's memory policy (`companion.ui.memory`) freezes the heap and stops automatic full
collections once its last screen is built, and `run_app` turns collection off until then;
the tests share one process, so without this the tests after that moment would run
without full collections.

`make test` runs the tests in one process per core (pytest-xdist's workers, ``-n auto``):
each worker gets a Kivy home and a data directory of its own (``$KIVY_HOME/gw0``,
``$XDG_DATA_HOME/gw0``..., set here before any test module imports Kivy).

Hypothesis holds no test to a time (``deadline=None``, no ``too_slow`` health check): a
loaded machine's slow example is not a failure (the profile ``any-speed``, loaded here).

The tests run in English whatever the machine's locale (``LANGUAGE=en``, inherited by the
app processes some tests start): a test that wants another language chooses it.

Frames are uncapped (``KCFG_GRAPHICS_MAXFPS=0``, set here before any test module imports
Kivy, and inherited by the Kivy processes the tests start): Kivy's clock would otherwise
sleep to hold 60 frames a second, about 17 ms of every pumped frame, for nothing a test
checks. The kiosk's own setting (``maxfps`` in ``deploy/kivy-pi.ini``) is tested where the
shipped config is: those children drop every ``KCFG_*`` (tests/test_deploy.py).
"""

from __future__ import annotations

import gc
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("any-speed", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any-speed")
os.environ["LANGUAGE"] = "en"  # the app's "auto" language reads it (companion.i18n)
os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")  # frames as fast as they come
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1... under `pytest -n`
if _WORKER:  # Kivy reads its home when imported; it makes only the last directory itself
    for _name in ("KIVY_HOME", "XDG_DATA_HOME"):
        if os.environ.get(_name):
            os.environ[_name] = os.path.join(os.environ[_name], _WORKER)
            os.makedirs(os.environ[_name], exist_ok=True)


WINDOW_FIXTURES = frozenset({"headless_app", "kivy_clock"})
WINDOW_WORDS = ("ui_support", "screenshots", "SDL_VIDEODRIVER", "bench")
CHILD_WORDS = ("subprocess", "sys.executable", "drills")
_texts: dict[Path, str] = {}
SLOWEST_FIRST = {name: rank for rank, name in enumerate((
    "test_ui_screens_languages.py", "test_ui_screens.py", "test_explore.py",
    "test_ui_memory.py", "test_bench_smoke.py", "test_ui_game_languages.py",
    "test_rules_troops.py", "test_ui_troops_game.py", "test_ui_grid.py",
    "test_ui_lifecycle.py", "test_ui_seats.py", "test_ui_players_history.py",
    "test_ui_game.py", "test_ui_language_setup.py", "test_ui_new_game_boards.py",
    "test_notify.py", "test_ui_grid_layout.py", "test_ui_screens_alone.py",
    "test_ui_team_game.py", "test_ui_river_game.py", "test_store_durability.py"))}
"""The test files that take longest (from 2 min down to about 10 s each on two busy
cores, `--durations`), longest first."""


def _text(path: Path) -> str:
    if path not in _texts:
        _texts[path] = path.read_text(encoding="utf-8")
    return _texts[path]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "window: draws screens or starts Kivy (set by conftest; `make check` "
        "leaves these out)")
    config.addinivalue_line(
        "markers", "child: in a file whose tests start other processes (set by conftest; "
        "`make check` leaves these out)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `window` every test that needs one: in a `test_ui_*` file, in a file naming one
    of `WINDOW_WORDS`, or using a fixture of `WINDOW_FIXTURES`; and `child` every test of a
    file naming one of `CHILD_WORDS`. `make check` runs the others, `make test` all.

    The files of `SLOWEST_FIRST` run first, in that order, the others after them as found:
    `make test`'s workers (``-n auto --dist loadfile``) each take the next file when done,
    so the longest files, started first, end long before the last short one."""
    items.sort(key=lambda item: SLOWEST_FIRST.get(item.path.name, len(SLOWEST_FIRST)))
    for item in items:
        text = _text(item.path)
        if (item.path.name.startswith("test_ui_") or any(w in text for w in WINDOW_WORDS)
                or WINDOW_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.window)
        if any(word in text for word in CHILD_WORDS):
            item.add_marker(pytest.mark.child)


@pytest.fixture(autouse=True)
def english_again() -> Iterator[None]:
    """A test that switched the language leaves the next one in English (`companion.i18n`,
    loaded only by tests that use it)."""
    yield
    import sys

    i18n = sys.modules.get("companion.i18n")
    if i18n is not None and i18n.language() != i18n.SOURCE:
        i18n.use(i18n.SOURCE)


@pytest.fixture(autouse=True)
def collector_as_found() -> Iterator[None]:
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count()
    enabled = gc.isenabled()
    yield
    if enabled and not gc.isenabled():
        gc.enable()
    if gc.get_threshold() != thresholds:
        gc.set_threshold(*thresholds)
    if gc.get_freeze_count() > frozen:
        gc.unfreeze()


@contextmanager
def mock_pins() -> Iterator[Any]:
    """gpiozero's MockFactory as the pin factory while inside; on leaving, its pins are
    released (devices left open included) and the previous factory is put back."""
    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def pin_factory() -> Iterator[Any]:
    """gpiozero's MockFactory as the pin factory of every device made during the test."""
    with mock_pins() as factory:
        yield factory


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """Where the test's saved-games file is (not made until a store opens it)."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(store_path: Path) -> Iterator[Any]:
    """A `companion.store.Store` on a fresh SQLite file, closed after the test."""
    from companion.rules.catalog import load_catalog
    from companion.store import Store

    with Store.open(store_path, catalog=load_catalog()) as opened:
        yield opened


@pytest.fixture
def kivy_clock() -> Iterator[None]:
    """Kivy's clock held still for the test (`ui_support.held_clock`): it moves only when
    the test waits (`ui_support.wait`), so timers fire when the test says, however loaded
    the machine is; and waiting costs no real time."""
    import ui_support

    with ui_support.held_clock():
        yield


@pytest.fixture
def headless_app() -> Any:
    """The one headless app of the process, playing a new session (seed 7), at 800x480."""
    import ui_support

    from companion.session import Session

    app = ui_support.app_for(Session(rng=random.Random(7)))
    ui_support.resize((800, 480))
    return app


@pytest.fixture
def upright(headless_app: Any) -> Iterator[Any]:
    """The headless app on the 7-inch panel upright, 480x800; back to 800x480 after."""
    import ui_support

    ui_support.resize((480, 800))
    try:
        yield headless_app
    finally:
        ui_support.close_dialogs()
        ui_support.resize((800, 480))
