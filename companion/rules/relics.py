"""Righteous Relics and Popular Places, drawn where a Monster falls (team play).

At the start of a team game the Relic and the four Places are shuffled into a face-down
pile (the order arrives as data: `start(order, monsters)`). Whoever conquers a Monster's
region removes the Monster and draws the top of the pile into that region. From then on a
marker's power belongs to whoever's *active* race holds its region (a race in decline,
Ghouls included, never uses one); when the region changes hands, so does the power, and an
abandoned region keeps its marker. Markers never add to a region's defence, and any power
here that gives "bonus race tokens" takes them from the tray, then from the hand.

Where the app keeps the books, this module does them as pure functions over a
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

Readings of the rules made here (see docs/expansions.md):
- the Soapbar's new region must border a region of the holder's active race (any of them)
  and not be one of its regions; water is not excluded, the rules name no such limit;
- a player shares the Tavern's coins with one other player, any number of the two;
- "opponents" of a banner Bony guards are all players but its owner (partners included:
  the rules let partners attack each other); Bony also leaves when the banner he guards has
  no region left, and the Boneyard's holder may then set him again;
- the Sigil's pact ends when its holder no longer holds the Sigil with an active race.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from companion.rules.board import BoardState, marker_count
from companion.rules.errors import IllegalAction
from companion.rules.maps import Board
from companion.rules.said import N_, Name, Said, listed, said
from companion.rules.teams import partner

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
    "Fortified": "fortress",
    "Bivouacking": "encampment",
    "Heroic": "hero",
    "Dragon Master": "dragon",
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
    own = set(_active_regions(regions, seat))
    near: set[int] = set()
    for rid in own:
        near |= board.region(rid).adjacent
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
    out = []
    for rid in sorted(regions.held_by(seat, in_decline=False)):
        count = marker_count(regions[rid].markers, marker)
        if count:
            out.append((rid, marker, count))
    return tuple(out)


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


def _active_regions(regions: BoardState, seat: int) -> tuple[int, ...]:
    return regions.held_by(seat, in_decline=False)
