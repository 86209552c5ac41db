"""Every action and chance outcome a Scrap Racer race can ever offer, from the notation and the content
(the ``action_space`` hook: the AI bridges number their action space from it)."""

from __future__ import annotations

from slipstream.engine.chance import DIE_TABLE
from slipstream.engine.game import Game
from slipstream.engine.hooks import ActionSpace

from . import notation
from .game import ScrapRacer
from .rules import FIGHT_TABLE, MARKER_ACTIONS, TWO_DICE_TABLE
from .types import BoostUse


def action_space(game: Game) -> ActionSpace:
    """Decisions: roll, stop, crash, move, done, each boost use, each bonus card played, each racer put
    first or let win. Chance: one die, two dice, the fight dice, every card of every deck, every boost
    marker, every racer dealt, every seat drawn to start."""
    if not isinstance(game, ScrapRacer):
        raise TypeError(f"not a Scrap Racer game: {type(game).__name__}")
    content = game.content
    racers = [racer for racer, _ in content.racers]
    actions = [notation.ROLL_AGAIN, notation.STOP, notation.ACCEPT_CRASH, notation.MOVE, notation.DONE,
               *(notation.boost(use) for use in BoostUse),
               *(notation.play_card(card) for card, _ in content.bonus),
               *(notation.first(racer) for racer in racers),
               *(notation.let_win(racer) for racer in racers)]
    chance = [*DIE_TABLE.actions, *TWO_DICE_TABLE.actions, *FIGHT_TABLE.actions, *MARKER_ACTIONS,
              *(notation.crash_card(card) for pile in content.piles for card, _ in pile),
              *(notation.deck_card("bonus", card) for card, _ in content.bonus),
              *(notation.deck_card("goal", card) for card, _ in content.goal),
              *(notation.racer(racer) for racer in racers),
              *(notation.start_player(seat) for seat in game.seats)]
    return ActionSpace.of(actions, chance)
