"""Per-race numbers for the analysis layer: counters kept in the state, labels and standings."""

from __future__ import annotations

import math

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State

from .rules import DRY_TRACK, TYRE_NAMES, WET, progress
from .rules import standings as race_standings
from .state import BRCState
from .types import Counter


def _brc(state: State) -> BRCState:
    if not isinstance(state, BRCState):
        raise TypeError(f"not a BRC Grand Prix state: {state!r}")
    return state


def race_metrics(final_state: State) -> dict[str, float]:
    """Turns, rounds and the rule events a designer watches (overtakes, crashes, pit stops, weather...)."""
    state = _brc(final_state)
    out: dict[str, float] = {counter.name.lower(): float(state.counters[counter]) for counter in Counter}
    out["rounds"] = float(state.round_number)
    out["overtake_success_rate"] = out["overtakes"] / out["overtake_attempts"] if out["overtake_attempts"] else 0.0
    out["finished"] = float(len(state.finishing_order))
    out["weather_changed"] = 1.0 if out["weather_flips"] else 0.0
    out["safety_car_out"] = 1.0 if out["safety_cars"] else 0.0
    out["sprint_lockup_rate"] = (out["sprint_lockups"] / out["sprint_soft_rolls"]
                                 if out["sprint_soft_rolls"] else 0.0)
    return out


def seat_labels(final_state: State) -> dict[int, str]:
    """The starting tyre each seat chose ("SOFT start"/"HARD start"): the game has no named cars."""
    state = _brc(final_state)
    return {seat: f"{TYRE_NAMES[t].upper()} start" for seat, t in enumerate(state.starting_tyres)}


def start_positions(final_state: State) -> dict[str, tuple[int, ...]]:
    """Each car's grid slot, 1 on pole (F1-G2: the roll-off or qualifying sets the grid)."""
    state = _brc(final_state)
    if len(state.grid) != state.game.players:
        return {}
    return {"grid slot": tuple(state.grid.index(seat) + 1 for seat in range(state.game.players))}


def turn_order(final_state: State) -> tuple[int, ...]:
    """The grid from pole back: the first round's order of play (race order, leader first, F1-G8). The
    cars' movement rolls are no decisions of theirs, so the simulator cannot see this order in play."""
    return tuple(_brc(final_state).grid)


def standings(state: State) -> list[int]:
    """Seats from the leader to the last at this moment (finishers first, in finishing order)."""
    return race_standings(_brc(state))


# --- position value (for search bots) -------------------------------------------------------------

SPACES_PER_TURN = 5.0
"""Average progress of a car's turn in the standard race (measured: heuristic bots)."""
SPRINT_SPACES_PER_TURN = 10.0
"""The same in Sprint mode (2d6, SOFT +4)."""
SPREAD_PER_TURN = 5.0
"""Spread (spaces) of one turn's progress, for the win chances."""
PIT_STOP_TURNS = 1.0
"""Turns a pit stop still owed costs (the pit lane's single die, the lost movement at the entry)."""
WRONG_TYRE_TURNS = 1.0
"""Turns that tyres wrong for the weather cost before the car can change them."""


def position_value(state: State, seat: int) -> float:
    """``seat``'s estimated chance of winning from here, in [0, 1] (1 or 0 once a car has finished).

    Each car needs ``(finish distance - progress) / spaces a turn`` more turns, plus the turns it must
    still miss, plus a turn for a mandatory pit stop still owed and a turn for tyres wrong for the
    weather; the chances compare those turn counts with a normal spread growing with the square root of
    the turns left (``win_chances``).
    """
    state = _brc(state)
    game = state.game
    if state.finishing_order:
        return 1.0 if state.finishing_order[0] == seat else 0.0
    speed = SPRINT_SPACES_PER_TURN if game.sprint else SPACES_PER_TURN
    need = []
    for i in range(game.players):
        turns = max(0.0, game.finish_distance - progress(state, i)) / speed + state.turns_to_miss[i]
        if game.window is not None and not state.window_stops[i] and state.pit_space[i] < 0:
            turns += PIT_STOP_TURNS
        if not game.sprint and state.tyres[i] >= 0 and (state.weather == DRY_TRACK) == (state.tyres[i] == WET):
            turns += WRONG_TYRE_TURNS
        need.append(turns)
    spread = SPREAD_PER_TURN / speed * math.sqrt(max(min(need), 0.5) * 2.0)
    return win_chances(need, spread)[seat]
