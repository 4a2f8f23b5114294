"""The boards a group writes themselves: River World boards, fan boards, house maps.

A board file is one JSON document in the format of the packaged boards
(`docs/board-format.md`), saved as ``<name>.json`` in the ``boards`` folder of the user's
data directory (`companion.paths.user_data_dir()`, by default
``~/.local/share/smallworld-companion/boards``). `load_custom_boards` reads every such
file and sorts them into the usable boards and the broken files, each broken file with
the message that names it and the region at fault
(``boards/river.json: region 7: adjacent lists 9, which is not a region of this board``),
so the new-game screen can offer the first and show the second. A broken file keeps its
message as a sentence (`BrokenBoard.said`, a `companion.rules.said.Said`), which the
screen or `companion doctor` words in the table's language when it is shown; its English
(`BrokenBoard.message`) is the same whatever the language.

A game started on a custom board saves the board's document in its first event
(`GameCreated.board_doc`, from `CustomBoard.document`): the game replays the same if the
file is later edited or deleted. The rules core reads no file; this module does, here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.paths import user_data_dir
from companion.rules.errors import DataError
from companion.rules.maps import BOARD_NAMES, Board, board_document, parse_board_text
from companion.rules.said import Said, said

BOARDS_DIR_NAME = "boards"
"""The folder of custom boards inside the user's data directory."""

MAX_FILE_BYTES = 1_000_000
"""A board file larger than this is refused unread (a board is a few kilobytes)."""


def custom_boards_dir() -> Path:
    """Where a group puts its own board files (the directory may not exist yet)."""
    return user_data_dir() / BOARDS_DIR_NAME


@dataclass(frozen=True, slots=True)
class CustomBoard:
    """A board file that passed every check."""

    path: Path
    board: Board
    document: str  # the checked board, as compact JSON: what `GameCreated.board_doc` holds

    @property
    def name(self) -> str:
        return self.board.name


@dataclass(frozen=True, slots=True)
class BrokenBoard:
    """A board file that cannot be used, and why (the sentence names the file and the
    region or line at fault)."""

    path: Path
    said: Said  # worded in the table's language where it is shown
    entry: str  # "region 7", "board", "line 3", "file"

    @property
    def message(self) -> str:
        """The sentence in English."""
        return str(self.said)


@dataclass(frozen=True, slots=True)
class CustomBoards:
    """Every board file of the folder: the usable ones by name, and the broken ones."""

    boards: tuple[CustomBoard, ...] = ()
    broken: tuple[BrokenBoard, ...] = ()

    def __iter__(self) -> Iterator[CustomBoard]:
        return iter(self.boards)

    def named(self, name: str) -> CustomBoard | None:
        """The usable board of that name, ignoring case; None if there is none."""
        key = name.strip().casefold()
        return next((b for b in self.boards if b.name.casefold() == key), None)

    def for_players(self, players: int) -> tuple[CustomBoard, ...]:
        """The usable boards made for this many players."""
        return tuple(b for b in self.boards if b.board.players == players)


def _source(path: Path) -> str:
    return f"{BOARDS_DIR_NAME}/{path.name}"


def read_board_file(path: Path) -> CustomBoard:
    """One board file, checked; `DataError` names the file and the entry at fault."""
    source = _source(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise DataError(source, said("file"), said(
                "larger than {limit} bytes; not a board", limit=MAX_FILE_BYTES))
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise DataError(source, said("file"), said("not UTF-8 text ({reason})",
                                                   reason=error.reason)) from error
    except OSError as error:
        raise DataError(source, said("file"), said(
            "cannot be read: {reason}", reason=str(error.strerror or error))) from error
    document = board_document(text, source=source)
    board = parse_board_text(document, source=source)
    if board.name.strip().casefold() in BOARD_NAMES:
        raise DataError(source, said("board"), said(
            "name {name} is the name of a packaged board; give this board another",
            name=repr(board.name)))
    return CustomBoard(path, board, document)


def load_custom_boards(directory: Path | None = None) -> CustomBoards:
    """Every ``*.json`` file of `directory` (default: `custom_boards_dir()`), in name order.

    A missing folder holds no board. Two files naming the same board: the first (in file
    name order) is used and the second reported broken.
    """
    folder = custom_boards_dir() if directory is None else directory
    if not folder.is_dir():
        return CustomBoards()
    boards: list[CustomBoard] = []
    broken: list[BrokenBoard] = []
    for path in sorted(folder.glob("*.json")):
        try:
            found = read_board_file(path)
        except DataError as error:
            broken.append(BrokenBoard(path, error.said, error.entry))
            continue
        twin = next((b for b in boards if b.name.casefold() == found.name.casefold()), None)
        if twin is not None:
            taken = DataError(_source(path), said("board"), said(
                "name {name} is already used by {other}; give each board a name of its own",
                name=repr(found.name), other=_source(twin.path)))
            broken.append(BrokenBoard(path, taken.said, taken.entry))
            continue
        boards.append(found)
    return CustomBoards(tuple(boards), tuple(broken))
