"""Plain words for what happened and what comes next, for the screens.

`step_text` names one step of events the way a player would say it ("Ann picking the
Flying Ratmen"), so the undo button can say what it takes back: each a whole sentence of
the language spoken with named placeholders, the races and powers in it by the names
printed on that language's edition (`companion.ui.names`). `phase_hint` says what the
player whose turn it is does now. No text here carries a purse total: a step's coins are
income or a correction, which everybody at the table sees anyway.

`resume_text` words the home screen's Resume offer from the summary the saved games keep
(any `ResumeOffer`, e.g. the store's `ResumeSummary`), with no game state: it is on the
first frame.

Every text is in the language spoken now (`companion.i18n`): a caller words it again when
the language changes. Pure: no Kivy import; reads only events and names. Importing it
imports nothing of the rules (the events are imported by the first `event_text`), so the
home screen can use it before the rules are loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from companion.i18n import N_, _, ngettext
from companion.ui.names import combo as combo_name
from companion.ui.names import race as race_name

if TYPE_CHECKING:
    from companion.rules import Event, Phase


class ResumeOffer(Protocol):
    """What the Resume offer tells: who plays (by seat), which turn of how many, and whose
    turn it is."""

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def turn(self) -> int: ...

    @property
    def turns(self) -> int: ...

    @property
    def current(self) -> str: ...


MARKER_NAMES = {
    "fortress": N_("a Fortress"),
    "troll_lair": N_("a Troll's Lair"),
    "encampment": N_("an Encampment"),
    "hole_in_the_ground": N_("a Hole-in-the-Ground"),
    "hero": N_("a Hero"),
    "dragon": N_("the Dragon"),
    "catapult": N_("the Catapult"),
}
"""Each marker of the base game as a sentence names it (marked here, translated where
shown); an expansion's markers are worded by its view (`ExpansionView.marker_words`)."""


def marker_name(marker: str) -> str:
    """A marker by its id as a sentence names it, in the language spoken (an unknown id:
    its words as they are)."""
    found = MARKER_NAMES.get(marker)
    if found is not None:
        return _(found)
    from companion.ui.presenters import expansions  # each expansion words its own markers

    return next((words for view in expansions.registered()
                 if (words := view.marker_words(marker)) is not None),
                marker.replace("_", " "))


def coins(n: int) -> str:
    return ngettext("{n} coin", "{n} coins", n).format(n=n)


def tokens(n: int) -> str:
    return ngettext("{n} token", "{n} tokens", n).format(n=n)


def on_the_board(n: int) -> str:
    """A player's race tokens on the board, in words (a tie-break's count)."""
    return _("{count} on the board").format(count=tokens(n))


def event_text(event: Event, names: Sequence[str], race_of: dict[int, str] | None = None) -> str:
    """One event in words; `names` are the players' names by seat."""
    from companion.rules import (
        BadgesReshuffled,
        CoinsAdjusted,
        ComboPicked,
        ComboRevealed,
        ConquestsFinished,
        DieRolled,
        GameCreated,
        MarkerPlaced,
        MarkerRemoved,
        RaceDeclined,
        RedeploymentFinished,
        RegionAbandoned,
        RegionConquered,
        RegionSet,
        StepUndone,
        TroopsRedeployed,
        TurnEnded,
        TurnScored,
    )

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else _("seat {number}").format(
            number=seat + 1)

    race = (race_of or {}).get
    match event:
        case ComboPicked(seat=seat, race=r, power=p):
            return _("{name} picking the {combo}").format(name=who(seat),
                                                          combo=combo_name(p, r))
        case ComboRevealed(race=r, power=p):
            return _("revealing the {combo}").format(combo=combo_name(p, r))
        case RaceDeclined(seat=seat):
            declined = race(seat)
            return (_("{name} putting the {race} in decline").format(
                name=who(seat), race=race_name(declined))
                    if declined else _("{name} going into decline").format(name=who(seat)))
        case ConquestsFinished(seat=seat):
            return _("{name} finishing conquests").format(name=who(seat))
        case RedeploymentFinished(seat=seat):
            return _("{name} finishing the redeployment").format(name=who(seat))
        case TroopsRedeployed(seat=seat, race=r):
            return _("{name} placing the {race} on the board").format(name=who(seat),
                                                                       race=race_name(r))
        case TurnScored(seat=seat, coins=n):
            return ngettext("{name} scoring {n} coin for the turn",
                            "{name} scoring {n} coins for the turn", n).format(
                name=who(seat), n=n)
        case CoinsAdjusted(seat=seat, delta=d, reason=why):
            sign = "+" if d >= 0 else "-"
            return _("the coin correction for {name} ({change}: {reason})").format(
                name=who(seat), change=f"{sign}{abs(d)}", reason=why)
        case DieRolled(seat=seat, face=face, purpose="final_conquest", region=region):
            return _("{name}'s final conquest roll for region {region} ({face})").format(
                name=who(seat), region=region, face=face)
        case DieRolled(seat=seat, face=face, purpose="berserk"):
            return _("{name}'s Berserk roll ({face})").format(name=who(seat), face=face)
        case DieRolled(seat=seat, face=face):
            return _("{name}'s die roll ({face})").format(name=who(seat), face=face)
        case TurnEnded(seat=seat):
            return _("{name} ending the turn").format(name=who(seat))
        case RegionConquered(seat=seat, region=region, catapult=True):
            return _("{name} taking region {region} with the Catapult").format(
                name=who(seat), region=region)
        case RegionConquered(seat=seat, region=region, dragon=True):
            return _("{name} taking region {region} with the Dragon").format(
                name=who(seat), region=region)
        case RegionConquered(seat=seat, region=region):
            return _("{name} taking region {region}").format(name=who(seat), region=region)
        case RegionAbandoned(seat=seat, region=region):
            return _("{name} leaving region {region}").format(name=who(seat), region=region)
        case MarkerPlaced(seat=seat, region=region, marker=m):
            return _("{name} placing {marker} in region {region}").format(
                name=who(seat), marker=marker_name(m), region=region)
        case MarkerRemoved(seat=seat, region=region, marker=m):
            return _("{name} removing {marker} from region {region}").format(
                name=who(seat), marker=marker_name(m), region=region)
        case RegionSet(region=region):
            return _("the correction of region {region}").format(region=region)
        case BadgesReshuffled():
            return _("the reshuffle of the badges")
        case GameCreated():
            return _("the start of the game")
        case StepUndone():
            return _("an undo")
    from companion.ui.presenters import expansions  # each expansion words its own events

    return next((text for view in expansions.registered()
                 if (text := view.event_text(event, who)) is not None), _("the last action"))


def step_text(step: Sequence[Event], names: Sequence[str],
              race_of: dict[int, str] | None = None) -> str:
    """A step in words: its first event names the player's intent (reveals follow it)."""
    if not step:
        return _("nothing")
    return event_text(step[0], names, race_of)


PHASE_HINTS: dict[str, str] = {
    "PICK_COMBO": N_("Pick a race and power from the market."),
    "CONQUER": N_("Conquer regions: tap them on the map. Then finish conquering."),
    "REDEPLOY": N_("Move your tokens between your regions, then finish the redeployment."),
    "SCORE": N_("Score the turn: one coin per region, plus bonuses."),
    "FINISHED": N_("The turn is scored. End the turn to pass to the next player."),
    "GAME_OVER": N_("The game is over. Reveal the coins."),
}
"""What the player does now, by the name of the turn's `Phase` (translated where shown)."""


def phase_hint(phase: Phase) -> str:
    hint = PHASE_HINTS.get(phase.name)
    return _(hint) if hint is not None else ""


def resume_text(summary: ResumeOffer) -> str:
    """The home screen's offer to go on with a saved game: who, which turn, whose turn."""
    names = summary.names
    who = names[0] if len(names) == 1 else _("{names} and {last}").format(
        names=", ".join(names[:-1]), last=names[-1])
    return _("Resume {players}: turn {turn} of {turns}, {name}'s turn").format(
        players=who, turn=summary.turn, turns=summary.turns, name=summary.current)
