"""A finished game as BG Stats' "create play" link, the one its QR code on the game end holds.

Concept: BG Stats (the play-logging app) imports a play pushed by another app through a
link, ``https://app.bgstatsapp.com/createPlay.html?data=<data>``, where ``<data>`` is the
play as a URL-encoded JSON object. Opening the link on a phone with BG Stats installed
shows its import dialog; the player matches the game and the players once, and BG Stats
remembers the matches by our ids (``sourceGameId``, ``sourcePlayerId``) for the next
import. `play` builds that object from what the records keep of a finished game
(`GameSummary`), with only the fields BG Stats documents for it:

- ``sourceName``: this app's name; ``sourcePlayId``: the game's own id, the same at
  every scan of the same game (built from the game's number and the moment it was set up,
  so a new saved-games file that numbers its games from 1 again does not reuse one), so
  BG Stats can tell a play it already has;
- ``playDate``: when the game was set up, in UTC, ``YYYY-MM-DD HH:MM:SS``;
- ``durationMin``: minutes from set-up to the end, only when that is a plausible length
  of play (`PLAUSIBLE_MINUTES`): a game left set up overnight and finished the next day,
  or a clock set back, says nothing about how long it was played, so then there is none;
- ``board``: the board played on, as words (BG Stats' "board / variant"), in the
  language the caller gives them (`play`'s `board`: the screens pass the table's);
- ``game``: ``name`` "Small World", ``bggId`` (BoardGameGeek's id of Small World),
  ``sourceGameId``, ``highestWins`` true, ``noPoints`` false;
- ``players``, in seat order (the order they sat round the table, seat 1 first): ``name``,
  ``sourcePlayerId`` (the player profile when the seat was linked to one, else the name),
  ``score`` (final coins), ``rank``, ``winner`` and ``startPlayer``. Rank and winner are
  the standings the game saved, so a tie for the most coins is broken as the rules break
  it (race tokens on the board), never by the order of the seats.

Invariants:
- pure and deterministic: no Kivy, no clock, no store; the same summary gives the same
  link, character for character;
- the JSON is compact and its keys sorted, and the link is plain ASCII: every character
  of the JSON is percent-encoded except the unreserved ones and ``:`` and ``,``, which a
  query may hold as they are (RFC 3986) and every URL decoder gives back unchanged. The
  QR code of the link is big (BG Stats' field names are long and every quote costs three
  characters), so each character left out makes its modules larger on the screen;
- an unfinished game, or one without saved standings, has no link (`NotAPlay`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC
from typing import Any
from urllib.parse import quote

from companion.records import GameSummary, SeatResult, minutes

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Table Companion for Small World"
GAME_NAME = "Small World"
BGG_ID = 40692  # Small World on BoardGameGeek
SOURCE_GAME_ID = "smallworld"
PLAUSIBLE_MINUTES = range(1, 6 * 60 + 1)
"""A length of play that set-up to end can stand for; anything else is left out."""

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class NotAPlay(ValueError):
    """The game cannot be logged as a play: it is not finished or has no standings."""


def source_play_id(summary: GameSummary) -> str:
    """The game's id for BG Stats: its number and the UTC moment it was set up."""
    created = summary.game.created_at.astimezone(UTC)
    return f"{summary.game.id}-{created:%Y%m%dT%H%M%SZ}"


def source_player_id(seat: SeatResult) -> str:
    """The player profile when the seat was linked to one, else the name played under."""
    return f"profile-{seat.player_id}" if seat.player_id is not None else f"name-{seat.name}"


def board_words(board: str) -> str:
    """"2p" is "2-player board"; a custom board keeps its name."""
    found = re.fullmatch(r"(\d)p", board)
    return f"{found.group(1)}-player board" if found else f"{board} board"


def duration(summary: GameSummary) -> int | None:
    """Minutes from set-up to the end, or None when that cannot be the length of play."""
    length = minutes(summary)
    return length if length in PLAUSIBLE_MINUTES else None


def play(summary: GameSummary, board: Callable[[str], str] = board_words) -> dict[str, Any]:
    """The play as BG Stats takes it (NotAPlay for a game without a result); `board`
    words the board (English by default)."""
    game = summary.game
    if game.finished_at is None:
        raise NotAPlay("the game is not finished")
    if any(seat.final_coins is None or seat.rank is None for seat in game.seats):
        raise NotAPlay("the game's standings are not saved")
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": source_play_id(summary),
        "playDate": game.created_at.astimezone(UTC).strftime(DATE_FORMAT),
        "board": board(game.board),
        "game": {
            "name": GAME_NAME,
            "bggId": BGG_ID,
            "sourceGameId": SOURCE_GAME_ID,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": seat.name,
                "sourcePlayerId": source_player_id(seat),
                "score": seat.final_coins,
                "rank": seat.rank,
                "winner": seat.winner,
                "startPlayer": seat.start_player,
            }
            for seat in sorted(game.seats, key=lambda s: s.seat)
        ],
    }
    length = duration(summary)
    if length is not None:
        data["durationMin"] = length
    return data


def encode(data: dict[str, Any]) -> str:
    """The link that opens BG Stats' import of the play `data`."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return f"{CREATE_PLAY}?data={quote(text, safe=':,')}"


def play_url(summary: GameSummary, board: Callable[[str], str] = board_words) -> str:
    """The finished game as BG Stats' create-play link (NotAPlay when it is not one);
    `board` words the board, as for `play`."""
    return encode(play(summary, board))


__all__ = ["BGG_ID", "CREATE_PLAY", "GAME_NAME", "SOURCE_NAME", "NotAPlay", "board_words",
           "duration", "encode", "play", "play_url", "source_play_id", "source_player_id"]
