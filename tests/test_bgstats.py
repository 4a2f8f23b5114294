"""The BG Stats "create play" link of a finished game (`companion.bgstats`).

The link is the one BG Stats documents for a play pushed by another app:
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``. The tests read it
back (URL, then JSON) and check the field names and their types against that document,
the standings (a tie for the most coins broken by race tokens on the board) and that the
same game always gives the same ``sourcePlayId``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import bgstats
from companion.records import GameRecord, GameSummary, SeatResult

T0 = datetime(2025, 3, 1, 19, 0, 5, tzinfo=UTC)

# What BG Stats documents for the pushed play, with the JSON type of each field.
PLAY_FIELDS = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
               "board": str, "game": dict, "players": list}
GAME_FIELDS = {"name": str, "bggId": int, "sourceGameId": str, "highestWins": bool,
               "noPoints": bool}
PLAYER_FIELDS = {"name": str, "sourcePlayerId": str, "score": int, "rank": int,
                 "winner": bool, "startPlayer": bool}
DOCUMENTED = {*PLAY_FIELDS, "comments", "location"}
DOCUMENTED_PLAYER = {*PLAYER_FIELDS, "role"}


def summary(*, game_id: int = 7, minutes: int = 90, created: datetime = T0) -> GameSummary:
    """Ann and Bob tie on 69 coins; Bob has more race tokens on the board and wins. Cy
    (no profile) starts and comes last."""
    seats = (
        SeatResult(0, "Ann", "blue", 4, False, 69, 2, False, 8),
        SeatResult(1, "Bob", "orange", 9, False, 69, 1, True, 11),
        SeatResult(2, "Cy", "green", None, True, 50, 3, False, None),
    )
    game = GameRecord(id=game_id, created_at=created, updated_at=created,
                      finished_at=created + timedelta(minutes=minutes), board="3p", turns=10,
                      expansions=("base",), dealing="standard", first_seat=2, steps=120,
                      seats=seats, result="Ann and Bob tie on 69 coins; Bob wins",
                      tie_break="Bob wins with 11 race tokens on the board (Ann: 8)")
    return GameSummary(game, (), ())


def read_back(url: str) -> Any:
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https", "app.bgstatsapp.com", "/createPlay.html")
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def test_the_link_reads_back_to_the_documented_fields_and_types() -> None:
    url = bgstats.play_url(summary())
    assert url.isascii() and " " not in url
    data = read_back(url)
    assert set(data) == set(PLAY_FIELDS) and set(data) <= DOCUMENTED
    for name, kind in PLAY_FIELDS.items():
        assert type(data[name]) is kind, name
    assert set(data["game"]) == set(GAME_FIELDS)
    for name, kind in GAME_FIELDS.items():
        assert type(data["game"][name]) is kind, name
    for player in data["players"]:
        assert set(player) == set(PLAYER_FIELDS) and set(player) <= DOCUMENTED_PLAYER
        for name, kind in PLAYER_FIELDS.items():
            assert type(player[name]) is kind, name


def test_the_play_says_what_the_records_say() -> None:
    data = read_back(bgstats.play_url(summary()))
    assert data == {
        "sourceName": "Table Companion for Small World",
        "sourcePlayId": "7-20250301T190005Z",
        "playDate": "2025-03-01 19:00:05",
        "durationMin": 90,
        "board": "3-player board",
        "game": {"name": "Small World", "bggId": 40692, "sourceGameId": "smallworld",
                 "highestWins": True, "noPoints": False},
        "players": [  # in seat order
            {"name": "Ann", "sourcePlayerId": "profile-4", "score": 69, "rank": 2,
             "winner": False, "startPlayer": False},
            {"name": "Bob", "sourcePlayerId": "profile-9", "score": 69, "rank": 1,
             "winner": True, "startPlayer": False},
            {"name": "Cy", "sourcePlayerId": "name-Cy", "score": 50, "rank": 3,
             "winner": False, "startPlayer": True},
        ],
    }


def test_the_winner_is_the_tie_breaks_not_the_first_seats() -> None:
    players = read_back(bgstats.play_url(summary()))["players"]
    tied = [p for p in players if p["score"] == max(q["score"] for q in players)]
    assert [p["name"] for p in tied] == ["Ann", "Bob"]
    assert [p["name"] for p in players if p["winner"]] == ["Bob"]
    assert sorted((p["rank"], p["name"]) for p in players) == [(1, "Bob"), (2, "Ann"),
                                                               (3, "Cy")]


def test_a_shared_win_marks_every_winner() -> None:
    game = summary().game
    seats = (replace(game.seats[0], rank=1, winner=True), *game.seats[1:])
    shared = GameSummary(replace(game, seats=seats), (), ())
    players = read_back(bgstats.play_url(shared))["players"]
    assert [(p["name"], p["rank"], p["winner"]) for p in players] == [
        ("Ann", 1, True), ("Bob", 1, True), ("Cy", 3, False)]


def test_the_same_game_gives_the_same_play_id_and_link() -> None:
    first, again = summary(), summary()
    assert bgstats.play_url(first) == bgstats.play_url(again)
    assert bgstats.source_play_id(first) == bgstats.source_play_id(again)
    # the same moment told in another time zone is the same game
    local = summary(created=T0.astimezone(timezone(timedelta(hours=2))))
    assert bgstats.source_play_id(local) == bgstats.source_play_id(first)
    assert read_back(bgstats.play_url(local))["playDate"] == "2025-03-01 19:00:05"


def test_another_game_gives_another_play_id() -> None:
    ids = {bgstats.source_play_id(summary()),
           bgstats.source_play_id(summary(game_id=8)),
           # a new file numbers its games from 1 again: the set-up moment tells them apart
           bgstats.source_play_id(summary(created=T0 + timedelta(days=3)))}
    assert len(ids) == 3


@pytest.mark.parametrize("minutes", [0, 6 * 60 + 1, 20 * 60, -30])
def test_no_duration_when_set_up_to_end_is_not_a_length_of_play(minutes: int) -> None:
    data = read_back(bgstats.play_url(summary(minutes=minutes)))
    assert "durationMin" not in data


def test_names_with_any_characters_survive_the_link() -> None:
    game = summary().game
    odd = "Zoë & \"Bo\" +1 /?#%"
    seats = (replace(game.seats[0], name=odd, player_id=None), *game.seats[1:])
    url = bgstats.play_url(GameSummary(replace(game, seats=seats), (), ()))
    assert url.isascii()
    player = read_back(url)["players"][0]
    assert (player["name"], player["sourcePlayerId"]) == (odd, f"name-{odd}")


def test_a_game_without_standings_is_no_play() -> None:
    game = summary().game
    with pytest.raises(bgstats.NotAPlay):
        bgstats.play_url(GameSummary(replace(game, finished_at=None), (), ()))
    seats = (replace(game.seats[0], rank=None, final_coins=None), *game.seats[1:])
    with pytest.raises(bgstats.NotAPlay):
        bgstats.play_url(GameSummary(replace(game, seats=seats), (), ()))


def test_a_five_player_link_fits_a_code_the_game_end_draws_three_pixels_a_module() -> None:
    """Five long names: the link fits a QR code of at most version 25 (117 modules a side)
    at error correction L, which the game end's 400 pixels of height draw with modules of
    3 screen pixels and a quiet zone of 4 modules ((117 + 8) * 3 = 375)."""
    segno = pytest.importorskip("segno")
    game = summary().game
    seats = tuple(SeatResult(n, f"Player number {n + 1}", "red", 1000 + n, n == 0, 120, n + 1,
                             n == 0) for n in range(5))  # fmt: skip
    url = bgstats.play_url(GameSummary(replace(game, seats=seats, board="5p"), (), ()))
    code = segno.make(url, error="l", boost_error=False)
    assert code.version <= 25, (len(url), code.version)
