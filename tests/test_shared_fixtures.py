"""The fixtures `conftest.py` shares give what they say: a mock pin factory in use, a real
SQLite store on the test's own file, the one headless app."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import mock_pins

from companion.store import Store


def test_the_pin_factory_is_gpiozeros_mock_and_in_use(pin_factory: Any) -> None:
    from gpiozero import Button, Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    assert isinstance(pin_factory, MockFactory) and Device.pin_factory is pin_factory
    with Button(17) as button:  # made on the mock factory without naming it
        pin_factory.pin(17).drive_low()
        assert button.is_pressed


def test_leaving_the_mock_pins_releases_a_device_left_open_and_restores_the_factory() -> None:
    from gpiozero import Button, Device

    before = Device.pin_factory
    with mock_pins() as factory:
        Button(17)  # never closed: leaving must release it
        assert factory.pins and Device.pin_factory is factory
    assert factory.pins == {} and Device.pin_factory is before


def test_the_store_is_a_real_sqlite_file_in_the_tests_own_directory(
    store: Store, store_path: Path, tmp_path: Path
) -> None:
    store.add_profile("Ann", "blue")
    assert [p.name for p in store.profiles()] == ["Ann"]
    assert store_path.parent == tmp_path
    with closing(sqlite3.connect(store_path)) as conn:  # another connection sees it saved
        names = [row[0] for row in conn.execute("SELECT name FROM players")]
    assert names == ["Ann"]


def test_the_headless_app_is_the_one_app_of_the_process_at_800_by_480(headless_app: Any) -> None:
    import ui_support

    assert ui_support.app_for(headless_app.session) is headless_app
    assert tuple(ui_support.window().size) == (800, 480)
    assert headless_app.ctx.nav.current == "home"


def test_the_headless_app_draws_its_frames_uncapped(headless_app: Any) -> None:
    """No 60 fps cap in the tests (conftest.py): a pumped frame never sleeps for a tick."""
    import ui_support
    from kivy.clock import Clock

    assert Clock._max_fps == 0
    ticks = Clock.frames
    ui_support.pump(100)
    assert Clock.frames >= ticks + 100


def test_a_frame_read_in_memory_is_the_picture_a_screenshot_saves(
        headless_app: Any, tmp_path: Path) -> None:
    """`ui_support.frame` stands for the PNG in the checks: the same pixels, not blank."""
    import ui_support
    from kivy.core.image import Image as CoreImage

    frame = ui_support.frame()
    assert (frame.width, frame.height) == (800, 480) and frame.colours() >= 16
    path = ui_support.screenshot(tmp_path / "home.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    texture = CoreImage(str(path), keep_data=True, nocache=True).texture
    saved = bytes(texture.pixels)  # RGBA, the top row first
    for x in range(0, 800, 37):
        for y in range(0, 480, 23):
            i = ((479 - y) * 800 + x) * 4
            assert tuple(saved[i:i + 3]) == frame.pixel(x, y), (x, y)


def test_a_held_kivy_clock_moves_only_as_the_test_draws_and_waits(
        headless_app: Any, kivy_clock: None) -> None:
    import ui_support
    from kivy.clock import Clock

    fired: list[float] = []
    start = Clock.get_time()
    Clock.schedule_once(fired.append, 1.0)
    ui_support.pump(3)  # three frames, a frame's time each, whatever they took
    assert Clock.get_time() - start == pytest.approx(3 * ui_support.FRAME_SECONDS)
    ui_support.wait(0.7)
    assert fired == []  # held: not a second yet, however slowly those frames came
    ui_support.wait(0.3)
    assert len(fired) == 1


def test_conftest_marks_the_tests_that_draw_and_those_that_start_processes(
        request: pytest.FixtureRequest) -> None:
    import conftest

    assert request.node.get_closest_marker("window") is not None  # this file draws
    assert request.node.get_closest_marker("child") is None
    tests = Path(__file__).parent
    durability = conftest._text(tests / "test_store_durability.py")  # kills children
    assert any(word in durability for word in conftest.CHILD_WORDS)
    market = conftest._text(tests / "test_rules_market.py")  # pure rules: in make check
    assert not any(word in market for word in conftest.WINDOW_WORDS + conftest.CHILD_WORDS)
