"""The rule book the app carries: every race, special power, expansion piece, River World
event, Relic and Place, and the steps of a turn, each in a short paragraph of the app's own
words, found by typing part of a name.

An `RuleEntry` is one thing a player may look up: its `kind` (one of `KINDS`), its `name`, its
`text`, the set it comes from (`expansion`, a name a screen shows: "Base game", "River
World"...) and, for races and powers, the token numbers (`facts`). `Rulebook.search(text)`
lists the entries whose name holds `text`; `Rulebook.entry(kind, name)` is one of them.

Where the words come from:
- races and powers: the catalog's `summary` of each (`companion/data/`), with the numbers of
  its banner or badge;
- Relics and Places: `relics.MARKERS` (their summaries);
- River World events, the pieces of River World, Necromancer Island and team play, and the
  turn's steps: written here (`_EVENTS`, `_PIECES`, `_TURN`).

Invariants of every `Rulebook` that `build_rulebook` returns:
- every race and power of its catalog, every `RiverEvent` and every marker of
  `relics.MARKERS` has exactly one entry, and every entry's text is not blank;
- (kind, name) is unique, names compared folded (`fold`);
- `search` ranks names that start with the text before names that only contain it, then
  orders by kind (`KINDS` order), then by the entry's place (a turn step's number; 0 for
  the others), then by folded name; a blank text lists every entry in that order;
- `entry` with a kind or name that does not exist raises `UnknownName`, naming what is
  allowed.

Names are compared folded: case, accents, apostrophes and the difference between a hyphen
and a space are ignored ("peace lov" finds Peace-Loving, "glandulfs" Glandulf's Tavern).

Pure: it reads the packaged catalog (`load_catalog`) and the rules modules' constants only.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import companion.rules.necromancer as necromancer
import companion.rules.river as river
import companion.rules.teams as teams
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.errors import DataError, UnknownName
from companion.rules.relics import MARKERS, Kind

RACE = "race"
POWER = "power"
EVENT = "event"
RELIC = "relic"
PLACE = "place"
PIECE = "piece"
TURN = "turn"

KINDS: tuple[str, ...] = (RACE, POWER, TURN, EVENT, RELIC, PLACE, PIECE)
"""Every kind of entry, in the order search results list them."""

KIND_LABELS: Mapping[str, str] = MappingProxyType({
    RACE: "Race",
    POWER: "Special power",
    TURN: "Turn step",
    EVENT: "River World event",
    RELIC: "Righteous Relic",
    PLACE: "Popular Place",
    PIECE: "Expansion rule",
})
"""What a screen calls each kind."""

RIVER_WORLD = "River World"
NECROMANCER_ISLAND = "Necromancer Island"
TEAM_PLAY = "Team play (6 players)"
BASE_GAME = "Base game"


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One thing to look up: its kind, name, words, set and (races, powers) numbers."""

    kind: str
    name: str
    text: str
    expansion: str
    facts: str = ""
    place: int = 0  # a turn step's number; 0 for every other entry

    @property
    def label(self) -> str:
        """The kind as a screen shows it ("Race", "Special power"...)."""
        return KIND_LABELS[self.kind]


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
                raise DataError("rulebook", repr(item.name), f"unknown kind {item.kind!r}")
            if not item.text.strip():
                raise DataError("rulebook", f"{item.kind} {item.name!r}", "no text")
            key = (item.kind, fold(item.name))
            if key in self._entries:
                raise DataError("rulebook", f"{item.kind} {item.name!r}", "listed twice")
            self._entries[key] = item
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
            raise UnknownName("kind of rule", kind, KINDS)
        found = self._entries.get((kind, fold(name))) if isinstance(name, str) else None
        if found is None:
            raise UnknownName(KIND_LABELS[kind].lower(), name,
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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _race_facts(tokens: int, most: int | None, attack_only: int) -> str:
    words = f"Banner: {_plural(tokens, 'token')}"
    if attack_only:
        words += f", plus {attack_only} that only attack"
    if most is not None:
        words += f"; {most} in the box"
    return words + "."


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
              f"Badge: {_plural(p.tokens, 'token')}.")
        for p in catalog.powers
    ]
    entries += [RuleEntry(EVENT, event.value, text, RIVER_WORLD) for event, text in _EVENTS.items()]
    entries += [
        RuleEntry(RELIC if marker.kind is Kind.RELIC else PLACE, marker.name, marker.summary,
              TEAM_PLAY)
        for marker in MARKERS.values()
    ]
    entries += [RuleEntry(PIECE, name, text, where) for name, where, text in _PIECES]
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

_EVENTS: Mapping[river.RiverEvent, str] = MappingProxyType({
    river.RiverEvent.STORM: (
        f"While the storm lasts, taking a river region costs {river.STORM_COST} tokens "
        f"instead of {river.RIVER_COST}; every other conquest rule stays as it is."
    ),
    river.RiverEvent.QUIET_WATERS: "A calm turn: this marker changes nothing at all.",
    river.RiverEvent.HARSH_WINTER: (
        f"The rivers freeze and play like ordinary land: taking one costs "
        f"{river.HARSH_WINTER_COST} tokens, and whoever takes or holds a river must leave a "
        "token on it when redeploying, so it scores like any region. Once the winter is over "
        "(unless another one follows) those tokens have to leave the river."
    ),
    river.RiverEvent.PIRATES: (
        "A pirate ship sails onto every river that has no token on it. While a ship stays, "
        "every region touching it scores one coin less. Ships belong to nobody, defend like "
        "one token, and stay through storms and winters until someone conquers their river."
    ),
})

_PIECES: tuple[tuple[str, str, str], ...] = (
    ("River", RIVER_WORLD,
     f"Taking a river region costs only {river.RIVER_COST} token, but your troops must "
     "leave every river when they redeploy, so rivers cannot be held. Seafaring and the "
     "Tritons are the exception: their tokens may stay on the water."),
    ("Harbor", RIVER_WORLD,
     "Harbors pay more the more of them you hold: your first scores 1 coin like any "
     "region, the second 2, the third 3 and so on, counting your active race and your race "
     "in decline together."),
    ("Shipyard and Caravel", RIVER_WORLD,
     "Once a turn, whoever holds the Shipyard may put the Caravel on any river, even one "
     "with tokens on it. Until the end of that turn they may start conquests from it, as "
     "if it were a region on the edge of their lands; then the Caravel leaves the board."),
    ("Temple of the Seer", RIVER_WORLD,
     "During their turn, whoever holds the Temple may secretly look at the next event "
     "marker, and may tell the others what it is or keep it to themselves."),
    ("Pirate ship", RIVER_WORLD,
     "Ships start on the rivers marked with a pirate symbol and arrive on empty rivers "
     "when Pirates come. A ship is neither active nor in decline: it defends like one "
     "token, sinks when its river is conquered, and costs every region beside it one coin "
     f"when scoring. The box holds {river.PIRATE_SHIPS}."),
    ("Necromancer", NECROMANCER_ISLAND,
     "One player plays no races: he commands Ghosts from his Island in the central lake, "
     f"with a reserve of Ghosts, the Well of Souls and {necromancer.POWERS_DRAWN} special "
     "powers drawn at the start, one of them in use. Each turn he may spend coins on new "
     "Ghosts and powers (each costs as many coins as he has powers in use plus Ghosts on "
     "the map and the Island), conquers with his Ghosts, then scores one coin per region. "
     "He wins at once when every Ghost is in play, none left in his reserve or the Well; "
     "otherwise the others play for the win as usual."),
    ("Ghosts", NECROMANCER_ISLAND,
     f"The Necromancer's {necromancer.GHOST_TOKENS} tokens. Other players treat them as a "
     "race in decline. Taking a Ghost region sends one Ghost into the Well of Souls; the "
     "rest go back to the Necromancer, who sets them on his regions when that turn ends."),
    ("Well of Souls", NECROMANCER_ISLAND,
     "Every token lost in a conquest falls in here instead of going back to the tray, "
     "Ghosts kept on top, and the Necromancer adds one soul for each region he scores. "
     f"After every turn each full set of {necromancer.SOULS_PER_GHOST} tokens in the Well "
     "turns into a new Ghost on the Island; what is left over waits for the next set."),
    ("Necromancer Island", NECROMANCER_ISLAND,
     "It lies on the central lake and holds the Ghosts waiting to set out; the "
     "Necromancer's first conquests start from there. Nobody else can attack it, not even "
     "by sea, and it earns him neither coins nor souls."),
    ("Monsters", TEAM_PLAY,
     "Before the first turn of a team game, each player but the first sets a Monster on a "
     "Lost Tribe region that holds no Monster and touches none. A Monster makes its region "
     f"{_plural(teams.MONSTER_DEFENCE, 'token')} harder to take; whoever takes it removes "
     "the Monster and draws a Relic or Place into that region."),
    ("Team play", TEAM_PLAY,
     f"{teams.TEAM_PLAYERS} players in three teams of two, partners sitting opposite each "
     "other. Partners keep their own races, coins and conquests, and may even attack each "
     f"other. After {teams.TEAM_TURNS} turns each team counts the smaller of its two "
     "totals, and the best such score wins."),
)
"""(name, set, text) of the expansions' pieces and rules."""

_TURN: tuple[tuple[str, str], ...] = (
    ("Pick a combo",
     "With no active race (your first turn, or the turn after a decline), choose one of "
     "the six race and power pairs. The top one is free; each pair further down costs a "
     "coin laid on every pair above it, and you take any coins lying on the one you pick. "
     "You get the banner's tokens plus the badge's."),
    ("Ready your troops",
     "With an active race on the board, start your turn by taking back into your hand "
     "every token of it but one in each region it holds: those are the troops you "
     "conquer with this turn."),
    ("Conquer",
     "Take a region by moving in 2 tokens, plus one for every token, mountain, fortress, "
     "encampment, troll lair or other defence already there. A new race's first conquest "
     "must be on the edge of the board. The defender loses one token and gets the others "
     "back to place at the end of your turn. Seas and lakes cannot be taken."),
    ("Final conquest",
     "When your troops in hand are too few for the region you want, you may try once: "
     "roll the reinforcement die and add it to them. If the total is enough you take the "
     "region; either way your conquests are over for this turn."),
    ("Redeploy",
     "Move your active tokens between your regions as you like, leaving at least one in "
     "each. A player who lost tokens this turn puts the ones handed back on their own "
     "regions."),
    ("Go into decline",
     "Instead of conquering, turn your active race's banner over and flip its tokens, one "
     "left in each region; any race you already had in decline leaves the board. You "
     "still score this turn, and pick a new combo on your next."),
    ("Score",
     "End your turn with one coin for every region you hold, active or in decline, plus "
     "what your races and powers add. Coins are kept hidden; whoever has the most after "
     "the last turn wins."),
)
"""The steps of a player's turn, in order: (name, text)."""
