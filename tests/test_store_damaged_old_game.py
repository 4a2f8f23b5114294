"""Damage that passes every check at start, in a finished game: that game is refused in
words, the game in progress and the other games play on, and the message does not promise
that restarting mends it.

Found by the damaged-database drill's probe of random page damage (`make drills`): a few
changed bytes in a finished game's record (a name no longer UTF-8) pass ``quick_check``
and the check at start, which replays the game in progress only.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from factories import created, play_turn
from test_store_history import CATALOG, Clock, play_game_1

from companion.session import Session
from companion.store import Store, StoreError


def test_a_finished_games_damaged_record_is_refused_in_words_and_the_rest_plays_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG, clock=Clock()) as store:
        store.add_profile("Ann", "blue")
        store.add_profile("Bob", "orange")
        finished = play_game_1(store, Clock())
        s = Session(CATALOG, rng=random.Random(3), store=store)
        s.begin(created(3))
        play_turn(s, coins=2)
        playing = s.game_id
    with sqlite3.connect(db) as conn:  # a byte of a name no longer UTF-8
        conn.execute("UPDATE events SET type = CAST(X'636f6dff' AS TEXT) "
                     "WHERE game_id = ? AND step = 2", (finished,))
    conn.close()
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is None  # nothing at start finds it: the file is used as is
        assert store.unfinished_game() == playing
        store.load_history(playing)  # the game in progress resumes
        with pytest.raises(StoreError) as refused:
            store.load_history(finished)
        assert {g.id for g in store.games()} == {finished, playing}  # the list still reads
    message = str(refused.value)
    assert message.startswith("The saved games could not be read (Could not decode to UTF-8")
    assert "A damaged older game that this check does not find stays unreadable; the other " \
           "games can still be played." in message  # fmt: skip
