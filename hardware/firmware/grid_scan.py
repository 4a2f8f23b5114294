"""Scanning the sensors through multiplexers, and debouncing them (MicroPython).

Concept: up to four CD74HC4067 16-channel multiplexers share four select lines (S0-S3);
each one's common pin (SIG) goes to its own GPIO input with the internal pull-up on. A
reed switch or an open-drain Hall sensor on a channel pulls SIG low when a magnet (a
token) is above it, so a covered cell reads 0. Cell ``m * 16 + c`` is channel ``c`` of
multiplexer ``m``.

Pins are injected (anything with ``value()`` / ``value(v)``), so host tests drive fakes.

Invariants: :meth:`MuxScanner.read` returns one boolean per cell, True = covered.
:class:`Debouncer` changes a cell's state only after ``stable_scans`` scans in a row
disagree with it, so a bouncing reed contact or a hand passing over never shows.
"""

CHANNELS = 16


class MuxScanner:
    """Reads ``cells`` sensors through multiplexers sharing ``select_pins`` (S0 first)."""

    def __init__(self, select_pins, signal_pins, cells, active_low=True, settle=None):
        if cells > CHANNELS * len(signal_pins):
            needed = (cells + CHANNELS - 1) // CHANNELS
            raise ValueError(f"{cells} cells need {needed} multiplexers, {len(signal_pins)} wired")
        self.select_pins = select_pins
        self.signal_pins = signal_pins
        self.cells = cells
        self.active_low = active_low
        self._settle = settle  # e.g. lambda: time.sleep_us(5), after switching channels

    def read(self):
        covered = [False] * self.cells
        for channel in range(CHANNELS):
            for bit, pin in enumerate(self.select_pins):
                pin.value((channel >> bit) & 1)
            if self._settle is not None:
                self._settle()
            for mux, signal in enumerate(self.signal_pins):
                cell = mux * CHANNELS + channel
                if cell < self.cells:
                    level = signal.value()
                    covered[cell] = (level == 0) if self.active_low else (level == 1)
        return covered


class Debouncer:
    """Per-cell debounce: a change must be seen ``stable_scans`` scans in a row."""

    def __init__(self, cells, stable_scans=3):
        if stable_scans < 1:
            raise ValueError("stable_scans must be at least 1")
        self.stable_scans = stable_scans
        self.state = [False] * cells
        self._streak = [0] * cells

    def update(self, raw):
        """Take one scan; True when the debounced state changed."""
        changed = False
        state = self.state
        streak = self._streak
        for cell, value in enumerate(raw):
            if value == state[cell]:
                streak[cell] = 0
                continue
            streak[cell] += 1
            if streak[cell] >= self.stable_scans:
                state[cell] = value
                streak[cell] = 0
                changed = True
        return changed
