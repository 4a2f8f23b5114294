"""A folder the store makes survives a power cut: its parent is flushed once it is made.

A new folder's name is durable only once the folder holding it is flushed. Without that,
the first backups, each flushed into a ``backups`` folder whose own name was not, were
gone after a cut in the power-loss drill (`make drills`, `drills/power_loss.py`, fault
``dirs``). These tests record the folders flushed instead of cutting any power.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from factories import created, play_turn

from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store, private

CATALOG = load_catalog()


@pytest.fixture
def flushed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    folders: list[Path] = []
    real = private.sync_folder

    def record(folder: Path) -> None:
        folders.append(Path(folder))
        real(folder)

    monkeypatch.setattr(private, "sync_folder", record)
    return folders


def test_each_folder_made_is_flushed_into_its_parent(tmp_path: Path, flushed: list[Path]) -> None:
    private.make_folder(tmp_path / "a" / "b")
    assert flushed == [tmp_path, tmp_path / "a"]


def test_a_folder_that_exists_already_flushes_nothing(tmp_path: Path, flushed: list[Path]) -> None:
    private.make_folder(tmp_path)
    assert flushed == []


def test_the_first_backup_flushes_the_folder_that_holds_its_backups_folder(
    tmp_path: Path, flushed: list[Path]
) -> None:
    with Store.open(tmp_path / "games" / "companion.sqlite3", catalog=CATALOG) as store:
        assert tmp_path in flushed  # the database's own folder, made at open
        session = Session(CATALOG, rng=random.Random(3), store=store)
        session.begin(created(3))
        flushed.clear()
        play_turn(session)  # the end of a turn: a backup into a new `backups` folder
        assert store.backups()
        assert flushed[:1] == [tmp_path / "games"]
