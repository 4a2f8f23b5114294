"""The mini-expansions on screen (Be Not Afraid...: Leprechauns, Pygmies; Grand Dames:
Priestesses, Historian): where the Priestesses' Ivory Tower stands when they go into
decline, and what the die rolled for the Pygmies lost in a conquest.

Their counts (the Pots of Gold, the declines the Historian saw) are the rules' and the
scoring screen's as for any race; this module only asks the table the two questions the
base screens do not, and hands the answers to the session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kivy.graphics import Color, Ellipse, InstructionGroup

from companion.i18n import N_, _, ngettext
from companion.rules import Board, Event, GameState, RegionState, mini_game, names
from companion.ui import map_paint as paint
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.expansion import ExpansionView, terrain_words

# --- the map's symbols ------------------------------------------------------------------------


def _paint_pot(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a black pot brimming with gold
    g.add(Color(0.12, 0.12, 0.12, 1))
    g.add(Ellipse(pos=(cx - s * 0.85, cy - s * 0.9), size=(s * 1.7, s * 1.5)))
    g.add(Color(0.98, 0.78, 0.10, 1))
    g.add(Ellipse(pos=(cx - s * 0.7, cy + s * 0.15), size=(s * 1.4, s * 0.6)))


def _pots(_board: Board, _rid: int, state: RegionState | None,
          _pieces: Mapping[str, int]) -> int:
    return int(state.markers.has(mini_game.POT_OF_GOLD)) if state is not None else 0


MAP_SYMBOLS = (paint.MapSymbol("pot_of_gold", N_("Pot of Gold"), "dragon", _pots, _paint_pot),)
"""The Leprechauns' Pots of Gold, as the map draws them."""

MARKER_WORDS = {"pot_of_gold": N_("a Pot of Gold")}
"""Its markers as a sentence names them (marked here, translated where shown)."""


class MiniExpansionsView(ExpansionView):
    """The mini-expansions' part of the shared screens: the Ivory Tower, the Pygmies' die."""

    expansion = "the mini-expansions"
    map_symbols = MAP_SYMBOLS

    def decline(self, presenter: Presenter, state: GameState) -> bool:
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
            _("The Ivory Tower"),
            [(str(rid), _("Region {region} ({terrain})").format(
                region=rid, terrain=terrain_words(board.region(rid).terrain.value)))
             for rid in held],
            build,
            text=_("One Priestess from each of the {count} regions stacks up in the region you "
                   "choose; the other regions are left empty.").format(count=len(held))))
        return True

    def conquered(self, presenter: Presenter) -> None:
        """After a conquest: the die rolled for the Pygmies lost, and what comes back."""
        history = presenter.session.history
        if history is None:
            return
        state = history.state
        owed = dict(mini_game.pygmies_back(state))
        for event in history.last_step:
            if isinstance(event, mini_game.PygmiesRecovered):
                name = state.players[event.seat].name
                back = owed.get(event.seat, 0)
                faces = ", ".join(str(face) for face in event.rolls)
                if back:
                    told = ngettext(
                        "{name}'s Pygmies lost a token, so the die was rolled for them: {faces}. "
                        "{name} takes {count} new Pygmy from the box and places them when this "
                        "turn ends.",
                        "{name}'s Pygmies lost a token, so the die was rolled for them: {faces}. "
                        "{name} takes {count} new Pygmies from the box and places them when this "
                        "turn ends.", back)
                else:
                    told = _("{name}'s Pygmies lost a token, so the die was rolled for them: "
                             "{faces}. No new Pygmy this time.")
                presenter.ctx.notices.tell(told.format(name=name, faces=faces, count=back),
                                           _("Pygmies"))

    def marker_words(self, marker: str) -> str | None:
        words = MARKER_WORDS.get(marker)
        return _(words) if words is not None else None

    def event_text(self, event: Event, who: Callable[[int], str]) -> str | None:
        if isinstance(event, mini_game.PygmiesRecovered):
            rolls = ", ".join(map(str, event.rolls))
            return _("the die rolled for {name}'s lost Pygmies ({rolls})").format(
                name=who(event.seat), rolls=rolls)
        return None
