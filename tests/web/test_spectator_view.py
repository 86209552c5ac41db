"""A spectator's state message reuses the spectators' view each seat's message of the step compares
with (``protocol.public_view``) instead of drawing it again: the same message as before, in any order."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.engine.game import CHANCE, State
from slipstream.web import protocol
from slipstream.web.protocol import seat_payload, sent_view


def positions(game_id: str, count: int = 60) -> list[State]:
    game = slipstream.load(game_id, players=2)
    rng = random.Random(5)
    state = game.start(seed=11)
    out: list[State] = []
    while not state.is_over and len(out) < count:
        out.append(state)
        if state.actor == CHANCE:
            actions = [a for a, _p in state.chance_outcomes()]
        elif isinstance(state.actor, frozenset):
            actions = state.legal_actions(min(state.actor))
        else:
            actions = state.legal_actions()
        state = state.apply(rng.choice(actions))
    return out


@pytest.mark.parametrize("game_id", ["scrap-racer", "highway-heist", "rush-n-crush"])
def test_a_spectators_message_is_the_one_drawn_afresh(game_id: str) -> None:
    for state in positions(game_id):
        for spectator_first in (True, False):
            protocol._PUBLIC.clear()
            order: list[int | None] = [None, 0, 1] if spectator_first else [0, 1, None]
            shared = {seat: seat_payload(state, seat, text_board=False) for seat in order}
            assert shared[None]["view"] == sent_view(state.view(None))
            protocol._PUBLIC.clear()
            for seat in (0, 1):  # each seat's message (its "private" mark included) as when drawn alone
                protocol._PUBLIC.clear()
                assert shared[seat] == seat_payload(state, seat, text_board=False)
        with_board = seat_payload(state, None, text_board=True)
        assert with_board["view"] == sent_view(state.view(None))
