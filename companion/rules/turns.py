"""The turn track: game turn n of N, whose turn it is, and what they may do now.

Seats are numbered 0..players-1 clockwise. A game turn starts with the first player's
seat and ends after the seat before it; the game is over after the last seat's turn of
the final game turn. Within one player's turn the phases run in order:

    PICK_COMBO (only without an active race) -> CONQUER -> REDEPLOY -> SCORE -> FINISHED

Going into decline jumps from CONQUER straight to SCORE (no conquest that turn). The
track never goes backwards except through undo, which restores an earlier value.

`ThisTurn` holds the base game's facts of the turn so far; an expansion keeps its own
facts of the turn in its part of the state and clears them in its `turn_passed` hook
(`companion.rules.expansion`), so this module names no expansion's race or piece.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class Phase(StrEnum):
    """What the player whose turn it is may do now."""

    PICK_COMBO = "pick a combo"
    CONQUER = "conquer"
    REDEPLOY = "redeploy"
    SCORE = "score"
    FINISHED = "end the turn"
    GAME_OVER = "game over"


@dataclass(frozen=True, slots=True)
class ThisTurn:
    """Facts about the current player's turn so far; reset when the turn passes."""

    picked_combo: bool = False
    declined: bool = False
    conquered: tuple[tuple[int, bool], ...] = ()  # (region, held tokens before)
    attacked_active_race: bool = False  # took a region from another player's active race
    ghoul_conquests: int = 0  # conquests by the player's Ghouls in decline
    abandoned_regions: tuple[int, ...] = ()  # regions abandoned this turn, in order
    scored: bool = False
    final_roll: tuple[int, int] | None = None  # the final conquest's (region, face)
    catapult_used: bool = False  # the Catapult conquered this turn (once per turn)
    readied: tuple[tuple[int, int], ...] = ()  # (region, tokens) taken in hand as it began
    sorcery_on: tuple[int, ...] = ()  # Sorcerers: the seats whose lone token they replaced
    dragon_took: int | None = None  # Dragon Master: the region the Dragon conquered
    placed_once: tuple[tuple[str, int], ...] = ()  # (marker, region): a once-a-turn piece
    # placed this turn (Fortified's Fortress); taken out again the same turn, it is forgotten

    @property
    def conquests(self) -> int:
        return len(self.conquered)

    @property
    def conquered_non_empty(self) -> int:
        return sum(1 for _, non_empty in self.conquered if non_empty)

    @property
    def abandoned(self) -> int:
        """How many regions were abandoned this turn (Gypsies leave a coin in each)."""
        return len(self.abandoned_regions)


@dataclass(frozen=True, slots=True)
class TurnTrack:
    """Where the game stands on the turn track."""

    turn: int
    turns: int
    players: int
    first_seat: int
    seat: int
    phase: Phase
    this_turn: ThisTurn = ThisTurn()

    @property
    def is_final_turn(self) -> bool:
        return self.turn == self.turns

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def next_seat(self) -> int:
        return (self.seat + 1) % self.players

    def passed(self, next_phase: Phase) -> TurnTrack:
        """The track after the current player ends their turn.

        `next_phase` is where the next player starts (PICK_COMBO or CONQUER); it is
        ignored when the game ends.
        """
        seat = self.next_seat
        turn = self.turn + 1 if seat == self.first_seat else self.turn
        if turn > self.turns:
            return replace(self, turn=self.turns, seat=self.seat, phase=Phase.GAME_OVER,
                           this_turn=ThisTurn())
        return replace(self, turn=turn, seat=seat, phase=next_phase, this_turn=ThisTurn())

    def after_turns(self, ended: int) -> TurnTrack:
        """The track after `ended` more turns have ended, each next player starting at
        PICK_COMBO: what `passed(Phase.PICK_COMBO)` applied `ended` times gives (stopping
        once the game is over), worked out at once. A track already over stays as it is."""
        if self.is_over or ended <= 0:
            return self
        done = (self.turn - 1) * self.players + (self.seat - self.first_seat) % self.players
        done += ended  # the turns of players ended since the game's first
        if done >= self.turns * self.players:  # the last seat of the final turn ended it
            return replace(self, turn=self.turns, seat=(self.first_seat - 1) % self.players,
                           phase=Phase.GAME_OVER, this_turn=ThisTurn())
        return replace(self, turn=1 + done // self.players,
                       seat=(self.first_seat + done) % self.players, phase=Phase.PICK_COMBO,
                       this_turn=ThisTurn())
