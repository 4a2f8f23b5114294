"""The hook table of docs/architecture.md is whole: one row for every hook of the two
expansion classes, `Expansion` (the rules) and `ExpansionView` (the screens), and no row
for a hook either has not.

A hook is a public name the class body defines: a method, or a class attribute an
expansion sets (its name, its intents, its fields). A row of the table is
``| `name` | `Class` | when it fires |``; the classes are read with `ast`, so nothing is
imported. Invariant: a hook added, renamed or removed fails here until its row is.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSES = {"Expansion": ROOT / "companion/rules/expansion.py",
           "ExpansionView": ROOT / "companion/ui/presenters/expansion.py"}
ROW = re.compile(r"^\|\s*`(\w+)`\s*\|\s*`(\w+)`\s*\|\s*(.*?)\s*\|\s*$")


def hooks(name: str) -> set[str]:
    """The public names class `name`'s body defines (methods and class attributes)."""
    tree = ast.parse(CLASSES[name].read_text(encoding="utf-8"))
    body = next(node.body for node in tree.body
                if isinstance(node, ast.ClassDef) and node.name == name)
    found = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, ast.Assign):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {hook for hook in found if not hook.startswith("_")}


def rows() -> list[tuple[str, str, str]]:
    """The table's rows: (hook, class, when it fires)."""
    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    return [(m[1], m[2], m[3]) for line in text.splitlines()
            if (m := ROW.match(line)) and m[2] in CLASSES]


def test_every_hook_has_one_row_and_every_row_a_hook() -> None:
    table = rows()
    for name in CLASSES:
        listed = [hook for hook, owner, _when in table if owner == name]
        assert sorted(hook for hook in set(listed) if listed.count(hook) > 1) == [], name
        assert sorted(hooks(name) - set(listed)) == [], f"{name}: hooks with no row"
        assert sorted(set(listed) - hooks(name)) == [], f"{name}: rows of no hook"


def test_every_row_says_when_its_hook_fires() -> None:
    assert [hook for hook, _owner, when in rows() if not when.strip()] == []


def test_the_classes_have_hooks_to_compare() -> None:
    assert all(len(hooks(name)) > 10 for name in CLASSES)
    assert "region_text" in hooks("ExpansionView") and "apply" in hooks("Expansion")
