"""The Makefile's set-up: `make run` installs what running needs and nothing more, `make
test` what the tests need besides. Read with `make -n`, which prints the commands and runs
none of them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNING = ("libegl1", "libgl1", "libgles2", "libegl-mesa0", "libgl1-mesa-dri", "libmtdev1")
TESTING = ("shellcheck", "systemd")
DRILLING = ("fuse3", "libfuse3-3")


def planned(target: str, *, fresh: bool = False) -> str:
    """What `make TARGET` would run, as `make -n` prints it; `fresh`: on a machine where
    nothing was made yet (``-B``: the stamps an earlier run left are not trusted)."""
    if shutil.which("make") is None:
        pytest.skip("no make here")
    done = subprocess.run(["make", "-n", *(["-B"] if fresh else []), "-C", str(ROOT), target],
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def packages_checked(plan: str) -> set[str]:
    """The system packages a plan checks for (and installs when missing)."""
    joined = plan.replace("\\\n", " ")  # a recipe's continued lines as one
    line = next(line for line in joined.splitlines() if "dpkg-query" in line)
    listed = line.split("for package in", 1)[1].split(";", 1)[0]
    return set(listed.split())


def test_make_run_installs_only_what_running_needs() -> None:
    assert packages_checked(planned("run")) == set(RUNNING)  # no shellcheck for a player


def test_make_test_installs_what_running_and_the_tests_need() -> None:
    assert packages_checked(planned("test")) == set(RUNNING) | set(TESTING)


def test_the_tests_use_the_test_packages_they_install() -> None:
    deploy_tests = (ROOT / "tests" / "test_deploy.py").read_text()
    assert '"shellcheck"' in deploy_tests and "systemd-analyze" in deploy_tests


def test_make_drills_installs_fuse_and_its_binding_and_make_test_neither() -> None:
    drills, test = planned("drills", fresh=True), planned("test", fresh=True)
    assert packages_checked(drills) == set(RUNNING) | set(DRILLING)
    assert "'.[dev,drills]'" in drills  # mfusepy, for drills/lossy_fs.py
    assert "drills]" not in test and "fuse3" not in test


def test_make_test_draws_frames_uncapped_and_make_bench_as_the_kiosk_does() -> None:
    pytest_line = next(line for line in planned("test").splitlines() if "-m pytest" in line)
    assert "KCFG_GRAPHICS_MAXFPS=0" in pytest_line
    assert "KCFG_GRAPHICS_MAXFPS" not in planned("bench")  # the shipped 60 fps, measured


def test_make_check_runs_the_checks_and_the_tests_that_need_no_window_nor_process() -> None:
    plan = planned("check")
    assert "ruff check ." in plan and "mypy --strict" in plan
    pytest_line = next(line for line in plan.splitlines() if "-m pytest" in line)
    assert '-m "not window and not child"' in pytest_line
    assert "KCFG_GRAPHICS_MAXFPS=0" in pytest_line
