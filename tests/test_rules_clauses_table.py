"""`docs/rules-clauses.md` and the tests stay in step: every test a row of the clause table
names exists, and every row names a test or gives the reason the app leaves the clause to
the players."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "rules-clauses.md"
NAMED = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
ROW = re.compile(r"^\| ([A-Z]+\d+) \|")


def rows() -> list[tuple[str, str]]:
    """(row id, the row's text) of every clause row of the table."""
    found = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            found.append((match.group(1), line))
    return found


@cache
def defined_tests(path: str) -> frozenset[str]:
    """The names of the test functions defined at the top of a test file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(node.name for node in tree.body
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


def test_every_test_a_clause_row_names_exists() -> None:
    missing = [(row, f"{path}::{name}") for row, line in rows()
               for path, name in NAMED.findall(line)
               if not (ROOT / path).is_file() or name not in defined_tests(path)]
    assert not missing, missing


def test_every_clause_row_names_a_test_or_the_reason_it_is_left_to_the_players() -> None:
    bare = [row for row, line in rows()
            if not NAMED.search(line) and "players:" not in line]
    assert not bare, bare


def test_row_ids_are_unique_and_the_table_is_not_empty() -> None:
    ids = [row for row, _ in rows()]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 140  # issue 29: every limiting clause of every book; never fewer


def test_the_check_sees_a_missing_test_and_a_bare_row() -> None:
    line = "| Z1 | a clause | B x | y | `tests/test_rules_clauses.py::test_no_such_thing` |"
    (path, name), = NAMED.findall(line)
    assert name not in defined_tests(path)
    assert not NAMED.search("| Z2 | a clause | B x | y | nothing |")
