"""Setting up a game: 2 to 5 players (6 with the Necromancer or in teams), their colours
and seats, the first player, the board, River World, the decks, and who deals the combos.

Players come from the saved profiles (name and colour) or are typed on the letters pad;
a typed name is saved as a profile at once, so it is offered next time and its games
count in the stats (the store links a seat to the profile of the same name when the game
is created). The default "Player 1"... names are never saved.

The board is the packaged one for the players the game needs (the seats; one fewer with
the Necromancer; the 5-player board for teams) or a board the group wrote itself
(`companion.boards`, the folder read again whenever the form shows) made for that
many players (a team game also takes one made for its six); the number of turns is the
chosen board's. A chosen board that no longer fits after the seats change gives way to
the packaged one, and the form says so. The board files that cannot be used are counted,
and a tap lists why. River World's events are played on a River World board (always)
and, when switched on, on any other (its harbors and pirate ships then counted by hand on
the scoring screen); choosing a board sets them back to that board's default. With River
World, Flying is left out of the decks, as the expansion advises, unless the table keeps it.

Nothing is checked here that the rules check: `Session.new_game` refuses two players with
one name, or a board with more turns than River World has Event markers, say, and its
reason is shown as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.boards import CustomBoard, CustomBoards, custom_boards_dir, load_custom_boards
from companion.records import Profile, RecordsError
from companion.rules import (
    BOARD_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Seat,
    board_for_players,
    board_players,
    river,
    team_game,
)
from companion.seating import Side
from companion.ui import palette
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.intents import UnknownAction, allowed, argument, member
from companion.ui.presenters.keypads import NameRequest, ask_name
from companion.ui.presenters.teams import board_text as team_board_text
from companion.ui.presenters.teams import team_option

DEFAULT_NAMES = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5")
_DEFAULT_NAME = re.compile(r"Player \d+")
PACKAGED = "packaged"
"""The board choice's key for the packaged board."""
BROKEN_SHOWN = 5
"""The most broken board files listed by name in one notice (the rest are counted)."""


class Action(StrEnum):
    """The new game screen's buttons (the values are their keys)."""

    ADD = "add"
    START = "start"
    BACK = "back"
    NECROMANCER = "necromancer"
    TEAMS = "teams"
    BOARD = "board"
    BROKEN_BOARDS = "broken_boards"
    RIVER_WORLD = "river_world"
    RIVER_ADVICE = "river_advice"
    RANDOM_FIRST = "random_first"


class Dealing(StrEnum):
    """Who deals the combos: the app, or the table with the cardboard column."""

    APP = "app"
    TABLE = "table"


@dataclass(frozen=True)
class ChooseDealing:
    """A way of dealing chosen ("dealing:app", "dealing:table")."""

    dealing: Dealing


@dataclass(frozen=True)
class ToggleExpansion:
    """An expansion switched on or off ("expansion:<ident>")."""

    ident: str


def parse(key: str) -> Action | ChooseDealing | ToggleExpansion:
    """The new game screen's action for `key`; `UnknownAction` when it has none."""
    dealing = member(Dealing, argument(key, "dealing:") or "")
    if dealing is not None:
        return ChooseDealing(dealing)
    ident = argument(key, "expansion:")
    if ident is not None:
        return ToggleExpansion(ident)
    action = member(Action, key)
    if action is None:
        raise UnknownAction("new_game", key, allowed(
            Action, *(f"dealing:{d.value}" for d in Dealing), "expansion:<ident>"))
    return action


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
    board_options = ListProperty([])
    """The board choice, and a line counting the board files that cannot be used (if any),
    as ActionColumn actions."""
    river_options = ListProperty([])
    """The River World toggle, as an ActionColumn action."""
    around = BooleanProperty(False)
    """Whether the players sit around the screen (``display.seating``): each seat row then
    has its side's toggle, near or far."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names = list(DEFAULT_NAMES[:3])
        self._colours = list(palette.COLOUR_NAMES[:3])
        self._chosen = {"base"}
        self._custom = CustomBoards()  # read when the form is reset or opened, not at start-up
        self._board: str | None = None
        """The chosen custom board's name (None: the packaged board)."""
        self._fallback: tuple[str, tuple[int, ...]] | None = None
        """Why the chosen board gave way to the packaged one, and the board sizes the game
        needed then (the words go once the seats ask for another size)."""
        self._river_on = False
        """River World's events switched on for a board that is not a River World board."""
        self._advice_kept = True
        """River World: the powers it advises leaving out stay out of the decks."""
        self._sides: list[Side] = []
        """Each seat's side of the screen (seat order), kept with the game it starts."""
        self.around = self.ctx.seats.around
        self.ctx.seats.fbind("seating", self._seating_changed)
        self.ctx.nav.fbind("current", self._opened)
        self.reset()

    def _opened(self, _nav: Any, screen: str) -> None:
        """The form shows: read the board files again (one may have been added or fixed)."""
        if screen == "new_game":
            self._custom = load_custom_boards()
            self._build()

    def reset(self, names: list[str] | None = None) -> None:
        """Start the form again (with the last game's names when given); the board files
        are read when the form shows.

        A name with a saved profile gets the profile's colour when no one else has it.
        """
        if names:
            self._names = list(names)[:self._most()]
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
        store = self.session.records
        if store is None:
            return []
        try:
            return store.profiles()
        except RecordsError:
            return []

    def _seating_changed(self, seats: Any, _seating: str) -> None:
        self.around = seats.around

    def _build(self) -> None:
        seats = []
        count = len(self._names)
        # A seat added sits across from the one before it (near, far, near...).
        self._sides = self._sides[:count] + [Side.NEAR if i % 2 == 0 else Side.FAR
                                             for i in range(len(self._sides), count)]
        for i, (name, colour) in enumerate(zip(self._names, self._colours, strict=True)):
            rgba = palette.rgba(colour)
            seats.append({"index": i, "name": name, "colour": colour, "rgba": rgba,
                          "ink": palette.ink_on(rgba), "colour_name": palette.shown_name(colour),
                          "first": i == self.first, "can_up": i > 0,
                          "can_down": i < len(self._names) - 1,
                          "side": self._sides[i].value.capitalize()})
        self.seats = seats
        count = len(self._names)
        self._fit_board()
        self.board_text = self._board_text(count)
        self.board_options = self._board_options()
        self.river_options = [self._river_option(), *self._advice_option()]
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

    # -- the board -----------------------------------------------------------------------
    def _board_sizes(self) -> tuple[int, ...]:
        """The player counts a board for this game may be made for (the packaged board's
        first): the seats, one fewer with the Necromancer, 5 (or a group's own 6) in teams."""
        if self.teams:
            return (team_game.TEAM_BOARD_PLAYERS, team_game.OWN_BOARD_PLAYERS)
        count = len(self._names)
        return (board_players(count, necromancer=self.necromancer),)

    def _fitting(self) -> list[CustomBoard]:
        """The usable custom boards made for this game's board size."""
        return [b for size in self._board_sizes() for b in self._custom.for_players(size)]

    def _chosen_board(self) -> CustomBoard | None:
        """The chosen custom board (None: the packaged one)."""
        return None if self._board is None else self._custom.named(self._board)

    def _fit_board(self) -> None:
        """Fall back to the packaged board (River World off) when the chosen one no longer
        fits the seats or is no longer among the files, and keep why until the board size
        changes again."""
        sizes = self._board_sizes()
        if self._board is not None:
            chosen = self._custom.named(self._board)
            if chosen is None:
                self._fallback = (f"{self._board} is no longer among the board files: "
                                  "back to the packaged board.", sizes)
                self._board = None
            elif chosen.board.players not in sizes:
                self._fallback = (f"{chosen.name} is a board for {chosen.board.players} "
                                  f"players, not {_either(sizes)}: back to the packaged "
                                  "board.", sizes)
                self._board = None
            if self._board is None:
                self._river_on = False  # the packaged board's default
        if self._fallback is not None and self._fallback[1] != sizes:
            self._fallback = None

    def _board_text(self, count: int) -> str:
        text = self._players_text(count)
        if self._fallback is not None:
            text = f"{self._fallback[0]} {text}"
        return text

    def _players_text(self, count: int) -> str:
        chosen = self._chosen_board()
        if self.teams:
            if chosen is None or count != team_game.OWN_BOARD_PLAYERS:
                return team_board_text(count)
            return (f"{_described(chosen)}. {count} players in 3 teams, partners opposite. "
                    "Seats go clockwise in this order.")
        if not self.necromancer:
            if chosen is not None:
                return f"{_described(chosen)}. Seats go clockwise in this order."
            board = board_for_players(count)
            return (f"{count} players: the {count}-player board, {board.turns} turns. "
                    "Seats go clockwise in this order.")
        if not 3 <= count <= MAX_PLAYERS + 1:
            return f"Necromancer Island is for 3 to {MAX_PLAYERS + 1} players, not {count}."
        if chosen is not None:
            return (f"{_described(chosen)}. {count} players with the Necromancer. "
                    "Seats go clockwise in this order.")
        playing = board_players(count, necromancer=True)
        board = board_for_players(playing)
        return (f"{count} players with the Necromancer: the {playing}-player board, "
                f"{board.turns} turns. Seats go clockwise in this order.")

    def _board_options(self) -> list[dict[str, Any]]:
        chosen = self._chosen_board()
        players = self._board_sizes()[0]
        name = _packaged(players, short=True) if chosen is None else chosen.name
        more = " (tap to change)" if self._fitting() else ""
        options = [{"key": "board", "kind": "secondary", "text": f"Board: {name}{more}"}]
        broken = len(self._custom.broken)
        if broken:
            files = "1 board file" if broken == 1 else f"{broken} board files"
            options.append({"key": "broken_boards", "kind": "warning",
                            "text": f"{files} could not be used: tap to see why"})
        return options

    def _on_river_board(self) -> bool:
        """Whether the chosen board is a River World board (its games play the events)."""
        chosen = self._chosen_board()
        return chosen is not None and chosen.board.is_river_world

    def _river_option(self) -> dict[str, Any]:
        if self._on_river_board():
            text = "River World events: on (a River World board)"
        elif self._river_on:
            text = ("River World events: on (harbors and pirate ships are counted by hand "
                    "on the scoring screen)")
        else:
            text = "River World events: off"
        return {"key": "river_world", "kind": "primary" if self._river_world() else "secondary",
                "text": text}

    def _advice_option(self) -> list[dict[str, Any]]:
        """With River World: whether the powers it advises leaving out stay out."""
        if not self._river_world():
            return []
        names = " and ".join(river.ADVISED_LEFT_OUT)
        text = (f"{names}: left out of the decks (River World advises it)" if self._advice_kept
                else f"{names}: in the decks")
        return [{"key": "river_advice", "kind": "secondary", "text": text}]

    def _left_out(self) -> tuple[str, ...]:
        """The powers taken out of the decks for this game."""
        return river.ADVISED_LEFT_OUT if self._river_world() and self._advice_kept else ()

    def _river_world(self) -> bool:
        """Whether the game plays River World's events."""
        return self._on_river_board() or self._river_on

    def choose_board(self) -> None:
        """Offer the packaged board and the group's own boards that fit this game."""
        fitting = self._fitting()
        sizes = self._board_sizes()
        if not fitting:
            self.ctx.notices.tell(
                f"No board of your own is made for {_either(sizes)} players. A group's own "
                f"boards are JSON files in {custom_boards_dir()} (docs/board-format.md says "
                "how to write one); they are offered here for the players they are made for.",
                "Boards")
            return
        chosen = self._chosen_board()
        now = _packaged(sizes[0]) if chosen is None else _labelled(chosen)
        choices = [(PACKAGED, _packaged(sizes[0]))]
        choices += [(f"custom:{b.name}", _labelled(b)) for b in fitting]
        self.ctx.notices.choose(Choice("Which board?", choices, self._board_chosen,
                                       text=f"Now: {now}."))

    def _board_chosen(self, key: str) -> None:
        kind, _, name = key.partition(":")
        if kind == PACKAGED:
            self._board = None
        elif kind == "custom" and self._custom.named(name) is not None:
            self._board = name
        else:
            return
        self._fallback = None
        self._river_on = False  # every board starts with River World as it is made
        self._build()

    def tell_broken_boards(self) -> None:
        """Why each board file that cannot be used is refused, one per line."""
        broken = self._custom.broken
        if not broken:
            return
        lines = [b.message for b in broken[:BROKEN_SHOWN]]
        if len(broken) > BROKEN_SHOWN:
            lines.append(f"... and {len(broken) - BROKEN_SHOWN} more.")
        lines.append(f"Fix them in {custom_boards_dir()}; docs/board-format.md has the format.")
        self.ctx.notices.tell("\n".join(lines), "Board files not used")

    def toggle_river_world(self) -> None:
        """River World's events on or off (always on for a River World board)."""
        chosen = self._chosen_board()
        if chosen is not None and chosen.board.is_river_world:
            self.ctx.notices.tell(
                f"{chosen.name} is a River World board: its harbors and pirate ships are on "
                "the map, and its games always play River World's events. Choose another "
                "board to play without them.", "River World")
            return
        self._river_on = not self._river_on
        self._build()

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
        self.do(parse(key))

    def do(self, action: Action | ChooseDealing | ToggleExpansion) -> None:
        match action:
            case Action.ADD:
                self.add_player()
            case Action.START:
                self.start()
            case Action.BACK:
                self.go("home")
            case ChooseDealing(dealing):
                self.dealing = dealing.value
                self._build()
            case ToggleExpansion(ident):
                self.toggle_expansion(ident)
            case Action.NECROMANCER:
                self.toggle_necromancer()
            case Action.TEAMS:
                self.toggle_teams()
            case Action.BOARD:
                self.choose_board()
            case Action.BROKEN_BOARDS:
                self.tell_broken_boards()
            case Action.RIVER_WORLD:
                self.toggle_river_world()
            case Action.RIVER_ADVICE:
                self._advice_kept = not self._advice_kept
                self._build()
            case Action.RANDOM_FIRST:
                self.first = -1
                self._build()
            case _:
                assert_never(action)

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
        store = self.session.records
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
        del self._sides[index]
        if self.first == index:
            self.first = -1
        elif self.first > index:
            self.first -= 1
        self._build()

    def move(self, index: int, delta: int) -> None:
        other = index + delta
        if not 0 <= other < len(self._names):
            return
        # A player moved takes their side along: they still sit where they sat.
        for items in (self._names, self._colours):
            items[index], items[other] = items[other], items[index]
        sides = self._sides
        sides[index], sides[other] = sides[other], sides[index]
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

    def toggle_side(self, index: int) -> None:
        """Seat `index` sits on the other side of the screen (near or far)."""
        if 0 <= index < len(self._sides):
            self._sides[index] = self._sides[index].other
            self._build()

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
                "Races and powers of this set go into the decks. The app scores them from "
                "the map like the base game's, and reminds the player of what the table "
                "does by hand with them.", "Expansion added")
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
        chosen = self._chosen_board()
        board_doc = None if chosen is None else chosen.document
        river_world = self._river_world()
        left_out = self._left_out()
        self.ctx.seats.chosen = tuple(self._sides)  # the app keeps them with the game
        started = self.attempt(lambda: self.session.new_game(
            seats, first_seat=first, expansions=expansions, dealing=dealing,
            board_doc=board_doc, river_world=river_world, left_out=left_out,
            necromancer=necromancer, teams=in_teams),
            "The game cannot start")
        self.ctx.seats.chosen = ()  # taken by the game started, or not wanted any more
        if started is not None:
            self.go("table")


def _either(sizes: tuple[int, ...]) -> str:
    """Board sizes in words: "3", "5 or 6"."""
    return " or ".join(str(n) for n in sizes)


def _packaged(players: int, *, short: bool = False) -> str:
    """The packaged board's name in the board choice (`short`: on the form's button)."""
    if not 2 <= players < 2 + len(BOARD_NAMES):
        return "the packaged board" if short else "The packaged board"
    if short:
        return f"the {players}-player board, packaged"
    return f"The {players}-player board (packaged)"


def _labelled(board: CustomBoard) -> str:
    """A custom board's name in the board choice."""
    kind = "River World" if board.board.is_river_world else "your own board"
    return f"{board.name} ({kind}, {board.board.turns} turns)"


def _described(board: CustomBoard) -> str:
    """"River Test: a River World board for 3 players, 10 turns"."""
    kind = "a River World board" if board.board.is_river_world else "a board of your own"
    return f"{board.name}: {kind} for {board.board.players} players, {board.board.turns} turns"
