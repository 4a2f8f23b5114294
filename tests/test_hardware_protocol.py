"""The grid protocol: frames round-trip, and the parser survives anything the wire does.

The parser is fed whole streams, one byte at a time, split at every offset, with random
noise between frames and with one bit flipped; it must never accept a corrupted frame,
must resynchronise on the next ``$``, and must count every kind of error.
"""

from __future__ import annotations

import binascii
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.grid.protocol import (
    MAX_CELLS,
    MAX_FRAME,
    MAX_UPTIME,
    PROTOCOL_VERSION,
    Capability,
    DeviceError,
    ErrorKind,
    Event,
    GetRequest,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    Parser,
    ProtocolVersion,
    Rejected,
    Role,
    SequenceGap,
    Sequencer,
    Snapshot,
    crc16,
    encode,
    encode_frame,
)

HELLO = Hello(0, PROTOCOL_VERSION, "pico-grid-1.0.0", 6, frozenset({Capability.PRESENCE}))


def frame_with_crc(body: bytes) -> bytes:
    """A frame built by hand (the encoder refuses to build bad ones)."""
    return b"$" + body + b"*" + b"%04X" % binascii.crc_hqx(body, 0xFFFF) + b"\n"


def messages_of(events: list[Event]) -> list[Event]:
    return [e for e in events if not isinstance(e, Rejected | SequenceGap)]


def feed_all(parser: Parser, chunks: list[bytes]) -> list[Event]:
    events: list[Event] = []
    for chunk in chunks:
        events += parser.feed(chunk)
    return events


def stream_of(messages: list[Message]) -> bytes:
    return b"".join(encode(m) for m in messages)


def a_game_stream() -> list[Message]:
    return [
        HELLO,
        Snapshot(1, (False,) * 6),
        Heartbeat(2, 1),
        Snapshot(3, (True, False, False, True, False, False)),
        DeviceError(4, "SENSOR", "mux 2 reads nothing"),
        Heartbeat(5, 2),
    ]


# --- frames ---------------------------------------------------------------------------


def test_the_crc_is_crc16_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the check value of CRC-16/CCITT-FALSE


def test_a_frame_is_dollar_body_star_crc_newline() -> None:
    assert encode(Heartbeat(7, 12)) == b"$HB,7,12*" + b"%04X" % crc16(b"HB,7,12") + b"\n"


@pytest.mark.parametrize(
    "message",
    [
        HELLO,
        Hello(9, ProtocolVersion(1, 4), "x", MAX_CELLS, frozenset(Capability)),
        Snapshot(65535, (True, False, True)),
        Snapshot(1, (True, False, True), counts=(2, 0, 35), owners=(0, None, 35)),
        Heartbeat(0, 86400),
        Heartbeat(2, 100_000),  # a grid left on for more than 28 hours
        Heartbeat(1, MAX_UPTIME),
        DeviceError(3, "BADFRAME", "bad CRC"),
        DeviceError(3, "SENSOR"),
    ],
)
def test_every_device_message_survives_the_round_trip(message: Message) -> None:
    parser = Parser(Role.HOST)
    assert parser.feed(encode(message)) == [message]


@pytest.mark.parametrize("message", [HelloRequest(0), HelloRequest(5, ProtocolVersion(2, 1)),
                                     GetRequest(65535)])  # fmt: skip
def test_every_host_message_survives_the_round_trip(message: Message) -> None:
    assert Parser(Role.DEVICE).feed(encode(message)) == [message]


def test_a_host_does_not_accept_host_messages_and_a_device_not_device_messages() -> None:
    host, device = Parser(Role.HOST), Parser(Role.DEVICE)
    assert [e.kind for e in host.feed(encode(GetRequest(1)))] == [ErrorKind.UNKNOWN_TYPE]  # type: ignore[union-attr]
    rejected = device.feed(encode(Heartbeat(1, 1)))
    assert isinstance(rejected[0], Rejected) and rejected[0].kind is ErrorKind.UNKNOWN_TYPE


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        (DeviceError(1, "SENSOR", "a, b"), "'a, b' holds ',', which frames reserve"),
        (DeviceError(1, "SENSOR", "caf\u00e9"), "not printable ASCII"),
        (DeviceError(1, "bad code"), "error code 'bad code'"),
        (Hello(1, PROTOCOL_VERSION, "fw*1", 4), "'fw*1' holds '*', which frames reserve"),
        (Hello(1, PROTOCOL_VERSION, "fw", 65), "region count 65 is outside 1..64"),
        (Snapshot(1, ()), "a snapshot of 0 cells"),
        (Snapshot(1, (True,), counts=(36,)), "count 36 is outside 0..35"),
        (Snapshot(1, (True, True), counts=(1,)), "snapshot counts has 1 cells, presence has 2"),
        (Heartbeat(65536, 1), "sequence number 65536"),
        (Heartbeat(1, -1), "heartbeat uptime -1 is negative"),
        (Heartbeat(1, MAX_UPTIME + 1), f"heartbeat uptime {MAX_UPTIME + 1} is over {MAX_UPTIME}"),
    ],
)
def test_the_encoder_refuses_what_it_cannot_send_and_says_why(
    message: Message, complaint: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(complaint)):
        encode(message)


def test_a_frame_may_be_256_bytes_but_not_one_more() -> None:
    longest = encode_frame("ERR", 1, ["SENSOR", "x" * (MAX_FRAME - len("$ERR,1,SENSOR,*XXXX\n"))])
    assert len(longest) == MAX_FRAME
    parser = Parser()
    assert isinstance(parser.feed(longest)[0], DeviceError)
    with pytest.raises(ValueError, match="257 bytes is over the 256 limit"):
        encode_frame("ERR", 1, ["SENSOR", "x" * (MAX_FRAME + 1 - len("$ERR,1,SENSOR,*XXXX\n"))])
    too_long = frame_with_crc(b"ERR,2,SENSOR," + b"x" * (MAX_FRAME + 1 - 20))
    assert len(too_long) == MAX_FRAME + 1
    assert parser.feed(too_long)[0].kind is ErrorKind.OVERLONG  # type: ignore[union-attr]
    assert parser.stats.count(ErrorKind.OVERLONG) == 1


def test_a_crlf_line_end_is_accepted() -> None:
    assert Parser().feed(encode(Heartbeat(1, 1))[:-1] + b"\r\n") == [Heartbeat(1, 1)]


def test_the_sequencer_wraps_after_65535() -> None:
    sequencer = Sequencer(65534)
    assert [sequencer.next() for _ in range(3)] == [65534, 65535, 0]


# --- splitting ------------------------------------------------------------------------


def test_a_stream_fed_one_byte_at_a_time_gives_the_same_events() -> None:
    stream = stream_of(a_game_stream())
    whole = Parser().feed(stream)
    assert whole == a_game_stream()
    assert feed_all(Parser(), [stream[i : i + 1] for i in range(len(stream))]) == whole


def test_a_stream_split_at_every_offset_gives_the_same_events() -> None:
    stream = b"noise" + stream_of(a_game_stream()) + b"$HB,9,1*0000\n"
    expected = Parser().feed(stream)
    for cut in range(len(stream) + 1):
        assert feed_all(Parser(), [stream[:cut], stream[cut:]]) == expected, cut


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_split_of_any_stream_gives_the_same_events(data: st.DataObject) -> None:
    stream = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from([encode(m) for m in a_game_stream()]),
                st.binary(max_size=20),
                st.just(b"$"),
                st.just(b"\n"),
            ),
            max_size=12,
        ).map(b"".join)
    )
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
    parser_whole, parser_split = Parser(), Parser()
    assert feed_all(parser_split, chunks) == parser_whole.feed(stream)
    assert parser_split.stats == parser_whole.stats


# --- noise and corruption -------------------------------------------------------------

noise = st.binary(max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.lists(noise, min_size=len(a_game_stream()) + 1, max_size=len(a_game_stream()) + 1))
def test_noise_between_frames_never_hides_or_changes_a_frame(gaps: list[bytes]) -> None:
    messages = a_game_stream()
    stream = b"".join(gap + encode(m) for gap, m in zip(gaps, messages, strict=False))
    stream += gaps[-1]
    events = Parser().feed(stream)
    assert messages_of(events) == messages


@st.composite
def one_bit_flipped(draw: st.DrawFn) -> tuple[list[Message], int, bytes, list[bytes]]:
    messages = a_game_stream()
    frames = [encode(m) for m in messages]
    victim = draw(st.integers(1, len(frames) - 1))  # the HELLO stays: it sets the size
    position = draw(st.integers(0, len(frames[victim]) - 1))
    bit = draw(st.integers(0, 7))
    corrupted = bytearray(frames[victim])
    corrupted[position] ^= 1 << bit
    gaps = draw(st.lists(noise, min_size=len(frames), max_size=len(frames)))
    return messages, victim, bytes(corrupted), gaps


@settings(max_examples=500, deadline=None)
@given(one_bit_flipped())
def test_a_frame_with_one_bit_flipped_is_never_accepted(
    case: tuple[list[Message], int, bytes, list[bytes]],
) -> None:
    messages, victim, corrupted, gaps = case
    frames = [encode(m) for m in messages]
    frames[victim] = corrupted
    # A good frame always follows: a corrupted last frame (say, its '\n' flipped) cannot
    # be judged until the next '$' arrives.
    trailer = Heartbeat(len(messages), 99)
    stream = b"".join(gap + frame for gap, frame in zip(gaps, frames, strict=True))
    stream += encode(trailer)
    for chunks in ([stream], [stream[i : i + 1] for i in range(len(stream))]):
        parser = Parser()
        accepted = messages_of(feed_all(parser, chunks))
        # Everything but the victim, unchanged: the parser resynchronised at once.
        assert accepted == [*messages[:victim], *messages[victim + 1 :], trailer]
        assert parser.stats.total_errors >= 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=10))
def test_the_parser_never_raises_on_garbage(chunks: list[bytes]) -> None:
    parser = Parser()
    for chunk in chunks:
        for event in parser.feed(chunk):
            if isinstance(event, Rejected):
                assert "could not decode" not in event.detail  # the last guard never fired
    assert parser.feed(encode(Heartbeat(0, 0)) + encode(HELLO))[-1] == HELLO


# --- every error counted --------------------------------------------------------------


def rejected_kinds(events: list[Event]) -> list[ErrorKind]:
    return [e.kind for e in events if isinstance(e, Rejected)]


def test_garbage_before_a_frame_is_counted_as_noise_and_the_frame_kept() -> None:
    parser = Parser()
    events = parser.feed(b"\x00\xffboot: rp2\r\n" + encode(HELLO))
    assert rejected_kinds(events) == [ErrorKind.NOISE]
    assert events[-1] == HELLO
    assert parser.stats.count(ErrorKind.NOISE) == 1
    assert parser.stats.noise_bytes == len(b"\x00\xffboot: rp2\r")


def test_blank_lines_between_frames_are_not_noise() -> None:
    parser = Parser()
    parser.feed(b"\r\n\n" + encode(HELLO) + b"\r\n")
    assert parser.stats.total_errors == 0


def test_a_dollar_inside_a_frame_drops_the_partial_frame_and_starts_again() -> None:
    parser = Parser()
    frame = encode(Heartbeat(1, 5))
    events = parser.feed(frame[:6] + frame)
    assert rejected_kinds(events) == [ErrorKind.RESTARTED]
    assert messages_of(events) == [Heartbeat(1, 5)]
    assert parser.stats.count(ErrorKind.RESTARTED) == 1


def test_a_bad_crc_is_counted_and_named() -> None:
    parser = Parser()
    (event,) = parser.feed(b"$HB,1,5*0000\n")
    assert isinstance(event, Rejected) and event.kind is ErrorKind.BAD_CRC
    assert "CRC 0000 does not match" in event.detail
    assert parser.stats.count(ErrorKind.BAD_CRC) == 1


def test_an_unknown_type_is_counted_but_keeps_the_sequence() -> None:
    parser = Parser()
    events = parser.feed(
        encode(Heartbeat(1, 1)) + frame_with_crc(b"TEMP,2,21") + encode(Heartbeat(3, 1))
    )
    assert rejected_kinds(events) == [ErrorKind.UNKNOWN_TYPE]
    assert "unknown frame type 'TEMP'" in events[1].detail  # type: ignore[union-attr]
    assert parser.stats.sequence_gaps == 0
    assert parser.stats.count(ErrorKind.UNKNOWN_TYPE) == 1


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        (b"HB,1", "HB takes 1 fields after SEQ, got 0"),
        (b"HB,x,1", "SEQ 'x' is not a whole number"),
        (b"HB,65536,1", "SEQ '65536'"),
        (b"HB", "has no SEQ"),
        (b"SNAP,1,P=10X", "P= holds something other than 0 and 1"),
        (b"SNAP,1,P=101,C=1", "C= has 1 cells, P= has 3"),
        (b"SNAP,1,C=101", "no P= (presence) field"),
        (b"SNAP,1,P=1,P=1", "P= appears twice"),
        (b"HELLO,0,one,fw,4,presence", "protocol version 'one' is not MAJOR.MINOR"),
        (b"HELLO,0,1.0,fw,4,count", "lack presence"),
        (b"HELLO,0,1.0,fw,0,presence", "region count is 0"),
        (b"HB,1,1\x01", "not printable ASCII"),
    ],
)
def test_a_malformed_frame_with_a_good_crc_is_counted_and_named(
    body: bytes, complaint: str
) -> None:
    parser = Parser()
    (event,) = parser.feed(frame_with_crc(body))
    assert isinstance(event, Rejected) and event.kind is ErrorKind.MALFORMED
    assert complaint in event.detail
    assert parser.stats.count(ErrorKind.MALFORMED) == 1


@pytest.mark.parametrize("frame", [b"$HB,1,1\n", b"$HB,1,1*12\n", b"$HB,1,1*abcd\n"])
def test_a_frame_without_a_proper_crc_is_malformed(frame: bytes) -> None:
    parser = Parser()
    assert rejected_kinds(parser.feed(frame)) == [ErrorKind.MALFORMED]


def test_a_snapshot_of_another_size_than_the_hello_said_is_refused() -> None:
    parser = Parser()
    parser.feed(encode(HELLO))
    (event,) = parser.feed(encode(Snapshot(1, (True,) * 5)))
    assert isinstance(event, Rejected)
    assert "SNAP has 5 cells but HELLO said 6" in event.detail


def test_an_unknown_capability_of_a_newer_minor_version_is_skipped() -> None:
    (hello,) = Parser().feed(frame_with_crc(b"HELLO,0,1.7,fw,4,presence+colour"))
    assert isinstance(hello, Hello)
    assert hello.capabilities == frozenset({Capability.PRESENCE})
    assert hello.version == ProtocolVersion(1, 7)


def test_a_sequence_gap_is_reported_before_the_frame_that_reveals_it() -> None:
    parser = Parser()
    events = parser.feed(encode(Heartbeat(1, 1)) + encode(Heartbeat(4, 1)))
    assert events == [Heartbeat(1, 1), SequenceGap(2, 4), Heartbeat(4, 1)]
    assert parser.stats.sequence_gaps == 1


def test_a_lost_frame_shows_as_a_gap_on_the_next_good_frame() -> None:
    parser = Parser()
    corrupted = bytearray(encode(Snapshot(2, (True,) * 6)))
    corrupted[9] ^= 0x01
    events = parser.feed(encode(HELLO) + encode(Heartbeat(1, 1)) + bytes(corrupted)
                         + encode(Heartbeat(3, 1)))  # fmt: skip
    assert SequenceGap(2, 3) in events
    assert not any(isinstance(e, Snapshot) for e in events)


def test_the_sequence_wraps_without_a_gap_and_a_hello_restarts_it() -> None:
    parser = Parser()
    events = parser.feed(encode(Heartbeat(65535, 1)) + encode(Heartbeat(0, 1)) + encode(HELLO)
                         + encode(Heartbeat(1, 1)))  # fmt: skip
    assert not any(isinstance(e, SequenceGap) for e in events)


def test_the_stats_summary_names_every_count() -> None:
    parser = Parser()
    parser.feed(b"xx\n$HB,1,5*0000\n" + encode(Heartbeat(1, 1)))
    summary = parser.stats.summary()
    assert summary.startswith("frames 1, gaps 0")
    for kind in ErrorKind:
        assert kind.value in summary
    assert "noise 1" in summary and "bad_crc 1" in summary


def test_the_benchmark_stream_parses_cleanly_and_reports_a_rate() -> None:
    from hardware.grid.bench import measure, sample_stream

    result = measure(chunk=64, stream=sample_stream(frames=300))
    assert result.frames == 300
    assert result.bytes_per_second > 0 and result.line_rate_multiple > 0
