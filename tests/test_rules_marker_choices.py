"""`marker_choices` (what a region's panel offers to place and take out) is exactly what the
rules allow: the same answer as asking `refusal` of every marker of the game, in every
region, at every step of random play, and the Fortified's Fortress offered once a turn."""

from __future__ import annotations

from factories import session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rules_properties import legal_moves

from companion.rules import (
    GameState,
    MarkerPlaced,
    MarkerRemoved,
    marker_choices,
    placed_markers,
    refusal,
)
from companion.rules.errors import IllegalAction

RACES = ("Trolls", "Halflings", "Humans", "Amazons", "Elves", "Sorcerers")
POWERS = ("Fortified", "Bivouacking", "Heroic", "Dragon Master", "Flying", "Alchemist")


def every_marker_tried(state: GameState, region: int) -> tuple[tuple[str, ...], ...]:
    """The answer by brute force: every marker of the game asked of the rules, both ways."""
    seat = state.track.seat
    return (tuple(m for m in placed_markers()
                  if refusal(state, MarkerPlaced(seat, region, m)) is None),
            tuple(m for m in placed_markers()
                  if refusal(state, MarkerRemoved(seat, region, m)) is None))


def test_a_fortress_is_offered_once_a_turn_and_then_to_take_out() -> None:
    s = session(players=3, seed=1, races=RACES, powers=POWERS)
    s.pick(0)  # Fortified Trolls
    region = next(iter(s.state.regions.regions))
    for rid in sorted(s.state.regions.regions):
        try:
            s.conquer(rid)
        except IllegalAction:
            continue
        region = rid
        break
    placing, removing = marker_choices(s.state, region)
    assert "fortress" in placing and "troll_lair" in placing and "fortress" not in removing
    s.place_marker(region, "fortress")
    placing, removing = marker_choices(s.state, region)
    assert "fortress" not in placing and "fortress" in removing
    assert (placing, removing) == every_marker_tried(s.state, region)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), data=st.data())
def test_the_choices_are_what_the_rules_allow_in_every_region_of_random_play(
        players: int, seed: int, data: st.DataObject) -> None:
    s = session(players=players, seed=seed, races=RACES, powers=POWERS)
    for _ in range(data.draw(st.integers(5, 30), label="steps")):
        if s.state.is_over:
            break
        state = s.state
        for region in sorted(state.regions.regions):
            assert marker_choices(state, region) == every_marker_tried(state, region), region
        _name, move = data.draw(st.sampled_from(legal_moves(s, data)), label="move")
        move()
        if s.state.regions is not state.regions and state.current.active is not None:
            for region, here in s.state.regions.regions.items():  # try a piece of theirs
                if here.occupant is not None and here.occupant.seat == s.state.track.seat:
                    placing, _removing = marker_choices(s.state, region)
                    if placing:
                        s.place_marker(region, placing[0])
                    break
