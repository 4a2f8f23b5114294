"""The reinforcement die's push button, with an optional status LED and buzzer (gpiozero).

Concept
-------
A momentary push button sits between a GPIO pin (BCM numbering, default
:data:`DEFAULT_BUTTON_PIN`) and ground; the pin's internal pull-up holds it high, a press
pulls it low. :class:`DieButton` turns the pin's edges into *presses* and reports each one
through ``on_press()``; it never rolls the die itself (the session draws the face).

gpiozero's ``bounce_time`` is not relied on: our own debounce runs on an injectable
monotonic clock, so tests drive it exactly. A press edge counts only when

- the button had been released for at least ``debounce`` seconds before it (so the
  bounces of a press or of a release, and contact chatter while held, are not presses),
- and the button is not locked out (:meth:`DieButton.lock_out`, which the app sets while
  the roll animation runs).

Invariants
----------
- A burst of bounces gives one press; holding the button gives one press, never repeats.
- A press during a lockout is ignored and counted, and it does not come back when the
  lockout ends: the player presses again.
- ``on_press`` runs through ``schedule`` when one is given (Kivy's
  ``Clock.schedule_once``), so it reaches the main thread; without one it runs on
  gpiozero's thread.
- Without GPIO (no pin library, pin busy, bad pin) the constructor raises
  :class:`ButtonUnavailable` naming the pin and the cause; the app then runs with the
  on-screen die only.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hardware.dispatch import Scheduler, deliver

DEFAULT_BUTTON_PIN = 17
"""GPIO17 (physical pin 11; ground is physical pin 9 beside it)."""

DEFAULT_LED_PIN: int | None = None
"""No status LED unless configured (the README suggests GPIO27, physical pin 13)."""

DEFAULT_BUZZER_PIN: int | None = None
"""No buzzer unless configured (the README suggests GPIO22, physical pin 15)."""

DEFAULT_DEBOUNCE = 0.05
"""Seconds the button must have been released before a new press counts."""

_log = logging.getLogger(__name__)


class ButtonUnavailable(RuntimeError):
    """The button (or its LED or buzzer) cannot be used here; the message says why."""


@dataclass(frozen=True)
class ButtonStats:
    """What the button has seen: presses reported, bounces dropped, presses locked out."""

    presses: int
    bounces: int
    locked_out: int


def _pin_name(pin: int | str) -> str:
    return f"GPIO{pin}" if isinstance(pin, int) else str(pin)


def _gpio_device(kind: str, what: str, pin: int | str, pin_factory: Any, **options: Any) -> Any:
    """A gpiozero device, or :class:`ButtonUnavailable` naming the pin and the cause."""
    # gpiozero warns about each pin library it could not load before it gives up; those
    # warnings say why, so they go into the error instead of onto the console.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            import gpiozero  # type: ignore[import-untyped]

            device_class = getattr(gpiozero, kind)
            return device_class(pin, pin_factory=pin_factory, **options)
        except Exception as error:  # gpiozero raises many kinds: no pin library, pin in use...
            causes = "".join(f" ({warning.message})" for warning in caught)
            raise ButtonUnavailable(
                f"the {what} on {_pin_name(pin)} is not available: "
                f"{type(error).__name__}: {error}{causes}"
            ) from error


class DieButton:
    """The die button on ``pin``; reports each real press through ``on_press``.

    ``pin_factory`` is gpiozero's (``None``: gpiozero's default, which honours
    ``GPIOZERO_PIN_FACTORY``); tests pass a ``MockFactory``. ``clock`` is the monotonic
    clock of the debounce and lockout. ``led_pin`` and ``buzzer_pin`` are optional.
    """

    def __init__(
        self,
        pin: int | str = DEFAULT_BUTTON_PIN,
        *,
        on_press: Callable[[], object] | None = None,
        schedule: Scheduler | None = None,
        debounce: float = DEFAULT_DEBOUNCE,
        clock: Callable[[], float] = time.monotonic,
        led_pin: int | str | None = DEFAULT_LED_PIN,
        buzzer_pin: int | str | None = DEFAULT_BUZZER_PIN,
        pin_factory: Any = None,
    ) -> None:
        if debounce < 0:
            raise ValueError(f"debounce {debounce} s is negative")
        self.pin = pin
        self.debounce = debounce
        self._clock = clock
        self._schedule = schedule
        self._lock = threading.Lock()
        self._released_since: float | None = None  # None: released since the start
        self._locked_until = float("-inf")
        self._presses = 0
        self._bounces = 0
        self._locked_out = 0
        self._on_press: Callable[[], None] = lambda: None
        if on_press is not None:
            self.on_press = on_press
        self._led: Any = None
        self._buzzer: Any = None
        self._button = _gpio_device(
            "Button", "die button", pin, pin_factory, pull_up=True, bounce_time=None
        )
        try:
            if led_pin is not None:
                self._led = _gpio_device("LED", "status LED", led_pin, pin_factory)
            if buzzer_pin is not None:
                self._buzzer = _gpio_device("Buzzer", "buzzer", buzzer_pin, pin_factory)
        except ButtonUnavailable:
            self.close()
            raise
        self._button.when_pressed = self._pressed
        self._button.when_released = self._released

    # --- the callback -------------------------------------------------------------

    @property
    def on_press(self) -> Callable[[], None]:
        return self._on_press

    @on_press.setter
    def on_press(self, callback: Callable[[], object]) -> None:
        """Set what runs on each press (through the scheduler when there is one)."""
        self._on_press = deliver(callback, self._schedule)

    # --- lockout ------------------------------------------------------------------

    def lock_out(self, seconds: float) -> None:
        """Ignore presses for ``seconds`` from now (e.g. while the roll is animated)."""
        with self._lock:
            self._locked_until = self._clock() + seconds

    def unlock(self) -> None:
        """End a lockout now."""
        with self._lock:
            self._locked_until = float("-inf")

    @property
    def locked(self) -> bool:
        """Whether presses are being ignored now."""
        with self._lock:
            return self._clock() < self._locked_until

    @property
    def is_pressed(self) -> bool:
        """Whether the button is down right now (raw pin state, not debounced)."""
        return bool(self._button.is_pressed)

    @property
    def stats(self) -> ButtonStats:
        with self._lock:
            return ButtonStats(self._presses, self._bounces, self._locked_out)

    # --- edges --------------------------------------------------------------------

    def _pressed(self) -> None:
        with self._lock:
            now = self._clock()
            since = self._released_since
            if since is not None and now - since < self.debounce:
                self._bounces += 1
                accepted = False
            elif now < self._locked_until:
                self._locked_out += 1
                accepted = False
            else:
                self._presses += 1
                accepted = True
            # Until a release is seen, every further press edge is a bounce.
            self._released_since = float("inf")
        if accepted:
            try:
                self._on_press()
            except Exception:  # never let the app's callback kill gpiozero's thread
                _log.exception("the die button's on_press callback failed")

    def _released(self) -> None:
        with self._lock:
            self._released_since = self._clock()

    # --- LED and buzzer -------------------------------------------------------------

    @property
    def has_led(self) -> bool:
        return self._led is not None

    @property
    def has_buzzer(self) -> bool:
        return self._buzzer is not None

    def set_led(self, on: bool) -> None:
        """Light the status LED (or put it out); nothing when there is none."""
        if self._led is not None:
            if on:
                self._led.on()
            else:
                self._led.off()

    def beep(self, seconds: float = 0.08, n: int = 1, pause: float = 0.08) -> None:
        """Sound the buzzer ``n`` times in the background; nothing when there is none."""
        if self._buzzer is not None:
            self._buzzer.beep(on_time=seconds, off_time=pause, n=n, background=True)

    # --- life cycle -----------------------------------------------------------------

    def close(self) -> None:
        """Release the pins."""
        for device in (getattr(self, "_button", None), self._led, self._buzzer):
            if device is not None:
                device.close()

    def __enter__(self) -> DieButton:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
