"""Expansions as variants: the registry, which expansions a game plays, and a toy expansion
added with nothing but its own class and a registry entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

import pytest

from companion.rules import expansions
from companion.rules.board import Occupant, taken
from companion.rules.catalog import load_catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import Event, GameCreated, Seat
from companion.rules.expansion import Expansion
from companion.rules.game import GameState, apply, start
from companion.rules.income import income
from companion.rules.maps import Terrain
from companion.rules.mini_game import MINI_EXPANSIONS
from companion.rules.necromancer import NECROMANCER_ISLAND, NecromancerSetup, NecromancerState
from companion.rules.river import RIVER_WORLD
from companion.rules.scoring import (
    ActiveHoldings,
    Bonus,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    ScoredRace,
    ScoreLine,
    ScoringInput,
    ScoringInputError,
    Tally,
    count_regions,
    score_turn,
)
from companion.rules.teams import TEAM_PLAY
from companion.rules.turns import Phase
from tests.factories import created, session
from tests.team_support import created as team_created

SIX_BADGES = ("Flying", "Hill", "Forest", "Swamp", "Wealthy", "Alchemist")

FOREST_LINE = "Forest Folk: a coin per forest held"


@dataclass(frozen=True, slots=True)
class SaplingPlanted:
    """The toy expansion's own event: a coin from the stash."""

    TYPE: ClassVar[str] = "sapling_planted"
    seat: int


class ForestFolk(Expansion):
    """A toy expansion: its banner (here an existing one, `banner`) scores one more coin
    per forest region its active race holds; a sapling planted earns a coin."""

    name = "Forest Folk"
    events = (SaplingPlanted,)

    def __init__(self, banner: str) -> None:
        self.banner = banner

    def plays(self, created: GameCreated) -> bool:
        return self.banner in created.races

    def in_play(self, state: GameState) -> bool:
        return True

    def apply(self, state: GameState, event: Event) -> GameState:
        assert isinstance(event, SaplingPlanted)
        player = state.player(event.seat)
        return replace(state, coins_issued=state.coins_issued + 1, players=tuple(
            replace(p, coins=p.coins + 1) if p.seat == player.seat else p
            for p in state.players))

    def income_lines(self, state: GameState) -> tuple[ScoreLine, ...]:
        player = state.current
        if player.active is None or player.active.race != self.banner:
            return ()
        held = state.regions.held_by(player.seat, self.banner, in_decline=False)
        forests = sum(1 for rid in held if state.map.region(rid).terrain is Terrain.FOREST)
        return (ScoreLine(FOREST_LINE, forests),) if forests else ()


def _forest_position(banner: str, forests: int) -> GameState:
    """Ann picked `banner`; she holds `forests` forests and one other region, and scores."""
    s = session(3, races=(banner,), powers=("Heroic",))
    s.pick(0)
    state = s.state
    board = state.map
    woods = [r.id for r in board.regions.values() if r.terrain is Terrain.FOREST][:forests]
    other = next(r.id for r in board.regions.values()
                 if r.terrain in (Terrain.FARMLAND, Terrain.HILL))
    regions = state.regions
    for rid in (*woods, other):
        regions = regions.with_region(rid, taken(regions[rid], Occupant(0, banner, False, 2)))
    return replace(state, regions=regions,
                   track=replace(state.track, phase=Phase.SCORE))


def test_a_toy_expansion_needs_only_its_class_and_a_registry_entry() -> None:
    folk = ForestFolk("Ratmen")
    base = income(_forest_position("Ratmen", 3))
    assert all(line.label != FOREST_LINE for line in base.lines)
    with expansions.extended(folk) as registry:
        assert registry[-1] is folk
        state = _forest_position("Ratmen", 3)
        assert folk in expansions.played(state)
        earned = income(state)
    assert ScoreLine(FOREST_LINE, 3) in earned.lines
    assert earned.total == base.total + 3
    assert earned.lines[:len(base.lines)] == base.lines
    assert folk not in expansions.registered()  # the registry is restored


def test_a_toy_expansions_own_event_is_dispatched_through_the_registry() -> None:
    s = session(3, races=("Ratmen",), powers=("Heroic",))
    state = s.state
    with pytest.raises(IllegalAction, match="unknown event"):
        apply(state, SaplingPlanted(0))
    with expansions.extended(ForestFolk("Ratmen")):
        after = apply(state, SaplingPlanted(0))
    assert after.players[0].coins == state.players[0].coins + 1
    assert after.coins_issued == state.coins_issued + 1
    with pytest.raises(IllegalAction, match="unknown event"):
        apply(state, SaplingPlanted(0))


def test_the_registry_is_restored_when_the_block_raises() -> None:
    before = expansions.registered()
    with pytest.raises(RuntimeError), expansions.extended(ForestFolk("Ratmen")):
        raise RuntimeError
    assert expansions.registered() == before


def test_the_registry_order_is_deterministic() -> None:
    assert expansions.registered() == (NECROMANCER_ISLAND, RIVER_WORLD, TEAM_PLAY,
                                       MINI_EXPANSIONS)
    assert expansions.registered() is expansions.registered()
    assert all(x.name for x in expansions.registered())


def test_each_expansion_event_is_applied_by_exactly_one_expansion() -> None:
    table = expansions.handlers()
    for expansion in expansions.registered():
        for kind in expansion.events:
            assert table[kind] is expansion


def test_a_base_game_plays_no_expansion() -> None:
    event = created(3)
    assert expansions.played_in(event) == ()
    assert expansions.played(start(event, session(3).catalog)) == ()


@pytest.mark.parametrize(("expansion", "kwargs"), [
    (NECROMANCER_ISLAND, {"necromancer": True}),
    (RIVER_WORLD, {"river_world": True}),
    (TEAM_PLAY, {"teams": True}),
    (MINI_EXPANSIONS, {"expansions": ("base", "be-not-afraid")}),
    (MINI_EXPANSIONS, {"expansions": ("base", "grand-dames")}),
])
def test_each_real_expansion_is_found_for_its_game(expansion: Expansion,
                                                   kwargs: dict[str, object]) -> None:
    players = 6 if kwargs.get("teams") else 4
    s = session(3)
    colours = ("blue", "orange", "green", "yellow", "purple", "red")[:players]
    s.new_game([Seat(f"P{i}", c) for i, c in enumerate(colours)],
               **kwargs)  # type: ignore[arg-type]
    assert s.history is not None
    game = s.history.log[0][0]
    assert isinstance(game, GameCreated)
    assert expansions.played_in(game) == (expansion,)
    assert expansions.played(s.state) == (expansion,)


def test_two_expansions_no_game_plays_together_are_refused_at_the_start() -> None:
    team = team_created()
    with_him = replace(team, options=(*team.options, NecromancerSetup(SIX_BADGES)))
    with pytest.raises(IllegalAction, match="Necromancer Island or teams of two, not both"):
        start(with_him, load_catalog())
    assert expansions.apart(["necromancer", "river"]) is None
    assert expansions.apart(["teams", "necromancer"]) == (
        "teams", "a game plays Necromancer Island or teams of two, not both")


def test_the_board_size_rule_lives_in_one_place() -> None:
    assert expansions.board_players(4) == 4
    assert expansions.board_players(4, necromancer=True) == 3
    assert expansions.board_players(6, necromancer=True) == 5
    assert expansions.board_players(6, teams=True) == 5


@pytest.mark.parametrize("kwargs", [{}, {"necromancer": True}, {"teams": True},
                                    {"river_world": True}])
def test_who_counts_tokens_for_a_tie_is_asked_of_the_expansions(
        kwargs: dict[str, object]) -> None:
    players = 6 if kwargs.get("teams") else 4
    s = session(3)
    colours = ("blue", "orange", "green", "yellow", "purple", "red")[:players]
    s.new_game([Seat(f"P{i}", c) for i, c in enumerate(colours)],
               **kwargs)  # type: ignore[arg-type]
    assert expansions.tied_for_first(s.state) == s.tied_for_first()
    coins = {0: 9, 1: 9, 2: 3, 3: 9}
    necro = s.state.part(NecromancerState)
    expected = (frozenset() if kwargs.get("teams") else
                frozenset({0, 1, 3}) - {necro.seat if necro is not None else -1})
    assert expansions.tied_for_first(s.state, coins) == expected


# --- a race that scores on an expansion's own facts -----------------------------------------


@dataclass(frozen=True, slots=True)
class Saplings:
    """The toy's fact of a race's turn: the saplings it planted."""

    planted: int = 0


class SaplingScoring(Expansion):
    """A toy expansion whose banner scores one coin per forest held and one per sapling
    planted (its own fact), refused for any other race: all of it in its class."""

    name = "Sapling Folk"

    def __init__(self, banner: str) -> None:
        self.banner = banner
        self.race_bonuses = {self.banner: (
            Bonus("one per forest region", lambda tally, _turn: tally.terrains.get(
                Terrain.FOREST, 0)),
            Bonus("one per sapling planted",
                  lambda _tally, turn: (turn.fact(Saplings) or Saplings()).planted),
        )}

    def check_race(self, where: str, race: ScoredRace, catalog: object) -> None:
        planted = (race.turn.fact(Saplings) or Saplings()).planted
        if planted and race.race != self.banner:
            raise ScoringInputError(f"{where}.saplings", planted,
                                    f"only {self.banner} plant saplings")


def test_an_expansion_scores_its_race_with_its_own_row_and_facts() -> None:
    forests = (HeldRegion(Terrain.FOREST), HeldRegion(Terrain.FOREST), HeldRegion(Terrain.HILL))
    planted = (Saplings(2),)
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Hill", forests, facts=planted))
    with expansions.extended(SaplingScoring("Ratmen")):
        lines = score_turn(inp, load_catalog()).lines
    assert lines == (
        ScoreLine("Regions held by Ratmen", 3),
        ScoreLine("Ratmen: one per forest region", 2),
        ScoreLine("Ratmen: one per sapling planted", 2),
        ScoreLine("Hill: one per hill region", 1),
    )
    assert score_turn(inp, load_catalog()).total == 4  # outside the block: the base row


def test_an_expansions_facts_are_checked_by_its_own_rule() -> None:
    inp = ScoringInput(3, ActiveHoldings("Humans", "Hill", facts=(Saplings(1),)))
    with expansions.extended(SaplingScoring("Ratmen")), pytest.raises(ScoringInputError) as no:
        score_turn(inp, load_catalog())
    assert no.value.field == "active.saplings"
    assert str(no.value) == "active.saplings: only Ratmen plant saplings"


# --- an expansion's own facts of the regions held --------------------------------------------


@dataclass(frozen=True, slots=True)
class Nest:
    """The toy's fact of a region held: a bird's nest lies in it."""


@dataclass(frozen=True, slots=True)
class Nests:
    """The toy's count of a race's regions: how many hold a nest."""

    held: int = 0


class BirdNests(Expansion):
    """A toy expansion whose nests, a fact of the regions held, earn a coin each (one line
    per race) and two more when the player's races hold three or more together (one line
    after them all): all of it in its class."""

    name = "Bird Nests"

    def check_region(self, field: str, region: HeldRegion) -> None:
        if region.fact(Nest) is not None and region.terrain is not Terrain.FOREST:
            raise ScoringInputError(f"{field}.nest", True, "nests are built in forests only")

    def region_counts(self, regions: Sequence[HeldRegion]) -> Nests | None:
        nests = sum(region.fact(Nest) is not None for region in regions)
        return Nests(nests) if nests else None

    def check_count(self, field: str, count: QuickCount, tally: Tally) -> None:
        nests = (count.fact(Nests) or Nests()).held
        forests = tally.terrains.get(Terrain.FOREST, 0)
        if nests > forests:
            raise ScoringInputError(f"{field}.nests", nests, f"more than the {forests} forests")

    def race_lines(self, race: ScoredRace) -> tuple[ScoreLine, ...]:
        nests = (race.tally.fact(Nests) or Nests()).held
        return (ScoreLine(f"Nests of {race.race}", nests),) if nests else ()

    def player_lines(self, races: Sequence[ScoredRace]) -> tuple[ScoreLine, ...]:
        nests = sum((race.tally.fact(Nests) or Nests()).held for race in races)
        return (ScoreLine("Three nests or more", 2),) if nests >= 3 else ()


def test_an_expansion_scores_its_own_facts_of_the_regions_held_by_map_and_by_count() -> None:
    nest = HeldRegion(Terrain.FOREST, facts=(Nest(),))
    regions = (nest, nest, HeldRegion(Terrain.HILL))
    declined = (DeclinedHoldings("Elves", "Commando", (nest,)),)
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Commando", regions), declined)
    with expansions.extended(BirdNests()):
        by_map = score_turn(inp, load_catalog())
        counted = count_regions(regions)
        by_count = score_turn(
            ScoringInput(3, ActiveHoldings("Ratmen", "Commando", counted), declined),
            load_catalog())
    assert by_map.lines == (
        ScoreLine("Regions held by Ratmen", 3),
        ScoreLine("Nests of Ratmen", 2),
        ScoreLine("Regions held by Elves (in decline)", 1),
        ScoreLine("Nests of Elves", 1),
        ScoreLine("Three nests or more", 2),
    )
    assert counted.fact(Nests) == Nests(2)
    assert by_count == by_map
    assert score_turn(inp, load_catalog()).total == 4  # outside the block: regions only


def test_an_expansions_facts_of_the_regions_are_checked_by_its_own_rule() -> None:
    hill = HeldRegion(Terrain.HILL, facts=(Nest(),))
    counted = QuickCount({Terrain.FOREST: 1}, facts=(Nests(2),))
    with expansions.extended(BirdNests()):
        with pytest.raises(ScoringInputError) as listed:
            score_turn(ScoringInput(3, ActiveHoldings("Ratmen", "Hill", (hill,))),
                       load_catalog())
        with pytest.raises(ScoringInputError) as count:
            score_turn(ScoringInput(3, ActiveHoldings("Ratmen", "Hill", counted)),
                       load_catalog())
    assert str(listed.value) == "active.regions[0].nest: nests are built in forests only"
    assert str(count.value) == "active.regions.nests: more than the 1 forests"
