"""Scoring: the Victory coins one player earns at the end of a turn, line by line.

A player scores for every race of theirs on the board: one coin per region held by the
active race and one per region held by each race in decline, plus the bonuses of the
active race banner and special power. A race in decline keeps only the bonuses its own
rule says it keeps (the Dwarves' mines). A race that went into decline this very turn
scores its regions and nothing more, unless its rule says otherwise (again the Dwarves).

Two ways in, one engine. The map path lists the regions each race holds (`HeldRegion`,
usually read off a `Board`); the quick-count path gives the same facts as counts a player
types (`QuickCount`). Both are reduced to the same per-race tally before a single function
turns the tally into lines, so the same position always gives the same number.

Invariants:
- `TurnScore.total` is by construction the sum of its lines; no line has 0 coins except a
  race's own "regions held" line, which is always shown for every race on the board;
- a bonus line appears only when it earns something: a power that scores nothing (Flying,
  Commando...) adds no line, and so does a bonus whose count is 0;
- an input the rules cannot produce is refused with `ScoringInputError`, naming the field
  (`active.regions[2]`, `declined[0].race`, ...) and the value at fault; nothing is scored.

Every race and special power of the base game and of the four mini-expansions (Cursed!,
Grand Dames, Be Not Afraid..., Royal Bonus) is scored. A catalogue race or power with no
scoring rule here (one added to the data files later) is refused rather than scored
without its bonus.

The mini-expansions add facts that no map shows, given as optional inputs with defaults
(0, or "not said"), so a caller that knows nothing of them keeps working:

- Aquatic reads which land regions are coastal (`HeldRegion.coastal`, `QuickCount.coastal`);
  its "one less per inland region" is negative, and a race's regions and Aquatic lines
  together never are;
- Gypsies: `ActiveHoldings.abandoned`, the regions abandoned this turn (a coin in each);
- Peace-Loving: `ActiveHoldings.attacked_active_race`, whether another player's active
  race was attacked this turn (declined races, declined Ghouls included, and Lost Tribes
  do not count); None means "not said", and a Peace-Loving race is then refused rather
  than paid 3 coins it may not have earned.

An expansion whose races or powers score on facts of their own (the Pots of Gold, the
Ivory Tower, the Historian's counts) gives them as one of a race's `facts` (found by their
type, like `GameState.parts`), and scores them with its own rows: its `Expansion`'s
scoring hooks (its races' and powers' bonuses, the checks of its facts, the words of a
regions line its rule replaces), asked of the registered expansions (`use_rules`, called once by
`companion.rules.expansions`). Invariant: a race or power name has one row; an
expansion's takes the place of the base game's tables' (the registry's last one wins).

An expansion may also know facts of the regions held that the base game does not (which
region bears a site of its own, which borders a piece of its own): one of a listed
region's `facts` (`HeldRegion.facts`) and, counted, one of a quick count's
(`QuickCount.facts`), each a frozen dataclass of its module found by its type. Its
`Expansion`'s hooks check them (`check_region`, `check_count`), count a list of regions
(`region_counts`, so both paths stay the same position) and score them: lines after a
race's own (`race_lines`) and lines of the player's races together, after all of them
(`player_lines`). River World's Harbors and pirate ships are scored this way
(`companion.rules.river`). One set of hooks scores both paths: a list is counted first
(`region_counts`) and only the count is scored; the checks stay two (a count does not
say which region bears which fact: docs/architecture.md says why it is not entered as
regions). A river (terrain
"river") held under a Harsh Winter, or by a Seafaring race, is a region like any other:
1 coin.

The rule numbers printed in the rules text (Barricade's 3 coins for 4 regions or fewer,
Imperial's regions beyond 3, Peace-Loving's 3 coins) are the constants below; token
numbers come from the catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from companion.rules.catalog import Catalog, Power, Race
from companion.rules.errors import IllegalAction, UnknownName
from companion.rules.maps import Feature, Terrain

# the races and powers the tables below key, and those scored apart
from companion.rules.names import (
    ALCHEMIST,
    AMAZONS,
    AQUATIC,
    BARBARIANS,
    BARRICADE,
    BEHEMOTH,
    BERSERK,
    BIVOUACKING,
    CATAPULT,
    COMMANDO,
    CORRUPT,
    CURSED,
    DIPLOMAT,
    DRAGON_MASTER,
    DWARVES,
    ELVES,
    FAUNS,
    FIREBALL,
    FLYING,
    FOREST,
    FORTIFIED,
    GHOULS,
    GIANTS,
    GOBLINS,
    GYPSIES,
    HALFLINGS,
    HEROIC,
    HILL,
    HOMUNCULI,
    HORDES_OF,
    HUMANS,
    IGORS,
    IMPERIAL,
    KOBOLDS,
    MARAUDING,
    MERCENARY,
    MERCHANT,
    MOUNTED,
    ORCS,
    PEACE_LOVING,
    PILLAGING,
    PIXIES,
    PYGMIES,
    RANSACKING,
    RATMEN,
    SEAFARING,
    SHRUBMEN,
    SKELETONS,
    SORCERERS,
    SPIRIT,
    STOUT,
    SWAMP,
    TRITONS,
    TROLLS,
    UNDERWORLD,
    WEALTHY,
    WERE,
    WHITE_LADIES,
    WIZARDS,
)
from companion.rules.said import N_, Name, Said, as_said, said

if TYPE_CHECKING:  # the expansions score through their hooks; they import this module
    from companion.rules.expansion import Expansion

MAX_FORTRESSES = 6
"""Fortress pieces in the box, unless the catalogue says otherwise: nobody holds more."""

MAX_DECLINED_RACES = 2
"""A player keeps at most two races in decline, and two only when one has Spirit."""

WEALTHY_COINS = 7
ALCHEMIST_COINS = 2

BARRICADE_COINS = 3
BARRICADE_MOST_REGIONS = 4
"""Barricade pays when the race holds this many regions or fewer."""
IMPERIAL_FREE_REGIONS = 3
"""Imperial pays one coin per region beyond this many."""
PEACE_LOVING_COINS = 3


class ScoringInputError(IllegalAction):
    """A scoring input the rules cannot produce; `field` says where, `value` what.

    `problem` is the English of what is wrong (`problem_said` the same as a sentence a
    screen or a command words in the table's language, with `said`); the field's name
    (``active.regions[2]``) is a value, never translated."""

    def __init__(self, field: str, value: object, problem: str | Said) -> None:
        sentence = as_said(problem)
        super().__init__(said("{field}: {problem}", field=field, problem=sentence))
        self.field = field
        self.value = value
        self.problem = str(sentence)
        self.problem_said = sentence


# --- inputs ----------------------------------------------------------------------------


F = TypeVar("F")
"""An expansion's own facts of a race's turn (`ActiveHoldings.fact`), of a region held
(`HeldRegion.fact`) or of regions counted (`QuickCount.fact`)."""


class _Facts:
    """A value carrying an expansion's own facts (`facts`), at most one of each type."""

    __slots__ = ()
    facts: tuple[object, ...]

    def fact(self, kind: type[F]) -> F | None:
        """The expansion's facts of type `kind` (None: not given)."""
        return next((fact for fact in self.facts if type(fact) is kind), None)


def with_fact(facts: tuple[object, ...], fact: object) -> tuple[object, ...]:
    """`facts` with `fact` in place of the one of its type (or added at the end)."""
    kind = type(fact)
    return (*(f for f in facts if type(f) is not kind), fact)


@dataclass(frozen=True, slots=True)
class HeldRegion(_Facts):
    """One region held by a race, as far as scoring cares.

    `region_id` is the board id when the region was tapped on a map, else None; two held
    regions with the same id are refused (a region holds only one race). `facts`: an
    expansion's own facts of the region, at most one of each type, read with `fact`
    (checked, counted and scored by its `Expansion`'s hooks).
    """

    terrain: Terrain
    features: frozenset[Feature] = frozenset()
    coastal: bool = False
    region_id: int | None = None
    facts: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class QuickCount(_Facts):
    """The regions of one race counted by hand instead of tapped on the map.

    `terrains` gives how many regions of each terrain the race holds (seas and the lake
    included, for a Seafaring race); `mines` and `magic_sources` how many of those regions
    carry that symbol; `coastal` how many of its land regions border a sea or the lake
    (read by Aquatic only). `facts`: an expansion's own counts of those regions, at most
    one of each type, read with `fact` (as `HeldRegion.facts`, counted).
    """

    terrains: Mapping[Terrain, int] = field(default_factory=dict)
    mines: int = 0
    magic_sources: int = 0
    coastal: int = 0
    facts: tuple[object, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrains", MappingProxyType(dict(self.terrains)))

    @property
    def inland(self) -> int:
        return self.land - self.coastal

    @property
    def land(self) -> int:
        return sum(n for terrain, n in self.terrains.items() if not terrain.is_water)

    @property
    def water(self) -> int:
        return sum(n for terrain, n in self.terrains.items() if terrain.is_water)

    @property
    def regions(self) -> int:
        return self.land + self.water


Tally = QuickCount
"""What one race holds, reduced to the numbers a bonus reads: its count, checked (the
expansions' counts among its `facts`)."""

Regions = tuple[HeldRegion, ...] | QuickCount
"""The regions of one race: listed one by one (map path) or counted (quick-count path)."""


@dataclass(frozen=True, slots=True)
class ActiveHoldings(_Facts):
    """The active race of the scoring player and what it did this turn.

    `first_turn` is true at the end of the turn the combo was picked (Wealthy);
    `conquered_non_empty` counts the regions conquered this turn that held a Lost Tribe
    or any race token (Orcs, Pillaging); `fortresses` the Fortresses in its regions.

    Mini-expansions: `abandoned` the regions abandoned this turn (Gypsies);
    `attacked_active_race` whether the race attacked another player's active race this
    turn, None if not said (Peace-Loving). `facts`: an expansion's own facts of the race's
    turn, at most one of each type, read with `fact` (scored by its `Expansion`'s hooks).
    """

    race: str
    power: str
    regions: Regions = ()
    first_turn: bool = False
    conquered_non_empty: int = 0
    fortresses: int = 0
    abandoned: int = 0
    attacked_active_race: bool | None = None
    facts: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class DeclinedHoldings(_Facts):
    """One race of the scoring player in decline; `this_turn` if it declined this turn.
    `facts`: an expansion's own facts of the race's turn, as on `ActiveHoldings`."""

    race: str
    power: str
    regions: Regions = ()
    this_turn: bool = False
    facts: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoringInput:
    """Everything needed to score one player's turn."""

    turn: int
    active: ActiveHoldings | None = None
    declined: tuple[DeclinedHoldings, ...] = ()


# --- output ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the breakdown: what earned coins, and how many. `label` is the English
    (what `companion score` prints and tests compare); `said`, when given, the same words
    as a sentence a screen words in the table's language (not compared)."""

    label: str
    coins: int
    said: Said | None = field(default=None, compare=False)

    @classmethod
    def saying(cls, words: Said, coins: int) -> ScoreLine:
        """A line whose label is `words`' English."""
        return cls(str(words), coins, words)

    @property
    def words(self) -> Said:
        """The label as a sentence (plain text when the line was made with text alone)."""
        return self.said if self.said is not None else as_said(self.label)


@dataclass(frozen=True, slots=True)
class TurnScore:
    """The coins a player earns this turn; `total` is always the sum of `lines`."""

    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        return sum(line.coins for line in self.lines)


# --- the rules -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Turn(_Facts):
    """The facts of the active race's turn that bonuses may read."""

    first_turn: bool
    conquered_non_empty: int
    fortresses: int
    abandoned: int = 0
    attacked_active_race: bool = False
    facts: tuple[object, ...] = ()


class Stage(StrEnum):
    """Where a race stands when it scores."""

    ACTIVE = "active"
    DECLINING = "declining"
    """It went into decline this turn."""
    IN_DECLINE = "in decline"
    """It went into decline on an earlier turn."""


_ACTIVE_ONLY = frozenset({Stage.ACTIVE})
_ALL_STAGES = frozenset(Stage)


@dataclass(frozen=True, slots=True)
class Bonus:
    """A scoring bonus of a race or power.

    `coins` reads the tally and the turn; `kept_in_decline` says whether the bonus still
    pays for a race in decline (including the turn it declined). `stages`, when given,
    says exactly when it pays instead (the Historian's last coin pays only on the turn
    the race declines); left empty it follows `kept_in_decline`.
    """

    label: str | Said
    coins: Callable[[Tally, _Turn], int]
    kept_in_decline: bool = False
    stages: frozenset[Stage] = frozenset()

    def __post_init__(self) -> None:
        if not self.stages:
            stages = _ALL_STAGES if self.kept_in_decline else _ACTIVE_ONLY
            object.__setattr__(self, "stages", stages)

    def pays(self, stage: Stage) -> bool:
        """Whether the bonus pays for a race at this stage."""
        return stage in self.stages


def _terrain(terrain: Terrain) -> Callable[[Tally, _Turn], int]:
    return lambda tally, _turn: tally.terrains.get(terrain, 0)


RACE_BONUSES: Mapping[str, tuple[Bonus, ...]] = MappingProxyType(
    {
        AMAZONS: (),
        DWARVES: (
            Bonus(N_("one per mine region"), lambda tally, _turn: tally.mines,
                  kept_in_decline=True),
        ),
        ELVES: (),
        GHOULS: (),
        GIANTS: (),
        HALFLINGS: (),
        HUMANS: (Bonus(N_("one per farmland region"), _terrain(Terrain.FARMLAND)),),
        ORCS: (
            Bonus(
                N_("one per non-empty region conquered this turn"),
                lambda _tally, turn: turn.conquered_non_empty,
            ),
        ),
        RATMEN: (),
        SKELETONS: (),
        SORCERERS: (),
        TRITONS: (),
        TROLLS: (),
        WIZARDS: (
            Bonus(N_("one per magic source region"), lambda tally, _turn: tally.magic_sources),
        ),
    }
)
"""The base game's races and their scoring bonuses (an empty tuple: none)."""

POWER_BONUSES: Mapping[str, tuple[Bonus, ...]] = MappingProxyType(
    {
        ALCHEMIST: (
            Bonus(N_("while the race is active"), lambda _tally, _turn: ALCHEMIST_COINS),
        ),
        BERSERK: (),
        BIVOUACKING: (),
        COMMANDO: (),
        DIPLOMAT: (),
        DRAGON_MASTER: (),
        FLYING: (),
        FOREST: (Bonus(N_("one per forest region"), _terrain(Terrain.FOREST)),),
        FORTIFIED: (Bonus(N_("one per fortress"), lambda _tally, turn: turn.fortresses),),
        HEROIC: (),
        HILL: (Bonus(N_("one per hill region"), _terrain(Terrain.HILL)),),
        MERCHANT: (Bonus(N_("one per region held"), lambda tally, _turn: tally.regions),),
        MOUNTED: (),
        PILLAGING: (
            Bonus(
                N_("one per non-empty region conquered this turn"),
                lambda _tally, turn: turn.conquered_non_empty,
            ),
        ),
        SEAFARING: (),  # its seas and lake are regions, scored on their own line
        SPIRIT: (),  # lets a second race in decline score beside the first
        STOUT: (),
        SWAMP: (Bonus(N_("one per swamp region"), _terrain(Terrain.SWAMP)),),
        UNDERWORLD: (),
        WEALTHY: (
            Bonus(
                N_("once, on the turn the combo was picked"),
                lambda _tally, turn: WEALTHY_COINS if turn.first_turn else 0,
            ),
        ),
    }
)
"""The base game's special powers and their scoring bonuses (an empty tuple: none)."""

EXPANSION_RACE_BONUSES: Mapping[str, tuple[Bonus, ...]] = MappingProxyType(
    {
        BARBARIANS: (),
        FAUNS: (),
        GOBLINS: (),  # cheaper conquests only
        GYPSIES: (
            Bonus(
                N_("the coins left in the regions they abandoned this turn"),
                lambda _tally, turn: turn.abandoned,
            ),
        ),
        HOMUNCULI: (),
        IGORS: (),
        KOBOLDS: (),
        PIXIES: (),
        PYGMIES: (),  # no coins: their lost tokens come back by a die roll
        SHRUBMEN: (),
        WHITE_LADIES: (),
    }
)
"""The mini-expansion races and their scoring bonuses (an empty tuple: none); those that
score on facts of their own are their expansion's (`Expansion.race_bonuses`)."""

EXPANSION_POWER_BONUSES: Mapping[str, tuple[Bonus, ...]] = MappingProxyType(
    {
        AQUATIC: (
            Bonus(N_("one per coastal region"), lambda tally, _turn: tally.coastal),
            Bonus(N_("one less per inland region"), lambda tally, _turn: -tally.inland),
        ),
        BARRICADE: (
            Bonus(
                said("holding {n} regions or fewer", n=BARRICADE_MOST_REGIONS),
                lambda tally, _turn: (
                    BARRICADE_COINS if tally.regions <= BARRICADE_MOST_REGIONS else 0
                ),
            ),
        ),
        BEHEMOTH: (),
        CATAPULT: (),
        CORRUPT: (),  # coins paid by conquerors during play, not at scoring
        CURSED: (),
        FIREBALL: (),
        HORDES_OF: (),
        IMPERIAL: (
            Bonus(
                said("one per region beyond the {n}rd", n=IMPERIAL_FREE_REGIONS),
                lambda tally, _turn: max(0, tally.regions - IMPERIAL_FREE_REGIONS),
            ),
        ),
        MARAUDING: (),
        MERCENARY: (),  # coins spent during play, not at scoring
        PEACE_LOVING: (
            Bonus(
                N_("no other active race attacked this turn"),
                lambda _tally, turn: 0 if turn.attacked_active_race else PEACE_LOVING_COINS,
            ),
        ),
        RANSACKING: (),  # coins paid by victims during play, not at scoring
        WERE: (),
    }
)
"""The mini-expansion special powers and their scoring bonuses (an empty tuple: none);
those that score on facts of their own are their expansion's
(`Expansion.power_bonuses`)."""


# --- validation ------------------------------------------------------------------------


LAND_COUNTED = N_("(the land regions counted)")
"""What a count of things on land regions may not exceed (a `whole_count` limit)."""


def whole_count(field_name: str, value: object, *, at_most: int | None = None,
                limit: Said | None = None) -> int:
    """`value` as a count, refused (`ScoringInputError` on `field_name`) unless a whole
    number from 0 (to `at_most`, `limit` saying what that is, in brackets: "(the land
    regions counted)")."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringInputError(field_name, value,
                                said("{value} is not a whole number", value=repr(value)))
    if value < 0:
        raise ScoringInputError(field_name, value, said("{value} is negative", value=repr(value)))
    if at_most is not None and value > at_most:
        raise ScoringInputError(field_name, value, said(
            "{value} is more than {most} {limit}", value=repr(value), most=at_most,
            limit=limit) if limit is not None else said(
            "{value} is more than {most}", value=repr(value), most=at_most))
    return value


def _resolve(
    field_name: str,
    name: str,
    lookup: Callable[[str], Race | Power],
    known: Mapping[str, str],
    kind: str,
) -> str:
    race = kind == "race"
    if not isinstance(name, str):
        raise ScoringInputError(field_name, name, said(
            "{value} is not a race name", value=repr(name)) if race else said(
            "{value} is not a power name", value=repr(name)))
    try:
        canonical = lookup(name).name
    except UnknownName as error:
        raise ScoringInputError(field_name, name, error.said) from error
    supported = known.get(canonical.casefold())
    if supported is None:
        # the name quoted as repr() quotes it: 'Orcs'
        raise ScoringInputError(field_name, name, said(
            "scoring the race '{race}' is not supported: no rule for it", race=Name(
                "race", canonical)) if race else said(
            "scoring the power '{power}' is not supported: no rule for it", power=Name(
                "power", canonical)))
    return supported


def _tally(field_name: str, regions: Regions, tables: _Tables) -> Tally:
    """The race's regions as the count they make, checked (a list is counted)."""
    if isinstance(regions, QuickCount):
        terrains: dict[Terrain, int] = {}
        for terrain, n in regions.terrains.items():
            if not isinstance(terrain, Terrain):
                raise ScoringInputError(
                    f"{field_name}.terrains", terrain,
                    said("{value} is not a terrain", value=repr(terrain)))
            terrains[terrain] = whole_count(f"{field_name}.terrains.{terrain.value}", n)
        land = QuickCount(terrains).land
        limit = Said(LAND_COUNTED)
        mines = whole_count(f"{field_name}.mines", regions.mines, at_most=land, limit=limit)
        magic = whole_count(
            f"{field_name}.magic_sources", regions.magic_sources, at_most=land, limit=limit
        )
        coastal = whole_count(f"{field_name}.coastal", regions.coastal, at_most=land, limit=limit)
        tally = QuickCount(terrains, mines, magic, coastal)
        for rule in tables.rules:
            rule.check_count(field_name, regions, tally)
        return replace(tally, facts=regions.facts)
    for index, region in enumerate(regions):
        if not isinstance(region, HeldRegion) or not isinstance(region.terrain, Terrain):
            raise ScoringInputError(f"{field_name}[{index}]", region,
                                    said("{value} is not a region", value=repr(region)))
        for rule in tables.rules:
            rule.check_region(f"{field_name}[{index}]", region)
    return _counted(regions, tables)


def _check_unique_ids(inp: ScoringInput, races: list[_Race]) -> None:
    """A region holds one race only: refuse a board id listed twice (races in input order)."""
    seen: dict[int, Said | Name] = {}
    groups: list[tuple[str, Regions]] = []
    if inp.active is not None:
        groups.append(("active.regions", inp.active.regions))
    groups.extend((f"declined[{i}].regions", d.regions) for i, d in enumerate(inp.declined))
    for (prefix, regions), race in zip(groups, races, strict=True):
        if isinstance(regions, QuickCount):
            continue
        who = Name("race", race.race)
        holder = said("{race} in decline", race=who) if race.declined else who
        for index, region in enumerate(regions):
            region_id = region.region_id
            if region_id is None:
                continue
            if region_id in seen:
                raise ScoringInputError(
                    f"{prefix}[{index}]",
                    region_id,
                    said("region {region} is listed twice (already held by {holder})",
                         region=region_id, holder=seen[region_id]),
                )
            seen[region_id] = holder


def _check_water(field_name: str, regions: Regions, power: str, race: str) -> None:
    """Only a Seafaring race (active, or in decline since) holds seas and the lake."""
    if power == SEAFARING:
        return
    problem = said("{race} cannot hold a sea or the lake: only a Seafaring race can",
                   race=Name("race", race))
    if isinstance(regions, QuickCount):
        for terrain, n in regions.terrains.items():
            if terrain.is_water and n:
                raise ScoringInputError(f"{field_name}.terrains.{terrain.value}", n, problem)
        return
    for index, region in enumerate(regions):
        if region.terrain.is_water:
            water = region.terrain.value  # the input's own word for it: a value as it is
            shown: str | Said = water
            if region.region_id is not None:
                shown = said("{terrain} region {region}", terrain=water,
                             region=region.region_id)
            raise ScoringInputError(f"{field_name}[{index}]", str(shown),
                                    said("{region}: {problem}", region=shown, problem=problem))


# --- the engine ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Race:
    race: str
    power: str
    tally: Tally
    declined: bool
    this_turn: bool
    turn: _Turn
    instead: InsteadOfRegions | None = None
    """What an expansion's rule scores in lieu of the race's regions (None: they score)."""

    @property
    def stage(self) -> Stage:
        if not self.declined:
            return Stage.ACTIVE
        return Stage.DECLINING if self.this_turn else Stage.IN_DECLINE


@dataclass(frozen=True, slots=True)
class InsteadOfRegions:
    """An expansion's rule that scores a race in lieu of its regions (the Ivory Tower):
    `words` end its regions line (which shows 0), `scores` says whether what scores
    instead earns anything (a region that earns nothing has no coin to lose)."""

    words: str
    scores: bool


ScoredRace = _Race
"""A race as the rules see it when it scores (resolved names, its tally, its stage, its
turn's facts): what an `Expansion`'s scoring hooks check and read."""
RaceTurn = _Turn
"""The facts of a race's turn that a bonus reads (`RaceTurn.fact` for an expansion's)."""


@dataclass(frozen=True, slots=True)
class _Tables:
    """Every race's and power's bonuses, the base game's and the expansions', by name."""

    rules: tuple[Expansion, ...]
    races: Mapping[str, tuple[Bonus, ...]]
    powers: Mapping[str, tuple[Bonus, ...]]
    race_names: Mapping[str, str]
    power_names: Mapping[str, str]


def _no_rules() -> Sequence[Expansion]:
    return ()


_rules_of: Callable[[], Sequence[Expansion]] = _no_rules
"""Where the expansions' rules come from (`use_rules`)."""
_cached: _Tables | None = None
"""The tables made for the rules last asked."""


def use_rules(registered: Callable[[], Sequence[Expansion]]) -> None:
    """Score with the rules `registered()` gives, asked at each score (so an expansion
    registered for a while is scored too); called once, by the registry of expansions."""
    global _rules_of, _cached
    _rules_of, _cached = registered, None


def _tables() -> _Tables:
    global _cached
    rules = tuple(_rules_of())
    if _cached is not None and _cached.rules == rules:
        return _cached
    races: dict[str, tuple[Bonus, ...]] = {**RACE_BONUSES, **EXPANSION_RACE_BONUSES}
    powers: dict[str, tuple[Bonus, ...]] = {**POWER_BONUSES, **EXPANSION_POWER_BONUSES}
    for rule in rules:
        races.update(rule.race_bonuses)
        powers.update(rule.power_bonuses)
    tables = _Tables(rules, MappingProxyType(races), MappingProxyType(powers),
                     {name.casefold(): name for name in races},
                     {name.casefold(): name for name in powers})
    _cached = tables
    return tables


def race_bonuses() -> Mapping[str, tuple[Bonus, ...]]:
    """Every race scoring knows, the base game's and the registered expansions', with its
    bonuses."""
    return _tables().races


def power_bonuses() -> Mapping[str, tuple[Bonus, ...]]:
    """Every special power scoring knows, with its bonuses."""
    return _tables().powers


def _ruled(where: str, race: _Race, catalog: Catalog, tables: _Tables) -> _Race:
    """`race` checked by the expansions' rules, with what scores instead of its regions."""
    instead = None
    for rule in tables.rules:
        rule.check_race(where, race, catalog)
        instead = instead or rule.regions_instead(race)
    return replace(race, instead=instead) if instead is not None else race


def _lines_for(race: _Race, tables: _Tables) -> list[ScoreLine]:
    who = Name("race", race.race)
    if race.instead is not None:
        # an expansion's rule scores in lieu of the usual regions (the Ivory Tower)
        instead = race.instead.words
        lines = [ScoreLine.saying(
            said("Regions held by {race} (in decline): {instead}", race=who, instead=instead)
            if race.declined else
            said("Regions held by {race}: {instead}", race=who, instead=instead), 0)]
    else:
        lines = [ScoreLine.saying(
            said("Regions held by {race} (in decline)", race=who) if race.declined else
            said("Regions held by {race}", race=who), race.tally.land)]
        if race.tally.water:
            lines.append(ScoreLine.saying(
                said("Seas and lakes held by {race} (in decline) (Seafaring)", race=who)
                if race.declined else
                said("Seas and lakes held by {race} (Seafaring)", race=who), race.tally.water))
    bonuses = [(Name("race", race.race), bonus) for bonus in tables.races[race.race]]
    bonuses += [(Name("power", race.power), bonus) for bonus in tables.powers[race.power]]
    for source, bonus in bonuses:
        if not bonus.pays(race.stage):
            continue
        coins = bonus.coins(race.tally, race.turn)
        if coins:
            lines.append(ScoreLine.saying(
                said("{source} (in decline): {bonus}", source=source, bonus=_words(bonus))
                if race.declined else
                said("{source}: {bonus}", source=source, bonus=_words(bonus)), coins))
    for rule in tables.rules:
        lines.extend(rule.race_lines(race))
    return lines


def _words(bonus: Bonus) -> Said:
    """A bonus's label as a sentence (its template is marked where the bonus is made)."""
    return bonus.label if isinstance(bonus.label, Said) else Said(bonus.label)


def true_or_false(field_name: str, value: object) -> bool:
    """`value` as a flag, refused (`ScoringInputError` on `field_name`) unless a bool."""
    if not isinstance(value, bool):
        raise ScoringInputError(field_name, value,
                                said("{value} is not true or false", value=repr(value)))
    return value


def only_for(field_name: str, value: int, holder: str, who: str, problem: Said) -> None:
    """Refuse a non-zero count that only `holder` (a race or power) can have, saying
    `problem` ("only Leprechauns place Pots of Gold, not {race}", `who` its value)."""
    if value and holder != who:
        raise ScoringInputError(field_name, value, problem)


def _active(inp: ScoringInput, active: ActiveHoldings, catalog: Catalog,
            tables: _Tables) -> _Race:
    race = _resolve("active.race", active.race, catalog.race, tables.race_names, "race")
    power = _resolve("active.power", active.power, catalog.power, tables.power_names, "power")
    tally = _tally("active.regions", active.regions, tables)
    _check_water("active.regions", active.regions, power, race)
    first_turn = true_or_false("active.first_turn", active.first_turn)
    if inp.turn == 1 and not first_turn:
        raise ScoringInputError(
            "active.first_turn", first_turn,
            said("false, but on turn 1 every combo is picked that turn"))
    held = said("(the regions {race} hold)", race=Name("race", race))
    conquered = whole_count(
        "active.conquered_non_empty",
        active.conquered_non_empty,
        at_most=tally.regions,
        limit=held,
    )
    in_box = catalog.pieces.get("fortresses", MAX_FORTRESSES)
    fortresses = whole_count(
        "active.fortresses",
        active.fortresses,
        at_most=min(tally.regions, in_box),
        limit=held if tally.regions <= in_box else said("(the fortresses in the box)"),
    )
    if fortresses and power != FORTIFIED:
        raise ScoringInputError(
            "active.fortresses", fortresses,
            said("only a Fortified race places fortresses, not {power}",
                 power=Name("power", power)))
    abandoned = whole_count("active.abandoned", active.abandoned)
    only_for("active.abandoned", abandoned, GYPSIES, race,
          said("only Gypsies leave coins where they abandon, not {race}",
               race=Name("race", race)))
    attacked = active.attacked_active_race
    if attacked is None:
        if power == PEACE_LOVING:
            raise ScoringInputError(
                "active.attacked_active_race",
                None,
                said("not said: Peace-Loving earns 3 coins only if no other active race "
                     "was attacked this turn; say true or false"),
            )
    else:
        attacked = true_or_false("active.attacked_active_race", attacked)
    turn = _Turn(
        first_turn,
        conquered,
        fortresses,
        abandoned=abandoned,
        attacked_active_race=bool(attacked),
        facts=active.facts,
    )
    return _Race(race, power, tally, declined=False, this_turn=False, turn=turn)


def _declined(where: str, held: DeclinedHoldings, catalog: Catalog, tables: _Tables) -> _Race:
    race = _resolve(f"{where}.race", held.race, catalog.race, tables.race_names, "race")
    power = _resolve(f"{where}.power", held.power, catalog.power, tables.power_names, "power")
    tally = _tally(f"{where}.regions", held.regions, tables)
    _check_water(f"{where}.regions", held.regions, power, race)
    this_turn = true_or_false(f"{where}.this_turn", held.this_turn)
    turn = _Turn(
        first_turn=False,
        conquered_non_empty=0,
        fortresses=0,
        facts=held.facts,
    )
    return _Race(race, power, tally, declined=True, this_turn=this_turn, turn=turn)


def _races(inp: ScoringInput, catalog: Catalog, tables: _Tables) -> list[_Race]:
    """Check the input against the rules and resolve every race; raise on the first fault."""
    if isinstance(inp.turn, bool) or not isinstance(inp.turn, int) or inp.turn < 1:
        raise ScoringInputError("turn", inp.turn, said("{value} is not a game turn (1 or more)",
                                                       value=repr(inp.turn)))
    races: list[_Race] = []
    if inp.active is not None:
        races.append(_ruled("active", _active(inp, inp.active, catalog, tables), catalog,
                            tables))
    if len(inp.declined) > MAX_DECLINED_RACES:
        raise ScoringInputError(
            "declined", len(inp.declined),
            said("{n} races in decline; at most {most}", n=len(inp.declined),
                 most=MAX_DECLINED_RACES))
    if inp.turn == 1 and inp.declined:
        raise ScoringInputError("declined", len(inp.declined),
                                said("no race is in decline on turn 1"))
    for index, held in enumerate(inp.declined):
        where = f"declined[{index}]"
        race = _ruled(where, _declined(where, held, catalog, tables), catalog, tables)
        for other in races:
            if other.race == race.race:
                who = Name("race", race.race)
                raise ScoringInputError(
                    f"declined[{index}].race",
                    held.race,
                    said("{race} are already on the board (in decline); a banner is unique",
                         race=who) if other.declined else
                    said("{race} are already on the board (active); a banner is unique",
                         race=who),
                )
        if race.this_turn:
            _check_declined_this_turn(f"declined[{index}].this_turn", races)
        races.append(race)
    declined = [r for r in races if r.declined]
    if len(declined) == MAX_DECLINED_RACES and all(r.power != SPIRIT for r in declined):
        raise ScoringInputError(
            "declined", len(declined),
            said("two races in decline at once needs one with Spirit"))
    _check_unique_ids(inp, races)
    return races


def _check_declined_this_turn(field_name: str, earlier: list[_Race]) -> None:
    for race in earlier:
        if not race.declined:
            raise ScoringInputError(
                field_name, True,
                said("a player has no active race on the turn a race declines"))
        if race.this_turn:
            raise ScoringInputError(field_name, True, said("{race} already declined this turn",
                                                           race=Name("race", race.race)))


def score_turn(inp: ScoringInput, catalog: Catalog) -> TurnScore:
    """The coins the player earns at the end of this turn, with one line per reason.

    Raises `ScoringInputError` (an `IllegalAction`) when the input is impossible.
    """
    lines: list[ScoreLine] = []
    tables = _tables()
    races = _races(inp, catalog, tables)
    for race in races:
        lines.extend(_lines_for(race, tables))
    for rule in tables.rules:
        lines.extend(rule.player_lines(races))
    return TurnScore(tuple(lines))


def count_regions(regions: Iterable[HeldRegion]) -> QuickCount:
    """The quick count that describes the same regions as a list of held regions.

    Features and coastlines are counted on land regions only (a sea is never coastal); the
    expansions count their own facts of the regions (`Expansion.region_counts`).
    """
    return _counted(tuple(regions), _tables())


def _counted(regions: Sequence[HeldRegion], tables: _Tables) -> QuickCount:
    terrains: dict[Terrain, int] = {}
    mines = magic = coastal = 0
    for region in regions:
        terrains[region.terrain] = terrains.get(region.terrain, 0) + 1
        if not region.terrain.is_water:
            mines += Feature.MINE in region.features
            magic += Feature.MAGIC in region.features
            coastal += region.coastal
    facts = tuple(fact for rule in tables.rules
                  if (fact := rule.region_counts(regions)) is not None)
    return QuickCount(terrains, mines, magic, coastal, facts=facts)


def regions_held(regions: Regions) -> int:
    """How many regions `regions` are, listed or counted."""
    if isinstance(regions, QuickCount):
        return sum(regions.terrains.values())
    return len(regions)


def power_bonus_lines(
    power: str,
    regions: Iterable[HeldRegion] | QuickCount,
    *,
    conquered_non_empty: int = 0,
    attacked_active_race: bool = False,
    fortresses: int = 0,
) -> tuple[ScoreLine, ...]:
    """The lines a special power alone earns for an active holder of `regions` (listed or
    counted), with no race banner and no "regions held" line (for a seat an expansion
    plays itself, whose powers in use score this way). An impossible count raises
    `ScoringInputError` naming it (`regions.mines`...)."""
    tables = _tables()
    name = tables.power_names.get(power.casefold())
    if name is None:
        raise ScoringInputError("power", power, said("no scoring rule for this power"))
    tally = _tally("regions", regions if isinstance(regions, QuickCount) else tuple(regions),
                   tables)
    turn = _Turn(
        False, conquered_non_empty, fortresses, attacked_active_race=attacked_active_race
    )
    paid = ((bonus, bonus.coins(tally, turn)) for bonus in tables.powers[name])
    return tuple(ScoreLine.saying(said("{source}: {bonus}", source=Name("power", name),
                                       bonus=_words(bonus)), coins)
                 for bonus, coins in paid if coins and bonus.pays(Stage.ACTIVE))
