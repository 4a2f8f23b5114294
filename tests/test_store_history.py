"""Finished games, stats and exports, checked against two games worked out by hand.

Game 1 (2 players, 10 turns, Ann starts), income per turn:

    turn   1  2  3  4  5  6  7  8  9  10   sum
    Ann    4  6  7  5  3  9  8  7  6  10    65
    Bob    5  8  9 10 12  1  6  5  4   3    63

Ann takes the Berserk Dwarves from row 2 (1 coin left on row 1), Bob the Alchemist
Amazons from row 1 (and that coin). Ann declines in turn 5 (scoring 3 with her Dwarves in
decline) and takes the Bivouacking Elves from row 1 in turn 6. Bob first scores 20 in
turn 5 by mistake, undoes it and scores 12. Final coins: Ann 5 - 1 + 65 = 69, Bob
5 + 1 + 63 = 69: a tie, broken by race tokens on the board, Ann 8, Bob 11: Bob wins.
Combo coins: Dwarves 4+6+7+5+3 = 25, Elves 9+8+7+6+10 = 40, Amazons 63.

Game 2 (Bob starts): Bob takes the Amazons, Ann the Dwarves, both from row 1; Bob scores
2 a turn (25 coins), Ann 4 (45 coins): Ann wins.

Stats: Ann 2 games, 1 win, average (69 + 45) / 2 = 57, best 69, best turn 10; favourite
the Dwarves (2 picks, 25 + 40 = 65 coins), most successful the Elves (40 a pick). Bob 2
games, 1 win, average (69 + 25) / 2 = 47, best turn 12 (the undone 20 does not count);
the Amazons (2 picks, 63 + 20 = 83 coins). Per combo: Amazons 41.5 a pick, Elves 40,
Dwarves 32.5.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from factories import session

from companion.cli import main
from companion.records import ComboPlayed, ComboTally
from companion.rules.catalog import load_catalog
from companion.rules.standings import final_standings
from companion.session import Session
from companion.store import Store, StoreError
from companion.store.export import bgstats_dict, game_dict, to_csv

CATALOG = load_catalog()
T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)


@dataclass
class Clock:
    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now


def sync(store: Store, game_id: int | None, s: Session) -> int:
    assert s.history is not None
    if game_id is None:
        game_id = store.new_game(s.history.log[0])
    for step in s.history.log[store.steps(game_id):]:
        store.append_step(game_id, step)
    return game_id


def take_turn(
    s: Session, coins: int, *, pick: int | None = None, decline: bool = False,
    mistake: int | None = None,
) -> None:  # fmt: skip
    if decline:
        s.decline()
    else:
        if pick is not None:
            s.pick(pick)
        s.finish_conquests()
        s.finish_redeployment()
    if mistake is not None:
        s.score(mistake)
        s.undo()
    s.score(coins, [(regions_line(s), coins)])
    s.end_turn()


def regions_line(s: Session) -> str:
    """The label of the scoring line for the regions of the race whose turn it is (its
    active race, else the one it declined): the scoring engine's words."""
    player = s.state.players[s.state.track.seat]
    if player.active is not None:
        return f"Regions held by {player.active.race}"
    return f"Regions held by {player.declined[-1].race} (in decline)"


def play_game_1(store: Store, clock: Clock) -> int:
    clock.now = T0
    s = session(2)
    game_id = sync(store, None, s)
    ann = (4, 6, 7, 5, 3, 9, 8, 7, 6, 10)
    bob = (5, 8, 9, 10, 12, 1, 6, 5, 4, 3)
    for turn in range(1, 11):
        take_turn(s, ann[turn - 1], pick={1: 1, 6: 0}.get(turn), decline=turn == 5)
        take_turn(s, bob[turn - 1], pick=0 if turn == 1 else None,
                  mistake=20 if turn == 5 else None)  # fmt: skip
        sync(store, game_id, s)
    clock.now = T0 + timedelta(minutes=90)
    coins = {p.seat: p.coins for p in s.state.players}
    assert coins == {0: 69, 1: 69}
    store.finish_game(game_id, final_standings(coins, {0: 8, 1: 11}, {0: "Ann", 1: "Bob"}))
    return game_id


def play_game_2(store: Store, clock: Clock) -> int:
    clock.now = T0 + timedelta(days=1)
    s = session(2, first_seat=1)
    game_id = sync(store, None, s)
    for turn in range(1, 11):
        take_turn(s, 2, pick=0 if turn == 1 else None)  # Bob
        take_turn(s, 4, pick=0 if turn == 1 else None)  # Ann
        sync(store, game_id, s)
    clock.now = T0 + timedelta(days=1, minutes=45)
    coins = {p.seat: p.coins for p in s.state.players}
    assert coins == {0: 45, 1: 25}
    store.finish_game(game_id, final_standings(coins, names={0: "Ann", 1: "Bob"}))
    return game_id


@pytest.fixture(scope="module")
def played_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    db = tmp_path_factory.mktemp("played") / "companion.sqlite3"
    clock = Clock()
    with Store.open(db, catalog=CATALOG, clock=clock) as store:
        store.add_profile("Ann", "blue", pin="2468")
        store.add_profile("bob", "orange")  # linked whatever the case of the name
        store.add_profile("Cy", "green")
        one = play_game_1(store, clock)
        two = play_game_2(store, clock)
    return db, one, two


@pytest.fixture
def played(played_once: tuple[Path, int, int], tmp_path: Path) -> tuple[Path, int, int]:
    """The two games in a file of the test's own (a copy: tests may write to it)."""
    source, one, two = played_once
    db = tmp_path / "companion.sqlite3"
    shutil.copyfile(source, db)
    return db, one, two


def test_a_finished_game_keeps_its_history(played: tuple[Path, int, int]) -> None:
    db, one, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        summary = store.game_summary(one)
        ann, bob = (p.id for p in sorted(store.profiles(), key=lambda p: p.name.lower())[:2])
    game = summary.game
    assert (game.created_at, game.finished_at) == (T0, T0 + timedelta(minutes=90))
    assert summary.duration == timedelta(minutes=90)
    assert (game.board, game.turns, game.expansions) == ("2p", 10, ("base",))
    assert [(s.seat, s.name, s.colour, s.player_id, s.start_player) for s in game.seats] == [
        (0, "Ann", "blue", ann, True), (1, "Bob", "orange", bob, False)]  # fmt: skip
    assert [(s.final_coins, s.rank, s.winner, s.tie_tokens) for s in game.seats] == [
        (69, 2, False, 8), (69, 1, True, 11)]  # fmt: skip
    assert [s.name for s in game.winners] == ["Bob"]
    assert game.result == game.tie_break == (
        "Ann and Bob tie on 69 coins; Bob wins with 11 race tokens on the board (Ann: 8)"
    )
    assert summary.income_of(0) == (4, 6, 7, 5, 3, 9, 8, 7, 6, 10)
    assert summary.income_of(1) == (5, 8, 9, 10, 12, 1, 6, 5, 4, 3)  # the undone 20 is gone
    assert summary.combos == (
        ComboPlayed(0, 1, 1, "Dwarves", "Berserk", 25),
        ComboPlayed(1, 1, 0, "Amazons", "Alchemist", 63),
        ComboPlayed(0, 6, 0, "Elves", "Bivouacking", 40),
    )


def test_a_game_without_a_tie_records_no_tie_break(played: tuple[Path, int, int]) -> None:
    db, _, two = played
    with Store.open(db, catalog=CATALOG) as store:
        game = store.game(two)
    assert game.result == "Ann wins with 45 coins" and game.tie_break is None
    assert [(s.name, s.start_player, s.final_coins, s.rank, s.winner, s.tie_tokens)
            for s in game.seats] == [("Ann", False, 45, 1, True, None),
                                     ("Bob", True, 25, 2, False, None)]  # fmt: skip


def test_the_history_lists_finished_games_newest_first(played: tuple[Path, int, int]) -> None:
    db, one, two = played
    with Store.open(db, catalog=CATALOG) as store:
        assert [s.game.id for s in store.finished_games()] == [two, one]
        assert store.games(finished=False) == []


def test_stats_per_player_profile(played: tuple[Path, int, int]) -> None:
    db, _, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        stats = {s.name: s for s in store.all_player_stats()}
    ann, bob, cy = stats["Ann"], stats["bob"], stats["Cy"]
    assert (ann.games, ann.wins, ann.average_score, ann.best_score, ann.best_turn) == (
        2, 1, 57.0, 69, 10)  # fmt: skip
    assert ann.favourite_combo == ComboTally("Dwarves", "Berserk", 2, 65, 40, 2, 1)
    assert ann.most_successful_combo == ComboTally("Elves", "Bivouacking", 1, 40, 40, 1, 0)
    assert (bob.games, bob.wins, bob.average_score, bob.best_score, bob.best_turn) == (
        2, 1, 47.0, 69, 12)  # fmt: skip
    amazons = ComboTally("Amazons", "Alchemist", 2, 83, 63, 2, 1)
    assert bob.favourite_combo == bob.most_successful_combo == amazons
    assert (cy.games, cy.wins, cy.average_score, cy.best_score, cy.best_turn) == (
        0, 0, None, None, None)  # fmt: skip
    assert cy.favourite_combo is None and cy.most_successful_combo is None


def test_stats_per_combo_across_games(played: tuple[Path, int, int]) -> None:
    db, _, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        combos = store.combo_stats()
    assert [(c.name, c.picks, c.games, c.wins, c.coins, c.average, c.best) for c in combos] == [
        ("Alchemist Amazons", 2, 2, 1, 83, 41.5, 63),
        ("Bivouacking Elves", 1, 1, 0, 40, 40.0, 40),
        ("Berserk Dwarves", 2, 2, 1, 65, 32.5, 40),
    ]


def test_unfinished_games_count_for_nothing_in_stats(played: tuple[Path, int, int]) -> None:
    db, _, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        s = session(2)
        take_turn(s, 50, pick=0)
        sync(store, None, s)
        assert store.player_stats(store.profiles()[0].id).best_turn == 10


CSV_GAME_1 = (
    "game,date,board,seat,player,colour,start_player,turn_1,turn_2,turn_3,turn_4,turn_5,"
    "turn_6,turn_7,turn_8,turn_9,turn_10,final_coins,rank,winner,combos\n"
    "1,2025-03-01 19:00:00,2p,1,Ann,blue,yes,4,6,7,5,3,9,8,7,6,10,69,2,no,"
    "Berserk Dwarves (turn 1); Bivouacking Elves (turn 6)\n"
    "1,2025-03-01 19:00:00,2p,2,Bob,orange,no,5,8,9,10,12,1,6,5,4,3,69,1,yes,"
    "Alchemist Amazons (turn 1)\n"
)


def test_the_csv_export_is_a_score_sheet(played: tuple[Path, int, int]) -> None:
    db, one, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        assert to_csv(store.game_summary(one), UTC) == CSV_GAME_1


def test_the_json_export_holds_the_whole_history(played: tuple[Path, int, int]) -> None:
    db, one, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        exported = json.loads(store.export(one, "json", UTC))
        assert exported == game_dict(store.game_summary(one), UTC)
    assert exported["started"] == "2025-03-01T19:00:00+00:00"
    assert exported["finished"] == "2025-03-01T20:30:00+00:00"
    assert exported["duration_minutes"] == 90
    assert exported["winners"] == ["Bob"]
    ann = exported["players"][0]
    assert ann == {
        "seat": 0, "name": "Ann", "colour": "blue", "start_player": True,
        "final_coins": 69, "rank": 2, "winner": False, "tie_tokens": 8,
        "income": [4, 6, 7, 5, 3, 9, 8, 7, 6, 10],
        "combos": [
            {"turn": 1, "row": 1, "race": "Dwarves", "power": "Berserk", "coins": 25},
            {"turn": 6, "row": 0, "race": "Elves", "power": "Bivouacking", "coins": 40},
        ],
    }  # fmt: skip
    assert len(exported["scoring"]) == 20 and exported["scoring"][0]["seat"] == 0


def test_the_bgstats_export_is_a_pushed_play(played: tuple[Path, int, int]) -> None:
    db, one, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        ann, bob = sorted(store.profiles(), key=lambda p: p.name.lower())[:2]
        play = bgstats_dict(store.game_summary(one), UTC)
    assert play == {
        "sourceName": "Table Companion for Small World",
        "sourcePlayId": f"{one}-20250301T190000Z",
        "game": {"name": "Small World", "bggId": 40692, "sourceGameId": "smallworld",
                 "highestWins": True, "noPoints": False},
        "playDate": "2025-03-01 19:00:00",
        "durationMin": 90,
        "board": "2-player board",
        "comments": "Ann and Bob tie on 69 coins; Bob wins with 11 race tokens on the board "
                    "(Ann: 8); expansions: base",
        "players": [  # in seat order; the tie is broken by the tokens, not the seats
            {"name": "Ann", "sourcePlayerId": f"profile-{ann.id}", "score": 69, "rank": 2,
             "winner": False, "startPlayer": True},
            {"name": "Bob", "sourcePlayerId": f"profile-{bob.id}", "score": 69, "rank": 1,
             "winner": True, "startPlayer": False},
        ],
    }  # fmt: skip


def test_finishing_again_rewrites_the_same_summary(played: tuple[Path, int, int]) -> None:
    db, one, _ = played
    with Store.open(db, catalog=CATALOG) as store:
        before = store.game_summary(one)
        standings = final_standings({0: 69, 1: 69}, {0: 8, 1: 11}, {0: "Ann", 1: "Bob"})
        assert store.finish_game(one, standings) == before


def test_standings_that_do_not_match_the_game_are_refused(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.sqlite3", catalog=CATALOG, clock=Clock()) as store:
        s = session(2)
        while not s.state.is_over:
            take_turn(s, 1, pick=0 if s.state.current.active is None else None)
        game_id = sync(store, None, s)
        with pytest.raises(StoreError, match="give Ann 99 coins, but the saved game gives them 15"):
            store.finish_game(game_id, final_standings({0: 99, 1: 15}))
        assert not store.game(game_id).finished


# -- the export command ---------------------------------------------------------------------


@pytest.fixture
def utc() -> Iterator[None]:
    """The local time zone is UTC for the test (the command shows local times)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_companion_export_writes_a_finished_game(
    played: tuple[Path, int, int], utc: None, capsys: pytest.CaptureFixture[str]
) -> None:
    db, one, _ = played
    assert main(["export", str(one), "--db", str(db), "--format", "csv"]) == 0
    assert capsys.readouterr().out == CSV_GAME_1


def test_companion_export_writes_to_a_file(
    played: tuple[Path, int, int], utc: None, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    db, one, _ = played
    out = tmp_path / "play.json"
    assert main(["export", str(one), "--db", str(db), "--format", "bgstats", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["durationMin"] == 90
    assert f"written to {out}" in capsys.readouterr().err


def test_companion_export_refuses_an_unfinished_or_unknown_game(
    played: tuple[Path, int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    db, one, two = played
    with Store.open(db, catalog=CATALOG) as store:
        unfinished = sync(store, None, session(3))
    assert main(["export", str(unfinished), "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"companion export: game {unfinished} is not finished yet; only finished games are "
        f"exported (finished games: {one}, {two})\n"
    )
    assert main(["export", "99", "--db", str(db)]) == 1
    assert f"game 99 is not in {db}" in capsys.readouterr().err


def test_companion_export_needs_an_existing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothing.sqlite3"
    assert main(["export", "1", "--db", str(missing)]) == 1
    assert "there is no saved-games file at" in capsys.readouterr().err
    assert not missing.exists()  # exporting never creates a file
