"""Conquest: what taking a region costs, whether it can be attacked at all, and the die.

For the player holding the cardboard: given the board, who holds what (`RegionState` by
region id) and the attacking race (`Attacker`), this module says

- `immunity`: why a region cannot be attacked at all (a Hole-in-the-Ground, a Hero or the
  Dragon in it; a sea or the lake for a race without Seafaring; a region the attacking
  race already holds), or None;
- `reach`: whether the region may be the next conquest (the first conquest of a race
  enters on an entry region, Halflings and Flying anywhere on land; later ones must
  border a region the race holds, except with Flying, and with Underworld every cavern
  region borders every other one; a sea or the lake only ever with Seafaring);
- `conquest_cost`: the tokens needed, itemised: 2, +1 for a mountain, a fortress and a
  troll's lair, +1 per encampment, +1 per Lost Tribe or other player's token there, then
  -1 for each modifier of the combo that applies (Commando; Mounted on hills and farmland;
  Tritons on coastal regions; Giants next to a mountain they hold; Underworld on caverns),
  never fewer than 1;
- `final_conquest`: whether the reinforcement die may be tried with the tokens left, and
  the exact chance that it succeeds, from the faces of the die.

The mini-expansions (Cursed!, Grand Dames, Be Not Afraid..., Royal Bonus) add, each as a
line of its own: Goblins -1 against a region held by a race in decline; Were- -2 on night
turns (even-numbered: `Attacker.turn`); Catapult -1 when used (`use_catapult`); Behemoth
minus the height of each stack used (`behemoths`: a stack is as tall as the Swamp regions
the race holds); Fireball -2 per Fireball used (`fireballs`); Mercenary -2 for the coin
spent (`mercenary_coins`); and Kobolds never conquer with fewer than 2 tokens (their floor
line replaces the usual "never fewer than 1", and `final_conquest`, which takes the
attacker, refuses the die to a single Kobold). Hordes of is a note (its 2 Hordes tokens
count as tokens of the race: no change to the cost). Immune regions: a Shrubmen forest
(even in decline), White Ladies in decline, and a region where another player's Catapult
stands (`catapults`, the regions the table says hold one). With the Catapult, reach is the
Catapult's own: a region one step beyond a neighbour of the Catapult's region (never a
neighbour of it), over land or the lake but not over a sea.

An expansion changes conquests through the facts it gives an attacker (`Attacker.facts`,
each a `ConquestFacts` its `Expansion.with_facts` hook adds, in the registry's order): the
line that replaces "Any conquest" for a region of its own terrain, an entry point of its
own, defence lines of its pieces (after the Lost Tribe, before the defender's tokens), and
a guard against which the attacker's race and power modifiers count for nothing. No
expansion is named here.

Invariants: every result is a value whose `total` equals the sum of its lines; nothing here
changes any state; names of races and powers are compared case-insensitively; an
`Attacker` whose options its combo cannot have (Fireballs without Fireball, two Mercenary
coins on one conquest...) is refused with `IllegalAction` naming the option.

Readings of the rulebook made here: only Lost Tribes and *another player's* tokens add to
the cost, as the booklet words it, so your own declined token in a region adds nothing; a
race in decline holds exactly one token per region, except Ghouls, who keep them all; a
Seafaring race may enter the board on a sea that touches the board's edge (the maps never
mark water as an entry region); protection by a Hole-in-the-Ground, a Hero or the Dragon
holds against other players only. A defender's token count (`Occupant.tokens`) includes a
defending Behemoth stack, which counts as that many tokens. Mercenary spends at most one
coin per conquest ("spend 1 Victory coin to reduce ... by 2"). Using both Behemoth stacks
in one attack is allowed (the rules only forbid splitting or merging a stack).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from companion.rules.board import RegionState
from companion.rules.errors import IllegalAction, MalformedInput, RulesError
from companion.rules.maps import Board, Feature, Region, Terrain
from companion.rules.names import (
    BEHEMOTH,
    BERSERK,
    CATAPULT,
    COMMANDO,
    FIREBALL,
    FLYING,
    GHOULS,
    GIANTS,
    GOBLINS,
    HALFLINGS,
    HORDES_OF,
    KOBOLDS,
    MERCENARY,
    MOUNTED,
    SEAFARING,
    SHRUBMEN,
    TRITONS,
    UNDERWORLD,
    WERE,
    WHITE_LADIES,
)
from companion.rules.said import N_, Combo, Name, Said, said, said_n

BASE_COST = 2
MINIMUM_COST = 1
MAX_DIE_SHORTFALL = 3
"""The die may be tried for a region at most this many tokens short."""


def _same(name: str, other: str) -> bool:
    """Whether two race (or two power) names are the same, as conquests compare them: case
    does not count."""
    return name.casefold() == other.casefold()


KOBOLD_MINIMUM = 2
"""Kobolds never conquer (or hold) a region with fewer tokens than this."""
GOBLIN_DISCOUNT = 1
WERE_NIGHT_DISCOUNT = 2
CATAPULT_DISCOUNT = 1
FIREBALL_TOKENS = 2
"""A Fireball counts as this many race tokens in an attack."""
MERCENARY_DISCOUNT = 2
"""Tokens saved by each Victory coin a Mercenary race spends on a conquest."""
MERCENARY_COINS_PER_CONQUEST = 1
BEHEMOTH_STACKS = 2
HORDES_TOKENS = 2


@dataclass(frozen=True, slots=True)
class Attacker:
    """The race about to conquer.

    `power` is the special power in effect, or None for a race in decline that still
    conquers (Ghouls). `held` are the regions this race holds now; an empty set means the
    next conquest is the race's first (or it abandoned everything) and must enter the board.

    Mini-expansion options for this one conquest, all off by default: `turn` the game turn
    (Were-: even turns are nights; None when not known); `use_catapult` to conquer with
    the Catapult, from `catapult_at` (a region the race holds; None: from any of them);
    `behemoths` the Behemoth stacks (0 to 2) and `fireballs` the Fireballs thrown into
    the attack; `mercenary_coins` the Victory coins a Mercenary race spends on it (0 or 1).

    `berserk_roll`: the die face a Berserk race rolled for this conquest (None: not yet
    rolled); it comes off the cost.

    `more_powers` are the powers in use beside `power` (a seat an expansion plays itself
    may hold several at once); each counts as the race's power would.

    `facts`: what the game's expansions add to its conquests (`ConquestFacts`), in the
    registry's order.
    """

    seat: int
    race: str
    power: str | None
    held: frozenset[int] = frozenset()
    turn: int | None = None
    use_catapult: bool = False
    catapult_at: int | None = None
    behemoths: int = 0
    fireballs: int = 0
    mercenary_coins: int = 0
    berserk_roll: int | None = None
    more_powers: tuple[str, ...] = ()
    facts: tuple[ConquestFacts, ...] = ()

    def _is(self, race: str) -> bool:
        return _same(self.race, race)

    def _has(self, power: str) -> bool:
        powers = () if self.power is None else (self.power, *self.more_powers)
        return any(_same(p, power) for p in powers)


class TokenCountUnknown(RulesError):
    """The cost depends on how many tokens defend a region, and the table did not say."""

    def __init__(self, region_id: int, seat: int, race: str) -> None:
        super().__init__(said(
            "how many {race} tokens (seat {seat}) stand in region {region} is not recorded; "
            "count them to know the cost", race=Name("race", race), seat=seat,
            region=region_id))
        self.region_id = region_id
        self.seat = seat
        self.race = race


@dataclass(frozen=True, slots=True)
class CostLine:
    """One line of a conquest cost: why, and how many tokens (negative for a discount).
    `label` is the English words; `said`, when given, the same words as a `Said` a screen
    translates (`words`). Lines compare by label and tokens."""

    label: str
    tokens: int
    said: Said | None = field(default=None, compare=False)

    @property
    def words(self) -> str | Said:
        """The label as a screen words it (`companion.ui.wording.say`)."""
        return self.label if self.said is None else self.said


def _line(words: Said, tokens: int) -> CostLine:
    return CostLine(str(words), tokens, words)


@dataclass(frozen=True, slots=True)
class ConquestCost:
    """The tokens needed to conquer one region; `total` is the sum of `lines`, at least 1.
    `notes` are in English; `said_notes` the same notes as a screen words them (`Said`s, or
    an expansion's text as it is), not compared."""

    region_id: int
    lines: tuple[CostLine, ...]
    notes: tuple[str, ...] = ()
    said_notes: tuple[str | Said, ...] = field(default=(), compare=False)

    @property
    def total(self) -> int:
        return sum(line.tokens for line in self.lines)


@dataclass(frozen=True, slots=True)
class Reach:
    """Whether a region may be the attacker's next conquest, and why (or why not): a `Said`
    (plain text from an expansion not yet converted is shown as it is)."""

    reachable: bool
    reason: Said


class ConquestFacts(Protocol):
    """What an expansion adds to one attacker's conquests (`Attacker.facts`); each method
    answers None (or nothing) where it changes nothing. Pure and immutable, like `Attacker`."""

    def base(self, region: Region) -> CostLine | None:
        """The line that replaces "Any conquest" for `region`."""

    def entry(self, board: Board, region_id: int) -> Reach | None:
        """`region_id` open to the attacker as an entry point of its own (asked after
        Flying, before the usual entry regions and neighbours)."""

    def defence(self, region_id: int, here: RegionState) -> tuple[CostLine, ...]:
        """Lines its pieces in the region add to the cost (after the Lost Tribe's)."""

    def guard(self, here: RegionState, attacker: Attacker) -> Said | None:
        """A note when the region's tokens are guarded from `attacker`, so that its race and
        power modifiers count for nothing there."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """Everything the conquest helper shows for one region."""

    region_id: int
    immune: Said | None
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
        and _same(occupant.race, attacker.race)
    )


def immunity(
    board: Board,
    region_id: int,
    state: Mapping[int, RegionState],
    attacker: Attacker,
    *,
    catapults: Collection[int] = frozenset(),
) -> Said | None:
    """Why the attacker cannot attack this region at all, or None if it can be attacked.

    `catapults` are the regions where a Catapult stands (each in its owner's region).
    """
    region = board.region(region_id)
    here = _state(state, region_id)
    if _own(here, attacker):
        return said("{race} already hold region {region}", race=Name("race", attacker.race),
                    region=region_id)
    if region.is_water and not attacker._has(SEAFARING):
        return said("region {region} is a {terrain}: only a Seafaring race may take it",
                    region=region_id, terrain=Name("terrain", region.terrain.value))
    occupant = here.occupant
    enemy = occupant is None or occupant.seat != attacker.seat
    markers = here.markers
    if enemy:
        if markers.hole_in_the_ground:
            return said("a Hole-in-the-Ground protects region {region}", region=region_id)
        if markers.hero:
            return said("a Hero protects region {region}", region=region_id)
        if markers.dragon:
            return said("the Dragon protects region {region}", region=region_id)
    if occupant is not None and occupant.seat != attacker.seat:
        return _protected_by_occupant(region, occupant.race, occupant.in_decline, catapults)
    return None


def _protected_by_occupant(
    region: Region, race: str, in_decline: bool, catapults: Collection[int]
) -> Said | None:
    """Immunity an opponent's race gives its own region (mini-expansions)."""
    if region.id in catapults:
        return said("the Catapult in region {region} makes it immune", region=region.id)
    if _same(race, SHRUBMEN) and region.terrain is Terrain.FOREST:
        if in_decline:
            return said("Shrubmen (in decline) make their forest region {region} immune",
                        region=region.id)
        return said("Shrubmen make their forest region {region} immune", region=region.id)
    if _same(race, WHITE_LADIES) and in_decline:
        return said("White Ladies in decline are immune: region {region}", region=region.id)
    return None


def reach(board: Board, region_id: int, attacker: Attacker) -> Reach:
    """Whether the region may be the attacker's next conquest, by position alone.

    With `use_catapult` the Catapult's reach replaces the usual one. A sea or the lake is
    never reachable for a race without Seafaring, whatever else would let it in (Halflings
    entering anywhere, the Caravel, the Catapult).
    """
    region = board.region(region_id)
    held = [board.region(i) for i in sorted(attacker.held)]
    check_attacker(attacker)
    if region.is_water and not attacker._has(SEAFARING):
        return Reach(False, said("region {region} is a {terrain}: only a Seafaring race may "
                                 "enter it", region=region_id,
                                 terrain=Name("terrain", region.terrain.value)))
    if attacker.use_catapult:
        return _catapult_reach(board, region, attacker)
    if attacker._has(FLYING) and not region.is_water:
        return Reach(True, said("Flying: any land region may be attacked"))
    for facts in attacker.facts:
        entry = facts.entry(board, region_id)
        if entry is not None:
            return entry
    if not held:
        if region.entry:
            return Reach(True, said("region {region} is an entry region", region=region_id))
        if attacker._is(HALFLINGS):
            return Reach(True, said("Halflings may enter the board anywhere"))
        if region.is_water and region.border and attacker._has(SEAFARING):
            return Reach(True, said("Seafaring: region {region} is a sea at the board's edge",
                                    region=region_id))
        return Reach(False, said("a race entering the board must take an entry region; "
                                 "region {region} is not", region=region_id))
    if any(region_id in h.adjacent for h in held):
        return Reach(True, said("region {region} borders a region {race} hold", region=region_id,
                                race=Name("race", attacker.race)))
    underworld = attacker._has(UNDERWORLD) and Feature.CAVERN in region.features
    if underworld and any(Feature.CAVERN in h.features for h in held):
        return Reach(True, said("Underworld: every cavern borders every other cavern"))
    return Reach(False, said("region {region} does not border any region {race} hold",
                             region=region_id, race=Name("race", attacker.race)))


def _catapult_reach(board: Board, region: Region, attacker: Attacker) -> Reach:
    """One region beyond a neighbour of the Catapult's region, not over a sea."""
    sources = sorted(attacker.held) if attacker.catapult_at is None else [attacker.catapult_at]
    if not sources:
        return Reach(False, said("Catapult: the race holds no region to place the Catapult in"))
    for source_id in sources:
        source = board.region(source_id)
        if region.id == source_id or region.id in source.adjacent:
            continue
        over = sorted(
            i
            for i in source.adjacent & region.adjacent
            if board.region(i).terrain is not Terrain.SEA
        )
        if over:
            return Reach(True, said("Catapult in region {source}: region {region} is one "
                                    "region beyond, over region {over}", source=source_id,
                                    region=region.id, over=over[0]))
    if len(sources) == 1:
        source = board.region(sources[0])
        if region.id in source.adjacent:
            problem = N_("Catapult in region {source}: region {region} borders the Catapult's "
                         "region; it shoots one region beyond")
        elif source.adjacent & region.adjacent:
            problem = N_("Catapult in region {source}: region {region} lies beyond a sea; the "
                         "Catapult never shoots over a sea")
        else:
            problem = N_("Catapult in region {source}: region {region} is not one region "
                         "beyond the Catapult's region")
        return Reach(False, said(problem, source=sources[0], region=region.id))
    return Reach(False, said("Catapult: region {region} is not one region beyond (never over "
                             "a sea) any region {race} hold, without bordering it",
                             region=region.id, race=Name("race", attacker.race)))


def check_attacker(attacker: Attacker) -> None:
    """Refuse an option the attacker's combo cannot use (`IllegalAction` naming it)."""
    turn = attacker.turn
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int) or turn < 1):
        raise IllegalAction(said("turn must be a game turn (1 or more), got {turn}",
                                 turn=repr(turn)))
    for name, value, most, power in (
        ("behemoths", attacker.behemoths, BEHEMOTH_STACKS, BEHEMOTH),
        ("fireballs", attacker.fireballs, None, FIREBALL),
        ("mercenary_coins", attacker.mercenary_coins, MERCENARY_COINS_PER_CONQUEST, MERCENARY),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise IllegalAction(said("{name} must be a whole number of at least 0, got {value}",
                                     name=name, value=repr(value)))
        if most is not None and value > most:
            raise IllegalAction(said("{name}: at most {most} on one conquest, got {value}",
                                     name=name, most=most, value=value))
        if value and not attacker._has(power):
            raise IllegalAction(said("{name}: only a {power} race uses them, not {combo}",
                                     name=name, power=Name("power", power),
                                     combo=_combo(attacker)))
    roll = attacker.berserk_roll
    if roll is not None and (isinstance(roll, bool) or not isinstance(roll, int) or roll < 0):
        raise IllegalAction(said("berserk_roll must be a die face (0 or more), got {roll}",
                                 roll=repr(roll)))
    if roll is not None and not attacker._has(BERSERK):
        raise IllegalAction(said("berserk_roll: only a Berserk race rolls first, not {combo}",
                                 combo=_combo(attacker)))
    if not isinstance(attacker.use_catapult, bool):
        raise MalformedInput(said("use_catapult must be true or false, got {value}",
                                  value=repr(attacker.use_catapult)),
                             field="use_catapult", allowed="true or false")
    if attacker.use_catapult and not attacker._has(CATAPULT):
        raise IllegalAction(said("use_catapult: only a Catapult race has one, not {combo}",
                                 combo=_combo(attacker)))
    where = attacker.catapult_at
    if where is not None:
        if not attacker.use_catapult:
            raise IllegalAction(said("catapult_at is given but use_catapult is false"))
        if where not in attacker.held:
            raise IllegalAction(said("catapult_at: the Catapult stands in a region {race} hold, "
                                     "not region {where}", race=Name("race", attacker.race),
                                     where=repr(where)))


def _combo(attacker: Attacker) -> Name | Combo:
    """The attacker's race, or its combo, as a value a screen names."""
    if attacker.power is None:
        return Name("race", attacker.race)
    return Combo(attacker.power, attacker.race)


def _defenders(region_id: int, here: RegionState, attacker: Attacker) -> list[CostLine]:
    lines: list[CostLine] = []
    if here.lost_tribe:
        lines.append(_line(said("Lost Tribe token"), 1))
    for facts in attacker.facts:
        lines.extend(facts.defence(region_id, here))
    occupant = here.occupant
    if occupant is not None and occupant.seat != attacker.seat:
        tokens = occupant.tokens
        if tokens is None:
            if not occupant.in_decline or _same(occupant.race, GHOULS):
                raise TokenCountUnknown(region_id, occupant.seat, occupant.race)
            tokens = 1
        if tokens:
            there = (said_n("{race} in decline token there", "{race} in decline tokens there",
                            tokens, race=Name("race", occupant.race))
                     if occupant.in_decline else
                     said_n("{race} token there", "{race} tokens there", tokens,
                            race=Name("race", occupant.race)))
            lines.append(_line(there, tokens))
    return lines


def _modifiers(board: Board, region: Region, attacker: Attacker) -> list[CostLine]:
    lines: list[CostLine] = []
    if attacker._has(COMMANDO):
        lines.append(_line(said("Commando"), -1))
    if attacker._has(MOUNTED) and region.terrain in (Terrain.HILL, Terrain.FARMLAND):
        lines.append(_line(said("Mounted on {terrain}",
                                terrain=Name("terrain", region.terrain.value)), -1))
    if attacker._is(TRITONS) and region.coastal:
        lines.append(_line(said("Tritons on a coastal region"), -1))
    if attacker._is(GIANTS):
        mountains = sorted(
            i
            for i in attacker.held
            if board.region(i).terrain is Terrain.MOUNTAIN and region.id in board.region(i).adjacent
        )
        if mountains:
            lines.append(_line(said("Giants next to their mountain (region {region})",
                                    region=mountains[0]), -1))
    if attacker._has(UNDERWORLD) and Feature.CAVERN in region.features:
        lines.append(_line(said("Underworld on a cavern"), -1))
    if attacker._has(BERSERK) and attacker.berserk_roll:
        lines.append(_line(said("Berserk rolled {face}", face=attacker.berserk_roll),
                           -attacker.berserk_roll))
    return lines


def _expansion_modifiers(
    board: Board, here: RegionState, attacker: Attacker
) -> tuple[list[CostLine], list[str | Said]]:
    """The mini-expansion lines of a conquest, and the notes that go with them."""
    lines: list[CostLine] = []
    notes: list[str | Said] = []
    occupant = here.occupant
    if attacker._is(GOBLINS) and occupant is not None and occupant.in_decline:
        lines.append(_line(said("Goblins against a race in decline"), -GOBLIN_DISCOUNT))
    if attacker._has(WERE):
        if attacker.turn is None:
            notes.append(said(
                "Were-: 2 tokens less on night turns (even-numbered); the turn is not known"))
        elif attacker.turn % 2 == 0:
            lines.append(_line(said("Were- at night (turn {turn})", turn=attacker.turn),
                               -WERE_NIGHT_DISCOUNT))
        else:
            notes.append(said("Were-: turn {turn} is daytime, no discount", turn=attacker.turn))
    if attacker.use_catapult:
        lines.append(_line(said("Catapult"), -CATAPULT_DISCOUNT))
        notes.append(said("Catapult: once per turn; its region is immune while it stands there"))
    if attacker.behemoths:
        swamps = behemoth_height(board, attacker.held)
        one = attacker.behemoths == 1
        if swamps:
            label = said(N_("a Behemoth stack of {swamps} (one per Swamp region held)") if one
                         else N_("2 Behemoth stacks of {swamps} (one per Swamp region held)"),
                         swamps=swamps)
            lines.append(_line(label, -swamps * attacker.behemoths))
        else:
            notes.append(said(N_("Behemoth: no Swamp region held, so a Behemoth stack count for "
                                 "nothing") if one else
                              N_("Behemoth: no Swamp region held, so 2 Behemoth stacks count "
                                 "for nothing")))
    if attacker.fireballs:
        lines.append(_line(said_n("{n} Fireball, {each} tokens each",
                                  "{n} Fireballs, {each} tokens each", attacker.fireballs,
                                  each=FIREBALL_TOKENS), -FIREBALL_TOKENS * attacker.fireballs))
    if attacker.mercenary_coins:
        coins = attacker.mercenary_coins
        lines.append(_line(said("Mercenary: {coins} Victory coin spent", coins=coins),
                           -MERCENARY_DISCOUNT * coins))
    if attacker._has(HORDES_OF):
        notes.append(said("Hordes of: the {hordes} Hordes tokens attack and hold like {race} "
                          "tokens (already counted in the tokens in hand)", hordes=HORDES_TOKENS,
                          race=Name("race", attacker.race)))
    return lines, notes


def _guard(here: RegionState, attacker: Attacker) -> Said | None:
    """The note of the first of the attacker's facts that guards the region's tokens from
    it (its race and power modifiers count for nothing there), or None."""
    return next((note for facts in attacker.facts
                 if (note := facts.guard(here, attacker)) is not None), None)


def behemoth_height(board: Board, held: Iterable[int]) -> int:
    """How many tokens a Behemoth stack counts as: the Swamp regions the race holds."""
    return sum(1 for i in held if board.region(i).terrain is Terrain.SWAMP)


def _base(region: Region, attacker: Attacker) -> CostLine:
    """2 for any conquest, unless one of the attacker's facts says otherwise for this
    region (a terrain of its expansion)."""
    return next((line for facts in attacker.facts if (line := facts.base(region)) is not None),
                _line(said("Any conquest"), BASE_COST))


def minimum_cost(attacker: Attacker) -> int:
    """The fewest tokens any conquest of this race takes (Kobolds: 2; everyone else 1)."""
    return KOBOLD_MINIMUM if attacker._is(KOBOLDS) else MINIMUM_COST


def conquest_cost(
    board: Board,
    region_id: int,
    state: Mapping[int, RegionState],
    attacker: Attacker,
    *,
    catapults: Collection[int] = frozenset(),
) -> ConquestCost:
    """The tokens the attacker needs to conquer this region, itemised.

    Raises `IllegalAction` with the reason if the region cannot be attacked at all or the
    attacker uses an option its combo lacks, and `TokenCountUnknown` if the cost depends
    on a defender count that is not recorded. Reachability is not checked here: see
    `reach`. `catapults`: as for `immunity`.
    """
    check_attacker(attacker)
    reason = immunity(board, region_id, state, attacker, catapults=catapults)
    if reason is not None:
        raise IllegalAction(reason)
    region = board.region(region_id)
    for held in attacker.held:
        board.region(held)
    here = _state(state, region_id)
    markers = here.markers
    lines = [_base(region, attacker)]
    if markers.mountain or region.terrain is Terrain.MOUNTAIN:
        lines.append(_line(said("Mountain"), 1))
    if markers.fortress:
        lines.append(_line(said("Fortress"), 1))
    if markers.troll_lair:
        lines.append(_line(said("Troll's Lair"), 1))
    if markers.encampments:
        lines.append(_line(said("Encampments"), markers.encampments))
    lines += _defenders(region_id, here, attacker)
    extra, notes = _expansion_modifiers(board, here, attacker)
    guard = _guard(here, attacker)
    if guard is not None:
        notes = [guard]
    else:
        lines += _modifiers(board, region, attacker) + extra
    raw = sum(line.tokens for line in lines)
    least = minimum_cost(attacker)
    if raw < least:
        label = (
            said("Kobolds: never fewer than {least} tokens", least=least)
            if least == KOBOLD_MINIMUM
            else said("Never fewer than 1 token")
        )
        lines.append(_line(label, least - raw))
        if attacker.mercenary_coins:
            saved = max(0, MERCENARY_DISCOUNT * attacker.mercenary_coins - (least - raw))
            notes.append(said("Mercenary: the coin saves only {saved} token(s) here",
                              saved=saved))
    if attacker._has(BERSERK) and attacker.berserk_roll is None:
        notes.insert(0, said("Berserk: roll the die first; its face comes off this cost"))
    return ConquestCost(region_id, tuple(lines), tuple(str(note) for note in notes),
                        tuple(notes))


def assess(
    board: Board,
    region_id: int,
    state: Mapping[int, RegionState],
    attacker: Attacker,
    *,
    catapults: Collection[int] = frozenset(),
) -> Assessment:
    """Immunity, reach and (when attackable) cost of one region, for the helper screen."""
    reason = immunity(board, region_id, state, attacker, catapults=catapults)
    cost = (
        None
        if reason is not None
        else conquest_cost(board, region_id, state, attacker, catapults=catapults)
    )
    return Assessment(region_id, reason, reach(board, region_id, attacker), cost)


# --- the final conquest and the reinforcement die ------------------------------------


@dataclass(frozen=True, slots=True)
class FinalConquest:
    """Whether a last conquest may be tried with the die, and its chance of success.

    `shortfall` is how many tokens are missing (0 or less: no die needed, `chance` 1);
    when `allowed` is false, `chance` is 0 and `reason` says why (a `Said`).
    """

    tokens_left: int
    cost: int
    allowed: bool
    needs_die: bool
    chance: Fraction
    reason: Said

    @property
    def shortfall(self) -> int:
        return max(0, self.cost - self.tokens_left)


def final_conquest(
    tokens_left: int,
    cost: int,
    die_faces: Sequence[int],
    attacker: Attacker,
    *,
    cost_with_coin: int | None = None,
) -> FinalConquest:
    """The final conquest attempt with `tokens_left` tokens against a region costing `cost`.

    The die may be tried with at least one token left and at most 3 tokens short; it
    succeeds when the face rolled covers the shortfall. `die_faces` are the faces of the
    reinforcement die (the catalogue's `die_faces`).

    Mercenary: `cost_with_coin` is the cost of the same conquest with a Victory coin spent
    (`conquest_cost` with `mercenary_coins=1`); the coin may be spent after the roll, so
    the attempt succeeds when the face covers what the coin leaves missing. `shortfall`
    stays the shortfall without the coin.

    `attacker` is the race trying: the fewest tokens it may hold a region with is derived
    from it (`minimum_cost`), so Kobolds, who never hold one with fewer than 2, are never
    offered the die with a single token, whoever calls.
    """
    if not isinstance(attacker, Attacker):
        raise IllegalAction(said("attacker must be the race trying the conquest, got {attacker}",
                                 attacker=repr(attacker)))
    fewest_tokens = minimum_cost(attacker)
    for name, value, low in (
        ("tokens_left", tokens_left, 0),
        ("cost", cost, MINIMUM_COST),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise IllegalAction(said("{name} must be a whole number of at least {low}, got "
                                     "{value}", name=name, low=low, value=repr(value)))
    if cost_with_coin is not None and (
        isinstance(cost_with_coin, bool)
        or not isinstance(cost_with_coin, int)
        or not MINIMUM_COST <= cost_with_coin <= cost
    ):
        raise IllegalAction(said("cost_with_coin must be a whole number from {least} to the "
                                 "cost {cost}, got {value}", least=MINIMUM_COST, cost=cost,
                                 value=repr(cost_with_coin)))
    faces = _faces(die_faces)
    short = cost - tokens_left
    if tokens_left < 1:
        return _refused(tokens_left, cost, said("no token left to attempt a conquest"))
    if tokens_left < fewest_tokens:
        return _refused(tokens_left, cost, said(
            "{left} token left; {race} never hold a region with fewer than {fewest}",
            left=tokens_left, race=Name("race", attacker.race), fewest=fewest_tokens))
    if short <= 0:
        return FinalConquest(
            tokens_left, cost, True, False, Fraction(1), said("enough tokens: no die needed")
        )
    if cost_with_coin is not None:
        return _final_with_coin(tokens_left, cost, cost_with_coin, faces)
    if short > MAX_DIE_SHORTFALL:
        return _refused(tokens_left, cost, said(
            "{short} tokens short; the die may only cover up to {most}", short=short,
            most=MAX_DIE_SHORTFALL))
    chance = Fraction(sum(1 for face in faces if face >= short), len(faces))
    return FinalConquest(tokens_left, cost, True, True, chance,
                         said("{short} short: the die must show {short} or more", short=short))


def _refused(tokens_left: int, cost: int, reason: Said) -> FinalConquest:
    """A final conquest that may not be tried, and why."""
    return FinalConquest(tokens_left, cost, False, True, Fraction(0), reason)


def _final_with_coin(
    tokens_left: int, cost: int, cost_with_coin: int, faces: tuple[int, ...]
) -> FinalConquest:
    short = cost - tokens_left
    left = cost_with_coin - tokens_left
    if left <= 0:
        return FinalConquest(
            tokens_left,
            cost,
            True,
            False,
            Fraction(1),
            said("{short} short: the Mercenary coin covers it, no die needed (or roll first and "
                 "spend the coin only if the die falls short)", short=short),
        )
    if left > MAX_DIE_SHORTFALL:
        return _refused(tokens_left, cost, said(
            "{left} tokens short even with the Mercenary coin; the die may only cover up to "
            "{most}", left=left, most=MAX_DIE_SHORTFALL))
    chance = Fraction(sum(1 for face in faces if face >= left), len(faces))
    either = short <= MAX_DIE_SHORTFALL and any(face >= short for face in faces)
    return FinalConquest(
        tokens_left,
        cost,
        True,
        True,
        chance,
        said("{short} short: the die must show {short} or more, or {left} or more with the "
             "Mercenary coin spent after the roll", short=short, left=left) if either else
        said("{short} short: the die must show {left} or more with the Mercenary coin spent "
             "after the roll", short=short, left=left),
    )


def _faces(die_faces: Collection[int]) -> tuple[int, ...]:
    faces = tuple(die_faces)
    if not faces or any(isinstance(f, bool) or not isinstance(f, int) or f < 0 for f in faces):
        raise IllegalAction(said("die faces must be whole numbers of at least 0, got {faces}",
                                 faces=repr(faces)))
    return faces
