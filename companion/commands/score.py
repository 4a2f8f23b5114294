"""``companion score [FILE|-]``: score one end-of-turn scenario given as JSON.

The scoring itself lives in :mod:`companion.score_cli`, imported only when the command
runs, so ``companion --help`` stays light.
"""

from __future__ import annotations

import argparse

from companion.commands import Command


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE|-",
        help="scenario JSON file; '-' or nothing reads standard input",
    )


def _run(args: argparse.Namespace) -> int:
    from companion.score_cli import run

    return run(args)


COMMAND = Command(
    name="score", help="score one end-of-turn scenario (JSON)", run=_run, configure=configure
)
