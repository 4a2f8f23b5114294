"""Necromancer Island: the Necromancer's seat and the Ghosts' books.

One seat of the table plays the Necromancer instead of races: Ghosts that start on his
Island in the board's central Lake, a reserve of Ghosts beside the board, and the Well of
Souls, which every token lost in a conquest falls into. This module keeps his books as a
`NecromancerState` value and says, with one pure function per step, what each step of his
turn (and each step of another player's turn that touches him) does to it; a step the rules
do not allow raises `IllegalAction` naming what was wrong and what is allowed, and changes
nothing. Nothing here reads a clock or draws at random: the powers he draws at set-up arrive
as data (`draw_powers` takes the shuffled badge stack).

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

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from companion.rules.board import Occupant
from companion.rules.errors import IllegalAction
from companion.rules.maps import Board, Terrain
from companion.rules.names import FLYING, SEAFARING
from companion.rules.purse import pay
from companion.rules.said import N_, Listed, Name, Said, listed, said
from companion.rules.scoring import Regions, power_bonus_lines, regions_held
from companion.rules.standings import Placing, Standings, final_standings

GHOSTS = "Ghosts"
"""The race name the Necromancer's tokens carry on the board."""
GHOST_TOKENS = 14
"""Ghosts in the box: 1 starts on the Island, the others in the reserve."""
ISLAND_START = 1
SOULS_PER_GHOST = 4
POWERS_DRAWN = 6
BARRED_POWERS = ("Cursed", "Spirit", "Stout")
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

    def ghosts_in(self, region: int) -> int:
        """Ghosts in a region (0 where he holds nothing)."""
        return self.regions.get(region, 0)


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


# --- set-up ------------------------------------------------------------------------------


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


# --- his turn ----------------------------------------------------------------------------


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
    lines = (("regions held", held), *bonus)
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
    income, read by the game (`necromancer_game.income_lines`) and `companion score`."""
    lines: list[tuple[str, int]] = [(REGIONS_LINE, regions_held(regions))]
    for power in powers:
        for line in power_bonus_lines(
            power,
            regions,
            conquered_non_empty=conquered_non_empty,
            attacked_active_race=attacked_active_race,
            fortresses=fortresses,
        ):
            lines.append((line.label, line.coins))
    return tuple(lines)


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


# --- other players' turns ----------------------------------------------------------------


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


# --- the end of the game -----------------------------------------------------------------


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

    def name(seat: int) -> str | Said:
        given = (names or {}).get(seat)
        return said("seat {seat}", seat=seat) if given is None else given

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


# --- what everyone may see ---------------------------------------------------------------


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


def reminders(state: NecromancerState) -> tuple[str, ...]:
    """What the Necromancer (or the table, for him) should do now, in plain words."""
    if state.won:
        return ("The Necromancer has every Ghost in play: he wins.",)
    match state.step:
        case Step.ACQUIRE:
            return (
                f"Necromancer: a Ghost or a power costs {state.price} coins now "
                "(powers in use + Ghosts on the map and the Island); buy before conquering.",
                "Necromancer: conquer from the Lake's shore; no Ghost has to stay on the Island.",
            )
        case Step.CONQUER:
            return ("Necromancer: every token your Ghosts knock out falls into the Well.",)
        case Step.SCORE:
            return (
                f"Necromancer: {state.regions_held} coin(s) and {state.regions_held} soul(s) "
                "for the Well, one per region (not the Island).",
            )
        case Step.WAITING:
            out: list[str] = []
            if state.hand:
                out.append(
                    f"Necromancer: put {state.hand} Ghost(s) from hand back on your regions "
                    "(the Island if you hold none) when this turn ends."
                )
            out.append("Ghosts count as a race in decline for everyone but the Necromancer.")
            return tuple(out)
    return ()


# --- helpers -----------------------------------------------------------------------------


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
