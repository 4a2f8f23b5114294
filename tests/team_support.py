"""Set-ups for team-game tests: six players on the 5-player board, the pile in a chosen
order, the Monsters out in regions 6, 12, 30, 37 and 24, and a few common turns."""

from __future__ import annotations

import random
from collections.abc import Sequence

from factories import end_turn, finish_redeployment, play_turn

from companion.rules.catalog import load_catalog
from companion.rules.events import GameCreated, Seat
from companion.rules.teams import MARKERS, TeamSetup
from companion.session import Session
from companion.store import Store

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Fay")
COLOURS = ("blue", "orange", "green", "yellow", "purple", "red")
MONSTERS = (6, 12, 30, 37, 24)
ANN, BOB, CY, DI, ED, FAY = range(6)


def created(*, pile: Sequence[str] = (), races: Sequence[str] = (),
            powers: Sequence[str] = (), players: int = 6, board: str = "5p",
            turns: int = 8, teams: bool = True,
            expansions: tuple[str, ...] = ("base",)) -> GameCreated:
    catalog = load_catalog()
    all_races = [r.name for r in catalog.races_in(expansions)]
    all_powers = [p.name for p in catalog.powers_in(expansions)]
    order = [*pile, *(m for m in MARKERS if m not in pile)]
    return GameCreated(
        seats=tuple(Seat(NAMES[i], COLOURS[i]) for i in range(players)), first_seat=0,
        board=board, turns=turns, expansions=expansions, dealing="app",
        races=(*races, *(r for r in all_races if r not in races)),
        powers=(*powers, *(p for p in all_powers if p not in powers)),
        options=(TeamSetup(True, tuple(order)),) if teams else ())


def session(store: Store | None = None, **kwargs: object) -> Session:
    s = Session(load_catalog(), rng=random.Random(5), store=store)
    s.begin(created(**kwargs))  # type: ignore[arg-type]
    return s


def monsters_out(s: Session) -> None:
    for region in MONSTERS:
        s.place_monster(region)


def ann_takes_region_6(s: Session) -> None:
    """Ann picks the top combo and takes the Monster's region 6 (it costs 4)."""
    monsters_out(s)
    s.pick(0)
    s.conquer(6, tokens=4)


def to_turn_end(s: Session) -> None:
    s.finish_conquests()
    finish_redeployment(s)
    s.score()


def others_play(s: Session) -> None:
    """Everybody after Ann plays a quiet turn (a combo, no conquest, no coins)."""
    while s.state.track.seat != ANN and not s.state.is_over:
        play_turn(s)


def play_to_the_end(s: Session, coins: dict[int, int]) -> None:
    """Every turn quiet; the last turn each player scores what brings them to `coins`."""
    monsters_out(s)
    while not s.state.is_over:
        state = s.state
        seat = state.track.seat
        if state.current.active is None:
            s.pick(0)
        s.finish_conquests()
        finish_redeployment(s)
        gain = coins[seat] - s.state.players[seat].coins if state.track.is_final_turn else 0
        s.score(max(0, gain))
        end_turn(s)


def bob_in_decline(pile: Sequence[str], **kwargs: object) -> Session:
    """Ann holds region 6 (the top of `pile`); Bob's race went into decline in region 2;
    it is Ann's third turn. `kwargs` go to `created` (powers, expansions...)."""
    s = session(pile=pile, **kwargs)
    ann_takes_region_6(s)
    to_turn_end(s)
    end_turn(s)
    s.pick(0)  # Bob
    s.conquer(2, tokens=3)
    to_turn_end(s)
    end_turn(s)
    others_play(s)
    to_turn_end(s)  # Ann, turn 2
    end_turn(s)
    s.decline()  # Bob
    s.score()
    end_turn(s)
    others_play(s)
    return s
