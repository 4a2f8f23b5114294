"""The layers hold: the screens render presenters, devices report facts, the composition
root builds things.

Read from the source (ast), not from what happens to be imported at run time, so an import
inside a function, under ``if TYPE_CHECKING:`` or through ``importlib.import_module("...")``
counts as much as one at the top:

- no presenter (`companion/ui/presenters/`) imports `hardware` or `companion.store`: they
  reach the saved games through the session's records port (`companion.records`) and the
  sensor grid through the view the root hands them;
- nothing in `companion/ui/` imports `hardware` (the composition root, `companion/app.py`,
  may) nor reaches the store behind the session (``session.store``);
- `companion/ui/` imports the rules from their facade alone (`companion.rules`, what its
  ``__all__`` lists), never from one of their modules;
- the rules' own modules never import through the facade (it imports them all: that
  would be a cycle);
- an expansion's rules module and its view are imported by the two registries and by
  each other alone, so a change to one expansion stays in its own files.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UI = ROOT / "companion" / "ui"
PRESENTERS = UI / "presenters"

PRESENTERS_MAY_NOT = ("hardware", "companion.store")
UI_MAY_NOT = ("hardware",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.AST, module: str, *, package: bool = False) -> Iterator[tuple[int, str]]:
    """(line, module imported) for every import anywhere in `tree`, relative ones resolved
    against `module` (a package when `package`); ``from a import b`` gives ``a.b`` too, as
    `b` may be a module."""
    here = module.split(".") if package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                base = ".".join([*anchor, *([base] if base else [])])
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"
        elif isinstance(node, ast.Call):  # importlib.import_module("x"), __import__("x")
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if (name in ("import_module", "__import__") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                yield node.lineno, node.args[0].value


def within(name: str, forbidden: tuple[str, ...]) -> bool:
    return any(name == f or name.startswith(f + ".") for f in forbidden)


def offences(path: Path, forbidden: tuple[str, ...], source: str | None = None) -> list[str]:
    """"module:line imports name" for each forbidden import in the file at `path` (or in
    `source`, read as that file)."""
    module = module_name(path)
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    found = {(line, name) for line, name in imported(tree, module,
                                                     package=path.name == "__init__.py")
             if within(name, forbidden)}
    return [f"{module}:{line} imports {name}" for line, name in sorted(found)]


def store_reaches(path: Path, source: str | None = None) -> list[str]:
    """"module:line reaches session.store" for each ``<...>session.store`` in the file."""
    text = path.read_text(encoding="utf-8") if source is None else source
    found = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.Attribute) and node.attr == "store":
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == "session":
                found.append(f"{module_name(path)}:{node.lineno} reaches session.store")
    return found


def presenter_files() -> list[Path]:
    return sorted(PRESENTERS.rglob("*.py"))


def ui_files() -> list[Path]:
    return sorted(UI.rglob("*.py"))


def test_the_files_are_found() -> None:
    names = {path.stem for path in presenter_files()}
    assert {"base", "calibration", "map", "history", "settings", "table"} <= names
    assert UI / "grid.py" in ui_files() and UI / "dimmer.py" in ui_files()


@pytest.mark.parametrize("path", presenter_files(), ids=lambda p: p.stem)
def test_no_presenter_imports_hardware_or_the_store(path: Path) -> None:
    found = offences(path, PRESENTERS_MAY_NOT)
    assert not found, "presenters go through the session and the root's objects:\n" + "\n".join(
        found)


def test_nothing_of_the_ui_imports_hardware() -> None:
    found = [offence for path in ui_files() for offence in offences(path, UI_MAY_NOT)]
    assert not found, "the composition root hands devices to the UI:\n" + "\n".join(found)


def test_nothing_of_the_ui_reaches_the_store_behind_the_session() -> None:
    found = [reach for path in ui_files() for reach in store_reaches(path)]
    assert not found, "the screens use Session.records:\n" + "\n".join(found)


FACADE = ROOT / "companion" / "rules" / "__init__.py"


def facade() -> frozenset[str]:
    """What `companion/rules/__init__.py`'s ``__all__`` lists: the names written there (read,
    not imported), and for its ``*expansions.modules()`` the registry's expansion modules."""
    from companion.rules.expansions import modules

    tree = ast.parse(FACADE.read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.List)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)):
            written = [ast.literal_eval(item) for item in node.value.elts
                       if not isinstance(item, ast.Starred)]
            spread = [ast.unparse(item.value) for item in node.value.elts
                      if isinstance(item, ast.Starred)]
            assert spread in ([], ["expansions.modules()"]), spread
            return frozenset(written) | (frozenset(modules()) if spread else frozenset())
    raise AssertionError("companion/rules/__init__.py has no __all__")


def past_the_facade(path: Path, source: str | None = None) -> list[str]:
    """"module:line imports name" for each import of a rules module the facade does not
    export."""
    exported = {f"companion.rules.{name}" for name in facade()} | {"companion.rules"}
    module = module_name(path)
    text = path.read_text(encoding="utf-8") if source is None else source
    found = {(line, name) for line, name in imported(ast.parse(text), module)
             if within(name, ("companion.rules",)) and name not in exported}
    return [f"{module}:{line} imports {name}" for line, name in sorted(found)]


def test_the_ui_imports_the_rules_from_their_facade_alone() -> None:
    found = [offence for path in ui_files() for offence in past_the_facade(path)]
    assert not found, "import it from companion.rules (add it to __all__):\n" + "\n".join(found)


def test_the_facade_check_is_not_blind() -> None:
    source = """
from companion.rules import GameState, river
def later():
    from companion.rules.game import apply
    import companion.rules.scoring
"""
    assert past_the_facade(PRESENTERS / "example.py", source) == [
        "companion.ui.presenters.example:4 imports companion.rules.game",
        "companion.ui.presenters.example:4 imports companion.rules.game.apply",
        "companion.ui.presenters.example:5 imports companion.rules.scoring",
    ]


def test_the_rules_never_import_through_their_facade() -> None:
    rules = ROOT / "companion" / "rules"
    found = [f"{module_name(path)}:{node.lineno}"
             for path in sorted(rules.glob("*.py")) if path.name != "__init__.py"
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ImportFrom) and node.module == "companion.rules"]
    assert not found, "import the module itself (import companion.rules.x as x):\n" + "\n".join(
        found)


def test_every_name_the_facade_lists_is_there() -> None:
    import companion.rules

    assert all(hasattr(companion.rules, name) for name in companion.rules.__all__)
    assert frozenset(companion.rules.__all__) == facade()


def test_the_facade_exports_each_expansion_s_module_without_naming_one() -> None:
    from words_support import code_words

    from companion.rules import expansions

    modules = expansions.modules()
    assert set(modules) == {"necromancer", "river", "teams", "mini_game"}
    assert set(modules) <= facade()
    named = set(code_words(FACADE)) & {*modules, *(f'"{m}"' for m in modules)}
    assert not named, f"the registry exports these; the facade need not name them: {named}"


def test_the_composition_root_may_import_hardware() -> None:
    """The check is not blind: the root's own imports of devices are seen."""
    found = offences(ROOT / "companion" / "app.py", UI_MAY_NOT)
    assert any("hardware.button" in offence for offence in found)


def test_imports_are_found_at_any_depth() -> None:
    """Inside a function, under TYPE_CHECKING, relative, or through importlib; and the
    store reached behind the session."""
    source = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from hardware.grid.calibration import CalibrationError
def later():
    import companion.store.games
    from companion import store
    from ...store.errors import StoreError
    return importlib.import_module("hardware.backlight")
class A:
    def f(self):
        return self.session.store.profiles()
"""
    path = PRESENTERS / "example.py"  # only its name is used: the source is given
    found = offences(path, PRESENTERS_MAY_NOT, source)
    assert found == [
        "companion.ui.presenters.example:4 imports hardware.grid.calibration",
        "companion.ui.presenters.example:4 imports hardware.grid.calibration.CalibrationError",
        "companion.ui.presenters.example:6 imports companion.store.games",
        "companion.ui.presenters.example:7 imports companion.store",
        "companion.ui.presenters.example:8 imports companion.store.errors",
        "companion.ui.presenters.example:8 imports companion.store.errors.StoreError",
        "companion.ui.presenters.example:9 imports hardware.backlight",
    ]
    assert store_reaches(path, source) == [
        "companion.ui.presenters.example:12 reaches session.store"]


def test_an_expansion_s_module_is_imported_by_the_registries_and_its_own_view_alone() -> None:
    """Changing an expansion touches its module and its view (and its kv, tests and doc,
    and its part of a JSON command's format, registered next to the command): no other
    module of the app imports its rules module, and no other module imports its view but
    the views' registry."""
    from companion.rules import expansions
    from companion.ui.presenters import expansions as views

    rules_module = {x.name: type(x).__module__ for x in expansions.registered()}
    owners = {rules_module[view.expansion]: type(view).__module__ for view in views.registered()}
    assert set(owners) == {f"companion.rules.{m}" for m in expansions.modules()}
    registries = {"companion.rules.expansions", "companion.ui.presenters.expansions",
                  "companion.play_parts", "companion.score_parts"}
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        module = module_name(path)
        names = {name for _line, name in imported(ast.parse(path.read_text(encoding="utf-8")),
                                                  module, package=path.name == "__init__.py")}
        for rules, view in owners.items():
            if module in (rules, view) or module in registries:
                continue
            if names & {rules, view}:
                found.append(f"{module} imports {sorted(names & {rules, view})}")
    assert not found, "only the registries and the expansion's own view may:\n" + "\n".join(found)
