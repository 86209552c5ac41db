"""Imported by a test server (``SLIPSTREAM_PLUGINS=tests.web.toyplugin``): registers Toy Dash."""

from tests import toygame

toygame.install()
