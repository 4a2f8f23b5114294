"""River World in a game: rivers, pirate ships, the Caravel, the Temple of the Seer, events."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from factories import COLOURS, NAMES
from positions import part
from river_support import (
    RIVER_DOC,
    RIVERS,
    SHIPYARD,
    TEMPLE,
    end_turns,
    line,
    river_created,
    river_session,
)

from companion.rules.catalog import load_catalog
from companion.rules.conquest import Attacker, conquest_cost, reach
from companion.rules.errors import IllegalAction, UnknownName
from companion.rules.events import Event, RegionAbandoned, Seat
from companion.rules.game import attacker, start
from companion.rules.game import refusal as said_refusal
from companion.rules.income import income
from companion.rules.river import (
    ADVISED_LEFT_OUT,
    CaravelPlaced,
    PirateShipSet,
    RiverEvent,
    RiverFacts,
    RiverState,
    check_event_line,
    event_in_force,
    markers_in_box,
    public_river,
    seer_peek,
    seer_refusal,
)
from companion.rules.state import GameState
from companion.rules.views import public
from companion.session import Session

CATALOG = load_catalog()
Q, S, H, P = (
    RiverEvent.QUIET_WATERS,
    RiverEvent.STORM,
    RiverEvent.HARSH_WINTER,
    RiverEvent.PIRATES,
)


def refusal(state: GameState, event: Event) -> str | None:
    """Why the rules refuse `event` now, in English, or None."""
    refused = said_refusal(state, event)
    return None if refused is None else str(refused)


def cost_lines(s: Session, region: int) -> list[tuple[str, int]]:
    state = s.state
    cost = conquest_cost(state.map, region, state.regions.regions, attacker(state))
    return [(line.label, line.tokens) for line in cost.lines]


def holder(s: Session, region: int) -> int | None:
    occupant = s.state.regions[region].occupant
    return None if occupant is None else occupant.seat


# --- conquest costs ------------------------------------------------------------------


def test_a_river_region_costs_one_token_to_conquer() -> None:
    s = river_session(Q)
    s.pick(0)
    assert cost_lines(s, 3) == [("A river region", 1)]


def test_a_river_costs_three_tokens_in_a_storm() -> None:
    s = river_session(S)
    s.pick(0)
    assert cost_lines(s, 3) == [("A river in a Storm", 3)]


def test_a_frozen_river_costs_two_tokens_in_a_harsh_winter() -> None:
    s = river_session(H)
    s.pick(0)
    assert cost_lines(s, 3) == [("A frozen river (Harsh Winter)", 2)]


def test_land_regions_cost_as_usual_whatever_the_event() -> None:
    for event in RiverEvent:
        s = river_session(event)
        s.pick(0)
        assert cost_lines(s, 2) == [("Any conquest", 2)], event


def test_a_pirate_ship_defends_like_one_token_and_sinks_when_conquered() -> None:
    s = river_session(Q, races=("Orcs",), powers=("Alchemist",))
    assert s.state.regions[8].markers.has("pirate_ship")  # a pirate symbol: a ship at set-up
    s.pick(0)
    s.conquer(3, 1)
    assert cost_lines(s, 8) == [("A river region", 1), ("Pirate ship", 1)]
    s.conquer(8, 2)
    assert not s.state.regions[8].markers.has("pirate_ship")
    assert s.state.track.this_turn.conquered_non_empty == 1  # the ship defended it (Orcs)


def test_a_pirate_ship_still_adds_to_a_storm_river() -> None:
    s = river_session(S)
    s.pick(0)
    s.conquer(3, 3)
    assert cost_lines(s, 8) == [("A river in a Storm", 3), ("Pirate ship", 1)]


# --- redeployment --------------------------------------------------------------------


def test_rivers_are_emptied_at_redeployment() -> None:
    s = river_session(Q)
    s.pick(0)
    s.conquer(3, 1)
    s.conquer(2, 2)
    s.finish_conquests()
    assert holder(s, 3) == 0
    s.finish_redeployment()
    assert holder(s, 3) is None and not s.state.regions[3].non_empty
    assert holder(s, 2) == 0


def test_a_harsh_winter_river_keeps_its_holder_and_scores_one() -> None:
    s = river_session(H)
    s.pick(0)  # Ratmen, Alchemist
    s.conquer(3, 2)
    s.finish_conquests()
    s.finish_redeployment()
    assert holder(s, 3) == 0
    lines = [(line.label, line.coins) for line in income(s.state).lines]
    assert ("Regions held by Ratmen", 1) in lines


def test_a_frozen_river_cannot_be_abandoned() -> None:
    s = river_session(H, H)
    s.pick(0)
    s.conquer(3, 2)
    end_turns(s, 3)  # Ann's turn 1 ends, then Bob and Cy
    assert event_in_force(s.state) is H and s.state.track.seat == 0
    reason = refusal(s.state, RegionAbandoned(0, 3))
    assert reason is not None and "Harsh Winter" in reason


def test_rivers_frozen_in_a_harsh_winter_are_left_at_the_next_redeployment() -> None:
    s = river_session(H, Q)
    s.pick(0)
    s.conquer(3, 2)
    end_turns(s, 3)
    assert holder(s, 3) == 0 and event_in_force(s.state) is Q
    s.finish_conquests()
    s.finish_redeployment()
    assert holder(s, 3) is None


def test_a_seafaring_race_stays_in_the_river() -> None:
    s = river_session(Q, races=("Humans",), powers=("Seafaring",))
    s.pick(0)
    s.conquer(3, 1)
    s.finish_conquests()
    s.finish_redeployment()
    assert holder(s, 3) == 0


def test_tritons_stay_in_the_river() -> None:
    s = river_session(Q, races=("Tritons",), powers=("Alchemist",))
    s.pick(0)
    s.conquer(3, 1)
    s.finish_conquests()
    s.finish_redeployment()
    assert holder(s, 3) == 0


def test_a_race_going_into_decline_leaves_the_rivers_it_held() -> None:
    s = river_session(H, Q)
    s.pick(0)
    s.conquer(3, 2)
    s.conquer(2, 2)
    end_turns(s, 3)
    s.decline()
    assert holder(s, 3) is None
    assert holder(s, 2) == 0


# --- harbors and pirates in scoring ----------------------------------------------------


def test_harbors_score_one_plus_two_plus_three() -> None:
    s = river_session(Q)
    s.pick(0)  # Ratmen, Alchemist
    for region in (4, 16, 14):  # three harbors (14 holds a mine too)
        s.set_region(region, 0, "Ratmen", tokens=2)
    s.finish_conquests()
    s.finish_redeployment()
    lines = [(line.label, line.coins) for line in income(s.state).lines]
    assert lines == [
        ("Regions held by Ratmen", 3),
        ("Alchemist: while the race is active", 2),
        ("Harbors: 3 held score 1 + 2 + 3 (1 each already counted as a region)", 3),
    ]


def test_a_region_next_to_a_pirate_ship_scores_one_less() -> None:
    s = river_session(Q)
    s.pick(0)
    s.conquer(2, 2)
    s.conquer(7, 2)  # a harbor beside river 8, where a pirate ship lies
    s.finish_conquests()
    s.finish_redeployment()
    lines = [(line.label, line.coins) for line in income(s.state).lines]
    assert lines == [
        ("Regions held by Ratmen", 2),
        ("Alchemist: while the race is active", 2),
        ("Pirate ships next to 1 region of Ratmen: one coin less each", -1),
    ]


# --- the event line ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "turns"), [(3, 10), (4, 9), (5, 8)])
def test_the_event_line_has_one_marker_per_turn_from_the_box(players: int, turns: int) -> None:
    doc = json.loads(RIVER_DOC)
    doc.update(players=players, turns=turns)
    seats = [Seat(NAMES[i], COLOURS[i]) for i in range(players)]
    box = Counter(markers_in_box(CATALOG))
    assert box == {S: 2, Q: 3, H: 2, P: 4}
    for seed in range(20):
        s = Session(CATALOG, rng=random.Random(seed))
        s.new_game(seats, board_doc=json.dumps(doc))
        assert s.state.part(RiverState) is not None
        events = s.state.part(RiverState).events
        assert len(events) == turns
        assert all(Counter(events)[e] <= box[e] for e in box)


def test_an_event_line_of_the_wrong_length_or_counts_is_refused() -> None:
    with pytest.raises(IllegalAction, match="one marker per turn: 10, not 9"):
        check_event_line(line()[:9], 10, CATALOG)
    three_storms = ("Storm",) * 3 + ("Quiet waters",) * 3 + ("Pirates",) * 4
    with pytest.raises(IllegalAction, match="3 Storm markers; the box has 2"):
        check_event_line(three_storms, 10, CATALOG)
    with pytest.raises(IllegalAction, match="unknown River World event 'Tsunami'"):
        check_event_line(("Tsunami", *line()[1:]), 10, CATALOG)


def test_a_river_world_board_needs_its_event_line() -> None:
    created = dataclasses.replace(river_created(), options=())
    with pytest.raises(IllegalAction, match="needs its line of Event markers"):
        start(created, CATALOG)


def test_the_event_in_force_is_in_the_public_view_and_changes_each_turn() -> None:
    s = river_session(S, H)
    view = public(s.state).part("river")
    assert view is not None
    assert (view.event, view.river_cost, view.revealed, view.face_down) == (S, 3, (S,), 9)
    end_turns(s, 3)
    view = public(s.state).part("river")
    assert view is not None
    assert (view.turn, view.event, view.river_cost, view.revealed) == (2, H, 2, (S, H))


def test_a_base_game_has_no_river_view() -> None:
    from factories import session

    view = public(session(3).state)
    assert view.part("river") is None
    with pytest.raises(UnknownName, match="'rivers'"):  # no expansion has that key
        view.part("rivers")


# --- pirates -------------------------------------------------------------------------


def test_pirate_ships_start_on_the_rivers_with_a_pirate_symbol() -> None:
    s = river_session(Q)
    assert public_river(s.state).pirate_ships == (8, 18)  # type: ignore[union-attr]


def test_pirates_in_the_first_turn_sail_into_every_empty_river() -> None:
    s = river_session(P)
    assert public_river(s.state).pirate_ships == RIVERS  # type: ignore[union-attr]


def test_pirates_place_a_ship_on_every_empty_river_when_revealed() -> None:
    s = river_session(Q, P, races=("Humans",), powers=("Seafaring",))
    s.pick(0)
    s.conquer(3, 1)  # Seafaring Humans stay in river 3
    end_turns(s, 3)
    assert event_in_force(s.state) is P
    assert public_river(s.state).pirate_ships == (8, 13, 18)  # type: ignore[union-attr]
    assert not s.state.regions[3].markers.has("pirate_ship")


# --- the Shipyard and the Caravel ----------------------------------------------------


def _holding_the_shipyard() -> Session:
    s = river_session(Q)
    s.pick(0)
    s.conquer(SHIPYARD, 2)
    return s


def test_the_caravel_gives_the_shipyard_holder_a_new_entry_point() -> None:
    s = _holding_the_shipyard()
    board = s.state.map
    assert not reach(board, TEMPLE, attacker(s.state)).reachable
    s.place_caravel(8)
    assert reach(board, 8, attacker(s.state)).reachable
    assert reach(board, TEMPLE, attacker(s.state)).reachable  # 9 borders river 8
    s.conquer(TEMPLE, 2)
    assert holder(s, TEMPLE) == 0


def test_the_caravel_lets_a_race_enter_the_board_on_a_river() -> None:
    board = river_session(Q).state.map
    newcomer = Attacker(0, "Ratmen", "Alchemist", facts=(RiverFacts(caravel=13),))
    assert not reach(board, 12, Attacker(0, "Ratmen", "Alchemist")).reachable
    assert reach(board, 12, newcomer).reachable
    assert reach(board, 13, newcomer).reachable


def test_the_caravel_is_placed_once_per_turn_and_leaves_at_the_end_of_it() -> None:
    s = _holding_the_shipyard()
    s.place_caravel(8)
    reason = refusal(s.state, CaravelPlaced(0, 13))
    assert reason is not None and "already placed this turn" in reason
    end_turns(s, 1)
    assert part(s.state, RiverState).caravel is None


def test_only_the_shipyard_holder_places_the_caravel_and_only_on_a_river() -> None:
    s = river_session(Q)
    s.pick(0)
    reason = refusal(s.state, CaravelPlaced(0, 8))
    assert reason is not None and "holding the Shipyard" in reason
    s.conquer(SHIPYARD, 2)
    reason = refusal(s.state, CaravelPlaced(0, TEMPLE))
    assert reason is not None and "goes on a river" in reason
    reason = refusal(s.state, CaravelPlaced(1, 8))
    assert reason is not None and "Ann's turn" in reason


# --- the Temple of the Seer ----------------------------------------------------------


def test_the_temple_peek_shows_the_next_event_only_to_its_holder() -> None:
    s = river_session(Q, S)
    s.pick(0)
    s.set_region(TEMPLE, 0, "Ratmen", tokens=2)
    assert seer_peek(s.state, 0) is S
    assert seer_refusal(s.state, 1) is not None  # Bob: not his turn, no Temple
    with pytest.raises(IllegalAction):
        seer_peek(s.state, 1)
    view = public_river(s.state)
    assert view is not None and S not in view.revealed and view.temple_seats == (0,)


def test_the_temple_holder_peeks_only_during_their_own_turn() -> None:
    s = river_session(Q, S, H)
    s.pick(0)
    s.set_region(TEMPLE, 0, "Ratmen", tokens=2)
    end_turns(s, 1)  # Bob's turn now; Ann still holds the Temple
    reason = seer_refusal(s.state, 0)
    assert reason is not None and "own turn" in str(reason)
    s.set_region(TEMPLE, None)
    reason = seer_refusal(s.state, 1)
    assert reason is not None and "does not hold the Temple" in str(reason)


def test_no_event_is_left_to_see_on_the_last_turn() -> None:
    s = river_session(Q)
    end_turns(s, 27)  # turns 1 to 9 of 3 players
    assert s.state.track.turn == 10 and s.state.track.seat == 0
    if s.state.current.active is None:
        s.pick(0)
    s.set_region(TEMPLE, 0, s.state.current.active.race, tokens=2)  # type: ignore[union-attr]
    assert seer_peek(s.state, 0) is None


# --- corrections at the table ----------------------------------------------------------


def test_the_table_corrects_where_pirate_ships_lie() -> None:
    s = river_session(Q)
    s.set_pirate_ship(8, False)
    s.set_pirate_ship(13, True)
    assert public_river(s.state).pirate_ships == (13, 18)  # type: ignore[union-attr]
    for event, reason in (
        (PirateShipSet(13, True), "already has a pirate ship"),
        (PirateShipSet(8, False), "has no pirate ship"),
        (PirateShipSet(TEMPLE, True), "sail on rivers"),
    ):
        refused = refusal(s.state, event)
        assert refused is not None and reason in refused, event


def test_a_correction_putting_a_race_in_a_river_sinks_its_ship() -> None:
    s = river_session(Q)
    s.pick(0)
    s.set_region(8, 0, "Ratmen", tokens=1)
    assert not s.state.regions[8].markers.has("pirate_ship")
    refused = refusal(s.state, PirateShipSet(8, True))
    assert refused is not None and "not empty" in refused


# --- the decks ---------------------------------------------------------------------------


def _powers_in_the_decks(s: Session) -> set[str]:
    market = s.state.market
    return ({row.combo.power for row in market.rows if row.combo is not None}
            | set(market.power_stack) | set(market.discarded_powers))


def test_river_world_advises_leaving_flying_out_of_the_decks() -> None:
    seats = [Seat(NAMES[i], COLOURS[i]) for i in range(3)]
    kept = Session(CATALOG, rng=random.Random(1))
    kept.new_game(seats, board_doc=RIVER_DOC)
    assert "Flying" in _powers_in_the_decks(kept)
    advised = Session(CATALOG, rng=random.Random(1))
    advised.new_game(seats, board_doc=RIVER_DOC, left_out=ADVISED_LEFT_OUT)
    assert ADVISED_LEFT_OUT == ("Flying",)
    assert _powers_in_the_decks(advised) == _powers_in_the_decks(kept) - {"Flying"}


def test_leaving_out_a_name_no_deck_holds_is_refused_and_starts_nothing() -> None:
    s = Session(CATALOG, rng=random.Random(1))
    seats = [Seat(NAMES[i], COLOURS[i]) for i in range(3)]
    with pytest.raises(IllegalAction, match="'Flyin' cannot be left out: name each race or power"):
        s.new_game(seats, board_doc=RIVER_DOC, left_out=("Flyin",))
    assert s.history is None
