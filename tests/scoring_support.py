"""One-line inputs for the scoring tests: held regions, holdings, a score and its lines, and
`companion score` run on a scenario written to a file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.commands.score import main
from companion.rules.catalog import load_catalog
from companion.rules.maps import Feature, Terrain, known_terrains
from companion.rules.mini_game import MiniFacts
from companion.rules.river import RiverCounts, RiverRegionFacts, counts_of
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    ScoringInput,
    ScoringInputError,
    TurnScore,
    score_turn,
)

CATALOG = load_catalog()
LAND = tuple(t for t in known_terrains() if not t.is_water)
WATER = tuple(t for t in known_terrains() if t.is_water)


def held(
    terrain: Terrain, *features: Feature, coastal: bool = False, id: int | None = None
) -> HeldRegion:
    return HeldRegion(terrain, frozenset(features), coastal, id)


def hills(n: int, coastal: bool = False) -> tuple[HeldRegion, ...]:
    return tuple(held(Terrain.HILL, coastal=coastal) for _ in range(n))


def river_region(terrain: Terrain, *, coastal: bool = False, harbor: bool = False,
                 next_to_pirates: bool = False) -> HeldRegion:
    """A region held with River World's facts: a Harbor printed in it, a pirate ship
    beside it (`RiverRegionFacts`, one of the region's `facts`)."""
    return HeldRegion(terrain, coastal=coastal,
                      facts=(RiverRegionFacts(harbor, next_to_pirates),))


def river_count(terrains: dict[Terrain, int], *, mines: int = 0, coastal: int = 0,
                harbors: int = 0, next_to_pirates: int = 0,
                inland_next_to_pirates: int | None = None) -> QuickCount:
    """A quick count with River World's counts (`RiverCounts`, one of its `facts`)."""
    return QuickCount(terrains, mines=mines, coastal=coastal, facts=(
        RiverCounts(harbors, next_to_pirates, inland_next_to_pirates),))


def river_counts(count: QuickCount) -> RiverCounts:
    """River World's counts of a quick count (all 0 when it has none)."""
    return counts_of(count)


MINI_FACTS = ("pots_of_gold", "ivory_tower", "historian")
"""The keywords `active` and `declined` hand to the mini-expansions' facts (`MiniFacts`)."""


def _facts(kw: dict[str, object]) -> tuple[object, ...]:
    """The mini-expansions' facts among `kw` (taken out of it), as a race's `facts`."""
    mini = {key: kw.pop(key) for key in MINI_FACTS if key in kw}
    return (MiniFacts(**mini),) if mini else ()  # type: ignore[arg-type]


def active(
    race: str, power: str, regions: tuple[HeldRegion, ...] | QuickCount = (), **kw: object
) -> ActiveHoldings:
    facts = _facts(kw)
    return ActiveHoldings(race, power, regions, facts=facts, **kw)  # type: ignore[arg-type]


def declined(
    race: str, power: str, regions: tuple[HeldRegion, ...] | QuickCount = (), **kw: object
) -> DeclinedHoldings:
    facts = _facts(kw)
    return DeclinedHoldings(race, power, regions, facts=facts, **kw)  # type: ignore[arg-type]


def score(act: ActiveHoldings | None = None, *dec: DeclinedHoldings, turn: int = 4) -> TurnScore:
    return score_turn(ScoringInput(turn, act, tuple(dec)), CATALOG)


def line(result: TurnScore, label: str) -> int:
    found = [item.coins for item in result.lines if item.label == label]
    assert len(found) == 1, f"no single line {label!r} in {result.lines}"
    return found[0]


def labels(result: TurnScore) -> list[str]:
    return [item.label for item in result.lines]


def refused(
    field: str, act: ActiveHoldings | None = None, *dec: DeclinedHoldings, turn: int = 4
) -> str:
    with pytest.raises(ScoringInputError) as caught:
        score(act, *dec, turn=turn)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")
    return caught.value.problem


def counted_by_hand(regions: tuple[HeldRegion, ...] | QuickCount) -> QuickCount:
    """The quick count a player would make of these regions, worked out here by hand."""
    assert isinstance(regions, tuple)
    terrains: dict[Terrain, int] = {}
    for region in regions:
        terrains[region.terrain] = terrains.get(region.terrain, 0) + 1
    land = [r for r in regions if not r.terrain.is_water]
    return QuickCount(
        terrains,
        mines=sum(Feature.MINE in r.features for r in land),
        magic_sources=sum(Feature.MAGIC in r.features for r in land),
        coastal=sum(r.coastal for r in land),
    )


def counted_input(inp: ScoringInput) -> ScoringInput:
    """The same position with every race's regions given as a hand count instead of a list."""
    return replace(
        inp,
        active=None if inp.active is None else replace(
            inp.active, regions=counted_by_hand(inp.active.regions)),
        declined=tuple(replace(d, regions=counted_by_hand(d.regions)) for d in inp.declined),
    )


def run_score(capsys: pytest.CaptureFixture[str], doc: Any, tmp_path: Path
              ) -> tuple[int, str, str]:
    """`companion score` on `doc` (JSON, or a string written as it is) in a file of
    `tmp_path`: its exit code, standard output and standard error."""
    path = tmp_path / "scenario.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    code = main([str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def score_ok(capsys: pytest.CaptureFixture[str], doc: Any, tmp_path: Path) -> dict[str, Any]:
    """`companion score`'s result on `doc`, which it must accept, its lines adding up to its
    total."""
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, err) == (0, ""), err
    result: dict[str, Any] = json.loads(out)
    assert result["total"] == sum(line["coins"] for line in result["lines"])
    return result
