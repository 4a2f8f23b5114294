"""A group's own boards: read from the data directory, checked, and saved with each game."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from factories import COLOURS, NAMES, created
from river_support import RIVER_BOARD, RIVER_FILE, river_created

from companion.boards import custom_boards_dir, load_custom_boards, read_board_file
from companion.paths import data_file, user_data_dir
from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record
from companion.rules.errors import DataError, IllegalAction
from companion.rules.events import GameCreated, Seat, to_record
from companion.rules.game import start
from companion.rules.history import replay
from companion.rules.maps import load_board
from companion.rules.river import RiverState, is_river_world
from companion.session import Session
from companion.store import Store

CATALOG = load_catalog()
SEATS = [Seat(NAMES[i], COLOURS[i]) for i in range(3)]


def boards_dir(tmp_path: Path, **files: str | dict[str, object]) -> Path:
    folder = tmp_path / "boards"
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        text = content if isinstance(content, str) else json.dumps(content)
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
    return folder


def river_doc() -> dict[str, object]:
    doc: dict[str, object] = json.loads(RIVER_FILE.read_text("utf-8"))
    return doc


def home_map() -> dict[str, object]:
    """The packaged 3-player board under a name of the group's own."""
    doc: dict[str, object] = json.loads(data_file("boards/3p.json").read_text("utf-8"))
    doc["name"] = "Home Map"
    return doc


# --- reading the folder --------------------------------------------------------------


def test_custom_boards_live_in_the_boards_folder_of_the_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert custom_boards_dir() == user_data_dir() / "boards"
    assert load_custom_boards().boards == ()  # no folder yet: no board, no error
    boards_dir(tmp_path / "smallworld-companion", river=river_doc())
    assert [b.name for b in load_custom_boards()] == [RIVER_BOARD]


def test_a_custom_board_is_offered_for_its_number_of_players(tmp_path: Path) -> None:
    found = load_custom_boards(boards_dir(tmp_path, river=river_doc(), home=home_map()))
    assert found.broken == ()
    assert sorted(b.name for b in found) == ["Home Map", RIVER_BOARD]
    assert [b.name for b in found.for_players(3)] == ["Home Map", RIVER_BOARD]
    assert found.for_players(4) == ()
    river = found.named("river test")
    assert river is not None and is_river_world(river.board)
    assert not is_river_world(found.named("Home Map").board)  # type: ignore[union-attr]


def test_a_broken_custom_board_file_is_named_with_the_region_at_fault(tmp_path: Path) -> None:
    doc = river_doc()
    regions = doc["regions"]
    assert isinstance(regions, list)
    regions[6]["adjacent"] = [2, 6, 8, 12, 21]  # region 7 names a region the board lacks
    found = load_custom_boards(boards_dir(tmp_path, broken=doc, river=river_doc()))
    assert [b.name for b in found] == [RIVER_BOARD]  # the good file is still offered
    (bad,) = found.broken
    assert bad.path.name == "broken.json" and bad.entry == "region 7"
    assert bad.message == (
        "boards/broken.json: region 7: adjacent lists 21, which is not a region of this "
        "board (ids 1..20)"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["regions"][3].update(pirate=True),
         "boards/bad.json: region 4: pirate is true but the region is a forest; pirate "
         "symbols mark rivers only"),
        (lambda d: d["regions"][2].update(features=["harbor"]),
         "boards/bad.json: region 3: a river cannot have a harbor, shipyard or temple"),
        (lambda d: d["regions"][8].update(features=["temple", "altar"]),
         "boards/bad.json: region 9: unknown feature \"altar\"; allowed: mine, magic, cavern, "
         "harbor, shipyard, temple"),
        (lambda d: d["regions"][7].update(entry=True),
         "boards/bad.json: region 8: entry is true but the region neither touches the board "
         "edge"),
        (lambda d: d.update(name="3p"),
         "boards/bad.json: board: name '3p' is the name of a packaged board"),
    ],
    ids=["pirate on land", "harbor on a river", "unknown site", "inland river entry",
         "packaged name"],
)  # fmt: skip
def test_a_river_world_mistake_is_named_with_the_region_at_fault(
    change: object, message: str, tmp_path: Path
) -> None:
    doc = river_doc()
    change(doc)  # type: ignore[operator]
    (bad,) = load_custom_boards(boards_dir(tmp_path, bad=doc)).broken
    assert bad.message.startswith(message), bad.message


def test_a_file_that_is_not_json_is_named_with_its_line(tmp_path: Path) -> None:
    folder = boards_dir(tmp_path, bad='{"schema": 1,\n "name": "x"\n "players": 3}')
    (bad,) = load_custom_boards(folder).broken
    assert bad.message.startswith("boards/bad.json: line 3: not valid JSON")
    with pytest.raises(DataError, match=r"^boards/bad\.json: line 3"):
        read_board_file(folder / "bad.json")


def test_two_files_may_not_name_the_same_board(tmp_path: Path) -> None:
    found = load_custom_boards(boards_dir(tmp_path, a=river_doc(), b=river_doc()))
    assert [b.path.name for b in found] == ["a.json"]
    (twin,) = found.broken
    assert "already used by boards/a.json" in twin.message


# --- a game on a custom board ----------------------------------------------------------


def test_a_custom_board_game_replays_the_same_after_the_file_changes_or_disappears(
    tmp_path: Path,
) -> None:
    folder = boards_dir(tmp_path, river=river_doc())
    (board,) = load_custom_boards(folder)
    s = Session(CATALOG, rng=random.Random(3), store=Store.open(tmp_path / "games.sqlite3"))
    s.new_game(SEATS, first_seat=0, board_doc=board.document)
    s.pick(0)
    s.conquer(2, 3)
    s.conquer(7, 3)
    before = s.state
    assert s.store is not None
    s.store.close()

    changed = river_doc()
    changed["regions"][6]["adjacent"] = [2]  # type: ignore[index]
    (folder / "river.json").write_text(json.dumps(changed), encoding="utf-8")
    assert load_custom_boards(folder).broken  # the file is broken now...
    (folder / "river.json").unlink()  # ...and then gone

    again = Session(CATALOG, store=Store.open(tmp_path / "games.sqlite3"))
    resumed = again.resume()
    assert resumed == before
    assert resumed is not None and resumed.map == board.board
    assert again.history is not None
    assert replay(again.history.log, CATALOG).state == before


def test_the_game_created_event_carries_the_board_and_the_event_line() -> None:
    event = river_created()
    record = json.loads(json.dumps(to_record(event)))
    assert json.loads(record["board_doc"])["name"] == RIVER_BOARD
    assert len(record["river_events"]) == 10
    assert from_record(record) == event


def test_an_old_game_created_record_reads_as_a_packaged_board_without_river_world() -> None:
    record = to_record(created(3))
    assert "river_events" not in record  # a game without River World writes none
    del record["board_doc"]
    event = from_record(record)
    assert isinstance(event, GameCreated)
    assert (event.board_doc, event.options) == (None, ())
    state = start(event, CATALOG)
    assert state.part(RiverState) is None and state.map is load_board("3p")


def test_a_custom_board_without_river_world_plays_without_events(tmp_path: Path) -> None:
    (board,) = load_custom_boards(boards_dir(tmp_path, home=home_map()))
    s = Session(CATALOG, rng=random.Random(1))
    s.new_game(SEATS, board_doc=board.document)
    assert s.state.board == "Home Map" and s.state.part(RiverState) is None
    assert s.state.map.regions == load_board("3p").regions


def test_river_world_may_be_played_by_quick_count_on_a_packaged_board() -> None:
    s = Session(CATALOG, rng=random.Random(1))
    s.new_game(SEATS, river_world=True)
    assert s.state.board == "3p" and s.state.part(RiverState) is not None
    assert len(s.state.part(RiverState).events) == 10


def test_a_broken_board_saved_in_a_game_is_refused_naming_the_region() -> None:
    doc = river_doc()
    doc["regions"][6]["adjacent"] = [2, 6, 8, 12, 21]  # type: ignore[index]
    event = dataclasses.replace(river_created(), board_doc=json.dumps(doc))
    with pytest.raises(IllegalAction, match="saved with the game: region 7: adjacent lists 21"):
        start(event, CATALOG)


def test_the_board_document_must_carry_the_game_s_board_name() -> None:
    event = dataclasses.replace(river_created(), board="Other Name")
    with pytest.raises(IllegalAction, match="named 'River Test', but the game says"):
        start(event, CATALOG)
