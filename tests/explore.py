"""The state explorer: seeded random legal games played through the real screens, every
state a table looks at drawn and held to the quality bar, at every size and language.

    .venv/bin/python tests/explore.py [OUT_DIR] [--seeds 0-39] [--size 800x480]...
                                      [--lang fr]... [--pngs [--every N]]
                                      [--replay SEED:STEP,...]

A test program beside `screenshots.py`, and built on it: the same child process (a
1280x1280 offscreen window shrunk to each size, `screenshots.child_env`) and the same
checks (`screenshots.screen_problems`, `ui_support.main_out_of_sight`). Where
`screenshots.py` shows scripted scenes, this plays games: a seed draws the table (2 to 6
players; base game, mini-expansions, Necromancer Island, teams or River World) and every
choice made in it, among the intents the screens offer at that moment (a combo of the
market, a lit region of the map and the conquest its panel offers, the Dragon, Berserk's
roll, the final conquest with the die, the tokens spread, the defenders' tokens put back,
a decline, the end of a turn), to the game's end and its standings (a tie in one game of
four). At every step it shows what the table would look at: the table, the map with each
lit region chosen in turn (at most `REGIONS_SHOWN`), the market and its question, the die,
the scoring, the game end, each revealed total. Each such view is a *state*, numbered in its
game (`seed:step`); the choices never depend on the size or the language, so a state is
the same at every size and in every language, and `--replay SEED:STEP` draws it again
(several, of one seed: ``--replay 0:4,0:33``)
(with `--pngs`, as ``OUT_DIR/<size>/<lang>/<seed>-<step>.png``; every failing state is
saved so, and with ``--every N`` every N-th distinct state too, to look at).

Each state is checked for (kinds of violation, as counted in the summary):

- ``layout``: `screenshots.screen_problems` (nothing outside the window, text of 14 px or
  more, no overflow, touch targets of 48 px, glyphs, no word broken or cut short);
- ``cut``: no scrolled text (the table's reminders) whose visible edge cuts through a
  line: the last line shown is whole (but in a panel made to be scrolled, a `Scroller`
  with `panel` set, whose bar always shows);
- ``out_of_sight``: the view's main action (the one a player needs next) lies whole in
  sight without scrolling (`ui_support.main_out_of_sight`);
- ``overlap``: no control lies over another one, nor under the header's buttons;
- ``untranslated``: in ``fr`` and ``de``, no text shown is a msgid left in English;
- ``moved``: between two states of one screen (one intent apart), a control that stays
  on screen does not move by more than `MOVE_PX` where another control now lies: a tap
  in the same place does the same thing, or nothing.

States are deduplicated (the same screen showing the same texts at the same size and
language is checked once): the summary counts distinct states drawn per size and
language, and the violations by kind, each with its ``seed:step``. Exit status 1 when
any violation is found.

The checks read the widget tree (where each widget lies, what it says), never the pixels:
each state is laid out by Kivy's loop as a frame would be (`ui_support.lay_out`) but
drawn only when it is saved as a PNG, drawing being most of a frame's time on a software
GL.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import screenshots

ROOT = Path(__file__).resolve().parents[1]
SIZES = ("800x480", "480x800", "720x1280")
"""The sizes explored: the table's 7-inch panel both ways, and a tall portrait screen."""
LANGUAGES = ("en", "fr", "de", "qps")
KINDS = ("layout", "cut", "out_of_sight", "overlap", "untranslated", "moved")
MOVE_PX = 4
"""How far a control may move between two states of its screen (a finger's slack)."""
REGIONS_SHOWN = 2
"""How many lit regions of the map are chosen in turn, at most, at each step."""
STEPS_PER_GAME = 2000
"""A game is left there after this many states (none of the explored ones needs it)."""
SETUPS = ("base", "mini", "necromancer", "teams", "river")


@dataclass(frozen=True)
class Setup:
    """The table a seed draws: how many players and which expansions."""

    seed: int
    players: int
    kind: str

    @property
    def tie(self) -> bool:
        """Whether the game is steered to a tie for the most coins at its end."""
        return self.seed % 4 == 3

    def describe(self) -> str:
        return f"{self.players} players, {self.kind}{', a tie' if self.tie else ''}"


def setup_for(seed: int) -> Setup:
    """The table `seed` draws: the kinds of game in turn, 2 to 6 players (as each allows:
    the base game's boards are for 2 to 5, six play in teams or with the Necromancer)."""
    rng = random.Random(seed * 7919)
    kind = SETUPS[seed % len(SETUPS)]
    players = {"base": min(5, rng.randint(2, 6)), "mini": rng.randint(2, 5),
               "necromancer": rng.randint(3, 6), "teams": 6, "river": rng.randint(2, 5)}[kind]
    return Setup(seed, players, kind)


def new_session(setup: Setup) -> Any:
    """A Session playing the game `setup` describes, its randomness drawn from its seed."""
    from factories import COLOURS, NAMES

    from companion.rules.events import Seat
    from companion.session import Session

    names = (*NAMES, "Fay")
    colours = (*COLOURS, "red")
    s = Session(rng=random.Random(setup.seed))
    seats = [Seat(names[i], colours[i]) for i in range(setup.players)]
    asked: dict[str, Any] = {
        "base": dict[str, Any](), "mini": {"expansions": ("base", "be-not-afraid", "cursed",
                                            "grand-dames", "royal-bonus")},
        "necromancer": {"necromancer": True}, "teams": {"teams": True},
        "river": {"river_world": True}}[setup.kind]
    s.new_game(seats, **asked)
    return s


def session_from_log(path: Path) -> Any:
    """A Session at the state a saved game log reaches (``[[event record, ...], ...]``, one
    list a step, as `companion.rules.events.to_record` writes them): a state an earlier
    exploration drew, played again exactly, whatever the explorer's choices are now."""
    from companion.rules.codec import from_record
    from companion.rules.history import replay
    from companion.session import Session

    steps = [tuple(from_record(record) for record in step)
             for step in json.loads(path.read_text())]
    s = Session(rng=random.Random(0))
    s.history = replay(steps, s.catalog)
    return s


# -- the state drawn: what one view shows, and what it is checked for ---------------------

@dataclass
class View:
    """One state as drawn: where (`seed:step`), which screen, its controls' places."""

    seed: int
    step: int
    screen: str
    what: str
    main: tuple[str, ...]
    places: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)


@dataclass
class Found:
    """What the exploration of one language found, per size."""

    states: Counter[str] = field(default_factory=Counter)
    violations: list[dict[str, Any]] = field(default_factory=list)
    games: int = 0
    stuck: list[str] = field(default_factory=list)


_MSGIDS: list[Any] = []


def untranslated(language: str, shown: list[str]) -> list[str]:
    """The texts of `shown` that are msgids of the catalog left in English in `language`
    (only fr and de: the pseudo-locale and English show English words on purpose). A text
    is looked at line by line; a msgid with placeholders matches whatever fills them."""
    import re

    if language not in ("fr", "de"):
        return []
    if not _MSGIDS:
        from babel.messages.pofile import read_po

        plain: set[str] = set()
        patterns: list[str] = []
        path = ROOT / "companion" / "locale" / language / "LC_MESSAGES" / "companion.po"
        with path.open("rb") as f:
            catalog = read_po(f)
        for message in catalog:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strs = (message.string if isinstance(message.string, tuple)
                    else (message.string,))
            for msgid in map(str, ids):
                if not msgid or msgid in strs or len(msgid) < 6 or " " not in msgid:
                    continue  # a word alike in both languages ("Menu", "Zombies")
                if "{" in msgid:
                    fixed = re.split(r"\{[^}]*\}", msgid)
                    if sum(len(part) for part in fixed) >= 12:
                        patterns.append(".*?".join(re.escape(part) for part in fixed))
                else:
                    plain.add(msgid)
        _MSGIDS.append(plain)
        _MSGIDS.append(re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns
                       else None)
    plain_ids, pattern = _MSGIDS
    found = []
    for text in shown:
        for line in text.split("\n"):
            line = line.strip()
            if line in plain_ids or (pattern is not None and pattern.fullmatch(line)):
                found.append(line)
    return found


def controls() -> dict[str, tuple[Any, tuple[float, float, float, float]]]:
    """Every shown, enabled control, by its action key (or its text), with its window
    rectangle; the topmost view's (a dialog's) when one is open."""
    import ui_support as ui
    from kivy.uix.behaviors import ButtonBehavior

    top = ui.dialogs()[-1] if ui.dialogs() else None
    root = top if top is not None else ui.window()
    found: dict[str, tuple[Any, tuple[float, float, float, float]]] = {}
    for widget in ui.walk_shown(root):
        if not isinstance(widget, ButtonBehavior) or widget.disabled or _visible(widget) is None:
            continue  # a control scrolled out of sight takes no tap
        key = str(getattr(widget, "action_key", "") or getattr(widget, "text", ""))
        if not key:
            continue
        x0, y0 = widget.to_window(widget.x, widget.y)
        found.setdefault(key, (widget, (x0, y0, float(widget.width), float(widget.height))))
    return found


def _inside(point: tuple[float, float], rect: tuple[float, float, float, float]) -> bool:
    x, y = point
    return rect[0] <= x <= rect[0] + rect[2] and rect[1] <= y <= rect[1] + rect[3]


def overlaps(places: dict[str, tuple[Any, tuple[float, float, float, float]]]) -> list[str]:
    """Controls drawn over one another (more than 2 px each way), neither inside the other
    (a stepper's buttons lie inside its row): a finger cannot tell which it taps."""
    problems = []
    items = sorted(places.items())
    for i, (key, (w, a)) in enumerate(items):
        for other, (v, b) in items[i + 1:]:
            if w in v.walk() or v in w.walk():
                continue
            dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            if dx > 2 and dy > 2:
                problems.append(f"{key!r} and {other!r} overlap ({dx:.0f}x{dy:.0f} px)")
    return problems


def _visible(widget: Any) -> tuple[float, float, float, float] | None:
    """`widget`'s window rectangle as far as it shows (clipped by the scroll views it lies
    in), (x0, y0, x1, y1); None when none of it shows."""
    from kivy.uix.scrollview import ScrollView

    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    node = widget.parent
    while node is not None and node.parent is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            sx0, sy0 = node.to_window(node.x, node.y)
            sx1, sy1 = node.to_window(node.right, node.top)
            x0, y0, x1, y1 = max(x0, sx0), max(y0, sy0), min(x1, sx1), min(y1, sy1)
        node = node.parent
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def covered(places: dict[str, tuple[Any, tuple[float, float, float, float]]],
            cut: list[str]) -> list[str]:
    """Controls with a text of another widget drawn over them (a banner grown over the
    header's buttons); and, into `cut`, the texts of a scrolled text (a label right in a
    scroll view, not a list's row) whose visible edge cuts through one of their lines."""
    import ui_support as ui
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    top = ui.dialogs()[-1] if ui.dialogs() else None
    labels = [w for w in ui.walk_shown(top if top is not None else ui.window())
              if isinstance(w, Label) and w.text.strip()]
    problems = []
    for label in labels:
        seen = _visible(label)
        if seen is None:
            continue
        _, y0 = label.to_window(label.x, label.y)
        _, y1 = label.to_window(label.right, label.top)
        scroll = (label.parent if isinstance(label.parent, ScrollView) else
                  getattr(label.parent, "parent", None))
        if (seen[1] > y0 + 1 or seen[3] < y1 - 1) and isinstance(scroll, ScrollView) \
                and not getattr(scroll, "panel", False):
            lines = max(1, len(getattr(label._label, "_cached_lines", None) or [1]))
            th = float(label.texture_size[1])
            text_top = (y0 + y1) / 2 + th / 2
            line = th / lines
            for edge in (seen[1], seen[3]):
                into = (text_top - edge) % line if text_top - th < edge < text_top else 0
                if line * 0.15 < into < line * 0.85:
                    cut.append(f"the edge of a scrolled text cuts through a line of "
                               f"{label.text[:40]!r}")
                    break
        for key, (widget, rect) in places.items():
            if label is widget or widget in label.walk() or label in widget.walk():
                continue
            dx = min(seen[2], rect[0] + rect[2]) - max(seen[0], rect[0])
            dy = min(seen[3], rect[1] + rect[3]) - max(seen[1], rect[1])
            if dx > 2 and dy > 2:
                problems.append(f"the text {label.text[:30]!r} lies over {key[:30]!r} "
                                f"({dx:.0f}x{dy:.0f} px)")
    return problems


def _parents(widget: Any) -> Iterator[Any]:
    node = widget.parent
    while node is not None and node.parent is not node:
        yield node
        node = node.parent


def moves(before: dict[str, tuple[float, float, float, float]],
          after: dict[str, tuple[Any, tuple[float, float, float, float]]], what: str) -> list[str]:
    """Controls that stayed on screen but moved more than `MOVE_PX`, so that a tap where one
    was now lands on another control."""
    problems = []
    for key, was in before.items():
        if key not in after:
            continue
        now = after[key][1]
        if all(abs(a - b) <= MOVE_PX for a, b in zip(was, now, strict=True)):
            continue
        centre = (was[0] + was[2] / 2, was[1] + was[3] / 2)
        hit = [other for other, (_, rect) in after.items()
               if other != key and _inside(centre, rect)]
        if hit:
            problems.append(f"{key[:40]!r} moved after {what}: ({was[0]:.0f},{was[1]:.0f}) -> "
                            f"({now[0]:.0f},{now[1]:.0f}); a tap where it was hits "
                            f"{hit[0][:40]!r}")
    return problems


# -- playing: the intents the screens offer, chosen at random --------------------------------

class Explorer:
    """Plays seeded games on the app, showing (`look`) every state a table sees.

    Invariant: every random choice is drawn from the game's own `random.Random(seed)`, and
    none reads the layout, so a `seed:step` names the same state at every size."""

    def __init__(self, app: Any, size: str, language: str, found: Found, *,
                 replay: frozenset[tuple[int, int]] | None = None, out: Path | None = None,
                 pngs: bool = False, every: int = 0) -> None:
        self.app = app
        self.every = every
        """With `pngs`: a PNG of every `every`-th distinct state too, to look at (0: none)."""
        self.size = size
        self.language = language
        self.found = found
        self.replay = replay
        self.out = out
        self.pngs = pngs
        self.seen: set[tuple[Any, ...]] = set()
        self.seed = 0
        self.step = 0
        self.last: View | None = None
        self.acted = ""

    # -- the views ------------------------------------------------------------------------
    @property
    def p(self) -> dict[str, Any]:
        return self.app.presenters  # type: ignore[no-any-return]

    @property
    def screen(self) -> str:
        return str(self.app.ctx.nav.current)

    def look(self, what: str, main: tuple[str, ...] = ()) -> None:
        """Draw the state shown now and check it (once per distinct state)."""
        import ui_support as ui

        self.step += 1
        print(self.seed, self.step, flush=True)  # for `screenshots.run_child`
        if self.replay is not None and (self.seed, self.step) not in self.replay:
            if (self.seed, self.step + 1) in self.replay:  # the state before: its places,
                ui.lay_out(3)  # for the controls that move
                dialog = ui.dialogs()[-1] if ui.dialogs() else None
                screen = (self.screen if dialog is None
                          else f"{self.screen}+{type(dialog).__name__}")
                self.last = View(self.seed, self.step, screen, what, main,
                                 {k: rect for k, (_, rect) in controls().items()})
                self.acted = ""
            return
        ui.lay_out(3)
        dialog = ui.dialogs()[-1] if ui.dialogs() else None
        screen = self.screen if dialog is None else f"{self.screen}+{type(dialog).__name__}"
        places = controls()
        view = View(self.seed, self.step, screen, what, main,
                    {k: rect for k, (_, rect) in places.items()})
        last, self.last = self.last, view
        shown = ui.texts(ui.window())
        key = (screen, tuple(shown), tuple(sorted(view.places)))
        if key in self.seen and self.replay is None:
            return
        self.seen.add(key)
        self.found.states[self.size] += 1
        problems: list[tuple[str, str]] = []
        problems += [("layout", p) for p in screenshots.screen_problems([ui.window()])]
        problems += [("out_of_sight", p) for p in ui.main_out_of_sight(main)]
        cut: list[str] = []
        problems += [("overlap", p) for p in (*overlaps(places), *covered(places, cut))]
        problems += [("cut", p) for p in cut]
        problems += [("untranslated", f"{t!r} shown in English")
                     for t in untranslated(self.language, shown)]
        if last is not None and last.screen == screen and self.acted:
            problems += [("moved", p) for p in moves(last.places, places, self.acted)]
        self.acted = ""
        for kind, problem in problems:
            self.found.violations.append({
                "kind": kind, "seed": self.seed, "step": self.step, "size": self.size,
                "lang": self.language, "screen": screen, "what": what, "problem": problem})
        every = self.every and self.found.states[self.size] % self.every == 0
        if self.pngs and (problems or every or self.replay is not None) and self.out is not None:
            ui.screenshot(self.out / self.size / self.language / f"{self.seed}-{self.step}.png")

    def did(self, what: str) -> None:
        """An intent was applied on the screen shown: the next state of the same screen is
        compared with the last one for controls that moved."""
        import ui_support as ui

        self.acted = what
        ui.lay_out(2)

    # -- dialogs --------------------------------------------------------------------------
    def answer_dialogs(self, rng: random.Random) -> None:
        """Answer what dialogs the last intent opened: yes to a question, a choice at
        random, OK to a message."""
        import ui_support as ui

        from companion.ui.widgets import ChoiceDialog, ConfirmDialog

        for _ in range(6):
            if not ui.dialogs():
                return
            dialog = ui.dialogs()[-1]
            if isinstance(dialog, ConfirmDialog):
                self.look("question", ("yes",))
                dialog.answer(True)
            elif isinstance(dialog, ChoiceDialog) and dialog.choices:
                self.look("choice")
                dialog.act(rng.choice(dialog.choices)["key"])
            else:
                self.look("message")
                dialog.dismiss()
            ui.lay_out(2)
        ui.close_dialogs()

    # -- a game -----------------------------------------------------------------------------
    def play(self, seed: int) -> None:
        """Play the game `seed` draws to its end, showing every state."""
        import ui_support as ui

        setup = setup_for(seed)
        self.seed, self.step, self.last, self.acted = seed, 0, None, ""
        rng = random.Random(seed)
        s = new_session(setup)
        ui.close_dialogs()
        self.app.use_session(s, screen="table")
        self.found.games += 1
        stalled = 0
        while not s.state.is_over and self.step < STEPS_PER_GAME:
            before = len(s.history.log)
            self.turn_step(s, rng, setup)
            stalled = stalled + 1 if len(s.history.log) == before else 0
            if stalled >= 6:
                if not self.push_on(s):
                    self.found.stuck.append(f"{seed}:{self.step} at {s.state.track.phase}")
                    return
                stalled = 0
        if not s.state.is_over:
            self.found.stuck.append(f"{seed}:{self.step} after {STEPS_PER_GAME} states")
            return
        if setup.tie:
            self.tie(s)
        self.game_end()

    def push_on(self, s: Any) -> bool:
        """The screens offered nothing that moved the game (an expansion's step the explorer
        does not know): the turn goes on as the rules' own intents do; False if nothing can."""
        from factories import end_turn, finish_redeployment

        from companion.rules import Phase
        from companion.rules.errors import RulesError

        phase = s.state.track.phase
        table = self.p["table"]
        owed = sorted(a["key"] for a in table.actions if a.get("kind") == "warning")
        try:
            if owed:  # tokens to put back first (a defender's, the Necromancer's Ghosts)
                table.act(owed[0])
                self.answer_dialogs(random.Random(0))
            elif phase is Phase.PICK_COMBO:
                s.pick(0)
            elif phase is Phase.CONQUER:
                s.finish_conquests()
            elif phase is Phase.REDEPLOY:
                finish_redeployment(s)
            elif phase is Phase.SCORE:
                s.score()
            else:
                end_turn(s)
        except RulesError:
            return False
        self.app.ctx.nav.go("table")
        return True

    def tie(self, s: Any) -> None:
        """The two richest players end on the same total (a correction, as the scoring
        screen's adjustment makes it), so the tie-break shows."""
        from companion.rules.views import final_totals

        totals = [coins for _, coins in final_totals(s.state)]
        order = sorted(range(len(totals)), key=lambda i: -totals[i])
        if len(order) >= 2 and totals[order[0]] != totals[order[1]]:
            s.adjust_coins(order[1], totals[order[0]] - totals[order[1]], "a tie, explored")

    def game_end(self) -> None:
        import ui_support as ui

        self.app.ctx.nav.go("game_end")
        p = self.p["game_end"]
        ui.lay_out(2)
        self.look("game end", ("new_game",) if p.all_revealed else ("reveal",))
        while not p.all_revealed:
            p.reveal_next()
            self.did("reveal")
            self.look("revealed", () if p.all_revealed else ("reveal",))
        if p.needs_tiebreak:
            for row in p.tie_rows:
                p.set_tokens(row["seat"], 5 + row["seat"])
            self.look("tie-break", ("decide",))
            p.decide()
            self.did("decide")
        self.look("standings", ("new_game",))

    def turn_step(self, s: Any, rng: random.Random, setup: Setup) -> None:
        """One intent of the turn, chosen among those the table offers now."""
        nav = self.app.ctx.nav
        if self.screen != "table":
            nav.go("table")
        table = self.p["table"]
        actions = [a for a in table.actions if a.get("key") and not a.get("disabled")]
        main = next((a["key"] for a in actions if a.get("kind") == "primary"),
                    actions[0]["key"] if actions else "")
        self.look("table", (main,) if main else ())
        if not actions:
            return
        keys = sorted(a["key"] for a in actions)  # chosen by name, not by place
        owed = [k for k in keys if k.startswith("spread:")]
        if owed and rng.random() < 0.85:
            key = owed[0] if rng.random() < 0.7 else owed[-1]
        elif "decline" in keys and rng.random() < 0.06:
            key = "decline"
        elif "map" in keys and "finish_conquests" in keys and rng.random() < 0.85:
            key = "map"
        else:
            key = main if rng.random() < 0.8 else rng.choice(keys)
        if key == "decline":
            table.act(key)
            self.answer_dialogs(rng)
            self.did(key)
            return
        if key == "map":
            self.map_turn(s, rng)
            return
        if key == "market":
            self.market(rng)
            return
        if key == "scoring":
            table.act(key)
            self.look("scoring", ("score",))
            if rng.random() < 0.2:
                self.p["scoring"].act("quick")
                self.look("scoring quick", ("score_quick",))
                self.p["scoring"].act("board")
            self.p["scoring"].act("score")
            self.answer_dialogs(rng)
            return
        if key == "game_end":
            return
        table.act(key)
        self.did(key)
        self.answer_dialogs(rng)
        if self.screen == "die":
            self.die()
        elif self.screen == "map":
            self.map_turn(s, rng)
        elif self.screen not in ("table",):
            self.other_screen(rng)

    OTHER_SKIPPED = frozenset({"back", "top_back", "rules", "top_rules", "top_home", "home",
                               "top_market", "top_map", "correct", "peek"})

    def other_screen(self, rng: random.Random, taps: int = 4) -> None:
        """A screen of an expansion (the Necromancer's): its buttons tapped (a primary one
        first), a few times, then back to the table."""
        screen = self.screen
        for _ in range(taps):
            places = controls()
            keys = sorted(k for k, (w, _) in places.items()
                          if k not in self.OTHER_SKIPPED and not k.startswith(("minus", "plus"))
                          and getattr(w, "action_key", ""))
            primary = [k for k in keys if getattr(places[k][0], "kind", "") == "primary"]
            self.look(screen, tuple(primary[:1]))
            if not keys:
                break
            key = rng.choice(primary or keys)
            places[key][0].dispatch("on_release")
            self.did(key)
            self.answer_dialogs(rng)
            if self.screen != screen:
                break
        self.app.ctx.nav.go("table")

    def market(self, rng: random.Random) -> None:
        self.p["table"].act("market")
        market = self.p["market"]
        rows = [r for r in market.rows if r["kind"] == "primary"]
        self.look("market", ("back",))
        if market.reveal_needed:
            race_stack = self.app.session.state.market.race_stack
            power_stack = self.app.session.state.market.power_stack
            market.set_race(race_stack[0])
            market.set_power(power_stack[0])
            self.look("market reveal", ("reveal",))
            market.reveal()
            self.answer_dialogs(rng)
            return
        if not rows:
            market.act("back")
            return
        weights = [6 if r["row"] == 0 else 1 for r in rows]
        row = rng.choices(rows, weights)[0]["row"]
        market.choose(row)
        self.answer_dialogs(rng)

    def die(self) -> None:
        die = self.p["die"]
        die.land()
        self.look("die", ("done",) if die.mode == "final" else ("back",))
        die.act("back")

    def map_turn(self, s: Any, rng: random.Random) -> None:
        """On the map: each lit region (some of them) chosen in turn, then a conquest (or
        the end of conquering, or a redeployment step)."""
        if self.screen != "map":
            self.app.ctx.nav.go("map")
        board = self.p["map"]
        lit = sorted(board.highlight)
        self.look("map", ("back",))
        if not lit:
            held = sorted(s.state.regions.held_by(s.state.track.seat,
                                                   s.state.current.active.race)
                          if s.state.current.active is not None else ())
            if held:
                rid = rng.choice(held)
                board.tap(rid)
                self.look(f"map: region {rid}", ("back",))
                steps = sorted(a["key"] for a in board.actions
                               if a.get("key") in ("add_token", "take_token")
                               and not a.get("disabled"))
                if steps:
                    board.act(rng.choice(steps))
                    self.did(steps[0])
                    self.look(f"map: region {rid} stepped", ("back",))
            board.act("finish_redeployment" if any(
                a["key"] == "finish_redeployment" for a in board.bottom_actions) else "back")
            self.answer_dialogs(rng)
            return
        seat = s.state.track.seat
        others = [rid for rid in lit if (o := s.state.regions[rid].occupant) is not None
                  and o.seat != seat]
        shown = rng.sample(others, min(1, len(others)))
        shown += rng.sample([rid for rid in lit if rid not in shown],
                            min(REGIONS_SHOWN - len(shown), len(lit) - len(shown)))
        offers: dict[int, list[str]] = {}
        for rid in shown:
            board.tap(rid)
            keys = [a["key"] for a in board.actions
                    if a.get("key") and not a.get("disabled") and not a.get("hidden")]
            main = tuple(k for k in keys if k in ("conquer", "final", "roll_first", "dragon"))
            self.look(f"map: region {rid}", main or ("back",))
            offers[rid] = keys
        conquests = {rid: [k for k in keys if k in ("conquer", "dragon", "final", "roll_first")
                           or k.startswith("catapult:") or k == "sorcery"
                           or (k not in ("abandon", "correct", "rules", "add_token",
                                         "take_token") and not k.startswith(("place:",
                                                                               "remove:")))]
                     for rid, keys in offers.items()}
        able = [rid for rid, keys in conquests.items() if keys]
        if not able or rng.random() < 0.12:
            board.act("finish_conquests" if any(
                a["key"] == "finish_conquests" for a in board.bottom_actions) else "back")
            self.did("finish")
            self.answer_dialogs(rng)
            return
        # a region of another player's first, as tables play (and so defenders have
        # tokens to put back, several at once)
        seat = s.state.track.seat
        held = [rid for rid in able if (o := s.state.regions[rid].occupant) is not None
                and o.seat != seat]
        rid = rng.choice(held) if held and rng.random() < 0.8 else rng.choice(able)
        board.tap(rid)
        keys = sorted(conquests[rid])
        key = "final" if "final" in keys and rng.random() < 0.6 else rng.choice(keys)
        if key == "conquer" and board.show_deploy and rng.random() < 0.3 and \
                int(board.deploy) < int(board.tokens_left):
            board.set_deploy(int(board.deploy) + 1)
            self.did("deploy +")
            self.look(f"map: region {rid}, one more token", ("conquer",))
        board.act(key)
        self.did(key)
        self.answer_dialogs(rng)
        if self.screen == "die":
            self.die()
        elif self.screen == "map":
            self.look(f"map: after {key} on {rid}", ("back",))


# -- the child process: one language, the sizes in turn --------------------------------------

def explore(seeds: list[int], sizes: list[str], language: str, out: Path, *,
            replay: frozenset[tuple[int, int]] | None = None, pngs: bool = False,
            every: int = 0) -> Found:
    import ui_support as ui

    from companion.session import Session

    app = ui.app_for(Session())
    found = Found()
    for size in sizes:
        ui.close_dialogs()
        ui.resize(screenshots.SIZES[size])
        explorer = Explorer(app, size, language, found, replay=replay, out=out, pngs=pngs,
                            every=every)
        for seed in (sorted({seed for seed, _ in replay}) if replay else seeds):
            explorer.play(seed)
    ui.close_dialogs()
    return found


def _child(out: Path, argv: list[str]) -> None:
    seeds, sizes, languages, pngs, replay, every = _options(argv)
    (language,) = languages
    if language != "en":
        from companion import i18n

        i18n.use(language)
    found = explore(seeds, sizes, language, out, replay=replay, pngs=pngs, every=every)
    (out / f"explore-{language}.json").write_text(json.dumps({
        "states": dict(found.states), "violations": found.violations, "games": found.games,
        "stuck": found.stuck}, indent=1))


def _options(argv: list[str]) -> tuple[list[int], list[str], list[str], bool,
                                        frozenset[tuple[int, int]] | None, int]:
    seeds = list(range(0, 20))
    sizes: list[str] = []
    languages: list[str] = []
    pngs = False
    replay: frozenset[tuple[int, int]] | None = None
    every = 0
    words = iter(argv)
    for word in words:
        if word == "--seeds":  # 0-4,7,9
            seeds = []
            for part in next(words).split(","):
                first, _, last = part.partition("-")
                seeds += range(int(first), int(last or first) + 1)
        elif word == "--size":
            sizes.append(next(words))
        elif word == "--lang":
            languages.append(next(words))
        elif word == "--every":
            every = int(next(words))
        elif word == "--pngs":
            pngs = True
        elif word == "--replay":
            replay = frozenset((int(seed), int(step)) for seed, _, step in
                               (part.partition(":") for part in next(words).split(",")))
        else:
            raise SystemExit(f"unknown option {word!r}")
    return seeds, sizes or list(SIZES), languages or list(LANGUAGES), pngs, replay, every


def run(out: Path, seeds: list[int], sizes: list[str] | None = None,
        languages: list[str] | None = None, *,
        replay: frozenset[tuple[int, int]] | None = None,
        pngs: bool = False, every: int = 0) -> dict[str, Any]:
    """Explore in child processes (one per language, one after the other); return
    ``{"states": {lang: {size: n}}, "violations": [...], "games": n, "stuck": [...]}``."""
    out.mkdir(parents=True, exist_ok=True)
    env = screenshots.child_env(out)
    total: dict[str, Any] = {"states": {}, "violations": [], "games": 0, "stuck": []}
    for language in languages or LANGUAGES:
        options = ["--lang", language, "--seeds", ",".join(map(str, seeds))]
        for size in sizes or SIZES:
            options += ["--size", size]
        if replay is not None:
            options += ["--replay", ",".join(f"{seed}:{step}" for seed, step in sorted(replay))]
        if pngs:
            options += ["--pngs", "--every", str(every)]
        result = screenshots.run_child(
            [sys.executable, str(Path(__file__).resolve()), "--child", str(out), *options],
            env, f"exploring in {language}")
        if result.returncode != 0:
            raise RuntimeError(f"exploring failed:\n{result.stdout}\n{result.stderr}")
        found = json.loads((out / f"explore-{language}.json").read_text())
        total["states"][language] = found["states"]
        total["violations"] += found["violations"]
        total["games"] += found["games"]
        total["stuck"] += found["stuck"]
    return total


def summary(report: dict[str, Any]) -> Iterator[str]:
    """The report in lines: states per size and language, violations by kind, each one."""
    states = report["states"]
    sizes = sorted({size for per in states.values() for size in per})
    yield "states drawn (distinct)  " + "  ".join(f"{s:>9}" for s in sizes) + "      all"
    for language, per in states.items():
        yield f"  {language:<22}" + "  ".join(f"{per.get(s, 0):>9}" for s in sizes) + \
            f"  {sum(per.values()):>7}"
    yield f"  {'all':<22}" + "  ".join(
        f"{sum(per.get(s, 0) for per in states.values()):>9}" for s in sizes) + \
        f"  {sum(sum(per.values()) for per in states.values()):>7}"
    kinds = Counter(v["kind"] for v in report["violations"])
    yield f"games: {report['games']} (stuck: {len(report['stuck'])})"
    yield "violations: " + ", ".join(f"{k} {kinds.get(k, 0)}" for k in KINDS) + \
        f"; {len(report['violations'])} in all"
    for v in report["violations"]:
        yield (f"  {v['kind']:<12} {v['seed']}:{v['step']} {v['size']} {v['lang']} "
               f"[{v['screen']}: {v['what']}] {v['problem']}")
    for stuck in report["stuck"]:
        yield f"  stuck at {stuck}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        _child(Path(argv[1]), argv[2:])
        return 0
    out = ROOT / "explored"
    if argv and not argv[0].startswith("--"):
        out, argv = Path(argv[0]), argv[1:]
    seeds, sizes, languages, pngs, replay, every = _options(argv)
    started = time.monotonic()
    report = run(out, seeds, sizes, languages, replay=replay, pngs=pngs, every=every)
    for line in summary(report):
        print(line)
    print(f"{time.monotonic() - started:.0f} s; report in {out / 'explore.json'}")
    (out / "explore.json").write_text(json.dumps(report, indent=1))
    return 1 if report["violations"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
