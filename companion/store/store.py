"""`Store`: the saved games, as the session and the screens use them.

Concept: one `Store` owns the one writer connection to the saved-games file, on the thread
that opened it (the UI's main thread). It is the truth behind the game on screen: the
session records a step with the rules, saves it here with `append_step`, and only once
that returns shows the new state. If the save raises `StoreWriteError`, nothing was
written, and the session must drop the step and keep showing what is on disk.

Invariants:
- one app per file: `open` locks the file (`companion.store.lock`) before its first read,
  or is handed the lock its caller took before reading anything (the app, which reads
  the Resume summary first: `companion.store.summary`), and `close` lets it go; a second
  app gets `DatabaseInUse`;
- one intent = one step = one transaction (`append_step`): after a crash or a pulled plug
  a step is there whole or not at all, and every step whose `append_step` returned is there;
- a step is saved only as the game's next one (`StepConflict` otherwise), so the log
  always replays, even with two sessions on one file: the store remembers each game's
  last step number (`_last_step`) so a save writes only the step's rows, and a number
  remembered wrong (another store saved in between) is caught by the events' primary
  key, refused, and forgotten (read again from the log at the next save);
- a saved step writes one B-tree (the log's); the game's row is written only when the
  store starts saving to a game and at the end of a turn (a step with `TurnEnded`), in
  the step's own transaction: what it says of the log is read from the log;
- every read raises the store's own errors (`StoreReadError` for any SQLite error), never
  a bare ``sqlite3`` exception;
- the state of a game is `replay(load_log(game_id))`: the log holds everything, undo
  included, so a resumed game is exactly the game that was left, undo history and all;
  the replay starts from the snapshot saved with the latest end of turn
  (`save_snapshot`) only when it belongs to that log and to these rules
  (`companion.store.snapshots`), and gives the same history;
- the game in progress is replayed once at start: the history `open`'s check replayed
  (`replay_game_in_progress`) is kept, with its game id and its number of steps, and
  `load_history` hands it back only for that game while the log still has that many
  steps (steps are only ever appended, never rewritten, so the same game with the same
  number of steps is the same log); any other game, or one more step, is replayed as
  before. The history kept is the one replayed on the connection the store uses (not on
  a copy checked and closed during recovery), and it is let go when a step is saved to
  its game, a new game is started, its game is finished, or the store is closed;
- no backup is taken while a write is open; a damaged file is set aside, never deleted;
- the saved games are private: every file the store makes is 0600, in a folder it makes
  0700, and files an older release left readable are tightened at open
  (`companion.store.private`).
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from types import TracebackType
from typing import Any, ParamSpec, TypeVar

from companion.records import ComboTally, GameRecord, GameSummary, PlayerStats, Profile
from companion.rules.catalog import Catalog, load_catalog
from companion.rules.errors import RulesError
from companion.rules.events import Event, GameCreated, TurnEnded
from companion.rules.history import History, Step, replay
from companion.rules.said import Said
from companion.rules.standings import Standings
from companion.rules.state import GameState
from companion.sentence import N_, Sentence, Value
from companion.store import backup as backups_
from companion.store import events, games, private, profiles, settings, snapshots, stats
from companion.store import export as export_
from companion.store.database import (
    DEFAULT_TIMEOUT,
    fsync_dir,
    open_error,
    read_error,
    to_text,
    utc_now,
    write_transaction,
)
from companion.store.database import quick_check as _quick_check
from companion.store.errors import (
    StoreError,
    StoreOpenError,
    UnreadableGame,
)
from companion.store.lock import DatabaseLock
from companion.store.migrations import bring_up_to_date
from companion.store.recovery import Lost, Restored, open_or_recover
from companion.store.summary import ResumeSummary, from_connection

Clock = Callable[[], datetime]
P = ParamSpec("P")
R = TypeVar("R")


def _reads(method: Callable[P, R]) -> Callable[P, R]:
    """A store method whose SQLite errors reach the caller as `StoreReadError`."""

    @functools.wraps(method)
    def reading(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as error:
            store = args[0]
            path = store.path if isinstance(store, Store) else Path("?")
            raise read_error(error, path) from error

    return reading


@dataclass(frozen=True, slots=True)
class Replayed:
    """The game in progress as the open check replayed it: `history` is the replay of the
    first `steps` steps of game `game_id`'s log, read on `conn`."""

    conn: sqlite3.Connection
    game_id: int
    steps: int
    history: History


def replay_game_in_progress(
    conn: sqlite3.Connection, catalog: Catalog
) -> tuple[list[str], Replayed | None]:
    """What stops the unfinished game from being resumed (its log cannot be read back or
    the rules refuse to replay it), and the game replayed when nothing does.

    ([], None) when there is no unfinished game; (problems, None) when it does not
    replay; ([], `Replayed`) when it does. SQLite errors are passed on (the caller
    decides whether they are damage).
    """
    game_id = games.unfinished(conn)
    if game_id is None:
        return [], None
    try:
        log = events.load(conn, game_id)  # steps numbered 1..n: len(log) is the last
        history = replay(log, catalog, snapshot=snapshots.read(conn, game_id, log, catalog))
    except StoreError as error:
        return [str(error)], None
    except RulesError as error:
        return [f"game {game_id} cannot be replayed: {error}"], None
    return [], Replayed(conn, game_id, len(log), history)


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What was done at start about a damaged saved-games file, or about steps the newest
    backup held that the file had lost; `message` says it plainly."""

    damaged: Path | None  # where the file was moved (never deleted); None: not moved
    problems: tuple[str, ...]
    backup: Path | None  # the backup restored (or, when `kept`, found to hold more)
    backup_taken: datetime | None
    game_id: int | None  # the unfinished game in what was restored, if any
    game: str | None  # that game's state in words
    message: str
    lost: tuple[Lost, ...] = ()  # games the newest backup held more steps of
    kept: bool = False  # loss found but the file kept (it also held what the backup lacks)
    sentence: Sentence | None = None  # `message` to word in the table's language (its `said`)

    @property
    def said(self) -> Said:
        """`message` as a sentence for the table's language (`companion.ui.wording.say`)."""
        return (self.sentence or Sentence(self.message)).said


class Store:
    """The saved games: event log, games, finished-game history, profiles, settings."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        *,
        backups: Path,
        keep_backups: int,
        clock: Clock,
        catalog: Catalog | None,
    ) -> None:
        self._conn = conn
        self.path = path
        self.backups_dir = backups
        self.keep_backups = keep_backups
        self._clock = clock
        self._catalog = catalog
        self.recovery: RecoveryReport | None = None
        self.migrated: list[str] = []
        self._lock: DatabaseLock | None = None
        self._last_step: dict[int, int] = {}  # game id -> the last step this store saved
        self._playing: int | None = None  # the game this store last wrote the row of
        self._replayed: Replayed | None = None  # the game in progress as `open` replayed it

    # -- opening and closing ------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: Path,
        *,
        backups: Path | None = None,
        keep_backups: int = backups_.DEFAULT_KEEP,
        timeout: float = DEFAULT_TIMEOUT,
        recover: bool = True,
        clock: Clock | None = None,
        catalog: Catalog | None = None,
        exclusive: bool = True,
        lock: DatabaseLock | None = None,
    ) -> Store:
        """Open the saved games at `path`, creating or migrating the file as needed.

        With `exclusive` (the default), the file is first locked for this process (see
        `companion.store.lock`): a second app on it raises `DatabaseInUse`, naming the
        process that holds it. Tools that only read (the export command) pass False.
        `lock`: the lock on `path` the caller took already (the app takes it before its
        window opens, and opens the store after its first frame); the store holds it
        from then on and releases it on `close` (or when opening fails).

        The file is checked: ``quick_check``, then the game in progress must be read back
        and replayed. A damaged one is set aside and the newest backup from `backups`
        (default: a ``backups`` folder beside the file) that passes the same checks is
        restored, and `recovery` then says so in words. With ``recover=False`` a file
        that SQLite finds damaged raises `StoreOpenError` instead and is left alone (for
        tools such as the export command).
        """
        path = Path(path)
        backups = Path(backups) if backups is not None else path.parent / "backups"
        clock = clock or utc_now
        own = private.is_own_folder(path.parent)  # the app's data folder: tightened too
        try:
            private.make_folder(path.parent, tighten_existing=own)  # 0700 when made here
        except OSError as error:
            if lock is not None:
                lock.release()
            raise open_error(error, path) from error
        if lock is None and exclusive:
            lock = DatabaseLock.acquire(path)
        # files an older release left readable by every account are made private
        private.tighten_files(path.parent, path.name)
        if backups.is_dir():
            private.make_folder(backups, tighten_existing=own and backups.parent == path.parent)
            private.tighten_files(backups, f"{path.stem}-")
        try:
            store = cls._open_locked(path, backups, keep_backups=keep_backups,
                                     timeout=timeout, recover=recover, clock=clock,
                                     catalog=catalog)  # fmt: skip
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        store._lock = lock
        return store

    @classmethod
    def _open_locked(
        cls,
        path: Path,
        backups: Path,
        *,
        keep_backups: int,
        timeout: float,
        recover: bool,
        clock: Clock,
        catalog: Catalog | None,
    ) -> Store:
        is_new = not path.exists()
        migrated: list[str] = []
        the_catalog: list[Catalog] = [] if catalog is None else [catalog]

        replayed: list[Replayed] = []  # every game in progress `verify` replayed

        def verify(conn: sqlite3.Connection) -> list[str]:
            migrated[:] = bring_up_to_date(conn)
            if not the_catalog:
                the_catalog.append(load_catalog())
            problems, found = replay_game_in_progress(conn, the_catalog[0])
            if found is not None:
                replayed.append(found)
            return problems

        conn, restored = open_or_recover(path, backups, timeout=timeout, recover=recover,
                                         when=clock(), verify=verify)  # fmt: skip
        # Only a replay on the connection kept describes the file in use: recovery checks
        # copies on connections it closes (a backup that held more, then reopened).
        kept = next((r for r in replayed if r.conn is conn), None)
        replayed.clear()
        try:  # a file already checked was migrated by `verify`: nothing to do then
            late = bring_up_to_date(conn)
            migrated.extend(late)
            if late:  # not checked by `verify` after all: replay when asked
                kept = None
        except sqlite3.Error as error:
            conn.close()
            raise StoreOpenError(N_(
                "The saved-games file {path} could not be brought up to date ({error}). "
                "Nothing was changed; check that the file and its folder can be written."),
                path=str(path), error=str(error)) from error
        except BaseException:
            conn.close()
            raise
        if is_new:
            fsync_dir(path.parent)  # SQLite syncs the folder for its -wal file, not the file
        store = cls(conn, path, backups=backups, keep_backups=keep_backups, clock=clock,
                    catalog=the_catalog[0] if the_catalog else None)  # fmt: skip
        store.migrated = migrated
        store._replayed = kept
        if restored is not None:
            store.recovery = store._report(restored)
        return store

    def close(self) -> None:
        """Close the connection (SQLite checkpoints the write-ahead log into the file) and
        let another app use the file."""
        self.forget_replay()
        try:
            self._conn.close()
        finally:
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        """The writer connection (for checks and benchmarks; write through the methods)."""
        return self._conn

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = load_catalog()
        return self._catalog

    @_reads
    def quick_check(self) -> list[str]:
        """What ``PRAGMA quick_check`` finds wrong with the file (empty when sound)."""
        return _quick_check(self._conn)

    def _now(self) -> str:
        return to_text(self._clock())

    # -- the event log ------------------------------------------------------------------
    def new_game(
        self, first_step: Sequence[Event], *, players: Mapping[int, int] | None = None
    ) -> int:
        """Save a new game whose first step is `first_step`; return its id.

        `players` links seats to profile ids; other seats are linked to the profile of the
        same name, if any. Raises StoreWriteError (nothing written) when the file refuses.
        """
        step = tuple(first_step)
        if not step or not isinstance(step[0], GameCreated):
            raise ValueError("a game's first step must start with GameCreated")
        self.forget_replay()  # the game in progress is no longer the one to resume
        with write_transaction(self._conn, doing="the new game", path=self.path):
            game_id = games.create(self._conn, step, self._now(), players)
        self._last_step[game_id] = 1
        self._playing = game_id
        return game_id

    def append_step(
        self, game_id: int, step: Sequence[Event], *, number: int | None = None
    ) -> int:
        """Save one step (all the events of one intent) in one transaction; return its number.

        `number` is the number the step must get: the steps the caller has seen, plus one
        (the session always passes it). A step whose number is not the next one on disk is
        refused with `StepConflict`: another session saved steps in between, and saving
        this one from a stale view of the game would leave a log that does not replay.

        When this returns, the step is on the card. When it raises StoreWriteError (disk
        full, read-only file, locked, a conflict...), nothing of the step was written.

        Only the step's rows are written (one page of the write-ahead log for a step of
        a few events), except that the game's row is written too (`games.touch`) for the
        first step this store saves to a game and for a step that ends a turn.
        """
        events_ = tuple(step)
        at = self._now()
        last = self._last_step.pop(game_id, None)  # forgotten unless this save succeeds
        self.forget_replay(game_id)  # its log grows: never handed out again
        with write_transaction(self._conn, doing="the last action", path=self.path):
            saved = events.append(self._conn, game_id, events_, at, number=number, last=last)
            if self._playing != game_id or any(isinstance(e, TurnEnded) for e in events_):
                games.touch(self._conn, game_id, saved, at)
        self._last_step[game_id] = saved
        self._playing = game_id
        return saved

    @_reads
    def save_snapshot(self, game_id: int, step: int, before: GameState) -> None:
        """Keep `before`, the state before step `step` (a saved end of turn), as the
        snapshot that shortens the game's replay (`companion.store.snapshots`); nothing
        for a finished game. Raises `StoreWriteError` (nothing saved: the game is whole
        without it)."""
        with write_transaction(self._conn, doing="the turn's snapshot", path=self.path):
            snapshots.save(self._conn, game_id, step, before)

    @_reads
    def load_log(self, game_id: int) -> list[Step]:
        """Every step of the game in order, undo steps included."""
        return events.load(self._conn, game_id)

    @_reads
    def load_history(self, game_id: int) -> History:
        """The game's history, rebuilt by replaying its log (for resuming it).

        The game in progress that `open` replayed to check it is not replayed again: that
        history is handed back while its log has the same number of steps (one look-up).
        """
        kept = self._replayed
        if kept is not None and kept.game_id == game_id \
                and events.count(self._conn, game_id) == kept.steps:
            return kept.history
        try:
            log = self.load_log(game_id)
            return replay(log, self.catalog,
                          snapshot=snapshots.read(self._conn, game_id, log, self.catalog))
        except RulesError as error:
            raise UnreadableGame(
                N_("game {game} cannot be replayed by this release: {error}"), game=game_id,
                error=error.said) from error

    def forget_replay(self, game_id: int | None = None) -> None:
        """Let go of the game in progress `open` replayed (only if it is `game_id`'s, when
        given): the next `load_history` of it replays its log (frees that history's
        states; the bench measures without it)."""
        if game_id is None or (self._replayed is not None
                               and self._replayed.game_id == game_id):
            self._replayed = None

    @_reads
    def steps(self, game_id: int) -> int:
        """The number of the game's last saved step."""
        return events.count(self._conn, game_id)

    @_reads
    def unfinished_game(self) -> int | None:
        """The most recently played game that is not finished, to resume at start."""
        return games.unfinished(self._conn)

    @_reads
    def resume_summary(self) -> ResumeSummary | None:
        """Who plays `unfinished_game` and where it stands, from its row (no replay);
        None when there is no such game or it has not been saved since migration m003."""
        return from_connection(self._conn)

    # -- games and history --------------------------------------------------------------
    @_reads
    def game(self, game_id: int) -> GameRecord:
        return games.record(self._conn, game_id)

    @_reads
    def games(self, *, finished: bool | None = None) -> list[GameRecord]:
        """Saved games, newest first; only finished or unfinished ones if asked."""
        if finished is None:
            return games.records(self._conn)
        where = "finished_at IS NOT NULL" if finished else "finished_at IS NULL"
        return games.records(self._conn, where=where)

    @_reads
    def finish_game(self, game_id: int, standings: Standings) -> GameSummary:
        """Close a game that is over and save its summary; return the summary.

        `standings` are the rules' `final_standings` (with the race tokens counted when
        a tie for first needed them). Everything else is derived from the log. Raises
        StoreError when the game is not over or the standings do not match it.
        """
        history = self.load_history(game_id)
        games.check_standings(history, standings)
        with write_transaction(self._conn, doing="the finished game", path=self.path):
            games.finish(self._conn, game_id, history, standings, self._now())
            snapshots.drop(self._conn, game_id)
        self._last_step.pop(game_id, None)
        self.forget_replay(game_id)
        return self.game_summary(game_id)

    @_reads
    def game_summary(self, game_id: int) -> GameSummary:
        """The history of a finished game."""
        return games.summary(self._conn, game_id)

    @_reads
    def finished_games(self) -> list[GameSummary]:
        """The history of every finished game, newest first."""
        return [self.game_summary(g.id) for g in self.games(finished=True)]

    @_reads
    def export(self, game_id: int, fmt: str, tz: tzinfo | None = None) -> str:
        """A finished game as ``json``, ``csv`` or ``bgstats`` text."""
        return export_.export(self.game_summary(game_id), fmt, tz)

    # -- backups ------------------------------------------------------------------------
    def backup(self) -> Path | None:
        """Take a backup now (at the end of every game turn); keep the newest few.

        Returns None, doing nothing, while a write is open. Raises StoreWriteError when
        the backup cannot be written (the game itself is unaffected).
        """
        return backups_.make_backup(self._conn, self.backups_dir, self.path.stem,
                                    keep=self.keep_backups, when=self._clock())  # fmt: skip

    def backups(self) -> list[Path]:
        """The backups of this file, oldest first."""
        return backups_.list_backups(self.backups_dir, self.path.stem)

    # -- profiles -----------------------------------------------------------------------
    def add_profile(self, name: str, colour: str, pin: str | None = None) -> Profile:
        with write_transaction(self._conn, doing="the new player", path=self.path):
            profile_id = profiles.add(self._conn, name, colour, pin, self._now())
        return self.profile(profile_id)

    @_reads
    def profiles(self) -> list[Profile]:
        return profiles.all_profiles(self._conn)

    @_reads
    def profile(self, profile_id: int) -> Profile:
        return profiles.get(self._conn, profile_id)

    def update_profile(
        self, profile_id: int, *, name: str | None = None, colour: str | None = None
    ) -> Profile:
        with write_transaction(self._conn, doing="the player's change", path=self.path):
            profiles.update(self._conn, profile_id, name=name, colour=colour)
        return self.profile(profile_id)

    def set_pin(self, profile_id: int, pin: str | None) -> None:
        """Set, change, or with None remove, a player's PIN."""
        with write_transaction(self._conn, doing="the PIN", path=self.path):
            profiles.set_pin(self._conn, profile_id, pin)

    @_reads
    def check_pin(self, profile_id: int, pin: str) -> bool:
        return profiles.check_pin(self._conn, profile_id, pin)

    def remove_profile(self, profile_id: int) -> None:
        """Remove a profile; the games it played keep their players' names."""
        with write_transaction(self._conn, doing="the removal of the player", path=self.path):
            profiles.remove(self._conn, profile_id)

    # -- settings -----------------------------------------------------------------------
    @_reads
    def setting(self, key: str, default: Any = None) -> Any:
        return settings.get(self._conn, key, default)

    def set_setting(self, key: str, value: Any) -> None:
        with write_transaction(self._conn, doing="the setting", path=self.path):
            settings.put(self._conn, key, value, self._now())

    def delete_setting(self, key: str) -> None:
        with write_transaction(self._conn, doing="the setting", path=self.path):
            settings.delete(self._conn, key)

    @_reads
    def settings(self) -> dict[str, Any]:
        return settings.all_settings(self._conn)

    # -- stats --------------------------------------------------------------------------
    @_reads
    def player_stats(self, profile_id: int) -> PlayerStats:
        return stats.player_stats(self._conn, profile_id)

    @_reads
    def all_player_stats(self) -> list[PlayerStats]:
        return [self.player_stats(p.id) for p in self.profiles()]

    @_reads
    def combo_stats(self) -> list[ComboTally]:
        return stats.combo_stats(self._conn)

    # -- recovery report ----------------------------------------------------------------
    def _report(self, restored: Restored) -> RecoveryReport:
        game_id: int | None = None
        game: str | None = None
        back: Sentence | None = None
        if restored.backup is not None and not restored.kept:
            try:
                game_id = self.unfinished_game()
                if game_id is not None:
                    history = self.load_history(game_id)
                    game, back = describe(history), game_back(history)
            except StoreError:
                game = back = None
        sentence = recovery_message(restored, back)
        return RecoveryReport(
            damaged=restored.damaged,
            problems=restored.problems,
            backup=restored.backup,
            backup_taken=restored.backup_taken,
            game_id=game_id,
            game=game,
            message=str(sentence),
            lost=restored.lost,
            kept=restored.kept,
            sentence=sentence,
        )


PHASES = {
    "pick a combo": N_("pick a combo"),
    "conquer": N_("conquer"),
    "redeploy": N_("redeploy"),
    "score": N_("score"),
    "end the turn": N_("end the turn"),
    "game over": N_("game over"),
}
"""The turn's phases as the recovery message names them (`Phase`'s values), marked."""

MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"),
          N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))
"""The months as a backup's date names them (``%b``, in English)."""


def _who(names: Sequence[str]) -> Value:
    """The players, "Ann, Bob and Cy" (one sentence: a language joins them its way)."""
    if len(names) == 1:
        return names[0]
    return Sentence(N_("{names} and {last}"), names=", ".join(names[:-1]), last=names[-1])


def describe(history: History) -> str:
    """Where a game stands, in words: whose turn it is, at which turn and phase."""
    state = history.state
    names = [p.name for p in state.players]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    track = state.track
    if state.is_over:
        return f"the game of {who} is back at its end, after the final turn"
    return (
        f"the game of {who} is back at turn {track.turn} of {track.turns}, "
        f"{state.current.name}'s turn ({track.phase.value})"
    )


def game_back(history: History) -> Sentence:
    """`describe` as a sentence of its own ("The game of ... is back at ..."), to word."""
    state = history.state
    who = _who([p.name for p in state.players])
    if state.is_over:
        return Sentence(N_("The game of {who} is back at its end, after the final turn."),
                        who=who)
    track = state.track
    phase = track.phase.value
    return Sentence(
        N_("The game of {who} is back at turn {turn} of {turns}, {player}'s turn ({phase})."),
        who=who, turn=track.turn, turns=track.turns, player=state.current.name,
        phase=Sentence(PHASES[phase]) if phase in PHASES else phase)


def _date(when: datetime) -> tuple[Value, str]:
    """A backup's date ("02 Nov 2026", its month a word to translate) and time ("10:05"),
    local."""
    local = when.astimezone()
    day = Sentence(N_("{day} {month} {year}"), day=f"{local:%d}",
                   month=Sentence(MONTHS[local.month - 1]), year=local.year)
    return day, f"{local:%H:%M}"


def loss_message(restored: Restored, game: Sentence | None) -> Sentence:
    """The plain message shown at start when the newest backup held more than the file."""
    games_ = tuple(
        Sentence(N_("game {game} ({missing} of {steps} steps missing)"), game=loss.game_id,
                 missing=loss.in_backup - loss.in_file, steps=loss.in_backup)
        if loss.in_file else Sentence(N_("game {game} (missing entirely)"), game=loss.game_id)
        for loss in restored.lost
    )
    if restored.backup_taken:
        date, time = _date(restored.backup_taken)
        head = Sentence(N_(
            "Some of what was played was missing from the saved games, although the newest "
            "backup taken on {date} at {time} still held it: {games}."),
            date=date, time=time, games=games_)
    else:
        head = Sentence(N_(
            "Some of what was played was missing from the saved games, although the newest "
            "backup still held it: {games}."), games=games_)
    if not restored.kept and restored.damaged is None and restored.backup is not None:
        if game is None:  # the file was gone: the backup is in its place
            return Sentence(N_(
                "{head} That backup was restored: the saved-games file was not there any "
                "more. Anything played after that backup is lost: play it again from there."),
                head=head)
        return Sentence(N_(
            "{head} That backup was restored: the saved-games file was not there any more. "
            "{game} Anything played after that backup is lost: play it again from there."),
            head=head, game=game)
    if restored.kept or restored.damaged is None:
        if restored.backup is None:
            return Sentence(N_(
                "{head} The saved-games file also holds things that backup does not, so both "
                "were kept as they are: the file is in use, and the backup is the backup."),
                head=head)
        return Sentence(N_(
            "{head} The saved-games file also holds things that backup does not, so both "
            "were kept as they are: the file is in use, and the backup is {name}."),
            head=head, name=restored.backup.name)
    if game is None:
        return Sentence(N_(
            "{head} That backup was restored, and the shorter file set aside as {damaged} "
            "(not deleted). Anything played after that backup is lost: play it again from "
            "there."), head=head, damaged=restored.damaged.name)
    return Sentence(N_(
        "{head} That backup was restored, and the shorter file set aside as {damaged} "
        "(not deleted). {game} Anything played after that backup is lost: play it again "
        "from there."), head=head, damaged=restored.damaged.name, game=game)


def recovery_message(restored: Restored, game: Sentence | None) -> Sentence:
    """The plain message shown at start after a damaged file was set aside, or after the
    newest backup was found to hold more than the file (see `loss_message`); `game`: where
    the game in progress of the backup restored is back (`game_back`), if any."""
    if restored.lost or restored.damaged is None:
        return loss_message(restored, game)
    head = Sentence(N_(
        "The saved games could not be read: the file was damaged. It was set aside as "
        "{damaged} (not deleted)."), damaged=restored.damaged.name)
    if restored.backup is None:
        if restored.skipped:
            return Sentence(N_(
                "{head} No backup could be restored because every backup was damaged too, so "
                "the companion starts with no saved games."), head=head)
        return Sentence(N_(
            "{head} No backup could be restored because there was no backup, so the "
            "companion starts with no saved games."), head=head)
    back = game if game is not None else Sentence(N_("It holds no game in progress."))
    if restored.backup_taken:
        date, time = _date(restored.backup_taken)
        return Sentence(N_(
            "{head} The newest good backup taken on {date} at {time} was restored. {game} "
            "Anything played after that backup is lost: play it again from there."),
            head=head, date=date, time=time, game=back)
    return Sentence(N_(
        "{head} The newest good backup was restored. {game} Anything played after that "
        "backup is lost: play it again from there."), head=head, game=back)
