"""The saved games: an SQLite file that survives a pulled plug.

Concept (see docs/storage.md): an append-only log of events per game is the truth; a
game's state is the replay of its log. Beside the log: the games, finished-game summaries
(history and stats), player profiles and settings. The file is in WAL mode with
``synchronous=FULL`` on every connection, one intent is one transaction, schema changes
are sqlite-utils migrations, and backups are taken with ``VACUUM INTO``.

This package may import `companion.rules`, never Kivy. Use it through `Store`::

    store = Store.open(default_db_path())
    if store.recovery:                       # a damaged file was set aside
        show(store.recovery.message)
    game_id = store.unfinished_game()        # resume: replay(store.load_log(game_id))
    step_number = store.append_step(game_id, step)   # StoreWriteError: nothing written
"""

from companion.store.errors import (
    GameAlreadyFinished,
    ProfileError,
    StoreError,
    StoreOpenError,
    StoreWriteError,
    UnknownGame,
    UnreadableGame,
)
from companion.store.games import ComboPlayed, GameRecord, GameSummary, SeatResult, TurnIncome
from companion.store.profiles import Profile
from companion.store.stats import ComboTally, PlayerStats
from companion.store.store import RecoveryReport, Store

__all__ = [
    "ComboPlayed",
    "ComboTally",
    "GameAlreadyFinished",
    "GameRecord",
    "GameSummary",
    "PlayerStats",
    "Profile",
    "ProfileError",
    "RecoveryReport",
    "SeatResult",
    "Store",
    "StoreError",
    "StoreOpenError",
    "StoreWriteError",
    "TurnIncome",
    "UnknownGame",
    "UnreadableGame",
]
