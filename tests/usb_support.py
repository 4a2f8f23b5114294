"""Made-up removable drives for the USB-stick tests: a /sys/block tree, a mounts table,
and a folder made unwritable (even for root, with the immutable flag)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def disk(sys_block: Path, name: str, *, removable: bool = True, partitions: int = 1,
         size: str = "30031872", model: str = "Cruzer Blade") -> Path:
    path = sys_block / name
    path.mkdir(parents=True)
    (path / "removable").write_text("1\n" if removable else "0\n")
    (path / "size").write_text(size + "\n")
    (path / "device").mkdir()
    (path / "device" / "vendor").write_text("SanDisk \n")
    (path / "device" / "model").write_text(model + "\n")
    for n in range(1, partitions + 1):
        (path / f"{name}{n}").mkdir()
        (path / f"{name}{n}" / "partition").write_text(f"{n}\n")
    (path / "queue").mkdir()  # not a partition: no `partition` file
    return path


def mounts_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "mounts"
    path.write_text("".join(line + "\n" for line in lines))
    return path



@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` made unwritable, even for root (the immutable flag) when tests run as root."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
