"""``companion score [FILE|-]``: score one end-of-turn scenario given as JSON.

Reads the scenario from FILE, or from standard input when FILE is "-" or left out, and
prints the result of :func:`companion.scenario.score_scenario` on one line. Exit status 0
with the result on stdout; 2 with exactly one line on stderr naming the field and the
value at fault (and nothing on stdout) for any bad input: the scenario's format and every
check on it are :mod:`companion.scenario`'s. That module (and the rules it scores with) is
imported only when the command runs, so ``companion --help`` stays light. The JSON
printed is the same whatever ``--lang`` says (English keys, ids and the rules' own line
labels); the command's own messages about its input, and the rules' refusals of it (a
scoring error, worded by `companion.ui.wording.say`), follow ``--lang``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from companion.commands import Command, _, add_language, one_line, use_language

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE|-",
        help="scenario JSON file; '-' or nothing reads standard input",
    )


def _read(path: str) -> str:
    from companion.json_fields import fail

    if path == "-":
        try:
            return sys.stdin.read()
        except UnicodeDecodeError as error:
            fail("input", _("not UTF-8 text ({reason})").format(reason=error.reason))
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        fail("FILE", _("cannot read {file}: {why}").format(file=repr(path),
                                                          why=error.strerror or error))
    except UnicodeDecodeError as error:
        fail("FILE", _("{file} is not UTF-8 text ({reason})").format(file=repr(path),
                                                                     reason=error.reason))


def run(args: argparse.Namespace) -> int:
    """Score the scenario named by `args.file`; 0, or 2 with one line on stderr."""
    from companion.json_fields import BadInput
    from companion.rules.catalog import load_catalog
    from companion.scenario import score_scenario
    from companion.ui.wording import say

    try:
        result = score_scenario(_read(args.file), load_catalog())
    except BadInput as error:  # a rules sentence in the --lang language, field names as they are
        print(one_line("companion score: " + say(error.said)), file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(result))
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, one_line(f"{self.prog}: {message}") + "\n")


def main(argv: list[str] | None = None) -> int:
    """`companion score [FILE|-]` as a program of its own."""
    parser = _Parser(
        prog="companion score",
        description="Score one player's end of turn from a JSON scenario.",
    )
    configure(parser)
    add_language(parser)
    args = parser.parse_args(argv)
    use_language(args)
    return run(args)


COMMAND = Command(
    name="score", help="score one end-of-turn scenario (JSON)", run=run, configure=configure,
    speaks=True,
)


if __name__ == "__main__":
    sys.exit(main())
