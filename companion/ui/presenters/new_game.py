"""Setting up a game: 2 to 5 players, their colours and seats, the first player, the decks,
and who deals the combos.

Players come from the saved profiles (name and colour) or are typed on the letters pad;
a typed name is saved as a profile at once, so it is offered next time and its games
count in the stats (the store links a seat to the profile of the same name when the game
is created). The default "Player 1"... names are never saved.

The board and the number of turns follow the player count (`maps.board_for_players`).
Nothing is checked here that the rules check: `Session.new_game` refuses two players with
one name, say, and its reason is shown as it is.
"""

from __future__ import annotations

import re
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.rules.events import Seat
from companion.rules.game import MAX_PLAYERS, MIN_PLAYERS
from companion.rules.maps import board_for_players
from companion.store.errors import StoreError
from companion.store.profiles import Profile
from companion.ui import palette
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.keypads import NameRequest, ask_name
from companion.ui.presenters.teams import board_text as team_board_text
from companion.ui.presenters.teams import team_option

DEFAULT_NAMES = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5")
_DEFAULT_NAME = re.compile(r"Player \d+")


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
    necromancer = BooleanProperty(False)
    """Play Necromancer Island (3 to 6 at the table, on the board for one fewer)."""
    necromancer_options = ListProperty([])
    """The Necromancer Island toggle, as an ActionColumn action."""
    teams = BooleanProperty(False)
    """Six players in three teams of two, with the Relics and Places."""
    teams_options = ListProperty([])
    """The team-play toggle, as an ActionColumn action."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names = list(DEFAULT_NAMES[:3])
        self._colours = list(palette.COLOUR_NAMES[:3])
        self._chosen = {"base"}
        self.reset()

    def reset(self, names: list[str] | None = None) -> None:
        """Start the form again (with the last game's names when given).

        A name with a saved profile gets the profile's colour when no one else has it.
        """
        if names:
            self._names = list(names)[:MAX_PLAYERS]
            by_name = {p.name.casefold(): p.colour for p in self.profiles()}
            self._colours = []
            for name in self._names:
                liked = by_name.get(name.casefold())
                if liked is None or liked in self._colours:
                    liked = palette.next_free(self._colours[-1] if self._colours else "",
                                              set(self._colours))
                self._colours.append(liked)
        self.first = -1
        self._build()

    def profiles(self) -> list[Profile]:
        """The saved player profiles (none when there is no store or it cannot be read)."""
        store = self.session.store
        if store is None:
            return []
        try:
            return store.profiles()
        except StoreError:
            return []

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
        self.board_text = self._board_text(count)
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
        self.teams_options = [team_option(self.teams)]
        self.necromancer_options = [{
            "key": "necromancer", "kind": "primary" if self.necromancer else "secondary",
            "text": ("Necromancer Island: on (the seat before the first player plays him)"
                     if self.necromancer else "Necromancer Island: off")}]

    def _board_text(self, count: int) -> str:
        if self.teams:
            return team_board_text(count)
        if not self.necromancer:
            board = board_for_players(count)
            return (f"{count} players: the {count}-player board, {board.turns} turns. "
                    "Seats go clockwise in this order.")
        if not 3 <= count <= MAX_PLAYERS + 1:
            return f"Necromancer Island is for 3 to {MAX_PLAYERS + 1} players, not {count}."
        board = board_for_players(count - 1)
        return (f"{count} players with the Necromancer: the {count - 1}-player board, "
                f"{board.turns} turns. Seats go clockwise in this order.")

    def _most(self) -> int:
        """The most seats: one more with the Necromancer (he plays on a smaller board)."""
        return MAX_PLAYERS + 1 if self.necromancer or self.teams else MAX_PLAYERS

    def toggle_teams(self) -> None:
        """Team play on or off (six players; never with the Necromancer)."""
        if not self.teams and self.necromancer:
            self.ctx.notices.tell("A team game has no Necromancer: switch him off first.")
            return
        if self.teams and len(self._names) > MAX_PLAYERS:
            self.ctx.notices.tell(f"Without teams a game has at most {MAX_PLAYERS} players: "
                                  "take one out first.")
            return
        self.teams = not self.teams
        self._build()

    def toggle_necromancer(self) -> None:
        if self.necromancer and len(self._names) > MAX_PLAYERS:
            self.ctx.notices.tell(f"Without the Necromancer a game has at most {MAX_PLAYERS} "
                                  "players: take one out first.")
            return
        self.necromancer = not self.necromancer
        self._build()

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
        elif kind == "necromancer":
            self.toggle_necromancer()
        elif kind == "teams":
            self.toggle_teams()
        elif kind == "random_first":
            self.first = -1
            self._build()

    def add_player(self) -> None:
        """Ask who joins: a saved player, or a new name typed on the letters pad."""
        if len(self._names) >= self._most():
            self.ctx.notices.tell(f"A game has at most {self._most()} players.")
            return
        self.choose_player(len(self._names))

    def add_default_player(self) -> None:
        """Add a seat called "Player n" (no profile)."""
        if len(self._names) >= self._most():
            return
        used = set(self._names)
        name = next((n for n in DEFAULT_NAMES if n not in used), f"Player {len(self._names) + 1}")
        self._seat(len(self._names), name, None)

    def choose_player(self, index: int) -> None:
        """Who sits in seat `index` (a new seat when it is one past the last)?"""
        seated = {n.casefold() for i, n in enumerate(self._names) if i != index}
        free = [p for p in self.profiles() if p.name.casefold() not in seated]
        if not free:
            self._type_name(index)
            return
        choices = [(f"profile:{p.id}", f"{p.name} ({palette.shown_name(p.colour)})")
                   for p in free]
        choices.append(("type", "Someone new: type the name"))
        where = ("Who joins the game?" if index >= len(self._names)
                 else f"Who sits in seat {index + 1}?")
        self.ctx.notices.choose(Choice(where, choices,
                                       lambda key: self._player_chosen(index, key, free)))

    def _player_chosen(self, index: int, key: str, free: list[Profile]) -> None:
        if key == "type":
            self._type_name(index)
            return
        wanted = int(key.partition(":")[2])
        profile = next((p for p in free if p.id == wanted), None)
        if profile is not None:
            self._seat(index, profile.name, profile.colour)

    def _type_name(self, index: int) -> None:
        current = self._names[index] if index < len(self._names) else ""
        initial = "" if _DEFAULT_NAME.fullmatch(current) else current
        ask_name(self.ctx, NameRequest(
            title="The player's name", initial=initial,
            text="Saved as a player for next time (Settings > Players changes or removes it).",
            on_done=lambda name: self._name_typed(index, name)))

    def _name_typed(self, index: int, name: str) -> None:
        """Seat a typed name; a new one is saved as a profile in the seat's colour."""
        known = {p.name.casefold(): p for p in self.profiles()}
        profile = known.get(name.casefold())
        if profile is not None:
            self._seat(index, profile.name, profile.colour)
            return
        colour = self._colour_for(index, None)
        store = self.session.store
        if store is not None and not _DEFAULT_NAME.fullmatch(name):
            self.attempt(lambda: store.add_profile(name, colour), "Not saved as a player")
        self._seat(index, name, colour)

    def _colour_for(self, index: int, liked: str | None) -> str:
        taken = {c for i, c in enumerate(self._colours) if i != index}
        if liked is not None and liked not in taken:
            return liked
        if index < len(self._colours):
            return self._colours[index]
        return palette.next_free(self._colours[-1] if self._colours else "", taken)

    def _seat(self, index: int, name: str, liked: str | None) -> None:
        """Seat `name` at `index` in the colour `liked` (a profile's); a seat that had that
        colour takes this seat's old one in exchange."""
        if index > len(self._names) or index >= self._most():
            return
        old = self._colour_for(index, None)
        colour = old if liked is None else liked
        if liked is not None and liked != old:
            for other, taken in enumerate(self._colours):
                if other != index and taken == liked:
                    self._colours[other] = old
        if index == len(self._names):
            self._names.append(name)
            self._colours.append(colour)
        else:
            self._names[index] = name
            self._colours[index] = colour
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
        necromancer = self.necromancer
        in_teams = self.teams
        started = self.attempt(lambda: self.session.new_game(
            seats, first_seat=first, expansions=expansions, dealing=dealing,
            necromancer=necromancer, teams=in_teams),
            "The game cannot start")
        if started is not None:
            self.go("table")
