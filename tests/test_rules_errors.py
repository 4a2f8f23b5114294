"""The two kinds of refusal: `MalformedInput` (bad data, naming its field and what is
allowed) apart from `IllegalAction` (a well-formed move the rules refuse now)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record
from companion.rules.errors import IllegalAction, MalformedInput, RulesError
from companion.rules.events import BadRecord, ComboPicked
from companion.rules.game import refusal, start
from tests.factories import created, session


def test_a_board_document_that_is_not_text_is_malformed_input() -> None:
    event = replace(created(3), board_doc=123)  # type: ignore[arg-type]
    with pytest.raises(MalformedInput) as raised:
        start(event, load_catalog())
    assert not isinstance(raised.value, IllegalAction)
    assert isinstance(raised.value, RulesError)
    assert raised.value.field == "board_doc"
    assert raised.value.allowed
    assert raised.value.reason == "board_doc must be the board document as JSON text"


def test_an_event_record_of_unknown_shape_is_malformed_input() -> None:
    with pytest.raises(MalformedInput) as raised:
        from_record({"type": "no_such_event", "v": 1})
    assert isinstance(raised.value, BadRecord)
    assert raised.value.field == "type"
    assert "combo_picked" in raised.value.allowed


def test_a_well_formed_move_out_of_turn_is_an_illegal_action() -> None:
    s = session(3)
    event = ComboPicked(seat=1, row=0, race=s.state.market.rows[0].combo.race,
                        power=s.state.market.rows[0].combo.power)
    with pytest.raises(IllegalAction) as raised:
        s.history.record((event,))  # type: ignore[union-attr]
    assert not isinstance(raised.value, MalformedInput)
    assert str(refusal(s.state, event)) == raised.value.reason
