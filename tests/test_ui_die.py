"""The die button on the table and the hardware die button, in a real headless window.

The table's button starts the roll the rules allow and is disabled, with the reason shown,
when they allow none. The hardware button is the real `DieButton` on gpiozero's
`MockFactory` pin, wired by `companion.app.open_die_button` as the app wires it (its
debounce and lockout on a clock the test moves by hand): one roll per press the rules give
a roll for, and never a roll when they give none (only the reason is shown). Kivy's clock
is held too: the die's tumble lands only when the test waits for it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import final_target, session
from screen_steps import dismiss_notice, screen, tap_id

from companion.rules.events import DieRolled
from companion.session import Session

# Kivy's clock held still (conftest's `kivy_clock`): the tumble lands when the test waits for
# it, never before a check that it has not landed yet, however slow the machine.
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.usefixtures("kivy_clock")]

PIN = 17


class FakeClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def berserk_table() -> tuple[Any, Session]:
    """The app on the table screen: Ann (Berserk Ratmen next in the market) to play."""
    s = session(2, races=("Ratmen", "Orcs"), powers=("Berserk", "Hill"))
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("table")
    ui.pump()
    return app, s


def rolls(s: Session) -> int:
    assert s.history is not None
    return sum(isinstance(e, DieRolled) for step in s.history.in_force for e in step)


def test_the_table_die_button_is_greyed_with_its_reason_when_no_roll_is_allowed() -> None:
    app, s = berserk_table()
    table = screen(app)
    die, reason = table.ids.die, table.ids.die_reason
    assert die.kind == "dimmed" and not app.presenters["table"].die_ready
    why = ("No roll now: the die is rolled while conquering, and Ann's turn is at: pick a "
           "combo.")
    assert reason.text == why
    assert ui.is_shown(reason) and reason.height > 0
    ui.tap(die)  # a finger on the greyed button: told why, nothing rolled
    assert rolls(s) == 0 and app.ctx.nav.current == "table"
    [told] = ui.dialogs()
    assert told.text == why
    ui.close_dialogs()
    assert ui.layout_problems(table) == []


def test_the_table_die_button_rolls_for_berserk_once_before_each_conquest() -> None:
    app, s = berserk_table()
    s.pick(0)
    ui.pump()
    table = screen(app)
    assert table.ids.die.kind == "primary" and table.ids.die.text == "Roll for Berserk"
    assert table.ids.die_reason.text == ""
    tap_id(app, "die")
    assert app.ctx.nav.current == "die" and rolls(s) == 1
    face = s.state.last_roll
    ui.wait(1.2)  # the tumble lands
    die_screen = screen(app)
    assert die_screen.ids.result.text.startswith(f"Rolled {'a blank' if face == 0 else face}")
    assert die_screen.ids.roll.disabled  # no second roll before the conquest
    tap_id(app, "back")
    table = screen(app)
    assert table.ids.die.kind == "dimmed"
    assert table.ids.die_reason.text == (f"No roll now: Ann's Berserk roll ({face}) waits for "
                                         "the next conquest.")
    s.conquer(*final_target(s))  # the roll is used up by the conquest
    ui.pump()
    assert table.ids.die.kind == "primary"


def test_a_tumble_that_lands_after_another_game_took_the_table_says_nothing() -> None:
    app, s = berserk_table()
    s.pick(0)
    ui.pump()
    tap_id(app, "die")  # the tumble starts, and lands only later
    die = app.presenters["die"]
    assert not die.landed and rolls(s) == 1
    other, _s2 = berserk_table()  # another table's game on the same app, before it lands
    assert other is app
    app.ctx.nav.go("die")
    ui.pump()
    assert die.face == -1 and die.result_text == ""
    ui.wait(1.2)  # the old tumble's end comes now
    assert die.result_text == "" and screen(app).ids.result.text == ""


@pytest.fixture
def gpio() -> Iterator[tuple[Any, FakeClock]]:
    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory, FakeClock()
    finally:
        factory.reset()
        Device.pin_factory = previous


def test_the_hardware_button_rolls_once_per_allowed_press_and_never_otherwise(
    gpio: tuple[Any, FakeClock],
) -> None:
    from companion.app import ROLL_LOCKOUT, Devices, open_die_button

    factory, clock = gpio
    app, s = berserk_table()
    devices = Devices()
    open_die_button(app, PIN, devices, pin_factory=factory, clock=clock)
    assert devices.die_status == f"Die button: ready on GPIO{PIN}"
    pin = factory.pin(PIN)

    def press() -> None:
        pin.drive_low()  # gpiozero's callback, handed to Kivy's clock
        ui.pump()
        clock.now += 0.1
        pin.drive_high()
        clock.now += ROLL_LOCKOUT + 0.5  # the lockout and the debounce are over

    try:
        press()  # picking a combo: no roll, only the reason
        assert rolls(s) == 0
        assert dismiss_notice() == ("No roll now: the die is rolled while conquering, and "
                                    "Ann's turn is at: pick a combo.")
        s.pick(0)
        press()  # Berserk, before the first conquest: a roll
        assert rolls(s) == 1 and app.ctx.nav.current == "die"
        ui.wait(1.2)  # the tumble lands
        face = s.state.last_roll
        press()  # the roll waits for the conquest: none
        assert rolls(s) == 1
        assert dismiss_notice() == (f"No roll now: Ann's Berserk roll ({face}) waits for the "
                                    "next conquest.")
        s.conquer(*final_target(s))
        press()  # before the next conquest: a roll
        assert rolls(s) == 2
        ui.wait(1.2)
        s.finish_conquests()
        press()  # redeploying: none
        assert rolls(s) == 2
        assert "Ann's turn is at: redeploy" in dismiss_notice()
    finally:
        devices.close()


def test_a_pin_in_use_leaves_the_die_on_screen_and_the_home_screen_says_so_in_its_language(
    gpio: tuple[Any, FakeClock],
) -> None:
    """The tinkerer's wiring clashes (the pin is taken): no button, the roll stays on the
    screen, and the home screen's line says why in the language spoken, also after a
    switch."""
    from gpiozero import Button

    from companion import i18n
    from companion.app import Devices, open_die_button

    factory, clock = gpio
    taken = Button(PIN, pin_factory=factory)
    app, _s = berserk_table()
    home = app.presenters["home"]
    said = dict(home._say)  # how the shared app's home words its lines, put back after
    try:
        devices = Devices()
        open_die_button(app, PIN, devices, pin_factory=factory, clock=clock)
        assert devices.opened == []
        assert devices.die_status == f"Die button: none on GPIO{PIN} (roll on screen)"
        home.say_devices(devices.die_words, devices.grid_words)
        assert home.die_status == devices.die_status
        i18n.use("fr")
        home.update(None)
        assert home.die_status == devices.die_status != (
            f"Die button: none on GPIO{PIN} (roll on screen)")
        assert f"GPIO{PIN}" in home.die_status
    finally:
        i18n.use(i18n.SOURCE)
        taken.close()
        home._say = said
        home.update(None)


def test_the_hardware_button_rolls_the_final_conquest_for_the_region_chosen_on_the_map(
    gpio: tuple[Any, FakeClock],
) -> None:
    from companion.app import ROLL_LOCKOUT, Devices, open_die_button

    factory, clock = gpio
    s = session(2, races=("Orcs",), powers=("Hill",))
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("table")
    s.pick(0)
    ui.pump()
    devices = Devices()
    open_die_button(app, PIN, devices, pin_factory=factory, clock=clock)
    pin = factory.pin(PIN)

    def press() -> None:
        pin.drive_low()
        ui.pump()
        clock.now += 0.1
        pin.drive_high()
        clock.now += ROLL_LOCKOUT + 0.5

    try:
        press()  # no region chosen yet: the map opens, and nothing is rolled
        assert rolls(s) == 0 and app.ctx.nav.current == "map"
        assert "Tap the region for the final conquest on the map first" in dismiss_notice()
        region, tokens_left = final_target(s)
        board = app.presenters["map"]
        board.tap(region)
        board.set_tokens_left(tokens_left)
        assert any(action["key"] == "final" for action in board.actions)
        press()  # the region is chosen: the final conquest's one roll
        assert rolls(s) == 1 and app.ctx.nav.current == "die"
        assert s.state.track.this_turn.final_roll is not None
        assert s.state.track.this_turn.final_roll[0] == region
        ui.wait(1.2)
        assert screen(app).ids.result.text.startswith("Rolled")
        press()  # once a turn: none
        assert rolls(s) == 1
        assert "Ann's turn is at: redeploy" in dismiss_notice()
    finally:
        devices.close()
