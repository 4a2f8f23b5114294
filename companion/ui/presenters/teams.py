"""Six players in teams on screen: every player's team and partner, the Monsters set out
before the first turn, the Relics and Places lying on the board with the choices their
holder has, and the team standings at the end.

Everything shown is public: the teams, the Monsters, the markers found and who holds
them, Bony's banner and the Sigil's pact. The pile's order stays hidden (only how many are
left), and no purse is read here before the end. An action is offered only when the rules
would take it now (`game.refusal`); every decision is the rules', this module only words
it and hands the taps to the session.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar, assert_never

from companion.i18n import N_, _, ngettext
from companion.rules import (
    MAX_PLAYERS,
    Event,
    GameState,
    Phase,
    refusal,
    teams,
)
from companion.ui import names as piece_names
from companion.ui import palette
from companion.ui.presenters.base import Choice, Presenter
from companion.ui.presenters.expansion import (
    ExpansionView,
    MapIntents,
    PrivateOverlay,
    Seating,
    SetupForm,
    SetupIntents,
    TableIntents,
    TableTurn,
)
from companion.ui.wording import say

SIGIL_WORDS = {
    teams.SigilMode.SHIELD.value: N_("you lose your tokens instead of theirs"),
    teams.SigilMode.STAND_IN.value: N_("they lose tokens instead of yours, if willing"),
}
"""What each pact of the Sigil does, in English (translated where shown)."""

KINDS = {teams.Kind.RELIC.value: N_("Righteous Relic"),
         teams.Kind.PLACE.value: N_("Popular Place")}
"""A marker's kind in words, in English (translated where shown)."""


def _coins(n: int) -> str:
    return ngettext("{count} coin", "{count} coins", n).format(count=n)


def _banner(state: GameState, seat: int, race: str) -> str:
    """A player's race: "Ann's Ratmen"."""
    return _("{name}'s {race}").format(name=_name(state, seat), race=piece_names.race(race))


def _name(state: GameState, seat: int) -> str:
    return state.player(seat).name


def placing(state: GameState) -> int | None:
    """The seat that sets the next Monster (None once they are all out, or not a team game)."""
    return None if state.is_over else teams.placing_monster(state)


# --- the table -------------------------------------------------------------------------------


def marker_actions(state: GameState) -> list[dict[str, Any]]:
    """What the Relics and Places held by the current player let them do now."""
    relics = state.part(teams.RelicsState)
    if relics is None:
        return []
    seat = state.track.seat
    out: list[dict[str, Any]] = []
    if relics.soapbar_owed_by == seat:
        out.append({"key": "soapbar", "kind": "warning", "text": _("Move the Golden Soapbar")})
    if relics.tavern_open is not None and relics.tavern_open[0] == seat:
        out.append({"key": "tavern",
                    "text": _("Give the Tavern's coins (up to {count})").format(
                        count=relics.tavern_open[1])})
    if _bony_targets(state):
        out.append({"key": "bony", "text": _("Set Bony on a race in decline")})
    if refusal(state, teams.PowersSwapped(seat)) is None:
        ally = _name(state, teams.partner(seat))
        out.append({"key": "mirror",
                    "text": _("Swap powers with {name} (Mirror's Vale)").format(name=ally)})
    if _sigil_targets(state):
        out.append({"key": "sigil", "text": _("Make the Sigil's pact")})
    return out


def _banners(state: GameState, *, in_decline: bool | None) -> list[tuple[int, str]]:
    found = set()
    for rid in state.map.regions:
        occupant = state.regions[rid].occupant
        if occupant is not None and (in_decline is None or occupant.in_decline == in_decline):
            found.add((occupant.seat, occupant.race))
    return sorted(found)


def _bony_targets(state: GameState) -> list[tuple[int, str]]:
    seat = state.track.seat
    return [(s, race) for s, race in _banners(state, in_decline=True)
            if refusal(state, teams.BonyPlaced(seat, s, race)) is None]


def _sigil_targets(state: GameState) -> list[tuple[int, str]]:
    seat = state.track.seat
    shield = teams.SigilMode.SHIELD.value
    return [(s, race) for s, race in _banners(state, in_decline=None)
            if refusal(state, teams.SigilPactMade(seat, shield, s, race)) is None]


def _marker_words(name: str) -> str:
    """A Relic's or Place's name as the edition prints it."""
    marker = teams.marker_name(name)
    return piece_names.of_kind(marker.kind, marker.id)


class TableAction(StrEnum):
    """The team-play buttons of the table (the values are their keys)."""

    MONSTER_MAP = "monster_map"
    MONSTER_PASS = "monster_pass"
    SOAPBAR = "soapbar"
    TAVERN = "tavern"
    BONY = "bony"
    MIRROR = "mirror"
    SIGIL = "sigil"


def do_table(presenter: Presenter, overlay: PrivateOverlay, action: TableAction) -> None:
    """Run a team-play button of the table (nothing without a game; nothing is shown in
    private)."""
    state = presenter.state
    if state is None:
        return
    handlers: dict[TableAction, Callable[[], object]] = {
        TableAction.MONSTER_MAP: lambda: presenter.go("map"),
        TableAction.MONSTER_PASS: lambda: presenter.attempt(presenter.session.pass_monster),
        TableAction.SOAPBAR: lambda: _ask_soapbar(presenter, state),
        TableAction.TAVERN: lambda: _ask_tavern(presenter, state),
        TableAction.BONY: lambda: _ask_bony(presenter, state),
        TableAction.MIRROR: lambda: presenter.attempt(presenter.session.swap_powers),
        TableAction.SIGIL: lambda: _ask_sigil(presenter, state),
    }
    handlers[action]()


def _ask_soapbar(presenter: Presenter, state: GameState) -> None:
    relics = state.part(teams.RelicsState)
    if relics is None:
        return
    seat = state.track.seat
    choices = []
    for rid in teams.soapbar_destinations(relics, state.map, state.regions, seat):
        occupant = state.regions[rid].occupant
        who = (_banner(state, occupant.seat, occupant.race) if occupant is not None
               else _("a Lost Tribe") if state.regions[rid].lost_tribe else _("empty"))
        choices.append((str(rid), _("Region {region} ({who})").format(region=rid, who=who)))
    def chosen(key: str) -> None:
        presenter.attempt(lambda: presenter.session.move_soapbar(int(key)))

    presenter.ctx.notices.choose(Choice(
        _("Where does the Golden Soapbar go?"), choices, chosen,
        text=_("Next to your active race, into a region it does not hold.")))


def _ask_tavern(presenter: Presenter, state: GameState) -> None:
    relics = state.part(teams.RelicsState)
    if relics is None or relics.tavern_open is None:
        return
    seat, most = relics.tavern_open
    ally = teams.partner(seat)
    others = [p for p in state.players if p.seat != seat]
    choices = [(str(p.seat), _("{name} (your partner)").format(name=p.name) if p.seat == ally
                else p.name) for p in others]

    def to_player(key: str) -> None:
        to = int(key)
        amounts = [(str(n), ngettext("Give {count} coin", "Give {count} coins", n).format(
                        count=n)) for n in range(1, most + 1)
                   if refusal(state, teams.TavernShared(seat, to, n)) is None]
        def give(n: str) -> None:
            presenter.attempt(lambda: presenter.session.share_tavern(to, int(n)))

        presenter.ctx.notices.choose(Choice(
            _("How many Tavern coins for {name}?").format(name=_name(state, to)), amounts,
            give))

    presenter.ctx.notices.choose(Choice(
        _("Who gets the Tavern's coins?"), choices, to_player,
        text=_("Only this turn's Tavern coins, to one player.")))


def _ask_bony(presenter: Presenter, state: GameState) -> None:
    choices = [(f"{s}:{race}", _("{name}'s {race} in decline").format(
                    name=_name(state, s), race=piece_names.race(race)))
               for s, race in _bony_targets(state)]

    def chosen(key: str) -> None:
        seat, _, race = key.partition(":")
        presenter.attempt(lambda: presenter.session.place_bony(int(seat), race))

    presenter.ctx.notices.choose(Choice(
        _("Which banner does Bony guard?"), choices, chosen,
        text=_("Other players' race and power abilities do nothing against those tokens.")))


def _ask_sigil(presenter: Presenter, state: GameState) -> None:
    targets = _sigil_targets(state)
    choices = [(f"{mode}:{s}:{race}", _("{name}'s {race}: {pact}").format(
                    name=_name(state, s), race=piece_names.race(race), pact=_(words)))
               for mode, words in SIGIL_WORDS.items() for s, race in targets]

    def chosen(key: str) -> None:
        mode, seat, race = key.split(":", 2)
        presenter.attempt(lambda: presenter.session.make_sigil_pact(mode, int(seat), race))

    presenter.ctx.notices.choose(Choice(
        _("The Sigil's pact"), choices, chosen,
        text=_("The table moves the tokens; the app keeps the pact while you hold the "
               "Sigil.")))


# --- the map ----------------------------------------------------------------------------------


class MapAction(StrEnum):
    """The map's team-play button (the value is its key)."""

    MONSTER = "monster"


def do_map(presenter: Presenter, action: MapAction, region: int) -> None:
    """Run the map's Monster button for the region tapped."""
    match action:
        case MapAction.MONSTER:
            placed = presenter.attempt(lambda: presenter.session.place_monster(region))
            if placed is not None and placing(placed) is None:
                presenter.go("table")  # the last Monster is out: the first turn begins
        case _:
            assert_never(action)


# --- the end ----------------------------------------------------------------------------------


ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
"""A team's rank in words, in English (translated where shown)."""


# --- the new game ----------------------------------------------------------------------------


class SetupAction(StrEnum):
    """Team play's toggle on the new game form."""

    TEAMS = "teams"


def do_setup(form: SetupForm, action: SetupAction) -> None:
    """Team play on or off (off only with a seat fewer than a team game's)."""
    on = form.option(action)
    if on and form.seat_count() > MAX_PLAYERS:
        form.tell(_("Without teams a game has at most {most} players: take one out first."
                    ).format(most=MAX_PLAYERS), _("Not now"))
        return
    form.set_option(action, not on)


def board_text(count: int, described: str | None = None) -> str:
    """What the new game says of the board in team play (`described`: the chosen board
    file in words, None for the packaged board)."""
    if described is not None and count == teams.OWN_BOARD_PLAYERS:
        return _("{board}. {count} players in 3 teams, partners opposite. Seats go clockwise "
                 "in this order.").format(board=described, count=count)
    if count != teams.TEAM_PLAYERS:
        return _("A team game is for {players} players, not {count}: partners sit opposite."
                 ).format(players=teams.TEAM_PLAYERS, count=count)
    return _("{count} players in 3 teams, partners opposite: the 5-player board, {turns} turns. "
             "Seats go clockwise in this order.").format(count=count, turns=teams.TEAM_TURNS)


# --- the view --------------------------------------------------------------------------------


class TeamView(ExpansionView):
    """Team play's part of the shared screens."""

    expansion = "Team play"
    catalog_id = "team-play"
    table_intents: ClassVar[TableIntents] = {TableAction: do_table}
    map_intents: ClassVar[MapIntents] = {MapAction: do_map}
    setup_intents: ClassVar[SetupIntents] = {SetupAction: do_setup}
    setup_key = "teams"

    # the new game form: six players in three teams of two, with the Relics and Places
    def setup_options(self, form: SetupForm) -> list[dict[str, Any]]:
        """The team-play toggle."""
        on = form.option(self.setup_key)
        return [{"key": "teams", "kind": "primary" if on else "secondary",
                 "text": (_("Teams of two (6 players, Relics and Places): on") if on
                          else _("Teams of two (6 players): off"))}]

    def seating(self, form: SetupForm, described: str | None) -> Seating | None:
        if not form.option(self.setup_key):
            return None
        return Seating((teams.TEAM_BOARD_PLAYERS, teams.OWN_BOARD_PLAYERS), MAX_PLAYERS + 1,
                       board_text(form.seat_count(), described))

    def table_turn(self, state: GameState) -> TableTurn | None:
        """What the table waits for in team play now: before turn 1, the seat setting the
        next Monster (the heading names it); then a Golden Soapbar owed."""
        seat = placing(state)
        if seat is not None:
            heading = _("{name}'s Monster").format(name=_name(state, seat))
            if teams.next_monster_sites(state):
                return TableTurn(_("Before the first turn, {name} sets a Monster: tap a bright "
                                   "Lost Tribe region on the map.").format(
                                       name=_name(state, seat)), seat, heading)
            return TableTurn(_("No region is left for {name}'s Monster: they pass.").format(
                name=_name(state, seat)), seat, heading)
        relics = state.part(teams.RelicsState)
        if relics is not None and relics.soapbar_owed_by == state.track.seat and not state.is_over:
            return TableTurn(_("Move the Golden Soapbar before the turn ends."))
        return None

    def table_actions(self, state: GameState, usual: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The table's buttons: the Monster set-up before turn 1, then the marker choices of the
        player whose turn it is before the usual buttons."""
        if state.part(teams.RelicsState) is None or state.is_over:
            return usual
        seat = placing(state)
        if seat is not None:
            name = _name(state, seat)
            if teams.next_monster_sites(state):
                return [{"key": "monster_map", "kind": "primary",
                         "text": _("{name}: set the Monster on the map").format(name=name)}]
            return [{"key": "monster_pass", "kind": "primary",
                     "text": _("{name}: no region left, pass").format(name=name)}]
        return [*marker_actions(state), *usual]

    def player_rows(self, state: GameState, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The table's player rows with each player's team and partner on the second line."""
        if state.part(teams.MonsterSetup) is None:
            return rows
        monster = placing(state)
        out = []
        for row in rows:
            seat = row["seat"]
            label = teams.team_label(state, seat)
            team = _("Team {label}, with {name}").format(label=label,
                                                         name=_name(state, teams.partner(seat)))
            declined = f"{team}. {row['declined']}" if row["declined"] else team
            current = row["current"] if monster is None else seat == monster
            out.append(dict(row, declined=declined, current=current))
        return out

    def summary(self, state: GameState) -> str:
        """The Monsters and markers on the board, in a few lines ("" outside team play)."""
        relics = state.part(teams.RelicsState)
        if relics is None:
            return ""
        view = teams.public(relics)
        lines = []
        if view.monsters:
            lines.append(_("Monsters in regions {regions}.").format(
                regions=", ".join(map(str, view.monsters))))
        lines.append(_("Relics and Places still face down: {count}.").format(count=view.pile_left))
        for name, kind, region in view.lying:
            holder = teams.holder(relics, state.regions, name)
            kind_words = _(KINDS[kind]) if kind in KINDS else kind
            shown = piece_names.of_kind(  # its printed name
                "relic" if kind == teams.Kind.RELIC.value else "place", name)
            if holder is not None:
                lines.append(_("{marker} ({kind}) in region {region}, used by {name}.").format(
                    marker=shown, kind=kind_words, region=region, name=_name(state, holder)))
            else:
                lines.append(_("{marker} ({kind}) in region {region}.").format(
                    marker=shown, kind=kind_words, region=region))
        if view.bony is not None:
            guards = view.bony.guards
            lines.append(_("Bony guards {name}'s {race} in decline.").format(
                name=_name(state, guards.seat), race=piece_names.race(guards.race)))
        if view.sigil is not None:
            pact = view.sigil
            lines.append(_("Sigil pact: {holder} and {name}'s {race} ({pact}).").format(
                holder=_name(state, pact.holder.seat), name=_name(state, pact.other.seat),
                race=piece_names.race(pact.other.race), pact=_(SIGIL_WORDS[pact.mode.value])))
        return "\n".join(lines)

    def reminders(self, state: GameState) -> tuple[str, ...]:
        """What the markers the current player holds ask of them now."""
        relics = state.part(teams.RelicsState)
        if relics is None or state.is_over or placing(state) is not None:
            return ()
        seat = state.track.seat
        coming = []
        if state.track.phase is Phase.SCORE:
            for name, extra in ((teams.SOAPBAR, teams.SOAPBAR_COINS),
                                (teams.TAVERN, teams.TAVERN_COINS)):
                if teams.holder(relics, state.regions, name) == seat:
                    coming.append(ngettext("{marker}: {count} coin more come with this "
                                           "turn's score.",
                                           "{marker}: {count} coins more come with this turn's "
                                           "score.", extra).format(marker=_marker_words(name),
                                                                   count=extra))
        return (*coming, *(say(line) for line in teams.reminders(relics, state.regions, seat)))

    def map_highlight(self, state: GameState) -> tuple[frozenset[int], str] | None:
        """The regions open to the next Monster and what to do, or None when no Monster is
        owed."""
        seat = placing(state)
        if seat is None:
            return None
        return frozenset(teams.next_monster_sites(state)), _(
            "{name} sets a Monster: tap a bright region, then set it there (a Lost Tribe "
            "region, never next to another Monster).").format(name=_name(state, seat))

    def region_text(self, state: GameState, region: int) -> str:
        """A Monster or a marker in `region`, in words ("" when none)."""
        relics = state.part(teams.RelicsState)
        if relics is None:
            return ""
        parts = []
        if region in relics.monsters:
            parts.append(_("A Monster guards it (+1 to take it)."))
        parts += [_("{marker} lies here: {summary}").format(
            marker=say(teams.marker_name(name)), summary=_(teams.MARKERS[name].summary))
            for name, rid in relics.lying.items() if rid == region]
        return " ".join(parts)

    def region_rules(self, state: GameState, region: int) -> list[tuple[str, str]]:
        """The rule book's entries for `region`: a Monster, the Relics and Places lying
        there."""
        relics = state.part(teams.RelicsState)
        if relics is None:
            return []
        out = [("piece", "Monsters")] if region in relics.monsters else []
        return out + [("relic" if teams.MARKERS[name].kind is teams.Kind.RELIC else "place", name)
                      for name, rid in relics.lying.items() if rid == region]

    def region_actions(self, state: GameState, region: int, main: list[dict[str, Any]],
                       more: list[dict[str, Any]]
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The Monster's button for a region open to it, first."""
        seat = placing(state)
        if seat is None or region not in teams.next_monster_sites(state):
            return main, more
        return [{"key": "monster", "kind": "primary",
                 "text": _("Set {name}'s Monster in region {region}").format(
                     name=_name(state, seat), region=region)}, *main], more

    def standings(self, state: GameState) -> tuple[list[dict[str, Any]], str] | None:
        """One row per team in order of rank: its players, its score (the lower total);
        under them both totals of every team, and how a team scores."""
        if state.part(teams.MonsterSetup) is None:
            return None
        result = teams.team_result(state)
        rows = []
        for place in result.placings:
            first, second = place.team.seats
            colour = palette.rgba(state.player(first).colour)
            rank = ORDINALS.get(place.rank)
            rows.append({"seat": first, "rank": _(rank) if rank is not None else str(place.rank),
                         "name": f"{place.team.label}: {_name(state, first)} & "
                                 f"{_name(state, second)}",
                         "coins": _coins(place.score),
                         "rgba": colour, "ink": palette.ink_on(colour)})
        teams_ = "; ".join(
            f"{p.team.label}: " + ", ".join(f"{_name(state, s)} {n}" for s, n in p.totals)
            for p in sorted(result.placings, key=lambda p: p.team.label))
        return rows, _("Each team scores its lower total. {teams}.").format(teams=teams_)

    def event_text(self, event: Event, who: Callable[[int], str]) -> str | None:
        match event:
            case teams.MonsterPlaced(seat=seat, region=region):
                return _("{name}'s Monster in region {region}").format(name=who(seat),
                                                                       region=region)
            case teams.MonsterPassed(seat=seat):
                return _("{name} passing on the Monster").format(name=who(seat))
            case teams.SoapbarMoved(seat=seat, region=region):
                return _("{name} moving the Golden Soapbar to region {region}").format(
                    name=who(seat), region=region)
            case teams.TavernShared(seat=seat, to_seat=to, coins=n):
                return ngettext("{name} giving {count} coin of the Tavern to {other}",
                                "{name} giving {count} coins of the Tavern to {other}", n
                                ).format(name=who(seat), count=n, other=who(to))
            case teams.BonyPlaced(seat=seat):
                return _("{name} setting Bony").format(name=who(seat))
            case teams.PowersSwapped(seat=seat):
                return _("{name} swapping powers (Mirror's Vale)").format(name=who(seat))
            case teams.SigilPactMade(seat=seat):
                return _("{name}'s Sigil pact").format(name=who(seat))
        return None
