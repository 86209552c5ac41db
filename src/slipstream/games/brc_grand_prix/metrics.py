"""Per-race numbers for the analysis layer: counters kept in the state, labels and standings."""

from __future__ import annotations

from slipstream.engine.game import State

from .rules import TYRE_NAMES
from .state import STAT_NAMES, BRCState


def _brc(state: State) -> BRCState:
    if not isinstance(state, BRCState):
        raise TypeError(f"not a BRC Grand Prix state: {state!r}")
    return state


def race_metrics(final_state: State) -> dict[str, float]:
    """Turns, rounds and the rule events a designer watches (overtakes, crashes, pit stops, weather...)."""
    s = _brc(final_state)
    out: dict[str, float] = {name: float(v) for name, v in zip(STAT_NAMES, s.stats, strict=True)}
    out["rounds"] = float(s.rnd)
    out["overtake_success_rate"] = out["overtakes"] / out["overtake_attempts"] if out["overtake_attempts"] else 0.0
    out["finished"] = float(len(s.finish))
    out["weather_changed"] = 1.0 if out["weather_flips"] else 0.0
    out["safety_car_out"] = 1.0 if out["safety_cars"] else 0.0
    out["sprint_lockup_rate"] = (out["sprint_lockups"] / out["sprint_soft_rolls"]
                                 if out["sprint_soft_rolls"] else 0.0)
    return out


def seat_labels(final_state: State) -> dict[int, str]:
    """The starting tyre each seat chose ("SOFT start"/"HARD start"): the game has no named cars."""
    s = _brc(final_state)
    return {seat: f"{TYRE_NAMES[t].upper()} start" for seat, t in enumerate(s.start_tyres)}


def standings(state: State) -> list[int]:
    """Seats from the leader to the last at this moment (finishers first, in finishing order)."""
    return _brc(state).standings()
