"""One line of text per game state, for golden games compared line by line: the turn, the
purses, the races, the market and, in a game that counts its tokens, every held region's
tokens and each race's hand, tokens set aside and tokens back in the tray."""

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
