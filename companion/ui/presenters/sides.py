"""The table's part for players sitting around the screen: who sits on which side.

When ``display.seating = "around"`` the table offers "Sides": a choice of the players,
each with the side they sit on; the one chosen moves to the other side (`TableSeats.flip`,
kept with the saved game at once) and the app turns the screen if it now faces them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.i18n import N_, _
from companion.ui.presenters.base import Choice
from companion.ui.wording import say

if TYPE_CHECKING:
    from companion.ui.presenters.base import Presenter

TITLE = N_("Who sits where?")
SIDE_WORDS = {"near": N_("near"), "far": N_("far")}
"""Each side's name (`companion.seating.Side`'s values), marked here."""


def choices(presenter: Presenter) -> list[tuple[str, str]]:
    """One line per player: where they sit, and that a tap moves them across."""
    state = presenter.state
    if state is None:
        return []
    seats = presenter.ctx.seats
    out = []
    for player in state.players:
        side = seats.side(player.seat)
        out.append(("side:" + str(player.seat),
                    _("{name}: {side} side (tap: {other})").format(
                        name=player.name, side=side_word(side.value),
                        other=side_word(side.other.value))))
    return out


def side_word(value: str) -> str:
    """A side's name in the language spoken now (an unknown one as it is)."""
    word = SIDE_WORDS.get(value)
    return _(word) if word is not None else value


def choose(presenter: Presenter) -> None:
    """Ask whose side changes."""
    lines = choices(presenter)
    if not lines:
        return
    presenter.ctx.notices.choose(Choice(
        _(TITLE), lines, lambda key: move(presenter, key),
        text=_("The table, the die and a peek turn to face the player whose turn it is.")))


def move(presenter: Presenter, key: str) -> None:
    """The player of `key` ("side:<seat>") sits on the other side from now on."""
    seat = key.partition(":")[2]
    if not seat.isdigit():
        return
    failed = presenter.ctx.seats.flip(int(seat), presenter.session.records)
    if failed is not None:
        presenter.ctx.notices.tell(_("The side is used but not saved: {reason}").format(
            reason=say(failed)), _("Not saved"))
