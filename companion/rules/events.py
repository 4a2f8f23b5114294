"""Events: every change to a game, as versioned data.

An event is a frozen dataclass with a `TYPE` name. `to_record` turns it into a plain JSON
object `{"type": ..., "v": SCHEMA_VERSION, ...fields}` and `from_record` reads one back,
upgrading records written by an earlier schema version, so an old saved game still
replays after an upgrade. Events hold only data (names, seats, numbers): randomness, such
as a shuffled deck or a die face, is drawn outside the rules and arrives here as data.

Events are grouped in *steps*: one step holds all the events of one player intent and is
saved in one transaction. Undo takes back whole steps.

This module holds the base game's events (`BASE_EVENTS`); each expansion defines its own
in its module and lists them in `Expansion.events`. `Event` is what every event class is
(a frozen dataclass with a `TYPE`; `BARRIER` when it draws randomness or ends a turn).
`read_record` reads a record against a table of event classes by `TYPE`; the table of
every event the rules know (the base game's and the registered expansions') is
`companion.rules.codec`'s, which is where saved records are read (`codec.from_record`).

An expansion's own part of a shared event is one of that event's `options` (a frozen
dataclass of its module, read with `option(kind)`): its part of a new game's set-up
(`GameCreated`) or of a decline (`RaceDeclined`: the Priestesses' Ivory Tower). In the
record an option's fields stand beside the event's own. A game's options write their fields
only when present; a decline's are written in every decline record, their defaults when
absent (as the decline's own field always was), the types known through `use_decline_types`
(the registry of expansions calls it once), and a record whose part holds only its
defaults reads as no option.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from companion.rules.errors import MalformedInput

SCHEMA_VERSION = 3

OptionT = TypeVar("OptionT")
"""An expansion's own part of a game's set-up (`GameCreated.option`)."""


class Event(Protocol):
    """Any event: a frozen dataclass with a `TYPE`, the base game's or an expansion's.
    A class whose events draw randomness or end a turn sets `BARRIER = True` (undo stops
    there, `is_barrier`); one that is an action of a player's turn sets `IN_TURN = True`
    (it waits until a set-up an expansion holds before the first turn is over)."""

    TYPE: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at the table, in seat order."""

    name: str
    colour: str


class _WithOptions:
    """An event that carries expansions' own parts (`options`: frozen dataclasses, at most
    one of each type), kept in one order whatever the order they were given in (by type
    name), so two events made alike are equal and their records alike."""

    __slots__ = ()
    options: tuple[object, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.options, key=lambda option: type(option).__name__))
        if ordered != self.options:
            object.__setattr__(self, "options", ordered)

    def option(self, kind: type[OptionT]) -> OptionT | None:
        """The part of type `kind` (None: no expansion gave one)."""
        for option in self.options:
            if type(option) is kind:
                return option
        return None


@dataclass(frozen=True, slots=True)
class GameCreated(_WithOptions):
    """A new game: seats clockwise, first player, board, decks (shuffled when the app deals).

    `board_doc`: for a board a group wrote (not a packaged one), the board document itself
    (compact JSON, named `board`), so the game replays the same whatever later happens to
    the file. `options`: each expansion's own part of the set-up, a frozen dataclass of its
    module (its `Expansion.setup_type`: River World's line of Event markers, the
    Necromancer's six badges, team play's pile of Relics and Places), at most one of each
    type, read with `option`; in the saved record its fields stand beside the others, as
    they always have, and an expansion not played writes none.
    `corrections`: the group's corrections of catalog numbers that rest on one source, in
    force for this game (`companion.rules.corrections.Override`); empty: the packaged ones.
    `left_out`: banners and badges of the chosen sets the table took out of the decks (River
    World advises leaving out Flying); `races` and `powers` hold all the others.
    `troops_counted`: the game keeps the ledger of every race token (`companion.rules.troops`):
    conquests take their tokens from the hand, redeployment empties it. Games saved before
    the ledger existed have False and replay as they were played, their counts unknown.
    """

    TYPE: ClassVar[str] = "game_created"
    BARRIER: ClassVar[bool] = True
    seats: tuple[Seat, ...]
    first_seat: int
    board: str
    turns: int
    expansions: tuple[str, ...]
    dealing: str  # "app": stacks in the order given; "table": the cardboard is dealt by hand
    races: tuple[str, ...]
    powers: tuple[str, ...]
    board_doc: str | None = None
    options: tuple[object, ...] = ()
    corrections: tuple[tuple[str, str, str, int], ...] = ()
    left_out: tuple[str, ...] = ()
    troops_counted: bool = False



@dataclass(frozen=True, slots=True)
class ComboRevealed:
    """A combo appears in the lowest empty row of the market."""

    TYPE: ClassVar[str] = "combo_revealed"
    race: str
    power: str


@dataclass(frozen=True, slots=True)
class BadgesReshuffled:
    """The discarded badges, shuffled into a new badge stack (order drawn outside)."""

    TYPE: ClassVar[str] = "badges_reshuffled"
    BARRIER: ClassVar[bool] = True
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ComboPicked:
    """A player takes the combo in `row` (0 = top), paying one coin on each row above."""

    TYPE: ClassVar[str] = "combo_picked"
    IN_TURN: ClassVar[bool] = True
    seat: int
    row: int
    race: str
    power: str


@dataclass(frozen=True, slots=True)
class ConquestsFinished:
    """The player stops conquering and moves on to troop redeployment."""

    TYPE: ClassVar[str] = "conquests_finished"
    IN_TURN: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class RedeploymentFinished:
    """The player's troops are redeployed; scoring comes next."""

    TYPE: ClassVar[str] = "redeployment_finished"
    IN_TURN: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class RaceDeclined(_WithOptions):
    """The player's active race goes into decline. `options`: each expansion's own part of
    the decline, a frozen dataclass of its module (its `Expansion.decline_type`: the
    Priestesses' Ivory Tower), at most one of each type, read with `option`."""

    TYPE: ClassVar[str] = "race_declined"
    IN_TURN: ClassVar[bool] = True
    seat: int
    options: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnScored:
    """Victory coins earned at the end of a turn, with the itemised lines shown then."""

    TYPE: ClassVar[str] = "turn_scored"
    IN_TURN: ClassVar[bool] = True
    seat: int
    coins: int
    lines: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class CoinsAdjusted:
    """A correction agreed at the table: coins from (positive) or to (negative) the stash."""

    TYPE: ClassVar[str] = "coins_adjusted"
    seat: int
    delta: int
    reason: str


@dataclass(frozen=True, slots=True)
class DieRolled:
    """The reinforcement die was rolled for `purpose` (the face was drawn outside the rules).

    `purpose` is one of `companion.rules.die.DiePurpose`: "final_conquest" (the turn's last
    conquest, of `region`, chosen before the roll), "berserk" (before a Berserk race's next
    conquest), or "unrecorded" (a roll saved by schema 1, before purposes were kept).
    """

    TYPE: ClassVar[str] = "die_rolled"
    IN_TURN: ClassVar[bool] = True
    BARRIER: ClassVar[bool] = True
    seat: int
    face: int
    purpose: str
    region: int | None = None  # the final conquest's region; None for any other purpose


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """The player's turn is over; the next seat plays."""

    TYPE: ClassVar[str] = "turn_ended"
    IN_TURN: ClassVar[bool] = True
    BARRIER: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class RegionConquered:
    """The player's active race (or their Ghouls in decline) takes a region (`tokens`
    deployed there, if counted)."""

    TYPE: ClassVar[str] = "region_conquered"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int
    tokens: int | None = None
    mercenary_coin: bool = False  # a coin paid to the stash for 2 tokens less (Mercenary)
    declined_ghouls: bool = False  # the conqueror is the player's Ghouls in decline
    catapult: bool = False  # shot from the player's Catapult (once a turn; 1 token less)
    sorcery: bool = False  # Sorcerers: a lone active token replaced by one from the tray
    dragon: bool | None = False
    """Dragon Master: the Dragon's conquest (once a turn; the race's fewest tokens, whatever
    defends the region; the Dragon moves there). None: a record of a release before schema
    3, which had no such field and took a Dragon Master's count under the cost as given."""


@dataclass(frozen=True, slots=True)
class TroopsRedeployed:
    """Troop redeployment of one race (`race` of `seat`): the token count of every region
    it holds afterwards, as (region, tokens); what is not placed stays in the hand. The
    player whose turn it is redeploys their active race in the redeployment phase; a
    defender puts the tokens they took back in hand into their other regions before the
    attacker's turn ends."""

    TYPE: ClassVar[str] = "troops_redeployed"
    seat: int
    race: str
    regions: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class RegionAbandoned:
    """The player empties a region of their active race; it is no longer theirs."""

    TYPE: ClassVar[str] = "region_abandoned"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int


@dataclass(frozen=True, slots=True)
class MarkerPlaced:
    """A marker put in a region: a base game's (fortress, troll's lair, encampment, hole,
    hero, the dragon, the Catapult) or an expansion's own piece, by its id
    (`companion.rules.board.Piece`)."""

    TYPE: ClassVar[str] = "marker_placed"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int
    marker: str


@dataclass(frozen=True, slots=True)
class MarkerRemoved:
    """A marker taken out of a region."""

    TYPE: ClassVar[str] = "marker_removed"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int
    marker: str


@dataclass(frozen=True, slots=True)
class RegionSet:
    """A correction at the table: who holds a region now (not a conquest)."""

    TYPE: ClassVar[str] = "region_set"
    region: int
    seat: int | None  # None: nobody holds it
    race: str | None = None
    in_decline: bool = False
    tokens: int | None = None
    lost_tribe: bool = False


@dataclass(frozen=True, slots=True)
class StepUndone:
    """Takes back the latest step still in force (recorded, never erased)."""

    TYPE: ClassVar[str] = "step_undone"


BASE_EVENTS: tuple[type[Event], ...] = (
    GameCreated, ComboRevealed, BadgesReshuffled, ComboPicked, ConquestsFinished,
    RedeploymentFinished, RaceDeclined, TurnScored, CoinsAdjusted, DieRolled, TurnEnded,
    RegionConquered, RegionAbandoned, MarkerPlaced, MarkerRemoved, RegionSet,
    TroopsRedeployed, StepUndone,
)
"""The base game's event classes; each expansion's are its `Expansion.events`."""


def _die_rolled_v1(record: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 saved a die roll without its purpose: it replays as an unrecorded roll,
    which the rules read as the release that saved it did (no region)."""
    return {**record, "purpose": "unrecorded", "region": None}


def _region_conquered_v2(record: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 had no Dragon's conquest of its own: a Dragon Master race's count under the
    cost was taken as given. It replays that way (`dragon` None: not recorded)."""
    return {**record, "dragon": None}


# Upgrades from schema version v to v + 1, keyed by (type, v). Each takes and returns a
# record (the fields, without "type" and "v"); add one for every change of a field.
UPGRADES: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("die_rolled", 1): _die_rolled_v1,  # schema 2: the roll's purpose (and region)
    ("region_conquered", 2): _region_conquered_v2,  # schema 3: the Dragon's conquest
}


class BadRecord(MalformedInput):
    """A stored event record that cannot be read (its `field`: "type", "v" or the
    fields)."""


def _no_types() -> tuple[type[Any], ...]:
    return ()


_decline_types: Callable[[], tuple[type[Any], ...]] = _no_types
"""Where the types of the expansions' parts of a decline come from (`use_decline_types`)."""


def use_decline_types(registered: Callable[[], tuple[type[Any], ...]]) -> None:
    """Write and read a decline's options with the types `registered()` gives, asked each
    time (so an expansion registered for a while is known too); called once, by the
    registry of expansions."""
    global _decline_types
    _decline_types = registered


def _option_kinds(cls: type[Any], options: tuple[type[Any], ...]) -> tuple[type[Any], ...]:
    """The option types whose fields stand beside the own fields of `cls`'s records."""
    if cls is GameCreated:
        return options
    if cls is RaceDeclined:
        return _decline_types()
    return ()


def to_record(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready object (its `options` as their own fields; a decline's
    registered parts always, their defaults when absent)."""
    record: dict[str, Any] = {"type": event.TYPE, "v": SCHEMA_VERSION}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if isinstance(event, GameCreated | RaceDeclined) and field.name == "options":
            if isinstance(event, RaceDeclined):
                for kind in _decline_types():
                    record.update(_plain(kind()))
            for option in value:
                record.update(_plain(option))
        else:
            record[field.name] = _plain(value)
    return record


def read_record(record: Mapping[str, Any], kinds: Mapping[str, type[Event]],
                options: tuple[type[Any], ...] = ()) -> Event:
    """Read an event record of one of `kinds` (by `TYPE`), upgrading it from an older
    schema version if needed (`companion.rules.codec.from_record` gives every kind, and
    the types of the expansions' parts of a `GameCreated`, `options`)."""
    data = dict(record)
    kind = data.pop("type", None)
    version = data.pop("v", None)
    cls = kinds.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadRecord(f"unknown event type {kind!r}; known: {', '.join(kinds)}",
                        field="type", allowed=", ".join(kinds))
    if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
        raise BadRecord(
            f"{kind}: schema version {version!r} is not one this release reads "
            f"(1 to {SCHEMA_VERSION})", field="v", allowed=f"1 to {SCHEMA_VERSION}"
        )
    while version < SCHEMA_VERSION:
        upgrade = UPGRADES.get((kind, version))
        if upgrade is not None:
            data = upgrade(data)
        version += 1
    names, required = _fields_of(cls)
    kinds_beside = _option_kinds(cls, options)
    if cls in (GameCreated, RaceDeclined):  # its options' fields stand beside its own
        names = (names - {"options"}) | {
            f.name for option in kinds_beside for f in dataclasses.fields(option)}
    if not names.issuperset(data) or not required.issubset(data):
        raise BadRecord(f"{kind}: fields {sorted(data)} do not match {sorted(names)}",
                        field="fields", allowed=", ".join(sorted(names)))
    if cls in (GameCreated, RaceDeclined):
        data["options"] = _options(data, kinds_beside)
    if cls is GameCreated:
        data["seats"] = [Seat(**seat) for seat in data["seats"]]
    event: Event = cls(**{k: _frozen(v) for k, v in data.items()})
    return event


@functools.cache
def _fields_of(cls: type[Any]) -> tuple[frozenset[str], frozenset[str]]:
    """(the names of an event class's fields, those of the fields a record must give)."""
    fields = dataclasses.fields(cls)
    return (frozenset(f.name for f in fields),
            frozenset(f.name for f in fields if f.default is dataclasses.MISSING))


def _options(data: dict[str, Any], kinds: tuple[type[Any], ...]) -> tuple[object, ...]:
    """The expansions' parts of a record, their fields taken out of `data`: one of each of
    `kinds` whose fields the record holds, unless they are all its defaults (a game record
    saved before `options` wrote every expansion's fields, played or not; a decline record
    writes every part's, its defaults when absent)."""
    found: list[object] = []
    for kind in kinds:
        given = {f.name: _frozen(data.pop(f.name)) for f in dataclasses.fields(kind)
                 if f.name in data}
        option = kind(**given)
        if given and option != kind():
            found.append(option)
    return tuple(found)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def is_barrier(step: tuple[Event, ...]) -> bool:
    """Undo stops at a step that drew randomness or ended a turn (or created the game)."""
    return any(getattr(e, "BARRIER", False) for e in step)
