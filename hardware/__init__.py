"""The devices beside the board: small classes that report plain facts.

The reinforcement die's push button (:mod:`hardware.button`, gpiozero) and the region
sensor grid (:mod:`hardware.grid`, pyserial) live here, each with injected dependencies
and a fake for tests. They say what happened (button pressed, grid snapshot, link up or
down, device refused) and decide nothing about the game. Device callbacks run on device
threads unless a scheduler is given (:mod:`hardware.dispatch`); the app passes Kivy's
``Clock.schedule_once`` so that they reach the main thread.

This package imports nothing from ``companion``; gpiozero and pyserial are imported only
when a button or a port is opened. ``hardware/firmware/`` is MicroPython for the grid's
Raspberry Pi Pico (not a Python package of the app); ``hardware/README.md`` has the
wiring and the parts.
"""
