"""Each combo's own coins: what its race scored, active and in decline, turn by turn.

A player may score for two or three races in one turn: their active race and their races
in decline. A turn's income is saved whole (`TurnIncome.coins`) with the lines shown then
(`TurnIncome.lines`), and each line names what earned it: the scoring engine
(`companion.rules.scoring`) writes the race's name, or its power's, with " (in decline)"
after it for a race in decline ("Regions held by Trolls (in decline)", "Trolls (in
decline): ..."). So a turn is split by race from its lines:

- a line naming a race in decline (or its power) with " (in decline)" goes to that
  player's combo of that race (the latest one picked, should they have had it twice);
- every other line (the active race's, and the player's own: harbors, relics, places)
  goes to the combo picked last, the active one (or the one that declined this turn);
- lines before the player's first pick belong to no combo.

A turn whose lines do not add up to its coins (a total typed in without lines, a quick
count) cannot be split. While the player has only one combo, its coins are all that
combo's anyway; with a race in decline beside it, the turn's coins go to the latest combo
as they are and the combo is marked *not split* (`ComboPlayed.split`), so that the
screens and exports say so instead of giving its coins as if they were its own.

This is the one place a turn's income is split by race: the stats, the past games, the
export and the game's story (`companion.story`, through `GameSummary.combos`) all read the
coins credited here.

Pure: no SQL, no rules; the store reads the rows and hands them here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from companion.records import ComboPlayed, TurnIncome

IN_DECLINE = " (in decline)"
"""What the scoring engine writes after the name of a race in decline, or its power."""


def _owner(label: str, picked: Sequence[ComboPlayed]) -> int:
    """The index in `picked` of the combo a line is for: the latest whose race or power the
    line names as in decline, else the latest (the active combo)."""
    for index in range(len(picked) - 1, -1, -1):
        combo = picked[index]
        if f"{combo.race}{IN_DECLINE}" in label or f"{combo.power}{IN_DECLINE}" in label:
            return index
    return len(picked) - 1


def credit(combos: Iterable[ComboPlayed], income: Iterable[TurnIncome]) -> list[ComboPlayed]:
    """`combos` (their coins ignored) with each one's own coins from `income`, in the order
    given; a combo whose coins could not all be split by race has ``split`` False."""
    ordered = list(combos)
    coins = [0] * len(ordered)
    split = [True] * len(ordered)
    by_seat: dict[int, list[int]] = {}
    for index in sorted(range(len(ordered)), key=lambda i: (ordered[i].turn, ordered[i].row)):
        by_seat.setdefault(ordered[index].seat, []).append(index)
    for turn in income:
        mine = [i for i in by_seat.get(turn.seat, []) if ordered[i].turn <= turn.turn]
        if not mine:
            continue
        picked = [ordered[i] for i in mine]
        if turn.lines and sum(n for _, n in turn.lines) == turn.coins:
            for label, n in turn.lines:
                coins[mine[_owner(label, picked)]] += n
            continue
        coins[mine[-1]] += turn.coins
        if len(mine) > 1 and turn.coins:
            split[mine[-1]] = False
    return [replace(combo, coins=coins[i], split=split[i]) for i, combo in enumerate(ordered)]
