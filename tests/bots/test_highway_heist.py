"""The bots on Highway Heist, a cooperative game: the heuristic plays for the team and MCTS searches it
(guided by the heuristic and scored by the game's ``position_value``)."""

from __future__ import annotations

import slipstream
from slipstream.bots.mcts import MCTSBot
from slipstream.bots.registry import bot_names, make_bot
from slipstream.engine.game import CHANCE
from slipstream.games.highway_heist.bot import HeuristicBot


def test_highway_heist_has_a_heuristic_bot() -> None:
    assert bot_names("highway-heist") == ["greedy", "heuristic", "mcts", "random"]
    assert isinstance(make_bot("greedy", "highway-heist", 1), HeuristicBot)


def test_mcts_chooses_legal_actions_through_a_turn_with_rolls_assists_and_choices() -> None:
    """Twelve decisions of a Chopper Takedown match with MCTS in every seat (the team's turn choice, the
    actions, Assist windows and choices), each search short (3 playouts of 8 plies): each is legal."""
    game = slipstream.load("highway-heist", players=2, scenario="chopper-takedown")
    state = game.start(seed=6)
    bots = [MCTSBot(seat, playouts=3, horizon=8) for seat in range(2)]
    stages = set()
    decisions = 0
    while state.actor is not None and decisions < 12:  # not play(): each choice is checked, 12 only
        if state.actor == CHANCE:
            state = state.apply_chance()
            continue
        actor = state.actor
        seat = min(actor) if isinstance(actor, frozenset) else int(actor)  # type: ignore[arg-type]
        action = bots[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        stages.add(state.view(None)["stage"])
        state = state.apply(action)
        decisions += 1
    assert {"choose-turn", "action"} <= stages
