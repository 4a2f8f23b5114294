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
    from companion.store.store import RecoveryReport, Store

_LAZY = frozenset({"RecoveryReport", "Store"})
"""Names imported only when first used: importing this package (or its light modules:
``errors``, ``lock``, ``summary``) imports neither the rules nor the store itself, so the
app's first frame does not wait for them. The value types the store answers with are the
records port's (`companion.records`)."""


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from companion.store import store

    value = getattr(store, name)
    globals()[name] = value
    return value


__all__ = [
    "DatabaseInUse",
    "GameAlreadyFinished",
    "ProfileError",
    "RecoveryReport",
    "StepConflict",
    "Store",
    "StoreError",
    "StoreOpenError",
    "StoreReadError",
    "StoreWriteError",
    "UnknownGame",
    "UnreadableGame",
]
