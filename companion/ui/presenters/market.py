"""The combo market: the six rows, what a pick costs and brings, and the table's reveals.

Rows come from `views.public(state).market` (a row tapped: `views.market_rows`, alone);
why a row cannot be picked comes from `views.pick_refusal`. When the table deals with the
cardboard, the players say which banner and badge they turned up (`reveal`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.i18n import N_, _, ngettext
from companion.rules import GameState, Phase, market_rows, pick_refusal, public
from companion.ui import names
from companion.ui.describe import tokens
from companion.ui.presenters.base import Choice, Presenter, Question, plain
from companion.ui.presenters.intents import argument, known, number
from companion.ui.wording import say


class Action(StrEnum):
    """The market screen's buttons (the values are their keys)."""

    BACK = "back"


@dataclass(frozen=True)
class PickRow:
    """A row of the market tapped ("row<n>", 0 the top row)."""

    row: int


@dataclass(frozen=True)
class LookUpRow:
    """A row's "?" tapped ("rules<n>", 0 the top row): its race or power in the rules."""

    row: int


def parse(key: str) -> Action | PickRow | LookUpRow:
    """The market screen's action for `key`; `UnknownAction` when it has none."""
    row = number(argument(key, "row"))
    if row is not None:
        return PickRow(row)
    row = number(argument(key, "rules"))
    if row is not None:
        return LookUpRow(row)
    return known("market", key, Action, "row<n>", "rules<n>")


BANNER_UNCHOSEN = N_("Banner: tap to choose")
BADGE_UNCHOSEN = N_("Badge: tap to choose")


class MarketPresenter(Presenter, parse=parse):
    title = StringProperty(N_("Market"))
    hint = StringProperty("")
    rows = ListProperty([])
    reveal_needed = BooleanProperty(False)
    owed = NumericProperty(0)
    chosen_race = StringProperty("")
    chosen_power = StringProperty("")
    race_text = StringProperty(BANNER_UNCHOSEN)
    power_text = StringProperty(BADGE_UNCHOSEN)
    can_reveal = BooleanProperty(False)

    def refresh(self, state: GameState) -> None:
        view = public(state)
        name = view.players[view.current_seat].name
        picking = view.phase is Phase.PICK_COMBO and not view.game_over
        table_deals = state.dealing == "table"
        self.owed = view.combos_owed
        self.reveal_needed = bool(view.combos_owed) and table_deals
        if self.reveal_needed:
            self.title = _("Enter the revealed combos")
            self.hint = ngettext(
                "{n} combo to reveal. Turn up the top banner and the top badge, then choose "
                "both here.",
                "{n} combos to reveal. Turn up the top banner and the top badge, then choose "
                "both here.", view.combos_owed).format(n=view.combos_owed)
        elif picking:
            self.title = _("{name} picks a race and power").format(name=name)
            self.hint = _("The top row is free. A lower row costs 1 coin on each row above "
                          "it; you take the coins lying on the row you pick.")
        else:
            self.title = _("The market")
            self.hint = _("{name} already plays a race this turn: the market is only to look "
                          "at.").format(name=name)
        rows: list[dict[str, Any]] = []
        for r in view.market:
            refusal = pick_refusal(state, r.row) if picking else None
            rows.append({
                "row": r.row,
                "number": _("Row {number}").format(number=r.row + 1),
                "key": "row%d" % r.row,  # noqa: UP031 (a key, not words: no f-string)
                "rules_key": "rules%d" % r.row,  # noqa: UP031
                "combo": names.combo(r.power, r.race),
                "tokens": tokens(r.tokens),
                "cost": _("Free") if r.cost == 0 else ngettext(
                    "Costs {n} coin", "Costs {n} coins", r.cost).format(n=r.cost),
                "lying": ngettext("+{n} coin on it", "+{n} coins on it", r.coins).format(
                    n=r.coins) if r.coins else "",
                "refusal": plain(say(refusal)) if refusal else "",
                "kind": "primary" if picking and refusal is None else "secondary",
            })
        self.rows = rows
        self._check_choices(state)

    def _check_choices(self, state: GameState) -> None:
        if self.chosen_race not in state.market.race_stack:
            self.chosen_race = ""
        if self.chosen_power not in state.market.power_stack:
            self.chosen_power = ""
        self.race_text = (_("Banner: {race}").format(race=names.race(self.chosen_race))
                          if self.chosen_race else _(BANNER_UNCHOSEN))
        self.power_text = (_("Badge: {power}").format(power=names.power(self.chosen_power))
                           if self.chosen_power else _(BADGE_UNCHOSEN))
        self.can_reveal = bool(self.chosen_race and self.chosen_power)

    # -- intents -------------------------------------------------------------------------
    def do(self, action: Action | PickRow | LookUpRow) -> None:
        match action:
            case PickRow(row):
                self.choose(row)
            case LookUpRow(row):
                self.look_up(row)
            case Action.BACK:
                self.go("table")
            case _:
                assert_never(action)

    def choose(self, row: int) -> None:
        state = self.state
        if state is None:
            return
        refusal = pick_refusal(state, row)
        if refusal is not None:
            self.ctx.notices.tell(plain(say(refusal)), _("You cannot take this combo"))
            return
        r = market_rows(state)[row]
        name = state.current.name
        combo = names.combo(r.power, r.race)
        lines = [ngettext("{name} takes the {combo} with {n} token.",
                          "{name} takes the {combo} with {n} tokens.", r.tokens).format(
            name=name, combo=combo, n=r.tokens)]
        lines.append(_("It is free.") if r.cost == 0 else ngettext(
            "{name} pays {n} coin: 1 on each row above it.",
            "{name} pays {n} coins: 1 on each row above it.", r.cost).format(name=name, n=r.cost))
        if r.coins:
            lines.append(ngettext("{name} takes the {n} coin lying on it.",
                                  "{name} takes the {n} coins lying on it.", r.coins).format(
                name=name, n=r.coins))
        catalog = state.catalog
        text = "\n".join((" ".join(lines), "",
                          names.described(names.power(r.power), catalog.power(r.power).summary),
                          names.described(names.race(r.race), catalog.race(r.race).summary)))
        self.ctx.notices.ask(Question(
            text=text, yes=_("Take the {combo}").format(combo=combo),
            title=_("Row {number}").format(number=row + 1), on_yes=lambda: self.take(row)))

    def look_up(self, row: int) -> None:
        """A row's "?": which of its race and power to read, then the rules open at it
        (Back returns here)."""
        state = self.state
        rows = market_rows(state) if state is not None else ()
        if not 0 <= row < len(rows):
            return
        r = rows[row]
        rules = self.ctx.presenters["rules"]

        def open_at(key: str) -> None:
            kind, _, name = key.partition(":")
            rules.open_at(kind, name)

        self.ctx.notices.choose(Choice(
            _("Look up the {combo}").format(combo=names.combo(r.power, r.race)),
            [("race:" + r.race, _("Race: {race}").format(race=names.race(r.race))),
             ("power:" + r.power, _("Power: {power}").format(power=names.power(r.power)))],
            open_at))

    def take(self, row: int) -> None:
        self.attempt(lambda: self.session.pick(row), then="table")

    # -- the table deals -------------------------------------------------------------------
    def pick_banner(self) -> None:
        state = self.state
        if state is None:
            return
        races = sorted(state.market.race_stack, key=lambda r: names.folded(names.race(r)))
        self.ctx.notices.choose(Choice(_("Which banner was turned up?"),
                                       [(r, names.race(r)) for r in races], self.set_race))

    def pick_badge(self) -> None:
        state = self.state
        if state is None:
            return
        powers = sorted(state.market.power_stack, key=lambda p: names.folded(names.power(p)))
        self.ctx.notices.choose(Choice(_("Which badge was turned up?"),
                                       [(p, names.power(p)) for p in powers], self.set_power))

    def set_race(self, race: str) -> None:
        self.chosen_race = race
        if self.state is not None:
            self._check_choices(self.state)

    def set_power(self, power: str) -> None:
        self.chosen_power = power
        if self.state is not None:
            self._check_choices(self.state)

    def reveal(self) -> None:
        if not self.can_reveal:
            self.ctx.notices.tell(
                _("Choose the banner and the badge that were turned up first."))
            return
        race, power = self.chosen_race, self.chosen_power
        if self.attempt(lambda: self.session.reveal(race, power)) is not None:
            self.chosen_race = self.chosen_power = ""
            if self.state is not None:
                self._check_choices(self.state)
