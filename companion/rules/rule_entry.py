"""One entry of the rule book: a thing a player may look up, in the app's own words.

An entry has a `kind` (the base game's `RACE`, `POWER`, `TURN`, `PIECE`, or a kind an
expansion declares: River World's events, team play's Relics and Places), a `name`, its
`text`, the set it comes from (`expansion`, as a screen shows it: "Base game", "River
World"...), for races and powers the numbers of the banner or badge (`facts`), for a turn
step its number (`place`), and what a screen calls its kind (`label`, filled in by the
`companion.rules.rulebook.Rulebook` that holds it).

The words stay English here; a screen shows them in the table's language. So every text is
marked for extraction where it is written: a plain paragraph with `N_`
(`companion.rules.said`), one that holds a number of the rules (a cost, a count of pieces)
as a `Said` made with `said`, its numbers as named values, and the facts line likewise a
`Said`. `english(entry.text)` is the English of either kind (what tests and logs read).

This module is apart from the rule book so that an expansion's module can write its own
entries (`companion.rules.expansion.Expansion.rule_entries`) while the rule book asks the
registry for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.said import Said

RACE = "race"
POWER = "power"
TURN = "turn"
PIECE = "piece"

BASE_KINDS: tuple[tuple[str, str], ...] = (
    (RACE, "Race"), (POWER, "Special power"), (TURN, "Turn step"),
)
"""The base game's kinds of entry with what a screen calls them, in search order; the
expansions' kinds follow them, and `PIECE_KIND` comes last."""

PIECE_KIND: tuple[str, str] = (PIECE, "Expansion rule")
"""An expansion's piece or rule (the Caravel, the Well of Souls, team play): the last kind."""


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One thing to look up: its kind, name, words, set and (races, powers) numbers."""

    kind: str
    name: str
    text: str | Said  # a paragraph marked N_, or a Said holding the rules' numbers
    expansion: str
    facts: str | Said = ""  # the banner's or badge's numbers, a Said ("" for the others)
    place: int = 0  # a turn step's number; 0 for every other entry
    label: str = ""  # the kind as a screen shows it ("Race"...); set by the Rulebook


def english(text: str | Said) -> str:
    """An entry's text or facts in the rules' own English."""
    return text if isinstance(text, str) else str(text)
