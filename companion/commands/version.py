"""``companion version``: print the installed version of the companion."""

from __future__ import annotations

import argparse

from companion import __version__
from companion.commands import Command


def _run(args: argparse.Namespace) -> int:
    print(f"smallworld-companion {__version__}")
    return 0


COMMAND = Command(name="version", help="print the version and exit", run=_run)
