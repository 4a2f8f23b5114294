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

A history resumed from a *snapshot* (the state saved with an end of turn, see
`companion.store.snapshots`) holds the states from the snapshot on; those before it are
made from the log when first asked for (`States`), which only the game's end does.

Invariant: `replay(h.log, catalog) == h` for every history `h` built by `record`, with or
without a snapshot of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from companion.rules.catalog import Catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import Event, GameCreated, StepUndone, is_barrier
from companion.rules.game import GameState, apply, start
from companion.rules.said import N_, Said, said

Step = tuple[Event, ...]

NOTHING_TO_UNDO = N_("there is nothing to undo yet")


class States(Sequence[GameState]):
    """The states after each step in force: `states[i]` follows `in_force[i]`.

    Those from index `first` on are held; those before it (a history resumed from a
    snapshot) are made by replaying the steps in force before `first` when one of them is
    first asked for, once for every `States` grown from the same one. Equal to any
    sequence of the same states.
    """

    __slots__ = ("_earlier", "_first", "_held")

    def __init__(self, held: tuple[GameState, ...], first: int = 0,
                 earlier: _Earlier | None = None) -> None:
        if first and earlier is None:
            raise ValueError("states before `first` need the steps that make them")
        self._held, self._first, self._earlier = held, first, earlier

    @property
    def first(self) -> int:
        """How many states are made only when asked for (0: all are held)."""
        return self._first

    def __len__(self) -> int:
        return self._first + len(self._held)

    @overload
    def __getitem__(self, index: int) -> GameState: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[GameState, ...]: ...

    def __getitem__(self, index: int | slice) -> GameState | tuple[GameState, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        at = index + len(self) if index < 0 else index
        if not 0 <= at < len(self):
            raise IndexError("no state at that step")
        if at >= self._first:
            return self._held[at - self._first]
        assert self._earlier is not None
        return self._earlier.states()[at]

    def __iter__(self) -> Iterator[GameState]:
        if self._first:
            assert self._earlier is not None
            yield from self._earlier.states()
        yield from self._held

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"States({len(self)} states, {self._first} made when asked for)"

    def then(self, state: GameState) -> States:
        """These states and `state` after them."""
        return States((*self._held, state), self._first, self._earlier)

    def without_last(self) -> States:
        """These states but the last (an undo)."""
        if self._held:
            return States(self._held[:-1], self._first, self._earlier)
        return States(tuple(self)[:-1])


class _Earlier:
    """The states after the first steps in force, made from them when first asked for."""

    __slots__ = ("_catalog", "_states", "_steps")

    def __init__(self, steps: tuple[Step, ...], catalog: Catalog) -> None:
        self._steps, self._catalog = steps, catalog
        self._states: tuple[GameState, ...] | None = None

    def states(self) -> tuple[GameState, ...]:
        if self._states is None:
            made = [History.begin(self._steps[0], self._catalog).state]
            for step in self._steps[1:]:
                made.append(_apply_all(made[-1], step))
            self._states = tuple(made)
        return self._states


@dataclass(frozen=True, slots=True)
class History:
    log: tuple[Step, ...]
    in_force: tuple[Step, ...]
    states: States  # states[i] is the state after in_force[i]

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
        return cls(log=(step,), in_force=(step,), states=States((state,)))

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
            return History((*self.log, step), self.in_force[:-1], self.states.without_last())
        state = _apply_all(self.state, step) if after is None else after
        return History((*self.log, step), (*self.in_force, step), self.states.then(state))

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
    for event in step:  # a plain loop: a long log asks this of every step
        kind = type(event)
        if kind is StepUndone:
            if step != (StepUndone(),):
                raise IllegalAction(said("an undo is a step of its own"))
            return True
        if kind is GameCreated:
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


def replay(log: Iterable[Step], catalog: Catalog, *,
           snapshot: tuple[int, GameState] | None = None) -> History:
    """Rebuild a history from its recorded steps: the history `record` built from them
    one by one (and its refusal of a log it would refuse, but for a step undone later).

    The steps in force are found first, from the undo steps alone (an undo takes back the
    latest step in force, if `undo_blocker` allows, which depends on that step only), and
    only they are applied: a step undone later leaves nothing in the state, so a log grown
    by undo and redo replays in the time of the steps that stayed (a step undone is not
    checked by the rules again: it was when it was recorded). The log is kept whole.

    `snapshot`: (n, the state before step n of the log), as saved when step n ended a
    turn. When step n is in force, the replay starts from that state and applies step n
    and the steps in force after it (the states before are made when asked for);
    otherwise it is not used. The caller vouches that it is this log's (the store checks
    it against the log and this release's rules).
    """
    steps = tuple(log)
    if not steps:
        raise IllegalAction(said("an empty log holds no game"))
    history = History.begin(steps[0], catalog)
    in_force = [history.in_force[0]]
    numbers = [1]  # the log's number of each step in force
    for number, step in enumerate(steps[1:], start=2):
        if not _is_undo(step):
            in_force.append(step)
            numbers.append(number)
        elif blocker := _undo_blocker(in_force[-1]):
            raise IllegalAction(blocker)
        else:
            in_force.pop()
            numbers.pop()
    first = 0
    states = [history.state]
    if snapshot is not None and snapshot[0] in numbers[1:]:
        at = numbers.index(snapshot[0])  # in_force[at] is step n, after states[at - 1]
        first, states = at - 1, [snapshot[1]]
    for step in in_force[first + 1:]:
        states.append(_apply_all(states[-1], step))
    earlier = _Earlier(tuple(in_force[:first]), catalog) if first else None
    return History(steps, tuple(in_force), States(tuple(states), first, earlier))


def _apply_all(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state
