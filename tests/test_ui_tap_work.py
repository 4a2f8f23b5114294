"""A tap does the work its change needs and no more (issue #27), counted in the real headless
app: counts do not depend on the machine, as milliseconds do.

- a kv rule run again formats no trace line for Kivy's log (`companion.ui.quiet_rules`),
  and sets what Kivy's own function sets.
"""

from __future__ import annotations

from typing import Any

import pytest
from kivy.lang import Builder

from companion.ui import quiet_rules

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_rule_run_again_formats_no_trace_line_and_sets_what_kivys_sets(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import kivy.lang.builder as builder

    traced: list[object] = []
    monkeypatch.setattr(builder, "trace", lambda *args: traced.append(args))
    widget = Builder.load_string("Label:\n    text: str(self.width * 2)\n")
    traced.clear()  # (a widget built says which rules it found)
    rule_runs = []
    for width in (10, 21, 21, 30):
        widget.width = width
        rule_runs.append(widget.text)
    assert rule_runs == ["20", "42", "42", "60"]
    assert traced == []
    quiet_rules.uninstall()  # Kivy's own function, for a rule bound now: the same value
    try:
        own = Builder.load_string("Label:\n    text: str(self.width * 2)\n")
        traced.clear()
        own.width = 21
        assert own.text == "42"
        assert traced  # (Kivy's own formats its lines)
    finally:
        quiet_rules.install()
