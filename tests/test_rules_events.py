"""Events as versioned JSON records."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from factories import created, final_target, play_turn, session

from companion.rules.codec import EVENT_TYPES, from_record
from companion.rules.events import (
    SCHEMA_VERSION,
    BadRecord,
    ComboPicked,
    GameCreated,
    TurnScored,
    to_record,
)
from companion.rules.necromancer import NecromancerSetup
from companion.rules.river import RiverSetup
from companion.rules.teams import TeamSetup


def test_every_event_of_a_game_survives_a_round_trip_through_json() -> None:
    s = session(players=3)
    play_turn(s, row=2, coins=3)
    s.pick(1)  # Berserk Ratmen
    s.roll_for_berserk()
    s.conquer(*final_target(s))
    s.finish_conquests()
    s.finish_redeployment()
    s.score(1)
    s.end_turn()
    s.pick(0)
    s.attempt_final_conquest(*final_target(s))  # a roll with its purpose and its region
    assert s.history is not None
    for step in s.history.log:
        for event in step:
            record = json.loads(json.dumps(to_record(event)))
            assert from_record(record) == event


def test_a_record_carries_its_type_and_schema_version() -> None:
    record = to_record(ComboPicked(1, 2, "Orcs", "Hill"))
    assert record == {"type": "combo_picked", "v": SCHEMA_VERSION, "seat": 1, "row": 2,
                      "race": "Orcs", "power": "Hill"}


def test_the_game_created_record_keeps_seats_and_decks() -> None:
    event = created(2)
    assert from_record(to_record(event)) == event


def test_an_expansions_part_of_a_game_is_saved_as_its_own_fields_beside_the_others() -> None:
    river = RiverSetup(("Storm", "Pirates"))
    necro = NecromancerSetup(("Flying", "Hill"), ghosts_removed=1)
    event = replace(created(3), options=(river, necro))
    record = json.loads(json.dumps(to_record(event)))
    assert "options" not in record
    assert (record["river_events"], record["necromancer_powers"], record["ghosts_removed"]) \
        == (["Storm", "Pirates"], ["Flying", "Hill"], 1)
    assert "teams" not in record and "relic_order" not in record  # not played: not written
    back = from_record(record)
    assert back == event and isinstance(back, GameCreated)
    assert back.option(RiverSetup) == river and back.option(TeamSetup) is None


def test_a_game_record_of_an_earlier_release_with_every_expansions_defaults_plays_none() -> None:
    record = to_record(created(3))
    record.update(river_events=[], necromancer_powers=[], ghosts_removed=0, teams=False,
                  relic_order=[])  # what releases before `options` wrote for every game
    event = from_record(record)
    assert isinstance(event, GameCreated) and event.options == ()
    assert event == created(3)


def test_a_game_record_with_options_as_one_field_is_refused() -> None:
    record = {**to_record(created(3)), "options": [{"river_events": ["Storm"]}]}
    with pytest.raises(BadRecord, match="fields"):
        from_record(record)


def test_optional_fields_may_be_missing_from_an_old_record() -> None:
    assert from_record({"type": "turn_scored", "v": 1, "seat": 0, "coins": 4}) == TurnScored(0, 4)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"type": "combo_stolen", "v": 1}, "unknown event type 'combo_stolen'"),
        ({"type": "turn_ended", "v": 99, "seat": 0}, "schema version 99"),
        ({"type": "turn_ended", "seat": 0}, "schema version None"),
        ({"type": "turn_ended", "v": 1}, "fields"),
        ({"type": "turn_ended", "v": 1, "seat": 0, "extra": 1}, "fields"),
    ],
)
def test_an_unreadable_record_is_refused_with_the_reason(record: dict[str, object],
                                                         message: str) -> None:
    with pytest.raises(BadRecord, match=message):
        from_record(record)


def test_every_event_type_has_a_unique_name() -> None:
    assert len(EVENT_TYPES) == len({cls.__name__ for cls in EVENT_TYPES.values()})
