"""Per-race numbers a designer of Rev it Up cares about, read from the counters the state keeps."""

from __future__ import annotations

import math

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State

from . import rules
from .rules import NO_CHIP, Stat
from .state import RevState, Stage


def _rev(state: State) -> RevState:
    if not isinstance(state, RevState):
        raise TypeError(f"not a Rev it Up state: {type(state).__name__}")
    return state


def race_metrics(final_state: State) -> dict[str, float]:
    """Turns, rounds, draws, overheats, stops, items, buying and movement over the whole race."""
    s = _rev(final_state)
    n = s.g.players

    def total(stat: Stat) -> float:
        return float(sum(s.stats[seat][stat] for seat in range(n)))

    draws = total(Stat.DRAWS) + sum(1 for k in s.drawn if k != NO_CHIP)
    overheats = total(Stat.OVERHEATS)
    stops = total(Stat.STOPS)
    return {
        "turns": float(s.turn),
        "rounds": float(s.round),
        "draws": draws,
        "draws_per_racer_round": draws / (n * s.round) if s.round else 0.0,
        "overheats": overheats,
        "stops": stops,
        "overheat_rate": overheats / (overheats + stops) if overheats + stops else 0.0,
        "items_gained": total(Stat.ITEMS_GAINED),
        "items_used": total(Stat.ITEMS_USED),
        "coins_spent": total(Stat.COINS_SPENT),
        "chips_bought": total(Stat.CHIPS_BOUGHT),
        "rev_bonus_coins": total(Stat.REV_BONUS),
        "debris_taken": total(Stat.DEBRIS_TAKEN),
        "spaces_moved": total(Stat.SPACES_MOVED),
        "winning_margin": float(_margin(s)),
    }


def _margin(s: RevState) -> int:
    """Spaces between the winner and the best racer that did not win."""
    result = s.result
    if result is None or not result.winners:
        return 0
    others = [s.progress[t] for t in range(s.g.players) if t not in result.winners]
    return s.progress[result.winners[0]] - max(others) if others else 0


def seat_labels(final_state: State) -> dict[int, str]:
    """The character board each seat raced."""
    s = _rev(final_state)
    return {seat: s.g.characters[seat] for seat in range(s.g.players)}


def start_positions(final_state: State) -> dict[str, tuple[int, ...]]:
    """Every racer starts on the start space; the seat order breaks ties of movement from the same space
    (RIU-A2), so the seat is the start position."""
    return {"seat order": tuple(range(1, _rev(final_state).g.players + 1))}


def turn_order(final_state: State) -> tuple[int, ...]:
    """None: the racers draw at once, and move in order of their movement each turn (Turn Structure 2)."""
    _rev(final_state)
    return ()


def standings(state: State) -> list[int]:
    """Seats from leader to last now: finishers in finishing order, then by progress."""
    s = _rev(state)
    n = s.g.players
    marks = s.finished_at
    done = sorted((t for t in range(n) if marks[t] is not None), key=lambda t: (marks[t], t))
    rest = sorted((t for t in range(n) if marks[t] is None), key=lambda t: (-s.progress[t], t))
    return done + rest


# --- position value (for search bots) -------------------------------------------------------------

DRAW_SHARE = 0.8
"""The share of a full Rev Track's worth of draws a racer makes in a round before it stops or overheats."""
SPREAD_SHARE = 0.8
"""Spread of one round's movement, as a share of the average movement of a round."""


def round_speed(s: RevState, seat: int) -> float:
    """Spaces ``seat`` can expect to move in a round with the chips it owns (bag, discard, Rev Track):
    ``DRAW_SHARE`` x the chips a Rev Track holds at their average heat, x their average movement."""
    g = s.g
    count = [in_bag + discarded for in_bag, discarded in zip(s.bags[seat], s.discards[seat], strict=True)]
    for k in s.rev_chips[seat]:
        count[k] += 1
    if s.drawn[seat] != NO_CHIP:
        count[s.drawn[seat]] += 1
    chips = sum(count)
    if not chips:
        return 1.0
    move = sum(g.move[k] * n for k, n in enumerate(count)) / chips
    heat = max(0.5, sum(g.heat[k] * n for k, n in enumerate(count)) / chips)
    draws = DRAW_SHARE * min(float(chips), g.rev_length[seat] / heat)
    return max(1.0, draws * move)


def position_value(state: State, seat: int) -> float:
    """``seat``'s estimated chance of winning from here, in [0, 1] (its share of the win once over).

    Each racer needs ``(finish - progress) / round_speed`` more rounds, so a better bag counts as well as
    a lead; the chances compare those round counts with a normal spread (``SPREAD_SHARE`` of a round's
    movement, growing with the square root of the rounds left: ``win_chances``).
    """
    s = _rev(state)
    g = s.g
    if s.stage is Stage.OVER or any(mark is not None for mark in s.finished_at):
        winners = rules.final_result(s).winners
        return 1.0 / len(winners) if seat in winners else 0.0
    speeds = [round_speed(s, t) for t in range(g.players)]
    need = [max(0.0, g.finish - s.progress[t]) / speeds[t] for t in range(g.players)]
    spread = SPREAD_SHARE * math.sqrt(max(min(need), 0.3) * 2.0)
    return win_chances(need, spread)[seat]
