"""Imported by a test server (``SLIPSTREAM_PLUGINS=tests.web.toyplugin``): registers Toy Dash and Toy
Kart (Toy Dash with names, a per-seat option and a scoreboard, for the lobby's tests)."""

from tests import toygame, toykart

toygame.install()
toykart.install()
