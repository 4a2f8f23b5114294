"""River World on screen: the event in force, announced as each game turn starts, the line
of markers revealed so far, the pirate ships, the Shipyard's Caravel and the Temple of the
Seer's private look at the next event.

Everything shown to the table comes from `river.public_river` (never the next event). The
next event is read only through `river.seer_peek`, for the Temple's holder in their own
turn, and shown on the private overlay like a purse peek; nothing is recorded. A button is
offered only when the rules would take its event now (`game.refusal`); this module words
the rules' answers and hands the taps to the session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, assert_never

from kivy.graphics import Color, InstructionGroup, Line, Rectangle

from companion.i18n import N_, _, ngettext
from companion.rules import (
    Board,
    GameState,
    Phase,
    QuickCount,
    RegionState,
    refusal,
    river,
)
from companion.ui import map_paint as paint
from companion.ui import names as piece_names
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.expansion import (
    ExpansionView,
    MapIntents,
    PrivateOverlay,
    SetupForm,
    SetupIntents,
    TableIntents,
    TerrainLook,
)

if TYPE_CHECKING:
    from companion.boards import CustomBoard


def _and(words: list[str]) -> str:
    """Words in a list: "8 and 18", "3, 8, 13 and 18" (in the language spoken now)."""
    if len(words) <= 1:
        return "".join(words)
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


def _names(state: GameState, seats: tuple[int, ...]) -> str:
    return _and([state.player(s).name for s in seats])


def _list(ids: tuple[int, ...]) -> str:
    """Region numbers in words: "8 and 18", "3, 8, 13 and 18"."""
    return _and([str(i) for i in ids])


# --- the table -------------------------------------------------------------------------------


def _caravel_rivers(state: GameState) -> list[int]:
    seat = state.track.seat
    return [rid for rid, region in state.map.regions.items()
            if river.is_river(region)
            and refusal(state, river.CaravelPlaced(seat, rid)) is None]


class TableAction(StrEnum):
    """The River World buttons of the table (the values are their keys)."""

    SEER = "seer"
    CARAVEL = "caravel"


def do_table(presenter: Presenter, overlay: PrivateOverlay, action: TableAction) -> None:
    """Run a River World button of the table (nothing without a game)."""
    state = presenter.state
    if state is None:
        return
    match action:
        case TableAction.SEER:
            _seer(presenter, overlay, state)
        case TableAction.CARAVEL:
            _ask_caravel(presenter, state)
        case _:
            assert_never(action)


def _seer(presenter: Presenter, overlay: PrivateOverlay, state: GameState) -> None:
    seat = state.track.seat
    seen = presenter.attempt(lambda: river.seer_peek(state, seat), _("Nothing shown"))
    if seen is None:
        return
    name = state.player(seat).name
    overlay.show_private(seat, piece_names.event(seen.value),
                         _("Only {name} looks: the event of turn {turn}. {effect} Tap to hide "
                           "it.").format(name=name, turn=state.track.turn + 1,
                                         effect=_(river.EFFECTS[seen])))


def _ask_caravel(presenter: Presenter, state: GameState) -> None:
    choices = []
    for rid in _caravel_rivers(state):
        occupant = state.regions[rid].occupant
        who = (_("{name}'s {race}").format(name=state.player(occupant.seat).name,
                                           race=piece_names.race(occupant.race))
               if occupant is not None
               else _("a pirate ship") if state.regions[rid].markers.has(river.PIRATE_SHIP)
               else _("empty"))
        choices.append((str(rid), _("River {river} ({who})").format(river=rid, who=who)))

    def chosen(key: str) -> None:
        presenter.attempt(lambda: presenter.session.place_caravel(int(key)))

    presenter.ctx.notices.choose(Choice(
        _("Where does the Caravel go?"), choices, chosen,
        text=_("Until your turn ends, that river and every region next to it can be attacked "
               "as if at the board's edge.")))


# --- the map ---------------------------------------------------------------------------------


SITE_NAMES = {river.Site.HARBOR: N_("Harbor"), river.Site.SHIPYARD: N_("Shipyard"),
              river.Site.TEMPLE: N_("Temple of the Seer")}
"""Each River World site's name, as a region's title on the map lists it."""

SITE_RULES = {river.Site.HARBOR: "Harbor", river.Site.SHIPYARD: "Shipyard and Caravel",
              river.Site.TEMPLE: "Temple of the Seer"}
"""The rule book's entry for each River World site."""


class MapAction(StrEnum):
    """The River World buttons of the map (the values are their keys)."""

    RIVER_CARAVEL = "river_caravel"
    RIVER_SHIP_ON = "river_ship_on"
    RIVER_SHIP_OFF = "river_ship_off"


def do_map(presenter: Presenter, action: MapAction, region: int) -> None:
    """Run a River World button of the map for the region tapped."""
    session = presenter.session
    match action:
        case MapAction.RIVER_CARAVEL:
            presenter.attempt(lambda: session.place_caravel(region))
        case MapAction.RIVER_SHIP_ON | MapAction.RIVER_SHIP_OFF:
            present = action is MapAction.RIVER_SHIP_ON
            presenter.attempt(lambda: session.set_pirate_ship(region, present))
        case _:
            assert_never(action)


# --- the map's symbols ------------------------------------------------------------------------


def _paint_harbor(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a navy anchor on a pale round tile
    paint.disc(g, cx, cy, s * 0.98, (0.93, 0.95, 0.98, 1))
    paint.ring(g, cx, cy, s * 0.98, 1.0, paint.BORDER_COLOUR)
    ink = (0.08, 0.18, 0.42, 1)
    w = max(1.1, s * 0.13)
    g.add(Color(*ink))
    g.add(Line(circle=(cx, cy + s * 0.58, s * 0.17), width=max(1.0, w * 0.8)))  # the ring
    g.add(Line(points=[cx, cy + s * 0.40, cx, cy - s * 0.72], width=w))  # the shank
    g.add(Line(points=[cx - s * 0.38, cy + s * 0.24, cx + s * 0.38, cy + s * 0.24], width=w))
    g.add(Line(circle=(cx, cy - s * 0.12, s * 0.58, 100, 260), width=w))  # the arms
    for side in (-1, 1):  # the flukes: small barbs at the tips of the arms
        x, y = cx + side * s * 0.57, cy - s * 0.02
        paint.fan(g, [(x - side * s * 0.02, y + s * 0.20), (x + side * s * 0.16, y - s * 0.10),
                 (x - side * s * 0.18, y - s * 0.04)])


def _paint_shipyard(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a hull half planked, its ribs still bare, under a frame (two posts and a beam)
    paint.shape(g, [(-1, -1), (1, -1), (1, 1), (-1, 1)], cx, cy, s * 0.95, (0.90, 0.88, 0.82, 1))
    wood = (0.30, 0.20, 0.10, 1)
    w = max(1.1, s * 0.12)
    g.add(Color(*wood))
    g.add(Line(points=[cx - s * 0.78, cy - s * 0.88, cx - s * 0.78, cy + s * 0.74,
                       cx + s * 0.78, cy + s * 0.74, cx + s * 0.78, cy - s * 0.88], width=w))
    for x0 in (-0.42, -0.14, 0.14, 0.42):  # the ribs, above the planks
        g.add(Line(points=[cx + x0 * 0.85 * s, cy - s * 0.30, cx + x0 * s, cy + s * 0.36],
                   width=max(1.0, s * 0.09)))
    g.add(Line(points=[cx - s * 0.55, cy + s * 0.36, cx + s * 0.55, cy + s * 0.36],
               width=max(1.0, s * 0.07)))  # the rail across their tops
    planks = [(cx + x * s, cy + y * s) for x, y in
              [(-0.62, -0.18), (0.62, -0.18), (0.42, -0.66), (-0.42, -0.66)]]
    g.add(Color(0.72, 0.46, 0.20, 1))
    paint.fan(g, planks)
    paint.outline(g, planks, 1.0)


def _paint_temple(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a white columned temple on a violet tile (the Seer's)
    paint.shape(g, [(-1, -1), (1, -1), (1, 1), (-1, 1)], cx, cy, s * 0.95, (0.42, 0.26, 0.62, 1))
    marble = (0.98, 0.97, 0.92, 1)
    g.add(Color(*marble))
    paint.fan(g, [(cx - s * 0.80, cy + s * 0.36), (cx + s * 0.80, cy + s * 0.36),
             (cx, cy + s * 0.82)])  # the pediment
    g.add(Rectangle(pos=(cx - s * 0.72, cy + s * 0.22), size=(s * 1.44, s * 0.16)))
    for middle in (-0.48, 0.0, 0.48):  # three columns under the roof
        g.add(Rectangle(pos=(cx + (middle - 0.13) * s, cy - s * 0.56), size=(s * 0.26, s * 0.78)))
    g.add(Rectangle(pos=(cx - s * 0.80, cy - s * 0.76), size=(s * 1.60, s * 0.20)))  # the step


def _paint_ship(g: InstructionGroup, cx: float, cy: float, s: float, hull: paint.RGBA,
                sail: paint.RGBA) -> None:
    """A one-masted ship: a hull with a raised stern, a mast and a square sail."""
    hull_points = [(cx + x * s, cy + y * s) for x, y in
                   [(-0.98, -0.28), (0.98, -0.28), (0.62, -0.92), (-0.68, -0.92)]]
    g.add(Color(*hull))
    paint.fan(g, hull_points)
    paint.outline(g, hull_points, 1.0)
    g.add(Color(*paint.BORDER_COLOUR))
    g.add(Line(points=[cx, cy - s * 0.30, cx, cy + s * 0.98], width=max(1.0, s * 0.09)))
    sail_points = [(cx + x * s, cy + y * s) for x, y in
                   [(-0.62, -0.14), (0.62, -0.14), (0.52, 0.80), (-0.52, 0.80)]]
    g.add(Color(*sail))
    paint.fan(g, sail_points)
    paint.outline(g, sail_points, 1.0)


def _paint_pirate_ship(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a dark ship with a black sail bearing a white skull and crossbones
    _paint_ship(g, cx, cy, s, (0.22, 0.15, 0.10, 1), (0.04, 0.04, 0.04, 1))
    paint.disc(g, cx, cy + s * 0.50, s * 0.17, (1, 1, 1, 1))
    g.add(Color(1, 1, 1, 1))
    w = max(1.0, s * 0.08)
    g.add(Line(points=[cx - s * 0.26, cy + s * 0.02, cx + s * 0.26, cy + s * 0.28], width=w))
    g.add(Line(points=[cx + s * 0.26, cy + s * 0.02, cx - s * 0.26, cy + s * 0.28], width=w))


def _paint_caravel(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a light wooden ship with a white sail bearing a red cross
    _paint_ship(g, cx, cy, s, (0.86, 0.66, 0.40, 1), (1, 1, 1, 1))
    g.add(Color(0.80, 0.10, 0.10, 1))
    w = max(1.0, s * 0.12)
    g.add(Line(points=[cx, cy - s * 0.04, cx, cy + s * 0.66], width=w))
    g.add(Line(points=[cx - s * 0.34, cy + s * 0.34, cx + s * 0.34, cy + s * 0.34], width=w))


def _site(site: river.Site) -> Callable[[Board, int, RegionState | None, Mapping[str, int]], int]:
    """Whether a region has the printed `site`."""
    return lambda board, rid, _state, _pieces: int(site in river.sites(board.regions[rid]))


def _pirate_ships(board: Board, rid: int, state: RegionState | None,
                  _pieces: Mapping[str, int]) -> int:
    """A pirate ship on the region (on the bare board: where its pirate symbol is printed)."""
    if state is not None:
        return int(state.markers.has(river.PIRATE_SHIP))
    return int(river.has_pirate_symbol(board.regions[rid]))


MAP_SYMBOLS = (
    paint.MapSymbol("harbor", N_("Harbor"), "cavern", _site(river.Site.HARBOR), _paint_harbor),
    paint.MapSymbol("shipyard", N_("Shipyard"), "harbor", _site(river.Site.SHIPYARD),
                    _paint_shipyard),
    paint.MapSymbol("temple", N_("Temple of the Seer"), "shipyard", _site(river.Site.TEMPLE),
                    _paint_temple),
    paint.MapSymbol("pirate_ship", N_("Pirate ship"), "catapult", _pirate_ships,
                    _paint_pirate_ship),
    paint.MapSymbol("caravel", N_("Caravel"), "pirate_ship",
                    lambda _board, rid, _state, pieces: int(pieces.get("caravel") == rid),
                    _paint_caravel),
)
"""River World's printed sites, its pirate ships and the Caravel, as the map draws them
(the Caravel is not a marker of the region: the game keeps it in `RiverState.caravel`,
which the map is given as a piece by `RiverView.map_pieces`)."""


# --- the new game form ----------------------------------------------------------------------


class SetupAction(StrEnum):
    """River World's buttons on the new game form."""

    RIVER_WORLD = "river_world"
    RIVER_ADVICE = "river_advice"


ADVICE_KEPT = "river_advice"
"""The form's choice: the powers River World advises leaving out stay out (so by default)."""


def _on_river_board(form: SetupForm) -> bool:
    """Whether the chosen board is a River World board (its games play the events)."""
    chosen = form.chosen_board()
    return chosen is not None and river.is_river_world(chosen.board)


def do_setup(form: SetupForm, action: SetupAction) -> None:
    """Run a River World button of the new game form: whether Flying stays out, or River
    World's events on or off (always on for a River World board)."""
    if action is SetupAction.RIVER_ADVICE:
        form.set_option(ADVICE_KEPT, not form.option(ADVICE_KEPT, True))
        return
    chosen = form.chosen_board()
    if chosen is not None and river.is_river_world(chosen.board):
        form.tell(
            _("{board} is a River World board: its harbors and pirate ships are on the map, "
              "and its games always play River World's events. Choose another board to play "
              "without them.").format(board=chosen.name), _("River World"))
        return
    form.set_option(SetupAction.RIVER_WORLD.value,
                    not form.option(SetupAction.RIVER_WORLD.value))


# --- the view --------------------------------------------------------------------------------


class RiverView(ExpansionView):
    """River World's part of the shared screens."""

    expansion = "River World"
    catalog_id = "river-world"
    table_intents: ClassVar[TableIntents] = {TableAction: do_table}
    map_intents: ClassVar[MapIntents] = {MapAction: do_map}
    setup_intents: ClassVar[SetupIntents] = {SetupAction: do_setup}
    setup_key = "river_world"
    setup_place = "board"
    map_symbols = MAP_SYMBOLS

    # the new game form: always played on a River World board; on any other, when switched
    # on (its harbors and pirate ships then counted by hand); Flying left out as advised
    def setup_options(self, form: SetupForm) -> list[dict[str, Any]]:
        """The River World toggle and, with River World, whether Flying stays out."""
        on = form.option(self.setup_key)
        if _on_river_board(form):
            text = _("River World events: on (a River World board)")
        elif on:
            text = _("River World events: on (harbors and pirate ships are counted by hand "
                     "on the scoring screen)")
        else:
            text = _("River World events: off")
        options = [{"key": "river_world", "kind": "primary" if on else "secondary", "text": text}]
        if on:
            names = _and([piece_names.power(power) for power in river.ADVISED_LEFT_OUT])
            advice = (_("{names}: left out of the decks (River World advises it)")
                      if form.option(ADVICE_KEPT, True) else _("{names}: in the decks")
                      ).format(names=names)
            options.append({"key": "river_advice", "kind": "secondary", "text": advice})
        return options

    def board_kind(self, board: CustomBoard) -> tuple[str, str] | None:
        if not river.is_river_world(board.board):
            return None
        return _("River World"), _("a River World board")

    def board_chosen(self, form: SetupForm) -> None:
        # every board starts as it is made: on for a River World board, else off
        form.set_option(self.setup_key, _on_river_board(form))

    def left_out(self, form: SetupForm) -> tuple[str, ...]:
        kept = form.option(self.setup_key) and form.option(ADVICE_KEPT, True)
        return river.ADVISED_LEFT_OUT if kept else ()

    def spread_text(self, state: GameState, emptied: list[int]) -> str | None:
        return ngettext("Leave river {rivers} and spread the tokens over your regions",
                        "Leave rivers {rivers} and spread the tokens over your regions",
                        len(emptied)).format(rivers=", ".join(map(str, emptied)))

    def table_actions(self, state: GameState, usual: list[dict[str, Any]]
                      ) -> list[dict[str, Any]]:
        """After the usual buttons: the Temple's look and the Shipyard's Caravel, when the
        current player may use them."""
        line = state.part(river.RiverState)
        if line is None or state.is_over:
            return usual
        seat = state.track.seat
        name = state.player(seat).name
        out = list(usual)
        if (river.seer_refusal(state, seat) is None
                and line.next_event(state.track.turn) is not None):
            out.append({"key": "seer",
                        "text": _("The Temple: {name} sees the next event").format(name=name)})
        if state.track.phase is Phase.CONQUER and _caravel_rivers(state):
            out.append({"key": "caravel", "text": _("Place the Caravel on a river")})
        return out

    def summary(self, state: GameState) -> str:
        """The public River World books in a few lines ("" when the game does not play it)."""
        view = river.public_river(state)
        if view is None:
            return ""
        lines = [ngettext("Events so far: {events}; {count} still face down.",
                          "Events so far: {events}; {count} still face down.", view.face_down
                          ).format(events=", ".join(piece_names.event(e.value)
                                                    for e in view.revealed),
                                   count=view.face_down)]
        ships = view.pirate_ships
        if len(ships) == 1:
            lines.append(_("A pirate ship on river {river} (a region next to it scores 1 coin "
                           "less).").format(river=ships[0]))
        elif ships:
            lines.append(_("Pirate ships on rivers {rivers} (a region next to one scores 1 coin "
                           "less).").format(rivers=_list(ships)))
        elif view.rivers:
            lines.append(_("No pirate ship on the rivers."))
        if view.caravel is not None:
            lines.append(_("The Caravel is on river {river} until this turn ends.").format(
                river=view.caravel))
        if view.shipyard_seats:
            lines.append(_("The Shipyard is held by {names}.").format(
                names=_names(state, view.shipyard_seats)))
        if view.temple_seats:
            lines.append(_("The Temple of the Seer is held by {names}.").format(
                names=_names(state, view.temple_seats)))
        return "\n".join(lines)

    def headline(self, state: GameState) -> str:
        """This turn's event and what it does ("" when the game does not play River World)."""
        view = river.public_river(state)
        if view is None or state.is_over:
            return ""
        return _("River World, turn {turn}: {event}. {effect}").format(
            turn=view.turn, event=piece_names.event(view.event.value), effect=_(view.effect))

    def printed_features(self, board: Board, region: int) -> tuple[str, ...]:
        return tuple(_(SITE_NAMES[site]) for site in sorted(river.sites(board.region(region))))

    def map_pieces(self, state: GameState) -> Mapping[str, int]:
        line = state.part(river.RiverState)
        return {"caravel": line.caravel} if line is not None and line.caravel is not None \
            else {}

    def region_text(self, state: GameState, region: int) -> str:
        """The Caravel or a pirate ship in `region`, and what a river costs now ("" if none):
        the cost only outside the conquests, whose cost lines already say it (a longer
        language would push the Conquer button under the fold)."""
        view = river.public_river(state)
        if view is None or not river.is_river(state.map.region(region)):
            return ""
        parts = []
        if region in view.pirate_ships:
            parts.append(_("A pirate ship lies here; taking the river sinks it."))
        if view.caravel == region:
            parts.append(_("The Caravel lies here this turn."))
        if state.track.phase is Phase.CONQUER and not state.is_over:
            return " ".join(parts)
        parts.append(ngettext("A river costs {count} token this turn ({event}).",
                              "A river costs {count} tokens this turn ({event}).", view.river_cost
                              ).format(count=view.river_cost,
                                       event=piece_names.event(view.event.value)))
        return " ".join(parts)

    def region_rules(self, state: GameState, region: int) -> list[tuple[str, str]]:
        """The rule book's pieces for `region`: its river, its sites, a pirate ship, the
        Caravel."""
        place = state.map.region(region)
        view = river.public_river(state)
        out = [("piece", "River")] if river.is_river(place) else []
        out += [("piece", SITE_RULES[site]) for site in sorted(river.sites(place))]
        if view is not None and region in view.pirate_ships:
            out.append(("piece", "Pirate ship"))
        if view is not None and view.caravel == region:
            out.append(("piece", "Shipyard and Caravel"))
        return out

    def region_actions(self, state: GameState, region: int, main: list[dict[str, Any]],
                       more: list[dict[str, Any]]
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """After the more buttons: the Caravel and the pirate-ship corrections for a tapped
        river."""
        if state.part(river.RiverState) is None or state.is_over:
            return main, more
        out = list(more)
        if refusal(state, river.CaravelPlaced(state.track.seat, region)) is None:
            out.append({"key": "river_caravel",
                        "text": _("Place the Caravel on river {river}").format(river=region)})
        if refusal(state, river.PirateShipSet(region, True)) is None:
            out.append({"key": "river_ship_on", "text": _("Correct: a pirate ship is here")})
        if refusal(state, river.PirateShipSet(region, False)) is None:
            out.append({"key": "river_ship_off", "text": _("Correct: no pirate ship here")})
        return main, out

    def terrain_looks(self) -> tuple[TerrainLook, ...]:
        # the rivers turquoise on the map, between the lakes' blue and the land
        return (TerrainLook(river.RIVER, _("River"), _("Rivers (Harsh Winter, sea races)"),
                            (0.30, 0.68, 0.66, 1), _("river")),)

    def scoring_counts(self, count: QuickCount) -> tuple[tuple[str, str, int], ...]:
        """River World's counts, asked whenever the game plays River World (a River World
        board always plays its events): fields of `river.RiverCounts`."""
        counts = river.counts_of(count)
        return (("harbors", _("With a Harbor"), counts.harbors),
                ("next_to_pirates", _("Next to a pirate ship"), counts.next_to_pirates))

    def scoring_counted(self, count: QuickCount, values: Mapping[str, int]) -> QuickCount:
        """`count` with River World's counts shown on the screen set to `values` (the inland
        regions next to a pirate ship, which no stepper asks, kept as `river.recounted` says)."""
        counts = river.counts_of(count)
        return river.recounted(count, harbors=values.get("harbors", counts.harbors),
                               next_to_pirates=values.get("next_to_pirates",
                                                          counts.next_to_pirates))
