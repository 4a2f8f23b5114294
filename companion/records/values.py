"""The value types of the saved records: `Profile`, `GameRecord` with its `SeatResult`\\ s,
`GameSummary` with its `TurnIncome` and `ComboPlayed`, `PlayerStats` and `ComboTally`.

Invariants: frozen, an answer is a copy, never a live view of the file; this module
imports neither the rules nor the store nor Kivy. Imported through `companion.records`,
which loads it when a name of it is first used (not for the home screen's first frame).
"""


from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# -- players --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Profile:
    """A player profile (the PIN itself is never read back, only whether there is one)."""

    id: int
    name: str
    colour: str
    has_pin: bool
    created_at: datetime


# -- games ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A player of a game, in seat order; the result fields are None until it is finished."""

    seat: int
    name: str
    colour: str
    player_id: int | None
    start_player: bool
    final_coins: int | None = None
    rank: int | None = None
    winner: bool = False
    tie_tokens: int | None = None  # race tokens counted on the board for a tie-break


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as the saved-games list shows it."""

    id: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    board: str
    turns: int
    expansions: tuple[str, ...]
    dealing: str
    first_seat: int
    steps: int
    seats: tuple[SeatResult, ...]
    result: str | None  # the outcome in words, once finished
    tie_break: str | None  # how a tie for first was broken, when one was

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def winners(self) -> tuple[SeatResult, ...]:
        return tuple(seat for seat in self.seats if seat.winner)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)


@dataclass(frozen=True, slots=True)
class TurnIncome:
    """The coins one player scored at the end of their turn in one game turn."""

    turn: int
    seat: int
    coins: int
    lines: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ComboPlayed:
    """A combo a player picked, and the coins its race scored, active and in decline
    (`companion.store.combo_coins`). ``split`` False: some turn's coins could not be split
    by race (a total typed without lines while a race in decline was beside it), and
    `coins` then holds those turns whole."""

    seat: int
    turn: int
    row: int
    race: str
    power: str
    coins: int
    split: bool = True

    @property
    def name(self) -> str:
        return f"{self.power} {self.race}"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The history of a finished game."""

    game: GameRecord
    income: tuple[TurnIncome, ...]  # by turn, then seat
    combos: tuple[ComboPlayed, ...]  # by turn picked, then seat

    @property
    def finished_at(self) -> datetime:
        assert self.game.finished_at is not None
        return self.game.finished_at

    @property
    def duration(self) -> timedelta:
        """From the game's creation to its end."""
        return self.finished_at - self.game.created_at

    def income_of(self, seat: int) -> tuple[int, ...]:
        """Seat's income in game turns 1..turns (0 for a turn with nothing scored)."""
        by_turn = {i.turn: i.coins for i in self.income if i.seat == seat}
        return tuple(by_turn.get(turn, 0) for turn in range(1, self.game.turns + 1))

    def combos_of(self, seat: int) -> tuple[ComboPlayed, ...]:
        return tuple(combo for combo in self.combos if combo.seat == seat)


def minutes(summary: GameSummary) -> int:
    """The game's length in whole minutes (rounded to the nearest)."""
    return max(0, round(summary.duration.total_seconds() / 60))


# -- stats ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComboTally:
    """How one combo did: over one player's picks, or over everyone's."""

    race: str
    power: str
    picks: int
    coins: int  # its race's own coins, active and in decline, over the picks counted
    best: int  # the most scored with one pick of it (of the picks counted)
    games: int = 0  # distinct finished games it was picked in
    wins: int = 0  # picks by a player who won that game
    unsplit: int = 0  # picks whose coins could not be split by race: not counted in coins

    @property
    def counted(self) -> int:
        """The picks whose coins are counted (split by race)."""
        return self.picks - self.unsplit

    @property
    def name(self) -> str:
        return f"{self.power} {self.race}"

    @property
    def average(self) -> float:
        """Coins per pick counted (0 when no pick's coins could be split by race)."""
        return self.coins / self.counted if self.counted else 0.0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player profile's record over finished games."""

    player_id: int
    name: str
    games: int
    wins: int
    average_score: float | None
    best_score: int | None
    best_turn: int | None
    favourite_combo: ComboTally | None
    most_successful_combo: ComboTally | None


__all__ = ["ComboPlayed", "ComboTally", "GameRecord", "GameSummary", "PlayerStats",
           "Profile", "SeatResult", "TurnIncome", "minutes"]
