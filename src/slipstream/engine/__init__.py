"""The engine: the game contract, chance, errors, records and the registry. No I/O; the standard library
and two typing packages only (mypy-extensions for the compiled build, typing-extensions for the state's
game type)."""

from .errors import (
    ContentError,
    IllegalActionError,
    OptionError,
    RecordError,
    SlipstreamError,
    UnknownGameError,
)
from .fields import replaced
from .game import CHANCE, Actor, Event, EventCache, Game, OptionSpec, Picker, Result, State
from .hooks import ActionSpace, GameHooks, hooks_of
from .registry import game_class, games, load, register

available_games = games

__all__ = [
    "CHANCE",
    "ActionSpace",
    "Actor",
    "ContentError",
    "Event",
    "EventCache",
    "Game",
    "GameHooks",
    "IllegalActionError",
    "OptionError",
    "OptionSpec",
    "Picker",
    "RecordError",
    "Result",
    "SlipstreamError",
    "State",
    "UnknownGameError",
    "available_games",
    "game_class",
    "games",
    "hooks_of",
    "load",
    "register",
    "replaced",
]
