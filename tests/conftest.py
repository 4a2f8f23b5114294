"""Shared by every test: each test leaves the garbage collector as it found it.

The app's memory policy (`companion.ui.memory`) freezes the heap and stops automatic full
collections once its last screen is built, and `run_app` turns collection off until then;
all tests share one process, so without this the tests after that moment would run
without full collections.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def collector_as_found() -> Iterator[None]:
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count()
    enabled = gc.isenabled()
    yield
    if enabled and not gc.isenabled():
        gc.enable()
    if gc.get_threshold() != thresholds:
        gc.set_threshold(*thresholds)
    if gc.get_freeze_count() > frozen:
        gc.unfreeze()
