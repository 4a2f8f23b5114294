"""The pure rules of who the screen faces (`companion.seating`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.seating import (
    SEATINGS,
    Seating,
    Side,
    default_sides,
    facing,
    flipped,
    from_setting,
    padded,
    rotation,
    sides_key,
    to_setting,
)

NEAR, FAR = Side.NEAR, Side.FAR
SIDES = (NEAR, FAR, NEAR)


def test_the_table_faces_the_current_seat_when_the_players_sit_around() -> None:
    assert facing(Seating.AROUND, SIDES, "table", 1) is FAR
    assert facing(Seating.AROUND, SIDES, "table", 2) is NEAR
    assert rotation(0, Seating.AROUND, SIDES, "table", 1) == 180
    assert rotation(0, Seating.AROUND, SIDES, "die", 1) == 180


def test_a_peek_faces_its_owner_not_the_current_player() -> None:
    assert facing(Seating.AROUND, SIDES, "table", 1, peek_seat=0) is NEAR
    assert facing(Seating.AROUND, SIDES, "table", 0, peek_seat=1) is FAR
    assert rotation(0, Seating.AROUND, SIDES, "table", 1, peek_seat=2) == 0


@pytest.mark.parametrize("screen", ["home", "new_game", "map", "market", "scoring",
                                    "game_end", "settings"])
def test_the_other_screens_stay_upright(screen: str) -> None:
    assert rotation(0, Seating.AROUND, SIDES, screen, 1) == 0


@pytest.mark.parametrize("screen", ["table", "die", "map"])
@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_one_side_never_turns(screen: str, seat: int | None) -> None:
    assert rotation(0, Seating.ONE_SIDE, SIDES, screen, seat, peek_seat=1) == 0
    assert rotation(90, Seating.ONE_SIDE, SIDES, screen, seat) == 90


def test_the_turn_adds_to_the_display_rotation() -> None:
    assert rotation(180, Seating.AROUND, SIDES, "table", 1) == 0
    assert rotation(90, Seating.AROUND, SIDES, "table", 1) == 270
    assert rotation(180, Seating.AROUND, SIDES, "table", 0) == 180


def test_unknown_seats_sit_near() -> None:
    assert facing(Seating.AROUND, SIDES, "table", None) is NEAR
    assert facing(Seating.AROUND, SIDES, "table", 7) is NEAR
    assert facing(Seating.AROUND, (), "table", 0) is NEAR


def test_flipping_a_seat_and_padding() -> None:
    assert flipped((NEAR,), 2, 3) == (NEAR, NEAR, FAR)
    assert flipped(SIDES, 1, 3) == (NEAR, NEAR, NEAR)
    assert flipped(SIDES, 9, 3) == SIDES
    assert padded(SIDES, 2) == (NEAR, FAR)
    assert default_sides(4) == (NEAR, FAR, NEAR, FAR)
    assert NEAR.other is FAR and FAR.other is NEAR


def test_the_setting_reads_back_and_never_fails() -> None:
    assert from_setting(to_setting(SIDES)) == SIDES
    assert to_setting(SIDES) == ["near", "far", "near"]
    assert from_setting(["far", "sideways", 3]) == (FAR, NEAR, NEAR)
    assert from_setting(None) == () and from_setting("far") == ()
    assert sides_key(12) == "seating.sides.12"
    assert SEATINGS == ("one side", "around")


def test_it_imports_nothing_heavy() -> None:
    code = ("import sys, companion.seating as s; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('kivy', 'sqlite3') or m.startswith('companion.rules')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_the_configuration_allows_exactly_the_seatings() -> None:
    from companion import config

    assert config.SEATINGS == SEATINGS
    assert config.DisplayConfig().seating == Seating.ONE_SIDE
