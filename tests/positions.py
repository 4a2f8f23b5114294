"""A game position in one line, built straight into a `GameState` (no session, no replay).

Like a FEN for chess: a rule test says where the game stands, applies ONE event with
`companion.rules.game.apply` and looks at the result::

    state = position("2p", "Ann: Merchant Humans 4@5 3@4; Bob: Alchemist Orcs hand 9",
                     seat="Bob", phase="conquer")
    after = apply(state, RegionConquered(1, 5))

The description lists the players in seat order (seat 0 first), separated by ``;``::

    PLAYER  = NAME [$COINS] [":" RACE ["," RACE]...]       NAME is one word; 5 coins
                                                            unless $COINS says
    RACE    = POWER RACE [declined] [hand N] [aside N] [picked T] REGION...
    REGION  = [TOKENS]@ID[+MARKER]...                       1 token unless given

- ``Ann $7: Flying Ratmen hand 3 2@1 @4`` -- Ann has 7 coins; her active Flying Ratmen hold
  region 1 with 2 tokens and region 4 with 1, and 3 more tokens are in her hand.
- ``Bob: Hill Trolls declined @7+lair`` -- Bob's Trolls (Hill) are in decline in region 7,
  their Troll's Lair there; a declined race holds one token per region unless told.
- ``Cy`` or ``Cy:`` -- Cy has no race on the board (and 5 coins).
- A player has at most one active race, listed first or anywhere; every other race of theirs
  says ``declined``. POWER and RACE are catalog names, any case (``Dragon Master Giants``,
  ``Hordes of Ratmen``); the power is required, in decline too (scoring reads it).
- MARKER is one of fortress, lair (Troll's Lair), camp (one encampment; repeat it for
  more), hero, dragon, hole (Hole-in-the-Ground), catapult, pot (a Pot of Gold).
- ``picked T``: the turn the active combo was picked (default: the turn before, or turn 1
  in turn 1). When it is this turn and the race is the current player's, the turn's record
  says a combo was picked (so, for one, the race cannot go into decline now).
- ``aside N``: Amazons' tokens set aside until the next Ready your Troops.

The keyword arguments say the rest: `seat` (whose turn: a name or a seat number; default
seat 0), `first` (the first player, who begins each game turn; default seat 0), `phase`
("pick", "conquer", "redeploy", "score" or "end", or a `Phase`; default "conquer"), `turn`
(default 1), `expansions` (default base only), `lost_tribes` (the regions holding a Lost
Tribe; default: where the board prints them, except the regions a race holds here) and
`counted` (default true: the game counts its tokens; the ledger holds exactly the tokens
written, nothing in the tray; false: an uncounted game, `GameState.troops` None).

The state is the one the rules would hold at that moment of the turn with nothing yet done
in it (`ThisTurn` empty but for `picked_combo`): no conquest made this turn, no troops
readied to undo (so, unlike a played game, Ghouls going into decline keep only what the
position shows in their regions). The market has no visible combo: its stacks hold the
banners and badges of the chosen expansions not in play, so a position is not for testing
a pick. Mountains stand where the board prints them.

A malformed description raises `PositionError` naming the words at fault.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from companion.rules.board import BoardState, Markers, Occupant, RegionState
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.errors import UnknownName
from companion.rules.game import GameState
from companion.rules.maps import Board, Terrain, load_board
from companion.rules.market import Market
from companion.rules.players import ActiveRace, DeclinedRace, Player
from companion.rules.troops import RaceTroops, Troops
from companion.rules.turns import Phase, ThisTurn, TurnTrack

__all__ = ["COLOURS", "PositionError", "position"]

COLOURS = ("blue", "orange", "green", "yellow", "purple", "red")

_PHASES = {
    "pick": Phase.PICK_COMBO,
    "conquer": Phase.CONQUER,
    "redeploy": Phase.REDEPLOY,
    "score": Phase.SCORE,
    "end": Phase.FINISHED,
}
_MARKERS = {
    "fortress": "fortress",
    "lair": "troll_lair",
    "camp": "encampments",
    "hero": "hero",
    "dragon": "dragon",
    "hole": "hole_in_the_ground",
    "catapult": "catapult",
    "pot": "pot_of_gold",
}
_PLAYER = re.compile(r"^\s*(?P<name>[^\s:$]+)\s*(?:\$(?P<coins>\S+))?\s*(?::(?P<races>.*))?$",
                     re.S)
_REGION = re.compile(r"^(?P<tokens>\d+)?@(?P<id>\d+)(?P<markers>(?:\+[a-z]+)*)$")
_NUMBER_WORDS = ("hand", "aside", "picked")


class PositionError(ValueError):
    """A description the builder cannot read, with the words at fault."""

P = TypeVar("P")


def part(state: GameState, kind: type[P]) -> P:
    """The state's expansion part of type `kind`; the test fails when the game has none."""
    found = state.part(kind)
    assert found is not None, f"the game has no {kind.__name__}"
    return found


def position(
    board: str,
    description: str,
    *,
    seat: str | int = 0,
    first: str | int = 0,
    phase: str | Phase = "conquer",
    turn: int = 1,
    expansions: Sequence[str] = ("base",),
    lost_tribes: Iterable[int] | None = None,
    counted: bool = True,
    catalog: Catalog | None = None,
) -> GameState:
    """The `GameState` the description gives on `board` (a board name: "2p"... "5p")."""
    catalog = catalog or load_catalog()
    try:
        the_board = load_board(board)
    except UnknownName as error:
        raise PositionError(f"board {board!r}: {error}") from None
    chosen = _expansions(catalog, expansions)
    if not 1 <= turn <= the_board.turns:
        raise PositionError(f"turn {turn}: the {board} board plays turns 1 to "
                            f"{the_board.turns}")
    builder = _Builder(catalog, the_board, chosen, turn)
    texts = description.split(";")
    if len(texts) != the_board.players:
        raise PositionError(f"{len(texts)} players described ({description!r}); the "
                            f"{board} board is for {the_board.players}")
    for index, text in enumerate(texts):
        builder.player(index, text)
    current = _seat(seat, builder.players)
    first_seat = _seat(first, builder.players)
    the_phase = _phase(phase)
    players = tuple(builder.players)
    active = players[current].active
    picked_now = active is not None and active.picked_turn == turn
    if the_phase is Phase.PICK_COMBO and players[current].active is not None:
        raise PositionError(f"{players[current].name} plays an active race, so their turn "
                            "is not at the pick")
    if the_phase is Phase.CONQUER and players[current].active is None and not any(
            d.race == "Ghouls" for d in players[current].declined):
        raise PositionError(f"{players[current].name} has no active race to conquer with; "
                            'say phase="pick" or give them a race')
    in_play_races = {r for p in players for r in
                     ([p.active.race] if p.active else []) + [d.race for d in p.declined]}
    in_play_powers = {p.active.power for p in players if p.active} | {
        d.power for p in players for d in p.declined if d.kept_power}
    market = Market(
        rows=(),
        race_stack=tuple(r.name for r in catalog.races_in(chosen) if r.name not in
                         in_play_races),
        power_stack=tuple(p.name for p in catalog.powers_in(chosen) if p.name not in
                          in_play_powers),
    )
    track = TurnTrack(turn=turn, turns=the_board.turns, players=len(players),
                      first_seat=first_seat, seat=current, phase=the_phase,
                      this_turn=ThisTurn(picked_combo=picked_now))
    state = GameState(
        board=the_board.name,
        expansions=chosen,
        dealing="app",
        players=players,
        market=market,
        track=track,
        coins_issued=sum(p.coins for p in players),
        regions=builder.regions(lost_tribes),
        troops=builder.troops() if counted else None,
        catalog=catalog,
    )
    return state


def _expansions(catalog: Catalog, expansions: Sequence[str]) -> tuple[str, ...]:
    chosen = tuple(expansions)
    try:
        catalog.races_in(chosen)
    except UnknownName as error:
        raise PositionError(f"expansions {chosen!r}: {error}") from None
    if "base" not in chosen:
        raise PositionError(f"expansions {chosen!r}: the base game is always in play")
    return chosen


def _seat(seat: str | int, players: Sequence[Player]) -> int:
    if isinstance(seat, int):
        if not 0 <= seat < len(players):
            raise PositionError(f"seat {seat}: seats are 0 to {len(players) - 1}")
        return seat
    for player in players:
        if player.name.casefold() == seat.casefold():
            return player.seat
    raise PositionError(f"seat {seat!r}: no such player; the players are "
                        + ", ".join(p.name for p in players))


def _phase(phase: str | Phase) -> Phase:
    if isinstance(phase, Phase):
        return phase
    key = phase.strip().casefold()
    for name, value in _PHASES.items():
        if key in (name, value.value):
            return value
    raise PositionError(f"phase {phase!r}: one of {', '.join(_PHASES)}")


class _Builder:
    """The players, regions and ledger entries read so far."""

    def __init__(self, catalog: Catalog, board: Board, expansions: tuple[str, ...],
                 turn: int) -> None:
        self.catalog = catalog
        self.board = board
        self.races = {r.name for r in catalog.races_in(expansions)}
        self.powers = {p.name for p in catalog.powers_in(expansions)}
        self.turn = turn
        self.players: list[Player] = []
        self.held: dict[int, RegionState] = {}
        self.ledger: list[RaceTroops] = []

    def player(self, seat: int, text: str) -> None:
        match = _PLAYER.match(text)
        if match is None or not text.strip():
            raise PositionError(f"player {seat + 1} {text.strip()!r}: expected "
                                "'NAME [$COINS]: RACE, ...'")
        name = match["name"]
        if any(p.name.casefold() == name.casefold() for p in self.players):
            raise PositionError(f"player {name!r} is described twice")
        coins = 5 if match["coins"] is None else _whole(f"{name}'s coins", match["coins"])
        player = Player(seat=seat, name=name, colour=COLOURS[seat], coins=coins)
        races = (match["races"] or "").strip()
        if races and races != "-":
            for part in races.split(","):
                player = self.race(player, part)
        self.players.append(player)

    def race(self, player: Player, text: str) -> Player:
        where = f"{player.name}'s {text.strip()!r}"
        words = text.split()
        regions = [w for w in words if "@" in w]
        words = [w for w in words if "@" not in w]
        numbers: dict[str, int] = {}
        declined = False
        combo: list[str] = []
        index = 0
        while index < len(words):
            word = words[index]
            if word.casefold() == "declined":
                declined = True
            elif word.casefold() in _NUMBER_WORDS:
                if index + 1 == len(words):
                    raise PositionError(f"{where}: {word!r} needs a number after it")
                numbers[word.casefold()] = _whole(f"{where}: {word}", words[index + 1])
                index += 1
            elif numbers or declined:
                raise PositionError(f"{where}: {word!r} is not a region (TOKENS@ID) nor one "
                                    "of declined, hand N, aside N, picked T")
            else:
                combo.append(word)
            index += 1
        power, race = self._combo(where, combo)
        if declined and ({"hand", "aside", "picked"} & set(numbers)):
            raise PositionError(f"{where}: a race in decline has no hand, nothing set aside "
                                "and no pick turn")
        if not declined and player.active is not None:
            raise PositionError(f"{where}: {player.name} already plays the "
                                f"{player.active.power} {player.active.race}; a player has "
                                "one active race (say 'declined' for the others)")
        if any(t.key == (player.seat, race) for t in self.ledger):
            raise PositionError(f"{where}: {player.name} has the {race} twice")
        on_board = 0
        for word in regions:
            on_board += self._region(where, word, Occupant(player.seat, race, declined))
        hand, aside = numbers.get("hand", 0), numbers.get("aside", 0)
        self.ledger.append(RaceTroops(player.seat, race, received=on_board + hand + aside,
                                      hand=hand, aside=aside))
        if declined:
            gone = DeclinedRace(race, power, declined_turn=max(1, self.turn - 1))
            return replace(player, declined=(*player.declined, gone))
        picked = numbers.get("picked", max(1, self.turn - 1))
        if not 1 <= picked <= self.turn:
            raise PositionError(f"{where}: picked {picked} is not a turn up to this one "
                                f"({self.turn})")
        active = ActiveRace(race, power, tokens=self.catalog.combo_tokens(race, power),
                            picked_turn=picked)
        return replace(player, active=active)

    def _combo(self, where: str, words: list[str]) -> tuple[str, str]:
        """POWER RACE, each of one or more words, found in the catalog."""
        for split in range(1, len(words)):
            try:
                power = self.catalog.power(" ".join(words[:split])).name
                race = self.catalog.race(" ".join(words[split:])).name
            except UnknownName:
                continue
            for name, kind, chosen in ((race, "race", self.races),
                                       (power, "power", self.powers)):
                if name not in chosen:
                    raise PositionError(f"{where}: the {kind} {name} is not in the chosen "
                                        "expansions; pass expansions=(...) with its set")
            return power, race
        raise PositionError(
            f"{where}: expected POWER RACE (catalog names, e.g. 'Flying Ratmen'), got "
            f"{' '.join(words)!r}")

    def _region(self, where: str, word: str, occupant: Occupant) -> int:
        match = _REGION.match(word.casefold())
        if match is None:
            raise PositionError(f"{where}: region {word!r} is not [TOKENS]@ID[+MARKER...]")
        rid = int(match["id"])
        if rid not in self.board.regions:
            raise PositionError(f"{where}: region {rid} is not on the {self.board.name} "
                                f"board (regions {min(self.board.regions)} to "
                                f"{max(self.board.regions)})")
        if rid in self.held:
            raise PositionError(f"{where}: region {rid} is already held by seat "
                                f"{self.held[rid].occupant.seat}")  # type: ignore[union-attr]
        tokens = 1 if match["tokens"] is None else int(match["tokens"])
        if tokens < 1:
            raise PositionError(f"{where}: region {rid} must hold at least 1 token")
        marks: dict[str, int | bool] = {
            "mountain": self.board.region(rid).terrain is Terrain.MOUNTAIN}
        pieces: set[str] = set()  # an expansion's own pieces (`Markers.pieces`)
        for mark in filter(None, match["markers"].split("+")):
            if mark not in _MARKERS:
                raise PositionError(f"{where}: marker {mark!r} is not one of "
                                    + ", ".join(_MARKERS))
            field = _MARKERS[mark]
            if field == "encampments":
                marks[field] = int(marks.get(field, 0)) + 1
            elif field not in Markers.__dataclass_fields__:
                pieces.add(field)
            else:
                marks[field] = True
        self.held[rid] = RegionState(occupant=replace(occupant, tokens=tokens),
                                     markers=Markers(**marks, pieces=frozenset(pieces)))  # type: ignore[arg-type]
        return tokens

    def regions(self, lost_tribes: Iterable[int] | None) -> BoardState:
        setup = BoardState.setup(self.board)
        tribes = None if lost_tribes is None else set(lost_tribes)
        if tribes is not None:
            unknown = sorted(tribes - set(self.board.regions))
            if unknown:
                raise PositionError(f"lost_tribes: {unknown} not on the {self.board.name} "
                                    "board")
            clash = sorted(tribes & set(self.held))
            if clash:
                raise PositionError(f"lost_tribes: {clash} are held by a race")
        regions: dict[int, RegionState] = {}
        for rid, here in setup.regions.items():
            if rid in self.held:
                regions[rid] = self.held[rid]
            elif tribes is not None:
                regions[rid] = replace(here, lost_tribe=rid in tribes)
            else:
                regions[rid] = here
        return BoardState(regions)

    def troops(self) -> Troops:
        return Troops(tuple(self.ledger))


def _whole(what: str, text: str) -> int:
    if not text.isdigit():
        raise PositionError(f"{what}: {text!r} is not a whole number")
    return int(text)
