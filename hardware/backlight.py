"""The display's backlight, when the panel has one the user may set.

Linux lists backlights under ``/sys/class/backlight/NAME/`` with ``brightness`` and
``max_brightness``; the deploy's udev rule gives the ``video`` group write access. Where
there is none, or it cannot be written, `Backlight.find` returns None and dimming falls back
to darkening the picture. Reports and sets; decides nothing.
"""

from __future__ import annotations

from pathlib import Path

SYS_BACKLIGHT = Path("/sys/class/backlight")


class Backlight:
    """One backlight: read its level, set it as a percentage of its maximum."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.maximum = int((folder / "max_brightness").read_text().strip())

    @classmethod
    def find(cls, root: Path = SYS_BACKLIGHT) -> Backlight | None:
        """The first backlight this user may set, or None."""
        for folder in sorted(root.glob("*")):
            try:
                light = cls(folder)
            except (OSError, ValueError):
                continue
            if light.maximum > 0 and (folder / "brightness").exists():
                return light
        return None

    @property
    def level(self) -> int:
        return int((self.folder / "brightness").read_text().strip())

    def set_percent(self, percent: int) -> bool:
        """Set the brightness; False (and nothing changed) when it cannot be written."""
        value = max(1, round(self.maximum * max(0, min(100, percent)) / 100))
        try:
            (self.folder / "brightness").write_text(f"{value}\n")
        except OSError:
            return False
        return True
