"""`Expansion`: what an expansion may add to the base game, as hooks the rules call.

The base game (`companion.rules.game`, and the shared rule modules it uses: `die`,
`conquest`, `troops_game`, `markers`, `income`, `views`, `reminders`, `codec`) knows no
expansion by name: at every moment where an expansion may have its say it asks the
expansions the game plays
(`companion.rules.expansions.played`), in the registry's order, through these hooks. Every
hook of this base class does nothing (returns its state or value unchanged, refuses
nothing), so an expansion overrides only the moments it changes, like the variants of a
chess library.

Hooks, by moment: the hook table of docs/architecture.md is their reference (one row
each, saying when it fires; `tests/test_architecture_hooks.py` keeps it whole), and each
hook's docstring below says what it takes and gives (`check_table`, `deal`,
`check_created`, `set_up`, `refuse` and `race_declined` are asked of every registered
expansion, played or not, so one can refuse a game or a choice that needs it: they do
nothing else when it is not played). Its intents at the table are a subclass of
`Intents` in its module (gathered by `expansions.ExpansionIntents`), and no hook knows the
JSON commands' formats: its part of `companion play`'s lines is a
`companion.play_parts.PlayPart`, its part of a score scenario a
`companion.score_parts.ScorePart`.

Invariants: hooks are pure (they read and make `GameState`s only through
`companion.rules.state`, never `game`); an expansion not played leaves every state as it
is; a hook refuses with a `RulesError` (`IllegalAction`, or `MalformedInput` for bad
data), leaving nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from companion.rules.board import Markers, Piece, RegionState
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker
from companion.rules.errors import IllegalAction
from companion.rules.events import (
    Event,
    GameCreated,
    MarkerPlaced,
    RaceDeclined,
)
from companion.rules.maps import Board, BoardPart
from companion.rules.rule_entry import RuleEntry
from companion.rules.said import Name, Said, listed, said
from companion.rules.scoring import (
    Bonus,
    HeldRegion,
    InsteadOfRegions,
    QuickCount,
    ScoredRace,
    ScoreLine,
    ScoringInput,
    Tally,
)
from companion.rules.standings import Standings
from companion.rules.state import GameState

__all__ = ["Deal", "Expansion"]


@dataclass(frozen=True, slots=True)
class Deal:
    """A new game's set-up as the session draws it, before its `GameCreated`: what the
    table asked of each expansion (`asked`, by its `key`; None: its default), the board,
    the dealing, the market's badge stack (`powers`, shuffled already when the app deals)
    and the expansions' parts of the set-up drawn so far (`options`, in order: each a
    `setup_type`)."""

    asked: Mapping[str, bool | int | None]
    board: Board
    dealing: str
    powers: tuple[str, ...]
    catalog: Catalog
    options: tuple[object, ...] = ()


class Intents:
    """An expansion's intents at the table, mixed into the session.

    Each expansion module may end with a subclass naming its own intents as methods
    (`buy_ghost`, `place_caravel`, ...): each builds the expansion's event from the state
    and hands it to `play`, the session's one generic path for an expansion's event (the
    rules refuse it or record it). The registry
    (`companion.rules.expansions.ExpansionIntents`) gathers them, and the session inherits
    that, so the session names no expansion. Pure: `state` and `play` are the session's.
    """

    @property
    def state(self) -> GameState:
        """The game at the table (the session's)."""
        raise NotImplementedError

    def play(self, event: Event, *more: Event) -> GameState:
        """Record `event` (and `more`) as one step (the session's)."""
        raise NotImplementedError


class Expansion:
    """An expansion of the base game; every hook is a no-op here."""

    name: ClassVar[str] = "an expansion"
    """Its name in the rulebook, as a screen shows it."""
    key: ClassVar[str] = "expansion"
    """A short identifier: its part of the table's view is `public(state).part(key)`."""
    option: ClassVar[str] = ""
    """The keyword of `Session.new_game` by which a new game asks for it, when the table
    chooses it; "" (the default): its `key`."""
    events: ClassVar[tuple[type[Event], ...]] = ()
    """The event classes it applies itself (`apply`)."""
    decline_type: ClassVar[type[Any] | None] = None
    """The frozen dataclass of its own part of a decline, one of `RaceDeclined.options` (every
    field with a default: the defaults are no part); its fields' names are the saved
    record's, written in every decline record, unique among the expansions'; it is built
    with the region the table chooses as the race declines, when it chooses one, as its
    first field."""
    pieces: ClassVar[tuple[Piece, ...]] = ()
    """Its own pieces that may lie in a region (`companion.rules.board.Piece`: which a
    player places, which the rules set, which defend their region), ids unique among the
    expansions'."""
    setup_type: ClassVar[type[Any] | None] = None
    """The frozen dataclass of its own part of a game's set-up, one of `GameCreated.options`
    (every field with a default: the defaults are a game that does not play it); its
    fields' names are the saved record's, unique among the expansions'."""
    setup_keywords: ClassVar[tuple[str, ...]] = ()
    """Keywords of `Session.new_game` it reads besides its choice (`Deal.asked`, by that
    name): the Necromancer's `ghosts_removed`."""
    has_boards: ClassVar[bool] = False
    """Whether a group may write board files made for it (`board_made_for` tells one)."""
    board_part: ClassVar[BoardPart | None] = None
    """Its part of the board format (`maps.BoardPart`: the symbols it prints in a region,
    its own region fields and their checks), which every board is read with while it is
    registered (River World's sites and pirate symbols)."""
    race_bonuses: Mapping[str, tuple[Bonus, ...]] = MappingProxyType({})
    """Its races that score on facts of their own (given as one of a race's `facts`),
    with their bonuses; scoring knows them beside the base game's."""
    power_bonuses: Mapping[str, tuple[Bonus, ...]] = MappingProxyType({})
    """Its special powers that score on facts of their own, with their bonuses."""
    rule_kinds: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Its own kinds of rule book entry, (kind, what a screen calls it), in search order
    (River World's events); its pieces are of the rule book's `PIECE` kind."""

    # --- which games -----------------------------------------------------------------

    def plays(self, created: GameCreated) -> bool:
        """Whether a game created so plays it."""
        return False

    def in_play(self, state: GameState) -> bool:
        """Whether the game at `state` plays it."""
        return False

    # --- the session's set-up draws ----------------------------------------------------

    def check_table(self, seats: int, asked: bool | None) -> None:
        """Refuse `seats` at the table when it cannot be played there (`asked`: what the
        table asked of it); asked of every registered expansion before the board is chosen."""

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """`deal` with what it draws for a game that asked for it (its part of the set-up
        added to `options`, the badges it takes out of `powers`); `shuffle` draws the order.
        Asked of every registered expansion, in the registry's order (so the draws are
        always made in the same order)."""
        return deal

    # --- set-up ------------------------------------------------------------------------

    def check_created(self, created: GameCreated) -> None:
        """Refuse its part of the set-up when it makes no sense (asked
        first, of every registered expansion, played or not)."""

    def board_players(self, seats: int, usual: int) -> int:
        """The players the packaged board is for when it is played by `seats` players
        (`usual`: what the base game and the expansions before it say)."""
        return usual

    def own_board(self, created: GameCreated, board: Board) -> bool:
        """Whether the game may be played on `board` although its size is not the usual
        one (a group's own board)."""
        return False

    def board_made_for(self, board: Board) -> bool:
        """Whether `board` is made for it (a board of its kind: `companion doctor` names
        it beside such a board file); only when `has_boards`."""
        return False

    def badges(self, created: GameCreated) -> tuple[str, ...]:
        """Badges of the game outside the market's stack."""
        return ()

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        """Its part of the first state (asked of every registered expansion, played or
        not: it may refuse a game that needs it, and otherwise leaves `state` as it is)."""
        return state

    # --- events ------------------------------------------------------------------------

    def refuse(self, state: GameState, event: Event) -> None:
        """Refuse `event` before the rules apply it (asked of every registered expansion,
        played or not)."""

    def apply(self, state: GameState, event: Event) -> GameState:
        """The state after one of its own `events`, or after one of the base game's events
        of a seat it plays itself (`plays_seat`)."""
        raise IllegalAction(said("unknown event {event}", event=repr(event)))

    # --- a seat it plays itself --------------------------------------------------------

    def plays_seat(self, state: GameState, seat: int) -> bool:
        """Whether it plays `seat` itself, in place of the base rules."""
        return False

    def seat_attacker(self, state: GameState) -> Attacker:
        """Its seat's attacker, as the conquest rules see it."""
        raise IllegalAction(said("{expansion} plays no seat", expansion=self.name))

    def seat_income(self, state: GameState) -> tuple[tuple[str, int], ...]:
        """What its seat's turn earns now, itemised (label, coins)."""
        raise IllegalAction(said("{expansion} plays no seat", expansion=self.name))

    # --- after the base rules ----------------------------------------------------------

    def refuse_conquest(self, state: GameState, who: Attacker, region: int) -> None:
        """Refuse `who`'s conquest of `region` (after the base game's own refusals of the
        attacker, before the region's protections)."""

    def conquered(self, state: GameState, region: int, before: RegionState,
                  seat: int) -> GameState:
        """After `seat` conquered `region`, which stood as `before`."""
        return state

    def refuse_abandon(self, state: GameState, region: int) -> None:
        """Refuse the current player abandoning `region`."""

    def race_declined(self, before: GameState, after: GameState,
                      event: RaceDeclined) -> GameState:
        """After a race went into decline (`after.track.phase` is SCORE when it did so
        instead of conquering, which ends its player's redeployment too). Asked of every
        registered expansion, played or not, so one refuses a choice of its own that the
        decline carries (a piece its race builds) in a game without it: it must do nothing else
        when not played."""
        return after

    def redeployment_leaves(self, state: GameState, seat: int) -> frozenset[int]:
        """The regions of `seat` that their redeployment empties (the tokens there must
        move out first); asked of the played expansions."""
        return frozenset()

    def leaving_refusal(self, race: str, regions: tuple[int, ...]) -> Said:
        """Why redeployment cannot finish while `race` still stands in `regions`, which it
        must leave (`redeployment_leaves`)."""
        return said("the {race} leave regions {regions} as they redeploy; move the tokens "
                    "out first", race=Name("race", race), regions=listed(regions))

    def kept_off_the_board(self, state: GameState, seat: int, race: str) -> int | None:
        """How many tokens of `seat`'s `race` stay in hand, set aside, when its
        redeployment finishes (None: the base game's count, Amazons' four); asked of the
        played expansions."""
        return None

    def redeployment_finished(self, state: GameState, seat: int) -> GameState:
        """After `seat` finished redeploying."""
        return state

    def turn_passed(self, before: GameState, ended: GameState) -> GameState:
        """After a turn ended (`ended`: the track already at the next player, its
        `ThisTurn` cleared). An expansion that keeps facts of the turn in its own part of
        the state (the mini-expansions' Pygmies rolls owed) clears them here."""
        return ended

    def settled(self, before: GameState, event: Event, after: GameState) -> GameState:
        """After any event, once the rules applied it."""
        return after

    # --- the reinforcement die ---------------------------------------------------------

    def refuse_roll(self, state: GameState) -> Said | None:
        """Why the reinforcement die may not be rolled at all now, in one line a screen
        shows (asked of the played expansions before the base rules' reasons); None: no
        objection."""
        return None

    def may_attack(self, state: GameState, who: Attacker, region: int) -> bool | None:
        """Whether `who` may attack `region` now, by position and protection alone, where
        this expansion decides it; None: the base rules (immunity and reach) decide."""
        return None

    def rolls_owed(self, state: GameState, event: Event,
                   draw: Callable[[], int]) -> tuple[Event, ...]:
        """The events of its own rolls that `event` owes at `state` (before it is applied),
        each face drawn with `draw`; they are recorded in the same step as `event`."""
        return ()

    # --- who attacks -------------------------------------------------------------------

    def with_facts(self, state: GameState, who: Attacker) -> Attacker:
        """`who` with what its conquests read from this expansion."""
        return who

    # --- markers -------------------------------------------------------------------------

    def marker_owner(self, state: GameState, marker: str) -> tuple[str, int | None] | None:
        """For one of its own markers: the race or power that places it, and how many the
        box holds (None: not known); None for a marker not its own."""
        return None

    def refuse_marker(self, state: GameState, event: MarkerPlaced) -> None:
        """Refuse placing a marker now (after the owner's check, before the region's)."""

    def region_set(self, state: GameState, markers: Markers) -> Markers:
        """The markers of a region the table sets a race in (`RegionSet`), its own pieces
        that cannot share a region with a race taken off."""
        return markers

    # --- the table's screen -------------------------------------------------------------

    def public_part(self, state: GameState) -> object | None:
        """What it shows everyone at the table (never a purse total), or None."""
        return None

    # --- reminders -----------------------------------------------------------------------

    def race_reminder(self, state: GameState, name: str) -> Said | None:
        """The reminder for the current player's race or power `name` (one of its own) at
        this moment, or None."""
        return None

    def reminders(self, state: GameState) -> tuple[Said, ...]:
        """Its reminders for the current player now, after the base game's."""
        return ()

    # --- the score and the end ---------------------------------------------------------

    def scoring_input(self, state: GameState, inp: ScoringInput) -> ScoringInput:
        """The current player's scoring input with the facts only it knows filled in."""
        return inp

    def income_lines(self, state: GameState) -> tuple[ScoreLine, ...]:
        """Lines it adds to the current player's income now."""
        return ()

    def tied_for_first(self, state: GameState,
                       coins: Mapping[int, int]) -> frozenset[int] | None:
        """The seats whose race tokens on the board break a tie for first, given every
        player's `coins`; None: the base game's rule."""
        return None

    def standings(self, state: GameState, tokens: Mapping[int, int] | None,
                  names: Mapping[int, str]) -> Standings | None:
        """The outcome of a game over, or None: the base game's standings."""
        return None

    # --- the rule book ---------------------------------------------------------------

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        """Its entries in the rule book, of the `PIECE` kind or of its `rule_kinds` (the
        races and powers come from the catalog, not from here)."""
        return ()

    # --- scoring its races and powers (asked by `companion.rules.scoring`) ------------

    def check_race(self, where: str, race: ScoredRace, catalog: Catalog) -> None:
        """Refuse (`ScoringInputError`, its field under `where`: "active", "declined[0]")
        the facts of its own given for `race` that the rules cannot produce."""

    def regions_instead(self, race: ScoredRace) -> InsteadOfRegions | None:
        """What its rule scores in lieu of `race`'s regions (None: they score as usual)."""
        return None

    def check_region(self, field: str, region: HeldRegion) -> None:
        """Refuse (`ScoringInputError`, its field under `field`: "active.regions[2]") its
        facts of a region listed (one of `region.facts`) that the rules cannot produce."""

    def region_counts(self, regions: Sequence[HeldRegion]) -> object | None:
        """Its facts of the regions listed, counted as a quick count gives them (one of
        `QuickCount.facts`), so a list and its count score the same (None: none)."""
        return None

    def check_count(self, field: str, count: QuickCount, tally: Tally) -> None:
        """Refuse (`ScoringInputError`, its field under `field`: "active.regions") its
        counts (one of `count.facts`) that the rules cannot produce; `tally` holds the base
        game's counts, already checked (the land regions, the coastal ones...)."""

    def race_lines(self, race: ScoredRace) -> Sequence[ScoreLine]:
        """Its lines of a race that scores, after the race's regions and bonuses."""
        return ()

    def player_lines(self, races: Sequence[ScoredRace]) -> Sequence[ScoreLine]:
        """Its lines of the scoring player's races together, after every race's lines."""
        return ()
