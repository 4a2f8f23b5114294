"""The subcommands of the ``companion`` command line, one module per subcommand.

A module in this package becomes a subcommand by defining a module-level ``COMMAND``, a
:class:`Command`. :func:`discover` finds them all; ``companion/cli.py`` needs no change.
Modules here must stay cheap to import: ``companion --help`` imports every one of them, so
anything heavy (Kivy, the store, serial ports) is imported inside the command's ``run``.

A command that prints sentences for people (``speaks``) takes ``--lang en|fr|de``: its
sentences follow it, else the system's locale (`companion.i18n`'s "auto": ``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, English when none is French or German). JSON keys,
ids and the field names in error messages stay English whatever the language: only the
words around them are translated. `companion.cli` adds the option and sets the language
(`use_language`) before the command runs.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.rules.said import Said
    from companion.sentence import Sentence

LANGUAGES = ("en", "fr", "de")
"""``--lang``'s values: `companion.i18n.LANGUAGES`, written here so that ``companion --help``
imports no more than this package (a test keeps the two the same)."""

AUTO = "auto"
"""The language setting that follows the system's locale (`companion.i18n.AUTO`)."""


def one_line(message: str) -> str:
    """`message` on one line: each run of spaces and line breaks made one space, but for a
    no-break space (French puts one before a colon), which is kept."""
    return re.sub(r"[^\S\u00a0\u202f]+", " ", message).strip(" ")


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``configure`` of a command that takes no options."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its one-line help and what it does.

    ``configure`` adds the subcommand's options to its parser; ``run`` carries it out with
    the parsed arguments and returns the process exit status. ``speaks``: it prints
    sentences for people, and takes ``--lang``.
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    configure: Callable[[argparse.ArgumentParser], None] = _no_arguments
    speaks: bool = False


LANG_OPTION = "--lang"


def add_language(parser: argparse.ArgumentParser) -> None:
    """``--lang en|fr|de``: a value outside them is a usage error (exit status 2) that
    names the allowed ones."""
    parser.add_argument(
        LANG_OPTION,
        choices=LANGUAGES,
        default=None,
        dest="lang",
        help="the language of the sentences printed for people: "
        f"{', '.join(LANGUAGES)} (default: the system's locale when it is one of "
        "them, else English); JSON keys and ids stay English",
    )


def use_language(args: argparse.Namespace, fallback: str = AUTO) -> str:
    """Speak ``args.lang`` when it was given, else `fallback` (a ``display.language``
    setting: "auto" follows the system's locale); returns the language spoken."""
    from companion import i18n

    chosen: str | None = getattr(args, "lang", None)
    return i18n.use(chosen if chosen is not None else fallback)


# The commands' sentences go through these, which reach `companion.i18n` only when a
# sentence is worded (after `use_language`), so ``companion --help`` does not import it.
# Their names are the ones ``make locale`` extracts.


def _(message: str) -> str:
    """`companion.i18n._`: `message` in the language spoken now."""
    from companion import i18n

    return i18n._(message)


def N_(message: str) -> str:  # gettext's own name for it
    """`message` unchanged: marks a module constant, translated where shown with `_`."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """`companion.i18n.ngettext`: the form of a sentence counting `n`."""
    from companion import i18n

    return i18n.ngettext(singular, plural, n)


def say(what: Exception | Sentence | Said) -> str:
    """`companion.ui.wording.say`: a sentence, or an error from its sentence (``error.said``)
    when it has one (`str(error)` is its English), in the language spoken now. A light
    `Sentence` (a config warning's, a saved games' error's) is worded without the rules, so
    that start-up's lines before the first frame import none; anything else imports the
    rules' wording, only when called."""
    from companion.sentence import Sentence

    sentence = getattr(what, "sentence", what)  # a SentenceError's
    if isinstance(sentence, Sentence) and sentence.light:
        return sentence.say(_)
    from companion.ui.wording import say as worded

    return worded(what.said if isinstance(what, Sentence) else what)


def discover() -> list[Command]:
    """Every subcommand defined in this package, sorted by name."""
    commands: list[Command] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        command = getattr(module, "COMMAND", None)
        if not isinstance(command, Command):
            raise TypeError(f"{module.__name__} defines no COMMAND (a companion.commands.Command)")
        commands.append(command)
    return sorted(commands, key=lambda command: command.name)
