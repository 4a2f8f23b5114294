"""Markers and corrections: the pieces a race or power leaves in a region (fortress,
troll's lair, encampment, hole in the ground, hero, dragon, and the Catapult: one piece,
moved by taking it away and placing it again), and the table's correction of who holds a
region. An expansion's own markers (whose race or power places them, how many the box
holds, when) and what a correction clears of its pieces are asked of the game's expansions
(`Expansion.marker_owner`, `Expansion.refuse_marker`, `Expansion.region_set`); no
expansion is named here.

Invariants: only the active race or power that owns a marker places it, in a region that
race holds, never more than the box holds; a region holds at most one of each marker but
encampments; a once-a-turn marker (Fortified's Fortress, `ONCE_PER_TURN`) is placed at most
once in a turn; a correction never puts a race in a region that its player does not have.
"""

from __future__ import annotations

from dataclasses import replace

import companion.rules.expansions as expansions
from companion.rules.board import (
    Occupant,
    RegionState,
    expansion_piece,
    marker_count,
    placed_markers,
    with_marker,
)
from companion.rules.errors import IllegalAction
from companion.rules.events import MarkerPlaced, MarkerRemoved, RegionSet
from companion.rules.names import (
    BIVOUACKING,
    CATAPULT,
    DRAGON_MASTER,
    FORTIFIED,
    HALFLINGS,
    HEROIC,
    RACES,
    TROLLS,
)
from companion.rules.players import ActiveRace, Player
from companion.rules.said import N_, Name, Said, listed, said
from companion.rules.state import PHASE_WORDS, GameState, acting, region_state, with_player
from companion.rules.turns import Phase

_MARKER_OWNERS: dict[str, tuple[str, int | None]] = {
    "fortress": (FORTIFIED, 6), "troll_lair": (TROLLS, 10), "encampment": (BIVOUACKING, 5),
    "hole_in_the_ground": (HALFLINGS, 2), "hero": (HEROIC, 2), "dragon": (DRAGON_MASTER, 1),
    "catapult": (CATAPULT, 1),
}


MARKER_WORDS: dict[str, str] = {
    "fortress": N_("fortress"), "troll_lair": N_("troll lair"),
    "encampment": N_("encampment"), "hole_in_the_ground": N_("hole in the ground"),
    "hero": N_("hero"), "dragon": N_("dragon"), "catapult": N_("catapult"),
}
"""Each base marker as a refusal names it (an expansion's own: its `Piece.words`, else its
id with spaces)."""

A_MARKER_WORDS: dict[str, str] = {
    "fortress": N_("a Fortress"), "troll_lair": N_("a Troll's Lair"),
    "encampment": N_("an Encampment"), "hole_in_the_ground": N_("a Hole-in-the-Ground"),
    "hero": N_("a Hero"), "dragon": N_("the Dragon"), "catapult": N_("the Catapult"),
}
"""Each base marker as a sentence names one of them, with its article ("an Encampment",
never "a encampment"; an expansion's own: its `Piece.a_words`)."""

ONCE_PER_TURN: dict[str, Said] = {
    "fortress": said("Fortified: one Fortress a turn, as long as the race is active"),
}
"""The markers a race or power places at most once in a turn, with the rule a refusal
cites. One taken out again in the same turn (a slip put right) is forgotten."""


PLACED_WHILE_REDEPLOYING: dict[str, Said] = {
    "encampment": said("Bivouacking: the Encampments are set out while redeploying"),
    "hero": said("Heroic: the Heroes are placed at the end of the turn, while redeploying"),
}
"""The markers a race or power places only in its Troop Redeployment, with the rule a
refusal cites (taking one out is allowed at any time: a camp broken, a Hero moving)."""


def marker_words(marker: str) -> str | None:
    """The template a refusal names `marker` by (None: none; its id is shown)."""
    words = MARKER_WORDS.get(marker)
    if words is None and (piece := expansion_piece(marker)) is not None:
        words = piece.words
    return words


def marker_owner(state: GameState, marker: str) -> tuple[str, int | None] | None:
    """The race or power that places `marker` in this game, with how many the box holds
    (None: no limit); None when nothing of this game places it."""
    return _MARKER_OWNERS.get(marker) or next(
        (found for x in expansions.played(state)
         if (found := x.marker_owner(state, marker)) is not None), None)


def a_marker(marker: str, name: str | Said) -> Said:
    """One `marker`, with its article, as a sentence names it."""
    words = A_MARKER_WORDS.get(marker)
    if words is None and (piece := expansion_piece(marker)) is not None:
        words = piece.a_words
    return said(words) if words is not None else said("a {name}", name=name)


def place_or_remove(state: GameState, event: MarkerPlaced | MarkerRemoved) -> GameState:
    markers_known = placed_markers()
    if event.marker not in markers_known:
        raise IllegalAction(said("unknown marker {marker}; markers: {markers}",
                                 marker=repr(event.marker), markers=listed(markers_known)))
    player = acting(state, event.seat)
    here = region_state(state, event.region)
    placing = isinstance(event, MarkerPlaced)
    played = expansions.played(state)
    owned = marker_owner(state, event.marker)
    words = marker_words(event.marker)
    name: str | Said = event.marker.replace("_", " ") if words is None else said(words)
    if isinstance(event, MarkerPlaced):
        one = a_marker(event.marker, name)
        if owned is None:
            raise IllegalAction(said("no race or power of this game places {a_name}",
                                     a_name=one))
        owner, box = owned
        active = player.active
        if active is None or owner not in (active.race, active.power):
            raise IllegalAction(said("only an active {owner} race places {a_name}",
                                     owner=Name("race" if owner in RACES
                                                else "power", owner), a_name=one))
        for expansion in played:
            expansion.refuse_marker(state, event)
        if here.occupant is None or here.occupant.seat != player.seat or here.occupant.in_decline:
            raise IllegalAction(said("{a_name} goes in a region your active race holds",
                                     a_name=one))
        if event.marker != "encampment" and marker_count(here.markers, event.marker):
            raise IllegalAction(said("region {region} already has {a_name}",
                                     region=event.region, a_name=one))
        if box == 1 and state.regions.count_markers(event.marker):
            raise IllegalAction(said("the {name} is already on the board; to move it, remove it "
                                     "and place it again", name=name))
        if box is not None and state.regions.count_markers(event.marker) >= box:
            raise IllegalAction(said("all {box} of the {name} pieces are on the board", box=box,
                                     name=name))
        _refuse_twice_a_turn(state, event.marker)
        if (rule := PLACED_WHILE_REDEPLOYING.get(event.marker)) is not None \
                and state.track.phase is not Phase.REDEPLOY:
            raise IllegalAction(said("{rule}; the turn is at: {phase}", rule=rule, phase=said(
                PHASE_WORDS.get(state.track.phase, state.track.phase.value))))
        if event.marker == "hole_in_the_ground":
            _refuse_hole_elsewhere(active, event.region)
    elif not marker_count(here.markers, event.marker):
        raise IllegalAction(said("region {region} has no {name} to remove", region=event.region,
                                 name=name))
    markers = with_marker(here.markers, event.marker, 1 if placing else -1)
    state = _count_once_a_turn(state, event)
    return replace(state, regions=state.regions.with_region(
        event.region, replace(here, markers=markers)))


HOLE_REGIONS = 2
"""Halflings put a Hole-in-the-Ground in each of the first this many regions they conquer."""


def first_regions_noted(players: tuple[Player, ...], seat: int,
                        region: int) -> tuple[Player, ...]:
    """The players after `seat`'s active race conquered `region`: Halflings note their
    first `HOLE_REGIONS` regions (where their Holes-in-the-Ground may go)."""
    player = players[seat]
    active = player.active
    if active is None or active.race != HALFLINGS or len(active.first_regions) >= HOLE_REGIONS \
            or region in active.first_regions:
        return players
    active = replace(active, first_regions=(*active.first_regions, region))
    return with_player(players, replace(player, active=active))


def _refuse_hole_elsewhere(active: ActiveRace, region: int) -> None:
    """A Hole-in-the-Ground goes only in one of the first 2 regions the Halflings
    conquered."""
    if region in active.first_regions:
        return
    if not active.first_regions:
        raise IllegalAction(said("Halflings: a Hole-in-the-Ground goes in each of the first 2 "
                                 "regions they conquer; they have conquered none yet"))
    raise IllegalAction(said("Halflings: a Hole-in-the-Ground goes only in the first 2 "
                             "regions they conquered ({regions}), not region {region}",
                             regions=listed(active.first_regions), region=region))


def _refuse_twice_a_turn(state: GameState, marker: str) -> None:
    """A once-a-turn marker (`ONCE_PER_TURN`) already placed this turn is refused, with the
    rule and where this turn's stands."""
    rule = ONCE_PER_TURN.get(marker)
    placed = next((region for m, region in state.track.this_turn.placed_once if m == marker),
                  None)
    if rule is not None and placed is not None:
        raise IllegalAction(said("{rule}; this turn's is already in region {region}",
                                 rule=rule, region=placed))


def _count_once_a_turn(state: GameState, event: MarkerPlaced | MarkerRemoved) -> GameState:
    """The turn's record of once-a-turn markers after `event`: one placed is noted; the one
    placed this turn taken out again is forgotten (a slip put right, not a second use)."""
    if event.marker not in ONCE_PER_TURN:
        return state
    this_turn = state.track.this_turn
    mark = (event.marker, event.region)
    if isinstance(event, MarkerPlaced):
        placed = (*this_turn.placed_once, mark)
    elif mark in this_turn.placed_once:
        placed = tuple(m for m in this_turn.placed_once if m != mark)
    else:
        return state
    return replace(state, track=replace(state.track,
                                        this_turn=replace(this_turn, placed_once=placed)))


def set_region(state: GameState, event: RegionSet) -> GameState:
    here = region_state(state, event.region)
    if event.seat is None:
        if event.race is not None:
            raise IllegalAction(said("a race needs the seat of the player who holds the region"))
        markers = replace(here.markers, catapult=False)  # the Catapult leaves with its race
        new = RegionState(lost_tribe=event.lost_tribe, markers=markers)
        return replace(state, regions=state.regions.with_region(event.region, new))
    player = state.player(event.seat)
    races = ([player.active.race] if player.active and not event.in_decline else []) + (
        [d.race for d in player.declined] if event.in_decline else [])
    if event.race not in races:
        template = (N_("{player} has no declined race {race}") if event.in_decline
                    else N_("{player} has no active race {race}"))
        refused = said(template, player=player.name, race=repr(event.race))
        if races:
            refused = said("{sentence}; theirs: {races}", sentence=refused,
                           races=listed(Name("race", r) for r in races))
        raise IllegalAction(refused)
    if event.tokens is not None and event.tokens < 1:
        raise IllegalAction(said("a held region holds at least 1 token, not {tokens}",
                                 tokens=event.tokens))
    occupant = Occupant(event.seat, event.race, event.in_decline, event.tokens)
    markers = here.markers
    for expansion in expansions.played(state):
        markers = expansion.region_set(state, markers)
    before = here.occupant
    if before is None or (before.seat, before.race, before.in_decline) != (
            occupant.seat, occupant.race, occupant.in_decline):
        markers = replace(markers, catapult=False)  # the Catapult stays only with its race
    new = RegionState(occupant=occupant, markers=markers)
    return replace(state, regions=state.regions.with_region(event.region, new))
