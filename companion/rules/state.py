"""`GameState`: everything the rules know about one game at one moment, and the small
checks every rule module shares (who is acting, which phase the turn is at).

A state is immutable; a change is a new state made by `companion.rules.game.apply`, which
asks the expansions the game plays through their hooks (`companion.rules.expansion`) and
hands the markers to `markers`. Those modules read and replace a state only through this
module, so none of them imports `game`; and this module imports none of them (nor does
any module it imports import it). An expansion keeps its own
state as one of the state's `parts`, found by its type: this module names no expansion.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TypeVar

from companion.rules.board import BoardState, RegionState
from companion.rules.catalog import Catalog
from companion.rules.errors import IllegalAction
from companion.rules.maps import Board, load_board, parse_board_text
from companion.rules.market import Market
from companion.rules.players import Player
from companion.rules.said import N_, Said, said
from companion.rules.troops import Troops
from companion.rules.turns import Phase, ThisTurn, TurnTrack

P = TypeVar("P")
"""An expansion's own state type (`GameState.part`)."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the rules know about one game at one moment."""

    board: str
    expansions: tuple[str, ...]
    dealing: str
    players: tuple[Player, ...]
    market: Market
    track: TurnTrack
    coins_issued: int
    regions: BoardState
    last_roll: int | None = None
    parts: tuple[object, ...] = ()
    """The expansions' own states (River World's event line, the Necromancer's Well...),
    at most one of each type, in the order they were first added: read one with `part`,
    set one with `with_part`. This module names no expansion."""
    troops: Troops | None = None  # the token ledger; None: a game saved before it existed
    board_doc: str | None = field(default=None, repr=False)  # a group's own board
    catalog: Catalog = field(compare=False, repr=False, kw_only=True)

    @property
    def current(self) -> Player:
        return self.players[self.track.seat]

    @property
    def is_over(self) -> bool:
        return self.track.is_over

    @property
    def map(self) -> Board:
        """The board: the packaged one, or the document saved with the game (cached)."""
        if self.board_doc is not None:
            return parse_board_text(self.board_doc, source=saved_board_source(self.board))
        return load_board(self.board)

    def part(self, kind: type[P]) -> P | None:
        """The expansion's own state of type `kind` (None: this game has none)."""
        for part in self.parts:
            if type(part) is kind:
                return part
        return None

    def with_part(self, part: object) -> GameState:
        """This state with `part` in place of the part of its type (or added)."""
        kind = type(part)
        if any(type(p) is kind for p in self.parts):
            return replace(self, parts=tuple(part if type(p) is kind else p
                                              for p in self.parts))
        return replace(self, parts=(*self.parts, part))

    def player(self, seat: int) -> Player:
        if not 0 <= seat < len(self.players):
            raise IllegalAction(said("there is no seat {seat}; seats are 0 to {last}", seat=seat,
                                     last=len(self.players) - 1))
        return self.players[seat]


def saved_board_source(name: str) -> str:
    """How an error names a board document saved with a game."""
    return f"board {name!r} saved with the game"


def region_state(state: GameState, region: int) -> RegionState:
    """The region's state; an unknown region is refused naming the board's regions."""
    state.map.region(region)
    return state.regions[region]


def acting(state: GameState, seat: int) -> Player:
    """The player in `seat`, refused unless it is their turn."""
    player = state.player(seat)
    if seat != state.track.seat:
        raise IllegalAction(said("it is {current}'s turn, not {player}'s",
                                 current=state.current.name, player=player.name))
    return player


PHASE_WORDS: dict[Phase, str] = {
    Phase.PICK_COMBO: N_("pick a combo"),
    Phase.CONQUER: N_("conquer"),
    Phase.REDEPLOY: N_("redeploy"),
    Phase.SCORE: N_("score"),
    Phase.FINISHED: N_("end the turn"),
    Phase.GAME_OVER: N_("game over"),
}
"""Each phase's words in a sentence (its `value`, marked for translation)."""


def expect(state: GameState, seat: int, phase: Phase, what: str | Said) -> None:
    """Refuse unless it is `seat`'s turn and the turn is at `phase`; `what` is what the
    player would do (a `Said` a screen translates, or plain text shown as it is)."""
    player = acting(state, seat)
    if state.track.phase is not phase:
        now = state.track.phase
        raise IllegalAction(said("{player} cannot {what} now; the turn is at: {phase}",
                                 player=player.name, what=what,
                                 phase=said(PHASE_WORDS.get(now, now.value))))


def to_phase(state: GameState, phase: Phase, *, scored: bool = False) -> GameState:
    this_turn: ThisTurn = state.track.this_turn
    if scored:
        this_turn = replace(this_turn, scored=True)
    return replace(state, track=replace(state.track, phase=phase, this_turn=this_turn))


def from_stash(state: GameState, seat: int, coins: int) -> GameState:
    """`state` with `coins` from the stash added to `seat`'s purse (negative: paid back)."""
    player = state.players[seat]
    return replace(state, coins_issued=state.coins_issued + coins, players=with_player(
        state.players, replace(player, coins=player.coins + coins)))


def scored(state: GameState, seat: int, coins: int) -> GameState:
    """`seat`'s turn scored `coins` (from the stash): the turn moves on to its end."""
    expect(state, seat, Phase.SCORE, said("score"))
    if coins < 0:
        raise IllegalAction(said("a turn's income cannot be negative (got {coins})",
                                 coins=coins))
    return from_stash(to_phase(state, Phase.FINISHED, scored=True), seat, coins)


def with_player(players: tuple[Player, ...], player: Player) -> tuple[Player, ...]:
    """The players with `player` put back in their seat."""
    return tuple(player if p.seat == player.seat else p for p in players)


def coin_changes_hands(players: tuple[Player, ...], payer: int,
                       payee: int) -> tuple[Player, ...]:
    """One coin from `payer` to `payee` (Ransacking, Corrupt); nothing from an empty purse."""
    if not players[payer].coins:
        return players
    players = with_player(players, replace(players[payer], coins=players[payer].coins - 1))
    return with_player(players, replace(players[payee], coins=players[payee].coins + 1))
