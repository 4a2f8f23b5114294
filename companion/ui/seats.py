"""Where the players sit around the screen, as the app keeps it while it runs.

`TableSeats` holds ``display.seating`` (`companion.seating.Seating`) and the sides of the
game's seats (`sides`), and keeps the sides with the saved game: a setting of the saved
records per game (`companion.seating.sides_key`), so a resumed game faces its players as
before. The game's own record is not changed for it (its schema stays as it is), and the
sides are not part of the game's steps: undo and redo never move a player.

The new-game screen chooses the sides of the next game (`chosen`); the app hands them to
the game when it first publishes it (`join`), and the table flips a seat during the game
(`flip`). The app turns the window from `seating` and `sides` (`TableApp`), and only the
app does. No rules, no store, no window here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.event import EventDispatcher
from kivy.properties import ListProperty, OptionProperty

from companion.records import RecordsError
from companion.seating import (
    SEATINGS,
    Seating,
    Side,
    flipped,
    from_setting,
    padded,
    sides_key,
    to_setting,
)

if TYPE_CHECKING:
    from companion.records import Records


class TableSeats(EventDispatcher):  # type: ignore[misc]
    """The seating (``display.seating``) and the sides of the game's seats."""

    seating = OptionProperty(Seating.ONE_SIDE.value, options=list(SEATINGS))
    """``"one side"`` or ``"around"``; the app turns the screen only for ``"around"``."""
    sides = ListProperty([])
    """The game's seats' sides (`Side`), in seat order."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chosen: tuple[Side, ...] = ()
        """The sides the new-game screen chose for the game it starts (taken by `join`)."""
        self.game: object = None
        """The saved game the sides are kept for (its id; None: not saved)."""

    @property
    def around(self) -> bool:
        return bool(self.seating == Seating.AROUND.value)

    def use(self, seating: str) -> None:
        """The setting changed (start-up, or the settings screen: at once)."""
        self.seating = seating if seating in SEATINGS else Seating.ONE_SIDE.value

    def side(self, seat: int) -> Side:
        sides = self.sides
        return sides[seat] if 0 <= seat < len(sides) else Side.NEAR

    def join(self, records: Records | None, game_id: int | None, seats: int) -> None:
        """A game is played from now on (started, resumed or none): its saved sides, else
        those chosen for it on the new-game screen, else near for every seat."""
        self.game = game_id
        saved: tuple[Side, ...] = ()
        if records is not None and game_id is not None:
            try:
                saved = from_setting(records.setting(sides_key(game_id)))
            except RecordsError:
                saved = ()
        chosen, self.chosen = self.chosen, ()
        sides = padded(saved or chosen, seats)
        self.sides = list(sides)
        if not saved and chosen and seats:
            self._keep(records, game_id)

    def flip(self, seat: int, records: Records | None) -> str | None:
        """`seat` moves to the other side (the table); the reason it was not saved, if not."""
        self.sides = list(flipped(self.sides, seat, len(self.sides)))
        return self._keep(records, self.game if isinstance(self.game, int) else None)

    def _keep(self, records: Records | None, game_id: int | None) -> str | None:
        if records is None or game_id is None:
            return None
        try:
            records.set_setting(sides_key(game_id), to_setting(self.sides))
        except RecordsError as failed:
            from companion.ui.wording import say  # the rules' words: not at import

            return say(failed)
        return None
