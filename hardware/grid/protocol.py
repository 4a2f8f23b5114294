"""The region sensor grid's wire protocol: frames, messages and a pure parser.

Concept
-------
The grid (a microcontroller under the board) and the host talk in ASCII lines, one frame
per line::

    $BODY*CRC\\n        BODY = TYPE,SEQ,field,...     CRC = 4 upper-case hex digits

CRC is CRC-16/CCITT-FALSE of the BODY bytes (``binascii.crc_hqx(body, 0xFFFF)``). A frame,
from ``$`` to ``\\n`` inclusive, is at most :data:`MAX_FRAME` (256) bytes; one ``\\r``
before the ``\\n`` is tolerated. ``docs/grid-protocol.md`` is the full specification.

Each side numbers its own frames with SEQ (decimal, 0..65535, then back to 0). A HELLO
restarts the numbering (a device that reboots says HELLO first); any other frame whose SEQ
is not one more than the previous one reveals lost frames, reported as a
:class:`SequenceGap` before the frame itself, so that the host can ask for a fresh snapshot.

:class:`Parser` is a state machine with no I/O, in the manner of h11: ``feed(data)`` takes
any bytes, split anywhere, and returns the events completed by them.

Invariants
----------
- ``Parser.feed`` never raises on what arrives from the wire. Noise, a ``$`` inside a
  frame, a bad CRC, a malformed body, an unknown type and an over-long line each produce a
  :class:`Rejected` event, are counted in :attr:`Parser.stats`, and are never turned into
  a message. The parser resynchronises on the next ``$``.
- A message event is produced only from a complete frame whose CRC matches its body and
  whose every field is valid; a snapshot whose size differs from the last HELLO's region
  count is rejected.
- The events of a byte stream do not depend on how the stream is split into ``feed``
  calls.
- The encoders (:func:`encode`, :func:`encode_frame`) raise ``ValueError`` naming the bad
  field: a frame this module writes always parses back to the same message.
"""

from __future__ import annotations

import binascii
import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

MAX_FRAME = 256
"""The longest frame, in bytes, from ``$`` to ``\\n`` inclusive."""

SEQ_MODULUS = 65536
"""Sequence numbers run 0..65535 and then wrap to 0."""

MAX_CELLS = 64
"""The most sensor cells a grid may report (four 16-channel multiplexers)."""

MAX_COUNT = 35
"""The highest token count a snapshot can carry per cell (one base-36 digit)."""

MAX_OWNER = 35
"""The highest owner number a snapshot can carry per cell (one base-36 digit)."""

MAX_UPTIME = 10**10
"""The highest uptime a heartbeat can carry, in seconds (some 317 years)."""

_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TEXT_FIELD = re.compile(r"[\x20-\x7e]*")
_FORBIDDEN_IN_FIELD = frozenset("$*,")
_HEX4 = re.compile(rb"[0-9A-F]{4}")
_PRINTABLE = re.compile(rb"[\x20-\x7e]*")
_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_VERSION = re.compile(r"(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})")
_CODE = re.compile(r"[A-Z][A-Z0-9_]{0,15}")
_RAW_KEPT = 64


@dataclass(frozen=True, order=True)
class ProtocolVersion:
    """A protocol version ``MAJOR.MINOR``; only the same MAJOR can talk."""

    major: int
    minor: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    def compatible_with(self, other: ProtocolVersion) -> bool:
        """Whether two sides with these versions understand each other (same major)."""
        return self.major == other.major

    @classmethod
    def parse(cls, text: str) -> ProtocolVersion:
        """``"1.0"`` -> ``ProtocolVersion(1, 0)``; ``ValueError`` naming the text otherwise."""
        match = _VERSION.fullmatch(text)
        if match is None:
            raise ValueError(f"protocol version {text!r} is not MAJOR.MINOR")
        return cls(int(match[1]), int(match[2]))


PROTOCOL_VERSION = ProtocolVersion(1, 0)
"""The version this module speaks."""


class Capability(enum.Enum):
    """What a grid can sense in each cell."""

    PRESENCE = "presence"
    """Whether anything sits on the cell (every grid has this)."""
    COUNT = "count"
    """How many tokens sit on the cell."""
    OWNER = "owner"
    """Whose tokens sit on the cell (a small owner number)."""


class Role(enum.Enum):
    """The side a parser runs on; it accepts the messages the other side sends."""

    HOST = "host"
    """Parses what a grid sends: HELLO, SNAP, HB, ERR."""
    DEVICE = "device"
    """Parses what a host sends: HELLO (a request), GET."""


# --- messages ------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """Device -> host: who the grid is. Sent at start-up and whenever the host asks."""

    seq: int
    version: ProtocolVersion
    firmware: str
    regions: int
    capabilities: frozenset[Capability] = frozenset({Capability.PRESENCE})


BoardState = tuple[tuple[bool, ...], tuple[int, ...] | None, tuple[int | None, ...] | None]
"""What a snapshot says about the board: (presence, counts, owners), without its SEQ."""


@dataclass(frozen=True)
class Snapshot:
    """Device -> host: the debounced state of every cell, the only truth about the board.

    ``presence[i]`` says whether cell ``i`` is covered. ``counts`` and ``owners`` are there
    only when the grid has those capabilities; an owner is ``None`` where unknown or empty.
    """

    seq: int
    presence: tuple[bool, ...]
    counts: tuple[int, ...] | None = None
    owners: tuple[int | None, ...] | None = None

    @property
    def cells(self) -> int:
        """How many cells the snapshot covers."""
        return len(self.presence)

    def state(self) -> BoardState:
        """What the board looks like, without the frame's sequence number."""
        return (self.presence, self.counts, self.owners)

    def covered(self) -> frozenset[int]:
        """The indices of the covered cells."""
        return frozenset(i for i, present in enumerate(self.presence) if present)


@dataclass(frozen=True)
class Heartbeat:
    """Device -> host: still here, once a second; ``uptime`` in whole seconds."""

    seq: int
    uptime: int


@dataclass(frozen=True)
class DeviceError:
    """Device -> host: something went wrong on the grid (``code`` e.g. ``BADFRAME``)."""

    seq: int
    code: str
    text: str = ""


@dataclass(frozen=True)
class HelloRequest:
    """Host -> device: say HELLO; carries the host's own protocol version."""

    seq: int
    version: ProtocolVersion = PROTOCOL_VERSION


@dataclass(frozen=True)
class GetRequest:
    """Host -> device: send a full snapshot now."""

    seq: int


Message = Hello | Snapshot | Heartbeat | DeviceError | HelloRequest | GetRequest


# --- parser events that are not messages ---------------------------------------------


class ErrorKind(enum.Enum):
    """Every way a frame can fail; each is counted by the parser."""

    NOISE = "noise"
    """Bytes outside any frame (one count per run of noise)."""
    RESTARTED = "restarted"
    """A ``$`` arrived inside a frame: the partial frame is dropped."""
    OVERLONG = "overlong"
    """No ``\\n`` within :data:`MAX_FRAME` bytes of the ``$``."""
    BAD_CRC = "bad_crc"
    """The CRC does not match the body."""
    MALFORMED = "malformed"
    """No ``*CRC``, bytes that are not printable ASCII, or a bad field."""
    UNKNOWN_TYPE = "unknown_type"
    """A TYPE this side does not accept."""


@dataclass(frozen=True)
class Rejected:
    """A frame (or a run of noise) was dropped; ``raw`` keeps its first 64 bytes."""

    kind: ErrorKind
    detail: str
    raw: bytes = b""


@dataclass(frozen=True)
class SequenceGap:
    """Frames were lost (or repeated): ``received`` came where ``expected`` should have."""

    expected: int
    received: int


Event = Message | Rejected | SequenceGap


@dataclass(frozen=True)
class ParserStats:
    """What a parser has seen so far: good frames, gaps and every kind of error."""

    frames: int = 0
    sequence_gaps: int = 0
    noise_bytes: int = 0
    errors: dict[ErrorKind, int] = field(default_factory=dict)

    def count(self, kind: ErrorKind) -> int:
        """How many times this kind of error happened."""
        return self.errors.get(kind, 0)

    @property
    def total_errors(self) -> int:
        return sum(self.errors.values())

    def summary(self) -> str:
        """One line for a monitor or a log, e.g. ``frames 12, gaps 1, bad_crc 2``."""
        parts = [f"frames {self.frames}", f"gaps {self.sequence_gaps}"]
        parts += [f"{kind.value} {self.count(kind)}" for kind in ErrorKind]
        return ", ".join(parts)


# --- encoding ------------------------------------------------------------------------


def crc16(body: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``body`` (polynomial 0x1021, initial value 0xFFFF)."""
    return binascii.crc_hqx(body, 0xFFFF)


def _check_field(name: str, value: str) -> str:
    if not _TEXT_FIELD.fullmatch(value):
        raise ValueError(f"{name} {value!r} holds a byte that is not printable ASCII")
    bad = sorted(set(value) & _FORBIDDEN_IN_FIELD)
    if bad:
        raise ValueError(f"{name} {value!r} holds {''.join(bad)!r}, which frames reserve")
    return value


def _check_seq(seq: int) -> int:
    if not 0 <= seq < SEQ_MODULUS:
        raise ValueError(f"sequence number {seq} is outside 0..{SEQ_MODULUS - 1}")
    return seq


def encode_frame(kind: str, seq: int, fields: Iterable[str] = ()) -> bytes:
    """The frame ``$KIND,SEQ,fields...*CRC\\n``; ``ValueError`` naming a bad part."""
    parts = [_check_field("type", kind), str(_check_seq(seq))]
    parts += [_check_field(f"field {i + 1}", value) for i, value in enumerate(fields)]
    body = ",".join(parts).encode("ascii")
    frame = b"$" + body + b"*" + b"%04X" % crc16(body) + b"\n"
    if len(frame) > MAX_FRAME:
        raise ValueError(f"a {kind} frame of {len(frame)} bytes is over the {MAX_FRAME} limit")
    return frame


def _base36(value: int, what: str, limit: int) -> str:
    if not 0 <= value <= limit:
        raise ValueError(f"{what} {value} is outside 0..{limit}")
    return _BASE36[value]


def message_fields(message: Message) -> tuple[str, list[str]]:
    """The TYPE and the fields after SEQ of a message, as they go on the wire."""
    if isinstance(message, Hello):
        if not 1 <= message.regions <= MAX_CELLS:
            raise ValueError(f"HELLO region count {message.regions} is outside 1..{MAX_CELLS}")
        if Capability.PRESENCE not in message.capabilities:
            raise ValueError("HELLO capabilities must include presence")
        caps = "+".join(c.value for c in Capability if c in message.capabilities)
        return "HELLO", [str(message.version), message.firmware, str(message.regions), caps]
    if isinstance(message, Snapshot):
        cells = message.cells
        if not 1 <= cells <= MAX_CELLS:
            raise ValueError(f"a snapshot of {cells} cells is outside 1..{MAX_CELLS}")
        for name, values in (("counts", message.counts), ("owners", message.owners)):
            if values is not None and len(values) != cells:
                raise ValueError(f"snapshot {name} has {len(values)} cells, presence has {cells}")
        fields = ["P=" + "".join("1" if p else "0" for p in message.presence)]
        if message.counts is not None:
            fields.append("C=" + "".join(_base36(c, "count", MAX_COUNT) for c in message.counts))
        if message.owners is not None:
            owners = ("." if o is None else _base36(o, "owner", MAX_OWNER) for o in message.owners)
            fields.append("O=" + "".join(owners))
        return "SNAP", fields
    if isinstance(message, Heartbeat):
        if message.uptime < 0:
            raise ValueError(f"heartbeat uptime {message.uptime} is negative")
        if message.uptime > MAX_UPTIME:  # never sent what `decode` refuses
            raise ValueError(f"heartbeat uptime {message.uptime} is over {MAX_UPTIME}")
        return "HB", [str(message.uptime)]
    if isinstance(message, DeviceError):
        if not _CODE.fullmatch(message.code):
            raise ValueError(f"error code {message.code!r} is not 1-16 of A-Z, 0-9, _")
        return "ERR", [message.code, message.text]
    if isinstance(message, HelloRequest):
        return "HELLO", [str(message.version)]
    return "GET", []


def encode(message: Message) -> bytes:
    """The frame carrying ``message``; ``ValueError`` naming what cannot be sent."""
    kind, fields = message_fields(message)
    return encode_frame(kind, message.seq, fields)


class Sequencer:
    """Hands out one side's sequence numbers: 0, 1, ... 65535, 0, ..."""

    def __init__(self, start: int = 0) -> None:
        self._next = _check_seq(start)

    def next(self) -> int:
        seq = self._next
        self._next = (seq + 1) % SEQ_MODULUS
        return seq

    def restart(self) -> None:
        """Begin again at 0 (what a side does when it says HELLO after a restart)."""
        self._next = 0


# --- decoding ------------------------------------------------------------------------


class _Malformed(Exception):
    """A frame whose CRC matched but whose body does not make a valid message."""


class _UnknownType(Exception):
    """A well-formed frame of a TYPE this side does not accept."""

    def __init__(self, kind: str, seq: int = 0) -> None:
        super().__init__(kind)
        self.kind = kind
        self.seq = seq


def _int_field(name: str, text: str, limit: int) -> int:
    """The whole number 0..`limit` `text` writes in decimal, with no leading zero (as many
    digits as `limit` has at most: a heartbeat's uptime passes 99999 s after 28 hours)."""
    if (not _DECIMAL.fullmatch(text) or len(text) > len(str(limit))
            or int(text) > limit):
        raise _Malformed(f"{name} {text!r} is not a whole number 0..{limit}")
    return int(text)


def _expect(kind: str, fields: Sequence[str], count: int) -> None:
    if len(fields) != count:
        raise _Malformed(f"{kind} takes {count} fields after SEQ, got {len(fields)}")


def _decode_hello(seq: int, fields: Sequence[str]) -> Hello:
    _expect("HELLO", fields, 4)
    version_text, firmware, regions_text, caps_text = fields
    try:
        version = ProtocolVersion.parse(version_text)
    except ValueError as error:
        raise _Malformed(str(error)) from None
    regions = _int_field("HELLO region count", regions_text, MAX_CELLS)
    if regions == 0:
        raise _Malformed("HELLO region count is 0")
    capabilities: set[Capability] = set()
    for name in caps_text.split("+"):
        try:
            capabilities.add(Capability(name))
        except ValueError:
            # A newer minor version may add capabilities; an unknown one is skipped.
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise _Malformed(f"HELLO capability {name!r} is not a lower-case word") from None
    if Capability.PRESENCE not in capabilities:
        raise _Malformed(f"HELLO capabilities {caps_text!r} lack presence")
    return Hello(seq, version, firmware, regions, frozenset(capabilities))


def _decode_snapshot(seq: int, fields: Sequence[str], expected_cells: int | None) -> Snapshot:
    tagged: dict[str, str] = {}
    for item in fields:
        tag, equals, value = item.partition("=")
        if not equals or tag not in ("P", "C", "O"):
            raise _Malformed(f"SNAP field {item[:20]!r} is not P=, C= or O=")
        if tag in tagged:
            raise _Malformed(f"SNAP field {tag}= appears twice")
        tagged[tag] = value
    if "P" not in tagged:
        raise _Malformed("SNAP has no P= (presence) field")
    cells = len(tagged["P"])
    if not 1 <= cells <= MAX_CELLS:
        raise _Malformed(f"SNAP has {cells} cells, outside 1..{MAX_CELLS}")
    if expected_cells is not None and cells != expected_cells:
        raise _Malformed(f"SNAP has {cells} cells but HELLO said {expected_cells}")
    for tag, value in tagged.items():
        if len(value) != cells:
            raise _Malformed(f"SNAP {tag}= has {len(value)} cells, P= has {cells}")
    if set(tagged["P"]) - {"0", "1"}:
        raise _Malformed("SNAP P= holds something other than 0 and 1")
    presence = tuple(c == "1" for c in tagged["P"])
    counts: tuple[int, ...] | None = None
    if "C" in tagged:
        if set(tagged["C"]) - set(_BASE36):
            raise _Malformed("SNAP C= holds something other than 0-9, A-Z")
        counts = tuple(_BASE36.index(c) for c in tagged["C"])
    owners: tuple[int | None, ...] | None = None
    if "O" in tagged:
        if set(tagged["O"]) - set(_BASE36) - {"."}:
            raise _Malformed("SNAP O= holds something other than '.', 0-9, A-Z")
        owners = tuple(None if c == "." else _BASE36.index(c) for c in tagged["O"])
    return Snapshot(seq, presence, counts, owners)


def _decode_host_message(kind: str, seq: int, fields: Sequence[str], cells: int | None) -> Message:
    if kind == "HELLO":
        return _decode_hello(seq, fields)
    if kind == "SNAP":
        return _decode_snapshot(seq, fields, cells)
    if kind == "HB":
        _expect("HB", fields, 1)
        return Heartbeat(seq, _int_field("HB uptime", fields[0], MAX_UPTIME))
    if kind == "ERR":
        _expect("ERR", fields, 2)
        if not _CODE.fullmatch(fields[0]):
            raise _Malformed(f"ERR code {fields[0]!r} is not 1-16 of A-Z, 0-9, _")
        return DeviceError(seq, fields[0], fields[1])
    raise _UnknownType(kind, seq)


def _decode_device_message(kind: str, seq: int, fields: Sequence[str]) -> Message:
    if kind == "HELLO":
        _expect("HELLO request", fields, 1)
        try:
            return HelloRequest(seq, ProtocolVersion.parse(fields[0]))
        except ValueError as error:
            raise _Malformed(str(error)) from None
    if kind == "GET":
        _expect("GET", fields, 0)
        return GetRequest(seq)
    raise _UnknownType(kind, seq)


class _State(enum.Enum):
    IDLE = "between frames"
    FRAME = "inside a frame"
    SKIP = "skipping an over-long frame"


class Parser:
    """Turns the bytes one side receives into events; see the module docstring.

    ``role`` is the side the parser runs on: :attr:`Role.HOST` (the default) accepts what
    a grid sends, :attr:`Role.DEVICE` what a host sends (the simulator uses it).

    A run of noise is reported when it ends (at the next ``\\n`` or ``$``); runs of bare
    ``\\r`` are blank lines and are not noise. A frame's SEQ is checked only when its CRC
    matches and its body is well formed; an unknown TYPE with a good CRC still counts for
    the sequence (a newer minor version may add messages), a malformed frame does not (so
    the next frame reveals the loss as a gap).
    """

    def __init__(self, role: Role = Role.HOST) -> None:
        self.role = role
        self._state = _State.IDLE
        self._frame = bytearray()
        self._noise = bytearray()
        self._noise_length = 0
        self._noise_blank = True
        self._last_seq: int | None = None
        self._regions: int | None = None
        self._frames = 0
        self._gaps = 0
        self._noise_bytes = 0
        self._errors: dict[ErrorKind, int] = {}

    @property
    def stats(self) -> ParserStats:
        """A copy of the counts so far."""
        return ParserStats(self._frames, self._gaps, self._noise_bytes, dict(self._errors))

    def feed(self, data: bytes) -> list[Event]:
        """Take the next bytes from the wire; return the events they complete, in order."""
        events: list[Event] = []
        pos = 0
        end = len(data)
        while pos < end:
            stop = _next_delimiter(data, pos, end)
            if self._state is _State.IDLE:
                self._add_noise(data[pos:stop])
                if stop == end:
                    break
                self._flush_noise(events)
                if data[stop] == 0x24:  # '$'
                    self._state = _State.FRAME
                    self._frame.clear()
            elif self._state is _State.FRAME:
                self._frame += data[pos:stop]
                if len(self._frame) > MAX_FRAME - 2:
                    self._reject(
                        events, ErrorKind.OVERLONG, f"no end of line within {MAX_FRAME} bytes"
                    )
                    self._state = _State.SKIP
                    pos = stop
                    continue
                if stop == end:
                    break
                if data[stop] == 0x24:  # '$' inside a frame: drop it, start again
                    self._reject(events, ErrorKind.RESTARTED, "a '$' arrived inside a frame")
                    self._frame.clear()
                else:
                    self._finish(events)
                    self._state = _State.IDLE
            else:  # SKIP: the rest of an over-long frame, up to the next '$' or '\n'
                if stop == end:
                    break
                self._frame.clear()
                self._state = _State.FRAME if data[stop] == 0x24 else _State.IDLE
            pos = stop + 1
        return events

    # --- noise --------------------------------------------------------------------

    def _add_noise(self, chunk: bytes) -> None:
        if not chunk:
            return
        if len(self._noise) < _RAW_KEPT:
            self._noise += chunk[: _RAW_KEPT - len(self._noise)]
        self._noise_length += len(chunk)
        if self._noise_blank and chunk.strip(b"\r"):
            self._noise_blank = False

    def _flush_noise(self, events: list[Event]) -> None:
        if self._noise_length and not self._noise_blank:
            self._noise_bytes += self._noise_length
            self._count(ErrorKind.NOISE)
            events.append(
                Rejected(
                    ErrorKind.NOISE,
                    f"{self._noise_length} bytes outside any frame",
                    bytes(self._noise),
                )
            )
        self._noise.clear()
        self._noise_length = 0
        self._noise_blank = True

    # --- frames -------------------------------------------------------------------

    def _count(self, kind: ErrorKind) -> None:
        self._errors[kind] = self._errors.get(kind, 0) + 1

    def _reject(self, events: list[Event], kind: ErrorKind, detail: str) -> None:
        self._count(kind)
        events.append(Rejected(kind, detail, b"$" + bytes(self._frame[: _RAW_KEPT - 1])))

    def _finish(self, events: list[Event]) -> None:
        content = bytes(self._frame)
        if content.endswith(b"\r"):
            content = content[:-1]
        body, star, crc = content.rpartition(b"*")
        if not star:
            self._reject(events, ErrorKind.MALFORMED, "no '*' before the CRC")
            return
        if not _HEX4.fullmatch(crc):
            self._reject(
                events, ErrorKind.MALFORMED, f"CRC {crc[:8]!r} is not 4 upper-case hex digits"
            )
            return
        computed = crc16(body)
        if computed != int(crc, 16):
            self._reject(
                events,
                ErrorKind.BAD_CRC,
                f"CRC {crc.decode()} does not match the body (which gives {computed:04X})",
            )
            return
        try:
            message = self._decode(body)
        except _UnknownType as unknown:
            self._track(events, unknown.seq, restart=False)
            self._reject(events, ErrorKind.UNKNOWN_TYPE, f"unknown frame type {unknown.kind!r}")
            return
        except _Malformed as malformed:
            self._reject(events, ErrorKind.MALFORMED, str(malformed))
            return
        except Exception as error:  # a last guard: wire data must never raise
            self._reject(events, ErrorKind.MALFORMED, f"could not decode the frame: {error!r}")
            return
        self._frames += 1
        self._track(events, message.seq, restart=isinstance(message, Hello | HelloRequest))
        if isinstance(message, Hello):
            self._regions = message.regions
        events.append(message)

    def _track(self, events: list[Event], seq: int, *, restart: bool) -> None:
        if not restart and self._last_seq is not None:
            expected = (self._last_seq + 1) % SEQ_MODULUS
            if seq != expected:
                self._gaps += 1
                events.append(SequenceGap(expected, seq))
        self._last_seq = seq

    def _decode(self, body: bytes) -> Message:
        if not _PRINTABLE.fullmatch(body):
            raise _Malformed("the body holds a byte that is not printable ASCII")
        if b"*" in body:
            raise _Malformed("a '*' inside the body")
        parts = body.decode("ascii").split(",")
        if len(parts) < 2:
            raise _Malformed(f"body {parts[0][:20]!r} has no SEQ")
        kind, seq_text, fields = parts[0], parts[1], parts[2:]
        seq = _int_field("SEQ", seq_text, SEQ_MODULUS - 1)
        if self.role is Role.HOST:
            return _decode_host_message(kind, seq, fields, self._regions)
        return _decode_device_message(kind, seq, fields)


def _next_delimiter(data: bytes, pos: int, end: int) -> int:
    """The index of the next '$' or '\\n' at or after ``pos``; ``end`` if there is none."""
    dollar = data.find(b"$", pos)
    newline = data.find(b"\n", pos)
    if dollar < 0:
        return newline if newline >= 0 else end
    if newline < 0:
        return dollar
    return min(dollar, newline)
