"""The mini-expansions' races and powers played through the session: Pots of Gold
(Leprechauns), the Ivory Tower (Priestesses), the Historian's declines and the Pygmies'
die rolls are kept from the game's events, and the turn's score pays them untyped."""

from __future__ import annotations

import json
import random
import re
from dataclasses import fields, replace
from pathlib import Path

import pytest
from factories import created, play_turn, session
from words_support import code_words, in_language

from companion.rules import mini_game
from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record, to_record
from companion.rules.errors import IllegalAction
from companion.rules.events import RaceDeclined, RegionConquered
from companion.rules.game import apply, attacker
from companion.rules.mini_game import IvoryTower, PygmiesRecovered
from companion.rules.reminders import reminders
from companion.session import Session

BE_NOT_AFRAID = ("base", "be-not-afraid")
GRAND_DAMES = ("base", "grand-dames")
POTS_LINE = "Leprechauns: Pots of Gold still in their regions at the start of the turn"


def _lines(s: Session) -> dict[str, int]:
    """The lines of the latest scored turn, by label."""
    step = s.history.last_step if s.history is not None else ()
    scored = [e for e in step if e.TYPE == "turn_scored"]
    assert scored, step
    return dict(scored[0].lines)  # type: ignore[attr-defined]


def _score(s: Session) -> tuple[int, dict[str, int]]:
    """Score the current turn from the board; the coins earned and the lines."""
    before = s.state.current.coins
    s.score()
    return s.state.players[s.state.track.seat].coins - before, _lines(s)


def _leprechauns_with_pots(pots: tuple[int, ...] = (2, 3)) -> Session:
    """Ann's Leprechauns take regions 2, 3 and 7 and leave a Pot of Gold in `pots`; Bob's
    turn comes next."""
    s = session(players=2, races=("Leprechauns", "Humans"), powers=("Hill", "Swamp"),
                expansions=BE_NOT_AFRAID)
    s.pick(0)
    for region in (2, 3, 7):
        s.conquer(region)
    s.finish_conquests()
    for region in pots:
        s.place_marker(region, "pot_of_gold")
    s.finish_redeployment()
    s.score()
    s.end_turn()
    return s


# --- Leprechauns ------------------------------------------------------------------------


def test_leprechauns_collect_pots_still_held_at_the_start_of_their_next_turn() -> None:
    s = _leprechauns_with_pots((2, 3))
    play_turn(s)  # Bob
    assert mini_game.pots_collected(s.state) == 2
    assert not any(s.state.regions[r].markers.has("pot_of_gold") for r in (2, 3))
    s.finish_conquests()
    s.finish_redeployment()
    earned, lines = _score(s)
    assert lines[POTS_LINE] == 2
    assert earned == 3 + 1 + 2  # three regions, one hill (Hill), two Pots


def test_a_pot_of_gold_goes_to_the_opponent_who_conquers_its_region() -> None:
    s = _leprechauns_with_pots((2, 3))
    s.pick(0)  # Bob: Humans
    bob, issued = s.state.players[1].coins, s.state.coins_issued
    s.conquer(2)
    assert s.state.players[1].coins == bob + 1
    assert s.state.coins_issued == issued + 1  # from the stash: coins stay accounted for
    assert not s.state.regions[2].markers.has("pot_of_gold")
    s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    s.end_turn()
    assert mini_game.pots_collected(s.state) == 1


def test_pots_of_gold_earn_nothing_untouched_in_another_players_turn() -> None:
    s = _leprechauns_with_pots((2,))
    assert s.state.regions[2].markers.has("pot_of_gold")  # Bob's turn: the Pot waits for Ann
    assert mini_game.pots_collected(s.state) == 0


def test_pots_of_gold_are_placed_only_by_leprechauns_while_redeploying() -> None:
    s = session(players=2, races=("Leprechauns", "Humans"), powers=("Hill", "Swamp"),
                expansions=BE_NOT_AFRAID)
    s.pick(0)
    s.conquer(2)
    with pytest.raises(IllegalAction, match="while redeploying"):
        s.place_marker(2, "pot_of_gold")
    s.finish_conquests()
    s.place_marker(2, "pot_of_gold")
    with pytest.raises(IllegalAction, match="already has a Pot of Gold"):
        s.place_marker(2, "pot_of_gold")
    with pytest.raises(IllegalAction, match="region your active race holds"):
        s.place_marker(3, "pot_of_gold")
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)  # Bob: Humans
    s.conquer(5)
    s.finish_conquests()
    with pytest.raises(IllegalAction, match="only an active Leprechauns race") as refused:
        s.place_marker(5, "pot_of_gold")
    assert in_language("fr", refused.value) == (  # the Leprechauns named as a race
        "seul un peuple Farfadets actif pose un Pot d'or")


def test_leprechauns_going_into_decline_are_paid_the_pots_collected_that_turn() -> None:
    s = _leprechauns_with_pots((2, 3, 7))
    play_turn(s)  # Bob
    s.decline()
    earned, lines = _score(s)
    assert lines[POTS_LINE.replace("Leprechauns:", "Leprechauns (in decline):")] == 3
    assert earned == 3 + 3  # three regions in decline, three Pots


def test_leprechauns_regions_abandoned_lose_no_pot_already_collected() -> None:
    s = _leprechauns_with_pots((2, 3))
    play_turn(s)
    s.abandon(2)
    s.finish_conquests()
    s.finish_redeployment()
    _, lines = _score(s)
    assert lines[POTS_LINE] == 2


# --- Priestesses ------------------------------------------------------------------------


def _priestesses_declining() -> Session:
    """Ann's Priestesses hold 2, 3 and 7; it is her second turn, before any move."""
    s = session(players=2, races=("Priestesses", "Humans"), powers=("Hill", "Swamp"),
                expansions=GRAND_DAMES)
    s.pick(0)
    for region in (2, 3, 7):
        s.conquer(region)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    play_turn(s)  # Bob
    return s


def test_priestesses_in_decline_score_their_ivory_tower_instead_of_their_regions() -> None:
    s = _priestesses_declining()
    s.decline(region=3)
    assert s.state.regions.held_by(0) == (3,)
    tower = s.state.regions[3].occupant
    assert tower is not None and tower.in_decline and tower.tokens == 3
    assert mini_game.ivory_tower(s.state, 0) == 3
    earned, lines = _score(s)
    assert earned == 3
    assert lines["Priestesses (in decline): one per Priestess in the Ivory Tower"] == 3
    s.end_turn()
    play_turn(s)  # Bob
    s.pick(0)  # Ann's new race scores beside the Tower
    s.finish_conquests()
    s.finish_redeployment()
    earned, lines = _score(s)
    assert lines["Priestesses (in decline): one per Priestess in the Ivory Tower"] == 3


def test_priestesses_going_into_decline_must_choose_one_of_their_regions() -> None:
    s = _priestesses_declining()
    with pytest.raises(IllegalAction, match=r"choose one of 2, 3, 7"):
        s.decline()
    with pytest.raises(IllegalAction, match=r"hold \(2, 3, 7\), not in region 5"):
        s.decline(region=5)
    assert s.state.players[0].active is not None  # nothing changed


def test_only_priestesses_build_an_ivory_tower() -> None:
    s = session(players=2, races=("Orcs",), powers=("Hill",))
    play_turn(s)
    play_turn(s)
    with pytest.raises(IllegalAction, match="only Priestesses build an Ivory Tower"):
        s.decline(region=2)


def test_a_conquered_ivory_tower_takes_the_priestesses_off_the_board() -> None:
    s = _priestesses_declining()
    s.decline(region=2)
    s.score()
    s.end_turn()
    s.conquer(2)  # Bob's Humans, from the board's edge
    assert s.state.players[0].declined == ()


# --- Historian --------------------------------------------------------------------------


def _two_races_in_decline() -> Session:
    """Ann's Orcs and Bob's Humans both go into decline in turn 2; Ann's turn 3 next, with
    the Historian combo at the top of the market."""
    s = session(players=2, races=("Orcs", "Humans", "Elves", "Giants"),
                powers=("Hill", "Swamp", "Historian", "Forest"), expansions=GRAND_DAMES)
    s.pick(0)
    s.conquer(2)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)
    s.conquer(22)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    for _ in range(2):
        s.decline()
        s.score()
        s.end_turn()
    return s


def test_historian_earns_a_coin_per_race_in_decline_when_picked() -> None:
    s = _two_races_in_decline()
    s.pick(0)
    assert s.state.current.active is not None
    assert (s.state.current.active.race, s.state.current.active.power) == ("Elves", "Historian")
    s.finish_conquests()
    s.finish_redeployment()
    _, lines = _score(s)
    assert lines["Historian: one per race in decline when the combo was picked"] == 2


def test_historian_earns_a_coin_each_time_another_race_goes_into_decline() -> None:
    s = _two_races_in_decline()
    s.pick(0)  # Ann: Elves Historian
    s.conquer(3)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)  # Bob: Giants, then into decline next turn
    s.conquer(21)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    play_turn(s, coins=0)
    s.decline()  # Bob's Giants
    assert mini_game.declines_seen(s.state, 0) == 1
    s.score()
    s.end_turn()
    s.finish_conquests()
    s.finish_redeployment()
    _, lines = _score(s)
    assert lines["Historian: one per other race that went into decline"] == 1
    assert "Historian: one per race in decline when the combo was picked" not in lines
    assert mini_game.declines_seen(s.state, 0) == 0  # paid once


def test_historians_going_into_decline_collect_their_last_coin_and_the_declines_seen() -> None:
    s = _two_races_in_decline()
    s.pick(0)  # Ann: Elves Historian
    s.conquer(3)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)  # Bob: Giants
    s.conquer(21)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    play_turn(s, coins=0)
    s.decline()  # Bob's Giants: Ann's Historians see it
    s.score()
    s.end_turn()
    s.decline()  # Ann's Historians
    _, lines = _score(s)
    assert lines["Historian (in decline): one per other race that went into decline"] == 1
    assert lines["Historian (in decline): a last coin on going into decline"] == 1


def test_declines_before_the_historians_were_picked_are_not_counted_as_seen() -> None:
    s = _two_races_in_decline()
    s.pick(0)  # Ann: Elves Historian
    assert mini_game.declines_seen(s.state, 0) == 0
    assert mini_game.declines_seen(s.state, 1) == 0


# --- Pygmies ----------------------------------------------------------------------------


def _pygmies_in_region_2() -> Session:
    """Ann's Pygmies hold region 2; Bob's turn, with Humans at the top of the market."""
    s = session(players=2, races=("Pygmies", "Humans"), powers=("Hill", "Swamp"),
                expansions=BE_NOT_AFRAID, seed=3)
    s.pick(0)
    s.conquer(2)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)
    return s


def test_pygmies_losing_a_token_roll_the_die_for_new_ones() -> None:
    s = _pygmies_in_region_2()
    tokens = s.state.players[0].active.tokens  # type: ignore[union-attr]
    s.conquer(2)
    step = s.history.last_step  # type: ignore[union-attr]
    assert isinstance(step[0], RegionConquered)
    rolled = [e for e in step if isinstance(e, PygmiesRecovered)]
    assert len(rolled) == 1 and rolled[0].seat == 0 and len(rolled[0].rolls) == 1
    face = rolled[0].rolls[0]
    assert s.state.players[0].active.tokens == tokens - 1 + face  # type: ignore[union-attr]
    assert mini_game.pygmies_back(s.state) == ((0, face),)


def test_the_pygmies_roll_adds_as_many_pygmies_as_the_pips() -> None:
    s = _pygmies_in_region_2()
    state = apply(s.state, RegionConquered(1, 2))
    tokens = state.players[0].active.tokens  # type: ignore[union-attr]
    after = apply(state, PygmiesRecovered(0, (3,)))
    assert after.players[0].active.tokens == tokens - 1 + 3  # type: ignore[union-attr]
    assert mini_game.pygmies_back(after) == ((0, 3),)
    text = " ".join(str(line) for line in reminders(after))
    assert "Pygmies: Ann gets 3 new Pygmies" in text
    blank = apply(state, PygmiesRecovered(0, (0,)))
    assert blank.players[0].active.tokens == tokens - 1  # type: ignore[union-attr]


def test_the_pygmies_rolls_and_new_pygmies_are_facts_of_the_turn_cleared_as_it_passes() -> None:
    s = _pygmies_in_region_2()
    s.conquer(2)
    face = mini_game.pygmies_back(s.state)[0][1]
    assert mini_game.pygmies_back(s.state) == ((0, face),)
    assert mini_game.pygmy_rolls_owed(s.state) == ()  # the roll was made in the same step
    owing = apply(_pygmies_in_region_2().state, RegionConquered(1, 2))
    assert mini_game.pygmy_rolls_owed(owing) == ((0, 1),)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    assert "Pygmies: Ann" in " ".join(str(line) for line in reminders(s.state))
    s.end_turn()
    assert mini_game.pygmies_back(s.state) == ()
    assert mini_game.pygmy_rolls_owed(s.state) == ()
    assert "Pygmies:" not in " ".join(str(line) for line in reminders(s.state))
    assert "pygm" not in " ".join(f.name for f in fields(s.state.track.this_turn)).lower()


def test_pygmies_never_recover_more_than_the_box_holds() -> None:
    s = _pygmies_in_region_2()
    catalog = load_catalog()
    boxed = replace(catalog, races=tuple(
        replace(r, max_tokens=r.tokens + 6) if r.name == "Pygmies" else r
        for r in catalog.races))
    state = replace(apply(s.state, RegionConquered(1, 2)), catalog=boxed)
    tokens = state.players[0].active.tokens  # type: ignore[union-attr]
    assert boxed.race("Pygmies").max_tokens == 12
    after = apply(state, PygmiesRecovered(0, (3,)))
    assert after.players[0].active.tokens == min(12, tokens - 1 + 3)  # type: ignore[union-attr]
    full = replace(state, players=tuple(
        replace(p, active=replace(p.active, tokens=12)) if p.seat == 0 and p.active else p
        for p in state.players))
    assert apply(full, PygmiesRecovered(0, (3,))).players[0].active.tokens == 12  # type: ignore[union-attr]


def test_a_pygmies_roll_is_refused_for_a_player_without_active_pygmies() -> None:
    s = _pygmies_in_region_2()
    with pytest.raises(IllegalAction, match="Bob has no active Pygmies"):
        apply(s.state, PygmiesRecovered(1, (2,)))
    lost = apply(s.state, RegionConquered(1, 2))  # a Pygmy lost: one roll is owed
    with pytest.raises(IllegalAction, match="no face 4"):
        apply(lost, PygmiesRecovered(0, (4,)))


def test_a_conquest_of_another_race_rolls_no_die() -> None:
    s = session(players=2, races=("Orcs", "Humans"), powers=("Hill", "Swamp"))
    play_turn(s)
    s.pick(0)
    s.conquer(2)
    assert not any(isinstance(e, PygmiesRecovered) for e in s.history.last_step)  # type: ignore[union-attr]


def test_a_pygmies_roll_cannot_be_undone() -> None:
    s = _pygmies_in_region_2()
    s.conquer(2)
    assert s.history is not None and s.history.undo_blocker() is not None


def test_the_pygmies_roll_replays_the_same_from_the_saved_step() -> None:
    s = _pygmies_in_region_2()
    s.conquer(2)
    assert s.history is not None
    again = Session(load_catalog(), rng=random.Random(99))
    again.begin(created(2, races=("Pygmies", "Humans"), powers=("Hill", "Swamp"),
                        expansions=BE_NOT_AFRAID))
    for step in s.history.in_force[1:]:
        again._record(step)
    assert again.state == s.state


def test_the_table_asks_where_the_priestesses_build_their_ivory_tower() -> None:
    from companion.ui.presenters.base import Choice, Context
    from companion.ui.presenters.table import TablePresenter

    s = _priestesses_declining()
    table = TablePresenter(Context(session=s))
    s.subscribe(table.update)
    table.update(s.state)
    asked: list[Choice] = []
    table.ctx.notices.bind(on_choice=lambda _notices, choice: asked.append(choice))
    table._decline()
    assert [key for key, _ in asked[0].choices] == ["2", "3", "7"]
    asked[0].on_choice("7")
    assert s.state.regions.held_by(0) == (7,)
    assert mini_game.ivory_tower(s.state, 0) == 3


def test_the_map_offers_a_pot_of_gold_in_a_leprechaun_region_while_redeploying() -> None:
    from companion.ui.presenters.base import Context
    from companion.ui.presenters.map import MapPresenter

    s = session(players=2, races=("Leprechauns",), powers=("Hill",), expansions=BE_NOT_AFRAID)
    s.pick(0)
    s.conquer(2)
    board = MapPresenter(Context(session=s))
    s.subscribe(board.update)
    board.update(s.state)
    board.tap(2)
    assert "place:pot_of_gold" not in [a["key"] for a in board.actions]  # still conquering
    s.finish_conquests()
    board.tap(2)
    assert {"key": "place:pot_of_gold", "text": "Place a Pot of Gold"} in board.actions
    board.act("place:pot_of_gold")
    assert s.state.regions[2].markers.has("pot_of_gold")
    assert "Lying here: a Pot of Gold." in board.holder_text


def test_the_map_tells_the_table_what_the_pygmies_rolled_after_the_conquest() -> None:
    from companion.ui.presenters.base import Context
    from companion.ui.presenters.map import MapPresenter

    s = _pygmies_in_region_2()
    board = MapPresenter(Context(session=s))
    s.subscribe(board.update)
    board.update(s.state)
    board.tap(2)
    board.act("conquer")
    assert s.state.regions[2].occupant is not None and s.state.regions[2].occupant.seat == 1
    rolled = next(e for e in s.history.last_step  # type: ignore[union-attr]
                  if isinstance(e, PygmiesRecovered))
    told = board.ctx.notices.last_message
    assert told.startswith(f"Ann's Pygmies lost a token, so the die was rolled for them: "
                           f"{rolled.rolls[0]}.")
    assert board.ctx.notices.last_title == "Pygmies"


# --- their facts and rows stay theirs -------------------------------------------------------


def test_the_historian_is_spelled_as_the_catalog_spells_the_badge() -> None:
    from companion.rules import mini_game, names

    catalog = load_catalog()
    assert catalog.power(names.HISTORIAN).name == names.HISTORIAN
    sets = mini_game.MiniExpansions.sets
    assert {*mini_game.RACE_BONUSES} <= {r.name for r in catalog.races_in(sets)}
    assert {*mini_game.POWER_BONUSES} <= {p.name for p in catalog.powers_in(sets)}


def test_the_shared_scoring_input_names_none_of_their_facts() -> None:
    """Their facts ride as one of a race's `facts`; the shared holdings have no field
    of theirs, and their rows reach scoring through the registry."""
    from dataclasses import fields

    from companion.rules import mini_game, scoring

    mine = {"pots_of_gold", "ivory_tower", "historian"}
    for kind in (scoring.ActiveHoldings, scoring.DeclinedHoldings):
        assert not mine & {f.name for f in fields(kind)}
    assert not hasattr(scoring, "HistorianEvents")
    assert scoring.race_bonuses()["Leprechauns"] == mini_game.RACE_BONUSES["Leprechauns"]
    assert scoring.power_bonuses()["Historian"] == mini_game.POWER_BONUSES["Historian"]
    held = scoring.DeclinedHoldings("Priestesses", "Hill", facts=(mini_game.MiniFacts(
        ivory_tower=3),))
    assert held.fact(mini_game.MiniFacts) == mini_game.MiniFacts(ivory_tower=3)
    assert held.fact(mini_game.HistorianEvents) is None


@pytest.mark.parametrize(("record", "event"), [
    ('{"type": "race_declined", "v": 3, "seat": 0, "ivory_tower": null}', RaceDeclined(0)),
    ('{"type": "race_declined", "v": 3, "seat": 1, "ivory_tower": 3}',
     RaceDeclined(1, (IvoryTower(3),))),
])
def test_the_ivory_tower_is_an_option_of_the_decline_and_its_record_is_unchanged(
        record: str, event: RaceDeclined) -> None:
    read = from_record(json.loads(record))
    assert read == event
    assert json.dumps(to_record(read)) == record
    assert from_record({**json.loads(record), "v": 2}) == event  # as schema 2 saved it


def test_a_decline_record_saved_without_the_tower_reads_as_no_tower() -> None:
    read = from_record({"type": "race_declined", "v": 2, "seat": 2})
    assert read == RaceDeclined(2)
    assert to_record(read) == {"type": "race_declined", "v": 3, "seat": 2, "ivory_tower": None}


def test_the_session_records_the_towers_region_as_the_declines_option() -> None:
    s = _priestesses_declining()
    s.decline(region=3)
    assert s.history is not None
    declined = next(e for e in s.history.log[-1] if isinstance(e, RaceDeclined))
    assert declined == RaceDeclined(0, (IvoryTower(3),))
    assert declined.option(IvoryTower) == IvoryTower(3)
    assert to_record(declined)["ivory_tower"] == 3


# --- kept in their own module ----------------------------------------------------------------

_SHARED_RULES = ("turns", "state", "game", "troops", "troops_game", "die", "markers", "board",
                 "decline", "conquest", "events", "expansion", "expansions")
"""Shared rules modules that name none of the races and powers the mini-expansions keep
books for: those reach them through the `Expansion` hooks (`mini_game.MiniExpansions`)."""

_MINI_WORDS = re.compile(r"pygm|gyps|leprechaun|priestess|historian|ivory|pot_of_gold",
                         re.IGNORECASE)


@pytest.mark.parametrize("module", _SHARED_RULES)
def test_the_shared_rules_name_none_of_the_mini_expansions_races_in_their_code(
        module: str) -> None:
    path = Path(__file__).resolve().parent.parent / "companion" / "rules" / f"{module}.py"
    assert sorted({w for w in code_words(path) if _MINI_WORDS.search(w)}) == []


def test_the_gypsies_refusal_to_retake_an_abandoned_region_is_the_mini_expansions() -> None:
    s = session(players=2, races=("Gypsies", "Humans"), powers=("Hill", "Swamp"),
                expansions=("base", "grand-dames"))
    s.pick(0)
    s.conquer(2)
    s.conquer(3)
    state = replace(s.state, track=replace(s.state.track, this_turn=replace(
        s.state.track.this_turn, abandoned_regions=(5,))))
    gypsies = attacker(state)
    with pytest.raises(IllegalAction, match="the Gypsies abandoned region 5 this turn"):
        mini_game.MINI_EXPANSIONS.refuse_conquest(state, gypsies, 5)
    mini_game.MINI_EXPANSIONS.refuse_conquest(state, gypsies, 4)  # not abandoned: allowed
    mini_game.MINI_EXPANSIONS.refuse_conquest(state, replace(gypsies, race="Ghouls"), 5)
