"""The records port: what the screens may ask of the saved games, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from factories import created

from companion.records import GameRecord, Profile, Records, RecordsError, SeatResult
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.store.errors import ProfileError, StoreError, StoreWriteError


def test_every_store_error_is_a_records_error() -> None:
    assert issubclass(StoreError, RecordsError)
    assert isinstance(StoreWriteError("full", "full"), RecordsError)
    assert isinstance(ProfileError("taken"), RecordsError)


def test_the_session_hands_its_store_over_as_its_records(tmp_path: Path) -> None:
    with Store.open(tmp_path / "companion.sqlite3") as store:
        session = Session(load_catalog(), store=store)
        records: Records | None = session.records
        assert records is store
        added = records.add_profile("Ann", "blue")
        assert isinstance(added, Profile)  # the port's own value types
        assert records.profiles() == [added]
        with pytest.raises(RecordsError, match="already a player"):
            records.add_profile("ann", "red")  # a name taken, whatever its case
        assert records.profiles() == [added]
        session.begin(created(3))
        (game,) = records.games()
        assert isinstance(game, GameRecord) and isinstance(game.seats[0], SeatResult)
    assert Session(load_catalog()).records is None


def test_corrections_are_saved_through_the_session(tmp_path: Path) -> None:
    from companion.rules.corrections import correctable

    with Store.open(tmp_path / "companion.sqlite3") as store:
        session = Session(load_catalog(), store=store)
        chosen = correctable(session.catalog)[0]
        value = chosen.value + 1
        catalog = session.save_corrections([(chosen.kind, chosen.name, chosen.field, value)])
        assert session.catalog is catalog
        again = next(c for c in correctable(catalog)
                     if (c.kind, c.name, c.field) == (chosen.kind, chosen.name, chosen.field))
        assert again.value == value
        assert store.setting("catalog.corrections") is not None
    with pytest.raises(RecordsError):
        Session(load_catalog()).save_corrections([])
