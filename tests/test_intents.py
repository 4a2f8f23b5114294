"""Typed intents: every key a button can send parses for the screen that receives it, and
a key a screen does not know fails loudly (`UnknownAction`) instead of doing nothing.

The kiosk does not catch `UnknownAction` (raised from a kv `on_release` it would stop the
app), so these tests are what keeps a wrong key out: they read every literal key of the
kv files, of the screens' Python and of the presenters' action lists and parse it for
the screen it goes to. The UI tests (test_ui_*.py) check that each action still does
what it did.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.ui.app import SCREENS as APP_SCREENS
from companion.ui.presenters.intents import UnknownAction, allowed, argument, member, number

ROOT = Path(__file__).resolve().parent.parent
KV = ROOT / "kv"
SCREENS_PY = ROOT / "companion" / "ui" / "screens"
PRESENTERS_PY = ROOT / "companion" / "ui" / "presenters"

SCREENS = tuple(APP_SCREENS)
"""Every screen (each presenter takes keys); its module `companion.ui.presenters.<screen>`
has `parse(key)`."""

KEYS_FROM = {"necromancer": ("table", "necromancer", "new_game"),
             "teams": ("table", "map", "new_game"), "river": ("table", "map", "new_game")}
"""The screens a presenter module's action lists go to (default: its own screen)."""

ACT_CALL = re.compile(r"""\bact\(\s*(?P<q>["'])(?P<key>.*?)(?P=q)""")
KEY_LITERAL = re.compile(
    r"""["'](?:key|accept|dismiss)["']\s*:\s*(?P<f>f?)(?P<q>["'])(?P<key>.*?)(?P=q)""")
ANY_ACT_CALL = re.compile(r"\bact\(([^)]*)\)")


def parser(screen: str) -> Callable[[str], Any]:
    parse: Callable[[str], Any] = importlib.import_module(
        f"companion.ui.presenters.{screen}").parse
    return parse


def example(key: str) -> str:
    """A key as a button sends it: a format's number or an f-string's field becomes 1."""
    return re.sub(r"\{[^}]*\}", "1", key.replace("%d", "1").replace("%s", "1"))


def literal_keys(text: str) -> list[str]:
    found = [m["key"] for m in ACT_CALL.finditer(text)]
    found += [m["key"] for m in KEY_LITERAL.finditer(text)]
    return [example(key) for key in found if key]


# --- the intents module ---------------------------------------------------------------------


def test_unknown_action_is_a_value_error_naming_screen_key_and_allowed_keys() -> None:
    error = UnknownAction("die", "rol", ("roll", "back"))
    assert isinstance(error, ValueError)
    assert (error.screen, error.key, error.allowed) == ("die", "rol", ("roll", "back"))
    assert str(error) == "the die screen has no action 'rol'; the keys allowed: roll, back"


def test_helpers() -> None:
    from companion.ui.presenters.die import Action

    assert member(Action, "roll") is Action.ROLL
    assert member(Action, "Roll") is None
    assert argument("row3", "row") == "3"
    assert argument("row", "row") is None
    assert argument("back", "row") is None
    assert number("12") == 12
    assert number("1a") is None
    assert number(None) is None
    assert allowed(Action, "row<n>") == ("roll", "back", "row<n>")


# --- every screen ---------------------------------------------------------------------------


@pytest.mark.parametrize("screen", SCREENS)
def test_every_action_value_parses_to_itself(screen: str) -> None:
    module = importlib.import_module(f"companion.ui.presenters.{screen}")
    for action in module.Action:
        assert module.parse(action.value) is action


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("key", ["", "no_such_action", "BACK", "back ", "row", "game:x",
                                 "board:", "rename:", "dealing:dice", "catapult:x"])
def test_an_unknown_key_raises_with_the_allowed_keys(screen: str, key: str) -> None:
    module = importlib.import_module(f"companion.ui.presenters.{screen}")
    with pytest.raises(UnknownAction) as raised:
        module.parse(key)
    error = raised.value
    assert (error.screen, error.key) == (screen, key)
    assert repr(key) in str(error)
    for action in module.Action:
        assert action.value in error.allowed
        assert action.value in str(error)


def test_parameters_parse_to_their_dataclasses() -> None:
    from companion.ui.presenters import calibration, history, market, new_game, profiles

    assert market.parse("row3") == market.PickRow(3)
    assert market.parse("rules2") == market.LookUpRow(2)
    assert history.parse("game:12") == history.OpenGame(12)
    assert calibration.parse("board:4p") == calibration.ChooseBoard("4p")
    assert profiles.parse("rename:7") == profiles.OnProfile(profiles.ProfileVerb.RENAME, 7)
    assert profiles.parse("remove:2") == profiles.OnProfile(profiles.ProfileVerb.REMOVE, 2)
    assert new_game.parse("dealing:table") == new_game.ChooseDealing(new_game.Dealing.TABLE)
    assert new_game.parse("expansion:river_world") == new_game.ToggleExpansion("river_world")


def test_parameters_of_the_game_screens_parse_to_their_dataclasses() -> None:
    from companion.ui.presenters import map as map_
    from companion.ui.presenters import necromancer, river, table, teams

    assert table.parse("spread:2:Ratmen") == table.SpreadHand(2, "Ratmen")
    assert table.parse("spread:2:Lost Tribes: all") == table.SpreadHand(2, "Lost Tribes: all")
    assert table.parse("necro_well") is necromancer.TableAction.NECRO_WELL
    assert table.parse("sigil") is teams.TableAction.SIGIL
    assert table.parse("seer") is river.TableAction.SEER
    assert table.parse("map") is table.Action.MAP
    assert necromancer.parse("buy_power:Flying") == necromancer.BuyPower("Flying")
    assert map_.parse("catapult:3") == map_.Catapult(3)
    assert map_.parse("place:Troll Lair") == map_.PlaceMarker("Troll Lair")
    assert map_.parse("remove:Fortress") == map_.RemoveMarker("Fortress")
    assert map_.parse("grid_accept:12") == map_.OnDifference(map_.GridVerb.GRID_ACCEPT, 12)
    assert map_.parse("grid_show:3") == map_.OnDifference(map_.GridVerb.GRID_SHOW, 3)
    assert map_.parse("grid_calibrate") is map_.Action.GRID_CALIBRATE
    assert map_.parse("monster") is teams.MapAction.MONSTER
    assert map_.parse("river_ship_off") is river.MapAction.RIVER_SHIP_OFF
    for key in ("spread:x:Ratmen", "spread:2", "spread:2:", "grid_show:x", "grid_show",
                "catapult:", "buy_power:", "necro_wel"):
        with pytest.raises(UnknownAction):
            (necromancer.parse if key.startswith("buy") else
             map_.parse if key.startswith(("grid", "catapult")) else table.parse)(key)


@pytest.mark.parametrize("screen", ["map", "table"])
def test_a_screens_action_enums_share_no_key(screen: str) -> None:
    """A key names one action: the table's and the map's enums never share a value."""
    from enum import StrEnum

    module = importlib.import_module(f"companion.ui.presenters.{screen}")
    with pytest.raises(UnknownAction) as raised:
        module.parse("no_such_action")
    allowed_keys = raised.value.allowed
    assert len(allowed_keys) == len(set(allowed_keys))
    assert all(isinstance(v, str) for v in allowed_keys)
    assert issubclass(module.Action, StrEnum)


@pytest.mark.parametrize("screen", SCREENS)
def test_act_raises_for_an_unknown_key_and_changes_nothing(screen: str) -> None:
    from companion.session import Session
    from companion.ui.presenters.base import Context, Presenter

    module = importlib.import_module(f"companion.ui.presenters.{screen}")
    (made,) = [c for c in vars(module).values() if isinstance(c, type)
               and issubclass(c, Presenter) and c.__module__ == module.__name__]
    ctx = Context(session=Session(rng=random.Random(1)))
    ctx.nav.current = screen
    presenter = made(ctx)
    with pytest.raises(UnknownAction, match="the keys allowed: ") as raised:
        presenter.act("no_such_action")
    assert raised.value.screen == screen
    assert ctx.nav.current == screen
    assert ctx.notices.last_message == ""


def test_act_still_runs_a_known_key() -> None:
    from companion.ui.presenters.base import Context
    from companion.ui.presenters.home import Action, HomePresenter

    ctx = Context()
    home = HomePresenter(ctx)
    home.act("settings")
    assert ctx.nav.current == "settings"
    home.do(Action.HISTORY)
    assert ctx.nav.current == "history"


# --- every key in the code ------------------------------------------------------------------


def kv_keys() -> list[tuple[str, str]]:
    """(screen, key) for every literal key in kv/<screen>.kv (its root's presenter)."""
    out = []
    for path in sorted(KV.glob("*.kv")):
        out += [(path.stem, key) for key in literal_keys(path.read_text())]
    return out


def test_every_act_call_in_the_kv_files_is_checked() -> None:
    """A kv `act(...)` call either has a literal key (parsed below) or is one of the few
    that pass a key held by the widget (which comes from a presenter's list)."""
    held = []
    for path in sorted(KV.glob("*.kv")):
        for m in ANY_ACT_CALL.finditer(path.read_text()):
            if not re.match(r"""\s*["']""", m[1]):
                held.append((path.name, m[1].strip()))
    assert held == [("map.kv", "root.accept"), ("map.kv", "root.dismiss")]
    screens = {screen for screen, _ in kv_keys()}
    assert screens <= set(SCREENS), screens
    assert len(kv_keys()) > 50


@pytest.mark.parametrize(("screen", "key"), kv_keys())
def test_every_kv_key_parses_for_its_screen(screen: str, key: str) -> None:
    parser(screen)(key)


def screen_py_keys() -> list[tuple[str, str]]:
    out = []
    for path in sorted(SCREENS_PY.glob("*.py")):
        out += [(path.stem, key) for key in literal_keys(path.read_text())]
    return out


def test_every_literal_key_in_the_screens_parses_for_its_screen() -> None:
    """The screens' Python passes on keys it is given (a market row's, a difference's);
    a literal key written there would be parsed here."""
    for screen, key in screen_py_keys():
        parser(screen)(key)
    calls = {(path.name, m[1].strip()) for path in SCREENS_PY.glob("*.py")
             for m in re.finditer(r"\.act\(([^)]*)\)", path.read_text())}
    assert calls == {("map.py", "key"), ("market.py", "key"), ("market.py", "self.key"),
                     ("market.py", "self.rules_key"),
                     ("rules.py", "self.action_key"), ("rules.py", "row.action_key")}


def presenter_keys() -> list[tuple[str, str]]:
    """(module, key) for every literal key in the presenters' action lists."""
    out = []
    for path in sorted(PRESENTERS_PY.glob("*.py")):
        out += [(path.stem, key) for key in literal_keys(path.read_text())]
    return out


@pytest.mark.parametrize(("module", "key"), presenter_keys())
def test_every_key_a_presenter_offers_parses_for_a_screen_it_goes_to(module: str,
                                                                     key: str) -> None:
    refused = []
    for screen in KEYS_FROM.get(module, (module,)):
        try:
            parser(screen)(key)
            return
        except UnknownAction as error:
            refused.append(str(error))
    pytest.fail("; ".join(refused))


def tool_keys() -> list[tuple[str, str]]:
    """(screen, key) for every literal key tests/screenshots.py sends a presenter
    (`app.presenters["x"].act("k")`, or `p = app.presenters["x"]` then `p.act("k")`)."""
    out, named = [], ""
    for line in (ROOT / "tests" / "screenshots.py").read_text().splitlines():
        held = re.search(r"""\bp = app\.presenters\[["'](\w+)["']\]""", line)
        named = held[1] if held else named
        for m in re.finditer(r"""(?:presenters\[["'](\w+)["']\]|\bp)\.act\(["']([^"']*)["']""",
                             line):
            out.append((m[1] or named, m[2]))
    return out


def test_every_key_the_screenshot_tool_sends_parses_for_its_screen() -> None:
    keys = tool_keys()
    assert len(keys) >= 6
    for screen, key in keys:
        parser(screen)(key)
