"""``companion export GAME_ID``: write a finished game as JSON, CSV or a BG Stats play.

The saved-games file is opened without recovery (a damaged file is reported, never moved
aside by this command) and the export goes to standard output or to ``-o FILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands import Command
from companion.paths import default_db_path

FORMATS = ("json", "csv", "bgstats")  # as companion.store.export.FORMATS, without importing it


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", type=int, metavar="GAME_ID", help="the finished game's number")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="json",
        help="json (everything), csv (a score sheet) or bgstats (a play for BG Stats); "
        "default: %(default)s",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=default_db_path(),
        metavar="PATH",
        help="the SQLite database to read (default: %(default)s)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE instead of the screen"
    )


def _run(args: argparse.Namespace) -> int:
    # The store (SQLite, the rules) is imported here so that `companion --help` stays fast.
    from companion.store import Store, StoreError

    db: Path = args.db
    if not db.is_file():
        print(f"companion export: there is no saved-games file at {db}", file=sys.stderr)
        return 1
    try:
        with Store.open(db, recover=False, exclusive=False) as store:
            finished = [g.id for g in store.games(finished=True)]
            if args.game_id not in finished:
                known = {g.id for g in store.games()}
                why = ("is not finished yet; only finished games are exported"
                       if args.game_id in known else f"is not in {db}")  # fmt: skip
                listed = ", ".join(str(n) for n in sorted(finished)) or "none"
                print(f"companion export: game {args.game_id} {why} (finished games: {listed})",
                      file=sys.stderr)  # fmt: skip
                return 1
            text = store.export(args.game_id, args.format)
    except StoreError as error:
        print(f"companion export: {error}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8", newline="")
    except OSError as error:
        print(f"companion export: cannot write {args.output}: {error}", file=sys.stderr)
        return 1
    print(f"game {args.game_id} written to {args.output} ({args.format})", file=sys.stderr)
    return 0


COMMAND = Command(
    name="export",
    help="write a finished game as json, csv or a BG Stats play",
    configure=_configure,
    run=_run,
)
