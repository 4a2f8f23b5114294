"""``companion run``: start the table app (the default when no subcommand is given).

The one config file (``companion.toml``, see ``deploy/README.md``) is read first; a bad
value is reported on stderr with its key and the allowed range, and its default is used.
In kiosk mode the display settings go to Kivy before Kivy opens its window. When another
companion app holds the saved-games file, one line on stderr names its process and the
command exits with status 1 without opening a window.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands import Command


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="PATH",
        help="the SQLite database to use (default: storage.database in the config file)",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="PATH",
        help="the config file (default: ~/.config/smallworld-companion/companion.toml)",
    )
    parser.add_argument(
        "--fullscreen",
        action="store_true",
        help="fill the whole screen, as on the table's touchscreen",
    )


def _run(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.kivy_config import prepare
    from companion.store.errors import DatabaseInUse, StoreError
    from companion.store.lock import check_free

    config, warnings = load_config(args.config)
    for warning in warnings:
        print(f"companion: {warning.message}", file=sys.stderr)
    db_path = args.db or config.storage.database
    try:
        check_free(db_path)  # before Kivy opens a window, for the one line below
    except DatabaseInUse as in_use:
        print(f"companion: {in_use}", file=sys.stderr)
        return 1
    except StoreError:
        pass  # the folder cannot be locked: the app starts and its home screen says why
    prepare(config)
    # Kivy is imported here, not at the top, so that the rest of the command line stays
    # fast and never opens a window.
    from companion.app import run_app

    try:
        run_app(
            db_path=db_path,
            fullscreen=args.fullscreen,
            die_pin=config.die.button_pin,
            dim_after=config.display.dim_after_seconds,
            dim_brightness=config.display.dim_brightness,
            grid_port=config.grid.port,
            grid_baud=config.grid.baud,
            config_path=args.config,
        )
    except DatabaseInUse as in_use:
        print(f"companion: {in_use}", file=sys.stderr)
        return 1
    return 0


COMMAND = Command(
    name="run",
    help="start the table app (the default)",
    configure=_configure,
    run=_run,
)
