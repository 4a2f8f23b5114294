"""Grid protocol frames for the firmware (MicroPython; also imported by host tests).

The firmware's own copy of the frame format of docs/grid-protocol.md, written in the
subset of Python that MicroPython runs (no typing, dataclasses, enum or binascii.crc_hqx).
Host tests check that every frame written here is byte for byte what
``hardware.grid.protocol`` writes, and that the CRC equals ``binascii.crc_hqx(b, 0xFFFF)``.

Invariants: a frame is ``$BODY*CRC\\n``, at most 256 bytes; CRC is CRC-16/CCITT-FALSE of
BODY as 4 upper-case hex digits; fields never hold ``$``, ``*``, ``,`` or control bytes
(:func:`clean` replaces them). :class:`HostFrameReader` never raises on what the host
sends; it turns every bad frame into a ``("BAD", reason)`` item.
"""

PROTOCOL_VERSION = "1.0"
MAX_FRAME = 256
SEQ_MODULUS = 65536

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) of a bytes-like object."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def clean(text):
    """``text`` made safe as a field: printable ASCII, no ``$ * ,``; at most 80 chars."""
    out = []
    for ch in str(text)[:80]:
        out.append(ch if " " <= ch <= "~" and ch not in "$*," else "_")
    return "".join(out)


def frame(kind, seq, fields=()):
    """The bytes of one frame: ``$KIND,SEQ,fields...*CRC\\n``."""
    parts = [kind, str(seq)]
    parts.extend(fields)  # no [*a, *b] displays: MicroPython lacks PEP 448
    body = ",".join(parts).encode()
    return b"$" + body + b"*" + f"{crc16(body):04X}".encode() + b"\n"


def hello(seq, firmware, cells, capabilities="presence"):
    return frame("HELLO", seq, (PROTOCOL_VERSION, clean(firmware), str(cells), capabilities))


def snapshot(seq, presence, counts=None, owners=None):
    """A SNAP of booleans (and optional counts 0..35, owners 0..35 or None)."""
    fields = ["P=" + "".join("1" if p else "0" for p in presence)]
    if counts is not None:
        fields.append("C=" + "".join(_DIGITS[min(max(c, 0), 35)] for c in counts))
    if owners is not None:
        fields.append("O=" + "".join("." if o is None else _DIGITS[o] for o in owners))
    return frame("SNAP", seq, fields)


def heartbeat(seq, uptime_s):
    return frame("HB", seq, (str(uptime_s),))


def error(seq, code, text=""):
    return frame("ERR", seq, (code, clean(text)))


class HostFrameReader:
    """Reads the host's frames (HELLO requests and GETs) from bytes split anywhere.

    :meth:`feed` returns a list of items: ``("HELLO", seq, version)``, ``("GET", seq,
    None)``, ``("UNKNOWN", seq, kind)`` or ``("BAD", None, reason)``.
    """

    def __init__(self):
        self._buf = bytearray()
        self._in_frame = False
        self._skipping = False

    def feed(self, data):
        items = []
        for byte in data:
            if byte == 0x24:  # '$': a frame starts (a partial one is dropped)
                if self._in_frame and not self._skipping:
                    items.append(("BAD", None, "a '$' arrived inside a frame"))
                self._buf = bytearray()
                self._in_frame = True
                self._skipping = False
            elif not self._in_frame:
                continue  # noise between frames: nothing to answer
            elif byte == 0x0A:  # '\n': the frame ends
                if not self._skipping:
                    items.append(self._decode(bytes(self._buf)))
                self._in_frame = False
                self._skipping = False
            elif not self._skipping:
                self._buf.append(byte)
                if len(self._buf) > MAX_FRAME - 2:
                    items.append(("BAD", None, "frame over 256 bytes"))
                    self._skipping = True
        return items

    def _decode(self, content):
        if content.endswith(b"\r"):
            content = content[:-1]
        star = content.rfind(b"*")
        if star < 0:
            return ("BAD", None, "no CRC")
        body = content[:star]
        crc_text = content[star + 1 :]
        if len(crc_text) != 4:
            return ("BAD", None, "CRC is not 4 hex digits")
        for ch in crc_text:
            if not (0x30 <= ch <= 0x39 or 0x41 <= ch <= 0x46):
                return ("BAD", None, "CRC is not 4 hex digits")
        if int(crc_text.decode(), 16) != crc16(body):
            return ("BAD", None, "bad CRC")
        for ch in body:
            if ch < 0x20 or ch > 0x7E:
                return ("BAD", None, "not printable ASCII")
        parts = body.decode().split(",")
        if len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) >= SEQ_MODULUS:
            return ("BAD", None, "no SEQ")
        seq = int(parts[1])
        kind = parts[0]
        if kind == "HELLO" and len(parts) == 3:
            return ("HELLO", seq, parts[2])
        if kind == "GET" and len(parts) == 2:
            return ("GET", seq, None)
        if kind in ("HELLO", "GET"):
            return ("BAD", None, "wrong number of fields")
        return ("UNKNOWN", seq, kind)
