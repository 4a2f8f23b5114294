"""The backlight, on a folder laid out like /sys/class/backlight."""

from __future__ import annotations

from pathlib import Path

from hardware.backlight import Backlight


def panel(root: Path, name: str = "10-0045", maximum: int = 255, level: int = 200) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "max_brightness").write_text(f"{maximum}\n")
    (folder / "brightness").write_text(f"{level}\n")
    return folder


def test_no_backlight_where_the_panel_has_none(tmp_path: Path) -> None:
    assert Backlight.find(tmp_path) is None


def test_a_percentage_is_set_on_the_panels_scale(tmp_path: Path) -> None:
    folder = panel(tmp_path)
    light = Backlight.find(tmp_path)
    assert light is not None and light.level == 200
    assert light.set_percent(20)
    assert (folder / "brightness").read_text() == "51\n"
    assert light.set_percent(0) and light.level == 1  # never fully dark


def test_an_unwritable_backlight_says_so(tmp_path: Path) -> None:
    folder = panel(tmp_path)
    light = Backlight.find(tmp_path)
    assert light is not None
    (folder / "brightness").unlink()
    (folder / "brightness").mkdir()  # writing now fails, as on a read-only sysfs file
    assert not light.set_percent(50)
