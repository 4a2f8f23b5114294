"""Colours: the players' colour-blind-safe palette and the app's own theme.

Player colours come from the Okabe-Ito palette (Okabe & Ito, "Color Universal Design"),
whose hues stay apart for the common kinds of colour blindness. A seat's colour is stored
in the game as a plain name (``"blue"``); `rgba` turns a name, or a ``#rrggbb`` string,
into Kivy's (r, g, b, a) floats. Every player colour also has a readable text colour on top
of it (`ink_on`), so a name written on its own colour stays legible. A colour's name on
screen (`shown_name`) is in the language spoken; the name stored stays English.

Pure: no Kivy import.
"""

from __future__ import annotations

from companion.i18n import N_, _

RGBA = tuple[float, float, float, float]


def _hex(code: str) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return (round(r, 4), round(g, 4), round(b, 4), 1.0)


PLAYER_COLOURS: tuple[tuple[str, str, str], ...] = (
    # (name stored in the game, name shown, Okabe-Ito hex)
    # TRANSLATORS: a player's colour, on the new game form and the players' screen
    ("blue", N_("Blue"), "#0072B2"),
    ("orange", N_("Orange"), "#E69F00"),
    ("green", N_("Green"), "#009E73"),
    ("yellow", N_("Yellow"), "#F0E442"),
    ("purple", N_("Pink"), "#CC79A7"),
    ("red", N_("Red"), "#D55E00"),
    ("sky", N_("Sky blue"), "#56B4E9"),
)
"""Seven player colours; a game of five uses the first five unless players change them."""

COLOUR_NAMES: tuple[str, ...] = tuple(name for name, _, _ in PLAYER_COLOURS)
_BY_NAME: dict[str, tuple[str, RGBA]] = {
    name: (shown, _hex(code)) for name, shown, code in PLAYER_COLOURS
}
FALLBACK: RGBA = (0.75, 0.75, 0.75, 1.0)

# The app's theme (dark, high contrast, calm).
BACKGROUND: RGBA = (0.11, 0.14, 0.13, 1.0)
PANEL: RGBA = (0.17, 0.21, 0.19, 1.0)
TEXT: RGBA = (0.96, 0.95, 0.90, 1.0)
MUTED: RGBA = (0.78, 0.80, 0.76, 1.0)
ACCENT: RGBA = (0.98, 0.85, 0.45, 1.0)
PRIMARY: RGBA = (0.20, 0.47, 0.33, 1.0)
SECONDARY: RGBA = (0.27, 0.31, 0.34, 1.0)
DANGER: RGBA = (0.62, 0.24, 0.18, 1.0)
DIMMED: RGBA = (0.23, 0.25, 0.25, 1.0)
WARNING: RGBA = (0.80, 0.42, 0.10, 1.0)


def rgba(colour: str) -> RGBA:
    """Kivy colour of a player colour name (or ``#rrggbb``); grey for anything unknown."""
    key = colour.strip().lower()
    if key in _BY_NAME:
        return _BY_NAME[key][1]
    if key.startswith("#") and len(key) == 7:
        try:
            return _hex(key)
        except ValueError:
            return FALLBACK
    return FALLBACK


def shown_name(colour: str) -> str:
    """The colour's name as the screen says it in the language spoken ("Sky blue", "Bleu
    ciel"); an unknown colour as it is."""
    key = colour.strip().lower()
    return _(_BY_NAME[key][0]) if key in _BY_NAME else colour


def luminance(colour: RGBA) -> float:
    r, g, b, _ = colour
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: RGBA) -> RGBA:
    """Near-black text on a light colour, near-white on a dark one."""
    return (0.07, 0.07, 0.07, 1.0) if luminance(colour) > 0.45 else (1.0, 1.0, 1.0, 1.0)


def next_free(current: str, taken: set[str]) -> str:
    """The next palette colour after `current` that nobody else has (wraps around)."""
    names = list(COLOUR_NAMES)
    start = names.index(current) if current in names else -1
    for step in range(1, len(names) + 1):
        candidate = names[(start + step) % len(names)]
        if candidate not in taken:
            return candidate
    return current
