"""Telling systemd how the app is: ``READY=1``, the watchdog's ``WATCHDOG=1``, ``STATUS=``.

Concept: the kiosk's service runs the app with ``WatchdogSec=`` and ``NotifyAccess=all``.
systemd then passes ``$NOTIFY_SOCKET`` (where to send datagrams) and ``$WATCHDOG_USEC``
(how long it waits between two pings before it kills and restarts the app), and
``$WATCHDOG_PID`` (which process is meant to ping). `sd_notify` is the standard library's
version of libsystemd's function of that name; `watchdog_interval` is
``sd_watchdog_enabled`` halved again (a ping every third of the timeout, so one late
frame never trips it). The app pings from its main loop (see `companion.app`), so a main
loop that hangs stops pinging and systemd restarts it.

Invariants:
- without ``$NOTIFY_SOCKET`` (a desktop, the tests) nothing is sent and nothing fails;
- `sd_notify` never raises and never blocks: a failure to send is logged once (not at
  every ping) and the app carries on as if there were no systemd. A datagram socket whose
  reader has fallen behind (the kernel queues only a few datagrams:
  ``net.unix.max_dgram_qlen``, 10 here) would block a plain send, and with it Kivy's main
  loop; the send is non-blocking, so such a message is dropped instead;
- ``$NOTIFY_SOCKET`` is a filesystem path, or an abstract socket when it starts with
  ``@`` (the ``@`` stands for the leading NUL byte); anything else is ignored;
- `watchdog_interval` returns None unless ``$WATCHDOG_USEC`` is a positive whole number
  and ``$WATCHDOG_PID``, when set, is this process: garbage there turns the pings off,
  it never crashes the app.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

NOTIFY_SOCKET = "NOTIFY_SOCKET"
WATCHDOG_USEC = "WATCHDOG_USEC"
WATCHDOG_PID = "WATCHDOG_PID"

READY = "READY=1"
WATCHDOG = "WATCHDOG=1"

PINGS_PER_TIMEOUT = 3
"""Pings sent in each watchdog timeout (WatchdogSec=30: one every 10 seconds)."""

log = logging.getLogger(__name__)
_complained: set[str] = set()
"""The kinds of failure already logged (each is logged once per process)."""


def _address(value: str) -> str | bytes | None:
    """The socket address ``$NOTIFY_SOCKET`` names, or None when it names none."""
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode("utf-8", "surrogateescape")
    if value.startswith("/"):
        return value
    return None


def _complain(kind: str, text: str) -> None:
    if kind not in _complained:
        _complained.add(kind)
        log.warning("systemd notification: %s (not repeated)", text)


def sd_notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send `message` (e.g. ``READY=1``) to ``$NOTIFY_SOCKET``; True if it was sent.

    Nothing is sent without ``$NOTIFY_SOCKET``. Never raises.
    """
    env = os.environ if environ is None else environ
    value = env.get(NOTIFY_SOCKET, "")
    if not value:
        return False
    address = _address(value)
    if address is None:
        _complain("address", f"{NOTIFY_SOCKET}={value!r} is neither a path nor @name")
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode("utf-8", "replace"), socket.MSG_DONTWAIT, address)
    except (OSError, ValueError) as error:
        _complain("send", f"cannot send to {value}: {error}")
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None,
                      pid: int | None = None) -> float | None:
    """Seconds between two ``WATCHDOG=1`` pings, or None when systemd wants none.

    A third of ``$WATCHDOG_USEC``; None when it is unset, not a positive whole number, or
    when ``$WATCHDOG_PID`` is set and names another process (or is not a number).
    """
    env = os.environ if environ is None else environ
    usec = env.get(WATCHDOG_USEC, "").strip()
    if not usec.isdigit() or int(usec) <= 0:
        return None
    wanted = env.get(WATCHDOG_PID, "").strip()
    this = os.getpid() if pid is None else pid
    if wanted and (not wanted.isdigit() or int(wanted) != this):
        return None
    return int(usec) / 1_000_000 / PINGS_PER_TIMEOUT


def keep_alive(environ: Mapping[str, str] | None = None) -> None:
    """Ping the watchdog now, if systemd set one: for a step that holds the main loop
    for a few seconds (a copy to a USB stick), called between its parts."""
    if watchdog_interval(environ) is not None:
        sd_notify(WATCHDOG, environ)
