"""Every race and power name the code writes is one of the packaged catalog's, and is written
once, in `companion/rules/names.py`: no other module of `companion/` spells one as a string
literal, but for a short list of literals that are another thing spelled the same."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.rules import names
from companion.rules.catalog import load_catalog

COMPANION = Path(__file__).resolve().parent.parent / "companion"

NOT_CHECKED = (
    "rules/names.py",  # where the names are written
    "data/",  # the catalog and the boards themselves
)
"""Files (or folders, ending in "/") under companion/ the check leaves out."""

ANOTHER_THING: tuple[tuple[str, str, str], ...] = (
    ("rules/board.py", "catapult", "the Catapult's marker kind, a saved-game id"),
    ("rules/markers.py", "catapult", "the Catapult's marker kind, and the piece's word"),
    ("ui/map_widget.py", "catapult", "the Catapult's marker kind, as a map symbol's key"),
    ("ui/describe.py", "catapult", "the Catapult's marker kind"),
    ("ui/presenters/river.py", "catapult", "the map symbol a pirate ship is drawn after"),
    ("rules/die.py", "berserk", "a die roll's purpose (DiePurpose), a saved-game id"),
    ("ui/describe.py", "berserk", "a die roll's purpose, matched in a saved event"),
    ("ui/presenters/die.py", "berserk", "the die panel's mode"),
    ("rules/maps.py", "forest", "a terrain, not the Forest badge"),
    ("rules/maps.py", "hill", "a terrain, not the Hill badge"),
    ("rules/maps.py", "swamp", "a terrain, not the Swamp badge"),
    ("ui/presenters/expansion.py", "forest", "a terrain's id and its words"),
    ("ui/presenters/expansion.py", "hill", "a terrain's id and its words"),
    ("ui/presenters/expansion.py", "swamp", "a terrain's id and its words"),
    ("play.py", "catapult", "a JSON field of `companion play`'s conquer"),
    ("play.py", "ghouls", "a JSON field of `companion play`'s conquer"),
    ("score_parts.py", "historian", "a JSON field of `companion score`'s scenario"),
    ("rules/conquest.py", "Commando", "a cost line's template (gettext extracts literals)"),
    ("rules/conquest.py", "Catapult", "a cost line's template (gettext extracts literals)"),
    ("ui/presenters/mini.py", "Pygmies", "a notice's title (gettext extracts literals)"),
)
"""(file under companion/, literal, what it is): literals spelled as a race or power that
are another thing."""


def _spellings() -> frozenset[str]:
    catalog = load_catalog()
    spelled = {n.casefold() for n in (*(r.name for r in catalog.races),
                                      *(p.name for p in catalog.powers))}
    return frozenset(spelled | {s.rstrip("-") for s in spelled})


def name_literals(path: str, source: str) -> list[str]:
    """The string literals of `source` (the file `path` under companion/) that spell a race
    or a power of the catalog, case aside, and are not on the list of other things."""
    spellings = _spellings()
    allowed = {literal for file, literal, _why in ANOTHER_THING if file == path}
    return [
        f"{path}:{node.lineno}: {node.value!r}"
        for node in ast.walk(ast.parse(source, path))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.value.casefold() in spellings and node.value not in allowed
    ]


def _checked() -> list[tuple[str, Path]]:
    files = []
    for file in sorted(COMPANION.rglob("*.py")):
        path = file.relative_to(COMPANION).as_posix()
        if not any(path == skip or (skip.endswith("/") and path.startswith(skip))
                   for skip in NOT_CHECKED):
            files.append((path, file))
    return files


def test_every_name_is_a_race_or_power_of_the_catalog() -> None:
    catalog = load_catalog()
    races = {r.name for r in catalog.races}
    powers = {p.name for p in catalog.powers}
    constants = {k: v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}
    assert constants
    for constant, name in constants.items():
        assert name in races | powers, constant
    assert set(names.RACES) <= races
    assert set(names.POWERS) <= powers
    assert set(constants.values()) == set(names.RACES) | set(names.POWERS)


def test_each_name_is_written_once() -> None:
    assert len(set(names.RACES)) == len(names.RACES)
    assert len(set(names.POWERS)) == len(names.POWERS)


def test_no_module_spells_a_race_or_power_name_but_names_py() -> None:
    found = [hit for path, file in _checked()
             for hit in name_literals(path, file.read_text(encoding="utf-8"))]
    assert not found, ("race or power names written as literals; import the constant from "
                       "companion.rules.names (outside the rules: `from companion.rules import "
                       "names`), or, for another thing spelled the same, list it in "
                       "ANOTHER_THING:\n" + "\n".join(found))


def test_the_check_finds_a_name_written_again() -> None:
    game = COMPANION / "rules" / "game.py"
    source = game.read_text(encoding="utf-8")
    assert name_literals("rules/game.py", source) == []
    assert name_literals("rules/game.py", source + '\nif race == "Gypsies":\n    pass\n') != []
    assert name_literals("rules/game.py", source + '\n_X = "hordes of"\n') != []
    # an allowed literal is allowed in its own file only, and only as written there
    markers = (COMPANION / "rules" / "markers.py").read_text(encoding="utf-8")
    assert name_literals("rules/markers.py", markers + '\n_X = "Catapult"\n') != []
    assert name_literals("rules/game.py", source + '\n_X = "catapult"\n') != []


def test_the_check_reads_the_files_it_should() -> None:
    checked = {path for path, _file in _checked()}
    assert {"rules/game.py", "rules/scoring.py", "scenario.py", "ui/presenters/map.py"} <= checked
    assert "rules/names.py" not in checked
    assert {file for file, _literal, _why in ANOTHER_THING} <= checked
