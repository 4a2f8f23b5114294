"""What every drill hands back: what it tried, and what survived, check by check."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Check:
    """One thing the drill counted, against its goal."""

    what: str
    value: str
    goal: str = ""
    met: bool | None = None  # None: information only


@dataclass
class Drill:
    name: str
    tried: str
    checks: list[Check] = field(default_factory=list)
    seconds: float = 0.0
    detail: dict[str, Any] = field(default_factory=dict)
    skipped: str | None = None  # why the drill could not be taken here (it proves nothing)

    def check(self, what: str, value: object, goal: str = "", met: bool | None = None) -> None:
        self.checks.append(Check(what, str(value), goal, met))

    @property
    def met(self) -> bool:
        """Every goal met (a skipped drill met none: it is never counted as passed)."""
        return self.skipped is None and all(c.met is not False for c in self.checks)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)
