"""The rule book the app carries: every race, special power, expansion piece, event, Relic
and Place, and the steps of a turn, each in a short paragraph of the app's own words, found
by typing part of a name.

A `RuleEntry` (`companion.rules.rule_entry`) is one thing a player may look up: its `kind`
(one of `KINDS`), its `name`, its `text`, the set it comes from (`expansion`, a name a
screen shows: "Base game", "River World"...) and, for races and powers, the token numbers
(`facts`). `Rulebook.search(text)` lists the entries whose name holds `text`;
`Rulebook.entry(kind, name)` is one of them.

Where the words come from:
- races and powers: the catalog's `summary` of each (`companion/data/`), with the numbers of
  its banner or badge;
- the turn's steps: written here (`_TURN`);
- each expansion's events, pieces and rules: its own module, asked through the registry
  (`Expansion.rule_entries`, with its own kinds of entry in `Expansion.rule_kinds`).

Invariants of every `Rulebook` that `build_rulebook` returns:
- every race and power of its catalog and every entry an expansion gives has exactly one
  entry, and every entry's text is not blank; each entry's `label` is its kind's;
- (kind, name) is unique, names compared folded (`fold`);
- `search` ranks names that start with the text before names that only contain it, then
  orders by kind (`KINDS` order), then by the entry's place (a turn step's number; 0 for
  the others), then by folded name; a blank text lists every entry in that order;
- `entry` with a kind or name that does not exist raises `UnknownName`, naming what is
  allowed.

Names are compared folded: case, accents, apostrophes and the difference between a hyphen
and a space are ignored ("peace lov" finds Peace-Loving, "glandulfs" Glandulf's Tavern).

The words are English and stay so here; a screen shows them in the table's language. Each
is marked for extraction where it is written: the turn's steps with `N_`, the expansions'
texts with `N_` or, when they hold a number of the rules, as a `Said`; the facts line is a
`Said` (its plural follows the count); the catalog's summaries are marked by ``make
locale`` (`tools/locale_names.py`), so the catalog keeps its English. Its errors (a kind or
name not found, a broken entry) are `Said` sentences too, their English unchanged.

Pure: it reads the packaged catalog (`load_catalog`) and the rules modules' constants only.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType

import companion.rules.expansions as expansions
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.errors import DataError, UnknownName
from companion.rules.rule_entry import (
    BASE_KINDS,
    PIECE,
    PIECE_KIND,
    POWER,
    RACE,
    TURN,
    RuleEntry,
    english,
)
from companion.rules.said import N_, Said, said, said_n

KINDS: tuple[str, ...] = tuple(
    kind for kind, _ in (*BASE_KINDS, *(k for x in expansions.registered() for k in x.rule_kinds),
                         PIECE_KIND))
"""Every kind of entry, in the order search results list them: the base game's, each
registered expansion's own (`Expansion.rule_kinds`, in the registry's order), the pieces."""

KIND_LABELS: Mapping[str, str] = MappingProxyType(dict(
    (*BASE_KINDS, *(k for x in expansions.registered() for k in x.rule_kinds), PIECE_KIND)))
"""What a screen calls each kind."""

BASE_GAME = "Base game"

_KIND_WORDS: Mapping[str, str] = MappingProxyType({
    RACE: N_("race"), POWER: N_("special power"), TURN: N_("turn step"),
    PIECE: N_("expansion rule"),
})
"""The word for a kind inside a sentence ("unknown race 'X'"), marked for translation; an
expansion's own kind is said as its label in lower case (its English)."""


def fold(text: str) -> str:
    """`text` as names are compared: accents dropped, case folded, apostrophes dropped,
    hyphens read as spaces, runs of spaces made one."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    bare = bare.replace("'", "").replace("\u2019", "").replace("-", " ")
    return " ".join(bare.casefold().split())


class Rulebook:
    """Every entry, found by kind and name or by part of a name (see the module)."""

    def __init__(self, entries: Iterable[RuleEntry]) -> None:
        self._entries: dict[tuple[str, str], RuleEntry] = {}
        for item in entries:
            if item.kind not in KIND_LABELS:
                raise DataError("rulebook", repr(item.name),
                                said("unknown kind {kind}", kind=repr(item.kind)))
            if not english(item.text).strip():
                raise DataError("rulebook", f"{item.kind} {item.name!r}", said("no text"))
            key = (item.kind, fold(item.name))
            if key in self._entries:
                raise DataError("rulebook", f"{item.kind} {item.name!r}", said("listed twice"))
            self._entries[key] = replace(item, label=KIND_LABELS[item.kind])
        self._ordered = tuple(sorted(self._entries.values(), key=_order))

    @property
    def entries(self) -> tuple[RuleEntry, ...]:
        """Every entry, by kind (`KINDS` order), then place, then name."""
        return self._ordered

    def __len__(self) -> int:
        return len(self._ordered)

    def entry(self, kind: str, name: str) -> RuleEntry:
        """The entry of that kind and name (folded, see `fold`); `UnknownName` otherwise."""
        if kind not in KIND_LABELS:
            raise UnknownName(N_("kind of rule"), kind, KINDS)
        found = self._entries.get((kind, fold(name))) if isinstance(name, str) else None
        if found is None:
            raise UnknownName(_KIND_WORDS.get(kind, KIND_LABELS[kind].lower()), name,
                              [e.name for e in self._ordered if e.kind == kind])
        return found

    def search(self, text: str) -> tuple[RuleEntry, ...]:
        """The entries whose folded name holds the folded `text`: names that start with it
        first, then by kind, place and name; every entry when `text` is blank."""
        wanted = fold(text)
        if not wanted:
            return self._ordered
        starts = []
        contains = []
        for item in self._ordered:
            name = fold(item.name)
            if name.startswith(wanted):
                starts.append(item)
            elif wanted in name:
                contains.append(item)
        return (*starts, *contains)


def _order(item: RuleEntry) -> tuple[int, int, str]:
    return (KINDS.index(item.kind), item.place, fold(item.name))


def _race_facts(tokens: int, most: int | None, attack_only: int) -> Said:
    """A banner's numbers in a line: its tokens, those that only attack, the box's."""
    if attack_only and most is not None:
        return said_n("Banner: {n} token, plus {attack_only} that only attack; {most} in the "
                      "box.",
                      "Banner: {n} tokens, plus {attack_only} that only attack; {most} in "
                      "the box.", tokens, attack_only=attack_only, most=most)
    if attack_only:
        return said_n("Banner: {n} token, plus {attack_only} that only attack.",
                      "Banner: {n} tokens, plus {attack_only} that only attack.", tokens,
                      attack_only=attack_only)
    if most is not None:
        return said_n("Banner: {n} token; {most} in the box.",
                      "Banner: {n} tokens; {most} in the box.", tokens, most=most)
    return said_n("Banner: {n} token.", "Banner: {n} tokens.", tokens)


def _power_facts(tokens: int) -> Said:
    """A badge's numbers in a line."""
    return said_n("Badge: {n} token.", "Badge: {n} tokens.", tokens)


def build_rulebook(catalog: Catalog) -> Rulebook:
    """The rule book of `catalog`'s races and powers and of everything written here."""
    names = dict(catalog.expansions)
    entries: list[RuleEntry] = [
        RuleEntry(RACE, r.name, r.summary, names.get(r.expansion, r.expansion),
                  _race_facts(r.tokens, r.max_tokens, r.conquest_only_tokens))
        for r in catalog.races
    ]
    entries += [
        RuleEntry(POWER, p.name, p.summary, names.get(p.expansion, p.expansion),
                  _power_facts(p.tokens))
        for p in catalog.powers
    ]
    for expansion in expansions.registered():
        entries += expansion.rule_entries(catalog)
    entries += [
        RuleEntry(TURN, name, text, BASE_GAME, place=number)
        for number, (name, text) in enumerate(_TURN, start=1)
    ]
    return Rulebook(entries)


@functools.cache
def load_rulebook() -> Rulebook:
    """The rule book of the packaged catalog (built once)."""
    return build_rulebook(load_catalog())


# --- the words written here -----------------------------------------------------------------

_TURN: tuple[tuple[str, str], ...] = (
    (N_("Pick a combo"),
     N_("With no active race (your first turn, or the turn after a decline), choose one of "
        "the six race and power pairs. The top one is free; each pair further down costs a "
        "coin laid on every pair above it, and you take any coins lying on the one you pick. "
        "You get the banner's tokens plus the badge's.")),
    (N_("Ready your troops"),
     N_("With an active race on the board, start your turn by taking back into your hand "
        "every token of it but one in each region it holds: those are the troops you "
        "conquer with this turn.")),
    (N_("Conquer"),
     N_("Take a region by moving in 2 tokens, plus one for every token, mountain, fortress, "
        "encampment, troll lair or other defence already there. A new race's first conquest "
        "must be on the edge of the board. The defender loses one token and gets the others "
        "back to place at the end of your turn. Seas and lakes cannot be taken.")),
    (N_("Final conquest"),
     N_("When your troops in hand are too few for the region you want, you may try once: "
        "roll the reinforcement die and add it to them. If the total is enough you take the "
        "region; either way your conquests are over for this turn.")),
    (N_("Redeploy"),
     N_("Move your active tokens between your regions as you like, leaving at least one in "
        "each. A player who lost tokens this turn puts the ones handed back on their own "
        "regions.")),
    (N_("Go into decline"),
     N_("Instead of conquering, turn your active race's banner over and flip its tokens, one "
        "left in each region; any race you already had in decline leaves the board. You "
        "still score this turn, and pick a new combo on your next.")),
    (N_("Score"),
     N_("End your turn with one coin for every region you hold, active or in decline, plus "
        "what your races and powers add. Coins are kept hidden; whoever has the most after "
        "the last turn wins.")),
)
"""The steps of a player's turn, in order: (name, text)."""
