"""The project installs as a wheel that carries everything it needs, and finds it.

A wheel is built from a copy of the source tree (so no stale ``build/`` output can leak in)
and checked for every Python package, every ``.kv`` layout and every data file. It is then
installed, with no download, into a fresh virtual environment that borrows only the
dependencies from the test's own environment, and the installed ``companion`` command is
run from a directory outside the repository. The ``paths`` rules (XDG, missing files) are
checked here too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import companion
from companion import paths

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "companion", "kv", "hardware")


def _packages_in_tree() -> list[tuple[str, Path]]:
    """(import name, directory) of every Python package in the source tree."""
    found = [("companion.kv", ROOT / "kv")]
    for top in ("companion", "hardware"):
        for init in sorted((ROOT / top).rglob("__init__.py")):
            if "__pycache__" in init.parts:
                continue
            relative = init.parent.relative_to(ROOT)
            found.append((".".join(relative.parts), init.parent))
    return found


def _wheel_dir(package: str) -> str:
    """Where a package's files sit inside the wheel."""
    return package.replace(".", "/")


def _isolated_env(tmp: Path) -> dict[str, str]:
    """An environment for a subprocess that must not see the source tree."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    env.update(
        PYTHONNOUSERSITE="1",
        KIVY_NO_ARGS="1",
        KIVY_HOME=str(tmp / "kivy"),
        XDG_DATA_HOME=str(tmp / "data"),
    )
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of the project, built without build isolation and without any download."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, ignore=ignore)
        else:
            shutil.copy2(item, source / name)
    out = work / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "--wheel-dir", str(out), str(source)],
        capture_output=True, text=True, timeout=300, cwd=work,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = out.glob("smallworld_companion-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (not editable); returns the venv directory.

    The wheel goes in first, while the venv sees nothing else, so pip cannot mistake the
    editable install of the outer environment for it. Only then does a ``.pth`` file lend
    the venv the outer environment's site-packages for the dependencies (Kivy and the rest).
    """
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install",
         "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    inner_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    outer_site = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(inner_site) / "outer-dependencies.pth").write_text("\n".join(sorted(outer_site)) + "\n")
    return venv


def test_the_wheel_ships_every_python_package_in_the_tree(wheel_names: set[str]) -> None:
    for package, directory in _packages_in_tree():
        assert f"{_wheel_dir(package)}/__init__.py" in wheel_names, (
            f"package {package} is missing from the wheel: add it to [tool.setuptools] "
            "packages in pyproject.toml"
        )
        for module in directory.glob("*.py"):
            assert f"{_wheel_dir(package)}/{module.name}" in wheel_names


def test_the_wheel_ships_every_kv_file(wheel_names: set[str]) -> None:
    kv_files = sorted((ROOT / "kv").rglob("*.kv"))
    assert ROOT / "kv" / "table.kv" in kv_files
    for kv in kv_files:
        assert f"companion/kv/{kv.relative_to(ROOT / 'kv').as_posix()}" in wheel_names


def test_the_wheel_ships_every_data_file(wheel_names: set[str]) -> None:
    data_root = ROOT / "companion" / "data"
    shipped = [*data_root.rglob("*.json"), *data_root.rglob("*.wav"),
               data_root / "sounds" / "LICENSE.txt"]
    assert data_root / "sounds" / "turn.wav" in shipped
    for data in sorted(shipped):
        assert data.relative_to(ROOT).as_posix() in wheel_names


def test_the_wheel_declares_the_companion_command(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (entry_points,) = (n for n in archive.namelist() if n.endswith("entry_points.txt"))
        text = archive.read(entry_points).decode()
    assert "companion = companion.cli:main" in text


def test_the_installed_companion_command_shows_its_help(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [str(installed / "bin" / "companion"), "--help"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=_isolated_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "usage: companion" in result.stdout
    for name in ("run", "version"):
        assert name in result.stdout


def test_the_installed_package_finds_its_kv_and_data_files(installed: Path, tmp_path: Path) -> None:
    data_root = ROOT / "companion" / "data"
    data_files = sorted(data_root.rglob("*.json"))
    data_name = data_files[0].relative_to(data_root).as_posix() if data_files else ""
    code = (
        "import json, sys, companion, companion.paths as p\n"
        "print(json.dumps({\n"
        "    'package': companion.__file__,\n"
        "    'kv': str(p.kv_file('table.kv')),\n"
        "    'data_dir': str(p.data_dir()),\n"
        "    'data': str(p.data_file(sys.argv[1])) if sys.argv[1] else '',\n"
        "    'version': companion.__version__,\n"
        "}))\n"
    )
    result = subprocess.run(
        [str(installed / "bin" / "python"), "-c", code, data_name],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=_isolated_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    for key in ("package", "kv", "data_dir"):
        assert Path(found[key]).is_relative_to(installed), (key, found[key])
        assert not Path(found[key]).is_relative_to(ROOT), (key, found[key])
    assert Path(found["kv"]).read_text() == (ROOT / "kv" / "table.kv").read_text()
    assert Path(found["data_dir"]).is_dir()
    if data_name:
        assert Path(found["data"]).read_bytes() == (data_root / data_name).read_bytes()
    assert found["version"] == companion.__version__


# --- where files live -----------------------------------------------------------------


def test_the_user_data_dir_follows_xdg_data_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert paths.user_data_dir() == tmp_path / "smallworld-companion"


@pytest.mark.parametrize("value", ["", "relative/dir"])
def test_an_empty_or_relative_xdg_data_home_means_local_share(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", value)
    assert paths.user_data_dir() == tmp_path / ".local" / "share" / "smallworld-companion"


def test_the_default_database_lives_in_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert paths.default_db_path() == tmp_path / "smallworld-companion" / "companion.sqlite3"
    assert not (tmp_path / "smallworld-companion").exists()


def test_a_layout_that_is_not_shipped_is_named_in_the_error() -> None:
    with pytest.raises(FileNotFoundError, match=re.escape("no-such-screen.kv")):
        paths.kv_file("no-such-screen.kv")


def test_kv_and_data_resolve_to_the_source_tree_in_an_editable_install() -> None:
    assert paths.kv_file("table.kv") == ROOT / "kv" / "table.kv"
    assert paths.data_dir() == ROOT / "companion" / "data"


def test_a_package_inside_a_zip_is_refused_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kivy and SQLite need real files: a zipped install is named, never extracted."""
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_layouts/__init__.py", "")
        zipped.writestr("zipped_layouts/table.kv", "")
    monkeypatch.syspath_prepend(str(archive))
    try:
        with pytest.raises(RuntimeError, match="package 'zipped_layouts' is not installed "
                                               "as a directory"):
            paths._package_dir("zipped_layouts")
    finally:
        sys.modules.pop("zipped_layouts", None)
