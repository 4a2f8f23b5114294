"""Games: their rows, the unfinished one to resume, and the history of finished ones.

Concept: a game row says what was set up (board, turns, expansions, seats); the log itself
is in ``events`` (see `companion.store.events`). The row is not written at every step
(that would be a second page in the write-ahead log per save): `touch` writes it when a
game is created, when a store starts saving to a game, and at the end of every turn.
With it goes where the game stands, ``turn`` and ``seat`` (`position`: the game turn
being played and whose turn it is), which the home screen's Resume offer reads at start
without replaying the game (`companion.store.summary`).
What a game record says about its log (how many steps, when it was last changed) is read
from the log itself, so it is right even after a power cut in the middle of a turn.
When a game ends, `finish` writes its summary beside it, all derived from the log and the
final standings the rules worked out:

- every player's final coins, rank and winner flag, and the tie-break if one was used
  (race tokens on the board, when two players tie for the most coins);
- every turn's income per player, from the `TurnScored` events still in force;
- the combos each player picked (`ComboPicked`), each with its race's own coins, active
  and in decline, split from each turn's lines (`companion.store.combo_coins`): a race in
  decline scoring beside the next combo is credited to its own combo, not to the next
  one. That is what "most successful combo" means in the stats.

Undone steps count for nothing here: the summary is built from the steps in force.

Invariants:
- games are ordered by id and steps by the order they were written, never by the clock
  (a Raspberry Pi without a network may start with the wrong time);
- ``played`` orders the games by when they were last played: a game gets the highest
  number when it is created and whenever a store starts saving to it (`touch`), so the
  game with the highest number holds the latest step written (one app per file);
- a `GameRecord`'s ``steps`` and ``updated_at`` come from the log (its last step), never
  from the row's copies, which are only as fresh as the last end of a turn;
- the row's ``turn`` and ``seat`` are the state's (`position`) whenever they are not NULL:
  only an end of turn moves them, every end of turn writes the row, and an end of turn
  is never undone (it is a barrier, see `companion.rules.history`); NULL only for a game
  saved before migration m003 and not played since;
- a game is either unfinished (``finished_at`` is NULL: its log may grow) or finished
  (its log is closed and its summary matches its log);
- the summary of a game is written in one transaction, so it is there whole or not at
  all; finishing again rewrites it from the log.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from companion.records import ComboPlayed, GameRecord, GameSummary, SeatResult, TurnIncome
from companion.rules.events import ComboPicked, Event, GameCreated, TurnEnded, TurnScored
from companion.rules.history import History
from companion.rules.standings import Standings
from companion.rules.turns import Phase, TurnTrack
from companion.sentence import N_
from companion.store import events, profiles
from companion.store.combo_coins import credit
from companion.store.database import from_text
from companion.store.errors import StoreError, UnknownGame


def create(
    conn: sqlite3.Connection,
    first_step: Sequence[Event],
    at: str,
    player_ids: Mapping[int, int] | None = None,
) -> int:
    """Add a game whose first step is `first_step` (it starts with GameCreated).

    `player_ids` links seats to player profiles; seats left out are linked to the profile
    of the same name (whatever its case), if there is one and it plays no other seat.
    Call inside a transaction.
    """
    created = first_step[0] if first_step else None
    if not isinstance(created, GameCreated):
        raise ValueError("a game's first step must start with GameCreated")
    links = dict(player_ids or {})
    unknown = sorted(seat for seat in links if not 0 <= seat < len(created.seats))
    if unknown:
        raise ValueError(f"seat {unknown[0]} is not a seat of this game")
    if len(set(links.values())) != len(links):
        raise ValueError("one player profile cannot play two seats of a game")
    taken = set(links.values())
    by_name = {name: pid for name, pid in profiles.ids_by_name(conn).items() if pid not in taken}
    cursor = conn.execute(
        "INSERT INTO games (created_at, updated_at, board, turns, expansions, dealing, "
        f"first_seat, steps, played, turn, seat) VALUES (?, ?, ?, ?, ?, ?, ?, 1, {_NEXT_PLAYED}, "
        "1, ?)",
        (at, at, created.board, created.turns, json.dumps(list(created.expansions)),
         created.dealing, created.first_seat, created.first_seat),
    )  # fmt: skip
    game_id = cursor.lastrowid
    assert game_id is not None
    conn.executemany(
        "INSERT INTO game_seats (game_id, seat, name, colour, player_id) VALUES (?, ?, ?, ?, ?)",
        [
            (game_id, seat, s.name, s.colour,
             links.get(seat, by_name.get(s.name.strip().casefold())))
            for seat, s in enumerate(created.seats)
        ],
    )  # fmt: skip
    events.append(conn, game_id, first_step, at)
    return game_id


_NEXT_PLAYED = "(SELECT coalesce(max(played), 0) + 1 FROM games)"


def touch(conn: sqlite3.Connection, game_id: int, steps: int, at: str) -> None:
    """Write the game's row: its last step `steps`, saved `at`, the highest ``played``
    number (it is the game being played) and where it stands (`position`, read from the
    log as it is now). Call inside a transaction, after the step's events are written."""
    found = position(conn, game_id)
    turn, seat = found if found is not None else (None, None)
    conn.execute(
        f"UPDATE games SET steps = ?, updated_at = ?, played = {_NEXT_PLAYED}, turn = ?, "
        "seat = ? WHERE id = ?",
        (steps, at, turn, seat, game_id),
    )


def position(conn: sqlite3.Connection, game_id: int) -> tuple[int, int] | None:
    """Where the game stands by its log: (game turn, seat whose turn it is); None for no
    such game.

    Only an end of turn moves the turn track, and an end of turn is never undone, so this
    is the rules' track at the first player's seat on turn 1 moved on by the number of
    ``TurnEnded`` in the log (`TurnTrack.after_turns`): no replay.
    """
    row = conn.execute(
        "SELECT turns, first_seat, (SELECT count(*) FROM game_seats s WHERE s.game_id = g.id), "
        "(SELECT count(*) FROM events e WHERE e.game_id = g.id AND e.type = ?) "
        "FROM games g WHERE id = ?",
        (TurnEnded.TYPE, game_id),
    ).fetchone()
    if row is None or not row[2]:
        return None
    turns, first_seat, players, ended = (int(value) for value in row)
    track = TurnTrack(turn=1, turns=turns, players=players, first_seat=first_seat,
                      seat=first_seat, phase=Phase.PICK_COMBO)  # fmt: skip
    track = track.after_turns(ended)
    return track.turn, track.seat


def unfinished(conn: sqlite3.Connection) -> int | None:
    """The game most recently played that is not finished, if any.

    "Most recently" is by ``played`` (see `touch`), not by the clock: a Raspberry Pi has
    no clock of its own and may start with a wrong time.
    """
    row = conn.execute(
        "SELECT id FROM games WHERE finished_at IS NULL ORDER BY played DESC, id DESC LIMIT 1"
    ).fetchone()
    return None if row is None else int(row[0])


def record(conn: sqlite3.Connection, game_id: int) -> GameRecord:
    """The game's row and seats; raises UnknownGame."""
    found = records(conn, where="id = ?", params=(game_id,))
    if not found:
        raise UnknownGame(N_("there is no game {game} in the saved games"), game=game_id)
    return found[0]


def records(
    conn: sqlite3.Connection, *, where: str = "1", params: Sequence[Any] = ()
) -> list[GameRecord]:
    """Games matching `where` (an SQL condition on ``games``), the latest created first."""
    rows = conn.execute(
        "SELECT id, created_at, coalesce((SELECT e.at FROM events e WHERE e.game_id = g.id "
        "ORDER BY e.step DESC, e.seq DESC LIMIT 1), updated_at), finished_at, board, turns, "
        "expansions, dealing, first_seat, "
        "coalesce((SELECT max(e.step) FROM events e WHERE e.game_id = g.id), 0), "
        f"result, tie_break FROM games g WHERE {where} ORDER BY id DESC",
        tuple(params),
    ).fetchall()
    if not rows:
        return []
    seats: dict[int, list[SeatResult]] = {int(row[0]): [] for row in rows}
    first = {int(row[0]): int(row[8]) for row in rows}
    marks = ", ".join("?" for _ in seats)
    for game_id, seat, name, colour, player_id, coins, rank, winner, tokens in conn.execute(
        "SELECT game_id, seat, name, colour, player_id, final_coins, rank, winner, tie_tokens "
        f"FROM game_seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        tuple(seats),
    ):
        seats[game_id].append(SeatResult(seat, name, colour, player_id,
                                         seat == first[game_id], coins, rank,
                                         bool(winner), tokens))  # fmt: skip
    return [
        GameRecord(
            id=int(row[0]),
            created_at=from_text(row[1]),
            updated_at=from_text(row[2]),
            finished_at=None if row[3] is None else from_text(row[3]),
            board=row[4],
            turns=int(row[5]),
            expansions=tuple(json.loads(row[6])),
            dealing=row[7],
            first_seat=int(row[8]),
            steps=int(row[9]),
            seats=tuple(seats[int(row[0])]),
            result=row[10],
            tie_break=row[11],
        )
        for row in rows
    ]


def derive(history: History) -> tuple[list[TurnIncome], list[ComboPlayed]]:
    """Every turn's income and every combo picked, from the steps in force."""
    income: list[TurnIncome] = []
    combos: list[ComboPlayed] = []
    for index, step in enumerate(history.in_force):
        if index == 0:
            continue  # the game's creation: nothing picked or scored yet
        turn = history.states[index - 1].track.turn
        for event in step:
            if isinstance(event, ComboPicked):
                combos.append(ComboPlayed(event.seat, turn, event.row, event.race,
                                          event.power, 0))  # fmt: skip
            elif isinstance(event, TurnScored):
                income.append(TurnIncome(turn, event.seat, event.coins, event.lines))
    income.sort(key=lambda i: (i.turn, i.seat))
    combos.sort(key=lambda c: (c.turn, c.seat))
    return income, credit(combos, income)


def check_standings(history: History, standings: Standings) -> None:
    """Refuse standings that do not belong to this finished game (StoreError, in words)."""
    state = history.state
    if not state.is_over:
        track = state.track
        raise StoreError(N_(
            "the game is not over yet (turn {turn} of {turns}); a game is "
            "finished after the last player's turn of the final game turn"),
            turn=track.turn, turns=track.turns)
    seats = {p.seat for p in standings.placings}
    if seats != {p.seat for p in state.players} or len(standings.placings) != len(seats):
        raise StoreError(N_("the final standings do not list every player of this game once"))
    for placing in standings.placings:
        player = state.players[placing.seat]
        if placing.coins != player.coins:
            raise StoreError(N_(
                "the final standings give {player} {coins} coins, but the "
                "saved game gives them {saved}"),
                player=player.name, coins=placing.coins, saved=player.coins)


def finish(
    conn: sqlite3.Connection, game_id: int, history: History, standings: Standings, at: str
) -> None:
    """Write the summary of the finished game. Call inside a transaction."""
    check_standings(history, standings)
    income, combos = derive(history)
    result = str(standings.reason)  # the record keeps the English sentence
    tie_break = result if any(p.tokens is not None for p in standings.placings) else None
    updated = conn.execute(
        "UPDATE games SET finished_at = coalesce(finished_at, ?), result = ?, tie_break = ?, "
        "steps = (SELECT coalesce(max(step), 0) FROM events WHERE game_id = ?) WHERE id = ?",
        (at, result, tie_break, game_id, game_id),
    ).rowcount
    if updated != 1:
        raise UnknownGame(N_("there is no game {game} in the saved games"), game=game_id)
    conn.executemany(
        "UPDATE game_seats SET final_coins = ?, rank = ?, winner = ?, tie_tokens = ? "
        "WHERE game_id = ? AND seat = ?",
        [(p.coins, p.rank, int(p.seat in standings.winners), p.tokens, game_id, p.seat)
         for p in standings.placings],
    )  # fmt: skip
    conn.execute("DELETE FROM turn_scores WHERE game_id = ?", (game_id,))
    conn.execute("DELETE FROM game_combos WHERE game_id = ?", (game_id,))
    conn.executemany(
        "INSERT INTO turn_scores (game_id, turn, seat, coins, lines) VALUES (?, ?, ?, ?, ?)",
        [(game_id, i.turn, i.seat, i.coins, json.dumps([list(line) for line in i.lines]))
         for i in income],
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO game_combos (game_id, seat, turn, row, race, power, coins) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, c.seat, c.turn, c.row, c.race, c.power, c.coins) for c in combos],
    )


def summary(conn: sqlite3.Connection, game_id: int) -> GameSummary:
    """The history of a finished game; StoreError when it is not finished."""
    game = record(conn, game_id)
    if not game.finished:
        raise StoreError(N_("game {game} is not finished yet; it has no summary"), game=game_id)
    income = tuple(
        TurnIncome(turn, seat, coins, tuple((str(label), int(value))
                                            for label, value in json.loads(lines)))
        for turn, seat, coins, lines in conn.execute(
            "SELECT turn, seat, coins, lines FROM turn_scores WHERE game_id = ? "
            "ORDER BY turn, seat",
            (game_id,),
        )
    )  # fmt: skip
    # Each combo's coins are credited again from the income's lines, so that a game
    # finished before they were split by race (the saved column then holds the coins
    # scored while it was the latest combo) reads as a new one does.
    combos = tuple(credit(
        (ComboPlayed(seat, turn, row, race, power, 0)
         for seat, turn, row, race, power in conn.execute(
             "SELECT seat, turn, row, race, power FROM game_combos WHERE game_id = ? "
             "ORDER BY turn, seat",
             (game_id,),
         )),
        income,
    ))  # fmt: skip
    return GameSummary(game, income, combos)
