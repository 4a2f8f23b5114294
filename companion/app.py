"""The Kivy application: for now a placeholder screen that says what is coming.

It loads ``kv/placeholder.kv`` and shows the product name and the database the companion
would use. The table screens (``companion/ui`` + ``kv/``) replace it in a later release.
Importing this module imports Kivy; the command line imports it only when the app starts.
"""

from __future__ import annotations

import os
from pathlib import Path

# Kivy reads sys.argv as its own options unless told not to; ours belong to argparse.
os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.app import App
from kivy.config import Config
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from companion.paths import kv_file

TITLE = "Table Companion for Small World"


class CompanionApp(App):  # type: ignore[misc]  # Kivy ships no type information
    """The placeholder app; ``db_path`` is shown on screen through ``app.db_path`` in kv."""

    db_path = StringProperty("")

    def __init__(self, db_path: Path, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.title = TITLE
        self.db_path = str(db_path)

    def build(self) -> Widget:
        root: Widget = Builder.load_file(str(kv_file("placeholder.kv")))
        return root


def run_app(db_path: Path, *, fullscreen: bool = False) -> None:
    """Open the app's window and run until it is closed."""
    if fullscreen:
        # Must be set before the window exists, which App.run() creates.
        Config.set("graphics", "fullscreen", "auto")
    CompanionApp(db_path=db_path).run()
