"""Necromancer Island: the Necromancer's books, and his seat inside a game.

One seat of the table plays the Necromancer instead of races: Ghosts that start on his
Island in the board's central Lake, a reserve of Ghosts beside the board, and the Well of
Souls, which every token lost in a conquest falls into. This module is the whole
expansion, in two parts, in this order:

- **the books**: his seat as a `NecromancerState` value, and one pure function per step
  saying what each step of his turn (and each step of another player's turn that touches
  him) does to it (`set_up`, `start_turn`, `buy_ghost`, `buy_power`, `conquer`, `abandon`,
  `redeploy`, `score`, `income_lines`, `souls_lost`, `region_lost`, `return_ghosts`,
  `turn_ended`, `standings`, `public`, ...); these are the model's API and take and give
  his books alone;
- **the game**: the expansion inside a game: its events, `NecromancerSetup`, the game-level
  handlers (`_on_...`: his events and his seat's moves applied to a `GameState`), what the
  screens read of a game (`is_his`, `attackable`, `assess_region`, `ghosts_free`,
  `his_income_lines`, `public_necromancer`), his words in the rule book, the
  `NecromancerIsland` expansion whose one instance `NECROMANCER_ISLAND` the registry
  (`companion.rules.expansions`) holds, and `NecromancerIntents`.
  `companion.rules.game.apply` hands his events and the moments that touch him to that
  expansion, which keeps his books among the state's parts (`GameState.part`).

A step the rules do not allow raises `IllegalAction` naming what was wrong and what is
allowed, and changes nothing (bad data, such as a malformed `ghosts_removed`, raises
`MalformedInput`). Nothing here reads a clock or draws at random: the powers he draws at
set-up arrive as data (`draw_powers` takes the shuffled badge stack).

Where the Ghosts are (every Ghost is in exactly one of these places at any moment):

- `regions`: Ghosts in regions of the map, by region id (the Island is not one of them);
- `island`: Ghosts on the Island (the Lake region `lake`);
- `hand`: Ghosts lifted off the map and not yet put back (his own troops being moved during
  his turn, or the survivors of a region another player took, until that turn ends);
- `reserve`: Ghosts beside the board, waiting to be bought or spawned;
- `well.ghosts`: Ghosts that fell in a conquest, lying on top of the Well of Souls;
- `removed`: Ghosts taken out before the game to make the Necromancer's life easier.

The Well of Souls holds `well.ghosts` on top and `well.souls` below (Lost Tribes, race
tokens and the bonus souls he collects when he scores). Whenever a turn ends, every full
set of `SOULS_PER_GHOST` tokens in the Well spawns a Ghost: the set is taken from the top
(Ghosts first), its Ghosts go back to the reserve, its other tokens to the tray, and one
Ghost from the reserve goes onto the Island. A set that finds no Ghost in the reserve
stays in the Well.

His own turn runs ACQUIRE (buy Ghosts and powers; each purchase costs as many coins as he
has powers in use plus Ghosts on the map and the Island, counted before that purchase) ->
CONQUER (his first conquest, abandonment or redeployment ends the buying; he may move every
Ghost from the Island and all but one from each region he holds) -> SCORE (one coin per
region he holds and one bonus soul into the Well per region, then spawning, then the
victory check) -> back to WAITING. He wins at once when, after that, no Ghost is left in his
reserve or in the Well: every Ghost is in play.

How his seat plays in a game:
- he is a player like the others (a purse, a name, a colour) seated to the right of the
  first player, so he moves last in every game turn; he never picks a combo;
- his turn opens at the track's CONQUER phase with his books at ACQUIRE: he may buy Ghosts
  and powers (`GhostBought`, `NecromancerPowerBought`, coins back to the stash), then
  conquers with `RegionConquered` (his Attacker holds every power in use; his reach is the
  Lake's shore and his own regions), finishes conquering, places his Ghosts
  (`GhostsRedeployed`; a plain `RedeploymentFinished` leaves them where they stand and puts
  the free ones on the Island), and scores (`TurnScored`: a coin per region plus his
  powers' bonuses; the Well gets a soul per region and spawns). If every Ghost is then in
  play he wins and the game is over at once.

Invariants kept in a game:
- the board shows exactly his books' Ghost regions, as a race in decline of his seat with
  every Ghost counted (`board_occupant`), so the conquest rules cost them like any
  declined race and other players see them that way;
- every token lost in a conquest (a Lost Tribe, one token of an active race, all of a race
  in decline, a Ghost) falls into the Well; Elves lose none there, but the Elves they
  discard when going into decline fall into it too;
- his conquests settle with the loser like anyone's: Ransacking, Corrupt, a Pot of Gold,
  and a race in decline with no region left leaving;
- nobody but him conquers the Lake, where his Island lies;
- a turn ends only once the Ghosts in his hand are back (`GhostsReturned`, or onto the
  Island when he holds no region), and the Well spawns at every turn's end;
- the events' names and fields are those of the saved games (`TYPE` and the dataclass
  fields): old saved games replay unchanged.

Readings of the rules made here (see docs/expansions.md):
- each purchase is priced on the counts at that moment, so buying a Ghost or a power makes
  the next purchase one coin dearer; Ghosts in his hand count as on the map;
- the instant win looks at Ghosts only: souls left in the Well do not stop it (a Well
  holding fewer than 4 souls could otherwise never empty);
- the powers he keeps in reserve are shown face up like every badge (the rules hide only
  Victory coins), so `public` shows them; his coins are never in it;
- survivors of a Ghost region another player takes go back onto regions he still holds, and
  onto the Island only when he holds none;
- his first conquest must border the Lake (or a region he holds); Flying lifts that and
  Seafaring allows seas, as for any race; the Lake itself is never conquered by anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from companion.rules.board import Occupant, RegionState, cleared, taken
from companion.rules.catalog import Catalog
from companion.rules.conquest import Assessment, Attacker, Reach, assess, immunity, reach
from companion.rules.decline import vanish_if_gone
from companion.rules.errors import IllegalAction, MalformedInput
from companion.rules.events import (
    Event,
    GameCreated,
    RaceDeclined,
    RedeploymentFinished,
    RegionAbandoned,
    RegionConquered,
    TurnScored,
)
from companion.rules.expansion import (
    Deal,
    Expansion,
    Intents,
)
from companion.rules.maps import Board, Terrain
from companion.rules.names import (
    BERSERK,
    CORRUPT,
    CURSED,
    ELVES,
    FLYING,
    RANSACKING,
    SEAFARING,
    SPIRIT,
    STOUT,
)
from companion.rules.purse import pay
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Listed, Name, Said, listed, said
from companion.rules.scoring import (
    HeldRegion,
    Regions,
    power_bonus_lines,
    regions_held,
)
from companion.rules.standings import (
    Placing,
    Standings,
    final_standings,
    needs_token_count,
    seat_names,
)
from companion.rules.state import (
    GameState,
    coin_changes_hands,
    expect,
    from_stash,
    region_state,
    scored,
    to_phase,
    with_player,
)
from companion.rules.turns import Phase

# =========================================================================================
# The books: the Necromancer's seat as a value, one pure function per step
# =========================================================================================

GHOSTS = "Ghosts"
"""The race name the Necromancer's tokens carry on the board."""
GHOST_TOKENS = 14
"""Ghosts in the box: 1 starts on the Island, the others in the reserve."""
ISLAND_START = 1
SOULS_PER_GHOST = 4
POWERS_DRAWN = 6
BARRED_POWERS = (CURSED, SPIRIT, STOUT)
"""Powers the Necromancer never draws: another badge is drawn in their place."""
MAX_GHOSTS_REMOVED = 2
"""Ghosts that may be taken out of the reserve before the game, to adjust the difficulty."""
MIN_SEATS = 3
MAX_SEATS = 6
REGIONS_LINE = "regions held"
"""The label of his first income line: a coin per region his Ghosts hold."""


class Step(StrEnum):
    """Where the Necromancer is: another player's turn, or a step of his own."""

    WAITING = N_("another player's turn")
    ACQUIRE = N_("buy Ghosts and powers")
    CONQUER = N_("conquer")
    SCORE = N_("score")


@dataclass(frozen=True, slots=True)
class Well:
    """The Well of Souls: Ghosts on top, other tokens (souls) below."""

    ghosts: int = 0
    souls: int = 0

    @property
    def tokens(self) -> int:
        return self.ghosts + self.souls


@dataclass(frozen=True, slots=True)
class NecromancerState:
    """The Necromancer's seat: his Ghosts, his Well, his powers and the step he is at."""

    seat: int
    lake: int
    island: int
    regions: Mapping[int, int]
    hand: int
    reserve: int
    well: Well
    powers_in_use: tuple[str, ...]
    powers_in_reserve: tuple[str, ...]
    removed: int = 0
    step: Step = Step.WAITING
    conquered: tuple[int, ...] = ()  # regions taken in his turn so far
    won: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "regions", MappingProxyType(dict(self.regions)))

    @property
    def on_map(self) -> int:
        """Ghosts on the map, the Island included (his hand counts: they are on their way
        back to the map); the Well and the reserve are not."""
        return self.island + sum(self.regions.values()) + self.hand

    @property
    def price(self) -> int:
        """What his next Ghost or power costs: powers in use + Ghosts on the map."""
        return len(self.powers_in_use) + self.on_map

    @property
    def regions_held(self) -> int:
        return len(self.regions)

    @property
    def all_ghosts_in_play(self) -> bool:
        """No Ghost left in the reserve or in the Well: the instant win, when checked."""
        return self.reserve == 0 and self.well.ghosts == 0


@dataclass(frozen=True, slots=True)
class Purchase:
    """A Ghost or a power bought: the state after, what it cost and the coins left."""

    state: NecromancerState
    cost: int
    coins: int


@dataclass(frozen=True, slots=True)
class Spawn:
    """The Well emptied by full sets: the state after, and what moved."""

    state: NecromancerState
    spawned: int  # Ghosts put on the Island
    ghosts_back: int  # Ghosts from the Well back to the reserve
    souls_to_tray: int  # other tokens from the Well back to the tray


@dataclass(frozen=True, slots=True)
class NecromancerScore:
    """The Necromancer's end of turn: coins (itemised), souls, spawning and the win."""

    state: NecromancerState
    coins: int
    lines: tuple[tuple[str, int], ...]
    souls: int
    spawned: int
    won: bool


# --- the books: set-up -------------------------------------------------------------------


def seat_for(first_seat: int, seats: int) -> int:
    """The Necromancer's seat: to the right of the first player, so he plays last."""
    _check_seats(seats)
    if not 0 <= first_seat < seats:
        raise IllegalAction(said("the first player must be seat 0 to {last}, not {seat}",
                                 last=seats - 1, seat=first_seat))
    return (first_seat - 1) % seats


def board_players(seats: int) -> int:
    """The players the board of a Necromancer game is for: one fewer than the table (the
    one place this rule is written; `companion.rules.expansions.board_players` asks it)."""
    return seats - 1


def board_for(seats: int) -> str:
    """The board a Necromancer game uses: the one for one player fewer than the table."""
    _check_seats(seats)
    return f"{board_players(seats)}p"


def central_lake(board: Board) -> int:
    """The Lake region the Island goes in (the board's only lake)."""
    lakes = [r.id for r in board.regions.values() if r.terrain is Terrain.LAKE]
    if not lakes:
        raise IllegalAction(said("the {board} board needs exactly one Lake for Necromancer "
                                 "Island (lakes found: none)", board=board.name))
    if len(lakes) != 1:
        raise IllegalAction(said("the {board} board needs exactly one Lake for Necromancer "
                                 "Island (lakes found: {lakes})",
                                 board=board.name, lakes=listed(lakes)))
    return lakes[0]


def draw_powers(shuffled: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Necromancer's six powers from the top of a shuffled badge stack, and the stack
    left for the market (barred badges he passes over stay in it, in order)."""
    drawn: list[str] = []
    rest: list[str] = []
    for power in shuffled:
        if len(drawn) < POWERS_DRAWN and power not in BARRED_POWERS:
            drawn.append(power)
        else:
            rest.append(power)
    if len(drawn) < POWERS_DRAWN:
        raise IllegalAction(said("the badge stack holds only {drawn} powers the Necromancer "
                                 "may draw; he needs {needed}",
                                 drawn=len(drawn), needed=POWERS_DRAWN))
    return tuple(drawn), tuple(rest)


def set_up(
    seat: int,
    lake: int,
    drawn: Sequence[str],
    starting_power: str,
    *,
    ghosts_removed: int = 0,
    known_powers: Collection[str] | None = None,
) -> NecromancerState:
    """The Necromancer at the start: 1 Ghost on the Island, the others in reserve, the
    power he placed with the Well in use and the other five in reserve.

    `known_powers`, when given, are the badges of the game's expansions: a drawn power
    must be one of them.
    """
    drawn = tuple(drawn)
    if len(drawn) != POWERS_DRAWN:
        raise IllegalAction(said("the Necromancer draws {needed} powers, not {drawn}",
                                 needed=POWERS_DRAWN, drawn=len(drawn)))
    twice = sorted({p for p in drawn if drawn.count(p) > 1})
    if twice:
        raise IllegalAction(said("each badge is drawn once; drawn twice: {powers}",
                                 powers=_powers(twice)))
    barred = [p for p in drawn if p in BARRED_POWERS]
    if barred:
        raise IllegalAction(said("the Necromancer never draws {powers}; {barred} are replaced "
                                 "by another draw",
                                 powers=_powers(barred), barred=_powers(BARRED_POWERS)))
    if known_powers is not None:
        unknown = [p for p in drawn if p not in known_powers]
        if unknown:
            raise IllegalAction(said("{powers}: not a badge of this game's expansions",
                                     powers=listed(unknown)))
    if starting_power not in drawn:
        raise IllegalAction(said("the power placed with the Well must be one of the six "
                                 "drawn: {powers}", powers=_powers(drawn)))
    if not 0 <= ghosts_removed <= MAX_GHOSTS_REMOVED:
        raise IllegalAction(said("0 to {most} Ghosts may be taken out of the reserve, not {n}",
                                 most=MAX_GHOSTS_REMOVED, n=ghosts_removed))
    return NecromancerState(
        seat=seat,
        lake=lake,
        island=ISLAND_START,
        regions={},
        hand=0,
        reserve=GHOST_TOKENS - ISLAND_START - ghosts_removed,
        well=Well(),
        powers_in_use=(starting_power,),
        powers_in_reserve=tuple(p for p in drawn if p != starting_power),
        removed=ghosts_removed,
    )


# --- the books: his turn -----------------------------------------------------------------


def start_turn(state: NecromancerState) -> NecromancerState:
    """His turn begins: he may buy Ghosts and powers."""
    _refuse_if_won(state)
    if state.step is not Step.WAITING:
        raise IllegalAction(said("the Necromancer's turn has already begun (now: {step})",
                                 step=step_said(state.step)))
    if state.hand:
        raise IllegalAction(said("the Necromancer still has {n} Ghost(s) in hand from the "
                                 "last turn; put them back on his regions first", n=state.hand))
    return replace(state, step=Step.ACQUIRE, conquered=())


def buy_ghost(state: NecromancerState, coins: int) -> Purchase:
    """He buys a Ghost: from the reserve onto the Island, for `price` coins."""
    _expect(state, Step.ACQUIRE, said("buy a Ghost"))
    if state.reserve == 0:
        raise IllegalAction(said("no Ghost is left in the Necromancer's reserve to buy"))
    cost = state.price
    left = pay(coins, cost, who="the Necromancer", what="a Ghost")
    after = replace(state, reserve=state.reserve - 1, island=state.island + 1)
    return Purchase(after, cost, left)


def buy_power(state: NecromancerState, power: str, coins: int) -> Purchase:
    """He buys one of the powers he keeps in reserve, for `price` coins; it adds to the
    powers he already uses."""
    _expect(state, Step.ACQUIRE, said("buy {power}", power=Name("power", power)))
    if power not in state.powers_in_reserve:
        if power in state.powers_in_use:
            raise IllegalAction(said("the Necromancer already uses {power}",
                                     power=Name("power", power)))
        left_over = (_powers(state.powers_in_reserve) if state.powers_in_reserve
                     else said("none are left"))
        raise IllegalAction(said("{power} is not among the Necromancer's powers in reserve: "
                                 "{left}", power=Name("power", power), left=left_over))
    cost = state.price
    left = pay(coins, cost, who="the Necromancer", what=f"the {power} power")
    after = replace(
        state,
        powers_in_use=(*state.powers_in_use, power),
        powers_in_reserve=tuple(p for p in state.powers_in_reserve if p != power),
    )
    return Purchase(after, cost, left)


def conquer(
    state: NecromancerState,
    board: Board,
    region: int,
    ghosts: int,
) -> NecromancerState:
    """He takes `region` with `ghosts` Ghosts from his hand.

    The cost itself (and whether the final die made it) is the conquest rules' business;
    this checks what is his alone: the Lake, his own regions, where he may reach, and that
    he has the Ghosts.
    """
    state = _ready(state, said("conquer"))
    refused = reach_refusal(state, board, region)
    if refused is not None:
        raise IllegalAction(refused)
    if ghosts < 1:
        raise IllegalAction(said("a conquered region holds at least 1 Ghost, not {n}",
                                 n=ghosts))
    if ghosts > state.hand:
        raise IllegalAction(said("the Necromancer has {free} Ghost(s) free to move, not {n}",
                                 free=state.hand, n=ghosts))
    regions = {**state.regions, region: ghosts}
    return replace(state, regions=regions, hand=state.hand - ghosts,
                   conquered=(*state.conquered, region))


def abandon(state: NecromancerState, region: int) -> NecromancerState:
    """He empties a region he holds (before conquering with those Ghosts)."""
    state = _ready(state, said("abandon a region"))
    if region not in state.regions:
        raise IllegalAction(said("the Necromancer holds no region {region}", region=region))
    if region in state.conquered:
        raise IllegalAction(said("region {region} was conquered this turn; regions are "
                                 "abandoned before conquering", region=region))
    regions = {r: n for r, n in state.regions.items() if r != region}
    return replace(state, regions=regions, hand=state.hand + state.regions[region])


def redeploy(
    state: NecromancerState, regions: Mapping[int, int], island: int = 0
) -> NecromancerState:
    """His troops end the turn where he puts them: `regions` gives the Ghosts in each
    region he holds (at least 1 each, every one of them), `island` those on the Island."""
    state = _ready(state, said("redeploy"))
    missing = sorted(set(state.regions) - set(regions))
    extra = sorted(set(regions) - set(state.regions))
    if missing or extra:
        raise IllegalAction(_not_covered(sorted(state.regions), missing, extra))
    thin = sorted(r for r, n in regions.items() if n < 1)
    if thin:
        raise IllegalAction(said("every region he holds keeps at least 1 Ghost (region "
                                 "{region} has fewer)", region=thin[0]))
    if island < 0:
        raise IllegalAction(said("the Island cannot hold {n} Ghosts", n=island))
    movable = state.on_map
    placed = sum(regions.values()) + island
    if placed != movable:
        raise IllegalAction(said("the Necromancer has {movable} Ghosts on the map to place, "
                                 "not {placed}", movable=movable, placed=placed))
    return replace(state, regions=dict(regions), island=island, hand=0, step=Step.SCORE)


def score(
    state: NecromancerState, bonus: Iterable[tuple[str, int]] = ()
) -> NecromancerScore:
    """His end of turn: a coin and a bonus soul per region held (the Island gives
    neither), the `bonus` lines of his powers as the scoring rules give them (Aquatic's
    line for inland regions is negative; the whole income never is), then the Well
    spawns, then the victory check."""
    _expect(state, Step.SCORE, said("score"))
    bonus = tuple(bonus)
    held = state.regions_held
    if held + sum(coins for _, coins in bonus) < 0:
        raise IllegalAction(said("his turn's income is never negative: {held} regions held and "
                                 "bonuses of {bonus}",
                                 held=held, bonus=sum(coins for _, coins in bonus)))
    lines = ((REGIONS_LINE, held), *bonus)
    fed = replace(state, well=replace(state.well, souls=state.well.souls + held))
    spawn = spawn_ghosts(fed)
    won = spawn.state.all_ghosts_in_play
    after = replace(spawn.state, step=Step.WAITING, conquered=(), won=won)
    return NecromancerScore(
        state=after,
        coins=sum(c for _, c in lines),
        lines=lines,
        souls=held,
        spawned=spawn.spawned,
        won=won,
    )


def income_lines(
    regions: Regions,
    powers: Sequence[str],
    *,
    conquered_non_empty: int = 0,
    attacked_active_race: bool = False,
    fortresses: int = 0,
) -> tuple[tuple[str, int], ...]:
    """What his turn earns: a coin per region his Ghosts hold (`REGIONS_LINE`; the Island
    is not a region and is never among `regions`), then the lines each power in use earns
    as an active race's power would (`scoring.power_bonus_lines`). The one rule for his
    income, read by the game (`his_income_lines`) and `companion score`."""
    bonuses = (line for power in powers for line in power_bonus_lines(
        power, regions, conquered_non_empty=conquered_non_empty,
        attacked_active_race=attacked_active_race, fortresses=fortresses))
    return ((REGIONS_LINE, regions_held(regions)), *((b.label, b.coins) for b in bonuses))


def reach_refusal(state: NecromancerState, board: Board, region: int) -> Said | None:
    """Why the Necromancer may not take `region` next (English by `str()`), or None."""
    target = board.region(region)
    if region == state.lake:
        return said("the Lake is Necromancer Island; nobody conquers it")
    if region in state.regions:
        return said("the Necromancer already holds region {region}", region=region)
    if target.is_water and SEAFARING not in state.powers_in_use:
        return said("region {region} is a {terrain}; only {power} Ghosts go there",
                    region=region, terrain=Name("terrain", target.terrain.value),
                    power=Name("power", SEAFARING))
    if FLYING in state.powers_in_use:
        return None
    borders = {state.lake, *state.regions}
    if target.adjacent.isdisjoint(borders):
        return said("region {region} borders neither the Lake nor a region the Necromancer "
                    "holds", region=region)
    return None


# --- the books: other players' turns -----------------------------------------------------


def souls_lost(state: NecromancerState, tokens: int) -> NecromancerState:
    """Tokens other than Ghosts lost in a conquest (a Lost Tribe, a race's token, an Elf
    discarded when Elves go into decline) fall into the Well, under its Ghosts."""
    if tokens < 0:
        raise IllegalAction(said("a number of lost tokens cannot be negative (got {n})",
                                 n=tokens))
    return replace(state, well=replace(state.well, souls=state.well.souls + tokens))


def region_lost(state: NecromancerState, region: int) -> NecromancerState:
    """Another player takes a Ghost region: one Ghost falls into the Well (on top), the
    others go to the Necromancer's hand until that player's turn ends."""
    if state.step is not Step.WAITING:
        raise IllegalAction(said("the Necromancer's Ghosts are only attacked in other "
                                 "players' turns"))
    if region not in state.regions:
        raise IllegalAction(said("region {region} holds no Ghost", region=region))
    ghosts = state.regions[region]
    regions = {r: n for r, n in state.regions.items() if r != region}
    return replace(
        state,
        regions=regions,
        hand=state.hand + ghosts - 1,
        well=replace(state.well, ghosts=state.well.ghosts + 1),
    )


def return_ghosts(state: NecromancerState, placed: Mapping[int, int]) -> NecromancerState:
    """At the end of another player's turn, the Ghosts in his hand go back onto regions he
    holds (`placed`: Ghosts added per region), or all onto the Island when he holds none
    (`placed` empty)."""
    if state.step is not Step.WAITING:
        raise IllegalAction(said("Ghosts in hand go back at the end of another player's turn"))
    if not state.regions:
        if placed:
            raise IllegalAction(said("the Necromancer holds no region: his Ghosts in hand go "
                                     "to the Island"))
        return replace(state, island=state.island + state.hand, hand=0)
    foreign = sorted(set(placed) - set(state.regions))
    if foreign:
        raise IllegalAction(said("region {region} is not the Necromancer's; his Ghosts go "
                                 "back to {regions}",
                                 region=foreign[0], regions=listed(sorted(state.regions))))
    if any(n < 0 for n in placed.values()):
        raise IllegalAction(said("Ghosts added to a region cannot be a negative number"))
    if sum(placed.values()) != state.hand:
        raise IllegalAction(said("the Necromancer has {hand} Ghost(s) in hand to put back, "
                                 "not {n}", hand=state.hand, n=sum(placed.values())))
    regions = {r: n + placed.get(r, 0) for r, n in state.regions.items()}
    return replace(state, regions=regions, hand=0)


def turn_ended(state: NecromancerState) -> Spawn:
    """Any player's turn ends, after redeployment: Ghosts in hand with no region left to
    go to go to the Island, then the Well spawns. Refused while Ghosts in his hand still
    have a region of his to go back to, or while his own turn is unfinished."""
    if state.step is not Step.WAITING:
        raise IllegalAction(said("the Necromancer must finish his turn first (now: {step})",
                                 step=step_said(state.step)))
    if state.hand:
        if state.regions:
            raise IllegalAction(said("the Necromancer puts his {n} Ghost(s) in hand back on "
                                     "his regions first", n=state.hand))
        state = replace(state, island=state.island + state.hand, hand=0)
    return spawn_ghosts(state)


def spawn_ghosts(state: NecromancerState) -> Spawn:
    """Every full set of tokens in the Well spawns a Ghost onto the Island (see above)."""
    well, reserve, island = state.well, state.reserve, state.island
    spawned = ghosts_back = souls_out = 0
    while well.tokens >= SOULS_PER_GHOST:
        ghosts = min(SOULS_PER_GHOST, well.ghosts)
        souls = SOULS_PER_GHOST - ghosts
        if reserve + ghosts == 0:
            break
        well = Well(well.ghosts - ghosts, well.souls - souls)
        reserve += ghosts - 1
        island += 1
        spawned += 1
        ghosts_back += ghosts
        souls_out += souls
    after = replace(state, well=well, reserve=reserve, island=island)
    return Spawn(after, spawned, ghosts_back, souls_out)


def board_occupant(state: NecromancerState, region: int) -> Occupant | None:
    """The Ghosts in a region as the board records them for other players: a race in
    decline (like Lost Tribes) with every Ghost counted."""
    ghosts = state.regions.get(region)
    if ghosts is None:
        return None
    return Occupant(seat=state.seat, race=GHOSTS, in_decline=True, tokens=ghosts)


def island_refusal(state: NecromancerState, region: int, seat: int) -> Said | None:
    """Why another player may not attack `region` because of the Island (English by
    `str()`), or None."""
    if region == state.lake and seat != state.seat:
        return said("Necromancer Island cannot be attacked, not even by sea")
    return None


# --- the books: the end of the game ------------------------------------------------------


def standings(
    state: NecromancerState,
    coins: Mapping[int, int],
    tokens: Mapping[int, int] | None = None,
    names: Mapping[int, str] | None = None,
) -> Standings:
    """The outcome: the Necromancer if he brought every Ghost into play; otherwise the
    other players by the usual rule, with him after them."""
    if state.seat not in coins:
        raise IllegalAction(said("the Necromancer's coins are needed for the final standings"))

    name = seat_names(names)
    others = {s: c for s, c in coins.items() if s != state.seat}
    if state.won:
        order = sorted(others, key=lambda s: (-others[s], s))
        placings = [Placing(1, state.seat, coins[state.seat])]
        for index, seat in enumerate(order):
            ahead = sum(1 for o in order[:index] if others[o] > others[seat])
            placings.append(Placing(ahead + 2, seat, others[seat]))
        won = said("{player}, the Necromancer, has every Ghost in play and wins at once",
                   player=name(state.seat))
        return Standings(tuple(placings), frozenset({state.seat}), won)
    others_tokens = {s: t for s, t in (tokens or {}).items() if s != state.seat}
    result = final_standings(others, others_tokens, names)
    last = Placing(len(others) + 1, state.seat, coins[state.seat])
    lost = said("{reason}; {player}, the Necromancer, did not bring every Ghost into play",
                reason=result.reason, player=name(state.seat))
    return Standings((*result.placings, last), result.winners, lost)


# --- the books: what everyone may see ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublicNecromancer:
    """The Necromancer as the shared screen shows him: every Ghost and badge (they lie
    on the table), never his coins."""

    seat: int
    step: Step
    island: int
    regions: tuple[tuple[int, int], ...]  # (region, Ghosts), by region id
    in_hand: int
    reserve: int
    well_ghosts: int
    well_souls: int
    removed: int
    powers_in_use: tuple[str, ...]
    powers_in_reserve: tuple[str, ...]
    price: int
    souls_to_next_ghost: int
    won: bool


def public(state: NecromancerState) -> PublicNecromancer:
    """What the table may see of the Necromancer."""
    short = SOULS_PER_GHOST - state.well.tokens % SOULS_PER_GHOST
    return PublicNecromancer(
        seat=state.seat,
        step=state.step,
        island=state.island,
        regions=tuple(sorted(state.regions.items())),
        in_hand=state.hand,
        reserve=state.reserve,
        well_ghosts=state.well.ghosts,
        well_souls=state.well.souls,
        removed=state.removed,
        powers_in_use=state.powers_in_use,
        powers_in_reserve=state.powers_in_reserve,
        price=state.price,
        souls_to_next_ghost=short,
        won=state.won,
    )


# --- the books: helpers ------------------------------------------------------------------


def _ready(state: NecromancerState, what: Said) -> NecromancerState:
    """His troops readied for conquest: buying is over; the Island's Ghosts and all but one
    of each region's go to his hand (done once, on his first move of the turn)."""
    if state.step is Step.ACQUIRE:
        lifted = state.island + sum(n - 1 for n in state.regions.values())
        return replace(
            state,
            step=Step.CONQUER,
            island=0,
            regions=dict.fromkeys(state.regions, 1),
            hand=state.hand + lifted,
        )
    _expect(state, Step.CONQUER, what)
    return state


def _expect(state: NecromancerState, step: Step, what: Said) -> None:
    _refuse_if_won(state)
    if state.step is not step:
        raise IllegalAction(said("the Necromancer cannot {what} now; he is at: {step}",
                                 what=what, step=step_said(state.step)))


def _refuse_if_won(state: NecromancerState) -> None:
    if state.won:
        raise IllegalAction(said("the Necromancer has already won; the game is over"))


def _check_seats(seats: int) -> None:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise IllegalAction(said("Necromancer Island is played by {least} to {most} at the "
                                 "table, not {seats}",
                                 least=MIN_SEATS, most=MAX_SEATS, seats=seats))


def step_said(step: Step) -> Said:
    """The step he is at as a sentence a screen words (its value is marked above)."""
    return Said(step.value)


def _powers(powers: Iterable[str]) -> Listed:
    """Power badges by name, as one value a screen words (each by the edition's name)."""
    return listed(Name("power", p) for p in powers)


def _not_covered(held: Sequence[int], missing: Sequence[int], extra: Sequence[int]) -> Said:
    """Why a redeployment does not cover exactly his regions: which are `missing`, which
    are `extra` (not his)."""
    if not extra:
        return said("redeployment covers exactly the regions the Necromancer holds: {held}; "
                    "missing: {missing}", held=listed(held), missing=listed(missing))
    if not missing:
        return said("redeployment covers exactly the regions the Necromancer holds: {held}; "
                    "not his: {extra}", held=listed(held), extra=listed(extra))
    return said("redeployment covers exactly the regions the Necromancer holds: {held}; "
                "missing: {missing}; not his: {extra}",
                held=listed(held), missing=listed(missing), extra=listed(extra))


# =========================================================================================
# The game: Necromancer Island inside a game (its events, its hooks, NECROMANCER_ISLAND)
# =========================================================================================

# --- the game: its events ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WellPowerChosen:
    """Necromancer Island, set-up: of his six powers, the one the Necromancer places with
    the Well of Souls (in use from the start); he may choose until his first turn begins."""

    TYPE: ClassVar[str] = "well_power_chosen"
    seat: int
    power: str


@dataclass(frozen=True, slots=True)
class GhostBought:
    """Necromancer Island: before his first move, the Necromancer buys a Ghost (from his
    reserve onto the Island) at the price of the moment."""

    TYPE: ClassVar[str] = "ghost_bought"
    seat: int


@dataclass(frozen=True, slots=True)
class NecromancerPowerBought:
    """Necromancer Island: the Necromancer buys one of his powers in reserve; it adds to
    the powers he uses."""

    TYPE: ClassVar[str] = "necromancer_power_bought"
    seat: int
    power: str


@dataclass(frozen=True, slots=True)
class GhostsRedeployed:
    """Necromancer Island: where his Ghosts end his turn: (region, Ghosts) for every
    region he holds, and the Ghosts on the Island."""

    TYPE: ClassVar[str] = "ghosts_redeployed"
    seat: int
    regions: tuple[tuple[int, int], ...]
    island: int = 0


@dataclass(frozen=True, slots=True)
class GhostsReturned:
    """Necromancer Island: in another player's turn, the Ghosts in his hand (survivors of a
    region he lost) go back onto his regions: (region, Ghosts added)."""

    TYPE: ClassVar[str] = "ghosts_returned"
    regions: tuple[tuple[int, int], ...]


HAND_COUNTED = "powers (counted by hand)"


# --- the game: set-up --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NecromancerSetup:
    """Necromancer Island's part of a new game (one of `GameCreated.options`): the six
    badges drawn for him, the one he places with the Well of Souls first (they are not in
    the market's `powers`), and the Ghosts taken out of his reserve to make his game easier
    (`ghosts_removed`, 0 to 2)."""

    necromancer_powers: tuple[str, ...] = ()
    ghosts_removed: int = 0


NOT_PLAYED = NecromancerSetup()
"""The set-up of a game without him."""


def his_setup(created: GameCreated) -> NecromancerSetup:
    """His part of the game's set-up (`NOT_PLAYED` when the game does not play him)."""
    return created.option(NecromancerSetup) or NOT_PLAYED


def _set_up_in_game(event: GameCreated, board: Board, catalog: Catalog) -> NecromancerState | None:
    """The Necromancer at the start (None when the game does not play Necromancer Island):
    the first of his six powers goes with the Well, the Island in the board's Lake."""
    his = his_setup(event)
    powers, removed = his.necromancer_powers, his.ghosts_removed
    if not powers:
        return None
    if isinstance(removed, bool) or not isinstance(removed, int):
        raise MalformedInput(said("ghosts_removed must be 0, 1 or 2, not {value}",
                                  value=repr(removed)),
                             field="ghosts_removed", allowed="0, 1 or 2")
    seat = seat_for(event.first_seat, len(event.seats))
    known = {p.name for p in catalog.powers_in(event.expansions)}
    return set_up(seat, central_lake(board), powers, powers[0],
                  ghosts_removed=removed, known_powers=known)


def _on_well_power_chosen(state: GameState, event: WellPowerChosen) -> GameState:
    """The power he places with the Well: any of his six, until his first turn begins
    (the first drawn stands if he never chooses)."""
    necro = _his(state, event.seat, said("choose the power placed with the Well"))
    if state.track.turn != 1 or state.track.seat == necro.seat or necro.step is not Step.WAITING:
        raise IllegalAction(said("the power beside the Well is chosen before the "
                                 "Necromancer's first turn"))
    six = (*necro.powers_in_use, *necro.powers_in_reserve)
    if len(necro.powers_in_use) != 1 or event.power not in six:
        raise IllegalAction(said("the power beside the Well is one of his six: {powers}",
                                 powers=listed(Name("power", p) for p in six)))
    rest = tuple(p for p in six if p != event.power)
    return state.with_part(replace(necro, powers_in_use=(event.power,),
                                   powers_in_reserve=rest))


# --- the game: who he is -----------------------------------------------------------------


def is_his(state: GameState, seat: int) -> bool:
    """Whether `seat` is the Necromancer's."""
    him = state.part(NecromancerState)
    return him is not None and him.seat == seat


def _his(state: GameState, seat: int, what: Said) -> NecromancerState:
    necro = state.part(NecromancerState)
    if necro is None:
        raise IllegalAction(said("this game does not play Necromancer Island: nobody can "
                                 "{what}", what=what))
    if seat != necro.seat:
        raise IllegalAction(said("only the Necromancer ({player}) can {what}",
                                 player=state.player(necro.seat).name, what=what))
    return necro


def attacker(state: GameState) -> Attacker:
    """The Necromancer's Ghosts as the conquest rules see them: every power in use (the
    other expansions' facts are added by `game.attacker`, as for anyone)."""
    necro = _his(state, state.track.seat, said("conquer with Ghosts"))
    powers = necro.powers_in_use
    return Attacker(
        necro.seat, GHOSTS, powers[0] if powers else None, frozenset(necro.regions),
        turn=state.track.turn, more_powers=powers[1:],
        berserk_roll=state.last_roll if BERSERK in powers else None)


def ghosts_free(state: GameState) -> int:
    """Ghosts he may still conquer with this turn (before his first move: those on the
    Island and all but one in each region)."""
    necro = state.part(NecromancerState)
    if necro is None:
        return 0
    if necro.step is Step.ACQUIRE:
        return necro.island + sum(n - 1 for n in necro.regions.values())
    return necro.hand if necro.step is Step.CONQUER else 0


# --- the game: where anyone may attack ---------------------------------------------------


def _island_refusal(state: GameState, seat: int, region: int) -> Said | None:
    necro = state.part(NecromancerState)
    return None if necro is None else island_refusal(necro, region, seat)


def attackable(state: GameState, who: Attacker, region: int) -> bool:
    """Whether `who` may attack `region` now, by position and protection alone."""
    board, held = state.map, state.regions.regions
    if immunity(board, region, held, who, catapults=state.regions.catapults()) is not None:
        return False
    necro = state.part(NecromancerState)
    if necro is not None and who.seat == necro.seat:
        return reach_refusal(necro, board, region) is None
    if _island_refusal(state, who.seat, region) is not None:
        return False
    return reach(board, region, who).reachable


def assess_region(state: GameState, who: Attacker, region: int) -> Assessment:
    """`conquest.assess` with Necromancer Island's changes: his own reach, and the Island
    closed to everybody else."""
    found = assess(state.map, region, state.regions.regions, who,
                   catapults=state.regions.catapults())
    necro = state.part(NecromancerState)
    if necro is None or found.immune is not None:
        return found
    if who.seat != necro.seat:
        shut = _island_refusal(state, who.seat, region)
        return found if shut is None else Assessment(region, shut, found.reach, None)
    refused = reach_refusal(necro, state.map, region)
    why = refused or said("region {region} borders the Lake or a region of his Ghosts",
                          region=region)
    return replace(found, reach=Reach(refused is None, why))


def refuse_island(state: GameState, who: Attacker, region: int) -> None:
    """Refuse another player's conquest of the Island."""
    refused = _island_refusal(state, who.seat, region)
    if refused is not None:
        raise IllegalAction(refused)


# --- the game: the board kept in step with his books -------------------------------------


def _synced(state: GameState, necro: NecromancerState) -> GameState:
    """`state` with `necro` as his books, and the board showing exactly his Ghost regions."""
    regions = state.regions
    for rid, here in state.regions.regions.items():
        occupant = here.occupant
        if occupant is not None and occupant.seat == necro.seat and rid not in necro.regions:
            regions = regions.with_region(rid, cleared(here))
    for rid in necro.regions:
        here = regions[rid]
        ghosts = board_occupant(necro, rid)
        assert ghosts is not None
        if here.occupant != ghosts:
            ours = here.occupant is not None and here.occupant.seat == necro.seat
            regions = regions.with_region(
                rid, replace(here, occupant=ghosts) if ours else taken(here, ghosts))
    return replace(state, regions=regions).with_part(necro)


def _fed(necro: NecromancerState, region: int, before: RegionState) -> NecromancerState:
    """The Well after `region` (as it stood `before`) was conquered."""
    if before.lost_tribe:
        necro = souls_lost(necro, 1)
    occupant = before.occupant
    if occupant is None:
        return necro
    if occupant.seat == necro.seat and occupant.race == GHOSTS:
        return region_lost(necro, region)
    if occupant.in_decline:
        return souls_lost(necro, occupant.tokens or 1)  # a race in decline: all
    return souls_lost(necro, 0 if occupant.race == ELVES else 1)  # Elves lose none


def conquest_fed(state: GameState, region: int, before: RegionState, seat: int) -> GameState:
    """After another player's (`seat`'s) conquest: what fell there goes into the Well (a
    Ghost region sends one Ghost to the Well and the others to his hand)."""
    necro = state.part(NecromancerState)
    if necro is None:
        return state
    return _synced(state, _fed(necro, region, before))


def race_declined(before: GameState, after: GameState, event: RaceDeclined) -> GameState:
    """A race went into decline: its discarded tokens go back to the tray, except the
    Elves', which fall into the Well (all but the one left in each region)."""
    necro = after.part(NecromancerState)
    seat = event.seat
    active = before.players[seat].active
    if necro is None or active is None or active.race != ELVES:
        return after
    kept = len(after.regions.held_by(seat, ELVES, in_decline=True))
    return _synced(after, souls_lost(necro, max(0, active.tokens - kept)))


# --- the game: his turn ------------------------------------------------------------------


def _paid(state: GameState, bought: Purchase) -> GameState:
    return _synced(from_stash(state, state.track.seat, -bought.cost), bought.state)


def _on_ghost_bought(state: GameState, event: GhostBought) -> GameState:
    necro = _his(state, event.seat, said("buy a Ghost"))
    expect(state, event.seat, Phase.CONQUER, "buy a Ghost")
    return _paid(state, buy_ghost(necro, state.current.coins))


def _on_power_bought(state: GameState, event: NecromancerPowerBought) -> GameState:
    necro = _his(state, event.seat, said("buy {power}", power=Name("power", event.power)))
    expect(state, event.seat, Phase.CONQUER, f"buy {event.power}")
    return _paid(state, buy_power(necro, event.power, state.current.coins))


def _on_conquest(state: GameState, event: RegionConquered) -> GameState:
    """His Ghosts take a region: his books check his reach and his free Ghosts, the
    conquest rules the region's protections; what falls there goes into the Well."""
    necro = _his(state, event.seat, said("conquer with Ghosts"))
    expect(state, event.seat, Phase.CONQUER, "conquer")
    if event.declined_ghouls or event.mercenary_coin or event.dragon:
        raise IllegalAction(said("the Necromancer conquers with his Ghosts, nothing else"))
    if event.tokens is None:
        raise IllegalAction(said("say how many Ghosts take the region"))
    before = region_state(state, event.region)
    refused = reach_refusal(necro, state.map, event.region) or immunity(
        state.map, event.region, state.regions.regions, attacker(state),
        catapults=state.regions.catapults())
    if refused is not None:
        raise IllegalAction(refused)
    necro = conquer(necro, state.map, event.region, event.tokens)
    necro = _fed(necro, event.region, before)
    occupant = board_occupant(necro, event.region)
    assert occupant is not None
    loser = before.occupant
    this_turn = state.track.this_turn
    attacked = loser is not None and not loser.in_decline
    this_turn = replace(
        this_turn,
        conquered=(*this_turn.conquered, (event.region, before.defended)),
        attacked_active_race=this_turn.attacked_active_race or attacked)
    last_roll = None if BERSERK in necro.powers_in_use else state.last_roll  # used up
    state = replace(state, regions=state.regions.with_region(event.region,
                                                             taken(before, occupant)),
                    track=replace(state.track, this_turn=this_turn), last_roll=last_roll)
    state = _settled(state, necro, before)
    return _synced(state, necro)  # the other expansions' rules follow (game.apply)


def _settled(state: GameState, necro: NecromancerState, before: RegionState) -> GameState:
    """What his conquest settles with the loser, as anyone's would: a race in decline left
    with no region leaves; an active race pays him a coin if he uses Ransacking, and takes
    one from him if it is Corrupt (nothing from an empty purse)."""
    loser = before.occupant
    if loser is None:
        return state
    players, market, regions = state.players, state.market, state.regions
    if loser.in_decline:
        victim, market, regions = vanish_if_gone(players[loser.seat], market, regions,
                                                 loser.race)
        return replace(state, players=with_player(players, victim), market=market,
                       regions=regions)
    rival = players[loser.seat].active
    if RANSACKING in necro.powers_in_use:
        players = coin_changes_hands(players, loser.seat, necro.seat)
    if rival is not None and rival.power == CORRUPT:
        players = coin_changes_hands(players, necro.seat, loser.seat)
    return replace(state, players=players)


def _on_abandon(state: GameState, event: RegionAbandoned) -> GameState:
    necro = _his(state, event.seat, said("abandon a Ghost region"))
    expect(state, event.seat, Phase.CONQUER, "abandon a region")
    return _synced(state, abandon(necro, event.region))


def _on_redeploy(state: GameState, event: GhostsRedeployed) -> GameState:
    """His Ghosts placed for the end of his turn; scoring comes next."""
    necro = _his(state, event.seat, said("redeploy Ghosts"))
    expect(state, event.seat, Phase.REDEPLOY, "redeploy his Ghosts")
    placed = dict(event.regions)
    if len(placed) != len(event.regions):
        raise IllegalAction(said("each region is named once in a redeployment"))
    return to_phase(_synced(state, redeploy(necro, placed, event.island)), Phase.SCORE)


def leave_as_they_stand(state: GameState, seat: int) -> GameState:
    """A plain end of his redeployment: Ghosts stay where they stand, free ones go onto the
    Island."""
    necro = _his(state, seat, said("redeploy Ghosts"))
    expect(state, seat, Phase.REDEPLOY, "finish redeploying")
    island = necro.island if necro.step is Step.ACQUIRE else necro.hand
    event = GhostsRedeployed(seat, tuple(sorted(necro.regions.items())), island)
    return _on_redeploy(state, event)


def his_income_lines(state: GameState) -> tuple[tuple[str, int], ...]:
    """What his turn earns now in this game: a coin per region he holds, then his powers'
    bonuses (`income_lines` on the regions he holds and this turn's facts)."""
    necro = _his(state, state.track.seat, said("score as the Necromancer"))
    board = state.map
    held = [board.region(rid) for rid in sorted(necro.regions)]
    regions = tuple(HeldRegion(r.terrain, r.features, r.coastal, r.id) for r in held)
    this_turn = state.track.this_turn
    return income_lines(regions, necro.powers_in_use,
                        conquered_non_empty=this_turn.conquered_non_empty,
                        attacked_active_race=this_turn.attacked_active_race)


def _on_score(state: GameState, event: TurnScored) -> GameState:
    """His end of turn: coins, a soul per region into the Well, spawning, and the win,
    which ends the game at once."""
    necro = _his(state, event.seat, said("score as the Necromancer"))
    state = scored(state, event.seat, event.coins)
    bonus = tuple((label, coins) for label, coins in event.lines if label != REGIONS_LINE)
    held = necro.regions_held
    if not event.lines and event.coins != held:
        bonus = ((HAND_COUNTED, event.coins - held),)
    result = score(necro, bonus)
    if result.coins != event.coins:
        raise IllegalAction(said("the Necromancer's lines add up to {total} coins, not {coins}",
                                 total=result.coins, coins=event.coins))
    state = _synced(state, result.state)
    if result.won:
        state = replace(state, track=replace(state.track, phase=Phase.GAME_OVER))
    return state


# --- the game: other players' turns, and every turn's end --------------------------------


def _on_ghosts_returned(state: GameState, event: GhostsReturned) -> GameState:
    """The Ghosts in his hand go back onto regions he holds."""
    necro = state.part(NecromancerState)
    if necro is None:
        raise IllegalAction(said("this game does not play Necromancer Island: there are no "
                                 "Ghosts"))
    placed = dict(event.regions)
    if len(placed) != len(event.regions):
        raise IllegalAction(said("each region is named once when Ghosts go back"))
    return _synced(state, return_ghosts(necro, placed))


def turn_passed(before: GameState, ended: GameState) -> GameState:
    """A turn ended: Ghosts in hand with no region to go to go to the Island, the Well
    spawns, and if he plays next his turn opens with buying."""
    necro = ended.part(NecromancerState)
    if necro is None:
        return ended
    necro = turn_ended(necro).state
    if not ended.is_over and ended.track.seat == necro.seat:
        necro = start_turn(necro)
        ended = replace(ended, track=replace(ended.track, phase=Phase.CONQUER))
    return _synced(ended, necro)


# --- the game: what everyone sees, and the end -------------------------------------------


def public_necromancer(state: GameState) -> PublicNecromancer | None:
    """His public side (Ghosts, Well, badges, price; never his coins), or None."""
    him = state.part(NecromancerState)
    return None if him is None else public(him)


def _game_standings(state: GameState, tokens: Mapping[int, int] | None,
                    names: Mapping[int, str]) -> Standings:
    """The outcome: his instant win, or the others by coins with him after them."""
    necro = state.part(NecromancerState)
    if necro is None:
        raise IllegalAction(said("this game does not play Necromancer Island"))
    coins = {p.seat: p.coins for p in state.players}
    return standings(necro, coins, tokens, names)


# --- the game: his words in the rule book ------------------------------------------------

_PIECE_WORDS: tuple[tuple[str, str | Said], ...] = (
    ("Necromancer",
     said("One player plays no races: he commands Ghosts from his Island in the central lake, "
          "with a reserve of Ghosts, the Well of Souls and {powers} special "
          "powers drawn at the start, one of them in use. Each turn he may spend coins on new "
          "Ghosts and powers (each costs as many coins as he has powers in use plus Ghosts on "
          "the map and the Island), conquers with his Ghosts, then scores one coin per region. "
          "He wins at once when every Ghost is in play, none left in his reserve or the Well; "
          "otherwise the others play for the win as usual.", powers=POWERS_DRAWN)),
    ("Ghosts",
     said("The Necromancer's {ghosts} tokens. Other players treat them as a "
          "race in decline. Taking a Ghost region sends one Ghost into the Well of Souls; the "
          "rest go back to the Necromancer, who sets them on his regions when that turn ends.",
          ghosts=GHOST_TOKENS)),
    ("Well of Souls",
     said("Every token lost in a conquest falls in here instead of going back to the tray, "
          "Ghosts kept on top, and the Necromancer adds one soul for each region he scores. "
          "After every turn each full set of {souls} tokens in the Well "
          "turns into a new Ghost on the Island; what is left over waits for the next set.",
          souls=SOULS_PER_GHOST)),
    ("Necromancer Island",
     N_("It lies on the central lake and holds the Ghosts waiting to set out; the "
        "Necromancer's first conquests start from there. Nobody else can attack it, not even "
        "by sea, and it earns him neither coins nor souls.")),
)
"""(name, words) of Necromancer Island's pieces and rules."""


class NecromancerIsland(Expansion):
    """Necromancer Island: the board for one fewer player, his six badges, his seat played
    by this module, the Well fed by every conquest and decline, the turn's end."""

    name = "Necromancer Island"
    key = "necromancer"
    events = (WellPowerChosen, GhostBought, NecromancerPowerBought, GhostsRedeployed,
              GhostsReturned)
    setup_type = NecromancerSetup
    setup_keywords = ("ghosts_removed",)
    def plays(self, created: GameCreated) -> bool:
        return bool(his_setup(created).necromancer_powers)

    def in_play(self, state: GameState) -> bool:
        return state.part(NecromancerState) is not None

    def check_created(self, created: GameCreated) -> None:
        his = his_setup(created)
        if his.necromancer_powers:
            board_for(len(created.seats))  # refuses a table too small or too large
        elif his.ghosts_removed:
            raise IllegalAction(said("Ghosts are taken out only in a Necromancer Island game"))

    def board_players(self, seats: int, usual: int) -> int:
        return board_players(seats)

    def check_table(self, seats: int, asked: bool | None) -> None:
        if asked:
            board_for(seats)  # refuses a table he cannot play at

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """His six powers, drawn from the badge stack (shuffled here when the table deals
        the market's stack by hand), and the Ghosts the table takes out of his reserve
        (`ghosts_removed`, refused by `check_created` in a game without him)."""
        removed = deal.asked.get("ghosts_removed") or 0
        if not deal.asked.get(self.key):
            return deal if not removed else replace(
                deal, options=(*deal.options, NecromancerSetup((), removed)))
        stack = list(deal.powers)
        if deal.dealing != "app":
            shuffle(stack)
        drawn, _ = draw_powers(stack)
        return replace(deal, powers=tuple(p for p in deal.powers if p not in drawn),
                       options=(*deal.options, NecromancerSetup(drawn, removed)))

    def badges(self, created: GameCreated) -> tuple[str, ...]:
        return his_setup(created).necromancer_powers  # his six, apart from the market's stack

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        necro = _set_up_in_game(created, board, catalog)
        return state if necro is None else state.with_part(necro)

    def apply(self, state: GameState, event: Event) -> GameState:
        match event:
            case WellPowerChosen():
                return _on_well_power_chosen(state, event)
            case GhostBought():
                return _on_ghost_bought(state, event)
            case NecromancerPowerBought():
                return _on_power_bought(state, event)
            case GhostsRedeployed():
                return _on_redeploy(state, event)
            case GhostsReturned():
                return _on_ghosts_returned(state, event)
            case RegionConquered(catapult=True):  # the base game's events of his seat
                raise IllegalAction(said("the Necromancer has no Catapult to conquer with"))
            case RegionConquered(region=region):
                region_state(state, region)  # an unknown region is refused before the rest
                return _on_conquest(state, event)
            case RegionAbandoned():
                return _on_abandon(state, event)
            case RedeploymentFinished(seat=seat):
                return leave_as_they_stand(state, seat)
            case TurnScored():
                return _on_score(state, event)
        return super().apply(state, event)

    plays_seat = staticmethod(is_his)
    seat_attacker = staticmethod(attacker)
    seat_income = staticmethod(his_income_lines)

    refuse_conquest = staticmethod(refuse_island)
    public_part = staticmethod(public_necromancer)

    def may_attack(self, state: GameState, who: Attacker, region: int) -> bool | None:
        """His own reach for him; the Island shut to the others (else the base rules)."""
        if is_his(state, who.seat) or _island_refusal(state, who.seat, region) is not None:
            return attackable(state, who, region)
        return None

    conquered = staticmethod(conquest_fed)
    race_declined = staticmethod(race_declined)
    turn_passed = staticmethod(turn_passed)

    def tied_for_first(self, state: GameState,
                       coins: Mapping[int, int]) -> frozenset[int] | None:
        necro = state.part(NecromancerState)
        assert necro is not None
        return needs_token_count({s: c for s, c in coins.items() if s != necro.seat})

    standings = staticmethod(_game_standings)

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        return tuple(RuleEntry(PIECE, name, words, self.name) for name, words in _PIECE_WORDS)


NECROMANCER_ISLAND = NecromancerIsland()


class NecromancerIntents(Intents):
    """The Necromancer's intents at the table (mixed into the session)."""

    def choose_well_power(self, power: str) -> GameState:
        """The Necromancer places `power`, one of his six, with the Well (before his first
        turn)."""
        necro = self.state.part(NecromancerState)
        seat = necro.seat if necro is not None else self.state.track.seat
        return self.play(WellPowerChosen(seat, power))

    def buy_ghost(self) -> GameState:
        """The Necromancer buys a Ghost onto the Island, at the price of the moment."""
        return self.play(GhostBought(self.state.track.seat))

    def buy_power(self, power: str) -> GameState:
        """The Necromancer buys one of his powers in reserve."""
        return self.play(NecromancerPowerBought(self.state.track.seat, power))

    def redeploy_ghosts(self, regions: Mapping[int, int], island: int = 0) -> GameState:
        """The Necromancer's Ghosts for the end of his turn: per region he holds, and on
        the Island."""
        return self.play(GhostsRedeployed(self.state.track.seat,
                                          tuple(sorted(regions.items())), island))

    def return_ghosts(self, regions: Mapping[int, int]) -> GameState:
        """The Ghosts in the Necromancer's hand go back onto his regions (Ghosts added)."""
        return self.play(GhostsReturned(tuple(sorted(regions.items()))))
