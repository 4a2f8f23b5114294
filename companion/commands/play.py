"""``companion play [FILE|-]``: a whole game from JSON lines, one printed line per line.

The game itself is played by :mod:`companion.play`, imported only when the command runs, so
``companion --help`` stays light. The input is read line by line and every answer is
flushed at once, so a program may hold a conversation with the command through a pipe.
The printed lines are JSON (English keys and ids, whatever ``--lang`` says); the command's
own messages about its input file, and a malformed line's message (a rules sentence
worded by `companion.ui.wording.say`), follow ``--lang``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import IO

from companion.commands import Command, _, one_line

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE|-",
        help="the game as JSON lines (see docs/play-format.md); '-' or nothing reads "
        "standard input",
    )


def _lines(stream: IO[str]) -> Iterator[str]:
    """The stream's lines as they arrive (no read-ahead: a bot waits for each answer)."""
    yield from iter(stream.readline, "")


def _run(args: argparse.Namespace) -> int:
    from companion.play import BadLine, play
    from companion.rules.catalog import load_catalog
    from companion.ui.wording import say

    def refuse(message: str) -> int:
        print(one_line("companion play: " + message), file=sys.stderr)
        return EXIT_BAD_INPUT

    try:
        if args.file == "-":
            play(_lines(sys.stdin), sys.stdout, load_catalog())
        else:
            with open(args.file, encoding="utf-8-sig") as handle:  # a BOM is not a line
                play(_lines(handle), sys.stdout, load_catalog())
    except BadLine as bad:
        return refuse(say(bad.said))
    except OSError as error:
        return refuse("FILE: " + _("cannot read {file}: {why}").format(
            file=repr(args.file), why=error.strerror or error))
    except UnicodeDecodeError as error:
        return refuse("input: " + _("not UTF-8 text ({reason})").format(reason=error.reason))
    return EXIT_OK


COMMAND = Command(
    name="play",
    help="play a whole game from JSON lines (one intent a line)",
    run=_run,
    configure=configure,
    speaks=True,
)
