"""Driving a match: agents choose, chance is sampled from the state's seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from .game import CHANCE, State


class Agent(Protocol):
    """Anything that picks an action for a seat: a bot, a terminal player, a web seat."""

    def choose(self, state: State, seat: int) -> str: ...


def pending_seats(state: State) -> list[int]:
    """The seats that must choose now (one for a turn, several for a simultaneous choice)."""
    actor = state.actor
    if isinstance(actor, frozenset):
        return sorted(actor)
    if isinstance(actor, int):
        return [actor]
    return []


def step(state: State, agents: Sequence[Agent]) -> State:
    """One action: the chance outcome the seed picks, or the acting seat's choice."""
    actor = state.actor
    if actor == CHANCE:
        return state.apply_chance()
    seats = pending_seats(state)
    if not seats:
        raise ValueError("the game is over")
    seat = seats[0]
    return state.apply(agents[seat].choose(state, seat))


def play(state: State, agents: Sequence[Agent], on_step: Callable[[State], None] | None = None,
         max_plies: int = 1_000_000) -> State:
    """Play to the end; ``on_step`` sees every new state. Raises if ``max_plies`` pass."""
    for _ in range(max_plies):
        if state.actor is None:
            return state
        state = step(state, agents)
        if on_step is not None:
            on_step(state)
    raise RuntimeError(f"{state.game.id}: no end after {max_plies} plies")


def replayed(state: State) -> Iterator[tuple[State, State]]:
    """Every step of the race that led to ``state``, replayed from its record: ``(before, after)`` per
    action (``after.events`` are the step's). For what a state does not keep, counted afterwards (a
    results table's per-seat numbers): costly, one apply per action of the race."""
    before = state.game.start(seed=state.seed)
    for action in state.actions:
        after = before.apply(action)
        yield before, after
        before = after
