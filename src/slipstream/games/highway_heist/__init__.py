"""Fast & Furious: Highway Heist: a cooperative game on a highway, three scenarios
(rules/highway-heist.txt; gaps HH-* decided in docs/rules/highway-heist.md)."""

from .game import HighwayHeist

GAME = HighwayHeist

__all__ = ["GAME", "HighwayHeist"]
