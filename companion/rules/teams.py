"""Six players in teams: who partners whom, the turn order, the Monsters set out before the
first turn, and the team standings at the end.

Seats are numbered 0..5 clockwise. Partners sit opposite each other, three seats apart, so
with the first player at `first_seat` the teams are A = (first, first + 3), B = (first + 1,
first + 4) and C = (first + 2, first + 5), and play runs A1, B1, C1, A2, B2, C2: the
ordinary clockwise order. The game lasts `TEAM_TURNS` turns. Partners keep their own
combos, conquests and purses (hidden, even from each other) and may attack each other;
the team only matters at the end, where a team is worth the smaller of its two totals.

Before the first turn every player but the first, in turn order, sets a Monster on the
board: which regions qualify is data read off the board (`monster_sites`): a region that
starts with a Lost Tribe, holds no Monster and borders none. A player who finds no such
region left passes. A Monster adds `MONSTER_DEFENCE` to the cost of conquering its region;
taking the region removes it and draws a Relic or Place (`relics.region_conquered` keeps
the Monsters still standing; `team_game.with_relics` gives them to the conquest costs).

Readings of the rules made here (see docs/expansions.md):
- the Monsters go down in turn order, starting with the second player;
- a tie for the best team score goes to the tied team with the best single total; if
  that is level too, the tied teams share the win; lower places tie as shared places (the
  rules only say who wins).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from companion.rules.errors import IllegalAction
from companion.rules.maps import Board
from companion.rules.said import Said, listed, said

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


def are_allies(a: int, b: int) -> bool:
    """Two different players of one team."""
    return a != b and partner(a) == b


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
    for seat, value in coins.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise IllegalAction(said("coins of seat {seat} must be a whole number of 0 or more",
                                     seat=seat))

    def name(seat: int) -> str | Said:
        given = (names or {}).get(seat)
        return said("seat {seat}", seat=seat) if given is None else given

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
    name: Callable[[int], str | Said],
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
