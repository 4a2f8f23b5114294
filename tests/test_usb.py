"""A copy of the saved games on a USB stick: sticks found from a made-up /sys/block tree
and mounts table, and real copies written into a directory standing for the stick (a
read-only one, a full one, a copy damaged on purpose), checked by reading them back.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from factories import created, play_turn
from usb_support import disk, mounts_file, read_only

from companion.session import Session
from companion.store import Store
from companion.usb import FOLDER, CopyFailed, counts, find_sticks, read_mounts, save_copy

SYSTEM = ["/dev/mmcblk0p2 / ext4 rw,noatime 0 0",
          "/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0",
          "proc /proc proc rw 0 0"]


def test_a_mounted_stick_is_found_with_its_label_and_where_it_is(tmp_path: Path) -> None:
    sys_block = tmp_path / "sys"
    disk(sys_block, "mmcblk0", removable=False, partitions=2)
    disk(sys_block, "sda")
    mounts = mounts_file(tmp_path, [*SYSTEM,
                                    r"/dev/sda1 /media/pi/MY\040STICK vfat rw,nosuid 0 0"])
    [stick] = find_sticks(sys_block, mounts)
    assert stick.device == "/dev/sda1" and stick.disk == "/dev/sda"
    assert stick.name == "MY STICK"
    assert stick.mount is not None and stick.mount.point == Path("/media/pi/MY STICK")
    assert not stick.mount.read_only


def test_an_unmounted_stick_is_found_by_its_model_and_one_on_the_usb_bus_counts(
    tmp_path: Path,
) -> None:
    sys_block = tmp_path / "sys"
    real = tmp_path / "devices" / "platform" / "usb1" / "1-1" / "sdb"
    disk(real.parent, "sdb", removable=False, partitions=0, model="Flash Disk")
    sys_block.mkdir()
    (sys_block / "sdb").symlink_to(real)
    [stick] = find_sticks(sys_block, mounts_file(tmp_path, SYSTEM))
    assert (stick.device, stick.name, stick.mount) == ("/dev/sdb", "SanDisk Flash Disk", None)


def test_no_stick_when_nothing_removable_is_in_or_the_reader_is_empty(tmp_path: Path) -> None:
    sys_block = tmp_path / "sys"
    disk(sys_block, "mmcblk0", removable=False, partitions=2)
    disk(sys_block, "sdc", size="0")  # a card reader with no card
    assert find_sticks(sys_block, mounts_file(tmp_path, SYSTEM)) == []
    assert find_sticks(tmp_path / "no-sys", tmp_path / "no-mounts") == []


def test_the_drive_the_system_runs_from_is_never_offered(tmp_path: Path) -> None:
    sys_block = tmp_path / "sys"
    disk(sys_block, "sda", partitions=2)  # a Pi booted from a USB drive
    mounts = mounts_file(tmp_path, ["/dev/sda2 / ext4 rw 0 0",
                                    "/dev/sda1 /boot/firmware vfat rw 0 0"])
    assert find_sticks(sys_block, mounts) == []


def test_the_drive_holding_the_saved_games_is_never_offered(tmp_path: Path) -> None:
    sys_block = tmp_path / "sys"
    disk(sys_block, "sda")
    disk(sys_block, "sdb")
    mounts = mounts_file(tmp_path, [*SYSTEM, "/dev/sda1 /srv/table ext4 rw 0 0",
                                    "/dev/sdb1 /media/pi/STICK vfat rw 0 0"])
    games = Path("/srv/table/companion/companion.sqlite3")
    assert [s.device for s in find_sticks(sys_block, mounts)] == ["/dev/sda1", "/dev/sdb1"]
    assert [s.device for s in find_sticks(sys_block, mounts, keep_off=[games])] == \
        ["/dev/sdb1"]


def test_a_stick_mounted_read_only_is_marked_so(tmp_path: Path) -> None:
    mounts = mounts_file(tmp_path, ["/dev/sda1 /media/pi/OLD vfat ro,nosuid 0 0"])
    assert read_mounts(mounts)["/dev/sda1"].read_only


@pytest.fixture
def backup(tmp_path: Path) -> Path:
    with Store.open(tmp_path / "data" / "companion.sqlite3") as store:
        session = Session(rng=random.Random(3), store=store)
        session.begin(created(3))
        for _ in range(3):
            play_turn(session, coins=2)
        path = store.backup()
    assert path is not None
    return path


def test_the_copy_lands_in_its_folder_on_the_stick_and_reads_back_the_same(
    tmp_path: Path, backup: Path,
) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()
    copy = save_copy(backup, stick)
    assert copy == stick / FOLDER / backup.name
    assert copy.read_bytes() == backup.read_bytes()
    games, events = counts(copy)
    assert games == 1 and events > 3
    assert sorted(p.name for p in (stick / FOLDER).iterdir()) == [backup.name]  # no leftovers


def test_a_copy_that_reads_back_damaged_is_caught_and_removed(
    tmp_path: Path, backup: Path,
) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()

    def damage(copy: Path) -> None:  # what a failing stick hands back
        data = bytearray(copy.read_bytes())
        page = 4096
        data[page:page * 3] = bytes(range(256)) * (page * 2 // 256)
        copy.write_bytes(bytes(data))

    with pytest.raises(CopyFailed) as failed:
        save_copy(backup, stick, _after_write=damage)
    assert failed.value.reason == "verify"
    assert "did not read back the same" in str(failed.value)
    assert list((stick / FOLDER).iterdir()) == []


def test_a_copy_missing_events_is_caught_too(tmp_path: Path, backup: Path) -> None:
    import sqlite3

    stick = tmp_path / "stick"
    stick.mkdir()

    def lose_an_event(copy: Path) -> None:  # sound as SQLite sees it, but not the same
        conn = sqlite3.connect(copy)
        conn.execute("DELETE FROM events WHERE (game_id, step, seq) = (SELECT game_id, step, "
                     "seq FROM events ORDER BY game_id DESC, step DESC, seq DESC LIMIT 1)")
        conn.commit()
        conn.close()

    with pytest.raises(CopyFailed) as failed:
        save_copy(backup, stick, _after_write=lose_an_event)
    assert failed.value.reason == "verify" and "events instead of" in str(failed.value)
    assert list((stick / FOLDER).iterdir()) == []


def test_a_read_only_stick_is_reported_and_nothing_is_written(
    tmp_path: Path, backup: Path,
) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()
    with read_only(stick), pytest.raises(CopyFailed) as failed:
        save_copy(backup, stick)
    assert failed.value.reason == "read-only"
    assert "cannot be written" in str(failed.value)
    assert list(stick.iterdir()) == []


def test_a_full_stick_is_reported_and_the_partial_copy_removed(
    tmp_path: Path, backup: Path,
) -> None:
    stick = tmp_path / "stick"
    (stick / FOLDER).mkdir(parents=True)
    # /dev/full takes the place of the copy's partial file: every write fails "no space".
    (stick / FOLDER / (backup.name + ".partial")).symlink_to("/dev/full")
    with pytest.raises(CopyFailed) as failed:
        save_copy(backup, stick)
    assert failed.value.reason == "full"
    assert "The stick is full" in str(failed.value)
    assert list((stick / FOLDER).iterdir()) == []
