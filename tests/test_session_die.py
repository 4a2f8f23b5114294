"""The reinforcement die as the session rolls it: drawn from the system's random source,
only for a roll the rules give, and saved before anyone sees it."""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest
from factories import session

from companion.rules.catalog import load_catalog
from companion.rules.die import DiePurpose
from companion.rules.errors import IllegalAction
from companion.rules.events import DieRolled
from companion.session import Session

ROLLS = 3000
# The chi-square value with 3 degrees of freedom that a fair die exceeds once in a
# million runs: the test is not flaky, and a die that gave any face 5 percentage
# points more than its share over 3000 rolls would fail it.
CRITICAL = 30.66


def test_the_session_rolls_with_the_system_random_source() -> None:
    assert isinstance(Session().rng, secrets.SystemRandom)


def test_die_faces_follow_the_die_three_blanks_and_one_two_three() -> None:
    s = session(2, races=("Ratmen",), powers=("Berserk",))
    s.pick(0)
    before = s.history  # a Berserk race about to conquer: one roll is allowed here
    assert before is not None
    faces: Counter[int] = Counter()
    recorded: Counter[int] = Counter()
    for _ in range(ROLLS):
        s.history = before  # the same moment each time (a history never changes)
        face = s.roll_for_berserk()
        faces[face] += 1
        (step,) = [step for step in s.history.log[len(before.log):]]
        (rolled,) = step
        assert isinstance(rolled, DieRolled) and rolled.purpose == DiePurpose.BERSERK
        recorded[rolled.face] += 1
    assert recorded == faces  # every face shown was saved as an event
    sides = Counter(load_catalog().die_faces)
    expected = {face: ROLLS * n / 6 for face, n in sides.items()}
    chi2 = sum((faces[f] - e) ** 2 / e for f, e in expected.items())
    assert set(faces) <= set(sides)
    assert chi2 < CRITICAL, (faces, chi2)


def test_a_roll_without_a_purpose_is_no_longer_offered() -> None:
    assert not hasattr(Session, "roll_die")


def test_a_refused_berserk_roll_draws_no_face_and_saves_nothing() -> None:
    s = session(2)  # the first combo is not Berserk
    s.pick(0)
    rng = random.Random(1)
    s.rng = rng
    drawn = rng.getstate()
    before = s.history
    with pytest.raises(IllegalAction, match="only a Berserk race rolls before a conquest"):
        s.roll_for_berserk()
    assert rng.getstate() == drawn and s.history is before


def test_a_refused_final_conquest_draws_no_face_and_saves_nothing() -> None:
    # A race with no region must enter the board on an entry region.
    s = session(2)
    s.pick(0)
    rng = random.Random(1)
    s.rng = rng
    drawn = rng.getstate()
    before = s.history
    target = next(rid for rid, region in sorted(s.state.map.regions.items())
                  if not region.entry and not region.is_water)
    with pytest.raises(IllegalAction, match=f"region {target} cannot be the final conquest"):
        s.attempt_final_conquest(target, tokens_left=1)
    assert rng.getstate() == drawn and s.history is before
