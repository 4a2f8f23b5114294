"""One-line set-ups for rule tests: a game with the decks in a chosen order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from companion.rules import troops_game
from companion.rules.catalog import load_catalog
from companion.rules.conquest import conquest_cost, minimum_cost
from companion.rules.errors import RulesError
from companion.rules.events import GameCreated, RegionConquered, Seat
from companion.rules.game import attacker, refusal
from companion.rules.maps import board_for_players
from companion.session import Session

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")
COLOURS = ("blue", "orange", "green", "yellow", "purple")


def created(
    players: int = 3,
    *,
    races: Sequence[str] = (),
    powers: Sequence[str] = (),
    first_seat: int = 0,
    dealing: str = "app",
    expansions: Sequence[str] = ("base",),
    troops_counted: bool = False,
) -> GameCreated:
    """A GameCreated whose stacks start with `races` / `powers`, the rest in catalog order."""
    catalog = load_catalog()
    all_races = [r.name for r in catalog.races_in(expansions)]
    all_powers = [p.name for p in catalog.powers_in(expansions)]
    board = board_for_players(players)
    return GameCreated(
        seats=tuple(Seat(NAMES[i], COLOURS[i]) for i in range(players)),
        first_seat=first_seat,
        board=board.name,
        turns=board.turns,
        expansions=tuple(expansions),
        dealing=dealing,
        races=(*races, *(r for r in all_races if r not in races)),
        powers=(*powers, *(p for p in all_powers if p not in powers)),
        troops_counted=troops_counted,
    )


def final_target(s: Session) -> tuple[int, int]:
    """A region the current player may try as the final conquest now, and the tokens left
    one short of its cost (so the die decides)."""
    state = s.state
    who = attacker(state)
    for rid in sorted(state.map.regions):
        if refusal(state, RegionConquered(state.track.seat, rid, minimum_cost(who))):
            continue
        try:
            cost = conquest_cost(state.map, rid, state.regions.regions, who).total
        except RulesError:
            continue
        if cost > minimum_cost(who):
            return rid, cost - 1
    raise AssertionError("no region may be the final conquest now")


def session(players: int = 3, seed: int = 0, **kwargs: object) -> Session:
    """A session playing `created(players, **kwargs)`, with a seeded random generator."""
    s = Session(load_catalog(), rng=random.Random(seed))
    s.begin(created(players, **kwargs))  # type: ignore[arg-type]
    return s


def finish_redeployment(s: Session) -> None:
    """Spread what is in hand over the regions, as the table's one tap does, then finish
    redeploying (a game that counts its tokens refuses to finish with a hand)."""
    seat = s.state.track.seat
    for race in troops_game.own_races(s.state, seat):
        if s.state.regions.held_by(seat, race) and troops_game.suggested(
                s.state, seat, race) is not None:
            s.spread_hand(seat=seat, race=race)
    s.finish_redeployment()


def end_turn(s: Session) -> None:
    """Every defender puts their hand back on the board (the table's one tap), then the
    turn ends."""
    for seat, race, _ in troops_game.waiting_hands(s.state):
        s.spread_hand(seat=seat, race=race)
    s.end_turn()


def play_turn(s: Session, *, row: int | None = None, coins: int = 0) -> None:
    """The current player picks `row` if they have no race, then conquers, scores, ends."""
    if s.state.current.active is None:
        s.pick(row or 0)
    s.finish_conquests()
    finish_redeployment(s)
    s.score(coins)
    end_turn(s)


def tied_for_first(path: Path) -> Session:
    """A finished 3-player game saved in a new saved-games file at `path`: Ann and Bob end
    on the same total, the most coins (40 each for their first turn, Cy 30, then 2 a turn
    for everyone), for the table to break."""
    from companion.store import Store

    s = Session(load_catalog(), rng=random.Random(2), store=Store.open(path))
    s.begin(created(3))
    for seat in range(3):
        play_turn(s, row=0, coins=40 if seat < 2 else 30)
    while not s.state.is_over:
        play_turn(s, coins=2)
    return s
