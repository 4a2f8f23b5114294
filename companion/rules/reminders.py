"""Reminders: what the current player owes or may do at this moment, in plain words.

The table does the handling of cardboard; the app reminds. Each reminder belongs to a
race or power (or to the turn itself) and to a phase, and some carry a number worked out
from this turn's events (Skeletons' new tokens, the Wealthy coins). Only the current
player's races and powers give reminders; a race that went into decline gives none,
except where its rule keeps working (declined Ghouls still conquer).

An expansion's races, powers and pieces remind through its hooks
(`Expansion.race_reminder`, `Expansion.reminders`), asked of the game's expansions in the
registry's order; no expansion is named here.
"""

from __future__ import annotations

from collections.abc import Callable

import companion.rules.expansions as expansions
from companion.rules.maps import Feature
from companion.rules.names import (
    AMAZONS,
    BARBARIANS,
    BEHEMOTH,
    BERSERK,
    BIVOUACKING,
    CATAPULT,
    COMMANDO,
    DIPLOMAT,
    DRAGON_MASTER,
    FAUNS,
    FIREBALL,
    FORTIFIED,
    GHOULS,
    GYPSIES,
    HALFLINGS,
    HEROIC,
    HORDES_OF,
    IGORS,
    KOBOLDS,
    MARAUDING,
    PIXIES,
    SKELETONS,
    SORCERERS,
    STOUT,
    TROLLS,
    WEALTHY,
)
from companion.rules.players import Player
from companion.rules.said import Said, said, said_n
from companion.rules.state import GameState
from companion.rules.turns import Phase

Reminder = Callable[[GameState, Player], Said | None]


def _amazons(state: GameState, player: Player) -> Said | None:
    if state.track.phase is Phase.REDEPLOY:
        return said("Amazons: after redeploying, lift 4 Amazons off the board until next turn.")
    return said("Amazons: 4 extra tokens for conquest this turn (they do not defend).")


def _skeletons(state: GameState, player: Player) -> Said | None:
    new = state.track.this_turn.conquered_non_empty // 2
    if new:
        return said_n("Skeletons: take {n} new token from the tray (1 per 2 non-empty regions "
                      "conquered).",
                      "Skeletons: take {n} new tokens from the tray (1 per 2 non-empty regions "
                      "conquered).", new)
    return None


def _wealthy(state: GameState, player: Player) -> Said | None:
    active = player.active
    if active is not None and active.picked_turn == state.track.turn:
        return said("Wealthy: 7 coins this turn, once.")
    return None


def _igors(state: GameState, player: Player) -> Said | None:
    batch = len(state.players)
    return said("Igors: every {batch} tokens lost in conquests (yours too) that you collected "
                "become 1 new Igor now.", batch=batch)


def _fireball(state: GameState, player: Player) -> Said | None:
    assert player.active is not None
    held = state.regions.held_by(player.seat, player.active.race, in_decline=False)
    sources = sum(1 for i in held if Feature.MAGIC in state.map.region(i).features)
    if not sources:
        return said("Fireball: no Magic Source held, so no new Fireball this turn.")
    return said_n("Fireball: take {n} Fireball (1 per Magic Source held).",
                  "Fireball: take {n} Fireballs (1 per Magic Source held).", sources)


_BY_PHASE: dict[Phase, dict[str, Reminder]] = {
    Phase.CONQUER: {
        AMAZONS: _amazons,
        BERSERK: lambda s, p: said("Berserk: roll the die before each conquest."),
        DRAGON_MASTER: lambda s, p: None if s.track.this_turn.dragon_took is not None else said(
            "Dragon Master: once this turn, 1 token and the Dragon take any region."),
        HALFLINGS: lambda s, p: said("Halflings: a Hole-in-the-Ground in each of the first 2 "
                                     "regions they conquer."),
        SORCERERS: lambda s, p: said("Sorcerers: once per opponent, swap a lone active enemy "
                                     "token for one of yours."),
        TROLLS: lambda s, p: said("Trolls: a Troll's Lair in every region they take."),
        COMMANDO: lambda s, p: said("Commando: every conquest costs 1 token less."),
        KOBOLDS: lambda s, p: said("Kobolds: at least 2 Kobolds in every region, to attack or "
                                   "to hold."),
        GYPSIES: lambda s, p: said("Gypsies: a region you abandon gets a coin and cannot be "
                                   "taken back this turn."),
        IGORS: _igors,
        HORDES_OF: lambda s, p: said("Hordes of: the 2 Hordes tokens fight and hold like your "
                                     "race's."),
        MARAUDING: lambda s, p: said("Marauding: before any final roll, gather your troops (1 "
                                     "stays per region) and conquer again."),
        CATAPULT: lambda s, p: said("Catapult: put it in one of your regions on the map; once "
                                    "this turn, attack 1 region beyond a neighbour for 1 token "
                                    "less; its region is immune."),
        BEHEMOTH: lambda s, p: said("Behemoth: each stack fights as 1 token per Swamp you hold "
                                    "and needs a token beside it."),
    },
    Phase.REDEPLOY: {
        AMAZONS: _amazons,
        SKELETONS: _skeletons,
        BIVOUACKING: lambda s, p: said("Bivouacking: set out the 5 Encampments."),
        FORTIFIED: lambda s, p: None if any(m == "fortress" for m, _ in
                                            s.track.this_turn.placed_once) else said(
            "Fortified: you may place 1 Fortress (6 at most on the map)."),
        BARBARIANS: lambda s, p: said("Barbarians: no redeployment; your tokens stay where they "
                                      "fought."),
        PIXIES: lambda s, p: said("Pixies: after redeploying keep 1 Pixie per region; the rest "
                                  "wait off the board."),
        FAUNS: lambda s, p: said("Fauns: 1 new token per active enemy region taken this turn; "
                                 "each victim gains 1 per region lost."),
        FIREBALL: _fireball,
    },
    Phase.SCORE: {
        WEALTHY: _wealthy,
    },
    Phase.FINISHED: {
        HEROIC: lambda s, p: said("Heroic: place the 2 Heroes in 2 of your regions."),
        DIPLOMAT: lambda s, p: said("Diplomat: name an ally whose active race you did not "
                                    "attack."),
        STOUT: lambda s, p: said("Stout: you may go into decline now."),
    },
}


def reminders(state: GameState) -> tuple[Said, ...]:
    """The reminders for the player whose turn it is, now (English by `str()`)."""
    if state.is_over:
        return ()
    player = state.current
    phase = state.track.phase
    table = _BY_PHASE.get(phase, {})
    out: list[Said] = []
    if phase is Phase.CONQUER and any(d.race == GHOULS for d in player.declined):
        out.append(said("Ghouls in decline: conquer with them first, before your active race."))
    played = expansions.played(state)
    if player.active is not None:
        for name in (player.active.race, player.active.power):
            reminder = table.get(name)
            text = (reminder(state, player) if reminder else
                    next((t for x in played if (t := x.race_reminder(state, name))), None))
            if text:
                out.append(text)
    if phase is Phase.CONQUER and state.track.this_turn.conquests:
        out.append(said("A defender loses 1 token and redeploys the rest at the end of your "
                        "turn (Elves lose none)."))
    for expansion in played:
        out.extend(expansion.reminders(state))
    return tuple(out)
