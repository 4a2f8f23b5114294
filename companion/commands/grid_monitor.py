"""``companion grid-monitor PORT``: print what a region sensor grid says, frame by frame.

Every decoded frame (HELLO, SNAP, HB, ERR), every dropped frame with its reason, sequence
gaps and the link going up, down or refused are printed with the seconds since start;
the error counts follow each error and close the run. Sensors are shown numbered 1..N,
as the simulator numbers them. The link is :class:`hardware.grid.link.GridLink`, so this
also shows its handshake, offline detection and reconnection at work.

The link's reader thread hands each frame to the printer through a queue of at most
:data:`WAITING_LIMIT` frames. When printing cannot keep up (a slow terminal, output piped
to a program that stopped reading, a flood of frames), a frame that finds the queue full is
dropped and counted: a line says how many were dropped, and before the totals one line
gives the count and the most that were ever waiting, so memory stays flat however fast the
grid talks.

A port that does not exist when the monitor starts is an error: one line on stderr, exit
status 1 (a grid unplugged later is shown as the link going down, and waited for).

Its sentences for people (that error, the start line, the frames dropped) follow
``--lang``; the trace itself (HELLO, SNAP, HB, ERR, gap, link up/down, the counts, with
the grid's and the link's own reasons) is the protocol's, in English whatever the language.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from companion.commands import Command, _

WAITING_LIMIT = 1000
"""The most frames waiting to be printed; more are dropped and counted."""


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("port", metavar="PORT", help="the grid's serial port, e.g. /dev/ttyACM0")
    parser.add_argument(
        "--seconds", type=float, default=None, metavar="S",
        help="stop after S seconds (default: run until Ctrl-C)",
    )  # fmt: skip
    parser.add_argument(
        "--baud", type=int, default=115200, metavar="BAUD",
        help="the line rate (default: %(default)s; a USB grid ignores it)",
    )  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    from hardware.dispatch import BoundedScheduler
    from hardware.grid.link import GridLink
    from hardware.grid.protocol import (
        DeviceError,
        Event,
        Heartbeat,
        Hello,
        Rejected,
        SequenceGap,
        Snapshot,
    )

    if not os.path.exists(args.port):
        print("companion grid-monitor: " + _(
            "there is no port {port} (is the grid plugged in? 'companion doctor' lists the "
            "serial ports)").format(port=args.port), file=sys.stderr)
        return 1
    start = time.monotonic()

    def say(text: str) -> None:
        print(f"{time.monotonic() - start:8.2f}  {text}", flush=True)

    def describe(event: Event) -> str:
        if isinstance(event, Hello):
            caps = "+".join(sorted(c.value for c in event.capabilities))
            return (
                f"HELLO #{event.seq}: protocol {event.version}, firmware {event.firmware}, "
                f"{event.regions} sensors, {caps}"
            )
        if isinstance(event, Snapshot):
            covered = " ".join(str(cell + 1) for cell in sorted(event.covered())) or "none"
            text = f"SNAP #{event.seq}: covered {covered} (of {event.cells})"
            if event.counts is not None:
                text += " counts " + ",".join(map(str, event.counts))
            if event.owners is not None:
                text += " owners " + "".join("." if o is None else str(o) for o in event.owners)
            return text
        if isinstance(event, Heartbeat):
            return f"HB #{event.seq}: up {event.uptime} s"
        if isinstance(event, DeviceError):
            return f"ERR #{event.seq} from the grid: {event.code} {event.text}"
        if isinstance(event, SequenceGap):
            return f"gap: expected #{event.expected}, got #{event.received}"
        if isinstance(event, Rejected):
            return f"dropped ({event.kind.value}): {event.detail}; raw {event.raw!r}"
        return f"{event}"

    def on_event(event: Event) -> None:
        say(describe(event))
        if isinstance(event, Rejected | SequenceGap):
            say(f"counts: {link.stats.summary()}")

    scheduler = BoundedScheduler(WAITING_LIMIT)
    reported = 0

    def report_dropped() -> None:
        nonlocal reported
        dropped = scheduler.dropped
        if dropped > reported:
            say(_("dropped {count} frames not printed in time ({total} in all)").format(
                count=dropped - reported, total=dropped))
            reported = dropped
    link = GridLink(
        args.port,
        on_event=on_event,
        on_link_up=lambda hello: say("link up"),
        on_link_down=lambda reason: say(f"link down: {reason}"),
        on_refused=lambda reason: say(f"refused: {reason}"),
        schedule=scheduler,
        baudrate=args.baud,
        settle_time=0.0,
    )
    say(_("monitoring {port} (Ctrl-C to stop)").format(port=args.port))
    link.start()
    try:
        while args.seconds is None or time.monotonic() - start < args.seconds:
            scheduler.drain(timeout=0.1)
            report_dropped()
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        while scheduler.drain():
            pass
    report_dropped()
    say(_("not printed in time: {count} frames dropped (at most {most} of {limit} were "
          "waiting)").format(count=scheduler.dropped, most=scheduler.most_waiting,
                             limit=WAITING_LIMIT))
    say(f"totals: {link.stats.summary()}")
    return 0


COMMAND = Command(
    name="grid-monitor",
    help="print the frames and error counts of a region sensor grid",
    configure=_configure,
    run=_run,
    speaks=True,
)
