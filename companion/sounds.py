"""`Sounds`: the table's sound cues, played through SDL's mixer.

Concept: the one `companion.cues.CuePlayer` that makes sound. The composition root
(`companion.app`) makes it after the first frame, from ``[sound]`` of ``companion.toml``;
the presenters and the app ask it for a `Cue` through `Context.cues` and never import
this module. The cues are the project's own WAV files in ``companion/data/sounds/``
(made by ``tools/make_sounds.py``, CC0). The sound goes through Kivy's ``sdl2`` audio
provider, SDL_mixer as Kivy's wheel bundles it (`KivyMixer`; a test hands a fake `Mixer`).

Invariants:
- Each cue's file is loaded once, when the `Sounds` is opened, into one clip kept for the
  app's life; a cue replays its clip (stopped first if it still sounds), never a new one.
- A cue sounds only when the settings allow it at that moment: not muted, a volume above
  0, outside the quiet hours by the clock `now` reads (the rules never read a clock). Its
  loudness is the volume in percent.
- No mixer (no sound device, SDL cannot open audio, a file that does not load): said once
  in the log, and from then on every cue is silent. Nothing here raises into the app.
- Nothing here decides *when* a cue is owed: that is `companion.cues` and its callers.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from datetime import datetime, time
from pathlib import Path
from typing import Protocol

from companion.config import SoundConfig
from companion.cues import Cue
from companion.paths import data_dir

log = logging.getLogger(__name__)

SOUNDS_DIR = "sounds"
"""The cues' folder inside the package's data (`companion.paths.data_dir`)."""


def cue_file(cue: Cue, folder: Path | None = None) -> Path:
    """The WAV file of `cue`."""
    return (folder or data_dir() / SOUNDS_DIR) / f"{cue.value}.wav"


class Clip(Protocol):
    """One loaded sound (a Kivy `Sound`): its length in seconds (0: nothing loaded), its
    volume (0 to 1), and play and stop."""

    volume: float

    @property
    def length(self) -> float: ...

    def play(self) -> None: ...

    def stop(self) -> None: ...


class Mixer(Protocol):
    """What loads clips: `load(path)` gives a clip, or None when nothing can play it."""

    def load(self, path: Path) -> Clip | None: ...


class KivyMixer:
    """Clips through Kivy's ``sdl2`` audio provider (SDL_mixer). Kivy's audio package is
    imported on the first `load` (after the first frame), asking for ``sdl2`` alone
    unless ``$KIVY_AUDIO`` names the providers: GStreamer and ffpyplayer are not tried."""

    def load(self, path: Path) -> Clip | None:
        import kivy

        if "KIVY_AUDIO" not in os.environ:
            kivy.kivy_options["audio"] = ("sdl2",)
        from kivy.core.audio import SoundLoader

        clip: Clip | None = SoundLoader.load(str(path))
        return clip


class Sounds:
    """The cues, loaded once, played by the settings (see the module docstring)."""

    def __init__(self, clips: Mapping[Cue, Clip], settings: SoundConfig,
                 now: Callable[[], time]) -> None:
        self._clips = dict(clips)
        self.settings = settings
        self._now = now
        self.played: int = 0
        """How many cues sounded (tests, and a look at a running table)."""

    @classmethod
    def open(cls, settings: SoundConfig, mixer: Mixer | None = None,
             now: Callable[[], time] | None = None, folder: Path | None = None) -> Sounds:
        """Load every cue's clip through `mixer` (default: `KivyMixer`); `now` is the
        clock the quiet hours are read on (default: the local time of day). Without a
        mixer that plays (the first clip loads empty, or loading fails), says so once in
        the log and returns a `Sounds` that stays silent."""
        mixer = mixer or KivyMixer()
        clips: dict[Cue, Clip] = {}
        for cue in Cue:
            path = cue_file(cue, folder)
            try:
                clip = mixer.load(path)
                loaded = clip is not None and clip.length > 0
            except Exception as error:  # a mixer's failure must never stop the app
                clip, loaded, why = None, False, f"{type(error).__name__}: {error}"
            else:
                why = "no sound device could be opened" if not clips else f"{path} did not load"
            if clip is None or not loaded:
                log.warning("Sound: %s; the table stays silent (not repeated).", why)
                clips = {}
                break
            clips[cue] = clip
        return cls(clips, settings, now or (lambda: datetime.now().time()))

    @property
    def working(self) -> bool:
        """Whether the cues can sound at all (the mixer opened and every file loaded)."""
        return bool(self._clips)

    def use(self, settings: SoundConfig) -> None:
        """Play by `settings` from now on (the settings screen's volume and mute)."""
        self.settings = settings

    def audible(self) -> bool:
        """Whether a cue would sound now (settings and clock; not whether there is a
        device)."""
        return self.settings.audible_at(self._now())

    def play(self, cue: Cue) -> None:
        """Sound `cue` now, if there is a mixer and the settings allow it now."""
        clip = self._clips.get(cue)
        if clip is None or not self.audible():
            return
        try:
            clip.stop()
            clip.volume = self.settings.volume / 100
            clip.play()
        except Exception as error:  # a mixer's failure must never stop the app
            log.warning("Sound: the cue %s cannot be played (%s); the table stays silent "
                        "(not repeated).", cue.value, error)
            self._clips = {}
            return
        self.played += 1
