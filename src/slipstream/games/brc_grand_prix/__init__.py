"""BRC Grand Prix: the F1 dice game of boardracing.uk (rules/brc-grand-prix.txt).

Tyres and weather, overtakes with the Attack Die, collisions and the safety car, the mandatory pit
window, the Weather Change space, BRC flag cards, Sprint mode and Dynamic Weather.
"""

from .game import BRCGrandPrix
from .state import BRCState

GAME = BRCGrandPrix

__all__ = ["GAME", "BRCGrandPrix", "BRCState"]
