"""The sound cues: which moments of a game sound, and the one way to ask for one.

Concept: a *cue* names a moment the table should hear (`Cue`): the die starts rolling, it
lands on a number or a blank, the turn passes, the last game turn begins, a total is
revealed at the game end, the winner's total. Whoever notices the moment asks a `CuePlayer`
to `play` it; what is heard (the file, the volume, the mute, the quiet hours, whether
there is a sound device at all) is the player's business alone. Presenters ask through
`Context.cues` and never import anything that makes sound.

Invariants:
- Each `Cue`'s value is the name of its file, ``companion/data/sounds/<value>.wav``.
- `play` never raises and never blocks: a player that cannot sound stays silent.
- `SILENT` (the default until the composition root hands over the real player, and in
  tests) plays nothing.

`turn_cue(before, after)` says which cue a newly published state owes, from the turn
track alone. Importing this module imports neither Kivy nor the rules.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from companion.config import SoundConfig
    from companion.rules import GameState


class Cue(StrEnum):
    """A moment the table hears; the value names its WAV file."""

    DIE_ROLL = "die_roll"
    """The die starts rolling (on screen or from the die button)."""
    DIE_FACE = "die_face"
    """The die lands on a number."""
    DIE_BLANK = "die_blank"
    """The die lands on a blank."""
    TURN = "turn"
    """The turn passes to the next player."""
    FINAL_TURN = "final_turn"
    """The last game turn begins."""
    REVEAL = "reveal"
    """A total is revealed at the game end."""
    WINNER = "winner"
    """The last total, the winner's, is revealed."""


class CuePlayer(Protocol):
    """Something that can sound the cues (`companion.sounds.Sounds`, or a test's fake)."""

    def play(self, cue: Cue) -> None:
        """Sound `cue` now if it may sound; never raises."""

    def use(self, settings: SoundConfig) -> None:
        """Play by `settings` (volume, mute, quiet hours) from now on."""


class Silent:
    """A `CuePlayer` that plays nothing."""

    def play(self, cue: Cue) -> None:
        pass

    def use(self, settings: SoundConfig) -> None:
        pass


SILENT: CuePlayer = Silent()
"""The player of an app with no sound (yet)."""


def turn_cue(before: GameState | None, after: GameState) -> Cue | None:
    """The cue `after` owes when it follows `before` in the same game: the last turn
    beginning (`FINAL_TURN`), else the turn passing to another player or a new game turn
    (`TURN`); None when the turn did not move forward (an undo, a step within a turn, the
    first state seen, the game over)."""
    if before is None or after.is_over:
        return None
    was, now = before.track, after.track
    if (now.turn, now.seat) == (was.turn, was.seat):
        return None
    if (now.turn, _order(after, now.seat)) < (was.turn, _order(after, was.seat)):
        return None  # backwards: an undo
    if now.turn == now.turns and was.turn < now.turn:
        return Cue.FINAL_TURN
    return Cue.TURN


def _order(state: GameState, seat: int) -> int:
    """Where `seat` plays in a game turn: 0 for the first player."""
    track = state.track
    return (seat - track.first_seat) % max(track.players, 1)
