"""Every race and power name the rules write is one of the packaged catalog's."""

from __future__ import annotations

from companion.rules import names
from companion.rules.catalog import load_catalog


def test_every_name_is_a_race_or_power_of_the_catalog() -> None:
    catalog = load_catalog()
    races = {r.name for r in catalog.races}
    powers = {p.name for p in catalog.powers}
    constants = {k: v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}
    assert constants
    for constant, name in constants.items():
        assert name in races | powers, constant
    assert set(names.RACES) <= races
    assert set(names.POWERS) <= powers
    assert set(constants.values()) == set(names.RACES) | set(names.POWERS)


def test_each_name_is_written_once() -> None:
    assert len(set(names.RACES)) == len(names.RACES)
    assert len(set(names.POWERS)) == len(names.POWERS)
