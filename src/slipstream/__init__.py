"""Slipstream: a rules engine and platform for tabletop racing games.

>>> import slipstream
>>> game = slipstream.load("scrap-racer", players=4)
>>> state = game.start(seed=7)
"""

from . import _native

_native.activate()  # before any compiled module loads: a stale build falls back to the sources

from .engine import (  # noqa: E402
    CHANCE,
    ContentError,
    Event,
    Game,
    IllegalActionError,
    OptionError,
    RecordError,
    Result,
    SlipstreamError,
    State,
    UnknownGameError,
    available_games,
    load,
)
from .engine.record import replay  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "ContentError",
    "Event",
    "Game",
    "IllegalActionError",
    "OptionError",
    "RecordError",
    "Result",
    "SlipstreamError",
    "State",
    "UnknownGameError",
    "__version__",
    "available_games",
    "load",
    "replay",
]
