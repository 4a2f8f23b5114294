"""``companion run``: start the table app (the default when no subcommand is given).

The one config file (``companion.toml``, see ``deploy/README.md``) is read first; a bad
value is reported on stderr with its key and the allowed range, and its default is used.
The window's size (``--size``, else ``display.window_size``: 800x480, the table's screen;
the latter upright, its sides swapped, when ``display.rotation`` is 90 or 270 outside
kiosk mode: `companion.kivy_config.desktop_window_size`) goes to Kivy before Kivy opens its window,
and in kiosk mode the display settings too.

One app per saved-games file: when another companion app holds it, one line on stderr
names its process, and then
- outside kiosk mode the command exits with status `EX_TEMPFAIL` (75, "try again later")
  without opening a window;
- in kiosk mode (``COMPANION_KIOSK=1``, the table's service) it waits instead: it tries
  the lock again every `WAIT_POLL` seconds, telling systemd meanwhile that it is alive
  (``WATCHDOG=1``) and what it waits for (``STATUS=``), and starts as soon as the other
  app has closed. A service that exited and was restarted over and over would soon hit
  systemd's restart limit and leave the table dark for good.

Its lines on stderr speak ``--lang``, else the language the table speaks
(``display.language``); the ids, paths and config keys in them stay as they are, and so
does what it tells systemd (``STATUS=``, read in the system's logs). The table itself
speaks ``display.language`` (chosen on its screen).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import Command, _, say, use_language

if TYPE_CHECKING:
    from companion.config import Config

EX_TEMPFAIL = 75
"""Exit status when another app holds the saved-games file (sysexits.h: try again later)."""

WAIT_POLL = 1.0
"""Seconds between two tries of the lock while the kiosk waits for another app to close."""


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
    parser.add_argument(
        "--size",
        default=None,
        metavar="WIDTHxHEIGHT",
        help="the window's size in pixels (default: display.window_size in the config "
        "file, 800x480, the table's screen)",
    )


def window_size(config: Config, asked: str | None) -> tuple[Config, str | None]:
    """`config` with the window size `--size` asked for, and a message when it is not
    allowed (the config file's size is then kept)."""
    from companion.config import WINDOW_SIZE_ALLOWED, parse_window_size

    if asked is None:
        return config, None
    try:
        size = parse_window_size(asked)
    except ValueError:
        kept = config.display.window_size
        return config, _("--size {asked} is not allowed: {allowed}. Using {width}x{height}",
                         ).format(asked=repr(asked), allowed=_(WINDOW_SIZE_ALLOWED),
                                  width=kept[0], height=kept[1])
    return replace(config, display=replace(config.display, window_size=size)), None


def wait_until_free(db_path: Path, pid: int | None, *, poll: float = WAIT_POLL,
                    sleep: Callable[[float], None] = time.sleep) -> None:
    """Wait until no other app holds `db_path` (kiosk mode), keeping systemd informed.

    Says once on stderr what it waits for; then, every `poll` seconds, pings the watchdog
    (when systemd set one) and tries the lock without blocking. Returns once the lock is
    free, or when it cannot be tried at all (the app then starts and says why).
    """
    from companion.notify import WATCHDOG, sd_notify, watchdog_interval
    from companion.store.errors import DatabaseInUse, StoreError
    from companion.store.lock import check_free

    who = f"process {pid}" if pid is not None else "another process"  # for systemd's log
    if pid is None:
        waiting = _("the saved-games file {path} is in use by another companion app "
                    "(another process); waiting for it to close, then starting (kiosk mode).")
    else:
        waiting = _("the saved-games file {path} is in use by another companion app "
                    "(process {pid}); waiting for it to close, then starting (kiosk mode).")
    print("companion: " + waiting.format(path=db_path, pid=pid), file=sys.stderr, flush=True)
    ping = watchdog_interval() is not None
    while True:
        if ping:
            sd_notify(WATCHDOG)
        sd_notify(f"STATUS=Waiting for the other companion app ({who}) to close "
                  f"{db_path.name}")
        sleep(poll)
        try:
            check_free(db_path)
        except DatabaseInUse as in_use:
            if in_use.pid is not None and in_use.pid != pid:
                pid, who = in_use.pid, f"process {in_use.pid}"
            continue
        except StoreError:
            return
        sd_notify("STATUS=Starting")
        return


def _run(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.kivy_config import apply_text_scale, is_kiosk, prepare
    from companion.store.errors import DatabaseInUse, StoreError
    from companion.store.lock import check_free

    config, warnings = load_config(args.config)
    use_language(args, config.display.language)  # the lines below speak it: the warnings too
    for warning in warnings:  # in that language (a bad display.language: the default's)
        print(f"companion: {say(warning.sentence)}", file=sys.stderr)
    config, refused = window_size(config, args.size)
    if refused:
        print(f"companion: {refused}", file=sys.stderr)
    db_path = args.db or config.storage.database
    try:
        check_free(db_path)  # before Kivy opens a window, for the one line below
    except DatabaseInUse as in_use:
        if not is_kiosk():
            print(f"companion: {say(in_use)}", file=sys.stderr)
            return EX_TEMPFAIL
        wait_until_free(db_path, in_use.pid)
    except StoreError:
        pass  # the folder cannot be locked: the app starts and its home screen says why
    prepare(config, size_asked=args.size is not None and not refused)
    apply_text_scale(config.display.text_scale)  # before the widgets' sizes are computed
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
            sound=config.sound,
            seating=config.display.seating,
        )
    except DatabaseInUse as in_use:  # taken between the check and the start: rare
        print(f"companion: {say(in_use)}", file=sys.stderr)
        return EX_TEMPFAIL
    return 0


COMMAND = Command(
    name="run",
    help="start the table app (the default)",
    configure=_configure,
    run=_run,
    speaks=True,
)
