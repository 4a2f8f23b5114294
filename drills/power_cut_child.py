"""The process the power-cut drill kills: scripted games through the Session and a Store.

    python drills/power_cut_child.py DB SEED

It opens the saved games as the app does, resumes the unfinished game (printing where it
came back: ``resumed GAME STEPS TURN SEAT PHASE COINS`` or ``resumed none``), then plays
for ever. Before each intent it prints ``try``; once the session has returned (the step
saved, as the table would then show it) it prints ``ok GAME STEPS TURN SEAT PHASE COINS``.
A game that is over is closed with its standings (``finished GAME``) and a new one starts
with 2 to 5 players. The parent kills it with SIGKILL whenever it likes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.scripted import ScriptedPlayer, seats  # noqa: E402
from companion.rules.catalog import load_catalog  # noqa: E402
from companion.rules.game import GameState  # noqa: E402
from companion.rules.standings import needs_token_count  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402


def where(game: int | None, steps: int, state: GameState) -> str:
    t = state.track
    coins = ",".join(str(p.coins) for p in state.players)
    return f"{game} {steps} {t.turn} {t.seat} {t.phase.name} {coins}"


def main() -> None:
    path, seed = Path(sys.argv[1]), int(sys.argv[2])
    catalog = load_catalog()
    store = Store.open(path, catalog=catalog)
    rng = random.Random(seed)
    session = Session(catalog, rng=random.Random(seed + 1), store=store)
    state = session.resume()
    if state is None or session.history is None:
        print("resumed none", flush=True)
    else:
        print("resumed", where(session.game_id, len(session.history.log), state), flush=True)
    player = ScriptedPlayer(session, rng)
    while True:
        if session.history is None or session.state.is_over:
            if session.history is not None and session.game_id is not None:
                coins = {p.seat: p.coins for p in session.state.players}
                tied = needs_token_count(coins)
                session.finish({seat: 10 + seat for seat in tied} if tied else None)
                print("finished", session.game_id, flush=True)
            print("try", flush=True)
            session.new_game(seats(rng.randint(2, 5)))
        else:
            print("try", flush=True)
            player.intent()
        assert session.history is not None
        print("ok", where(session.game_id, len(session.history.log), session.state), flush=True)


if __name__ == "__main__":
    main()
