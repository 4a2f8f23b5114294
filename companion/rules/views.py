"""What a given viewer may see of a game.

The table shares one screen, so everything on it comes from `public(state)`, which holds
no purse total: only names, colours, combos, token counts, the market with its costs and
the coins lying on its rows (those are on the table for all to see), and the turn track.
A player sees their own total only through `own_coins` (a private gesture on screen), and
everyone sees every total once the game is over, through `final_totals`.

What an expansion shows the table (its pieces, its event in force) is its own public part
(`Expansion.public_part`), kept in `PublicView.parts` under its `key`, in the registry's
order, and read with `public(state).part(key)`; no expansion is named here.
"""

from __future__ import annotations

from dataclasses import dataclass

import companion.rules.expansions as expansions
from companion.rules.board import marker_count, placed_markers
from companion.rules.errors import IllegalAction, UnknownName
from companion.rules.events import ComboPicked, MarkerPlaced, MarkerRemoved, RaceDeclined
from companion.rules.game import GameState, refusal
from companion.rules.markers import marker_owner
from companion.rules.players import Player
from companion.rules.said import N_, Said, said
from companion.rules.troops_game import RaceCount, race_count
from companion.rules.turns import Phase


@dataclass(frozen=True, slots=True)
class PublicPlayer:
    seat: int
    name: str
    colour: str
    active_combo: str | None  # e.g. "Flying Ratmen"
    active_tokens: int | None  # out of the tray: on the board, in hand and set aside
    declined: tuple[str, ...]  # race names in decline
    is_current: bool
    troops: RaceCount | None = None  # the active race's ledger (None: not counted)


@dataclass(frozen=True, slots=True)
class PublicRow:
    row: int  # 0 = top
    race: str
    power: str
    tokens: int
    cost: int
    coins: int


@dataclass(frozen=True, slots=True)
class PublicView:
    turn: int
    turns: int
    final_turn: bool
    game_over: bool
    current_seat: int
    phase: Phase
    may_decline: bool
    players: tuple[PublicPlayer, ...]
    market: tuple[PublicRow, ...]
    combos_owed: int  # reveals the market waits for
    parts: tuple[tuple[str, object], ...] = ()  # (an expansion's `key`, what it shows)

    def part(self, key: str) -> object | None:
        """An expansion's part by its `key`: None when the game does not play it or it
        shows nothing now; a key no registered expansion has is refused (`UnknownName`)."""
        if all(x.key != key for x in expansions.registered()):
            raise UnknownName(N_("expansion"), key, [x.key for x in expansions.registered()])
        return next((part for k, part in self.parts if k == key), None)


def public(state: GameState) -> PublicView:
    """Everything the shared screen may show; never a purse total."""
    track = state.track
    players = tuple(_public_player(state, p) for p in state.players)
    return PublicView(
        turn=track.turn,
        turns=track.turns,
        final_turn=track.is_final_turn,
        game_over=track.is_over,
        current_seat=track.seat,
        phase=track.phase,
        may_decline=not track.is_over and refusal(state, RaceDeclined(track.seat)) is None,
        players=players,
        market=market_rows(state),
        combos_owed=state.market.missing,
        parts=tuple((x.key, part) for x in expansions.played(state)
                    if (part := x.public_part(state)) is not None),
    )


def _public_player(state: GameState, p: Player) -> PublicPlayer:
    """What everyone sees of player `p`: its race's tokens counted once."""
    track = state.track
    troops = None if p.active is None else race_count(state, p.seat, p.active.race)
    return PublicPlayer(
        seat=p.seat,
        name=p.name,
        colour=p.colour,
        active_combo=f"{p.active.power} {p.active.race}" if p.active else None,
        active_tokens=(None if p.active is None
                       else p.active.tokens if troops is None else troops.in_play),
        declined=tuple(d.race for d in p.declined),
        is_current=p.seat == track.seat and not track.is_over,
        troops=troops,
    )


def market_rows(state: GameState) -> tuple[PublicRow, ...]:
    """The market's rows as everyone sees them (`public(state).market`, alone: a row
    tapped shows what picking it brings without the rest of the view)."""
    catalog = state.catalog
    return tuple(
        PublicRow(i, r.combo.race, r.combo.power,
                  catalog.combo_tokens(r.combo.race, r.combo.power) + r.extra_tokens,
                  state.market.cost(i), r.coins)
        for i, r in enumerate(state.market.rows)
    )


def pick_refusal(state: GameState, row: int) -> Said | None:
    """Why the current player may not pick `row` now (e.g. cannot afford it), or None."""
    if not 0 <= row < len(state.market.rows):
        return said("there is no combo in row {row}", row=row + 1)
    combo = state.market.rows[row].combo
    return refusal(state, ComboPicked(state.track.seat, row, combo.race, combo.power))


def marker_choices(state: GameState, region: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The markers the current player may place in `region` now, and those they may take
    out of it, in `placed_markers` order: exactly what `refusal` allows, asked only of the
    markers that could be allowed (one that no active race or power of theirs places is
    never placed; one the region does not hold is never taken out), so a region's panel
    does not try every marker of the game twice."""
    player = state.current
    active = player.active
    markers = state.regions[region].markers
    seat = state.track.seat
    placing: list[str] = []
    removing: list[str] = []
    for marker in placed_markers():
        owned = marker_owner(state, marker)
        if (active is not None and owned is not None and owned[0] in (active.race, active.power)
                and refusal(state, MarkerPlaced(seat, region, marker)) is None):
            placing.append(marker)
        if marker_count(markers, marker) and refusal(
                state, MarkerRemoved(seat, region, marker)) is None:
            removing.append(marker)
    return tuple(placing), tuple(removing)


def own_coins(state: GameState, seat: int) -> int:
    """A player's own total, for the private peek."""
    return state.player(seat).coins


def final_totals(state: GameState) -> tuple[tuple[str, int], ...]:
    """Every player's total in seat order; only once the game is over."""
    if not state.is_over:
        raise IllegalAction(said("totals are revealed only at the end of the game"))
    return tuple((p.name, p.coins) for p in state.players)
