"""Necromancer Island's presenters without a window: what the table, his screen, the new
game and the game end show and do (the game as in `test_necromancer_game`: four at the
table on the 3-player board, Di in seat 3 the Necromancer)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from factories import play_turn
from positions import part
from test_necromancer_game import NECRO, game, ghosts_hold_21_and_22, to_his_turn

from companion.rules.necromancer import NecromancerState
from companion.session import Session
from companion.ui.presenters.base import Choice, Context
from companion.ui.presenters.game_end import GameEndPresenter
from companion.ui.presenters.map import MapPresenter
from companion.ui.presenters.necromancer import NecromancerPresenter
from companion.ui.presenters.new_game import NewGamePresenter
from companion.ui.presenters.rules import RulesPresenter
from companion.ui.presenters.table import TablePresenter


def presenter(cls: type, s: Session, ctx: Context | None = None) -> Any:
    p = cls(ctx or Context(session=s))
    s.subscribe(p.update)
    p.update(s.state if s.history else None)
    return p


def test_his_side_of_the_table_is_public_but_never_his_coins() -> None:
    s = game()
    s.adjust_coins(NECRO, 32, "a test")  # 37 coins: a number seen nowhere else
    to_his_turn(s)
    table = presenter(TablePresenter, s)
    necro = presenter(NecromancerPresenter, s)
    shown = [table.expansion_text, table.phase_text, necro.summary_text, necro.powers_text,
             *(a["text"] for a in [*table.actions, *necro.buy_actions]),
             *(str(v) for row in table.players for v in row.values())]
    assert not [text for text in shown if "37" in text]
    assert "13 in reserve" in table.expansion_text
    assert "His next Ghost or power costs 2 coins." in table.expansion_text


def test_his_screen_offers_each_purchase_at_the_price_of_the_moment() -> None:
    s = game()
    to_his_turn(s)
    necro = presenter(NecromancerPresenter, s)
    assert [a["text"] for a in necro.buy_actions][:2] == ["Buy a Ghost: 2 coins",
                                                        "Buy Flying: 2 coins"]
    necro.act("buy_power:Flying")
    assert "Flying" in part(s.state, NecromancerState).powers_in_use
    assert necro.buy_actions[0]["text"] == "Buy a Ghost: 3 coins"
    s.conquer(21, tokens=1)
    assert necro.buy_actions == []  # his first move ended the buying


def test_his_flying_ghosts_light_up_the_whole_land_on_the_map_but_not_the_lake() -> None:
    s = game(six=("Flying", "Forest", "Alchemist", "Hill", "Merchant", "Wealthy"))
    to_his_turn(s)
    map_p = presenter(MapPresenter, s)
    assert 2 in map_p.highlight and 15 not in map_p.highlight and 1 not in map_p.highlight


def test_others_put_his_ghosts_in_hand_back_from_the_table() -> None:
    s = game()
    to_his_turn(s)
    ghosts_hold_21_and_22(s)
    play_turn(s)
    s.conquer(28, tokens=2)
    s.conquer(21, tokens=4)
    ctx = Context(session=s)
    asked: list[Choice] = []
    ctx.notices.bind(on_choice=lambda _n, choice: asked.append(choice))
    table = presenter(TablePresenter, s, ctx)
    keys = [a["key"] for a in table.actions]
    assert "necro_return" in keys and keys.index("necro_return") > keys.index("map")
    table.act("necro_return")
    assert [key for key, _ in asked[0].choices] == ["22"]
    asked[0].on_choice("22")
    assert part(s.state, NecromancerState).regions == {22: 2}
    assert "necro_return" not in [a["key"] for a in table.actions]


def test_his_instant_win_is_revealed_last_and_named() -> None:
    s = game(ghosts_removed=2)
    to_his_turn(s)
    s.adjust_coins(NECRO, 100, "a test")
    while part(s.state, NecromancerState).reserve:
        s.buy_ghost()
    s.conquer(21, tokens=12)
    s.finish_conquests()
    s.finish_redeployment()
    s.adjust_coins(0, 200, "Ann far ahead on coins")
    s.score()
    end = presenter(GameEndPresenter, s)
    while not end.all_revealed:
        end.reveal_next()
    assert end.revealed[-1]["seat"] == NECRO
    assert end.standings[0]["seat"] == NECRO and end.standings[0]["rank"] == "1st"
    assert "every Ghost in play" in end.winner_text


def test_the_new_game_plays_necromancer_island_with_up_to_six_players() -> None:
    s = Session()
    form = presenter(NewGamePresenter, s)
    form.act("necromancer")
    for _ in range(3):
        form.add_default_player()
    assert len(form.seats) == 6
    assert "the 5-player board" in form.board_text
    form.choose_first(0)
    form.start()
    assert s.state.board == "5p" and s.state.part(NecromancerState) is not None
    assert s.state.part(NecromancerState).seat == 5


def test_the_table_lets_him_choose_the_power_beside_the_well_in_the_first_turn() -> None:
    s = game()
    ctx = Context(session=s)
    asked: list[Choice] = []
    ctx.notices.bind(on_choice=lambda _n, choice: asked.append(choice))
    table = presenter(TablePresenter, s, ctx)
    assert table.actions[-1]["text"] == "Di: the power beside the Well (Forest)"
    table.act("necro_well")
    assert [key for key, _ in asked[0].choices] == list(
        ("Forest", "Flying", "Alchemist", "Hill", "Merchant", "Wealthy"))
    asked[0].on_choice("Hill")
    assert part(s.state, NecromancerState).powers_in_use == ("Hill",)
    to_his_turn(s)
    assert all(a["key"] != "necro_well" for a in table.actions)


def test_the_map_panel_s_rules_offer_his_ghosts_and_his_island() -> None:
    s = game()
    to_his_turn(s)
    ghosts_hold_21_and_22(s)
    necro = s.state.part(NecromancerState)
    assert necro is not None
    map_p = presenter(MapPresenter, s, Context(session=s, presenters={
        "rules": RulesPresenter(Context(session=s))}))
    assert map_p.region_rules(s.state, 21) == [("piece", "Ghosts")]
    assert map_p.region_rules(s.state, necro.lake) == [("piece", "Necromancer Island")]
