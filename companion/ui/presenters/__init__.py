"""Presenters: one Kivy `EventDispatcher` view-model per screen.

A presenter reads the game from the session (through `views.public` and the rules'
helpers), turns it into display-ready properties (strings, booleans, lists of plain dicts)
and offers one method per thing a player can do on its screen. Screens and kv files only
bind to those properties and call those methods; no game rule lives in a widget.
"""
