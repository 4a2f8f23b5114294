"""The die button: one press per real press, none while locked out, on the main thread.

The pin is gpiozero's own ``MockFactory`` pin, driven low (pressed) and high (released);
our debounce runs on a fake clock the test moves by hand, so no test sleeps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

from hardware.button import DEFAULT_BUTTON_PIN, ButtonUnavailable, DieButton
from hardware.dispatch import QueueScheduler, on_main_thread

PIN = 17


class FakeClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def presses() -> list[float]:
    return []


@pytest.fixture
def button(
    pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> Iterator[DieButton]:
    with DieButton(PIN, on_press=lambda: presses.append(clock()), clock=clock) as die_button:
        yield die_button


def press(pin: object, clock: FakeClock, hold: float = 0.2) -> None:
    pin.drive_low()  # type: ignore[attr-defined]
    clock.advance(hold)
    pin.drive_high()  # type: ignore[attr-defined]


def bounce(pin: object, clock: FakeClock, edges: int, gap: float = 0.001) -> None:
    """``edges`` alternating low/high edges ``gap`` apart, starting low, ending low."""
    for i in range(edges):
        if i % 2 == 0:
            pin.drive_low()  # type: ignore[attr-defined]
        else:
            pin.drive_high()  # type: ignore[attr-defined]
        clock.advance(gap)
    pin.drive_low()  # type: ignore[attr-defined]


def test_a_clean_press_is_one_press(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    press(pin_factory.pin(PIN), clock)
    assert len(presses) == 1
    assert button.stats.presses == 1


def test_a_burst_of_bounces_gives_one_press(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    pin = pin_factory.pin(PIN)
    bounce(pin, clock, edges=9)
    clock.advance(0.3)
    # The release bounces too.
    for _ in range(5):
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.002)
    pin.drive_high()
    assert len(presses) == 1
    assert button.stats.bounces >= 5


def test_holding_the_button_gives_one_press_and_no_repeats(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    pin = pin_factory.pin(PIN)
    pin.drive_low()
    for _ in range(50):
        clock.advance(0.1)  # five seconds held
    # Contact chatter while held is not a press either.
    pin.drive_high()
    clock.advance(0.003)
    pin.drive_low()
    clock.advance(1.0)
    pin.drive_high()
    assert len(presses) == 1


def test_two_real_presses_are_two_presses(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    pin = pin_factory.pin(PIN)
    press(pin, clock)
    clock.advance(0.3)
    press(pin, clock)
    assert len(presses) == 2


def test_a_new_press_counts_only_after_the_release_lasted_the_debounce_time(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    pin = pin_factory.pin(PIN)
    press(pin, clock)
    clock.advance(button.debounce / 2)
    press(pin, clock)
    assert len(presses) == 1
    clock.advance(button.debounce * 1.1)
    press(pin, clock)
    assert len(presses) == 2


def test_a_press_during_the_roll_lockout_is_ignored(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    pin = pin_factory.pin(PIN)
    press(pin, clock)
    button.lock_out(2.0)  # the roll animation
    assert button.locked
    clock.advance(0.5)
    press(pin, clock)
    assert len(presses) == 1
    assert button.stats.locked_out == 1
    clock.advance(2.0)
    assert not button.locked
    press(pin, clock)
    assert len(presses) == 2


def test_a_press_held_through_the_end_of_the_lockout_does_not_roll_later(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    pin = pin_factory.pin(PIN)
    button.lock_out(1.0)
    pin.drive_low()
    clock.advance(3.0)
    pin.drive_high()
    assert presses == []
    clock.advance(0.2)
    press(pin, clock)
    assert len(presses) == 1


def test_unlock_ends_the_lockout_at_once(
    button: DieButton, pin_factory: MockFactory, clock: FakeClock, presses: list[float]
) -> None:
    button.lock_out(60)
    button.unlock()
    press(pin_factory.pin(PIN), clock)
    assert len(presses) == 1


def test_a_failing_callback_does_not_break_the_button(
    pin_factory: MockFactory, clock: FakeClock
) -> None:
    calls = []

    def fail() -> None:
        calls.append(1)
        raise RuntimeError("boom")

    with DieButton(PIN, on_press=fail, clock=clock) as button:
        pin = pin_factory.pin(PIN)
        press(pin, clock)
        clock.advance(0.2)
        press(pin, clock)
    assert len(calls) == 2
    assert button.stats.presses == 2


def test_the_callback_reaches_the_thread_that_drains_the_scheduler(
    pin_factory: MockFactory, clock: FakeClock
) -> None:
    # The mock pin pin_factory runs callbacks on the thread that drives the pin, so the press
    # is driven from another thread, as gpiozero's own thread would on a Pi.
    scheduler = QueueScheduler()
    ran_on: list[threading.Thread] = []
    with DieButton(
        PIN, on_press=lambda: ran_on.append(threading.current_thread()),
        schedule=scheduler, clock=clock,
    ) as button:  # fmt: skip
        pin = pin_factory.pin(PIN)
        device_thread = threading.Thread(target=pin.drive_low, name="gpio")
        device_thread.start()
        device_thread.join()
        assert ran_on == []  # nothing ran on the device thread
        assert button.stats.presses == 1
        assert scheduler.drain(timeout=5) == 1
    assert ran_on == [threading.main_thread()]


def test_on_main_thread_hands_every_call_over_in_order() -> None:
    scheduler = QueueScheduler()
    seen: list[tuple[int, str]] = []
    callback = on_main_thread(lambda n: seen.append((n, threading.current_thread().name)),
                              scheduler)  # fmt: skip
    threads = [threading.Thread(target=callback, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
        thread.join()
    assert seen == []
    assert scheduler.drain() == 3
    assert seen == [(0, "MainThread"), (1, "MainThread"), (2, "MainThread")]


def test_kivy_clock_style_schedulers_are_given_the_elapsed_time() -> None:
    scheduled: list[Callable[..., object]] = []
    seen: list[str] = []
    callback = on_main_thread(seen.append, lambda function: scheduled.append(function))
    callback("press")
    scheduled[0](0.016)  # Kivy's Clock calls with dt
    assert seen == ["press"]


def test_the_led_and_buzzer_are_optional_and_driven_when_configured(
    pin_factory: MockFactory, clock: FakeClock
) -> None:
    with DieButton(PIN, clock=clock) as plain:
        assert not plain.has_led and not plain.has_buzzer
        plain.set_led(True)  # nothing to do, no error
        plain.beep()
    pwm_factory = MockFactory(pin_class=MockPWMPin)
    with DieButton(PIN, led_pin=27, buzzer_pin=22, pin_factory=pwm_factory, clock=clock) as b:
        b.set_led(True)
        assert pwm_factory.pin(27).state == 1
        b.set_led(False)
        assert pwm_factory.pin(27).state == 0
        assert b.has_buzzer


def test_a_pin_already_in_use_is_named_in_the_error(pin_factory: MockFactory) -> None:
    with (
        DieButton(PIN),
        pytest.raises(ButtonUnavailable, match=r"die button on GPIO17 is not available"),
    ):
        DieButton(PIN)


def test_a_pin_that_does_not_exist_is_named_in_the_error(pin_factory: MockFactory) -> None:
    with pytest.raises(ButtonUnavailable, match=r"die button on GPIO99 is not available"):
        DieButton("GPIO99")


def test_the_default_pin_is_documented_in_the_readme() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "hardware" / "README.md").read_text()
    assert f"GPIO{DEFAULT_BUTTON_PIN}" in readme
