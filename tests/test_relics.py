"""Righteous Relics and Popular Places: drawn where a Monster falls, held by active races."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import replace

import pytest

from companion.rules.board import BoardState, Markers, Occupant, RegionState
from companion.rules.errors import IllegalAction
from companion.rules.maps import load_board
from companion.rules.teams import (
    BONEYARD,
    MIRROR,
    SIGIL,
    SOAPBAR,
    TAVERN,
    Banner,
    RelicsState,
    SigilMode,
    Swap,
    Transfer,
    choose_sigil,
    holder,
    move_soapbar,
    place_bony,
    public,
    region_conquered,
    settle,
    share_tavern,
    shielded,
    soapbar_destinations,
    start,
    swap_powers,
    turn_end_bonus,
    turn_ended,
)
from companion.rules.teams import (
    reminders as said_reminders,
)

BOARD = load_board("4p")
ORDER = (TAVERN, SOAPBAR, BONEYARD, MIRROR, SIGIL)
MONSTERS = frozenset({3, 12, 24, 27, 31})


def refused(match: str) -> AbstractContextManager[pytest.ExceptionInfo[IllegalAction]]:
    return pytest.raises(IllegalAction, match=match)


def board(*held: tuple[int, int, str, bool], markers: dict[int, Markers] | None = None
          ) -> BoardState:
    """The 4p board with (region, seat, race, in decline) occupants."""
    state = BoardState.setup(BOARD)
    for region, seat, race, declined in held:
        state = state.with_region(region, RegionState(Occupant(seat, race, declined, 1)))
    for region, found in (markers or {}).items():
        state = state.with_region(region, replace(state[region], markers=found))
    return state


def lying(**where: int) -> RelicsState:
    """Markers already found, by short name: soapbar, tavern, boneyard, mirror, sigil."""
    names = {"soapbar": SOAPBAR, "tavern": TAVERN, "boneyard": BONEYARD, "mirror": MIRROR,
             "sigil": SIGIL}
    found = {names[k]: v for k, v in where.items()}
    pile = tuple(n for n in ORDER if n not in found)
    return RelicsState(pile=pile, monsters=frozenset(), lying=found)


# --- the pile and the Monsters -------------------------------------------------------------


def test_the_pile_holds_the_relic_and_the_four_places_once_each() -> None:
    assert start(ORDER, MONSTERS).pile == ORDER
    with refused("each Relic and Place once"):
        start((TAVERN, TAVERN, BONEYARD, MIRROR, SIGIL), MONSTERS)


def test_conquering_a_monster_region_draws_the_top_marker_into_it() -> None:
    state, drawn = region_conquered(start(ORDER, MONSTERS), 12)
    assert drawn == TAVERN
    assert state.lying == {TAVERN: 12}
    assert state.pile == ORDER[1:]
    assert 12 not in state.monsters


def test_a_region_without_a_monster_draws_nothing() -> None:
    state = start(ORDER, MONSTERS)
    assert region_conquered(state, 13) == (state, None)
    after, _ = region_conquered(state, 12)
    assert region_conquered(after, 12) == (after, None)


def test_a_monster_falling_after_the_pile_is_empty_draws_nothing() -> None:
    state = RelicsState(pile=(), monsters=frozenset({3}))
    after, drawn = region_conquered(state, 3)
    assert drawn is None
    assert after.monsters == frozenset()


def test_the_public_view_never_shows_the_order_of_the_pile() -> None:
    state, _ = region_conquered(start(ORDER, MONSTERS), 12)
    view = public(state)
    assert view.pile_left == 4
    assert view.lying == ((TAVERN, "Popular Place", 12),)
    assert view.monsters == (3, 24, 27, 31)
    assert not any(name in repr(view) for name in ORDER[1:])


# --- who holds a marker ----------------------------------------------------------------------


def test_a_markers_power_belongs_to_the_active_race_holding_its_region() -> None:
    state = lying(tavern=12)
    assert holder(state, board((12, 2, "Orcs", False)), TAVERN) == 2
    assert holder(state, board((12, 4, "Elves", False)), TAVERN) == 4


def test_a_race_in_decline_never_uses_a_relic_or_place_not_even_ghouls() -> None:
    state = lying(tavern=12)
    assert holder(state, board((12, 2, "Ghouls", True)), TAVERN) is None


def test_an_abandoned_region_keeps_its_marker() -> None:
    state = lying(tavern=12)
    assert holder(state, board(), TAVERN) is None
    assert state.lying[TAVERN] == 12


# --- Golden Soapbar ----------------------------------------------------------------------


def test_the_golden_soapbar_pays_one_coin_at_the_end_of_its_holders_turn() -> None:
    regions = board((12, 1, "Orcs", False), (10, 1, "Orcs", False))
    state, lines = turn_end_bonus(lying(soapbar=12), BOARD, regions, seat=1)
    assert lines == ((SOAPBAR, 1),)
    assert state.soapbar_owed_by == 1


def test_the_golden_soapbar_pays_nobody_else_at_the_end_of_their_turn() -> None:
    regions = board((12, 1, "Orcs", False), (10, 2, "Elves", False))
    state, lines = turn_end_bonus(lying(soapbar=12), BOARD, regions, seat=2)
    assert lines == ()
    assert state.soapbar_owed_by is None


def test_the_golden_soapbar_then_moves_next_to_its_holders_active_race_but_not_into_it() -> None:
    regions = board((12, 1, "Orcs", False), (13, 1, "Orcs", False), (11, 1, "Elves", True),
                    (18, 3, "Dwarves", False))
    state, _ = turn_end_bonus(lying(soapbar=12), BOARD, regions, seat=1)
    assert soapbar_destinations(state, BOARD, regions, 1) == (10, 11, 17, 18, 19)
    with refused("not region 13"):
        move_soapbar(state, BOARD, regions, 1, 13)
    with refused("not region 30"):
        move_soapbar(state, BOARD, regions, 1, 30)
    moved = move_soapbar(state, BOARD, regions, 1, 11)  # their own race in decline: allowed
    assert moved.lying[SOAPBAR] == 11
    assert moved.soapbar_owed_by is None


def test_the_turn_cannot_end_until_the_golden_soapbar_has_moved() -> None:
    regions = board((12, 1, "Orcs", False))
    state, _ = turn_end_bonus(lying(soapbar=12), BOARD, regions, seat=1)
    with refused("move the Golden Soapbar first"):
        turn_ended(state, 1)
    turn_ended(move_soapbar(state, BOARD, regions, 1, 18), 1)


def test_the_golden_soapbar_moves_only_right_after_paying() -> None:
    with refused("moves only right after its holder collects"):
        move_soapbar(lying(soapbar=12), BOARD, board((12, 1, "Orcs", False)), 1, 18)


# --- Glandulf's Tavern -------------------------------------------------------------------


def test_glandulfs_tavern_pays_two_coins_at_the_end_of_its_holders_turn() -> None:
    regions = board((12, 1, "Orcs", False))
    state, lines = turn_end_bonus(lying(tavern=12), BOARD, regions, seat=1)
    assert lines == ((TAVERN, 2),)
    assert state.tavern_open == (1, 2)


def test_the_taverns_coins_may_be_given_to_any_one_player() -> None:
    state, _ = turn_end_bonus(lying(tavern=12), BOARD, board((12, 1, "Orcs", False)), 1)
    after, transfer = share_tavern(state, seat=1, to_seat=2, coins=2)
    assert transfer == Transfer(1, 2, 2)
    with refused("only the Tavern's holder shares"):
        share_tavern(after, seat=1, to_seat=4, coins=1)


def test_only_the_taverns_own_coins_are_shared() -> None:
    state, _ = turn_end_bonus(lying(tavern=12), BOARD, board((12, 1, "Orcs", False)), 1)
    with refused("1 to 2 coin\\(s\\), its own coins only; not 3"):
        share_tavern(state, seat=1, to_seat=4, coins=3)
    with refused("with another player"):
        share_tavern(state, seat=1, to_seat=1, coins=1)


def test_the_taverns_share_closes_with_the_turn() -> None:
    state, _ = turn_end_bonus(lying(tavern=12), BOARD, board((12, 1, "Orcs", False)), 1)
    with refused("in the turn they collect them"):
        share_tavern(turn_ended(state, 1), seat=1, to_seat=4, coins=1)


def test_soapbar_and_tavern_together_pay_three_coins() -> None:
    regions = board((12, 1, "Orcs", False), (13, 1, "Orcs", False))
    _, lines = turn_end_bonus(lying(soapbar=12, tavern=13), BOARD, regions, seat=1)
    assert sum(coins for _, coins in lines) == 3


# --- Bony's Boneyard ---------------------------------------------------------------------


def bony_on_dwarves() -> tuple[RelicsState, BoardState]:
    regions = board((12, 1, "Orcs", False), (30, 3, "Dwarves", True), (31, 3, "Dwarves", True))
    return place_bony(lying(boneyard=12), regions, 1, Banner(3, "Dwarves")), regions


def test_bony_keeps_other_players_abilities_off_the_banner_he_guards() -> None:
    state, _ = bony_on_dwarves()
    assert shielded(state, Banner(3, "Dwarves"), by_seat=2)
    assert shielded(state, Banner(3, "Dwarves"), by_seat=0)  # partners too
    assert not shielded(state, Banner(3, "Dwarves"), by_seat=3)  # never against the owner
    assert not shielded(state, Banner(2, "Elves"), by_seat=1)


def test_bony_goes_only_on_a_race_in_decline_on_the_board() -> None:
    regions = board((12, 1, "Orcs", False), (30, 3, "Dwarves", False))
    with refused("seat 3 has no Dwarves in decline there"):
        place_bony(lying(boneyard=12), regions, 1, Banner(3, "Dwarves"))


def test_only_the_boneyards_active_holder_sets_bony_and_only_once() -> None:
    state, regions = bony_on_dwarves()
    with refused("holds Bony's Boneyard"):
        place_bony(lying(boneyard=12), regions, 2, Banner(3, "Dwarves"))
    with refused("Bony already guards seat 3's Dwarves"):
        place_bony(state, regions, 1, Banner(3, "Dwarves"))


def test_bony_leaves_when_the_boneyards_holder_declines_abandons_or_loses_it() -> None:
    state, regions = bony_on_dwarves()
    assert settle(state, regions).bony is not None
    declined = regions.with_region(12, RegionState(Occupant(1, "Orcs", True, 1)))
    assert settle(state, declined).bony is None
    abandoned = regions.with_region(12, RegionState())
    assert settle(state, abandoned).bony is None
    lost = regions.with_region(12, RegionState(Occupant(2, "Elves", False, 3)))
    assert settle(state, lost).bony is None
    assert place_bony(settle(state, lost), lost, 2, Banner(3, "Dwarves")).bony is not None


def test_bony_leaves_when_the_banner_he_guards_is_gone_from_the_board() -> None:
    state, regions = bony_on_dwarves()
    gone = regions.with_region(30, RegionState()).with_region(31, RegionState())
    assert settle(state, gone).bony is None


# --- Mirror's Vale -------------------------------------------------------------------------


def test_mirrors_vale_swaps_special_powers_with_the_partner_at_the_start_of_the_turn() -> None:
    regions = board((12, 1, "Orcs", False), (20, 4, "Elves", False))
    state, swap = swap_powers(lying(mirror=12), regions, 1, "Flying", "Commando",
                              at_turn_start=True)
    assert swap == Swap(seat=1, power="Commando", ally=4, ally_power="Flying", lifted=())
    assert state.mirror_used


def test_the_pieces_of_swapped_powers_leave_the_board_for_their_new_owners_hand() -> None:
    regions = board((12, 1, "Orcs", False), (13, 1, "Orcs", False), (20, 4, "Elves", False),
                    markers={13: Markers(fortress=True), 20: Markers(encampments=2)})
    _, swap = swap_powers(lying(mirror=12), regions, 1, "Fortified", "Bivouacking",
                          at_turn_start=True)
    assert swap.lifted == ((13, "fortress", 1), (20, "encampment", 2))


def test_mirrors_vale_works_once_before_any_conquest() -> None:
    regions = board((12, 1, "Orcs", False), (20, 4, "Elves", False))
    with refused("at the start of your turn"):
        swap_powers(lying(mirror=12), regions, 1, "Flying", "Hill", at_turn_start=False)
    used, _ = swap_powers(lying(mirror=12), regions, 1, "Flying", "Hill", at_turn_start=True)
    with refused("already been used this turn"):
        swap_powers(used, regions, 1, "Hill", "Flying", at_turn_start=True)
    assert not turn_ended(used, 1).mirror_used


def test_mirrors_vale_needs_its_holder_and_a_partner_with_an_active_race() -> None:
    regions = board((12, 1, "Orcs", False))
    with refused("both partners need an active race"):
        swap_powers(lying(mirror=12), regions, 1, "Flying", None, at_turn_start=True)
    with refused("holds Mirror's Vale"):
        swap_powers(lying(mirror=12), regions, 4, "Hill", "Flying", at_turn_start=True)


# --- Sigil of Sacrifice --------------------------------------------------------------------


def test_the_sigils_holder_records_a_pact_with_another_race() -> None:
    regions = board((12, 1, "Orcs", False), (20, 2, "Elves", False))
    state = choose_sigil(lying(sigil=12), regions, 1, SigilMode.SHIELD, Banner(2, "Elves"))
    assert state.sigil is not None
    assert (state.sigil.holder, state.sigil.other) == (Banner(1, "Orcs"), Banner(2, "Elves"))
    assert "when seat 2's Elves lose a token" in reminders(state, regions, 1)[0]
    with refused("the Sigil's pact with seat 2's Elves holds while you keep the Sigil"):
        choose_sigil(state, regions, 1, SigilMode.STAND_IN, Banner(2, "Elves"))


def test_the_sigils_pact_ends_when_its_holder_loses_the_sigil() -> None:
    regions = board((12, 1, "Orcs", False), (20, 2, "Elves", False))
    state = choose_sigil(lying(sigil=12), regions, 1, SigilMode.STAND_IN, Banner(2, "Elves"))
    lost = regions.with_region(12, RegionState(Occupant(2, "Elves", False, 2)))
    assert settle(state, lost).sigil is None


def test_the_sigil_never_touches_a_banner_bony_guards() -> None:
    state, regions = bony_on_dwarves()
    state = replace(state, lying={**state.lying, SIGIL: 13})
    regions = regions.with_region(13, RegionState(Occupant(2, "Elves", False, 1)))
    with refused("Bony guards seat 3's Dwarves"):
        choose_sigil(state, regions, 2, SigilMode.STAND_IN, Banner(3, "Dwarves"))


def test_the_sigils_pact_is_made_with_another_race_on_the_board() -> None:
    regions = board((12, 1, "Orcs", False))
    with refused("another race than the holder's own"):
        choose_sigil(lying(sigil=12), regions, 1, SigilMode.SHIELD, Banner(1, "Orcs"))
    with refused("seat 2 has no Elves on the board"):
        choose_sigil(lying(sigil=12), regions, 1, SigilMode.SHIELD, Banner(2, "Elves"))


def reminders(state: RelicsState, regions: BoardState, seat: int) -> tuple[str, ...]:
    """The markers' reminders in English, as the rules say them."""
    return tuple(str(line) for line in said_reminders(state, regions, seat))


# --- reminders -----------------------------------------------------------------------------


def test_reminders_name_what_the_markers_held_ask_for_now() -> None:
    regions = board((12, 1, "Orcs", False), (13, 1, "Orcs", False), (18, 1, "Orcs", False))
    state = lying(boneyard=12, mirror=13, sigil=18)
    said = reminders(state, regions, 1)
    assert [r.split(":")[0] for r in said] == [
        "Bony's Boneyard", "Mirror's Vale", "Sigil of Sacrifice"]
    assert reminders(state, regions, 2) == ()
