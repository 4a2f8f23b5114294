"""Conquest: what taking a region costs, whether it can be attacked at all, and the die.

For the player holding the cardboard: given the board, who holds what (`RegionState` by
region id) and the attacking race (`Attacker`), this module says

- `immunity`: why a region cannot be attacked at all (a Hole-in-the-Ground, a Hero or the
  Dragon in it; a sea or the lake for a race without Seafaring; a region the attacking
  race already holds), or None;
- `reach`: whether the region may be the next conquest (the first conquest of a race
  enters on an entry region, Halflings and Flying anywhere; later ones must border a
  region the race holds, except with Flying, and with Underworld every cavern region
  borders every other one);
- `conquest_cost`: the tokens needed, itemised: 2, +1 for a mountain, a fortress and a
  troll's lair, +1 per encampment, +1 per Lost Tribe or other player's token there, then
  -1 for each modifier of the combo that applies (Commando; Mounted on hills and farmland;
  Tritons on coastal regions; Giants next to a mountain they hold; Underworld on caverns),
  never fewer than 1;
- `final_conquest`: whether the reinforcement die may be tried with the tokens left, and
  the exact chance that it succeeds, from the faces of the die.

Invariants: every result is a value whose `total` equals the sum of its lines; nothing here
changes any state; names of races and powers are compared case-insensitively.

Readings of the rulebook made here: only Lost Tribes and *another player's* tokens add to
the cost, as the booklet words it, so your own declined token in a region adds nothing; a
race in decline holds exactly one token per region, except Ghouls, who keep them all; a
Seafaring race may enter the board on a sea that touches the board's edge (the maps never
mark water as an entry region); protection by a Hole-in-the-Ground, a Hero or the Dragon
holds against other players only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.rules.board import RegionState
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.maps import Board, Feature, Region, Terrain

BASE_COST = 2
MINIMUM_COST = 1
MAX_DIE_SHORTFALL = 3
"""The die may be tried for a region at most this many tokens short."""

_COMMANDO = "commando"
_MOUNTED = "mounted"
_UNDERWORLD = "underworld"
_FLYING = "flying"
_SEAFARING = "seafaring"
_DRAGON_MASTER = "dragon master"
_TRITONS = "tritons"
_GIANTS = "giants"
_HALFLINGS = "halflings"
_GHOULS = "ghouls"


@dataclass(frozen=True, slots=True)
class Attacker:
    """The race about to conquer.

    `power` is the special power in effect, or None for a race in decline that still
    conquers (Ghouls). `held` are the regions this race holds now; an empty set means the
    next conquest is the race's first (or it abandoned everything) and must enter the board.
    """

    seat: int
    race: str
    power: str | None
    held: frozenset[int] = frozenset()

    def _is(self, race: str) -> bool:
        return self.race.casefold() == race

    def _has(self, power: str) -> bool:
        return self.power is not None and self.power.casefold() == power


class TokenCountUnknown(RulesError):
    """The cost depends on how many tokens defend a region, and the table did not say."""

    def __init__(self, region_id: int, seat: int, race: str) -> None:
        super().__init__(
            f"how many {race} tokens (seat {seat}) stand in region {region_id} is not recorded; "
            "count them to know the cost"
        )
        self.region_id = region_id
        self.seat = seat
        self.race = race


@dataclass(frozen=True, slots=True)
class CostLine:
    """One line of a conquest cost: why, and how many tokens (negative for a discount)."""

    label: str
    tokens: int


@dataclass(frozen=True, slots=True)
class ConquestCost:
    """The tokens needed to conquer one region; `total` is the sum of `lines`, at least 1."""

    region_id: int
    lines: tuple[CostLine, ...]
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(line.tokens for line in self.lines)


@dataclass(frozen=True, slots=True)
class Reach:
    """Whether a region may be the attacker's next conquest, and why (or why not)."""

    reachable: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Assessment:
    """Everything the conquest helper shows for one region."""

    region_id: int
    immune: str | None
    reach: Reach
    cost: ConquestCost | None  # None when the region cannot be attacked

    @property
    def can_attack(self) -> bool:
        return self.immune is None and self.reach.reachable


def _state(state: Mapping[int, RegionState], region_id: int) -> RegionState:
    return state.get(region_id, RegionState())


def _own(region: RegionState, attacker: Attacker) -> bool:
    occupant = region.occupant
    return (
        occupant is not None
        and occupant.seat == attacker.seat
        and occupant.race.casefold() == attacker.race.casefold()
    )


def immunity(
    board: Board, region_id: int, state: Mapping[int, RegionState], attacker: Attacker
) -> str | None:
    """Why the attacker cannot attack this region at all, or None if it can be attacked."""
    region = board.region(region_id)
    here = _state(state, region_id)
    if _own(here, attacker):
        return f"{attacker.race} already hold region {region_id}"
    if region.is_water and not attacker._has(_SEAFARING):
        return f"region {region_id} is a {region.terrain.value}: only a Seafaring race may take it"
    occupant = here.occupant
    enemy = occupant is None or occupant.seat != attacker.seat
    markers = here.markers
    if enemy:
        if markers.hole_in_the_ground:
            return f"a Hole-in-the-Ground protects region {region_id}"
        if markers.hero:
            return f"a Hero protects region {region_id}"
        if markers.dragon:
            return f"the Dragon protects region {region_id}"
    return None


def unattackable_regions(
    board: Board, state: Mapping[int, RegionState], attacker: Attacker
) -> dict[int, str]:
    """Every region of the board the attacker cannot attack, with the reason."""
    found: dict[int, str] = {}
    for region_id in board.regions:
        reason = immunity(board, region_id, state, attacker)
        if reason is not None:
            found[region_id] = reason
    return found


def reach(board: Board, region_id: int, attacker: Attacker) -> Reach:
    """Whether the region may be the attacker's next conquest, by position alone."""
    region = board.region(region_id)
    held = [board.region(i) for i in sorted(attacker.held)]
    if attacker._has(_FLYING) and not region.is_water:
        return Reach(True, "Flying: any land region may be attacked")
    if not held:
        if region.entry:
            return Reach(True, f"region {region_id} is an entry region")
        if attacker._is(_HALFLINGS):
            return Reach(True, "Halflings may enter the board anywhere")
        if region.is_water and region.border and attacker._has(_SEAFARING):
            return Reach(True, f"Seafaring: region {region_id} is a sea at the board's edge")
        return Reach(
            False,
            f"a race entering the board must take an entry region; region {region_id} is not",
        )
    if any(region_id in h.adjacent for h in held):
        return Reach(True, f"region {region_id} borders a region {attacker.race} hold")
    underworld = attacker._has(_UNDERWORLD) and Feature.CAVERN in region.features
    if underworld and any(Feature.CAVERN in h.features for h in held):
        return Reach(True, "Underworld: every cavern borders every other cavern")
    return Reach(False, f"region {region_id} does not border any region {attacker.race} hold")


def _defenders(region_id: int, here: RegionState, attacker: Attacker) -> list[CostLine]:
    lines: list[CostLine] = []
    if here.lost_tribe:
        lines.append(CostLine("Lost Tribe token", 1))
    occupant = here.occupant
    if occupant is not None and occupant.seat != attacker.seat:
        tokens = occupant.tokens
        if tokens is None:
            if not occupant.in_decline or occupant.race.casefold() == _GHOULS:
                raise TokenCountUnknown(region_id, occupant.seat, occupant.race)
            tokens = 1
        if tokens:
            state = " in decline" if occupant.in_decline else ""
            lines.append(CostLine(f"{occupant.race}{state} tokens there", tokens))
    return lines


def _modifiers(board: Board, region: Region, attacker: Attacker) -> list[CostLine]:
    lines: list[CostLine] = []
    if attacker._has(_COMMANDO):
        lines.append(CostLine("Commando", -1))
    if attacker._has(_MOUNTED) and region.terrain in (Terrain.HILL, Terrain.FARMLAND):
        lines.append(CostLine(f"Mounted on {region.terrain.value}", -1))
    if attacker._is(_TRITONS) and region.coastal:
        lines.append(CostLine("Tritons on a coastal region", -1))
    if attacker._is(_GIANTS):
        mountains = sorted(
            i
            for i in attacker.held
            if board.region(i).terrain is Terrain.MOUNTAIN and region.id in board.region(i).adjacent
        )
        if mountains:
            lines.append(CostLine(f"Giants next to their mountain (region {mountains[0]})", -1))
    if attacker._has(_UNDERWORLD) and Feature.CAVERN in region.features:
        lines.append(CostLine("Underworld on a cavern", -1))
    return lines


def conquest_cost(
    board: Board, region_id: int, state: Mapping[int, RegionState], attacker: Attacker
) -> ConquestCost:
    """The tokens the attacker needs to conquer this region, itemised.

    Raises `IllegalAction` with the reason if the region cannot be attacked at all, and
    `TokenCountUnknown` if the cost depends on a defender count that is not recorded.
    Reachability is not checked here: see `reach`.
    """
    reason = immunity(board, region_id, state, attacker)
    if reason is not None:
        raise IllegalAction(reason)
    region = board.region(region_id)
    for held in attacker.held:
        board.region(held)
    here = _state(state, region_id)
    markers = here.markers
    lines = [CostLine("Any conquest", BASE_COST)]
    if markers.mountain or region.terrain is Terrain.MOUNTAIN:
        lines.append(CostLine("Mountain", 1))
    if markers.fortress:
        lines.append(CostLine("Fortress", 1))
    if markers.troll_lair:
        lines.append(CostLine("Troll's Lair", 1))
    if markers.encampments:
        lines.append(CostLine("Encampments", markers.encampments))
    lines += _defenders(region_id, here, attacker)
    lines += _modifiers(board, region, attacker)
    raw = sum(line.tokens for line in lines)
    if raw < MINIMUM_COST:
        lines.append(CostLine("Never fewer than 1 token", MINIMUM_COST - raw))
    notes: tuple[str, ...] = ()
    if attacker._has(_DRAGON_MASTER):
        notes = ("Dragon Master: once per turn, 1 token and the Dragon take it instead",)
    return ConquestCost(region_id, tuple(lines), notes)


def assess(
    board: Board, region_id: int, state: Mapping[int, RegionState], attacker: Attacker
) -> Assessment:
    """Immunity, reach and (when attackable) cost of one region, for the helper screen."""
    reason = immunity(board, region_id, state, attacker)
    cost = None if reason is not None else conquest_cost(board, region_id, state, attacker)
    return Assessment(region_id, reason, reach(board, region_id, attacker), cost)


# --- the final conquest and the reinforcement die ------------------------------------


@dataclass(frozen=True, slots=True)
class FinalConquest:
    """Whether a last conquest may be tried with the die, and its chance of success.

    `shortfall` is how many tokens are missing (0 or less: no die needed, `chance` 1);
    when `allowed` is false, `chance` is 0 and `reason` says why.
    """

    tokens_left: int
    cost: int
    allowed: bool
    needs_die: bool
    chance: Fraction
    reason: str

    @property
    def shortfall(self) -> int:
        return max(0, self.cost - self.tokens_left)


def final_conquest(tokens_left: int, cost: int, die_faces: Sequence[int]) -> FinalConquest:
    """The final conquest attempt with `tokens_left` tokens against a region costing `cost`.

    The die may be tried with at least one token left and at most 3 tokens short; it
    succeeds when the face rolled covers the shortfall. `die_faces` are the faces of the
    reinforcement die (the catalogue's `die_faces`).
    """
    for name, value, low in (("tokens_left", tokens_left, 0), ("cost", cost, MINIMUM_COST)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise IllegalAction(f"{name} must be a whole number of at least {low}, got {value!r}")
    faces = _faces(die_faces)
    short = cost - tokens_left
    if tokens_left < 1:
        return FinalConquest(
            tokens_left, cost, False, True, Fraction(0), "no token left to attempt a conquest"
        )
    if short <= 0:
        return FinalConquest(
            tokens_left, cost, True, False, Fraction(1), "enough tokens: no die needed"
        )
    if short > MAX_DIE_SHORTFALL:
        return FinalConquest(
            tokens_left,
            cost,
            False,
            True,
            Fraction(0),
            f"{short} tokens short; the die may only cover up to {MAX_DIE_SHORTFALL}",
        )
    chance = Fraction(sum(1 for face in faces if face >= short), len(faces))
    return FinalConquest(
        tokens_left, cost, True, True, chance, f"{short} short: the die must show {short} or more"
    )


def _faces(die_faces: Collection[int]) -> tuple[int, ...]:
    faces = tuple(die_faces)
    if not faces or any(isinstance(f, bool) or not isinstance(f, int) or f < 0 for f in faces):
        raise IllegalAction(f"die faces must be whole numbers of at least 0, got {faces!r}")
    return faces
