"""systemd's notifications: READY=1 after the first frame, WATCHDOG=1 from the main loop.

Real unix datagram sockets (a path in tmp_path, and an abstract one) receive what
`sd_notify` sends; the real app runs headless in a child process with systemd's
variables set, as the kiosk's service runs it.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.notify import READY, WATCHDOG, sd_notify, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket bound at a path, and the $NOTIFY_SOCKET value naming it."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(60)  # a safety net against a hang, not a timing check
    yield sock, str(path)
    sock.close()


@pytest.fixture
def abstract_listener() -> Iterator[tuple[socket.socket, str]]:
    name = f"companion-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(60)
    yield sock, "@" + name
    sock.close()


def test_a_message_reaches_the_socket_named_by_a_path(
    listener: tuple[socket.socket, str],
) -> None:
    sock, value = listener
    assert sd_notify(READY, {"NOTIFY_SOCKET": value}) is True
    assert sock.recv(4096) == b"READY=1"


def test_a_message_reaches_an_abstract_socket_named_with_an_at_sign(
    abstract_listener: tuple[socket.socket, str],
) -> None:
    sock, value = abstract_listener
    assert sd_notify(WATCHDOG, {"NOTIFY_SOCKET": value}) is True
    assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_a_notify_socket_nothing_is_sent_and_nothing_fails() -> None:
    assert sd_notify(READY, {}) is False
    assert sd_notify(READY, {"NOTIFY_SOCKET": ""}) is False


@pytest.mark.parametrize("value", ["relative/path", "@", "\0", "/no/such/dir/sock",
                                   "/" + "x" * 200])
def test_a_bad_notify_socket_never_raises_and_is_logged_once(
    value: str, caplog: pytest.LogCaptureFixture,
) -> None:
    from companion import notify

    notify._complained.clear()
    with caplog.at_level(logging.WARNING, logger="companion.notify"):
        for _ in range(5):
            assert sd_notify(WATCHDOG, {"NOTIFY_SOCKET": value}) is False
    assert len(caplog.records) == 1, caplog.records


def test_a_socket_nobody_listens_on_is_no_crash(tmp_path: Path) -> None:
    path = tmp_path / "gone"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.close()  # the file stays, nobody reads it any more
    assert sd_notify(WATCHDOG, {"NOTIFY_SOCKET": str(path)}) is False


def test_the_watchdog_is_pinged_three_times_per_timeout() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) \
        == 10.0


@pytest.mark.parametrize("env", [
    {},
    {"WATCHDOG_USEC": ""},
    {"WATCHDOG_USEC": "0"},
    {"WATCHDOG_USEC": "-5"},
    {"WATCHDOG_USEC": "ten"},
    {"WATCHDOG_USEC": "1e6"},
    {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"},
    {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "me"},
])
def test_no_watchdog_pings_unless_systemd_asks_this_process_for_them(
    env: dict[str, str],
) -> None:
    assert watchdog_interval(env) is None


BLOCKING_APP = """
import os
import sys
import time
from pathlib import Path
from kivy.clock import Clock
import companion.app as start
from companion.notify import WATCHDOG, sd_notify

pings = []

def counted(message, *args):
    if message == WATCHDOG:
        pings.append(message)
    return sd_notify(message, *args)

start.sd_notify = counted  # the app's own pings, counted as they are sent

ASKED = os.environ.get("WATCHDOG_USEC", "").isdigit()  # else the app must never ping
PATIENCE = 60.0  # for what a loaded machine may be slow to do: a condition ends each wait


class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def block():
            sd_notify("TEST=blocked")
            time.sleep(1.5)  # a hung main loop: fifteen pings' worth
            sd_notify("TEST=unblocked")
            seen, since = len(pings), time.monotonic()
            def when_pinged_again(_dt):  # stop once the pings are back (or never, unasked)
                waited = time.monotonic() - since
                if len(pings) > seen or waited > (PATIENCE if ASKED else 1.0):
                    self.stop()
                    return False
                return None
            Clock.schedule_interval(when_pinged_again, 0.05)
        ready_at = []
        def when_pinging(_dt):  # hang once the app is up and has pinged a few times
            if not self.ready:  # (or has had a second to: a watchdog it was not asked for)
                return None
            ready_at.append(time.monotonic())
            waited = time.monotonic() - ready_at[0]
            if len(pings) >= 4 or waited > (PATIENCE if ASKED else 1.0):
                block()
                return False
            return None
        Clock.schedule_interval(when_pinging, 0.05)

start.TableApp = Probe
start.run_app(Path(sys.argv[1]))
"""


def run_app_under_systemd(tmp_path: Path, sock: socket.socket, notify_socket: str,
                          watchdog_usec: str) -> tuple[subprocess.CompletedProcess[str],
                                                       list[str]]:
    """Run the blocking probe app with systemd's variables; what it printed, and every
    message `sock` received meanwhile, in order. The socket is read while the app runs,
    as systemd reads it: the kernel queues only a few datagrams for a reader."""
    script = tmp_path / "blocking_probe.py"
    script.write_text(BLOCKING_APP)
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_HOME": str(tmp_path / "kivy"), "NOTIFY_SOCKET": notify_socket,
           "WATCHDOG_USEC": watchdog_usec}
    env.pop("WATCHDOG_PID", None)
    messages: list[str] = []
    done = threading.Event()

    def read() -> None:
        sock.settimeout(0.1)
        while not done.is_set():
            try:
                messages.append(sock.recv(4096).decode())
            except TimeoutError:
                continue
        messages.extend(received(sock))  # what the app sent last, still queued

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        run = subprocess.run([sys.executable, str(script), str(tmp_path / "g.sqlite3")],
                             capture_output=True, text=True, timeout=180, env=env)
    finally:
        done.set()
        reader.join()
    return run, messages


def test_the_app_says_ready_and_pings_from_its_main_loop_and_a_hung_loop_stops_the_pings(
    tmp_path: Path, listener: tuple[socket.socket, str],
) -> None:
    sock, value = listener
    run, messages = run_app_under_systemd(tmp_path, sock, value, "300000")  # every 0.1 s
    assert run.returncode == 0, run.stderr[-2000:]
    assert messages.count(READY) == 1
    blocked, unblocked = messages.index("TEST=blocked"), messages.index("TEST=unblocked")
    before, during, after = (messages[:blocked], messages[blocked + 1:unblocked],
                             messages[unblocked + 1:])
    assert before.count(WATCHDOG) >= 3, messages
    assert during == []  # nothing while the main loop hangs: systemd would restart it
    assert WATCHDOG in after, messages  # and the pings come back with the loop


def test_the_app_reaches_an_abstract_notify_socket(
    tmp_path: Path, abstract_listener: tuple[socket.socket, str],
) -> None:
    sock, value = abstract_listener
    run, messages = run_app_under_systemd(tmp_path, sock, value, "300000")
    assert run.returncode == 0, run.stderr[-2000:]
    assert READY in messages and messages.count(WATCHDOG) >= 3


def test_the_app_with_garbage_in_the_watchdog_variable_starts_and_never_pings(
    tmp_path: Path, listener: tuple[socket.socket, str],
) -> None:
    sock, value = listener
    run, messages = run_app_under_systemd(tmp_path, sock, value, "soon")
    assert run.returncode == 0, run.stderr[-2000:]
    assert READY in messages and WATCHDOG not in messages


def received(sock: socket.socket) -> list[str]:
    """The messages waiting on `sock` now."""
    sock.setblocking(False)
    messages = []
    while True:
        try:
            messages.append(sock.recv(4096).decode())
        except BlockingIOError:
            return messages


def test_a_reader_that_falls_behind_never_blocks_the_sender(
    listener: tuple[socket.socket, str],
) -> None:
    """The kernel queues only a few datagrams for a reader; a plain send would then wait
    for it, and the app's main loop with it. The pings past the queue are dropped."""
    sock, value = listener
    results: list[bool] = []
    sender = threading.Thread(
        target=lambda: results.extend(sd_notify(WATCHDOG, {"NOTIFY_SOCKET": value})
                                      for _ in range(200)),
        daemon=True)
    sender.start()
    sender.join(60)  # a hang detector, not a timing check: a blocked send never returns
    assert not sender.is_alive(), "sd_notify blocked on a full queue"
    assert results[0] is True and results[-1] is False
    assert 0 < len(received(sock)) < 200


def test_keep_alive_pings_only_when_systemd_asked_for_pings(
    listener: tuple[socket.socket, str],
) -> None:
    from companion.notify import keep_alive

    sock, value = listener
    keep_alive({"NOTIFY_SOCKET": value})  # no watchdog: nothing
    keep_alive({"NOTIFY_SOCKET": value, "WATCHDOG_USEC": "30000000"})
    assert received(sock) == [WATCHDOG]
