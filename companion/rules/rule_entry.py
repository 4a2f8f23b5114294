"""One entry of the rule book: a thing a player may look up, in the app's own words.

An entry has a `kind` (the base game's `RACE`, `POWER`, `TURN`, `PIECE`, or a kind an
expansion declares: River World's events, team play's Relics and Places), a `name`, its
`text`, the set it comes from (`expansion`, as a screen shows it: "Base game", "River
World"...), for races and powers the numbers of the banner or badge (`facts`), for a turn
step its number (`place`), and what a screen calls its kind (`label`, filled in by the
`companion.rules.rulebook.Rulebook` that holds it).

This module is apart from the rule book so that an expansion's module can write its own
entries (`companion.rules.expansion.Expansion.rule_entries`) while the rule book asks the
registry for them.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    text: str
    expansion: str
    facts: str = ""
    place: int = 0  # a turn step's number; 0 for every other entry
    label: str = ""  # the kind as a screen shows it ("Race"...); set by the Rulebook


def plural(count: int, word: str) -> str:
    """`count` and `word`, with an "s" unless the count is one ("1 token", "2 tokens")."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
