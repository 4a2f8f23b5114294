"""One line of text per game state, for golden games compared line by line."""

from __future__ import annotations

from companion.rules.game import GameState


def line(state: GameState) -> str:
    track = state.track
    purses = " ".join(f"{p.name}={p.coins}" for p in state.players)
    rows = " ".join(f"{r.combo.power} {r.combo.race}+{r.coins}" for r in state.market.rows)
    races = "; ".join(
        f"{p.name}: {p.active.power + ' ' + p.active.race if p.active else '-'}"
        + "".join(f" /{d.race}" for d in p.declined)
        for p in state.players
    )
    return (f"turn {track.turn}/{track.turns} {state.players[track.seat].name} "
            f"{track.phase.value} | {purses} | {races} | {rows}")
