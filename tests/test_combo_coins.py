"""Each combo is credited with its own race's coins, active and in decline, on a real
saved-games file: in the finished game's history, the stats and the JSON export.

Ann picks a combo in turn 1 (10 coins), declines it in turn 2 (4 coins in decline), picks
a second in turn 3, and from then on scores both: the new race 8 (turn 3) then 5 a turn,
the race in decline 3 (turn 3) then 2 a turn. Her first combo earned 10 + 4 + 3 + 7 * 2 =
31, her second 8 + 7 * 5 = 43: crediting every coin to the latest combo gave 14 and 60.
Bob picks in turn 1 and scores 1 a turn with no race in decline.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from factories import session

from companion.records import ComboPlayed
from companion.rules.catalog import load_catalog
from companion.rules.standings import final_standings
from companion.session import Session
from companion.store import Store
from companion.store.export import game_dict
from companion.ui.presenters.history_game import combo_words
from companion.ui.presenters.stats import combo_line

CATALOG = load_catalog()


def turn(s: Session, lines: list[tuple[str, int]] | int, *, pick: int | None = None,
         decline: bool = False) -> None:  # fmt: skip
    if decline:
        s.decline()
    else:
        if pick is not None:
            s.pick(pick)
        s.finish_conquests()
        s.finish_redeployment()
    if isinstance(lines, int):
        s.score(lines)  # a total typed in, no lines
    else:
        s.score(sum(n for _, n in lines), lines)
    s.end_turn()


def picked(s: Session, row: int) -> tuple[str, str]:
    """Pick the combo on `row`; its race and power."""
    s.pick(row)
    active = s.state.players[s.state.track.seat].active
    assert active is not None
    return active.race, active.power


def play(db: Path, *, typed_last_turn: bool = False) -> tuple[int, str, str]:
    """The game of the module docstring, finished and saved; its id and Ann's two races."""
    s = session(2)
    for number in range(1, 11):
        if number == 1:
            first, _ = picked(s, 0)
            turn(s, [(f"Regions held by {first}", 10)])
        elif number == 2:
            turn(s, [(f"Regions held by {first} (in decline)", 4)], decline=True)
        elif number == 3:
            second, power = picked(s, 0)
            turn(s, [(f"Regions held by {second}", 6), (f"{power}: a bonus", 2),
                     (f"Regions held by {first} (in decline)", 3)])
        elif typed_last_turn and number == 10:
            turn(s, 7)  # the same 7 coins, typed as a total
        else:
            turn(s, [(f"Regions held by {second}", 5),
                     (f"Regions held by {first} (in decline)", 2)])
        if number == 1:
            bobs, _ = picked(s, 0)
        turn(s, [(f"Regions held by {bobs}", 1)])
    coins = {p.seat: p.coins for p in s.state.players}
    with Store.open(db, catalog=CATALOG) as store:
        assert s.history is not None
        game_id = store.new_game(s.history.log[0])
        for step in s.history.log[1:]:
            store.append_step(game_id, step)
        store.finish_game(game_id, final_standings(coins, names={0: "Ann", 1: "Bob"}))
    return game_id, first, second


def test_a_race_in_decline_earns_for_its_own_combo(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, first, second = play(db)
    with Store.open(db, catalog=CATALOG) as store:
        summary = store.game_summary(game_id)
        tallies = {t.race: t for t in store.combo_stats()}
    ann = summary.combos_of(0)
    assert [(c.race, c.turn, c.coins, c.split) for c in ann] == [
        (first, 1, 31, True), (second, 3, 43, True)]  # fmt: skip
    assert sum(c.coins for c in ann) == sum(summary.income_of(0)) == 74
    assert [c.coins for c in summary.combos_of(1)] == [10]
    assert combo_words(ann[1]).endswith(f"{second} (turn 3, 43 coins)")
    assert (tallies[first].coins, tallies[first].best) == (31, 31)
    assert (tallies[second].coins, tallies[second].average) == (43, 43.0)
    exported = game_dict(summary)["players"][0]["combos"]
    assert [c["coins"] for c in exported] == [31, 43]
    json.dumps(exported)


def test_the_saved_summary_holds_each_races_own_coins(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, _, _ = play(db)
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT seat, turn, coins FROM game_combos WHERE game_id = ? "
                            "ORDER BY seat, turn", (game_id,)).fetchall()  # fmt: skip
    finally:
        conn.close()
    assert rows == [(0, 1, 31), (0, 3, 43), (1, 1, 10)]


def test_a_total_typed_beside_a_race_in_decline_is_said_not_split(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, _, second = play(db, typed_last_turn=True)
    with Store.open(db, catalog=CATALOG) as store:
        summary = store.game_summary(game_id)
        tallies = {t.race: t for t in store.combo_stats()}
    older, newer = summary.combos_of(0)
    assert (older.coins, older.split) == (29, True)  # turn 10's 2 coins could not be told
    assert newer.split is False
    assert combo_words(newer) == f"{newer.name} (turn 3, coins not split by race)"
    assert "43" not in combo_words(newer) and "45" not in combo_words(newer)
    assert tallies[second].unsplit == 1 and tallies[second].counted == 0
    assert "coins not split by race" in combo_line(tallies[second])
    assert game_dict(summary)["players"][0]["combos"][1]["coins"] is None
    # Bob had no race in decline: his typed-free turns are his one combo's anyway.
    bobs = summary.combos_of(1)[0]
    assert bobs == ComboPlayed(1, 1, bobs.row, bobs.race, bobs.power, 10, split=True)
