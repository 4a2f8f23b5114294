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
- :class:`BoundedScheduler` never holds more than its ``limit`` functions waiting: one
  scheduled while it is full is dropped and counted (:attr:`BoundedScheduler.dropped`),
  so a flood from a device thread cannot grow memory while the main thread is slow.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
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


class BoundedScheduler:
    """A scheduler that keeps at most ``limit`` functions waiting and drops the rest.

    For a tool that only shows what a device says (``companion grid-monitor``): when the
    thread that runs them cannot keep up, the newest are dropped and counted rather than
    queued without end. :attr:`most_waiting` is the most that were ever waiting at once.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a bounded scheduler needs a limit of 1 or more, not {limit}")
        self.limit = limit
        self._waiting: deque[Callable[..., object]] = deque()
        self._ready = threading.Condition()
        self._dropped = 0
        self._most_waiting = 0

    @property
    def dropped(self) -> int:
        """How many functions were dropped because :attr:`limit` were already waiting."""
        with self._ready:
            return self._dropped

    @property
    def most_waiting(self) -> int:
        """The most functions ever waiting at once (never more than :attr:`limit`)."""
        with self._ready:
            return self._most_waiting

    def __call__(self, function: Callable[..., object], *_ignored: object) -> None:
        with self._ready:
            if len(self._waiting) >= self.limit:
                self._dropped += 1
                return
            self._waiting.append(function)
            self._most_waiting = max(self._most_waiting, len(self._waiting))
            self._ready.notify()

    def drain(self, timeout: float = 0.0) -> int:
        """Run what is waiting, one at a time, here; wait up to ``timeout`` s for the first.

        Each function is taken off the queue just before it runs, so what waits never
        exceeds :attr:`limit`; at most :attr:`limit` run per call, so a caller that also
        has other work (a deadline, a report) gets control back under a flood. Returns
        how many functions ran.
        """
        ran = 0
        while ran < self.limit:
            with self._ready:
                if not self._waiting and ran == 0 and timeout > 0:
                    self._ready.wait(timeout)
                if not self._waiting:
                    return ran
                function = self._waiting.popleft()
            function(0.0)
            ran += 1
        return ran
