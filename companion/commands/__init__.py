"""The subcommands of the ``companion`` command line, one module per subcommand.

A module in this package becomes a subcommand by defining a module-level ``COMMAND``, a
:class:`Command`. :func:`discover` finds them all; ``companion/cli.py`` needs no change.
Modules here must stay cheap to import: ``companion --help`` imports every one of them, so
anything heavy (Kivy, the store, serial ports) is imported inside the command's ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``configure`` of a command that takes no options."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its one-line help and what it does.

    ``configure`` adds the subcommand's options to its parser; ``run`` carries it out with
    the parsed arguments and returns the process exit status.
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    configure: Callable[[argparse.ArgumentParser], None] = _no_arguments


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
