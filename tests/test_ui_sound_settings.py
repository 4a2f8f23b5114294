"""The settings screen's sound and text size: written to companion.toml, the sound's at once.

Driven by touches on the real settings screen (800x480, headless): mute, the volume, the
quiet hours and the text size are each a button; the sound's reach the app's cues player
(`Context.cues.use`) straight away, and a new volume is heard once; the text size says it
applies from the next start.
"""

from __future__ import annotations

from datetime import time
from pathlib import Path
from typing import Any

import ui_support as ui

from companion.config import SoundConfig, load_config
from companion.cues import SILENT, Cue
from companion.session import Session


class Recorder:
    def __init__(self) -> None:
        self.cues: list[Cue] = []
        self.settings: list[SoundConfig] = []

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)

    def use(self, settings: SoundConfig) -> None:
        self.settings.append(settings)


def tap_in_view(screen: Any, widget_id: str) -> None:
    widget = screen.ids[widget_id]
    screen.ids.scroll.scroll_to(widget, padding=10, animate=False)
    ui.pump()
    ui.tap(widget)
    ui.pump()


def choose(text: str) -> None:
    dialog = ui.dialogs()[-1]
    ui.tap(ui.find(dialog, text=text))
    ui.pump()


def test_the_sound_settings_are_saved_and_heard_at_once(tmp_path: Path) -> None:
    app = ui.app_for(Session())
    ui.resize((800, 480))
    cues = Recorder()
    app.ctx.cues = cues
    config = tmp_path / "companion.toml"
    config.write_text("# ours\n[sound]\nvolume = 70\n")
    settings = app.presenters["settings"]
    settings.config_path = config
    try:
        app.ctx.nav.go("settings")
        ui.pump()
        screen = app.screens["settings"]
        ids = screen.ids
        assert ids.volume.text == "Volume: 70 %"
        assert ids.mute.text == "Sound: on (tap to mute)"
        assert ids.quiet.text == "Quiet hours: 22:00 to 08:00"
        assert ids.text_size.text == "Text size: 100 %"

        tap_in_view(screen, "volume")
        choose("Soft (25 %)")
        assert ids.volume.text == "Volume: 25 %"
        assert cues.settings[-1].volume == 25
        assert cues.cues == [Cue.TURN]  # the new volume, heard once

        tap_in_view(screen, "mute")
        assert ids.mute.text == "Sound: muted (tap to turn on)"
        assert cues.settings[-1].muted is True

        tap_in_view(screen, "quiet")
        choose("23:00 to 07:00")
        assert ids.quiet.text == "Quiet hours: 23:00 to 07:00"
        assert cues.settings[-1].quiet_hours == (time(23, 0), time(7, 0))
        tap_in_view(screen, "quiet")
        choose("none")
        assert cues.settings[-1].quiet_hours is None

        tap_in_view(screen, "text_size")
        choose("Largest (130 %)")
        assert ids.text_size.text == "Text size: 130 % (from the next start)"

        saved, warnings = load_config(config)
        assert warnings == []
        assert saved.sound == SoundConfig(volume=25, muted=True, quiet_hours=None)
        assert saved.display.text_scale == 130
        assert config.read_text().startswith("# ours\n[sound]\nvolume = 25\n")
        assert len(cues.cues) == 1  # only the volume's own sample sounded
    finally:
        app.ctx.cues = SILENT
        settings.config_path = None
        ui.close_dialogs()
        app.ctx.nav.go("home")
        ui.pump()
