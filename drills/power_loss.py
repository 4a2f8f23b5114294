"""Power loss: cut the power under a process playing through the Session and a real Store,
as an SD card sees it: every write not flushed is lost.

The power-cut drill (`drills/power_cut.py`) SIGKILLs its child, and a killed process loses
nothing that reached the page cache. Here the saved games live on a FUSE file system
(`drills/lossy_fs.py`, over the model in `drills/volatile.py`) that keeps every write in
memory until the file is flushed (``fsync``/``fdatasync``) and every change of a folder's
entries until the folder is flushed, and whose backing folder only ever holds what is
durable. A cut, one of three faults each time:

- ``data``: unsynced data dropped (entries of folders durable at once);
- ``dirs``: unsynced data dropped, and every file created, renamed or deleted since its
  folder was last flushed (the backups, the set-aside copy, the restored file, the lock);
- ``torn``: unsynced data dropped except the first part of the last unsynced page written.

Each cut falls before the k-th call that changes something, counted by the file system
from a chosen moment: at a random point of play (the open that resumes included), inside
a backup (the session takes one at each end of a turn), inside the close of a finished
game, inside the open of a file of release 0.1.0 (`tests/data/`: it is migrated), and
inside the open of a damaged file (set aside, the newest backup restored in its place).
The child (`drills/power_loss_child.py`) waits at those moments, without writing, while
the drill arms the cut; the file system kills it inside the call (SIGKILL: it never runs
again), freezes, drops what was not durable, and the drill unmounts. The power then comes
back: the drill opens the backing folder's file with the app's own code
(`Store.open`, which checks, migrates and recovers as at a start) and checks:

- every step the child confirmed (printed after ``append_step`` returned) is there,
  unchanged (its events' digest);
- the game resumed is the one confirmed: the same game at the same number of steps, turn,
  player, phase and purses (or one step on when the step in flight was saved; or no game,
  or a new one, around the close of a finished game);
- no file set aside (``*.damaged-*``, ``*.short-*``) that is sound, none damaged by the
  cut, no backup restored at the restart (except the damaged file the set-aside rounds
  plant, set aside once);
- ``PRAGMA integrity_check`` ok; every backup sound, and every backup the child saw
  completed still there (the newest kept).

Then it can fail: the same rounds with a child whose store connection has ``PRAGMA
synchronous=OFF`` (the fsync taken out) must lose confirmed steps, and the drill says it
did. Where FUSE cannot be used (no ``/dev/fuse``, no permission, no libfuse3 or no
binding) the drill says it was skipped and why.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from companion.rules.catalog import Catalog, load_catalog
from companion.session import Session
from companion.store import Store
from companion.store.backup import check_backup
from companion.store.errors import StoreError
from drills.power_loss_child import step_digest, where
from drills.report import Drill

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CHILD = HERE / "power_loss_child.py"
SERVER = HERE / "lossy_fs.py"
OLD_RELEASE = ROOT / "tests" / "data" / "store-0.1.0.sqlite3"
DB = "companion.sqlite3"
FAULTS = ("data", "dirs", "torn")
MOMENTS = ("play", "backup", "finish", "migration", "set-aside")
FULL = {"play": 30, "backup": 8, "finish": 4, "migration": 4, "set-aside": 4}
QUICK = {"play": 3, "backup": 1, "finish": 1, "migration": 1, "set-aside": 1}
PLAY_CALLS = 400  # a play cut falls before one of the first this many changing calls
# (outside the backups: those are the backup moment's, and would take half of them)
ROUND_SECONDS = 240.0


# -- can FUSE be used here? ------------------------------------------------------------------
def unavailable() -> str | None:
    """Why the drill cannot run here (None: it can): /dev/fuse, the binding, a mount."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse on this machine (a container without the FUSE device?)"
    try:
        os.close(os.open("/dev/fuse", os.O_RDWR))
    except OSError as error:
        return f"/dev/fuse cannot be opened ({error.strerror}): not permitted here"
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
         "from drills.lossy_fs import load_binding; load_binding()", str(ROOT)],
        capture_output=True, text=True, cwd=ROOT, check=False)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        return (f"the FUSE binding cannot be loaded ({last}): `make drills` installs mfusepy "
                "and Debian's fuse3")
    with tempfile.TemporaryDirectory(prefix="companion-fuse-probe-") as tmp:
        backing, mount = Path(tmp, "b"), Path(tmp, "m")
        backing.mkdir()
        mount.mkdir()
        try:
            server = Server(backing, mount, "data", 0)
        except RuntimeError as error:
            return f"a FUSE file system cannot be mounted here: {error}"
        try:
            (mount / "probe").write_bytes(b"x")
        except OSError as error:
            return f"the FUSE mount cannot be written: {error}"
        finally:
            server.stop()
    return None


# -- the file system process ---------------------------------------------------------------
class Server:
    """`drills/lossy_fs.py` mounted at `mount` over `backing`; its lines come in `lines`."""

    def __init__(self, backing: Path, mount: Path, fault: str, seed: int,
                 lines: queue.Queue[tuple[str, str | None]] | None = None) -> None:
        self.mount = mount
        _unmount(mount)
        self.lines: queue.Queue[tuple[str, str | None]] = lines or queue.Queue()
        self.errors = mount.with_name(mount.name + ".stderr")
        with open(self.errors, "w") as errors:
            self.process = subprocess.Popen(
                [sys.executable, str(SERVER), str(backing), str(mount), "--fault", fault,
                 "--seed", str(seed)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True,
                cwd=ROOT)
        _read_into(self.process.stdout, "server", self.lines)
        deadline = time.monotonic() + 20
        while True:
            try:
                source, line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
                source = "server"
            if source == "server" and line == "ready":
                return
            if source == "server" and line is None:
                self.process.kill()
                self.process.wait()
                said = self.errors.read_text().strip().splitlines()
                raise RuntimeError(said[-1] if said else "the FUSE process ended at once")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the FUSE file system did not come up in 20 s")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()

    def stop(self) -> None:
        """Unmount and end the process (what is durable is in the backing folder already)."""
        _unmount(self.mount)
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        _unmount(self.mount)


def _unmount(mount: Path) -> None:
    tool = shutil.which("fusermount3") or shutil.which("fusermount")
    command = [tool, "-u", "-z", str(mount)] if tool else ["umount", "-l", str(mount)]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def _read_into(stream: IO[str] | None, source: str,
               lines: queue.Queue[tuple[str, str | None]]) -> None:
    def pump() -> None:
        assert stream is not None
        for line in stream:
            lines.put((source, line.rstrip("\n")))
        lines.put((source, None))

    threading.Thread(target=pump, daemon=True).start()


# -- what the drill knows of one saved-games folder --------------------------------------
@dataclass
class Lane:
    """A saved-games folder and what was confirmed on it."""

    folder: Path
    kind: str  # "play", "migration" or "set-aside"
    confirmed: dict[tuple[int, int], str] = field(default_factory=dict)  # (game, n) -> digest
    last: tuple[int, int, str] | None = None  # the game in progress: (game, steps, where)
    backups_done: list[str] = field(default_factory=list)
    seen_aside: set[str] = field(default_factory=set)
    planted: bool = False  # a damaged file waits to be set aside (set-aside rounds)

    @property
    def db(self) -> Path:
        return self.folder / DB


@dataclass
class Round:
    """What happened in one round, as far as the checks need it."""

    fault: str
    intended: str
    moment: str = "play"
    cut: str = ""
    torn: bool = False
    confirmed: int = 0
    in_flight: bool = False  # an intent had started and was not confirmed at the cut
    finishing: int | None = None  # the game being closed at the cut
    finished_last: bool = False  # the last thing done was closing a game (a new one next)
    child_recovered: str = "none"


@dataclass
class Tally:
    cuts: Counter[tuple[str, str]] = field(default_factory=Counter)
    confirmed: int = 0
    lost: int = 0
    lost_examples: list[str] = field(default_factory=list)
    resumes: int = 0
    resumes_right: int = 0
    resumes_wrong: list[str] = field(default_factory=list)
    in_flight_saved: int = 0
    sound_aside: list[str] = field(default_factory=list)
    empty_aside: list[str] = field(default_factory=list)  # files with no game in them
    damaged_by_cut: list[str] = field(default_factory=list)
    planted_aside: int = 0
    restores: list[str] = field(default_factory=list)
    integrity_bad: list[str] = field(default_factory=list)
    backups_checked: int = 0
    backups_bad: list[str] = field(default_factory=list)
    backups_gone: list[str] = field(default_factory=list)
    torn_landed: int = 0
    games_finished: int = 0
    migrated_opens: int = 0
    errors: list[str] = field(default_factory=list)


# -- reference files ------------------------------------------------------------------------
def _facts(db: Path, catalog: Catalog) -> tuple[dict[tuple[int, int], str],
                                                tuple[int, int, str] | None]:
    """Every step's digest in the file, and where its unfinished game stands (on a copy)."""
    with tempfile.TemporaryDirectory(prefix="companion-ref-") as tmp:
        copy = Path(tmp) / DB
        shutil.copyfile(db, copy)
        with Store.open(copy, catalog=catalog, backups=Path(tmp) / "none") as store:
            digests = {}
            for record in store.games():
                for n, step in enumerate(store.load_log(record.id), 1):
                    digests[(record.id, n)] = step_digest(step)
            game = store.unfinished_game()
            last = None
            if game is not None:
                history = store.load_history(game)
                last = (game, len(history.log), where(history.state))
    return digests, last


def _damaged_template(work: Path, catalog: Catalog, seed: int) -> Path:
    """A folder with a game of a few turns and its backups, the file itself damaged."""
    folder = work / "set-aside-template"
    folder.mkdir(parents=True)
    from bench.scripted import ScriptedPlayer, seats

    with Store.open(folder / DB, catalog=catalog) as store:
        rng = random.Random(seed)
        session = Session(catalog, rng=random.Random(seed + 1), store=store)
        session.new_game(seats(3))
        player = ScriptedPlayer(session, rng)
        while len(store.backups()) < 2 or rng.random() < 0.9:
            player.intent()
    with open(folder / DB, "r+b") as damaged:  # the header gone: "file is not a database"
        damaged.write(b"\x00damaged by the power-loss drill\x00" * 3)
    return folder


# -- one round ---------------------------------------------------------------------------
class Drilling:
    def __init__(self, work: Path, targets: dict[str, int], seed: int,
                 can_fail_rounds: int) -> None:
        self.work = work
        self.targets = targets
        self.rng = random.Random(seed)
        self.can_fail_rounds = can_fail_rounds
        self.catalog = load_catalog()
        self.mount = work / "mnt"
        self.mount.mkdir(parents=True, exist_ok=True)
        self.tally = Tally()
        self.can_fail = Tally()
        self.calls: dict[str, int] = {}  # moment -> changing calls it took when measured
        self.lanes = 0
        self.lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
        self.pending: list[tuple[str, str | None]] = []

    # -- lanes
    def new_lane(self, kind: str) -> Lane:
        self.lanes += 1
        lane = Lane(self.work / f"lane-{self.lanes}-{kind}", kind)
        lane.folder.mkdir(parents=True)
        if kind == "migration":
            shutil.copyfile(OLD_RELEASE, lane.db)
            lane.confirmed, lane.last = dict(self.old_digests), self.old_last
        elif kind == "set-aside":
            shutil.copytree(self.template, lane.folder, dirs_exist_ok=True)
            lane.confirmed, lane.last = dict(self.backup_digests), self.backup_last
            lane.planted = True
            lane.backups_done = sorted(p.name for p in (lane.folder / "backups").iterdir())
        return lane

    def prepare(self) -> None:
        self.old_digests, self.old_last = _facts(OLD_RELEASE, self.catalog)
        self.template = _damaged_template(self.work, self.catalog, self.rng.randrange(1 << 30))
        newest = sorted((self.template / "backups").iterdir())[-1]
        self.backup_digests, self.backup_last = _facts(newest, self.catalog)

    # -- a round
    def run_round(self, lane: Lane, fault: str, intended: str, tally: Tally,
                  no_sync: bool = False) -> Round:
        """Mount, start a child, cut at the moment `intended` (as near as it goes), check."""
        result = Round(fault, intended)
        self.lines = queue.Queue()
        self.pending = []
        server = Server(lane.folder, self.mount, fault, self.rng.randrange(1 << 30),
                        self.lines)
        phase = {"migration": "migration", "set-aside": "set-aside"}.get(lane.kind, "open")
        armed = False
        if intended == "play":
            armed = self._arm(server, self.rng.randint(1, PLAY_CALLS), "outside /backups")
        elif intended in ("migration", "set-aside") and intended in self.calls:
            armed = self._arm(server, self.rng.randint(1, self.calls[intended]))
        command = [sys.executable, str(CHILD), str(self.mount / DB),
                   str(self.rng.randrange(1 << 30))] + (["--no-sync"] if no_sync else [])
        errors = self.work / "child.stderr"
        with open(errors, "w") as stderr:
            child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, text=True, cwd=ROOT)
        _read_into(child.stdout, "child", self.lines)
        began: dict[str, int] = {}
        deadline = time.monotonic() + ROUND_SECONDS
        child_ended = False
        while True:
            source, line = self._next(deadline)
            if source == "timeout":
                tally.errors.append(f"{fault}/{intended}: no cut in {ROUND_SECONDS:.0f} s "
                                    f"(at {phase})")
                result.moment = "timeout"
                self._cut_now(server, result)
                break
            if source == "server":
                if line is not None and line.startswith("cut "):
                    result.cut, result.moment = line, phase
                    break
                continue
            if line is None:  # the child ended by itself
                child_ended = True
                tally.errors.append(f"{fault}/{intended}: the child ended by itself: "
                                    f"{errors.read_text()[-400:]}")
                result.moment = phase
                self._cut_now(server, result)
                break
            label = self._take(line, lane, result, tally)
            if label is None:
                continue
            # the child waits at `label`, writing nothing: arm the cut or measure the moment
            if label == "opened":
                phase = "play"
                if not armed:  # the open was measured: now a cut during play
                    if intended in ("migration", "set-aside"):
                        self.calls[intended] = max(1, self._count(server))
                    armed = self._arm(server, self.rng.randint(1, PLAY_CALLS),
                                      "outside /backups")
            elif label in ("backup", "finishing"):
                phase = "backup" if label == "backup" else "finish"
                if label == "finishing":
                    result.finishing = lane.last[0] if lane.last else None
                began[phase] = self._count(server)
                if intended == phase and phase in self.calls:
                    armed = self._arm(server, self.rng.randint(1, self.calls[phase]))
            elif label in ("backed-up", "finished"):
                moment = "backup" if label == "backed-up" else "finish"
                phase = "play"
                took = self._count(server) - began.get(moment, 0)
                if took > 0:
                    self.calls[moment] = took
            assert child.stdin is not None
            with contextlib.suppress(OSError):
                child.stdin.write("go\n")
                child.stdin.flush()
        # the power is off: the child was killed inside its call, or is killed now
        with contextlib.suppress(OSError):
            child.kill()
        self._drain_child(lane, result, tally, child_ended)
        child.wait()
        server.stop()
        result.torn = bool(result.cut) and result.cut.split()[-1] != "-"
        tally.cuts[(fault, result.moment)] += 1
        tally.confirmed += result.confirmed
        tally.torn_landed += result.torn
        self.check(lane, result, tally)
        return result

    def _next(self, deadline: float) -> tuple[str, str | None]:
        if self.pending:
            return self.pending.pop(0)
        try:
            return self.lines.get(timeout=max(0.05, deadline - time.monotonic()))
        except queue.Empty:
            return "timeout", None

    def _take(self, line: str, lane: Lane, result: Round, tally: Tally) -> str | None:
        """Account for one line of the child; the label of a ``wait``, else None."""
        words = line.split()
        if not words:
            return None
        if words[0] == "ok":
            game, steps = int(words[1]), int(words[2])
            lane.confirmed[(game, steps)] = words[3]
            lane.last = (game, steps, words[4])
            result.confirmed += 1
            result.in_flight = result.finished_last = False
        elif words[0] == "try":
            result.in_flight = True
        elif words[0] == "opened":
            result.child_recovered = words[1]
            tally.migrated_opens += int(words[2]) > 0
        elif words[0] == "backed-up" and words[1] != "-":
            lane.backups_done.append(words[1])
        elif words[0] == "finished":
            tally.games_finished += 1
            result.finished_last, result.finishing = True, None
        elif words[0] == "wait":
            return words[1]
        return None

    def _cut_now(self, server: Server, result: Round) -> None:
        server.send("cut")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            source, line = self._next(deadline)
            if source == "server" and line is not None and line.startswith("cut "):
                result.cut = line
                return
            if source == "child":
                self.pending.append((source, line))
                if line is None:
                    continue
            if source == "timeout":
                return

    def _drain_child(self, lane: Lane, result: Round, tally: Tally, ended: bool) -> None:
        """Take the child's last lines (printed before the cut) into account."""
        deadline = time.monotonic() + 10
        seen = list(self.pending)
        self.pending = []
        for source, line in seen:
            if source == "child":
                if line is None:
                    ended = True
                else:
                    self._take(line, lane, result, tally)
        while not ended and time.monotonic() < deadline:
            source, line = self._next(deadline)
            if source == "child":
                if line is None:
                    ended = True
                else:
                    self._take(line, lane, result, tally)

    def _count(self, server: Server) -> int:
        server.send("count")
        reply = self._reply("count")
        return 0 if reply is None else int(reply.split()[1])

    def _arm(self, server: Server, at: int, where: str = "") -> bool:
        server.send(f"arm {at} {where}".strip())
        return self._reply("armed") is not None

    def _reply(self, word: str) -> str | None:
        """The server's answer starting with `word` (None: the power went meanwhile); the
        other lines meanwhile are kept for later."""
        deadline = time.monotonic() + 30
        kept: list[tuple[str, str | None]] = []
        try:
            while time.monotonic() < deadline:
                try:
                    source, line = self.lines.get(timeout=1)
                except queue.Empty:
                    continue
                if source == "server" and line is not None and line.split()[:1] == [word]:
                    return line
                kept.append((source, line))
                if source == "server" and (line is None or line.startswith("cut ")):
                    return None
            return None
        finally:
            self.pending.extend(kept)

    # -- the power comes back
    def check(self, lane: Lane, result: Round, tally: Tally) -> None:
        label = f"{result.fault}/{result.moment}"
        try:
            store = Store.open(lane.db, catalog=self.catalog)
        except StoreError as error:
            tally.errors.append(f"{label}: the store did not open: {error}")
            return
        try:
            self._check_open(store, lane, result, tally, label)
        finally:
            store.close()
        self._check_aside(lane, result, tally, label)

    def _check_open(self, store: Store, lane: Lane, result: Round, tally: Tally,
                    label: str) -> None:
        recovery = store.recovery
        expected_restore = lane.planted
        if recovery is not None and not expected_restore:
            tally.restores.append(f"{label}: {recovery.message[:300]}")
        if result.child_recovered != "none" and not expected_restore:
            tally.restores.append(f"{label}: the child's open recovered ({result.child_recovered})")
        integrity = [row[0] for row in store.conn.execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            tally.integrity_bad.append(f"{label}: {integrity[:3]}")
        # every confirmed step, unchanged
        by_game: dict[int, list[tuple[int, str]]] = {}
        for (game, n), digest in lane.confirmed.items():
            by_game.setdefault(game, []).append((n, digest))
        for game, steps in by_game.items():
            try:
                log = store.load_log(game)
            except StoreError:
                log = []
            for n, digest in steps:
                if n > len(log) or step_digest(log[n - 1]) != digest:
                    tally.lost += 1
                    del lane.confirmed[(game, n)]  # counted once
                    if len(tally.lost_examples) < 10:
                        tally.lost_examples.append(f"{label}: game {game} step {n} "
                                                   f"(the file has {len(log)})")
        # the resume
        session = Session(self.catalog, store=store)
        state = session.resume()
        got = None
        if state is not None and session.history is not None and session.game_id is not None:
            got = (session.game_id, len(session.history.log), where(state))
        tally.resumes += 1
        right, in_flight = self._resume_right(lane.last, got, result)
        if right:
            tally.resumes_right += 1
            tally.in_flight_saved += in_flight
        elif len(tally.resumes_wrong) < 10:
            tally.resumes_wrong.append(f"{label}: expected {lane.last} (in flight: "
                                       f"{result.in_flight}, finishing: {result.finishing}, "
                                       f"closed: {result.finished_last}), got {got}")
        lane.last = got  # where the next child comes back
        if got is None and result.finishing is not None:
            result.finished_last = True
        # backups: each sound; the newest completed ones still there
        present = sorted(p.name for p in store.backups())
        for backup in store.backups():
            tally.backups_checked += 1
            problems = check_backup(backup) or _integrity(backup)
            if problems:
                tally.backups_bad.append(f"{label}: {backup.name}: {problems[:2]}")
        done = lane.backups_done
        # a backup in flight at the cut that got its name pruned the oldest kept one
        landed = [n for n in present if n not in done and (not done or n > done[-1])]
        kept = done[-store.keep_backups:][len(landed):]
        for name in kept:
            if name not in present:
                tally.backups_gone.append(f"{label}: {name} (on the card: {present})")
        lane.backups_done = present  # what the next round's backups are pruned against

    @staticmethod
    def _resume_right(last: tuple[int, int, str] | None, got: tuple[int, int, str] | None,
                      result: Round) -> tuple[bool, bool]:
        """Whether `got` is a right resume after `last` was confirmed; and whether it is the
        step in flight, saved before the cut."""
        if got == last:
            return True, False
        if last is not None and got is not None and got[0] == last[0] \
                and got[1] == last[1] + 1 and result.in_flight:
            return True, True  # saved in flight, not yet shown
        closing = result.finishing is not None or result.finished_last
        if closing or last is None:
            if got is None:
                return True, False  # the finished game was closed just before the cut
            if got[1] == 1 and (last is None or got[0] > last[0]) and result.in_flight:
                return True, True  # the new game was saved just before the cut
        return False, False

    def _check_aside(self, lane: Lane, result: Round, tally: Tally, label: str) -> None:
        for path in sorted(lane.folder.iterdir()):
            name = path.name
            if name in lane.seen_aside or not (".damaged-" in name or ".short-" in name):
                continue
            if name.endswith(("-wal", "-shm", "-journal")):
                continue
            lane.seen_aside.add(name)
            verdict = _soundness(path, self.catalog)
            if lane.planted and ".damaged-" in name and verdict != "sound":
                tally.planted_aside += 1
                lane.planted = False
                continue
            if verdict == "sound":
                tally.sound_aside.append(f"{label}: {name}")
            elif verdict in ("empty", "no game"):
                tally.empty_aside.append(f"{label}: {name} ({verdict})")
            else:
                tally.damaged_by_cut.append(f"{label}: {name}: {verdict}")


def _integrity(path: Path) -> list[str]:
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as error:
        return [str(error)]
    try:
        rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        return [] if rows == ["ok"] else rows
    except sqlite3.Error as error:
        return [str(error)]
    finally:
        conn.close()


def _soundness(path: Path, catalog: Catalog) -> str:
    """``sound`` (integrity ok, every game replays), ``no game`` (sound, but no game in it),
    ``empty`` (no byte), or what is wrong with it."""
    if path.stat().st_size == 0:
        return "empty"
    with tempfile.TemporaryDirectory(prefix="companion-aside-") as tmp:
        copy = Path(tmp) / DB
        shutil.copyfile(path, copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(DB + "-wal"))
        problems = _integrity(copy)
        if problems:
            return f"integrity: {problems[:2]}"
        try:
            with Store.open(copy, catalog=catalog, recover=False,
                            backups=Path(tmp) / "none") as store:
                records = store.games()
                for record in records:
                    store.load_history(record.id)
        except StoreError as error:
            return f"does not replay: {str(error)[:200]}"
    return "sound" if records else "no game"


# -- the drill ---------------------------------------------------------------------------
def drill(work: Path, quick: bool = False, seed: int = 20261207,
          targets: dict[str, int] | None = None, can_fail_rounds: int | None = None,
          scale: int | None = None) -> Drill:
    """The drill: about 150 cuts (`FULL`), 21 with `quick`, or about `scale` cuts."""
    begun = time.monotonic()
    why = unavailable()
    if why is not None:
        result = Drill("Power loss (FUSE)", f"SKIPPED: {why}")
        result.skipped = why
        result.check("skipped: not run here", why, "run where FUSE is available", None)
        result.seconds = time.monotonic() - begun
        return result
    if targets is None and scale is not None:
        whole = sum(FULL.values()) * len(FAULTS)
        targets = {m: max(1, round(n * scale / whole)) for m, n in FULL.items()}
    aims = dict(targets or (QUICK if quick else FULL))
    failing_rounds = can_fail_rounds if can_fail_rounds is not None else (2 if quick else 6)
    run = Drilling(work, aims, seed, failing_rounds)
    run.prepare()
    tally = run.tally
    lanes = {"play": run.new_lane("play")}
    wanted = [(fault, moment) for moment in MOMENTS for fault in FAULTS]
    rounds = 0
    limit = 4 * sum(aims.values()) * len(FAULTS) + 20
    while rounds < limit:
        short = [(f, m) for f, m in wanted if tally.cuts[(f, m)] < aims.get(m, 0)]
        if not short:
            break
        fault, moment = short[rounds % len(short)]
        lane = run.new_lane(moment) if moment in ("migration", "set-aside") else lanes["play"]
        try:
            run.run_round(lane, fault, moment, tally)
        except Exception as error:  # a round that breaks is a finding, and the drill goes on
            tally.errors.append(f"{fault}/{moment}: {type(error).__name__}: {error}")
            _unmount(run.mount)
        rounds += 1
        print(f"power_loss: {rounds} cuts, {tally.confirmed} confirmed, {tally.lost} lost "
              f"({time.monotonic() - begun:.0f} s)", file=sys.stderr, flush=True)
    # can it fail? the fsync taken out of the store's commits
    failing = run.new_lane("play")
    for n in range(failing_rounds):
        try:
            run.run_round(failing, FAULTS[0], "play", run.can_fail, no_sync=True)
        except Exception as error:
            run.can_fail.errors.append(f"can-fail round {n}: {type(error).__name__}: {error}")
            _unmount(run.mount)
    return _report(run, aims, rounds, time.monotonic() - begun)


def _report(run: Drilling, aims: dict[str, int], rounds: int, seconds: float) -> Drill:
    tally, failing = run.tally, run.can_fail
    total = sum(tally.cuts.values())
    result = Drill(
        "Power loss (FUSE)",
        f"{total} power cuts on a FUSE file system that loses every write not fsynced "
        "(three faults: unsynced data dropped; folder entries dropped unless the folder "
        "was fsynced; a torn last write), under a process playing scripted games through "
        "the Session with a real Store, each cut inside a chosen moment (play, a backup, "
        "the close of a finished game, the migration of a 0.1.0 file, the set-aside of a "
        "damaged file); after each, the app's Store.open on what the card kept; then the "
        "same with the store's fsync taken out (synchronous=OFF), which must lose steps",
    )
    goal_total = sum(aims.values()) * len(FAULTS)
    result.check("power cuts", total, f">= {goal_total}", total >= goal_total)
    for fault in FAULTS:
        row = ", ".join(f"{moment} {tally.cuts[(fault, moment)]}"
                        for moment in (*MOMENTS, "open", "timeout")
                        if tally.cuts[(fault, moment)] or moment in MOMENTS)
        met = all(tally.cuts[(fault, m)] >= aims.get(m, 0) for m in MOMENTS)
        result.check(f"  {fault}: cuts by moment", row, "the planned counts", met)
    result.check("  torn writes that landed in part", tally.torn_landed)
    result.check("actions confirmed before a cut", tally.confirmed)
    result.check("confirmed actions lost", tally.lost, "0", tally.lost == 0)
    result.check("resumes at the confirmed game, step, turn, player, phase and purses",
                 f"{tally.resumes_right} of {tally.resumes}", "all",
                 tally.resumes_right == tally.resumes)
    result.check("  of which one step on: saved in flight, not yet shown",
                 tally.in_flight_saved)
    result.check("sound files set aside (*.damaged-*, *.short-*)", len(tally.sound_aside),
                 "0", not tally.sound_aside)
    result.check("  files holding no game set aside (the open's own new file)",
                 len(tally.empty_aside))
    result.check("files damaged by a cut", len(tally.damaged_by_cut), "0",
                 not tally.damaged_by_cut)
    result.check("backups restored at a restart (nothing damaged)", len(tally.restores), "0",
                 not tally.restores)
    result.check("planted damaged files set aside (set-aside rounds)", tally.planted_aside,
                 f"{sum(tally.cuts[(f, 'set-aside')] for f in FAULTS)} or more rounds' worth",
                 None)
    result.check("PRAGMA integrity_check failing", len(tally.integrity_bad), "0",
                 not tally.integrity_bad)
    result.check("backups checked / unsound", f"{tally.backups_checked} / "
                 f"{len(tally.backups_bad)}", "0 unsound", not tally.backups_bad)
    result.check("backups completed, then gone after a cut", len(tally.backups_gone), "0",
                 not tally.backups_gone)
    result.check("games played to their end and closed", tally.games_finished)
    result.check("opens of a 0.1.0 file that migrated it uncut (the others were cut in it)",
                 tally.migrated_opens)
    result.check("rounds that broke", len(tally.errors), "0", not tally.errors)
    failing_cuts = sum(failing.cuts.values())
    result.check("can fail: with synchronous=OFF, confirmed actions lost",
                 f"{failing.lost} of {failing.confirmed} in {failing_cuts} cuts", "> 0",
                 failing.lost > 0)
    result.seconds = seconds
    result.detail = {
        "cuts": {f"{f}/{m}": n for (f, m), n in sorted(tally.cuts.items())},
        "confirmed": tally.confirmed, "lost": tally.lost, "lost_examples": tally.lost_examples,
        "resumes_wrong": tally.resumes_wrong, "sound_aside": tally.sound_aside[:10],
        "empty_aside": tally.empty_aside[:10],
        "damaged_by_cut": tally.damaged_by_cut[:10], "restores": tally.restores[:10],
        "integrity_bad": tally.integrity_bad[:10], "backups_bad": tally.backups_bad[:10],
        "backups_gone": tally.backups_gone[:10], "errors": tally.errors[:10],
        "calls_per_moment": dict(run.calls), "rounds": rounds,
        "can_fail": {"cuts": failing_cuts, "confirmed": failing.confirmed,
                     "lost": failing.lost, "restores": failing.restores[:5],
                     "errors": failing.errors[:5]},
    }
    return result

