"""Every action and chance outcome a BRC Grand Prix race can ever offer, from the notation and the content
(the ``action_space`` hook: the AI bridges number their action space from it)."""

from __future__ import annotations

from slipstream.engine.chance import DIE_TABLE
from slipstream.engine.game import Game, split_seat_action
from slipstream.engine.hooks import ActionSpace

from . import notation
from .game import BRCGrandPrix


def action_space(game: Game) -> ActionSpace:
    """Decisions: the starting tyres (without their seat prefix), pit or stay, attempt or safe, and every
    Pit Box choice. Chance: one die, Sprint's two dice (Sprint only), the Attack Die and every flag card."""
    if not isinstance(game, BRCGrandPrix):
        raise TypeError(f"not a BRC Grand Prix game: {type(game).__name__}")
    starting = [split_seat_action(a)[1] for a in notation.starting_tyre_actions(0)]
    actions = [*starting, *notation.PIT_CHOICES, *notation.OVERTAKE_CHOICES,
               *(a for box in game.pit_box_actions for a in box)]
    chance = [*DIE_TABLE.actions, *game.attack_table.actions, *game.card_actions,
              *(game.sprint_table.actions if game.sprint else ())]
    return ActionSpace.of(actions, chance)
