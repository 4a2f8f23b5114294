"""The rules core is pure: no UI, device, database, clock or randomness."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import companion.rules

LOADED_NEVER = ("kivy", "gpiozero", "serial", "sqlite3", "sqlite_utils")
IMPORTED_NEVER = (*LOADED_NEVER, "random", "secrets", "time", "datetime", "os", "threading")
RULES = Path(companion.rules.__file__).parent


def test_importing_the_rules_loads_no_ui_device_or_database_module() -> None:
    modules = [f"companion.rules.{m.name}" for m in pkgutil.iter_modules(companion.rules.__path__)]
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + "import companion.rules.catalog as c, companion.rules.maps as m\n"
        + "c.load_catalog(); [m.load_board(b) for b in m.BOARD_NAMES]\n"
        + f"print(sorted(set({LOADED_NEVER!r}) & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    assert len(modules) >= 10


def test_no_rules_module_imports_a_clock_randomness_or_io() -> None:
    offenders = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names
                          if n.split(".")[0] in IMPORTED_NEVER]
    assert offenders == []
