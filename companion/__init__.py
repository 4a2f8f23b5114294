"""Table Companion for Small World: the bookkeeping of the board game on a touchscreen.

The package is layered (see docs/README.md): ``companion.rules`` is the pure game core,
``companion.data`` the packaged game data, ``companion.paths`` where files live,
``companion.cli`` and ``companion.commands`` the command line, ``companion.app`` the Kivy app.
Importing this package imports nothing else, so the pure core stays pure.
"""

from __future__ import annotations

DISTRIBUTION = "smallworld-companion"
"""The name under which the project is installed (``pip show smallworld-companion``)."""


def __getattr__(name: str) -> str:
    """``companion.__version__``, read from the installed metadata only when asked for."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(DISTRIBUTION)
        except PackageNotFoundError:
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
