"""A fake region sensor grid on a pseudo-terminal, for tests and for trying the app.

Concept
-------
:class:`SimulatedGrid` is the device's side of the protocol without any I/O: the state of
every sensor, the device's sequence numbers, and the frames it answers a host with (HELLO
to a HELLO request, SNAP to a GET, ERR to a frame it could not read).

:class:`PtyGrid` puts one on a pseudo-terminal (``os.openpty``): the host opens
:attr:`PtyGrid.path` (or the ``link`` symlink, which plays the part of a
``/dev/serial/by-id/...`` name) exactly as it would open a USB serial port. A thread
answers the host and sends a heartbeat every second; changes send a SNAP at once, as the
firmware does. :meth:`PtyGrid.unplug` closes the device's end (the host sees a real
unplug: its reads fail) and :meth:`PtyGrid.replug` makes a new pseudo-terminal behind the
same symlink.

:func:`run_command` carries out one line of the simulator's small command language, used
by scripts and typed interactively by ``companion grid-sim`` (:data:`COMMANDS_HELP`).
Sensors are numbered 1..N there, as :meth:`Calibration.identity
<hardware.grid.calibration.Calibration.identity>` maps cell ``i`` to region ``i + 1``;
on the wire they are cells 0..N-1.

Invariants
----------
- Every frame the simulator writes is valid, except those ``noise`` and ``corrupt`` make
  on purpose.
- Writing never blocks: with no host reading, frames are dropped, as a real device drops
  them; the pty's slave end stays open in the simulator so that it never hangs up by
  itself.
- ``run_command`` raises :class:`SimulatorError` naming the command and what was wrong;
  it never leaves the grid half-changed.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import shlex
import threading
import time
import tty
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from hardware.grid.protocol import (
    MAX_COUNT,
    MAX_OWNER,
    PROTOCOL_VERSION,
    Capability,
    DeviceError,
    ErrorKind,
    GetRequest,
    Heartbeat,
    Hello,
    HelloRequest,
    Parser,
    ProtocolVersion,
    Rejected,
    Role,
    Sequencer,
    Snapshot,
    encode,
)

DEFAULT_SENSORS = 30
DEFAULT_FIRMWARE = "grid-sim-1.0"


class SimulatorError(ValueError):
    """A simulator command that cannot be carried out; the message says why."""


class SimulatedGrid:
    """The device side of the protocol, without I/O (thread-safe)."""

    def __init__(
        self,
        sensors: int = DEFAULT_SENSORS,
        *,
        version: ProtocolVersion = PROTOCOL_VERSION,
        firmware: str = DEFAULT_FIRMWARE,
        capabilities: Iterable[Capability] = (Capability.PRESENCE,),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capabilities = frozenset(capabilities) | {Capability.PRESENCE}
        self.version = version
        self.firmware = firmware
        # Checks the sensor count, the firmware name and the capabilities at once.
        encode(Hello(0, version, firmware, sensors, self.capabilities))
        self.sensors = sensors
        self.presence = [False] * sensors
        self.counts = [0] * sensors
        self.owners: list[int | None] = [None] * sensors
        self._clock = clock
        self._booted = clock()
        self._lock = threading.RLock()
        self._parser = Parser(Role.DEVICE)
        self._sequencer = Sequencer()
        self.requests: Counter[str] = Counter()
        """How many HELLO and GET requests (and bad frames, as BAD) the host sent."""

    # --- frames ---------------------------------------------------------------------

    def boot(self, version: ProtocolVersion | None = None) -> bytes:
        """Restart (optionally speaking another protocol version); returns the HELLO."""
        with self._lock:
            if version is not None:
                self.version = version
            self._booted = self._clock()
            self._parser = Parser(Role.DEVICE)
            self._sequencer.restart()
            return self.hello_frame()

    def hello_frame(self) -> bytes:
        with self._lock:
            hello = Hello(
                self._sequencer.next(), self.version, self.firmware, self.sensors, self.capabilities
            )
            return encode(hello)

    def snapshot(self, seq: int = 0) -> Snapshot:
        """The current state as a snapshot message."""
        with self._lock:
            counts = tuple(self.counts) if Capability.COUNT in self.capabilities else None
            owners = tuple(self.owners) if Capability.OWNER in self.capabilities else None
            return Snapshot(seq, tuple(self.presence), counts, owners)

    def snapshot_frame(self) -> bytes:
        with self._lock:
            return encode(self.snapshot(self._sequencer.next()))

    def heartbeat_frame(self) -> bytes:
        with self._lock:
            uptime = int(self._clock() - self._booted)
            return encode(Heartbeat(self._sequencer.next(), uptime))

    def error_frame(self, code: str, text: str) -> bytes:
        with self._lock:
            safe = "".join(c if " " <= c <= "~" and c not in "$*," else "_" for c in text)
            return encode(DeviceError(self._sequencer.next(), code, safe[:80]))

    def corrupt_frame(self, rng: random.Random) -> bytes:
        """A snapshot frame with one bit of its body flipped (the CRC no longer matches)."""
        with self._lock:
            frame = bytearray(self.snapshot_frame())
        position = rng.randrange(1, frame.index(b"*"))
        frame[position] ^= 1 << rng.randrange(7)
        return bytes(frame)

    def receive(self, data: bytes) -> bytes:
        """Take bytes from the host; return the frames that answer them."""
        out = bytearray()
        with self._lock:
            for event in self._parser.feed(data):
                if isinstance(event, HelloRequest):
                    self.requests["HELLO"] += 1
                    out += self.hello_frame()
                elif isinstance(event, GetRequest):
                    self.requests["GET"] += 1
                    out += self.snapshot_frame()
                elif isinstance(event, Rejected) and event.kind is not ErrorKind.NOISE:
                    self.requests["BAD"] += 1
                    code = "UNKNOWN" if event.kind is ErrorKind.UNKNOWN_TYPE else "BADFRAME"
                    out += self.error_frame(code, event.detail)
        return bytes(out)

    # --- state ------------------------------------------------------------------------

    def cell(self, sensor: int) -> int:
        """The cell index of sensor number ``sensor`` (1..N)."""
        if not 1 <= sensor <= self.sensors:
            raise SimulatorError(f"sensor {sensor} is outside 1..{self.sensors}")
        return sensor - 1

    def set_present(self, sensor: int, present: bool) -> bool:
        """Cover or uncover a sensor (1..N); whether that changed anything."""
        cell = self.cell(sensor)
        with self._lock:
            changed = self.presence[cell] != present
            self.presence[cell] = present
            if Capability.COUNT in self.capabilities and not present:
                self.counts[cell] = 0
            if Capability.COUNT in self.capabilities and present and self.counts[cell] == 0:
                self.counts[cell] = 1
            if not present:
                self.owners[cell] = None
            return changed

    def set_count(self, sensor: int, count: int) -> bool:
        cell = self.cell(sensor)
        if Capability.COUNT not in self.capabilities:
            raise SimulatorError("this grid does not sense counts (start it with --count)")
        if not 0 <= count <= MAX_COUNT:
            raise SimulatorError(f"count {count} is outside 0..{MAX_COUNT}")
        with self._lock:
            before = (self.presence[cell], self.counts[cell])
            self.counts[cell] = count
            self.presence[cell] = count > 0
            return before != (self.presence[cell], count)

    def set_owner(self, sensor: int, owner: int | None) -> bool:
        cell = self.cell(sensor)
        if Capability.OWNER not in self.capabilities:
            raise SimulatorError("this grid does not sense owners (start it with --owner)")
        if owner is not None and not 0 <= owner <= MAX_OWNER:
            raise SimulatorError(f"owner {owner} is outside 0..{MAX_OWNER}")
        with self._lock:
            changed = self.owners[cell] != owner
            self.owners[cell] = owner
            return changed

    def covered(self) -> list[int]:
        """The covered sensors, numbered 1..N."""
        with self._lock:
            return [i + 1 for i, present in enumerate(self.presence) if present]


class PtyGrid:
    """A :class:`SimulatedGrid` on a pseudo-terminal, with its own thread."""

    def __init__(
        self,
        grid: SimulatedGrid,
        *,
        link: str | os.PathLike[str] | None = None,
        heartbeat_interval: float = 1.0,
    ) -> None:
        if heartbeat_interval <= 0:
            raise ValueError(f"heartbeat interval {heartbeat_interval} s is not positive")
        self.grid = grid
        self.link = Path(link) if link is not None else None
        self.heartbeat_interval = heartbeat_interval
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._path = ""
        self._muted_until = float("-inf")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._rng = random.Random()
        self.frames_sent = 0
        self.frames_dropped = 0

    @property
    def path(self) -> str:
        """The pty's device path (``/dev/pts/N``); empty while unplugged."""
        return self._path

    def start(self) -> str:
        """Plug in and start answering; returns the path to open."""
        self._plug()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="grid-sim", daemon=True)
        self._thread.start()
        return self._path

    def close(self) -> None:
        """Stop the thread, unplug, and remove the symlink."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self.unplug()
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()

    def __enter__(self) -> PtyGrid:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- plugging ---------------------------------------------------------------------

    def _plug(self) -> None:
        if self.link is not None and self.link.exists() and not self.link.is_symlink():
            raise FileExistsError(f"{self.link} exists and is not a symlink; not replacing it")
        master, slave = os.openpty()
        # Raw on the slave side: no echo, no line editing, no CR/LF translation. termios
        # belongs to the terminal, so it holds for the host's open too.
        tty.setraw(slave)
        os.set_blocking(master, False)
        path = os.ttyname(slave)
        if self.link is not None:
            temporary = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
            temporary.symlink_to(path)
            temporary.replace(self.link)  # atomic, like udev re-creating a by-id link
        with self._lock:
            self._master, self._slave, self._path = master, slave, path
        self.send(self.grid.boot())

    def unplug(self) -> None:
        """Close the device's end: the host's reads fail as when a USB cable is pulled."""
        with self._lock:
            fds = (self._master, self._slave)
            self._master = self._slave = None
            self._path = ""
        for fd in fds:
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def replug(self) -> str:
        """Plug in again, on a new pty behind the same symlink; returns the new path."""
        self.unplug()
        self._plug()
        return self._path

    # --- sending ------------------------------------------------------------------------

    def mute(self, seconds: float) -> None:
        """Send nothing for ``seconds`` (a hung device); answers are dropped too."""
        self._muted_until = time.monotonic() + seconds

    @property
    def muted(self) -> bool:
        return time.monotonic() < self._muted_until

    def send(self, data: bytes) -> bool:
        """Write bytes to the host now; False when dropped (unplugged, muted, full)."""
        if not data:
            return True
        with self._lock:
            if self._master is None or self.muted:
                self.frames_dropped += 1
                return False
            try:
                os.write(self._master, data)
            except (BlockingIOError, OSError):
                self.frames_dropped += 1
                return False
            self.frames_sent += 1
            return True

    def send_snapshot(self) -> bool:
        return self.send(self.grid.snapshot_frame())

    def send_noise(self, length: int) -> bool:
        noise = bytes(self._rng.choice(b"abcXYZ019#!?\x00\xff\r") for _ in range(length))
        return self.send(noise)

    def send_corrupt(self) -> bool:
        return self.send(self.grid.corrupt_frame(self._rng))

    def set_present(self, sensor: int, present: bool) -> None:
        """Cover or uncover a sensor (1..N); a SNAP goes out when that changed anything."""
        if self.grid.set_present(sensor, present):
            self.send_snapshot()

    def toggle(self, sensor: int) -> None:
        self.set_present(sensor, not self.grid.presence[self.grid.cell(sensor)])

    # --- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        next_heartbeat = time.monotonic() + self.heartbeat_interval
        while not self._stop.is_set():
            master = self._master
            timeout = max(0.0, min(0.05, next_heartbeat - time.monotonic()))
            if master is None:
                self._stop.wait(timeout or 0.05)
            else:
                try:
                    readable, _, _ = select.select([master], [], [], timeout)
                    data = os.read(master, 4096) if readable else b""
                except (OSError, ValueError):
                    data = b""  # unplugged meanwhile, or no host has the port open
                    self._stop.wait(0.01)
                if data and not self.muted:
                    self.send(self.grid.receive(data))
            now = time.monotonic()
            if now >= next_heartbeat:
                next_heartbeat = now + self.heartbeat_interval
                if self._master is not None:
                    self.send(self.grid.heartbeat_frame())


# --- the command language -------------------------------------------------------------

COMMANDS_HELP = """\
commands (sensors are numbered 1..N):
  N [N...]          toggle sensors            on N [N...] / off N [N...]   cover / uncover
  count N K         K tokens on sensor N      owner N K|-                  owner of sensor N
  clear             uncover every sensor      show                         what is covered
  wait S            pause S seconds           storm S   hands over the board for S seconds
  snap              send a SNAP now           hello                        send a HELLO now
  noise [K]         send K bytes of noise     corrupt     send a SNAP with one bit flipped
  mute S            say nothing for S seconds (the host goes offline after 3 s)
  unplug / replug   pull the cable / plug in again (a new pty behind the same --link)
  reboot [X.Y]      restart, optionally speaking protocol version X.Y
  help              this text                 quit                         stop
lines starting with # are comments"""


def _numbers(command: str, args: list[str], *, at_least: int = 1) -> list[int]:
    if len(args) < at_least:
        raise SimulatorError(f"{command}: needs a sensor number")
    try:
        return [int(arg) for arg in args]
    except ValueError:
        raise SimulatorError(f"{command}: {' '.join(args)!r} is not a list of numbers") from None


def _seconds(command: str, args: list[str]) -> float:
    if len(args) != 1:
        raise SimulatorError(f"{command}: needs a number of seconds")
    try:
        seconds = float(args[0])
    except ValueError:
        raise SimulatorError(f"{command}: {args[0]!r} is not a number of seconds") from None
    if not 0 <= seconds <= 3600:
        raise SimulatorError(f"{command}: {seconds} s is outside 0..3600")
    return seconds


def _storm(sim: PtyGrid, seconds: float, sleep: Callable[[float], None]) -> int:
    """Flicker random sensors for ``seconds``, then put everything back; the SNAPs sent."""
    grid = sim.grid
    rng = random.Random()
    before = list(grid.presence)
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sim.toggle(rng.randrange(grid.sensors) + 1)
        sent += 1
        sleep(rng.uniform(0.02, 0.08))
    for cell, present in enumerate(before):
        if grid.set_present(cell + 1, present):
            sent += 1
    sim.send_snapshot()
    return sent


def run_command(
    line: str,
    sim: PtyGrid,
    *,
    out: Callable[[str], object] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Carry out one command line; False when it was ``quit``."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:
        raise SimulatorError(f"cannot read {line.strip()!r}: {error}") from None
    if not words:
        return True
    command, args = words[0].lower(), words[1:]
    grid = sim.grid
    if command.isdigit():
        command, args = "toggle", words
    if command in ("quit", "exit"):
        return False
    if command == "help":
        out(COMMANDS_HELP)
    elif command in ("on", "off", "toggle"):
        sensors = _numbers(command, args)
        for sensor in sensors:
            grid.cell(sensor)  # check them all before changing anything
        for sensor in sensors:
            if command == "toggle":
                sim.toggle(sensor)
            else:
                sim.set_present(sensor, command == "on")
        out(_covered(grid))
    elif command == "clear":
        for sensor in grid.covered():
            grid.set_present(sensor, False)
        sim.send_snapshot()
        out(_covered(grid))
    elif command == "count":
        if len(args) != 2:
            raise SimulatorError(f"{command}: needs a sensor number and a number")
        sensor, count = _numbers(command, args)
        if grid.set_count(sensor, count):
            sim.send_snapshot()
        out(_covered(grid))
    elif command == "owner":
        if len(args) != 2:
            raise SimulatorError("owner: needs a sensor number and an owner number or -")
        sensor = _numbers(command, args[:1])[0]
        owner = None if args[1] == "-" else _numbers(command, args[1:])[0]
        if grid.set_owner(sensor, owner):
            sim.send_snapshot()
    elif command == "show":
        out(_covered(grid))
    elif command == "wait":
        sleep(_seconds(command, args))
    elif command == "storm":
        sent = _storm(sim, _seconds(command, args), sleep)
        out(f"storm over: {sent} changes; {_covered(grid)}")
    elif command == "snap":
        sim.send_snapshot()
    elif command == "hello":
        sim.send(grid.hello_frame())
    elif command == "noise":
        length = _numbers(command, args)[0] if args else 32
        sim.send_noise(max(0, min(length, 4096)))
    elif command == "corrupt":
        sim.send_corrupt()
    elif command == "mute":
        seconds = _seconds(command, args)
        sim.mute(seconds)
        out(f"muted for {seconds:g} s")
    elif command == "unplug":
        sim.unplug()
        out("unplugged")
    elif command == "replug":
        path = sim.replug()
        out(f"plugged in again on {path}" + (f" (via {sim.link})" if sim.link else ""))
    elif command == "reboot":
        version = None
        if args:
            try:
                version = ProtocolVersion.parse(args[0])
            except ValueError as error:
                raise SimulatorError(f"reboot: {error}") from None
        sim.send(grid.boot(version))
        out(f"rebooted, speaking protocol {grid.version}")
    else:
        raise SimulatorError(f"unknown command {command!r}; try 'help'")
    return True


def _covered(grid: SimulatedGrid) -> str:
    covered = grid.covered()
    if not covered:
        return "covered: none"
    if Capability.COUNT in grid.capabilities:
        return "covered: " + " ".join(f"{s}x{grid.counts[s - 1]}" for s in covered)
    return "covered: " + " ".join(map(str, covered))


def run_script(
    lines: Iterable[str],
    sim: PtyGrid,
    *,
    source: str = "script",
    out: Callable[[str], object] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Run script lines; False when one of them was ``quit``.

    ``SimulatorError`` names the source and the line number of a bad line.
    """
    for number, line in enumerate(lines, start=1):
        try:
            if not run_command(line, sim, out=out, sleep=sleep):
                return False
        except SimulatorError as error:
            raise SimulatorError(f"{source}, line {number}: {error}") from None
    return True


def serve(
    sim: PtyGrid,
    *,
    script: Iterable[str] | None = None,
    source: str = "script",
    commands: Iterable[str] = (),
    prompt: bool = False,
    out: Callable[[str], object] = print,
    err: Callable[[str], object] = print,
) -> int:
    """Run a script, then interactive ``commands`` (e.g. stdin lines) until quit or EOF.

    Returns an exit status: 0, or 1 when the script had a bad line (interactive mistakes
    are reported and the simulator carries on).
    """
    if script is not None:
        try:
            if not run_script(script, sim, source=source, out=out):
                return 0
        except SimulatorError as error:
            err(f"grid-sim: {error}")
            return 1
    if prompt:
        out("type 'help' for the commands")
    for line in commands:
        try:
            if not run_command(line, sim, out=out):
                break
        except SimulatorError as error:
            err(f"grid-sim: {error}")
    return 0
