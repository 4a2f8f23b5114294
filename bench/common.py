"""What the benchmarks and the drills share: results, tables, percentiles, the machine.

A `Result` is one line of the benchmark table: what was measured for this project, the
baseline measured in the same run (or the fixed reference the goal names, such as a
serial line rate), their ratio, the goal in words and whether it was met. Nothing here
asserts: a goal not met is reported, never raised.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Result:
    """One metric: this project against its baseline, and the goal."""

    key: str
    metric: str
    value: float | None
    unit: str
    baseline: float | None = None
    baseline_label: str = ""
    goal: str = ""
    met: bool | None = None  # None: no goal (information only) or not measured
    ratio: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def __post_init__(self) -> None:
        if self.ratio is None and self.value is not None and self.baseline:
            self.ratio = self.value / self.baseline

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values: Sequence[float]) -> dict[str, float]:
    """min, p50, p90, p99, max and mean of `values` (same unit)."""
    if not values:
        return {}
    return {
        "n": len(values),
        "min": min(values),
        "p50": percentile(values, 50),
        "p90": percentile(values, 90),
        "p99": percentile(values, 99),
        "max": max(values),
        "mean": statistics.fmean(values),
    }


def fmt(value: float | None, unit: str) -> str:
    """A number with its unit, rounded for reading."""
    if value is None or value != value:  # None or NaN
        return "-"
    if unit in ("ms", "s", "MB", "MB/s", "x", "%", "CPU s") or unit.startswith("ms"):
        if abs(value) >= 1000:
            text = f"{value:,.0f}"
        elif abs(value) >= 100:
            text = f"{value:.0f}"
        elif abs(value) >= 10:
            text = f"{value:.1f}"
        elif abs(value) >= 1:
            text = f"{value:.2f}"
        else:
            text = f"{value:.3f}"
    elif unit == "us":
        text = f"{value:.0f}" if value >= 100 else f"{value:.1f}"
    elif unit in ("B/s", "bytes/s"):
        text = f"{value / 1e6:.2f} M"
    else:
        text = f"{value:g}"
    return f"{text} {unit}".strip()


def table(rows: Iterable[Sequence[str]], header: Sequence[str]) -> str:
    """A plain-text table with columns padded to their widest cell."""
    lines = [list(header), *[list(r) for r in rows]]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def met_text(met: bool | None) -> str:
    return {True: "yes", False: "NO", None: "-"}[met]


def result_rows(results: Iterable[Result]) -> list[list[str]]:
    rows = []
    for r in results:
        base = fmt(r.baseline, r.unit) if r.baseline is not None else "-"
        if r.baseline_label:
            base = f"{base} ({r.baseline_label})" if r.baseline is not None else r.baseline_label
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
        rows.append([r.metric, fmt(r.value, r.unit), base, ratio, r.goal, met_text(r.met)])
    return rows


RESULT_HEADER = ("metric", "this project", "baseline", "ratio", "goal", "met?")


def machine() -> dict[str, Any]:
    """The machine the numbers were taken on: CPU, cores, memory, Python, Kivy, SQLite."""
    cpu = platform.processor() or platform.machine()
    try:
        fields: dict[str, str] = {}
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            name, colon, value = line.partition(":")
            if colon:
                fields.setdefault(name.strip().lower(), value.strip())
        # x86: "model name"; a Raspberry Pi: "model name" (the core) and "Model" (the board).
        core = fields.get("model name") or fields.get("hardware") or cpu
        board = fields.get("model", "")
        cpu = f"{core} ({board})" if board and not board.isdigit() else core
    except OSError:
        pass
    memory_mb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_mb = round(int(line.split()[1]) / 1024)
    except OSError:
        pass
    import sqlite3

    try:
        from importlib.metadata import version

        kivy_version = version("kivy")
    except Exception:  # not installed: the Kivy benchmarks say so themselves
        kivy_version = "not installed"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_mb": memory_mb,
        "os": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "python": platform.python_version(),
        "kivy": kivy_version,
        "sqlite": sqlite3.sqlite_version,
        "executable": sys.executable,
    }


def filesystem_of(path: Path) -> str:
    """The device and filesystem type `path` lives on (from /proc/mounts), for the report."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    target = str(path.resolve())
    best = ("", "unknown", "")
    for fields in mounts:
        if len(fields) < 3:
            continue
        mount = fields[1]
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best[0]):
            best = (mount, fields[2], fields[0])
    return f"{best[1]} on {best[2]} (mounted at {best[0]})"


def best_of(runs: int, measure: Callable[[], float]) -> list[float]:
    return [measure() for _ in range(runs)]
