"""The power-loss drill's file system model: what a cut leaves on the card.

`drills/volatile.py` is the whole of the drill's FUSE file system except the FUSE calls
themselves, so it is checked here without mounting anything (`make test` may run where
there is no /dev/fuse): a write is kept in memory until the file is flushed, a folder's
entries until the folder is flushed (the ``dirs`` fault), and the ``torn`` fault lands
the first part of the last unsynced page.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from drills.volatile import PAGE, SECTOR, Fault, Folder, Trigger, Volatile  # noqa: E402


def mounted(backing: Path, fault: Fault, seed: int = 0) -> Volatile:
    model = Volatile(Folder(backing), fault, random.Random(seed))
    model.load(backing)
    return model


def test_a_write_not_flushed_is_gone_after_the_cut(tmp_path: Path) -> None:
    model = mounted(tmp_path, Fault.DATA)
    fh = model.create("/game", 0o600)
    model.write(fh, 0, b"confirmed? no")
    assert model.read(fh, 0, 100) == b"confirmed? no"  # the programs see it at once
    model.cut()
    assert (tmp_path / "game").read_bytes() == b""  # its name stays (data fault), not its data


def test_a_flushed_write_survives_the_cut_and_the_next_one_does_not(tmp_path: Path) -> None:
    model = mounted(tmp_path, Fault.DATA)
    fh = model.create("/game", 0o600)
    model.write(fh, 0, b"step 1;")
    model.fsync(model.by_handle(fh))
    model.write(fh, 7, b"step 2;")
    assert (tmp_path / "game").read_bytes() == b"step 1;"  # the backing holds what is durable
    model.cut()
    assert (tmp_path / "game").read_bytes() == b"step 1;"


def test_a_truncation_not_flushed_is_undone(tmp_path: Path) -> None:
    (tmp_path / "wal").write_bytes(b"a" * (3 * PAGE + 10))
    model = mounted(tmp_path, Fault.DATA)
    fh = model.open("/wal")
    model.truncate(model.by_handle(fh), 0)
    model.write(fh, 0, b"new header")
    assert model.read(fh, 0, PAGE) == b"new header"
    model.cut()
    assert (tmp_path / "wal").read_bytes() == b"a" * (3 * PAGE + 10)


def test_with_the_dirs_fault_a_new_file_needs_its_folder_flushed(tmp_path: Path) -> None:
    model = mounted(tmp_path, Fault.DIRS)
    fh = model.create("/backup", 0o600)
    model.write(fh, 0, b"whole")
    model.fsync(model.by_handle(fh))  # the data is durable, its name is not
    assert not (tmp_path / "backup").exists()
    model.fsyncdir("/")
    assert (tmp_path / "backup").read_bytes() == b"whole"
    model.cut()
    assert (tmp_path / "backup").read_bytes() == b"whole"


def test_with_the_dirs_fault_a_rename_and_an_unlink_are_undone_by_the_cut(tmp_path: Path) -> None:
    (tmp_path / "companion.sqlite3").write_bytes(b"the games")
    (tmp_path / "old-backup").write_bytes(b"older")
    model = mounted(tmp_path, Fault.DIRS)
    model.rename("/companion.sqlite3", "/companion.sqlite3.damaged-1")
    model.unlink("/old-backup")
    assert model.listdir("/") == ["companion.sqlite3.damaged-1"]
    model.cut()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["companion.sqlite3", "old-backup"]
    assert (tmp_path / "companion.sqlite3").read_bytes() == b"the games"


def test_with_the_dirs_fault_a_rename_survives_once_the_folder_is_flushed(tmp_path: Path) -> None:
    (tmp_path / "companion.sqlite3").write_bytes(b"the games")
    model = mounted(tmp_path, Fault.DIRS)
    model.rename("/companion.sqlite3", "/companion.sqlite3.damaged-1")
    model.fsyncdir("/")
    model.cut()
    assert [p.name for p in tmp_path.iterdir()] == ["companion.sqlite3.damaged-1"]
    assert (tmp_path / "companion.sqlite3.damaged-1").read_bytes() == b"the games"


def test_a_new_folder_keeps_nothing_until_its_parent_is_flushed(tmp_path: Path) -> None:
    model = mounted(tmp_path, Fault.DIRS)
    model.mkdir("/backups", 0o700)
    fh = model.create("/backups/b1", 0o600)
    model.write(fh, 0, b"backup")
    model.fsync(model.by_handle(fh))
    model.fsyncdir("/backups")  # what the store's backup does: not enough
    assert not (tmp_path / "backups").exists()
    model.fsyncdir("/")  # the parent too: the folder and the backup in it are there
    assert (tmp_path / "backups" / "b1").read_bytes() == b"backup"


def test_with_the_data_fault_folder_entries_are_durable_at_once(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"1")
    model = mounted(tmp_path, Fault.DATA)
    model.rename("/a", "/b")
    model.mkdir("/backups", 0o700)
    model.cut()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "backups"]


def test_the_torn_fault_lands_the_first_sectors_of_the_last_unsynced_page(tmp_path: Path) -> None:
    (tmp_path / "wal").write_bytes(bytes(2 * PAGE))
    model = mounted(tmp_path, Fault.TORN, seed=3)
    fh = model.open("/wal")
    model.write(fh, 0, b"\x01" * PAGE)  # an earlier unsynced write: dropped whole
    model.write(fh, PAGE, b"\x02" * PAGE)  # the last one: lands in part
    torn = model.cut()
    assert torn is not None and torn.path == "/wal" and torn.offset == PAGE
    assert 0 < torn.applied < PAGE and torn.applied % SECTOR == 0
    after = (tmp_path / "wal").read_bytes()
    assert after[:PAGE] == bytes(PAGE)
    assert after[PAGE:PAGE + torn.applied] == b"\x02" * torn.applied
    assert after[PAGE + torn.applied:] == bytes(PAGE - torn.applied)


def test_the_torn_fault_tears_nothing_when_everything_was_flushed(tmp_path: Path) -> None:
    model = mounted(tmp_path, Fault.TORN)
    fh = model.create("/wal", 0o600)
    model.write(fh, 0, b"x" * 1000)
    model.fsync(model.by_handle(fh))
    assert model.cut() is None
    assert (tmp_path / "wal").read_bytes() == b"x" * 1000


def test_the_trigger_fires_before_the_kth_changing_call() -> None:
    trigger = Trigger()
    assert not trigger.fires("write", ["/a"])  # not armed: counted only
    trigger.arm(3)
    fired = [trigger.fires(op, ["/a"]) for op in ("write", "read", "fsync", "rename")]
    assert fired == [False, False, False, True]  # reads are not counted
    assert trigger.total == 4


CALLS = [("write", "/companion.sqlite3-wal"), ("create", "/backups/x.partial"),
         ("write", "/companion.sqlite3-wal"), ("write", "/backups/x.partial"),
         ("fsync", "/companion.sqlite3-wal")]


def test_the_trigger_can_count_only_the_calls_in_a_folder() -> None:
    trigger = Trigger()
    trigger.arm(2, under="/backups")
    assert [trigger.fires(op, [path]) for op, path in CALLS] == [False] * 3 + [True, False]


def test_the_trigger_can_count_only_the_calls_outside_a_folder() -> None:
    trigger = Trigger()
    trigger.arm(3, outside="/backups")
    assert [trigger.fires(op, [path]) for op, path in CALLS] == [False] * 4 + [True]


operations = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.integers(0, 3 * PAGE), st.integers(1, PAGE + 100)),
        st.tuples(st.just("truncate"), st.integers(0, 4 * PAGE), st.just(0)),
        st.tuples(st.just("fsync"), st.just(0), st.just(0)),
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(start=st.integers(0, 2 * PAGE), ops=operations)
def test_the_cut_leaves_exactly_the_content_of_the_last_flush(
    tmp_path_factory: object, start: int, ops: list[tuple[str, int, int]]
) -> None:
    backing = tmp_path_factory.mktemp("backing")  # type: ignore[attr-defined]
    original = bytes((i * 7) % 251 for i in range(start))
    (backing / "f").write_bytes(original)
    model = mounted(backing, Fault.DATA)
    fh = model.open("/f")
    now, durable = bytearray(original), original
    for n, (op, at, size) in enumerate(ops):
        if op == "write":
            chunk = bytes([n % 250 + 1]) * size
            model.write(fh, at, chunk)
            if at > len(now):
                now.extend(bytes(at - len(now)))
            now[at:at + size] = chunk
        elif op == "truncate":
            model.truncate(model.by_handle(fh), at)
            del now[at:]
            now.extend(bytes(at - len(now)))
        else:
            model.fsync(model.by_handle(fh))
            durable = bytes(now)
        assert model.read(fh, 0, 10 * PAGE) == bytes(now)
    model.cut()
    assert (backing / "f").read_bytes() == durable


def test_the_power_loss_drill_is_reported_skipped_with_why_where_fuse_cannot_be_used(
    tmp_path: Path, monkeypatch: object
) -> None:
    from drills import power_loss
    from drills.run import show

    monkeypatch.setattr(power_loss, "unavailable",  # type: ignore[attr-defined]
                        lambda: "no /dev/fuse on this machine")
    drill = power_loss.drill(tmp_path, quick=True)
    assert drill.skipped == "no /dev/fuse on this machine"
    assert not drill.met  # never counted as passed
    assert "SKIPPED" in show(drill) and "no /dev/fuse" in show(drill)
