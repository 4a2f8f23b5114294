"""Tuning the map's cells of a board, offline: weights and extra sites for the power diagram
of `companion.ui.map_geometry`, so that the drawn borders follow the board's adjacency.

    .venv/bin/python tools/render_maps.py --tune   # every packaged board (a few minutes)

`tune` is a deterministic hill climb (seconds per board): it never moves a region's own
point, keeps room around it and never shrinks a cell's largest inscribed circle below its
untuned size (or `TOUCH_ROOM`). `store` writes the result to the app's packaged data,
`companion/data/map_tuning.json`, keyed by each board's fingerprint; the app reads it
(`map_geometry.tuned_sites`) and draws a board whose fingerprint changed untuned until this
is run again. Not part of the app: nothing under `companion/` imports it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.paths import data_file
from companion.rules import Board
from companion.ui.map_geometry import (
    FRAME,
    MIN_SHARED,
    TOUCH_ROOM,
    TUNING_FILE,
    Point,
    Site,
    _adjacent_pairs,
    _diagram,
    _outlines,
    _Unsound,
    board_size,
    build,
    distance_to_outline,
    fingerprint,
    pole_of_inaccessibility,
    polygon_area,
    primary_sites,
)


def _borders(outlines: Mapping[int, list[tuple[Point, Point, int]]]
             ) -> dict[tuple[int, int], float]:
    """Shared border lengths by pair (a < b); the frame counts as region FRAME (-1)."""
    shared: dict[tuple[int, int], float] = {}
    for rid, edges in outlines.items():
        for a, b, label in edges:
            if label > rid or label == FRAME:
                key = (label, rid) if label == FRAME else (rid, label)
                shared[key] = shared.get(key, 0.0) + math.dist(a, b)
    return shared


@dataclass(slots=True)
class _Tuner:
    """Hill-climbs site weights and adds sites so the drawn borders follow the adjacency."""

    board: Board
    width: float
    height: float
    pairs: frozenset[tuple[int, int]]
    base_room: dict[int, float]
    base_area: dict[int, float]
    touch_floor: dict[int, float]
    """The inradius no tuning may take a cell below (its plain inradius, capped at TOUCH_ROOM)."""
    evaluations: int = 0

    def score(self, sites: Sequence[Site]) -> float | None:
        """Higher is better; None when the sites break an invariant or shrink a region."""
        self.evaluations += 1
        diagram = _diagram(sites, self.width, self.height)
        if any(not piece for piece in diagram.pieces):
            return None
        try:
            outlines = _outlines(diagram)
        except _Unsound:
            return None
        primary = {s.region: s for s in reversed(sites)}
        for rid, edges in outlines.items():
            outline = [a for a, _, _ in edges]
            home = primary[rid]
            room = distance_to_outline(outline, home.x, home.y)
            if room < 0.55 * self.base_room[rid]:
                return None
            floor = self.touch_floor[rid]
            if room < floor and pole_of_inaccessibility(outline, 0.002)[1] < floor:
                return None
            if polygon_area(outline) < 0.4 * self.base_area[rid]:
                return None
        value = 0.0
        shared = _borders(outlines)
        for pair in self.pairs:
            value += min(shared.get(pair, 0.0), MIN_SHARED) / MIN_SHARED
        for pair, length in shared.items():
            if pair not in self.pairs:
                value -= 1.5 * min(length, MIN_SHARED) / MIN_SHARED
        return value

    def missing(self, sites: Sequence[Site]) -> list[tuple[int, int]]:
        """Adjacent pairs (not the frame) drawn without a shared border."""
        shared = _borders(_outlines(_diagram(sites, self.width, self.height)))
        return sorted(
            p for p in self.pairs if p[0] != FRAME and shared.get(p, 0.0) < MIN_SHARED
        )

    def extra_site_candidates(self, sites: Sequence[Site], a: int, b: int) -> list[list[Site]]:
        """Sets of new sites of region `a` that could stretch it to region `b`."""
        home = {s.region: s for s in reversed(sites)}
        sa, sb = home[a], home[b]
        dx, dy = sb.x - sa.x, sb.y - sa.y
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        chains: list[list[Point]] = [[(sa.x + t * dx, sa.y + t * dy)] for t in (0.3, 0.45, 0.6)]
        for side in (-1, 1):  # around whatever lies between them
            for off in (0.06, 0.12):
                chains.append([(sa.x + 0.5 * dx + side * off * nx,
                                sa.y + 0.5 * dy + side * off * ny)])
        if self.board.regions[a].border:
            # along the frame towards b, just inside: a sea following the coast; when b is
            # inland, the chain turns in towards it at the end
            for inset in (0.015, 0.03, 0.05):
                path = self._along_frame(sa, sb, inset)
                runs = [path[i:j] for i in range(len(path)) for j in range(i + 1, len(path) + 1)]
                if self.board.regions[b].border:
                    chains += runs
                    continue
                for run in runs:
                    (ex, ey) = run[-1]
                    chains.append([*run, (ex + 0.5 * (sb.x - ex), ey + 0.5 * (sb.y - ey))])
                    chains.append([*run, *((ex + t * (sb.x - ex), ey + t * (sb.y - ey))
                                           for t in (0.35, 0.65))])
        return [
            [Site(a, x, y, sa.weight + shrink) for x, y in chain]
            for chain in chains
            if all(0 < x < self.width and 0 < y < self.height for x, y in chain)
            for shrink in (0.0, -0.002, -0.004, -0.006)
        ]

    def _along_frame(self, sa: Site, sb: Site, inset: float) -> list[Point]:
        w, h = self.width, self.height
        perimeter = 2 * (w + h)
        ta, tb = self._perimeter_at(sa.x, sa.y), self._perimeter_at(sb.x, sb.y)
        span = (tb - ta) % perimeter
        if span > perimeter / 2:
            span -= perimeter
        found = []
        for f in (0.15, 0.3, 0.45, 0.6, 0.75, 0.9):
            x, y = self._perimeter_point((ta + f * span) % perimeter)
            found.append((min(max(x, inset), w - inset), min(max(y, inset), h - inset)))
        return found

    def _perimeter_at(self, x: float, y: float) -> float:
        """Arc length (clockwise from the top-left corner) of the frame point nearest (x, y)."""
        w, h = self.width, self.height
        gaps = {"top": y, "right": w - x, "bottom": h - y, "left": x}
        side = min(gaps, key=lambda k: gaps[k])
        return {"top": x, "right": w + y, "bottom": w + h + (w - x),
                "left": 2 * w + h + (h - y)}[side]

    def _perimeter_point(self, t: float) -> Point:
        w, h = self.width, self.height
        if t < w:
            return (t, 0.0)
        if t < w + h:
            return (w, t - w)
        if t < 2 * w + h:
            return (w - (t - w - h), h)
        return (0.0, h - (t - 2 * w - h))


def tune(board: Board, *, rounds: int = 12) -> tuple[Site, ...]:
    """Sites (weights and extra sites) for `board` whose cells follow its adjacency best.

    Deterministic and slow (seconds): run by `tools/render_maps.py --tune`, which stores the
    result for the packaged boards (`store`).
    """
    width, height = board_size(board)
    sites = list(primary_sites(board))
    plain = build(board, sites, precision=1e-2)
    tuner = _Tuner(
        board, width, height,
        _adjacent_pairs(board) | {(FRAME, r.id) for r in board.regions.values() if r.border},
        {rid: distance_to_outline(c.outline, *_home(sites, rid)) for rid, c in plain.cells.items()},
        {rid: c.area for rid, c in plain.cells.items()},
        {rid: min(c.inradius, TOUCH_ROOM * height) for rid, c in plain.cells.items()},
    )
    best = tuner.score(sites)
    assert best is not None, "the plain diagram is always sound"
    for _ in range(3):  # stretch regions with extra sites, then let the weights settle
        sites, best, added = _add_sites(tuner, sites, best)
        sites, best = _climb_weights(tuner, sites, best, rounds)
        if not added:
            break
    return tuple(sites)


def _home(sites: Sequence[Site], region: int) -> Point:
    site = next(s for s in sites if s.region == region)
    return (site.x, site.y)


def _climb_weights(
    tuner: _Tuner, sites: list[Site], best: float, rounds: int
) -> tuple[list[Site], float]:
    step = 0.004 * tuner.height**2
    for _ in range(rounds):
        improved = False
        for index in range(len(sites)):
            for delta in (step, -step, 2 * step, -2 * step):
                trial = list(sites)
                s = trial[index]
                trial[index] = Site(s.region, s.x, s.y, s.weight + delta)
                value = tuner.score(trial)
                if value is not None and value > best + 1e-9:
                    sites, best, improved = trial, value, True
                    break
        if not improved:
            if step < 0.0005:
                break
            step /= 2
    return sites, best


def _add_sites(tuner: _Tuner, sites: list[Site], best: float) -> tuple[list[Site], float, bool]:
    added = False
    for a, b in tuner.missing(sites):
        choice: tuple[float, list[Site]] | None = None
        for region, other in ((a, b), (b, a)):
            for candidate in tuner.extra_site_candidates(sites, region, other):
                trial = [*sites, *candidate]
                value = tuner.score(trial)
                if value is not None and value > best + 0.5 and (
                    choice is None or value > choice[0]
                ):
                    choice = (value, trial)
        if choice is not None:
            best, sites = choice
            added = True
    return sites, best, added




def tuned_rows(sites: Iterable[Site]) -> list[tuple[int, float, float, float]]:
    """Sites as rounded rows, the form stored in the tuning file."""
    return [(s.region, round(s.x, 5), round(s.y, 5), round(s.weight, 6)) for s in sites]


def store(tuned: dict[str, tuple[Board, Sequence[Site]]], path: Path | None = None) -> Path:
    """Write the tuning of each board (by name) where the app reads it; returns the path."""
    path = path or data_file(TUNING_FILE)
    rows = {name: (fingerprint(board), tuned_rows(sites)) for name, (board, sites) in tuned.items()}
    text = "{\n" + ",\n".join(
        f'  "{name}": {{"fingerprint": "{fp}", "sites": [\n'
        + ",\n".join("    " + json.dumps(list(row)) for row in sites) + "\n  ]}"
        for name, (fp, sites) in rows.items()) + "\n}\n"
    path.write_text(text, encoding="utf-8")
    return path
