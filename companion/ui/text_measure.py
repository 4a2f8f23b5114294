"""Measuring a word once per font: what Kivy's text layout asks again and again, remembered.

Concept: Kivy lays a label's text out word by word, asking its text provider how wide and
tall each piece is (`LabelBase.get_extents`). A wrapped label of forty words asks some 250
times, and the same words come back label after label, tap after tap (race and power names,
"tokens", "region", the numbers). Kivy leaves `LabelBase.get_cached_extents` to the text
provider for this (the layout asks it for the function to measure with); the SDL2 provider
caches nothing. `install` gives the provider a cached one: per font, a table from a text to
its extents, filled by measuring with a label of the table's own, made with that font.

Invariants:

- a measure handed out is the provider's own for that font and text (`FONT_OPTIONS`: every
  option of a label that changes how a text measures is part of the font);
- a label whose font changes later never changes what was measured: each table measures
  with its own label, never with the label that asked first;
- a table holds at most `LIMIT` texts (it starts again empty when full);
- `install` is idempotent, and `uninstall` gives the provider its own function back;
- `lines_of` lays a text out as the label of those options would, with no texture drawn,
  and remembers the answer per options, text and width (at most `LIMIT` of them);
  `cut_to_lines` cuts a text to whole words that fit so many lines, the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel

Extents = tuple[int, int]

FONT_OPTIONS = ("font_size", "font_name", "font_family", "bold", "italic", "underline",
                "strikethrough", "font_hinting", "font_kerning", "outline_width",
                "font_context", "font_features", "base_direction", "font_direction",
                "font_script_name", "text_language")
"""A label's options that change how a text measures: together, its font."""

LIMIT = 20_000
"""Texts one font's table holds at most (a few hundred kilobytes)."""

_TABLES: dict[tuple[Any, ...], Callable[[str], Extents]] = {}
_PROVIDERS: dict[type, Any] = {}
"""The provider classes `install` changed, with their own `get_cached_extents`."""


def font_of(options: dict[str, Any]) -> tuple[Any, ...]:
    """The font a label's `options` measure with (hashable): their values, or their
    `repr` where a value is not hashable."""
    font = tuple(map(options.get, FONT_OPTIONS))
    try:
        hash(font)
    except TypeError:
        return tuple(repr(value) for value in font)
    return font


def measure_with(options: dict[str, Any]) -> Callable[[str], Extents]:
    """The cached measure of the font of `options`: a text's (width, height) in pixels."""
    font = font_of(options)
    found = _TABLES.get(font)
    if found is None:
        own = CoreLabel(**{name: options[name] for name in FONT_OPTIONS if name in options})
        own.resolve_font_name()
        measure: Callable[[str], Extents] = own.get_extents
        measured: dict[str, Extents] = {}

        def cached(text: str) -> Extents:
            got = measured.get(text)
            if got is None:
                if len(measured) >= LIMIT:
                    measured.clear()
                got = measured[text] = measure(text)
            return got

        found = _TABLES[font] = cached
    return found


_LINES: dict[tuple[Any, ...], tuple[int, int]] = {}
_LAYOUT: list[Any] = []  # the one label `lines_of` lays texts out with, made at first use
_UNSHAPING = frozenset({"text_size", "max_lines", "shorten", "color", "outline_color"})
"""A label's options that do not change how its text breaks into lines (`lines_of` lays
every text out whole, at the width it is given)."""


def _shape(options: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """What of a label's `options` shapes its lines (hashable)."""
    return tuple(sorted((name, repr(value)) for name, value in options.items()
                        if name not in _UNSHAPING))


def lines_of(options: dict[str, Any], text: str, width: float) -> tuple[int, int]:
    """How many lines `text` takes in a label of `options` (a Kivy label's `_label.options`)
    wrapped at `width`, and the height in pixels of all of them (the padding included):
    Kivy's own layout, with no texture drawn."""
    if not text:
        return 0, 0
    key = (_shape(options), text, width)
    found = _LINES.get(key)
    if found is None:
        if not _LAYOUT:
            _LAYOUT.append(CoreLabel())
        core = _LAYOUT[0]
        core.options = {**options, "max_lines": 0, "shorten": False}
        core.text = text
        core.usersize = (width, None)
        height = core.render()[1]  # the layout only (`render(real=True)` draws)
        if len(_LINES) >= LIMIT:
            _LINES.clear()
        found = _LINES[key] = (len(core._cached_lines), height)
    return found


_CUTS: dict[tuple[Any, ...], str] = {}


def cut_to_lines(options: dict[str, Any], text: str, width: float, lines: int,
                 end: str) -> str:
    """As many whole words of `text` as `lines` lines of a label of `options` wrapped at
    `width` hold with `end` after them (an ellipsis): found by halving, a few layouts
    (`lines_of`), once per options, text, width and lines (at most `LIMIT` of them)."""
    key = (_shape(options), text, width, lines, end)
    found = _CUTS.get(key)
    if found is None:
        words = text.split()

        def shown(count: int) -> str:
            return " ".join(words[:count]).rstrip(",;:") + end

        fit, over = 0, len(words)  # `fit` words always fit (none: `end` alone)
        while over - fit > 1:
            middle = (fit + over) // 2
            if lines_of(options, shown(middle), width)[0] <= lines:
                fit = middle
            else:
                over = middle
        if len(_CUTS) >= LIMIT:
            _CUTS.clear()
        found = _CUTS[key] = shown(fit)
    return found


def _cached_extents(self: Any) -> Callable[[str], Extents]:
    return measure_with(self.options)


def install() -> None:
    """Kivy's labels measure their words through the cache from now on."""
    if CoreLabel not in _PROVIDERS:
        _PROVIDERS[CoreLabel] = CoreLabel.__dict__.get("get_cached_extents")
        setattr(CoreLabel, "get_cached_extents", _cached_extents)  # noqa: B010


def uninstall() -> None:
    """The provider's own measuring again (tests)."""
    for provider, own in _PROVIDERS.items():
        if own is None:
            delattr(provider, "get_cached_extents")
        else:
            setattr(provider, "get_cached_extents", own)  # noqa: B010
    _PROVIDERS.clear()
    _TABLES.clear()
    _LINES.clear()
    _CUTS.clear()
