"""Per-race numbers a designer of Rev it Up cares about, read from the counters the state keeps."""

from __future__ import annotations

from slipstream.engine.game import State

from . import rules
from .state import RevState


def _rev(state: State) -> RevState:
    if not isinstance(state, RevState):
        raise TypeError(f"not a Rev it Up state: {type(state).__name__}")
    return state


def race_metrics(final_state: State) -> dict[str, float]:
    """Turns, rounds, draws, overheats, stops, items, buying and movement over the whole race."""
    s = _rev(final_state)
    n = s.g.players

    def total(stat: int) -> float:
        return float(sum(s.stats[seat * rules.NSTATS + stat] for seat in range(n)))

    draws = total(rules.ST_DRAWS) + sum(1 for k in s.drawn if k >= 0)
    overheats = total(rules.ST_OVERHEATS)
    stops = total(rules.ST_STOPS)
    return {
        "turns": float(s.turn),
        "rounds": float(s.round),
        "draws": draws,
        "draws_per_racer_round": draws / (n * s.round) if s.round else 0.0,
        "overheats": overheats,
        "stops": stops,
        "overheat_rate": overheats / (overheats + stops) if overheats + stops else 0.0,
        "items_gained": total(rules.ST_GAINED),
        "items_used": total(rules.ST_USED),
        "coins_spent": total(rules.ST_SPENT),
        "chips_bought": total(rules.ST_BOUGHT),
        "rev_bonus_coins": total(rules.ST_BONUS),
        "debris_taken": total(rules.ST_DEBRIS),
        "spaces_moved": total(rules.ST_MOVED),
        "winner_margin": float(_margin(s)),
    }


def _margin(s: RevState) -> int:
    """Spaces between the winner and the best racer that did not win."""
    result = s.result
    if result is None or not result.winners:
        return 0
    others = [s.pos[t] for t in range(s.g.players) if t not in result.winners]
    return s.pos[result.winners[0]] - max(others) if others else 0


def seat_labels(final_state: State) -> dict[int, str]:
    """The character board each seat raced."""
    s = _rev(final_state)
    return {seat: s.g.characters[seat] for seat in range(s.g.players)}


def standings(state: State) -> list[int]:
    """Seats from leader to last now: finishers in finishing order, then by progress."""
    s = _rev(state)
    n = s.g.players
    done = sorted((t for t in range(n) if s.fin[t] is not None), key=lambda t: (s.fin[t], t))
    rest = sorted((t for t in range(n) if s.fin[t] is None), key=lambda t: (-s.pos[t], t))
    return done + rest
