"""Setting up a game: 2 to 5 players (more when an expansion allows), their colours and
seats, the first player, the board, the expansions' options, the decks, and who deals the
combos.

Players come from the saved profiles (name and colour) or are typed on the letters pad;
a typed name is saved as a profile at once, so it is offered next time and its games
count in the stats (the store links a seat to the profile of the same name when the game
is created). The default "Player 1"... names are never saved; they are made in the
language spoken ("Joueur 1", "Spieler 1") and made again in the new one when the form
shows after a switch.

The board is the packaged one for the players the game needs (the seats, or what an
expansion switched on says) or a board the group wrote itself (`companion.boards`, the
folder read again whenever the form shows) made for that many players; the number of
turns is the chosen board's. A chosen board that no longer fits after the seats change
gives way to the packaged one, and the form says so. The board files that cannot be used
are counted, and a tap lists why.

What each expansion offers here is its view's (`ExpansionView`'s set-up hooks, asked of
every registered view in the registry's order): its option rows and their intents, the
board sizes, the most seats and the board's words when it is switched on, what it adds to
the start's arguments and the powers it advises leaving out. The form keeps the views'
choices (`option(key)`); when two views answer the same question, the later one's answer
stands. Choosing a board tells every view (`board_chosen`).

Nothing is checked here that the rules check: `Session.new_game` refuses two players with
one name, or a board with more turns than an expansion has markers, say, and its
reason is shown as it is.

Every text is worded in the language spoken (`companion.i18n`) when the form is built,
and built again when the screen shows, the colours' names and the default seat names
("Player 1"...) among them; once the game starts, a seat's name is data (it goes into the
game as shown) and stays as it is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion import i18n
from companion.boards import CustomBoard, CustomBoards, custom_boards_dir, load_custom_boards
from companion.i18n import N_, _, ngettext
from companion.records import Profile, RecordsError
from companion.rules import (
    BOARD_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Seat,
    board_for_players,
    board_players,
)
from companion.rules import expansions as rule_expansions
from companion.seating import Side
from companion.ui import names, palette
from companion.ui.presenters import expansions as views
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.expansion import ExpansionView, Seating
from companion.ui.presenters.intents import UnknownAction, allowed, argument, member
from companion.ui.presenters.keypads import NameRequest, ask_name
from companion.ui.wording import say

DEFAULT_NAME = N_("Player {number}")
"""A seat's name until a player's is chosen (never saved as a player)."""


def default_name(number: int) -> str:
    """The default name of seat `number` (from 1) in the language spoken ("Player 2")."""
    return _(DEFAULT_NAME).format(number=number)


def default_number(name: str) -> int | None:
    """The seat number of a default name in any language the table speaks ("Player 2",
    "Joueur 2": 2), else None (a player's own name)."""
    for pattern in (_default_pattern(_(DEFAULT_NAME)), *_every_default_pattern()):
        if (found := pattern.fullmatch(name)) is not None:
            return int(found.group(1))
    return None


def _default_pattern(template: str) -> re.Pattern[str]:
    return re.compile(r"(\d+)".join(re.escape(part) for part in template.split("{number}")))


@functools.cache
def _every_default_pattern() -> tuple[re.Pattern[str], ...]:
    """The default name's pattern in each language (read from the catalogues once)."""
    return tuple(_default_pattern(i18n.translations(language).gettext(DEFAULT_NAME))
                 for language in i18n.LANGUAGES)


DEFAULT_SEATS = 3
"""How many seats a fresh form has."""
PACKAGED = "packaged"
"""The board choice's key for the packaged board."""
BROKEN_SHOWN = 5
"""The most broken board files listed by name in one notice (the rest are counted)."""
SIDE_NAMES = {Side.NEAR: N_("Near"), Side.FAR: N_("Far")}
"""Each side of the screen on a seat's toggle."""


class Action(StrEnum):
    """The new game screen's buttons (the values are their keys)."""

    ADD = "add"
    START = "start"
    BACK = "back"
    BOARD = "board"
    BROKEN_BOARDS = "broken_boards"
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


NewGameIntent = Action | ChooseDealing | ToggleExpansion | StrEnum
"""The new game screen's intents (a bare `StrEnum`: a view's set-up button)."""


def parse(key: str) -> NewGameIntent:
    """The new game screen's action for `key`; `UnknownAction` when it has none."""
    dealing = member(Dealing, argument(key, "dealing:") or "")
    if dealing is not None:
        return ChooseDealing(dealing)
    ident = argument(key, "expansion:")
    if ident is not None:
        return ToggleExpansion(ident)
    action = member(Action, key) or views.intent("setup", key)
    if action is None:
        raise UnknownAction("new_game", key, allowed(
            Action, *views.intents("setup"), *("dealing:" + d.value for d in Dealing),
            "expansion:<ident>"))
    return action


class NewGamePresenter(Presenter, parse=parse):
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
    board_options = ListProperty([])
    """The board choice, a line counting the board files that cannot be used (if any), and
    the option rows of the views placed with the board, as ActionColumn actions."""
    setup_options = ListProperty([])
    """The option rows of the views placed after the sets (the expansions the game may
    play), in the registry's order, as ActionColumn actions."""
    around = BooleanProperty(False)
    """Whether the players sit around the screen (``display.seating``): each seat row then
    has its side's toggle, near or far."""

    _names: list[str]
    _colours: list[str]
    _board: str | None
    """The chosen custom board's name (None: the packaged board)."""
    _fallback: tuple[Callable[[], str], tuple[int, ...]] | None
    """Why the chosen board gave way to the packaged one, and the board sizes the game
    needed then (the words go once the seats ask for another size)."""
    _options: dict[str, bool]
    """The views' choices on this form, by the key each view names (`option`)."""
    _sides: list[Side]
    """Each seat's side of the screen (seat order), kept with the game it starts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._chosen = {"base"}
        self._custom = CustomBoards()  # read when the form is reset or opened, not at start-up
        self.around = self.ctx.seats.around
        self.ctx.seats.fbind("seating", self._seating_changed)
        self.ctx.nav.fbind("current", self._opened)
        self.forget()

    def forget(self) -> None:
        """The form as at start-up (its default names, colours, sides and options): made
        so, and made so again when another table's session is played, not keeping the
        names the last table typed."""
        self._names = [default_name(number) for number in range(1, DEFAULT_SEATS + 1)]
        self._colours = list(palette.COLOUR_NAMES[:3])
        self._sides = []
        self._options = {}
        self._board = None
        self._fallback = None
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
        self._names = [name if (number := default_number(name)) is None
                       else default_name(number) for name in self._names]
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
                          "side": _(SIDE_NAMES[self._sides[i]])})
        self.seats = seats
        self._fit_board()
        self.board_text = self._board_text(count)
        self.board_options = [*self._board_options(), *self._view_options("board")]
        self.first_text = self._first_text()
        catalog = self.session.catalog
        self.expansions = [{"id": ident, "name": names.expansion(ident, name),
                            "on": ident in self._chosen} for ident, name in catalog.expansions]
        self.dealing_options = [
            {"key": "dealing:app", "kind": "primary" if self.dealing == "app" else "secondary",
             "text": _("The app deals (it shuffles the decks)")},
            {"key": "dealing:table", "kind": "primary" if self.dealing == "table" else "secondary",
             "text": _("We deal the cardboard and tell the app")},
        ]
        options = []
        for ident, name in catalog.expansions:
            on = ident in self._chosen
            shown = names.expansion(ident, name)
            label = (_("In the decks: {name}") if on else _("Left out: {name}")).format(
                name=shown)
            if ident == "base":
                label = _("In the decks: {name} (always)").format(name=shown)
            options.append({"key": "expansion:%s" % ident, "text": label,  # noqa: UP031 (a key, read by test_intents)
                            "kind": "primary" if on else "secondary"})
        self.expansion_options = options
        self.setup_options = self._view_options("game")

    # -- the views' options --------------------------------------------------------------
    def option(self, key: str, default: bool = False) -> bool:
        """A choice a view keeps on this form (`default` until it is set); a view's
        `setup_key` is whether it is switched on (for a view that is switched on)."""
        return self._options.get(key, default)

    def set_option(self, key: str, on: bool) -> None:
        self._options[key] = on

    def seat_count(self) -> int:
        return len(self._names)

    def chosen_board(self) -> CustomBoard | None:
        """The chosen custom board (None: the packaged one)."""
        return None if self._board is None else self._custom.named(self._board)

    def _first_text(self) -> str:
        return (_("First player: drawn at random") if self.first < 0 else
                _("First player: {name}").format(name=self._names[int(self.first)]))

    def tell(self, text: str, title: str | None = None) -> None:
        self.ctx.notices.tell(text, title)

    def options_of(self, key: str) -> list[dict[str, Any]]:
        """The option rows of the view whose main option (`setup_key`) is `key`."""
        return next((view.setup_options(self) for view in views.registered()
                     if view.setup_key == key), [])

    def option_places(self) -> dict[str, str]:
        """Each view's main option key -> where its rows are shown ("board" or "game")."""
        return {view.setup_key: view.setup_place for view in views.registered()
                if view.setup_key}

    def _view_options(self, place: str) -> list[dict[str, Any]]:
        return [row for view in views.registered() if view.setup_place == place
                for row in view.setup_options(self)]

    def _kept_apart(self, view: ExpansionView) -> bool:
        """Whether switching `view`'s expansion on is refused because one switched on is
        never played with it (the rules' `expansions.apart`): then the form says which to
        switch off first. Switching off is never refused."""
        if self.option(view.setup_key):
            return False
        keys = {x.name: x.key for x in rule_expansions.registered()}
        for other in views.registered():
            if (other is view or not self.option(other.setup_key)
                    or rule_expansions.apart([keys.get(other.expansion, ""),
                                              keys.get(view.expansion, "")]) is None):
                continue
            shown = names.expansion(other.catalog_id, other.expansion)
            self.tell(_("{expansion} is never played with {other}: switch {other} off "
                        "first.").format(expansion=names.expansion(view.catalog_id,
                                                                   view.expansion),
                                         other=shown), _("Not now"))
            return True
        return False

    def _seating(self) -> Seating | None:
        """The seats and the board as the last registered view switched on makes them
        (None: the base game's)."""
        chosen = self.chosen_board()
        described = None if chosen is None else _described(chosen)
        return next((found for view in reversed(views.registered())
                     if (found := view.seating(self, described)) is not None), None)

    # -- the board -----------------------------------------------------------------------
    def _board_sizes(self) -> tuple[int, ...]:
        """The player counts a board for this game may be made for (the packaged board's
        first): the seats, unless a view switched on says otherwise."""
        seating = self._seating()
        return (board_players(len(self._names)),) if seating is None else seating.sizes

    def _fitting(self) -> list[CustomBoard]:
        """The usable custom boards made for this game's board size."""
        return [b for size in self._board_sizes() for b in self._custom.for_players(size)]

    def _fit_board(self) -> None:
        """Fall back to the packaged board (told to the views) when the chosen one no longer
        fits the seats or is no longer among the files, and keep why until the board size
        changes again."""
        sizes = self._board_sizes()
        if self._board is not None:
            chosen = self._custom.named(self._board)
            if chosen is None:
                gone = self._board
                self._fallback = (lambda: _("{board} is no longer among the board files: "
                                            "back to the packaged board.").format(board=gone),
                                  sizes)
                self._board = None
            elif chosen.board.players not in sizes:
                name, made_for = chosen.name, chosen.board.players
                self._fallback = (lambda: _("{board} is a board for {players} players, not "
                                            "{wanted}: back to the packaged board.").format(
                    board=name, players=made_for, wanted=_either(sizes)), sizes)
                self._board = None
            if self._board is None:
                for view in views.registered():  # the packaged board's defaults
                    view.board_chosen(self)
        if self._fallback is not None and self._fallback[1] != sizes:
            self._fallback = None

    def _board_text(self, count: int) -> str:
        text = self._players_text(count)
        if self._fallback is not None:
            text = _("{why} {board}").format(why=self._fallback[0](), board=text)
        return text

    def _players_text(self, count: int) -> str:
        seating = self._seating()
        if seating is not None:
            return seating.text
        chosen = self.chosen_board()
        if chosen is not None:
            return _("{board}. Seats go clockwise in this order.").format(
                board=_described(chosen))
        board = board_for_players(count)
        return _("{count} players: the {count}-player board, {turns} turns. Seats go "
                 "clockwise in this order.").format(count=count, turns=board.turns)

    def _board_options(self) -> list[dict[str, Any]]:
        chosen = self.chosen_board()
        players = self._board_sizes()[0]
        name = _packaged(players, short=True) if chosen is None else chosen.name
        text = (_("Board: {name} (tap to change)") if self._fitting() else
                _("Board: {name}")).format(name=name)
        options = [{"key": "board", "kind": "secondary", "text": text}]
        broken = len(self._custom.broken)
        if broken:
            options.append({"key": "broken_boards", "kind": "warning",
                            "text": ngettext("{count} board file could not be used: tap to "
                                             "see why",
                                             "{count} board files could not be used: tap to "
                                             "see why", broken).format(count=broken)})
        return options

    def choose_board(self) -> None:
        """Offer the packaged board and the group's own boards that fit this game."""
        fitting = self._fitting()
        sizes = self._board_sizes()
        if not fitting:
            self.ctx.notices.tell(
                _("No board of your own is made for {players} players. A group's own boards "
                  "are JSON files in {folder} (docs/board-format.md says how to write one); "
                  "they are offered here for the players they are made for.").format(
                    players=_either(sizes), folder=custom_boards_dir()),
                _("Boards"))
            return
        chosen = self.chosen_board()
        now = _packaged(sizes[0]) if chosen is None else _labelled(chosen)
        choices = [(PACKAGED, _packaged(sizes[0]))]
        choices += [("custom:" + b.name, _labelled(b)) for b in fitting]
        self.ctx.notices.choose(Choice(_("Which board?"), choices, self._board_chosen,
                                       text=_("Now: {board}.").format(board=now)))

    def _board_chosen(self, key: str) -> None:
        kind, _sep, name = key.partition(":")
        if kind == PACKAGED:
            self._board = None
        elif kind == "custom" and self._custom.named(name) is not None:
            self._board = name
        else:
            return
        self._fallback = None
        for view in views.registered():  # every board starts as it is made
            view.board_chosen(self)
        self._build()

    def tell_broken_boards(self) -> None:
        """Why each board file that cannot be used is refused, one per line, in the
        table's language (worded now: a language switch since the files were read shows)."""
        broken = self._custom.broken
        if not broken:
            return
        lines = [say(b.said) for b in broken[:BROKEN_SHOWN]]
        if len(broken) > BROKEN_SHOWN:
            lines.append(_("... and {count} more.").format(count=len(broken) - BROKEN_SHOWN))
        lines.append(_("Fix them in {folder}; docs/board-format.md has the format.").format(
            folder=custom_boards_dir()))
        self.ctx.notices.tell("\n".join(lines), _("Board files not used"))

    def _most(self) -> int:
        """The most seats: the base game's, or the most a view switched on allows."""
        seating = self._seating()
        return MAX_PLAYERS if seating is None else seating.most

    # -- intents -------------------------------------------------------------------------
    def do(self, action: NewGameIntent) -> None:
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
            case Action.BOARD:
                self.choose_board()
            case Action.BROKEN_BOARDS:
                self.tell_broken_boards()
            case Action.RANDOM_FIRST:
                self.first = -1
                self._build()
            case StrEnum():  # a view's set-up button
                owner = views.owner("setup", action)
                if owner is None:
                    raise UnknownAction("new_game", action.value, allowed(
                        Action, *views.intents("setup")))
                if action.value != owner.setup_key or not self._kept_apart(owner):
                    owner.setup_intents[type(action)](self, action)
                self._build()
            case _:
                assert_never(action)

    def add_player(self) -> None:
        """Ask who joins: a saved player, or a new name typed on the letters pad."""
        if len(self._names) >= self._most():
            self.ctx.notices.tell(_("A game has at most {count} players.").format(
                count=self._most()))
            return
        self.choose_player(len(self._names))

    def add_default_player(self) -> None:
        """Add a seat called "Player n" (no profile)."""
        if len(self._names) >= self._most():
            return
        used = set(self._names)
        name = next(name for number in range(1, len(self._names) + 2)
                    if (name := default_name(number)) not in used)
        self._seat(len(self._names), name, None)

    def choose_player(self, index: int) -> None:
        """Who sits in seat `index` (a new seat when it is one past the last)?"""
        seated = {n.casefold() for i, n in enumerate(self._names) if i != index}
        free = [p for p in self.profiles() if p.name.casefold() not in seated]
        if not free:
            self._type_name(index)
            return
        choices = [("profile:" + str(p.id), f"{p.name} ({palette.shown_name(p.colour)})")
                   for p in free]
        choices.append(("type", _("Someone new: type the name")))
        where = (_("Who joins the game?") if index >= len(self._names)
                 else _("Who sits in seat {seat}?").format(seat=index + 1))
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
        initial = "" if default_number(current) is not None else current
        ask_name(self.ctx, NameRequest(
            title=_("The player's name"), initial=initial,
            text=_("Saved as a player for next time (Settings > Players changes or removes "
                   "it)."),
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
        if store is not None and default_number(name) is None:
            self.attempt(lambda: store.add_profile(name, colour), _("Not saved as a player"))
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
            self.ctx.notices.tell(_("A game needs at least {count} players.").format(
                count=MIN_PLAYERS))
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
            self.first_text = self._first_text()

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
            self.ctx.notices.tell(_("The base game's races and powers are always in the "
                                    "decks."))
            return
        if ident in self._chosen:
            self._chosen.discard(ident)
        else:
            self._chosen.add(ident)
            self.ctx.notices.tell(
                _("Races and powers of this set go into the decks. The app scores them from "
                  "the map like the base game's, and reminds the player of what the table "
                  "does by hand with them."), _("Expansion added"))
        self._build()

    def start(self) -> None:
        seats = [Seat(name.strip(), colour) for name, colour in zip(self._names, self._colours,
                                                                     strict=True)]
        expansions = [ident for ident, _name in self.session.catalog.expansions
                      if ident in self._chosen]
        first = None if self.first < 0 else int(self.first)
        chosen = self.chosen_board()
        board_doc = None if chosen is None else chosen.document
        left_out = tuple(power for view in views.registered() for power in view.left_out(self))
        more = {view.setup_key: self.option(view.setup_key) for view in views.registered()
                if view.setup_key}
        self.ctx.seats.chosen = tuple(self._sides)  # the app keeps them with the game
        started = self.attempt(lambda: self.session.new_game(
            seats, first_seat=first, expansions=expansions, dealing=self.dealing,
            board_doc=board_doc, left_out=left_out, **more),
            _("The game cannot start"))
        self.ctx.seats.chosen = ()  # taken by the game started, or not wanted any more
        if started is not None:
            self.go("table")


def _either(sizes: tuple[int, ...]) -> str:
    """Board sizes in words: "3", "5 or 6"."""
    if len(sizes) < 2:
        return "".join(str(n) for n in sizes)
    return _("{some} or {last}").format(some=", ".join(str(n) for n in sizes[:-1]),
                                        last=sizes[-1])


def _packaged(players: int, *, short: bool = False) -> str:
    """The packaged board's name in the board choice (`short`: on the form's button)."""
    if not 2 <= players < 2 + len(BOARD_NAMES):
        return _("the packaged board") if short else _("The packaged board")
    if short:
        return _("the {players}-player board, packaged").format(players=players)
    return _("The {players}-player board (packaged)").format(players=players)


def _kind(board: CustomBoard) -> tuple[str, str]:
    """A board file's kind in words (in the board choice, in the form's text): a view's
    kind of board, or the group's own."""
    kinds = [kind for view in views.registered() if (kind := view.board_kind(board))]
    return kinds[0] if kinds else (_("your own board"), _("a board of your own"))


def _labelled(board: CustomBoard) -> str:
    """A custom board's name in the board choice."""
    return ngettext("{name} ({kind}, {turns} turn)", "{name} ({kind}, {turns} turns)",
                    board.board.turns).format(name=board.name, kind=_kind(board)[0],
                                              turns=board.board.turns)


def _described(board: CustomBoard) -> str:
    """"Home Map: a board of your own for 3 players, 10 turns" (or a view's kind)."""
    return _("{name}: {kind} for {players} players, {turns} turns").format(
        name=board.name, kind=_kind(board)[1], players=board.board.players, turns=board.board.turns)
