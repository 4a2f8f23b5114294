"""The sound cues: the files, the `Sounds` player, and each moment heard once.

- The WAV files are the project's own (tools/make_sounds.py makes them byte for byte),
  valid, short (at most a second, under 50 KB) and one per `Cue`, with their licence note.
- `Sounds` loads each clip once and replays it; muted, volume 0 or the quiet hours play
  nothing; without a sound device it says so once in the log and stays silent.
- Each moment (the die rolling and landing, the turn passing, the final turn, the reveal
  and the winner) plays its cue once, through a recording fake of the mixer; and once
  through the real SDL mixer with SDL's dummy audio driver, in a fresh interpreter.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
import wave
from datetime import time
from pathlib import Path
from typing import Any

import pytest
from factories import play_turn, session

from companion.config import SoundConfig
from companion.cues import Cue, turn_cue
from companion.sounds import Sounds, cue_file
from companion.ui.presenters.base import Context

ROOT = Path(__file__).resolve().parents[1]
SOUNDS = ROOT / "companion" / "data" / "sounds"
ALWAYS = SoundConfig(volume=70, muted=False, quiet_hours=None)
"""Settings under which every cue sounds, whatever the hour."""


def make_sounds_module() -> Any:
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the files ------------------------------------------------------------------------------


def test_there_is_one_file_per_cue_and_no_other() -> None:
    assert {p.name for p in SOUNDS.glob("*.wav")} == {f"{cue.value}.wav" for cue in Cue}
    assert all(cue_file(cue).is_file() for cue in Cue)


@pytest.mark.parametrize("cue", list(Cue))
def test_each_file_is_a_valid_short_16_bit_wav(cue: Cue) -> None:
    path = SOUNDS / f"{cue.value}.wav"
    assert path.stat().st_size < 50_000
    with wave.open(str(path)) as sound:
        assert (sound.getnchannels(), sound.getsampwidth()) == (1, 2)
        assert sound.getframerate() == 22050
        frames = sound.readframes(sound.getnframes())
        seconds = sound.getnframes() / sound.getframerate()
    assert 0.2 <= seconds <= 1.0
    samples = memoryview(frames).cast("h")
    assert max(abs(x) for x in samples) > 10_000  # audible, and never clipped:
    assert max(abs(x) for x in samples) < 32_767
    assert samples[0] == 0 and samples[-1] == 0  # no click at either end


def test_the_files_are_the_ones_the_generator_makes(tmp_path: Path) -> None:
    written = make_sounds_module().make(tmp_path)
    assert {p.name for p in written} == {p.name for p in SOUNDS.glob("*.wav")}
    for made in written:
        assert made.read_bytes() == (SOUNDS / made.name).read_bytes(), made.name


def test_the_licence_note_says_made_here_and_cc0() -> None:
    note = (SOUNDS / "LICENSE.txt").read_text()
    assert "made by this project" in note
    assert "CC0 1.0" in note
    for cue in Cue:
        assert f"{cue.value}.wav" in note


# --- the player, through a recording fake of the mixer ------------------------------------


class FakeClip:
    """A loaded clip that records what it was asked."""

    def __init__(self, path: Path, length: float = 0.5) -> None:
        self.path = path
        self.length = length
        self.volume = 1.0
        self.calls: list[tuple[str, float]] = []

    def play(self) -> None:
        self.calls.append(("play", self.volume))

    def stop(self) -> None:
        self.calls.append(("stop", self.volume))


class FakeMixer:
    """Loads `FakeClip`s; `length` 0 is a mixer without a device; `fails` raises."""

    def __init__(self, length: float = 0.5, fails: bool = False) -> None:
        self.length = length
        self.fails = fails
        self.loaded: list[FakeClip] = []

    def load(self, path: Path) -> FakeClip:
        if self.fails:
            raise RuntimeError("the mixer broke")
        clip = FakeClip(path, self.length)
        self.loaded.append(clip)
        return clip

    def plays(self) -> list[str]:
        """The cues played, in order (by file name)."""
        found = [(n, clip.path.stem) for clip in self.loaded
                 for n, (what, _) in enumerate(clip.calls) if what == "play"]
        return [name for _, name in sorted(found)] if len(self.loaded) else []


class Recorder:
    """A `CuePlayer` that records the cues asked for."""

    def __init__(self) -> None:
        self.cues: list[Cue] = []

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)

    def use(self, settings: SoundConfig) -> None:
        pass


def test_each_clip_is_loaded_once_and_replayed() -> None:
    mixer = FakeMixer()
    sounds = Sounds.open(ALWAYS, mixer)
    assert sounds.working
    assert [clip.path for clip in mixer.loaded] == [cue_file(cue) for cue in Cue]
    for _ in range(3):
        sounds.play(Cue.TURN)
    assert len(mixer.loaded) == len(Cue)  # no new clip per cue
    turn = mixer.loaded[list(Cue).index(Cue.TURN)]
    assert turn.calls == [("stop", 1.0), ("play", 0.7)] + [("stop", 0.7), ("play", 0.7)] * 2
    assert sounds.played == 3


def test_the_volume_is_the_settings_percent_and_follows_a_change() -> None:
    mixer = FakeMixer()
    sounds = Sounds.open(ALWAYS, mixer)
    sounds.use(SoundConfig(volume=25, quiet_hours=None))
    sounds.play(Cue.REVEAL)
    reveal = mixer.loaded[list(Cue).index(Cue.REVEAL)]
    assert reveal.calls[-1] == ("play", 0.25)


@pytest.mark.parametrize("settings", [
    SoundConfig(muted=True, quiet_hours=None),
    SoundConfig(volume=0, quiet_hours=None),
    SoundConfig(volume=100, quiet_hours=(time(22, 0), time(8, 0))),
])
def test_muted_volume_zero_and_quiet_hours_play_nothing(settings: SoundConfig) -> None:
    mixer = FakeMixer()
    sounds = Sounds.open(settings, mixer, now=lambda: time(23, 15))
    for cue in Cue:
        sounds.play(cue)
    assert all(clip.calls == [] for clip in mixer.loaded)
    assert sounds.played == 0


def test_the_quiet_hours_end_by_the_clock_read() -> None:
    mixer = FakeMixer()
    clock = [time(7, 59)]
    sounds = Sounds.open(SoundConfig(), mixer, now=lambda: clock[0])  # 22:00-08:00
    sounds.play(Cue.TURN)
    clock[0] = time(8, 0)
    sounds.play(Cue.TURN)
    assert sounds.played == 1


@pytest.mark.parametrize("mixer", [FakeMixer(length=0), FakeMixer(fails=True)])
def test_without_a_sound_device_it_says_so_once_and_stays_silent(
    mixer: FakeMixer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="companion.sounds"):
        sounds = Sounds.open(ALWAYS, mixer)
        for cue in Cue:
            sounds.play(cue)
    assert not sounds.working
    assert len(mixer.loaded) <= 1  # the first clip tells: the others are not tried
    said = [r.getMessage() for r in caplog.records if r.name == "companion.sounds"]
    assert len(said) == 1 and "the table stays silent" in said[0]
    assert sounds.played == 0


def test_a_clip_that_fails_to_play_silences_the_table_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mixer = FakeMixer()
    sounds = Sounds.open(ALWAYS, mixer)

    def broken() -> None:
        raise OSError("device gone")

    for clip in mixer.loaded:
        clip.play = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="companion.sounds"):
        sounds.play(Cue.TURN)
        sounds.play(Cue.TURN)
    assert not sounds.working
    assert len([r for r in caplog.records if r.name == "companion.sounds"]) == 1


def test_the_composition_root_hands_the_sounds_to_the_presenters() -> None:
    from companion.app import Devices, open_sounds

    class App:
        ctx = Context()

    app, devices, mixer = App(), Devices(), FakeMixer()
    open_sounds(app, ALWAYS, devices, mixer=mixer)  # type: ignore[arg-type]
    assert app.ctx.cues is devices.sounds
    app.ctx.cues.play(Cue.WINNER)
    assert devices.sounds.played == 1


# --- each moment heard once -----------------------------------------------------------------


def die_on(s: Any, cues: Recorder) -> Any:
    from companion.ui.presenters.die import DiePresenter

    die = DiePresenter(Context(session=s, cues=cues))
    s.subscribe(die.update)
    die.update(s.state)
    return die


def test_a_roll_is_heard_rolling_then_landing_once() -> None:
    s = session(2, races=("Ratmen",), powers=("Berserk",))
    cues = Recorder()
    die = die_on(s, cues)
    s.pick(0)
    die.roll()
    assert cues.cues == [Cue.DIE_ROLL]
    die.land()
    die.land()  # the screen lands once; a second call says nothing more
    landed = Cue.DIE_BLANK if s.state.last_roll == 0 else Cue.DIE_FACE
    assert cues.cues == [Cue.DIE_ROLL, landed]


def test_a_blank_and_a_number_land_differently() -> None:
    s = session(2, races=("Ratmen",), powers=("Berserk",))
    cues = Recorder()
    die = die_on(s, cues)
    for face, cue in ((0, Cue.DIE_BLANK), (3, Cue.DIE_FACE)):
        die._start(face)
        die.land()
        assert cues.cues[-2:] == [Cue.DIE_ROLL, cue]


def test_the_reveal_is_heard_for_each_total_and_the_winner_last() -> None:
    from companion.ui.presenters.game_end import GameEndPresenter

    s = session(3)
    while not s.state.is_over:
        play_turn(s, coins=1 + s.state.track.seat)
    cues = Recorder()
    end = GameEndPresenter(Context(session=s, cues=cues))
    end.update(s.state)
    for _ in range(5):  # more taps than totals: nothing more is heard
        end.reveal_next()
    assert cues.cues == [Cue.REVEAL, Cue.REVEAL, Cue.WINNER]


def test_the_turn_cue_follows_the_track_forward_only() -> None:
    s = session(3)
    start = s.state
    assert turn_cue(None, start) is None  # the first state seen: a new or resumed game
    s.pick(0)
    assert turn_cue(start, s.state) is None  # a step within the turn
    before = s.state
    s.finish_conquests()
    from factories import end_turn, finish_redeployment

    finish_redeployment(s)
    s.score(1)
    end_turn(s)
    assert turn_cue(before, s.state) is Cue.TURN
    assert turn_cue(s.state, before) is None  # backwards (as an undo would go): silent
    while s.state.track.turn < s.state.track.turns - 1:
        play_turn(s, coins=1)
    while s.state.track.turn < s.state.track.turns:
        last_of_turn = s.state
        play_turn(s, coins=1)
    assert turn_cue(last_of_turn, s.state) is Cue.FINAL_TURN
    while not s.state.is_over:
        before = s.state
        play_turn(s, coins=1)
    assert turn_cue(before, s.state) is None  # the game end has its own cues


def test_the_app_plays_the_turn_and_final_turn_once_each(headless_app: Any) -> None:
    app = headless_app
    cues = Recorder()
    app.ctx.cues = cues
    try:
        s = session(2)
        app.use_session(s)
        assert cues.cues == []  # a new game is silent
        play_turn(s, coins=1)
        assert cues.cues == [Cue.TURN]
        while s.state.track.turn < s.state.track.turns:
            play_turn(s, coins=1)
        assert cues.cues.count(Cue.FINAL_TURN) == 1
        assert cues.cues[-1] is Cue.FINAL_TURN
        turns = s.state.track.turns
        assert cues.cues.count(Cue.TURN) == 2 * (turns - 1) - 1  # every pass but the last
    finally:
        from companion.cues import SILENT

        app.ctx.cues = SILENT


# --- the real SDL mixer ----------------------------------------------------------------------

REAL = """
import json, logging
from companion.config import SoundConfig
from companion.cues import Cue
from companion.sounds import Sounds
said = []
class Keep(logging.Handler):
    def emit(self, record):
        said.append(record.getMessage())
logging.getLogger("companion.sounds").addHandler(Keep())
sounds = Sounds.open(SoundConfig(volume=50, quiet_hours=None))
for cue in Cue:
    sounds.play(cue)
sounds.play(Cue.TURN)
print(json.dumps({"working": sounds.working, "played": sounds.played, "said": said}))
"""


def real_mixer(tmp_path: Path, driver: str) -> dict[str, Any]:
    env = {**os.environ, "SDL_AUDIODRIVER": driver, "SDL_VIDEODRIVER": "offscreen",
           "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_FILELOG": "1",
           "KIVY_HOME": str(tmp_path / "kivy")}
    env.pop("KIVY_AUDIO", None)
    run = subprocess.run([sys.executable, "-c", REAL], capture_output=True, text=True,
                         timeout=120, env=env, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_the_real_sdl_mixer_plays_each_cue_with_the_dummy_driver(tmp_path: Path) -> None:
    found = real_mixer(tmp_path, "dummy")
    assert found == {"working": True, "played": len(Cue) + 1, "said": []}


def test_the_real_sdl_mixer_without_a_device_is_silent_and_said_once(tmp_path: Path) -> None:
    found = real_mixer(tmp_path, "no-such-driver")
    assert found["working"] is False and found["played"] == 0
    assert len(found["said"]) == 1
    assert "no sound device could be opened; the table stays silent" in found["said"][0]


APP = """
import sys
from pathlib import Path
from kivy.clock import Clock
import companion.app as start
from companion.config import SoundConfig
from companion.cues import SILENT

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        print("BEFORE", self.ctx.cues is SILENT)
        tries = [0]
        def look(_dt):
            cues = self.ctx.cues
            tries[0] += 1
            if cues is SILENT and tries[0] < 100:  # opened in a tick after start-up
                Clock.schedule_once(look, 0.1)
                return
            print("SOUNDS", type(cues).__name__, cues.working)
            self.stop()
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0))  # start-up is over

start.TableApp = Probe
start.run_app(Path(sys.argv[1]), die_pin=None, sound=SoundConfig(quiet_hours=None))
"""


@pytest.mark.parametrize(("driver", "working"), [("dummy", True), ("no-such-driver", False)])
def test_the_started_app_opens_its_sounds_after_start_up(
    tmp_path: Path, driver: str, working: bool
) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": driver,
           "KIVY_NO_ARGS": "1", "GPIOZERO_PIN_FACTORY": "mock",
           "KIVY_HOME": str(tmp_path / "kivy")}
    env.pop("KIVY_AUDIO", None)
    script = tmp_path / "probe.py"
    script.write_text(APP)
    run = subprocess.run([sys.executable, str(script), str(tmp_path / "games.sqlite3")],
                         capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "BEFORE True" in run.stdout  # nothing of the sound before the first frame
    assert f"SOUNDS Sounds {working}" in run.stdout
    if not working:
        assert run.stderr.count("the table stays silent") == 1
