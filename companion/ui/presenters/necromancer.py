"""Necromancer Island on screen: his public side for everybody, the buttons of his turn on
the table, and his own screen (buying Ghosts and powers at the price shown, placing his
Ghosts at the end of his turn).

Everything shown comes from `necromancer.public_necromancer(state)`: his Ghosts in regions, on the
Island, in hand and in reserve, the Well of Souls, his badges and the price of his next
purchase. Never his coins: he peeks at them like every player, and a purchase he cannot
pay for is refused by the rules with the price alone. Every decision is the rules'; this
module only words it and hands the taps to the session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, assert_never

from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.i18n import _, ngettext, pgettext
from companion.rules import (
    MAX_PLAYERS,
    Attacker,
    BoardState,
    Event,
    GameState,
    Occupant,
    Phase,
    RulesError,
    board_for_players,
    board_players,
    necromancer,
)
from companion.ui import names as piece_names
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.expansion import (
    ExpansionView,
    PrivateOverlay,
    Seating,
    SetupForm,
    SetupIntents,
    TableIntents,
    TableTurn,
    terrain_words,
)
from companion.ui.presenters.intents import argument, known

ISLAND = "island"
MAX_GHOSTS = 14


def _ghosts(n: int) -> str:
    return ngettext("{count} Ghost", "{count} Ghosts", n).format(count=n)


def _power_words(state: GameState, power: str) -> str:
    """A power's name and what it does (its name alone when the catalog does not know it)."""
    try:
        return piece_names.described(piece_names.power(power), state.catalog.power(power).summary)
    except LookupError:
        return piece_names.power(power)


def is_his_turn(state: GameState) -> bool:
    return not state.is_over and necromancer.is_his(state, state.track.seat)


def may_choose_well_power(state: GameState) -> bool:
    """Whether the Necromancer may still choose the power he keeps beside the Well."""
    necro = state.part(necromancer.NecromancerState)
    return (necro is not None and not state.is_over and state.track.turn == 1
            and state.track.seat != necro.seat and necro.step is necromancer.Step.WAITING)


class TableAction(StrEnum):
    """The Necromancer's buttons on the table (the values are their keys)."""

    NECROMANCER = "necromancer"
    NECRO_SCORE = "necro_score"
    NECRO_RETURN = "necro_return"
    NECRO_WELL = "necro_well"


def do_table(presenter: Presenter, overlay: PrivateOverlay, action: TableAction) -> None:
    """Run a Necromancer button of the table (nothing of his is shown in private)."""
    match action:
        case TableAction.NECROMANCER:
            presenter.go("necromancer")
        case TableAction.NECRO_SCORE:
            presenter.attempt(presenter.session.score)
        case TableAction.NECRO_RETURN:
            _ask_return(presenter)
        case TableAction.NECRO_WELL:
            _ask_well_power(presenter)
        case _:
            assert_never(action)


def _ask_well_power(presenter: Presenter) -> None:
    state = presenter.state
    necro = state.part(necromancer.NecromancerState) if state is not None else None
    if state is None or necro is None:
        return
    choices = [(power, _power_words(state, power))
               for power in (*necro.powers_in_use, *necro.powers_in_reserve)]

    def place(power: str) -> None:
        presenter.attempt(lambda: presenter.session.choose_well_power(power))

    presenter.ctx.notices.choose(Choice(
        _("Which power goes beside the Well?"), choices, place,
        text=_("{name} uses it from the start; the other five wait in reserve to be bought."
               ).format(name=state.player(necro.seat).name)))


def _ask_return(presenter: Presenter) -> None:
    state = presenter.state
    necro = state.part(necromancer.NecromancerState) if state is not None else None
    if necro is None or not necro.hand:
        return
    hand = necro.hand
    choices = [(str(rid), _("Region {region} (now {ghosts})").format(region=rid,
                                                                      ghosts=_ghosts(n)))
               for rid, n in sorted(necro.regions.items())]

    def put(key: str) -> None:
        rid = int(key)
        presenter.attempt(lambda: presenter.session.return_ghosts({rid: hand}))

    presenter.ctx.notices.choose(Choice(
        ngettext("Where does the {count} Ghost go back?", "Where do the {count} Ghosts go back?",
                 hand).format(count=hand), choices, put,
        text=_("They go back onto one of the Necromancer's regions.")))


class Action(StrEnum):
    """The buttons of the Necromancer's own screen (the values are their keys)."""

    BACK = "back"
    MAP = "map"
    BUY_GHOST = "buy_ghost"
    CONFIRM = "confirm"


@dataclass(frozen=True)
class BuyPower:
    """A power bought from the reserve ("buy_power:<power>")."""

    power: str


def parse(key: str) -> Action | BuyPower:
    """The Necromancer screen's action for `key`; `UnknownAction` when it has none."""
    power = argument(key, "buy_power:")
    if power is not None:
        return BuyPower(power)
    return known("necromancer", key, Action, "buy_power:<power>")


class NecromancerPresenter(Presenter, parse=parse):
    """The Necromancer's screen: his side of the table, his purchases, his redeployment."""

    title = StringProperty("The Necromancer")
    summary_text = StringProperty("")
    powers_text = StringProperty("")
    hint = StringProperty("")
    buy_actions = ListProperty([])
    redeploying = BooleanProperty(False)
    rows = ListProperty([])
    """The redeployment steppers: dicts {key, label, value, minimum, maximum}."""
    placed_text = StringProperty("")
    bottom_actions = ListProperty([])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._draft: dict[str, int] = {}
        self._for: object = None
        super().__init__(*args, **kwargs)

    def refresh(self, state: GameState) -> None:
        necro = state.part(necromancer.NecromancerState)
        if necro is None:
            self.title = _("No Necromancer in this game")
            self.summary_text = self.powers_text = self.placed_text = ""
            self.hint = _("This game is played without Necromancer Island.")
            self.buy_actions, self.rows = [], []
            self.redeploying = False
            self.bottom_actions = [{"key": "back", "text": _("Back to the table")}]
            return
        name = state.player(necro.seat).name
        self.title = _("{name}, the Necromancer").format(name=name)
        self.summary_text = NecromancerView().summary(state)
        lines = [_power_words(state, power) for power in necro.powers_in_reserve]
        self.powers_text = ("\n".join((_("What the powers in reserve do:"), *lines))
                            if lines else "")
        his_turn = is_his_turn(state)
        buying = (his_turn and necro.step is necromancer.Step.ACQUIRE
                  and state.track.phase is Phase.CONQUER)
        actions: list[dict[str, Any]] = []
        if buying:
            if necro.reserve:
                actions.append({"key": "buy_ghost", "kind": "primary",
                                "text": ngettext("Buy a Ghost: {count} coin",
                                                 "Buy a Ghost: {count} coins", necro.price
                                                 ).format(count=necro.price)})
            for power in necro.powers_in_reserve:
                # a key, not words (an f-string would read as words to the language check)
                actions.append({"key": "buy_power:{power}".format(power=power),  # noqa: UP032
                                "text": ngettext("Buy {power}: {count} coin",
                                                 "Buy {power}: {count} coins", necro.price
                                                 ).format(power=piece_names.power(power),
                                                          count=necro.price)})
        self.buy_actions = actions
        self.redeploying = his_turn and state.track.phase is Phase.REDEPLOY
        turn = (self.session.history.log[0] if self.session.history else None,
                state.track.turn, state.track.seat, state.track.phase)
        if turn != self._for:
            self._for, self._draft = turn, {}
        self._rows(state)
        if buying:
            self.hint = _("Buy before the first conquest; each purchase makes the next one a "
                          "coin dearer. Then conquer on the map.")
        elif self.redeploying:
            self.hint = _("Place every Ghost: at least one in each region he holds, the rest "
                          "anywhere, the Island too.")
        else:
            self.hint = _("Everything here lies on the table for all to see; his coins do "
                          "not.")
        bottom: list[dict[str, Any]] = []
        if buying:
            bottom.append({"key": "map", "text": _("Done buying: conquer on the map")})
        if self.redeploying:
            bottom.append({"key": "confirm", "text": _("These are the Ghosts"),
                           "kind": "primary"})
        self.bottom_actions = bottom

    def _defaults(self, state: GameState) -> dict[str, int]:
        necro = state.part(necromancer.NecromancerState)
        assert necro is not None
        values = {str(rid): n for rid, n in necro.regions.items()}
        values[ISLAND] = necro.island if necro.step is necromancer.Step.ACQUIRE else necro.hand
        return values

    def _rows(self, state: GameState) -> None:
        necro = state.part(necromancer.NecromancerState)
        if necro is None or not self.redeploying:
            self.rows, self.placed_text = [], ""
            return
        values = {**self._defaults(state), **self._draft}
        board = state.map
        total = necro.on_map
        rows: list[dict[str, Any]] = []
        for rid in sorted(necro.regions):
            terrain = terrain_words(board.region(rid).terrain.value)
            rows.append({"key": str(rid), "label": _("Region {region} ({terrain})").format(
                             region=rid, terrain=terrain),
                         "value": values[str(rid)], "minimum": 1, "maximum": total})
        rows.append({"key": ISLAND, "label": _("On the Island"), "value": values[ISLAND],
                     "minimum": 0, "maximum": total})
        self.rows = rows
        placed = sum(row["value"] for row in rows)
        if placed == total:
            text = ngettext("{placed} of {count} Ghost placed", "{placed} of {count} Ghosts placed",
                            total)
        elif placed > total:
            text = ngettext("{placed} of {count} Ghost placed: take away {more} more",
                            "{placed} of {count} Ghosts placed: take away {more} more", total)
        else:
            text = ngettext("{placed} of {count} Ghost placed: place {more} more",
                            "{placed} of {count} Ghosts placed: place {more} more", total)
        self.placed_text = text.format(placed=placed, count=total, more=abs(total - placed))

    # -- intents -------------------------------------------------------------------------
    def do(self, action: Action | BuyPower) -> None:
        match action:
            case Action.BACK:
                self.go("table")
            case Action.MAP:
                self.go("map")
            case Action.BUY_GHOST:
                self.attempt(self.session.buy_ghost, _("Not bought"))
            case BuyPower(power):
                self.attempt(lambda: self.session.buy_power(power), _("Not bought"))
            case Action.CONFIRM:
                self.confirm()
            case _:
                assert_never(action)

    def set_count(self, key: str, value: int) -> None:
        """A redeployment stepper moved."""
        self._draft[key] = max(0, min(MAX_GHOSTS, int(value)))
        state = self.state
        if state is not None:
            self._rows(state)

    def confirm(self) -> None:
        regions = {int(row["key"]): int(row["value"]) for row in self.rows
                   if row["key"] != ISLAND}
        island = next((int(row["value"]) for row in self.rows if row["key"] == ISLAND), 0)
        if self.attempt(lambda: self.session.redeploy_ghosts(regions, island),
                        _("Not placed")) is not None:
            self._draft = {}
            self.go("table")


# --- the new game form ----------------------------------------------------------------------


class SetupAction(StrEnum):
    """His toggle on the new game form."""

    NECROMANCER = "necromancer"


def do_setup(form: SetupForm, action: SetupAction) -> None:
    """Necromancer Island on or off (off only with a seat fewer than his game's)."""
    on = form.option(action)
    if on and form.seat_count() > MAX_PLAYERS:
        form.tell(_("Without the Necromancer a game has at most {most} players: take one "
                    "out first.").format(most=MAX_PLAYERS), _("Not now"))
        return
    form.set_option(action, not on)


def setup_board_text(count: int, described: str | None) -> str:
    """What the new game says of the board with the Necromancer (`described`: the chosen
    board file in words, None for the packaged board)."""
    if not 3 <= count <= MAX_PLAYERS + 1:
        return _("Necromancer Island is for 3 to {most} players, not {count}.").format(
            most=MAX_PLAYERS + 1, count=count)
    if described is not None:
        return _("{board}. {count} players with the Necromancer. Seats go clockwise in this "
                 "order.").format(board=described, count=count)
    playing = board_players(count, necromancer=True)
    board = board_for_players(playing)
    return _("{count} players with the Necromancer: the {playing}-player board, {turns} turns. "
             "Seats go clockwise in this order.").format(count=count, playing=playing,
                                                         turns=board.turns)


# --- the view --------------------------------------------------------------------------------


class NecromancerView(ExpansionView):
    """Necromancer Island's part of the shared screens (his own screen is above)."""

    expansion = "Necromancer Island"
    catalog_id = "necromancer-island"
    screens: ClassVar[Mapping[str, tuple[str, str, str]]] = {
        "necromancer": ("necromancer:NecromancerPresenter", "NecromancerScreen",
                        "necromancer.kv")}
    """His own screen (buying Ghosts and powers, placing his Ghosts)."""
    table_intents: ClassVar[TableIntents] = {TableAction: do_table}
    setup_intents: ClassVar[SetupIntents] = {SetupAction: do_setup}
    setup_key = "necromancer"

    # the new game form: 3 to 6 at the table, on the board for one fewer
    def setup_options(self, form: SetupForm) -> list[dict[str, Any]]:
        """The Necromancer Island toggle."""
        on = form.option(self.setup_key)
        return [{"key": "necromancer", "kind": "primary" if on else "secondary",
                 "text": (_("Necromancer Island: on (the seat before the first player plays "
                            "him)") if on else _("Necromancer Island: off"))}]

    def seating(self, form: SetupForm, described: str | None) -> Seating | None:
        if not form.option(self.setup_key):
            return None
        count = form.seat_count()
        return Seating((board_players(count, necromancer=True),), MAX_PLAYERS + 1,
                       setup_board_text(count, described))

    def table_turn(self, state: GameState) -> TableTurn | None:
        """What the Necromancer does now (None when it is not his turn)."""
        necro = state.part(necromancer.NecromancerState)
        if necro is None or not is_his_turn(state):
            return None
        match state.track.phase:
            case Phase.CONQUER if necro.step is necromancer.Step.ACQUIRE:
                hint = _("The Necromancer may buy Ghosts and powers first, then conquer from "
                         "the Lake's shore.")
            case Phase.CONQUER:
                hint = _("The Necromancer conquers: tap a bright region on the map.")
            case Phase.REDEPLOY:
                hint = _("Place every Ghost: at least one in each of his regions, the rest "
                         "anywhere.")
            case Phase.SCORE:
                hint = _("He scores a coin per region (not the Island); each region feeds the "
                         "Well.")
            case _:
                return None
        return TableTurn(hint)

    def table_actions(self, state: GameState, usual: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The table's buttons: his own in his turn; in others' turns, putting back Ghosts."""
        necro = state.part(necromancer.NecromancerState)
        if necro is None or state.is_over:
            return usual
        out: list[dict[str, Any]] = []
        if not is_his_turn(state):
            out = list(usual)
            if necro.hand and necro.regions:  # after the player's own, as a defender's
                out.append({"key": "necro_return", "kind": "warning",
                            "text": _("Put {ghosts} back on the Necromancer's regions"
                                      ).format(ghosts=_ghosts(necro.hand))})
            if may_choose_well_power(state):
                name = state.player(necro.seat).name
                out.append({"key": "necro_well",
                            "text": _("{name}: the power beside the Well ({power})").format(
                                name=name, power=piece_names.power(necro.powers_in_use[0]))})
            return out
        phase = state.track.phase
        if phase is Phase.CONQUER:
            if necro.step is necromancer.Step.ACQUIRE:
                out.append({"key": "necromancer", "kind": "primary",
                            "text": ngettext("Buy Ghosts or powers ({count} coin each now)",
                                             "Buy Ghosts or powers ({count} coins each now)",
                                             necro.price).format(count=necro.price)})
            out.append({"key": "map", "text": _("Conquer with Ghosts on the map"),
                        "kind": ("secondary" if necro.step is necromancer.Step.ACQUIRE
                                 else "primary")})
            out.append({"key": "finish_conquests", "text": _("Finish conquering")})
        elif phase is Phase.REDEPLOY:
            out.append({"key": "necromancer", "text": _("Place the Ghosts"), "kind": "primary"})
        elif phase is Phase.SCORE:
            try:
                total = sum(n for _, n in necromancer.his_income_lines(state))
            except RulesError:
                total = necro.regions_held
            out.append({"key": "necro_score", "kind": "primary",
                        "text": ngettext("Score {count} coin and feed the Well",
                                         "Score {count} coins and feed the Well", total
                                         ).format(count=total)})
        elif phase is Phase.FINISHED:
            out.append({"key": "end_turn", "text": _("End the turn"), "kind": "primary"})
        return out

    def player_rows(self, state: GameState, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The table's player rows with the Necromancer's Ghosts in place of a combo."""
        view = necromancer.public_necromancer(state)
        if view is None:
            return rows
        on_map = sum(n for _, n in view.regions) + view.island
        return [dict(row, combo=_("The Necromancer"), tokens=_ghosts(on_map), declined="")
                if row["seat"] == view.seat else row for row in rows]

    def summary(self, state: GameState) -> str:
        """His public side in a few lines ("" outside Necromancer Island)."""
        view = necromancer.public_necromancer(state)
        if view is None:
            return ""
        name = state.player(view.seat).name
        on_map = sum(n for _, n in view.regions)
        where = ", ".join(_("{count} in region {region}").format(count=n, region=r)
                          for r, n in view.regions) or _("none in a region")
        if view.won:
            head = _("{name}, the Necromancer, has every Ghost in play: he wins.").format(name=name)
        else:
            head = _("{name} is the Necromancer.").format(name=name)
        if view.in_hand:
            ghosts = _("Ghosts: {map} on the map ({where}), {island} on the Island, {reserve} in "
                       "reserve, {hand} in hand.")
        else:
            ghosts = _("Ghosts: {map} on the map ({where}), {island} on the Island, {reserve} in "
                       "reserve.")
        rest = ", ".join(piece_names.power(p) for p in view.powers_in_reserve) or _("none left")
        used = (", ".join(piece_names.power(p) for p in view.powers_in_use)
                or pgettext("powers", "none"))
        return "\n".join((
            head,
            ghosts.format(map=on_map, where=where, island=view.island, reserve=view.reserve,
                          hand=view.in_hand),
            _("Well of Souls: {ghosts} on top, {souls} other token(s); {more} more make the next "
              "Ghost.").format(ghosts=_ghosts(view.well_ghosts), souls=view.well_souls,
                               more=view.souls_to_next_ghost),
            _("Powers in use: {used}. In reserve: {rest}.").format(used=used, rest=rest),
            ngettext("His next Ghost or power costs {count} coin.",
                     "His next Ghost or power costs {count} coins.", view.price
                     ).format(count=view.price),
        ))

    def targets(self, state: GameState, shooters: list[Attacker]) -> list[int] | None:
        # his own reach; the Island shut to the others
        return [rid for rid in state.map.regions
                if any(necromancer.attackable(state, w, rid) for w in shooters)]

    assess = staticmethod(necromancer.assess_region)  # his reach; the Island shut to others

    def seat_hand(self, state: GameState) -> int | None:
        if not necromancer.is_his(state, state.track.seat):
            return None
        return necromancer.ghosts_free(state)

    def shown_regions(self, state: GameState, regions: BoardState) -> BoardState:
        """The board as the map draws it: with the Island's Ghosts on the Lake, in his
        colour (for the eye only: nobody holds the Lake)."""
        necro = state.part(necromancer.NecromancerState)
        if necro is None or not necro.island:
            return regions
        here = regions[necro.lake]
        island = Occupant(necro.seat, necromancer.GHOSTS, in_decline=False, tokens=necro.island)
        return regions.with_region(necro.lake, replace(here, occupant=island))

    def region_rules(self, state: GameState, region: int) -> list[tuple[str, str]]:
        necro = state.part(necromancer.NecromancerState)
        if necro is None:
            return []
        occupant = state.regions[region].occupant
        out = [("piece", "Necromancer Island")] if region == necro.lake else []
        if occupant is not None and necromancer.is_his(state, occupant.seat):
            out.append(("piece", necromancer.GHOSTS))
        return out

    def empty_region_text(self, state: GameState, region: int) -> str | None:
        necro = state.part(necromancer.NecromancerState)
        if necro is None or region != necro.lake:
            return None
        if necro.hand:
            return _("Necromancer Island: {ghosts} on it; {hand} in his hand. Nobody attacks "
                     "it.").format(ghosts=_ghosts(necro.island), hand=necro.hand)
        return _("Necromancer Island: {ghosts} on it. Nobody attacks it.").format(
            ghosts=_ghosts(necro.island))

    def reveal_group(self, state: GameState, seat: int) -> int | None:
        """He is revealed first when out of the running, last when he won at once (None: not
        his seat)."""
        necro = state.part(necromancer.NecromancerState)
        if necro is None or seat != necro.seat:
            return None
        return 2 if necro.won else 0

    def event_text(self, event: Event, who: Callable[[int], str]) -> str | None:
        match event:
            case necromancer.WellPowerChosen(seat=seat, power=p):
                return _("{name} placing {power} beside the Well").format(
                    name=who(seat), power=piece_names.power(p))
            case necromancer.GhostBought(seat=seat):
                return _("{name} buying a Ghost").format(name=who(seat))
            case necromancer.NecromancerPowerBought(seat=seat, power=p):
                return _("{name} buying {power}").format(name=who(seat),
                                                         power=piece_names.power(p))
            case necromancer.GhostsRedeployed(seat=seat):
                return _("{name} placing the Ghosts").format(name=who(seat))
            case necromancer.GhostsReturned():
                return _("the Ghosts going back to the Necromancer's regions")
        return None
