"""Corrections of the catalog numbers that rest on one source: checked, applied as data,
saved in the settings of a real SQLite store, recorded in the games they start."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from factories import created

from companion.rules.catalog import load_catalog
from companion.rules.corrections import (
    CorrectionError,
    correctable,
    corrected,
    document,
    overrides,
    read_document,
    uncorrected,
)
from companion.rules.events import GameCreated, Seat
from companion.session import Session
from companion.store import Store
from companion.store import corrections as saved_corrections

CURSED = ("base", "cursed")
WERE_6 = ("power", "Were-", "tokens", 6)


# --- the catalog ------------------------------------------------------------------------


def test_the_numbers_resting_on_one_source_are_the_ones_offered_for_correction() -> None:
    numbers = {(c.kind, c.name, c.field): c.value for c in correctable(load_catalog())}
    assert numbers == {
        ("race", "Homunculi", "tokens"): 5,
        ("race", "Priestesses", "max_tokens"): 9,
        ("race", "Barbarians", "max_tokens"): 14,
        ("power", "Cursed", "tokens"): 0,
        ("power", "Marauding", "tokens"): 5,
        ("power", "Ransacking", "tokens"): 4,
        ("power", "Were-", "tokens"): 4,
        ("power", "Historian", "tokens"): 5,
    }


def test_every_low_confidence_number_can_be_corrected_and_no_base_game_number() -> None:
    catalog = load_catalog()
    for entry in (*catalog.races, *catalog.powers):
        if entry.confidence == "low":
            assert "tokens" in entry.single_source, entry.name
        if entry.expansion == "base":
            assert entry.single_source == (), entry.name


def test_a_correction_makes_a_new_catalog_and_leaves_the_packaged_one() -> None:
    catalog = load_catalog()
    fixed = corrected(catalog, [WERE_6])
    assert fixed.power("Were-").tokens == 6
    assert fixed.combo_tokens("Kobolds", "Were-") == 11 + 6
    assert catalog.power("Were-").tokens == 4
    assert [(c.name, c.value, c.was) for c in fixed.corrections] == [("Were-", 6, 4)]
    assert overrides(fixed) == (WERE_6,)


def test_corrections_never_stack_and_none_gives_the_packaged_numbers() -> None:
    catalog = load_catalog()
    twice = corrected(corrected(catalog, [WERE_6]), [("power", "Were-", "tokens", 5)])
    assert twice.power("Were-").tokens == 5
    assert [c.was for c in twice.corrections] == [4]
    assert uncorrected(twice).power("Were-").tokens == 4
    assert corrected(twice, ()).corrections == ()
    assert corrected(twice, ()).power("Were-") == catalog.power("Were-")


def test_a_cross_checked_number_is_refused_naming_the_race_and_the_field() -> None:
    with pytest.raises(CorrectionError, match=r"race Orcs, tokens: does not rest on one "
                                              r"source.*cross-checked.*Homunculi tokens"):
        corrected(load_catalog(), [("race", "Orcs", "tokens", 6)])


def test_a_number_of_the_entry_that_is_cross_checked_is_refused_naming_the_one_allowed() -> None:
    with pytest.raises(CorrectionError, match=r"race Priestesses, tokens: .*only max_tokens"):
        corrected(load_catalog(), [("race", "Priestesses", "tokens", 5)])


@pytest.mark.parametrize(("override", "allowed"), [
    (("race", "Priestesses", "max_tokens", 3), "a whole number from 4 to 30"),
    (("race", "Homunculi", "tokens", 0), "a whole number from 1 to 20"),
    (("power", "Were-", "tokens", -1), "a whole number from 0 to 20"),
    (("power", "Were-", "tokens", 21), "a whole number from 0 to 20"),
    (("power", "Were-", "tokens", True), "a whole number from 0 to 20"),
    (("power", "Were-", "tokens", "5"), "a whole number from 0 to 20"),
])
def test_a_value_out_of_bounds_is_refused_naming_what_is_allowed(
    override: tuple[str, str, str, Any], allowed: str
) -> None:
    kind, name, field, _ = override
    with pytest.raises(CorrectionError, match=f"{kind} {name}, {field}: .*{allowed}"):
        corrected(load_catalog(), [override])


def test_an_unknown_race_and_a_second_correction_of_one_number_are_refused() -> None:
    with pytest.raises(CorrectionError, match="race Elfs, tokens: no such race"):
        corrected(load_catalog(), [("race", "Elfs", "tokens", 3)])
    with pytest.raises(CorrectionError, match="corrected twice"):
        corrected(load_catalog(), [WERE_6, ("power", "were-", "tokens", 5)])


def test_the_settings_document_reads_back_the_same_corrections() -> None:
    given = (WERE_6, ("race", "Priestesses", "max_tokens", 10))
    doc = document(given)
    assert doc == {"powers": {"Were-": {"tokens": 6}},
                   "races": {"Priestesses": {"max_tokens": 10}}}
    assert sorted(read_document(doc)) == sorted(given)
    with pytest.raises(CorrectionError, match="document"):
        read_document({"banners": {}})


# --- a game started with corrections ----------------------------------------------------


def test_a_game_picks_its_combos_with_the_corrected_numbers() -> None:
    fixed = corrected(load_catalog(), [WERE_6])
    s = Session(fixed, rng=random.Random(0))
    s.begin(replace(created(2, races=("Kobolds",), powers=("Were-",), expansions=CURSED),
                    corrections=overrides(fixed)))
    s.pick(0)
    assert s.state.current.active is not None and s.state.current.active.tokens == 11 + 6


def test_a_new_game_records_the_corrections_in_force(store: Store) -> None:
    s = Session(corrected(load_catalog(), [WERE_6]), rng=random.Random(0), store=store)
    s.new_game((Seat("Ann", "blue"), Seat("Bob", "red")), expansions=CURSED)
    assert s.game_id is not None
    first = store.load_log(s.game_id)[0][0]
    assert isinstance(first, GameCreated) and first.corrections == (WERE_6,)
    assert store.load_history(s.game_id).state.catalog.power("Were-").tokens == 6


def test_a_game_keeps_the_numbers_it_began_with_whatever_the_settings_say_later(
    store: Store,
) -> None:
    catalog = saved_corrections.save(store, load_catalog(), [WERE_6])
    s = Session(catalog, rng=random.Random(0), store=store)
    s.begin(replace(created(2, races=("Kobolds",), powers=("Were-",), expansions=CURSED),
                    corrections=overrides(catalog)))
    s.pick(0)
    assert s.game_id is not None
    s.catalog = saved_corrections.save(store, catalog, [("power", "Were-", "tokens", 3)])
    replayed = store.load_history(s.game_id).state
    assert replayed == s.state
    assert replayed.current.active is not None and replayed.current.active.tokens == 17
    older = Session(s.catalog, rng=random.Random(0), store=store)  # corrected to 3 now
    older.begin(created(2, races=("Kobolds",), powers=("Were-",), expansions=CURSED))
    older.pick(0)  # a game recorded without corrections plays the packaged numbers
    assert older.state.current.active is not None and older.state.current.active.tokens == 15


# --- the settings, in a real SQLite store ------------------------------------------------


def test_corrections_saved_in_the_settings_come_back_when_the_app_starts(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as first:
        saved_corrections.save(first, load_catalog(), [WERE_6])
    with Store.open(path) as again:
        catalog, problem = saved_corrections.corrected_catalog(again, load_catalog())
        assert problem is None
        assert catalog.power("Were-").tokens == 6
        assert again.setting(saved_corrections.KEY) == {"powers": {"Were-": {"tokens": 6}}}


def test_a_refused_correction_is_not_saved(store: Store) -> None:
    saved_corrections.save(store, load_catalog(), [WERE_6])
    with pytest.raises(CorrectionError, match="power Cursed, tokens: 99 is not allowed"):
        saved_corrections.save(store, load_catalog(), [("power", "Cursed", "tokens", 99)])
    assert saved_corrections.saved(store) == (WERE_6,)


def test_no_corrections_leave_no_setting_behind(store: Store) -> None:
    saved_corrections.save(store, load_catalog(), [WERE_6])
    catalog = saved_corrections.save(store, load_catalog(), [])
    assert store.setting(saved_corrections.KEY) is None
    assert catalog.corrections == ()


def test_saved_corrections_that_no_longer_apply_are_reported_and_left_out(store: Store) -> None:
    store.set_setting(saved_corrections.KEY, {"races": {"Orcs": {"tokens": 9}}})
    catalog, problem = saved_corrections.corrected_catalog(store, load_catalog())
    assert catalog.race("Orcs").tokens == 5 and catalog.corrections == ()
    assert problem is not None and "race Orcs, tokens" in str(problem)


def test_a_data_file_marking_an_unknown_or_unknown_valued_number_is_refused() -> None:
    import copy
    import json
    from importlib import resources

    from companion.rules.catalog import parse_catalog
    from companion.rules.errors import DataError

    def packaged(name: str) -> Any:
        return json.loads(resources.files("companion.data").joinpath(name).read_text("utf-8"))

    races, powers, parts = packaged("races.json"), packaged("powers.json"), packaged(
        "components.json")
    bad = copy.deepcopy(powers)
    bad["powers"][0]["single_source"] = ["max_tokens"]
    with pytest.raises(DataError, match=r"powers.json: power 'Alchemist'.*allowed: tokens"):
        parse_catalog(races, bad, parts)
    unknown = copy.deepcopy(races)
    next(r for r in unknown["races"] if r["name"] == "Pygmies")["single_source"] = ["max_tokens"]
    with pytest.raises(DataError, match=r"race 'Pygmies'.*max_tokens, which is not known"):
        parse_catalog(unknown, powers, parts)
