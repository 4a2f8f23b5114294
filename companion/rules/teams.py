"""Six players in teams: who partners whom and the turn order, the Monsters set out before
the first turn, the Righteous Relic and Popular Places found where a Monster falls, the
team standings at the end, and team play inside a game (its events, the expansion
`TEAM_PLAY` and its intents at the table).

The module reads in three sections: seats and Monsters (pure functions of the seats and
the board), Relics and Places (pure functions over a `RelicsState` and the board), and the
game (`companion.rules.game` hands the team events and the moments that touch them to
`TeamPlay`, which keeps the two models among the state's parts, `GameState.part`, as a
`MonsterSetup` and a `RelicsState`).

**Seats and Monsters.** Seats are numbered 0..5 clockwise. Partners sit opposite each
other, three seats apart, so with the first player at `first_seat` the teams are A =
(first, first + 3), B = (first + 1, first + 4) and C = (first + 2, first + 5), and play
runs A1, B1, C1, A2, B2, C2: the ordinary clockwise order. The game lasts `TEAM_TURNS`
turns. Partners keep their own combos, conquests and purses (hidden, even from each
other) and may attack each other; the team only matters at the end, where a team is worth
the smaller of its two totals.

Before the first turn every player but the first, in turn order, sets a Monster on the
board: which regions qualify is data read off the board (`monster_sites`): a region that
starts with a Lost Tribe, holds no Monster and borders none. A player who finds no such
region left passes. A Monster adds `MONSTER_DEFENCE` to the cost of conquering its region;
taking the region removes it and draws a Relic or Place (`region_conquered` keeps the
Monsters still standing; `TeamPlay.with_facts` gives them to the conquest costs).

**Relics and Places.** At the start of a team game the Relic and the four Places are
shuffled into a face-down pile (the order arrives as data: `start(order, monsters)`).
Whoever conquers a Monster's region removes the Monster and draws the top of the pile into
that region. From then on a marker's power belongs to whoever's *active* race holds its
region (a race in decline, Ghouls included, never uses one); when the region changes
hands, so does the power, and an abandoned region keeps its marker. Markers never add to a
region's defence, and any power here that gives "bonus race tokens" takes them from the
tray, then from the hand.

Where the app keeps the books, this section does them as pure functions over a
`RelicsState` value and the board (`BoardState`, read only):

- Golden Soapbar (the Relic): 1 coin at the end of its holder's turn, after which the holder
  must move it to a region that borders their active race and is not theirs
  (`move_soapbar`; the turn cannot end while the move is owed);
- Glandulf's Tavern: 2 coins at the end of its holder's turn; the holder may hand those
  coins (and only those) to one player of their choice (`share_tavern`);
- Bony's Boneyard: its holder sets Bony on one banner in decline (`place_bony`); opponents'
  race and power abilities, Relics and Places do nothing against those tokens (`shielded`);
  Bony goes back beside the board when the Boneyard's holder declines or leaves it;
- Mirror's Vale: at the start of their turn its holder may swap special powers with their
  partner (`swap_powers`); the pieces of those powers on the board go back to hand;
- Sigil of Sacrifice: its holder may agree to take another race's losses, or to have
  another race take theirs (`choose_sigil`); the table moves the tokens, the app records
  the pact and reminds.

**The game.** How a team game runs:
- `GameCreated.teams`: six seats, eight turns, partners opposite; the app plays it on the
  packaged 5-player board (the 6-player map is a separate product the app has no data
  for) or on a group's own board made for 5 or 6 players. `relic_order` is the shuffled
  pile (drawn by the session);
- before the first turn every player but the first, in turn order, sets a Monster
  (`MonsterPlaced`) or, finding no region left, passes (`MonsterPassed`); no turn event is
  taken until they all have;
- a Monster adds one token to its region's cost (`TeamPlay.with_facts` gives the attacker
  the Monsters and Bony's banner); conquering its region removes it and draws the top of
  the pile into the region;
- when a turn is scored (`TurnScored`), its player collects the Golden Soapbar's and the
  Tavern's coins if their active race holds them (added by the rules, on top of the
  turn's score); the Soapbar's move is then owed (`SoapbarMoved`) and the turn cannot end
  before it; the Tavern's coins may be given away until the turn ends (`TavernShared`);
- Bony (`BonyPlaced`), Mirror's Vale (`PowersSwapped`) and the Sigil (`SigilPactMade`) are
  their holder's choices in their own turn; against Bony's banner another player's power
  lowers no cost, so a Mercenary coin is refused there.

Invariants: coins are conserved (the relic coins come from the stash and count in
`coins_issued`; the Tavern's share moves coins between purses); after every event Bony and
the Sigil's pact are dropped when their holder's hold is gone (`settle`), and a Soapbar
move that can no longer be made is no longer owed. The first two sections never read a
`GameState`; the third keeps their values in one.

Readings of the rules made here (see docs/expansions.md):
- the Monsters go down in turn order, starting with the second player;
- a tie for the best team score goes to the tied team with the best single total; if
  that is level too, the tied teams share the win; lower places tie as shared places (the
  rules only say who wins);
- the Soapbar's new region must border a region of the holder's active race (any of them)
  and not be one of its regions; water is not excluded, the rules name no such limit;
- a player shares the Tavern's coins with one other player, any number of the two;
- "opponents" of a banner Bony guards are all players but its owner (partners included:
  the rules let partners attack each other); Bony also leaves when the banner he guards has
  no region left, and the Boneyard's holder may then set him again;
- the Sigil's pact ends when its holder no longer holds the Sigil with an active race.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from companion.rules.board import BoardState, RegionState, marker_count, with_marker
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker, CostLine, Reach
from companion.rules.errors import IllegalAction, MalformedInput
from companion.rules.events import (
    Event,
    GameCreated,
    RegionConquered,
    TurnEnded,
    TurnScored,
)
from companion.rules.expansion import Deal, Expansion, Intents
from companion.rules.maps import Board, Region
from companion.rules.names import BIVOUACKING, DRAGON_MASTER, FORTIFIED, HEROIC
from companion.rules.purse import pay
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Name, Said, Value, listed, said, said_n
from companion.rules.standings import Placing, Standings, check_counts, seat_names
from companion.rules.state import GameState, acting, from_stash, with_player
from companion.rules.turns import Phase

# =========================================================================================
# Seats and Monsters
# =========================================================================================

TEAM_PLAYERS = 6
TEAM_SIZE = 2
TEAM_TURNS = 8
TEAM_LABELS = ("A", "B", "C")
MONSTER_DEFENCE = 1
"""A Monster defends its region like one more token."""


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its label and its two seats, the one who plays first in front."""

    label: str
    seats: tuple[int, int]


def _check_seat(seat: int, *, first: bool = False) -> None:
    """Refuse a seat (the `first` player's, if so) a team game does not have."""
    if isinstance(seat, bool) or not 0 <= seat < TEAM_PLAYERS:
        raise IllegalAction(
            said("a team game has seats 0 to {last}; no first player {seat}",
                 last=TEAM_PLAYERS - 1, seat=seat) if first else
            said("a team game has seats 0 to {last}; no seat {seat}",
                 last=TEAM_PLAYERS - 1, seat=seat))


def check_table(seats: int, turns: int) -> None:
    """A team game is six players over eight turns."""
    if seats != TEAM_PLAYERS:
        raise IllegalAction(said("a team game needs exactly {players} players, not {seats}",
                                 players=TEAM_PLAYERS, seats=seats))
    if turns != TEAM_TURNS:
        raise IllegalAction(said("a team game lasts {turns} turns, not {n}",
                                 turns=TEAM_TURNS, n=turns))


def teams(first_seat: int = 0) -> tuple[Team, ...]:
    """The three teams, A first: A holds the first player, partners sit opposite."""
    _check_seat(first_seat, first=True)
    return tuple(
        Team(label, ((first_seat + i) % TEAM_PLAYERS, (first_seat + i + 3) % TEAM_PLAYERS))
        for i, label in enumerate(TEAM_LABELS)
    )


def partner(seat: int) -> int:
    """The seat opposite: the partner."""
    _check_seat(seat)
    return (seat + TEAM_PLAYERS // TEAM_SIZE) % TEAM_PLAYERS


def team_of(seat: int, first_seat: int = 0) -> Team:
    _check_seat(seat)
    return next(t for t in teams(first_seat) if seat in t.seats)


def turn_order(first_seat: int = 0) -> tuple[int, ...]:
    """The seats in playing order: A1, B1, C1, A2, B2, C2."""
    _check_seat(first_seat, first=True)
    return tuple((first_seat + i) % TEAM_PLAYERS for i in range(TEAM_PLAYERS))


# --- Monsters before the first turn ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonsterSetup:
    """Monsters set out so far, in order, and the seats that found no region for theirs."""

    first_seat: int
    placed: tuple[tuple[int, int], ...] = ()  # (seat, region)
    passed: tuple[int, ...] = ()

    @property
    def monsters(self) -> frozenset[int]:
        """The regions holding a Monster."""
        return frozenset(region for _, region in self.placed)

    @property
    def placers(self) -> tuple[int, ...]:
        """Every seat but the first player's, in turn order."""
        return turn_order(self.first_seat)[1:]

    @property
    def next_seat(self) -> int | None:
        """Who places a Monster now; None when all have."""
        done = {seat for seat, _ in self.placed} | set(self.passed)
        return next((s for s in self.placers if s not in done), None)

    @property
    def done(self) -> bool:
        return self.next_seat is None


def start_monsters(first_seat: int = 0) -> MonsterSetup:
    _check_seat(first_seat, first=True)
    return MonsterSetup(first_seat)


def monster_sites(board: Board, monsters: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """Regions a Monster may go in: a Lost Tribe region with no Monster in it or next to it."""
    return tuple(
        r.id for r in sorted(board.regions.values(), key=lambda r: r.id)
        if r.lost_tribe and r.id not in monsters and r.adjacent.isdisjoint(monsters)
    )


def place_monster(setup: MonsterSetup, board: Board, seat: int, region: int) -> MonsterSetup:
    """`seat` sets its Monster in `region`."""
    _expect_placer(setup, seat)
    target = board.region(region)
    if not target.lost_tribe:
        raise IllegalAction(said("a Monster goes in a Lost Tribe region; region {region} is "
                                 "not one", region=region))
    if region in setup.monsters:
        raise IllegalAction(said("region {region} already holds a Monster", region=region))
    near = sorted(target.adjacent & setup.monsters)
    if near:
        raise IllegalAction(said("region {region} borders the Monster in region {other}; a "
                                 "Monster never goes next to another",
                                 region=region, other=near[0]))
    return replace(setup, placed=(*setup.placed, (seat, region)))


def pass_monster(setup: MonsterSetup, board: Board, seat: int) -> MonsterSetup:
    """`seat` has no region left for its Monster and sets none."""
    _expect_placer(setup, seat)
    sites = monster_sites(board, setup.monsters)
    if sites:
        raise IllegalAction(said("a Monster must be placed while a region allows it: "
                                 "{regions}", regions=listed(sites)))
    return replace(setup, passed=(*setup.passed, seat))


def _expect_placer(setup: MonsterSetup, seat: int) -> None:
    _check_seat(seat)
    nxt = setup.next_seat
    if nxt is None:
        raise IllegalAction(said("every Monster is set out; the first turn can begin"))
    if seat == setup.first_seat:
        raise IllegalAction(said("the first player places no Monster"))
    if seat != nxt:
        raise IllegalAction(said("seat {next} places the next Monster, not seat {seat}",
                                 next=nxt, seat=seat))


# --- the end of the game -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamPlacing:
    """One team's place: its score (its lower total), both totals, and its best one."""

    rank: int
    team: Team
    score: int
    totals: tuple[tuple[int, int], ...]  # (seat, coins) for both partners, in team order
    best: int


@dataclass(frozen=True, slots=True)
class TeamStandings:
    """The outcome of a team game: teams in order of rank, the winning labels, and why."""

    placings: tuple[TeamPlacing, ...]
    winners: frozenset[str]
    why: Said

    @property
    def reason(self) -> str:
        """Why, in English (`why` is the same sentence for a screen to word)."""
        return str(self.why)

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


def team_standings(
    coins: Mapping[int, int],
    first_seat: int = 0,
    names: Mapping[int, str] | None = None,
) -> TeamStandings:
    """Rank the teams by their lower partner's total; a tie for first goes to the tied team
    with the highest single total (level again: a shared win)."""
    if sorted(coins) != list(range(TEAM_PLAYERS)):
        raise IllegalAction(said("every seat 0 to {last} needs its total; given: {given}",
                                 last=TEAM_PLAYERS - 1, given=listed(sorted(coins))))
    check_counts("coins", coins)
    name = seat_names(names)
    scored = [
        (t, min(coins[s] for s in t.seats), max(coins[s] for s in t.seats))
        for t in teams(first_seat)
    ]
    top = max(score for _, score, _ in scored)
    tied = [t for t, score, _ in scored if score == top]
    tie_best = max(best for t, score, best in scored if score == top)

    def key(entry: tuple[Team, int, int]) -> tuple[int, int]:
        team, score, best = entry
        return (score, best if team in tied else 0)

    order = sorted(scored, key=lambda e: (-key(e)[0], -key(e)[1], TEAM_LABELS.index(e[0].label)))
    placings = []
    for index, entry in enumerate(order):
        ahead = sum(1 for other in order[:index] if key(other) > key(entry))
        team, score, best = entry
        placings.append(TeamPlacing(ahead + 1, team, score,
                                    tuple((s, coins[s]) for s in team.seats), best))
    winners = frozenset(p.team.label for p in placings if p.rank == 1)
    return TeamStandings(tuple(placings), winners,
                         _reason(placings, tied, top, tie_best, winners, name))


def _reason(
    placings: list[TeamPlacing],
    tied: list[Team],
    top: int,
    tie_best: int,
    winners: frozenset[str],
    name: Callable[[int], Value],
) -> Said:
    def members(team: Team) -> Said:
        return said("{team} ({first} and {second})", team=team.label,
                    first=name(team.seats[0]), second=name(team.seats[1]))

    winning = [p for p in placings if p.rank == 1]
    if len(tied) == 1:
        lead = winning[0]
        low = min(lead.totals, key=lambda t: (t[1], t[0]))
        return said("Team {team} wins with {top} coins, {player}'s total (the lower of the "
                    "two)", team=members(lead.team), top=top, player=name(low[0]))
    labels = _teams([t.label for t in tied])
    if len(winners) == 1:
        lead = winning[0]
        high = max(lead.totals, key=lambda t: (t[1], -t[0]))
        return said("{teams} tie on {top} coins; team {team} wins with the best single total, "
                    "{player}'s {best}", teams=labels, top=top, team=members(lead.team),
                    player=name(high[0]), best=lead.best)
    return said("{teams} tie on {top} coins; {sharing} also tie on the best single total "
                "({best}) and share the win",
                teams=labels, top=top, sharing=_teams(sorted(winners), lower=True),
                best=tie_best)


def _teams(labels: list[str], *, lower: bool = False) -> Said:
    """Two or three teams by their labels, as the start of a sentence or (`lower`) inside."""
    if len(labels) == 2:
        first, second = labels
        return (said("teams {first} and {second}", first=first, second=second) if lower
                else said("Teams {first} and {second}", first=first, second=second))
    first, second, third = labels
    return (said("teams {first}, {second} and {third}", first=first, second=second,
                 third=third) if lower else
            said("Teams {first}, {second} and {third}", first=first, second=second,
                 third=third))


# =========================================================================================
# Relics and Places
# =========================================================================================

SOAPBAR = "Golden Soapbar"
TAVERN = "Glandulf's Tavern"
BONEYARD = "Bony's Boneyard"
MIRROR = "Mirror's Vale"
SIGIL = "Sigil of Sacrifice"
SOAPBAR_COINS = 1
TAVERN_COINS = 2


class Kind(StrEnum):
    RELIC = "Righteous Relic"
    PLACE = "Popular Place"


@dataclass(frozen=True, slots=True)
class Marker:
    """A Relic or Place: its name, kind and what it does, in a line."""

    name: str
    kind: Kind
    summary: str


MARKERS: Mapping[str, Marker] = MappingProxyType({
    m.name: m for m in (
        Marker(SOAPBAR, Kind.RELIC,
               N_("1 coin at the end of your turn; then move it next to your active race, "
                  "into a region your active race does not hold.")),
        Marker(TAVERN, Kind.PLACE,
               N_("2 coins at the end of your turn; you may give those coins to one player.")),
        Marker(BONEYARD, Kind.PLACE,
               N_("Set Bony on a banner in decline: other players' race and power abilities, "
                  "Relics and Places do nothing against its tokens.")),
        Marker(MIRROR, Kind.PLACE,
               N_("At the start of your turn you may swap special powers with your partner.")),
        Marker(SIGIL, Kind.PLACE,
               N_("Take another race's losses with your own tokens, or have a willing player "
                  "take yours.")),
    )
})

POWER_PIECES: Mapping[str, str] = MappingProxyType({
    FORTIFIED: "fortress",
    BIVOUACKING: "encampment",
    HEROIC: "hero",
    DRAGON_MASTER: "dragon",
})
"""Powers whose pieces the board records (as markers), and the marker of each."""


class SigilMode(StrEnum):
    """The two pacts the Sigil of Sacrifice allows."""

    SHIELD = "shield"  # the holder loses its own active tokens instead of the other race
    STAND_IN = "stand-in"  # the other race (willing, each time) loses tokens instead


@dataclass(frozen=True, slots=True)
class Banner:
    """A player's race: the seat and the race name."""

    seat: int
    race: str


@dataclass(frozen=True, slots=True)
class Bony:
    """Bony the Lich on a banner in decline, set there by the Boneyard's holder."""

    guards: Banner
    set_by: Banner


@dataclass(frozen=True, slots=True)
class SigilPact:
    holder: Banner
    mode: SigilMode
    other: Banner


@dataclass(frozen=True, slots=True)
class RelicsState:
    """The pile, the Monsters still standing, where each found marker lies, and what is
    owed or in force this turn."""

    pile: tuple[str, ...]
    monsters: frozenset[int]
    lying: Mapping[str, int] = field(default_factory=dict)
    bony: Bony | None = None
    sigil: SigilPact | None = None
    soapbar_owed_by: int | None = None  # seat that must move the Soapbar before ending
    tavern_open: tuple[int, int] | None = None  # (seat, coins it may still give away)
    mirror_used: bool = False  # Mirror's Vale used this turn

    def __post_init__(self) -> None:
        object.__setattr__(self, "lying", MappingProxyType(dict(self.lying)))


@dataclass(frozen=True, slots=True)
class Transfer:
    """Coins moving from one purse to another."""

    from_seat: int
    to_seat: int
    coins: int


@dataclass(frozen=True, slots=True)
class Swap:
    """Mirror's Vale: the two players' powers after the swap, and the power pieces to take
    off the board (region, marker, how many) into their new owner's hand."""

    seat: int
    power: str
    ally: int
    ally_power: str
    lifted: tuple[tuple[int, str, int], ...]


# --- set-up and conquest -----------------------------------------------------------------


def start(order: Sequence[str], monsters: frozenset[int]) -> RelicsState:
    """The face-down pile in `order` (top first) and the Monsters set out before turn 1."""
    order = tuple(order)
    if sorted(order) != sorted(MARKERS):
        raise IllegalAction(said("the pile holds each Relic and Place once: {markers}",
                                 markers=listed(marker_name(m) for m in sorted(MARKERS))))
    return RelicsState(pile=order, monsters=frozenset(monsters))


def region_conquered(state: RelicsState, region: int) -> tuple[RelicsState, str | None]:
    """A region is taken: a Monster there is removed and the top of the pile (if any is
    left) is drawn into the region. Returns the state and the marker drawn."""
    if region not in state.monsters:
        return state, None
    monsters = state.monsters - {region}
    if not state.pile:
        return replace(state, monsters=monsters), None
    drawn, pile = state.pile[0], state.pile[1:]
    lying = {**state.lying, drawn: region}
    return replace(state, monsters=monsters, pile=pile, lying=lying), drawn


def holder(state: RelicsState, regions: BoardState, name: str) -> int | None:
    """The seat whose active race holds the region where the marker lies, or None."""
    banner = _holding(state, regions, name)
    return None if banner is None else banner.seat


def settle(state: RelicsState, regions: BoardState) -> RelicsState:
    """The markers after the board changed (a conquest, an abandonment, a decline): Bony
    leaves when the Boneyard's holder is no longer there and active, or when the banner he
    guards is gone from the board; the Sigil's pact ends with its holder's hold."""
    bony = state.bony
    if bony is not None and (
        _holding(state, regions, BONEYARD) != bony.set_by
        or not regions.held_by(bony.guards.seat, bony.guards.race, in_decline=True)
    ):
        bony = None
    sigil = state.sigil
    if sigil is not None and _holding(state, regions, SIGIL) != sigil.holder:
        sigil = None
    return replace(state, bony=bony, sigil=sigil)


# --- the end of a turn: Soapbar and Tavern -----------------------------------------------


def turn_end_bonus(
    state: RelicsState, board: Board, regions: BoardState, seat: int
) -> tuple[RelicsState, tuple[tuple[str, int], ...]]:
    """The coins `seat` collects at the end of their turn from the markers they hold, as
    scoring lines; the Soapbar's move and the Tavern's sharing become owed or open."""
    lines: list[tuple[str, int]] = []
    if holder(state, regions, SOAPBAR) == seat:
        lines.append((SOAPBAR, SOAPBAR_COINS))
        if soapbar_destinations(state, board, regions, seat):
            state = replace(state, soapbar_owed_by=seat)
    if holder(state, regions, TAVERN) == seat:
        lines.append((TAVERN, TAVERN_COINS))
        state = replace(state, tavern_open=(seat, TAVERN_COINS))
    return state, tuple(lines)


def soapbar_destinations(
    state: RelicsState, board: Board, regions: BoardState, seat: int
) -> tuple[int, ...]:
    """Where `seat` may move the Soapbar: next to their active race, not held by it."""
    own = set(regions.held_by(seat, in_decline=False))
    near = {other for rid in own for other in board.region(rid).adjacent}
    return tuple(sorted(near - own))


def move_soapbar(
    state: RelicsState, board: Board, regions: BoardState, seat: int, region: int
) -> RelicsState:
    """`seat` moves the Soapbar after collecting its coin."""
    if state.soapbar_owed_by != seat:
        raise IllegalAction(said("the Golden Soapbar moves only right after its holder "
                                 "collects its coin"))
    board.region(region)
    allowed = soapbar_destinations(state, board, regions, seat)
    if region not in allowed:
        raise IllegalAction(said("the Golden Soapbar goes to a region next to your active "
                                 "race that it does not hold, not region {region}; allowed: "
                                 "{allowed}", region=region, allowed=listed(allowed)))
    return replace(state, lying={**state.lying, SOAPBAR: region}, soapbar_owed_by=None)


def share_tavern(
    state: RelicsState, seat: int, to_seat: int, coins: int
) -> tuple[RelicsState, Transfer]:
    """`seat` gives `coins` of this turn's Tavern coins to `to_seat` (once per turn)."""
    if state.tavern_open is None or state.tavern_open[0] != seat:
        raise IllegalAction(said("only the Tavern's holder shares its coins, in the turn they "
                                 "collect them"))
    if to_seat == seat:
        raise IllegalAction(said("the Tavern's coins are shared with another player"))
    available = state.tavern_open[1]
    if not 1 <= coins <= available:
        raise IllegalAction(said("the Tavern's share is 1 to {available} coin(s), its own "
                                 "coins only; not {coins}", available=available, coins=coins))
    return replace(state, tavern_open=None), Transfer(seat, to_seat, coins)


def turn_ended(state: RelicsState, seat: int) -> RelicsState:
    """The turn of `seat` ends: refused while the Soapbar's move is owed; the Tavern's
    share and Mirror's Vale close."""
    if state.soapbar_owed_by == seat:
        raise IllegalAction(said("move the Golden Soapbar first: it never stays with its "
                                 "holder"))
    return replace(state, tavern_open=None, mirror_used=False)


# --- Bony's Boneyard ---------------------------------------------------------------------


def place_bony(
    state: RelicsState, regions: BoardState, seat: int, guards: Banner
) -> RelicsState:
    """The Boneyard's holder sets Bony on a banner in decline (their own or anyone's)."""
    banner = _holding(state, regions, BONEYARD)
    if banner is None or banner.seat != seat:
        raise IllegalAction(said("only a player whose active race holds Bony's Boneyard sets "
                                 "Bony"))
    if state.bony is not None:
        raise IllegalAction(said("Bony already guards seat {seat}'s {race}",
                                 seat=state.bony.guards.seat,
                                 race=Name("race", state.bony.guards.race)))
    if not regions.held_by(guards.seat, guards.race, in_decline=True):
        raise IllegalAction(said("Bony goes on a race in decline on the board; seat {seat} has "
                                 "no {race} in decline there",
                                 seat=guards.seat, race=Name("race", guards.race)))
    return replace(state, bony=Bony(guards=guards, set_by=banner))


def shielded(state: RelicsState, target: Banner, by_seat: int) -> bool:
    """Whether Bony keeps `by_seat`'s race and power abilities, Relics and Places off the
    tokens of `target` (a race in decline he guards; its owner is never kept off)."""
    bony = state.bony
    return bony is not None and bony.guards == target and by_seat != target.seat


# --- Mirror's Vale -----------------------------------------------------------------------


def swap_powers(
    state: RelicsState,
    regions: BoardState,
    seat: int,
    mine: str | None,
    theirs: str | None,
    *,
    at_turn_start: bool,
) -> tuple[RelicsState, Swap]:
    """The Vale's holder swaps special powers with their partner, at the start of their
    turn. `mine` and `theirs` are the holder's and the partner's active powers (None for
    a player with no active race)."""
    if holder(state, regions, MIRROR) != seat:
        raise IllegalAction(said("only a player whose active race holds Mirror's Vale swaps "
                                 "powers"))
    if not at_turn_start:
        raise IllegalAction(said("Mirror's Vale works at the start of your turn, before any "
                                 "conquest"))
    if state.mirror_used:
        raise IllegalAction(said("Mirror's Vale has already been used this turn"))
    if mine is None or theirs is None:
        raise IllegalAction(said("both partners need an active race with a special power to "
                                 "swap"))
    ally = partner(seat)
    lifted = (*_pieces(regions, seat, mine), *_pieces(regions, ally, theirs))
    swap = Swap(seat=seat, power=theirs, ally=ally, ally_power=mine, lifted=lifted)
    return replace(state, mirror_used=True), swap


def _pieces(regions: BoardState, seat: int, power: str) -> tuple[tuple[int, str, int], ...]:
    marker = POWER_PIECES.get(power)
    if marker is None:
        return ()
    counts = ((rid, marker_count(regions[rid].markers, marker))
              for rid in sorted(regions.held_by(seat, in_decline=False)))
    return tuple((rid, marker, count) for rid, count in counts if count)


# --- Sigil of Sacrifice ------------------------------------------------------------------


def choose_sigil(
    state: RelicsState, regions: BoardState, seat: int, mode: SigilMode, other: Banner
) -> RelicsState:
    """The Sigil's holder records a pact with another race on the board (one pact for as
    long as they keep the Sigil)."""
    banner = _holding(state, regions, SIGIL)
    if banner is None or banner.seat != seat:
        raise IllegalAction(said("only a player whose active race holds the Sigil of "
                                 "Sacrifice makes a pact"))
    if state.sigil is not None:
        raise IllegalAction(said("the Sigil's pact with seat {seat}'s {race} holds while you "
                                 "keep the Sigil", seat=state.sigil.other.seat,
                                 race=Name("race", state.sigil.other.race)))
    if other == banner:
        raise IllegalAction(said("the Sigil's pact is made with another race than the "
                                 "holder's own"))
    if not regions.held_by(other.seat, other.race):
        raise IllegalAction(said("seat {seat} has no {race} on the board",
                                 seat=other.seat, race=Name("race", other.race)))
    if shielded(state, other, seat):
        raise IllegalAction(said("Bony guards seat {seat}'s {race}: no Relic or Place of "
                                 "another player touches them",
                                 seat=other.seat, race=Name("race", other.race)))
    return replace(state, sigil=SigilPact(banner, mode, other))


# --- what everyone sees, and reminders ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublicRelics:
    """Monsters, found markers and pacts lie face up; the pile's order is never shown."""

    pile_left: int
    monsters: tuple[int, ...]
    lying: tuple[tuple[str, str, int], ...]  # (name, kind, region)
    bony: Bony | None
    sigil: SigilPact | None
    soapbar_owed_by: int | None


def public(state: RelicsState) -> PublicRelics:
    return PublicRelics(
        pile_left=len(state.pile),
        monsters=tuple(sorted(state.monsters)),
        lying=tuple(
            (name, MARKERS[name].kind.value, region)
            for name, region in sorted(state.lying.items(), key=lambda item: item[1])
        ),
        bony=state.bony,
        sigil=state.sigil,
        soapbar_owed_by=state.soapbar_owed_by,
    )


def reminders(state: RelicsState, regions: BoardState, seat: int) -> tuple[Said, ...]:
    """What the markers `seat` holds ask of them now (English by `str()`)."""
    out: list[Said] = []
    held = [name for name in state.lying if holder(state, regions, name) == seat]
    if state.soapbar_owed_by == seat:
        out.append(said("Golden Soapbar: move it now to a region next to your active race "
                        "that your active race does not hold."))
    if state.tavern_open is not None and state.tavern_open[0] == seat:
        out.append(said("Glandulf's Tavern: you may give up to {coins} of its coins to one "
                        "player.", coins=state.tavern_open[1]))
    if BONEYARD in held and state.bony is None:
        out.append(said("Bony's Boneyard: set Bony on a banner in decline to guard its "
                        "tokens."))
    if MIRROR in held and not state.mirror_used:
        out.append(said("Mirror's Vale: before conquering, you may swap special powers with "
                        "your partner."))
    if SIGIL in held:
        if state.sigil is None:
            out.append(said("Sigil of Sacrifice: you may take another race's losses, or ask a "
                            "willing player to take yours."))
        elif state.sigil.mode is SigilMode.SHIELD:
            out.append(said("Sigil of Sacrifice: when seat {seat}'s {race} lose a token, you "
                            "may lose one of yours instead.", seat=state.sigil.other.seat,
                            race=Name("race", state.sigil.other.race)))
        else:
            out.append(said("Sigil of Sacrifice: when you lose a token, seat {seat} may lose "
                            "a {race} token instead, if willing.", seat=state.sigil.other.seat,
                            race=Name("race", state.sigil.other.race)))
    return tuple(out)


def marker_name(name: str) -> Name:
    """A Relic's or Place's name as a value a screen words by the edition's name."""
    return Name("relic" if MARKERS[name].kind is Kind.RELIC else "place", name)


# --- helpers -----------------------------------------------------------------------------


def _holding(state: RelicsState, regions: BoardState, name: str) -> Banner | None:
    region = state.lying.get(name)
    if region is None:
        return None
    occupant = regions[region].occupant
    if occupant is None or occupant.in_decline:
        return None
    return Banner(occupant.seat, occupant.race)


# =========================================================================================
# The game: team play's events, set-up and hooks
# =========================================================================================

# --- its events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonsterPlaced:
    """Team play, before the first turn: the player sets their Monster in a Lost Tribe
    region with no Monster in it or next to it."""

    TYPE: ClassVar[str] = "monster_placed"
    seat: int
    region: int


@dataclass(frozen=True, slots=True)
class MonsterPassed:
    """Team play, before the first turn: no region is left for this player's Monster."""

    TYPE: ClassVar[str] = "monster_passed"
    seat: int


@dataclass(frozen=True, slots=True)
class SoapbarMoved:
    """Team play: after collecting its coin, the Golden Soapbar's holder moves it next to
    their active race, into a region that race does not hold."""

    TYPE: ClassVar[str] = "soapbar_moved"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int


@dataclass(frozen=True, slots=True)
class TavernShared:
    """Team play: the Tavern's holder gives some of this turn's Tavern coins to a player."""

    TYPE: ClassVar[str] = "tavern_shared"
    IN_TURN: ClassVar[bool] = True
    seat: int
    to_seat: int
    coins: int


@dataclass(frozen=True, slots=True)
class BonyPlaced:
    """Team play: the Boneyard's holder sets Bony on a race in decline (`race` of
    `guards_seat`)."""

    TYPE: ClassVar[str] = "bony_placed"
    IN_TURN: ClassVar[bool] = True
    seat: int
    guards_seat: int
    race: str


@dataclass(frozen=True, slots=True)
class PowersSwapped:
    """Team play: at the start of their turn, Mirror's Vale's holder swaps special powers
    with their partner."""

    TYPE: ClassVar[str] = "powers_swapped"
    IN_TURN: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class SigilPactMade:
    """Team play: the Sigil's holder takes another race's losses ("shield"), or has a
    willing race take theirs ("stand-in")."""

    TYPE: ClassVar[str] = "sigil_pact_made"
    IN_TURN: ClassVar[bool] = True
    seat: int
    mode: str
    other_seat: int
    race: str


TEAM_BOARD_PLAYERS = 5
"""The packaged board a team game plays on: the 5-player one (same 8 turns)."""
OWN_BOARD_PLAYERS = 6
"""A group's own board may also be made for the six at the table."""

# --- set-up ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamSetup:
    """Team play's part of a new game (one of `GameCreated.options`): six players in three
    teams of two (partners opposite), with Monsters set out before the first turn
    (`teams`); `relic_order`: then the face-down pile of the Righteous Relics and Popular
    Places, top first (shuffled outside the rules)."""

    teams: bool = False
    relic_order: tuple[str, ...] = ()


NOT_PLAYED = TeamSetup()
"""The set-up of a game without teams."""


def team_setup(created: GameCreated) -> TeamSetup:
    """Team play's part of the game's set-up (`NOT_PLAYED` when it is not played)."""
    return created.option(TeamSetup) or NOT_PLAYED


# --- the turn's coins and a conquest's facts ----------------------------------------------


def _collect(state: GameState, relics: RelicsState, seat: int) -> tuple[GameState, RelicsState]:
    """The Soapbar's and the Tavern's coins for `seat` at the end of their turn."""
    relics, lines = turn_end_bonus(relics, state.map, state.regions, seat)
    coins = sum(n for _, n in lines)
    if not coins:
        return state, relics
    return from_stash(state, seat, coins), relics


@dataclass(frozen=True, slots=True)
class TeamFacts:
    """Team play's part of a conquest (`conquest.ConquestFacts`): `monsters` the regions a
    Monster still guards (+1 each, "Monster"); `bony` the banner (seat, race) Bony the
    Lich guards: against its tokens another player's race and power modifiers count for
    nothing."""

    monsters: frozenset[int] = frozenset()
    bony: tuple[int, str] | None = None

    def base(self, region: Region) -> CostLine | None:
        return None

    def entry(self, board: Board, region_id: int) -> Reach | None:
        return None

    def defence(self, region_id: int, here: RegionState) -> tuple[CostLine, ...]:
        if region_id not in self.monsters:
            return ()
        monster = said("Monster")
        return (CostLine(str(monster), MONSTER_DEFENCE, monster),)

    def guard(self, here: RegionState, attacker: Attacker) -> Said | None:
        occupant = here.occupant
        if (self.bony is not None and occupant is not None and occupant.in_decline
                and (occupant.seat, occupant.race) == self.bony
                and occupant.seat != attacker.seat):
            return said("Bony the Lich guards these tokens: your race and power change nothing "
                        "here")
        return None


# --- the Monsters in a game --------------------------------------------------------------


def _monster_event(state: GameState, event: MonsterPlaced | MonsterPassed) -> GameState:
    """A Monster set out or passed: the set-up moves on, the Monsters standing with it."""
    setup_, relics = state.part(MonsterSetup), state.part(RelicsState)
    if setup_ is None or relics is None:
        raise IllegalAction(said("Monsters are set out only in a team game"))
    state.player(event.seat)
    if isinstance(event, MonsterPlaced):
        setup_ = place_monster(setup_, state.map, event.seat, event.region)
    else:
        setup_ = pass_monster(setup_, state.map, event.seat)
    return state.with_part(setup_).with_part(replace(relics, monsters=setup_.monsters))


def next_monster_sites(state: GameState) -> tuple[int, ...]:
    """Where the next Monster may go in the game (empty once they are all out, or outside
    team play): `monster_sites` of its board and the Monsters out so far."""
    setup_ = state.part(MonsterSetup)
    if setup_ is None or setup_.done:
        return ()
    return monster_sites(state.map, setup_.monsters)


def placing_monster(state: GameState) -> int | None:
    """The seat that sets the next Monster, or None when none is owed."""
    setup_ = state.part(MonsterSetup)
    return None if setup_ is None else setup_.next_seat


# --- the Relics and Places in a game -----------------------------------------------------


def _marker_event(
    state: GameState,
    event: SoapbarMoved | TavernShared | BonyPlaced | PowersSwapped | SigilPactMade,
) -> GameState:
    """A holder's choice with a Relic or Place, in their own turn."""
    relics = state.part(RelicsState)
    if relics is None:
        raise IllegalAction(said("the Relics and Places are part of team play, which this "
                                 "game is not"))
    acting(state, event.seat)
    match event:
        case SoapbarMoved(seat=seat, region=region):
            relics = move_soapbar(relics, state.map, state.regions, seat, region)
        case TavernShared():
            return _share(state, relics, event)
        case BonyPlaced(seat=seat, guards_seat=guards, race=race):
            state.player(guards)
            relics = place_bony(relics, state.regions, seat, Banner(guards, race))
        case PowersSwapped():
            return _swap(state, relics, event.seat)
        case SigilPactMade(seat=seat, mode=mode, other_seat=other, race=race):
            state.player(other)
            try:
                pact = SigilMode(mode)
            except ValueError:
                raise IllegalAction(said("the Sigil's pact is {shield} or {stand_in}, not {mode}",
                                         shield=SigilMode.SHIELD.value,
                                         stand_in=SigilMode.STAND_IN.value,
                                         mode=repr(mode))) from None
            relics = choose_sigil(relics, state.regions, seat, pact, Banner(other, race))
    return state.with_part(relics)


def _share(state: GameState, relics: RelicsState, event: TavernShared) -> GameState:
    receiver = state.player(event.to_seat)
    relics, transfer = share_tavern(relics, event.seat, event.to_seat, event.coins)
    giver = state.player(event.seat)
    left = pay(giver.coins, transfer.coins, who=giver.name, what="the Tavern's coins")
    players = with_player(state.players, replace(giver, coins=left))
    players = with_player(players, replace(receiver, coins=receiver.coins + transfer.coins))
    return replace(state, players=players).with_part(relics)


def _swap(state: GameState, relics: RelicsState, seat: int) -> GameState:
    mine = state.player(seat).active
    ally = state.player(partner(seat)).active
    this_turn = state.track.this_turn
    at_start = (state.track.phase is Phase.CONQUER and not this_turn.declined
                and this_turn.conquests == 0 and this_turn.ghoul_conquests == 0)
    relics, swap = swap_powers(relics, state.regions, seat,
                               None if mine is None else mine.power,
                               None if ally is None else ally.power,
                               at_turn_start=at_start)
    assert mine is not None and ally is not None  # swap_powers refuses otherwise
    players = with_player(state.players, replace(
        state.player(seat), active=replace(mine, power=swap.power)))
    ally_player = players[swap.ally]
    players = with_player(players, replace(ally_player,
                                           active=replace(ally, power=swap.ally_power)))
    regions = state.regions
    for rid, marker, count in swap.lifted:
        here = regions[rid]
        regions = regions.with_region(rid, replace(here, markers=with_marker(
            here.markers, marker, -count)))
    return replace(state, players=players, regions=regions).with_part(relics)


# --- the end of a game -------------------------------------------------------------------


def team_result(state: GameState) -> TeamStandings:
    """The teams' standings (every total read: only once the game is over)."""
    if not state.is_over:
        raise IllegalAction(said("the teams are ranked only at the end of the game"))
    return team_standings({p.seat: p.coins for p in state.players},
                          state.track.first_seat, {p.seat: p.name for p in state.players})


def team_label(state: GameState, seat: int) -> str | None:
    """The team `seat` plays in ("A", "B", "C"), None outside team play."""
    if state.part(MonsterSetup) is None:
        return None
    return team_of(seat, state.track.first_seat).label


# --- its words in the rule book ------------------------------------------------------------

RULE_RELIC = "relic"
"""The rule book's kind of entry for a Righteous Relic."""
RULE_PLACE = "place"
"""The rule book's kind of entry for a Popular Place."""

_PIECE_WORDS: tuple[tuple[str, str | Said], ...] = (
    ("Monsters",
     said("Before the first turn of a team game, each player but the first sets a Monster on a "
          "Lost Tribe region that holds no Monster and touches none. A Monster makes its region "
          "{defence} harder to take; whoever takes it removes "
          "the Monster and draws a Relic or Place into that region.",
          defence=said_n("{n} token", "{n} tokens", MONSTER_DEFENCE))),
    ("Team play",
     said("{players} players in three teams of two, partners sitting opposite each "
          "other. Partners keep their own races, coins and conquests, and may even attack each "
          "other. After {turns} turns each team counts the smaller of its two "
          "totals, and the best such score wins.",
          players=TEAM_PLAYERS, turns=TEAM_TURNS)),
)
"""(name, words) of team play's pieces and rules."""


class TeamPlay(Expansion):
    """Six players in teams: the 5-player board (or a group's own for six), the Monsters
    and the Relics and Places, the turn's events held back until the Monsters are out, and
    the team standings."""

    name = "Team play"
    key = "teams"
    setup_type = TeamSetup
    rule_kinds = ((RULE_RELIC, N_("Righteous Relic")), (RULE_PLACE, N_("Popular Place")))
    events = (MonsterPlaced, MonsterPassed, SoapbarMoved, TavernShared, BonyPlaced,
              PowersSwapped, SigilPactMade)
    def plays(self, created: GameCreated) -> bool:
        return bool(team_setup(created).teams)

    def in_play(self, state: GameState) -> bool:
        return state.part(MonsterSetup) is not None

    def board_players(self, seats: int, usual: int) -> int:
        return TEAM_BOARD_PLAYERS

    def own_board(self, created: GameCreated, board: Board) -> bool:
        """Whether a team game plays on a group's board made for its six players."""
        return bool(team_setup(created).teams) and board.players == OWN_BOARD_PLAYERS

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """The pile of Relics and Places, shuffled face down."""
        if not deal.asked.get(self.key):
            return deal
        pile = list(MARKERS)
        shuffle(pile)
        return replace(deal, options=(*deal.options, TeamSetup(True, tuple(pile))))

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        """The Monsters' set-up and the face-down pile (nothing outside team play)."""
        option = team_setup(created)
        if not isinstance(option.teams, bool):
            raise MalformedInput(said("teams must be true or false, not {value}",
                                      value=repr(option.teams)),
                                 field="teams", allowed="true or false")
        if not option.teams:
            if option.relic_order:
                raise IllegalAction(said("the Relics and Places are drawn only in a team game"))
            return state
        check_table(len(created.seats), created.turns)
        return (state.with_part(start_monsters(created.first_seat))
                .with_part(start(option.relic_order, frozenset())))

    def apply(self, state: GameState, event: Event) -> GameState:
        match event:
            case MonsterPlaced() | MonsterPassed():
                return _monster_event(state, event)
            case (SoapbarMoved() | TavernShared() | BonyPlaced() | PowersSwapped()
                  | SigilPactMade()):
                return _marker_event(state, event)
        return super().apply(state, event)

    def refuse(self, state: GameState, event: Event) -> None:
        """Refuse a turn's event while Monsters are still to be set out, the end of a turn
        while its player owes the Soapbar's move, and a Mercenary coin spent against the
        banner Bony guards (the power does nothing there)."""
        setup_ = state.part(MonsterSetup)
        if setup_ is None:
            return
        seat = setup_.next_seat
        if seat is not None and getattr(event, "IN_TURN", False):  # waits until they are out
            raise IllegalAction(said("the Monsters go out before the first turn: {player} sets "
                                     "theirs (or passes) first", player=state.player(seat).name))
        relics = state.part(RelicsState)
        if isinstance(event, TurnEnded) and relics is not None:
            turn_ended(relics, event.seat)
        if (isinstance(event, RegionConquered) and event.mercenary_coin
                and relics is not None and event.region in state.map.regions):
            occupant = state.regions[event.region].occupant
            if (occupant is not None and occupant.in_decline and shielded(
                    relics, Banner(occupant.seat, occupant.race), event.seat)):
                raise IllegalAction(said("Bony the Lich guards {race} in decline in region "
                                         "{region}: a Mercenary coin buys nothing against them",
                                         race=Name("race", occupant.race), region=event.region))

    def settled(self, before: GameState, event: Event, after: GameState) -> GameState:
        """The state after `event` once the Relics and Places have had their say: a
        Monster's region drawn into, the turn's coins collected, the turn's offers closed,
        and Bony and the Sigil's pact checked against the board."""
        relics = after.part(RelicsState)
        if relics is None:
            return after
        match event:
            case RegionConquered(region=region):
                relics, _ = region_conquered(relics, region)
            case TurnScored(seat=seat):
                after, relics = _collect(after, relics, seat)
            case TurnEnded(seat=seat):
                relics = turn_ended(relics, seat)
        relics = settle(relics, after.regions)
        owed = relics.soapbar_owed_by
        if owed is not None and not soapbar_destinations(relics, after.map, after.regions,
                                                         owed):
            relics = replace(relics, soapbar_owed_by=None)
        return after.with_part(relics)

    def refuse_roll(self, state: GameState) -> Said | None:
        if placing_monster(state) is None:
            return None
        return said("No roll yet: the Monsters are set out before the first turn.")

    def with_facts(self, state: GameState, who: Attacker) -> Attacker:
        """The team-play facts a conquest reads: the Monsters standing, Bony's banner."""
        relics = state.part(RelicsState)
        if relics is None:
            return who
        bony = relics.bony
        facts = TeamFacts(relics.monsters,
                          None if bony is None else (bony.guards.seat, bony.guards.race))
        return replace(who, facts=(*who.facts, facts))

    def public_part(self, state: GameState) -> PublicRelics | None:
        relics = state.part(RelicsState)
        return None if relics is None else public(relics)

    def tied_for_first(self, state: GameState,
                       coins: Mapping[int, int]) -> frozenset[int] | None:
        return frozenset()  # teams go by their best single total: nobody counts tokens

    def standings(self, state: GameState, tokens: Mapping[int, int] | None,
                  names: Mapping[int, str]) -> Standings | None:
        """The team standings as the history of games keeps them: each player ranked with
        their team, the winning teams' players as winners, the team reason."""
        result = team_result(state)
        placings = tuple(Placing(place.rank, seat, coins) for place in result.placings
                         for seat, coins in sorted(place.totals, key=lambda t: (-t[1], t[0])))
        winners = frozenset(seat for p in result.placings if p.rank == 1
                            for seat in p.team.seats)
        return Standings(placings, winners, result.why)

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        where = f"{self.name} ({TEAM_PLAYERS} players)"
        return (*(RuleEntry(RULE_RELIC if marker.kind is Kind.RELIC else RULE_PLACE,
                            marker.name, marker.summary, where)
                  for marker in MARKERS.values()),
                *(RuleEntry(PIECE, name, words, where) for name, words in _PIECE_WORDS))


TEAM_PLAY = TeamPlay()


class TeamIntents(Intents):
    """Team play's intents at the table (mixed into the session)."""

    def place_monster(self, region: int) -> GameState:
        """Before the first turn: the player whose Monster is next sets it in `region`."""
        return self.play(MonsterPlaced(self._monster_seat(), region))

    def pass_monster(self) -> GameState:
        """Before the first turn: no region is left for the next player's Monster."""
        return self.play(MonsterPassed(self._monster_seat()))

    def _monster_seat(self) -> int:
        seat = placing_monster(self.state)
        if seat is None:
            raise IllegalAction(said("no Monster is waiting to be set out"))
        return seat

    def move_soapbar(self, region: int) -> GameState:
        """The Golden Soapbar's holder moves it after collecting its coin."""
        return self.play(SoapbarMoved(self.state.track.seat, region))

    def share_tavern(self, seat: int, coins: int) -> GameState:
        """The Tavern's holder gives some of this turn's Tavern coins to `seat`."""
        return self.play(TavernShared(self.state.track.seat, seat, coins))

    def place_bony(self, seat: int, race: str) -> GameState:
        """The Boneyard's holder sets Bony on `seat`'s `race` in decline."""
        return self.play(BonyPlaced(self.state.track.seat, seat, race))

    def swap_powers(self) -> GameState:
        """Mirror's Vale: its holder swaps special powers with their partner."""
        return self.play(PowersSwapped(self.state.track.seat))

    def make_sigil_pact(self, mode: str, seat: int, race: str) -> GameState:
        """The Sigil's holder records a pact ("shield" or "stand-in") with `seat`'s
        `race`."""
        return self.play(SigilPactMade(self.state.track.seat, mode, seat, race))
