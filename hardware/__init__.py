"""The devices beside the board: small classes that report plain facts.

The reinforcement die's push button (gpiozero) and the region sensor grid (pyserial) live
here, each with injected dependencies and a fake for tests. They say what happened (button
pressed, grid snapshot, link up or down) and decide nothing about the game. This package
imports nothing from ``companion``. The devices arrive with later issues.
"""
