"""`docs/play-format.md` is true: its whole game prints exactly what the page shows.

The example is the block after `<!-- play-example: input -->` (JSON lines) and the block
after `<!-- play-example: output -->`; the game is run through the real program
(`python -m companion play -`). The page must also name every verb and first-line field.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from companion.play import SETUP_FIELDS, VERBS

DOC = Path(__file__).resolve().parents[1] / "docs" / "play-format.md"
TEXT = DOC.read_text(encoding="utf-8")


def block(marker: str) -> str:
    found = re.search(rf"<!-- play-example: {marker} -->\n```\n(.*?)```\n", TEXT, re.S)
    assert found, f"docs/play-format.md has no {marker} block"
    return found.group(1)


EXAMPLE_IN = block("input")
EXAMPLE_OUT = block("output")


def test_the_documented_game_prints_exactly_the_documented_output() -> None:
    run = subprocess.run([sys.executable, "-m", "companion", "play", "-"], input=EXAMPLE_IN,
                         capture_output=True, text=True, check=False)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.splitlines() == EXAMPLE_OUT.splitlines()


def test_the_documented_game_is_a_whole_two_player_game_to_its_standings() -> None:
    intents = [json.loads(line) for line in EXAMPLE_IN.splitlines()[1:]]
    out = [json.loads(line) for line in EXAMPLE_OUT.splitlines()]
    verbs = {intent["do"] for intent in intents}
    assert {"pick", "conquer", "final_conquest", "finish_conquests", "finish_redeployment",
            "score", "decline", "end_turn", "undo", "finish", "redeploy", "spread_hand"} <= verbs
    assert len(out[0]["players"]) == 2
    assert any("refused" in line for line in out)
    assert out[-1]["phase"] == "game_over"
    standings = out[-1]["standings"]
    assert standings["winners"] == [standings["placings"][0]["seat"]]
    coins = [line for line in out if "refused" not in line
             and any("coins" in p for p in line["players"])]
    assert coins == [line for line in out if line.get("phase") == "game_over"]


def test_the_page_documents_every_verb_and_every_first_line_field() -> None:
    rows = [line.split(" | ")[0] for line in TEXT.splitlines() if line.startswith("| `")]
    for verb in VERBS:
        assert any(f"`{verb}`" in row for row in rows), verb
        for field in VERBS[verb].fields:
            assert f"`{field.name}`" in TEXT, (verb, field.name)
    for field in SETUP_FIELDS:
        assert f"| `{field}`" in TEXT, field
