"""The story of a finished game (`companion.story`), checked against a game worked out by
hand (the first game of tests/test_store_history.py):

    turn   1  2  3  4  5  6  7  8  9  10   sum
    Ann    4  6  7  5  3  9  8  7  6  10    65
    Bob    5  8  9 10 12  1  6  5  4   3    63

Ann picks the Berserk Dwarves in turn 1, declines them in turn 5 and picks the
Bivouacking Elves in turn 6: the records credit the Dwarves with 25, the Elves with 40.
Bob keeps the Alchemist Amazons all game: 63. Best turns: Ann 10 (turn 10), Bob 12
(turn 5), so the game's is Bob's.

On a real saved-games file, the game of tests/test_combo_coins.py: Ann's first race, in
decline from turn 2, scores beside her second race in the same turns (3 to 10); the story
credits each race with its own coins, as the records split them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from factories import end_turn, play_turn, session
from test_combo_coins import CATALOG, play

from companion import story
from companion.records import ComboPlayed, GameRecord, GameSummary, SeatResult, TurnIncome
from companion.store import Store

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
ANN = (4, 6, 7, 5, 3, 9, 8, 7, 6, 10)
BOB = (5, 8, 9, 10, 12, 1, 6, 5, 4, 3)


def game_one() -> GameSummary:
    seats = (SeatResult(0, "Ann", "blue", 1, True, 69, 2, False, 8),
             SeatResult(1, "Bob", "orange", 2, False, 69, 1, True, 11))
    game = GameRecord(id=1, created_at=T0, updated_at=T0, finished_at=T0 + timedelta(hours=1),
                      board="2p", turns=10, expansions=("base",), dealing="app", first_seat=0,
                      steps=80, seats=seats, result=None, tie_break=None)
    income = tuple(TurnIncome(turn, seat, coins)
                   for turn in range(1, 11)
                   for seat, coins in ((0, ANN[turn - 1]), (1, BOB[turn - 1])))
    combos = (ComboPlayed(0, 1, 1, "Dwarves", "Berserk", 25),
              ComboPlayed(1, 1, 0, "Amazons", "Alchemist", 63),
              ComboPlayed(0, 6, 0, "Elves", "Bivouacking", 40))
    return GameSummary(game, income, combos)


def test_each_players_races_in_order_with_their_turns_coins_and_decline() -> None:
    ann, bob = story.stories(game_one(), {0: (5,)})
    assert ann.races == (
        story.RaceSpan("Dwarves", "Berserk", 1, 5, 25, declined_turn=5),
        story.RaceSpan("Elves", "Bivouacking", 6, 10, 40),
    )
    assert bob.races == (story.RaceSpan("Amazons", "Alchemist", 1, 10, 63),)
    assert [story.race_line(span) for span in ann.races] == [
        "Berserk Dwarves, turns 1 to 5, declined in turn 5: 25 coins (in decline too)",
        "Bivouacking Elves, turns 6 to 10: 40 coins",
    ]


def test_the_races_coins_add_up_to_the_players_income() -> None:
    summary = game_one()
    for player in story.stories(summary):
        assert sum(span.coins for span in player.races) == sum(summary.income_of(player.seat))


def test_without_the_history_nobody_is_said_to_have_declined() -> None:
    ann, _ = story.stories(game_one())
    assert all(span.declined_turn is None for span in ann.races)


def test_best_turns() -> None:
    summary = game_one()
    ann, bob = story.stories(summary)
    assert ann.best_turn == story.BestTurn(0, 10, 10)
    assert bob.best_turn == story.BestTurn(1, 5, 12)
    assert story.game_best_turn(summary) == bob.best_turn
    assert story.best_line(bob.best_turn) == "Best turn: 12 coins in turn 5"
    assert story.best_line(None) == "No coins scored at the end of a turn"


def test_a_tie_for_the_best_turn_goes_to_the_earliest() -> None:
    summary = game_one()
    flat = tuple(TurnIncome(i.turn, i.seat, 7) for i in summary.income)
    level = GameSummary(summary.game, flat, summary.combos)
    assert story.game_best_turn(level) == story.BestTurn(0, 1, 7)
    nothing = GameSummary(summary.game, (), summary.combos)
    assert story.game_best_turn(nothing) is None


def test_declines_are_read_from_the_steps_in_force() -> None:
    s = session(2)
    play_turn(s, row=0, coins=3)  # Ann picks
    play_turn(s, row=0, coins=2)  # Bob picks
    s.decline()  # Ann, turn 2, thinks better of it
    s.undo()
    play_turn(s, coins=3)
    play_turn(s, coins=2)
    s.decline()  # Ann, turn 3
    s.score(1)
    end_turn(s)
    play_turn(s, coins=2)
    assert s.history is not None
    assert story.declines(s.history) == {0: (3,)}


def test_a_race_in_decline_scoring_beside_the_next_keeps_its_own_coins(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, first, second = play(db)
    with Store.open(db, catalog=CATALOG) as store:
        summary = store.game_summary(game_id)
    older, newer = summary.combos_of(0)
    ann, bob = story.stories(summary, {0: (2,)})
    # 10 + 4 + 3 + 7 * 2 and 8 + 7 * 5: not the turns' incomes, 14 and 60.
    assert [(s.race, s.first_turn, s.last_turn, s.coins, s.declined_turn) for s in ann.races] \
        == [(first, 1, 2, 31, 2), (second, 3, 10, 43, None)]
    assert [s.coins for s in ann.races] == [older.coins, newer.coins]  # the records' split
    assert [story.race_line(span) for span in ann.races] == [
        f"{older.name}, turns 1 to 2, declined in turn 2: 31 coins (in decline too)",
        f"{newer.name}, turns 3 to 10: 43 coins",
    ]
    assert sum(span.coins for span in ann.races) == sum(summary.income_of(0)) == 74
    assert [span.coins for span in bob.races] == [10]


def test_coins_that_could_not_be_split_by_race_are_said_so(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, _, _ = play(db, typed_last_turn=True)  # turn 10: 7 coins typed as a total
    with Store.open(db, catalog=CATALOG) as store:
        summary = store.game_summary(game_id)
    older, newer = story.stories(summary, {0: (2,)})[0].races
    assert (older.coins, older.split) == (29, True)
    assert (newer.coins, newer.split) == (45, False)
    assert story.race_line(newer) == (f"{newer.name}, turns 3 to 10: 45 coins with a race "
                                      "in decline's, not split by race")
