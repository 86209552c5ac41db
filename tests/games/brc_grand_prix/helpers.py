"""Scenario set-up for BRC Grand Prix tests: a race on the grid, then cars put where a test needs them."""

from __future__ import annotations

from collections.abc import Sequence

from slipstream.games.brc_grand_prix import BRCGrandPrix, BRCState
from slipstream.games.brc_grand_prix.rules import TYRE_NAMES
from slipstream.games.brc_grand_prix.types import Stage

L = 30
"""Main-track spaces per lap in the packaged content."""


def started(players: int = 4, tyres: Sequence[str] | None = None, **options: object) -> BRCState:
    """A race with tyres chosen and the grid rolled off (P1 pole, P2 second, ...): P1 about to roll."""
    game = BRCGrandPrix(players=players, **options)
    state = game.start(seed=1)
    for seat in range(players):
        state = state.apply(f"{seat}:{tyres[seat] if tyres else 'soft'}")
    for seat in range(players):
        state = state.apply(f"die:{6 - seat}")
    return state


def copy(state: BRCState) -> BRCState:
    new = state.copy()
    new.events = ()
    return new


def poised(
    state: BRCState,
    seat: int,
    *,
    dist: Sequence[int] | None = None,
    tyres: Sequence[str] | None = None,
    weather: str | None = None,
    pit: Sequence[int] | None = None,
    off: Sequence[bool] | None = None,
    miss: Sequence[int] | None = None,
    stops: Sequence[int] | None = None,
    order: Sequence[int] | None = None,
) -> BRCState:
    """``state`` with the cars placed as given and ``seat`` about to roll (then the others in order)."""
    s = copy(state)
    n = len(s.distance)
    if dist is not None:
        s.distance = list(dist)
    if tyres is not None:
        s.tyres = tuple(TYRE_NAMES.index(t) for t in tyres)
    if weather is not None:
        s.weather = ("DRY", "WET").index(weather)
    if pit is not None:
        s.pit_space = tuple(pit)
    if off is not None:
        s.off_track = tuple(off)
    if miss is not None:
        s.turns_to_miss = tuple(miss)
    if stops is not None:
        s.window_stops = tuple(stops)
    s.race_order = tuple(order) if order is not None else (seat, *[i for i in range(n) if i != seat])
    s.turn_index = s.race_order.index(seat)
    s.mover = seat
    s.stage = Stage.ROLL
    return s


def texts(state: BRCState) -> str:
    """The last apply's event texts, one per line."""
    return "\n".join(e.text for e in state.events)


def rules(state: BRCState) -> list[str]:
    return [e.rule for e in state.events]
