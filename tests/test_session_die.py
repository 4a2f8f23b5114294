"""The reinforcement die as the session rolls it: drawn from the system's random source."""

from __future__ import annotations

import secrets
from collections import Counter

from factories import created

from companion.rules.catalog import load_catalog
from companion.session import Session

ROLLS = 3000
# The chi-square value with 3 degrees of freedom that a fair die exceeds once in a
# million runs: the test is not flaky, and a die that gave any face 5 percentage
# points more than its share over 3000 rolls would fail it.
CRITICAL = 30.66


def test_the_session_rolls_with_the_system_random_source() -> None:
    assert isinstance(Session().rng, secrets.SystemRandom)


def test_die_faces_follow_the_die_three_blanks_and_one_two_three() -> None:
    s = Session()
    s.begin(created(2))
    s.pick(0)
    faces = Counter(s.roll_die() for _ in range(ROLLS))
    assert s.history is not None
    recorded = Counter(e.face for step in s.history.log for e in step if e.TYPE == "die_rolled")
    assert recorded == faces  # every face shown was saved as an event
    sides = Counter(load_catalog().die_faces)
    expected = {face: ROLLS * n / 6 for face, n in sides.items()}
    chi2 = sum((faces[f] - e) ** 2 / e for f, e in expected.items())
    assert set(faces) <= set(sides)
    assert chi2 < CRITICAL, (faces, chi2)
