"""Stats: what the finished games say about each player profile and each combo.

Concept: stats are computed on demand from the summaries of finished games (see
`companion.store.games`); nothing here is stored, so they are always consistent with the
history. Unfinished games count for nothing.

Definitions:
- a player's *games* are the finished games where a seat was linked to their profile;
  *wins* count shared wins; the *average* and *best score* are over final coins;
- the *best turn* is the most coins they scored at the end of one turn;
- a combo's *coins* for one pick are what its race scored, active and in decline
  (`companion.store.combo_coins`): a race in decline that scores beside the player's next
  combo earns for its own combo, not the next one. A pick whose coins cannot be split by
  race (a total typed without lines beside a race in decline) is counted in the picks and
  not in the coins (`ComboTally.unsplit`), and the screen says so;
- a player's *favourite combo* is the one they picked most (ties: better average, then
  name); their *most successful* has the best average coins per pick (ties: more picks,
  then name);
- per combo across all games: picks, games it was picked in, wins of the players who
  picked it, and coins (total, average and best per pick).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

from companion.records import ComboPlayed, ComboTally, PlayerStats, TurnIncome
from companion.store.combo_coins import credit
from companion.store.errors import N_, ProfileError

_FINISHED_SEATS = (
    "FROM game_seats s JOIN games g ON g.id = s.game_id WHERE g.finished_at IS NOT NULL"
)


def player_stats(conn: sqlite3.Connection, player_id: int) -> PlayerStats:
    row = conn.execute("SELECT name FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        raise ProfileError(N_("there is no player profile {profile}"), profile=player_id)
    games, wins, average, best = conn.execute(
        "SELECT count(*), coalesce(sum(s.winner), 0), avg(s.final_coins), max(s.final_coins) "
        f"{_FINISHED_SEATS} AND s.player_id = ?",
        (player_id,),
    ).fetchone()
    (best_turn,) = conn.execute(
        "SELECT max(t.coins) FROM turn_scores t JOIN game_seats s "
        "ON s.game_id = t.game_id AND s.seat = t.seat WHERE s.player_id = ?",
        (player_id,),
    ).fetchone()
    tallies = _tallies(conn, player_id)
    favourite = min(tallies, key=lambda t: (-t.picks, -t.average, t.name), default=None)
    successful = min(tallies, key=lambda t: (-t.average, -t.picks, t.name), default=None)
    return PlayerStats(
        player_id=player_id,
        name=row[0],
        games=int(games),
        wins=int(wins),
        average_score=None if average is None else float(average),
        best_score=best,
        best_turn=best_turn,
        favourite_combo=favourite,
        most_successful_combo=successful,
    )


def combo_stats(conn: sqlite3.Connection) -> list[ComboTally]:
    """Every combo picked in a finished game, best average first (ties: picks, name)."""
    return sorted(_tallies(conn, None), key=lambda t: (-t.average, -t.picks, t.name))


def _tallies(conn: sqlite3.Connection, player_id: int | None) -> list[ComboTally]:
    """Each combo's tally over the picks in finished games (by `player_id`'s seats only,
    unless None), each pick credited with its race's own coins from the turns' lines."""
    mine = "" if player_id is None else " AND s.player_id = ?"
    wanted = () if player_id is None else (player_id,)
    picks: dict[int, list[tuple[ComboPlayed, bool]]] = {}
    for game_id, seat, turn, row, race, power, winner in conn.execute(
        "SELECT c.game_id, c.seat, c.turn, c.row, c.race, c.power, s.winner "
        "FROM game_combos c JOIN game_seats s ON s.game_id = c.game_id AND s.seat = c.seat "
        "JOIN games g ON g.id = c.game_id WHERE g.finished_at IS NOT NULL" + mine,
        wanted,
    ):
        picks.setdefault(game_id, []).append(
            (ComboPlayed(seat, turn, row, race, power, 0), bool(winner))
        )
    income: dict[int, list[TurnIncome]] = {}
    if picks:
        marks = ", ".join("?" * len(picks))
        for game_id, turn, seat, coins, lines in conn.execute(
            f"SELECT game_id, turn, seat, coins, lines FROM turn_scores WHERE game_id IN ({marks})",
            tuple(picks),
        ):
            income.setdefault(game_id, []).append(TurnIncome(
                turn, seat, coins, tuple((str(label), int(n)) for label, n in json.loads(lines))
            ))  # fmt: skip
    tallies: dict[tuple[str, str], ComboTally] = {}
    games: dict[tuple[str, str], set[int]] = {}
    for game_id, played in picks.items():
        credited = credit((combo for combo, _ in played), income.get(game_id, ()))
        for combo, (_, winner) in zip(credited, played, strict=True):
            key = (combo.race, combo.power)
            was = tallies.get(key, ComboTally(combo.race, combo.power, 0, 0, 0))
            games.setdefault(key, set()).add(game_id)
            counted = combo.split
            tallies[key] = replace(
                was,
                picks=was.picks + 1,
                coins=was.coins + (combo.coins if counted else 0),
                best=max(was.best, combo.coins) if counted else was.best,
                games=len(games[key]),
                wins=was.wins + winner,
                unsplit=was.unsplit + (not counted),
            )
    return list(tallies.values())
