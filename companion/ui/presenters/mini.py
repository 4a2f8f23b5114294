"""The mini-expansions on screen (Be Not Afraid...: Leprechauns, Pygmies; Grand Dames:
Priestesses, Historian): where the Priestesses' Ivory Tower stands when they go into
decline, and what the die rolled for the Pygmies lost in a conquest.

Their counts (the Pots of Gold, the declines the Historian saw) are the rules' and the
scoring screen's as for any race; this module only asks the table the two questions the
base screens do not, and hands the answers to the session.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.rules import Event, GameState, mini_game, names
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.expansion import ExpansionView


def ask_tower(presenter: Presenter, state: GameState) -> bool:
    """The Priestesses go into decline: ask where their Ivory Tower stands (False when the
    active race is not the Priestesses, or holds no region: the usual decline)."""
    active = state.current.active
    if active is None or active.race != names.PRIESTESSES:
        return False
    held = state.regions.held_by(state.current.seat, active.race, in_decline=False)
    if not held:
        return False
    board = state.map

    def build(region: str) -> None:
        presenter.attempt(lambda: presenter.session.decline(int(region)))

    presenter.ctx.notices.choose(Choice(
        "The Ivory Tower",
        [(str(rid), f"Region {rid} ({board.region(rid).terrain.value})") for rid in held],
        build,
        text=f"One Priestess from each of the {len(held)} regions stacks up in the "
             "region you choose; the other regions are left empty."))
    return True


def tell_pygmies(presenter: Presenter) -> None:
    """After a conquest: the die rolled for the Pygmies lost, and what comes back."""
    history = presenter.session.history
    if history is None:
        return
    state = history.state
    owed = dict(state.track.this_turn.pygmies_back)
    for event in history.last_step:
        if isinstance(event, mini_game.PygmiesRecovered):
            name = state.players[event.seat].name
            back = owed.get(event.seat, 0)
            faces = ", ".join(str(face) for face in event.rolls)
            some = "1 new Pygmy" if back == 1 else f"{back} new Pygmies"
            news = (f"{name} takes {some} from the box and places them when this turn "
                    "ends." if back else "No new Pygmy this time.")
            presenter.ctx.notices.tell(f"{name}'s Pygmies lost a token, so the die was rolled "
                                       f"for them: {faces}. {news}", "Pygmies")


class MiniExpansionsView(ExpansionView):
    """The mini-expansions' part of the shared screens: the Ivory Tower, the Pygmies' die."""

    expansion = "the mini-expansions"

    def decline(self, presenter: Presenter, state: GameState) -> bool:
        return ask_tower(presenter, state)

    def conquered(self, presenter: Presenter) -> None:
        tell_pygmies(presenter)

    def event_text(self, event: Event, who: Callable[[int], str]) -> str | None:
        if isinstance(event, mini_game.PygmiesRecovered):
            rolls = ", ".join(map(str, event.rolls))
            return f"the die rolled for {who(event.seat)}'s lost Pygmies ({rolls})"
        return None
