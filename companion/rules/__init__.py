"""The rules of Small World as code outside the rules sees them: one facade.

`__all__` lists what the screens (and any other code outside `companion.rules`) may use:
the game state and `apply`, the events, what a player may see, the conquest and the
score, the die, the board, the catalog and the errors. Names shared by every game are
exported by name. An expansion's own view of the game is its module, exported whole as
a namespace: `__all__` ends with the module of every expansion in the registry
(`expansions.modules()`: `necromancer`, `river`, `teams`, `mini_game`), so a screen of
that expansion reads it as ``river.public_river(state)``, its events as
``river.CaravelPlaced`` and its pieces as ``river.Site``. This facade names no expansion:
adding one to the registry exports its module, and changing one never touches this file.
Race and power names are in `names`, and what the token ledger knows (a race's hand, the
hands waiting to be placed) in `troops_game`.

Invariants: the modules of the rules import one another directly, never through this
facade (so importing it makes no cycle); importing it imports the whole rules core, which
is pure (no Kivy, GPIO, serial, SQLite, clock or randomness: `tests/test_rules_purity.py`);
`tests/test_layers.py` checks that the UI imports the rules from here alone.
"""

from __future__ import annotations

from companion.rules import expansions, names, troops_game
from companion.rules.board import (
    BoardState,
    Markers,
    Occupant,
    RegionState,
    marker_count,
    placed_markers,
)
from companion.rules.catalog import Catalog, Correction, load_catalog
from companion.rules.conquest import (
    Assessment,
    Attacker,
    TokenCountUnknown,
    assess,
    conquest_cost,
    final_conquest,
    immunity,
    minimum_cost,
    reach,
)
from companion.rules.corrections import (
    MOST_IN_BOX,
    MOST_TOKENS,
    CorrectionError,
    Override,
    correctable,
    overrides,
)
from companion.rules.die import DieChance, DiePurpose, die_roll_allowed
from companion.rules.errors import DataError, IllegalAction, MalformedInput, RulesError
from companion.rules.events import (
    BadgesReshuffled,
    CoinsAdjusted,
    ComboPicked,
    ComboRevealed,
    ConquestsFinished,
    DieRolled,
    Event,
    GameCreated,
    MarkerPlaced,
    MarkerRemoved,
    RaceDeclined,
    RedeploymentFinished,
    RegionAbandoned,
    RegionConquered,
    RegionSet,
    Seat,
    StepUndone,
    TroopsRedeployed,
    TurnEnded,
    TurnScored,
)
from companion.rules.expansions import board_players, game_standings, tied_for_first
from companion.rules.game import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    apply,
    attack_refusal,
    attacker,
    catapult_ready,
    follow_ups,
    refusal,
    start,
)
from companion.rules.history import History, Step
from companion.rules.income import income, scoring_input
from companion.rules.maps import (
    BOARD_NAMES,
    Board,
    Feature,
    Terrain,
    board_for_players,
    known_terrains,
    load_board,
    parse_board_text,
)
from companion.rules.reminders import reminders
from companion.rules.rule_entry import RuleEntry
from companion.rules.rulebook import Rulebook, load_rulebook
from companion.rules.said import Combo, Listed, Name, Said
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    QuickCount,
    ScoreLine,
    ScoringInput,
    TurnScore,
    count_regions,
    score_turn,
)
from companion.rules.standings import (
    Standings,
    final_standings,
    needs_token_count,
    tokens_on_board,
)
from companion.rules.turns import Phase
from companion.rules.views import (
    PublicPlayer,
    PublicView,
    final_totals,
    marker_choices,
    market_rows,
    own_coins,
    pick_refusal,
    public,
)

__all__ = [  # grouped by concept, not sorted
    # the game: its state, its events, applying them
    "MAX_PLAYERS", "MIN_PLAYERS", "GameState", "History", "Phase", "Step", "apply",
    "attack_refusal", "attacker", "catapult_ready", "follow_ups", "refusal", "start",
    "BadgesReshuffled", "CoinsAdjusted", "ComboPicked", "ComboRevealed", "ConquestsFinished",
    "DieRolled", "Event", "GameCreated", "MarkerPlaced", "MarkerRemoved", "RaceDeclined",
    "RedeploymentFinished", "RegionAbandoned", "RegionConquered", "RegionSet", "Seat",
    "StepUndone", "TroopsRedeployed", "TurnEnded", "TurnScored",
    # what a player may see
    "PublicPlayer", "PublicView", "final_totals", "marker_choices", "market_rows", "own_coins",
    "pick_refusal", "public",
    "reminders",
    # the board and the regions
    "BOARD_NAMES", "Board", "BoardState", "Feature", "Markers", "Occupant",
    "RegionState", "Terrain", "board_for_players", "known_terrains", "load_board",
    "marker_count", "parse_board_text", "placed_markers",
    # conquest, the die, the troops
    "Assessment", "Attacker", "TokenCountUnknown", "assess", "conquest_cost",
    "final_conquest", "immunity", "minimum_cost", "reach",
    "DieChance", "DiePurpose", "die_roll_allowed",
    # the score and the end
    "ActiveHoldings", "DeclinedHoldings", "QuickCount", "ScoreLine", "ScoringInput",
    "TurnScore", "count_regions", "income", "score_turn", "scoring_input",
    "Standings", "board_players", "final_standings", "game_standings", "needs_token_count",
    "tied_for_first", "tokens_on_board",
    # the catalog and the group's corrections
    "MOST_IN_BOX", "MOST_TOKENS", "Catalog", "Correction", "CorrectionError", "Override",
    "correctable", "load_catalog", "overrides",
    # looking up a rule
    "RuleEntry", "Rulebook", "load_rulebook",
    # errors
    "DataError", "IllegalAction", "MalformedInput", "RulesError",
    "Combo", "Listed", "Name", "Said",
    # race and power names; the troop ledger's queries
    "names", "troops_game",
    # the registry of expansions (`expansions.played(state)`: the ones a game plays)
    "expansions",
    # then each registered expansion's own module, whole (imported by the registry)
    *expansions.modules(),
]
