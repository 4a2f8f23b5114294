"""The fixtures `conftest.py` shares give what they say: a mock pin factory in use, a real
SQLite store on the test's own file, the one headless app."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from companion.store import Store


def test_the_pin_factory_is_gpiozeros_mock_and_in_use(pin_factory: Any) -> None:
    from gpiozero import Button, Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    assert isinstance(pin_factory, MockFactory) and Device.pin_factory is pin_factory
    with Button(17) as button:  # made on the mock factory without naming it
        pin_factory.pin(17).drive_low()
        assert button.is_pressed


SEEN: list[Any] = []  # the factory the next test used, to look at once it is over


def test_a_pin_factory_left_with_a_device_open(pin_factory: Any) -> None:
    from gpiozero import Button

    SEEN.append(pin_factory)
    Button(17)  # never closed: the fixture's reset must release it
    assert pin_factory.pins


def test_that_factory_was_reset_and_the_previous_one_put_back() -> None:
    from gpiozero import Device

    if not SEEN:
        pytest.skip("looks at what the test before it left; run with it")
    (used,) = SEEN
    assert used.pins == {} and Device.pin_factory is not used


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
