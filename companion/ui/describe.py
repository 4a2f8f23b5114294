"""Plain words for what happened and what comes next, for the screens.

`step_text` names one step of events the way a player would say it ("Ann picking the
Flying Ratmen"), so the undo button can say what it takes back. `phase_hint` says what the
player whose turn it is does now. No text here carries a purse total: a step's coins are
income or a correction, which everybody at the table sees anyway.

`resume_text` words the home screen's Resume offer from the summary the saved games keep
(any `ResumeOffer`, e.g. the store's `ResumeSummary`), with no game state: it is on the
first frame.

Pure: no Kivy import; reads only events and names. Importing it imports nothing of the
rules (the events are imported by the first `event_text`), so the home screen can use it
before the rules are loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

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
    "fortress": "a Fortress",
    "troll_lair": "a Troll's Lair",
    "encampment": "an Encampment",
    "hole_in_the_ground": "a Hole-in-the-Ground",
    "hero": "a Hero",
    "dragon": "the Dragon",
    "pot_of_gold": "a Pot of Gold",
    "catapult": "the Catapult",
}


def marker_name(marker: str) -> str:
    return MARKER_NAMES.get(marker, marker.replace("_", " "))


def coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def tokens(n: int) -> str:
    return f"{n} token" if n == 1 else f"{n} tokens"


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
        TurnEnded,
        TurnScored,
    )

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    race = (race_of or {}).get
    match event:
        case ComboPicked(seat=seat, race=r, power=p):
            return f"{who(seat)} picking the {p} {r}"
        case ComboRevealed(race=r, power=p):
            return f"revealing the {p} {r}"
        case RaceDeclined(seat=seat):
            declined = race(seat)
            return (f"{who(seat)} putting the {declined} in decline" if declined
                    else f"{who(seat)} going into decline")
        case ConquestsFinished(seat=seat):
            return f"{who(seat)} finishing conquests"
        case RedeploymentFinished(seat=seat):
            return f"{who(seat)} finishing the redeployment"
        case TurnScored(seat=seat, coins=n):
            return f"{who(seat)} scoring {coins(n)} for the turn"
        case CoinsAdjusted(seat=seat, delta=d, reason=why):
            sign = "+" if d >= 0 else "-"
            return f"the coin correction for {who(seat)} ({sign}{abs(d)}: {why})"
        case DieRolled(seat=seat, face=face, purpose="final_conquest", region=region):
            return f"{who(seat)}'s final conquest roll for region {region} ({face})"
        case DieRolled(seat=seat, face=face, purpose="berserk"):
            return f"{who(seat)}'s Berserk roll ({face})"
        case DieRolled(seat=seat, face=face):
            return f"{who(seat)}'s die roll ({face})"
        case TurnEnded(seat=seat):
            return f"{who(seat)} ending the turn"
        case RegionConquered(seat=seat, region=region, catapult=True):
            return f"{who(seat)} taking region {region} with the Catapult"
        case RegionConquered(seat=seat, region=region):
            return f"{who(seat)} taking region {region}"
        case RegionAbandoned(seat=seat, region=region):
            return f"{who(seat)} leaving region {region}"
        case MarkerPlaced(seat=seat, region=region, marker=m):
            return f"{who(seat)} placing {marker_name(m)} in region {region}"
        case MarkerRemoved(seat=seat, region=region, marker=m):
            return f"{who(seat)} removing {marker_name(m)} from region {region}"
        case RegionSet(region=region):
            return f"the correction of region {region}"
        case BadgesReshuffled():
            return "the reshuffle of the badges"
        case GameCreated():
            return "the start of the game"
        case StepUndone():
            return "an undo"
    from companion.ui.presenters import expansions  # each expansion words its own events

    for view in expansions.registered():
        if (text := view.event_text(event, who)) is not None:
            return text
    return "the last action"


def step_text(step: Sequence[Event], names: Sequence[str],
              race_of: dict[int, str] | None = None) -> str:
    """A step in words: its first event names the player's intent (reveals follow it)."""
    if not step:
        return "nothing"
    return event_text(step[0], names, race_of)


PHASE_HINTS: dict[str, str] = {
    "PICK_COMBO": "Pick a race and power from the market.",
    "CONQUER": "Conquer regions: tap them on the map. Then finish conquering.",
    "REDEPLOY": "Move your tokens between your regions, then finish the redeployment.",
    "SCORE": "Score the turn: one coin per region, plus bonuses.",
    "FINISHED": "The turn is scored. End the turn to pass to the next player.",
    "GAME_OVER": "The game is over. Reveal the coins.",
}
"""What the player does now, by the name of the turn's `Phase`."""


def phase_hint(phase: Phase) -> str:
    return PHASE_HINTS.get(phase.name, "")


def resume_text(summary: ResumeOffer) -> str:
    """The home screen's offer to go on with a saved game: who, which turn, whose turn."""
    names = summary.names
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return (f"Resume {who}: turn {summary.turn} of {summary.turns}, "
            f"{summary.current}'s turn")
