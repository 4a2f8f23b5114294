"""Exports of a finished game: JSON, CSV, and the play format of BG Stats.

Concept: an export is a pure function of a game's summary (`GameSummary`), so it says
exactly what the history screen says. Three formats:

- ``json``: everything in the summary: date, board, expansions, players in seat order
  with colour, start player, income per game turn, combos picked (with the coins each
  one's race scored, active and in decline, `companion.store.combo_coins`; null when a
  turn's total, typed without lines beside a race in decline, cannot be split by race),
  final coins, rank, winner, and the result and tie-break in words;
- ``csv``: a score sheet for a spreadsheet: one row per player in seat order, with a
  column per game turn (``turn_1``...) holding that turn's income;
- ``bgstats``: the play BG Stats takes when another app pushes it, as the game end's QR
  code holds it (`companion.bgstats`): ``sourceName``, ``sourcePlayId``, ``game`` (name,
  BoardGameGeek id), ``playDate`` (UTC, ``YYYY-MM-DD HH:MM:SS``), ``durationMin`` (when
  plausible), ``board``, ``players`` in seat order with ``name``, ``sourcePlayerId``,
  ``score``, ``rank``, ``winner`` and ``startPlayer``, and ``comments`` (the result and
  the decks).

Times are shown in the local time zone unless another is given; the JSON export also
gives them in UTC (ISO 8601).
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, tzinfo
from typing import Any

from companion import bgstats
from companion.records import GameSummary, minutes

FORMATS = ("json", "csv", "bgstats")

GAME_NAME = bgstats.GAME_NAME
BGG_ID = bgstats.BGG_ID  # Small World on BoardGameGeek
SOURCE_NAME = bgstats.SOURCE_NAME


def _local(summary: GameSummary, tz: tzinfo | None) -> tuple[str, str]:
    start = summary.game.created_at.astimezone(tz)
    end = summary.finished_at.astimezone(tz)
    return start.strftime("%Y-%m-%d %H:%M:%S"), end.strftime("%Y-%m-%d %H:%M:%S")


def game_dict(summary: GameSummary, tz: tzinfo | None = None) -> dict[str, Any]:
    """The full export as a JSON-ready object."""
    game = summary.game
    start, end = _local(summary, tz)
    return {
        "format": "smallworld-companion/game",
        "version": 1,
        "game": game.id,
        "started": game.created_at.astimezone(UTC).isoformat(timespec="seconds"),
        "finished": summary.finished_at.astimezone(UTC).isoformat(timespec="seconds"),
        "started_local": start,
        "finished_local": end,
        "duration_minutes": minutes(summary),
        "board": game.board,
        "turns": game.turns,
        "expansions": list(game.expansions),
        "players": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "colour": seat.colour,
                "start_player": seat.start_player,
                "final_coins": seat.final_coins,
                "rank": seat.rank,
                "winner": seat.winner,
                "tie_tokens": seat.tie_tokens,
                "income": list(summary.income_of(seat.seat)),
                "combos": [
                    {"turn": c.turn, "row": c.row, "race": c.race, "power": c.power,
                     "coins": c.coins if c.split else None}
                    for c in summary.combos_of(seat.seat)
                ],
            }
            for seat in game.seats
        ],
        "winners": [seat.name for seat in game.winners],
        "result": game.result,
        "tie_break": game.tie_break,
        "scoring": [
            {"turn": i.turn, "seat": i.seat, "coins": i.coins,
             "lines": [[label, coins] for label, coins in i.lines]}
            for i in summary.income
        ],
    }


def to_json(summary: GameSummary, tz: tzinfo | None = None) -> str:
    return json.dumps(game_dict(summary, tz), ensure_ascii=False, indent=2) + "\n"


def to_csv(summary: GameSummary, tz: tzinfo | None = None) -> str:
    """A score sheet: one row per player, one income column per game turn."""
    game = summary.game
    start, _ = _local(summary, tz)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    turns = [f"turn_{n}" for n in range(1, game.turns + 1)]
    writer.writerow(["game", "date", "board", "seat", "player", "colour", "start_player",
                     *turns, "final_coins", "rank", "winner", "combos"])  # fmt: skip
    for seat in game.seats:
        combos = "; ".join(f"{c.name} (turn {c.turn})" for c in summary.combos_of(seat.seat))
        writer.writerow([game.id, start, game.board, seat.seat + 1, seat.name, seat.colour,
                         "yes" if seat.start_player else "no", *summary.income_of(seat.seat),
                         seat.final_coins, seat.rank, "yes" if seat.winner else "no",
                         combos])  # fmt: skip
    return out.getvalue()


def bgstats_dict(summary: GameSummary, tz: tzinfo | None = None) -> dict[str, Any]:
    """The play as BG Stats takes it when pushed by another app: the game end's QR code's
    play (`companion.bgstats.play`: the same ``sourcePlayId``, ``playDate`` in UTC as BG
    Stats asks, whatever `tz`), with the result and the decks as its ``comments``."""
    play = bgstats.play(summary)
    game = summary.game
    play["comments"] = "; ".join(
        part for part in (game.result, "expansions: " + ", ".join(game.expansions)) if part
    )
    return play


def to_bgstats(summary: GameSummary, tz: tzinfo | None = None) -> str:
    return json.dumps(bgstats_dict(summary, tz), ensure_ascii=False, indent=2) + "\n"


def export(summary: GameSummary, fmt: str, tz: tzinfo | None = None) -> str:
    """The finished game in format `fmt` (one of FORMATS)."""
    if fmt == "json":
        return to_json(summary, tz)
    if fmt == "csv":
        return to_csv(summary, tz)
    if fmt == "bgstats":
        return to_bgstats(summary, tz)
    raise ValueError(f"unknown export format {fmt!r}; formats: {', '.join(FORMATS)}")
