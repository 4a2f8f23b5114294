"""Record a scripted whole game as a golden file (a developer tool, not run by tests).

From the project's root, as a module (so that the benchmark's scripted players, `bench`,
import as they are):

    .venv/bin/python -m tools.record_golden tests/golden/base-3p.json
    .venv/bin/python -m tools.record_golden tests/golden/troops-3p.json --troops

`--troops` plays the benchmark's scripted players (conquests, the final die, defenders
putting tokens back, redeployment, decline) in a game that counts its tokens.

The file holds every step's event records and the state line after it
(`companion.rules.golden.line`, the line the golden test compares). Review the lines
by hand before committing a new golden file: the test then holds every later release to it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from companion.rules.events import Seat, to_record
from companion.rules.golden import line
from companion.rules.turns import Phase
from companion.session import Session


def play(session: Session, rng: random.Random) -> None:
    seats = [Seat("Ann", "blue"), Seat("Bob", "orange"), Seat("Cy", "green")]
    session.new_game(seats, first_seat=1)
    while not session.state.is_over:
        state = session.state
        if state.track.phase is Phase.PICK_COMBO:
            affordable = [r for r in range(len(state.market.rows)) if r <= state.current.coins]
            session.pick(rng.choice(affordable))
            if rng.random() < 0.2:
                session.undo()
                continue
        elif state.track.phase is Phase.CONQUER:
            if state.current.active and state.current.active.picked_turn < state.track.turn - 2 \
                    and rng.random() < 0.5:
                session.decline()
            else:
                if rng.random() < 0.3 and session.die_chance().purpose == "berserk":
                    session.roll_for_berserk()  # the one roll the die button gives then
                session.finish_conquests()
                session.finish_redeployment()
        elif state.track.phase is Phase.SCORE:
            session.score(rng.randint(2, 12), [("regions", 0)])
        elif state.track.phase is Phase.FINISHED:
            session.end_turn()


def main(path: str, troops: bool = False) -> None:
    session = Session(rng=random.Random(2026))
    if troops:
        from bench.scripted import play_game

        play_game(session, random.Random(11), players=3)
    else:
        play(session, random.Random(7))
    assert session.history is not None
    from companion.rules.history import replay

    steps = []
    history = None
    for step in session.history.log:
        history = replay([step], session.catalog) if history is None else history.record(step)
        steps.append({"events": [to_record(e) for e in step], "after": line(history.state)})
    game = "base 3 players, tokens counted" if troops else "base 3 players"
    Path(path).write_text(json.dumps({"game": game, "steps": steps}, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], troops="--troops" in sys.argv[2:])
