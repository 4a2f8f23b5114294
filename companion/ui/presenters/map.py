"""The map: tap a region to see what it is, what taking it costs, and to act on it.

While the current player conquers, the regions their race may attack are highlighted
(`game.attack_refusal` decides: the rules' one answer a conquest is refused by), and a tap
shows the itemised cost (`conquest.assess`) and the odds of a final conquest with the die
(`conquest.final_conquest`). While the player's Catapult may shoot this turn
(`game.catapult_ready`), the regions it reaches are highlighted too and offer a conquest
with the Catapult at its own cost. A Dragon Master race is offered the Dragon's conquest
beside the ordinary one while the rules allow it this turn (else the panel says why not);
the token stepper never goes below the cost shown, so an ordinary conquest never becomes
the Dragon's. Other taps abandon a region, place or remove a marker, or
correct who holds a region. Every decision is the rules'; this presenter only words it.

With a sensor grid (`grid`, a `companion.ui.grid.GridController`), the regions where the
settled board differs from the record get a dashed outline and a badge ("+": tokens
sensed, none recorded; "-": recorded, none sensed), and the panel lists them. One tap
accepts a difference as the current player's conquest or abandonment (through `attempt`:
a refusal is a plain message and changes nothing) or dismisses it until the grid senses
that region change again. The grid never changes the game by itself.

Every text here is worded in the language spoken (`companion.i18n`) when the panel is
made, so a refresh words it again; names of races, powers, terrains and the rules' own
reasons come as the rules give them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, assert_never

from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from companion.i18n import N_, _, ngettext
from companion.rules import (
    Assessment,
    Attacker,
    DieChance,
    DiePurpose,
    GameState,
    Phase,
    RegionConquered,
    RulesError,
    TokenCountUnknown,
    assess,
    attack_refusal,
    attacker,
    catapult_ready,
    die_roll_allowed,
    final_conquest,
    marker_choices,
    marker_count,
    minimum_cost,
    placed_markers,
    refusal,
    troops_game,
)
from companion.rules import expansions as rule_expansions
from companion.rules import names as rule_names
from companion.ui import names, palette
from companion.ui.describe import marker_name
from companion.ui.grid import refusal_detail, resized
from companion.ui.presenters import expansions
from companion.ui.presenters.base import Choice, Presenter, plain
from companion.ui.presenters.intents import UnknownAction, allowed, argument, member, number
from companion.ui.wording import say

if TYPE_CHECKING:
    from companion.grid import Difference

MAX_TOKENS = 40
TAP_A_REGION = N_("Tap a region.")


def tokens(n: int) -> str:
    """A count of tokens in the language spoken ("1 token", "3 tokens")."""
    return ngettext("{count} token", "{count} tokens", n).format(count=n)


class Action(StrEnum):
    """The map's own buttons (the values are their keys); an expansion's are its view's
    `map_intents` (`companion.ui.presenters.expansion`)."""

    BACK = "back"
    FINISH_CONQUESTS = "finish_conquests"
    FINISH_REDEPLOYMENT = "finish_redeployment"
    CONQUER = "conquer"
    DRAGON = "dragon"
    ROLL_FIRST = "roll_first"
    SORCERY = "sorcery"
    FINAL = "final"
    ABANDON = "abandon"
    ADD_TOKEN = "add_token"
    TAKE_TOKEN = "take_token"
    CORRECT = "correct"
    RULES = "rules"
    GRID_CALIBRATE = "grid_calibrate"


@dataclass(frozen=True)
class Catapult:
    """A conquest with the Catapult at its cost ("catapult:<tokens>")."""

    tokens: int


@dataclass(frozen=True)
class PlaceMarker:
    """A marker placed in the region tapped ("place:<marker>")."""

    marker: str


@dataclass(frozen=True)
class RemoveMarker:
    """A marker taken from the region tapped ("remove:<marker>")."""

    marker: str


class GridVerb(StrEnum):
    """What a sensed difference's buttons do: accept it, dismiss it, or show its region."""

    GRID_ACCEPT = "grid_accept"
    GRID_DISMISS = "grid_dismiss"
    GRID_SHOW = "grid_show"


@dataclass(frozen=True)
class OnDifference:
    """A button of a sensed difference ("<verb>:<region>", e.g. "grid_accept:12")."""

    verb: GridVerb
    region: int


MapIntent = Action | Catapult | PlaceMarker | RemoveMarker | OnDifference | StrEnum
"""The map's own actions, or an expansion view's region button (a `StrEnum` member)."""
RegionIntent = Catapult | PlaceMarker | RemoveMarker | StrEnum


def parse(key: str) -> MapIntent:
    """The map's action for `key`; `UnknownAction` when it has none."""
    tokens_ = number(argument(key, "catapult:"))
    if tokens_ is not None:
        return Catapult(tokens_)
    for marker, made in ((argument(key, "place:"), PlaceMarker),
                         (argument(key, "remove:"), RemoveMarker)):
        if marker is not None:
            return made(marker)
    for verb in GridVerb:
        region = number(argument(key, f"{verb.value}:"))
        if region is not None:
            return OnDifference(verb, region)
    action = member(Action, key) or expansions.intent("map", key)
    if action is None:
        raise UnknownAction("map", key, _allowed())
    return action


def _allowed() -> tuple[str, ...]:
    return allowed(Action, *expansions.intents("map"), "catapult:<tokens>", "place:<marker>",
                   "remove:<marker>", *(verb.value + ":<region>" for verb in GridVerb))


class MapPresenter(Presenter, parse=parse):
    board = ObjectProperty(None, allownone=True)
    regions = ObjectProperty(None, allownone=True)
    player_colours = DictProperty({})
    highlight = ObjectProperty(frozenset())
    selected = ObjectProperty(None, allownone=True)
    pieces = DictProperty({})
    """The views' pieces kept off the regions' markers: symbol key -> region
    (`ExpansionView.map_pieces`), drawn by the map with their symbols."""

    hint = StringProperty("")
    region_title = StringProperty("")
    holder_text = StringProperty("")
    cost_lines = ListProperty([])
    cost_text = StringProperty("")
    note_text = StringProperty("")
    odds_text = StringProperty("")
    actions = ListProperty([])
    """Every button of the chosen region's panel: `main_actions`, then `more_actions`."""
    main_actions = ListProperty([])
    """The panel's main actions (a conquest and its die, an expansion's first ones): shown
    in a column of their own above the bottom buttons, always in sight, whatever the
    length of the cost lines above them."""
    more_actions = ListProperty([])
    """The panel's other buttons (abandon, tokens in or out, markers, corrections), at the
    foot of the scrolled panel."""
    bottom_actions = ListProperty([])
    show_deploy = BooleanProperty(False)
    deploy = NumericProperty(2)
    deploy_least = NumericProperty(1)
    """The fewest tokens the stepper offers: the cost shown (an ordinary conquest never
    goes below it; the Dragon's is a button of its own)."""
    show_final = BooleanProperty(False)
    tokens_left = NumericProperty(0)
    hand_known = BooleanProperty(False)
    """The game counts its tokens: the hand is the ledger's, not set by a finger."""
    can_correct = BooleanProperty(False)
    can_look_up = BooleanProperty(False)
    """Whether the rule book has something for the region tapped (its "Rules" button)."""
    """The chosen region can be corrected: its button stays in sight beside its title."""
    board_ratio = NumericProperty(0.6)
    """The board's height over its width (a portrait screen gives the map just that)."""

    grid = ObjectProperty(None, allownone=True)
    """The `GridController` when a sensor grid is configured (it sets itself here)."""
    differs = ObjectProperty(frozenset())
    """Regions where the sensed board differs from the record (outlined on the map)."""
    badges = DictProperty({})
    """Region -> "+" (tokens sensed, none recorded) or "-" (recorded, none sensed)."""
    show_grid = BooleanProperty(False)
    grid_title = StringProperty("")
    grid_text = StringProperty("")
    grid_rows = ListProperty([])
    """One dict per difference: region, text, accept (key), accept_text, dismiss (key) and
    kind (of the accept button; "primary" unless said)."""
    grid_actions = ListProperty([])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._next: dict[str, Any] = {}
        """The panel's properties while `_panel` works them out (set together at its end)."""
        self._dismissed: dict[int, bool] = {}
        """Dismissed region -> whether the grid sensed tokens there when dismissed."""
        self._differences: dict[int, Difference] = {}
        self._grid_bound: Any = None
        self._game: tuple[int, int | None] | None = None
        self._turn: tuple[int, int] | None = None
        """(game turn, seat) of the state last shown: a new turn starts with nothing chosen."""
        self._shown_cost: tuple[int, int] | None = None
        """(region, cost) the stepper was last set for: another cost starts it again."""
        self._facts: tuple[GameState, Attacker, Attacker | None, DieChance] | None = None
        """A state, and its attacker, their Catapult shot and the die's chance in it
        (`_turn_facts`)."""
        super().__init__(*args, **kwargs)
        self.hint = _(TAP_A_REGION)

    def clear(self) -> None:
        self.hint = _(TAP_A_REGION)

    def update(self, state: GameState | None) -> None:
        game = (id(self.session), self.session.game_id)
        if game != self._game:  # another game: nothing of the last one is selected or
            self._game, self._dismissed = game, {}  # dismissed in it
            self.selected = None
        super().update(state)
        if self.grid is not None:
            self.grid.use_board(state.map if state is not None else None)
        if state is None:
            self._grid_refresh(None)

    def refresh(self, state: GameState) -> None:
        turn = (state.track.turn, state.track.seat)
        if turn != self._turn:  # a new player's turn: nothing of the last one is chosen
            self._turn, self._shown_cost = turn, None
            self.selected = None
        self.board = state.map
        self.board_ratio = 1 / (state.map.aspect or 1.0)
        views = expansions.played(state)
        regions = state.regions
        for view in views:  # e.g. the Island's Ghosts shown on the Lake
            regions = view.shown_regions(state, regions)
        self.regions = regions
        self.pieces = {key: rid for v in views for key, rid in v.map_pieces(state).items()}
        self.player_colours = {p.seat: palette.rgba(p.colour) for p in state.players}
        conquering = self._conquering(state)
        self.highlight = (frozenset(self._targets(state, self._turn_facts(state)[:2]))
                          if conquering else frozenset())  # the facts kept for the taps
        name = state.current.name
        if conquering:
            self.hint = _("{name} conquers: the bright regions can be attacked. Tap one to "
                          "see its cost.").format(name=name)
            if state.troops is not None:
                self.hint = _("{name} conquers, {tokens} in hand: tap a bright region to see "
                              "its cost.").format(name=name, tokens=tokens(self._in_hand(state)))
        elif state.track.phase is Phase.REDEPLOY:
            active = state.current.active
            in_hand = (None if active is None
                       else troops_game.hand(state, state.track.seat, active.race))
            self.hint = (_("{name} redeploys: tap a region to correct its token count.").format(
                name=name) if in_hand is None else
                _("{name} redeploys, {tokens} in hand: tap a region to add or take "
                  "tokens.").format(name=name, tokens=tokens(in_hand)))
        else:
            self.hint = _("Tap a region to see it, or to correct who holds it.")
        lit = next((found for v in views if (found := v.map_highlight(state))), None)
        if lit is not None:  # an expansion lights its own regions (set-up pieces)
            self.highlight, self.hint = lit
        self.bottom_actions = self._bottom(state)
        if self.selected is not None and self.selected not in state.map.regions:
            self.selected = None
        self._panel(state, keep_counts=True)
        self._grid_refresh(state)

    @staticmethod
    def _conquering(state: GameState) -> bool:
        return (not state.is_over and state.track.phase is Phase.CONQUER
                and (state.current.active is not None
                     or _plays_seat(state, state.track.seat)))

    def _turn_facts(self, state: GameState) -> tuple[Attacker, Attacker | None, DieChance]:
        """The attacker in `state`, their shot from a Catapult (None: none may shoot) and
        the die's chance: the same for every region tapped in one state, so worked out
        once per state, not once per tap (nor twice in one)."""
        facts = self._facts
        if facts is None or facts[0] is not state:
            who = attacker(state)
            facts = self._facts = (state, who, _shooter(state, who), die_roll_allowed(state))
        return facts[1:]

    @staticmethod
    def _targets(state: GameState,
                 facts: tuple[Attacker, Attacker | None] | None = None) -> list[int]:
        """The regions the attacker (or their Catapult) may attack in `state`; `facts`: the
        attacker and their shooter, as `_turn_facts` found them (else worked out here)."""
        if facts is None:
            who = attacker(state)
            facts = (who, _shooter(state, who))
        shooters = [w for w in facts if w is not None]
        for view in expansions.played(state):  # an expansion's own reach, if it changes it
            if (found := view.targets(state, shooters)) is not None:
                return found
        # the rules' own answer, the one a conquest is refused by
        return [rid for rid in state.map.regions
                if any(attack_refusal(state, w, rid) is None for w in shooters)]

    def _bottom(self, state: GameState) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if not state.is_over and state.track.phase is Phase.CONQUER:
            out.append({"key": "finish_conquests", "text": _("Finish conquering")})
        elif not state.is_over and state.track.phase is Phase.REDEPLOY:
            out.append({"key": "finish_redeployment", "text": _("Finish redeployment")})
        out.append({"key": "back", "text": _("Back to the table")})
        return out

    # -- the panel for the selected region -----------------------------------------------
    def _panel(self, state: GameState, *, keep_counts: bool) -> None:
        """The panel for the selected region. Its properties are worked out first and then
        set once each, so a tap that leaves a line as it was fires nothing for it (setting
        it to a blank and back re-rendered its text and re-laid out the panel)."""
        self._next = {"cost_lines": [], "cost_text": "", "note_text": "", "odds_text": "",
                      "show_deploy": False, "show_final": False}
        try:
            self._fill_panel(state, keep_counts=keep_counts)
        finally:
            shown, self._next = self._next, {}
            for name, value in shown.items():  # once each: an unchanged value is no event
                setattr(self, name, value)

    def _fill_panel(self, state: GameState, *, keep_counts: bool) -> None:
        rid = self.selected
        if rid is None:
            self.region_title = _("No region chosen")
            self.holder_text = _("Tap a region on the map.")
            self.main_actions = self.more_actions = self.actions = []
            self.can_correct = False
            self.can_look_up = False
            return
        region = state.map.region(rid)
        features = ", ".join([*sorted(names.feature(f.value) for f in region.features),
                              *(name for view in expansions.registered()
                                for name in view.printed_features(state.map, rid))])
        terrain = names.terrain(region.terrain.value)
        self.region_title = (
            _("Region {region}: {terrain} ({features})").format(
                region=rid, terrain=terrain, features=features) if features else
            _("Region {region}: {terrain}").format(region=rid, terrain=terrain))
        here = state.regions[rid]
        views = expansions.played(state)
        self.holder_text = " ".join(t for t in (self._holder(state, rid),
                                                *(v.region_text(state, rid) for v in views))
                                    if t)
        main = self._conquest(state, rid, keep_counts) if self._conquering(state) else []
        actions: list[dict[str, Any]] = []
        occupant = here.occupant
        current = state.current
        mine = (occupant is not None and occupant.seat == current.seat
                and (not occupant.in_decline or _plays_seat(state, current.seat)))
        if mine and not state.is_over and state.track.phase is Phase.CONQUER:
            actions.append({"key": "abandon",
                            "text": _("Abandon region {region}").format(region=rid)})
        actions += self._steppers(state, rid)
        if not state.is_over:
            placing, removing = marker_choices(state, rid)
            for marker in placed_markers():
                if marker in placing and marker != "dragon":  # it moves with its conquest
                    actions.append({"key": "place:%s" % marker,  # noqa: UP031 (a key, read by test_intents)
                                    "text": _("Place {marker}").format(
                                        marker=marker_name(marker))})
                if marker in removing:
                    actions.append({"key": "remove:%s" % marker,  # noqa: UP031 (a key, read by test_intents)
                                    "text": _("Remove {marker}").format(
                                        marker=marker_name(marker))})
        for v in views:
            main, actions = v.region_actions(state, rid, main, actions)
        self.can_correct = not state.is_over
        self.can_look_up = bool(self.region_rules(state, rid))
        if main != self.main_actions:  # unchanged: no event, the buttons keep still
            self.main_actions = main
        if actions != self.more_actions:
            self.more_actions = actions
        self.actions = [*main, *actions]

    @staticmethod
    def _steppers(state: GameState, rid: int) -> list[dict[str, Any]]:
        """Redeployment by hand: a token from the hand into this region, or back. The
        current player moves their own while redeploying; a defender adds from their hand."""
        occupant = state.regions[rid].occupant
        if occupant is None or state.is_over:
            return []
        seat, race = occupant.seat, occupant.race
        in_hand = troops_game.hand(state, seat, race)
        if in_hand is None:
            return []
        own = (seat == state.track.seat and state.track.phase is Phase.REDEPLOY
               and race in troops_game.own_races(state, seat))
        out: list[dict[str, Any]] = []
        if own:  # both, always, in the same places: a step never moves the other button
            out.append({"key": "add_token", "disabled": not in_hand,
                        "text": _("+1 here from your hand ({count})").format(count=in_hand)})
            out.append({"key": "take_token", "disabled": (occupant.tokens or 1) <= 1,
                        "text": _("-1 from here into your hand")})
        elif in_hand and (seat, race, in_hand) in troops_game.waiting_hands(state):
            out.append({"key": "add_token",
                        "text": _("+1 here from {name}'s hand ({count})").format(
                            name=state.players[seat].name, count=in_hand)})
        return out

    def _step(self, rid: int, delta: int) -> None:
        state = self.state
        occupant = state.regions[rid].occupant if state is not None else None
        if state is None or occupant is None:
            return
        seat, race = occupant.seat, occupant.race
        placement = troops_game.placement_with(state, seat, race, rid, delta)
        self.attempt(lambda: self.session.redeploy(placement, seat=seat, race=race))

    def _conquer(self, rid: int, **how: Any) -> None:
        """Conquer `rid` (`Session.conquer`'s `how`); after the conquest, what the game's
        expansions tell (a die rolled for the losers)."""
        if self.attempt(lambda: self.session.conquer(rid, **how)) is None:
            return
        history = self.session.history
        for view in expansions.played(history.state) if history is not None else ():
            view.conquered(self)

    def _holder(self, state: GameState, rid: int) -> str:
        here = state.regions[rid]
        occupant = here.occupant
        parts = []
        if occupant is not None:
            fill = {"name": state.players[occupant.seat].name, "race": names.race(occupant.race)}
            if occupant.tokens is not None:
                fill["tokens"] = tokens(occupant.tokens)
                held = (_("Held by {name}'s {race} in decline ({tokens}).")
                        if occupant.in_decline else _("Held by {name}'s {race} ({tokens})."))
            else:
                held = (_("Held by {name}'s {race} in decline.") if occupant.in_decline
                        else _("Held by {name}'s {race}."))
            parts.append(held.format(**fill))
        elif here.lost_tribe:
            parts.append(_("A Lost Tribe lives here."))
        else:
            parts.append(next((text for v in expansions.played(state)
                               if (text := v.empty_region_text(state, rid)) is not None),
                              _("Nobody holds it.")))
        markers = [marker_name(m) for m in placed_markers() if _has(here.markers, m)]
        if here.markers.mountain:
            markers.insert(0, _("a Mountain"))
        if markers:
            parts.append(_("Lying here: {markers}.").format(markers=", ".join(markers)))
        return " ".join(parts)

    def _conquest(self, state: GameState, rid: int, keep_counts: bool) -> list[dict[str, Any]]:
        panel = self._next
        who, shooter, chance = self._turn_facts(state)
        try:
            found = _assess(state, who, rid)
            shot = None if shooter is None else _assess(state, shooter, rid)
        except TokenCountUnknown as unknown:
            panel["note_text"] = _("{reason} Correct the region with the count.").format(
                reason=plain(say(unknown)))
            return []
        if found.immune is not None:
            panel["note_text"] = plain(say(found.immune))
            return []
        by_catapult = _catapult_cost(shot)
        if not found.reach.reachable and by_catapult is None:
            panel["note_text"] = plain(say(found.reach.reason))
            return []
        if found.reach.reachable and chance.purpose is DiePurpose.BERSERK:
            # Berserk rolls before each conquest: no cost (nor stepper) until it has
            panel["note_text"] = _("Berserk: roll the die first; its face comes off the cost "
                                   "of this conquest.")
            return [{"key": "roll_first", "kind": "primary", "text": _("Roll for Berserk")}]
        shown = found if found.reach.reachable or shot is None else shot
        cost = shown.cost
        assert cost is not None
        panel["cost_lines"] = [{"label": say(line.words), "value": f"{line.tokens:+d}"}
                           for line in cost.lines]
        panel["cost_text"] = (
            _("Taking it costs {tokens}.") if shown is found else
            _("With the Catapult, taking it costs {tokens}.")).format(tokens=tokens(cost.total))
        said_notes = [say(note) for note in cost.said_notes or cost.notes]
        notes = (said_notes if shown is found
                 else [plain(say(shown.reach.reason)), *said_notes])
        if notes:
            panel["note_text"] = " ".join(notes)
        least = troops_game.fewest_tokens(who, cost.total) if shown is found else cost.total
        self.deploy_least = least
        shown_cost = (rid, cost.total)  # the stepper starts at the cost shown, and again
        if not keep_counts or shown_cost != self._shown_cost or int(self.deploy) < least:
            self.deploy = cost.total  # whenever that cost changes (a Berserk roll...)
        self._shown_cost = shown_cost
        self.hand_known = (state.troops is not None
                           and not _plays_seat(state, state.track.seat))
        if not keep_counts or self.hand_known:
            self.tokens_left = self._in_hand(state)
        actions: list[dict[str, Any]] = []
        in_hand = (None if _plays_seat(state, who.seat)  # an expansion's own books
                   else troops_game.hand(state, who.seat, who.race))
        final = self._final(state, who, chance, cost.total) if found.reach.reachable else []
        # the die's try takes the conquest's place alone when no count of tokens put there
        # is in hand: the note says the hand, and no stepper offers a count (the try puts
        # the whole hand there)
        die_alone = (in_hand is not None and least > in_hand
                     and any(a["key"] == "final" for a in final))
        panel["show_deploy"] = not die_alone
        if in_hand is not None and int(self.deploy) > in_hand:
            short = (_("Only {tokens} in hand").format(tokens=tokens(in_hand)) if in_hand
                     else _("No token in hand"))
            if found.reach.reachable and not die_alone:  # in the conquest button's
                actions.append({"key": "", "text": short, "disabled": True})  # place, greyed
            else:
                line = (_("Only {tokens} in hand.").format(tokens=tokens(in_hand)) if in_hand
                        else _("No token in hand."))
                panel["note_text"] = " ".join(t for t in (panel["note_text"], line) if t)
        elif found.reach.reachable:
            actions.append({"key": "conquer", "kind": "primary",
                            "text": _("Conquer region {region} with {tokens}").format(
                                region=rid, tokens=tokens(int(self.deploy)))})
        if by_catapult is not None:
            actions.append({"key": "catapult:%s" % by_catapult, "kind": "primary",  # noqa: UP031 (a key, read by test_intents)
                            "text": _("Conquer region {region} with the Catapult "
                                      "({tokens})").format(region=rid,
                                                           tokens=tokens(by_catapult))})
        if found.reach.reachable:
            actions += self._dragon(state, who, rid)
            actions += final
        sorcery = RegionConquered(who.seat, rid, sorcery=True)
        if who.race == rule_names.SORCERERS and refusal(state, sorcery) is None:
            holder = state.players[state.regions[rid].occupant.seat].name  # type: ignore[union-attr]
            actions.append({"key": "sorcery", "kind": "primary",
                            "text": _("Sorcery: replace {name}'s lone token with a "
                                      "Sorcerer from the tray").format(name=holder)})
        return actions

    def _dragon(self, state: GameState, who: Attacker, rid: int) -> list[dict[str, Any]]:
        """Dragon Master: the Dragon's conquest of the region, beside the ordinary one, when
        the rules allow it now; else why not, in the panel's note."""
        if rule_names.DRAGON_MASTER not in (who.power, *who.more_powers):
            return []
        why = refusal(state, RegionConquered(who.seat, rid, dragon=True))
        if why is not None:
            line = _("The Dragon: {reason}.").format(reason=say(why))
            panel = self._next
            panel["note_text"] = " ".join(t for t in (panel["note_text"], line) if t)
            return []
        return [{"key": "dragon", "kind": "primary",
                 "text": _("Conquer with the Dragon ({tokens})").format(
                     tokens=tokens(minimum_cost(who)))}]

    def _final(self, state: GameState, who: Attacker, chance: DieChance,
               cost: int) -> list[dict[str, Any]]:
        """`chance`: the die's in `state` (once a turn; Berserk rolls before each conquest)."""
        panel = self._next
        if chance.purpose is not DiePurpose.FINAL_CONQUEST:
            panel["show_final"] = chance.purpose is None
            panel["odds_text"] = say(chance.reason)
            return []
        odds = final_conquest(int(self.tokens_left), cost, state.catalog.die_faces, who)
        panel["show_final"] = True
        faces = len(state.catalog.die_faces)
        # While the players step the hand (the game does not count it), the die's button
        # keeps its place, hidden, so that nothing moves under the finger; a hand the game
        # counts changes only with another region, tapped on the board, and the place is
        # given to the panel (upright, it holds the steppers).
        hidden = [] if self.hand_known else [
            {"key": "", "hidden": True,
             "text": _("Last conquest: try with the die ({good} in {faces})").format(
                 good=faces, faces=faces)}]
        if not odds.allowed:
            panel["odds_text"] = _("The die: {reason}.").format(
                reason=say(odds.reason))
            return hidden
        if not odds.needs_die:
            panel["odds_text"] = _("Enough tokens in hand: no die needed.")
            return hidden
        good = round(odds.chance * faces)
        panel["odds_text"] = ngettext(
            "The die: {short} short; {good} of {faces} faces wins ({percent}%).",
            "The die: {short} short; {good} of {faces} faces win ({percent}%).", good).format(
            short=odds.shortfall, good=good, faces=faces,
            percent=round(float(odds.chance) * 100))
        return [{"key": "final", "kind": "warning",
                 "text": _("Last conquest: try with the die ({good} in {faces})").format(
                     good=good, faces=faces)}]

    @staticmethod
    def _in_hand(state: GameState) -> int:
        """Tokens the attacker has in hand: the ledger's count (a starting guess in a game
        saved before token counts were kept)."""
        for view in expansions.played(state):  # a seat an expansion plays: its own count
            if (free := view.seat_hand(state)) is not None:
                return free
        active = state.current.active
        if active is None:
            return 0
        counted = troops_game.hand(state, state.track.seat, active.race)
        if counted is not None:
            return counted
        ids = state.regions.held_by(state.current.seat, active.race, in_decline=False)
        placed = 0
        for rid in ids:
            occupant = state.regions[rid].occupant
            placed += (occupant.tokens or 1) if occupant is not None else 0
        return max(0, active.tokens - placed)

    # -- intents -------------------------------------------------------------------------
    def tap(self, region_id: int) -> None:
        state = self.state
        if state is None:
            return
        self.selected = region_id
        self._panel(state, keep_counts=False)

    def set_deploy(self, value: int) -> None:
        self.deploy = max(int(self.deploy_least), 1, min(MAX_TOKENS, int(value)))
        if self.state is not None:
            self._panel(self.state, keep_counts=True)

    def set_tokens_left(self, value: int) -> None:
        if self.hand_known:
            return
        self.tokens_left = max(0, min(MAX_TOKENS, int(value)))
        if self.state is not None:
            self._panel(self.state, keep_counts=True)

    def do(self, action: MapIntent) -> None:
        match action:
            case Action.GRID_CALIBRATE:
                self.go("calibration")
            case OnDifference():
                self._grid_act(action)
            case Action.BACK:
                self.go("table")
            case Action.RULES:
                self.look_up()
            case Action.FINISH_CONQUESTS:
                self.attempt(self.session.finish_conquests, then="table")
            case Action.FINISH_REDEPLOYMENT:
                self.attempt(self.session.finish_redeployment, then="table")
            case (Action.CONQUER | Action.DRAGON | Action.ROLL_FIRST | Action.SORCERY
                  | Action.FINAL | Action.ABANDON | Action.ADD_TOKEN | Action.TAKE_TOKEN
                  | Action.CORRECT | Catapult() | PlaceMarker() | RemoveMarker() | StrEnum()):
                rid = self.selected
                if rid is not None:  # these act on the region tapped
                    self._region_act(action, rid)
            case _:
                assert_never(action)

    def _region_act(self, action: Action | RegionIntent, rid: int) -> None:
        match action:
            case Action.CONQUER:
                self._conquer(rid, tokens=int(self.deploy))
            case Action.SORCERY:
                self._conquer(rid, sorcery=True)
            case Action.DRAGON:
                self._conquer(rid, dragon=True)
            case Action.ROLL_FIRST:
                self._roll_for_berserk()
            case Catapult(count):
                self._conquer(rid, tokens=count, catapult=True)
            case Action.FINAL:
                die = self.ctx.presenters.get("die")
                if die is not None:
                    die.start_final(rid, int(self.tokens_left))
            case Action.ABANDON:
                self.attempt(lambda: self.session.abandon(rid))
            case Action.ADD_TOKEN | Action.TAKE_TOKEN:
                self._step(rid, 1 if action is Action.ADD_TOKEN else -1)
            case PlaceMarker(marker):
                self.attempt(lambda: self.session.place_marker(rid, marker))
            case RemoveMarker(marker):
                self.attempt(lambda: self.session.remove_marker(rid, marker))
            case Action.CORRECT:
                self.correct()
            case StrEnum() if not isinstance(action, Action):  # an expansion view's button
                owner = expansions.owner("map", action)
                if owner is None:
                    raise UnknownAction("map", str(action), _allowed())
                owner.map_intents[type(action)](self, action, rid)

    def _roll_for_berserk(self) -> None:
        """Berserk's roll before the conquest, on the die screen (as the table's die button
        rolls it); the map then shows the cost less the face rolled."""
        die = self.ctx.presenters.get("die")
        if die is None:  # no die screen (a panel alone): the roll is saved all the same
            self.attempt(self.session.roll_for_berserk)
            return
        self.go("die")
        die.roll()

    def region_rules(self, state: GameState, rid: int) -> list[tuple[str, str]]:
        """The rule book's entries, (kind, name), for what lies in region `rid`: its
        holder's race and power, then what the game's expansions put there."""
        rules = self.ctx.presenters.get("rules")
        if rules is None:
            return []
        found: list[tuple[str, str]] = []
        occupant = state.regions[rid].occupant
        if occupant is not None:
            player = state.players[occupant.seat]
            combos = [(c.race, c.power) for c in player.declined]
            if player.active is not None:
                combos.insert(0, (player.active.race, player.active.power))
            power = next((p for race, p in combos if race == occupant.race), None)
            found.append(("race", occupant.race))
            if power is not None:
                found.append(("power", power))
        found += [e for v in expansions.played(state) for e in v.region_rules(state, rid)]
        return [entry for entry in dict.fromkeys(found) if rules.has(*entry)]

    def look_up(self) -> None:
        """The panel's "Rules": what lies in the region tapped, in the rule book (which,
        when more than one thing does); Back returns to the map."""
        state, rid = self.state, self.selected
        if state is None or rid is None:
            return
        rules = self.ctx.presenters.get("rules")
        if rules is not None:
            rules.choose_among(self.region_rules(state, rid), _("Look up: region {region}").format(
                region=rid))

    def correct(self) -> None:
        state, rid = self.state, self.selected
        if state is None or rid is None:
            return
        choices = [("none", _("Nobody (empty)"))]
        for p in state.players:
            if p.active is not None:
                choices.append((str(p.seat) + ":active",
                                f"{p.name}: {names.race(p.active.race)}"))
            for d in p.declined:
                choices.append((str(p.seat) + ":decline:" + d.race,
                                _("{name}: {race} (in decline)").format(
                                    name=p.name, race=names.race(d.race))))
        self.ctx.notices.choose(Choice(_("Who holds region {region} now?").format(region=rid),
                                       choices, self._holder_chosen,
                                       text=_("A correction, not a conquest.")))

    def _holder_chosen(self, key: str) -> None:
        rid, state = self.selected, self.state
        if rid is None or state is None:
            return
        if key == "none":
            self.attempt(lambda: self.session.set_region(rid, None))
            return
        parts = key.split(":")
        seat = int(parts[0])
        player = state.player(seat)
        in_decline = parts[1] == "decline"
        race = parts[2] if in_decline else (player.active.race if player.active else None)
        counts = [(str(n), tokens(n)) for n in range(1, 16)]
        if state.troops is None:  # a game saved before token counts were kept
            counts.insert(0, ("none", _("Not counted")))

        def counted(choice: str) -> None:
            count = None if choice == "none" else int(choice)
            self.attempt(lambda: self.session.set_region(rid, seat, race,
                                                         in_decline=in_decline, tokens=count))

        self.ctx.notices.choose(Choice(
            _("How many {race} tokens stand in region {region}?").format(
                race=names.race(race) if race else race, region=rid),
            counts, counted))


    # -- the sensor grid ------------------------------------------------------------------
    def on_grid(self, _presenter: Any, grid: Any) -> None:
        if self._grid_bound is not None:
            old, uids = self._grid_bound
            for name, uid in uids:
                old.unbind_uid(name, uid)
            self._grid_bound = None
        if grid is not None:
            uids = [(name, grid.fbind(name, self._grid_changed))
                    for name in ("snapshot", "link_state", "calibrations", "hello")]
            self._grid_bound = (grid, uids)
            grid.use_board(self.state.map if self.state is not None else None)
        self._grid_changed()

    def _grid_changed(self, *_args: Any) -> None:
        self._grid_refresh(self.state)

    def _grid_refresh(self, state: GameState | None) -> None:
        grid = self.grid
        rows: list[dict[str, Any]] = []
        title, text, actions = "", "", []
        found: list[Difference] = []
        if grid is None or state is None or state.is_over:
            self.show_grid = False
        elif grid.link_state == "refused":
            text = _("Sensor grid refused: {detail}; playing by hand.").format(
                detail=refusal_detail(grid.reason))
        elif not grid.up:  # said on the map once it has been up: unplugged, not absent
            text = _("Sensor grid offline: playing by hand.") if grid.hello else ""
        elif (calibration := grid.calibration_for(state.map)) is None:
            text = _("The sensor grid is not calibrated for this board.")
            actions = [{"key": "grid_calibrate", "text": _("Calibrate the sensor grid")}]
        elif grid.snapshot is None:
            text = _("Sensor grid: reading the board.")
        else:
            try:
                found, covered = grid.compare(calibration, state)
            except grid.calibration_error:  # the only misfit of a snapshot: the grid's size
                text = resized(grid.snapshot.cells, calibration.cells)
                actions = [{"key": "grid_calibrate", "text": _("Calibrate the sensor grid")}]
            else:
                self._dismissed = {rid: was for rid, was in self._dismissed.items()
                                   if (rid in covered) == was}
                found = [d for d in found if d.region not in self._dismissed]
                rows = [self._grid_row(state, d) for d in found]
                if rows:
                    title = (_("The board differs from the record") if len(rows) == 1 else
                             ngettext("The board differs from the record in {count} region",
                                      "The board differs from the record in {count} regions",
                                      len(rows)).format(count=len(rows)))
                    text = _("Tap what happened, or dismiss it.")
                else:
                    text = _("Sensor grid: the board matches the record.")
        self._differences = {d.region: d for d in found}
        self.differs = frozenset(self._differences)
        self.badges = {d.region: "+" if d.covered else "-" for d in found}
        self.grid_rows, self.grid_title, self.grid_text = rows, title, text
        self.grid_actions = actions
        self.show_grid = bool(text or rows)

    def _grid_row(self, state: GameState, diff: Difference) -> dict[str, Any]:
        rid = diff.region
        terrain = names.terrain(state.map.region(rid).terrain.value)
        current = state.current.name
        if diff.covered:
            count = diff.count or self._cost(state, rid)
            text = _("Region {region} ({terrain}): tokens on the board, none recorded.").format(
                region=rid, terrain=terrain)
            accept = (_("{name} conquered it with {tokens}").format(
                name=current, tokens=tokens(count)) if count else
                _("{name} conquered it").format(name=current))
        else:
            here = state.regions[rid]
            occupant = here.occupant
            if occupant is not None:
                text = (_("Region {region} ({terrain}): {name}'s {race} in decline recorded, "
                          "no tokens on the board.") if occupant.in_decline else
                        _("Region {region} ({terrain}): {name}'s {race} recorded, no tokens "
                          "on the board.")).format(
                    region=rid, terrain=terrain, name=state.players[occupant.seat].name,
                    race=names.race(occupant.race))
            else:
                text = _("Region {region} ({terrain}): a Lost Tribe recorded, no tokens on the "
                         "board.").format(region=rid, terrain=terrain)
            active = state.current.active
            if (occupant is None or occupant.seat != state.current.seat or occupant.in_decline
                    or active is None or occupant.race != active.race):
                # only the current player's active race can abandon: anything else is a
                # correction, which the region's panel offers
                return {"region": rid, "accept": "grid_show:%s" % rid, "kind": "secondary",  # noqa: UP031 (a key, read by test_intents)
                        "text": _("{difference} If the record is wrong, correct the "
                                  "region.").format(difference=text),
                        "accept_text": _("Show region {region}").format(region=rid),
                        "dismiss": "grid_dismiss:%s" % rid}  # noqa: UP031 (a key, read by test_intents)
            accept = _("{name} abandoned it").format(name=current)
        return {"region": rid, "text": text, "accept": "grid_accept:%s" % rid,  # noqa: UP031 (a key, read by test_intents)
                "accept_text": accept, "dismiss": "grid_dismiss:%s" % rid}  # noqa: UP031 (a key, read by test_intents)

    @staticmethod
    def _cost(state: GameState, rid: int) -> int | None:
        """What conquering `rid` costs the current player now (None if it cannot be said)."""
        try:
            found = assess(state.map, rid, state.regions.regions, attacker(state),
                           catapults=state.regions.catapults())
        except RulesError:  # no active race, an uncounted defender...: the count stays open
            return None
        return found.cost.total if found.cost is not None else None

    def _grid_act(self, action: OnDifference) -> None:
        state = self.state
        diff = self._differences.get(action.region)
        if state is None or diff is None:
            return
        rid = diff.region
        match action.verb:
            case GridVerb.GRID_DISMISS:
                self._dismissed[rid] = diff.covered
                self._grid_refresh(state)
            case GridVerb.GRID_SHOW:
                self.tap(rid)
            case GridVerb.GRID_ACCEPT if diff.covered:
                self._conquer(rid, tokens=diff.count or self._cost(state, rid))
            case GridVerb.GRID_ACCEPT:
                self.attempt(lambda: self.session.abandon(rid))


def _has(markers: Any, name: str) -> bool:
    return marker_count(markers, name) > 0


def _plays_seat(state: GameState, seat: int) -> bool:
    """Whether one of the game's expansions plays `seat` itself (the rules' answer)."""
    return rule_expansions.seat_player(state, seat) is not None


def _assess(state: GameState, who: Attacker, rid: int) -> Assessment:
    """Whether and at what cost `who` takes `rid`: the first expansion that changes the
    answer, else the base game's."""
    for view in expansions.played(state):
        if (found := view.assess(state, who, rid)) is not None:
            return found
    return assess(state.map, rid, state.regions.regions, who,
                  catapults=state.regions.catapults())


def _shooter(state: GameState, who: Attacker) -> Attacker | None:
    """The attacker shooting from their Catapult, when it may conquer now."""
    where = catapult_ready(state)
    return None if where is None else replace(who, use_catapult=True, catapult_at=where)


def _catapult_cost(shot: Assessment | None) -> int | None:
    """What a conquest with the Catapult costs, when it reaches the region."""
    if shot is None or shot.immune is not None or not shot.reach.reachable:
        return None
    return shot.cost.total if shot.cost is not None else None
