"""One-line River World set-ups on the invented test board `tests/data/river-test.json`.

The board (3 players, 10 turns) is 5 columns by 4 rows of square regions, numbered row by
row from the top left (1..5, 6..10, 11..15, 16..20); each borders the regions above,
below, left and right of it. Region 1 is a sea; a river runs down the middle column
(3, 8, 13, 18), with pirate symbols on 8 and 18; harbors on 4, 7, 14 and 16; the Shipyard
on 20; the Temple of the Seer on 9. Inland (not entry): 7, 8, 9, 12, 13, 14.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path

from factories import created, end_turn, finish_redeployment

from companion.rules.catalog import load_catalog
from companion.rules.events import GameCreated
from companion.rules.maps import board_document
from companion.rules.river import RiverEvent, RiverSetup, markers_in_box
from companion.session import Session

RIVER_FILE = Path(__file__).parent / "data" / "river-test.json"
RIVER_DOC = board_document(RIVER_FILE.read_text("utf-8"), source="river-test.json")
RIVER_BOARD = "River Test"
RIVERS = (3, 8, 13, 18)
SHIPYARD, TEMPLE = 20, 9
FILL_ORDER = (
    RiverEvent.QUIET_WATERS,
    RiverEvent.STORM,
    RiverEvent.HARSH_WINTER,
    RiverEvent.PIRATES,
)


def line(*first: RiverEvent, turns: int = 10) -> tuple[str, ...]:
    """An event line starting with `first`, then the box's other markers (Quiet waters
    first, Pirates last), as many as the game has turns."""
    box = list(markers_in_box(load_catalog()))
    for event in first:
        box.remove(event)
    rest = sorted(box, key=FILL_ORDER.index)
    return tuple(e.value for e in (*first, *rest)[:turns])


def river_created(
    *first: RiverEvent,
    races: Sequence[str] = ("Ratmen", "Humans", "Elves"),
    powers: Sequence[str] = ("Alchemist", "Wealthy", "Hill"),
) -> GameCreated:
    """A 3-player game on the River World test board, events starting with `first`."""
    base = created(3, races=races, powers=powers)
    return dataclasses.replace(
        base, board=RIVER_BOARD, board_doc=RIVER_DOC, options=(RiverSetup(line(*first)),)
    )


def river_session(*first: RiverEvent, **kwargs: Sequence[str]) -> Session:
    """A session on the River World test board; Ann (seat 0) picks the top combo next."""
    s = Session(load_catalog(), rng=random.Random(0))
    s.begin(river_created(*first, **kwargs))
    return s


def end_turns(s: Session, count: int) -> None:
    """Play `count` player turns quickly: pick if needed, no conquest, score 0, end."""
    for _ in range(count):
        if s.state.current.active is None:
            s.pick(0)
        s.finish_conquests()
        finish_redeployment(s)
        s.score(0)
        end_turn(s)
