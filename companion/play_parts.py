"""The expansions' parts of `companion play`'s lines (docs/play-format.md).

The rules (`companion.rules.expansion.Expansion`) know nothing of this JSON format: each
expansion with a part in it has a `PlayPart` here, next to the command, in `PARTS`' order
(River World, Necromancer Island, team play: the order they joined the format; then the
mini-expansions, a field of `decline`). A part's verbs are its intents
(`companion.rules.expansion.Intents`): `companion.play` derives each verb from the intent
method's signature, so a verb is written once, as the method.

Invariants: every reader here is pure and refuses with `companion.json_fields.fail` (the
field at fault and why); a part not asked for reads nothing but the refusal of its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.json_fields import a_list, fail, flag, one_of, text, whole
from companion.rules.catalog import Catalog
from companion.rules.errors import IllegalAction
from companion.rules.expansion import Intents
from companion.rules.maps import Board
from companion.rules.necromancer import (
    MAX_SEATS,
    MIN_SEATS,
    NecromancerIntents,
    NecromancerSetup,
    draw_powers,
    public_necromancer,
)
from companion.rules.river import (
    RiverIntents,
    RiverSetup,
    check_event_line,
    is_river_world,
    markers_in_box,
    public_river,
)
from companion.rules.said import N_, said
from companion.rules.state import GameState
from companion.rules.teams import (
    MARKERS,
    TEAM_PLAYERS,
    MonsterSetup,
    RelicsState,
    SigilMode,
    TeamIntents,
    TeamSetup,
    placing_monster,
    teams,
)


@dataclass(frozen=True)
class DocSetup:
    """The first line as read so far, for a part to read its own fields: the table's
    choice of each expansion (`asked`, by `key`), the board, the catalog, the badge deck
    (`powers`), the seed (None: none given) and its shuffle, and the expansions' parts of
    the set-up read so far (`options`, in order: each a `setup_type`)."""

    asked: Mapping[str, bool | None]
    board: Board
    catalog: Catalog
    powers: tuple[str, ...]
    seed: int | None
    shuffle: Callable[[list[str]], None]
    options: tuple[object, ...] = ()


@dataclass(frozen=True)
class AddedField:
    """A parameter of a base game's verb (`verb`) that only an expansion uses, by the
    field name (`name`) its part gives it."""

    verb: str
    parameter: str
    name: str


@dataclass(frozen=True)
class PlayPart:
    """One expansion's part of the lines, by its `key`: its verbs (the public methods of
    its `intents`; a field with `choices` is one of them, called by their word), the
    parameters of base verbs it names (`added`), its first-line fields (`fields`: `asked`
    tells whether they ask for it, `players` the fewest and most players then and the game
    they are counted for, `board_fits` whether a board of another size suits it, `own`: a
    board document the line gave; `setup` reads them) and its part of a printed line
    (`printed`, under its `key`, null when it is not played)."""

    key: str
    intents: type[Intents] | None = None
    choices: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    added: tuple[AddedField, ...] = ()
    fields: tuple[str, ...] = ()
    asked: Callable[[Mapping[str, Any]], bool | None] = lambda doc: None
    players: Callable[[bool | None], tuple[int, int, str] | None] = lambda asked: None
    board_fits: Callable[[bool | None, Board, bool], bool] = lambda asked, board, own: False
    setup: Callable[[Mapping[str, Any], DocSetup], DocSetup] = lambda doc, setup: setup
    printed: Callable[[GameState], dict[str, Any] | None] | None = None


# --- River World -------------------------------------------------------------------------


def _river_setup(doc: Mapping[str, Any], setup: DocSetup) -> DocSetup:
    """River World's line of Event markers, one per turn: as given, or the markers in the
    box shuffled with the seed (the first `turns` of them); none off a River World board."""
    board = setup.board
    if not is_river_world(board):
        if "river_events" in doc:
            fail("river_events", f"the {board.name} board has no rivers; River World's "
                                  "events are played on a River World board")
        return setup
    if "river_events" not in doc:
        if setup.seed is None:
            fail("river_events", f"missing: the {board.name} board is a River World "
                                  "board; give its Event markers in order (one per turn), "
                                  'or a "seed" to shuffle them')
        line = [event.value for event in markers_in_box(setup.catalog)]
        setup.shuffle(line)
        line = line[:board.turns]
    else:
        names = [text(f"river_events[{i}]", name)
                 for i, name in enumerate(a_list("river_events", doc["river_events"]))]
        try:
            line = [e.value for e in check_event_line(names, board.turns, setup.catalog)]
        except IllegalAction as refused:
            fail("river_events", refused.reason)
    return replace(setup, options=(*setup.options, RiverSetup(tuple(line))))


def _river_printed(state: GameState) -> dict[str, Any] | None:
    """River World as the table sees it (never the events still face down)."""
    view = public_river(state)
    if view is None:
        return None
    return {"event": view.event.value, "revealed": [e.value for e in view.revealed],
            "face_down": view.face_down, "river_cost": view.river_cost,
            "pirate_ships": list(view.pirate_ships), "caravel": view.caravel}


# --- Necromancer Island ------------------------------------------------------------------


def _necromancer_setup(doc: Mapping[str, Any], setup: DocSetup) -> DocSetup:
    """His six, the first he may have from the top of the badge deck; the Ghosts taken
    out of his reserve (`ghosts_removed`, 0 to 2)."""
    asked = setup.asked.get("necromancer")
    powers = setup.powers
    drawn: tuple[str, ...] = ()
    if asked:
        try:
            drawn, powers = draw_powers(powers)
        except IllegalAction as refused:
            fail("powers", refused.said)
    removed = 0
    if "ghosts_removed" in doc:
        if not asked:
            fail("ghosts_removed", said('Ghosts are taken out only in a Necromancer '
                                        'Island game ("necromancer": true)'))
        removed = whole("ghosts_removed", doc["ghosts_removed"])
        if removed > 2:
            fail("ghosts_removed", said("{n}; 0, 1 or 2 Ghosts may be taken out", n=removed))
    if not asked:
        return setup
    return replace(setup, powers=powers,
                   options=(*setup.options, NecromancerSetup(drawn, removed)))


def _necromancer_printed(state: GameState) -> dict[str, Any] | None:
    """Necromancer Island as the table sees him (every Ghost and badge; never his coins)."""
    view = public_necromancer(state)
    if view is None:
        return None
    return {"seat": view.seat, "step": view.step.name.lower(), "island": view.island,
            "regions": [{"region": region, "ghosts": ghosts}
                        for region, ghosts in view.regions],
            "in_hand": view.in_hand, "reserve": view.reserve,
            "well_ghosts": view.well_ghosts, "well_souls": view.well_souls,
            "removed": view.removed, "powers_in_use": list(view.powers_in_use),
            "powers_in_reserve": list(view.powers_in_reserve), "price": view.price,
            "souls_to_next_ghost": view.souls_to_next_ghost, "won": view.won}


# --- team play ---------------------------------------------------------------------------


def _teams_setup(doc: Mapping[str, Any], setup: DocSetup) -> DocSetup:
    """The face-down pile of the Righteous Relic and Popular Places, top first: as given,
    or shuffled with the seed."""
    in_teams = bool(setup.asked.get("teams"))
    names = list(MARKERS)
    pile: list[str] = []
    if not in_teams:
        if "relic_order" in doc:
            fail("relic_order", said('the Relics and Places are part of team play '
                                     '("teams": true)'))
    elif "relic_order" not in doc:
        if setup.seed is None:
            fail("relic_order", said('missing: give the pile of Relics and Places in '
                                     'order (top first), or a "seed" to shuffle it'))
        setup.shuffle(names)
        pile = names
    else:
        pile = [one_of(f"relic_order[{i}]", value, said("Relic or Place"), names)
                for i, value in enumerate(a_list("relic_order", doc["relic_order"]))]
        if sorted(pile) != sorted(names):
            fail("relic_order", said("the pile holds each Relic and Place once: {names}",
                                     names=", ".join(names)))
    if not in_teams:
        return setup
    return replace(setup, options=(*setup.options, TeamSetup(True, tuple(pile))))


def _teams_printed(state: GameState) -> dict[str, Any] | None:
    """Team play as the table sees it (never the pile's face-down order)."""
    setup, relics = state.part(MonsterSetup), state.part(RelicsState)
    if setup is None or relics is None:
        return None
    return {
        "teams": [{"team": team.label, "seats": list(team.seats)}
                  for team in teams(state.track.first_seat)],
        "monster_next": placing_monster(state),
        "monsters": sorted(relics.monsters),
        "face_down": len(relics.pile),
        "found": [{"name": name, "region": region}
                  for name, region in sorted(relics.lying.items())],
        "bony": None if relics.bony is None else {
            "seat": relics.bony.guards.seat, "race": relics.bony.guards.race},
        "sigil": None if relics.sigil is None else {
            "mode": relics.sigil.mode.value, "seat": relics.sigil.other.seat,
            "race": relics.sigil.other.race},
        "soapbar_owed_by": relics.soapbar_owed_by,
    }


PARTS: tuple[PlayPart, ...] = (
    PlayPart("river", RiverIntents, fields=("river_events",), setup=_river_setup,
             printed=_river_printed),
    PlayPart("necromancer", NecromancerIntents, fields=("necromancer", "ghosts_removed"),
             asked=lambda doc: flag("necromancer", doc.get("necromancer", False)),
             players=lambda asked: ((MIN_SEATS, MAX_SEATS, N_("a Necromancer Island game"))
                                    if asked else None),
             setup=_necromancer_setup, printed=_necromancer_printed),
    PlayPart("teams", TeamIntents, fields=("teams", "relic_order"),
             choices={"mode": (N_("pact"), tuple(m.value for m in SigilMode))},
             asked=lambda doc: flag("teams", doc.get("teams", False)),
             players=lambda asked: ((TEAM_PLAYERS, TEAM_PLAYERS, N_("a team game"))
                                    if asked else None),
             board_fits=lambda asked, board, own: (bool(asked) and own
                                                   and board.players == TEAM_PLAYERS),
             setup=_teams_setup, printed=_teams_printed),
    PlayPart("mini", added=(AddedField("decline", "region", "ivory_tower"),)),
)
"""Every expansion's part of the lines, in the order the format lists them."""
