"""Random play that keeps trying the limited actions never gets past a limit the rules give
(Hypothesis, through the Session): a second Fortress or Dragon conquest in a turn, a
Sorcerer twice against one opponent in a turn, more pieces on the board than the box
holds, a Hole-in-the-Ground outside the first 2 regions its Halflings conquered, an
Encampment, a Hero or a Pot of Gold set out other than while redeploying, two Pots in a
region. The limits are counted from the events in force, not from the rules' own
bookkeeping, so a fault in that bookkeeping shows too (docs/rules-clauses.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from factories import session
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tell_statistics
from hypothesis import strategies as st
from test_rules_properties import legal_moves

from companion.rules.board import marker_count
from companion.rules.errors import IllegalAction
from companion.rules.events import (
    ComboPicked,
    MarkerPlaced,
    MarkerRemoved,
    RegionConquered,
    TurnEnded,
)
from companion.rules.history import History
from companion.rules.turns import Phase
from companion.session import Session

BOX = {"fortress": 6, "encampment": 5, "troll_lair": 10, "hole_in_the_ground": 2,
       "hero": 2, "dragon": 1}
"""How many of each piece the base box holds (the rule book's list of components)."""

OWNERS = {"Fortified": "fortress", "Bivouacking": "encampment", "Heroic": "hero",
          "Trolls": "troll_lair", "Halflings": "hole_in_the_ground",
          "Leprechauns": "pot_of_gold"}
"""Whose pieces they are: the tries place the current player's own most of the time."""

RACES = ("Halflings", "Sorcerers", "Trolls", "Leprechauns", "Amazons", "Elves")
POWERS = ("Fortified", "Dragon Master", "Bivouacking", "Heroic", "Flying", "Alchemist")
"""The first combos on the market: the races and powers whose pieces or actions the rules
limit, so that random picks play them often (Be Not Afraid... is in the decks for the
Leprechauns' Pots of Gold)."""
SETS = ("base", "be-not-afraid")
WHILE_REDEPLOYING = ("encampment", "hero", "pot_of_gold")
"""The pieces set out only in their owner's Troop Redeployment."""


def tries(s: Session, data: st.DataObject) -> list[tuple[str, Callable[[], object]]]:
    """The limited actions, tried whether or not the rules allow them now (twice in the
    list: tried about as often as all the ordinary moves together)."""
    state = s.state
    seat = state.track.seat
    own = sorted(rid for rid, here in state.regions.regions.items()
                 if here.occupant is not None and here.occupant.seat == seat)
    region = data.draw(st.sampled_from(own or sorted(state.regions.regions)), label="where")
    active = state.current.active
    theirs = [m for owner, m in OWNERS.items()
              if active is not None and owner in (active.race, active.power)]
    marker = data.draw(st.sampled_from(theirs or sorted(BOX)), label="piece")
    return 2 * [
        (f"place {marker} {region}", lambda: s.place_marker(region, marker)),
        (f"remove {marker} {region}", lambda: s.remove_marker(region, marker)),
        (f"dragon {region}", lambda: s.conquer(region, dragon=True)),
        (f"sorcery {region}", lambda: s.conquer(region, 1, sorcery=True)),
    ]


def limits_kept(history: History) -> list[str]:
    """What in the steps in force goes past a limit (empty: nothing)."""
    broken: list[str] = []
    fortresses: Counter[int] = Counter()
    dragons = 0
    sorcery: Counter[int] = Counter()
    first_regions: dict[int, list[int]] = {}  # by seat: its race's first 2 conquests
    for index, step in enumerate(history.in_force):
        before = history.states[index - 1] if index else None
        for event in step:
            if isinstance(event, TurnEnded):
                fortresses.clear()
                dragons = 0
                sorcery.clear()
            elif isinstance(event, MarkerPlaced) and event.marker in WHILE_REDEPLOYING \
                    and (before is None or before.track.phase is not Phase.REDEPLOY):
                broken.append(f"step {index}: {event.marker} placed outside redeployment")
            elif isinstance(event, MarkerPlaced) and event.marker == "fortress":
                fortresses[event.region] += 1
            elif isinstance(event, MarkerRemoved) and event.marker == "fortress" \
                    and fortresses[event.region]:
                fortresses[event.region] -= 1  # a slip put right in the same turn
            elif isinstance(event, ComboPicked):
                first_regions[event.seat] = []
            elif isinstance(event, RegionConquered):
                first = first_regions.setdefault(event.seat, [])
                if not event.declined_ghouls and len(first) < 2 and event.region not in first:
                    first.append(event.region)
                dragons += bool(event.dragon)
                held = before.regions[event.region].occupant if before else None
                if event.sorcery and held is not None:
                    sorcery[held.seat] += 1
        if sum(fortresses.values()) > 1:
            broken.append(f"step {index}: a second Fortress this turn")
        if dragons > 1:
            broken.append(f"step {index}: a second Dragon conquest this turn")
        if any(n > 1 for n in sorcery.values()):
            broken.append(f"step {index}: Sorcery twice against one opponent this turn")
        state = history.states[index]
        for rid, here in state.regions.regions.items():
            if marker_count(here.markers, "hole_in_the_ground") and (
                    here.occupant is None
                    or rid not in first_regions.get(here.occupant.seat, [])):
                broken.append(f"step {index}: a Hole-in-the-Ground in region {rid}, not one "
                              "of the first 2 its Halflings conquered")
        if any(marker_count(here.markers, "pot_of_gold") > 1
               for here in state.regions.regions.values()):
            broken.append(f"step {index}: two Pots of Gold in one region")
        for marker, box in BOX.items():
            if state.regions.count_markers(marker) > box:
                broken.append(f"step {index}: more {marker} pieces than the box's {box}")
    return broken


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), data=st.data())
def test_random_play_trying_the_limited_actions_never_gets_past_a_limit(
        players: int, seed: int, data: st.DataObject) -> None:
    s = session(players=players, seed=seed, races=RACES, powers=POWERS, expansions=SETS)
    s.pick(0)  # the first player plays Fortified Halflings: the limits are tried at once
    for _ in range(data.draw(st.integers(20, 160), label="steps")):
        if s.state.is_over:
            break
        moves = legal_moves(s, data) + tries(s, data)
        name, move = data.draw(st.sampled_from(moves), label="move")
        try:
            move()
            tell_statistics(f"accepted: {name.split()[0]}")  # the run's statistics show they happen
        except IllegalAction:
            pass  # a try the rules refuse: nothing changed
        assert s.history is not None
    assert s.history is not None
    assert limits_kept(s.history) == []
