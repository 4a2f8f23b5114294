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
"""

from __future__ import annotations

import glob
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from companion import system_actions, usb
from companion.config import (
    DEFAULT_GRID_PORT,
    GPIO_PINS,
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
from companion.ui.presenters.base import Choice, Presenter, plain
from companion.ui.presenters.history import export_dir, when, write_exports
from companion.ui.presenters.intents import UnknownAction, allowed, member

ROTATIONS = ((0, "0 degrees (as the panel is made)"), (90, "90 degrees"),
             (180, "180 degrees (upside down)"), (270, "270 degrees"))
DIM_CHOICES = ((0, "Never"), (30, "After 30 seconds"), (60, "After 1 minute"),
               (120, "After 2 minutes"), (300, "After 5 minutes"), (600, "After 10 minutes"),
               (1800, "After 30 minutes"))
VOLUMES = ((0, "Silent (0 %)"), (25, "Soft (25 %)"), (50, "50 %"), (70, "70 %"),
           (85, "85 %"), (100, "Loudest (100 %)"))
QUIET_CHOICES = ("", "21:00-09:00", "22:00-08:00", "23:00-07:00", "00:00-07:00")
"""The quiet hours offered ("" for none); the file may hold any other."""
TEXT_SIZES = {100: "Normal (100 %)", 115: "Larger (115 %)", 130: "Largest (130 %)"}
PHYSICAL_PIN = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
                13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15,
                23: 16, 24: 18, 25: 22, 26: 37, 27: 13}
"""BCM GPIO number -> pin number on the 40-pin header (what a player counts)."""
SERIAL_GLOBS = ("/dev/ttyACM*", "/dev/ttyUSB*", "/dev/serial/by-id/*")
NEXT_START = " (from the next start)"
SPREAD = 6
"""A correction offers numbers up to this far either side of the packaged one."""


SEATING_WORDS = {
    "one side": "All on one side of the screen",
    "around": "Around the screen: it turns",
}
"""The seating button's words for each ``display.seating``."""


def number_words(c: Correction) -> str:
    """What a correctable number counts, in words."""
    if c.field == "max_tokens":
        return f"{c.name}: tokens in the box"
    return f"{c.name}: tokens on the {'banner' if c.kind == 'race' else 'badge'}"


def number_text(c: Correction) -> str:
    """The number now, and the packaged one when it was corrected."""
    if c.value == c.was:
        return f"{number_words(c)}: {c.value}"
    return f"{number_words(c)}: {c.value} (corrected; the data says {c.was})"


def allowed_values(c: Correction, least: int) -> list[int]:
    """The numbers offered for `c`: a window around the packaged number, inside what the
    catalog allows (`least` is the smallest allowed)."""
    most = MOST_IN_BOX if c.field == "max_tokens" else MOST_TOKENS
    was = c.was if c.was is not None else c.value
    return list(range(max(least, was - SPREAD), min(most, was + SPREAD) + 1))


def pin_words(pin: int | None) -> str:
    if pin is None:
        return "none (roll on screen)"
    return f"GPIO {pin} (header pin {PHYSICAL_PIN.get(pin, '?')})"


def dim_words(seconds: int) -> str:
    for value, words in DIM_CHOICES:
        if value == seconds:
            return words.lower() if value else "never"
    return f"after {seconds} seconds"


def quiet_words(hours: QuietHours | None) -> str:
    """Quiet hours in words: "22:00 to 08:00", or "none"."""
    if hours is None:
        return "none"
    return f"{hours[0]:%H:%M} to {hours[1]:%H:%M}"


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


def parse(key: str) -> Action:
    """The settings screen's action for `key`; `UnknownAction` when it has none."""
    action = member(Action, key)
    if action is None:
        raise UnknownAction("settings", key, allowed(Action))
    return action


class SettingsPresenter(Presenter):
    about = StringProperty(
        "Table Companion for Small World keeps the turn track, the market, everybody's "
        "hidden coins and the scoring, so the table can just play."
    )
    where = StringProperty("")
    """Where the games are saved."""
    players_text = StringProperty("")
    rotation_text = StringProperty("")
    dim_text = StringProperty("")
    text_size_text = StringProperty("")
    seating_text = StringProperty("")
    seating_hint = StringProperty(
        "With the screen lying in the middle of the table, the table, the die and a peek "
        "turn to face the player; each seat's side is chosen on the new-game screen and "
        "changed from the table (Sides). Changes here apply at once.")
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
        super().__init__(*args, **kwargs)

    @property
    def path(self) -> Path:
        return self.config_path or default_config_path()

    def load(self) -> None:
        """Read the config file and the saved data (when the screen opens)."""
        self.can_calibrate = "calibration" in self.ctx.presenters
        self._config = load_config(self.path)[0] if self.path.exists() else Config()
        if self._started is None:
            self._started = self._config
        self._show_config()
        self._show_data()
        self._show_corrections()

    def _show_corrections(self) -> None:
        numbers = correctable(self.session.catalog)
        lines = ["These numbers rest on one source only. If your box says otherwise, correct "
                 "them; new games use the corrected numbers."]
        lines += [number_text(c) for c in numbers]
        self.corrections_text = "\n".join(lines)

    def _show_config(self) -> None:
        config, started = self._config, self._started or self._config

        def later(now: object, then: object) -> str:
            return NEXT_START if now != then else ""

        display, die, grid = config.display, config.die, config.grid
        rotation = f"{display.rotation} degrees"
        self.rotation_text = (f"Screen rotation: {rotation}"
                              + later(display.rotation, started.display.rotation))
        self.dim_text = (f"Dim the screen: {dim_words(display.dim_after_seconds)}"
                         + later(display.dim_after_seconds, started.display.dim_after_seconds))
        self.text_size_text = (f"Text size: {display.text_scale} %"
                               + later(display.text_scale, started.display.text_scale))
        self.seating_text = SEATING_WORDS.get(display.seating, SEATING_WORDS["one side"])
        sound = config.sound
        self.volume_text = f"Volume: {sound.volume} %"
        self.mute_text = ("Sound: muted (tap to turn on)" if sound.muted
                          else "Sound: on (tap to mute)")
        self.quiet_text = f"Quiet hours: {quiet_words(sound.quiet_hours)}"
        self.sound_text = ("The die, whose turn it is, the final turn and the reveal at the end "
                           "are heard. Changes here apply at once; quiet hours go by this "
                           "table's clock.")
        self.die_text = (f"Die button: {pin_words(die.button_pin)}"
                         + later(die.button_pin, started.die.button_pin))
        port = grid.port or "none (tap the map)"
        self.port_text = f"Sensor grid port: {port}" + later(grid.port, started.grid.port)
        self.config_text = (f"Saved in {self.path}. Changes to the display and the hardware "
                            "take effect the next time the app starts.")

    def _show_data(self) -> None:
        store = self.session.records
        if store is None:
            self.where = "Games are not being saved (no saved-games file)."
            self.players_text = "Players cannot be saved without a saved-games file."
            self.backups_text = ""
            return
        self.where = f"Games are saved in {store.path}."
        try:
            count = len(store.profiles())
            backups = store.backups()
        except (RecordsError, OSError) as failed:
            self.players_text = f"The saved players cannot be read: {failed}"
            self.backups_text = ""
            return
        self.players_text = ("No saved players yet." if count == 0 else
                             "1 saved player." if count == 1 else f"{count} saved players.")
        if not backups:
            self.backups_text = ("No backup yet. One is taken at the end of every turn, "
                                 f"in {store.backups_dir}.")
            return
        lines = [f"{len(backups)} backups, in {store.backups_dir}. The newest:"
                 if len(backups) > 1 else f"1 backup, in {store.backups_dir}:"]
        for path in reversed(backups[-3:]):
            try:
                lines.append(when(datetime.fromtimestamp(path.stat().st_mtime).astimezone()))
            except OSError:
                lines.append(path.name)
        self.backups_text = "\n".join(lines)

    # -- intents ---------------------------------------------------------------------------
    def act(self, key: str) -> None:
        self.do(parse(key))

    def do(self, action: Action) -> None:
        handlers: dict[Action, Callable[[], None]] = {
            Action.BACK: lambda: self.go("home"),
            Action.PLAYERS: lambda: self.go("profiles"),
            Action.ROTATION: self.choose_rotation,
            Action.DIM: self.choose_dim,
            Action.TEXT_SIZE: self.choose_text_size,
            Action.SEATING: self.toggle_seating,
            Action.VOLUME: self.choose_volume,
            Action.MUTE: self.toggle_mute,
            Action.QUIET: self.choose_quiet_hours,
            Action.DIE: self.choose_die,
            Action.PORT: self.choose_port,
            Action.CALIBRATE: self.calibrate,
            Action.BACKUP: self.backup,
            Action.USB: self.save_to_stick,
            Action.EXPORT: self.export_all,
            Action.CORRECT: self.choose_number,
            Action.UNCORRECT: self.undo_corrections,
        }
        handlers[action]()

    def _write(self, key: str, value: object) -> None:
        try:
            save_config_values({key: value}, self.path)
        except (ValueError, OSError) as failed:
            self.ctx.notices.tell(f"The setting was not saved: {plain(str(failed))}",
                                  "Not saved")
            return
        self._config, _ = load_config(self.path)
        self._show_config()
        if key.startswith("sound."):
            self.ctx.cues.use(self._config.sound)  # at once, not at the next start
        if key == "display.seating":
            self.ctx.seats.use(self._config.display.seating)  # at once too

    def choose_rotation(self) -> None:
        self.ctx.notices.choose(Choice(
            "Screen rotation", [(str(deg), words) for deg, words in ROTATIONS],
            lambda key: self._write("display.rotation", int(key)),
            text="Turns the picture and the touches together. From the next start."))

    def choose_dim(self) -> None:
        self.ctx.notices.choose(Choice(
            "Dim the screen when nobody touches it", [(str(s), w) for s, w in DIM_CHOICES],
            lambda key: self._write("display.dim_after_seconds", int(key)),
            text="A touch or the die button wakes it. From the next start."))

    def choose_text_size(self) -> None:
        self.ctx.notices.choose(Choice(
            "Text size", [(str(scale), TEXT_SIZES[scale]) for scale in TEXT_SCALES],
            lambda key: self._write("display.text_scale", int(key)),
            text="Every text on every screen, for players who read from further away. "
                 "From the next start."))

    def toggle_seating(self) -> None:
        """The players sit on one side of the screen, or around it (it then turns)."""
        around = self._config.display.seating == "around"
        self._write("display.seating", "one side" if around else "around")

    def choose_volume(self) -> None:
        current = self._config.sound.volume
        choices = [(str(v), words) for v, words in VOLUMES]
        if current not in dict(VOLUMES):
            choices.append((str(current), f"{current} % (as now)"))
        self.ctx.notices.choose(Choice(
            "Volume of the sounds", choices, self.set_volume,
            text="The new volume is heard at once (unless muted or in the quiet hours)."))

    def set_volume(self, key: str) -> None:
        self._write("sound.volume", int(key))
        self.ctx.cues.play(Cue.TURN)  # so the table hears the new volume

    def toggle_mute(self) -> None:
        self._write("sound.muted", not self._config.sound.muted)

    def choose_quiet_hours(self) -> None:
        current = show_quiet_hours(self._config.sound.quiet_hours)[1:-1]
        keys = list(QUIET_CHOICES)
        if current not in keys:
            keys.append(current)
        self.ctx.notices.choose(Choice(
            "Quiet hours: no sound between", [(key, quiet_words(parse_quiet_hours(key)))
                                              for key in keys],
            lambda key: self._write("sound.quiet_hours", key),
            text="By this table's own clock. Over midnight is allowed."))

    def choose_die(self) -> None:
        die = self._config.die
        taken = {die.led_pin: "the LED", die.buzzer_pin: "the buzzer"}
        choices = [("none", "No button (roll on screen)")]
        choices += [(str(pin), pin_words(pin)) for pin in GPIO_PINS if pin not in taken]
        self.ctx.notices.choose(Choice(
            "The die button's pin", choices,
            lambda key: self._write("die.button_pin", None if key == "none" else int(key)),
            text="The button goes between this pin and ground. From the next start."))

    def choose_port(self) -> None:
        ports = serial_ports()
        current = self._config.grid.port
        if current and current not in ports:
            ports.append(current)
        choices = [("", "No sensor grid (tap the map)")] + [(port, port) for port in ports]
        self.ctx.notices.choose(Choice(
            "The sensor grid's serial port", choices,
            lambda key: self._write("grid.port", key),
            text=f"{DEFAULT_GRID_PORT} is the name the installer gives a Pico grid. "
                 "From the next start."))

    # -- corrections of the catalog's single-source numbers ---------------------------------
    def choose_number(self) -> None:
        numbers = correctable(self.session.catalog)
        self.ctx.notices.choose(Choice(
            "Correct a number", [(f"{c.kind}|{c.name}|{c.field}", number_text(c))
                                 for c in numbers],
            self._choose_value,
            text="Only the numbers that rest on one source can be corrected."))

    def _choose_value(self, key: str) -> None:
        kind, name, field = key.split("|", 2)
        chosen = next(c for c in correctable(self.session.catalog)
                      if (c.kind, c.name, c.field) == (kind, name, field))
        least = 0 if kind == "power" else 1
        if field == "max_tokens":
            race = self.session.catalog.race(name)
            least = race.tokens + race.conquest_only_tokens
        values = allowed_values(chosen, least)
        self.ctx.notices.choose(Choice(
            number_words(chosen),
            [(str(n), f"{n}" + (" (as in the data)" if n == chosen.was else ""))
             for n in values],
            lambda value: self.correct(kind, name, field, int(value)),
            text=f"Now {chosen.value}. New games use the number you choose."))

    def correct(self, kind: str, name: str, field: str, value: int) -> None:
        """Save `value` for one number (the packaged value removes the correction)."""
        kept: list[Override] = [o for o in overrides(self.session.catalog)
                                if o[:3] != (kind, name, field)]
        was = next((c.was for c in correctable(self.session.catalog)
                    if (c.kind, c.name, c.field) == (kind, name, field)), None)
        if value != was:
            kept.append((kind, name, field, value))
        self._save_corrections(kept)

    def undo_corrections(self) -> None:
        self._save_corrections([])

    def _save_corrections(self, given: list[Override]) -> None:
        store = self.session.records
        if store is None:
            self.ctx.notices.tell("Corrections cannot be saved without a saved-games file.",
                                  "Not saved")
            return
        try:
            self.session.save_corrections(given)
        except (CorrectionError, RecordsError) as refused:
            self.ctx.notices.tell(f"The correction was not saved: {plain(str(refused))}",
                                  "Not saved")
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
            self.ctx.notices.tell(str(failed), title)
            return None
        if path is None:
            self.ctx.notices.tell("A save is under way; try again in a moment.", title)
            return None
        self._show_data()
        return path

    def backup(self) -> None:
        path = self._fresh_backup("No backup")
        if path is not None:
            self.ctx.notices.tell(f"Saved as {path.name} in {path.parent}.", "Backup taken")

    def save_to_stick(self) -> None:
        """A fresh backup, copied to a USB stick and checked there; says how it went."""
        title = "Not saved on a stick"
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(self.where, title)
            return
        sticks = usb.find_sticks(self.sys_block, self.mounts,
                                 keep_off=[store.path, store.backups_dir])
        if not sticks:
            self.ctx.notices.tell("No USB stick found. Put one in a USB port of the table, "
                                  "wait a few seconds, then try again.", title)
            return
        stick = sticks[0]
        if stick.mount is not None and stick.mount.read_only:
            self.ctx.notices.tell(f"The stick {stick.name} is read-only (check the lock "
                                  "switch on its side, or use another stick). Nothing was "
                                  "written.", title)
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
            message = f"Saved {copy.name} on the stick {name}; you can take it out now."
        except (system_actions.ActionFailed, usb.CopyFailed) as failed:
            message = f"Nothing was saved on the stick {name}. {failed}"
        if mounted_here:
            try:
                system_actions.unmount(stick.device)
                keep_alive()
                system_actions.power_off_drive(stick.disk)
            except system_actions.ActionFailed as failed:
                if copy is not None:
                    message = (f"Saved {copy.name} on the stick {name}, but the stick could "
                               f"not be closed ({failed}); wait a minute before taking it out.")
        self.ctx.notices.tell(message, "Saved on the stick" if copy is not None else title)

    def export_all(self) -> None:
        store = self.session.records
        if store is None:
            self.ctx.notices.tell(self.where, "Nothing to export")
            return
        try:
            ids = [game.id for game in store.games(finished=True)]
            if not ids:
                self.ctx.notices.tell("No game is finished yet, so there is nothing to "
                                      "export.", "Nothing to export")
                return
            written = write_exports(store, ids)
        except (RecordsError, OSError) as failed:
            self.ctx.notices.tell(f"The export could not be written: {failed}",
                                  "Not exported")
            return
        self.ctx.notices.tell(
            f"{len(ids)} finished game(s) saved in {export_dir()} as JSON, CSV and BG Stats "
            f"files ({len(written)} files).", "Exported")
