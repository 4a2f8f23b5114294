"""An expansion on screen: the hooks a shared screen asks of every expansion its game plays.

The rules keep each expansion behind one `Expansion` (`companion.rules.expansion`); the
screens keep its face behind one `ExpansionView`, the same way: a class whose hooks all do
nothing, which an expansion's own presenter module subclasses at its end, overriding only
the moments it shows something. The shared presenters (the table, the map, the game end,
the scoring screen) never name an expansion: they ask the views of the game's expansions
(`companion.ui.presenters.expansions.played(state)`), in the registry's order.

A hook that changes a list gets the list the screen built and returns it, changed or not;
a hook that adds lines returns "" or () when it has none. The hooks are listed, one line
each with the moment it is asked, in docs/architecture.md's hook table
(`tests/test_architecture_hooks.py` keeps it whole). A view's main option on the new game
form (`setup_key`) is whether the game plays it, and `Session.new_game`'s keyword of that
name.

Invariants: a hook reads the state, never changes it, and never reads a purse a player
could not see on that screen; a key belongs to one view's intents at most (the registry
checks it); a view without a game of its expansion in play is never asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from companion.i18n import N_, _

if TYPE_CHECKING:
    from companion.boards import CustomBoard
    from companion.rules import (
        Assessment,
        Attacker,
        Board,
        BoardState,
        Event,
        GameState,
        QuickCount,
        Terrain,
    )
    from companion.ui.map_paint import MapSymbol
    from companion.ui.presenters.base import Presenter


TERRAIN_WORDS = {
    "farmland": N_("farmland"), "hill": N_("hill"), "forest": N_("forest"),
    "swamp": N_("swamp"), "mountain": N_("mountain"), "sea": N_("sea"), "lake": N_("lake"),
}
"""The base game's terrains' names in a sentence ("Region 4 (forest)"), by their ids
(`Terrain`'s values); an expansion's are its views' `TerrainLook.word`."""


def terrain_words(terrain: str) -> str:
    """The terrain `terrain` (its id) in a sentence, in the language spoken now (an
    expansion's terrain as its view words it; an unknown id as it is)."""
    words = TERRAIN_WORDS.get(terrain)
    if words is not None:
        return _(words)
    from companion.ui.presenters.expansions import registered  # the registry holds the views

    return next((look.word for view in registered() for look in view.terrain_looks()
                 if look.terrain.value == terrain and look.word), terrain)


class PrivateOverlay(Protocol):
    """The table's private overlay (`TablePresenter.show_private`)."""

    def show_private(self, seat: int, text: str, detail: str) -> None: ...


@dataclass(frozen=True)
class TerrainLook:
    """A terrain an expansion brings, as the screens show it."""

    terrain: Terrain
    name: str
    """Its name on the map's legend."""
    words: str
    """Its line on the scoring screen."""
    colour: tuple[float, float, float, float]
    """Its colour on the map."""
    word: str = ""
    """Its name in a sentence ("Region 4 (river)"; "": its id)."""


class SetupForm(Protocol):
    """The new game form as a view's set-up hooks see it (`NewGamePresenter`)."""

    def option(self, key: str, default: bool = False) -> bool:
        """A choice the form keeps for a view (`default` until it is set)."""
        ...

    def set_option(self, key: str, on: bool) -> None:
        """Keep a choice (the form is shown again after a set-up intent)."""
        ...

    def seat_count(self) -> int:
        """How many seats the form has now."""
        ...

    def chosen_board(self) -> CustomBoard | None:
        """The chosen board file (None: the packaged board)."""
        ...

    def tell(self, text: str, title: str = "Not now") -> None:
        """Show a notice."""
        ...


TableIntents = Mapping[type[StrEnum], Callable[["Presenter", PrivateOverlay, Any], None]]
"""A view's table buttons: each enum of their keys -> what runs one (the table, its private
overlay, the button)."""

MapIntents = Mapping[type[StrEnum], Callable[["Presenter", Any, int], None]]
"""A view's buttons on the map's region panel: each enum -> what runs one (the map, the
button, the region)."""

SetupIntents = Mapping[type[StrEnum], Callable[[SetupForm, Any], None]]
"""A view's buttons on the new game form: each enum -> what runs one (the form, the
button)."""


@dataclass(frozen=True)
class TableTurn:
    """What the table waits for at an expansion's moment, in place of the usual hint."""

    hint: str
    seat: int | None = None
    """The seat the heading names in place of the current player (None: the current)."""
    heading: str = ""
    """The heading's words for `seat` ("Bob's Monster")."""


@dataclass(frozen=True)
class Seating:
    """What an expansion switched on makes of the seats and the board on the new game form."""

    sizes: tuple[int, ...]
    """The player counts a board for the game may be made for (the packaged board's first)."""
    most: int
    """The most seats the game may have."""
    text: str
    """What the form says of the board and the seats."""


class ExpansionView:
    """An expansion as the shared screens show it: every hook does nothing by default."""

    expansion: ClassVar[str] = ""
    """The `name` of the rules' expansion this view shows (`Expansion.name`)."""

    catalog_id: ClassVar[str] = ""
    """Its expansion's id in the catalog, by which `companion.ui.names.expansion` prints
    its name in the language spoken ("": none; then `expansion` is shown)."""

    screens: ClassVar[Mapping[str, tuple[str, str, str]]] = {}
    """Its own screens, as `companion.ui.app.SCREENS` lists them: name -> its presenter
    (``module:Class`` in `companion.ui.presenters`), its screen (``module:Class`` in
    `companion.ui.screens`, or a class its kv file declares: ``<Class@PresenterScreen>``)
    and its kv file."""

    table_intents: ClassVar[TableIntents] = {}
    """The enums of its table buttons (their values are the keys its buttons send), each
    with the function that runs them."""

    map_intents: ClassVar[MapIntents] = {}
    """The enums of its buttons on the map's region panel, each with what runs them."""

    map_symbols: ClassVar[tuple[MapSymbol, ...]] = ()
    """The symbols it draws in the regions of the map, among the map's own (every
    registered view's are known to the map, whatever the game plays: a symbol it does not
    play counts 0)."""

    setup_intents: ClassVar[SetupIntents] = {}
    """The enums of its buttons on the new game form, each with what runs them."""

    setup_key: ClassVar[str] = ""
    """The key of its main option on the new game form ("": it offers none), which is also
    its keyword of `Session.new_game` (``river_world=``, set to whether the option is on);
    the form's screen finds its option rows under this id."""

    setup_place: ClassVar[str] = "game"
    """Where the new game form shows its option rows: "board" (after the board choice) or
    "game" (after the sets that go in the decks)."""

    # -- the table ------------------------------------------------------------------------
    def table_turn(self, state: GameState) -> TableTurn | None:
        """What the table waits for now, when it is its moment (None: the usual hint and
        heading)."""
        return None

    def spread_text(self, state: GameState, emptied: list[int]) -> str | None:
        """The table's one-tap redeployment, when the spread it suggests leaves the regions
        `emptied` (ids, sorted) without tokens: its words (None: the usual)."""
        return None

    def table_actions(self, state: GameState, usual: list[dict[str, Any]]
                      ) -> list[dict[str, Any]]:
        """The table's whole list of buttons, changed where it changes them (asked last
        registered first, so the first registered view has the last word)."""
        return usual

    def player_rows(self, state: GameState, rows: list[dict[str, Any]]
                    ) -> list[dict[str, Any]]:
        """The table's player rows, changed where it changes them."""
        return rows

    def summary(self, state: GameState) -> str:
        """Its public books, in a few lines, under the players."""
        return ""

    def headline(self, state: GameState) -> str:
        """A line told once as each game turn starts ("Name: what"), and the first
        reminder."""
        return ""

    def reminders(self, state: GameState) -> tuple[str, ...]:
        """What it asks of the current player now."""
        return ()

    def decline(self, presenter: Presenter, state: GameState) -> bool:
        """The table's decline, confirmed: True when this view took it over (it asks
        something first, then declines)."""
        return False

    # -- the map --------------------------------------------------------------------------
    def targets(self, state: GameState, shooters: list[Attacker]) -> list[int] | None:
        """The regions `shooters` may attack now, when it changes who may attack where
        (None: the base game's reach)."""
        return None

    def assess(self, state: GameState, who: Attacker, region: int) -> Assessment | None:
        """Whether and at what cost `who` takes `region`, when it changes the base game's
        answer (None: the base game's)."""
        return None

    def seat_hand(self, state: GameState) -> int | None:
        """The tokens the seat it plays may still conquer with, in its turn (None: not its
        turn, or no such seat)."""
        return None

    def shown_regions(self, state: GameState, regions: BoardState) -> BoardState:
        """The regions as the map draws them."""
        return regions

    def map_highlight(self, state: GameState) -> tuple[frozenset[int], str] | None:
        """The regions to light instead of the usual, and the map's hint then (None: the
        usual)."""
        return None

    def map_pieces(self, state: GameState) -> Mapping[str, int]:
        """The pieces the game keeps off the regions' markers that the map draws, each as
        the key of one of its `map_symbols` -> the region it lies in ({}: none)."""
        return {}

    def printed_features(self, board: Board, region: int) -> tuple[str, ...]:
        """The names of what it prints on `region` of `board` (its sites), in the language
        spoken, for the region's title after the base game's features (asked of every
        registered view, whatever the game plays)."""
        return ()

    def empty_region_text(self, state: GameState, region: int) -> str | None:
        """What a region nobody holds (and no Lost Tribe) is, in place of "Nobody holds
        it." (None: the usual)."""
        return None

    def region_text(self, state: GameState, region: int) -> str:
        """What it has to say of a tapped region."""
        return ""

    def region_rules(self, state: GameState, region: int) -> list[tuple[str, str]]:
        """The rule book's entries, (kind, name), for what it puts in `region` (its
        pieces, sites, Relics and Places): the map's "Rules" offers them after the
        holder's race and power."""
        return []

    def region_actions(self, state: GameState, region: int, main: list[dict[str, Any]],
                       more: list[dict[str, Any]]
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A tapped region's buttons, changed where it changes them: the main ones (the
        conquest's) and the more (abandon, steppers, markers; "Correct" follows them)."""
        return main, more

    def conquered(self, presenter: Presenter) -> None:
        """After a conquest on the map (the session's last step): tell what it must."""

    # -- the game end ---------------------------------------------------------------------
    def reveal_group(self, state: GameState, seat: int) -> int | None:
        """When `seat`'s coins are revealed: 0 before everybody, 1 among them, 2 after
        them (None: among them, unless another view says)."""
        return None

    def standings(self, state: GameState) -> tuple[list[dict[str, Any]], str] | None:
        """The standings' rows in place of one per player, and their caption in place of
        the usual (None: the usual)."""
        return None

    # -- the scoring screen ---------------------------------------------------------------
    def terrain_looks(self) -> tuple[TerrainLook, ...]:
        """The terrains it brings, as the map and the scoring screen show them (asked of
        every registered view, whatever the game plays; the scoring screen counts a played
        view's terrains)."""
        return ()

    def scoring_counts(self, count: QuickCount) -> tuple[tuple[str, str, int], ...]:
        """More counts the scoring screen asks for, each a stepper: (its name, its words,
        its value as `count`, the map's or a quick count, gives it); set with
        `scoring_counted`."""
        return ()

    def scoring_counted(self, count: QuickCount, values: Mapping[str, int]) -> QuickCount:
        """`count` with its counts set to `values` (by name, those of `scoring_counts` the
        screen shows); whatever else it counts stays as `count` gives it."""
        del values
        return count

    # -- a step in words ------------------------------------------------------------------
    def marker_words(self, marker: str) -> str | None:
        """One of its own markers (by its id) as a sentence names it ("a Pot of Gold"), in
        the language spoken (None: not its marker)."""
        return None

    def event_text(self, event: Event, who: Callable[[int], str]) -> str | None:
        """One of its own events in words, as "the undo takes back ..." ends (None: not
        its event); `who(seat)` is a player's name."""
        return None

    # -- the new game form ----------------------------------------------------------------
    def setup_options(self, form: SetupForm) -> list[dict[str, Any]]:
        """Its option rows on the new game form, as ActionColumn actions."""
        return []

    def seating(self, form: SetupForm, described: str | None) -> Seating | None:
        """The seats and the board when the game the form sets up plays it and it changes
        them (None: the base game's); `described` is the chosen board file in words (None:
        the packaged one)."""
        return None

    def board_kind(self, board: CustomBoard) -> tuple[str, str] | None:
        """A board file of its kind in words: (in the board choice, in the form's text),
        e.g. ("Forest Folk", "a Forest Folk board") (None: not of its kind)."""
        return None

    def board_chosen(self, form: SetupForm) -> None:
        """Another board was chosen (or the chosen one gave way to the packaged one)."""

    def left_out(self, form: SetupForm) -> tuple[str, ...]:
        """The powers taken out of the decks for the game, as it advises."""
        return ()
