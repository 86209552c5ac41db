"""Rush 'n' Crush (Overdrive): armed cars race on track tiles; the first across the finish line wins."""

from .game import RushNCrush
from .state import RushState

GAME = RushNCrush

__all__ = ["GAME", "RushNCrush", "RushState"]
