"""The language the table speaks: English, French or German, through the standard `gettext`.

Every user-facing string goes through this module: `_` (a sentence), `ngettext` (a sentence
with a count: "1 coin" / "2 coins", "1 pièce" / "2 pièces", "1 Münze" / "2 Münzen"),
`pgettext` and `npgettext` (the same words in another sense: a race's name beside the same
word elsewhere). `N_` only marks a string for extraction where it is defined (a module
constant); it is translated where it is shown, with `_`. Placeholders are named
(``_("Turn {turn} of {turns}").format(turn=2, turns=10)``): a translation may move them.

Wrapping a screen: in its presenter, `_` around each sentence where the text is made (a
module constant is marked `N_` where defined and passed through `_` where shown), named
placeholders filled with ``.format``, `ngettext` for a count; the texts a presenter makes
in ``refresh``, ``clear`` or ``update`` are made again when the language changes (the app
refreshes the screen on show at once and the others when next shown). In its kv file:
``#:import lang companion.ui.language.LANGUAGE`` and ``text: lang.tr("...")``. Then
``make locale``, translate the new entries of each ``.po``, ``make locale`` again, and list
the files in ``WRAPPED_KV`` / ``WRAPPED_MODULES`` of ``tests/test_i18n.py``.

Invariants:
- The domain is ``companion``; the catalogues ship in the package,
  ``companion/locale/<lang>/LC_MESSAGES/companion.po`` with the compiled ``.mo`` beside
  it (``make locale`` extracts, updates and compiles them; Babel is a development tool
  only). English is the source text: it has no catalogue.
- The language is one of `LANGUAGES` or the pseudo-locale `PSEUDO`, made on the fly from
  the English (every text about 40 % longer, in accented letters) for layout checks.
  `use` switches at run time: every later call speaks the new language, and each
  listener (`subscribe`) hears the change once; nothing is restarted.
- Nothing here fails on data: an unknown language is English, a missing or damaged ``.mo``
  is English for the strings it lacks.
- Only what is shown is translated. Saved games, exports and event logs keep ids and
  English keys; they never call this module.
- This module imports nothing from Kivy (the kv side is `companion.ui.language`).
"""

from __future__ import annotations

import gettext
import itertools
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

DOMAIN = "companion"
"""The gettext domain: the catalogues' file name (``companion.po``, ``companion.mo``)."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""The catalogues: ``<lang>/LC_MESSAGES/companion.mo``."""

SOURCE = "en"
"""The language the strings are written in (no catalogue)."""

LANGUAGES = ("en", "fr", "de")
"""The languages a table may choose, the source first."""

PSEUDO = "qps"
"""The pseudo-locale: the English lengthened and accented, for checking layouts."""

AUTO = "auto"
"""The setting that follows the system's locale (`system_language`)."""

SETTINGS = (AUTO, *LANGUAGES, PSEUDO)
"""The values ``display.language`` allows."""

NAMES: Mapping[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                            PSEUDO: "Pseudo"}
"""Each language in its own words: never translated, so a player finds their own."""

PSEUDO_GROWTH = 0.4
"""How much longer the pseudo-locale makes every text."""

_ACCENTED = str.maketrans({
    "a": "ä", "c": "ç", "o": "ö", "u": "ü", "s": "ß", "i": "ï", "n": "ñ", "y": "ÿ",
    "A": "Ä", "C": "Ç", "O": "Ö", "U": "Ü", "I": "Ï", "N": "Ñ", "E": "É",
})
_PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%(?:\([^)]*\))?[sd])")
_FILLER = "çœßèäöü"


def pseudo(text: str) -> str:
    """`text` in the pseudo-locale: each letter accented where it has an accented form
    ("oe" as "œ", "e" as "é" and "è" in turn), then a filler of accented letters that makes
    it about `PSEUDO_GROWTH` longer, in brackets (a clipped end shows). Placeholders
    (``{name}``, ``%(name)s``) and line breaks are kept as they are."""
    if not text:
        return text
    parts = _PLACEHOLDER.split(text)
    accents = itertools.cycle("éè")
    out: list[str] = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(part)  # a placeholder
            continue
        part = part.replace("oe", "œ").translate(_ACCENTED)
        out.append(re.sub("e", lambda _m: next(accents), part))
    bare = _PLACEHOLDER.sub("", text)
    lost = bare.count("oe")  # each "oe" became one letter, "œ"
    extra = max(1, math.ceil(len(bare) * PSEUDO_GROWTH) - 3 + lost)  # brackets, space count
    filler = "".join(" " if i % 6 == 5 else _FILLER[i % len(_FILLER)] for i in range(extra))
    lines = "".join(out).split("\n")
    lines[-1] = f"{lines[-1]} {filler}"
    return "[" + "\n".join(lines) + "]"


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-locale: the English of every string, through `pseudo`."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


def catalogue_path(language: str, suffix: str = ".mo") -> Path:
    """Where `language`'s compiled catalogue is (``suffix=".po"``: its source)."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def translations(language: str) -> gettext.NullTranslations:
    """The translations of `language` (`LANGUAGES` or `PSEUDO`; anything else: English)."""
    if language == PSEUDO:
        return PseudoTranslations()
    if language == SOURCE or language not in LANGUAGES:
        return gettext.NullTranslations()
    try:
        with open(catalogue_path(language), "rb") as stream:
            return gettext.GNUTranslations(stream)
    except (OSError, ValueError, UnicodeError):  # missing or damaged: English
        return gettext.NullTranslations()


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The system's language if it is one of `LANGUAGES`, else English.

    Read as gettext reads it: ``LANGUAGE`` (a colon-separated list of preferences), then
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``, the first one set; ``fr_BE.UTF-8`` is French.
    """
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for wanted in value.split(":"):
            code = re.split(r"[_.@-]", wanted.strip(), maxsplit=1)[0].lower()
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":
            break  # the first locale variable set decides (C, POSIX: English)
    return SOURCE


def resolve(setting: str, environ: Mapping[str, str] | None = None) -> str:
    """The language a ``display.language`` setting means: `AUTO` follows the system, an
    unknown value is English."""
    if setting == AUTO:
        return system_language(environ)
    return setting if setting in LANGUAGES or setting == PSEUDO else SOURCE


_language = SOURCE
_current: gettext.NullTranslations = gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


def language() -> str:
    """The language spoken now (`LANGUAGES` or `PSEUDO`)."""
    return _language


def use(setting: str) -> str:
    """Speak `setting` from now on (a language, `PSEUDO` or `AUTO`); returns the language.

    Each listener hears the change once; using the language already spoken changes
    nothing and tells nobody."""
    global _language, _current
    chosen = resolve(setting)
    if chosen == _language:
        return chosen
    _language, _current = chosen, translations(chosen)
    for listener in list(_listeners):
        listener(chosen)
    return chosen


def subscribe(listener: Callable[[str], None]) -> None:
    """Call `listener(language)` after each change of language (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Callable[[str], None]) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def _(message: str) -> str:
    """`message` in the language spoken now."""
    return _current.gettext(message)


def N_(message: str) -> str:  # gettext's own name for it
    """`message` unchanged: marks a string defined here and translated where shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence counting `n` in the language spoken now (its plural rule)."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the sense `context` names, in the language spoken now."""
    return _current.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """`ngettext` in the sense `context` names."""
    return _current.npgettext(context, singular, plural, n)
