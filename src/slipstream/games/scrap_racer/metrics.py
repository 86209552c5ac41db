"""Scrap Racer numbers for the simulator: crash cards by pile, fights, boosts and bonus cards."""

from __future__ import annotations

import math

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State

from . import rules
from .state import ScrapState


def race_metrics(final: State) -> dict[str, float]:
    """Per-race figures a designer cares about."""
    if not isinstance(final, ScrapState):
        return {}
    game = final.game
    crash = {f"crash_cards_{name}": float(final.crash_cards_drawn[i]) for i, name in enumerate(game.content.pile_names)}
    return {
        "turns": float(final.turns),
        "rounds": float(final.round),
        "crash_cards": float(sum(crash.values())),
        **crash,
        "fights": float(final.fights),
        "boost_markers_used": float(final.boost_markers_used),
        "bonus_cards_drawn": float(final.bonus_cards_drawn),
        "bonus_cards_played": float(final.bonus_cards_played),
        "winning_margin": float(_margin(final)),
    }


def _margin(final: ScrapState) -> int:
    order = rules.standings(final)
    return final.progress[order[0]] - final.progress[order[1]] if len(order) > 1 else 0


def seat_labels(final: State) -> dict[int, str]:
    """The racer(s) each seat raced."""
    if not isinstance(final, ScrapState):
        return {}
    labels: dict[int, list[str]] = {}
    for racer, seat in enumerate(final.owner):
        labels.setdefault(seat, []).append(final.names[racer])
    return {seat: "+".join(names) for seat, names in labels.items()}


def start_positions(final: State) -> dict[str, tuple[int, ...]]:
    """Each seat's place in the start order, 1 for the start player (Setup 8, SR-G8): play goes clockwise
    from it, and the racers not yet on the track stand in that order (Clarification: "At the start of the
    game the player order determines the position of those racers not on the race track yet")."""
    if not isinstance(final, ScrapState) or final.start_seat < 0:
        return {}
    n = final.game.players
    return {"start order": tuple((seat - final.start_seat) % n + 1 for seat in range(n))}


def standings(state: State) -> list[int]:
    """Seats from the leader to the last (a seat with two racers ranks by its leading racer)."""
    if not isinstance(state, ScrapState):
        return []
    seen: list[int] = []
    for racer in rules.standings(state):
        seat = state.owner[racer]
        if seat not in seen:
            seen.append(seat)
    return seen


# --- position value (for search bots) -------------------------------------------------------------

SPACES_PER_TURN = 5.0
"""Average progress of a racer's turn (measured: heuristic bots, Track A)."""
SPREAD_PER_TURN = 10.0
"""Spread (spaces) of one turn's progress, for the win chances."""
BOOST_WORTH = 1.5
CARD_WORTH = 3.0
MARKER_WORTH = 0.5


def position_value(state: State, seat: int) -> float:
    """``seat``'s estimated chance of winning from here, in [0, 1] (1 or 0 once the race is over).

    Each racer needs ``(3 laps + 1 - progress - held boost markers, bonus cards and markers in spaces)
    / SPACES_PER_TURN`` more turns; a seat with two racers (the team game) counts its front racer for
    0.8 and its rear one for 0.2 (the team with the first finisher usually wins; the rear racers decide
    between two finishing teams). The seats' chances compare those turn counts with a normal spread
    that grows with the square root of the turns left (``win_chances``).
    """
    if not isinstance(state, ScrapState):
        raise TypeError(f"not a Scrap Racer state: {type(state).__name__}")
    result = state.result
    game = state.game
    if result is not None:
        return 1.0 if seat in result.winners else 0.0
    goal = 3 * game.length + 1
    held = [CARD_WORTH * sum(hand) for hand in state.bonus_cards]
    turns_needed: list[list[float]] = [[] for _ in range(game.players)]
    for racer, owner in enumerate(state.owner):
        extra = BOOST_WORTH * sum(state.boost_markers[racer]) + MARKER_WORTH * state.bonus_markers[racer]
        extra += held[owner] / game.per_player
        left = max(0.0, goal - state.progress[racer] - extra)
        turns_needed[owner].append(left / SPACES_PER_TURN)
    need = []
    for times in turns_needed:
        times.sort()
        need.append(times[0] if len(times) == 1 else 0.8 * times[0] + 0.2 * times[-1])
    horizon = min(need)
    spread = SPREAD_PER_TURN / SPACES_PER_TURN * math.sqrt(max(horizon, 0.5) * 2.0)
    return win_chances(need, spread)[seat]
