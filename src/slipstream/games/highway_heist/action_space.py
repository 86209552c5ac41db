"""Every action and chance outcome a Highway Heist match can ever offer, from the notation, the road and
the scenario's content (the ``action_space`` hook: the AI bridges number their action space from it)."""

from __future__ import annotations

from slipstream.engine.game import Game
from slipstream.engine.hooks import ActionSpace

from . import notation
from .content import Action
from .game import HighwayHeist
from .notation import Verb
from .types import DIRECTION_STEPS, NO_DIRECTION

WORDS = (Verb.PLAY, Verb.ASSIST, Verb.PASS, Verb.SHAKE, Verb.BRAWL, Verb.HIJACK, Verb.TAKE_BOOST, Verb.END_TURN,
         Verb.BOOST, Verb.KEEP, Verb.FOLLOW, Verb.STAY, Verb.TECH, Verb.TAKE_SLAM)
"""The actions that are one word (the simultaneous ones without their seat prefix)."""
REROLLS = ("blank", "boost")
"""Brian's Wheelman rerolls one die showing a blank or a boost (``reroll:blank``)."""


def action_space(game: Game) -> ActionSpace:
    """Decisions: the one-word actions, every space-naming verb on every space of the road, leaping back
    to the wheel, removing nothing, every Stunt card and scenario action of the scenario (on every space
    when it takes a target), every direction, each seat's peg or the Enemy Peg moving first. Chance:
    every Effort roll of up to the dice cap, every Enemy Die face, every Enemy and Stunt card of the
    scenario."""
    if not isinstance(game, HighwayHeist):
        raise TypeError(f"not a Highway Heist game: {type(game).__name__}")
    spaces = [(column, lane) for column in range(1, game.columns + 1) for lane in range(1, game.lanes + 1)]
    on_spaces = [action for per_space in game.space_actions.values() for action in per_space]
    actions = [*(verb.value for verb in WORDS), *on_spaces,
               notation.text(notation.Action(Verb.LEAP, notation.WHEEL)), notation.text(notation.Action(Verb.REMOVE)),
               *(f"{Verb.REROLL.value}:{face}" for face in REROLLS),
               *(notation.direction(d) for d in (*DIRECTION_STEPS, NO_DIRECTION)),
               *(notation.first(seat) for seat in (-1, *game.seats))]
    for verb, cards in ((Verb.STUNT, game.stunt_cards), (Verb.SCENARIO_ACTION, game.scenario_actions)):
        for card in cards.values():
            actions.extend(notation.card_action(verb, card.id, space) for space in _targets(card, spaces))
    chance = [*(a for table in game.effort_tables for a in table.actions), *game.enemy_die.actions,
              *(notation.enemy_card(card) for card in game.enemy_cards),
              *(notation.stunt_card(card) for card in game.stunt_cards)]
    return ActionSpace.of(actions, chance)


def _targets(card: Action, spaces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A card whose Condition names a target is played at that piece's space (any space of the road);
    any other card is played without one."""
    if any(line.verb == "target" for line in card.condition):
        return spaces
    return [notation.NO_SPACE]
