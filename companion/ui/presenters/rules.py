"""Rules: look up a race, power, expansion piece, River World event, Relic, Place or turn
step by part of its name, and read it in the app's own words (`companion.rules.rulebook`).

The search text is typed on the letters pad (`search_pad`, as player names are; a keyboard
types into the pad too) or set directly (`search`); every search lists the matching
entries (`matches`, rows for the screen's RecycleView) and, when the entry shown is not
among them, shows the first match. `show(kind, name)` sets the screen at one entry:
another screen calls ``ctx.presenters["rules"].show("race", "Amazons")`` and goes to
"rules", or calls `open_at` with the same arguments, which does both. Back returns to the
screen the rules were opened from (`ctx.nav.previous`).

Nothing here depends on the game: the screen works with or without one.

The screen's own words (the count of matches, the kinds of entry, the search pad's) are in
the language spoken (`companion.i18n`), worded again at each search and when the screen
shows; a race's, power's, piece's, event's, Relic's or Place's name is the one printed in
that language (`companion.ui.names`), a turn step's name is translated like any sentence,
and the search finds an entry by its English name or its name shown, accents and case
ignored. Each entry's words reach the screen in that language too (`entry_words`): a race's
or power's summary through the context "summary" (extracted from the catalog's data by
`make locale`), a paragraph the rules mark with `N_` through `_`, one
holding the rules' numbers (a `Said`) and the banner's or badge's facts worded by
`companion.ui.wording`; the set an entry comes from by its printed name
(`companion.ui.names.expansion`). The rule book itself stays English.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, assert_never

from kivy.properties import ListProperty, StringProperty

from companion import i18n
from companion.i18n import N_, _, ngettext, pgettext
from companion.ui import names
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.intents import argument, known
from companion.ui.presenters.keypads import NameRequest, ask_name

if TYPE_CHECKING:
    from companion.rules import Rulebook, RuleEntry, Said

SCREEN = "rules"
KIND_WORDS = (N_("Race"), N_("Special power"), N_("Turn step"), N_("Expansion rule"),
              N_("Base game"))
"""What the rule book calls the base game's kinds of entry and the base game (marked
here, shown through `_`); an expansion's own kinds are its `Expansion.rule_kinds`, whose
labels its rules module marks."""


def kind_words(label: str) -> str:
    """A kind of entry (the rule book's `label`: the base game's or one of an expansion's
    `rule_kinds`) in the language spoken; any other text as it is."""
    if label in KIND_WORDS:
        return _(label)
    from companion.rules import expansions  # loaded with the rule book, never at start-up

    known = {words for expansion in expansions.registered()
             for _kind, words in expansion.rule_kinds}
    return _(label) if label in known else label


SUMMARY = "summary"
"""The gettext context of a race's or power's summary (tools/locale_names.py)."""
_SUMMARIZED = ("race", "power")
"""The kinds whose text is the catalog's summary."""


def shown_name(entry: RuleEntry) -> str:
    """An entry's name as the language spoken prints it (a turn step: translated as a
    sentence of the app's)."""
    if entry.kind == "turn":
        return _(entry.name)
    return names.of_kind(entry.kind, entry.name)


def _worded(text: str | Said) -> str:
    """A text of the rules holding their numbers (a `Said`) in the language spoken; any
    other text through `_`."""
    if isinstance(text, str):
        return _(text) if text else text
    from companion.ui import wording  # the rules' words: loaded with the rule book

    return wording.say(text)


def entry_words(entry: RuleEntry) -> str:
    """What an entry says, in the language spoken (English when it has no translation)."""
    if isinstance(entry.text, str) and entry.kind in _SUMMARIZED:
        return pgettext(SUMMARY, entry.text)
    return _worded(entry.text)


def entry_facts(entry: RuleEntry) -> str:
    """An entry's numbers (a banner's or a badge's) in the language spoken, without the
    closing full stop; "" when it has none."""
    return _worded(entry.facts).rstrip(".")


def expansion_words(expansion: str) -> str:
    """The set an entry comes from (the rule book's English name) as the language spoken
    prints it; a set names.toml does not know: as a kind word, else as it is."""
    ident = next((ident for ident, english in names.english_by_id("expansions").items()
                  if english == expansion), None)
    return names.expansion(ident, expansion) if ident else kind_words(expansion)


def key_of(kind: str, name: str) -> str:
    """A match's key: its kind and name (what `choose` takes)."""
    return f"{kind}:{name}"


def _words(text: str) -> str:
    """`text` lower-cased, as words of letters and digits (apostrophes dropped) joined by
    single spaces: a name is looked for in a reminder this way."""
    bare = "".join(c if c.isalnum() else " " for c in text.replace("'", "")
                   .replace("\u2019", "").casefold())
    return " ".join(bare.split())


class Action(StrEnum):
    """The rules screen's buttons (the values are their keys)."""

    SEARCH = "search"
    CLEAR = "clear"
    BACK = "back"


@dataclass(frozen=True, slots=True)
class ChooseMatch:
    """A match tapped in the list: ``match:<kind>:<name>``."""

    key: str


def parse(key: str) -> Action | ChooseMatch:
    """The rules screen's action for `key`; `UnknownAction` when it has none."""
    chosen = argument(key, "match:")
    if chosen is not None and ":" in chosen:
        return ChooseMatch(chosen)
    return known(SCREEN, key, Action, "match:<kind>:<name>")


class RulesPresenter(Presenter, parse=parse):
    query = StringProperty("")
    """The search text (blank: every entry)."""
    matches = ListProperty([])
    """One dict per matching entry, in search order, for the list's RecycleView:
    {text (the name), kind_text, action_key (``match:kind:name``, what `act` takes),
    chosen (whether it is the entry shown)}."""
    count_text = StringProperty("")
    """How many entries match, or that none does."""
    title = StringProperty("")
    """The name of the entry shown ("" before one is chosen)."""
    about = StringProperty("")
    """Its kind, set and numbers, in a line."""
    text = StringProperty("")
    """What it says."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._book: Rulebook | None = None
        self._chosen: RuleEntry | None = None
        self._found: tuple[RuleEntry, ...] = ()
        self._language = ""
        """The language the screen's words are in."""
        super().__init__(*args, **kwargs)
        self.search("")

    def update(self, state: Any) -> None:
        """A new state, or the same one in another language: the screen's words again in
        the language spoken (the search and the entry shown stay)."""
        super().update(state)
        if self._language != i18n.language():
            self.search(self.query)

    def forget(self) -> None:
        """Another table: no entry chosen, every entry listed."""
        self._chosen = None
        self.search("")

    @property
    def book(self) -> Rulebook:
        """The rule book, built when first needed."""
        if self._book is None:
            from companion.rules import load_rulebook

            self._book = load_rulebook()
        return self._book

    # -- intents -----------------------------------------------------------------------------
    def do(self, action: Action | ChooseMatch) -> None:
        match action:
            case Action.SEARCH:
                self.search_pad()
            case Action.CLEAR:
                self.search("")
            case Action.BACK:
                self.back()
            case ChooseMatch(key=key):
                self.choose(key)
            case _:
                assert_never(action)

    def search(self, text: str) -> None:
        """List the entries whose name holds `text`; show the first unless the one shown
        is among them."""
        self.query = " ".join(text.split())
        found = self._search(self.query)
        if found and self._chosen not in found:
            self._chosen = found[0]
        self.count_text = (
            _("No name holds \u201c{query}\u201d.").format(query=self.query) if not found
            else ngettext("{count} entry", "{count} entries", len(found)).format(
                count=len(found)))
        self._found = found
        self._language = i18n.language()
        self._show()

    def _search(self, query: str) -> tuple[RuleEntry, ...]:
        """The entries whose name, in English or as shown in the language spoken, holds
        `query` (both folded): names that start with it first, then in the rule book's
        order; in English exactly `Rulebook.search`."""
        ordered = self.book.search("")
        wanted = names.folded(query)
        if not wanted:
            return ordered
        starts: list[RuleEntry] = []
        contains: list[RuleEntry] = []
        for entry in ordered:
            said = (names.folded(entry.name), names.folded(shown_name(entry)))
            if any(name.startswith(wanted) for name in said):
                starts.append(entry)
            elif any(wanted in name for name in said):
                contains.append(entry)
        return (*starts, *contains)

    def search_pad(self) -> None:
        """Open the letters pad to type the search text."""
        ask_name(self.ctx, NameRequest(
            _("Search the rules"), self.search,
            text=_("Type part of a name: a race, a power, a piece, an event or a turn step."),
            initial=self.query))

    def choose(self, key: str) -> None:
        """Show the entry of `key` (``kind:name``, as in `matches`)."""
        kind, _sep, name = key.partition(":")
        self._chosen = self.book.entry(kind, name)
        self._show()

    def show(self, kind: str, name: str) -> None:
        """Open at the entry `kind`/`name` (`UnknownName` if there is none; the kinds are
        `companion.rules.rulebook.KINDS`: "race", "power", "turn", "event", "relic",
        "place", "piece"): the search is its name, so the list holds it; then go to the
        rules screen yourself (or call `open_at`)."""
        self._chosen = self.book.entry(kind, name)
        self.search(shown_name(self._chosen))

    def open_at(self, kind: str, name: str) -> None:
        """`show` the entry, then go to the rules screen (Back returns to the screen on
        show now): the one call another screen needs."""
        self.show(kind, name)
        self.go(SCREEN)

    def has(self, kind: str, name: str) -> bool:
        """Whether the rule book has the entry `kind`/`name` (a look-up by key, quick
        enough for every tap on the map)."""
        try:
            self.book.entry(kind, name)
        except LookupError:  # the rules' UnknownName
            return False
        return True

    def choose_among(self, entries: list[tuple[str, str]], title: str) -> None:
        """`open_at` the one entry of `entries` ((kind, name) each), or ask which when
        there are more (the screens' "Rules" for what lies somewhere)."""
        if len(entries) == 1:
            self.open_at(*entries[0])
        elif entries:
            def chosen(key: str) -> None:
                kind, _sep, name = key.partition(":")
                self.open_at(kind, name)

            self.ctx.notices.choose(Choice(title, [
                (key_of(kind, name), _("{kind}: {name}").format(
                    kind=kind_words(self.book.entry(kind, name).label),
                    name=names.of_kind(kind, name)))
                for kind, name in entries], chosen))

    def named_in(self, text: str) -> tuple[str, str] | None:
        """(kind, name) of the first race, power, piece, Relic, Place or event `text`
        names (names compared folded, whole words; at one place the longest name wins);
        None: it names none. Turn steps are left out: their names are common words."""
        said = f" {_words(text)} "
        found = [(at, -len(entry.name), entry) for entry in self.book.entries
                 if entry.kind != "turn" and (at := said.find(f" {_words(entry.name)} ")) >= 0]
        if not found:
            return None
        first = min(found, key=lambda item: item[:2])[2]
        return first.kind, first.name

    def open_for(self, text: str) -> bool:
        """`open_at` the first entry `text` names (`named_in`); False: it names none."""
        named = self.named_in(text) if text else None
        if named is None:
            return False
        self.open_at(*named)
        return True

    def back(self) -> None:
        """Back to the screen the rules were opened from."""
        previous = self.ctx.nav.previous
        self.go(previous if previous and previous != SCREEN else "home")

    # -- what the screen shows ---------------------------------------------------------------
    def _show(self) -> None:
        chosen = self._chosen
        self.matches = [self._row(entry, entry is chosen) for entry in self._found]
        if chosen is None:
            self.title = self.about = self.text = ""
            return
        self.title = shown_name(chosen)
        about = [kind_words(chosen.label), expansion_words(chosen.expansion)]
        if facts := entry_facts(chosen):
            about.append(facts)
        self.about = " \u00b7 ".join(about)
        self.text = entry_words(chosen)

    @staticmethod
    def _row(entry: RuleEntry, chosen: bool) -> dict[str, Any]:
        return {"text": shown_name(entry), "kind_text": kind_words(entry.label),
                "action_key": "match:" + key_of(entry.kind, entry.name), "chosen": chosen}
