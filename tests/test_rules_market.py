"""The combo market: costs, coins on rows, sliding, revealing, banners and badges returning."""

from __future__ import annotations

import pytest
from factories import play_turn, session

from companion.rules.errors import IllegalAction
from companion.rules.market import Combo, Market, Row

RACES = ("Ratmen", "Orcs", "Elves", "Dwarves", "Humans", "Giants", "Trolls")
POWERS = ("Flying", "Hill", "Merchant", "Forest", "Wealthy", "Alchemist", "Stout")


def test_six_combos_are_dealt_from_the_tops_of_the_stacks() -> None:
    s = session(races=RACES, powers=POWERS)
    rows = s.state.market.rows
    dealt = [(r.combo.race, r.combo.power) for r in rows]
    assert dealt == list(zip(RACES[:6], POWERS[:6], strict=True))
    assert s.state.market.race_stack[0] == "Trolls"
    assert s.state.market.power_stack[0] == "Stout"


def test_the_top_combo_is_free() -> None:
    s = session(races=RACES, powers=POWERS)
    s.pick(0)
    ann = s.state.players[0]
    assert ann.coins == 5
    assert ann.active is not None and ann.active.race == "Ratmen"


def test_a_lower_row_costs_one_coin_dropped_on_each_row_above() -> None:
    s = session(races=RACES, powers=POWERS)
    s.pick(3)  # Forest Dwarves, three rows above it
    assert s.state.players[0].coins == 2
    assert [r.coins for r in s.state.market.rows[:3]] == [1, 1, 1]
    assert s.state.market.rows[3].combo == Combo("Humans", "Wealthy")  # slid up


def test_the_picker_takes_the_coins_lying_on_the_picked_row() -> None:
    s = session(races=RACES, powers=POWERS)
    play_turn(s, row=2)  # Ann drops a coin on rows 0 and 1
    # Bob picks row 1 (Hill Orcs, 1 coin on it): pays 1 on row 0, takes the 1 lying there
    s.pick(1)
    assert s.state.players[1].coins == 5 - 1 + 1
    assert s.state.market.rows[0].coins == 2


def test_rows_slide_up_and_a_new_combo_is_revealed_at_the_bottom() -> None:
    s = session(races=RACES, powers=POWERS)
    s.pick(1)
    combos = [r.combo for r in s.state.market.rows]
    assert combos[0] == Combo("Ratmen", "Flying")
    assert combos[1] == Combo("Elves", "Merchant")
    assert combos[-1] == Combo("Trolls", "Stout")
    assert len(combos) == 6


def test_tokens_received_are_banner_plus_badge() -> None:
    s = session(races=RACES, powers=POWERS)
    s.pick(0)  # Flying Ratmen: 8 + 5
    active = s.state.players[0].active
    assert active is not None and active.tokens == 13


def test_tokens_never_exceed_the_races_physical_tokens() -> None:
    # Dwarves have 8 tokens in the box: 3 + Bivouacking 5 = 8 fits, but the catalog caps
    # any sum above it.
    catalog = session().catalog
    for race in catalog.races_in(["base"]):
        for power in catalog.powers_in(["base"]):
            tokens = catalog.combo_tokens(race.name, power.name)
            assert tokens == min(race.tokens + power.tokens, race.max_tokens or 99)


def test_an_unaffordable_row_is_refused_with_the_reason_and_nothing_changes() -> None:
    s = session(races=RACES, powers=POWERS)
    s.adjust_coins(0, -4, "test: Ann gave coins back")
    before = s.state
    with pytest.raises(IllegalAction, match="cannot afford"):
        s.pick(5)
    assert s.state == before


def test_a_row_that_does_not_exist_is_refused() -> None:
    s = session(races=RACES, powers=POWERS)
    with pytest.raises(IllegalAction, match="no combo in row 7"):
        s.pick(6)


def test_a_vanished_races_banner_goes_to_the_bottom_of_the_stack() -> None:
    s = session(players=2, races=RACES, powers=POWERS)
    play_turn(s, row=0)  # turn 1: Ann takes the Flying Ratmen
    play_turn(s, row=0)  # Bob
    s.decline()  # turn 2: the Ratmen go into decline
    s.score(1)
    s.end_turn()
    play_turn(s)  # Bob
    play_turn(s, row=0)  # turn 3: Ann takes a new combo
    play_turn(s)  # Bob
    second = s.state.players[0].active
    assert second is not None
    s.decline()  # turn 4: the new race goes into decline, the Ratmen leave the board
    assert s.state.market.race_stack[-1] == "Ratmen"
    assert [d.race for d in s.state.players[0].declined] == [second.race]


def test_discarded_badges_are_reshuffled_when_the_badge_stack_runs_out() -> None:
    m = Market(rows=(), race_stack=("Orcs",), power_stack=(), discarded_powers=("Hill", "Forest"))
    assert m.needs_badge_reshuffle
    m = m.reshuffle_badges(("Forest", "Hill"))
    assert m.power_stack == ("Forest", "Hill") and m.discarded_powers == ()
    assert m.next_reveal() == Combo("Orcs", "Forest")


def test_a_reshuffle_must_hold_exactly_the_discards() -> None:
    m = Market(rows=(), race_stack=("Orcs",), power_stack=(), discarded_powers=("Hill",))
    with pytest.raises(IllegalAction, match="exactly the discarded badges"):
        m.reshuffle_badges(("Hill", "Forest"))


def test_when_the_app_deals_a_reveal_must_be_the_top_of_the_stacks() -> None:
    m = Market(rows=(), race_stack=("Orcs", "Elves"), power_stack=("Hill", "Forest"))
    with pytest.raises(IllegalAction, match="next combo in the stacks is Hill Orcs"):
        m.reveal(Combo("Elves", "Forest"))


def test_when_the_table_deals_any_banner_and_badge_still_in_the_piles_may_be_revealed() -> None:
    s = session(dealing="table")
    assert s.state.market.rows == () and s.state.market.missing == 6
    s.reveal("elves", "FOREST")
    assert s.state.market.rows == (Row(Combo("Elves", "Forest")),)
    with pytest.raises(IllegalAction, match="banner Elves is not in the banner stack"):
        s.reveal("Elves", "Hill")


def test_a_combo_cannot_be_picked_while_the_table_still_owes_reveals() -> None:
    s = session(dealing="table")
    for race, power in [("Elves", "Forest"), ("Orcs", "Hill")]:
        s.reveal(race, power)
    with pytest.raises(IllegalAction, match="waiting for 4 combo"):
        s.pick(0)


def test_the_market_shows_fewer_than_six_only_when_the_stacks_run_dry() -> None:
    m = Market(rows=tuple(Row(Combo(f"R{i}", f"P{i}")) for i in range(4)),
               race_stack=(), power_stack=("P9",))
    assert m.missing == 0
    m2 = m.return_banner("Orcs")
    assert m2.missing == 1 and m2.next_reveal() == Combo("Orcs", "P9")


MINI = ("base", "cursed", "be-not-afraid")


def test_skipping_a_cursed_combo_costs_three_coins_on_its_row() -> None:
    s = session(races=("Orcs", "Elves", "Humans"), powers=("Cursed", "Hill", "Forest"),
                expansions=MINI)
    assert s.state.market.cost(1) == 3 and s.state.market.cost(2) == 4
    s.pick(2)  # Forest Humans: 3 on the Cursed Orcs, 1 on the Hill Elves
    assert s.state.players[0].coins == 1
    assert [r.coins for r in s.state.market.rows[:2]] == [3, 1]
    assert s.state.coins_issued == sum(p.coins for p in s.state.players) + 4


def test_a_bypassed_homunculi_combo_gains_a_token_received_when_picked() -> None:
    s = session(players=2, races=("Homunculi", "Elves", "Humans"),
                powers=("Hill", "Forest", "Swamp"), expansions=MINI)
    base = s.catalog.combo_tokens("Homunculi", "Hill")
    play_turn(s, row=1)  # Ann bypasses the Hill Homunculi
    assert s.state.market.rows[0].extra_tokens == 1
    s.pick(0)  # Bob takes them
    active = s.state.players[1].active
    assert active is not None and active.tokens == base + 1
    assert s.state.players[1].coins == 5 + 1
