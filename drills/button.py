"""Button abuse: the die button pressed the way people (and worn switches) press it.

The real `DieButton` on gpiozero's `MockFactory` pin, with a simulated clock (so a minute
held costs nothing), wired as `companion.app.open_die_button` wires it: each accepted
press locks the button out for the roll (`ROLL_LOCKOUT`, read from companion/app.py) and
rolls the die the rules allow now through the session, which records the face. The player
rolls for Berserk (one roll before each conquest); after each roll the drill starts a
fresh game at the same moment, as if the conquest the roll was for had been made. The
drill counts the rolls the sessions recorded against the rolls the players meant:

- clean presses, well apart: one roll each;
- presses with a burst of contact bounce on the way down and on the way up: one each;
- the button held down for a minute, with contact chatter while held: one roll;
- presses while a roll is on screen (inside the lockout): none, and the press after the
  lockout rolls again: one;
- a quick double press (released for less than the debounce time): one;
- presses while the rules allow no roll (the turn is redeploying): none, each refused
  with the rules' reason.
"""

from __future__ import annotations

import ast
import random
import time
from collections.abc import Callable
from pathlib import Path

from bench.scripted import berserk_game
from companion.rules.catalog import load_catalog
from companion.rules.events import DieRolled
from companion.session import Session
from drills.report import Drill
from hardware.button import DEFAULT_DEBOUNCE, DieButton

ROOT = Path(__file__).resolve().parents[1]


def roll_lockout() -> float:
    """`ROLL_LOCKOUT` as companion/app.py sets it (read without importing Kivy)."""
    tree = ast.parse((ROOT / "companion" / "app.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "ROLL_LOCKOUT" for t in targets):
                value = ast.literal_eval(node.value)  # type: ignore[arg-type]
                return float(value)
    raise LookupError("ROLL_LOCKOUT is not set in companion/app.py")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def berserk_session(seed: int) -> Session:
    """A 3-player game whose first player has just picked a Berserk combo (conquering)."""
    session = Session(load_catalog(), rng=random.Random(seed))
    berserk_game(session)
    return session


def drill(seed: int = 3, scale: int = 1) -> Drill:
    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    started = time.monotonic()
    rng = random.Random(seed)
    lockout = roll_lockout()
    debounce = DEFAULT_DEBOUNCE
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    clock = FakeClock()
    games = [berserk_session(seed)]  # the first player conquers: a Berserk roll is allowed
    refused: list[str] = []
    no_roll: list[str] = []  # presses the rules gave no roll for, with the reason shown

    def rolls() -> int:
        total = 0
        for game in games:
            assert game.history is not None
            total += sum(isinstance(e, DieRolled) for step in game.history.in_force
                         for e in step)
        return total

    try:
        button = DieButton(17, clock=clock, pin_factory=factory)

        def pressed() -> None:  # as companion/app.py's open_die_button does
            button.lock_out(lockout)
            session = games[-1]
            chance = session.die_chance()
            if not chance.allowed:  # the app shows the reason, and rolls nothing
                no_roll.append(chance.reason)
                return
            try:
                session.roll_for_berserk()
            except Exception as error:  # a refused roll would be shown, not crash
                refused.append(str(error))

        button.on_press = pressed
        pin = factory.pin(17)

        def edges(count: int, low_first: bool = True) -> None:
            """`count` contact bounces 0.2-3 ms apart."""
            for i in range(count):
                if (i % 2 == 0) == low_first:
                    pin.drive_low()
                else:
                    pin.drive_high()
                clock.advance(rng.uniform(0.0002, 0.003))

        def press(hold: float, bounce: int = 0) -> None:
            edges(bounce)
            pin.drive_low()
            clock.advance(hold)
            edges(bounce, low_first=False)
            pin.drive_high()

        def rest(seconds: float) -> None:
            clock.advance(seconds)
            if games[-1].state.last_roll is not None:  # the conquest the roll was for
                games.append(berserk_session(seed + len(games)))

        scenarios: list[tuple[str, int, int]] = []  # (name, intended, registered)

        def scenario(name: str, intended: int, run: Callable[[], None], times: int = 1) -> None:
            before = rolls()
            for _ in range(times):
                run()
            scenarios.append((name, intended, rolls() - before))

        def clean() -> None:
            press(0.15)
            rest(lockout + 0.3)

        def bouncy() -> None:
            press(rng.uniform(0.08, 0.3), rng.randint(3, 15))
            rest(lockout + 0.3)

        n = 20 * scale
        scenario(f"{n} clean presses, {lockout + 0.3:g} s apart", n, clean, n)
        n = 30 * scale
        scenario(f"{n} presses with 3-15 bounces down and up", n, bouncy, n)

        def held() -> None:
            pin.drive_low()
            for _ in range(60):  # a minute, with chatter every second
                clock.advance(0.999)
                pin.drive_high()
                clock.advance(0.0005)
                pin.drive_low()
                clock.advance(0.0005)
            pin.drive_high()
            rest(lockout + 0.3)

        scenario("held down for a minute, chattering every second", 1, held)

        def during_roll() -> None:
            press(0.1)
            for _ in range(5):  # impatient presses while the die tumbles
                rest(lockout / 7)
                press(0.05)
            rest(lockout + 0.3)
            press(0.1)  # the next roll, once the first is over
            rest(lockout + 0.3)

        n = 10 * scale
        scenario(f"{n} rolls, each with 5 presses during the roll, then a press after", 2 * n,
                 during_roll, n)

        def double() -> None:
            pin.drive_low()
            clock.advance(0.1)
            pin.drive_high()
            clock.advance(debounce * 0.4)  # released for less than the debounce time
            pin.drive_low()
            clock.advance(0.1)
            pin.drive_high()
            rest(lockout + 0.3)

        n = 10 * scale
        scenario(f"{n} double presses (released under {debounce * 1000:.0f} ms)", n, double, n)

        def redeploying() -> None:
            games[-1].finish_conquests()
            press(0.15)
            rest(lockout + 0.3)
            games.append(berserk_session(seed + len(games)))

        n = 5 * scale
        scenario(f"{n} presses while redeploying (no roll allowed)", 0, redeploying, n)
        stats = button.stats
        button.close()
    finally:
        factory.reset()
        Device.pin_factory = previous
    intended = sum(s[1] for s in scenarios)
    registered = sum(s[2] for s in scenarios)
    result = Drill(
        "Button abuse",
        "the real DieButton on gpiozero's MockFactory pin, with a simulated clock, wired as "
        f"the app wires it (a {lockout:g} s lockout per roll, Berserk rolls through the session): "
        + "; ".join(s[0] for s in scenarios),
    )
    for name, want, got in scenarios:
        result.check(f"rolls for: {name}", f"{got} (meant {want})", "equal", got == want)
    result.check("rolls registered against presses intended", f"{registered} / {intended}",
                 "equal", registered == intended)
    result.check("bounces dropped / presses locked out (button counters)",
                 f"{stats.bounces} / {stats.locked_out}")
    result.check("rolls refused by the session", len(refused), "0", not refused)
    result.check("presses shown a reason instead of a roll", len(no_roll), f"{5 * scale}",
                 len(no_roll) == 5 * scale)
    result.seconds = time.monotonic() - started
    result.detail = {"scenarios": scenarios, "stats": stats.__dict__ if hasattr(stats, "__dict__")
                     else str(stats), "refused": refused[:5], "no_roll": no_roll[:2],
                     "lockout": lockout}
    return result
