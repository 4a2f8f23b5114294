"""The catalogues speak to the table in one voice (docs/translating.md).

- German says "du" to the one player a line speaks to (whose turn it is, who peeks, who is
  asked) and "ihr" to the whole table, never the formal "Sie", and no message mixes the two;
- French says "vous" everywhere, never "tu";
- French puts a no-break space before a colon, semicolon, question or exclamation mark and
  a closing guillemet, and after an opening one, so a line never breaks before them.

The checks read the catalogues themselves (`companion/locale/<lang>/LC_MESSAGES/
companion.po`), every translated string, plural forms included.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

import companion

LOCALE = Path(companion.__file__).parent / "locale"

DU = re.compile(r"\b(du|dein\w*|dich|dir)\b|(^|[.:;!?]\s+)(Tippe|Wähle|Setze|Nimm|Gib|Zähle"
                r"|Versetze|Kauf|Halte|Stell|Zieh|Erobere|Beende|Verteile|Wirf)\b",
                re.IGNORECASE)
IHR = re.compile(r"\b(euer\w*|eure\w*|euch)\b|\bihr (habt|seid|könnt|dürft|verliert|haltet"
                 r"|tippt|wählt|zählt|gebt|setzt)\b|(^|[.:;!?]\s+)(Tippt|Wählt|Setzt|Nehmt|Gebt"
                 r"|Zählt|Deckt|Legt|Steckt|Kauft|Stellt|Fügt|Versetzt)\b")
FORMAL = re.compile(r"(?<![.:;!?\"„(]\s)(?<!^)\bSie\b|\bIhnen\b|\b\w+en Sie\b")
TU = re.compile(r"\b(tu|toi|ton|ta|tes|te)\b|\bt'", re.IGNORECASE)
PLAIN_SPACE = re.compile(r" [:;!?»]|« ")


def strings(language: str) -> list[str]:
    """Every translated string of `language`'s catalogue, placeholders blanked."""
    with (LOCALE / language / "LC_MESSAGES" / "companion.po").open("rb") as stream:
        catalog = read_po(stream)
    found: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        said = message.string
        for text in said if isinstance(said, (tuple, list)) else (said,):
            found.append(re.sub(r"\{[^}]*\}", "X", str(text or "")))
    assert len(found) > 1600
    return found


def test_german_never_says_sie_to_the_players() -> None:
    formal = [s for s in strings("de") if FORMAL.search(s)]
    assert not formal, formal


def test_no_german_message_speaks_to_one_player_and_to_the_table_at_once() -> None:
    both = [s for s in strings("de") if DU.search(s) and IHR.search(s)]
    assert not both, both


def test_the_voice_checks_see_a_mixed_and_a_formal_line() -> None:
    assert DU.search("Stell die Marker zurück") and IHR.search("in eure Regionen")
    assert FORMAL.search("prüfen Sie das Kabel") and not FORMAL.search("Sie bleibt liegen")
    assert TU.search("choisis ton peuple") and PLAIN_SPACE.search("Région 3 : libre")


def test_french_says_vous_never_tu() -> None:
    familiar = [s for s in strings("fr") if TU.search(s)]
    assert not familiar, familiar


def test_french_high_punctuation_follows_a_no_break_space() -> None:
    plain = [s for s in strings("fr") if PLAIN_SPACE.search(s)]
    assert not plain, plain
