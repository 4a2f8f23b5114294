"""The game's history: the log of steps, the steps in force, and undo.

A *step* is the tuple of events one player intent produced; the store saves each step in
one transaction. The log keeps every step ever recorded, undo steps included: undo is
itself recorded (a step holding `StepUndone`) and never erases anything. The steps *in
force* are the log with each undone step taken out; the state is the replay of them.

Undo takes back the latest step in force, one at a time, but never past a barrier: a step
that drew randomness (a die roll, a badge reshuffle, the game's shuffled decks) or ended a
turn. So nobody re-rolls the die by undoing, and nobody takes back another player's turn.
Redo (`Session.redo`) records the step undone again, the same events as a new step, so
`record` needs nothing of its own for it.

Invariant: `replay(h.log, catalog) == h` for every history `h` built by `record`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.catalog import Catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import Event, GameCreated, StepUndone, is_barrier
from companion.rules.game import GameState, apply, start
from companion.rules.said import N_, Said, said

Step = tuple[Event, ...]

NOTHING_TO_UNDO = N_("there is nothing to undo yet")


@dataclass(frozen=True, slots=True)
class History:
    log: tuple[Step, ...]
    in_force: tuple[Step, ...]
    states: tuple[GameState, ...]  # states[i] is the state after in_force[i]

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @classmethod
    def begin(cls, step: Step, catalog: Catalog) -> History:
        """A history whose first step creates the game (and may reveal the first combos)."""
        if not step or not isinstance(step[0], GameCreated):
            raise IllegalAction(said("a game's first step must create the game"))
        state = start(step[0], catalog)
        state = _apply_all(state, step[1:])
        return cls(log=(step,), in_force=(step,), states=(state,))

    def record(self, step: Step, *, after: GameState | None = None) -> History:
        """The history after one more step; raises IllegalAction and changes nothing if refused.

        `after`: the state the caller reached by applying `step` to `self.state`, event by
        event with `apply` (the session does, to find the reveals a step owes); it is
        taken as the new state instead of applying the step a second time. Ignored for
        an undo.
        """
        if not step:
            raise IllegalAction(said("an empty step records nothing"))
        if any(isinstance(e, StepUndone) for e in step):
            if step != (StepUndone(),):
                raise IllegalAction(said("an undo is a step of its own"))
            blocker = self.undo_blocker()
            if blocker:
                raise IllegalAction(blocker)
            return History((*self.log, step), self.in_force[:-1], self.states[:-1])
        if any(isinstance(e, GameCreated) for e in step):
            raise IllegalAction(said("the game is already created"))
        state = _apply_all(self.state, step) if after is None else after
        return History((*self.log, step), (*self.in_force, step), (*self.states, state))

    def undo_blocker(self) -> Said | None:
        """Why undo is not possible now, or None if it is."""
        last = self.in_force[-1]
        if isinstance(last[0], GameCreated):
            return said(NOTHING_TO_UNDO)
        if is_barrier(last):
            return said("the last action cannot be undone: a die roll, a reshuffle or the end "
                        "of a turn")
        return None

    @property
    def last_step(self) -> Step:
        return self.in_force[-1]


def replay(log: Iterable[Step], catalog: Catalog) -> History:
    """Rebuild a history from its recorded steps."""
    steps = iter(log)
    first = next(steps, None)
    if first is None:
        raise IllegalAction(said("an empty log holds no game"))
    history = History.begin(first, catalog)
    for step in steps:
        history = history.record(step)
    return history


def _apply_all(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state
