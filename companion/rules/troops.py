"""The troops: where every race token of every player is, as a ledger.

Each race a player has (active or in decline) has one `RaceTroops` entry: the tokens it
has received from the storage tray since its combo was picked (`received`: banner + badge,
Amazons' four conquest-only tokens, and later reinforcements such as new Skeletons or an
expansion race's new tokens), and where those not on the board are: in the player's hand
(`hand`), set aside until the next Ready your Troops (`aside`: Amazons' four, taken off the
map at the end of each redeployment), or given back to the tray (`tray`: losses, and every
token beyond one per region when the race goes into decline). The tokens on the board are
counted in the regions themselves (`companion.rules.board.Occupant.tokens`), never twice.

Invariants (checked by `check`, kept by every function here):
- board + hand + aside + tray == received, and none of them is negative;
- a race never has more tokens out of the tray than its box holds (`Race.max_tokens`,
  when the catalog knows it): reinforcements stop when the tray runs out (`from_tray`);
- every region held by a race holds at least one of its tokens.

The functions are pure: they take the ledger and the board and give new ones, or raise
`IllegalAction` with the numbers and change nothing. When in the turn each applies is
`companion.rules.troops_game`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from companion.rules.board import BoardState
from companion.rules.errors import IllegalAction
from companion.rules.said import Name, Said, listed, said, said_n


@dataclass(frozen=True, slots=True)
class RaceTroops:
    """One race of one player: the tokens it received, and those not on the board."""

    seat: int
    race: str
    received: int
    hand: int = 0
    aside: int = 0
    tray: int = 0

    @property
    def key(self) -> tuple[int, str]:
        return (self.seat, self.race)


@dataclass(frozen=True, slots=True)
class Troops:
    """The ledger: one entry per race that any player has had on the board this game."""

    races: tuple[RaceTroops, ...] = ()

    def get(self, seat: int, race: str) -> RaceTroops | None:
        return next((t for t in self.races if t.key == (seat, race)), None)

    def of(self, seat: int, race: str) -> RaceTroops:
        found = self.get(seat, race)
        if found is None:
            raise IllegalAction(said("seat {seat} has no {race} tokens in play", seat=seat,
                                     race=Name("race", race)))
        return found

    def put(self, troops: RaceTroops) -> Troops:
        others = tuple(t for t in self.races if t.key != troops.key)
        return Troops((*others, troops))


def counts(regions: BoardState, seat: int, race: str) -> dict[int, int]:
    """The race's tokens region by region (a region whose count is unknown counts 1)."""
    return {rid: regions[rid].occupant.tokens or 1  # type: ignore[union-attr]
            for rid in regions.held_by(seat, race)}


def on_board(regions: BoardState, seat: int, race: str) -> int:
    """The race's tokens standing in regions."""
    return sum(counts(regions, seat, race).values())


def board_counts(regions: BoardState) -> dict[tuple[int, str], int]:
    """Every race's tokens standing in regions, by (seat, race), in one pass."""
    counts: dict[tuple[int, str], int] = {}
    for rs in regions.regions.values():
        if (occupant := rs.occupant) is not None:
            key = (occupant.seat, occupant.race)
            counts[key] = counts.get(key, 0) + (occupant.tokens or 1)
    return counts


def in_play(troops: Troops, regions: BoardState, race: str) -> int:
    """Tokens of `race` out of the tray: on the board, in hand or set aside, all players."""
    return sum(on_board(regions, t.seat, race) + t.hand + t.aside
               for t in troops.races if t.race == race)


def with_tokens(regions: BoardState, region: int, tokens: int) -> BoardState:
    """The board with the occupant of `region` holding `tokens`."""
    here = regions[region]
    assert here.occupant is not None
    return regions.with_region(region, replace(here, occupant=replace(here.occupant,
                                                                      tokens=tokens)))


def picked(troops: Troops, seat: int, race: str, tokens: int) -> Troops:
    """A combo picked: all its tokens come from the tray into the hand."""
    return troops.put(RaceTroops(seat, race, received=tokens, hand=tokens))


def ready(troops: Troops, regions: BoardState, seat: int,
          race: str) -> tuple[Troops, BoardState, tuple[tuple[int, int], ...]]:
    """Ready your Troops: one token stays in each region, the others (and any set aside)
    come back to the hand. Also returns (region, tokens taken) to undo it (`unready`)."""
    entry = troops.get(seat, race)
    if entry is None:
        return troops, regions, ()
    gathered = entry.aside
    taken: list[tuple[int, int]] = []
    for rid, count in counts(regions, seat, race).items():
        if count > 1:
            gathered += count - 1
            taken.append((rid, count - 1))
            regions = with_tokens(regions, rid, 1)
    return troops.put(replace(entry, hand=entry.hand + gathered, aside=0)), regions, tuple(taken)


def unready(troops: Troops, regions: BoardState, seat: int, race: str,
            taken: tuple[tuple[int, int], ...]) -> tuple[Troops, BoardState]:
    """The tokens `ready` took in hand put back where they stood (a race going into decline
    instead of conquering); regions the race no longer holds are skipped."""
    entry = troops.of(seat, race)
    back = 0
    for rid, tokens in taken:
        occupant = regions[rid].occupant
        if occupant is not None and (occupant.seat, occupant.race) == (seat, race):
            regions = with_tokens(regions, rid, (occupant.tokens or 1) + tokens)
            back += tokens
    return troops.put(replace(entry, hand=max(0, entry.hand - back))), regions


def in_hand(n: int) -> Said:
    """How many tokens are in hand, as a refusal ends ("2 are in hand")."""
    return said_n("{n} is in hand", "{n} are in hand", n)


def deploy(troops: Troops, seat: int, race: str, tokens: int, *, why: str | Said) -> Troops:
    """`tokens` leave the hand for the board; refused when the hand holds fewer. `why`
    says what the tokens are for (a `Said`, or text shown as it is)."""
    entry = troops.of(seat, race)
    if tokens > entry.hand:
        raise IllegalAction(said_n("{why} needs {n} token, but only {hand}",
                                   "{why} needs {n} tokens, but only {hand}", tokens, why=why,
                                   hand=in_hand(entry.hand)))
    return troops.put(replace(entry, hand=entry.hand - tokens))


def to_hand(troops: Troops, seat: int, race: str, tokens: int) -> Troops:
    """Tokens taken off the board back into the hand (an abandoned region)."""
    entry = troops.get(seat, race)
    if entry is None:
        return troops
    return troops.put(replace(entry, hand=entry.hand + tokens))


def lost(troops: Troops, seat: int, race: str, tokens: int, *, losses: int = 1) -> Troops:
    """A region of this race was conquered: its `tokens` come off the board, `losses` of
    them (one, as a rule) go back to the tray and the others into the hand."""
    entry = troops.get(seat, race)
    if entry is None:
        return troops
    gone = min(losses, tokens)
    return troops.put(replace(entry, hand=entry.hand + tokens - gone, tray=entry.tray + gone))


def returned(troops: Troops, regions: BoardState, seat: int, race: str) -> Troops:
    """Everything of the race that is not on the board goes back to the tray (decline,
    or a declined race leaving the board)."""
    entry = troops.get(seat, race)
    if entry is None:
        return troops
    board = on_board(regions, seat, race)
    return troops.put(replace(entry, hand=0, aside=0, tray=entry.received - board))


def from_tray(troops: Troops, regions: BoardState, seat: int, race: str, tokens: int,
              box: int | None) -> tuple[Troops, int]:
    """Up to `tokens` new tokens from the tray into the hand; no more than the box still
    holds (`box`: the race's tokens in the box, None when not known). Returns how many."""
    entry = troops.get(seat, race)
    if entry is None or tokens <= 0:
        return troops, 0
    if box is not None:
        tokens = min(tokens, max(0, box - in_play(troops, regions, race)))
    return troops.put(replace(entry, received=entry.received + tokens,
                              hand=entry.hand + tokens)), tokens


def redeployed(troops: Troops, regions: BoardState, seat: int, race: str,
               placement: Mapping[int, int], *, may_empty: Iterable[int] = ()) -> tuple[
                   Troops, BoardState]:
    """Troop redeployment: `placement` gives every region of the race its new count (at
    least 1; 0 only for the regions in `may_empty`, which are left); the tokens come from
    the race's regions and hand, and what is not placed stays in the hand."""
    entry = troops.of(seat, race)
    regions_held = regions.held_by(seat, race)
    empty_ok = set(may_empty)
    if set(placement) != set(regions_held):
        missing = sorted(set(regions_held) - set(placement))
        extra = sorted(set(placement) - set(regions_held))
        refused = said("a redeployment gives a count for each region of the {race} and no "
                       "other", race=Name("race", race))
        if missing:
            refused = said("{sentence}; missing: {names}", sentence=refused,
                           names=listed(missing))
        if extra:
            refused = said("{sentence}; not theirs: {regions}", sentence=refused,
                           regions=listed(extra))
        raise IllegalAction(refused)
    for rid, count in placement.items():
        if count < (0 if rid in empty_ok else 1):
            raise IllegalAction(said("region {region} must keep at least 1 {race} token, not "
                                     "{count}", region=rid, race=Name("race", race),
                                     count=count))
    available = on_board(regions, seat, race) + entry.hand
    placed = sum(placement.values())
    if placed > available:
        raise IllegalAction(said("the {race} have {available} tokens on the board and in hand; "
                                 "this redeployment places {placed}", race=Name("race", race),
                                 available=available, placed=placed))
    for rid, count in placement.items():
        if count == 0:
            here = regions[rid]
            regions = regions.with_region(rid, replace(here, occupant=None))
        else:
            regions = with_tokens(regions, rid, count)
    return troops.put(replace(entry, hand=available - placed)), regions


def spread(regions: BoardState, seat: int, race: str, tokens: int) -> dict[int, int]:
    """A redeployment that puts `tokens` from the hand into the race's regions one at a
    time, fewest first (ties by region id), or with a negative `tokens` takes that many
    back into the hand, most first, leaving one in each region: the one-tap suggestion
    the table starts from."""
    placed = counts(regions, seat, race)
    for _ in range(abs(tokens) if placed else 0):
        if tokens > 0:
            placed[min(placed, key=lambda rid: (placed[rid], rid))] += 1
            continue
        most = max(placed, key=lambda rid: (placed[rid], -rid))
        if placed[most] == 1:
            break
        placed[most] -= 1
    return placed


def set_aside(troops: Troops, seat: int, race: str, tokens: int) -> Troops:
    """Tokens from the hand set aside until the next Ready your Troops (Amazons)."""
    entry = troops.of(seat, race)
    tokens = min(tokens, entry.hand)
    return troops.put(replace(entry, hand=entry.hand - tokens, aside=entry.aside + tokens))


def check(troops: Troops, regions: BoardState) -> None:
    """Raise AssertionError naming the race if an invariant of the ledger is broken."""
    counts = board_counts(regions)
    for t in troops.races:
        board = counts.get(t.key, 0)
        assert min(t.hand, t.aside, t.tray, board) >= 0, t
        assert board + t.hand + t.aside + t.tray == t.received, (t, board)
    for rid, rs in regions.regions.items():
        if rs.occupant is not None and rs.occupant.tokens is not None:
            assert rs.occupant.tokens >= 1, (rid, rs)
