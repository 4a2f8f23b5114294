"""Handing device callbacks over to the main thread.

Concept
-------
gpiozero calls its callbacks on a thread of its pin factory and the grid link reads on its
own thread, but the session, SQLite and every widget live on the main (Kivy) thread. A
*scheduler* is any callable that takes a function and arranges for it to run later on the
main thread: Kivy's ``Clock.schedule_once`` is one (it calls the function with the time
elapsed), and :class:`QueueScheduler` is one for tests and command-line tools (its
:meth:`QueueScheduler.drain` runs what was scheduled, on the thread that calls it).

:func:`on_main_thread` wraps a callback so that calling it, from any thread, only
schedules it. The device classes take a ``schedule`` argument and do this themselves.

Invariants
----------
- A wrapped callback never runs on the calling thread (unless the scheduler runs it
  there); it runs once per call, with the arguments of that call, in call order when the
  scheduler keeps order (Kivy's Clock and :class:`QueueScheduler` both do).
- Scheduling is thread-safe.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import ParamSpec

P = ParamSpec("P")

Scheduler = Callable[[Callable[..., object]], object]
"""Takes a function and runs it later on the main thread (``Clock.schedule_once`` fits)."""


def on_main_thread(callback: Callable[P, object], schedule: Scheduler) -> Callable[P, None]:
    """``callback``, but each call is handed to ``schedule`` instead of running here."""

    def handed_over(*args: P.args, **kwargs: P.kwargs) -> None:
        def run(*_ignored: object) -> None:  # Kivy passes the elapsed time; not needed
            callback(*args, **kwargs)

        schedule(run)

    return handed_over


def deliver(callback: Callable[P, object], schedule: Scheduler | None) -> Callable[P, None]:
    """``callback`` handed over through ``schedule``, or called directly when it is None."""
    if schedule is not None:
        return on_main_thread(callback, schedule)

    def direct(*args: P.args, **kwargs: P.kwargs) -> None:
        callback(*args, **kwargs)

    return direct


class QueueScheduler:
    """A scheduler backed by a queue: call it from any thread, :meth:`drain` on the main one."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Callable[..., object]] = queue.SimpleQueue()

    def __call__(self, function: Callable[..., object], *_ignored: object) -> None:
        self._queue.put(function)

    def drain(self, timeout: float = 0.0) -> int:
        """Run everything scheduled so far, here; wait up to ``timeout`` s for the first.

        Returns how many functions ran.
        """
        ran = 0
        try:
            function = self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
        except queue.Empty:
            return 0
        while True:
            function(0.0)
            ran += 1
            try:
                function = self._queue.get_nowait()
            except queue.Empty:
                return ran
