"""The map panel offers only what the rules allow now, clause by clause (the rule's own
tests are in `tests/test_rules_clauses.py`): the panel is built from the real session, as the
table's screen uses it."""

from __future__ import annotations

from factories import play_turn, session

from companion.rules import RegionConquered, refusal
from companion.session import Session
from companion.ui.presenters.base import Context
from companion.ui.presenters.map import MapPresenter


def _map(s: Session) -> MapPresenter:
    board = MapPresenter(Context(session=s))
    s.subscribe(board.update)
    board.update(s.state)
    return board


def _keys(board: MapPresenter) -> list[str]:
    return [a["key"] for a in board.actions]


def _conquer_two(s: Session, board: MapPresenter) -> tuple[int, int]:
    """The current player takes two regions the map lights, each at its cost."""
    taken: list[int] = []
    for _ in range(2):
        rid = min(board.highlight)
        s.conquer(rid)
        taken.append(rid)
    return taken[0], taken[1]


def test_the_map_offers_fortified_one_fortress_a_turn() -> None:
    s = session(2, races=["Orcs"], powers=["Fortified"], troops_counted=True)
    s.pick(0)
    board = _map(s)
    first, second = _conquer_two(s, board)
    board.tap(first)
    assert "place:fortress" in _keys(board)
    board.act("place:fortress")
    assert s.state.regions[first].markers.fortress
    board.tap(second)
    assert "place:fortress" not in _keys(board)
    assert "remove:fortress" not in _keys(board)  # it lies in the other region


def _dragon_master() -> tuple[Session, MapPresenter]:
    s = session(2, races=["Humans"], powers=["Dragon Master"], troops_counted=True)
    s.pick(0)
    return s, _map(s)


def _cost(board: MapPresenter) -> int:
    return sum(int(line["value"]) for line in board.cost_lines)


def _dearer_targets(board: MapPresenter) -> list[int]:
    """The lit regions that cost more than 1 token, dearest first."""
    costs = {}
    for rid in sorted(board.highlight):
        board.tap(rid)
        costs[rid] = _cost(board)
    return sorted((r for r in costs if costs[r] > 1), key=lambda r: (-costs[r], r))


def test_the_map_offers_the_dragon_beside_the_ordinary_conquest() -> None:
    s, board = _dragon_master()
    rid = _dearer_targets(board)[0]
    board.tap(rid)
    cost = _cost(board)
    assert {"key": "conquer", "kind": "primary",
            "text": f"Conquer region {rid} with {cost} tokens"} in board.actions
    assert {"key": "dragon", "kind": "primary",
            "text": "Conquer with the Dragon (1 token)"} in board.actions
    assert not any(a["key"] == "place:dragon" for a in board.actions)
    board.act("dragon")
    here = s.state.regions[rid]
    assert here.occupant is not None and here.occupant.tokens == 1 and here.markers.dragon
    assert s.state.track.this_turn.dragon_took == rid


def test_the_map_says_why_the_dragon_may_not_conquer_again_this_turn() -> None:
    _, board = _dragon_master()
    first, *others = _dearer_targets(board)
    board.tap(first)
    board.act("dragon")
    second = next(r for r in others if r in board.highlight)
    board.tap(second)
    assert "dragon" not in _keys(board)
    assert "conquer" in _keys(board)
    assert (f"The Dragon: Dragon Master: the Dragon conquers once a turn, and it took region "
            f"{first} this turn.") in board.note_text


def test_the_token_stepper_never_goes_below_the_cost_shown() -> None:
    s, board = _dragon_master()
    rid = _dearer_targets(board)[0]
    board.tap(rid)
    cost = _cost(board)
    assert (board.deploy, board.deploy_least) == (cost, cost)
    board.set_deploy(1)
    assert board.deploy == cost
    assert {"key": "conquer", "kind": "primary",
            "text": f"Conquer region {rid} with {cost} tokens"} in board.actions
    board.act("conquer")
    here = s.state.regions[rid]
    assert here.occupant is not None and here.occupant.tokens == cost
    assert not here.markers.dragon  # an ordinary conquest, never the Dragon's
    assert s.state.track.this_turn.dragon_took is None


# --- a new turn, Berserk, and the stepper (issue 29, point 5) ----------------------------


def test_a_new_turn_starts_the_map_with_nothing_chosen() -> None:
    s = session(2, races=["Humans", "Amazons"], powers=["Alchemist", "Berserk"],
                troops_counted=True)
    s.pick(0)
    board = _map(s)
    rid = min(board.highlight)
    board.tap(rid)
    board.set_deploy(board.deploy + 1)
    s.conquer(rid, int(board.deploy))
    assert board.selected == rid
    play_turn(s)
    assert s.state.track.seat == 1
    assert board.selected is None
    assert board.actions == [] and not board.show_deploy
    assert board.region_title == "No region chosen"


def test_a_berserk_race_is_led_to_roll_before_any_cost_is_offered() -> None:
    s = session(2, races=["Amazons"], powers=["Berserk"], troops_counted=True)
    s.pick(0)
    board = _map(s)
    rid = max(board.highlight)
    board.tap(rid)
    assert board.actions == [{"key": "roll_first", "kind": "primary", "text": "Roll for Berserk"}]
    assert (board.cost_lines, board.cost_text, board.show_deploy) == ([], "", False)
    assert "Berserk: roll the die first" in board.note_text
    board.act("roll_first")
    face = s.state.last_roll
    assert face is not None
    assert board.selected == rid  # the same turn: the region stays chosen
    assert any(line["label"] == f"Berserk rolled {face}" for line in board.cost_lines) or not face
    cost = _cost(board)
    assert (board.deploy, board.deploy_least) == (cost, cost)
    assert {"key": "conquer", "kind": "primary",
            "text": f"Conquer region {rid} with {cost} token" + ("s" if cost > 1 else "")
            } in board.actions
    board.act("conquer")
    assert s.state.regions[rid].occupant is not None
    assert s.state.regions[rid].occupant.tokens == cost


def test_the_stepper_starts_again_at_the_cost_when_the_cost_shown_changes() -> None:
    s = session(2, races=["Amazons"], powers=["Berserk"], troops_counted=True)
    s.pick(0)
    board = _map(s)
    rid = max(board.highlight)
    board.tap(rid)
    s.roll_for_berserk()  # the roll made elsewhere (the table's die button)
    cost = _cost(board)
    assert board.deploy == cost
    board.set_deploy(cost + 2)
    s.adjust_coins(0, 0, "look again")  # a new state, the same cost: the count is kept
    assert board.deploy == cost + 2


def test_the_map_lights_exactly_the_regions_a_conquest_is_allowed_in() -> None:
    s = session(3, races=["Humans", "Dwarves"], powers=["Alchemist", "Flying"],
                troops_counted=True)
    s.pick(0)
    board = _map(s)
    s.conquer(min(board.highlight))
    s.conquer(min(board.highlight))  # lit again after the first: a neighbour of it
    play_turn(s)
    s.pick(0)  # Bob's Flying Dwarves, beside Ann's Humans
    state, hand = s.state, 7
    for rid in sorted(state.map.regions):
        refused = refusal(state, RegionConquered(1, rid, hand))
        if rid in board.highlight:
            assert refused is None or "not enough" in str(refused), (rid, str(refused))
        else:
            assert refused is not None, rid


def test_the_die_keeps_a_hidden_place_only_while_the_players_step_the_hand() -> None:
    """The die's last-conquest button keeps its place, hidden, where stepping the hand could
    bring it under the finger (a game that does not count the tokens); a counted hand changes
    only with another region, so the place is left to the panel's steppers."""
    for counted in (True, False):
        s = session(2, races=["Orcs"], powers=["Fortified"], troops_counted=counted)
        s.pick(0)
        board = _map(s)
        board.tap(min(board.highlight))
        shown = [a["key"] for a in board.main_actions if not a.get("hidden")]
        kept = [a for a in board.main_actions if a.get("hidden")]
        assert (shown, len(kept)) == (["conquer"], 0 if counted else 1), counted


def test_the_die_alone_takes_the_conquests_place_when_the_hand_cannot_cover_it() -> None:
    """A hand short of every count of tokens the region may take: the die's try is the one
    main button (no greyed conquest beside it), the panel's note says the hand, and no
    stepper offers a count of tokens to put there (the try puts the whole hand)."""
    s = session(2, races=["Orcs"], powers=["Fortified"], troops_counted=True)
    s.pick(0)
    board = _map(s)
    board.tap(min(board.highlight))
    board.set_deploy(int(board.tokens_left) - 1)  # all the hand but one token there
    board.act("conquer")
    for rid in sorted(board.highlight):
        board.tap(rid)
        if int(board.deploy_least) > 1:
            break
    assert [a["key"] for a in board.main_actions] == ["final"]
    assert "Only 1 token in hand." in board.note_text
    assert not board.show_deploy
