"""Rules: a search field, the matching entries (a RecycleView: rows are reused as the list
scrolls or changes, never rebuilt per search) and the chosen entry's words."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.recycleview import RecycleView

from companion.ui.screens.base import PresenterScreen


class MatchList(RecycleView):  # type: ignore[misc]
    """The matching entries; a tapped row calls `p.act(row.action_key)`."""

    p = ObjectProperty(None, allownone=True)


class RuleMatch(ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """One matching entry: its name over its kind; `chosen` when it is the one shown."""

    text = StringProperty("")
    kind_text = StringProperty("")
    action_key = StringProperty("")
    chosen = BooleanProperty(False)

    def on_release(self) -> None:
        box = self.parent
        listing = box.parent if box is not None else None
        if isinstance(listing, MatchList) and listing.p is not None:
            listing.p.act(self.action_key)


class SearchField(ButtonBehavior, Label):  # type: ignore[misc]
    """The search text (`query`) in a box, or a hint when there is none; a tap opens the letters
    pad, as a player's name is typed (the touchscreen has no keyboard; a keyboard, when
    there is one, types into the pad). Not a TextInput: focusing one would wait for a
    keyboard that is not there, and a TextInput kept this rare screen alive after it was
    released (tests/test_ui_memory.py)."""

    query = StringProperty("")
    action_key = StringProperty("search")


class RulesScreen(PresenterScreen):
    def on_leave(self, *_args: Any) -> None:
        forget_spare_rows()


def forget_spare_rows() -> None:
    """Drop the rows Kivy keeps for RecycleViews to reuse (a module-wide cache, filled
    each time the list's data is replaced): left there, they would outlive this rare
    screen once it is released."""
    from kivy.uix.recycleview import views

    spare = views._cached_views.pop(RuleMatch, [])
    views._cache_count = max(0, views._cache_count - len(spare))
