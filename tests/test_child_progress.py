"""`screenshots.run_child`: a child that gets on is waited for however slow it is; one that
prints nothing new for `stall` seconds is stopped, with what was awaited and its last lines.
"""

from __future__ import annotations

import os
import sys

import pytest
import screenshots


def test_a_child_that_gets_on_is_waited_for_to_its_end() -> None:
    script = ("import time\nfor n in range(3):\n    print('drawn', n, flush=True)\n"
              "    time.sleep(0.3)\n")
    done = screenshots.run_child([sys.executable, "-c", script], dict(os.environ), "counting")
    assert done.returncode == 0
    assert done.stdout.split() == ["drawn", "0", "drawn", "1", "drawn", "2"]


def test_a_child_that_prints_nothing_new_is_stopped_and_says_where_it_was() -> None:
    script = "import time\nprint('drawn home 800x480', flush=True)\ntime.sleep(3600)\n"
    with pytest.raises(AssertionError) as stopped:
        screenshots.run_child([sys.executable, "-c", script], dict(os.environ),
                              "drawing the screens in fr", stall=1)
    message = str(stopped.value)
    assert message.startswith("drawing the screens in fr: the child printed nothing new for 1 s")
    assert "drawn home 800x480" in message
