"""Golden games: the one line of text per game state that a recorded game is compared by.

A golden game (tests/golden/*.json) is a whole game recorded step by step with the line of
the state after each step; a later release must replay every step to the same line. The
line says the turn, the purses, the races, the market and, in a game that counts its
tokens, every held region's tokens and each race's hand, tokens set aside and tokens back
in the tray. The recorder (tools/record_golden.py) and the test that replays the files
both use `line`, so the format has one definition; changing it changes every golden file.
"""

from __future__ import annotations

from companion.rules.game import GameState


def line(state: GameState) -> str:
    """The golden line of `state`."""
    track = state.track
    purses = " ".join(f"{p.name}={p.coins}" for p in state.players)
    rows = " ".join(f"{r.combo.power} {r.combo.race}+{r.coins}" for r in state.market.rows)
    races = "; ".join(
        f"{p.name}: {p.active.power + ' ' + p.active.race if p.active else '-'}"
        + "".join(f" /{d.race}" for d in p.declined)
        for p in state.players
    )
    text = (f"turn {track.turn}/{track.turns} {state.players[track.seat].name} "
            f"{track.phase.value} | {purses} | {races} | {rows}")
    if state.troops is None:  # a game saved before the token ledger: lines as they were
        return text
    held = " ".join(f"{rid}:{o.seat}{o.race[:3]}{o.tokens}"
                    for rid, rs in sorted(state.regions.regions.items())
                    if (o := rs.occupant) is not None)
    books = " ".join(f"{t.seat}{t.race[:3]} hand {t.hand} aside {t.aside} tray {t.tray}"
                     for t in sorted(state.troops.races, key=lambda t: (t.seat, t.race)))
    return f"{text} | {held} | {books}"
