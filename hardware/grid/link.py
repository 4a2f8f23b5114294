"""The serial link to the region sensor grid: pyserial, a reader thread and reconnection.

Concept
-------
:class:`GridLink` owns one serial port (a stable ``/dev/serial/by-id/...`` name is best:
it survives re-plugging into another USB socket) and one reader thread. The thread opens
the port exclusively, says HELLO, and then only moves bytes from the port into a
:class:`~hardware.grid.protocol.Parser`; what the parser finds drives a small state
machine:

- ``CONNECTING``: the port cannot be opened; retried every ``reconnect_interval``.
- ``HANDSHAKE``: open; a HELLO request goes out every ``hello_interval`` until the grid
  answers with its HELLO.
- ``UP``: the grid's major protocol version is ours. A GET goes out at once and after any
  sequence gap; snapshots go through a :class:`~hardware.grid.settle.Settler` and reach
  ``on_snapshot`` once the board has been still for ``settle_time``.
- ``OFFLINE``: no good frame for ``silence_timeout`` (3 s): the game carries on by hand;
  HELLO requests keep going out, and the grid's answer brings the link back UP.
- ``REFUSED``: the grid speaks another major protocol version; nothing it says is used
  until it says a HELLO we accept (re-flashed, re-plugged).

A read or write error (the device was unplugged) closes the port and goes back to
CONNECTING; so does the port's path pointing to another device while the grid is silent
(a by-id symlink re-created for a re-plugged device).

The link reports plain facts through callbacks, never decides anything about the game:
``on_link_up(hello)``, ``on_link_down(reason)``, ``on_refused(reason)``,
``on_snapshot(snapshot)`` and, for monitors, ``on_event(event)`` with every parser event.

Invariants
----------
- Callbacks run through ``schedule`` when it is given (Kivy's ``Clock.schedule_once``:
  then they run on the main thread, in order); otherwise on the reader thread.
- ``on_link_up`` / ``on_link_down`` / ``on_refused`` are reported on changes only: a
  device that stays unplugged is reported down once, not on every retry. The first
  failure to connect is reported too, so the status line can say why there is no grid.
- No snapshot is delivered unless the link is UP, and none from a corrupted frame.
- The reader thread never dies of device noise or of a callback's exception.
- All timeouts are constructor arguments, so tests can make them short.
"""

from __future__ import annotations

import enum
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from hardware.dispatch import Scheduler, deliver
from hardware.grid.protocol import (
    PROTOCOL_VERSION,
    Event,
    GetRequest,
    Hello,
    HelloRequest,
    Message,
    Parser,
    ParserStats,
    Role,
    SequenceGap,
    Sequencer,
    Snapshot,
    encode,
)
from hardware.grid.settle import DEFAULT_SETTLE_TIME, Settler

DEFAULT_BAUDRATE = 115200
DEFAULT_SILENCE_TIMEOUT = 3.0
DEFAULT_HELLO_INTERVAL = 1.0
DEFAULT_RECONNECT_INTERVAL = 1.0
DEFAULT_POLL_INTERVAL = 0.05

_log = logging.getLogger(__name__)


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the link uses (a fake may stand in)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


PortOpener = Callable[[str], SerialPort]
"""Opens the port at a path or raises ``OSError`` / ``serial.SerialException``."""


def serial_opener(
    baudrate: int = DEFAULT_BAUDRATE, timeout: float = DEFAULT_POLL_INTERVAL
) -> PortOpener:
    """An opener for real ports: pyserial, exclusive (a second program cannot open it)."""

    def open_port(path: str) -> SerialPort:
        import serial  # type: ignore[import-untyped]

        port: SerialPort = serial.Serial(
            path, baudrate=baudrate, timeout=timeout, write_timeout=1.0, exclusive=True
        )
        return port

    return open_port


class LinkState(enum.Enum):
    """Where the link is; see the module docstring."""

    STOPPED = "stopped"
    CONNECTING = "connecting"
    HANDSHAKE = "handshake"
    UP = "up"
    OFFLINE = "offline"
    REFUSED = "refused"


def refusal_reason(hello: Hello, port: str) -> str:
    """A sentence for the player saying why a grid was refused and what to do."""
    ours = PROTOCOL_VERSION
    fix = (
        "update the companion"
        if hello.version.major > ours.major
        else "flash the grid with the firmware in hardware/firmware"
    )
    return (
        f"the grid on {port} speaks protocol {hello.version} (firmware {hello.firmware!r}) "
        f"but this companion speaks {ours.major}.x: {fix}"
    )


def _callback(
    callback: Callable[[Any], object] | None, schedule: Scheduler | None
) -> Callable[[Any], None]:
    """The app's callback as the reader thread calls it.

    Through ``schedule`` when given; otherwise directly, with any exception logged so
    that it cannot end the reader thread.
    """
    if callback is None:
        return lambda _value: None
    if schedule is not None:
        return deliver(callback, schedule)
    app_callback = callback

    def guarded(value: Any) -> None:
        try:
            app_callback(value)
        except Exception:
            _log.exception("a grid link callback failed")

    return guarded


def _identity(hello: Hello) -> tuple[object, ...]:
    """What tells one grid from another in a HELLO (not its sequence number)."""
    return (hello.version, hello.firmware, hello.regions, hello.capabilities)


class _Unplugged(Exception):
    """The port failed under us."""


class GridLink:
    """The link to one grid on ``port``; :meth:`start` it, :meth:`stop` it."""

    def __init__(
        self,
        port: str,
        *,
        on_snapshot: Callable[[Snapshot], object] | None = None,
        on_link_up: Callable[[Hello], object] | None = None,
        on_link_down: Callable[[str], object] | None = None,
        on_refused: Callable[[str], object] | None = None,
        on_event: Callable[[Event], object] | None = None,
        schedule: Scheduler | None = None,
        baudrate: int = DEFAULT_BAUDRATE,
        settle_time: float = DEFAULT_SETTLE_TIME,
        silence_timeout: float = DEFAULT_SILENCE_TIMEOUT,
        hello_interval: float = DEFAULT_HELLO_INTERVAL,
        reconnect_interval: float = DEFAULT_RECONNECT_INTERVAL,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        opener: PortOpener | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        for name, value in (
            ("silence timeout", silence_timeout),
            ("hello interval", hello_interval),
            ("reconnect interval", reconnect_interval),
            ("poll interval", poll_interval),
        ):
            if value <= 0:
                raise ValueError(f"the grid link's {name} must be positive, not {value}")
        self.port = port
        self.silence_timeout = silence_timeout
        self.hello_interval = hello_interval
        self.reconnect_interval = reconnect_interval
        self._opener = opener or serial_opener(baudrate, poll_interval)
        self._clock = clock
        self._settler = Settler(settle_time, clock=clock)

        self._on_snapshot = _callback(on_snapshot, schedule)
        self._on_link_up = _callback(on_link_up, schedule)
        self._on_link_down = _callback(on_link_down, schedule)
        self._on_refused = _callback(on_refused, schedule)
        self._on_event = _callback(on_event, schedule) if on_event is not None else None

        self._state = LinkState.STOPPED
        self._reason = "not started"
        self._reported: tuple[str, str] | None = None
        self._hello: Hello | None = None
        self._stats = ParserStats()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._write_lock = threading.Lock()
        self._port: SerialPort | None = None
        self._sequencer = Sequencer()

    # --- what the app reads -------------------------------------------------------

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def reason(self) -> str:
        """Why the link is in its state, in words for the status line."""
        return self._reason

    @property
    def hello(self) -> Hello | None:
        """The HELLO of the grid while the link is UP (or was, before going offline)."""
        return self._hello

    @property
    def stats(self) -> ParserStats:
        """The counts of the parser of the current (or last) connection."""
        return self._stats

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # --- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread (it connects, and reconnects, on its own)."""
        if self.running:
            raise RuntimeError(f"the grid link on {self.port} is already running")
        self._stop.clear()
        self._state = LinkState.CONNECTING
        self._thread = threading.Thread(
            target=self._run, name=f"grid-link {self.port}", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the reader thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._state = LinkState.STOPPED
        self._reason = "stopped"

    def __enter__(self) -> GridLink:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def request_snapshot(self) -> bool:
        """Ask the grid for a snapshot now (any thread); False when the link is not UP."""
        if self._state is not LinkState.UP:
            return False
        try:
            self._send(GetRequest)
        except _Unplugged:
            return False  # the reader thread sees the failure too and reconnects
        return True

    # --- the reader thread ------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = self._opener(self.port)
            except Exception as error:  # OSError, serial.SerialException, ValueError...
                self._enter(LinkState.CONNECTING, f"cannot open {self.port}: {error}")
                self._stop.wait(self.reconnect_interval)
                continue
            try:
                self._connection(port)
            except _Unplugged as unplugged:
                self._enter(LinkState.CONNECTING, str(unplugged))
                self._stop.wait(self.reconnect_interval)
            except Exception:  # a bug here must not end the link for good
                _log.exception("the grid link on %s failed; reconnecting", self.port)
                self._enter(LinkState.CONNECTING, "the grid link failed; reconnecting")
                self._stop.wait(self.reconnect_interval)
            finally:
                with self._write_lock:
                    self._port = None
                try:
                    port.close()
                except Exception:
                    _log.debug("closing %s failed", self.port, exc_info=True)

    def _connection(self, port: SerialPort) -> None:
        """One connection, from open to unplug (``_Unplugged``) or stop (return)."""
        parser = Parser(Role.HOST)
        self._stats = parser.stats
        with self._write_lock:
            self._port = port
            self._sequencer.restart()
        target = os.path.realpath(self.port)
        try:
            port.reset_input_buffer()
        except Exception as error:
            raise _Unplugged(f"the grid on {self.port} failed: {error}") from error
        opened = self._clock()
        last_frame: float | None = None
        last_hello_sent = float("-inf")
        last_path_check = opened
        self._settler.reset()
        self._state = LinkState.HANDSHAKE
        self._reason = f"waiting for the grid on {self.port} to say HELLO"
        while not self._stop.is_set():
            now = self._clock()
            if (
                self._state in (LinkState.HANDSHAKE, LinkState.OFFLINE)
                and now - last_hello_sent >= self.hello_interval
            ):
                self._send(HelloRequest)
                last_hello_sent = now
            try:
                waiting = port.in_waiting
                data = port.read(max(1, waiting))
            except Exception as error:
                raise _Unplugged(f"the grid on {self.port} was unplugged ({error})") from error
            if data:
                events = parser.feed(data)
                self._stats = parser.stats
                for event in events:
                    if self._handle(event):
                        last_frame = self._clock()
            self._deliver_settled()
            now = self._clock()
            silent_since = opened if last_frame is None else last_frame
            if now - silent_since > self.silence_timeout:
                if self._state is LinkState.UP:
                    self._enter(
                        LinkState.OFFLINE,
                        f"no frame from the grid on {self.port} for {self.silence_timeout:g} s",
                    )
                elif self._state is LinkState.HANDSHAKE:
                    self._enter(
                        LinkState.HANDSHAKE,
                        f"the device on {self.port} does not answer HELLO",
                        report_as_down=True,
                    )
                if now - last_path_check >= self.reconnect_interval:
                    last_path_check = now
                    if os.path.realpath(self.port) != target:
                        raise _Unplugged(f"{self.port} now leads to another device")

    def _handle(self, event: Event) -> bool:
        """Act on one parser event; True when it was a good frame (the grid is alive)."""
        if self._on_event is not None:
            self._on_event(event)
        if isinstance(event, SequenceGap):
            if self._state is LinkState.UP:
                self._send(GetRequest)
            return False
        if not isinstance(event, Message):  # a Rejected frame or noise
            return False
        if isinstance(event, Hello):
            self._hello_received(event)
        elif isinstance(event, Snapshot) and self._state is LinkState.UP:
            settled = self._settler.offer(event)
            if settled is not None:
                self._on_snapshot(settled)
        return True

    def _hello_received(self, hello: Hello) -> None:
        if not hello.version.compatible_with(PROTOCOL_VERSION):
            self._hello = None
            self._enter(LinkState.REFUSED, refusal_reason(hello, self.port))
            return
        was_up = self._state is LinkState.UP
        previous, self._hello = self._hello, hello
        if was_up and previous is not None and _identity(previous) != _identity(hello):
            # Re-flashed in place (another size or firmware): the app must hear of it.
            was_up = False
            self._reported = None
        if not was_up:
            self._settler.reset()
            self._enter(
                LinkState.UP,
                f"grid on {self.port}: firmware {hello.firmware}, {hello.regions} sensors",
            )
        self._send(GetRequest)

    def _deliver_settled(self) -> None:
        if self._state is LinkState.UP:
            settled = self._settler.poll()
            if settled is not None:
                self._on_snapshot(settled)

    def _send(self, message: Callable[[int], HelloRequest | GetRequest]) -> None:
        """Write ``message(seq)`` with this side's next sequence number."""
        with self._write_lock:
            port = self._port
            if port is None:
                return
            frame = encode(message(self._sequencer.next()))
            try:
                port.write(frame)
            except Exception as error:
                raise _Unplugged(
                    f"the grid on {self.port} was unplugged (write failed: {error})"
                ) from error

    def _enter(self, state: LinkState, reason: str, *, report_as_down: bool = False) -> None:
        """Move to ``state``; tell the app when that changes what it was last told."""
        self._state = state
        self._reason = reason
        if state is LinkState.UP:
            kind = "up"
        elif state is LinkState.REFUSED:
            kind = "refused"
        elif state in (LinkState.CONNECTING, LinkState.OFFLINE) or report_as_down:
            kind = "down"
        else:
            return
        # Told once per change; a refusal for another reason (another grid) is news again.
        if self._reported == (kind, reason) or (
            self._reported is not None and self._reported[0] == kind and kind != "refused"
        ):
            return
        self._reported = (kind, reason)
        if kind == "up":
            self._on_link_up(self._hello)
        elif kind == "refused":
            self._on_refused(reason)
        else:
            self._on_link_down(reason)
