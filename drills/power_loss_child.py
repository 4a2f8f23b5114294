"""The process the power-loss drill cuts: the app's open, then games through Session and Store.

    python drills/power_loss_child.py DB SEED [--no-sync]

It opens the saved games as the app does (`Store.open`: the checks, a migration, the
set-aside of a damaged file and the restore of a backup happen here), resumes the
unfinished game and plays scripted intents for ever, on the power-loss drill's FUSE mount.
One line on standard output per fact, flushed at once:

- ``opened RECOVERY MIGRATIONS``: the store is open (RECOVERY: ``none``, ``restored`` or
  ``kept``; MIGRATIONS: how many ran);
- ``resumed GAME STEPS WHERE`` or ``resumed none``;
- ``try`` before each intent, ``ok GAME STEPS DIGEST WHERE`` once the session has returned
  (the step saved: confirmed to the players). DIGEST: `step_digest` of the step saved;
  WHERE: `where` of the state shown;
- ``backed-up NAME`` (or ``backup-failed``) after each backup the session takes at the end
  of a turn; ``finished GAME`` once a game that is over is closed with its standings.

At four moments it says ``wait LABEL`` and reads a line from standard input before going
on (the drill arms its cut there, or counts the file system's calls): ``wait opened``
after the open, ``wait backup`` and ``wait backed-up`` around each backup, ``wait
finishing`` and ``wait finished`` around the close of a finished game. Nothing is written
while it waits.

``--no-sync`` is the drill's can-fail check: the store's connection gets ``PRAGMA
synchronous=OFF`` after the open, so a commit no longer flushes the write-ahead log (a
build with the fsync taken out); the drill must then find confirmed steps lost.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.scripted import ScriptedPlayer, seats  # noqa: E402
from companion.rules.catalog import load_catalog  # noqa: E402
from companion.rules.history import Step  # noqa: E402
from companion.rules.state import GameState  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.errors import StoreWriteError  # noqa: E402
from companion.store.events import encode  # noqa: E402


def where(state: GameState) -> str:
    """Where a game stands, as one word: turn, seat, phase, every purse."""
    t = state.track
    coins = ",".join(str(p.coins) for p in state.players)
    return f"{t.turn}/{t.seat}/{t.phase.name}/{coins}"


def step_digest(step: Step) -> str:
    """A short fingerprint of a step's events, as the store encodes them."""
    text = "\n".join("|".join(str(part) for part in encode(event)) for event in step)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def say(*words: object) -> None:
    print(*words, flush=True)


def wait(label: str) -> None:
    say("wait", label)
    sys.stdin.readline()


def main() -> None:
    path, seed = Path(sys.argv[1]), int(sys.argv[2])
    no_sync = "--no-sync" in sys.argv[3:]
    catalog = load_catalog()
    store = Store.open(path, catalog=catalog)
    recovery = store.recovery
    state_word = "none" if recovery is None else "kept" if recovery.kept else "restored"
    say("opened", state_word, len(store.migrated))
    wait("opened")
    if no_sync:
        store.conn.execute("PRAGMA synchronous = OFF")
    take_backup = store.backup

    def backup() -> Path | None:
        wait("backup")
        try:
            made = take_backup()
        except StoreWriteError:
            say("backup-failed")
            raise
        say("backed-up", "-" if made is None else made.name)
        wait("backed-up")
        return made

    store.backup = backup  # type: ignore[method-assign]
    rng = random.Random(seed)
    session = Session(catalog, rng=random.Random(seed + 1), store=store)
    state = session.resume()
    if state is None or session.history is None:
        say("resumed none")
    else:
        say("resumed", session.game_id, len(session.history.log), where(state))
    player = ScriptedPlayer(session, rng)
    while True:
        if session.history is None or session.state.is_over:
            if session.history is not None and session.game_id is not None:
                from companion.rules.standings import needs_token_count

                coins = {p.seat: p.coins for p in session.state.players}
                tied = needs_token_count(coins)
                wait("finishing")
                session.finish({seat: 10 + seat for seat in tied} if tied else None)
                say("finished", session.game_id)
                wait("finished")
            say("try")
            session.new_game(seats(rng.randint(2, 5)))
        else:
            say("try")
            player.intent()
        history = session.history
        assert history is not None
        say("ok", session.game_id, len(history.log), step_digest(history.log[-1]),
            where(session.state))


if __name__ == "__main__":
    main()
