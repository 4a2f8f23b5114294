"""Saved players: add, rename, change the colour, set or clear the PIN, remove.

A profile is a regular at the table: a name, a favourite colour and an optional 4-digit
PIN that guards the look at their own coins (the store keeps only a salted hash of it).
Changing or clearing a PIN, or removing a player who has one, first asks for the current
PIN: otherwise anybody could clear it and peek. A new PIN is typed twice.

Every text is worded in the language spoken (`companion.i18n`) when the list is read (each
time the screen opens) or the question asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, assert_never

from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.i18n import _
from companion.records import Profile, RecordsError
from companion.ui import palette
from companion.ui.presenters.base import Choice, Presenter, Question, plain
from companion.ui.presenters.intents import argument, known, number
from companion.ui.presenters.keypads import NameRequest, PinRequest, ask_name, ask_pin
from companion.ui.wording import say


class Action(StrEnum):
    """The players screen's buttons (the values are their keys)."""

    ADD = "add"
    BACK = "back"


class ProfileVerb(StrEnum):
    """What a player's row can do to that player's profile (the presenter's method)."""

    RENAME = "rename"
    COLOUR = "colour"
    PIN = "pin"
    REMOVE = "remove"


@dataclass(frozen=True)
class OnProfile:
    """A button of a player's row ("<verb>:<profile id>", e.g. "rename:3")."""

    verb: ProfileVerb
    profile_id: int


def parse(key: str) -> Action | OnProfile:
    """The players screen's action for `key`; `UnknownAction` when it has none."""
    for verb in ProfileVerb:
        profile_id = number(argument(key, verb.value + ":"))
        if profile_id is not None:
            return OnProfile(verb, profile_id)
    return known("profiles", key, Action, *(verb.value + ":<id>" for verb in ProfileVerb))


class ProfilesPresenter(Presenter, parse=parse):
    profiles = ListProperty([])
    """Dicts {id, name, colour_name, rgba, ink, pin_text, has_pin}, by name."""
    empty = BooleanProperty(True)
    hint = StringProperty("")

    def load(self) -> None:
        """Read the profiles from the store (when the screen opens, and after a change)."""
        store = self.session.records
        found: list[Profile] = []
        if store is None:
            self.hint = _("Games are not being saved here, so players cannot be saved "
                          "either.")
        else:
            try:
                found = store.profiles()
            except RecordsError as failed:
                self.hint = _("The saved players cannot be read: {reason}").format(
                    reason=say(failed))
            else:
                self.hint = _("Tap a name to rename, a colour to change it. A PIN keeps the "
                              "others from looking at your coins.")
        rows = []
        for profile in found:
            colour = palette.rgba(profile.colour)
            rows.append({"id": profile.id, "name": profile.name,
                         "colour_name": palette.shown_name(profile.colour), "rgba": colour,
                         "ink": palette.ink_on(colour), "has_pin": profile.has_pin,
                         "pin_text": _("PIN: on") if profile.has_pin else _("No PIN")})
        self.profiles = rows
        self.empty = not rows

    def _profile(self, profile_id: int) -> dict[str, Any] | None:
        return next((p for p in self.profiles if p["id"] == profile_id), None)

    def _save(self, change: Callable[[], object], title: str) -> bool:
        """Run a change on the store; a refusal is told in plain words. Reloads after."""
        try:
            change()
        except RecordsError as failed:
            self.ctx.notices.tell(plain(say(failed)), title)
            return False
        finally:
            self.load()
        return True

    def _change(self, change: Callable[[], object], title: str) -> None:
        self._save(change, title)

    # -- intents ---------------------------------------------------------------------------
    def do(self, action: Action | OnProfile) -> None:
        match action:
            case Action.ADD:
                self.add()
            case Action.BACK:
                self.go("settings")
            case OnProfile(verb, profile_id):
                handlers: dict[ProfileVerb, Callable[[int], None]] = {
                    ProfileVerb.RENAME: self.rename, ProfileVerb.COLOUR: self.colour,
                    ProfileVerb.PIN: self.pin, ProfileVerb.REMOVE: self.remove}
                handlers[verb](profile_id)
            case _:
                assert_never(action)

    def add(self) -> None:
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(self.hint, _("Players"))
            return
        used = [p["rgba"] for p in self.profiles]
        colour = next((name for name in palette.COLOUR_NAMES
                       if palette.rgba(name) not in used), palette.COLOUR_NAMES[0])
        ask_name(self.ctx, NameRequest(
            title=_("A new player"), text=_("Their name, as the table calls them."),
            on_done=lambda name: self._change(lambda: store.add_profile(name, colour),
                                              _("Player not added"))))

    def rename(self, profile_id: int) -> None:
        store, profile = self.session.records, self._profile(profile_id)
        if store is None or profile is None:
            return
        ask_name(self.ctx, NameRequest(
            title=_("Rename {name}").format(name=profile["name"]), initial=profile["name"],
            text=_("Past games keep the name they were played with."),
            on_done=lambda name: self._change(
                lambda: store.update_profile(profile_id, name=name), _("Not renamed"))))

    def colour(self, profile_id: int) -> None:
        store = self.session.records
        if store is None:
            return
        current = next((p.colour for p in self._all() if p.id == profile_id), "")
        following = palette.next_free(current, set())
        self._save(lambda: store.update_profile(profile_id, colour=following),
                   _("Colour not changed"))

    def _all(self) -> list[Profile]:
        store = self.session.records
        try:
            return store.profiles() if store is not None else []
        except RecordsError:
            return []

    def pin(self, profile_id: int) -> None:
        profile = self._profile(profile_id)
        if profile is None:
            return
        name = profile["name"]
        if not profile["has_pin"]:
            self._new_pin(profile_id, name)
            return
        self.ctx.notices.choose(Choice(
            _("{name}'s PIN").format(name=name),
            [("change", _("Change the PIN")), ("clear", _("Remove the PIN"))],
            lambda key: self._with_pin(profile_id, name, lambda: self._new_pin(
                profile_id, name) if key == "change" else self._clear_pin(profile_id)),
            text=_("Either way, the current PIN is asked first.")))

    def _with_pin(self, profile_id: int, name: str, then: Callable[[], None]) -> None:
        """Ask for `name`'s current PIN; run `then` only when it is right."""
        store = self.session.records
        if store is None:
            return

        def typed(pin: str) -> None:
            try:
                right = store.check_pin(profile_id, pin)
            except RecordsError as failed:
                self.ctx.notices.tell(plain(say(failed)), _("PIN not checked"))
                return
            if right:
                then()
            else:
                self.ctx.notices.tell(_("That PIN is not right, so nothing was changed."),
                                      _("Wrong PIN"))

        ask_pin(self.ctx, PinRequest(title=_("{name}'s current PIN").format(name=name),
                                     on_done=typed,
                                     text=_("Only {name} types it.").format(name=name)))

    def _new_pin(self, profile_id: int, name: str) -> None:
        store = self.session.records
        if store is None:
            return

        def again(first: str) -> None:
            ask_pin(self.ctx, PinRequest(
                title=_("Type the new PIN again"), text=_("The same four digits, to be sure."),
                on_done=lambda second: confirm(first, second)))

        def confirm(first: str, second: str) -> None:
            if first != second:
                self.ctx.notices.tell(_("The two PINs were not the same, so nothing was "
                                        "changed. Try again."), _("PIN not set"))
                return
            if self._save(lambda: store.set_pin(profile_id, first), _("PIN not set")):
                self.ctx.notices.tell(
                    _("{name} now types this PIN to see their coins.").format(name=name),
                    _("PIN set"))

        ask_pin(self.ctx, PinRequest(
            title=_("A new PIN for {name}").format(name=name), on_done=again,
            text=_("Four digits. {name} types it to see their coins.").format(name=name)))

    def _clear_pin(self, profile_id: int) -> None:
        store = self.session.records
        if store is not None:
            self._save(lambda: store.set_pin(profile_id, None), _("PIN not removed"))

    def remove(self, profile_id: int) -> None:
        profile = self._profile(profile_id)
        store = self.session.records
        if profile is None or store is None:
            return
        name = profile["name"]

        def gone() -> None:
            self._save(lambda: store.remove_profile(profile_id), _("Player not removed"))

        def ask() -> None:
            self.ctx.notices.ask(Question(
                text=_("Remove {name} from the saved players? Past games keep their name, "
                       "but their stats are no longer kept together.").format(name=name),
                yes=_("Remove {name}").format(name=name), on_yes=gone,
                title=_("Remove a player"), kind="danger"))

        if profile["has_pin"]:
            self._with_pin(profile_id, name, ask)
        else:
            ask()
