"""Every screen, at 800x480, 480x800 (the 7-inch panel upright), 1280x720 and 720x1280: drawn,
saved, inside the window, readable.

`tests/screenshots.py` renders each screen in typical game states (in a child process, whose
offscreen window can take every size) and reports, per screen and size, the layout problems
it found, every text shown and the purse totals of that moment; then, as a player uses the
screen, whether its main actions are in sight without scrolling and whether any button
moved while its steppers (or a control tapped again and again, the reveal) were tapped.
Each frame is read back from the framebuffer in memory (drawn at its size, not blank); the
screens are saved as PNGs only when asked for (set UI_SCREENSHOTS=DIR to keep them there).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import screenshots as screenshots_tool

SCREENS = ("home", "new_game", "table", "market", "map", "scoring", "die", "game_end", "settings",
           "profiles", "history", "history_game", "stats", "necromancer", "rules")
SIZES = ("800x480", "480x800", "1280x720", "720x1280")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    keep = os.environ.get("UI_SCREENSHOTS")
    out = Path(keep) if keep else tmp_path_factory.mktemp("screens")
    result: dict[str, Any] = screenshots_tool.run(out, pngs=bool(keep))
    return result


def test_every_screen_is_rendered_at_every_size(report: dict[str, Any]) -> None:
    shown = {found["screen"] for sizes in report.values() for found in sizes.values()}
    assert set(SCREENS) <= shown
    for name, sizes in report.items():
        assert set(sizes) == set(SIZES), name
    assert screenshots_tool.frame_faults(report) == []
    kept = [found["screenshot"] for sizes in report.values() for found in sizes.values()]
    assert all(kept) if os.environ.get("UI_SCREENSHOTS") else not any(kept)


def test_nothing_lies_outside_the_window_and_no_text_is_small_or_clipped(
    report: dict[str, Any],
) -> None:
    problems = [f"{name} at {size}: {problem}"
                for name, sizes in report.items()
                for size, found in sizes.items()
                for problem in found["problems"]]
    assert problems == []


def test_the_main_actions_of_every_screen_are_in_sight_without_scrolling(
    report: dict[str, Any],
) -> None:
    unnamed = [name for name, sizes in report.items()
               if any(not found["main"] for found in sizes.values())]
    assert unnamed == []  # every scenario names its main actions
    hidden = [f"{name} at {size}: {problem}"
              for name, sizes in report.items()
              for size, found in sizes.items()
              for problem in found["out_of_sight"]]
    assert hidden == []


def test_no_button_moves_while_a_stepper_or_a_repeated_control_is_tapped(
    report: dict[str, Any],
) -> None:
    moves = [f"{name} at {size}: {move}"
             for name, sizes in report.items()
             for size, found in sizes.items()
             for move in found["moves"]]
    assert moves == []
    stepped = {name for name, sizes in report.items()
               if any(found["tapped"] for found in sizes.values())}
    assert {"map_conquer", "map_final", "scoring_quick", "game_end_tie",
            "necromancer_placing"} <= stepped


def test_the_map_panel_stays_put_over_five_taps_of_tokens_in_hand_plus(
    report: dict[str, Any],
) -> None:
    # One token in hand against a cost of two: the die's button shows, then goes as the
    # hand grows; the buttons below it and around it stay where the finger left them.
    for size in SIZES:
        found = report["map_final"][size]
        assert found["tapped"].count("Tokens in hand +") >= 5, size
        assert found["moves"] == [], size
        assert found["out_of_sight"] == [], size


def test_the_reveal_button_stays_put_over_each_reveal(report: dict[str, Any]) -> None:
    for size in SIZES:
        found = report["game_end_reveal"][size]
        assert found["tapped"] == ["reveal", "reveal"], size  # two totals to go
        assert found["moves"] == [], size


def test_no_screen_shows_a_purse_total_except_the_peek_and_the_final_reveal(
    report: dict[str, Any],
) -> None:
    checked, leaks = screenshots_tool.purse_leaks(report)
    assert checked > 50
    assert leaks == []


def test_the_peek_and_the_final_reveal_do_show_the_totals(report: dict[str, Any]) -> None:
    peek = report["peek"]["800x480"]
    assert any(re.fullmatch(r"\d+ coins", t) and int(t.split()[0]) in peek["purses"]
               for t in peek["texts"])
    end = report["game_end"]["800x480"]
    for purse in end["purses"]:
        assert any(f"{purse} coins" in t for t in end["texts"])


def test_the_tie_for_first_asks_for_the_tokens_on_the_board(report: dict[str, Any]) -> None:
    texts = report["game_end_tie"]["800x480"]["texts"]
    assert "Decide the winner" in texts
    assert any("tokens on the board" in t for t in texts)


def test_past_games_and_stats_show_finished_games_beside_a_game_in_play(
    report: dict[str, Any],
) -> None:
    # The leak test above holds these screens too: the game in play has purses over 300,
    # the finished games (whose totals everybody saw) stay under 100.
    for size in SIZES:
        assert sum("won with" in t for t in report["history"][size]["texts"]) == 3
        assert any("coins a pick" in t for t in report["stats"][size]["texts"])
        assert any("picks in" in t for t in report["stats_combos"][size]["texts"])
        assert "1st" in report["history_game"][size]["texts"]
        assert report["history"][size]["purses"] and not report["history"][size]["private"]


def test_every_character_on_screen_is_in_the_bundled_font(report: dict[str, Any]) -> None:
    import kivy
    from ui_support import font_chars

    font = Path(kivy.__file__).parent / "data" / "fonts" / "Roboto-Regular.ttf"
    chars = font_chars(str(font)) | {"\n", " "}
    missing = {ch for sizes in report.values() for found in sizes.values()
               for text in found["texts"] for ch in text if ch not in chars}
    assert missing == set()
