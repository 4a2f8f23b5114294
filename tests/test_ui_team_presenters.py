"""Team play's buttons on the real table and game-end screens (headless, 800x480): Mirror's
Vale, Bony and the Sigil's pact offered to their holder and tapped through their dialogs,
and a tie between teams decided on the best single total at the reveal.

Each test sets the game up with session intents (see `team_support`), then only taps.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from positions import part
from team_support import (
    ANN,
    BOB,
    CY,
    DI,
    ED,
    FAY,
    ann_takes_region_6,
    bob_in_decline,
    others_play,
    play_to_the_end,
    session,
    to_turn_end,
)

from companion.rules.teams import BONEYARD, MIRROR, SIGIL, RelicsState
from companion.session import Session

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def table_for(s: Session, screen: str = "table") -> Any:
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go(screen)
    ui.pump()
    return app


def keys(app: Any) -> list[str]:
    return [a["key"] for a in app.presenters["table"].actions]


def table(app: Any) -> Any:
    return app.screens["table"]


def choose(key: str) -> None:
    ui.tap(ui.button(ui.dialogs()[-1], key))


def test_mirrors_vale_is_offered_at_the_start_of_its_holders_turn_and_swaps_powers() -> None:
    s = session(pile=(MIRROR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.end_turn()
    others_play(s)
    ann_power = s.state.players[ANN].active.power  # type: ignore[union-attr]
    di_power = s.state.players[DI].active.power  # type: ignore[union-attr]
    app = table_for(s)
    assert ui.button(table(app), "mirror").text == "Swap powers with Di (Mirror's Vale)"
    ui.tap(ui.button(table(app), "mirror"))
    assert s.state.players[ANN].active.power == di_power  # type: ignore[union-attr]
    assert s.state.players[DI].active.power == ann_power  # type: ignore[union-attr]
    assert "mirror" not in keys(app)  # once a turn
    assert table(app).ids.undo.text == "Undo: take back Ann swapping powers (Mirror's Vale)"


def test_mirrors_vale_is_not_offered_to_a_player_who_does_not_hold_it() -> None:
    s = session(pile=(MIRROR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.end_turn()
    app = table_for(s)  # Bob's turn
    assert "mirror" not in keys(app)


def test_bony_is_set_from_the_table_on_a_banner_in_decline() -> None:
    s = bob_in_decline((BONEYARD,))
    race = s.state.players[BOB].declined[0].race
    app = table_for(s)
    assert "Bony's Boneyard: set Bony" in table(app).ids.reminders.words
    ui.tap(ui.button(table(app), "bony"))
    choose(f"{BOB}:{race}")
    assert part(s.state, RelicsState).bony is not None
    assert f"Bony guards Bob's {race} in decline." in table(app).ids.expansions.words
    assert "bony" not in keys(app)


def test_the_sigils_pact_is_made_from_the_table() -> None:
    s = bob_in_decline((SIGIL,))
    race = s.state.players[BOB].declined[0].race
    app = table_for(s)
    ui.tap(ui.button(table(app), "sigil"))
    choose(f"stand-in:{BOB}:{race}")
    pact = s.state.part(RelicsState).sigil if s.state.part(RelicsState) is not None else None
    assert pact is not None and pact.other.seat == BOB and pact.mode.value == "stand-in"
    assert f"Sigil pact: Ann and Bob's {race}" in table(app).ids.expansions.words
    assert "Sigil of Sacrifice: when you lose a token" in table(app).ids.reminders.words


def test_a_tie_between_teams_is_decided_on_the_best_single_total_at_the_reveal() -> None:
    s = session()
    play_to_the_end(s, {ANN: 20, BOB: 30, CY: 20, DI: 22, ED: 12, FAY: 26})
    app = table_for(s, "game_end")
    end = app.presenters["game_end"]
    while not end.all_revealed:
        ui.tap(app.screens["game_end"].ids.reveal)
    assert [row["name"] for row in end.revealed][-1] == "Bob"  # the most coins, last
    assert [(row["rank"], row["name"]) for row in end.standings] == [
        ("1st", "C: Cy & Fay"), ("2nd", "A: Ann & Di"), ("3rd", "B: Bob & Ed")]
    text = app.screens["game_end"].ids.winner.text
    assert "Teams A and C tie on 20 coins" in text and "best single total" in text
    assert {FAY, CY} == set(s.finish().winners)
    assert ED not in s.finish().winners


def test_the_map_panel_s_rules_open_at_a_monster_s_entry() -> None:
    from screen_steps import tap_region

    s = session(pile=(MIRROR,))
    ann_takes_region_6(s)
    app = table_for(s, "map")
    tap_region(app, 12)  # a Monster guards it, nobody holds it: straight at the entry
    assert app.presenters["map"].region_rules(s.state, 12) == [("piece", "Monsters")]
    ui.tap(app.screens["map"].ids.look_up)
    assert app.ctx.nav.current == "rules"
    assert app.screens["rules"].ids.title.text == "Monsters"
    ui.tap(ui.button(app.screens["rules"], "back"))
    assert app.ctx.nav.current == "map"
