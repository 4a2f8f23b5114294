"""The new game's board choice: the packaged board or a group's own, and River World.

Real screens in one offscreen window, driven by taps. Every test writes its board files
into a fresh data directory (`XDG_DATA_HOME` set to the test's own folder), opens the new
game from the home screen (which reads the boards folder) and checks what the form offers,
what it says, and what the started game holds.

Set COMPANION_SHOTS to a folder to keep a screenshot of the form with the board choice.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from river_support import RIVER_BOARD, RIVER_FILE

from companion.boards import custom_boards_dir, load_custom_boards
from companion.paths import data_file
from companion.rules.events import GameCreated
from companion.rules.river import RiverState, event_line
from companion.rules.teams import RelicsState
from companion.session import Session
from companion.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RIVER_TEXT = "River Test: a River World board for 3 players, 10 turns"


@pytest.fixture
def data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A data directory of the test's own (nothing read from or left in the real one)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def write_board(name: str, doc: dict[str, Any] | str) -> Path:
    folder = custom_boards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def river_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(RIVER_FILE.read_text("utf-8"))
    return doc


def packaged_as(players: int, name: str, made_for: int | None = None) -> dict[str, Any]:
    """A packaged board under a name of the group's own (made for `made_for` players)."""
    doc: dict[str, Any] = json.loads(data_file(f"boards/{players}p.json").read_text("utf-8"))
    doc["name"] = name
    if made_for is not None:
        doc["players"] = made_for
    return doc


def screen(app: Any) -> Any:
    return app.screens[app.ctx.nav.current]


def open_form(session: Session | None = None, seats: int = 3) -> tuple[Any, Any]:
    """The app at 800x480 on a fresh new-game form with `seats` default players."""
    app = ui.app_for(session or Session(rng=random.Random(5)))
    ui.resize((800, 480))
    ui.tap(screen(app).ids.new_game)
    assert app.ctx.nav.current == "new_game"
    form = app.presenters["new_game"]
    if form.option("teams"):
        form.act("teams")
    if form.option("necromancer"):
        form.act("necromancer")
    form.reset(["Player 1", "Player 2", "Player 3"])
    form._board = None  # the choices an earlier test left on the one app's form
    form.set_option("river_world", False)
    form.set_option("river_advice", True)
    form.reset(["Player 1", "Player 2", "Player 3"])
    while len(form.seats) < seats:
        form.add_default_player()
    form.choose_first(0)
    show_top(app)
    return app, form


def show_top(app: Any) -> None:
    options = screen(app).ids.board_choice
    options.parent.parent.scroll_y = 1  # the board choice is at the top of its list
    ui.pump()


def board_button(app: Any, key: str = "board") -> Any:
    ui.pump()  # a rebuilt button is laid out first
    return ui.button(screen(app).ids.board_choice, key)


def river_button(app: Any) -> Any:
    ui.pump()
    return ui.button(screen(app).ids.river_world, "river_world")


def offered(app: Any) -> dict[str, str]:
    """Tap the board choice; the boards the dialog lists, by key (the dialog is closed;
    none when only the packaged board fits and a notice says where board files go)."""
    ui.tap(board_button(app))
    dialog = ui.dialogs()[-1]
    choices = {c["key"]: c["text"] for c in getattr(dialog, "choices", [])}
    ui.close_dialogs()
    return choices


def choose_board(app: Any, key: str) -> None:
    ui.tap(board_button(app))
    ui.tap(ui.button(ui.dialogs()[-1], key))
    assert ui.dialogs() == []
    show_top(app)


def start(app: Any) -> None:
    ui.tap(screen(app).ids.start)


def game_created(session: Session) -> GameCreated:
    assert session.history is not None
    created = session.history.log[0][0]
    assert isinstance(created, GameCreated)
    return created


# --- what is offered ----------------------------------------------------------------------


def test_a_river_world_board_file_is_offered_for_its_player_count(data_home: Path) -> None:
    write_board("river", river_doc())
    write_board("four", packaged_as(4, "Home Four"))
    app, form = open_form(seats=3)
    assert board_button(app).text == "Board: the 3-player board, packaged (tap to change)"
    assert offered(app) == {"packaged": "The 3-player board (packaged)",
                            f"custom:{RIVER_BOARD}": "River Test (River World, 10 turns)"}
    form.add_default_player()
    assert offered(app) == {"packaged": "The 4-player board (packaged)",
                            "custom:Home Four": "Home Four (your own board, 9 turns)"}


def test_with_no_board_of_its_own_the_choice_says_where_board_files_go(
    data_home: Path,
) -> None:
    app, _form = open_form(seats=3)
    assert board_button(app).text == "Board: the 3-player board, packaged"
    ui.tap(board_button(app))
    assert app.ctx.notices.last_title == "Boards"
    assert "No board of your own is made for 3 players" in app.ctx.notices.last_message
    assert str(custom_boards_dir()) in app.ctx.notices.last_message
    ui.close_dialogs()


def test_a_board_file_added_while_the_app_runs_is_offered_when_the_form_opens(
    data_home: Path,
) -> None:
    app, _form = open_form(seats=3)
    assert offered(app) == {}
    write_board("river", river_doc())
    app.ctx.nav.go("home")
    ui.pump()
    ui.tap(screen(app).ids.new_game)
    show_top(app)
    assert f"custom:{RIVER_BOARD}" in offered(app)


def test_choosing_a_river_world_board_names_it_and_its_turns(data_home: Path) -> None:
    write_board("river", river_doc())
    app, _form = open_form(seats=3)
    choose_board(app, f"custom:{RIVER_BOARD}")
    assert RIVER_TEXT in screen(app).ids.board.text
    assert board_button(app).text == "Board: River Test (tap to change)"


# --- broken files -------------------------------------------------------------------------


def test_a_broken_board_file_is_told_with_the_region_at_fault(data_home: Path) -> None:
    write_board("river", river_doc())
    broken = river_doc()
    broken["name"] = "Broken River"
    broken["regions"][6]["adjacent"] = [2, 6, 8, 12, 99]
    write_board("broken", broken)
    write_board("garbled", "{not json")
    (message_a, message_b) = [b.message for b in load_custom_boards().broken]
    assert message_a.startswith("boards/broken.json: region 7:")
    app, _form = open_form(seats=3)
    line = board_button(app, "broken_boards")
    assert line.text == "2 board files could not be used: tap to see why"
    assert ui.layout_problems(screen(app)) == []
    ui.tap(line)
    assert app.ctx.notices.last_title == "Board files not used"
    told = app.ctx.notices.last_message.split("\n")
    assert told[:2] == [message_a, message_b]
    assert "boards/garbled.json: line 1" in told[1]
    dialog = ui.dialogs()[-1]
    assert ui.layout_problems(dialog) == []
    ui.close_dialogs()
    assert f"custom:{RIVER_BOARD}" in offered(app)  # the good file is still offered


def test_one_broken_board_file_is_counted_in_the_singular(data_home: Path) -> None:
    write_board("garbled", "{not json")
    app, _form = open_form(seats=3)
    assert board_button(app, "broken_boards").text == (
        "1 board file could not be used: tap to see why")


# --- River World --------------------------------------------------------------------------


def test_a_river_world_board_turns_river_world_on_and_it_cannot_be_switched_off(
    data_home: Path,
) -> None:
    write_board("river", river_doc())
    app, _form = open_form(seats=3)
    assert river_button(app).text == "River World events: off"
    choose_board(app, f"custom:{RIVER_BOARD}")
    assert river_button(app).text == "River World events: on (a River World board)"
    assert river_button(app).kind == "primary"
    ui.tap(river_button(app))
    assert app.ctx.notices.last_title == "River World"
    assert "River Test is a River World board" in app.ctx.notices.last_message
    ui.close_dialogs()
    assert river_button(app).text == "River World events: on (a River World board)"


def test_river_world_events_are_off_by_default_on_a_packaged_board(data_home: Path) -> None:
    session = Session(rng=random.Random(8))
    app, _form = open_form(session, seats=3)
    start(app)
    assert app.ctx.nav.current == "table"
    assert session.state.map.name == "3p" and session.state.part(RiverState) is None
    assert game_created(session).board_doc is None


def test_river_world_events_can_be_switched_on_for_a_packaged_board(data_home: Path) -> None:
    session = Session(rng=random.Random(8))
    app, _form = open_form(session, seats=4)
    ui.tap(river_button(app))
    assert river_button(app).text == ("River World events: on (harbors and pirate ships are "
                                      "counted by hand on the scoring screen)")
    assert ui.layout_problems(screen(app)) == []
    start(app)
    assert app.ctx.nav.current == "table"
    state = session.state
    assert state.map.name == "4p" and state.part(RiverState) is not None
    assert len(event_line(game_created(session))) == 9  # one Event marker a turn
    assert game_created(session).board_doc is None


def test_river_world_leaves_flying_out_of_the_decks_unless_the_table_keeps_it(
    data_home: Path,
) -> None:
    app, form = open_form(Session(rng=random.Random(8)), seats=3)
    # no River World yet
    assert [a["key"] for a in form.options_of("river_world")] == ["river_world"]
    ui.tap(river_button(app))
    advice = ui.button(screen(app).ids.river_world, "river_advice")
    assert advice.text == "Flying: left out of the decks (River World advises it)"
    ui.tap(advice)
    ui.pump()
    assert ui.button(screen(app).ids.river_world, "river_advice").text == "Flying: in the decks"
    start(app)
    assert game_created(app.session).left_out == ()
    assert "Flying" in game_created(app.session).powers

    app, form = open_form(Session(rng=random.Random(8)), seats=3)
    ui.tap(river_button(app))
    start(app)
    assert game_created(app.session).left_out == ("Flying",)
    assert "Flying" not in game_created(app.session).powers


def test_a_board_with_more_turns_than_river_worlds_event_markers_is_refused(
    data_home: Path,
) -> None:
    long_river = river_doc()
    long_river["name"] = "Long River"
    long_river["turns"] = 12
    write_board("long", long_river)
    session = Session(rng=random.Random(8))
    app, _form = open_form(session, seats=3)
    choose_board(app, "custom:Long River")
    start(app)
    assert app.ctx.nav.current == "new_game" and session.history is None
    assert app.ctx.notices.last_title == "The game cannot start"
    assert "11 Event markers" in app.ctx.notices.last_message
    ui.close_dialogs()


# --- starting -----------------------------------------------------------------------------


def test_starting_on_a_custom_board_saves_its_document_in_the_game(
    data_home: Path, tmp_path: Path,
) -> None:
    write_board("river", river_doc())
    (board,) = load_custom_boards().boards
    session = Session(rng=random.Random(8), store=Store.open(tmp_path / "games.sqlite3"))
    app, _form = open_form(session, seats=3)
    choose_board(app, f"custom:{RIVER_BOARD}")
    start(app)
    assert app.ctx.nav.current == "table"
    state = session.state
    assert state.map.name == RIVER_BOARD and state.track.turns == 10
    assert state.part(RiverState) is not None
    assert game_created(session).board_doc == board.document
    assert session.store is not None and session.game_id is not None
    saved = session.store.load_log(session.game_id)[0][0]
    assert isinstance(saved, GameCreated) and saved.board_doc == board.document


def test_a_chosen_board_that_no_longer_fits_the_seats_falls_back_to_the_packaged_board(
    data_home: Path,
) -> None:
    write_board("river", river_doc())
    session = Session(rng=random.Random(8))
    app, form = open_form(session, seats=3)
    ui.tap(river_button(app))  # on for the packaged board, then River Test chosen
    choose_board(app, f"custom:{RIVER_BOARD}")
    form.add_default_player()
    text = screen(app).ids.board.text
    assert text.startswith("River Test is a board for 3 players, not 4: back to the "
                           "packaged board. 4 players: the 4-player board, 9 turns.")
    assert board_button(app).text == "Board: the 4-player board, packaged"
    assert river_button(app).text == "River World events: off"
    start(app)
    assert session.state.map.name == "4p" and session.state.part(RiverState) is None
    assert game_created(session).board_doc is None


def test_the_fallback_is_told_until_the_seats_change_again(data_home: Path) -> None:
    write_board("river", river_doc())
    app, form = open_form(seats=3)
    choose_board(app, f"custom:{RIVER_BOARD}")
    form.add_default_player()
    assert "River Test is a board for 3 players" in form.board_text
    form.remove_player(3)
    assert form.board_text.startswith("3 players: the 3-player board, 10 turns.")
    assert board_button(app).text.startswith("Board: the 3-player board, packaged")


def test_a_necromancer_game_is_offered_the_boards_for_one_player_fewer(
    data_home: Path,
) -> None:
    write_board("river", river_doc())
    session = Session(rng=random.Random(8))
    app, form = open_form(session, seats=4)
    assert offered(app) == {}  # no board of the group's is made for 4
    form.act("necromancer")
    show_top(app)
    assert offered(app)["packaged"] == "The 3-player board (packaged)"
    choose_board(app, f"custom:{RIVER_BOARD}")
    assert (f"{RIVER_TEXT}. 4 players with the Necromancer."
            in screen(app).ids.board.text)
    start(app)  # the Island needs the board's one Lake: this board has none
    assert app.ctx.nav.current == "new_game" and session.history is None
    assert "exactly one Lake" in app.ctx.notices.last_message
    ui.close_dialogs()
    form.act("necromancer")
    assert "River Test is a board for 3 players, not 4" in form.board_text


def test_a_team_game_may_play_on_a_groups_board_made_for_six(data_home: Path) -> None:
    write_board("six", packaged_as(5, "Big Six", made_for=6))
    write_board("river", river_doc())
    session = Session(rng=random.Random(8))
    app, form = open_form(session, seats=3)
    form.act("teams")
    for _ in range(3):
        form.add_default_player()
    show_top(app)
    assert offered(app) == {"packaged": "The 5-player board (packaged)",
                            "custom:Big Six": "Big Six (your own board, 8 turns)"}
    choose_board(app, "custom:Big Six")
    assert form.board_text.startswith("Big Six: a board of your own for 6 players, 8 turns. "
                                      "6 players in 3 teams, partners opposite.")
    start(app)
    assert app.ctx.nav.current == "table"
    assert session.state.map.name == "Big Six" and session.state.part(RelicsState) is not None


# --- the expansions' notice ---------------------------------------------------------------


def test_adding_an_expansion_says_its_races_and_powers_are_scored_from_the_map(
    data_home: Path,
) -> None:
    app, form = open_form(seats=3)
    form.toggle_expansion("cursed")
    assert app.ctx.notices.last_title == "Expansion added"
    assert "scores them from the map" in app.ctx.notices.last_message
    assert "by hand on the scoring screen" not in app.ctx.notices.last_message
    ui.close_dialogs()
    form.toggle_expansion("cursed")


# --- the layout ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(ui.SIZES))
def test_the_board_choice_fits_the_screen_at_every_size(data_home: Path, size: str) -> None:
    write_board("river", river_doc())
    write_board("garbled", "{not json")
    app, form = open_form(seats=4)
    ui.tap(river_button(app))
    form.remove_player(3)
    choose_board(app, f"custom:{RIVER_BOARD}")
    ui.resize(ui.SIZES[size])
    show_top(app)
    assert ui.window().size == ui.SIZES[size]
    assert ui.layout_problems(screen(app)) == []
    folder = os.environ.get("COMPANION_SHOTS")
    if folder and size == "800x480":  # this window's picture cannot grow past its first size
        ui.screenshot(Path(folder) / f"new_game_boards_{size}.png")
    ui.tap(board_button(app))
    assert ui.layout_problems(ui.dialogs()[-1]) == []
    ui.close_dialogs()
    ui.tap(board_button(app, "broken_boards"))
    assert ui.layout_problems(ui.dialogs()[-1]) == []
    ui.close_dialogs()
    ui.resize((800, 480))


def test_the_next_game_of_six_in_teams_keeps_all_six_names(data_home: Path) -> None:
    _app, form = open_form(seats=3)
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Fay"]
    form.act("teams")
    form.reset(names)  # what the game end's "New game" does
    assert [seat["name"] for seat in form.seats] == names
    form.reset(names[:5])
    form.act("teams")
    form.reset(names)  # without teams or the Necromancer a game seats five
    assert [seat["name"] for seat in form.seats] == names[:5]


def test_expansions_never_played_together_are_refused_by_name(data_home: Path) -> None:
    """The rules keep Necromancer Island and team play apart (`expansions.apart`): the
    form refuses to switch one on while the other is, naming the other in the language
    spoken, and changes nothing; switching off is never refused."""
    from companion import i18n

    app, form = open_form(seats=4)
    form.act("necromancer")
    form.act("teams")
    assert form.option("necromancer") and not form.option("teams")
    assert app.ctx.notices.last_message == (
        "Team play is never played with Necromancer Island: switch Necromancer Island off "
        "first.")
    ui.close_dialogs()
    form.act("necromancer")  # off: allowed
    form.act("teams")
    assert form.option("teams") and not form.option("necromancer")
    try:
        i18n.use("fr")
        form.act("necromancer")
        assert form.option("teams") and not form.option("necromancer")
        said = app.ctx.notices.last_message
        assert "Necromancer" not in said and "Team play" not in said and "never" not in said
        ui.close_dialogs()
    finally:
        i18n.use("en")
        form.act("teams")
