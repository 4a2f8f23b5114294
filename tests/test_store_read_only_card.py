"""A card remounted read-only is named as such when the store opens, not as a folder to
check: games cannot be saved until it can be written, and the app plays without saving.

The card is real: a tmpfs mounted read-only, or remounted read-only with the saved games
on it, in a mount namespace of the test's own (`tests/test_small_faults.py`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from test_small_faults import in_own_mounts
from test_store_damage import PROBE
from test_store_history import CATALOG, Clock, play_game_1

from companion.store import Store

OPEN = (
    "import sys\n"
    "from pathlib import Path\n"
    "from companion.store import Store, StoreError\n"
    "try:\n"
    "    Store.open(Path(sys.argv[1])).close()\n"
    "    print('opened')\n"
    "except StoreError as error:\n"
    "    print(type(error).__name__, error)\n"
)

SAID = (
    "cannot be written: the memory card (or the folder) it is on is mounted read-only. "
    "Games cannot be saved until it can be written again; until then the companion plays "
    "without saving."
)


def test_a_card_remounted_read_only_with_the_saved_games_on_it_is_named_read_only(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG, clock=Clock()) as store:
        store.add_profile("Ann", "blue")
        store.add_profile("Bob", "orange")
        play_game_1(store, Clock())
    card = tmp_path / "card"
    card.mkdir()
    run = in_own_mounts(
        'mount -t tmpfs tmpfs "$1"; cp "$3" "$1/companion.sqlite3"; '
        'mount -o remount,ro "$1"; "$2" -c "$4" "$1/companion.sqlite3"; ls -A "$1"',
        str(card), sys.executable, str(db), OPEN,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    assert lines[0] == f"StoreOpenError The saved-games file {card}/companion.sqlite3 {SAID} " \
        "A card the system found faulty is remounted read-only: copy the saved games off it " \
        "and check or replace it.", run.stdout + run.stderr  # fmt: skip
    assert "check that its folder" not in run.stdout.casefold()
    assert lines[1:] == ["companion.sqlite3"]  # nothing set aside, nothing created


def test_a_read_only_card_without_the_folder_yet_is_named_read_only(tmp_path: Path) -> None:
    card = tmp_path / "card"
    card.mkdir()
    run = in_own_mounts(
        'mount -t tmpfs -o ro tmpfs "$1"; "$2" -c "$3" "$1/smallworld-companion/c.sqlite3"',
        str(card), sys.executable, OPEN,
    )  # fmt: skip
    assert run.stdout.startswith(
        f"StoreOpenError The saved-games file {card}/smallworld-companion/c.sqlite3 {SAID}"
    ), run.stdout + run.stderr


def test_the_app_on_a_card_remounted_read_only_starts_and_says_games_are_not_saved(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    with Store.open(db, catalog=CATALOG, clock=Clock()) as store:
        store.add_profile("Ann", "blue")
    probe = tmp_path / "probe.py"  # the real app, which prints what its home screen told
    probe.write_text(PROBE)
    card = tmp_path / "card"
    card.mkdir()
    run = in_own_mounts(
        'mount -t tmpfs tmpfs "$1"; mkdir "$1/smallworld-companion"; '
        'cp "$3" "$1/smallworld-companion/companion.sqlite3"; mount -o remount,ro "$1"; '
        '"$2" "$4" "$1/smallworld-companion/companion.sqlite3"',
        str(card), sys.executable, str(db), str(probe),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    assert "SCREEN home" in run.stdout
    assert "TITLE Saved games" in run.stdout
    assert f"MESSAGE The saved-games file {card}/smallworld-companion/companion.sqlite3 " \
           f"{SAID}" in run.stdout  # fmt: skip
