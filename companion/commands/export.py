"""``companion export GAME_ID``: write a finished game as JSON, CSV or a BG Stats play.

The saved-games file is opened without recovery (a damaged file is reported, never moved
aside by this command) and the export goes to standard output or to ``-o FILE``.

``-o FILE`` is written whole to a temporary file in the same folder, flushed to the card and
then renamed over FILE, so a failure (a full card, a read-only one) leaves FILE as it was
(absent, or its old contents), never empty or cut short. A file system mounted read-only
is named as such. Its messages to people follow ``--lang``, the saved games' own errors
included (worded from their sentence: `companion.store.errors`); the export itself is
language-neutral (ids and English keys), and paths and game numbers are shown as they are.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
import tempfile
from pathlib import Path

from companion.commands import N_, Command, _, say
from companion.paths import default_db_path, on_read_only_file_system

FORMATS = ("json", "csv", "bgstats")  # as companion.store.export.FORMATS, without importing it

READ_ONLY_ADVICE = N_(
    "the file system it is on is mounted read-only (a memory card the system found faulty "
    "is remounted read-only; copy the saved games off it and check or replace it)"
)
"""Why a file cannot be written when its file system is read-only (`companion.paths`'
advice, marked for translation: it is shown with `_`)."""


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
        print("companion export: " + _("there is no saved-games file at {path}").format(
            path=db), file=sys.stderr)
        return 1
    try:
        with Store.open(db, recover=False, exclusive=False) as store:
            finished = [g.id for g in store.games(finished=True)]
            if args.game_id not in finished:
                known = {g.id for g in store.games()}
                listed = ", ".join(str(n) for n in sorted(finished)) or _("none")
                if args.game_id in known:
                    why = _("game {game} is not finished yet; only finished games are "
                            "exported (finished games: {listed})")
                else:
                    why = _("game {game} is not in {path} (finished games: {listed})")
                print("companion export: " + why.format(game=args.game_id, path=db,
                                                        listed=listed), file=sys.stderr)
                return 1
            text = store.export(args.game_id, args.format)
    except StoreError as error:
        if on_read_only_file_system(db):
            print("companion export: " + _("cannot open {path}: {why}").format(
                path=db, why=_(READ_ONLY_ADVICE)), file=sys.stderr)
        else:
            print("companion export: " + say(error), file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_whole(args.output, text)
    except OSError as error:
        read_only = error.errno == errno.EROFS or on_read_only_file_system(args.output)
        why = _(READ_ONLY_ADVICE) if read_only else error.strerror or str(error)
        print("companion export: " + _("cannot write {path}: {why}; nothing was written")
              .format(path=args.output, why=why), file=sys.stderr)
        return 1
    print(_("game {game} written to {path} ({format})").format(
        game=args.game_id, path=args.output, format=args.format), file=sys.stderr)
    return 0


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: a temporary file in the same
    folder, flushed to the storage device, then renamed over ``path``.

    Raises :class:`OSError` on failure, with ``path`` untouched and no temporary file left.
    """
    data = text.encode("utf-8", errors="surrogateescape")
    folder = path.parent
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _mode_for(path: Path) -> int:
    """The permissions ``path`` keeps (when it exists) or gets (0666 less the umask)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


COMMAND = Command(
    name="export",
    help="write a finished game as json, csv or a BG Stats play",
    configure=_configure,
    run=_run,
    speaks=True,
)
