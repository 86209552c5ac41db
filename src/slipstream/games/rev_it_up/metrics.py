"""Per-race numbers a designer of Rev it Up cares about, read from the counters the state keeps."""

from __future__ import annotations

import math

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State

from . import rules
from .state import RevState
from .types import NO_CHIP, Stage, Stat


def _rev(state: State) -> RevState:
    if not isinstance(state, RevState):
        raise TypeError(f"not a Rev it Up state: {type(state).__name__}")
    return state


def race_metrics(final_state: State) -> dict[str, float]:
    """Turns, rounds, draws, overheats, stops, items, buying and movement over the whole race."""
    state = _rev(final_state)
    n = state.game.players

    def total(stat: Stat) -> float:
        return float(sum(state.stats[seat][stat] for seat in range(n)))

    draws = total(Stat.DRAWS) + sum(1 for k in state.drawn if k != NO_CHIP)
    overheats = total(Stat.OVERHEATS)
    stops = total(Stat.STOPS)
    return {
        "turns": float(state.turn),
        "rounds": float(state.round),
        "draws": draws,
        "draws_per_racer_round": draws / (n * state.round) if state.round else 0.0,
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
        "winning_margin": float(_margin(state)),
    }


def _margin(state: RevState) -> int:
    """Spaces between the winner and the best racer that did not win."""
    result = state.result
    if result is None or not result.winners:
        return 0
    others = [state.progress[t] for t in range(state.game.players) if t not in result.winners]
    return state.progress[result.winners[0]] - max(others) if others else 0


def seat_labels(final_state: State) -> dict[int, str]:
    """The character board each seat raced."""
    state = _rev(final_state)
    return {seat: state.game.characters[seat] for seat in range(state.game.players)}


def start_positions(final_state: State) -> dict[str, tuple[int, ...]]:
    """Every racer starts on the start space; the seat order breaks ties of movement from the same space
    (RIU-A2), so the seat is the start position."""
    return {"seat order": tuple(range(1, _rev(final_state).game.players + 1))}


def turn_order(final_state: State) -> tuple[int, ...]:
    """None: the racers draw at once, and move in order of their movement each turn (Turn Structure 2)."""
    _rev(final_state)
    return ()


def standings(position: State) -> list[int]:
    """Seats from leader to last now: finishers in finishing order, then by progress."""
    state = _rev(position)
    n = state.game.players
    marks = state.finished_at
    done = sorted((t for t in range(n) if marks[t] is not None), key=lambda t: (marks[t], t))
    rest = sorted((t for t in range(n) if marks[t] is None), key=lambda t: (-state.progress[t], t))
    return done + rest


# --- position value (for search bots) -------------------------------------------------------------

DRAW_SHARE = 0.8
"""The share of a full Rev Track's worth of draws a racer makes in a round before it stops or overheats."""
SPREAD_SHARE = 0.8
"""Spread of one round's movement, as a share of the average movement of a round."""


def round_speed(state: RevState, seat: int) -> float:
    """Spaces ``seat`` can expect to move in a round with the chips it owns (bag, discard, Rev Track):
    ``DRAW_SHARE`` x the chips a Rev Track holds at their average heat, x their average movement."""
    game = state.game
    count = [in_bag + discarded for in_bag, discarded in zip(state.bags[seat], state.discards[seat], strict=True)]
    for k in state.rev_chips[seat]:
        count[k] += 1
    if state.drawn[seat] != NO_CHIP:
        count[state.drawn[seat]] += 1
    chips = sum(count)
    if not chips:
        return 1.0
    move = sum(game.move[k] * n for k, n in enumerate(count)) / chips
    heat = max(0.5, sum(game.heat[k] * n for k, n in enumerate(count)) / chips)
    draws = DRAW_SHARE * min(float(chips), game.rev_length[seat] / heat)
    return max(1.0, draws * move)


def position_value(position: State, seat: int) -> float:
    """``seat``'s estimated chance of winning from here, in [0, 1] (its share of the win once over).

    Each racer needs ``(finish - progress) / round_speed`` more rounds, so a better bag counts as well as
    a lead; the chances compare those round counts with a normal spread (``SPREAD_SHARE`` of a round's
    movement, growing with the square root of the rounds left: ``win_chances``).
    """
    state = _rev(position)
    game = state.game
    if state.stage is Stage.OVER or any(mark is not None for mark in state.finished_at):
        winners = rules.final_result(state).winners
        return 1.0 / len(winners) if seat in winners else 0.0
    speeds = [round_speed(state, t) for t in range(game.players)]
    need = [max(0.0, game.finish - state.progress[t]) / speeds[t] for t in range(game.players)]
    spread = SPREAD_SHARE * math.sqrt(max(min(need), 0.3) * 2.0)
    return win_chances(need, spread)[seat]
