"""The end of the game: final standings, the winner, and why.

When the last turn is over every purse is revealed and the most coins wins. A tie for the
most coins goes to whoever of the tied players has the most race tokens on the board,
active and in decline together; if that is level too, the tied players share the win (the
rules break ties no further).

The token count is only needed for a tie for first place, so `needs_token_count` says which
players the app must ask; `final_standings` refuses to decide a tie it has no counts for
and ignores counts it did not need. Other ties (for second place, say) are shown as shared
places: the rules only say who wins.

Invariants of `Standings`: every player appears once, in order of rank; a rank is one more
than the number of players strictly ahead; `winners` are exactly the players ranked 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.rules.board import RegionState
from companion.rules.errors import IllegalAction
from companion.rules.names import GHOULS
from companion.rules.said import N_, Said, Value, listed, said


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's place in the final standings."""

    rank: int
    seat: int
    coins: int
    tokens: int | None = None  # race tokens on the board, when a tie-break needed them


@dataclass(frozen=True, slots=True)
class Standings:
    """The outcome of a finished game."""

    placings: tuple[Placing, ...]
    winners: frozenset[int]
    reason: Said  # English by str(); a screen words it (`companion.ui.wording.say`)

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


COINS_COUNT = N_("coins of seat {seat} must be a whole number of 0 or more")
TOKENS_COUNT = N_("tokens of seat {seat} must be a whole number of 0 or more")


def seat_names(names: Mapping[int, str] | None) -> Callable[[int], Value]:
    """A player's name in a reason, by seat: as given in `names`, else "seat N"."""
    given = names or {}
    return lambda seat: given[seat] if seat in given else said("seat {seat}", seat=seat)


def check_counts(kind: str, values: Mapping[int, int]) -> None:
    """Refuse a count of `kind` ("coins" or "tokens") by seat that is not a whole number of
    0 or more."""
    for seat, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            template = COINS_COUNT if kind == "coins" else TOKENS_COUNT
            raise IllegalAction(said(template, seat=seat))


def needs_token_count(coins: Mapping[int, int]) -> frozenset[int]:
    """The seats tied for the most coins, whose tokens on the board break the tie.

    Empty when one player alone has the most coins: nobody needs to count then.
    """
    check_counts("coins", coins)
    if not coins:
        return frozenset()
    best = max(coins.values())
    tied = frozenset(seat for seat, value in coins.items() if value == best)
    return tied if len(tied) > 1 else frozenset()


def final_standings(
    coins: Mapping[int, int],
    tokens: Mapping[int, int] | None = None,
    names: Mapping[int, str] | None = None,
) -> Standings:
    """Rank the players by coins; a tie for first goes to the most race tokens on the board.

    `coins` is every player's revealed total by seat. `tokens` gives the race tokens
    (active + in decline) on the board, needed only for the seats `needs_token_count`
    names. `names` are used in the reason (else "seat N").
    """
    if not coins:
        raise IllegalAction(said("a game needs at least one player to rank"))
    check_counts("coins", coins)
    tokens = dict(tokens or {})
    check_counts("tokens", tokens)
    unknown = sorted(set(tokens) - set(coins))
    if unknown:
        raise IllegalAction(said("a token count was given for seat {seat}, who is not playing",
                                 seat=unknown[0]))

    name = seat_names(names)
    tied = needs_token_count(coins)
    missing = sorted(seat for seat in tied if seat not in tokens)
    if missing:
        raise IllegalAction(said("a tie for first: count the race tokens on the board of {who}",
                                 who=listed(name(seat) for seat in missing)))

    def key(seat: int) -> tuple[int, int]:
        return (coins[seat], tokens[seat] if seat in tied else 0)

    order = sorted(coins, key=lambda seat: (-key(seat)[0], -key(seat)[1], seat))
    placings: list[Placing] = []
    for index, seat in enumerate(order):
        ahead = sum(1 for other in order[:index] if key(other) > key(seat))
        rank = ahead + 1
        placings.append(Placing(rank, seat, coins[seat], tokens[seat] if seat in tied else None))
    winners = frozenset(p.seat for p in placings if p.rank == 1)
    return Standings(tuple(placings), winners, _reason(coins, tokens, tied, winners, name))


def _reason(
    coins: Mapping[int, int],
    tokens: Mapping[int, int],
    tied: frozenset[int],
    winners: frozenset[int],
    name: Callable[[int], Value],
) -> Said:
    best = max(coins.values())
    if not tied:
        (winner,) = winners
        return said("{winner} wins with {coins} coins", winner=name(winner), coins=best)
    tied_names = _and([name(seat) for seat in sorted(tied)])
    if len(winners) == 1:
        (winner,) = winners
        others = listed(said("{player}: {tokens}", player=name(seat), tokens=tokens[seat])
                        for seat in sorted(tied) if seat != winner)
        return said("{tied} tie on {coins} coins; {winner} wins with {tokens} race tokens on "
                    "the board ({others})", tied=tied_names, coins=best, winner=name(winner),
                    tokens=tokens[winner], others=others)
    most = tokens[min(winners)]
    return said("{tied} tie on {coins} coins; {winners} also tie on {tokens} race tokens on "
                "the board and share the win", tied=tied_names, coins=best,
                winners=_and([name(s) for s in sorted(winners)]), tokens=most)


def _and(words: list[Value]) -> Value:
    if len(words) == 1:
        return words[0]
    return said("{names} and {last}", names=listed(words[:-1]), last=words[-1])


def tokens_on_board(state: Mapping[int, RegionState], seat: int) -> int | None:
    """The race tokens (active and in decline) a seat has on the board, for the tie-break.

    None when a region of theirs does not record its count and the rules do not fix it
    (a race in decline other than Ghouls holds exactly one token per region).
    """
    total = 0
    for region in state.values():
        occupant = region.occupant
        if occupant is None or occupant.seat != seat:
            continue
        if occupant.tokens is not None:
            total += occupant.tokens
        elif occupant.in_decline and occupant.race.casefold() != GHOULS.casefold():
            total += 1
        else:
            return None
    return total
