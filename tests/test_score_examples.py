"""The `companion score` examples of `docs/score-examples.md` are real: each prints what
the document shows.

An example is a `<!-- score-example -->` comment, then a ```json block with the scenario,
then a ```json block with the output (shown in full, spread over lines). Blocks may be
indented, as inside a list item.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "score-examples.md"

_FENCE = r"[ \t]*```json\n(.*?)\n[ \t]*```\n"
_EXAMPLE = re.compile(r"<!-- score-example -->\n" + _FENCE + _FENCE, re.S)
_JSON_BLOCK = re.compile(r"^[ \t]*```json$", re.M)


SECTION = DOC.read_text(encoding="utf-8")
EXAMPLES = _EXAMPLE.findall(SECTION)


def companion_score(
    scenario: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    """What `companion score -` prints for `scenario` on standard input."""
    monkeypatch.setattr("sys.stdin", io.StringIO(scenario))
    code = main(["score", "-"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    result: dict[str, Any] = json.loads(out)
    return result


def test_the_document_has_its_examples() -> None:
    assert len(EXAMPLES) >= 14


def test_every_json_block_of_the_document_belongs_to_a_checked_example() -> None:
    # an input and an output block per example: an unmarked example would go unchecked
    assert len(_JSON_BLOCK.findall(SECTION)) == 2 * len(EXAMPLES)


def test_the_document_gives_an_example_for_each_expansion_field() -> None:
    scenarios = "".join(scenario for scenario, _ in EXAMPLES)
    for name in (
        '"coastal"',
        '"abandoned"',
        '"attacked_active_race"',
        '"pots_of_gold"',
        '"ivory_tower"',
        '"in_decline_when_picked"',
        '"others_declined"',
        '"Were-"',
        '"harbors"',
        '"harbor"]',
        '"next_to_pirates"',
        '"next_to_pirates": true',
        '"river"',
        '"relics"',
        '"necromancer"',
    ):
        assert name in scenarios, name


@pytest.mark.parametrize(
    ("scenario", "shown"), EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))]
)
def test_every_score_example_gives_the_total_it_shows(
    scenario: str,
    shown: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    expected = json.loads(shown)
    result = companion_score(scenario, monkeypatch, capsys)
    assert result["total"] == expected["total"]
    assert result == expected
