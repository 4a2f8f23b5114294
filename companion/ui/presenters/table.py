"""The table: turn n of N, whose turn, what they can do now, everybody's combos, undo, peek.

One undo rule: Undo takes effect at once (never a question first) and the bar "Took back:
<what> [Redo]" shows for `UNDO_BAR_SECONDS` (`took_back_text`, `redo_offered`); Redo puts
back exactly the step taken back (`Session.redo`). The bar goes when its time is up, at
the next intent, or as soon as the game moved on (anything else saved since the undo).
Where undo is refused (past a die roll, a reshuffle, the end of a turn) the refusal is told.

Everything shown comes from `views.public(state)`; the only purse total this presenter
ever reads is the one a player asks for by holding their own name (`peek`), and it is
cleared the moment the finger lets go (`end_peek`).

When the seat's player profile has a PIN, holding the name opens the PIN pad instead; the
right PIN shows the total for `PEEK_SECONDS` (or until the overlay is tapped), a wrong one
says so and shows nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from companion.i18n import N_, _, ngettext
from companion.records import Profile, RecordsError
from companion.rules import (
    DiePurpose,
    GameState,
    Phase,
    PublicPlayer,
    PublicView,
    own_coins,
    public,
    reminders,
    troops_game,
)
from companion.ui import names, palette
from companion.ui.describe import coins, phase_hint, step_text, tokens
from companion.ui.presenters import expansions, sides
from companion.ui.presenters.base import Presenter, Question, plain
from companion.ui.presenters.intents import UnknownAction, allowed, argument, member, number
from companion.ui.presenters.keypads import PinRequest, ask_pin
from companion.ui.wording import say

DIE_TEXT: dict[DiePurpose | None, str] = {
    DiePurpose.BERSERK: N_("Roll for Berserk"),
    DiePurpose.FINAL_CONQUEST: N_("Final conquest with the die"),
}
"""What the die button says for the roll the rules allow now (translated where shown)."""
ROLL_DIE = N_("Roll the die")
NOTHING_TO_UNDO = N_("Nothing to undo yet")

PEEK_SECONDS = 5
"""How long the total stays after the right PIN (there is no finger holding it then)."""

SLOTS = 3
"""The table's action column has at least this many places, the last one Decline's (kept
empty when the race may not decline): the buttons of a turn, and the reminders under
them, stay where they are from one step to the next."""

UNDO_BAR_SECONDS = 6
"""How long the bar "Took back: ... [Redo]" stays after an undo (or a redo that leaves
more to put back)."""


def players_of(view: PublicView, state: GameState) -> list[dict[str, Any]]:
    """The players as display-ready dicts (no purse anywhere), races and powers by their
    names in the table's language."""
    found = []
    for p in view.players:
        colour = palette.rgba(p.colour)
        active = state.player(p.seat).active
        found.append({
            "seat": p.seat,
            "name": p.name,
            "rgba": colour,
            "ink": palette.ink_on(colour),
            "combo": (names.combo(active.power, active.race) if active is not None
                      else _("No race yet")),
            "tokens": troops_text(p),
            "declined": (_("In decline: {races}").format(
                races=", ".join(names.race(race) for race in p.declined))
                         if p.declined else ""),
            "current": p.is_current,
        })
    return found


def troops_text(player: PublicPlayer) -> str:
    """The active race's tokens: where they are when counted, else how many it took."""
    count = player.troops
    if count is None:
        return tokens(player.active_tokens) if player.active_tokens is not None else ""
    parts = [_("{count} on the board").format(count=count.on_board)]
    if count.hand:
        parts.append(_("{count} in hand").format(count=count.hand))
    if count.aside:
        parts.append(_("{count} aside").format(count=count.aside))
    return ", ".join(parts)


def spread_key(seat: int, race: str) -> str:
    """The key of the button that spreads `seat`'s `race` tokens ("spread:<seat>:<race>")."""
    return ":".join(("spread", str(seat), race))


def hand_actions(state: GameState) -> list[dict[str, Any]]:
    """The one-tap redeployments owed: the current player's hand while redeploying, and
    every defender's hand before the turn ends."""
    out: list[dict[str, Any]] = []
    seat = state.track.seat
    races = troops_game.own_races(state, seat) if state.track.phase is Phase.REDEPLOY else ()
    for race in races:
        placement = troops_game.suggested(state, seat, race)
        in_hand = troops_game.hand(state, seat, race) or 0
        keep = troops_game.keep_in_hand(state, seat, race)
        if placement is not None and state.regions.held_by(seat, race):
            emptied = sorted(rid for rid, n in placement.items() if n == 0)
            if in_hand > keep:
                text = ngettext("Spread the {n} token in hand over your regions",
                                "Spread the {n} tokens in hand over your regions",
                                in_hand - keep).format(n=in_hand - keep)
            elif in_hand < keep:
                text = ngettext("Take {n} token off the map to set aside",
                                "Take {n} tokens off the map to set aside",
                                keep - in_hand).format(n=keep - in_hand)
            else:
                text = _("Spread your tokens")
            if emptied:  # an expansion's regions left empty: its words
                text = next((said for v in expansions.played(state)
                             if (said := v.spread_text(state, emptied)) is not None), text)
            if state.current.active is None or race != state.current.active.race:
                text = _("{race} in decline: {what}").format(
                    race=names.race(race), what=text[0].lower() + text[1:])
            out.append({"key": spread_key(seat, race), "kind": "primary", "text": text})
    for defender, race, count in troops_game.waiting_hands(state):
        out.append({"key": spread_key(defender, race), "kind": "warning",
                    "text": ngettext("{name}: put {n} token back ({race})",
                                     "{name}: put {n} tokens back ({race})", count).format(
                        name=state.players[defender].name, n=count, race=names.race(race))})
    return out


class Action(StrEnum):
    """The table's own buttons (the values are their keys); an expansion's are its view's
    `table_intents` (`companion.ui.presenters.expansion`)."""

    MARKET = "market"
    MAP = "map"
    SCORING = "scoring"
    GAME_END = "game_end"
    FINISH_CONQUESTS = "finish_conquests"
    FINISH_REDEPLOYMENT = "finish_redeployment"
    END_TURN = "end_turn"
    DECLINE = "decline"
    DIE = "die"
    UNDO = "undo"
    REDO = "redo"
    HOME = "home"
    SIDES = "sides"
    RULES = "rules"
    REMINDER_RULES = "reminder_rules"


@dataclass(frozen=True)
class SpreadHand:
    """Tokens in hand spread over a race's regions ("spread:<seat>:<race>")."""

    seat: int
    race: str


TableIntent = Action | SpreadHand | StrEnum
"""The table's own actions, or an expansion view's table button (a `StrEnum` member)."""


def parse(key: str) -> TableIntent:
    """The table's action for `key`; `UnknownAction` when it has none."""
    seat, _, race = (argument(key, "spread:") or "").partition(":")
    if number(seat) is not None and race:
        return SpreadHand(int(seat), race)
    action = member(Action, key) or expansions.intent("table", key)
    if action is None:
        raise UnknownAction("table", key, allowed(
            Action, *expansions.intents("table"), "spread:<seat>:<race>"))
    return action


class TablePresenter(Presenter, parse=parse):
    turn_text = StringProperty("")
    final_turn = BooleanProperty(False)
    current_name = StringProperty("")
    current_rgba = ObjectProperty(palette.FALLBACK)
    current_ink = ObjectProperty(palette.TEXT)
    phase_text = StringProperty("")
    actions = ListProperty([])
    """The buttons the table offers now, in order (dicts: key, text, kind)."""
    placed_actions = ListProperty([])
    """`actions` as the column lays them out: with the empty places that keep each button
    where it was (`_keep_places`)."""
    players = ListProperty([])
    combo_text = StringProperty("")
    reminders_text = StringProperty("")
    die_kind = StringProperty("dimmed")
    die_ready = BooleanProperty(False)
    """Whether the rules allow a roll now (`die.die_roll_allowed`); the button is
    disabled otherwise."""
    die_text = StringProperty(ROLL_DIE)
    die_reason = StringProperty("")
    """Why the die cannot be rolled now, in one line ("" when it can)."""
    undo_text = StringProperty(NOTHING_TO_UNDO)
    undo_ready = BooleanProperty(False)
    took_back_text = StringProperty("")
    """What the bar after an undo says ("Took back: Bob taking region 2")."""
    redo_offered = BooleanProperty(False)
    """Whether that bar, with its Redo button, is on show."""
    game_over = BooleanProperty(False)
    peek_text = StringProperty("")
    peek_detail = StringProperty("")
    peek_rgba = ObjectProperty(palette.PANEL)
    around = BooleanProperty(False)
    """Whether the players sit around the screen: the "Sides" button shows (`sides`)."""
    peek_seat = NumericProperty(-1)
    """Whose private overlay shows (-1: none): the screen faces them while it does."""
    expansion_text = StringProperty("")
    """The public books of the expansions in play (each view's `summary`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._peek_timer: Any = None
        self._reminders_named = ""
        """The reminders with the rules' own in English, which the rule book's names are
        found in (a tap on the reminders), whatever the language shown."""
        self._bar_timer = Clock.create_trigger(lambda _dt: self.hide_redo(), UNDO_BAR_SECONDS)
        """Hides the bar after an undo: one trigger, restarted at every undo."""
        self._placed_in: tuple[int, int, int, Phase] | None = None
        self._placed: list[dict[str, Any]] = []
        """The actions as last laid out, and the (game, turn, seat, phase) they were for."""
        self._announced: tuple[object, int] | None = None
        """The game (its first step, by identity) and the turn whose event was told."""
        super().__init__(*args, **kwargs)
        self.around = self.ctx.seats.around
        self.ctx.seats.fbind("seating", lambda seats, _value: setattr(
            self, "around", seats.around))

    def refresh(self, state: GameState) -> None:
        # First the words of the bars under the body (the undo's, the die's and its
        # reason, last): their new heights reach the screen's box together, which then
        # lays the body out once, not once per bar.
        self._refresh_undo(state)
        self._refresh_die()
        view = public(state)
        current = view.players[view.current_seat]
        self.game_over = view.game_over
        if view.game_over:
            self.turn_text = _("The game is over")
        elif view.final_turn:
            self.turn_text = _("FINAL TURN {turn} of {turns}").format(
                turn=view.turn, turns=view.turns)
        else:
            self.turn_text = _("Turn {turn} of {turns}").format(turn=view.turn, turns=view.turns)
        self.final_turn = view.final_turn and not view.game_over
        self.current_name = "" if view.game_over else _("{name}'s turn").format(
            name=current.name)
        self.current_rgba = palette.rgba(current.colour)
        self.current_ink = palette.ink_on(self.current_rgba)
        views = expansions.played(state)
        turn = next((found for v in views if (found := v.table_turn(state)) is not None), None)
        if turn is not None and turn.seat is not None:  # an expansion's seat before turn 1
            self.current_name = turn.heading
            self.current_rgba = palette.rgba(state.player(turn.seat).colour)
            self.current_ink = palette.ink_on(self.current_rgba)
        self.phase_text = turn.hint if turn is not None else self._hint(state, view)
        actions = self._actions(state, view)
        for v in reversed(views):  # the first registered has the last word
            actions = v.table_actions(state, actions)
        self.actions = actions
        self.placed_actions = self._keep_places(state, actions)
        rows = players_of(view, state)
        for v in views:
            rows = v.player_rows(state, rows)
        self.players = rows
        self.expansion_text = "\n".join(text for v in views if (text := v.summary(state)))
        self.combo_text = self._combo(state)
        shown = [text for text in (*(v.headline(state) for v in views),
                                   *(line for v in views for line in v.reminders(state)))
                 if text]
        rules_own = reminders(state)
        self.reminders_text = "\n".join([*shown, *(say(text) for text in rules_own)])
        self._reminders_named = "\n".join([*shown, *(str(text) for text in rules_own)])
        self._announce_event(state)
        if self.redo_offered and not self.session.redo_steps:
            self.hide_redo()  # something else was saved since the undo

    def clear(self) -> None:
        self.hide_redo()

    def _keep_places(self, state: GameState, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """`actions` laid out so that no button moves under a finger between two steps of
        one player's phase: a tokens-back button tapped leaves its place empty (a hidden
        button) until the phase ends, the column has `SLOTS` places at least, and Decline
        keeps the last of them.

        Invariant: within one (turn, seat, phase), a button shown in two consecutive
        states has the same place in both; the hidden places take no tap."""
        history = self.session.history
        phase = (id(history.log[0]) if history is not None else 0,
                 state.track.turn, state.track.seat, state.track.phase)
        last = self._placed if self._placed_in == phase else []
        shown = {a["key"]: a for a in actions}
        placed: list[dict[str, Any]] = []
        for old in last:
            key = old.get("was", old["key"])
            if key in shown:
                placed.append(shown.pop(key))
            elif key == "spread:" and any(a["key"] == Action.FINISH_REDEPLOYMENT.value
                                          for a in actions):
                placed.append(old)  # the own hand's place, kept while redeploying
            elif key.startswith("spread:"):
                placed.append({"key": "", "hidden": True, "text": old["text"], "was": key})
        own = "spread:%d:" % state.track.seat  # noqa: UP031 (a key, not words)
        finish = Action.FINISH_REDEPLOYMENT.value
        for key in [k for k in shown if k.startswith(own) and last]:
            # a hand of one's own to spread anew: in an empty place before Finish (where
            # one was spread, or kept for it), else just before Finish
            end = next((i for i, a in enumerate(placed) if a["key"] == finish), len(placed))
            free = next((i for i, a in enumerate(placed[:end])
                         if not a["key"] and a.get("was", "").startswith("spread:")), None)
            if free is None:
                placed.insert(end, shown.pop(key))
            else:
                placed[free] = shown.pop(key)
        rest = [a for a in actions if a["key"] in shown]
        if not last and state.track.phase is Phase.REDEPLOY and len(rest) > 1 \
                and rest[1]["key"] == Action.FINISH_REDEPLOYMENT.value:
            # no hand of one's own to spread: its place kept empty, so that Finish is where
            # it always is in this phase (never where Finish conquering was)
            rest.insert(1, {"key": "", "hidden": True, "text": "", "was": "spread:"})
        decline = [a for a in rest if a["key"] == Action.DECLINE.value]
        placed += [a for a in rest if a["key"] != Action.DECLINE.value]
        placed = [a for i, a in enumerate(placed)  # no empty place at the end, nor two in
                  if a["key"] or (any(b["key"] for b in placed[i:])  # a row (the main
                                  and (i == 0 or placed[i - 1]["key"]))]  # one in sight)
        empty = {"key": "", "hidden": True, "text": ""}
        if not any(a["key"] == Action.DECLINE.value for a in placed):
            placed += [dict(empty) for _ in range(SLOTS - 1 - len(placed))] + decline
        placed += [dict(empty) for _ in range(SLOTS - len(placed))]
        self._placed_in, self._placed = phase, placed
        return placed

    def open_rules(self) -> None:
        """The Rules button: open at the current player's active race, or at the turn's
        first step when they have none (or there is no game)."""
        rules = self.ctx.presenters["rules"]
        state = self.state
        active = state.current.active if state is not None else None
        if active is not None and rules.has("race", active.race):
            rules.open_at("race", active.race)
        else:
            rules.open_at("turn", "Pick a combo")

    def reminder_rules(self) -> None:
        """A tap on the reminders: open the rules at the first race, power or piece they
        name (the Rules button's entry when they name none)."""
        if not self.ctx.presenters["rules"].open_for(self._reminders_named):
            self.open_rules()

    def _announce_event(self, state: GameState) -> None:
        """The expansions' headlines (an event in force this turn), said once when a game
        turn (the first included) starts."""
        history = self.session.history
        headlines = [line for v in expansions.played(state) if (line := v.headline(state))]
        if not headlines or history is None:
            return
        game = history.log[0]  # the same object for as long as the game is played
        before = history.states[-2] if len(history.states) > 1 else None
        started = before is None or before.track.turn != state.track.turn
        told = self._announced
        if started and (told is None or told[0] is not game or told[1] != state.track.turn):
            self._announced = (game, state.track.turn)
            for headline in headlines:
                self.ctx.notices.tell(headline.partition(": ")[2],
                                      _("Turn {turn}").format(turn=state.track.turn))

    def _hint(self, state: GameState, view: PublicView) -> str:
        if view.combos_owed and state.dealing == "table":
            return ngettext(
                "Deal {n} combo with the cardboard and enter it in the market.",
                "Deal {n} combos with the cardboard and enter each one in the market.",
                view.combos_owed).format(n=view.combos_owed)
        waiting = troops_game.waiting_hands(state) if view.phase is Phase.FINISHED else ()
        if waiting:  # the end of the turn waits for them: said before it is tapped
            names_ = list(dict.fromkeys(state.players[seat].name for seat, _race, _n in waiting))
            return ngettext("The turn is scored. First {names} puts the tokens in hand back "
                            "on the board; then end the turn.",
                            "The turn is scored. First {names} put the tokens in hand back "
                            "on the board; then end the turn.", len(names_)).format(
                names=", ".join(names_))
        return phase_hint(view.phase)

    def _actions(self, state: GameState, view: PublicView) -> list[dict[str, Any]]:
        phase = view.phase
        out: list[dict[str, Any]] = []
        if view.game_over:
            return [{"key": "game_end", "text": _("Reveal the coins"), "kind": "primary"}]
        if view.combos_owed and state.dealing == "table":
            out.append({"key": "market", "kind": "primary",
                        "text": ngettext("Enter the {n} revealed combo",
                                         "Enter the {n} revealed combos",
                                         view.combos_owed).format(n=view.combos_owed)})
        elif phase is Phase.PICK_COMBO:
            out.append({"key": "market", "text": _("Pick a race and power"), "kind": "primary"})
        if phase is Phase.CONQUER:
            out.append({"key": "map", "text": _("Conquer on the map"), "kind": "primary"})
            out.append({"key": "finish_conquests", "text": _("Finish conquering")})
        elif phase is Phase.REDEPLOY:
            # the map first, where it was while conquering; the player's own hand next;
            # then Finish, in the same place whatever was spread; the defenders' hands last
            spreads = hand_actions(state)
            out.append({"key": "map", "text": _("Place tokens on the map")})
            out += [a for a in spreads if a["kind"] != "warning"]
            out.append({"key": "finish_redeployment", "text": _("Finish redeployment"),
                        "kind": "secondary" if spreads else "primary"})
            out += [a for a in spreads if a["kind"] == "warning"]
        elif phase is Phase.SCORE:
            out.append({"key": "scoring", "text": _("Score the turn"), "kind": "primary"})
        elif phase is Phase.FINISHED:  # End the turn first: it stays put as hands go back
            spreads = hand_actions(state)
            out.append({"key": "end_turn", "text": _("End the turn"),
                        "kind": "secondary" if spreads else "primary"})
            out += spreads
        if view.may_decline:
            out.append({"key": "decline", "text": _("Go into decline"), "kind": "danger"})
        return out

    def _combo(self, state: GameState) -> str:
        active = state.current.active
        if active is None or state.is_over:
            return ""
        catalog = state.catalog
        try:
            race = catalog.race(active.race).summary
            power = catalog.power(active.power).summary
        except LookupError:
            return names.combo(active.power, active.race)
        return "\n".join((names.described(names.power(active.power), power),
                          names.described(names.race(active.race), race)))

    def _refresh_die(self) -> None:
        chance = self.session.die_chance()
        self.die_ready = chance.allowed
        self.die_kind = "primary" if chance.allowed else "dimmed"
        self.die_text = _(DIE_TEXT.get(chance.purpose, ROLL_DIE))
        self.die_reason = "" if chance.allowed else say(chance.reason)

    def _refresh_undo(self, state: GameState) -> None:
        history = self.session.history
        assert history is not None
        blocker = history.undo_blocker()
        if blocker is not None:
            self.undo_ready = False
            self.undo_text = (_(NOTHING_TO_UNDO) if "nothing" in str(blocker)
                              else _("Undo: the last action stays (a die roll or a turn's end)"))
            return
        players = [p.name for p in state.players]
        self.undo_ready = True
        self.undo_text = _("Undo: take back {step}").format(
            step=step_text(history.last_step, players, self._races_before()))

    def _races_before(self) -> dict[int, str]:
        history = self.session.history
        if history is None or len(history.states) < 2:
            return {}
        before = history.states[-2]
        return {p.seat: p.active.race for p in before.players if p.active is not None}

    # -- intents -------------------------------------------------------------------------
    def do(self, action: TableIntent) -> None:
        if action not in (Action.UNDO, Action.REDO):
            self.hide_redo()  # the next intent ends the offer to redo
        match action:
            case SpreadHand(seat, race):
                self.attempt(lambda: self.session.spread_hand(seat=seat, race=race))
            case Action():
                handlers: dict[Action, Callable[[], None]] = {
                    Action.MARKET: lambda: self.go("market"),
                    Action.MAP: lambda: self.go("map"),
                    Action.SCORING: lambda: self.go("scoring"),
                    Action.GAME_END: lambda: self.go("game_end"),
                    Action.FINISH_CONQUESTS: self.finish_conquests,
                    Action.FINISH_REDEPLOYMENT: self.finish_redeployment,
                    Action.END_TURN: self.end_turn,
                    Action.DECLINE: self.decline,
                    Action.DIE: self.open_die,
                    Action.UNDO: self.undo,
                    Action.REDO: self.redo,
                    Action.HOME: lambda: self.go("home"),
                    Action.SIDES: lambda: sides.choose(self),
                    Action.RULES: self.open_rules,
                    Action.REMINDER_RULES: self.reminder_rules,
                }
                handlers[action]()
            case _:
                owner = expansions.owner("table", action)
                if owner is None:
                    raise UnknownAction("table", str(action), allowed(
                        Action, *expansions.intents("table"), "spread:<seat>:<race>"))
                owner.table_intents[type(action)](self, self, action)

    def finish_conquests(self) -> None:
        self.attempt(self.session.finish_conquests)

    def finish_redeployment(self) -> None:
        self.attempt(self.session.finish_redeployment)

    def end_turn(self) -> None:
        self.attempt(self.session.end_turn)
        state = self.state
        if state is not None and state.is_over:
            self.go("game_end")

    def decline(self) -> None:
        state = self.state
        if state is None:
            return
        active = state.current.active
        stout = state.track.phase is Phase.FINISHED
        if active is not None and stout:
            text = _("Put the {combo} in decline now, at the end of the turn "
                     "(Stout)?").format(combo=names.combo(active.power, active.race))
        elif stout:
            text = _("Put the active race in decline now, at the end of the turn (Stout)?")
        elif active is not None:
            text = _("Put the {combo} in decline? {name} conquers nothing this turn, "
                     "scores at once, and picks a new race next turn.").format(
                combo=names.combo(active.power, active.race), name=state.current.name)
        else:
            text = _("Put the active race in decline? {name} conquers nothing this turn, "
                     "scores at once, and picks a new race next turn.").format(
                name=state.current.name)
        self.ctx.notices.ask(Question(text=text, yes=_("Go into decline"), kind="danger",
                                      title=_("Go into decline"), on_yes=self._decline))

    def _decline(self) -> None:
        """The decline, confirmed: an expansion may ask something first (where a race
        leaves its tower), else the race goes into decline now."""
        state = self.state
        if state is not None and any(v.decline(self, state)
                                     for v in expansions.played(state)):
            return
        self.attempt(self.session.decline)

    def open_die(self) -> None:
        """The die button: the roll the rules allow now (Berserk's at once, on the die
        screen; the final conquest's once its region is chosen on the map)."""
        chance = self.session.die_chance()
        if chance.purpose is None:
            self.ctx.notices.tell(say(chance.reason), _("No roll now"))
            return
        die = self.ctx.presenters.get("die")
        if chance.purpose is DiePurpose.BERSERK and die is not None:
            self.go("die")
            die.roll()
        else:
            self.go("map")  # the final conquest's region is chosen before the roll

    def undo(self) -> None:
        """Take back the last step at once, and offer to put it back (the bar)."""
        history = self.session.history
        if history is None:
            return
        blocker = history.undo_blocker()
        if blocker is not None:
            self.hide_redo()
            self.ctx.notices.tell(plain(say(blocker)), _("Nothing to undo"))
            return
        if self.attempt(self.session.undo, _("Cannot undo")) is not None:
            self._offer_redo()

    def redo(self) -> None:
        """Put back the step the last undo took back; the bar stays while more can be."""
        if self.attempt(self.session.redo, _("Cannot redo")) is not None \
                and self.session.redo_steps:
            self._offer_redo()
        else:
            self.hide_redo()

    def _offer_redo(self) -> None:
        """The bar, saying what the next redo puts back, for `UNDO_BAR_SECONDS`."""
        steps, state = self.session.redo_steps, self.state
        if not steps or state is None:
            self.hide_redo()
            return
        races = {p.seat: p.active.race for p in state.players if p.active is not None}
        self.took_back_text = _("Took back: {step}").format(
            step=step_text(steps[-1], [p.name for p in state.players], races))
        self.redo_offered = True
        self._bar_timer.cancel()
        self._bar_timer()

    def hide_redo(self) -> None:
        """The bar goes (its time is up, another intent came, or the game moved on)."""
        self._bar_timer.cancel()
        self.redo_offered = False

    # -- the private peek ------------------------------------------------------------------
    def peek(self, seat: int) -> None:
        """A finger holds `seat`'s name: show their total, or first ask for their PIN."""
        state = self.state
        if state is None:
            return
        try:
            profile = self._profile_of(seat)
        except RecordsError as failed:
            self.ctx.notices.tell(_("The PIN cannot be checked: {reason}").format(
                reason=say(failed)), _("Nothing shown"))
            return
        if profile is not None and profile.has_pin:
            name = state.player(seat).name
            ask_pin(self.ctx, PinRequest(
                title=_("{name}'s PIN").format(name=name),
                text=_("Only {name} types it. The coins then show for a few seconds.").format(
                    name=name),
                on_done=lambda pin: self._pin_typed(seat, profile.id, pin), seat=seat))
            return
        self._show(seat, _("Let go to hide."))

    def _profile_of(self, seat: int) -> Profile | None:
        """The player profile linked to `seat` in the saved game, if any."""
        store, game_id = self.session.records, self.session.game_id
        if store is None or game_id is None:
            return None
        seats = store.game(game_id).seats
        player_id = seats[seat].player_id if 0 <= seat < len(seats) else None
        if player_id is None:
            return None
        return next((p for p in store.profiles() if p.id == player_id), None)

    def _pin_typed(self, seat: int, profile_id: int, pin: str) -> None:
        store = self.session.records
        if store is None or self.state is None:
            return
        try:
            right = store.check_pin(profile_id, pin)
        except RecordsError as failed:
            self.ctx.notices.tell(_("The PIN cannot be checked: {reason}").format(
                reason=say(failed)), _("Nothing shown"))
            return
        if not right:
            self.ctx.notices.tell(_("That PIN is not right, so nothing is shown. Hold your "
                                    "name again to try once more."), _("Wrong PIN"))
            return
        self._show(seat, _("Tap to hide it now."))
        # Counted from the next frame: the clock's time stood still while the PIN was hashed.
        self._peek_timer = Clock.schedule_once(self._start_countdown, 0)

    def _start_countdown(self, _dt: float) -> None:
        self._peek_timer = Clock.schedule_once(lambda _dt: self.end_peek(), PEEK_SECONDS)

    def _show(self, seat: int, how_to_hide: str) -> None:
        state = self.state
        assert state is not None
        name = state.player(seat).name
        self.show_private(seat, coins(own_coins(state, seat)),
                          _("{name}'s coins. Only {name} looks! {how_to_hide}").format(
                              name=name, how_to_hide=how_to_hide))

    def show_private(self, seat: int, text: str, detail: str) -> None:
        """Show `text` on the private overlay in `seat`'s colour, until tapped (or let go)."""
        state = self.state
        assert state is not None
        self._cancel_timer()
        self.peek_rgba = palette.rgba(state.player(seat).colour)
        self.peek_detail = detail
        self.peek_seat = seat  # the screen turns to face them before the total shows
        self.peek_text = text

    def end_peek(self) -> None:
        self._cancel_timer()
        self.peek_text = ""
        self.peek_detail = ""
        self.peek_seat = -1

    def _cancel_timer(self) -> None:
        if self._peek_timer is not None:
            self._peek_timer.cancel()
            self._peek_timer = None
