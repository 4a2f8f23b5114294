"""``companion grid-sim``: a fake region sensor grid on a pseudo-terminal.

It prints the path to open (``/dev/pts/N``, or the ``--link`` symlink, which plays the
part of a ``/dev/serial/by-id/...`` name), runs SCRIPT if one is given, then reads
commands from the keyboard (``help`` lists them; a bare number toggles that sensor) until
``quit`` or end of input. The simulator itself is :mod:`hardware.grid.sim`.

When standard input is not a terminal (``companion grid-sim &`` in a script, ``< /dev/null``,
a systemd service), its lines are read as commands too, but its end does not stop the
simulator: it says so and keeps serving until ``quit``, SIGTERM or Ctrl-C. On a terminal,
Ctrl-D (end of input) still ends it. SIGTERM ends it as cleanly as ``quit`` (the ``--link``
symlink is removed).

Its own sentences (a failure to start, the path to open, the end of input) follow
``--lang``; the simulator's commands and answers (`hardware.grid.sim`) are English.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from companion.commands import Command, _


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "script", nargs="?", type=Path, metavar="SCRIPT",
        help="a file of simulator commands to run first (one per line, # comments)",
    )  # fmt: skip
    parser.add_argument(
        "--regions", type=int, default=30, metavar="N",
        help="how many sensors the grid has, numbered 1..N (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--link", type=Path, metavar="PATH",
        help="also make PATH a symlink to the pty, kept pointing at it across replug",
    )  # fmt: skip
    parser.add_argument("--count", action="store_true", help="the grid also senses counts")
    parser.add_argument("--owner", action="store_true", help="the grid also senses owners")
    parser.add_argument(
        "--protocol", default=None, metavar="X.Y",
        help="speak this protocol version (default: the companion's own)",
    )  # fmt: skip
    parser.add_argument(
        "--heartbeat", type=float, default=1.0, metavar="S",
        help="seconds between heartbeats (default: %(default)s)",
    )  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    from hardware.grid.protocol import PROTOCOL_VERSION, Capability, ProtocolVersion
    from hardware.grid.sim import PtyGrid, SimulatedGrid, serve

    def fail(message: str) -> int:
        print(f"companion grid-sim: {message}", file=sys.stderr)
        return 2

    try:
        version = ProtocolVersion.parse(args.protocol) if args.protocol else PROTOCOL_VERSION
        capabilities = {Capability.PRESENCE}
        if args.count:
            capabilities.add(Capability.COUNT)
        if args.owner:
            capabilities.add(Capability.OWNER)
        grid = SimulatedGrid(args.regions, version=version, capabilities=capabilities)
        sim = PtyGrid(grid, link=args.link, heartbeat_interval=args.heartbeat)
    except ValueError as error:
        return fail(str(error))
    script: list[str] | None = None
    if args.script is not None:
        try:
            script = args.script.read_text().splitlines()
        except OSError as error:
            return fail(_("cannot read the script {path}: {why}").format(
                path=args.script, why=error.strerror))
    try:
        path = sim.start()
    except OSError as error:
        return fail(_("cannot make the pseudo-terminal or the link: {why}").format(why=error))
    try:
        if args.link:
            where = _("grid-sim: a fake grid of {count} sensors on {path} (and {link})")
        else:
            where = _("grid-sim: a fake grid of {count} sensors on {path}")
        print(where.format(count=grid.sensors, path=path, link=args.link), flush=True)
        print(_("grid-sim: watch it with '{command}'").format(
            command=f"companion grid-monitor {args.link or path}"), flush=True)
        interactive = sys.stdin is not None and sys.stdin.isatty()
        signal.signal(signal.SIGTERM, _interrupt)
        ended: list[bool] = []
        status = serve(
            sim,
            script=script,
            source=str(args.script),
            commands=_lines(interactive, ended),
            prompt=interactive,
            out=lambda text: print(text, flush=True),
            err=lambda text: print(text, file=sys.stderr, flush=True),
        )
        if status == 0 and ended and not interactive:
            print(_("grid-sim: end of input; still serving on {path} until stopped (SIGTERM "
                    "or Ctrl-C)").format(path=args.link or path), flush=True)
            stop = threading.Event()
            while not stop.wait(3600):
                pass
        return status
    except KeyboardInterrupt:
        return 0
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        sim.close()


def _interrupt(_signal: int, _frame: object) -> None:
    """SIGTERM ends the simulator as Ctrl-C does, closing the pty and removing the link."""
    raise KeyboardInterrupt


def _lines(interactive: bool, ended: list[bool]) -> Iterator[str]:
    """Lines of standard input; `ended` gains True when its end (not ``quit``) came."""
    while True:
        if sys.stdin is None:  # started with standard input closed
            ended.append(True)
            return
        try:
            line = input("grid-sim> ") if interactive else sys.stdin.readline()
        except EOFError:
            ended.append(True)
            return
        if not interactive and not line:
            ended.append(True)
            return
        yield line


COMMAND = Command(
    name="grid-sim",
    help="run a fake region sensor grid on a pseudo-terminal",
    configure=_configure,
    run=_run,
    speaks=True,
)
