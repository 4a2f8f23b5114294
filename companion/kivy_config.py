"""Kivy's configuration for the table's kiosk, applied before Kivy opens its window.

The kiosk (the systemd service that ``deploy/install.sh`` installs) runs with
``COMPANION_KIOSK=1`` and with ``KIVY_HOME`` pointing at a directory that holds the shipped
``deploy/kivy-pi.ini`` as ``config.ini``. That file alone already gives one touch input
provider, full screen and no cursor. In kiosk mode, :func:`prepare` then applies the
``[display]`` section of ``companion.toml`` over it (rotation, full screen, which panel and
which provider reads it), so the one documented config file is where a player changes them:

- ``[input]`` is replaced by exactly one entry that reads the touchscreen (:func:`input_entry`).
  No ``mouse`` entry: SDL turns each touch into a mouse click as well, so ``mouse`` plus a
  touch provider counts every touch twice, the classic Kivy-on-a-Pi trap.
- ``[graphics] rotation`` turns the picture, and Kivy turns every touch from that provider
  with it (``MotionEvent.scale_for_screen``), so the touch follows the picture on both the
  official 7" display and Touch Display 2. Never rotate in ``config.txt`` or the compositor
  as well: the touches would then be turned twice.
- The cursor is hidden and SDL's screensaver is off: the OS does not blank, the app dims.

Outside kiosk mode (``make run`` on a desktop) only the window's size is set: a window of
the table's screen, ``display.window_size`` (800x480, the official 7" display, unless the
file or ``companion run --size`` says otherwise), so a desktop shows what the table shows;
Kivy's own default, 800x600, would hide the bottom of screens laid out for 480 pixels.
A quarter ``display.rotation`` (90 or 270) stands the window upright, as the table's
picture is (:func:`desktop_window_size`: 480x800); neither the picture nor the mouse is
turned, since a desktop turns its own screen (turned again, an upright screen would show
the picture on its side, half off screen). In kiosk mode the size is set as it is: the
panel's, and the window's when ``display.fullscreen = false``, Kivy turning the picture
in it.

Everything here but :func:`apply_kiosk` is pure and imports no Kivy; :func:`apply_kiosk`
imports only ``kivy.config``, which opens no window. Call :func:`prepare` before importing
``kivy.app`` or ``kivy.core.window``.
"""

from __future__ import annotations

import configparser
import os
import sys
from collections.abc import Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from companion.config import Config, DisplayConfig

KIOSK_ENV = "COMPANION_KIOSK"
"""The environment variable the service sets to ``1`` to turn kiosk mode on."""

SHIPPED_INI_NAME = "kivy-pi.ini"
"""The shipped Kivy configuration in ``deploy/``, installed as ``$KIVY_HOME/config.ini``."""

TOUCH_READERS = frozenset(
    {"mouse", "probesysfs", "mtdev", "hidinput", "linuxwacom", "wm_touch", "wm_pen", "mactouch"}
)
"""Kivy input providers that read a local touch panel (``mouse`` does too, through SDL)."""

_PROVIDER_DEFAULTS: dict[str, dict[str, int]] = {
    # What each provider assumes when given nothing: hidinput flips Y itself.
    "mtdev": {"invert_x": 0, "invert_y": 0},
    "hidinput": {"invert_x": 0, "invert_y": 1},
}


def is_kiosk(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the app runs as the table's kiosk (``COMPANION_KIOSK=1``)."""
    env = os.environ if environ is None else environ
    return env.get(KIOSK_ENV, "") == "1"


def _provider_options(display: DisplayConfig) -> list[str]:
    """The provider's ``name=value`` options that differ from what it assumes."""
    defaults = _PROVIDER_DEFAULTS[display.touch_provider]
    wanted = {
        "invert_x": int(display.touch_invert_x),
        # hidinput's own default flips Y, so mirroring means turning that off.
        "invert_y": int(display.touch_invert_y) ^ defaults["invert_y"],
    }
    return [f"{name}={value}" for name, value in wanted.items() if value != defaults[name]]


def input_entry(display: DisplayConfig) -> tuple[str, str]:
    """The one ``[input]`` entry (name, value) that reads the touchscreen.

    ``touch_device = "auto"`` lets ``probesysfs`` find every multitouch panel and hand
    each one to the provider; a device path gives that device alone to the provider.
    """
    options = _provider_options(display)
    if display.touch_device == "auto":
        value = ",".join(
            ["probesysfs", f"provider={display.touch_provider}"]
            + [f"param={option}" for option in options]
        )
        return "touch_%(name)s", value
    return "touch", ",".join([display.touch_provider, display.touch_device, *options])


def kiosk_settings(display: DisplayConfig) -> dict[str, dict[str, str]]:
    """What kiosk mode sets in Kivy's configuration, section by section.

    ``[input]`` is given whole: it replaces the section rather than adding to it.
    """
    name, value = input_entry(display)
    return {
        "graphics": {
            "fullscreen": "auto" if display.fullscreen else "0",
            "rotation": str(display.rotation),
            "show_cursor": "0",
            "allow_screensaver": "0",
        },
        "input": {name: value},
    }


def touch_readers(entries: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The ``[input]`` entries (name, value) whose provider reads a local touch panel.

    More than one means every touch is counted more than once.
    """
    return [
        (name, value) for name, value in entries if value.split(",", 1)[0].strip() in TOUCH_READERS
    ]


def read_input_section(path: Path) -> list[tuple[str, str]]:
    """The ``[input]`` entries of a Kivy ``config.ini``, read as Kivy reads it.

    :class:`configparser.Error` and :class:`OSError` pass through to the caller.
    """
    parser = configparser.RawConfigParser()
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keep names as written
    with open(path, encoding="utf-8") as stream:
        parser.read_file(stream)
    if not parser.has_section("input"):
        return []
    return list(parser.items("input"))


def apply_kiosk(display: DisplayConfig, kivy_config: Any = None) -> dict[str, dict[str, str]]:
    """Set :func:`kiosk_settings` in Kivy's configuration; return what was set.

    ``kivy_config`` defaults to ``kivy.config.Config``. Must run before the window is
    created (the graphics settings) and before ``App.run()`` (the input providers).
    """
    if kivy_config is None:
        from kivy.config import Config as kivy_global_config

        kivy_config = kivy_global_config
    settings = kiosk_settings(display)
    for option, value in settings["graphics"].items():
        kivy_config.set("graphics", option, value)
    if kivy_config.has_section("input"):
        kivy_config.remove_section("input")
    kivy_config.add_section("input")
    for option, value in settings["input"].items():
        kivy_config.set("input", option, value)
    return settings


def window_settings(size: tuple[int, int]) -> dict[str, str]:
    """What sets the window's size (width, height in pixels) in Kivy's ``[graphics]``."""
    width, height = size
    return {"width": str(width), "height": str(height)}


def apply_window_size(size: tuple[int, int], kivy_config: Any = None) -> dict[str, str]:
    """Set the window's size in Kivy's configuration (before the window is made); return
    what was set. ``kivy_config`` defaults to ``kivy.config.Config``."""
    if kivy_config is None:
        from kivy.config import Config as kivy_global_config

        kivy_config = kivy_global_config
    settings = window_settings(size)
    for option, value in settings.items():
        kivy_config.set("graphics", option, value)
    return settings


FONTSCALE_ENV = "KIVY_METRICS_FONTSCALE"
"""The environment variable Kivy reads its font scale from when `kivy.metrics` is imported."""


def apply_text_scale(percent: int, environ: MutableMapping[str, str] | None = None) -> float:
    """Make every text `percent` percent of its normal size (``display.text_scale``);
    return the scale set.

    It goes through Kivy's own font scale (`kivy.metrics.Metrics.fontscale`), which every
    size given in ``sp`` follows: the theme's sizes (`companion.ui.widgets.FONT` ...,
    computed once when that module is imported) and every Label's default size. So it is
    set in the environment Kivy reads it from (``$KIVY_METRICS_FONTSCALE``), before the
    app's widgets are imported, and on `Metrics` too should Kivy's metrics be loaded
    already. The run command calls it with `prepare`.
    """
    env = os.environ if environ is None else environ
    scale = percent / 100
    env[FONTSCALE_ENV] = str(scale)
    metrics = sys.modules.get("kivy.metrics")
    if metrics is not None:
        metrics.Metrics.fontscale = scale
    return scale


def desktop_window_size(display: DisplayConfig) -> tuple[int, int]:
    """The window's size outside kiosk mode: ``display.window_size``, its sides swapped by
    a quarter ``display.rotation`` (90 or 270), so the window stands as the table's
    picture does."""
    width, height = display.window_size
    return (height, width) if display.rotation % 180 else (width, height)


def prepare(config: Config, environ: Mapping[str, str] | None = None,
            kivy_config: Any = None, *, size_asked: bool = False) -> bool:
    """Set the window's size, and the kiosk's Kivy settings when in kiosk mode; return
    whether it was kiosk mode.

    The run command calls this with the loaded configuration before it imports the app;
    `size_asked`: ``display.window_size`` is the size a person typed (``--size``), taken
    as it is, never turned. ``kivy_config`` defaults to ``kivy.config.Config``.
    """
    kiosk = is_kiosk(environ)
    turned = not (kiosk or size_asked)
    apply_window_size(desktop_window_size(config.display) if turned
                      else config.display.window_size, kivy_config)
    if kiosk:
        apply_kiosk(config.display, kivy_config)
    return kiosk
