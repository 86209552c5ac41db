"""Scrap Racer: roll up to six dice, dodge the doubles, fight for position over three laps."""

from .game import ScrapRacer
from .state import ScrapState

GAME = ScrapRacer

__all__ = ["GAME", "ScrapRacer", "ScrapState"]
