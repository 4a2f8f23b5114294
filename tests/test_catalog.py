"""The catalog: races, powers, expansions, coins, the die and the turn track."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.rules.catalog import Catalog, Power, Race, load_catalog, parse_catalog
from companion.rules.errors import DataError, UnknownName

SHARED = Path(__file__).resolve().parents[2] / "shared"

# The numbers printed on the 14 base-game race banners, and the race tokens in the box.
BASE_BANNERS = {
    "Amazons": 6, "Dwarves": 3, "Elves": 6, "Ghouls": 5, "Giants": 6, "Halflings": 6,
    "Humans": 5, "Orcs": 5, "Ratmen": 8, "Skeletons": 6, "Sorcerers": 5, "Tritons": 6,
    "Trolls": 5, "Wizards": 5,
}  # fmt: skip
BASE_BOX_TOKENS = {
    "Amazons": 15, "Dwarves": 8, "Elves": 11, "Ghouls": 10, "Giants": 11, "Halflings": 11,
    "Humans": 10, "Orcs": 10, "Ratmen": 13, "Skeletons": 20, "Sorcerers": 18, "Tritons": 11,
    "Trolls": 10, "Wizards": 10,
}  # fmt: skip
# The numbers printed on the 20 base-game special power badges.
BASE_BADGES = {
    "Alchemist": 4, "Berserk": 4, "Bivouacking": 5, "Commando": 4, "Diplomat": 5,
    "Dragon Master": 5, "Flying": 5, "Forest": 4, "Fortified": 3, "Heroic": 5, "Hill": 4,
    "Merchant": 2, "Mounted": 5, "Pillaging": 5, "Seafaring": 5, "Spirit": 5, "Stout": 4,
    "Swamp": 4, "Underworld": 5, "Wealthy": 4,
}  # fmt: skip
# Mini-expansion races: (banner number, tokens in the box or None, expansion id).
EXPANSION_RACES = {
    "Goblins": (6, None, "cursed"), "Kobolds": (11, None, "cursed"),
    "Gypsies": (6, None, "grand-dames"), "Priestesses": (4, 9, "grand-dames"),
    "White Ladies": (2, None, "grand-dames"),
    "Barbarians": (9, 14, "be-not-afraid"), "Homunculi": (5, None, "be-not-afraid"),
    "Leprechauns": (6, None, "be-not-afraid"), "Pixies": (11, None, "be-not-afraid"),
    "Pygmies": (6, None, "be-not-afraid"),
    "Fauns": (5, 18, "royal-bonus"), "Igors": (4, None, "royal-bonus"),
    "Shrubmen": (6, None, "royal-bonus"),
}  # fmt: skip
EXPANSION_POWERS = {
    "Cursed": (0, "cursed"), "Hordes of": (5, "cursed"), "Marauding": (5, "cursed"),
    "Ransacking": (4, "cursed"), "Were-": (4, "cursed"),
    "Historian": (5, "grand-dames"), "Peace-Loving": (4, "grand-dames"),
    "Barricade": (4, "be-not-afraid"), "Catapult": (4, "be-not-afraid"),
    "Corrupt": (4, "be-not-afraid"), "Imperial": (4, "be-not-afraid"),
    "Mercenary": (4, "be-not-afraid"),
    "Aquatic": (3, "royal-bonus"), "Behemoth": (4, "royal-bonus"), "Fireball": (5, "royal-bonus"),
}  # fmt: skip
EXPANSIONS = (
    ("base", "Base game"),
    ("cursed", "Cursed!"),
    ("grand-dames", "Grand Dames of Small World"),
    ("be-not-afraid", "Be Not Afraid..."),
    ("royal-bonus", "Royal Bonus"),
)


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def _packaged(name: str) -> dict[str, Any]:
    text = resources.files("companion.data").joinpath(name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@pytest.fixture
def docs() -> dict[str, dict[str, Any]]:
    """Fresh copies of the three packaged documents, for a test to break."""
    return {n: copy.deepcopy(_packaged(f"{n}.json")) for n in ("races", "powers", "components")}


def _parse(docs: dict[str, dict[str, Any]], source: str = "package data") -> Catalog:
    return parse_catalog(docs["races"], docs["powers"], docs["components"], source=source)


def _entry(doc: dict[str, Any], listing: str, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in doc[listing] if e["name"] == name)
    return found


# --- the published numbers ----------------------------------------------------------------


def test_every_base_race_has_its_banner_number(cat: Catalog) -> None:
    base = {r.name: r.tokens for r in cat.races_in(["base"])}
    assert base == BASE_BANNERS


def test_every_base_race_has_its_tokens_in_the_box(cat: Catalog) -> None:
    assert {r.name: r.max_tokens for r in cat.races_in(["base"])} == BASE_BOX_TOKENS


def test_base_race_tokens_add_up_to_the_168_in_the_box(cat: Catalog) -> None:
    assert sum(BASE_BOX_TOKENS.values()) == 168 == cat.pieces["race_tokens_total"]


def test_every_base_power_has_its_badge_number(cat: Catalog) -> None:
    assert {p.name: p.tokens for p in cat.powers_in(["base"])} == BASE_BADGES


def test_every_mini_expansion_race_is_listed_with_its_numbers(cat: Catalog) -> None:
    found = {
        r.name: (r.tokens, r.max_tokens, r.expansion) for r in cat.races if r.expansion != "base"
    }
    assert found == EXPANSION_RACES


def test_every_mini_expansion_power_is_listed_with_its_badge_number(cat: Catalog) -> None:
    found = {p.name: (p.tokens, p.expansion) for p in cat.powers if p.expansion != "base"}
    assert found == EXPANSION_POWERS


def test_amazons_take_four_tokens_that_only_conquer(cat: Catalog) -> None:
    assert cat.race("Amazons").conquest_only_tokens == 4
    assert [r.name for r in cat.races if r.conquest_only_tokens] == ["Amazons"]


def test_base_game_numbers_are_known_with_high_confidence(cat: Catalog) -> None:
    base: tuple[Race | Power, ...] = (*cat.races_in(["base"]), *cat.powers_in(["base"]))
    assert {item.confidence for item in base} == {"high"}


def test_numbers_resting_on_a_single_source_are_marked_low(cat: Catalog) -> None:
    low = {p.name for p in cat.powers if p.confidence == "low"}
    assert {"Cursed", "Ransacking", "Were-", "Marauding", "Historian"} <= low
    assert cat.race("Homunculi").confidence == "low"


# --- combos -------------------------------------------------------------------------------


def test_a_combo_gives_banner_plus_badge_tokens(cat: Catalog) -> None:
    assert cat.combo_tokens("Ratmen", "Merchant") == 8 + 2
    assert cat.combo_tokens("Dwarves", "Flying") == 3 + 5
    assert cat.combo_tokens("Amazons", "Commando") == 6 + 4  # the +4 conquest tokens apart


def test_a_cursed_combo_gives_only_the_race_tokens(cat: Catalog) -> None:
    assert cat.combo_tokens("Goblins", "Cursed") == 6


def test_combo_tokens_never_exceed_the_physical_tokens(cat: Catalog) -> None:
    for race in cat.races:
        for power in cat.powers:
            tokens = cat.combo_tokens(race.name, power.name)
            assert tokens <= race.tokens + power.tokens
            if race.max_tokens is not None:
                assert tokens <= race.max_tokens, (race.name, power.name)


def test_combo_tokens_are_capped_by_the_tokens_in_the_box(
    docs: dict[str, dict[str, Any]],
) -> None:
    _entry(docs["races"], "races", "Ratmen")["max_tokens"] = 9
    assert _parse(docs).combo_tokens("Ratmen", "Flying") == 9


def test_the_richest_base_combo_uses_every_ratman(cat: Catalog) -> None:
    assert cat.combo_tokens("Ratmen", "Flying") == 13 == cat.race("Ratmen").max_tokens


# --- components ---------------------------------------------------------------------------


def test_the_die_has_three_blank_faces_and_1_2_3(cat: Catalog) -> None:
    assert sorted(cat.die_faces) == [0, 0, 0, 1, 2, 3]


def test_coins_come_in_10_5_3_and_1(cat: Catalog) -> None:
    assert cat.coin_values == (10, 5, 3, 1)
    assert dict(cat.coin_counts) == {10: 30, 5: 24, 3: 20, 1: 35}
    assert sum(cat.coin_counts.values()) == 109
    assert sum(v * n for v, n in cat.coin_counts.items()) == 515


def test_each_player_starts_with_five_coins(cat: Catalog) -> None:
    assert cat.starting_coins == 5


def test_turns_follow_the_player_count(cat: Catalog) -> None:
    assert dict(cat.turns_by_players) == {2: 10, 3: 10, 4: 9, 5: 8}


def test_the_base_box_holds_its_pieces(cat: Catalog) -> None:
    expected = {
        "troll_lairs": 10, "fortresses": 6, "mountains": 9, "encampments": 5,
        "holes_in_the_ground": 2, "heroes": 2, "dragon": 1, "lost_tribe_tokens": 18,
        "race_banners": 14, "special_power_badges": 20,
    }  # fmt: skip
    assert {k: cat.pieces[k] for k in expected} == expected


def test_the_box_has_a_banner_and_a_badge_for_every_base_race_and_power(cat: Catalog) -> None:
    assert cat.pieces["race_banners"] == len(cat.races_in(["base"]))
    assert cat.pieces["special_power_badges"] == len(cat.powers_in(["base"]))


def test_river_world_has_an_event_for_every_turn_of_the_longest_game(cat: Catalog) -> None:
    events = sum(n for k, n in cat.river_world_pieces.items() if k.endswith("_events"))
    assert events == 2 + 3 + 2 + 4  # storms, quiet waters, harsh winters, pirates
    assert events >= max(cat.turns_by_players.values())
    assert cat.river_world_pieces["pirate_ships"] == 12
    assert cat.river_world_pieces["caravel"] == 1


def test_the_expansions_table_starts_with_the_base_game(cat: Catalog) -> None:
    assert cat.expansions == EXPANSIONS


def test_every_expansion_brings_races_or_powers(cat: Catalog) -> None:
    for ident, _ in cat.expansions:
        assert cat.races_in([ident]) or cat.powers_in([ident]), ident


# --- lookups ------------------------------------------------------------------------------


def test_names_match_case_insensitively(cat: Catalog) -> None:
    assert cat.race("white LADIES").name == "White Ladies"
    assert cat.race("  ratmen ").name == "Ratmen"
    assert cat.power("dragon master").name == "Dragon Master"
    assert cat.power("HORDES OF").name == "Hordes of"
    assert cat.combo_tokens("ELVES", "flying") == 11


def test_an_unknown_race_lists_the_allowed_races(cat: Catalog) -> None:
    with pytest.raises(UnknownName) as err:
        cat.race("Elfs")
    assert "unknown race 'Elfs'" in str(err.value)
    assert "Elves" in str(err.value) and "Shrubmen" in str(err.value)
    assert err.value.kind == "race"


def test_an_unknown_power_lists_the_allowed_powers(cat: Catalog) -> None:
    with pytest.raises(UnknownName, match=r"unknown power 'Flight'; allowed: Alchemist, "):
        cat.power("Flight")


def test_a_race_is_not_a_power(cat: Catalog) -> None:
    with pytest.raises(UnknownName, match="unknown power 'Ratmen'"):
        cat.combo_tokens("Ratmen", "Ratmen")


def test_races_and_powers_come_by_expansion(cat: Catalog) -> None:
    assert len(cat.races_in(["base"])) == 14
    assert len(cat.powers_in(["base"])) == 20
    everything = [ident for ident, _ in cat.expansions]
    assert cat.races_in(everything) == cat.races
    assert cat.powers_in(everything) == cat.powers
    assert [r.name for r in cat.races_in(["cursed"])] == ["Goblins", "Kobolds"]
    assert cat.races_in([]) == ()


def test_a_single_expansion_id_is_not_split_into_letters(cat: Catalog) -> None:
    assert cat.powers_in("royal-bonus") == cat.powers_in(["royal-bonus"])


def test_an_unknown_expansion_lists_the_allowed_ids(cat: Catalog) -> None:
    with pytest.raises(UnknownName, match="unknown expansion 'river-world'; allowed: base, "):
        cat.races_in(["base", "river-world"])


# --- the data as a whole ------------------------------------------------------------------


def _everything(cat: Catalog) -> tuple[Race | Power, ...]:
    return (*cat.races, *cat.powers)


def test_every_race_and_power_has_a_short_summary(cat: Catalog) -> None:
    for item in _everything(cat):
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", item.summary.strip()) if s]
        assert 1 <= len(sentences) <= 2, item.name
        assert len(item.summary) <= 240, item.name


@pytest.mark.skipif(not (SHARED / "rules").is_dir(), reason="no ../shared/rules here")
def test_summaries_are_written_in_our_own_words(cat: Catalog) -> None:
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z']+", text.lower())

    n = 7
    rules: set[tuple[str, ...]] = set()
    for path in (SHARED / "rules").glob("*.txt"):
        w = words(path.read_text(encoding="utf-8"))
        rules.update(tuple(w[i : i + n]) for i in range(len(w) - n + 1))
    for item in _everything(cat):
        w = words(item.summary)
        runs = (tuple(w[i : i + n]) for i in range(len(w) - n + 1))
        copied = [" ".join(run) for run in runs if run in rules]
        assert not copied, (item.name, copied)


@pytest.mark.skipif(not (SHARED / "reference").is_dir(), reason="no ../shared/reference here")
def test_the_catalog_matches_the_shared_reference(cat: Catalog) -> None:
    ids = {"base": "base", "Cursed!": "cursed", "Grand Dames of Small World": "grand-dames",
           "Be Not Afraid...": "be-not-afraid", "Royal Bonus": "royal-bonus"}  # fmt: skip
    ref_races = json.loads((SHARED / "reference" / "races.json").read_text())["races"]
    ref_powers = json.loads((SHARED / "reference" / "powers.json").read_text())["powers"]
    assert [r["name"] for r in ref_races] == [r.name for r in cat.races]
    assert [p["name"] for p in ref_powers] == [p.name for p in cat.powers]
    for ref in ref_races:
        race = cat.race(ref["name"])
        assert (race.tokens, race.expansion) == (ref["tokens"], ids[ref["expansion"]])
        # Fauns: the reference leaves it null although its cited sources say 18.
        assert race.max_tokens == (ref["max_tokens"] or {"Fauns": 18}.get(race.name))
        assert race.conquest_only_tokens == ref.get("conquest_only_bonus_tokens", 0)
        assert ref["confidence"].startswith(race.confidence)
        # The numbers a group may correct are those resting on one source only.
        one_source = {"tokens"} if ref["confidence"] == "low" else set()
        cited = [s for c in ref.get("sources_max_tokens", []) for s in c.split(";")]
        if len(cited) == 1:
            one_source.add("max_tokens")
        assert set(race.single_source) == one_source, race.name
    for ref in ref_powers:
        power = cat.power(ref["name"])
        assert (power.tokens, power.expansion) == (ref["tokens"], ids[ref["expansion"]])
        assert ref["confidence"].startswith(power.confidence)
        assert set(power.single_source) == ({"tokens"} if ref["confidence"] == "low" else set())


def test_the_catalog_is_read_once(cat: Catalog) -> None:
    assert load_catalog() is cat


def test_the_catalog_cannot_be_changed(cat: Catalog) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        cat.starting_coins = 50  # type: ignore[misc]
    with pytest.raises(TypeError):
        cat.turns_by_players[2] = 99  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        cat.races[0].tokens = 99  # type: ignore[misc]
    assert hash(cat) == hash(load_catalog())


# --- a broken file fails loudly, naming the file and the entry ---------------------------

Breaker = Callable[[dict[str, dict[str, Any]]], None]


def _set(file: str, listing: str, name: str, key: str, value: Any) -> Breaker:
    def brk(docs: dict[str, dict[str, Any]]) -> None:
        _entry(docs[file], listing, name)[key] = value

    return brk


def _drop(file: str, listing: str, name: str, key: str) -> Breaker:
    def brk(docs: dict[str, dict[str, Any]]) -> None:
        del _entry(docs[file], listing, name)[key]

    return brk


def _top(file: str, key: str, value: Any) -> Breaker:
    def brk(docs: dict[str, dict[str, Any]]) -> None:
        docs[file][key] = value

    return brk


def _rename_second_race(docs: dict[str, dict[str, Any]]) -> None:
    docs["races"]["races"][1]["name"] = "AMAZONS"


def _duplicate_power(docs: dict[str, dict[str, Any]]) -> None:
    docs["powers"]["powers"].append(dict(docs["powers"]["powers"][0], name="alchemist "))


def _second_coin_like_first(docs: dict[str, dict[str, Any]]) -> None:
    docs["components"]["coins"][1]["value"] = 10


def _expansion_order(docs: dict[str, dict[str, Any]]) -> None:
    table = docs["components"]["expansions"]
    table[0], table[1] = table[1], table[0]


def _expansion_twice(docs: dict[str, dict[str, Any]]) -> None:
    docs["components"]["expansions"].append({"id": "cursed", "name": "Cursed again"})


def _race_not_an_object(docs: dict[str, dict[str, Any]]) -> None:
    docs["races"]["races"][2] = "Elves"


BROKEN: list[tuple[str, Breaker, str]] = [
    ("duplicate race name", _rename_second_race,
     "races.json: race 'AMAZONS': the name is used twice (also race #1; case is ignored)"),
    ("duplicate power name", _duplicate_power,
     "powers.json: power 'alchemist ': the name is used twice (also power #1"),
    ("unknown expansion", _set("races", "races", "Kobolds", "expansion", "river-world"),
     "races.json: race 'Kobolds': unknown expansion \"river-world\"; allowed: base, cursed"),
    ("negative tokens", _set("races", "races", "Dwarves", "tokens", -1),
     "races.json: race 'Dwarves': tokens must be at least 1, got -1"),
    ("fractional tokens", _set("powers", "powers", "Hill", "tokens", 2.5),
     "powers.json: power 'Hill': tokens must be a whole number, got 2.5"),
    ("true is not a number", _set("powers", "powers", "Hill", "tokens", True),
     "powers.json: power 'Hill': tokens must be a whole number, got true"),
    ("tokens as text", _set("races", "races", "Elves", "tokens", "6"),
     "races.json: race 'Elves': tokens must be a whole number, got \"6\""),
    ("negative power tokens", _set("powers", "powers", "Cursed", "tokens", -2),
     "powers.json: power 'Cursed': tokens must be at least 0, got -2"),
    ("too few tokens in the box", _set("races", "races", "Amazons", "max_tokens", 9),
     "races.json: race 'Amazons': max_tokens 9 is fewer than the 10 tokens the banner gives"),
    ("negative conquest-only tokens", _set("races", "races", "Orcs", "conquest_only_tokens", -4),
     "races.json: race 'Orcs': conquest_only_tokens must be at least 0, got -4"),
    ("unknown confidence", _set("powers", "powers", "Stout", "confidence", "sure"),
     "powers.json: power 'Stout': confidence must be one of high, medium, low, got \"sure\""),
    ("missing summary", _drop("races", "races", "Trolls", "summary"),
     "races.json: race 'Trolls': missing field 'summary'"),
    ("empty summary", _set("powers", "powers", "Swamp", "summary", "  "),
     "powers.json: power 'Swamp': summary must be a non-empty string"),
    ("misspelt field", _set("races", "races", "Ghouls", "tokenz", 5),
     "races.json: race 'Ghouls': unknown field 'tokenz'; allowed: "),
    ("entry not an object", _race_not_an_object,
     "races.json: race #3: expected a JSON object, got \"Elves\""),
    ("races not a list", _top("races", "races", {"Amazons": 6}),
     "races.json: top level: races must be a non-empty list"),
    ("unsupported schema", _top("powers", "schema", 2),
     "powers.json: top level: schema 2 is not supported (this version reads 1)"),
    ("notes not text", _top("races", "notes", [1]),
     "races.json: top level: notes must be a list of strings"),
    ("negative die face", _top("components", "die_faces", [0, 0, -1, 1, 2, 3]),
     "components.json: die_faces: each face must be at least 0, got -1"),
    ("no die faces", _top("components", "die_faces", []),
     "components.json: die_faces: die_faces must be a non-empty list, got []"),
    ("a coin listed twice", _second_coin_like_first,
     "components.json: coins #2: value 10 is listed twice"),
    ("starting coins of no coin", _top("components", "starting_coins", {"value": 2, "count": 5}),
     "components.json: starting_coins: value 2 is not one of the coins (10, 5, 3, 1)"),
    ("turns for a word", _top("components", "turns_by_players", {"two": 10}),
     "components.json: turns_by_players: player count 'two' must be a whole number"),
    ("zero turns", _top("components", "turns_by_players", {"2": 0}),
     "components.json: turns_by_players: turns for 2 players must be at least 1, got 0"),
    ("negative piece count", _top("components", "pieces", {"fortresses": -6}),
     "components.json: pieces: fortresses must be at least 0, got -6"),
    ("base not first", _expansion_order,
     "components.json: expansions #1: the first expansion must be 'base', got 'cursed'"),
    ("expansion id twice", _expansion_twice,
     "components.json: expansions #6: id 'cursed' is used twice"),
    ("expansion id with capitals", _top("components", "expansions", [{"id": "Base", "name": "B"}]),
     "components.json: expansions #1: id 'Base' must be lower-case letters, digits and single"),
    ("missing coins", lambda d: d["components"].pop("coins"),
     "components.json: top level: missing field 'coins'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("breaker", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN]
)
def test_a_broken_catalog_file_names_the_file_and_the_entry(
    docs: dict[str, dict[str, Any]], breaker: Breaker, message: str
) -> None:
    breaker(docs)
    with pytest.raises(DataError) as err:
        _parse(docs)
    assert str(err.value).startswith(message), str(err.value)


def test_errors_carry_the_file_the_entry_and_the_problem_apart(
    docs: dict[str, dict[str, Any]],
) -> None:
    _set("races", "races", "Dwarves", "tokens", -1)(docs)
    with pytest.raises(DataError) as err:
        _parse(docs)
    assert (err.value.source, err.value.entry) == ("races.json", "race 'Dwarves'")
    assert err.value.problem == "tokens must be at least 1, got -1"


def test_files_from_elsewhere_are_named_with_their_folder(
    docs: dict[str, dict[str, Any]],
) -> None:
    _set("powers", "powers", "Hill", "tokens", -1)(docs)
    with pytest.raises(DataError, match=r"^house-rules/powers\.json: power 'Hill': "):
        _parse(docs, source="house-rules")


def test_a_group_may_correct_a_number_in_the_files(docs: dict[str, dict[str, Any]]) -> None:
    _set("powers", "powers", "Ransacking", "tokens", 3)(docs)
    assert _parse(docs).combo_tokens("Goblins", "Ransacking") == 6 + 3


def test_optional_fields_take_their_defaults(docs: dict[str, dict[str, Any]]) -> None:
    _drop("races", "races", "Elves", "confidence")(docs)
    _drop("races", "races", "Elves", "conquest_only_tokens")(docs)
    elves = _parse(docs).race("Elves")
    assert (elves.confidence, elves.conquest_only_tokens) == ("high", 0)
