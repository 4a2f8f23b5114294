"""The registry of expansions: which there are, which a game plays, and what the base game
asks of all of them together (the board size, the standings).

`registered()` is the ordered tuple of every `Expansion` the rules know (Necromancer
Island, River World, team play, the mini-expansions); the base game asks them in that
order, so it is part of the rules: an expansion whose hooks read what another's changed
comes after it (when a race goes into decline instead of conquering, the Elves' discarded
tokens fall into the Well before River World empties the rivers, and the Ivory Tower is
built after both). `played_in(created)` and `played(state)` are the expansions a game plays,
in the same order. `handlers()` maps each expansion's own event classes to it.

Invariants: the registry is a tuple (its order never depends on a set or a dict's
history); an event class belongs to at most one expansion; `extended(...)` restores the
registry as it was, also when the block raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from companion.rules.board import Piece, use_pieces
from companion.rules.errors import IllegalAction
from companion.rules.events import Event, GameCreated, use_decline_types
from companion.rules.expansion import Deal, Expansion
from companion.rules.maps import BoardPart, use_board_parts
from companion.rules.mini_game import MINI_EXPANSIONS
from companion.rules.necromancer import NECROMANCER_ISLAND, NecromancerIntents
from companion.rules.river import RIVER_WORLD, RiverIntents
from companion.rules.said import N_, said
from companion.rules.scoring import use_rules
from companion.rules.standings import Standings, final_standings, needs_token_count
from companion.rules.state import GameState
from companion.rules.teams import TEAM_PLAY, TeamIntents

_REGISTRY: tuple[Expansion, ...] = (NECROMANCER_ISLAND, RIVER_WORLD, TEAM_PLAY, MINI_EXPANSIONS)

_APART: tuple[tuple[Expansion, Expansion, str], ...] = (
    (NECROMANCER_ISLAND, TEAM_PLAY,
     N_("a game plays Necromancer Island or teams of two, not both")),
)
"""Expansions no game plays together, and why not in words (the Necromancer plays a seat
of his own; a team game seats all six in teams); each reason is a template marked for
translation (`said(why)` words it)."""


def apart(keys: Iterable[str]) -> tuple[str, str] | None:
    """Two of the expansions by `keys` that no game plays together: (the later one's
    `key`, why not), or None."""
    chosen = set(keys)
    for first, second, why in _APART:
        if first.key in chosen and second.key in chosen:
            return second.key, why
    return None


class ExpansionIntents(NecromancerIntents, RiverIntents, TeamIntents):
    """Every registered expansion's own intents at the table, which the session inherits
    (`companion.rules.expansion.Intents`): a new expansion with intents adds its class
    here, next to its registry entry."""


_handlers: dict[type[Event], Expansion] | None = None
_last_played: tuple[GameState, tuple[Expansion, ...]] | None = None
"""The last state `played` was asked about and its answer (an event asks it of the same
state several times); states are immutable, so the answer holds while the registry does."""


def registered() -> tuple[Expansion, ...]:
    """Every expansion the rules know, in the order the base game asks them."""
    return _REGISTRY


def modules() -> tuple[str, ...]:
    """The name of each registered expansion's own module in `companion.rules`, in the
    registry's order: its public face, which the facade exports whole (a screen of River
    World reads ``from companion.rules import river``)."""
    return tuple(dict.fromkeys(type(x).__module__.rpartition(".")[2] for x in _REGISTRY))


use_rules(registered)  # scoring knows every registered expansion's races and powers


def pieces() -> tuple[Piece, ...]:
    """Every registered expansion's own pieces (`Expansion.pieces`), in the registry's
    order."""
    return tuple(piece for expansion in _REGISTRY for piece in expansion.pieces)


use_pieces(pieces)  # the board knows every registered expansion's pieces


def board_parts() -> tuple[BoardPart, ...]:
    """Every registered expansion's part of the board format (`Expansion.board_part`), in
    the registry's order."""
    return tuple(x.board_part for x in _REGISTRY if x.board_part is not None)


use_board_parts(board_parts)  # a board file may hold every registered expansion's part


def decline_types() -> tuple[type[Any], ...]:
    """The types of the registered expansions' parts of a decline (`Expansion.decline_type`),
    in the registry's order."""
    return tuple(x.decline_type for x in _REGISTRY if x.decline_type is not None)


use_decline_types(decline_types)  # a decline's record holds every registered part


def decline_options(region: int | None) -> tuple[object, ...]:
    """The expansions' parts of a decline the table asks for with `region` (a region chosen
    as the race goes into decline), in the registry's order."""
    if region is None:
        return ()
    return tuple(part(region) for part in decline_types())


def handlers() -> Mapping[type[Event], Expansion]:
    """The expansion that applies each of the expansions' own event classes."""
    global _handlers
    if _handlers is None:
        table: dict[type[Event], Expansion] = {}
        for expansion in _REGISTRY:
            for kind in expansion.events:
                if kind in table:
                    raise IllegalAction(said("{event} is applied by both {first} and {second}",
                                             event=kind.__name__, first=table[kind].name,
                                             second=expansion.name))
                table[kind] = expansion
        _handlers = table
    return _handlers


@contextmanager
def extended(*more: Expansion) -> Iterator[tuple[Expansion, ...]]:
    """The registry with `more` after the known expansions, inside the block only."""
    global _REGISTRY, _handlers, _last_played
    before = _REGISTRY
    _REGISTRY, _handlers, _last_played = (*before, *more), None, None
    try:
        handlers()
        yield _REGISTRY
    finally:
        _REGISTRY, _handlers, _last_played = before, None, None


def played_in(created: GameCreated) -> tuple[Expansion, ...]:
    """The expansions a game created so plays, in the registry's order."""
    return tuple(x for x in _REGISTRY if x.plays(created))


def played(state: GameState) -> tuple[Expansion, ...]:
    """The expansions the game at `state` plays, in the registry's order."""
    global _last_played
    last = _last_played
    if last is not None and last[0] is state:
        return last[1]
    found = tuple(x for x in _REGISTRY if x.in_play(state))
    _last_played = (state, found)
    return found


def seat_player(state: GameState, seat: int) -> Expansion | None:
    """The expansion of the game that plays `seat` itself (in place of the base rules), if
    any."""
    return next((x for x in played(state) if x.plays_seat(state, seat)), None)


def seat_income(state: GameState) -> tuple[tuple[str, int], ...] | None:
    """What the current seat's turn earns now, itemised, when an expansion plays that seat
    itself; None: the base game's income (`companion.rules.income`)."""
    player = seat_player(state, state.track.seat)
    return None if player is None else player.seat_income(state)


def check_table(seats: int, asked: Mapping[str, bool | int | None]) -> None:
    """Refuse a table of `seats` that an expansion asked for cannot be played at (`asked`:
    the table's choice for each expansion, by its `key`), before the board is chosen."""
    for expansion in _REGISTRY:
        choice = asked.get(expansion.key)
        expansion.check_table(seats, None if choice is None else bool(choice))


def deal(first: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
    """A new game's set-up draws: each registered expansion's, in the registry's order (the
    order of the draws is part of a seeded game)."""
    for expansion in _REGISTRY:
        first = expansion.deal(first, shuffle)
    return first


def board_players(seats: int, *, necromancer: bool = False, teams: bool = False) -> int:
    """The players the packaged board is made for when `seats` play: the table, one fewer
    with the Necromancer (he plays on the board for one fewer player), 5 for six in teams.
    What the session and the new-game screen ask; `game.start` asks the same hooks."""
    return board_players_for(seats, {NECROMANCER_ISLAND.key: necromancer,
                                     TEAM_PLAY.key: teams})


def board_players_for(seats: int, asked: Mapping[str, bool | int | None]) -> int:
    """`board_players` for the table's choice of each expansion (`asked`, by its `key`):
    the expansions asked for have their say, in the registry's order."""
    return fold_board_players(seats, tuple(x for x in _REGISTRY if asked.get(x.key)))


def fold_board_players(seats: int, expansions: tuple[Expansion, ...]) -> int:
    """The players the board is made for, each of `expansions` having its say in turn."""
    playing = seats
    for expansion in expansions:
        playing = expansion.board_players(seats, playing)
    return playing


def tied_for_first(state: GameState, coins: Mapping[int, int] | None = None) -> frozenset[int]:
    """The seats whose race tokens on the board must be counted to break a tie for first:
    the first of the game's expansions that says (the teams: nobody; the Necromancer: the
    others, among themselves), else the base game's rule. `coins`: every player's total
    (default: their purses)."""
    coins = {p.seat: p.coins for p in state.players} if coins is None else coins
    found = next((seats for x in played(state)
                  if (seats := x.tied_for_first(state, coins)) is not None), None)
    return needs_token_count(coins) if found is None else found


def game_standings(state: GameState, tokens: Mapping[int, int] | None,
                   names: Mapping[int, str]) -> Standings:
    """The outcome of a game over: the first of its expansions that ranks the players
    itself (the Necromancer, the teams), else the base standings by coins."""
    found = next((outcome for x in played(state)
                  if (outcome := x.standings(state, tokens, names)) is not None), None)
    return found or final_standings({p.seat: p.coins for p in state.players}, tokens, names)
