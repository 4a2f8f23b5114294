"""The combo market: the column of race banners and special power badges on the table.

Invariants:
- At most six combos are visible (`ROWS`); row 0 is the top of the column and is free,
  and row k costs one coin dropped on each of the k rows above it: k coins, except that
  skipping a Cursed combo costs 3 coins on its row (Cursed!). A bypassed Homunculi combo
  also gains a Homunculus token, received with the combo when it is picked.
- Whoever picks a row takes the coins lying on it; the rows below slide up with their
  coins, and a new combo is revealed at the bottom from the tops of the two stacks.
- Six combos show whenever the stacks allow: `missing` says how many reveals are owed.
- A banner whose race vanished from the board goes to the bottom of the banner stack;
  a badge that goes out of play joins the discards, which are reshuffled into a new badge
  stack only when the badge stack runs out.

Two ways of dealing. When the app deals (`ordered` stacks), the shuffled order arrived
inside an event, a reveal must be the top of each stack, and `next_reveal` says what it
is. When the table deals with the cardboard, the stacks are face-down piles whose order the
app does not know: a reveal must be a banner and a badge still in the piles.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules.errors import IllegalAction
from companion.rules.names import CURSED, HOMUNCULI
from companion.rules.said import N_, Name, listed, said, said_n
from companion.rules.said import Combo as ComboName

ROWS = 6
CURSED_SKIP_COST = 3


@dataclass(frozen=True, slots=True)
class Combo:
    """A race banner with the special power badge beside it."""

    race: str
    power: str

    @property
    def name(self) -> str:
        return f"{self.power} {self.race}"


@dataclass(frozen=True, slots=True)
class Row:
    """One visible combo and the coins players dropped on it."""

    combo: Combo
    coins: int = 0
    extra_tokens: int = 0  # Homunculus tokens added each time the combo was bypassed

    @property
    def skip_cost(self) -> int:
        """The coins dropped on this row by a player who picks a row below it."""
        return CURSED_SKIP_COST if self.combo.power == CURSED else 1

    def bypassed(self) -> Row:
        extra = self.extra_tokens + (self.combo.race == HOMUNCULI)
        return replace(self, coins=self.coins + self.skip_cost, extra_tokens=extra)


@dataclass(frozen=True, slots=True)
class Market:
    """The visible column, the two stacks and the discarded badges."""

    rows: tuple[Row, ...]
    race_stack: tuple[str, ...]
    power_stack: tuple[str, ...]
    discarded_powers: tuple[str, ...] = ()
    ordered: bool = True

    @property
    def coins_on_rows(self) -> int:
        return sum(row.coins for row in self.rows)

    @property
    def missing(self) -> int:
        """How many combos must be revealed before six show (as far as the stacks allow)."""
        space = ROWS - len(self.rows)
        powers = len(self.power_stack) + len(self.discarded_powers)
        return max(0, min(space, len(self.race_stack), powers))

    @property
    def needs_badge_reshuffle(self) -> bool:
        """A reveal is owed but the badge stack is empty: the discards must be shuffled."""
        return self.missing > 0 and not self.power_stack

    def cost(self, row: int) -> int:
        self._check_row(row)
        return sum(r.skip_cost for r in self.rows[:row])

    def next_reveal(self) -> Combo | None:
        """The combo the app deals next, or None when none is owed or it cannot know."""
        if not self.ordered or self.missing == 0 or not self.power_stack:
            return None
        return Combo(self.race_stack[0], self.power_stack[0])

    def pick(self, row: int) -> tuple[Market, Row]:
        """Take row `row`: the market after, and the row taken (with its coins and tokens).

        The cost (one coin on each row above) is added here; the caller takes it from the
        picker's purse.
        """
        self._check_row(row)
        if self.missing:
            raise IllegalAction(said_n("the market is waiting for {n} combo(s) to be revealed "
                                       "first", "the market is waiting for {n} combo(s) to be "
                                       "revealed first", self.missing))
        above = tuple(r.bypassed() for r in self.rows[:row])
        return replace(self, rows=above + self.rows[row + 1 :]), self.rows[row]

    def reveal(self, combo: Combo) -> Market:
        """Reveal `combo` in the lowest row."""
        if len(self.rows) >= ROWS:
            raise IllegalAction(said("the market already shows {rows} combos", rows=ROWS))
        if combo.race not in self.race_stack:
            raise IllegalAction(said("the banner {race} is not in the banner stack",
                                     race=Name("race", combo.race)))
        if combo.power not in self.power_stack:
            template = (N_("the badge {power} is not in the badge stack (it is among the "
                           "discards)") if combo.power in self.discarded_powers
                        else N_("the badge {power} is not in the badge stack"))
            raise IllegalAction(said(template, power=Name("power", combo.power)))
        if self.ordered and (self.race_stack[0], self.power_stack[0]) != (combo.race, combo.power):
            raise IllegalAction(said("the next combo in the stacks is {next}, not {given}",
                                     next=ComboName(self.power_stack[0], self.race_stack[0]),
                                     given=ComboName(combo.power, combo.race)))
        return replace(
            self,
            rows=(*self.rows, Row(combo)),
            race_stack=_without(self.race_stack, combo.race),
            power_stack=_without(self.power_stack, combo.power),
        )

    def reshuffle_badges(self, order: tuple[str, ...]) -> Market:
        """The discarded badges, shuffled (in `order`), become the new badge stack."""
        if self.power_stack:
            raise IllegalAction(said("the badge stack is not empty yet; discards are not "
                                     "reshuffled"))
        if sorted(order) != sorted(self.discarded_powers):
            raise IllegalAction(said("a reshuffle must hold exactly the discarded badges: "
                                     "{badges}", badges=listed(
                                         Name("power", p) for p in sorted(self.discarded_powers))))
        return replace(self, power_stack=order, discarded_powers=())

    def return_banner(self, race: str) -> Market:
        """A race vanished from the board: its banner goes to the bottom of the stack."""
        return replace(self, race_stack=(*self.race_stack, race))

    def discard_badge(self, power: str) -> Market:
        return replace(self, discarded_powers=(*self.discarded_powers, power))

    def _check_row(self, row: int) -> None:
        if not 0 <= row < len(self.rows):
            raise IllegalAction(said("there is no combo in row {row}; rows 1 to {last} are on "
                                     "the table", row=row + 1, last=len(self.rows)))


def _without(stack: tuple[str, ...], name: str) -> tuple[str, ...]:
    i = stack.index(name)
    return stack[:i] + stack[i + 1 :]
