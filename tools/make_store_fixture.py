"""Make the small saved-games file of this release, for migration tests of later releases.

    .venv/bin/python tools/make_store_fixture.py tests/data

writes ``store-<version>.sqlite3`` (a database made by this release's `Store`: profiles,
settings, one finished 3-player game with a tie-break and undos, one unfinished 4-player
game stopped mid-turn) and ``store-<version>.json``, the facts a later release must still
read from it. Run it once per release that changes the schema or the events, review the
JSON, and commit both files; never regenerate the files of an earlier release.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion import __version__
from companion.rules.catalog import load_catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import Seat
from companion.rules.history import History
from companion.rules.standings import final_standings, needs_token_count
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store
from companion.store.migrations import applied, connect_for_migrations

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
SEATS = (Seat("Ann", "blue"), Seat("Bob", "orange"), Seat("Cy", "green"), Seat("Di", "yellow"))


class Clock:
    """A clock that moves a minute every time it is read."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def play(s: Session, store: Store, game_id: int, rng: random.Random, *, until: int) -> None:
    """Play random legal intents (undos included), saving each step, for `until` steps."""
    assert s.history is not None
    while len(s.history.log) < until and not s.state.is_over:
        phase = s.state.track.phase
        try:
            if rng.random() < 0.1:
                s.undo()
            elif phase is Phase.PICK_COMBO:
                s.pick(rng.randrange(3))
            elif phase is Phase.CONQUER:
                choice = rng.random()
                if choice < 0.15:
                    s.roll_for_berserk()  # refused unless Berserk: the rules say why
                elif choice < 0.25:
                    s.decline()
                else:
                    s.finish_conquests()
            elif phase is Phase.REDEPLOY:
                s.finish_redeployment()
            elif phase is Phase.SCORE:
                s.score(rng.randrange(2, 12))
            else:
                s.end_turn()
        except IllegalAction:
            continue
        store.append_step(game_id, s.history.log[-1])


def state_facts(history: History) -> dict[str, Any]:
    state = history.state
    return {
        "steps": len(history.log),
        "steps_in_force": len(history.in_force),
        "turn": state.track.turn,
        "seat": state.track.seat,
        "phase": state.track.phase.name,
        "coins": [p.coins for p in state.players],
        "active": [None if p.active is None else [p.active.race, p.active.power]
                   for p in state.players],
    }  # fmt: skip


def make(out: Path) -> tuple[Path, Path]:
    catalog = load_catalog()
    db_file = out / f"store-{__version__}.sqlite3"
    facts_file = out / f"store-{__version__}.json"
    with tempfile.TemporaryDirectory() as work:
        live = Path(work) / "companion.sqlite3"
        with Store.open(live, catalog=catalog, clock=Clock(T0)) as store:
            store.add_profile("Ann", "blue", pin="2468")
            store.add_profile("Bob", "orange")
            store.add_profile("Cy", "green")
            diane = store.add_profile("Diane", "yellow")
            store.set_setting("backups.keep", 7)
            store.set_setting("screen", {"rotation": 180})

            finished = Session(catalog, rng=random.Random(1))
            finished.new_game(SEATS[:3], first_seat=1)
            assert finished.history is not None
            one = store.new_game(finished.history.log[0])
            play(finished, store, one, random.Random(2), until=10_000)
            coins = {p.seat: p.coins for p in finished.state.players}
            tokens = {seat: 10 + seat for seat in needs_token_count(coins)}
            names = {p.seat: p.name for p in finished.state.players}
            store.finish_game(one, final_standings(coins, tokens, names))

            unfinished = Session(catalog, rng=random.Random(3))
            unfinished.new_game(SEATS, first_seat=0)
            assert unfinished.history is not None
            two = store.new_game(unfinished.history.log[0], players={3: diane.id})  # Di
            play(unfinished, store, two, random.Random(4), until=57)

            summary = store.game_summary(one)
            facts = {
                "release": __version__,
                "migrations": applied(connect_for_migrations(store.conn)),
                "unfinished_game": store.unfinished_game(),
                "games": {
                    str(one): {"finished": True, **state_facts(store.load_history(one)),
                               "result": summary.game.result,
                               "final_coins": [s.final_coins for s in summary.game.seats],
                               "winners": [s.name for s in summary.game.winners],
                               "income": [list(summary.income_of(seat))
                                          for seat in range(len(summary.game.seats))],
                               "combos": [[c.seat, c.turn, c.row, c.race, c.power, c.coins]
                                          for c in summary.combos]},
                    str(two): {"finished": False, **state_facts(store.load_history(two))},
                },
                "profiles": [[p.name, p.colour, p.has_pin] for p in store.profiles()],
                "pins": {"Ann": "2468"},
                "settings": store.settings(),
                "player_stats": {
                    s.name: [s.games, s.wins, s.average_score, s.best_score, s.best_turn,
                             s.favourite_combo and s.favourite_combo.name,
                             s.most_successful_combo and s.most_successful_combo.name]
                    for s in store.all_player_stats()
                },
                "combo_stats": [[c.name, c.picks, c.games, c.wins, c.coins, c.best]
                                for c in store.combo_stats()],
            }  # fmt: skip
            db_file.unlink(missing_ok=True)
            store.conn.execute("VACUUM INTO ?", (str(db_file),))
    text = json.dumps(facts, indent=2, ensure_ascii=False)
    # Lists of plain values on one line each, so that the file reads as a table.
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: f"[{' '.join(m.group(1).split())}]", text)
    facts_file.write_text(text + "\n")
    return db_file, facts_file


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("tests/data")
    target.mkdir(parents=True, exist_ok=True)
    for path in make(target):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
