"""What a memory card holds after the power is cut: the power-loss drill's file system model.

The power-loss drill (`drills/power_loss.py`) mounts a FUSE file system over a backing
folder (`drills/lossy_fs.py`); every call it gets lands here. This module is the whole
model and imports no FUSE binding, so `tests/test_drills_volatile.py` checks it without
mounting anything (CI may have no ``/dev/fuse``).

The model: every file and folder is an inode in memory holding what the programs see now
(`Node.data`); the backing folder holds only what is *durable*, what a card would still
hold after a cut, and is written only when something becomes durable:

- a file's data becomes durable when the file is flushed (``fsync``/``fdatasync``): its
  pages written since the last flush go to the backing file then, never before; until then
  the durable bytes of a page written since are kept aside (`Node.saved`, copied on the
  page's first write), so the durable content is always known;
- a folder's entries (a file created, renamed, deleted; a folder made or removed) become
  durable when the folder itself is flushed (``fsync`` on the folder, FUSE's
  ``fsyncdir``). A file whose name is not durable is not in the backing folder, even when
  its data was flushed: that data waits in memory for the name (`Node.durable`).

Three faults, one per cut (`Fault`):

- ``data``: unsynced data is lost; a folder's entries are durable at once (as a file
  system whose metadata journal commits every change before it returns);
- ``dirs``: unsynced data is lost, and so is every change of a folder's entries since the
  folder was last flushed;
- ``torn``: unsynced data is lost (entries durable at once) except a part of the last
  unsynced page written: the first bytes of the newest unsynced write's last page land,
  cut at a 512-byte sector when the write spans one, else at a random byte.

The cut itself (`Volatile.cut`) drops everything in memory; only the torn part, if any,
is written to the backing folder first. Renaming a folder is refused (the store never
does); hard links and symbolic links are not offered.

`Trigger` counts the calls that change something and says when the cut falls: before
the k-th such call (from when it was armed), optionally counting only those in a folder,
or only those outside it.
"""

from __future__ import annotations

import os
import random
import shutil
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Protocol

PAGE = 4096
SECTOR = 512


class Fault(StrEnum):
    DATA = "data"
    DIRS = "dirs"
    TORN = "torn"


class FsError(OSError):
    """An error the file system answers with (its errno goes back to the caller)."""

    def __init__(self, errno_: int, path: str = "") -> None:
        super().__init__(errno_, os.strerror(errno_), path)


def parent_of(path: str) -> str:
    """The folder holding `path` ("/a/b" -> "/a", "/a" -> "/")."""
    head = path.rsplit("/", 1)[0]
    return head or "/"


def depth(path: str) -> int:
    return 0 if path == "/" else path.count("/")


class Disk(Protocol):
    """The backing folder: the durable image, written only as things become durable."""

    def write_file(self, path: str, content: bytes, mode: int) -> None: ...

    def patch_file(self, path: str, pages: dict[int, bytes], size: int) -> None: ...

    def make_dir(self, path: str, mode: int) -> None: ...

    def remove(self, path: str) -> None: ...

    def set_mode(self, path: str, mode: int) -> None: ...


class Folder:
    """A real backing folder; paths are the file system's ("/backups/x")."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def real(self, path: str) -> Path:
        return self.root / path.lstrip("/") if path != "/" else self.root

    def write_file(self, path: str, content: bytes, mode: int) -> None:
        real = self.real(path)
        if real.is_dir() and not real.is_symlink():
            shutil.rmtree(real)
        with open(real, "wb") as out:
            out.write(content)
        os.chmod(real, stat.S_IMODE(mode))

    def patch_file(self, path: str, pages: dict[int, bytes], size: int) -> None:
        real = self.real(path)
        fd = os.open(real, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            for page, chunk in pages.items():
                if chunk:
                    os.pwrite(fd, chunk, page * PAGE)
            os.ftruncate(fd, size)
        finally:
            os.close(fd)

    def make_dir(self, path: str, mode: int) -> None:
        real = self.real(path)
        if real.exists() and not real.is_dir():
            real.unlink()
        real.mkdir(mode=stat.S_IMODE(mode), exist_ok=True)

    def remove(self, path: str) -> None:
        real = self.real(path)
        if real.is_dir() and not real.is_symlink():
            shutil.rmtree(real)
        else:
            real.unlink(missing_ok=True)

    def set_mode(self, path: str, mode: int) -> None:
        self.real(path).chmod(stat.S_IMODE(mode))


@dataclass
class Node:
    """A file or folder: what programs see now, and what would survive a cut."""

    ino: int
    is_dir: bool
    mode: int
    data: bytearray = field(default_factory=bytearray)
    durable_size: int = 0
    saved: dict[int, bytes] = field(default_factory=dict)
    """The durable bytes of each page written (or cut off) since the last flush."""
    last_write: tuple[int, int] | None = None  # (start, end) of the newest unsynced write
    last_seq: int = 0
    mtime_ns: int = field(default_factory=time.time_ns)
    handles: int = 0

    @property
    def dirty(self) -> bool:
        return bool(self.saved) or self.durable_size != len(self.data)

    def _keep(self, first: int, last: int) -> None:
        """Copy the durable bytes of pages first..last (inclusive) before they change."""
        for page in range(first, last + 1):
            if page not in self.saved:
                self.saved[page] = bytes(self.data[page * PAGE:(page + 1) * PAGE])

    def write(self, offset: int, chunk: bytes, seq: int) -> int:
        if not chunk:
            return 0
        end = offset + len(chunk)
        first = min(offset, len(self.data)) // PAGE
        self._keep(first, (end - 1) // PAGE)
        if offset > len(self.data):
            self.data.extend(bytes(offset - len(self.data)))
        self.data[offset:end] = chunk
        self.last_write, self.last_seq = (offset, end), seq
        self.mtime_ns = time.time_ns()
        return len(chunk)

    def truncate(self, size: int) -> None:
        old = len(self.data)
        if size == old:
            return
        low, high = min(size, old), max(size, old)
        self._keep(low // PAGE, max(low, high - 1) // PAGE)
        if size < old:
            del self.data[size:]
        else:
            self.data.extend(bytes(size - old))
        self.mtime_ns = time.time_ns()

    def durable(self) -> bytes:
        """The content a cut would leave."""
        out = bytearray(self.data[:self.durable_size])
        out.extend(bytes(self.durable_size - len(out)))
        for page, old in self.saved.items():
            start = page * PAGE
            if start < self.durable_size:
                piece = old[:self.durable_size - start]
                out[start:start + len(piece)] = piece
        return bytes(out)

    def flushed(self) -> dict[int, bytes]:
        """Mark everything durable; the pages that changed since the last flush."""
        pages = {page: bytes(self.data[page * PAGE:(page + 1) * PAGE]) for page in self.saved}
        self.saved.clear()
        self.durable_size = len(self.data)
        self.last_write = None
        return pages


@dataclass
class Torn:
    """What a torn write left: `applied` of the `length` bytes of the last page written."""

    path: str
    offset: int
    applied: int
    length: int


class Volatile:
    """The file system's state: names and inodes now, and what is durable (`disk`)."""

    def __init__(self, disk: Disk, fault: Fault, rng: random.Random | None = None) -> None:
        self.disk = disk
        self.fault = Fault(fault)
        self.rng = rng or random.Random()
        self.nodes: dict[int, Node] = {1: Node(1, True, stat.S_IFDIR | 0o755)}
        self.names: dict[str, int] = {"/": 1}
        self.durable_names: dict[str, int] = {"/": 1}
        self.handles: dict[int, int] = {}
        self._next_ino = 2
        self._next_fh = 1
        self._seq = 0

    # -- set-up -------------------------------------------------------------------------
    def load(self, root: Path) -> None:
        """Take the backing folder's files and folders as they are: all durable."""
        for here, dirs, files in os.walk(root):
            rel = "/" + os.path.relpath(here, root).replace(os.sep, "/")
            rel = "/" if rel == "/." else rel
            for name in dirs:
                path = f"{rel.rstrip('/')}/{name}"
                mode = os.lstat(Path(here) / name).st_mode
                self._add(path, Node(self._ino(), True, stat.S_IFDIR | stat.S_IMODE(mode)),
                          durable=True)
            for name in files:
                real = Path(here) / name
                if not real.is_file() or real.is_symlink():
                    continue
                content = real.read_bytes()
                node = Node(self._ino(), False, stat.S_IFREG | stat.S_IMODE(real.stat().st_mode),
                            bytearray(content), len(content))
                self._add(f"{rel.rstrip('/')}/{name}", node, durable=True)

    def _ino(self) -> int:
        self._next_ino += 1
        return self._next_ino - 1

    def _add(self, path: str, node: Node, *, durable: bool = False) -> None:
        self.nodes[node.ino] = node
        self.names[path] = node.ino
        if durable:
            self.durable_names[path] = node.ino

    # -- looking up ---------------------------------------------------------------------
    def node(self, path: str) -> Node:
        ino = self.names.get(path)
        if ino is None:
            raise FsError(2, path)  # ENOENT
        return self.nodes[ino]

    def by_handle(self, fh: int) -> Node:
        ino = self.handles.get(fh)
        if ino is None:
            raise FsError(9)  # EBADF
        return self.nodes[ino]

    def children(self, path: str, names: dict[str, int] | None = None) -> list[str]:
        where = self.names if names is None else names
        return sorted(p for p in where if p != "/" and parent_of(p) == path)

    def listdir(self, path: str) -> list[str]:
        if not self.node(path).is_dir:
            raise FsError(20, path)  # ENOTDIR
        return [p.rsplit("/", 1)[1] for p in self.children(path)]

    # -- changes ------------------------------------------------------------------------
    def _new_entry(self, path: str) -> Node:
        folder = self.names.get(parent_of(path))
        if folder is None or not self.nodes[folder].is_dir:
            raise FsError(2, path)
        if path in self.names:
            raise FsError(17, path)  # EEXIST
        return self.nodes[folder]

    def create(self, path: str, mode: int) -> int:
        """Create an empty file and open it; its handle."""
        self._new_entry(path)
        node = Node(self._ino(), False, stat.S_IFREG | stat.S_IMODE(mode))
        self._add(path, node)
        self._entries_changed(parent_of(path))
        return self._open_node(node)

    def open(self, path: str, truncate: bool = False) -> int:
        node = self.node(path)
        if truncate and not node.is_dir:
            node.truncate(0)
        return self._open_node(node)

    def _open_node(self, node: Node) -> int:
        fh = self._next_fh
        self._next_fh += 1
        self.handles[fh] = node.ino
        node.handles += 1
        return fh

    def release(self, fh: int) -> None:
        ino = self.handles.pop(fh, None)
        if ino is not None:
            node = self.nodes[ino]
            node.handles -= 1
            self._forget(ino)

    def _forget(self, ino: int) -> None:
        """Let go of an inode nothing can reach any more (no name now or after a cut)."""
        node = self.nodes.get(ino)
        if node is None or node.handles > 0 or ino == 1:
            return
        if ino in self.names.values() or ino in self.durable_names.values():
            return
        del self.nodes[ino]

    def mkdir(self, path: str, mode: int) -> None:
        self._new_entry(path)
        self._add(path, Node(self._ino(), True, stat.S_IFDIR | stat.S_IMODE(mode)))
        self._entries_changed(parent_of(path))

    def unlink(self, path: str) -> None:
        node = self.node(path)
        if node.is_dir:
            raise FsError(21, path)  # EISDIR
        del self.names[path]
        self._entries_changed(parent_of(path))
        self._forget(node.ino)

    def rmdir(self, path: str) -> None:
        node = self.node(path)
        if not node.is_dir:
            raise FsError(20, path)
        if self.children(path):
            raise FsError(39, path)  # ENOTEMPTY
        del self.names[path]
        self._entries_changed(parent_of(path))
        self._forget(node.ino)

    def rename(self, old: str, new: str) -> None:
        node = self.node(old)
        if node.is_dir:
            raise FsError(22, old)  # EINVAL: the store never renames a folder
        self._new_entry_for_rename(new)
        replaced = self.names.get(new)
        if replaced is not None and self.nodes[replaced].is_dir:
            raise FsError(21, new)
        del self.names[old]
        self.names[new] = node.ino
        self._entries_changed(parent_of(old))
        if parent_of(new) != parent_of(old):
            self._entries_changed(parent_of(new))
        if replaced is not None and replaced != node.ino:
            self._forget(replaced)

    def _new_entry_for_rename(self, path: str) -> None:
        folder = self.names.get(parent_of(path))
        if folder is None or not self.nodes[folder].is_dir:
            raise FsError(2, path)

    def chmod(self, path: str, mode: int) -> None:
        node = self.node(path)
        node.mode = (node.mode & ~0o7777) | stat.S_IMODE(mode)
        for where in self._durable_paths(node.ino):  # a mode is kept with the inode
            if self._reachable(where):
                self.disk.set_mode(where, mode)

    def write(self, fh: int, offset: int, chunk: bytes) -> int:
        node = self.by_handle(fh)
        self._seq += 1
        return node.write(offset, chunk, self._seq)

    def truncate(self, node: Node, size: int) -> None:
        if node.is_dir:
            raise FsError(21)
        node.truncate(size)

    def read(self, fh: int, offset: int, size: int) -> bytes:
        return bytes(self.by_handle(fh).data[offset:offset + size])

    # -- durability ---------------------------------------------------------------------
    def fsync(self, node: Node) -> None:
        """The file's data is on the card (its name only once its folder is flushed)."""
        if node.is_dir:
            self.fsyncdir(self._path_of(node.ino))
            return
        if not node.dirty:
            return
        size = len(node.data)
        pages = node.flushed()
        for where in self._durable_paths(node.ino):
            if self._reachable(where):
                self.disk.patch_file(where, pages, size)

    def fsyncdir(self, path: str) -> None:
        """The folder's entries as they are now are on the card."""
        changed = []
        for entry in set(self.children(path)) | set(self.children(path, self.durable_names)):
            now, before = self.names.get(entry), self.durable_names.get(entry)
            if now == before:
                continue
            if now is None:
                del self.durable_names[entry]
            else:
                self.durable_names[entry] = now
            changed.append(entry)
            if before is not None:
                self._forget(before)
        for entry in sorted(changed, key=depth):
            self._materialize(entry)

    def _entries_changed(self, folder: str) -> None:
        if self.fault is not Fault.DIRS:
            self.fsyncdir(folder)  # entries durable at once

    def _path_of(self, ino: int) -> str:
        return next((p for p, i in self.names.items() if i == ino), "/")

    def _durable_paths(self, ino: int) -> list[str]:
        return [p for p, i in self.durable_names.items() if i == ino]

    def _reachable(self, path: str) -> bool:
        while path != "/":
            path = parent_of(path)
            if path not in self.durable_names:
                return False
        return True

    def _materialize(self, path: str) -> None:
        """Write the durable state of `path` (and what is under it) to the backing folder."""
        if not self._reachable(path):
            return
        ino = self.durable_names.get(path)
        if ino is None:
            self.disk.remove(path)
            return
        node = self.nodes[ino]
        if node.is_dir:
            self.disk.make_dir(path, node.mode)
            for child in self.children(path, self.durable_names):
                self._materialize(child)
        else:
            self.disk.write_file(path, node.durable(), node.mode)

    # -- the cut ------------------------------------------------------------------------
    def cut(self) -> Torn | None:
        """The power goes: everything not durable is dropped. With the ``torn`` fault, a
        part of the last unsynced page written lands first; what it was, if any."""
        torn = self._tear() if self.fault is Fault.TORN else None
        self.nodes = {}
        self.names = {}
        self.durable_names = {}
        self.handles = {}
        return torn

    def _tear(self) -> Torn | None:
        pending = [n for n in self.nodes.values() if n.last_write is not None and n.dirty]
        if not pending:
            return None
        node = max(pending, key=lambda n: n.last_seq)
        assert node.last_write is not None
        start, end = node.last_write
        page_start = max(start, ((end - 1) // PAGE) * PAGE)
        length = end - page_start
        if length < 2:
            return None
        sectors = [s for s in range(page_start + 1, end) if s % SECTOR == 0]
        cut_at = self.rng.choice(sectors) if sectors else self.rng.randrange(page_start + 1, end)
        durable = bytearray(node.durable())
        if len(durable) < cut_at:
            durable.extend(bytes(cut_at - len(durable)))
        durable[page_start:cut_at] = node.data[page_start:cut_at]
        paths = [p for p in self._durable_paths(node.ino) if self._reachable(p)]
        for where in paths:
            self.disk.write_file(where, bytes(durable), node.mode)
        return Torn(paths[0] if paths else self._path_of(node.ino), page_start,
                    cut_at - page_start, length)


# The calls that change something, which the trigger counts.
CHANGING = frozenset({"create", "mkdir", "unlink", "rmdir", "rename", "write", "truncate",
                      "fsync", "fsyncdir", "chmod"})


@dataclass
class Trigger:
    """Says when the cut falls: before the `at`-th changing call counted from when it was
    armed; with `under`, only the calls on a path in that folder are counted, with
    `outside`, only those on no path in it."""

    at: int | None = None
    under: str | None = None
    outside: str | None = None
    counted: int = 0
    total: int = 0

    def arm(self, at: int, under: str | None = None, outside: str | None = None) -> None:
        self.at, self.under, self.outside, self.counted = at, under, outside, 0

    def fires(self, op: str, paths: Iterable[str]) -> bool:
        """Count the call `op` on `paths`; whether the cut falls before it."""
        if op not in CHANGING:
            return False
        self.total += 1
        if self.at is None:
            return False
        paths = list(paths)
        if self.under is not None and not any(_under(p, self.under) for p in paths):
            return False
        if self.outside is not None and any(_under(p, self.outside) for p in paths):
            return False
        self.counted += 1
        return self.counted >= self.at


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")

