"""Six players in teams inside a game: the table and its board, the Monsters set out before
the first turn, the Righteous Relic and Popular Places found where a Monster falls, and the
team standings at the end.

`companion.rules.game` hands the team events and the moments that touch them here; the
pure models are `companion.rules.teams` (seats, partners, Monsters, standings) and
`companion.rules.relics` (the pile and each marker's power), kept among the state's parts
(`GameState.part`) as a `MonsterSetup` and a `RelicsState`.

How a team game runs:
- `GameCreated.teams`: six seats, eight turns, partners opposite; the app plays it on the
  packaged 5-player board (the 6-player map is a separate product the app has no data
  for) or on a group's own board made for 5 or 6 players. `relic_order` is the shuffled
  pile (drawn by the session);
- before the first turn every player but the first, in turn order, sets a Monster
  (`MonsterPlaced`) or, finding no region left, passes (`MonsterPassed`); no turn event is
  taken until they all have;
- a Monster adds one token to its region's cost (`with_relics` gives the attacker the
  Monsters and Bony's banner); conquering its region removes it and draws the top of the
  pile into the region;
- when a turn is scored (`TurnScored`), its player collects the Golden Soapbar's and the
  Tavern's coins if their active race holds them (added by the rules, on top of the
  turn's score); the Soapbar's move is then owed (`SoapbarMoved`) and the turn cannot end
  before it; the Tavern's coins may be given away until the turn ends (`TavernShared`);
- Bony (`BonyPlaced`), Mirror's Vale (`PowersSwapped`) and the Sigil (`SigilPactMade`) are
  their holder's choices in their own turn; against Bony's banner another player's power
  lowers no cost, so a Mercenary coin is refused there.

Invariants: coins are conserved (the relic coins come from the stash and count in
`coins_issued`; the Tavern's share moves coins between purses); after every event Bony and
the Sigil's pact are dropped when their holder's hold is gone (`relics.settle`), and a
Soapbar move that can no longer be made is no longer owed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import companion.rules.relics as model
import companion.rules.teams as teams
from companion.json_fields import a_list, fail, flag, one_of, show
from companion.rules.board import RegionState, with_marker
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker, CostLine, Reach
from companion.rules.errors import IllegalAction, MalformedInput
from companion.rules.events import (
    Event,
    GameCreated,
    RegionConquered,
    TurnEnded,
    TurnScored,
)
from companion.rules.expansion import Deal, DocField, DocSetup, DocVerb, Expansion, Intents
from companion.rules.maps import Board, Region
from companion.rules.purse import pay
from companion.rules.relics import Banner, RelicsState, SigilMode
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Name, Said, said, said_n
from companion.rules.standings import Placing, Standings
from companion.rules.state import GameState, acting, with_player
from companion.rules.teams import MonsterSetup, TeamStandings
from companion.rules.turns import Phase

# --- its events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonsterPlaced:
    """Team play, before the first turn: the player sets their Monster in a Lost Tribe
    region with no Monster in it or next to it."""

    TYPE: ClassVar[str] = "monster_placed"
    seat: int
    region: int


@dataclass(frozen=True, slots=True)
class MonsterPassed:
    """Team play, before the first turn: no region is left for this player's Monster."""

    TYPE: ClassVar[str] = "monster_passed"
    seat: int


@dataclass(frozen=True, slots=True)
class SoapbarMoved:
    """Team play: after collecting its coin, the Golden Soapbar's holder moves it next to
    their active race, into a region that race does not hold."""

    TYPE: ClassVar[str] = "soapbar_moved"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int


@dataclass(frozen=True, slots=True)
class TavernShared:
    """Team play: the Tavern's holder gives some of this turn's Tavern coins to a player."""

    TYPE: ClassVar[str] = "tavern_shared"
    IN_TURN: ClassVar[bool] = True
    seat: int
    to_seat: int
    coins: int


@dataclass(frozen=True, slots=True)
class BonyPlaced:
    """Team play: the Boneyard's holder sets Bony on a race in decline (`race` of
    `guards_seat`)."""

    TYPE: ClassVar[str] = "bony_placed"
    IN_TURN: ClassVar[bool] = True
    seat: int
    guards_seat: int
    race: str


@dataclass(frozen=True, slots=True)
class PowersSwapped:
    """Team play: at the start of their turn, Mirror's Vale's holder swaps special powers
    with their partner."""

    TYPE: ClassVar[str] = "powers_swapped"
    IN_TURN: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class SigilPactMade:
    """Team play: the Sigil's holder takes another race's losses ("shield"), or has a
    willing race take theirs ("stand-in")."""

    TYPE: ClassVar[str] = "sigil_pact_made"
    IN_TURN: ClassVar[bool] = True
    seat: int
    mode: str
    other_seat: int
    race: str


TEAM_BOARD_PLAYERS = 5
"""The packaged board a team game plays on: the 5-player one (same 8 turns)."""
OWN_BOARD_PLAYERS = 6
"""A group's own board may also be made for the six at the table."""

# --- set-up ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamSetup:
    """Team play's part of a new game (one of `GameCreated.options`): six players in three
    teams of two (partners opposite), with Monsters set out before the first turn
    (`teams`); `relic_order`: then the face-down pile of the Righteous Relics and Popular
    Places, top first (shuffled outside the rules)."""

    teams: bool = False
    relic_order: tuple[str, ...] = ()


NOT_PLAYED = TeamSetup()
"""The set-up of a game without teams."""


def team_setup(created: GameCreated) -> TeamSetup:
    """Team play's part of the game's set-up (`NOT_PLAYED` when it is not played)."""
    return created.option(TeamSetup) or NOT_PLAYED


def board_players(event: GameCreated, usual: int) -> int:
    """The players the board must be made for: 5 in a team game, else `usual`."""
    return TEAM_BOARD_PLAYERS if team_setup(event).teams else usual


def own_board(event: GameCreated, board: Board) -> bool:
    """Whether a team game plays on a group's board made for its six players."""
    return bool(team_setup(event).teams) and board.players == OWN_BOARD_PLAYERS


def setup(event: GameCreated) -> tuple[MonsterSetup | None, RelicsState | None]:
    """The Monsters' set-up and the face-down pile (both None outside team play)."""
    option = team_setup(event)
    if not isinstance(option.teams, bool):
        raise MalformedInput(said("teams must be true or false, not {value}",
                                  value=repr(option.teams)),
                             field="teams", allowed="true or false")
    if not option.teams:
        if option.relic_order:
            raise IllegalAction(said("the Relics and Places are drawn only in a team game"))
        return None, None
    teams.check_table(len(event.seats), event.turns)
    return teams.start_monsters(event.first_seat), model.start(option.relic_order, frozenset())


def is_team_game(state: GameState) -> bool:
    return state.part(MonsterSetup) is not None


# --- what every event owes to team play --------------------------------------------------


def refuse(state: GameState, event: Event) -> None:
    """Refuse a turn's event while Monsters are still to be set out, the end of a turn
    while its player owes the Soapbar's move, and a Mercenary coin spent against the
    banner Bony guards (the power does nothing there)."""
    setup_ = state.part(MonsterSetup)
    if setup_ is None:
        return
    seat = setup_.next_seat
    if seat is not None and getattr(event, "IN_TURN", False):  # waits until they are out
        raise IllegalAction(said("the Monsters go out before the first turn: {player} sets "
                                 "theirs (or passes) first", player=state.player(seat).name))
    relics = state.part(RelicsState)
    if isinstance(event, TurnEnded) and relics is not None:
        model.turn_ended(relics, event.seat)
    if (isinstance(event, RegionConquered) and event.mercenary_coin
            and relics is not None and event.region in state.map.regions):
        occupant = state.regions[event.region].occupant
        if (occupant is not None and occupant.in_decline and model.shielded(
                relics, Banner(occupant.seat, occupant.race), event.seat)):
            raise IllegalAction(said("Bony the Lich guards {race} in decline in region "
                                     "{region}: a Mercenary coin buys nothing against them",
                                     race=Name("race", occupant.race), region=event.region))


def settled(before: GameState, event: Event, after: GameState) -> GameState:
    """The state after `event` once the Relics and Places have had their say: a Monster's
    region drawn into, the turn's coins collected, the turn's offers closed, and Bony and
    the Sigil's pact checked against the board."""
    relics = after.part(RelicsState)
    if relics is None:
        return after
    match event:
        case RegionConquered(region=region):
            relics, _ = model.region_conquered(relics, region)
        case TurnScored(seat=seat):
            after, relics = _collect(after, relics, seat)
        case TurnEnded(seat=seat):
            relics = model.turn_ended(relics, seat)
    relics = model.settle(relics, after.regions)
    owed = relics.soapbar_owed_by
    if owed is not None and not model.soapbar_destinations(relics, after.map, after.regions,
                                                           owed):
        relics = replace(relics, soapbar_owed_by=None)
    return after.with_part(relics)


def _collect(state: GameState, relics: RelicsState, seat: int) -> tuple[GameState, RelicsState]:
    """The Soapbar's and the Tavern's coins for `seat` at the end of their turn."""
    relics, lines = model.turn_end_bonus(relics, state.map, state.regions, seat)
    coins = sum(n for _, n in lines)
    if not coins:
        return state, relics
    player = state.player(seat)
    return replace(state, players=with_player(state.players,
                                              replace(player, coins=player.coins + coins)),
                   coins_issued=state.coins_issued + coins), relics


@dataclass(frozen=True, slots=True)
class TeamFacts:
    """Team play's part of a conquest (`conquest.ConquestFacts`): `monsters` the regions a
    Monster still guards (+1 each, "Monster"); `bony` the banner (seat, race) Bony the
    Lich guards: against its tokens another player's race and power modifiers count for
    nothing."""

    monsters: frozenset[int] = frozenset()
    bony: tuple[int, str] | None = None

    def base(self, region: Region) -> CostLine | None:
        del region
        return None

    def entry(self, board: Board, region_id: int) -> Reach | None:
        del board, region_id
        return None

    def defence(self, region_id: int, here: RegionState) -> tuple[CostLine, ...]:
        del here
        if region_id not in self.monsters:
            return ()
        monster = said("Monster")
        return (CostLine(str(monster), teams.MONSTER_DEFENCE, monster),)

    def guard(self, here: RegionState, attacker: Attacker) -> Said | None:
        occupant = here.occupant
        if (self.bony is not None and occupant is not None and occupant.in_decline
                and (occupant.seat, occupant.race) == self.bony
                and occupant.seat != attacker.seat):
            return said("Bony the Lich guards these tokens: your race and power change nothing "
                        "here")
        return None


def with_relics(state: GameState, who: Attacker) -> Attacker:
    """The team-play facts a conquest reads: the Monsters standing, Bony's banner."""
    relics = state.part(RelicsState)
    if relics is None:
        return who
    bony = relics.bony
    facts = TeamFacts(relics.monsters,
                      None if bony is None else (bony.guards.seat, bony.guards.race))
    return replace(who, facts=(*who.facts, facts))


# --- the Monsters --------------------------------------------------------------------------


def place_monster(state: GameState, event: MonsterPlaced | MonsterPassed) -> GameState:
    setup_, relics = state.part(MonsterSetup), state.part(RelicsState)
    if setup_ is None or relics is None:
        raise IllegalAction(said("Monsters are set out only in a team game"))
    state.player(event.seat)
    if isinstance(event, MonsterPlaced):
        setup_ = teams.place_monster(setup_, state.map, event.seat, event.region)
    else:
        setup_ = teams.pass_monster(setup_, state.map, event.seat)
    return state.with_part(setup_).with_part(replace(relics, monsters=setup_.monsters))


def monster_sites(state: GameState) -> tuple[int, ...]:
    """Where the next Monster may go (empty once they are all out)."""
    setup_ = state.part(MonsterSetup)
    if setup_ is None or setup_.done:
        return ()
    return teams.monster_sites(state.map, setup_.monsters)


def placing_monster(state: GameState) -> int | None:
    """The seat that sets the next Monster, or None when none is owed."""
    setup_ = state.part(MonsterSetup)
    return None if setup_ is None else setup_.next_seat


# --- the Relics and Places -------------------------------------------------------------------


def use_marker(
    state: GameState,
    event: SoapbarMoved | TavernShared | BonyPlaced | PowersSwapped | SigilPactMade,
) -> GameState:
    relics = state.part(RelicsState)
    if relics is None:
        raise IllegalAction(said("the Relics and Places are part of team play, which this "
                                 "game is not"))
    acting(state, event.seat)
    match event:
        case SoapbarMoved(seat=seat, region=region):
            relics = model.move_soapbar(relics, state.map, state.regions, seat, region)
        case TavernShared():
            return _share(state, relics, event)
        case BonyPlaced(seat=seat, guards_seat=guards, race=race):
            state.player(guards)
            relics = model.place_bony(relics, state.regions, seat, Banner(guards, race))
        case PowersSwapped():
            return _swap(state, relics, event.seat)
        case SigilPactMade(seat=seat, mode=mode, other_seat=other, race=race):
            state.player(other)
            try:
                pact = SigilMode(mode)
            except ValueError:
                raise IllegalAction(said("the Sigil's pact is {shield} or {stand_in}, not {mode}",
                                         shield=SigilMode.SHIELD.value,
                                         stand_in=SigilMode.STAND_IN.value,
                                         mode=repr(mode))) from None
            relics = model.choose_sigil(relics, state.regions, seat, pact, Banner(other, race))
    return state.with_part(relics)


def _share(state: GameState, relics: RelicsState, event: TavernShared) -> GameState:
    receiver = state.player(event.to_seat)
    relics, transfer = model.share_tavern(relics, event.seat, event.to_seat, event.coins)
    giver = state.player(event.seat)
    left = pay(giver.coins, transfer.coins, who=giver.name, what="the Tavern's coins")
    players = with_player(state.players, replace(giver, coins=left))
    players = with_player(players, replace(receiver, coins=receiver.coins + transfer.coins))
    return replace(state, players=players).with_part(relics)


def _swap(state: GameState, relics: RelicsState, seat: int) -> GameState:
    mine = state.player(seat).active
    ally = state.player(teams.partner(seat)).active
    this_turn = state.track.this_turn
    at_start = (state.track.phase is Phase.CONQUER and not this_turn.declined
                and this_turn.conquests == 0 and this_turn.ghoul_conquests == 0)
    relics, swap = model.swap_powers(relics, state.regions, seat,
                                     None if mine is None else mine.power,
                                     None if ally is None else ally.power,
                                     at_turn_start=at_start)
    assert mine is not None and ally is not None  # swap_powers refuses otherwise
    players = with_player(state.players, replace(
        state.player(seat), active=replace(mine, power=swap.power)))
    partner = players[swap.ally]
    players = with_player(players, replace(partner, active=replace(ally, power=swap.ally_power)))
    regions = state.regions
    for rid, marker, count in swap.lifted:
        here = regions[rid]
        regions = regions.with_region(rid, replace(here, markers=with_marker(
            here.markers, marker, -count)))
    return replace(state, players=players, regions=regions).with_part(relics)


# --- the end ---------------------------------------------------------------------------------


def team_result(state: GameState) -> TeamStandings:
    """The teams' standings (every total read: only once the game is over)."""
    if not state.is_over:
        raise IllegalAction(said("the teams are ranked only at the end of the game"))
    return teams.team_standings({p.seat: p.coins for p in state.players},
                                state.track.first_seat, {p.seat: p.name for p in state.players})


def standings(state: GameState) -> Standings:
    """The team standings as the history of games keeps them: each player ranked with
    their team, the winning teams' players as winners, the team reason."""
    result = team_result(state)
    placings = []
    for place in result.placings:
        for seat, coins in sorted(place.totals, key=lambda t: (-t[1], t[0])):
            placings.append(Placing(place.rank, seat, coins))
    winners = frozenset(seat for p in result.placings if p.rank == 1 for seat in p.team.seats)
    return Standings(tuple(placings), winners, result.why)


def team_label(state: GameState, seat: int) -> str | None:
    """The team `seat` plays in ("A", "B", "C"), None outside team play."""
    if state.part(MonsterSetup) is None:
        return None
    return teams.team_of(seat, state.track.first_seat).label


# --- the expansion, as the game asks it -------------------------------------------------


_RELIC_COINS = {model.SOAPBAR: model.SOAPBAR_COINS, model.TAVERN: model.TAVERN_COINS}
"""What a Relic or Place held at the end of the turn pays in a score scenario."""


# --- its words in the rule book ------------------------------------------------------------

RULE_RELIC = "relic"
"""The rule book's kind of entry for a Righteous Relic."""
RULE_PLACE = "place"
"""The rule book's kind of entry for a Popular Place."""

_PIECE_WORDS: tuple[tuple[str, str | Said], ...] = (
    ("Monsters",
     said("Before the first turn of a team game, each player but the first sets a Monster on a "
          "Lost Tribe region that holds no Monster and touches none. A Monster makes its region "
          "{defence} harder to take; whoever takes it removes "
          "the Monster and draws a Relic or Place into that region.",
          defence=said_n("{n} token", "{n} tokens", teams.MONSTER_DEFENCE))),
    ("Team play",
     said("{players} players in three teams of two, partners sitting opposite each "
          "other. Partners keep their own races, coins and conquests, and may even attack each "
          "other. After {turns} turns each team counts the smaller of its two "
          "totals, and the best such score wins.",
          players=teams.TEAM_PLAYERS, turns=teams.TEAM_TURNS)),
)
"""(name, words) of team play's pieces and rules."""


class TeamPlay(Expansion):
    """Six players in teams: the 5-player board (or a group's own for six), the Monsters
    and the Relics and Places, the turn's events held back until the Monsters are out, and
    the team standings."""

    name = "Team play"
    key = "teams"
    setup_type = TeamSetup
    rule_kinds = ((RULE_RELIC, N_("Righteous Relic")), (RULE_PLACE, N_("Popular Place")))
    events = (MonsterPlaced, MonsterPassed, SoapbarMoved, TavernShared, BonyPlaced,
              PowersSwapped, SigilPactMade)
    doc_fields = ("teams", "relic_order")
    doc_printed = True
    score_fields = ("relics",)
    doc_verbs = (
        DocVerb("place_monster", "team play, before the first turn: the next player sets "
                "their Monster in a region", (DocField("region", "region"),)),
        DocVerb("pass_monster", "team play, before the first turn: no region is left for "
                "the next Monster"),
        DocVerb("move_soapbar", "team play: the Golden Soapbar's holder moves it after its "
                "coin", (DocField("region", "region"),)),
        DocVerb("share_tavern", "team play: Glandulf's Tavern's holder gives some of this "
                "turn's Tavern coins to a player",
                (DocField("seat", "seat"), DocField("coins", "whole"))),
        DocVerb("place_bony", "team play: the Boneyard's holder sets Bony on a race in "
                "decline", (DocField("seat", "seat"), DocField("race", "text"))),
        DocVerb("swap_powers", "team play: Mirror's Vale's holder swaps powers with their "
                "partner"),
        DocVerb("make_sigil_pact", "team play: the Sigil's holder makes a pact with another "
                "race", (DocField("mode", N_("pact"), choices=tuple(m.value for m in SigilMode)),
                         DocField("seat", "seat"), DocField("race", "text"))),
    )

    def plays(self, created: GameCreated) -> bool:
        return bool(team_setup(created).teams)

    def doc_asked(self, doc: Mapping[str, Any]) -> bool | None:
        return flag("teams", doc.get("teams", False))

    def doc_players(self, asked: bool | None) -> tuple[int, int, str] | None:
        return (teams.TEAM_PLAYERS, teams.TEAM_PLAYERS, N_("a team game")) if asked else None

    def doc_board_fits(self, asked: bool | None, board: Board, own: bool) -> bool:
        """A group's own board for six."""
        return bool(asked) and own and board.players == teams.TEAM_PLAYERS

    def doc_setup(self, doc: Mapping[str, Any], setup: DocSetup) -> DocSetup:
        """The face-down pile of the Righteous Relic and Popular Places, top first: as
        given, or shuffled with the seed."""
        in_teams = bool(setup.asked.get(self.key))
        names = list(model.MARKERS)
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

    def score_lines(self, player: Mapping[str, Any],
                    has_active: bool) -> list[tuple[str, int]]:
        """The coins of the Relics and Places the player's active race holds at the end of
        the turn (`player.relics`, names); only the Soapbar and the Tavern pay."""
        names = a_list("player.relics", player.get("relics", []))
        known = {name.casefold(): name for name in model.MARKERS}
        seen: set[str] = set()
        lines: list[tuple[str, int]] = []
        for index, value in enumerate(names):
            field = f"player.relics[{index}]"
            if not isinstance(value, str):
                fail(field, said("expected a string, got {value}", value=show(value)))
            name = known.get(value.strip().casefold())
            if name is None:
                fail(field, said("unknown Relic or Place {value}; allowed: {allowed}",
                                 value=show(value), allowed=", ".join(model.MARKERS)))
            if name in seen:
                fail(field, said("{name} is listed twice; there is one of each",
                                 name=model.marker_name(name)))
            if not has_active:
                fail(field, said("{name} works only for an active race, and player.active is "
                                 "missing", name=model.marker_name(name)))
            seen.add(name)
            coins = _RELIC_COINS.get(name, 0)
            if coins:
                lines.append((f"{name}: held by the active race at the end of the turn",
                              coins))
        return lines

    def doc_state(self, state: GameState) -> dict[str, Any] | None:
        """Team play as the table sees it (never the pile's face-down order)."""
        setup, relics = state.part(MonsterSetup), state.part(RelicsState)
        if setup is None or relics is None:
            return None
        first = state.track.first_seat
        return {
            "teams": [{"team": team.label, "seats": list(team.seats)}
                      for team in teams.teams(first)],
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

    def in_play(self, state: GameState) -> bool:
        return is_team_game(state)

    def board_players(self, seats: int, usual: int) -> int:
        del seats, usual
        return TEAM_BOARD_PLAYERS

    def own_board(self, created: GameCreated, board: Board) -> bool:
        return own_board(created, board)

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """The pile of Relics and Places, shuffled face down."""
        if not deal.asked.get(self.key):
            return deal
        pile = list(model.MARKERS)
        shuffle(pile)
        return replace(deal, options=(*deal.options, TeamSetup(True, tuple(pile))))

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        del board, catalog
        monsters, relics = setup(created)
        if monsters is None and relics is None:
            return state
        return state.with_part(monsters).with_part(relics)

    def apply(self, state: GameState, event: Event) -> GameState:
        match event:
            case MonsterPlaced() | MonsterPassed():
                return place_monster(state, event)
            case (SoapbarMoved() | TavernShared() | BonyPlaced() | PowersSwapped()
                  | SigilPactMade()):
                return use_marker(state, event)
        return super().apply(state, event)

    def refuse(self, state: GameState, event: Event) -> None:
        refuse(state, event)

    def settled(self, before: GameState, event: Event, after: GameState) -> GameState:
        return settled(before, event, after)

    def refuse_roll(self, state: GameState) -> Said | None:
        if placing_monster(state) is None:
            return None
        return said("No roll yet: the Monsters are set out before the first turn.")

    def with_facts(self, state: GameState, who: Attacker) -> Attacker:
        return with_relics(state, who)

    def public_part(self, state: GameState) -> model.PublicRelics | None:
        relics = state.part(RelicsState)
        return None if relics is None else model.public(relics)

    def tied_for_first(self, state: GameState,
                       coins: Mapping[int, int]) -> frozenset[int] | None:
        del state, coins
        return frozenset()  # teams go by their best single total: nobody counts tokens

    def standings(self, state: GameState, tokens: Mapping[int, int] | None,
                  names: Mapping[int, str]) -> Standings | None:
        del tokens, names
        return standings(state)

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        del catalog
        where = f"{self.name} ({teams.TEAM_PLAYERS} players)"
        return (*(RuleEntry(RULE_RELIC if marker.kind is model.Kind.RELIC else RULE_PLACE,
                            marker.name, marker.summary, where)
                  for marker in model.MARKERS.values()),
                *(RuleEntry(PIECE, name, words, where) for name, words in _PIECE_WORDS))


TEAM_PLAY = TeamPlay()


class TeamIntents(Intents):
    """Team play's intents at the table (mixed into the session)."""

    def place_monster(self, region: int) -> GameState:
        """Before the first turn: the player whose Monster is next sets it in `region`."""
        return self.play(MonsterPlaced(self._monster_seat(), region))

    def pass_monster(self) -> GameState:
        """Before the first turn: no region is left for the next player's Monster."""
        return self.play(MonsterPassed(self._monster_seat()))

    def _monster_seat(self) -> int:
        seat = placing_monster(self.state)
        if seat is None:
            raise IllegalAction(said("no Monster is waiting to be set out"))
        return seat

    def move_soapbar(self, region: int) -> GameState:
        """The Golden Soapbar's holder moves it after collecting its coin."""
        return self.play(SoapbarMoved(self.state.track.seat, region))

    def share_tavern(self, to_seat: int, coins: int) -> GameState:
        """The Tavern's holder gives some of this turn's Tavern coins to another player."""
        return self.play(TavernShared(self.state.track.seat, to_seat, coins))

    def place_bony(self, guards_seat: int, race: str) -> GameState:
        """The Boneyard's holder sets Bony on `guards_seat`'s `race` in decline."""
        return self.play(BonyPlaced(self.state.track.seat, guards_seat, race))

    def swap_powers(self) -> GameState:
        """Mirror's Vale: its holder swaps special powers with their partner."""
        return self.play(PowersSwapped(self.state.track.seat))

    def make_sigil_pact(self, mode: str, other_seat: int, race: str) -> GameState:
        """The Sigil's holder records a pact ("shield" or "stand-in") with another race."""
        return self.play(SigilPactMade(self.state.track.seat, mode, other_seat, race))
