"""Setting up a game: 2 to 5 players, their colours and seats, the first player, the decks,
and who deals the combos.

The board and the number of turns follow the player count (`maps.board_for_players`).
Nothing is checked here that the rules check: `Session.new_game` refuses two players with
one name, say, and its reason is shown as it is.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, NumericProperty, StringProperty

from companion.rules.events import Seat
from companion.rules.game import MAX_PLAYERS, MIN_PLAYERS
from companion.rules.maps import board_for_players
from companion.ui import palette
from companion.ui.presenters.base import Presenter

DEFAULT_NAMES = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5")


class NewGamePresenter(Presenter):
    seats = ListProperty([])
    """Dicts {index, name, colour, rgba, ink, colour_name, first} in seat order."""
    first = NumericProperty(-1)
    """The chosen first player's index, or -1 to draw at random."""
    first_text = StringProperty("")
    board_text = StringProperty("")
    dealing = StringProperty("app")
    expansions = ListProperty([])
    """Dicts {id, name, on}."""
    dealing_options = ListProperty([])
    """The two ways of dealing, as ActionColumn actions (the chosen one is primary)."""
    expansion_options = ListProperty([])
    """One toggle per expansion set, as ActionColumn actions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names = list(DEFAULT_NAMES[:3])
        self._colours = list(palette.COLOUR_NAMES[:3])
        self._chosen = {"base"}
        self.reset()

    def reset(self, names: list[str] | None = None) -> None:
        """Start the form again (with the last game's names when given)."""
        if names:
            self._names = list(names)[:MAX_PLAYERS]
            self._colours = list(palette.COLOUR_NAMES[:len(self._names)])
        self.first = -1
        self._build()

    def _build(self) -> None:
        seats = []
        for i, (name, colour) in enumerate(zip(self._names, self._colours, strict=True)):
            rgba = palette.rgba(colour)
            seats.append({"index": i, "name": name, "colour": colour, "rgba": rgba,
                          "ink": palette.ink_on(rgba), "colour_name": palette.shown_name(colour),
                          "first": i == self.first, "can_up": i > 0,
                          "can_down": i < len(self._names) - 1})
        self.seats = seats
        count = len(self._names)
        board = board_for_players(count)
        self.board_text = (f"{count} players: the {count}-player board, {board.turns} turns. "
                           "Seats go clockwise in this order.")
        self.first_text = ("First player: drawn at random" if self.first < 0
                           else f"First player: {self._names[int(self.first)]}")
        catalog = self.session.catalog
        self.expansions = [{"id": ident, "name": name, "on": ident in self._chosen}
                           for ident, name in catalog.expansions]
        self.dealing_options = [
            {"key": "dealing:app", "kind": "primary" if self.dealing == "app" else "secondary",
             "text": "The app deals (it shuffles the decks)"},
            {"key": "dealing:table", "kind": "primary" if self.dealing == "table" else "secondary",
             "text": "We deal the cardboard and tell the app"},
        ]
        options = []
        for ident, name in catalog.expansions:
            on = ident in self._chosen
            label = f"In the decks: {name}" if on else f"Left out: {name}"
            if ident == "base":
                label = f"In the decks: {name} (always)"
            options.append({"key": f"expansion:{ident}", "text": label,
                            "kind": "primary" if on else "secondary"})
        self.expansion_options = options

    # -- intents -------------------------------------------------------------------------
    def act(self, key: str) -> None:
        kind, _, arg = key.partition(":")
        if kind == "add":
            self.add_player()
        elif kind == "start":
            self.start()
        elif kind == "back":
            self.go("home")
        elif kind == "dealing":
            self.dealing = arg
            self._build()
        elif kind == "expansion":
            self.toggle_expansion(arg)
        elif kind == "random_first":
            self.first = -1
            self._build()

    def add_player(self) -> None:
        if len(self._names) >= MAX_PLAYERS:
            self.ctx.notices.tell(f"A game has at most {MAX_PLAYERS} players.")
            return
        used = set(self._names)
        name = next((n for n in DEFAULT_NAMES if n not in used), f"Player {len(self._names) + 1}")
        self._names.append(name)
        self._colours.append(palette.next_free(self._colours[-1], set(self._colours)))
        self._build()

    def remove_player(self, index: int) -> None:
        if len(self._names) <= MIN_PLAYERS:
            self.ctx.notices.tell(f"A game needs at least {MIN_PLAYERS} players.")
            return
        del self._names[index]
        del self._colours[index]
        if self.first == index:
            self.first = -1
        elif self.first > index:
            self.first -= 1
        self._build()

    def move(self, index: int, delta: int) -> None:
        other = index + delta
        if not 0 <= other < len(self._names):
            return
        for items in (self._names, self._colours):
            items[index], items[other] = items[other], items[index]
        if self.first == index:
            self.first = other
        elif self.first == other:
            self.first = index
        self._build()

    def next_colour(self, index: int) -> None:
        taken = {c for i, c in enumerate(self._colours) if i != index}
        self._colours[index] = palette.next_free(self._colours[index], taken)
        self._build()

    def set_name(self, index: int, name: str) -> None:
        if 0 <= index < len(self._names) and self._names[index] != name:
            self._names[index] = name
            self.first_text = ("First player: drawn at random" if self.first < 0
                               else f"First player: {self._names[int(self.first)]}")

    def choose_first(self, index: int) -> None:
        self.first = -1 if self.first == index else index
        self._build()

    def toggle_expansion(self, ident: str) -> None:
        if ident == "base":
            self.ctx.notices.tell("The base game's races and powers are always in the decks.")
            return
        if ident in self._chosen:
            self._chosen.discard(ident)
        else:
            self._chosen.add(ident)
            self.ctx.notices.tell(
                "Races and powers of this set go into the decks. The app scores the base "
                "game's races and powers from the map; for the others, count the coins by "
                "hand on the scoring screen.", "Expansion added")
        self._build()

    def start(self) -> None:
        seats = [Seat(name.strip(), colour) for name, colour in zip(self._names, self._colours,
                                                                     strict=True)]
        expansions = [ident for ident, _ in self.session.catalog.expansions
                      if ident in self._chosen]
        first = None if self.first < 0 else int(self.first)
        dealing = self.dealing
        started = self.attempt(lambda: self.session.new_game(
            seats, first_seat=first, expansions=expansions, dealing=dealing),
            "The game cannot start")
        if started is not None:
            self.go("table")
