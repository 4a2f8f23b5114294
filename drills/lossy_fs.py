"""The power-loss drill's FUSE file system: a backing folder that loses what was not flushed.

    python drills/lossy_fs.py BACKING MOUNT --fault data|dirs|torn [--seed N]

Mounts MOUNT (in the foreground) showing the files of BACKING; every call goes to the model
of `drills/volatile.py`, which keeps each write in memory until the file is flushed, and
each change of a folder's entries until the folder is flushed (with the ``dirs`` fault),
and writes BACKING only with what has become durable. So BACKING is at every moment what
a card would hold if the power went then.

The parent (`drills/power_loss.py`) talks to it on its standard input and output, a line
each way:

- ``count`` -> ``count N``: the calls that changed something so far;
- ``arm K [under FOLDER | outside FOLDER]`` -> ``armed``: the cut falls before the K-th
  changing call from now (counting only the calls on a path in FOLDER, or only those on
  no path in it, when given). Then, inside that call, the process that
  made it is killed (SIGKILL: it never runs again, as at a power cut), the file system
  freezes (every later call answers EIO: nothing more is written), everything not durable
  is dropped (with the ``torn`` fault, part of the last unsynced page lands first), and it
  says ``cut N OP PATH TORN`` (TORN: ``-``, or ``PATH@OFFSET:APPLIED/LENGTH``);
- ``cut`` -> the same at once, whoever is writing (``cut N manual - TORN``).

After a cut the parent unmounts (``fusermount3 -u -z``); the process then exits. With its
standard input closed it cuts, unmounts and exits by itself.

The binding: mfusepy (PyPI), a maintained fork of fusepy: ctypes bindings to the
high-level API of the distribution's libfuse3 (Debian's ``fuse3``/``libfuse3-3``), pure
Python, so nothing is compiled and nothing else is pulled in. pyfuse3 needs a C build
against ``libfuse3-dev`` and runs on trio (an async loop the drill does not need);
fuse-python builds against libfuse too and follows the libfuse 2 API first; fusepy
itself has had no release since 2018 and knows only libfuse 2. mfusepy looks for libfuse
2 first: ``FUSE_LIBRARY_NAME=fuse3`` (set here) makes it take libfuse3.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from drills.volatile import Fault, Folder, FsError, Node, Torn, Trigger, Volatile  # noqa: E402

os.environ.setdefault("FUSE_LIBRARY_NAME", "fuse3")


def load_binding() -> Any:
    """The mfusepy module on libfuse3; raises ImportError or OSError saying why not."""
    import mfusepy

    if getattr(mfusepy, "fuse_version_major", None) != 3:
        raise ImportError(f"mfusepy found libfuse {mfusepy.fuse_version_major}, not libfuse3")
    return mfusepy


def unmount(mount: Path) -> None:
    """Detach the mount (lazily: a dead server's mount goes as well)."""
    tool = shutil.which("fusermount3") or shutil.which("fusermount")
    command = [tool, "-u", "-z", str(mount)] if tool else ["umount", "-l", str(mount)]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def torn_text(torn: Torn | None) -> str:
    if torn is None:
        return "-"
    return f"{torn.path}@{torn.offset}:{torn.applied}/{torn.length}"


def make_operations(mfusepy: Any, model: Volatile, trigger: Trigger) -> Any:
    """The FUSE operations over `model` (a class of mfusepy's `Operations`)."""

    class LossyFS(mfusepy.Operations):  # type: ignore[misc]
        use_ns = True

        def __init__(self) -> None:
            self.mutex = threading.Lock()
            self.frozen = False
            self.say_lock = threading.Lock()

        # -- the parent's line -----------------------------------------------------------
        def say(self, line: str) -> None:
            with self.say_lock, contextlib.suppress(OSError):  # the parent may be gone
                sys.stdout.write(line + "\n")
                sys.stdout.flush()

        def cut(self, op: str, path: str, pid: int) -> None:
            """The power goes now (with the lock held)."""
            if self.frozen:
                return
            self.frozen = True
            if pid > 0 and pid != os.getpid():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            torn = model.cut()
            self.say(f"cut {trigger.total} {op} {path or '-'} {torn_text(torn)}")

        def gate(self, op: str, *paths: str | None) -> None:
            """Before a call: refuse it once frozen; cut before it when its turn has come."""
            if self.frozen:
                raise FsError(errno.EIO)
            named = [p for p in paths if p]
            if trigger.fires(op, named):
                self.cut(op, named[0] if named else "-", mfusepy.fuse_get_context()[2])
                raise FsError(errno.EIO)

        def command(self, line: str) -> None:
            words = line.split()
            with self.mutex:
                if not words:
                    return
                if words[0] == "count":
                    self.say(f"count {trigger.total}")
                elif words[0] == "arm":
                    where = dict(zip(words[2::2], words[3::2], strict=False))
                    trigger.arm(int(words[1]), where.get("under"), where.get("outside"))
                    self.say("armed")
                elif words[0] == "cut":
                    self.cut("manual", "-", 0)
                    if self.frozen:
                        self.say("frozen")

        # -- mounting --------------------------------------------------------------------
        def init_with_config(self, conn_info: Any, config: Any) -> None:
            self.say("ready")  # (hard_remove: an unlinked file goes, not to .fuse_hidden*)

        # -- reading ---------------------------------------------------------------------
        def _node(self, path: str | None, fh: int | None) -> Node:
            if fh is not None and fh in model.handles:
                return model.by_handle(fh)
            if path is None:
                raise FsError(errno.ENOENT)
            return model.node(path)

        def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
            with self.mutex:
                if self.frozen:
                    raise FsError(errno.EIO)
                node = self._node(path, fh)
                size = 4096 if node.is_dir else len(node.data)
                return {"st_mode": node.mode, "st_nlink": 2 if node.is_dir else 1,
                        "st_size": size, "st_blocks": (size + 511) // 512,
                        "st_uid": os.getuid(), "st_gid": os.getgid(),
                        "st_mtime": node.mtime_ns, "st_ctime": node.mtime_ns,
                        "st_atime": node.mtime_ns, "st_blksize": 4096}

        def readdir(self, path: str, fh: int) -> list[str]:
            with self.mutex:
                if self.frozen:
                    raise FsError(errno.EIO)
                return [".", "..", *model.listdir(path)]

        def open(self, path: str, flags: int) -> int:
            with self.mutex:
                truncate = bool(flags & os.O_TRUNC)
                if truncate:
                    self.gate("truncate", path)
                elif self.frozen:
                    raise FsError(errno.EIO)
                return model.open(path, truncate=truncate)

        def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
            with self.mutex:
                if self.frozen:
                    raise FsError(errno.EIO)
                return model.read(fh, offset, size)

        def statfs(self, path: str) -> dict[str, int]:
            return {"f_bsize": 4096, "f_frsize": 4096, "f_blocks": 1 << 20,
                    "f_bfree": 1 << 19, "f_bavail": 1 << 19, "f_files": 1 << 16,
                    "f_ffree": 1 << 15, "f_favail": 1 << 15, "f_namemax": 255}

        # -- changing --------------------------------------------------------------------
        def create(self, path: str, mode: int, fi: Any = None) -> int:
            with self.mutex:
                self.gate("create", path)
                return model.create(path, mode)

        def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
            with self.mutex:
                self.gate("write", path or self._name(fh))
                return model.write(fh, offset, data)

        def _name(self, fh: int) -> str:
            ino = model.handles.get(fh)
            return next((p for p, i in model.names.items() if i == ino), "-")

        def truncate(self, path: str, length: int, fh: int | None = None) -> None:
            with self.mutex:
                self.gate("truncate", path)
                model.truncate(self._node(path, fh), length)

        def fsync(self, path: str, datasync: int, fh: int) -> None:
            with self.mutex:
                self.gate("fsync", path or self._name(fh))
                model.fsync(self._node(path, fh))

        def fsyncdir(self, path: str, datasync: int, fh: int) -> None:
            with self.mutex:
                self.gate("fsyncdir", path)
                model.fsyncdir(path)

        def mkdir(self, path: str, mode: int) -> None:
            with self.mutex:
                self.gate("mkdir", path)
                model.mkdir(path, mode)

        def unlink(self, path: str) -> None:
            with self.mutex:
                self.gate("unlink", path)
                model.unlink(path)

        def rmdir(self, path: str) -> None:
            with self.mutex:
                self.gate("rmdir", path)
                model.rmdir(path)

        def rename(self, old: str, new: str) -> None:
            with self.mutex:
                self.gate("rename", old, new)
                model.rename(old, new)

        def chmod(self, path: str, mode: int) -> None:
            with self.mutex:
                self.gate("chmod", path)
                model.chmod(path, mode)

        def chown(self, path: str, uid: int, gid: int) -> None:
            with self.mutex:
                if self.frozen:
                    raise FsError(errno.EIO)

        def utimens(self, path: str, times: Any = None) -> None:
            with self.mutex:
                if self.frozen:
                    raise FsError(errno.EIO)
                model.node(path).mtime_ns = time.time_ns()

        # -- closing (nothing here makes anything durable) -------------------------------
        def flush(self, path: str, fh: int) -> None:
            return None

        def release(self, path: str, fh: int) -> None:
            with self.mutex:
                model.release(fh)

        def opendir(self, path: str) -> int:
            with self.mutex:
                if self.frozen:
                    raise FsError(errno.EIO)
                node = model.node(path)
                if not node.is_dir:
                    raise FsError(errno.ENOTDIR)
                return 0

        def releasedir(self, path: str, fh: int) -> None:
            return None

    return LossyFS()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="drills/lossy_fs.py", description=__doc__.split("\n")[0])
    parser.add_argument("backing", type=Path)
    parser.add_argument("mount", type=Path)
    parser.add_argument("--fault", choices=[f.value for f in Fault], default=Fault.DATA.value)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    mfusepy = load_binding()
    model = Volatile(Folder(args.backing), Fault(args.fault), random.Random(args.seed))
    model.load(args.backing)
    trigger = Trigger()
    operations = make_operations(mfusepy, model, trigger)

    def listen() -> None:
        for line in sys.stdin:
            operations.command(line)
        operations.command("cut")  # the parent is gone: stop writing, and go
        unmount(args.mount)

    threading.Thread(target=listen, daemon=True).start()
    mfusepy.FUSE(operations, str(args.mount), foreground=True, nothreads=True,
                 hard_remove=True, fsname="companion-lossy", subtype="lossy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
