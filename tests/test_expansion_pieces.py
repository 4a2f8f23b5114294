"""An expansion's own pieces among a region's markers: declared by its `Expansion.pieces`,
known to the board through the registry, never named by the shared board or markers."""

from __future__ import annotations

import json

import pytest

from companion.rules import expansions
from companion.rules.board import (
    Markers,
    Occupant,
    Piece,
    RegionState,
    cleared,
    flipped,
    marker_count,
    placed_markers,
    set_by_rules,
    taken,
    with_marker,
)
from companion.rules.codec import from_record, to_record
from companion.rules.errors import IllegalAction
from companion.rules.events import GameCreated, MarkerPlaced
from companion.rules.expansion import Expansion
from companion.rules.game import GameState, apply
from tests.positions import position

STONE = "standing_stone"
MENHIR = "menhir"


class StandingStones(Expansion):
    """A toy expansion: the Ratmen raise a standing stone (placed, listed after the hero,
    one in the box); the rules set menhirs, which defend their region."""

    name = "Standing Stones"
    pieces = (Piece(STONE, placed=True, after="hero", words="standing stone"),
              Piece(MENHIR, placed=False, defends=True))

    def plays(self, created: GameCreated) -> bool:
        del created
        return True

    def in_play(self, state: GameState) -> bool:
        del state
        return True

    def marker_owner(self, state: GameState, marker: str) -> tuple[str, int | None] | None:
        del state
        return ("Ratmen", 1) if marker == STONE else None


def test_the_packaged_pieces_keep_the_order_printed_states_and_refusals_list() -> None:
    assert placed_markers() == ("fortress", "troll_lair", "encampment", "hole_in_the_ground",
                                "hero", "dragon", "pot_of_gold", "catapult")
    assert set_by_rules() == ("pirate_ship",)


def test_a_registered_expansions_pieces_are_known_inside_the_block_only() -> None:
    with expansions.extended(StandingStones()):
        assert placed_markers() == ("fortress", "troll_lair", "encampment",
                                    "hole_in_the_ground", "hero", STONE, "dragon",
                                    "pot_of_gold", "catapult")
        assert set_by_rules() == ("pirate_ship", MENHIR)
    assert STONE not in placed_markers() and MENHIR not in set_by_rules()


def test_a_piece_that_defends_makes_its_empty_region_defended() -> None:
    with expansions.extended(StandingStones()):
        assert RegionState(markers=Markers(pieces=frozenset({MENHIR}))).defended
        assert not RegionState(markers=Markers(pieces=frozenset({STONE}))).defended
        assert RegionState(markers=Markers(pieces=frozenset({"pirate_ship"}))).defended
    assert not RegionState(markers=Markers(pieces=frozenset({MENHIR}))).defended  # unknown
    assert not RegionState(markers=Markers(mountain=True)).defended


def test_pieces_are_listed_in_order_and_leave_with_the_race() -> None:
    with expansions.extended(StandingStones()):
        markers = Markers(mountain=True, fortress=True, catapult=True,
                          pieces=frozenset({MENHIR, STONE, "pot_of_gold"}))
        assert markers.shown() == ("fortress", STONE, "pot_of_gold", "catapult", MENHIR)
        assert marker_count(markers, STONE) == 1 and marker_count(markers, "hero") == 0
        assert with_marker(markers, STONE, -1).pieces == {MENHIR, "pot_of_gold"}
        assert markers.with_piece(STONE) is markers
        here = RegionState(Occupant(0, "Ratmen", False, 2), markers=markers)
        for left in (cleared(here), taken(here, Occupant(1, "Orcs", False, 2)),
                     flipped(here, keep_all_tokens=False)):
            assert left.markers.pieces == frozenset()
            assert left.markers.mountain


def test_a_player_places_an_expansions_piece_through_the_shared_marker_rules() -> None:
    state = position("2p", "Ann: Hill Ratmen 3@1 2@4; Bob: Hill Orcs @7", seat="Ann",
                     phase="redeploy")
    with pytest.raises(IllegalAction, match="unknown marker 'standing_stone'"):
        apply(state, MarkerPlaced(0, 1, STONE))
    with expansions.extended(StandingStones()):
        placed = apply(state, MarkerPlaced(0, 1, STONE))
        assert placed.regions[1].markers.has(STONE)
        with pytest.raises(IllegalAction, match="the standing stone is already on the board"):
            apply(placed, MarkerPlaced(0, 4, STONE))
        with pytest.raises(IllegalAction, match="goes in a region your active race holds"):
            apply(state, MarkerPlaced(0, 7, STONE))


def test_a_piece_placed_is_recorded_as_it_always_was() -> None:
    record = '{"type": "marker_placed", "v": 3, "seat": 0, "region": 3, "marker": "pot_of_gold"}'
    event = from_record(json.loads(record))
    assert event == MarkerPlaced(0, 3, "pot_of_gold")
    assert json.dumps(to_record(event)) == record
    assert from_record({**json.loads(record), "v": 2}) == event  # as schema 2 saved it
