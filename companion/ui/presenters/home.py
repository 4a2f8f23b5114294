"""Home: a new game, back to the game on the table, resume a saved one, past games and
stats, settings, and a status line."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from companion.rules.game import GameState
from companion.ui.presenters.base import Presenter


class HomePresenter(Presenter):
    game_text = StringProperty("No game on the table.")
    can_resume = BooleanProperty(False)
    resume_text = StringProperty("Resume a saved game")
    """Set by whoever knows the saved games (e.g. "Resume: Ann, Bob, Cy, turn 3")."""
    die_status = StringProperty("Die button: none (roll on screen)")
    grid_status = StringProperty("Sensor grid: not connected (tap the map)")

    def refresh(self, state: GameState) -> None:
        names = ", ".join(p.name for p in state.players)
        if state.is_over:
            self.game_text = f"Finished: {names}."
        else:
            track = state.track
            self.game_text = f"On the table: {names}, turn {track.turn} of {track.turns}."

    def clear(self) -> None:
        self.game_text = "No game on the table."

    def act(self, key: str) -> None:
        if key == "new_game":
            names = [p.name for p in self.state.players] if self.state is not None else None
            presenter = self.ctx.presenters.get("new_game")
            if presenter is not None:
                presenter.reset(names)
            self.go("new_game")
        elif key == "continue":
            state = self.state
            self.go("game_end" if state is not None and state.is_over else "table")
        elif key == "resume":
            self.resume()
        elif key == "history":
            self.go("history")
        elif key == "settings":
            self.go("settings")

    def resume(self) -> None:
        if self.ctx.on_resume is None or not self.can_resume:
            self.ctx.notices.tell("There is no saved game to resume.", "Resume")
            return
        self.ctx.on_resume()
