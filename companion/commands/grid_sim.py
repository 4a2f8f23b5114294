"""``companion grid-sim``: a fake region sensor grid on a pseudo-terminal.

It prints the path to open (``/dev/pts/N``, or the ``--link`` symlink, which plays the
part of a ``/dev/serial/by-id/...`` name), runs SCRIPT if one is given, then reads
commands from the keyboard (``help`` lists them; a bare number toggles that sensor) until
``quit`` or end of input. The simulator itself is :mod:`hardware.grid.sim`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from companion.commands import Command


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
            return fail(f"cannot read the script {args.script}: {error.strerror}")
    try:
        path = sim.start()
    except OSError as error:
        return fail(f"cannot make the pseudo-terminal or the link: {error}")
    try:
        via = f" (and {args.link})" if args.link else ""
        print(f"grid-sim: a fake grid of {grid.sensors} sensors on {path}{via}", flush=True)
        print(f"grid-sim: watch it with 'companion grid-monitor {args.link or path}'", flush=True)
        interactive = sys.stdin.isatty()
        return serve(
            sim,
            script=script,
            source=str(args.script),
            commands=_lines(interactive),
            prompt=interactive,
            out=lambda text: print(text, flush=True),
            err=lambda text: print(text, file=sys.stderr, flush=True),
        )
    except KeyboardInterrupt:
        return 0
    finally:
        sim.close()


def _lines(interactive: bool) -> Iterator[str]:
    while True:
        try:
            line = input("grid-sim> ") if interactive else sys.stdin.readline()
        except EOFError:
            return
        if not interactive and not line:
            return
        yield line


COMMAND = Command(
    name="grid-sim",
    help="run a fake region sensor grid on a pseudo-terminal",
    configure=_configure,
    run=_run,
)
