"""Calibrating the sensor grid: which sensor lies under which region, one board at a time.

The player clears the board and taps Start; the map then lights up one region after the
other and asks for a token on it. Every settled snapshot goes to a `CalibrationWizard`,
which takes the one newly covered sensor as that region's (several new ones: it asks to
leave a token on the lit region only). Skip leaves a region without a sensor (played by
hand), Undo goes back one region, Done saves what is there (through the grid controller:
in the store's settings, per board). The wizard decides; this presenter only words it.
Sensors are numbered 1..N for people (cell + 1), as the simulator and the monitor do.

Every text is worded in the language spoken (`companion.i18n`) each time the screen is
shown; what just happened is kept as the way to word it, so it follows a change too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from companion.i18n import N_, _, ngettext
from companion.rules import BOARD_NAMES, GameState, load_board
from companion.ui.grid import refusal_detail, resized
from companion.ui.presenters.base import Presenter
from companion.ui.presenters.intents import argument, known

TITLE = N_("Calibrate the sensor grid")
Said = Callable[[], str]
"""A line about what just happened, worded when shown (in the language spoken then)."""


def _nothing() -> str:
    return ""


def with_sensor(found: int, total: int) -> str:
    """"12 of 30 regions have a sensor", in good grammar."""
    return ngettext("{found} of {total} regions has a sensor",
                    "{found} of {total} regions have a sensor", found).format(
        found=found, total=total)


def _numbers(cells: Any) -> tuple[int, str]:
    numbers = [str(cell + 1) for cell in sorted(cells)]
    return len(numbers), ", ".join(numbers)


def sensors(cells: Any) -> str:
    """"sensor 7" or "sensors 2, 7" (cells are 0-based on the wire, sensors 1-based)."""
    count, numbers = _numbers(cells)
    return ngettext("sensor {numbers}", "sensors {numbers}", count).format(numbers=numbers)


class Action(StrEnum):
    """The calibration screen's buttons (the values are their keys)."""

    START = "start"
    SKIP = "skip"
    UNDO = "undo"
    DONE = "done"
    CANCEL = "cancel"
    BACK = "back"


@dataclass(frozen=True)
class ChooseBoard:
    """A board to calibrate chosen ("board:<name>")."""

    name: str


def parse(key: str) -> Action | ChooseBoard:
    """The calibration screen's action for `key`; `UnknownAction` when it has none."""
    name = argument(key, "board:")
    if name is not None:
        return ChooseBoard(name)
    return known("calibration", key, Action, "board:<name>")


class CalibrationPresenter(Presenter, parse=parse):
    grid = ObjectProperty(None, allownone=True)
    """The `GridController` (it sets itself here); None: no grid is configured."""

    board = ObjectProperty(None, allownone=True)
    """The board being calibrated, drawn bare on the screen."""
    highlight = ObjectProperty(frozenset())
    selected = ObjectProperty(None, allownone=True)
    badges = DictProperty({})
    """Region -> the number of the sensor found under it."""
    board_ratio = NumericProperty(0.6)
    """The board's height over its width (a portrait screen gives the map just that)."""

    title = StringProperty("")
    prompt = StringProperty("")
    """What to do now, in large type."""
    detail = StringProperty("")
    """What just happened, or what is saved."""
    progress = StringProperty("")
    running = BooleanProperty(False)
    actions = ListProperty([])
    board_actions = ListProperty([])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.wizard: Any = None  # the grid's `CalibrationWizard` while calibrating
        self._grid_bound: Any = None
        self._last: Said | str = _nothing
        """What just happened: how to word it (a plain string is shown as it is)."""
        super().__init__(*args, **kwargs)
        self._show()

    # -- the screen's life -------------------------------------------------------------------
    def open(self) -> None:
        """The screen is about to show: the board in play (or the last one chosen)."""
        state = self.state
        if not self.running:
            if state is not None:
                self.board = state.map
            elif self.board is None:
                self.board = load_board(BOARD_NAMES[0])
            self._last = _nothing
        self._show()

    def refresh(self, state: GameState) -> None:
        if not self.running and self.board is None:
            self.board = state.map
        self._show()

    def on_grid(self, _presenter: Any, grid: Any) -> None:
        if self._grid_bound is not None:
            old, uids = self._grid_bound
            for name, uid in uids:
                old.unbind_uid(name, uid)
            self._grid_bound = None
        if grid is not None:
            uids = [(name, grid.fbind(name, self._grid_changed))
                    for name in ("link_state", "calibrations")]
            uids.append(("snapshot", grid.fbind("snapshot", self._snapshot)))
            self._grid_bound = (grid, uids)
        self._show()

    def _grid_changed(self, *_args: Any) -> None:
        self._show()

    def _snapshot(self, _grid: Any, snapshot: Any) -> None:
        if self.wizard is not None and snapshot is not None:
            self.observe(snapshot)
        else:
            self._show()

    # -- intents -----------------------------------------------------------------------------
    def do(self, action: Action | ChooseBoard) -> None:
        match action:
            case ChooseBoard(name):
                if not self.running:
                    self.board = load_board(name)
                    self._last = _nothing
                    self._show()
            case Action.START:
                self.start()
            case Action.SKIP:
                if self.wizard is not None:
                    region = self.wizard.current_region
                    self._after(self.wizard.skip(), lambda: _(
                        "Region {region} skipped: played by hand.").format(region=region))
            case Action.UNDO:
                if self.wizard is not None:
                    self._after(self.wizard.undo(), lambda: _("Back one region."))
            case Action.DONE:
                self.save()
            case Action.CANCEL:
                self.wizard, self.running = None, False
                self._last = lambda: _("Calibration cancelled.")
                self._show()
            case Action.BACK:
                self.wizard, self.running, self._last = None, False, _nothing
                previous = self.ctx.nav.previous
                self.go(previous if previous != "calibration" else "home")
            case _:
                assert_never(action)

    def start(self) -> None:
        grid, board = self.grid, self.board
        if grid is None or board is None or not grid.up or grid.snapshot is None:
            self.ctx.notices.tell(self._not_ready() or _("The sensor grid is not ready."),
                                  _(TITLE))
            return
        baseline = grid.snapshot
        self.wizard = grid.new_wizard(board.name, sorted(board.regions), baseline)
        self.running = True
        covered = baseline.covered()
        self._last = ((lambda: _("Already covered, and ignored: {sensors}.").format(
            sensors=sensors(covered))) if covered else (lambda: _("The board is clear.")))
        self._show()

    def observe(self, snapshot: Any) -> None:
        """A settled snapshot arrived while calibrating."""
        wizard, grid = self.wizard, self.grid
        if wizard is None or grid is None:
            return
        try:
            step = wizard.observe(snapshot)
        except grid.calibration_error:  # the only misfit of a snapshot: the grid's size
            self.wizard, self.running = None, False
            now, before = snapshot.cells, wizard.calibration.cells
            self._last = lambda: resized(now, before)
            self._show()
            return
        self._after(step)

    def save(self) -> None:
        wizard, grid = self.wizard, self.grid
        if wizard is None or grid is None:
            return
        calibration = wizard.calibration

        def keep() -> bool:
            grid.save_calibration(calibration)
            return True

        if self.attempt(keep, _("Not saved")) is None:
            return
        total = wizard.progress[1]
        found = len(calibration.sensed_regions)
        self.wizard, self.running = None, False
        self._last = ((lambda: _("Saved: {sensed}; the others are played by hand.").format(
            sensed=with_sensor(found, total))) if found < total else
            (lambda: _("Saved: all {total} regions have a sensor.").format(total=total)))
        self._show()

    # -- words -------------------------------------------------------------------------------
    def _after(self, step: Any, said: Said | None = None) -> None:
        region = step.region
        if step.kind == "assigned" and step.cell is not None:
            cell = step.cell
            said = lambda: _("Region {region}: {sensors}.").format(  # noqa: E731
                region=region, sensors=sensors([cell]))
        elif step.kind == "ambiguous":
            cells = step.cells
            said = lambda: _("Several new sensors are covered ({sensors}): take away every "  # noqa: E731
                             "new token but the one on region {region}.").format(
                sensors=sensors(cells), region=region)
        self._last = said or self._last
        self._show()

    def _not_ready(self) -> str:
        grid = self.grid
        if grid is None:
            return _("No sensor grid is set up. Give its port in companion.toml ([grid] "
                     "port) and start the companion again.")
        if grid.link_state == "refused":
            return _("Sensor grid refused: {detail}.").format(
                detail=refusal_detail(str(grid.reason)))
        if not grid.up:
            return _("The sensor grid is offline. Plug it in; this screen carries on by "
                     "itself.")
        if grid.snapshot is None:
            return _("Reading the board.")
        return ""

    def _show(self) -> None:
        board, wizard, grid = self.board, self.wizard, self.grid
        self.board_ratio = 1 / (board.aspect or 1.0) if board is not None else 0.6
        self.title = (_("Calibrate the sensor grid: {board}").format(
            board=_("the {players}-player board").format(players=board.players))
            if board is not None else _(TITLE))
        if wizard is None:
            self.highlight, self.selected = frozenset(), None
            self.badges = {}
            self.progress = ""
            problem = self._not_ready()
            covered = grid.snapshot.covered() if grid is not None and not problem else ()
            count, numbers = _numbers(covered)
            self.prompt = problem or (
                ngettext("Sensor {numbers} is covered: take every token off the board, or tap "
                         "Start to leave that sensor out.",
                         "Sensors {numbers} are covered: take every token off the board, or "
                         "tap Start to leave those sensors out.", count).format(numbers=numbers)
                if covered else
                _("Take every token off the board, then tap Start. Then put a token on each "
                  "region the map lights up."))
            self.detail = self._said() or self._saved_text()
            self.actions = [
                {"key": "start", "text": _("Start"),
                 "kind": "dimmed" if problem else "primary"},
                {"key": "back", "text": _("Back")},
            ]
            self.board_actions = [
                {"key": "board:%s" % b,  # noqa: UP031 (a key, read by test_intents)
                 "text": _("{count} players").format(count=b.removesuffix("p")),
                 "kind": "primary" if board is not None and board.name == b else "secondary"}
                for b in BOARD_NAMES
            ]
            return
        region = wizard.current_region
        done, total = wizard.progress
        self.highlight = frozenset({region}) if region is not None else frozenset()
        self.selected = region
        self.badges = {r: str(c + 1) for c, r in wizard.calibration.regions_by_cell.items()}
        found = len(wizard.calibration.sensed_regions)
        if region is None:
            self.prompt = _("Every region done: {sensed}. Save it?").format(
                sensed=with_sensor(found, total))
            self.progress = ""
        else:
            self.prompt = _("Put a token on region {region}.").format(region=region)
            self.progress = _("Region {number} of {total}; {found} found so far (a black "
                              "disc on the map: the sensor found under that region).").format(
                number=done + 1, total=total, found=found)
        if grid is not None and not grid.up:
            self.prompt = self._not_ready()
        self.detail = self._said()
        self.board_actions = []
        undo = {"key": "undo", "text": _("Undo"),
                "kind": "dimmed" if done == 0 else "secondary"}
        cancel = {"key": "cancel", "text": _("Cancel")}
        if region is None:
            self.actions = [{"key": "done", "text": _("Save"), "kind": "primary"}, undo,
                            cancel]
        else:
            self.actions = [{"key": "done", "text": _("Done: save now")},
                            {"key": "skip", "text": _("Skip this region")}, undo, cancel]

    def _said(self) -> str:
        last = self._last
        return last if isinstance(last, str) else last()

    def _saved_text(self) -> str:
        grid, board = self.grid, self.board
        if grid is None or board is None:
            return ""
        saved = grid.saved_calibration(board.name)
        total = len(board.regions)
        if saved is not None:
            return _("Saved calibration: {found} of {total} regions.").format(
                found=len(saved.sensed_regions), total=total)
        if grid.simulated:
            return _("Not calibrated yet: the simulator's own wiring is used.")
        return _("Not calibrated yet.")
