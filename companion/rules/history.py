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
        if _is_undo(step):
            blocker = self.undo_blocker()
            if blocker:
                raise IllegalAction(blocker)
            return History((*self.log, step), self.in_force[:-1], self.states[:-1])
        state = _apply_all(self.state, step) if after is None else after
        return History((*self.log, step), (*self.in_force, step), (*self.states, state))

    def undo_blocker(self) -> Said | None:
        """Why undo is not possible now, or None if it is."""
        return _undo_blocker(self.in_force[-1])

    @property
    def last_step(self) -> Step:
        return self.in_force[-1]


def _is_undo(step: Step) -> bool:
    """Whether `step` is an undo; raises IllegalAction for a step no history records (an
    empty one, an undo with other events, a second game creation)."""
    if not step:
        raise IllegalAction(said("an empty step records nothing"))
    if any(isinstance(e, StepUndone) for e in step):
        if step != (StepUndone(),):
            raise IllegalAction(said("an undo is a step of its own"))
        return True
    if any(isinstance(e, GameCreated) for e in step):
        raise IllegalAction(said("the game is already created"))
    return False


def _undo_blocker(last: Step) -> Said | None:
    """Why the step in force `last` cannot be undone, or None if it can."""
    if isinstance(last[0], GameCreated):
        return said(NOTHING_TO_UNDO)
    if is_barrier(last):
        return said("the last action cannot be undone: a die roll, a reshuffle or the end "
                    "of a turn")
    return None


def replay(log: Iterable[Step], catalog: Catalog) -> History:
    """Rebuild a history from its recorded steps: the history `record` built from them
    one by one (and its refusal of a log it would refuse, but for a step undone later).

    The steps in force are found first, from the undo steps alone (an undo takes back the
    latest step in force, if `undo_blocker` allows, which depends on that step only), and
    only they are applied: a step undone later leaves nothing in the state, so a log grown
    by undo and redo replays in the time of the steps that stayed (a step undone is not
    checked by the rules again: it was when it was recorded). The log is kept whole.
    """
    steps = tuple(log)
    if not steps:
        raise IllegalAction(said("an empty log holds no game"))
    history = History.begin(steps[0], catalog)
    in_force = [history.in_force[0]]
    for step in steps[1:]:
        if not _is_undo(step):
            in_force.append(step)
        elif blocker := _undo_blocker(in_force[-1]):
            raise IllegalAction(blocker)
        else:
            in_force.pop()
    states = [history.state]
    for step in in_force[1:]:
        states.append(_apply_all(states[-1], step))
    return History(steps, tuple(in_force), tuple(states))


def _apply_all(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state
