"""The presenters and the plain words, without a window: what each screen would show."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from factories import created, play_turn, session

from companion.rules.events import ComboPicked, RaceDeclined, TurnScored
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store
from companion.ui import palette
from companion.ui.describe import step_text
from companion.ui.presenters.base import Context
from companion.ui.presenters.game_end import GameEndPresenter, coins_by_turn
from companion.ui.presenters.keypads import KeypadNotices, PinRequest
from companion.ui.presenters.market import MarketPresenter
from companion.ui.presenters.new_game import NewGamePresenter
from companion.ui.presenters.scoring import ScoringPresenter
from companion.ui.presenters.table import TablePresenter


def presenter(cls: type, s: Session) -> object:
    p = cls(Context(session=s))
    s.subscribe(p.update)
    p.update(s.state if s.history else None)
    return p


def test_a_step_is_told_the_way_a_player_says_it() -> None:
    names = ["Ann", "Bob"]
    assert step_text((ComboPicked(0, 2, "Ratmen", "Flying"),), names) == (
        "Ann picking the Flying Ratmen")
    assert step_text((RaceDeclined(1),), names, {1: "Elves"}) == (
        "Bob putting the Elves in decline")
    assert step_text((TurnScored(0, 7),), names) == "Ann scoring 7 coins for the turn"


def test_player_colours_are_okabe_ito_and_text_on_them_stays_readable() -> None:
    assert palette.rgba("blue")[:3] == (0.0, 0.4471, 0.698)
    assert palette.ink_on(palette.rgba("yellow"))[0] < 0.5  # dark text on yellow
    assert palette.ink_on(palette.rgba("blue"))[0] == 1.0  # white text on blue
    assert palette.next_free("blue", {"orange", "green"}) == "yellow"
    assert palette.rgba("no such colour") == palette.FALLBACK


def test_the_table_says_what_the_player_can_do_now_and_what_undo_takes_back() -> None:
    s = session(3, races=("Ratmen",), powers=("Flying",))
    table = presenter(TablePresenter, s)
    assert [a["key"] for a in table.actions] == ["market"]
    assert table.turn_text == "Turn 1 of 10"
    assert table.undo_text == "Nothing to undo yet"
    s.pick(0)
    assert [a["key"] for a in table.actions] == ["map", "finish_conquests"]
    assert table.undo_text == "Undo: take back Ann picking the Flying Ratmen"
    assert table.die_kind == "primary"
    assert all("coins" not in player for player in table.players)


def test_the_final_turn_is_made_obvious() -> None:
    s = session(2)
    table = presenter(TablePresenter, s)
    while not s.state.track.is_final_turn:
        play_turn(s)
    assert table.final_turn
    assert table.turn_text == "FINAL TURN 10 of 10"


def test_a_peek_shows_the_own_total_and_forgets_it_on_release() -> None:
    s = session(3)
    table = presenter(TablePresenter, s)
    table.peek(1)
    assert table.peek_text == "5 coins"
    table.end_peek()
    assert table.peek_text == ""


def test_an_unaffordable_row_says_why() -> None:
    s = session(3)
    s.adjust_coins(0, -4, "for the test")
    market = presenter(MarketPresenter, s)
    rows = market.rows
    assert rows[0]["refusal"] == "" and rows[1]["refusal"] == ""
    assert "cannot afford" in rows[2]["refusal"]
    assert rows[2]["cost"] == "Costs 2 coins"


def test_new_game_seats_move_and_the_first_player_is_chosen() -> None:
    s = Session(rng=random.Random(1))
    form = presenter(NewGamePresenter, s)
    form.set_name(0, "Ann")
    form.set_name(1, "Bob")
    form.move(0, 1)
    assert [seat["name"] for seat in form.seats][:2] == ["Bob", "Ann"]
    form.choose_first(1)
    assert form.first_text == "First player: Ann"
    form.start()
    assert s.state.track.seat == 1
    assert [p.name for p in s.state.players] == ["Bob", "Ann", "Player 3"]


def test_the_chart_follows_each_purse_turn_by_turn() -> None:
    s = session(2)
    for _ in range(20):
        play_turn(s, coins=3)
    assert s.state.is_over
    turns, series = coins_by_turn(s.history)
    assert turns == 10
    assert series[0][0] == 5 and series[0][10] == s.state.players[0].coins
    assert series[0] == sorted(series[0])


def test_the_reveal_goes_from_the_fewest_coins_to_the_winner() -> None:
    s = session(2)
    for turn in range(20):
        play_turn(s, coins=4 if turn % 2 == 0 else 1)
    end = presenter(GameEndPresenter, s)
    end.reveal_next()
    assert [r["name"] for r in end.revealed] == ["Bob"]
    end.reveal_next()
    assert end.all_revealed and end.winner_text.startswith("Ann wins")
    assert s.state.track.phase is Phase.GAME_OVER


def test_a_failed_save_is_told_in_plain_words_and_nothing_changes(tmp_path: Path) -> None:
    s = Session(rng=random.Random(2), store=Store.open(tmp_path / "games.sqlite3"))
    s.begin(created(2))
    market = presenter(MarketPresenter, s)
    told: list[tuple[str, str]] = []
    market.ctx.notices.tell = lambda text, title="": told.append((title, text))  # type: ignore
    before = s.state
    assert s.store is not None
    s.store.conn.execute("PRAGMA query_only=ON")
    assert market.attempt(lambda: s.pick(0)) is None
    assert s.state == before
    assert told and told[0][0] == "Not saved" and "Nothing was changed" in told[0][1]


def _scoring_after_a_conquest() -> Session:
    from companion.rules.conquest import immunity, reach
    from companion.rules.game import attacker

    s = session(3, races=("Dwarves",), powers=("Hill",))
    s.pick(0)
    state = s.state
    who = attacker(state)
    target = next(rid for rid in state.map.regions
                  if immunity(state.map, rid, state.regions.regions, who) is None
                  and reach(state.map, rid, who).reachable)
    s.conquer(target)
    s.finish_conquests()
    s.finish_redeployment()
    return s


def test_the_quick_count_starts_from_the_map_and_gives_the_same_lines() -> None:
    s = _scoring_after_a_conquest()
    scoring = presenter(ScoringPresenter, s)
    from_map = list(scoring.lines)
    assert from_map
    scoring.act("quick")
    assert scoring.quick_ok and scoring.lines == from_map  # one engine, two ways in
    keys = [row["key"] for row in scoring.quick_rows]
    assert keys[:1] == [""] and "active.mines" in keys and "active.fortresses" not in keys
    before = scoring.quick_input()
    scoring.set_count("active.forest", scoring._value("active.forest") + 1)
    assert scoring.quick_input() != before
    assert scoring.quick_text == f"Score {sum(int(line['coins']) for line in scoring.lines)} coins"


def test_the_quick_counts_of_features_are_under_all_the_regions_not_the_last_terrain() -> None:
    from companion.ui.presenters.scoring import AMONG_THEM, LAND, TERRAIN_WORDS

    scoring = presenter(ScoringPresenter, _scoring_after_a_conquest())
    scoring.act("quick")
    rows = [(row["key"], row["label"]) for row in scoring.quick_rows]
    labels = [label for _, label in rows]
    last_terrain = labels.index(TERRAIN_WORDS[LAND[-1]])  # "Mountains"
    # Right under the terrains: the heading that the mines and magic sources qualify.
    assert rows[last_terrain + 1] == ("", AMONG_THEM)
    assert rows[last_terrain + 2] == ("active.mines", "With a mine")
    assert rows[last_terrain + 3] == ("active.magic", "With a magic source")
    assert not any(label.startswith("Of those") for label in labels)


def test_typed_names_become_profiles_once_and_default_names_never() -> None:
    store = Store.open(Path(tempfile.mkdtemp()) / "games.sqlite3")
    store.add_profile("Bob", "green")
    s = Session(rng=random.Random(1), store=store)
    form = NewGamePresenter(Context(session=s, notices=KeypadNotices()))
    form._name_typed(0, "Ann")
    form._name_typed(1, "bob")  # Bob's profile, whatever the case
    form._name_typed(2, "Player 7")
    assert [p.name for p in store.profiles()] == ["Ann", "Bob"]
    assert [(seat["name"], seat["colour"]) for seat in form.seats][:2] == [
        ("Ann", "blue"), ("Bob", "green")]
    store.close()


def test_the_peek_of_a_player_with_a_pin_asks_for_it_first(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.sqlite3")
    store.add_profile("Ann", "blue", pin="2468")
    s = Session(rng=random.Random(2), store=store)
    s.begin(created(2))
    notices = KeypadNotices()
    asked: list[PinRequest] = []
    notices.bind(on_pin=lambda _n, request: asked.append(request))
    table = TablePresenter(Context(session=s, notices=notices))
    table.update(s.state)
    table.peek(0)
    assert table.peek_text == "" and len(asked) == 1
    asked[0].on_done("1111")
    assert table.peek_text == "" and "not right" in notices.last_message
    asked[0].on_done("2468")
    assert table.peek_text == f"{s.state.players[0].coins} coins"
    table.end_peek()
    table.peek(1)  # Bob has no profile, so no PIN
    assert table.peek_text and len(asked) == 1
    store.close()


def test_the_home_screen_forgets_the_last_game_when_none_is_on_the_table() -> None:
    from companion.ui.presenters.home import HomePresenter

    s = session(2)
    home = presenter(HomePresenter, s)
    assert home.game_text.startswith("On the table: Ann, Bob")
    home.update(None)  # the app switched to a session with no game
    assert home.game_text == "No game on the table."  # and nothing to resume


def test_a_berserk_roll_is_told_as_tokens_off_the_next_conquest() -> None:
    from companion.ui.presenters.die import DiePresenter

    s = session(2, races=("Ratmen",), powers=("Berserk",))
    die = presenter(DiePresenter, s)
    s.pick(0)
    assert die.can_roll and die.roll_text == "Roll for Berserk"
    die.roll()
    die.land()
    face = s.state.last_roll
    assert die.result_text == ("Rolled a blank: the next conquest costs the usual number of "
                               "tokens." if face == 0 else
                               f"Rolled {face}: the next conquest costs {face} "
                               f"token{'s' if face != 1 else ''} less.")
    assert not die.can_roll  # one roll per conquest
    assert die.hint == "The face comes off the cost of the next conquest, and only that one."
    s.conquer(4)
    assert die.can_roll
    die.roll()
    die.land()
    assert die.result_text.startswith("Rolled")  # a new roll for the next conquest


def test_the_final_conquest_is_told_as_the_sum_and_whose_region_it_is() -> None:
    from companion.session import FinalAttempt
    from companion.ui.presenters.die import final_outcome

    won = FinalAttempt(region=14, tokens_left=3, cost=5, face=2, succeeded=True)
    assert final_outcome(won, "Ben") == ("Rolled 2: 3 + 2 = 5, enough: region 14 is Ben's. "
                                         "Conquests are over for this turn.")
    lost = FinalAttempt(region=14, tokens_left=1, cost=4, face=1, succeeded=False)
    assert final_outcome(lost, "Ben") == (
        "Rolled 1: 1 + 1 = 2, short of 4: region 14 stays as it is. Put the tokens back in "
        "one of your regions; conquests are over.")


def test_the_die_screen_says_why_no_roll_is_allowed() -> None:
    from companion.ui.presenters.die import DiePresenter

    s = session(2)
    die = presenter(DiePresenter, s)
    assert not die.can_roll
    assert die.hint == die.reason == ("No roll now: the die is rolled while conquering, and "
                                      "Ann's turn is at: pick a combo.")
    die.roll()  # the button is disabled; a call anyway only says why
    assert s.history is not None and len(s.history.log) == 1
    assert die.ctx.notices.last_message == die.reason
