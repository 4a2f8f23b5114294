"""Scoring the turn: the breakdown from the map, line by line, or a quick count by hand.

The map path reads the lines from `income.income(state)`. The quick count is the same
engine fed by hand: for each of the player's races on the board, steppers count its
regions per terrain, the mines and magic sources among them, and for the active race the
non-empty regions conquered this turn and its fortresses; `scoring.score_turn` turns the
counts (`QuickCount`) into the same itemised lines, shown as the steppers move, and the
player confirms them with one tap. The counts start from what the map says, so only the
difference needs tapping. What no stepper asks (first turn, Peace-Loving, Gypsies...) is
read off the game as on the map path.

Lines are public (everybody sees the board); the purse total is never shown here. Only
when the rules cannot score the player's races at all (a race with no scoring rule) does
the screen fall back to a single stepper for the coins counted by hand.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.i18n import N_, _
from companion.rules import (
    ActiveHoldings,
    DeclinedHoldings,
    GameState,
    Phase,
    QuickCount,
    RulesError,
    ScoringInput,
    Terrain,
    TurnScore,
    count_regions,
    income,
    names,
    score_turn,
    scoring_input,
)
from companion.ui import names as shown_names
from companion.ui.describe import coins, phase_hint
from companion.ui.presenters import expansions as expansion_views
from companion.ui.presenters.base import Presenter, plain
from companion.ui.presenters.expansion import ExpansionView
from companion.ui.presenters.intents import known
from companion.ui.wording import say

LAND = (Terrain.FARMLAND, Terrain.HILL, Terrain.FOREST, Terrain.SWAMP, Terrain.MOUNTAIN)
WATER = (Terrain.SEA, Terrain.LAKE)
TERRAIN_WORDS = {Terrain.FARMLAND: N_("Farmland"), Terrain.HILL: N_("Hills"),
                 Terrain.FOREST: N_("Forests"), Terrain.SWAMP: N_("Swamps"),
                 Terrain.MOUNTAIN: N_("Mountains"), Terrain.SEA: N_("Seas"),
                 Terrain.LAKE: N_("The lake")}
"""Each base terrain's line on the scoring screen, marked here and translated where shown
(an expansion's terrains: its view's words, `terrain_line`)."""


def terrain_line(terrain: Terrain) -> str:
    """A terrain's line on the scoring screen in the language spoken now: the base game's
    from `TERRAIN_WORDS`, an expansion's as its view words it when asked (never kept from
    an earlier language)."""
    words = TERRAIN_WORDS.get(terrain)
    if words is not None:
        return _(words)
    return next((look.words for view in expansion_views.registered()
                 for look in view.terrain_looks() if look.terrain is terrain),
                terrain.value.capitalize())
AMONG_THEM = N_("Of all these regions, whatever their terrain:")
"""The heading over the counts of regions with a feature (a mine, a magic source...)."""
COUNT_HINT = N_("Count each race's regions on the board (the map's count is filled in). The "
                "lines follow the counts; check them, then score.")
"""The hint while counting by hand."""


def _expansion_counts(state: GameState | None, count: QuickCount
                      ) -> tuple[tuple[ExpansionView, str, str, int], ...]:
    """The counts the game's expansions ask for: (its view, the count's name, its words,
    its value in `count`), from each view's `scoring_counts`."""
    if state is None:
        return ()
    return tuple((view, *counted) for view in expansion_views.played(state)
                 for counted in view.scoring_counts(count))


def _counts(regions: Any) -> QuickCount:
    return regions if isinstance(regions, QuickCount) else count_regions(regions)


class Action(StrEnum):
    """The scoring screen's buttons (the values are their keys)."""

    SCORE = "score"
    QUICK = "quick"
    BOARD = "board"
    SCORE_QUICK = "score_quick"
    BACK = "back"


def parse(key: str) -> Action:
    """The scoring screen's action for `key`; `UnknownAction` when it has none."""
    return known("scoring", key, Action)


class ScoringPresenter(Presenter, parse=parse):
    title = StringProperty(N_("Score the turn"))
    hint = StringProperty("")
    lines = ListProperty([])
    """The breakdown shown: the map's, or the quick count's. Dicts {label, coins}."""
    total_text = StringProperty("")
    can_score = BooleanProperty(False)
    board_ok = BooleanProperty(True)
    quick = BooleanProperty(False)
    manual = BooleanProperty(False)
    """The rules cannot score these races: only a total counted by hand is possible."""
    quick_rows = ListProperty([])
    """The quick count's steppers and headings, in order: dicts {key, label, value, maximum}
    (a heading has key "" and no value)."""
    quick_ok = BooleanProperty(True)
    quick_hint = StringProperty("")
    quick_coins = NumericProperty(0)
    score_text = StringProperty(N_("Score"))
    quick_text = StringProperty(N_("Score 0 coins"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._counts: dict[str, int] = {}
        self._board_lines: list[dict[str, str]] = []
        self._quick_score: TurnScore | None = None
        self._for: tuple[object, int, int] | None = None
        self._base: ScoringInput | None = None
        self._from_map: dict[str, QuickCount] = {}
        super().__init__(*args, **kwargs)

    # -- what is shown ---------------------------------------------------------------------
    def refresh(self, state: GameState) -> None:
        name = state.current.name
        self.can_score = state.track.phase is Phase.SCORE and not state.is_over
        self.title = _("{name} scores the turn").format(name=name)
        turn_of = (self.session.history.log[0] if self.session.history else None,
                   state.track.turn, state.track.seat)
        if turn_of != self._for:  # another player's turn: count afresh from the map
            self._for = turn_of
            self.quick = False
            self._counts = {}
        try:
            earned = income(state)
        except RulesError as refused:
            self.board_ok = False
            self.score_text = _("Score")
            self._board_lines = []
            self.total_text = ""
            self.quick = True
            self.hint = _("The app cannot work this turn out from the map: {reason} Count by "
                          "hand.").format(reason=plain(say(refused)))
        else:
            self.board_ok = True
            self._board_lines = [{"label": say(line.words), "coins": f"{line.coins:+d}"}
                                 for line in earned.lines]
            self.total_text = _("This turn: {coins}").format(coins=coins(earned.total))
            self.score_text = _("Score {coins}").format(coins=coins(earned.total))
            self.hint = _("Worked out from the map. Check it against the board, then score. "
                          "If the map is not up to date, count by hand.")
        self._refresh_quick(state)
        if not self.can_score:
            self.hint = _("Scoring comes after the redeployment. {note}").format(
                note=phase_note(state))
        elif self.quick and self.board_ok:
            self.hint = _(COUNT_HINT)
        self._show_lines()

    def _refresh_quick(self, state: GameState) -> None:
        try:
            base = scoring_input(state)
        except RulesError:
            base = None
        rows: list[dict[str, Any]] = []
        self._from_map = {}
        if base is not None:
            if base.active is not None:
                rows += self._race_rows("active", base.active, active=True)
            for index, held in enumerate(base.declined):
                rows += self._race_rows("declined" + str(index), held, active=False)
        self.quick_rows = rows
        self._base = base
        self._score_quick()

    def _race_rows(self, key: str, held: ActiveHoldings | DeclinedHoldings,
                   active: bool) -> list[dict[str, Any]]:
        counted = _counts(held.regions)
        self._from_map[key] = counted
        state = self.state
        assert state is not None
        regions = len(state.map.regions)
        label = (_("{combo} (active): regions held") if active
                 else _("{combo} (in decline): regions held"))
        rows: list[dict[str, Any]] = [
            {"key": "", "label": label.format(combo=shown_names.combo(held.power, held.race))}]
        rows += [self._row(f"{key}.{terrain.value}", terrain_line(terrain),
                           counted.terrains.get(terrain, 0), regions)
                 for terrain in self._terrains(key, held.power)]
        # Mines, magic sources, coasts and harbors lie on any terrain: they count among all
        # the race's regions above, never among the last terrain's alone, so they come under
        # a heading that says so rather than right under "Mountains".
        rows.append({"key": "", "label": _(AMONG_THEM)})
        rows.append(self._row(key + ".mines", _("With a mine"), counted.mines, regions))
        rows.append(self._row(key + ".magic", _("With a magic source"),
                              counted.magic_sources, regions))
        if names.AQUATIC in (held.race, held.power):
            rows.append(self._row(key + ".coastal", _("By a sea or the lake"),
                                  counted.coastal, regions))
        rows += [self._row(f"{key}.{name}", words, value, regions)
                 for _view, name, words, value in _expansion_counts(state, counted)]
        if isinstance(held, ActiveHoldings):
            rows.append(self._row(key + ".conquered", _("Taken from a race or a Lost Tribe"),
                                  held.conquered_non_empty, regions))
            if held.power == names.FORTIFIED:
                rows.append(self._row(key + ".fortresses", _("Fortresses"), held.fortresses, 6))
        return rows

    def _terrains(self, key: str, power: str) -> list[Terrain]:
        """Land always, seas and the lake for Seafaring, the terrains the game's expansions
        bring (`terrain_looks`), and whatever else the map counted."""
        shown = list(LAND) + (list(WATER) if power == names.SEAFARING else [])
        state = self.state
        if state is not None:
            shown += [look.terrain for view in expansion_views.played(state)
                      for look in view.terrain_looks() if look.terrain not in shown]
        counted = self._from_map.get(key)
        if counted is not None:
            shown += [t for t, n in counted.terrains.items() if n and t not in shown]
        return shown

    def _row(self, key: str, label: str, from_map: int, maximum: int) -> dict[str, Any]:
        value = self._counts.get(key, from_map)
        return {"key": key, "label": label, "value": value, "maximum": maximum}

    def _value(self, key: str) -> int:
        return next((int(row["value"]) for row in self.quick_rows if row["key"] == key), 0)

    def _quick_regions(self, key: str, power: str) -> QuickCount:
        """The race's counts from the steppers; anything no stepper asks stays the map's."""
        count = replace(
            self._from_map.get(key, QuickCount()),
            terrains={t: self._value(f"{key}.{t.value}") for t in self._terrains(key, power)},
            mines=self._value(key + ".mines"),
            magic_sources=self._value(key + ".magic"),
            coastal=self._value(key + ".coastal"),
        )
        shown = {row["key"] for row in self.quick_rows}
        values: dict[ExpansionView, dict[str, int]] = {}
        for view, name, _words, _value in _expansion_counts(self.state, count):
            if f"{key}.{name}" in shown:
                values.setdefault(view, {})[name] = self._value(f"{key}.{name}")
        for view, counted in values.items():
            count = view.scoring_counted(count, counted)
        return count

    def quick_input(self) -> ScoringInput | None:
        """The scoring input of the quick count (None when the game gives none)."""
        base = self._base
        if base is None:
            return None
        active = base.active
        if active is not None:
            active = replace(active, regions=self._quick_regions("active", active.power),
                             conquered_non_empty=self._value("active.conquered"),
                             fortresses=self._value("active.fortresses"))
        declined = tuple(replace(held, regions=self._quick_regions("declined" + str(i), held.power))
                         for i, held in enumerate(base.declined))
        return replace(base, active=active, declined=declined)

    def _score_quick(self) -> None:
        state = self.state
        inp = self.quick_input()
        self._quick_score = None
        if state is None or inp is None:
            self.quick_ok = False
            self.manual = True
            self.quick_hint = _("Count the coins by hand and enter the total.")
        else:
            try:
                self._quick_score = score_turn(inp, state.catalog)
            except RulesError as refused:
                reason = say(refused)
                self.manual = "not supported" in str(refused)  # read in English, shown worded
                self.quick_ok = False
                self.quick_hint = (
                    _("The app has no scoring rule for this race or power: count the coins by "
                      "hand and enter the total.") if self.manual
                    else _("These counts cannot be right: {reason}").format(
                        reason=plain(reason.partition(": ")[2])))
            else:
                self.manual = False
                self.quick_ok = True
                self.quick_hint = ""
        total = (self._quick_score.total if self._quick_score is not None
                 else int(self.quick_coins))
        self.quick_text = (_("Score {coins}").format(coins=coins(total))
                           if self.quick_ok or self.manual else _("Fix the counts first"))

    def _show_lines(self) -> None:
        if self.quick and self._quick_score is not None:
            self.lines = [{"label": say(line.words), "coins": f"{line.coins:+d}"}
                          for line in self._quick_score.lines]
            self.total_text = _("This turn: {coins}").format(
                coins=coins(self._quick_score.total))
        elif self.quick:
            self.lines = []
            self.total_text = _("Counted by hand")
        else:
            self.lines = self._board_lines

    def on_quick_coins(self, *_args: object) -> None:
        if self.manual:
            self.quick_text = _("Score {coins}").format(coins=coins(int(self.quick_coins)))

    # -- intents ---------------------------------------------------------------------------
    def do(self, action: Action) -> None:
        match action:
            case Action.SCORE:
                self.score_board()
            case Action.QUICK:
                self.quick = True
                self._after_change()
            case Action.BOARD:
                self.quick = False
                self._counts = {}
                state = self.state
                if state is not None:
                    self.refresh(state)
            case Action.SCORE_QUICK:
                self.score_quick()
            case Action.BACK:
                self.go("table")
            case _:
                assert_never(action)

    def set_count(self, key: str, value: int) -> None:
        """A quick-count stepper moved."""
        self._counts[key] = max(0, int(value))
        self.quick_rows = [dict(row, value=self._counts[key]) if row["key"] == key else row
                           for row in self.quick_rows]
        self._after_change()

    def _after_change(self) -> None:
        self._score_quick()
        if self.state is not None and self.can_score and self.board_ok:
            self.hint = _(COUNT_HINT)
        self._show_lines()

    def set_quick(self, value: int) -> None:
        """The total counted by hand (only where the rules cannot score the races)."""
        self.quick_coins = max(0, int(value))

    def score_board(self) -> None:
        if self.attempt(self.session.score, then="table") is not None:
            self._done()

    def score_quick(self) -> None:
        score = self._quick_score
        if score is not None:
            lines = [(line.label, line.coins) for line in score.lines]
            total = score.total
            done = self.attempt(lambda: self.session.score(coins=total, lines=lines))
        elif self.manual:
            amount = int(self.quick_coins)
            done = self.attempt(lambda: self.session.score(coins=amount))
        else:
            self.ctx.notices.tell(self.quick_hint or _("These counts cannot be scored."),
                                  _("Check the counts"))
            return
        if done is not None:
            self._done()

    def _done(self) -> None:
        self.quick = False
        self.quick_coins = 0
        self._counts = {}
        self.go("table")


def phase_note(state: GameState) -> str:
    """Where the turn is, in words (what the player does now)."""
    return phase_hint(state.track.phase) or _("The turn is at: {phase}.").format(
        phase=state.track.phase.value)
