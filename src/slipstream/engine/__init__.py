"""The engine: the game contract, chance, errors, records and the registry. No I/O, stdlib only."""

from .errors import (
    ContentError,
    IllegalActionError,
    OptionError,
    RecordError,
    SlipstreamError,
    UnknownGameError,
)
from .game import CHANCE, Actor, Event, Game, OptionSpec, Result, State
from .registry import game_class, games, load, register

available_games = games

__all__ = [
    "CHANCE",
    "Actor",
    "ContentError",
    "Event",
    "Game",
    "IllegalActionError",
    "OptionError",
    "OptionSpec",
    "RecordError",
    "Result",
    "SlipstreamError",
    "State",
    "UnknownGameError",
    "available_games",
    "game_class",
    "games",
    "load",
    "register",
]
