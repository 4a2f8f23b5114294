"""The session: the one place that ties the rules, randomness, storage and screens together.

A screen or a device hands the session an intent; the session builds the step of events
for it (drawing any randomness here, so it enters the rules as data), asks the rules to
record the step (which refuses an illegal one and changes nothing), saves the step in one
transaction, and only then takes the new state as its own and publishes it to its
listeners. If the save fails the step is dropped: the session keeps the state that is on
disk and the caller gets the store's plain message. After every step that ends a turn the
state before it is kept as the game's snapshot (it shortens the replay when the game is
opened again) and a backup is taken, through `later`: the app does both in the frame
after the one that shows the new turn, so no tap waits for them or the backup's fsync.
Listeners are called on the caller's thread: devices must hand their callbacks to the UI
thread before calling in, and the store only works on the thread that opened it.
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.records import Records
from companion.rules import corrections, events, troops_game
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.conquest import conquest_cost, final_conquest
from companion.rules.die import DieChance, DiePurpose, die_roll_allowed, owed_rolls
from companion.rules.errors import IllegalAction
from companion.rules.expansion import Deal
from companion.rules.expansions import (
    ExpansionIntents,
    board_players_for,
    check_table,
    deal,
    decline_options,
    registered,
)
from companion.rules.game import GameState, apply, attacker, follow_ups, start
from companion.rules.history import History, Step
from companion.rules.income import income
from companion.rules.maps import board_for_players, parse_board_text
from companion.rules.said import N_, Name, said, said_n
from companion.rules.standings import Standings
from companion.rules.views import final_totals
from companion.store import Store
from companion.store.errors import StoreError, StoreWriteError

Listener = Callable[[GameState], None]

NO_GAME = N_("no game is being played; start a new game first")


def _chosen(asked: Mapping[str, bool | int | None]) -> dict[str, bool | int | None]:
    """The table's choice of each expansion by its `key`, from `new_game`'s keywords (each
    expansion's `option`, else its `key`), and the other keywords an expansion reads
    (`setup_keywords`) by their names; an unknown keyword is refused."""
    chosen: dict[str, bool | int | None] = {}
    left = dict(asked)
    for expansion in registered():
        word = expansion.option or expansion.key
        if word in left:
            chosen[expansion.key] = left.pop(word)
        for word in expansion.setup_keywords:
            if word in left:
                chosen[word] = left.pop(word)
    if left:
        known = sorted(w for x in registered() for w in (x.option or x.key, *x.setup_keywords))
        raise TypeError(f"new_game() got unexpected keyword(s) {sorted(left)}; "
                        f"the expansions' are {known}")
    return chosen


@dataclass(frozen=True, slots=True)
class FinalAttempt:
    """How a final conquest with the die went."""

    region: int
    tokens_left: int
    cost: int
    face: int
    succeeded: bool


class Session(ExpansionIntents):
    """One game at the table, driven by intents.

    An expansion's own event goes through `play`; its intents as methods
    (`buy_ghost`, `place_caravel`, ...) come from its module's `Intents` class, gathered by
    the registry (`ExpansionIntents`), so this class names no expansion.
    """

    def __init__(
        self,
        catalog: Catalog | None = None,
        rng: random.Random | None = None,
        store: Store | None = None,
        later: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self.catalog = catalog or load_catalog()
        self.rng = rng or secrets.SystemRandom()
        self.store = store
        self.later = later or (lambda work: work())
        """Runs work that may wait until the state it follows is on screen (the backup
        after a turn): the app hands it to the frame after; by default it runs at once."""
        self.game_id: int | None = None
        self.history: History | None = None
        self._listeners: list[Listener] = []
        self._redo: tuple[Step, ...] = ()
        self._redo_at: tuple[object, int] | None = None
        """The steps undo took back (the next to put back last), good only while the
        game (its first step, by identity) and its log's length are those the last undo
        or redo left (`redo_steps`)."""

    def resume(self) -> GameState | None:
        """Reopen the unfinished game saved in the store, exactly where it was left."""
        if self.store is None or (game_id := self.store.unfinished_game()) is None:
            return None
        self.history = self.store.load_history(game_id)
        self.game_id = game_id
        return self._publish()

    # -- the saved records -------------------------------------------------------------
    @property
    def records(self) -> Records | None:
        """What the screens may ask of the saved games (profiles, history, stats, backups,
        exports, settings); None when there are none (the file could not be opened)."""
        return self.store

    def save_corrections(self, overrides: Sequence[corrections.Override]) -> Catalog:
        """Save the group's corrected numbers and play by them from the next game on
        (`RecordsError` when they cannot be saved, or no saved games to keep them in)."""
        from companion.store import corrections as saved_corrections

        if self.store is None:
            raise StoreError("There are no saved games to keep the corrected numbers in.")
        self.catalog = saved_corrections.save(self.store, self.catalog, overrides)
        return self.catalog

    # -- observing -------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every new state; a listener already subscribed stays once."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling `listener` (nothing happens if it was not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    @property
    def listeners(self) -> int:
        """How many listeners are subscribed (each is called once per new state)."""
        return len(self._listeners)

    @property
    def state(self) -> GameState:
        if self.history is None:
            raise IllegalAction(said(NO_GAME))
        return self.history.state

    # -- intents ---------------------------------------------------------------------
    def new_game(
        self,
        seats: Sequence[events.Seat],
        *,
        first_seat: int | None = None,
        expansions: Sequence[str] = ("base",),
        dealing: str = "app",
        board_doc: str | None = None,
        left_out: Sequence[str] = (),
        **asked: bool | int | None,
    ) -> GameState:
        """Start a game; the decks are shuffled (app dealing) and the first player drawn
        at random unless given.

        `board_doc`: a board a group wrote (`companion.boards.CustomBoard.document`), saved
        with the game; else the packaged board for the number of players. `asked`: the
        table's choice of each expansion, by its `option` keyword (None: its default), and
        what else an expansion reads (its `setup_keywords`: the Necromancer's
        `ghosts_removed`, Ghosts out of his reserve, 0 to 2); each expansion's set-up draws
        are asked of the registry (`deal`), in its order. `left_out`: races or powers the
        table takes out of the decks.
        """
        chosen = _chosen(asked)
        check_table(len(seats), chosen)  # e.g. a table too small for an expansion asked for
        playing = board_players_for(len(seats), chosen)
        if board_doc is None:
            board = board_for_players(playing)
        else:
            board = parse_board_text(board_doc, source="the chosen board")
        races = [r.name for r in self.catalog.races_in(expansions)]
        powers = [p.name for p in self.catalog.powers_in(expansions)]
        races = [r for r in races if r not in left_out]
        powers = [p for p in powers if p not in left_out]
        if dealing == "app":
            self.rng.shuffle(races)
            self.rng.shuffle(powers)
        if first_seat is None:
            first_seat = self.rng.randrange(len(seats))
        # the expansions' own draws (his six powers, the Event markers, the Relics' pile)
        dealt = deal(Deal(chosen, board, dealing, tuple(powers), self.catalog), self.rng.shuffle)
        created = events.GameCreated(
            seats=tuple(seats), first_seat=first_seat, board=board.name, turns=board.turns,
            expansions=tuple(expansions), dealing=dealing, races=tuple(races),
            powers=dealt.powers, board_doc=board_doc, options=dealt.options,
            corrections=corrections.overrides(self.catalog),
            left_out=tuple(left_out), troops_counted=True,
        )
        return self.begin(created)

    def begin(self, created: events.GameCreated) -> GameState:
        """Start the game `created` describes (decks already in their dealt order)."""
        step = (created, *self._market_follow_ups(start(created, self.catalog))[0])
        history = History.begin(step, self.catalog)
        self.game_id = self.store.new_game(step) if self.store is not None else None
        self.history = history
        return self._publish()

    def pick(self, row: int) -> GameState:
        state = self.state
        if not 0 <= row < len(state.market.rows):
            raise IllegalAction(said("there is no combo in row {row}", row=row + 1))
        combo = state.market.rows[row].combo
        return self._act(events.ComboPicked(state.track.seat, row, combo.race, combo.power))

    def reveal(self, race: str, power: str) -> GameState:
        """The table dealt a combo with the cardboard (table dealing)."""
        race = self.catalog.race(race).name
        power = self.catalog.power(power).name
        return self._act(events.ComboRevealed(race, power))

    def decline(self, region: int | None = None) -> GameState:
        """The active race goes into decline; `region`: where a race that builds on going
        into decline builds (the mini-expansions' tower)."""
        return self._act(events.RaceDeclined(self.state.track.seat, decline_options(region)))

    def finish_conquests(self) -> GameState:
        return self._act(events.ConquestsFinished(self.state.track.seat))

    def finish_redeployment(self) -> GameState:
        return self._act(events.RedeploymentFinished(self.state.track.seat))

    def conquer(self, region: int, tokens: int | None = None, *,
                mercenary_coin: bool = False, declined_ghouls: bool = False,
                catapult: bool = False, sorcery: bool = False,
                dragon: bool = False) -> GameState:
        """Record a conquest; `catapult`: shot from the player's Catapult (once a turn);
        `sorcery`: Sorcerers replacing an opponent's lone active token with one of theirs
        from the tray (once a turn per opponent); `dragon`: Dragon Master's conquest with
        the race's fewest tokens, whatever defends the region (once a turn)."""
        conquest = events.RegionConquered(self.state.track.seat, region, tokens,
                                          mercenary_coin, declined_ghouls, catapult, sorcery,
                                          dragon)
        return self._act(conquest, *self._owed_rolls(conquest))

    def redeploy(self, regions: Mapping[int, int], *, seat: int | None = None,
                 race: str | None = None) -> GameState:
        """Troop redeployment: the token count of every region of the race afterwards
        (default: the current player's active race); a defender (`seat`, `race`) puts the
        tokens in their hand into their regions before the attacker's turn ends."""
        seat, race = self._race(seat, race)
        return self._act(events.TroopsRedeployed(seat, race, tuple(sorted(regions.items()))))

    def spread_hand(self, *, seat: int | None = None, race: str | None = None) -> GameState:
        """One tap: the tokens in hand go into the race's regions, fewest first (Amazons
        redeploying keep their four aside, taken from the fullest regions when the hand has
        fewer; a defender puts their whole hand back)."""
        seat, race = self._race(seat, race)
        state = self.state
        if not state.regions.held_by(seat, race):
            raise IllegalAction(said("the {race} hold no region: their tokens stay in hand for "
                                     "the next turn's first conquest", race=Name("race", race)))
        placement = troops_game.suggested(state, seat, race)
        if placement is None:
            in_hand = troops_game.hand(state, seat, race) or 0
            if in_hand and seat == state.track.seat \
                    and troops_game.keep_in_hand(state, seat, race) >= in_hand:
                raise IllegalAction(said_n(
                    "the {race} keep the {n} token in hand off the board until the next turn",
                    "the {race} keep the {n} tokens in hand off the board until the next turn",
                    in_hand, race=Name("race", race)))
            raise IllegalAction(said("no {race} tokens in hand to put on the board",
                                     race=Name("race", race)))
        return self.redeploy(placement, seat=seat, race=race)

    def _race(self, seat: int | None, race: str | None) -> tuple[int, str]:
        """The race meant: given, or the seat's active race (the current player's)."""
        state = self.state
        seat = state.track.seat if seat is None else seat
        if race is None:
            active = state.player(seat).active
            if active is None:
                raise IllegalAction(said("{player} has no active race",
                                         player=state.player(seat).name))
            race = active.race
        return seat, race

    def abandon(self, region: int) -> GameState:
        return self._act(events.RegionAbandoned(self.state.track.seat, region))

    def place_marker(self, region: int, marker: str) -> GameState:
        return self._act(events.MarkerPlaced(self.state.track.seat, region, marker))

    def remove_marker(self, region: int, marker: str) -> GameState:
        return self._act(events.MarkerRemoved(self.state.track.seat, region, marker))

    def set_region(self, region: int, seat: int | None, race: str | None = None, *,
                   in_decline: bool = False, tokens: int | None = None,
                   lost_tribe: bool = False) -> GameState:
        """Correct who holds a region (not a conquest)."""
        return self._act(events.RegionSet(region, seat, race, in_decline, tokens, lost_tribe))

    def play(self, event: events.Event, *more: events.Event) -> GameState:
        """An expansion's own event (and any that follow it in the same step), built by
        its module (its `Intents`): the rules refuse it or it is recorded as one step."""
        return self._act(event, *more)

    def score(self, coins: int | None = None, lines: Sequence[tuple[str, int]] = ()) -> GameState:
        """Score the turn: from the board when `coins` is None, else the number given
        (quick count)."""
        from companion.rules.expansions import seat_income

        own = None if coins is not None else seat_income(self.state)
        if own is not None:  # a seat an expansion plays itself
            lines = own
            coins = sum(n for _, n in lines)
        if coins is None:
            earned = income(self.state)
            coins, lines = earned.total, [(line.label, line.coins) for line in earned.lines]
        return self._act(events.TurnScored(self.state.track.seat, coins, tuple(lines)))

    def adjust_coins(self, seat: int, delta: int, reason: str) -> GameState:
        return self._act(events.CoinsAdjusted(seat, delta, reason))

    def end_turn(self) -> GameState:
        return self._act(events.TurnEnded(self.state.track.seat))

    def die_chance(self) -> DieChance:
        """The roll the rules give now (`die.die_roll_allowed`), or None and why not."""
        if self.history is None:
            return DieChance(None, said("No game is being played."))
        return die_roll_allowed(self.state)

    def roll_for_berserk(self) -> int:
        """Berserk: roll before the next conquest; its face comes off that conquest's cost.
        Refused (nothing drawn) unless the rules give a Berserk roll now; the face is saved
        before anyone sees it."""
        state = self.state
        chance = die_roll_allowed(state)
        if chance.purpose is not DiePurpose.BERSERK:
            raise IllegalAction(chance.reason if chance.purpose is None else
                                said("only a Berserk race rolls before a conquest; this roll "
                                     "is for the final conquest (choose its region first)"))
        face = self.rng.choice(self.catalog.die_faces)
        self._act(events.DieRolled(state.track.seat, face, DiePurpose.BERSERK))
        return face

    def attempt_final_conquest(self, region: int, tokens_left: int) -> FinalAttempt:
        """The last conquest of the turn with the reinforcement die.

        The region is chosen before the roll; the face is drawn and saved together with its
        outcome: the region taken if tokens left + face cover the cost, and in any case the
        end of this turn's conquests. One step, so undo cannot re-roll it. In a game that
        counts its tokens `tokens_left` is the ledger's hand, whatever is passed. Refused before
        any face is drawn when the rules give no final roll now (once a turn; not for a
        Berserk race, whose roll comes before each conquest) or the region cannot be the
        target.
        """
        state = self.state
        seat = state.track.seat
        chance = die_roll_allowed(state)
        if chance.purpose is not DiePurpose.FINAL_CONQUEST:
            raise IllegalAction(chance.reason if chance.purpose is None else
                                said("Berserk rolls before each conquest instead of a final "
                                     "roll: with too few tokens after it, that conquest is the "
                                     "last"))
        who = attacker(state)
        in_hand = troops_game.hand(state, who.seat, who.race)
        tokens_left = tokens_left if in_hand is None else in_hand
        cost = conquest_cost(state.map, region, state.regions.regions, who,
                             catapults=state.regions.catapults()).total
        odds = final_conquest(tokens_left, cost, self.catalog.die_faces, who)
        if not odds.allowed:
            raise IllegalAction(odds.reason)
        # The rules check the roll and the conquest it may win before any face is drawn.
        rolled = apply(state, events.DieRolled(seat, max(self.catalog.die_faces),
                                               DiePurpose.FINAL_CONQUEST, region))
        apply(rolled, events.RegionConquered(seat, region, tokens_left))
        face = self.rng.choice(self.catalog.die_faces)
        won = tokens_left + face >= cost
        step: list[events.Event] = [events.DieRolled(seat, face, DiePurpose.FINAL_CONQUEST, region)]
        if won:
            conquest = events.RegionConquered(seat, region, tokens_left)
            step.extend((conquest, *self._owed_rolls(conquest)))
        step.append(events.ConquestsFinished(seat))
        self._record(tuple(step))
        return FinalAttempt(region, tokens_left, cost, face, won)

    def finish(self, tokens: Mapping[int, int] | None = None) -> Standings:
        """The final standings once the game is over, saved to the history of games.

        `tokens` (race tokens on the board by seat) is needed only for the players tied
        for first (`tied_for_first`); refused without them.
        """
        from companion.rules.expansions import game_standings

        state = self.state
        final_totals(state)  # refuses before the end
        names = {p.seat: p.name for p in state.players}
        standings = game_standings(state, tokens, names)
        if self.store is not None and self.game_id is not None:
            self.store.finish_game(self.game_id, standings)
        return standings

    def tied_for_first(self) -> frozenset[int]:
        """The seats whose tokens on the board must be counted to break a tie for first."""
        from companion.rules.expansions import tied_for_first

        return tied_for_first(self.state)  # the game's expansions have their say

    def undo(self) -> GameState:
        """Take back the latest step in force (refused past a barrier: a die roll, a
        reshuffle, the end of a turn). The step taken back is kept for `redo`: undos in
        a row stack up, and redo puts them back in order."""
        history = self.history
        if history is None:
            raise IllegalAction(said(NO_GAME))
        return self._record_keeping_redo((events.StepUndone(),),
                                         (*self.redo_steps, history.last_step))

    @property
    def redo_steps(self) -> tuple[Step, ...]:
        """The steps undo took back that `redo` can put back, the next one last; empty
        once anything else happened since (any new step), after a new game or a restart."""
        history = self.history
        at = self._redo_at
        if history is None or at is None or at[0] is not history.log[0] \
                or at[1] != len(history.log):
            return ()
        return self._redo

    def redo(self) -> GameState:
        """Put back the step the latest undo took back: the very same events, saved again
        as a new step (the die faces it holds are never drawn again), so a replay of the
        log reaches the same state. Only while nothing else happened since that undo."""
        steps = self.redo_steps
        if not steps:
            raise IllegalAction(said("there is nothing to redo: something else happened since "
                                     "the undo, or nothing was taken back"))
        return self._record_keeping_redo(steps[-1], steps[:-1])

    def _record_keeping_redo(self, step: Step, redo: tuple[Step, ...]) -> GameState:
        """Record an undo or a redo with `redo` as what is left to put back afterwards,
        set before the new state is published (its listeners see it); unchanged when the
        step is refused or not saved."""
        history = self.history
        assert history is not None
        kept = self._redo, self._redo_at
        self._redo, self._redo_at = redo, (history.log[0], len(history.log) + 1)
        try:
            return self._record(step)
        except BaseException:
            if self.history is history:
                self._redo, self._redo_at = kept
            raise

    # -- plumbing --------------------------------------------------------------------
    def _act(self, event: events.Event, *more: events.Event) -> GameState:
        state = apply(self.state, event)
        for then in more:
            state = apply(state, then)
        reveals, state = self._market_follow_ups(state)
        return self._record((event, *more, *reveals), after=state)

    def _owed_rolls(self, conquest: events.RegionConquered) -> tuple[events.Event, ...]:
        """The rolls an expansion's pieces lost to this conquest owe (new pieces by a roll of
        the die), drawn here."""
        return owed_rolls(self.state, conquest, lambda: self.rng.choice(self.catalog.die_faces))

    def _market_follow_ups(self, state: GameState) -> tuple[Step, GameState]:
        """Reveals owed after an event, with a badge reshuffle drawn here when needed, and
        the state once they are applied."""
        step: list[events.Event] = []
        while True:
            reveals = follow_ups(state)
            for event in reveals:
                state = apply(state, event)
            step.extend(reveals)
            market = state.market
            if not (market.ordered and market.needs_badge_reshuffle):
                return tuple(step), state
            order = list(market.discarded_powers)
            self.rng.shuffle(order)
            shuffle = events.BadgesReshuffled(tuple(order))
            state = apply(state, shuffle)
            step.append(shuffle)

    def _record(self, step: Step, after: GameState | None = None) -> GameState:
        """Record, save and publish `step`; `after`: the state `_act` already reached by
        applying it to the current state (not applied a second time)."""
        if self.history is None:
            raise IllegalAction(said(NO_GAME))
        history = self.history.record(step, after=after)
        if self.store is not None and self.game_id is not None:
            number = len(self.history.log) + 1
            self.store.append_step(self.game_id, step, number=number)
            if any(isinstance(event, events.TurnEnded) for event in step):
                game_id, before = self.game_id, self.history.state
                self.later(lambda: self._after_turn(game_id, number, before))
        self.history = history
        return self._publish()

    def _after_turn(self, game_id: int, number: int, before: GameState) -> None:
        """The snapshot of the turn that ended with step `number` (the state `before` it),
        then a backup, which holds it; a failure of either never loses the game, which
        is saved."""
        if self.store is None:  # the store was let go before the frame after
            return
        with contextlib.suppress(StoreWriteError):
            self.store.save_snapshot(game_id, number, before)
        with contextlib.suppress(StoreWriteError):
            self.store.backup()

    def _publish(self) -> GameState:
        state = self.state
        for listener in self._listeners:
            listener(state)
        return state
