"""Settings: players, display, hardware, data.

- Players: how many are saved, and the way to the players screen (names, colours, PINs).
- Sound: the cues' volume, mute and quiet hours, written to ``companion.toml`` and handed
  to the app's sounds at once (`Context.cues.use`): a new volume is heard straight away.
- Seating: the players sit on one side of the screen, or around it (then the table turns
  to face the player): written to ``companion.toml`` and applied at once (`Context.seats`).
- Display (rotation, dimming after idle, text size) and hardware (the die button's GPIO
  pin, the sensor grid's serial port) are written to the user's ``companion.toml``
  (`config.save_config_values`, which keeps every other line), the one file the app reads
  at start. They take effect at the next start; the screen says so beside each changed
  value. "Calibrate the sensor grid" appears only when the app has a calibration screen.
- Data: a backup now, the backups there are, every finished game exported, and a copy
  saved on a USB stick: a fresh backup, copied to the first stick found (`companion.usb`;
  mounted with udisks2 first when nothing has mounted it, and unmounted and powered off
  again afterwards), read back and checked before the screen says it can be taken out.
- Game numbers: the catalog numbers that rest on one source (a banner's or badge's tokens,
  a race's tokens in the box), each with its value now; a group holding the box corrects
  one by choosing the number it counts, or puts every packaged number back. Corrections
  are saved in the saved-games file (`Session.save_corrections`) and apply to the games
  started from then on; a started game keeps the numbers it began with.
- Language: the language the screens speak (`companion.i18n`), or the system's; written to
  ``companion.toml`` and spoken at once (`set_language`, which the home screen's choice
  uses too). Every text here is worded in the language spoken, and again when it changes
  (`update`, which the app calls then).
"""

from __future__ import annotations

import glob
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.properties import BooleanProperty, StringProperty

from companion import i18n, system_actions, usb
from companion.config import (
    DEFAULT_GRID_PORT,
    GPIO_PINS,
    PHYSICAL_PIN,
    TEXT_SCALES,
    Config,
    QuietHours,
    default_config_path,
    load_config,
    parse_quiet_hours,
    save_config_values,
    show_quiet_hours,
)
from companion.cues import Cue
from companion.i18n import N_, _, ngettext
from companion.notify import keep_alive
from companion.records import RecordsError
from companion.rules import (
    MOST_IN_BOX,
    MOST_TOKENS,
    Correction,
    CorrectionError,
    Override,
    correctable,
    overrides,
)
from companion.ui import names
from companion.ui.language import LANGUAGE
from companion.ui.presenters.base import Choice, Presenter, plain
from companion.ui.presenters.history import export_dir, when, write_exports
from companion.ui.presenters.intents import known
from companion.ui.wording import say

if TYPE_CHECKING:
    from companion.rules import GameState

ROTATIONS = ((0, N_("0 degrees (as the panel is made)")), (90, N_("90 degrees")),
             (180, N_("180 degrees (upside down)")), (270, N_("270 degrees")))
DIM_CHOICES = (0, 30, 60, 120, 300, 600, 1800)
"""The idle times offered before the screen dims, in seconds (0: never)."""
VOLUMES = ((0, N_("Silent (0 %)")), (25, N_("Soft (25 %)")), (50, "50 %"), (70, "70 %"),
           (85, "85 %"), (100, N_("Loudest (100 %)")))
QUIET_CHOICES = ("", "21:00-09:00", "22:00-08:00", "23:00-07:00", "00:00-07:00")
"""The quiet hours offered ("" for none); the file may hold any other."""
TEXT_SIZES = {100: N_("Normal (100 %)"), 115: N_("Larger (115 %)"),
              130: N_("Largest (130 %)")}
SERIAL_GLOBS = ("/dev/ttyACM*", "/dev/ttyUSB*", "/dev/serial/by-id/*")
NEXT_START = N_(" (from the next start)")
SPREAD = 6
"""A correction offers numbers up to this far either side of the packaged one."""


SEATING_WORDS = {
    "one side": N_("All on one side of the screen"),
    "around": N_("Around the screen: it turns"),
}
"""The seating button's words for each ``display.seating``."""


def number_words(c: Correction) -> str:
    """What a correctable number counts, in words."""
    name = names.of_kind(c.kind, c.name)  # as printed in the language spoken
    if c.field == "max_tokens":
        return _("{name}: tokens in the box").format(name=name)
    if c.kind == "race":
        return _("{name}: tokens on the banner").format(name=name)
    return _("{name}: tokens on the badge").format(name=name)


def number_text(c: Correction) -> str:
    """The number now, and the packaged one when it was corrected."""
    if c.value == c.was:
        return _("{what}: {value}").format(what=number_words(c), value=c.value)
    return _("{what}: {value} (corrected; the data says {was})").format(
        what=number_words(c), value=c.value, was=c.was)


def allowed_values(c: Correction, least: int) -> list[int]:
    """The numbers offered for `c`: a window around the packaged number, inside what the
    catalog allows (`least` is the smallest allowed)."""
    most = MOST_IN_BOX if c.field == "max_tokens" else MOST_TOKENS
    was = c.was if c.was is not None else c.value
    return list(range(max(least, was - SPREAD), min(most, was + SPREAD) + 1))


def pin_words(pin: int | None) -> str:
    if pin is None:
        return _("none (roll on screen)")
    return _("GPIO {pin} (header pin {header})").format(
        pin=pin, header=PHYSICAL_PIN.get(pin, "?"))


def dim_words(seconds: int, *, alone: bool = False) -> str:
    """When the screen dims, inside a sentence ("never", "after 5 minutes"), or `alone`, as
    a choice of its own ("Never", "After 5 minutes")."""
    if seconds == 0:
        return _("Never") if alone else _("never")
    if seconds % 60 == 0:
        n = seconds // 60
        words = (ngettext("After {count} minute", "After {count} minutes", n) if alone
                 else ngettext("after {count} minute", "after {count} minutes", n))
    else:
        n = seconds
        words = (ngettext("After {count} second", "After {count} seconds", n) if alone
                 else ngettext("after {count} second", "after {count} seconds", n))
    return words.format(count=n)


def quiet_words(hours: QuietHours | None) -> str:
    """Quiet hours in words: "22:00 to 08:00", or "none"."""
    if hours is None:
        return _("none")
    return _("{start} to {end}").format(start=f"{hours[0]:%H:%M}", end=f"{hours[1]:%H:%M}")


def language_words(setting: str) -> str:
    """A ``display.language`` setting in words: the language in its own words, or the
    system's ("As the system: Deutsch")."""
    if setting == i18n.AUTO:
        return _("As the system: {language}").format(
            language=i18n.NAMES[i18n.system_language()])
    return i18n.NAMES.get(setting, i18n.NAMES[i18n.SOURCE])


def serial_ports() -> list[str]:
    """Serial devices a grid could be on, the grid's stable name first."""
    found = sorted({path for pattern in SERIAL_GLOBS for path in glob.glob(pattern)})
    return [DEFAULT_GRID_PORT, *(p for p in found if p != DEFAULT_GRID_PORT)]


class Action(StrEnum):
    """The settings screen's buttons (the values are their keys)."""

    BACK = "back"
    PLAYERS = "players"
    ROTATION = "rotation"
    DIM = "dim"
    TEXT_SIZE = "text_size"
    SEATING = "seating"
    VOLUME = "volume"
    MUTE = "mute"
    QUIET = "quiet"
    DIE = "die"
    PORT = "port"
    CALIBRATE = "calibrate"
    BACKUP = "backup"
    USB = "usb"
    EXPORT = "export"
    CORRECT = "correct"
    UNCORRECT = "uncorrect"
    LANGUAGE = "language"


def parse(key: str) -> Action:
    """The settings screen's action for `key`; `UnknownAction` when it has none."""
    return known("settings", key, Action)


ABOUT = N_("Table Companion for Small World keeps the turn track, the market, everybody's "
           "hidden coins and the scoring, so the table can just play.")
SEATING_HINT = N_(
    "With the screen lying in the middle of the table, the table, the die and a peek turn to "
    "face the player; each seat's side is chosen on the new-game screen and changed from the "
    "table (Sides). Changes here apply at once.")


class SettingsPresenter(Presenter, parse=parse):
    about = StringProperty("")
    where = StringProperty("")
    """Where the games are saved."""
    players_text = StringProperty("")
    rotation_text = StringProperty("")
    dim_text = StringProperty("")
    text_size_text = StringProperty("")
    seating_text = StringProperty("")
    seating_hint = StringProperty("")
    language_text = StringProperty("")
    """The language button: the setting in words ("Language: Deutsch")."""
    volume_text = StringProperty("")
    mute_text = StringProperty("")
    quiet_text = StringProperty("")
    sound_text = StringProperty("")
    die_text = StringProperty("")
    port_text = StringProperty("")
    config_text = StringProperty("")
    backups_text = StringProperty("")
    corrections_text = StringProperty("")
    can_calibrate = BooleanProperty(False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.config_path: Path | None = None
        """The companion.toml written (None: the user's, `default_config_path()`)."""
        self._started: Config | None = None
        self._config = Config()
        self.sys_block: Path = usb.SYS_BLOCK
        """Where removable drives are looked for (tests: a made-up tree)."""
        self.mounts: Path = usb.MOUNTS
        """The mounts table read to find where a stick is mounted."""
        self._loaded = False
        """Whether the screen was opened once (the saved data were read)."""
        self._worded_in = ""
        """The language the texts were last worded in."""
        super().__init__(*args, **kwargs)
        self._word_fixed()

    @property
    def path(self) -> Path:
        return self.config_path or default_config_path()

    def load(self) -> None:
        """Read the config file and the saved data (when the screen opens)."""
        self.can_calibrate = "calibration" in self.ctx.presenters
        self._config = load_config(self.path)[0] if self.path.exists() else Config()
        self._started = self._started or self._config
        self._loaded = True
        self._show_all()

    def _show_all(self) -> None:
        self._word_fixed()
        self._show_config()
        self._show_data()
        self._show_corrections()

    def _word_fixed(self) -> None:
        """The texts that follow neither the file nor the saved games."""
        self._worded_in = i18n.language()
        self.about = _(ABOUT)
        self.seating_hint = _(SEATING_HINT)

    def update(self, state: GameState | None) -> None:
        """A new state; when the language changed since the texts were worded, every
        text is worded again in the new one (the app calls this at a change of language)."""
        super().update(state)
        self._reword()

    def _reword(self) -> None:
        """Every text worded again if the language changed since they were worded."""
        if self._worded_in == i18n.language():
            return
        if self._loaded:
            self._show_all()
        else:
            self._word_fixed()

    def _show_corrections(self) -> None:
        numbers = correctable(self.session.catalog)
        lines = [_("These numbers rest on one source only. If your box says otherwise, "
                   "correct them; new games use the corrected numbers.")]
        lines += [number_text(c) for c in numbers]
        self.corrections_text = "\n".join(lines)

    def _show_config(self) -> None:
        config, started = self._config, self._started or self._config

        def later(now: object, then: object) -> str:
            return _(NEXT_START) if now != then else ""

        display, die, grid = config.display, config.die, config.grid
        self.rotation_text = (_("Screen rotation: {degrees} degrees").format(
            degrees=display.rotation) + later(display.rotation, started.display.rotation))
        self.dim_text = (_("Dim the screen: {when}").format(
            when=dim_words(display.dim_after_seconds))
            + later(display.dim_after_seconds, started.display.dim_after_seconds))
        self.text_size_text = (_("Text size: {percent} %").format(percent=display.text_scale)
                               + later(display.text_scale, started.display.text_scale))
        self.seating_text = _(SEATING_WORDS.get(display.seating, SEATING_WORDS["one side"]))
        self.language_text = _("Language: {language}").format(
            language=language_words(display.language))
        sound = config.sound
        self.volume_text = _("Volume: {percent} %").format(percent=sound.volume)
        self.mute_text = (_("Sound: muted (tap to turn on)") if sound.muted
                          else _("Sound: on (tap to mute)"))
        self.quiet_text = _("Quiet hours: {hours}").format(hours=quiet_words(sound.quiet_hours))
        self.sound_text = _("The die, whose turn it is, the final turn and the reveal at the "
                            "end are heard. Changes here apply at once; quiet hours go by "
                            "this table's clock.")
        self.die_text = (_("Die button: {pin}").format(pin=pin_words(die.button_pin))
                         + later(die.button_pin, started.die.button_pin))
        port = grid.port or _("none (tap the map)")
        self.port_text = (_("Sensor grid port: {port}").format(port=port)
                          + later(grid.port, started.grid.port))
        self.config_text = _("Saved in {path}. Changes to the display and the hardware take "
                             "effect the next time the app starts.").format(path=self.path)

    def _show_data(self) -> None:
        store = self.session.records
        if store is None:
            self.where = _("Games are not being saved (no saved-games file).")
            self.players_text = _("Players cannot be saved without a saved-games file.")
            self.backups_text = ""
            return
        self.where = _("Games are saved in {path}.").format(path=store.path)
        try:
            count = len(store.profiles())
            backups = store.backups()
        except (RecordsError, OSError) as failed:
            self.players_text = _("The saved players cannot be read: {reason}").format(
                reason=say(failed))
            self.backups_text = ""
            return
        self.players_text = (_("No saved players yet.") if count == 0 else
                             ngettext("{count} saved player.", "{count} saved players.",
                                      count).format(count=count))
        if not backups:
            self.backups_text = _("No backup yet. One is taken at the end of every turn, "
                                  "in {folder}.").format(folder=store.backups_dir)
            return
        lines = [ngettext("{count} backup, in {folder}:", "{count} backups, in {folder}. "
                          "The newest:", len(backups)).format(count=len(backups),
                                                              folder=store.backups_dir)]
        for path in reversed(backups[-3:]):
            try:
                lines.append(when(datetime.fromtimestamp(path.stat().st_mtime).astimezone()))
            except OSError:
                lines.append(path.name)
        self.backups_text = "\n".join(lines)

    # -- intents ---------------------------------------------------------------------------
    def do(self, action: Action) -> None:
        handlers: dict[Action, Callable[[], None]] = {
            Action.BACK: lambda: self.go("home"),
            Action.PLAYERS: lambda: self.go("profiles"),
            Action.ROTATION: self.choose_rotation,
            Action.DIM: self.choose_dim,
            Action.TEXT_SIZE: self.choose_text_size,
            Action.SEATING: self.toggle_seating,
            Action.VOLUME: self.choose_volume,
            Action.MUTE: lambda: self._write("sound.muted", not self._config.sound.muted),
            Action.QUIET: self.choose_quiet_hours,
            Action.DIE: self.choose_die,
            Action.PORT: self.choose_port,
            Action.CALIBRATE: self.calibrate,
            Action.BACKUP: self.backup,
            Action.USB: self.save_to_stick,
            Action.EXPORT: self.export_all,
            Action.CORRECT: self.choose_number,
            Action.UNCORRECT: lambda: self._save_corrections([]),
            Action.LANGUAGE: self.choose_language,
        }
        handlers[action]()

    def _write(self, key: str, value: object) -> None:
        try:
            save_config_values({key: value}, self.path)
        except (ValueError, OSError) as failed:
            self.ctx.notices.tell(_("The setting was not saved: {reason}").format(
                reason=plain(say(failed), capital=False)), _("Not saved"))  # its key as is
            return
        self._config = load_config(self.path)[0]
        self._show_config()
        if key.startswith("sound."):
            self.ctx.cues.use(self._config.sound)  # at once, not at the next start
        if key == "display.seating":
            self.ctx.seats.use(self._config.display.seating)  # at once too
        if key == "display.language":
            LANGUAGE.use(self._config.display.language)  # at once: the app words again
            self._reword()  # (if the app has not: the screen is not on show)

    def choose_language(self) -> None:
        choices = [(code, language_words(code)) for code in (i18n.AUTO, *i18n.LANGUAGES)]
        self.ctx.notices.choose(Choice(
            _("Language"), choices, self.set_language,
            text=_("The table speaks this language from now on.")))

    def set_language(self, setting: str) -> None:
        """Speak `setting` (a language, or ``"auto"``: the system's) from now on and save
        it in ``companion.toml``; a setting that cannot be saved is still spoken now."""
        if not self._loaded:  # asked from the home screen: the file as it is now
            self._config = load_config(self.path)[0] if self.path.exists() else Config()
            self._started = self._started or self._config
        self._write("display.language", setting)
        if i18n.resolve(setting) != i18n.language():  # not saved: spoken all the same
            LANGUAGE.use(setting)
            self._reword()

    def choose_rotation(self) -> None:
        self.ctx.notices.choose(Choice(
            _("Screen rotation"), [(str(deg), _(words)) for deg, words in ROTATIONS],
            lambda key: self._write("display.rotation", int(key)),
            text=_("Turns the picture and the touches together. From the next start.")))

    def choose_dim(self) -> None:
        self.ctx.notices.choose(Choice(
            _("Dim the screen when nobody touches it"),
            [(str(s), dim_words(s, alone=True)) for s in DIM_CHOICES],
            lambda key: self._write("display.dim_after_seconds", int(key)),
            text=_("A touch or the die button wakes it. From the next start.")))

    def choose_text_size(self) -> None:
        self.ctx.notices.choose(Choice(
            _("Text size"), [(str(scale), _(TEXT_SIZES[scale])) for scale in TEXT_SCALES],
            lambda key: self._write("display.text_scale", int(key)),
            text=_("Every text on every screen, for players who read from further away. "
                   "From the next start.")))

    def toggle_seating(self) -> None:
        """The players sit on one side of the screen, or around it (it then turns)."""
        around = self._config.display.seating == "around"
        self._write("display.seating", "one side" if around else "around")

    def choose_volume(self) -> None:
        current = self._config.sound.volume
        choices = [(str(v), _(words)) for v, words in VOLUMES]
        if current not in dict(VOLUMES):
            choices.append((str(current), _("{percent} % (as now)").format(percent=current)))
        self.ctx.notices.choose(Choice(
            _("Volume of the sounds"), choices, self.set_volume,
            text=_("The new volume is heard at once (unless muted or in the quiet hours).")))

    def set_volume(self, key: str) -> None:
        self._write("sound.volume", int(key))
        self.ctx.cues.play(Cue.TURN)  # so the table hears the new volume

    def choose_quiet_hours(self) -> None:
        current = show_quiet_hours(self._config.sound.quiet_hours)[1:-1]
        keys = list(QUIET_CHOICES)
        if current not in keys:
            keys.append(current)
        self.ctx.notices.choose(Choice(
            _("Quiet hours: no sound between"), [(key, quiet_words(parse_quiet_hours(key)))
                                                 for key in keys],
            lambda key: self._write("sound.quiet_hours", key),
            text=_("By this table's own clock. Over midnight is allowed.")))

    def choose_die(self) -> None:
        die = self._config.die
        taken = {die.led_pin, die.buzzer_pin}
        choices = [("none", _("No button (roll on screen)"))]
        choices += [(str(pin), pin_words(pin)) for pin in GPIO_PINS if pin not in taken]
        self.ctx.notices.choose(Choice(
            _("The die button's pin"), choices,
            lambda key: self._write("die.button_pin", None if key == "none" else int(key)),
            text=_("The button goes between this pin and ground. From the next start.")))

    def choose_port(self) -> None:
        ports = serial_ports()
        current = self._config.grid.port
        if current and current not in ports:
            ports.append(current)
        choices = [("", _("No sensor grid (tap the map)"))] + [(port, port) for port in ports]
        self.ctx.notices.choose(Choice(
            _("The sensor grid's serial port"), choices,
            lambda key: self._write("grid.port", key),
            text=_("{port} is the name the installer gives a Pico grid. From the next "
                   "start.").format(port=DEFAULT_GRID_PORT)))

    # -- corrections of the catalog's single-source numbers ---------------------------------
    def choose_number(self) -> None:
        numbers = correctable(self.session.catalog)
        self.ctx.notices.choose(Choice(
            _("Correct a number"), [(f"{c.kind}|{c.name}|{c.field}", number_text(c))
                                    for c in numbers],
            self._choose_value,
            text=_("Only the numbers that rest on one source can be corrected.")))

    def _choose_value(self, key: str) -> None:
        kind, name, field = key.split("|", 2)
        chosen = next(c for c in correctable(self.session.catalog)
                      if (c.kind, c.name, c.field) == (kind, name, field))
        least = 0 if kind == "power" else 1
        if field == "max_tokens":
            race = self.session.catalog.race(name)
            least = race.tokens + race.conquest_only_tokens
        self.ctx.notices.choose(Choice(
            number_words(chosen),
            [(str(n), _("{number} (as in the data)").format(number=n) if n == chosen.was
              else str(n)) for n in allowed_values(chosen, least)],
            lambda value: self.correct(kind, name, field, int(value)),
            text=_("Now {number}. New games use the number you choose.").format(
                number=chosen.value)))

    def correct(self, kind: str, name: str, field: str, value: int) -> None:
        """Save `value` for one number (the packaged value removes the correction)."""
        kept: list[Override] = [o for o in overrides(self.session.catalog)
                                if o[:3] != (kind, name, field)]
        was = next((c.was for c in correctable(self.session.catalog)
                    if (c.kind, c.name, c.field) == (kind, name, field)), None)
        if value != was:
            kept.append((kind, name, field, value))
        self._save_corrections(kept)

    def _save_corrections(self, given: list[Override]) -> None:
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(_("Corrections cannot be saved without a saved-games file."),
                                  _("Not saved"))
            return
        try:
            self.session.save_corrections(given)
        except (CorrectionError, RecordsError) as refused:
            self.ctx.notices.tell(_("The correction was not saved: {reason}").format(
                reason=plain(say(refused))), _("Not saved"))
            return
        self._show_corrections()

    def calibrate(self) -> None:
        if "calibration" in self.ctx.presenters:
            self.go("calibration")

    def _fresh_backup(self, title: str) -> Path | None:
        """A backup taken now (the backups list shown again), or None after telling the
        players why there is none under `title`."""
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(self.where, title)
            return None
        try:
            path = store.backup()
        except RecordsError as failed:
            self.ctx.notices.tell(say(failed), title)
            return None
        if path is None:
            self.ctx.notices.tell(_("A save is under way; try again in a moment."), title)
            return None
        self._show_data()
        return path

    def backup(self) -> None:
        path = self._fresh_backup(_("No backup"))
        if path is not None:
            self.ctx.notices.tell(_("Saved as {name} in {folder}.").format(
                name=path.name, folder=path.parent), _("Backup taken"))

    def save_to_stick(self) -> None:
        """A fresh backup, copied to a USB stick and checked there; says how it went."""
        title = _("Not saved on a stick")
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(self.where, title)
            return
        sticks = usb.find_sticks(self.sys_block, self.mounts,
                                 keep_off=[store.path, store.backups_dir])
        if not sticks:
            self.ctx.notices.tell(_("No USB stick found. Put one in a USB port of the table, "
                                    "wait a few seconds, then try again."), title)
            return
        stick = sticks[0]
        if stick.mount is not None and stick.mount.read_only:
            self.ctx.notices.tell(_("The stick {name} is read-only (check the lock switch on "
                                    "its side, or use another stick). Nothing was "
                                    "written.").format(name=stick.name), title)
            return
        backup = self._fresh_backup(title)
        if backup is None:
            return
        mounted_here = False
        name = stick.name
        copy: Path | None = None
        try:
            if stick.mount is None:
                point = system_actions.mount(stick.device)
                mounted_here = True
                keep_alive()  # each step may hold the main loop a few seconds
            else:
                point = stick.mount.point
            name = point.name or name
            copy = usb.save_copy(backup, point)
            keep_alive()
            message = _("Saved {file} on the stick {name}; you can take it out now.").format(
                file=copy.name, name=name)
        except (system_actions.ActionFailed, usb.CopyFailed) as failed:
            message = _("Nothing was saved on the stick {name}. {reason}").format(
                name=name, reason=say(failed))
        if mounted_here:
            try:
                system_actions.unmount(stick.device)
                keep_alive()
                system_actions.power_off_drive(stick.disk)
            except system_actions.ActionFailed as failed:
                if copy is not None:
                    message = _("Saved {file} on the stick {name}, but the stick could not be "
                                "closed ({reason}); wait a minute before taking it "
                                "out.").format(file=copy.name, name=name, reason=say(failed))
        self.ctx.notices.tell(message, _("Saved on the stick") if copy is not None else title)

    def export_all(self) -> None:
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(self.where, _("Nothing to export"))
            return
        try:
            ids = [game.id for game in store.games(finished=True)]
            if not ids:
                self.ctx.notices.tell(_("No game is finished yet, so there is nothing to "
                                        "export."), _("Nothing to export"))
                return
            written = write_exports(store, ids)
        except (RecordsError, OSError) as failed:
            self.ctx.notices.tell(_("The export could not be written: {reason}").format(
                reason=say(failed)), _("Not exported"))
            return
        self.ctx.notices.tell(
            ngettext("{count} finished game saved in {folder} as JSON, CSV and BG Stats "
                     "files ({files} files).",
                     "{count} finished games saved in {folder} as JSON, CSV and BG Stats "
                     "files ({files} files).", len(ids)).format(
                count=len(ids), folder=export_dir(), files=len(written)), _("Exported"))
