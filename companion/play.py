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
- a verb is an intent method: the session's (`VERBS` lists them in order, with what each
  does, and adapts the few whose line differs from the method) or an expansion's intents;
  its fields are always derived from the method's parameters and type hints (`_verb`), so
  no field is written twice. An expansion's first-line fields and printed part are its
  `companion.play_parts.PlayPart`, in `PARTS`' order, so this module names no expansion.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar, get_args, get_origin, get_type_hints

from companion.json_fields import BadInput, a_list, a_string, fail, flag, one_of, show, text, whole
from companion.play_parts import PARTS, DocSetup
from companion.rules import corrections, troops_game
from companion.rules.board import Occupant, placed_markers
from companion.rules.catalog import Catalog
from companion.rules.errors import DataError, IllegalAction, MalformedInput, UnknownName
from companion.rules.events import GameCreated, Seat
from companion.rules.expansions import apart, board_players_for
from companion.rules.game import GameState
from companion.rules.maps import Board, board_document, load_board, parse_board_text
from companion.rules.said import N_, Said, said, said_n
from companion.rules.standings import Standings, tokens_on_board
from companion.rules.views import final_totals, public
from companion.session import FinalAttempt, Session
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
    """A malformed input line: its number and the fault in it (the field and what is wrong).

    `str()` is the English; `said` the same message as a sentence the command words in its
    ``--lang`` language (the field's name a value, never translated)."""

    def __init__(self, line: int, fault: BadInput) -> None:
        problem = fault.problem_said
        self.said = (said("line {line}: {problem}", line=line, problem=problem)
                     if fault.field == WHOLE_LINE else
                     said("line {line}: {field}: {problem}", line=line, field=fault.field,
                          problem=problem))
        super().__init__(str(self.said))


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


def _integer(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(field, said("expected a whole number (negative allowed), got {value}",
                         value=show(value)))
    return value


def _counts(field: str, value: object) -> dict[int, int]:
    if not isinstance(value, dict):
        fail(field, said('expected an object of counts such as {{"7": 3}}, got {value}',
                         value=show(value)))
    counts: dict[int, int] = {}
    for key, count in value.items():
        if not key.isdigit():
            fail(f"{field}.{key}", said('a key is a number written as a string, such as "7"'))
        counts[int(key)] = whole(f"{field}.{key}", count)
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


WHOLE = Kind(said("a whole number, 0 or more"), whole)
FLAG = Kind(said("true or false"), flag)
TEXT = Kind(said("a non-empty string"), text)
COUNTS = Kind(said('an object of counts by id, such as {{"7": 3}}'), _counts)
BY_NAME: dict[str, Kind] = {
    "region": Kind(said("a region id of the board (1 or more)"), lambda f, v: whole(f, v, 1)),
    # a line counts the market's rows from 1, the session from 0
    "row": Kind(said("a market row, 1 at the top"), lambda f, v: whole(f, v, 1) - 1),
    "seat": Kind(said("a seat, 0 for the first player listed"), whole),
    "delta": Kind(said("a whole number (negative allowed)"), _integer),
    "marker": _one_of(said("marker"), placed_markers()),
}
"""The kinds a parameter's name alone says (whatever its type hint)."""


@dataclass(frozen=True)
class Field:
    """One field of an intent: its name, its kind, its value when left out (unless
    `required`) and the parameter of the intent method it fills."""

    name: str
    kind: Kind
    required: bool
    default: object
    parameter: str


# --- the intents -----------------------------------------------------------------------


@dataclass(frozen=True)
class Verb:
    """One intent: what it does (for messages and the docs), its fields, and the intent
    method it calls (the session first, then a value for each field's parameter)."""

    help: str
    fields: tuple[Field, ...]
    method: Callable[..., object]

    def call(self, session: Session, values: Mapping[str, object]) -> Standings | None:
        """Carry out the intent with its fields' checked `values`; the standings, if any."""
        result = self.method(session, **{f.parameter: values[f.name] for f in self.fields})
        return result if isinstance(result, Standings) else None


def _kind(name: str, hint: object, choices: Mapping[str, tuple[str, tuple[str, ...]]]) -> Kind:
    """A parameter's kind: one of the part's `choices`, else by its name (`BY_NAME`), else
    by its type hint; a hint that allows None allows null."""
    if name in choices:
        what, words = choices[name]
        return _one_of(Said(what), words)
    args = get_args(hint)
    if type(None) in args:
        (hint,) = (arg for arg in args if arg is not type(None))
        return _maybe(_kind(name, hint, choices))
    if name in BY_NAME:
        return BY_NAME[name]
    return (COUNTS if get_origin(hint) is Mapping else FLAG if hint is bool else
            TEXT if hint is str else WHOLE)


def _verb(method: Callable[..., object], help: str,
          choices: Mapping[str, tuple[str, tuple[str, ...]]] = {},
          renamed: Mapping[str, str] = {}) -> Verb:
    """An intent method as a verb: a field per parameter after the session, named as the
    parameter (or as `renamed` says), of the kind `_kind` gives it, left out when the
    parameter has a default."""
    hints = get_type_hints(method)
    fields: list[Field] = []
    for name, parameter in list(inspect.signature(method).parameters.items())[1:]:
        required = parameter.default is parameter.empty
        fields.append(Field(renamed.get(name, name), _kind(name, hints[name], choices),
                            required, None if required else parameter.default, name))
    return Verb(help, tuple(fields), method)


def _conquer(session: Session, region: int, tokens: int | None = None, *,
             mercenary_coin: bool = False, catapult: bool = False, ghouls: bool = False,
             sorcery: bool = False, dragon: bool = False) -> GameState:
    """`Session.conquer` with its fields in the line's order, `declined_ghouls` as
    `ghouls`."""
    return session.conquer(region, tokens, mercenary_coin=mercenary_coin, catapult=catapult,
                           declined_ghouls=ghouls, sorcery=sorcery, dragon=dragon)


def _final_conquest(session: Session, region: int) -> FinalAttempt:
    # the game counts its troops: the tokens left are those the ledger has in hand
    return session.attempt_final_conquest(region, tokens_left=0)


def _score(session: Session, coins: int | None = None) -> GameState:
    return session.score(coins)  # the lines of a quick count are never given


def _finish(session: Session, tokens: Mapping[int, int] | None = None) -> Standings:
    return session.finish(_tie_break_tokens(session, tokens))


def _tie_break_tokens(s: Session, given: Mapping[int, int] | None) -> Mapping[int, int] | None:
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


def _base(verb: str, method: Callable[..., object], help: str) -> tuple[str, Verb]:
    """A base game's verb: `method` (the session's, or one above that adapts it), its
    parameters only an expansion uses named as that expansion's part says."""
    renamed = {added.parameter: added.name for part in PARTS for added in part.added
               if added.verb == verb}
    return verb, _verb(method, help, renamed=renamed)


VERBS: dict[str, Verb] = dict((
    _base("pick", Session.pick,
          "take the combo in a market row, paying a coin on each row above"),
    _base("reveal", Session.reveal,
          "table dealing: the combo the table turned up for the lowest empty row"),
    _base("conquer", _conquer, "the active race (or Ghouls in decline) takes a region"),
    _base("abandon", Session.abandon, "empty a region of the active race before conquering"),
    _base("decline", Session.decline,
          "the active race goes into decline instead of conquering"),
    _base("finish_conquests", Session.finish_conquests,
          "no more conquests this turn; redeployment next"),
    _base("final_conquest", _final_conquest,
          "roll the reinforcement die (its next face) for a last conquest of `region` with "
          "the tokens left in hand"),
    _base("roll_for_berserk", Session.roll_for_berserk,
          "Berserk: roll the die (its next face) before the next conquest; the face comes "
          "off that conquest's cost"),
    _base("redeploy", Session.redeploy,
          "troop redeployment: the tokens of every region of the race afterwards (the "
          "active race; or a defender's `seat` and `race`, putting back the tokens in their "
          "hand before the attacker's turn ends)"),
    _base("spread_hand", Session.spread_hand,
          "the tokens in hand go into the race's regions, fewest first (the active race, "
          "or a defender's `seat` and `race`)"),
    _base("finish_redeployment", Session.finish_redeployment,
          "the troops stand where they are; scoring next"),
    _base("score", _score,
          "the turn's Victory coins: counted from the board, or `coins` as given"),
    _base("end_turn", Session.end_turn, "the turn passes to the next seat"),
    _base("undo", Session.undo,
          "take back the last step (not past a die roll or another player's turn)"),
    _base("redo", Session.redo,
          "put back the step the last undo took back (only while nothing else was done "
          "since)"),
    _base("place_marker", Session.place_marker, "put a marker in a region"),
    _base("remove_marker", Session.remove_marker, "take a marker out of a region"),
    *((name, _verb(method, " ".join((method.__doc__ or "").split()), part.choices))
      for part in PARTS if part.intents is not None
      for name, method in vars(part.intents).items()
      if not name.startswith("_") and callable(method)),
    _base("set_region", Session.set_region, "correct who holds a region (not a conquest)"),
    _base("adjust_coins", Session.adjust_coins,
          "a correction agreed at the table: coins to (+) or from (-) a purse"),
    _base("finish", _finish,
          "the final standings, once the last turn is over; `tokens` by seat breaks a tie "
          "for first (else the counts the board records)"),
))
"""Every intent `companion play` understands, by the name given in `"do"`, in the order
the messages list them: each the session's intent method (or an adapter where the line
differs from it) and what it does; its fields are the method's parameters (`_verb`)."""

COMMON_FIELDS = frozenset({"do", "note"})
"""Fields every intent may carry: the verb, and a note for the reader (ignored)."""


def parse_intent(doc: object) -> tuple[Verb, dict[str, object]]:
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
    if "note" in doc:
        a_string("note", doc["note"])
    values: dict[str, object] = {}
    for field in verb.fields:
        if field.name not in doc:
            if field.required:
                fail(field.name, said("missing; {verb} needs {field}: {what}", verb=name,
                                      field=field.name, what=field.kind.what))
            values[field.name] = field.default
            continue
        values[field.name] = field.kind.parse(field.name, doc[field.name])
    return verb, values

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
    first = whole("first_seat", doc.get("first_seat", 0))
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
            named.append((text(field, entry).strip(), None))
            continue
        if not isinstance(entry, dict):
            fail(field, said('expected a name or {{"name": ..., "colour": ...}}, got {value}',
                             value=show(entry)))
        for key in entry:
            if key not in ("name", "colour"):
                fail(f"{field}.{key}", said("unknown field for a player; allowed: name, colour"))
        if "name" not in entry:
            fail(f"{field}.name", said("missing: every player needs a name"))
        name = text(f"{field}.name", entry["name"]).strip()
        colour = entry.get("colour")
        named.append((name, None if colour is None else text(f"{field}.colour", colour).strip()))
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
            name = str(lookup(text(field, value)).name)
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
    face = whole(field, value)
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
            verb, values = parse_intent(doc)
        except BadInput as fault:
            raise BadLine(number, fault) from None
        _print(out, _carry_out(session, die, verb, values))


def _carry_out(session: Session, die: ScriptedDie, verb: Verb,
               values: Mapping[str, object]) -> dict[str, Any]:
    mark = die.mark()
    try:
        standings = verb.call(session, values)
    except (IllegalAction, MalformedInput, UnknownName) as refused:  # the session kept its state
        die.back_to(mark)
        return {"refused": refused.reason}
    return public_state(session.state, standings)


def _print(out: IO[str], doc: Mapping[str, Any]) -> None:
    out.write(json.dumps(doc) + "\n")
    out.flush()
