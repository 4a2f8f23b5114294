"""`companion play`: a whole game from JSON lines, without a screen.

The input is one JSON object per line. The first (non-blank) line sets up the game: the
players, the board, the banner and badge sets, the first player, the race and badge decks in
order (and the expansions' own fields, each read by its `companion.play_parts.PlayPart`; or a
`seed` that shuffles them) and the faces the reinforcement die will show, in order. Every
later line is an intent the table could give, `{"do": VERB, ...fields}`, carried out
through the public `companion.session.Session` API, exactly as the touchscreen does.
For each input line one JSON line is printed: the public state after it, or
`{"refused": REASON}` when the rules refuse the intent. The format is
`docs/play-format.md`. A game counts its troops (`GameCreated.troops_counted`): every race
is printed with its tokens on the board, in hand, set aside and in the tray, as the ledger
(`companion.rules.troops`) keeps them; nothing here counts tokens itself.

Invariants:
- deterministic: the same input prints the same output. Nothing is drawn from the system's
  randomness: the decks come from the first line (or its seed), a badge reshuffle from the
  same seed, and each die face from the `die` list; a roll when that list is used up is
  refused, never made up;
- a refused intent changes nothing: neither the game nor the die faces still to come;
- the printed state is public: no purse total appears before the game is over (then every
  total, and the final standings after `finish`);
- a malformed line (not JSON, an unknown verb, a missing, unknown or wrongly typed field)
  stops the run with `BadLine`, naming the line number, the field and what is allowed; the
  lines before it have been played and printed;
- `VERBS` is the one table of intents: a verb is one entry, its typed fields and the
  session call it makes; an expansion's verbs are its intent methods, their fields derived
  from the methods' parameters (`_intent_verb`), and its first-line fields and printed part
  are its `companion.play_parts.PlayPart`, in `PARTS`' order, so this module names no
  expansion.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar, get_origin, get_type_hints

from companion.json_fields import BadInput, a_list, fail, flag, one_of, show, text, whole
from companion.play_parts import PARTS, DocSetup, PlayPart
from companion.rules import corrections, troops_game
from companion.rules.board import Occupant, placed_markers
from companion.rules.catalog import Catalog
from companion.rules.errors import DataError, IllegalAction, MalformedInput, UnknownName
from companion.rules.events import GameCreated, Seat
from companion.rules.expansions import apart, board_players_for
from companion.rules.game import GameState
from companion.rules.maps import Board, board_document, load_board, parse_board_text
from companion.rules.said import N_, Said, as_said, said, said_n
from companion.rules.standings import Standings, tokens_on_board
from companion.rules.views import final_totals, public
from companion.session import Session
from companion.ui.palette import COLOUR_NAMES

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

_T = TypeVar("_T")

MIN_PLAYERS = 2
MAX_PLAYERS = 5
DEFAULT_COLOURS = COLOUR_NAMES
"""The colours given to players who name none, in this order (the table's own palette)."""


WHOLE_LINE = ""
"""The field of a fault in the line as a whole (not JSON, not an object)."""


class BadLine(Exception):
    """A malformed input line: its number, the field at fault and what is wrong.

    `str()` is the English; `said` the same message as a sentence the command words in its
    ``--lang`` language (the field's name a value, never translated)."""

    def __init__(self, line: int, field: str, problem: str | Said) -> None:
        sentence = as_said(problem)
        self.said = (said("line {line}: {problem}", line=line, problem=sentence)
                     if field == WHOLE_LINE else
                     said("line {line}: {field}: {problem}", line=line, field=field,
                          problem=sentence))
        super().__init__(str(self.said))
        self.line = line
        self.field = field
        self.problem = str(problem)


# --- the die ---------------------------------------------------------------------------


class ScriptedDie(random.Random):
    """A `random.Random` whose die rolls are the faces given, in order.

    The session rolls the reinforcement die with `choice(die_faces)`: each such call takes
    the next scripted face, and is refused (`IllegalAction`) when they are used up. Shuffles
    (a badge reshuffle) come from the seeded generator itself, so they too are repeatable.
    """

    def __init__(self, seed: int, faces: Sequence[int]) -> None:
        super().__init__(seed)
        self.faces = tuple(faces)
        self.used = 0

    def choice(self, seq: SupportsLenAndGetItem[_T]) -> _T:
        if self.used >= len(self.faces):
            given = len(self.faces)
            raise IllegalAction(
                f"no die face is left: the first line's \"die\" gave {given} "
                f"face{'' if given == 1 else 's'} and all are rolled; add faces to \"die\""
            )
        face = self.faces[self.used]
        for index in range(len(seq)):
            if seq[index] == face:
                self.used += 1
                return seq[index]
        raise IllegalAction(f"the scripted face {face} is not a face of this die")

    def mark(self) -> tuple[int, tuple[Any, ...]]:
        """Where the die and the generator stand, to go back to after a refusal."""
        return self.used, self.getstate()

    def back_to(self, mark: tuple[int, tuple[Any, ...]]) -> None:
        self.used, state = mark
        self.setstate(state)


# --- typed fields ----------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What a field holds: `what` names it in messages; `parse` checks and converts."""

    what: Said
    parse: Callable[[str, object], object]


_whole = whole


def _integer(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(field, said("expected a whole number (negative allowed), got {value}",
                         value=show(value)))
    return value


_text = text


def _counts(field: str, value: object) -> dict[int, int]:
    if not isinstance(value, dict):
        fail(field, said('expected an object of counts such as {{"7": 3}}, got {value}',
                         value=show(value)))
    counts: dict[int, int] = {}
    for key, count in value.items():
        if not key.isdigit():
            fail(f"{field}.{key}", said('a key is a number written as a string, such as "7"'))
        counts[int(key)] = _whole(f"{field}.{key}", count)
    return counts


def _maybe(kind: Kind) -> Kind:
    def parse(field: str, value: object) -> object:
        return None if value is None else kind.parse(field, value)

    return Kind(said("{kind}, or null", kind=kind.what), parse)


def _one_of(what: Said, choices: Sequence[str]) -> Kind:
    """A choice among `choices` (ids, shown as they are); `what` names it ("marker")."""
    def parse(field: str, value: object) -> object:
        return one_of(field, value, what, choices)

    return Kind(said("{what} ({choices})", what=what, choices=", ".join(choices)), parse)


WHOLE = Kind(said("a whole number, 0 or more"), _whole)
REGION = Kind(said("a region id of the board (1 or more)"), lambda f, v: _whole(f, v, 1))
ROW = Kind(said("a market row, 1 at the top"), lambda f, v: _whole(f, v, 1))
SEAT = Kind(said("a seat, 0 for the first player listed"), _whole)
INTEGER = Kind(said("a whole number (negative allowed)"), _integer)
FLAG = Kind(said("true or false"), flag)
TEXT = Kind(said("a non-empty string"), _text)
COUNTS = Kind(said('an object of counts by id, such as {{"7": 3}}'), _counts)
MARKER = _one_of(said("marker"), placed_markers())


@dataclass(frozen=True)
class Field:
    """One field of an intent: its name, its kind, and its value when left out."""

    name: str
    kind: Kind
    required: bool = True
    default: object = None


class Args:
    """An intent's fields, checked and converted; read back with their type."""

    def __init__(self, values: Mapping[str, object], added: Sequence[str] = ()) -> None:
        self._values = dict(values)
        self._added = tuple(added)

    def added(self) -> tuple[Any, ...]:
        """The values of the fields the expansions added to this base verb, in order."""
        return tuple(self._values[name] for name in self._added)

    def value(self, name: str) -> object:
        return self._values[name]

    def of(self, name: str, kind: type[_T]) -> _T:
        """The field's value, of `kind` (its `Kind` checked it)."""
        value = self._values[name]
        assert isinstance(value, kind)
        return value

    def maybe(self, name: str, kind: type[_T]) -> _T | None:
        """The field's value, of `kind`, or None (its `Kind` checked it)."""
        value = self._values[name]
        assert value is None or isinstance(value, kind)
        return value


# --- the intents -----------------------------------------------------------------------

Call = Callable[[Session, Args], Standings | None]


@dataclass(frozen=True)
class Verb:
    """One intent: what it does (for messages and the docs), its fields, its session call."""

    help: str
    fields: tuple[Field, ...]
    call: Call
    added: tuple[str, ...] = ()
    """The fields an expansion added to this base verb (`PlayPart.added`),
    passed to its session call after the base game's (`Args.added`)."""


def _no_fields(method: Callable[[Session], object]) -> Call:
    """The call of an intent without fields: `method` of the session."""
    def call(s: Session, a: Args) -> None:
        method(s)

    return call


def _pick(s: Session, a: Args) -> None:
    s.pick(a.of("row", int) - 1)


def _reveal(s: Session, a: Args) -> None:
    s.reveal(a.of("race", str), a.of("power", str))


def _conquer(s: Session, a: Args) -> None:
    s.conquer(a.of("region", int), a.maybe("tokens", int),
              mercenary_coin=a.of("mercenary_coin", bool), catapult=a.of("catapult", bool),
              declined_ghouls=a.of("ghouls", bool), sorcery=a.of("sorcery", bool),
              dragon=a.of("dragon", bool))


def _abandon(s: Session, a: Args) -> None:
    s.abandon(a.of("region", int))


def _decline(s: Session, a: Args) -> None:
    s.decline(*a.added())


def _final_conquest(s: Session, a: Args) -> None:
    # the game counts its troops: the tokens left are those the ledger has in hand
    s.attempt_final_conquest(a.of("region", int), tokens_left=0)


def _redeploy(s: Session, a: Args) -> None:
    s.redeploy(a.of("regions", dict), seat=a.maybe("seat", int), race=a.maybe("race", str))


def _spread_hand(s: Session, a: Args) -> None:
    s.spread_hand(seat=a.maybe("seat", int), race=a.maybe("race", str))


def _score(s: Session, a: Args) -> None:
    s.score(a.maybe("coins", int))


def _place_marker(s: Session, a: Args) -> None:
    s.place_marker(a.of("region", int), a.of("marker", str))


def _remove_marker(s: Session, a: Args) -> None:
    s.remove_marker(a.of("region", int), a.of("marker", str))


def _set_region(s: Session, a: Args) -> None:
    s.set_region(a.of("region", int), a.maybe("seat", int), a.maybe("race", str),
                 in_decline=a.of("in_decline", bool), tokens=a.maybe("tokens", int),
                 lost_tribe=a.of("lost_tribe", bool))


def _adjust_coins(s: Session, a: Args) -> None:
    s.adjust_coins(a.of("seat", int), a.of("delta", int), a.of("reason", str))


def _finish(s: Session, a: Args) -> Standings:
    return s.finish(_tie_break_tokens(s, a.maybe("tokens", dict)))


def _tie_break_tokens(s: Session, given: dict[int, int] | None) -> dict[int, int] | None:
    """The tokens on the board for a tie for first: as given, else as the board records
    them (None when a tied seat's regions do not all record their count)."""
    if given is not None:
        return given
    counted: dict[int, int] = {}
    for seat in s.tied_for_first():
        tokens = tokens_on_board(s.state.regions.regions, seat)
        if tokens is None:
            return None  # the session refuses, naming whose tokens to count
        counted[seat] = tokens
    return counted


def _intent_verb(part: PlayPart, method: Callable[..., object]) -> Verb:
    """An expansion's intent method as a verb: a field per parameter, of the parameter's
    name, its kind from its type (a `region` or a `seat` by its name; a choice of the
    part's `choices`), left out when it has a default; the call passes them in order."""
    hints = get_type_hints(method)
    fields: list[Field] = []
    for name, parameter in list(inspect.signature(method).parameters.items())[1:]:
        hint = hints[name]
        kind = (_one_of(Said(part.choices[name][0]), part.choices[name][1])
                if name in part.choices else
                COUNTS if get_origin(hint) is Mapping else FLAG if hint is bool else
                TEXT if hint is str else REGION if name == "region" else
                SEAT if name == "seat" else WHOLE)
        default = parameter.default
        fields.append(Field(name, kind) if default is parameter.empty else
                      Field(name, kind, required=False, default=default))
    names = tuple(field.name for field in fields)

    def call(s: Session, a: Args) -> None:
        method(s, *(a.value(name) for name in names))

    return Verb(" ".join((method.__doc__ or "").split()), tuple(fields), call)


VERBS: dict[str, Verb] = {
    "pick": Verb("take the combo in a market row, paying a coin on each row above",
                 (Field("row", ROW),), _pick),
    "reveal": Verb("table dealing: the combo the table turned up for the lowest empty row",
                   (Field("race", TEXT), Field("power", TEXT)), _reveal),
    "conquer": Verb("the active race (or Ghouls in decline) takes a region", (
        Field("region", REGION),
        Field("tokens", _maybe(WHOLE), required=False),
        Field("mercenary_coin", FLAG, required=False, default=False),
        Field("catapult", FLAG, required=False, default=False),
        Field("ghouls", FLAG, required=False, default=False),
        Field("sorcery", FLAG, required=False, default=False),
        Field("dragon", FLAG, required=False, default=False),
    ), _conquer),
    "abandon": Verb("empty a region of the active race before conquering",
                    (Field("region", REGION),), _abandon),
    "decline": Verb("the active race goes into decline instead of conquering",
                    (), _decline),
    "finish_conquests": Verb("no more conquests this turn; redeployment next", (),
                             _no_fields(Session.finish_conquests)),
    "final_conquest": Verb("roll the reinforcement die (its next face) for a last conquest "
                           "of `region` with the tokens left in hand",
                           (Field("region", REGION),), _final_conquest),
    "roll_for_berserk": Verb("Berserk: roll the die (its next face) before the next "
                             "conquest; the face comes off that conquest's cost", (),
                             _no_fields(Session.roll_for_berserk)),
    "redeploy": Verb("troop redeployment: the tokens of every region of the race afterwards "
                     "(the active race; or a defender's `seat` and `race`, putting back the "
                     "tokens in their hand before the attacker's turn ends)", (
                         Field("regions", COUNTS),
                         Field("seat", _maybe(SEAT), required=False),
                         Field("race", _maybe(TEXT), required=False),
                     ), _redeploy),
    "spread_hand": Verb("the tokens in hand go into the race's regions, fewest first (the "
                        "active race, or a defender's `seat` and `race`)", (
                            Field("seat", _maybe(SEAT), required=False),
                            Field("race", _maybe(TEXT), required=False),
                        ), _spread_hand),
    "finish_redeployment": Verb("the troops stand where they are; scoring next", (),
                                _no_fields(Session.finish_redeployment)),
    "score": Verb("the turn's Victory coins: counted from the board, or `coins` as given",
                  (Field("coins", _maybe(WHOLE), required=False),), _score),
    "end_turn": Verb("the turn passes to the next seat", (), _no_fields(Session.end_turn)),
    "undo": Verb("take back the last step (not past a die roll or another player's turn)",
                 (), _no_fields(Session.undo)),
    "redo": Verb("put back the step the last undo took back (only while nothing else was "
                 "done since)", (), _no_fields(Session.redo)),
    "place_marker": Verb("put a marker in a region",
                         (Field("region", REGION), Field("marker", MARKER)), _place_marker),
    "remove_marker": Verb("take a marker out of a region",
                          (Field("region", REGION), Field("marker", MARKER)), _remove_marker),
    **{name: _intent_verb(part, method) for part in PARTS if part.intents is not None
       for name, method in vars(part.intents).items()
       if not name.startswith("_") and callable(method)},
    "set_region": Verb("correct who holds a region (not a conquest)", (
        Field("region", REGION),
        Field("seat", _maybe(SEAT)),
        Field("race", _maybe(TEXT), required=False),
        Field("in_decline", FLAG, required=False, default=False),
        Field("tokens", _maybe(WHOLE), required=False),
        Field("lost_tribe", FLAG, required=False, default=False),
    ), _set_region),
    "adjust_coins": Verb("a correction agreed at the table: coins to (+) or from (-) a purse",
                         (Field("seat", SEAT), Field("delta", INTEGER), Field("reason", TEXT)),
                         _adjust_coins),
    "finish": Verb("the final standings, once the last turn is over; `tokens` by seat "
                   "breaks a tie for first (else the counts the board records)",
                   (Field("tokens", _maybe(COUNTS), required=False),), _finish),
}
"""Every intent `companion play` understands, by the name given in `"do"`."""
for _added in (added for part in PARTS for added in part.added):
    _base = VERBS[_added.verb]
    VERBS[_added.verb] = Verb(_base.help, (*_base.fields, Field(
        _added.name, _maybe(REGION), required=False)), _base.call, (*_base.added, _added.name))

COMMON_FIELDS = frozenset({"do", "note"})
"""Fields every intent may carry: the verb, and a note for the reader (ignored)."""


def parse_intent(doc: object) -> tuple[Verb, Args]:
    """The verb and checked fields of one intent line (already decoded)."""
    if not isinstance(doc, dict):
        fail(WHOLE_LINE, said('expected an object such as {{"do": "end_turn"}}, got {value}',
                              value=show(doc)))
    if "do" not in doc:
        fail("do", said("missing; the verbs are: {verbs}", verbs=", ".join(VERBS)))
    name = doc["do"]
    if not isinstance(name, str) or name not in VERBS:
        fail("do", said("unknown verb {value}; the verbs are: {verbs}", value=show(name),
                        verbs=", ".join(VERBS)))
    verb = VERBS[name]
    known = {f.name: f for f in verb.fields}
    for key in doc:
        if key not in known and key not in COMMON_FIELDS:
            fail(key, said("unknown field for {verb}; it takes: {allowed} (and note)",
                           verb=name, allowed=", ".join(known)) if known else
                 said("unknown field for {verb}; it takes: no fields (and note)", verb=name))
    if "note" in doc and not isinstance(doc["note"], str):
        fail("note", said("expected a string, got {value}", value=show(doc["note"])))
    values: dict[str, object] = {}
    for field in verb.fields:
        if field.name not in doc:
            if field.required:
                fail(field.name, said("missing; {verb} needs {field}: {what}", verb=name,
                                      field=field.name, what=field.kind.what))
            values[field.name] = field.default
            continue
        values[field.name] = field.kind.parse(field.name, doc[field.name])
    return verb, Args(values, verb.added)


# --- the first line: the game ----------------------------------------------------------

SETUP_FIELDS = ("players", "board", "expansions", "left_out", "dealing", "first_seat",
                "races", "powers", *(name for part in PARTS for name in part.fields),
                "seed", "die", "note")


@dataclass(frozen=True)
class Setup:
    """What the first line asks for, checked."""

    created: GameCreated
    seed: int
    die: tuple[int, ...]


def parse_setup(doc: object, catalog: Catalog) -> Setup:
    """The game the first line describes, checked field by field."""
    if not isinstance(doc, dict):
        fail(WHOLE_LINE, said('expected the game as an object such as {{"players": ["Ann", '
                              '"Bob"]}}, got {value}', value=show(doc)))
    if "do" in doc:
        fail("do", said("the first line sets up the game; intents come on the lines after it"))
    for key in doc:
        if key not in SETUP_FIELDS:
            fail(key, said("unknown field for the game; allowed: {allowed}",
                           allowed=", ".join(SETUP_FIELDS)))
    asked = {part.key: part.asked(doc) for part in PARTS}
    together = apart(key for key, on in asked.items() if on)
    if together is not None:
        fail(*together)
    seats = _seats(doc, _player_counts(asked))
    board, board_doc = _board(doc, board_players_for(len(seats), asked), asked)
    expansions = _expansions(doc, catalog)
    races = [r.name for r in catalog.races_in(expansions)]
    powers = [p.name for p in catalog.powers_in(expansions)]
    left_out = _listed_once(doc, "left_out", said("race or power of the chosen sets"),
                            races + powers, [])
    races = [r for r in races if r not in left_out]
    powers = [p for p in powers if p not in left_out]
    dealing = str(_one_of(said("dealing"), ("app", "table")).parse("dealing",
                                                                  doc.get("dealing", "app")))
    seed = None if doc.get("seed") is None else _integer("seed", doc["seed"])
    shuffler = random.Random(seed)
    race_deck = _deck(doc, "races", "race", races, catalog.race, shuffler, seed, dealing)
    power_deck = _deck(doc, "powers", "power", powers, catalog.power, shuffler, seed, dealing)
    parts = DocSetup(asked, board, catalog, power_deck, seed, shuffler.shuffle)
    for part in PARTS:  # their fields, in order (so are their shuffles)
        parts = part.setup(doc, parts)
    first = _whole("first_seat", doc.get("first_seat", 0))
    if first >= len(seats):
        fail("first_seat", said("{seat} is not a seat; seats are 0 to {last}", seat=first,
                                last=len(seats) - 1))
    faces = set(catalog.die_faces)
    die = tuple(
        _die_face(f"die[{i}]", face, faces)
        for i, face in enumerate(a_list("die", doc.get("die", [])))
    )
    created = GameCreated(
        seats=seats, first_seat=first, board=board.name, turns=board.turns,
        expansions=tuple(expansions), dealing=dealing, races=race_deck, powers=parts.powers,
        board_doc=board_doc, options=parts.options, corrections=corrections.overrides(catalog),
        left_out=tuple(left_out), troops_counted=True,
    )
    return Setup(created, 0 if seed is None else seed, die)


def _player_counts(asked: Mapping[str, bool | None]) -> tuple[int, int, str]:
    """The fewest and most players, and the game they are counted for (an expansion
    asked for may say)."""
    for part in PARTS:
        counts = part.players(asked.get(part.key))
        if counts is not None:
            return counts
    return MIN_PLAYERS, MAX_PLAYERS, N_("a game")


def _seats(doc: Mapping[str, Any], counts: tuple[int, int, str]) -> tuple[Seat, ...]:
    least, most, game = counts  # `game` marked N_ where it is written ("a team game")
    if "players" not in doc:
        fail("players", said("missing: {n} players, in seat order", n=least) if least == most
             else said("missing: {least} to {most} players, in seat order", least=least,
                       most=most))
    entries = a_list("players", doc["players"])
    if not least <= len(entries) <= most:
        # the English says "1 players" (as it always has); a language's own forms may differ
        fail("players", said_n("{n} players; {game} has {most}",
                               "{n} players; {game} has {most}", len(entries),
                               game=Said(game), most=most) if least == most else
             said_n("{n} players; {game} has {least} to {most}",
                    "{n} players; {game} has {least} to {most}", len(entries),
                    game=Said(game), least=least, most=most))
    named: list[tuple[str, str | None]] = []
    for i, entry in enumerate(entries):
        field = f"players[{i}]"
        if isinstance(entry, str):
            named.append((_text(field, entry).strip(), None))
            continue
        if not isinstance(entry, dict):
            fail(field, said('expected a name or {{"name": ..., "colour": ...}}, got {value}',
                             value=show(entry)))
        for key in entry:
            if key not in ("name", "colour"):
                fail(f"{field}.{key}", said("unknown field for a player; allowed: name, colour"))
        if "name" not in entry:
            fail(f"{field}.name", said("missing: every player needs a name"))
        name = _text(f"{field}.name", entry["name"]).strip()
        colour = entry.get("colour")
        named.append((name, None if colour is None else _text(f"{field}.colour", colour).strip()))
    seen: dict[str, int] = {}
    for i, (name, _) in enumerate(named):
        if name.casefold() in seen:
            fail(f"players[{i}]", said("{name} is also the name of players[{other}]; give "
                                       "each player a different name", name=repr(name),
                                       other=seen[name.casefold()]))
        seen[name.casefold()] = i
    taken = [colour for _, colour in named if colour is not None]
    for i, colour in enumerate(taken):
        if colour in taken[:i]:
            fail("players", said("two players have the colour {colour}; each needs their own",
                                 colour=repr(colour)))
    free = iter(c for c in DEFAULT_COLOURS if c not in taken)
    return tuple(Seat(name, colour if colour is not None else next(free))
                 for name, colour in named)


def _board(doc: Mapping[str, Any], players: int,
           asked: Mapping[str, bool | None]) -> tuple[Board, str | None]:
    value = doc.get("board", f"{players}p")
    board_doc: str | None = None
    try:
        if isinstance(value, str):
            board = load_board(value)
        elif isinstance(value, dict):
            board_doc = board_document(json.dumps(value), source="the board on line 1")
            board = parse_board_text(board_doc, source="the board on line 1")
        else:
            fail("board", said('expected a board name ("2p" to "5p") or a board document, '
                               "got {value}", value=show(value)))
    except (UnknownName, DataError) as error:
        fail("board", error.said)
    own = board_doc is not None
    fits = any(x.board_fits(asked.get(x.key), board, own) for x in PARTS)
    if board.players != players and not fits:
        fail("board", said("the {board} board is made for {made} players; this game needs "
                           "the one for {players}", board=board.name, made=board.players,
                           players=players))
    return board, board_doc


def _expansions(doc: Mapping[str, Any], catalog: Catalog) -> list[str]:
    chosen = _listed_once(doc, "expansions", said("expansion"),
                          [ident for ident, _ in catalog.expansions], ["base"])
    if "base" not in chosen:
        fail("expansions", said("the base game's banners and badges are always in the "
                                'decks; list "base"'))
    return chosen


def _listed_once(doc: Mapping[str, Any], key: str, what: Said, choices: Sequence[str],
                 default: list[str]) -> list[str]:
    """The list `key` of the first line: each a name of `choices` (`what`), none twice."""
    chosen: list[str] = []
    for i, value in enumerate(a_list(key, doc.get(key, default))):
        name = str(_one_of(what, choices).parse(f"{key}[{i}]", value))
        if name in chosen:
            fail(f"{key}[{i}]", said("{name} is listed twice", name=name))
        chosen.append(name)
    return chosen


def _deck(doc: Mapping[str, Any], key: str, kind: str, expected: list[str],
          lookup: Callable[[str], Any], shuffler: random.Random, seed: int | None,
          dealing: str) -> tuple[str, ...]:
    """A deck as the first line gives it (checked: every card of the chosen sets once), or
    the chosen sets' cards shuffled with the seed (in catalog order for table dealing)."""
    if key not in doc:
        if dealing == "table":
            return tuple(expected)
        if seed is None:
            fail(key, said('missing: give the race deck in order (top first), or a "seed" to '
                           "shuffle it") if kind == "race" else
                 said('missing: give the power deck in order (top first), or a "seed" to '
                      "shuffle it"))
        deck = list(expected)
        shuffler.shuffle(deck)
        return tuple(deck)
    deck = []
    for i, value in enumerate(a_list(key, doc[key])):
        field = f"{key}[{i}]"
        try:
            name = str(lookup(_text(field, value)).name)
        except UnknownName as error:
            fail(field, error.said)
        if name not in expected:
            fail(field, said("{name} is not in the decks of this game (the chosen expansions, "
                             "less left_out)", name=name))
        if name in deck:
            fail(field, said("{name} is in the deck twice", name=name))
        deck.append(name)
    missing = [name for name in expected if name not in deck]
    if missing:
        fail(key, said("the deck must hold every race of the chosen sets once; missing: "
                       "{missing}", missing=", ".join(missing)) if kind == "race" else
             said("the deck must hold every power of the chosen sets once; missing: "
                  "{missing}", missing=", ".join(missing)))
    return tuple(deck)


def _die_face(field: str, value: object, faces: set[int]) -> int:
    face = _whole(field, value)
    if face not in faces:
        fail(field, said("the reinforcement die has no face {face}; its faces are {faces}",
                         face=face, faces=", ".join(str(f) for f in sorted(faces))))
    return face


# --- the printed state -----------------------------------------------------------------


def public_state(state: GameState, standings: Standings | None = None) -> dict[str, Any]:
    """What a line prints after an intent: the public side of the game (purses only once
    the game is over; the standings after `finish`)."""
    view = public(state)
    totals = dict(final_totals(state)) if state.is_over else None
    players: list[dict[str, Any]] = []
    for player in state.players:
        entry: dict[str, Any] = {"seat": player.seat, "name": player.name,
                                 "colour": player.colour}
        active = player.active
        entry["active"] = None if active is None else _race(state, player.seat, active.race,
                                                            active.power)
        entry["declined"] = [_race(state, player.seat, d.race, d.power)
                             for d in player.declined]
        if totals is not None:
            entry["coins"] = totals[player.name]
        players.append(entry)
    doc: dict[str, Any] = {
        "turn": view.turn,
        "turns": view.turns,
        "seat": None if view.game_over else view.current_seat,
        "player": None if view.game_over else state.players[view.current_seat].name,
        "phase": view.phase.name.lower(),
        "may_decline": view.may_decline,
        "last_roll": state.last_roll,
        "market": [{"row": row.row + 1, "race": row.race, "power": row.power,
                    "tokens": row.tokens, "cost": row.cost, "coins": row.coins}
                   for row in view.market],
        "combos_owed": view.combos_owed,
        "players": players,
        "regions": _regions(state),
        "hands_to_place": [{"seat": seat, "race": race, "hand": hand}
                           for seat, race, hand in troops_game.waiting_hands(state)],
        **{x.key: x.printed(state) for x in PARTS if x.printed is not None},
    }
    if standings is not None:
        names = {p.seat: p.name for p in state.players}
        doc["standings"] = {
            "placings": [{"rank": p.rank, "seat": p.seat, "name": names[p.seat],
                          "coins": p.coins, "tokens": p.tokens} for p in standings.placings],
            "winners": sorted(standings.winners),
            "reason": str(standings.reason),
        }
    return doc


def _race(state: GameState, seat: int, race: str, power: str) -> dict[str, Any]:
    """One race of a player as printed: its combo and where its tokens are (the ledger's
    count: on the board, in hand, set aside, back in the tray)."""
    entry: dict[str, Any] = {"race": race, "power": power}
    count = troops_game.race_count(state, seat, race)
    if count is not None:
        entry.update(on_board=count.on_board, hand=count.hand, aside=count.aside,
                     tray=count.tray)
    return entry


def _regions(state: GameState) -> list[dict[str, Any]]:
    """Every region that is not empty or carries a marker, by id."""
    out: list[dict[str, Any]] = []
    for region_id, region in sorted(state.regions.regions.items()):
        entry: dict[str, Any] = {"region": region_id}
        occupant: Occupant | None = region.occupant
        if occupant is not None:
            entry.update(seat=occupant.seat, race=occupant.race,
                         in_decline=occupant.in_decline, tokens=occupant.tokens)
        if region.lost_tribe:
            entry["lost_tribe"] = True
        placed = list(region.markers.shown())
        if region.markers.encampments > 1:
            entry["encampments"] = region.markers.encampments
        if placed:
            entry["markers"] = placed
        if len(entry) > 1:
            out.append(entry)
    return out


# --- the run ---------------------------------------------------------------------------


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            fail(key, said("given twice in one object; give each field once"))
        found[key] = value
    return found


def _decode(text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_no_twice)
    except json.JSONDecodeError as error:
        fail(WHOLE_LINE, said("not JSON: {reason} at column {column}; each line is one JSON "
                              "object", reason=error.msg, column=error.colno))
    except (RecursionError, ValueError) as error:
        fail(WHOLE_LINE, said("not JSON this command reads ({error})",
                              error=type(error).__name__))


def play(lines: Iterable[str], out: IO[str], catalog: Catalog) -> None:
    """Play the game the lines describe, printing one JSON line to `out` per input line
    (blank lines are skipped but counted). Raises `BadLine` at the first malformed line."""
    session: Session | None = None
    die: ScriptedDie | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            doc = _decode(raw)
            if session is None or die is None:
                setup = parse_setup(doc, catalog)
                die = ScriptedDie(setup.seed, setup.die)
                session = Session(catalog, die, store=None)
                try:
                    state = session.begin(setup.created)
                except (IllegalAction, MalformedInput, UnknownName) as refused:
                    fail(WHOLE_LINE, said("the game cannot be set up: {reason}",
                                          reason=refused.said))
                _print(out, public_state(state))
                continue
            verb, args = parse_intent(doc)
        except BadInput as fault:
            raise BadLine(number, fault.field, fault.problem_said) from None
        _print(out, _carry_out(session, die, verb, args))


def _carry_out(session: Session, die: ScriptedDie, verb: Verb, args: Args) -> dict[str, Any]:
    mark = die.mark()
    try:
        standings = verb.call(session, args)
    except (IllegalAction, MalformedInput, UnknownName) as refused:  # the session kept its state
        die.back_to(mark)
        return {"refused": refused.reason}
    return public_state(session.state, standings)


def _print(out: IO[str], doc: Mapping[str, Any]) -> None:
    out.write(json.dumps(doc) + "\n")
    out.flush()
