"""A label shows a text it (or any label) drew before, with the same options, from the
texture drawn then: the text is not laid out or drawn again.

Concept: Kivy draws a label's texture afresh whenever its text or an option changes
(`Label.texture_update`): it lays the text out word by word, then renders it into a new
texture when the texture is first drawn. The table's texts come round again turn after
turn (whose turn it is, the phase's hint and buttons, a player's combo in bold or not, the
undo's words), and the map panel's as regions are tapped ("Nobody holds it.", "Taking it
costs 3 tokens."). `install` makes every label look its text up first in one table, from
(text, options, text box) to the texture and what Kivy's label knew once it had laid the
text out, kept in the order of last use; a text not found is drawn by Kivy as before,
into a new texture, and kept.

Invariants:

- a texture handed out shows exactly what Kivy would draw for that label now: the key is
  the text, the text box (`text_size`) and every option Kivy draws with
  (`LabelBase.options`: the font, colours, alignment, padding...), written out (`repr`:
  one call, where a tuple of them would take dozens); a markup label (whose references
  are found as it draws) and a blank text are drawn by Kivy's own function;
- a texture in the table is never drawn into again: a text not found is drawn into a new
  texture (Kivy reuses a label's texture of the same size, and fills it only when it is
  first drawn, from the label's text then), filled at once;
- the core label is left as Kivy leaves it (its lines, sizes...), as if it had laid the
  text out again;
- the table holds at most `PIXELS` pixels of texture; the least recently shown go first;
- `install` is idempotent.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

PIXELS = 1_000_000
"""The pixels of texture the table holds at most (4 MB: some ten screens of text)."""

Drawn = tuple[Any, Any, Any, Any, bool]
"""A texture, and what Kivy's core label knows once it has laid the text out (its lines,
the size of the text and of the texture, whether the text was shortened to fit)."""

_TABLE: OrderedDict[tuple[Any, ...], Drawn] = OrderedDict()
_HELD = [0]
"""The pixels of texture `_TABLE` holds."""
_OWN: list[Callable[..., None]] = []
"""Kivy's own `Label.texture_update`, while `install`ed."""


def texture_update(label: Label, *args: Any) -> None:
    """`Label.texture_update`, through the table."""
    core = label._label
    text = core.text
    if type(core) is not CoreLabel or not text.strip():  # markup, or nothing to draw
        _OWN[0](label, *args)
        return
    core.resolve_font_name()  # the font file its options name now (one of the options)
    key = (text, repr(core.text_size), repr(core.options))
    found = _TABLE.get(key)
    if found is None:
        core.texture = None  # a new texture: one in the table is never drawn into again
        _OWN[0](label, *args)
        texture = label.texture
        if texture is None:
            return
        texture.bind()  # filled now, from this text
        found = _TABLE[key] = (texture, core._cached_lines, core._internal_size, core._size,
                               core.is_shortened)
        _HELD[0] += texture.width * texture.height
        while _HELD[0] > PIXELS and len(_TABLE) > 1:
            old = _TABLE.popitem(last=False)[1][0]
            _HELD[0] -= old.width * old.height
        return
    _TABLE.move_to_end(key)
    texture, core._cached_lines, core._internal_size, core._size, core.is_shortened = found
    label.texture = texture  # and all that Kivy's function sets, as it sets it
    label.texture_size = list(texture.size)
    label.is_shortened = core.is_shortened


def install() -> None:
    """Every Kivy label draws through the table from now on."""
    if not _OWN:
        _OWN.append(Label.texture_update)
        Label.texture_update = texture_update
