"""Make the app's sound cues: short 16-bit mono WAV files, synthesised from scratch.

    python3 tools/make_sounds.py [OUT_DIR]        (default: companion/data/sounds)

The cues are the project's own: nothing is sampled or copied, each is a few sine partials
or a burst of noise under an envelope, written with the standard library's `wave` module.
They are dedicated to the public domain (CC0 1.0), as `companion/data/sounds/LICENSE.txt`
says. The output is the same byte for byte on every run (the noise comes from a seeded
`random.Random`), so tests/test_sounds.py can check that the files in the repository are
the ones this script makes. Run it again after changing a cue, and commit the WAV files.

Each file is named after its cue (`companion.cues.Cue`: ``die_roll.wav`` ...), lasts at
most a second and is under 50 KB: 22050 samples a second, one channel, 16 bits.
"""

from __future__ import annotations

import math
import random
import struct
import sys
import wave
from collections.abc import Callable, Iterable
from pathlib import Path

RATE = 22050
"""Samples per second: plenty for short cues, half the size of CD rate."""
PEAK = 0.6
"""The loudest sample, as a fraction of full scale: headroom, never a clipped sample."""
FADE = 0.004
"""Seconds of fade in and out at each end of a cue, so it never starts or stops on a click."""

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "companion" / "data" / "sounds"

Signal = Callable[[float], float]
"""A sound as a function of time in seconds, about -1 to 1."""


def tone(freq: float, decay: float, partials: Iterable[tuple[float, float]] = ((1, 1),)
         ) -> Signal:
    """A struck note: sine partials (frequency multiple, weight) dying away exponentially
    (`decay`: seconds to fall to about a third)."""
    parts = tuple(partials)

    def signal(t: float) -> float:
        if t < 0:
            return 0.0
        return math.exp(-t / decay) * sum(w * math.sin(2 * math.pi * freq * m * t)
                                          for m, w in parts)
    return signal


def later(start: float, signal: Signal) -> Signal:
    """`signal` starting `start` seconds in."""
    return lambda t: signal(t - start) if t >= start else 0.0


def noise_bursts(times: Iterable[float], length: float, seed: int, tone_hz: float) -> Signal:
    """Short clicks of filtered noise at `times`: a die tumbling on a wooden tray."""
    rng = random.Random(seed)
    table = [rng.uniform(-1, 1) for _ in range(int(RATE * length) + 2)]
    starts = tuple(times)

    def signal(t: float) -> float:
        total = 0.0
        for n, start in enumerate(starts):
            dt = t - start
            if 0 <= dt < length:
                level = math.exp(-dt / (length / 4)) * (0.55 + 0.45 * math.cos(n * 1.7))
                body = math.sin(2 * math.pi * (tone_hz + 37 * (n % 5)) * dt)
                total += level * (0.55 * table[int(dt * RATE)] + 0.45 * body)
        return total
    return signal


def mix(*signals: Signal) -> Signal:
    return lambda t: sum(s(t) for s in signals)


BELL = ((1, 1.0), (2, 0.35), (3, 0.12), (4.2, 0.05))
"""A soft bell: the fundamental, two harmonics and a slightly sharp fourth."""


def note(name: str) -> float:
    """The frequency of a note such as ``"A5"`` (equal temperament, A4 = 440 Hz)."""
    steps = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}[name[0]]
    return 440.0 * 2 ** (steps / 12 + int(name[1:]) - 4)


CUES: dict[str, tuple[float, Signal]] = {
    # The die tumbling: irregular knocks, closer together as it slows down.
    "die_roll": (0.5, noise_bursts((0.0, 0.07, 0.13, 0.2, 0.26, 0.33, 0.38, 0.43),
                                   0.035, seed=6, tone_hz=420)),
    # It lands on a number: one clear wooden knock and a little ring.
    "die_face": (0.3, mix(noise_bursts((0.0,), 0.03, seed=1, tone_hz=520),
                          tone(note("E5"), 0.08, BELL))),
    # It lands on a blank: a dull, lower knock.
    "die_blank": (0.3, mix(noise_bursts((0.0,), 0.04, seed=2, tone_hz=240),
                           tone(note("A3"), 0.07, ((1, 1.0), (2, 0.2))))),
    # The turn passes: two bell notes going up.
    "turn": (0.7, mix(tone(note("E5"), 0.18, BELL), later(0.16, tone(note("A5"), 0.22, BELL)))),
    # The last turn begins: three notes up and a held fourth.
    "final_turn": (1.0, mix(tone(note("C5"), 0.12, BELL), later(0.14, tone(note("E5"), 0.12, BELL)),
                            later(0.28, tone(note("G5"), 0.12, BELL)),
                            later(0.42, tone(note("C6"), 0.3, BELL)))),
    # A total revealed at the game end: one bright ding.
    "reveal": (0.45, tone(note("G5"), 0.14, BELL)),
    # The winner's total: a major arpeggio ending on a chord.
    "winner": (1.0, mix(tone(note("C5"), 0.5, BELL), later(0.1, tone(note("E5"), 0.5, BELL)),
                        later(0.2, tone(note("G5"), 0.5, BELL)),
                        later(0.3, tone(note("C6"), 0.45, BELL)))),
}
"""Each cue: its length in seconds and its signal."""


def samples(length: float, signal: Signal) -> list[int]:
    """`signal` over `length` seconds as 16-bit samples, scaled so its peak is `PEAK`,
    faded in and out."""
    count = int(RATE * length)
    raw = [signal(i / RATE) for i in range(count)]
    fade = int(RATE * FADE)
    for i in range(min(fade, count)):
        raw[i] *= i / fade
        raw[count - 1 - i] *= i / fade
    loudest = max(abs(x) for x in raw) or 1.0
    scale = PEAK * 32767 / loudest
    return [round(x * scale) for x in raw]


def write(path: Path, values: list[int]) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(values)}h", *values))


def make(out: Path = OUT) -> list[Path]:
    """Write every cue's WAV file into `out`; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (length, signal) in CUES.items():
        path = out / f"{name}.wav"
        write(path, samples(length, signal))
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    for path in make(Path(argv[0]) if argv else OUT):
        print(f"{path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
