"""Asking a player for a name or a PIN by touch: the requests and who shows them.

A presenter never makes a widget. It hands a `NameRequest` or a `PinRequest` to
`ask_name` / `ask_pin`; the app's notices (`KeypadNotices`, the `Notices` of the app's
`Context`) fire ``on_name`` / ``on_pin``, and the app opens the letters pad or the PIN pad
(`companion.ui.widgets.NamePad` / `PinPad`), which calls `on_done` with what was typed.
Cancelling calls nothing. No keyboard is needed: the pads are big buttons on the screen
(a keyboard, when there is one, types into them too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.i18n import _
from companion.ui.presenters.base import Context, Notices

NAME_LENGTH = 20
"""The longest name the letters pad takes (it still fits a seat row at 800 px)."""

PIN_LENGTH = 4
"""A PIN on the pad has four digits."""


@dataclass
class NameRequest:
    title: str
    on_done: Callable[[str], None]
    """Called with the name typed, stripped and never empty."""
    text: str = ""
    initial: str = ""


@dataclass
class PinRequest:
    title: str
    on_done: Callable[[str], None]
    """Called with the four digits typed."""
    text: str = ""
    seat: int | None = None
    """The seat whose PIN it is: the screen faces them while the pad shows (when the
    players sit around it)."""


class KeypadNotices(Notices):
    """The app's notices, which can also ask for a name (`on_name`) or a PIN (`on_pin`)."""

    # Kivy adds these to the events of Notices (it reads __events__ along the MRO).
    __events__ = ("on_name", "on_pin")  # type: ignore[assignment]

    def ask_name(self, request: NameRequest) -> None:
        self.dispatch("on_name", request)

    def ask_pin(self, request: PinRequest) -> None:
        self.dispatch("on_pin", request)

    def on_name(self, request: NameRequest) -> None:
        pass

    def on_pin(self, request: PinRequest) -> None:
        pass


def ask_name(ctx: Context, request: NameRequest) -> None:
    """Open the letters pad for `request` (a plain message where no pad can be shown)."""
    if isinstance(ctx.notices, KeypadNotices):
        ctx.notices.ask_name(request)
    else:
        ctx.notices.tell(_("Names cannot be typed here."), request.title)


def ask_pin(ctx: Context, request: PinRequest) -> None:
    """Open the PIN pad for `request` (a plain message where no pad can be shown)."""
    if isinstance(ctx.notices, KeypadNotices):
        ctx.notices.ask_pin(request)
    else:
        ctx.notices.tell(_("A PIN cannot be typed here."), request.title)
