"""Settings, "Save a copy to a USB stick": the real settings screen, headless at 800x480,
on a real saved-games file, with a made-up /sys/block tree and mounts table and a
directory standing for the stick; a fake ``udisksctl`` first on PATH mounts an unmounted
stick (it makes the directory and says where, as udisks2 does) and logs what it is asked.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created, play_turn
from usb_support import disk, mounts_file, read_only

from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.ui.widgets import MessageDialog
from companion.usb import FOLDER, counts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FAKE_UDISKSCTL = """#!/bin/sh
printf '%s\\n' "$*" >> "{log}"
if [ "$1" = mount ] && [ -e "{refuse}" ]; then
    echo "Error mounting $4: GDBus.Error:org.freedesktop.UDisks2.Error.NotAuthorized" >&2
    exit 1
fi
if [ "$1" = mount ]; then
    mkdir -p "{media}/KINGSTON"
    echo "Mounted $4 at {media}/KINGSTON"
fi
"""


class Settings:
    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        self.log = tmp_path / "udisksctl.log"
        self.media = tmp_path / "media"
        fake = bin_dir / "udisksctl"
        self.refuse = tmp_path / "refuse"
        fake.write_text(FAKE_UDISKSCTL.format(log=self.log, media=self.media,
                                              refuse=self.refuse))
        fake.chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        self.tmp = tmp_path
        self.sys_block = tmp_path / "sys"
        self.sys_block.mkdir()
        self.store = Store.open(tmp_path / "games.sqlite3")
        self.session = Session(load_catalog(), rng=random.Random(1), store=self.store)
        self.session.begin(created(3))
        play_turn(self.session, coins=2)
        self.app = ui.app_for(self.session)
        ui.resize((800, 480))
        self.presenter = self.app.presenters["settings"]
        self.presenter.sys_block = self.sys_block
        self.presenter.mounts = mounts_file(tmp_path, [])
        self.app.ctx.nav.go("settings")
        ui.pump()
        self.screen = self.app.screens["settings"]

    def mounted_at(self, point: Path, options: str = "rw,nosuid") -> None:
        disk(self.sys_block, "sda")
        self.presenter.mounts = mounts_file(self.tmp, [
            "/dev/mmcblk0p2 / ext4 rw 0 0", f"/dev/sda1 {point} vfat {options} 0 0"])

    def save(self) -> tuple[str, str]:
        button = self.screen.ids.usb
        self.screen.ids.scroll.scroll_to(button, animate=False)
        ui.pump()
        ui.tap(button)
        [dialog] = ui.dialogs()
        assert isinstance(dialog, MessageDialog)
        said = (dialog.title, dialog.text)
        assert ui.layout_problems(dialog) == []
        ui.tap(dialog.ids.ok)
        return said

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    s = Settings(tmp_path, monkeypatch)
    yield s
    ui.close_dialogs()
    s.app.ctx.nav.go("home")
    s.store.close()


def test_a_mounted_stick_gets_a_checked_copy_of_the_games(settings: Settings) -> None:
    stick = settings.tmp / "STICK"
    stick.mkdir()
    settings.mounted_at(stick)
    title, text = settings.save()
    [copy] = (stick / FOLDER).iterdir()
    assert title == "Saved on the stick"
    assert text == f"Saved {copy.name} on the stick STICK; you can take it out now."
    assert counts(copy) == counts(settings.store.backups()[-1])
    assert counts(copy)[1] > 0
    assert settings.calls() == []  # the app did not mount it, so it leaves it mounted


def test_an_unmounted_stick_is_mounted_copied_to_then_unmounted_and_powered_off(
    settings: Settings,
) -> None:
    disk(settings.sys_block, "sda")
    _, text = settings.save()
    assert settings.calls() == ["mount --no-user-interaction -b /dev/sda1",
                                "unmount --no-user-interaction -b /dev/sda1",
                                "power-off --no-user-interaction -b /dev/sda"]
    [copy] = (settings.media / "KINGSTON" / FOLDER).iterdir()
    assert text == f"Saved {copy.name} on the stick KINGSTON; you can take it out now."


def test_a_stick_that_cannot_be_mounted_is_said_and_left_alone(settings: Settings) -> None:
    disk(settings.sys_block, "sda")
    settings.refuse.touch()
    title, text = settings.save()
    assert title == "Not saved on a stick"
    assert text == ("Nothing was saved on the stick SanDisk Cruzer Blade. The stick could "
                    "not be opened (/dev/sda1): Error mounting /dev/sda1: "
                    "GDBus.Error:org.freedesktop.UDisks2.Error.NotAuthorized")
    assert settings.calls() == ["mount --no-user-interaction -b /dev/sda1"]  # no unmount


def test_no_stick_is_said_plainly(settings: Settings) -> None:
    disk(settings.sys_block, "mmcblk0", removable=False)
    title, text = settings.save()
    assert title == "Not saved on a stick"
    assert text.startswith("No USB stick found. Put one in a USB port")


def test_a_read_only_stick_is_said_and_the_app_carries_on(settings: Settings) -> None:
    stick = settings.tmp / "LOCKED"
    stick.mkdir()
    settings.mounted_at(stick)
    with read_only(stick):
        title, text = settings.save()
    assert title == "Not saved on a stick"
    assert text.startswith("Nothing was saved on the stick LOCKED. The stick cannot be "
                           "written (read-only")
    assert list(stick.iterdir()) == []
    play_turn(settings.session, coins=1)  # the game goes on, saved as before


def test_a_stick_mounted_read_only_is_not_even_tried(settings: Settings) -> None:
    stick = settings.tmp / "OLD"
    stick.mkdir()
    settings.mounted_at(stick, options="ro,nosuid")
    _, text = settings.save()
    assert text.startswith("The stick OLD is read-only")
    assert list(stick.iterdir()) == []


def test_the_button_fits_the_screen(settings: Settings) -> None:
    assert ui.layout_problems(settings.screen) == []
    assert settings.screen.ids.usb.text == "Save a copy to a USB stick"
