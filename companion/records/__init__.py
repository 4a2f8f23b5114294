"""The saved records as the screens see them: what they may ask, and in what terms.

Concept: the screens keep the books of past games, players, stats, backups and settings
through one port, `Records`, and never through the store itself. `companion.store.Store`
implements it (the session hands it over as `Session.records`); a screen that gets None
has no saved games (the file could not be opened) and says so.

Here are the port, the value types its answers are made of (`Profile`, `GameRecord` with
its `SeatResult`\\ s, `GameSummary` with its `TurnIncome` and `ComboPlayed`, `PlayerStats`
and `ComboTally`) and the error every refusal is (`RecordsError`: the store's `StoreError`
and all its kinds are ones).

Invariants:
- a `RecordsError` carries a plain message for the screen (`str(error)`), and the records
  are as they were before the call that raised it: a refused write wrote nothing;
- the value types are frozen: an answer is a copy, never a live view of the file;
- this package imports neither the rules nor the store nor Kivy (the home screen's first
  frame imports it): the rules' types appear only in annotations, and the value types
  (`companion.records.values`) are loaded when one is first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from datetime import tzinfo
    from pathlib import Path

    from companion.records.values import (
        ComboPlayed,
        ComboTally,
        GameRecord,
        GameSummary,
        PlayerStats,
        Profile,
        SeatResult,
        TurnIncome,
        minutes,
    )
    from companion.rules.history import History

_VALUES = frozenset({"ComboPlayed", "ComboTally", "GameRecord", "GameSummary", "PlayerStats",
                     "Profile", "SeatResult", "TurnIncome", "minutes"})
"""The names of `companion.records.values`, imported when first used: the home screen's
first frame needs only `RecordsError` (each dataclass costs about 2 ms to make here)."""


def __getattr__(name: str) -> Any:
    if name not in _VALUES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from companion.records import values

    found = getattr(values, name)
    globals()[name] = found
    return found


class RecordsError(Exception):
    """The saved records refused or failed; `str(error)` is the plain message."""


class Records(Protocol):
    """What the screens may ask of the saved records. Every method may raise
    `RecordsError`; a write that raises it changed nothing."""

    @property
    def path(self) -> Path:
        """The saved-games file."""

    @property
    def backups_dir(self) -> Path:
        """The folder of its backups."""

    # players
    def profiles(self) -> list[Profile]: ...
    def add_profile(self, name: str, colour: str, pin: str | None = None) -> Profile: ...
    def update_profile(self, profile_id: int, *, name: str | None = None,
                       colour: str | None = None) -> Profile: ...
    def remove_profile(self, profile_id: int) -> None: ...
    def set_pin(self, profile_id: int, pin: str | None) -> None: ...
    def check_pin(self, profile_id: int, pin: str) -> bool: ...

    # games
    def game(self, game_id: int) -> GameRecord: ...
    def games(self, *, finished: bool | None = None) -> list[GameRecord]: ...
    def game_summary(self, game_id: int) -> GameSummary: ...
    def load_history(self, game_id: int) -> History: ...
    def export(self, game_id: int, fmt: str, tz: tzinfo | None = None) -> str: ...

    # stats
    def all_player_stats(self) -> list[PlayerStats]: ...
    def combo_stats(self) -> list[ComboTally]: ...

    # backups and settings
    def backup(self) -> Path | None: ...
    def backups(self) -> list[Path]: ...
    def setting(self, key: str, default: Any = None) -> Any: ...
    def set_setting(self, key: str, value: Any) -> None: ...

    def close(self) -> None:
        """Close the file (the table is being switched off)."""


__all__ = ["ComboPlayed", "ComboTally", "GameRecord", "GameSummary", "PlayerStats",
           "Profile", "Records", "RecordsError", "SeatResult", "TurnIncome", "minutes"]
