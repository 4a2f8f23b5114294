"""The story of a finished game: each player's races in order, who declined when, and the
best turns, told only with what the records can stand behind.

Concept: the records keep, for a finished game (`GameSummary`), every player's income at
the end of each game turn and every combo they picked, with the turn picked and the coins
its race scored; the game's history (its events, which the records also keep) says when
each player sent a race into decline (`RaceDeclined`). From these:

- a player's *races* are their combos in the order picked, each with its *turns* (from
  the turn picked to the turn before the next pick, or the last turn: the turns it was
  their latest race) and its *coins*: the race's own, active and then in decline, as the
  records credit them (`ComboPlayed.coins`, split from each turn's score lines by
  `companion.store.combo_coins`, the one place a turn's income is split by race). A race
  in decline that scores beside the next race keeps those coins; a combo whose coins
  could not all be split (a total typed without lines beside a race in decline) is said
  so (`RaceSpan.split`), never told as its own;
- a race is *declined in turn t* when the player's `RaceDeclined` of turn t falls in its
  turns (a race that stays active to the end declined never);
- a player's *best turn* is their highest income at the end of one game turn (ties: the
  earliest), and the game's best turn the highest of all (ties: the earliest turn, then
  seat order). A game where nobody scored has no best turn.

The lines (`race_line`, `best_line`, `RaceSpan.turns`) are whole sentences in the language
spoken (`companion.i18n`), with named placeholders; a combo is named by the `combo` the
caller gives (a screen: the edition's names, `companion.ui.names.combo`; else English).

Invariants:
- pure: no Kivy, no store; the history is read, never changed;
- every number is one of the records' own numbers or a sum of them; no coin is split by
  race here: the coins of a player's races are the records' and add up to their income
  from their first pick on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.i18n import _, ngettext
from companion.records import ComboPlayed, GameSummary

if TYPE_CHECKING:
    from companion.rules.history import History


@dataclass(frozen=True, slots=True)
class RaceSpan:
    """One combo a player picked: the game turns it was their latest, and what its race
    scored, active and in decline (`split` False: some of it was a race in decline's,
    scored as one total beside it and not split by race)."""

    race: str
    power: str
    first_turn: int
    last_turn: int
    coins: int
    declined_turn: int | None = None
    split: bool = True

    @property
    def name(self) -> str:
        """The combo's English name ("Flying Ratmen")."""
        return english_combo(self.power, self.race)

    @property
    def turns(self) -> str:
        """"turn 3" or "turns 3 to 7", in the language spoken."""
        if self.first_turn == self.last_turn:
            return _("turn {turn}").format(turn=self.first_turn)
        return _("turns {first} to {last}").format(first=self.first_turn,
                                                   last=self.last_turn)


def english_combo(power: str, race: str) -> str:
    """A combo by its English names, power first ("Flying Ratmen")."""
    return f"{power} {race}"


@dataclass(frozen=True, slots=True)
class BestTurn:
    seat: int
    turn: int
    coins: int


@dataclass(frozen=True, slots=True)
class PlayerStory:
    seat: int
    name: str
    colour: str
    races: tuple[RaceSpan, ...]
    best_turn: BestTurn | None


def declines(history: History) -> dict[int, tuple[int, ...]]:
    """Seat -> the game turns in which they sent a race into decline (steps in force)."""
    from companion.rules.events import RaceDeclined

    found: dict[int, list[int]] = {}
    for index, step in enumerate(history.in_force):
        if index == 0:
            continue  # the game's creation
        turn = history.states[index - 1].track.turn
        for event in step:
            if isinstance(event, RaceDeclined):
                found.setdefault(event.seat, []).append(turn)
    return {seat: tuple(turns) for seat, turns in found.items()}


def race_spans(summary: GameSummary, seat: int,
               declined: Sequence[int] = ()) -> tuple[RaceSpan, ...]:  # fmt: skip
    """The seat's combos in the order picked, with their turns, their race's own coins
    (the records', `ComboPlayed.coins`) and decline."""
    last = summary.game.turns
    picks: list[ComboPlayed] = sorted(summary.combos_of(seat), key=lambda c: (c.turn, c.row))
    spans = []
    for n, combo in enumerate(picks):
        until = picks[n + 1].turn - 1 if n + 1 < len(picks) else last
        until = max(combo.turn, min(until, last))
        turn = next((t for t in declined if combo.turn <= t <= until), None)
        spans.append(RaceSpan(combo.race, combo.power, combo.turn, until, combo.coins, turn,
                              combo.split))
    return tuple(spans)


def best_turn(summary: GameSummary, seat: int) -> BestTurn | None:
    """The seat's highest income in one game turn (the earliest such), None if nothing."""
    income = summary.income_of(seat)
    if not income or max(income) <= 0:
        return None
    top = max(income)
    return BestTurn(seat, income.index(top) + 1, top)


def game_best_turn(summary: GameSummary) -> BestTurn | None:
    """The highest income of anyone in one game turn (earliest turn, then seat)."""
    found = [b for seat in summary.game.seats if (b := best_turn(summary, seat.seat))]
    return min(found, key=lambda b: (-b.coins, b.turn, b.seat), default=None)


def stories(summary: GameSummary,
            declined: Mapping[int, Sequence[int]] | None = None) -> tuple[PlayerStory, ...]:
    """Every player's story, in seat order. `declined` (seat -> turns, see `declines`):
    without it, nobody is said to have declined."""
    declined = declined or {}
    return tuple(
        PlayerStory(seat.seat, seat.name, seat.colour,
                    race_spans(summary, seat.seat, declined.get(seat.seat, ())),
                    best_turn(summary, seat.seat))
        for seat in sorted(summary.game.seats, key=lambda s: s.seat)
    )


def race_line(span: RaceSpan, combo: Callable[[str, str], str] = english_combo) -> str:
    """"Flying Ratmen, turns 1 to 4, declined in turn 4: 23 coins (in decline too)";
    "Hill Elves, turns 5 to 10: 31 coins"; a combo not split by race: "Hill Elves, turns
    5 to 10: 36 coins with a race in decline's, not split by race". `combo(power, race)`
    names the combo."""
    n, declined = span.coins, span.declined_turn
    if not span.split and declined:
        text = ngettext("{combo}, {turns}, declined in turn {declined}: {n} coin with a race "
                        "in decline's, not split by race",
                        "{combo}, {turns}, declined in turn {declined}: {n} coins with a "
                        "race in decline's, not split by race", n)
    elif not span.split:
        text = ngettext("{combo}, {turns}: {n} coin with a race in decline's, not split by "
                        "race",
                        "{combo}, {turns}: {n} coins with a race in decline's, not split by "
                        "race", n)
    elif declined:
        text = ngettext("{combo}, {turns}, declined in turn {declined}: {n} coin (in decline "
                        "too)",
                        "{combo}, {turns}, declined in turn {declined}: {n} coins (in "
                        "decline too)", n)
    else:
        text = ngettext("{combo}, {turns}: {n} coin", "{combo}, {turns}: {n} coins", n)
    return text.format(combo=combo(span.power, span.race), turns=span.turns,
                       declined=declined, n=n)


def best_line(best: BestTurn | None) -> str:
    """A player's best turn in words, in the language spoken."""
    if best is None:
        return _("No coins scored at the end of a turn")
    return ngettext("Best turn: {n} coin in turn {turn}", "Best turn: {n} coins in turn {turn}",
                    best.coins).format(n=best.coins, turn=best.turn)


__all__ = ["BestTurn", "PlayerStory", "RaceSpan", "best_line", "best_turn", "declines",
           "english_combo", "game_best_turn", "race_line", "race_spans", "stories"]
