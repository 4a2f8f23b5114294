"""The well-written baseline app the tap benchmarks compare the companion with.

A small Kivy app written the way DESIGN.md asks ("Kivy on a Pi: known traps"): every
widget built once at start, updated in place, one dialog built once and reused, one
SQLite commit per action. It has the companion's shape where the bench taps it:

- a table screen: a heading, five player rows (name, combo, coins, tokens, status) and
  four buttons; its "End turn" adds the turn's coins to the player's row, commits one row
  to SQLite, and shows whose turn comes next (the heading and two status cells);
- a market screen: six combo rows (a button and its coins) and a back button; a tap on a
  row opens the purchase dialog (built once, its texts set per tap); its "Take" commits one
  row to SQLite (WAL, ``synchronous=FULL``, as the store), changes 12 labels (five on the
  table, six market rows, the log line) and shows the table;
- a die screen: a gpiozero ``Button`` on pin 17 (gpiozero's thread calls back, the app
  crosses to Kivy's thread with ``Clock.schedule_once``, as the companion does), the face
  committed to SQLite, then the die screen shows "Rolling...";
- a map screen (the fourth, for the map tap): a board of 30 regions drawn once into the
  canvas; a tap on a region moves the selection outline and sets the panel's four labels;
  ``set_region`` recolours one region (one ``Color`` changed).

About 100 widgets in all. `bench/kivy_probe.py` (mode ``taps-baseline``) drives it with the
same touches, conditions and timing as the companion.
"""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.uix.widget import Widget

RACES = ("Amazons", "Dwarves", "Elves", "Ghouls", "Giants", "Halflings", "Humans", "Orcs",
         "Ratmen", "Skeletons", "Sorcerers", "Tritons", "Trolls", "Wizards")
POWERS = ("Alchemist", "Berserk", "Bivouacking", "Commando", "Diplomat", "Dragon Master",
          "Flying", "Forest", "Fortified", "Heroic", "Hill", "Merchant", "Mounted", "Pillaging")
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")
COLS, ROWS = 6, 5  # the board's 30 regions
TERRAINS = ((0.55, 0.75, 0.4, 1), (0.3, 0.55, 0.3, 1), (0.65, 0.6, 0.45, 1),
            (0.75, 0.7, 0.4, 1), (0.4, 0.6, 0.8, 1))

KV = """
<Cell@Label>:
    font_size: "16sp"
    text_size: self.size
    halign: "left"
    valign: "middle"

<PlayerRow@BoxLayout>:
    spacing: 6
    Cell:
        id: name
    Cell:
        id: combo
        size_hint_x: 3
    Cell:
        id: coins
    Cell:
        id: tokens
    Cell:
        id: status
        size_hint_x: 1.5

<MarketRow@BoxLayout>:
    spacing: 6
    Button:
        id: pick
        size_hint_x: 4
        font_size: "18sp"
    Cell:
        id: coins

<PurchaseDialog>:
    size_hint: 0.7, 0.5
    auto_dismiss: False
    BoxLayout:
        orientation: "vertical"
        padding: 12
        spacing: 12
        Label:
            id: title
            font_size: "22sp"
        Label:
            id: text
            font_size: "16sp"
        BoxLayout:
            spacing: 12
            size_hint_y: 0.5
            Button:
                id: no
                text: "Cancel"
                on_release: root.answer(False)
            Button:
                id: yes
                text: "Take"
                on_release: root.answer(True)
"""


class PurchaseDialog(ModalView):  # type: ignore[misc]
    """The one confirmation dialog, built once; `ask` sets its texts and opens it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._anim_duration = 0
        self._on_yes: Any = None
        self.shown = False

    def ask(self, title: str, text: str, on_yes: Any) -> None:
        self.ids.title.text = title
        self.ids.text.text = text
        self._on_yes = on_yes
        self.shown = True
        self.open()

    def answer(self, yes: bool) -> None:
        self.shown = False
        self.dismiss()
        if yes and self._on_yes is not None:
            self._on_yes()


class Board(Widget):  # type: ignore[misc]
    """30 regions drawn once; a tap names its region; one region recoloured in place."""

    selected = NumericProperty(-1)

    __events__ = ("on_region_tap",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._colours: list[Color] = []
        self._rects: list[Rectangle] = []
        with self.canvas:
            for n in range(COLS * ROWS):
                self._colours.append(Color(*TERRAINS[n % len(TERRAINS)]))
                self._rects.append(Rectangle())
            Color(1, 1, 1, 1)
            self._outline = Line(width=2)
        self.bind(pos=self._layout, size=self._layout, selected=self._select)

    def _cell(self, n: int) -> tuple[float, float, float, float]:
        w, h = self.width / COLS, self.height / ROWS
        return self.x + (n % COLS) * w, self.y + (n // COLS) * h, w, h

    def _layout(self, *_args: Any) -> None:
        for n, rect in enumerate(self._rects):
            x, y, w, h = self._cell(n)
            rect.pos, rect.size = (x + 1, y + 1), (w - 2, h - 2)
        self._select()

    def _select(self, *_args: Any) -> None:
        if self.selected < 0:
            self._outline.points = []
            return
        x, y, w, h = self._cell(self.selected)
        self._outline.rectangle = (x + 1, y + 1, w - 2, h - 2)

    def centre_of(self, n: int) -> tuple[float, float]:
        x, y, w, h = self._cell(n)
        return x + w / 2, y + h / 2

    def region_at(self, x: float, y: float) -> int | None:
        if not self.collide_point(x, y):
            return None
        col = min(COLS - 1, int((x - self.x) / (self.width / COLS)))
        row = min(ROWS - 1, int((y - self.y) / (self.height / ROWS)))
        return row * COLS + col

    def set_region(self, n: int, rgba: tuple[float, float, float, float]) -> None:
        """One region's holder changed: its colour, nothing else."""
        self._colours[n].rgba = rgba

    def on_region_tap(self, region: int) -> None:
        pass

    def on_touch_down(self, touch: Any) -> bool:
        region = self.region_at(*touch.pos)
        if region is None:
            return bool(super().on_touch_down(touch))
        touch.grab(self)
        touch.ud["board"] = region
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        if self.region_at(*touch.pos) == touch.ud.get("board"):
            self.dispatch("on_region_tap", touch.ud["board"])
        return True


class Baseline(App):  # type: ignore[misc]
    """The baseline app; `db` is its SQLite file (one commit per Take and per roll)."""

    def __init__(self, db: str, pin: int = 17, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.db_path = db
        self.pin = pin
        self.rng = random.Random(3)
        self.rolls = 0
        self.face = 0
        self.turn = 1
        self.seat = 0
        self.coins = [5] * len(NAMES)
        self.market: list[tuple[str, str]] = []
        self.players: list[Any] = []
        self.rows: list[Any] = []
        self.regions: dict[int, int] = {}

    # -- building: everything once ------------------------------------------------------

    def build(self) -> Any:
        Builder.load_string(KV)
        from kivy.factory import Factory

        self.conn = sqlite3.connect(self.db_path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL").fetchall()
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, "
                          "turn INTEGER, seat INTEGER, kind TEXT, body TEXT)")
        manager = ScreenManager(transition=NoTransition())
        # table
        table = Screen(name="table")
        box = BoxLayout(orientation="vertical", padding=8, spacing=4)
        self.heading = Label(font_size="20sp", size_hint_y=0.8)
        box.add_widget(self.heading)
        for n, name in enumerate(NAMES):
            row = Factory.PlayerRow()
            row.ids.name.text = name
            self.players.append(row)
            box.add_widget(row)
            self._player(n)
        self.log_line = Label(font_size="14sp", size_hint_y=0.6)
        box.add_widget(self.log_line)
        buttons = BoxLayout(spacing=8)
        for text, screen in (("Market", "market"), ("Map", "map"), ("Die", "die")):
            button = Button(text=text)
            button.bind(on_release=lambda _b, s=screen: setattr(manager, "current", s))
            buttons.add_widget(button)
        self.end_turn_button = Button(text="End turn")
        self.end_turn_button.bind(on_release=lambda _b: self.end_turn())
        buttons.add_widget(self.end_turn_button)
        box.add_widget(buttons)
        table.add_widget(box)
        # market
        market = Screen(name="market")
        box = BoxLayout(orientation="vertical", padding=8, spacing=4)
        box.add_widget(Label(text="Pick a combo", font_size="20sp", size_hint_y=0.7))
        self.market = [(RACES[n], POWERS[n]) for n in range(6)]
        for n in range(6):
            row = Factory.MarketRow()
            row.ids.pick.bind(on_release=lambda _b, n=n: self.ask(n))
            self.rows.append(row)
            box.add_widget(row)
        back = Button(text="Back", size_hint_y=0.7)
        back.bind(on_release=lambda _b: setattr(manager, "current", "table"))
        box.add_widget(back)
        market.add_widget(box)
        self._market()
        # die
        die = Screen(name="die")
        box = BoxLayout(orientation="vertical", padding=8, spacing=8)
        self.die_face = Label(text="-", font_size="64sp", size_hint_y=2)
        self.die_result = Label(text="", font_size="20sp")
        self.die_purpose = Label(text="", font_size="16sp")
        faces = BoxLayout(spacing=4)
        for face in ("0", "0", "0", "1", "2", "3"):
            faces.add_widget(Label(text=face))
        back = Button(text="Back")
        back.bind(on_release=lambda _b: setattr(manager, "current", "table"))
        for widget in (self.die_face, self.die_result, self.die_purpose, faces, back):
            box.add_widget(widget)
        die.add_widget(box)
        # map
        board_screen = Screen(name="map")
        box = BoxLayout(orientation="horizontal", padding=8, spacing=8)
        self.board = Board(size_hint_x=1.8)
        self.board.bind(on_region_tap=lambda _b, n: self.show_region(n))
        panel = BoxLayout(orientation="vertical", spacing=4)
        self.region_title = Label(font_size="20sp")
        self.region_holder = Label()
        self.region_cost = Label()
        self.region_note = Label()
        act = Button(text="Conquer")
        back = Button(text="Back")
        back.bind(on_release=lambda _b: setattr(manager, "current", "table"))
        for widget in (self.region_title, self.region_holder, self.region_cost,
                       self.region_note, act, back):
            panel.add_widget(widget)
        box.add_widget(self.board)
        box.add_widget(panel)
        board_screen.add_widget(box)
        for screen in (table, market, die, board_screen):
            manager.add_widget(screen)
        manager.current = "table"
        self.dialog = Factory.PurchaseDialog()
        self.manager = manager
        self._heading()
        return manager

    def on_start(self) -> None:
        import gc

        gc.collect()
        gc.freeze()  # the widgets built once stay out of every later collection
        self._die_button()

    def _die_button(self) -> None:
        from gpiozero import Button as Pin  # type: ignore[import-untyped]

        self.button = Pin(self.pin, pull_up=True, bounce_time=None)
        self.button.when_pressed = lambda: Clock.schedule_once(self.roll, 0)

    # -- updates: in place ----------------------------------------------------------------

    def _heading(self) -> None:
        self.heading.text = f"Turn {self.turn}: {NAMES[self.seat]} picks a combo"

    def _player(self, n: int, combo: str = "", coins: int = 5, tokens: int = 0,
                status: str = "waiting") -> None:
        ids = self.players[n].ids
        ids.combo.text, ids.coins.text = combo or "-", f"{coins} coins"
        ids.tokens.text, ids.status.text = f"{tokens} tokens", status

    def _market(self) -> None:
        for n, row in enumerate(self.rows):
            race, power = self.market[n]
            row.ids.pick.text = f"{power} {race}"
            row.ids.coins.text = f"{n} coins" if n else "free"

    def ask(self, row: int) -> None:
        race, power = self.market[row]
        self.dialog.ask(f"{power} {race}?", f"Row {row + 1}: pay {row} coins, "
                        f"take {self.rng.randint(8, 14)} tokens.",
                        lambda: self.take(row))

    def take(self, row: int) -> None:
        race, power = self.market[row]
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO log (turn, seat, kind, body) VALUES (?, ?, ?, ?)",
                              (self.turn, self.seat, "pick", f"{row} {power} {race}" * 4))
        self.picked = (row, self.market[row])
        self._player(self.seat, f"{power} {race}", 5 - row, 10, "conquering")
        self._heading()
        taken = self.market.pop(row)
        self.market.append(taken)
        self._market()
        self.log_line.text = f"{NAMES[self.seat]} took {power} {race} ({time.strftime('%X')})"
        self.manager.current = "table"

    def undo(self) -> None:
        """Back to before the Take (not timed)."""
        row, taken = self.picked
        self.market.remove(taken)
        self.market.insert(row, taken)
        self._market()
        self._player(self.seat)

    def end_turn(self) -> None:
        """The turn's coins on the player's row, one row committed, the next player's turn
        shown."""
        seat, earned = self.seat, self.rng.randint(2, 9)
        self.coins[seat] += earned
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO log (turn, seat, kind, body) VALUES (?, ?, ?, ?)",
                              (self.turn, seat, "end", f"{earned} coins"))
        ids = self.players[seat].ids
        ids.coins.text, ids.status.text = f"{self.coins[seat]} coins", "waiting"
        self.seat = (seat + 1) % len(NAMES)
        if self.seat == 0:
            self.turn += 1
        self.players[self.seat].ids.status.text = "playing"
        self._heading()
        self.manager.current = "table"

    def roll(self, _dt: float) -> None:
        self.face = self.rng.choice((0, 0, 0, 1, 2, 3))
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO log (turn, seat, kind, body) VALUES (?, ?, ?, ?)",
                              (self.turn, self.seat, "roll", str(self.face)))
        self.rolls += 1
        self.die_face.text = "?"
        self.die_result.text = "Rolling..."
        self.die_purpose.text = f"{NAMES[self.seat]} rolls for a last conquest"
        self.manager.current = "die"
        Clock.schedule_once(self.landed, 0.9)

    def landed(self, _dt: float) -> None:
        self.die_face.text = str(self.face)
        self.die_result.text = f"Rolled {self.face}"

    def show_region(self, n: int) -> None:
        self.board.selected = n
        holder = self.regions.get(n)
        self.region_title.text = f"Region {n}: {('Farm', 'Forest', 'Hill', 'Field', 'Lake')[n % 5]}"
        self.region_holder.text = f"Held by {NAMES[holder]}" if holder is not None else "Empty"
        self.region_cost.text = f"Conquering it costs {2 + n % 3} tokens"
        self.region_note.text = "Next to the border" if n % COLS in (0, COLS - 1) else ""

    def change_region(self, n: int, seat: int | None) -> None:
        """One region's holder changed (a conquest, or its undo)."""
        if seat is None:
            self.regions.pop(n, None)
            self.board.set_region(n, TERRAINS[n % len(TERRAINS)])
        else:
            self.regions[n] = seat
            self.board.set_region(n, (0.2 + 0.15 * seat, 0.3, 0.8 - 0.1 * seat, 1))


def widget_count(root: Any) -> int:
    """How many widgets the tree under `root` holds (the dialog counted apart)."""
    return 1 + sum(widget_count(child) for child in root.children)


def run(db: Path | str, on_start: Any) -> None:
    """Run the baseline app; `on_start(app)` is called once it has started."""

    class Probed(Baseline):
        def on_start(self) -> None:
            super().on_start()
            on_start(self)

    Probed(str(db)).run()
