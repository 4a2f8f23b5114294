"""The language on screen: `LANGUAGE`, the one observable the kv files translate through.

A kv file imports it and wraps each static string in ``lang.tr(...)``::

    #:import lang companion.ui.language.LANGUAGE
    ...
        text: lang.tr("Settings")

kv binds the rule to `Language.tr`, which is a new translator object at every change of
language (`companion.i18n.use`), so every such text is worked out again at once, with no
screen rebuilt. Presenters' texts are worded again by the app (`TableApp`), which hears
the same change through `Language.code`.

Invariants: `code` is always `companion.i18n.language()`; `tr(text)` is `i18n._(text)`
in the language spoken now. The module is small and imports only Kivy's properties and
`companion.i18n`, so the first frame pays nothing for it.
"""

from __future__ import annotations

from typing import Any

from kivy.event import EventDispatcher
from kivy.properties import ObjectProperty, StringProperty

from companion import i18n


class Translator:
    """`i18n._` as an object made afresh for each language (so kv sees a change)."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __call__(self, message: str) -> str:
        return i18n._(message)

    def __repr__(self) -> str:
        return f"Translator({self.code!r})"


class Language(EventDispatcher):  # type: ignore[misc]  # Kivy ships no type information
    """The language on screen, observable from kv (`tr`) and Python (`code`)."""

    code = StringProperty(i18n.language())
    """The language spoken now (`companion.i18n.LANGUAGES` or `PSEUDO`)."""

    tr = ObjectProperty(Translator(i18n.language()))
    """Translate a kv string: ``lang.tr("Settings")``; replaced at each change."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        i18n.subscribe(self._changed)
        self._changed(i18n.language())

    def _changed(self, code: str) -> None:
        if code != self.code:
            self.tr = Translator(code)
            self.code = code

    def use(self, setting: str) -> str:
        """Speak `setting` from now on (`companion.i18n.use`); returns the language."""
        return i18n.use(setting)


LANGUAGE = Language()
"""The one language on screen."""
