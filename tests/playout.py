"""Random playouts for tests: chance from the state's seed, every decision uniformly at random."""

from __future__ import annotations

import random

from slipstream.engine.game import CHANCE, State


def random_action(state: State, rng: random.Random) -> str:
    """The seeded chance outcome, or a random legal action (at a simultaneous choice: of a random
    pending seat)."""
    actor = state.actor
    if actor == CHANCE:
        return state.sample_chance()
    if isinstance(actor, frozenset):
        return rng.choice(state.legal_actions(rng.choice(sorted(actor))))
    return rng.choice(state.legal_actions())


class FirstLegal:
    """An agent (``engine.play.Agent``) that always takes the seat's first legal action: a race whose
    every decision is known in advance."""

    def choose(self, state: State, seat: int) -> str:
        return state.legal_actions(seat)[0]


def random_states(state: State, rng: random.Random, max_plies: int = 49_998, must_end: bool = True) -> list[State]:
    """Every state from ``state`` to the end of a random playout (or ``max_plies`` actions later; with
    ``must_end`` a playout that has not ended by then is an error)."""
    states = [state]
    # not engine.play.play: every state is kept, and a simultaneous choice goes to a random pending seat
    while state.actor is not None and len(states) <= max_plies:
        state = state.apply(random_action(state, rng))
        states.append(state)
    if must_end and state.actor is not None:
        raise AssertionError(f"{state.game.id}: a random playout did not end in {max_plies} actions")
    return states
