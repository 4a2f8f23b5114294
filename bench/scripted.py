"""Scripted play: whole games of Small World played through the real `Session`.

The benchmarks and the drills need games that look like games: combos bought from lower
rows, conquests paid for with the race's tokens (entering from the board's edge, taking
Lost Tribes and other players' regions), declines, the die for a last conquest, an undo
now and then, and every turn scored from the board. `ScriptedPlayer.intent` does one
player intent at a time, always a legal one, chosen with a seeded random generator, so
a game can be stopped (or killed) after any intent and the same seed plays it again.

Nothing here knows about Kivy or the store: the session given may have a `Store` (the
drills' power cut) or not (the pure rule benchmarks).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.rules import troops_game
from companion.rules.conquest import conquest_cost, immunity, reach
from companion.rules.die import DiePurpose
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.events import GameCreated, Seat
from companion.rules.game import GameState, attacker
from companion.rules.maps import board_for_players
from companion.rules.turns import Phase
from companion.rules.views import pick_refusal
from companion.session import Session

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")
COLOURS = ("blue", "orange", "green", "yellow", "purple")


def seats(players: int) -> list[Seat]:
    return [Seat(NAMES[i], COLOURS[i]) for i in range(players)]


def berserk_game(session: Session, players: int = 3) -> None:
    """Start a game in `session` whose first player picks a Berserk combo and conquers:
    the die button has a roll to make (Berserk rolls before each conquest)."""
    catalog = session.catalog
    races = [r.name for r in catalog.races_in(("base",))]
    powers = [p.name for p in catalog.powers_in(("base",))]
    powers.sort(key=lambda power: power != "Berserk")  # Berserk on top of the stack
    board = board_for_players(players)
    session.begin(GameCreated(seats=tuple(seats(players)), first_seat=0, board=board.name,
                              turns=board.turns, expansions=("base",), dealing="app",
                              races=tuple(races), powers=tuple(powers)))
    session.pick(0)


def targets(state: GameState) -> list[int]:
    """The regions the current player's active race may attack now (as the map shows)."""
    who = attacker(state)
    board, held = state.map, state.regions.regions
    return [rid for rid in board.regions
            if immunity(board, rid, held, who) is None and reach(board, rid, who).reachable]


def cost_of(state: GameState, region: int) -> int | None:
    """What conquering `region` costs the current player, or None if it cannot be known."""
    try:
        return conquest_cost(state.map, region, state.regions.regions, attacker(state)).total
    except RulesError:
        return None


@dataclass
class ScriptedPlayer:
    """Plays legal intents for whoever's turn it is, like a table of careful players."""

    session: Session
    rng: random.Random
    undo_rate: float = 0.05
    decline_rate: float = 0.15
    final_rate: float = 0.5
    _in_hand: int | None = None  # tokens still to place this turn (None: not counted yet)
    _turn_key: tuple[int, int] | None = None

    @property
    def state(self) -> GameState:
        return self.session.state

    def intent(self) -> str:
        """Do one intent; return its name (for logs). The game must not be over."""
        state = self.state
        key = (state.track.turn, state.track.seat)
        if key != self._turn_key:
            self._turn_key, self._in_hand = key, None
        if self.rng.random() < self.undo_rate and self.session.history is not None \
                and self.session.history.undo_blocker() is None:
            self.session.undo()
            self._in_hand = None  # counted again from the board
            return "undo"
        phase = state.track.phase
        if phase is Phase.PICK_COMBO:
            return self._pick(state)
        if phase is Phase.CONQUER:
            return self._conquer(state)
        if phase is Phase.REDEPLOY:
            for race in troops_game.own_races(state, state.track.seat):
                if self._spare(state, state.track.seat, race):
                    self.session.spread_hand(race=race)
                    return "spread_hand"
            self.session.finish_redeployment()
            return "finish_redeployment"
        if phase is Phase.SCORE:
            self.session.score()
            return "score"
        if phase is Phase.FINISHED:
            for seat, race, _ in troops_game.waiting_hands(state):
                self.session.spread_hand(seat=seat, race=race)
                return "defender_spreads"
            self.session.end_turn()
            return "end_turn"
        raise IllegalAction("the game is over")

    @staticmethod
    def _spare(state: GameState, seat: int, race: str) -> bool:
        """Whether the hand must still be spread over the race's regions."""
        if not state.regions.held_by(seat, race):
            return False
        return (troops_game.hand(state, seat, race) or 0) != troops_game.keep_in_hand(
            state, seat, race)

    def _pick(self, state: GameState) -> str:
        rows = [r for r in range(len(state.market.rows)) if pick_refusal(state, r) is None]
        if not rows:
            raise IllegalAction("no combo can be picked")  # cannot happen: row 1 is free
        weights = [4, 2, 1, 1, 1, 1][: len(rows)]
        self.session.pick(self.rng.choices(rows, weights)[0])
        return "pick"

    def _conquer(self, state: GameState) -> str:
        player = state.current
        if player.active is None:
            self.session.finish_conquests()
            return "finish_conquests"
        held = state.regions.held_by(player.seat, player.active.race, in_decline=False)
        first_turn = player.active.picked_turn == state.track.turn
        if (not first_turn and not state.track.this_turn.conquests and held
                and self.rng.random() < self.decline_rate):
            self.session.decline()
            return "decline"
        counted = troops_game.hand(state, player.seat, player.active.race)
        if counted is not None:
            self._in_hand = counted
        elif self._in_hand is None:
            # One token stays in each region held; the rest are taken in hand.
            self._in_hand = max(0, player.active.tokens - len(held))
        options = []
        for rid in targets(state):
            cost = cost_of(state, rid)
            if cost is not None:
                options.append((cost, rid))
        affordable = [(c, r) for c, r in options if c <= self._in_hand]
        if affordable:
            cost, rid = self.rng.choice(affordable)
            self.session.conquer(rid, cost)
            self._in_hand -= cost
            return "conquer"
        final = self.session.die_chance().purpose is DiePurpose.FINAL_CONQUEST
        if final and self._in_hand > 0 and options and self.rng.random() < self.final_rate:
            cost, rid = min(options)
            if cost <= self._in_hand + max(state.catalog.die_faces):
                attempt = self.session.attempt_final_conquest(rid, self._in_hand)
                self._in_hand = 0
                return "final_conquest" + ("_won" if attempt.succeeded else "_lost")
        self.session.finish_conquests()
        return "finish_conquests"


def play_game(session: Session, rng: random.Random, players: int = 5, *,
              on_intent: Callable[[str], None] | None = None,
              undo_rate: float = 0.05) -> int:
    """Start a game of `players` and play it to its end; return the number of intents."""
    session.new_game(seats(players), first_seat=0)
    player = ScriptedPlayer(session, rng, undo_rate=undo_rate)
    intents = 0
    while not session.state.is_over:
        name = player.intent()
        intents += 1
        if on_intent is not None:
            on_intent(name)
    return intents
