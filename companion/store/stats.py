"""Stats: what the finished games say about each player profile and each combo.

Concept: stats are computed on demand from the summaries of finished games (see
`companion.store.games`); nothing here is stored, so they are always consistent with the
history. Unfinished games count for nothing.

Definitions:
- a player's *games* are the finished games where a seat was linked to their profile;
  *wins* count shared wins; the *average* and *best score* are over final coins;
- the *best turn* is the most coins they scored at the end of one turn;
- a combo's *coins* for one pick are what the player scored while it was their latest
  combo (from the turn picked until their next pick, turns in decline included);
- a player's *favourite combo* is the one they picked most (ties: better average, then
  name); their *most successful* has the best average coins per pick (ties: more picks,
  then name);
- per combo across all games: picks, games it was picked in, wins of the players who
  picked it, and coins (total, average and best per pick).
"""

from __future__ import annotations

import sqlite3

from companion.records import ComboTally, PlayerStats
from companion.store.errors import ProfileError

_FINISHED_SEATS = (
    "FROM game_seats s JOIN games g ON g.id = s.game_id WHERE g.finished_at IS NOT NULL"
)


def player_stats(conn: sqlite3.Connection, player_id: int) -> PlayerStats:
    row = conn.execute("SELECT name FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        raise ProfileError(f"there is no player profile {player_id}")
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
    tallies = [
        ComboTally(race, power, picks, coins, most, games_, wins_)
        for race, power, picks, coins, most, games_, wins_ in conn.execute(
            "SELECT c.race, c.power, count(*), sum(c.coins), max(c.coins), "
            "count(DISTINCT c.game_id), sum(s.winner) "
            "FROM game_combos c JOIN game_seats s ON s.game_id = c.game_id AND s.seat = c.seat "
            "WHERE s.player_id = ? GROUP BY c.race, c.power",
            (player_id,),
        )
    ]
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
    tallies = [
        ComboTally(race, power, picks, coins, most, games, wins)
        for race, power, picks, coins, most, games, wins in conn.execute(
            "SELECT c.race, c.power, count(*), sum(c.coins), max(c.coins), "
            "count(DISTINCT c.game_id), sum(s.winner) "
            "FROM game_combos c JOIN game_seats s ON s.game_id = c.game_id AND s.seat = c.seat "
            "GROUP BY c.race, c.power"
        )
    ]
    return sorted(tallies, key=lambda t: (-t.average, -t.picks, t.name))
