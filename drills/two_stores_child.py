"""One of the two processes of the two-instance drill: scripted play on a shared file.

    python drills/two_stores_child.py DB SEED SECONDS EXCLUSIVE

It opens the saved games (with the one-app lock when EXCLUSIVE is 1; without it, as two
apps would if the lock were lost), resumes the unfinished game and plays scripted intents
for SECONDS, from its own view of the game, as a second app would. It prints:

- ``in-use PID`` when the lock is taken (`DatabaseInUse`), and ends;
- ``ok GAME STEP HASH`` for each step saved (HASH: the step as the store encodes it);
- ``conflict`` for each step the store refused because the other process saved first
  (`StepConflict`), after which it reads the game again from the file;
- ``refused WHY`` for any other refusal of the store in words (busy, say), also followed
  by reading the game again.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.scripted import ScriptedPlayer  # noqa: E402
from companion.rules.catalog import load_catalog  # noqa: E402
from companion.rules.errors import RulesError  # noqa: E402
from companion.rules.history import Step  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.errors import DatabaseInUse, StepConflict, StoreError  # noqa: E402
from companion.store.events import encode  # noqa: E402


def step_hash(step: Step) -> str:
    """The step as the store encodes it, hashed (the same in memory and read back)."""
    text = json.dumps([encode(event) for event in step])
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def main() -> None:
    path, seed = Path(sys.argv[1]), int(sys.argv[2])
    seconds, exclusive = float(sys.argv[3]), sys.argv[4] == "1"
    catalog = load_catalog()
    try:
        store = Store.open(path, catalog=catalog, exclusive=exclusive)
    except DatabaseInUse as in_use:
        print("in-use", in_use.pid, flush=True)
        return
    rng = random.Random(seed)
    session = Session(catalog, rng=random.Random(seed + 1), store=store)
    session.resume()
    player = ScriptedPlayer(session, rng)
    print("ready", flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if session.history is None or session.state.is_over:
            break
        try:
            player.intent()
        except StepConflict:
            print("conflict", flush=True)
        except StoreError as refused:
            print("refused", str(refused).replace("\n", " ")[:200], flush=True)
        except RulesError:
            pass  # a stale view of the game; read it again below
        else:
            assert session.history is not None and session.game_id is not None
            print("ok", session.game_id, len(session.history.log),
                  step_hash(session.history.log[-1]), flush=True)
            continue
        session.resume()  # what the other process saved is the game now
        player = ScriptedPlayer(session, rng)
    store.close()


if __name__ == "__main__":
    main()
