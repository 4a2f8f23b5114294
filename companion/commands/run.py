"""``companion run``: start the table app (the default when no subcommand is given)."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands import Command
from companion.paths import default_db_path

DEFAULT_DIE_PIN = 17  # the die button's GPIO pin (BCM numbering), as in hardware/README.md


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=Path,
        default=default_db_path(),
        metavar="PATH",
        help="the SQLite database to use (default: %(default)s)",
    )
    parser.add_argument(
        "--fullscreen",
        action="store_true",
        help="fill the whole screen, as on the table's touchscreen",
    )


def _run(args: argparse.Namespace) -> int:
    # Kivy is imported here, not at the top, so that the rest of the command line stays
    # fast and never opens a window.
    from companion.app import run_app

    run_app(db_path=args.db, fullscreen=args.fullscreen, die_pin=DEFAULT_DIE_PIN)
    return 0


COMMAND = Command(
    name="run",
    help="start the table app (the default)",
    configure=_configure,
    run=_run,
)
