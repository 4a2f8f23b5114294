"""Expansion views: a new expansion's face on the shared screens is one view class and one
registry entry, beside the rules' own class and entry (`tests/test_expansions.py`'s toy
"Forest Folk"); no shared presenter is edited. Also: the registry's order and guards, and
that the shared presenters name no expansion."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion.rules import Event, GameState, expansions, teams
from companion.ui.presenters import expansions as views
from companion.ui.presenters.base import Context, Presenter
from companion.ui.presenters.expansion import ExpansionView, PrivateOverlay, TableIntents
from companion.ui.presenters.intents import UnknownAction
from tests.factories import session
from tests.test_expansions import ForestFolk, SaplingPlanted

ROOT = Path(__file__).resolve().parent.parent
FOREST_TABLE_LINE = "Forest Folk: the Ratmen earn a coin per forest they hold."


class ForestAction(StrEnum):
    """The toy expansion's table button."""

    PLANT = "forest_plant"


PRESSED: list[ForestAction] = []
"""The toy buttons pressed."""


def plant(presenter: Presenter, overlay: PrivateOverlay, action: ForestAction) -> None:
    PRESSED.append(action)


class ForestView(ExpansionView):
    """The toy expansion on the table: a line of its books and one button."""

    expansion = "Forest Folk"
    table_intents: ClassVar[TableIntents] = {ForestAction: plant}

    def summary(self, state: GameState) -> str:
        return FOREST_TABLE_LINE

    def table_actions(self, state: GameState, usual: list[dict[str, Any]]
                      ) -> list[dict[str, Any]]:
        return [*usual, {"key": ForestAction.PLANT.value, "text": "Plant a sapling"}]

    def region_text(self, state: GameState, region: int) -> str:
        return "Forest Folk walk here."

    def event_text(self, event: Event, who: Callable[[int], str]) -> str | None:
        if isinstance(event, SaplingPlanted):
            return f"{who(event.seat)} planting a sapling"
        return None


def test_a_toy_expansions_line_and_button_reach_the_table_with_one_view() -> None:
    from companion.ui.presenters.table import TablePresenter, parse

    s = session(3, races=("Ratmen",), powers=("Heroic",))
    view = ForestView()
    table = TablePresenter(Context(session=s))
    table.update(s.state)
    assert FOREST_TABLE_LINE not in table.expansion_text
    with pytest.raises(UnknownAction):
        parse("forest_plant")
    with expansions.extended(ForestFolk("Ratmen")), views.extended(view) as registry:
        assert registry[-1] is view
        assert views.played(s.state)[-1] is view
        table.update(s.state)
        assert FOREST_TABLE_LINE in table.expansion_text.split("\n")
        assert {"key": "forest_plant", "text": "Plant a sapling"} in table.actions
        PRESSED.clear()
        table.act("forest_plant")
        assert PRESSED == [ForestAction.PLANT]
    assert view not in views.registered()  # the registry is restored
    table.update(s.state)
    assert FOREST_TABLE_LINE not in table.expansion_text


def test_a_toy_view_is_not_asked_when_its_expansion_is_not_played() -> None:
    class Asleep(ForestFolk):
        def in_play(self, state: GameState) -> bool:
            return False

    s = session(3, races=("Ratmen",), powers=("Heroic",))
    with expansions.extended(Asleep("Ratmen")), views.extended(ForestView()):
        assert not any(isinstance(v, ForestView) for v in views.played(s.state))


def test_a_toy_view_speaks_on_the_map_panel() -> None:
    from companion.ui.presenters.map import MapPresenter

    s = session(3, races=("Ratmen",), powers=("Heroic",))
    with expansions.extended(ForestFolk("Ratmen")), views.extended(ForestView()):
        board = MapPresenter(Context(session=s))
        board.update(s.state)
        board.tap(1)
        assert board.holder_text.endswith("Forest Folk walk here.")


def test_the_toy_line_is_drawn_on_the_table_screen(headless_app: Any) -> None:
    import ui_support as ui

    s = session(3, races=("Ratmen",), powers=("Heroic",))
    with expansions.extended(ForestFolk("Ratmen")), views.extended(ForestView()):
        headless_app.use_session(s, screen="table")
        ui.pump(6)
        shown = "\n".join(ui.texts(ui.window()))
    assert FOREST_TABLE_LINE in shown


def test_a_step_is_worded_by_the_view_of_its_expansion() -> None:
    from companion.ui.describe import event_text

    names = ["Ann", "Bob"]
    assert event_text(teams.MonsterPlaced(1, 12), names) == "Bob's Monster in region 12"
    assert event_text(SaplingPlanted(0), names) == "the last action"  # type: ignore[arg-type]
    with views.extended(ForestView()):
        assert event_text(SaplingPlanted(0), names) == "Ann planting a sapling"  # type: ignore[arg-type]


def test_two_views_may_not_take_the_same_key() -> None:
    class Clash(ExpansionView):
        expansion = "Clash"
        table_intents: ClassVar[TableIntents] = {ForestAction: plant}

    with pytest.raises(ValueError, match="forest_plant"), views.extended(ForestView(), Clash()):
        pass


def test_every_played_expansion_with_a_face_has_a_view() -> None:
    shown = {view.expansion for view in views.registered()}
    assert shown == {e.name for e in expansions.registered()}


EXPANSION_MODULES = {
    "companion.ui.presenters.necromancer", "companion.ui.presenters.river",
    "companion.ui.presenters.teams", "companion.ui.presenters.mini",
    *(f"companion.rules.{m}" for m in ("necromancer", "river", "teams")),
}
SHARED = ("table.py", "game_end.py", "scoring.py", "map.py")
"""The shared presenters that ask the views."""


@pytest.mark.parametrize("name", SHARED)
def test_the_shared_presenters_import_no_expansion(name: str) -> None:
    import ast

    tree = ast.parse((ROOT / "companion" / "ui" / "presenters" / name).read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    assert not found & EXPANSION_MODULES
