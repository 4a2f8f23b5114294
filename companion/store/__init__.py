"""The saved games: an SQLite file that survives a pulled plug.

Concept (see docs/storage.md): an append-only log of events per game is the truth; a
game's state is the replay of its log. Beside the log: the games, finished-game summaries
(history and stats), player profiles and settings. The file is in WAL mode with
``synchronous=FULL`` on every connection, one intent is one transaction, schema changes
are sqlite-utils migrations, and backups are taken with ``VACUUM INTO``.

Every error (`StoreError` and its kinds) and the recovery report carry their message as a
sentence to word in the table's language (`said`; `companion.store.errors`); `str()` and
`message` are its English. This package may import `companion.rules`, never Kivy. Use it
through `Store`::

    store = Store.open(default_db_path())    # DatabaseInUse: another app holds the file
    if store.recovery:                       # a damaged file set aside, or loss found
        show(say(store.recovery.said))       # .message: the same in English
    game_id = store.unfinished_game()        # resume: replay(store.load_log(game_id))
    step_number = store.append_step(game_id, step, number=n)  # StoreWriteError (and
                                             # StepConflict): nothing written
"""

from typing import TYPE_CHECKING, Any

from companion.store.errors import (
    DatabaseInUse,
    GameAlreadyFinished,
    ProfileError,
    StepConflict,
    StoreError,
    StoreOpenError,
    StoreReadError,
    StoreWriteError,
    UnknownGame,
    UnreadableGame,
)

if TYPE_CHECKING:
    from companion.records import (
        ComboPlayed,
        ComboTally,
        GameRecord,
        GameSummary,
        PlayerStats,
        Profile,
        SeatResult,
        TurnIncome,
    )
    from companion.store.store import RecoveryReport, Store

_LAZY = {
    "RecoveryReport": "companion.store.store",
    "Store": "companion.store.store",
    **dict.fromkeys(("ComboPlayed", "ComboTally", "GameRecord", "GameSummary", "PlayerStats",
                     "Profile", "SeatResult", "TurnIncome"), "companion.records"),
}
"""Names imported only when first used: importing this package (or its light modules:
``errors``, ``lock``, ``summary``) imports neither the rules nor the store itself nor the
value types it answers with (the records port's), so the app's first frame does not wait
for them."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ComboPlayed",
    "ComboTally",
    "DatabaseInUse",
    "GameAlreadyFinished",
    "GameRecord",
    "GameSummary",
    "PlayerStats",
    "Profile",
    "ProfileError",
    "RecoveryReport",
    "SeatResult",
    "StepConflict",
    "Store",
    "StoreError",
    "StoreOpenError",
    "StoreReadError",
    "StoreWriteError",
    "TurnIncome",
    "UnknownGame",
    "UnreadableGame",
]
