"""The ``companion`` command line: one entry point, one subcommand per task.

The subcommands live in :mod:`companion.commands` (one module each) and are found there, so
a later feature adds a subcommand by adding a module. With no subcommand, ``companion``
starts the table app, as ``companion run`` does. Nothing here imports Kivy: ``--help`` and
the small subcommands stay fast and never open a window. ``companion --version`` prints
the version, as ``companion version`` does. Starting the app (``companion``
or ``companion run ...``) imports only the ``run`` subcommand, not every one: the table's
first frame waits for nothing it does not need. A command that prints sentences for
people (``Command.speaks``) takes ``--lang en|fr|de`` (default: the system's locale), set
before it runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence

from companion.commands import Command, add_language, discover, use_language

PROG = "companion"
DEFAULT_COMMAND = "run"


class _Version(argparse.Action):
    """``--version``: the version read from the installed metadata only when asked for
    (``importlib.metadata`` costs the app's start-up ~25 ms otherwise)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0,
                         help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from companion import __version__

        sys.stdout.write(f"smallworld-companion {__version__}\n")  # as argparse's own
        parser.exit()


def build_parser(commands: Iterable[Command]) -> argparse.ArgumentParser:
    """The argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage="%(prog)s [-h] [COMMAND [OPTIONS]]",
        description=(
            "Table Companion for Small World: the bookkeeping of the board game on a "
            f"touchscreen. Without a subcommand, '{PROG}' runs '{PROG} {DEFAULT_COMMAND}'."
        ),
    )
    parser.add_argument("--version", action=_Version,
                        help="print the version and exit (as 'companion version' does)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for command in commands:
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        command.configure(sub)
        if command.speaks:
            add_language(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or words[0] == DEFAULT_COMMAND:  # the app: its own command only
        module = importlib.import_module(f"companion.commands.{DEFAULT_COMMAND}")
        found: list[Command] = [module.COMMAND]
    else:
        found = discover()
    commands = {command.name: command for command in found}
    parser = build_parser(commands.values())
    args = parser.parse_args(words)
    if args.command is None:
        args = parser.parse_args([DEFAULT_COMMAND])
    command = commands[args.command]
    if command.speaks:
        use_language(args)  # before the command words anything
    return command.run(args)
