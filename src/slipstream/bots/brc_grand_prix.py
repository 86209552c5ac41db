"""A heuristic BRC Grand Prix driver: pits inside the window, fits tyres for the weather, and weighs
each overtake by what a pass gains against what a collision costs."""

from __future__ import annotations

import random

from slipstream.engine.game import State
from slipstream.games.brc_grand_prix.rules import DRY_TRACK, SOFT, TYRE_NAMES, WET
from slipstream.games.brc_grand_prix.state import BOX, DRS, OVERTAKE, PIT_CHOICE, TYRES, BRCState

CRASH_COST = 8.0
"""Spaces a collision costs: a missed turn (about 5) plus the others' safety-car boost, roughly."""


class HeuristicBot:
    """Rules of thumb a careful player follows; ties broken by its own seeded RNG."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if not isinstance(state, BRCState) or len(legal) == 1:
            return legal[0]
        step = state.step
        if step == TYRES:
            return f"{seat}:soft"
        if step == PIT_CHOICE:
            return "pit" if self.wants_pit(state, seat) else "stay"
        if step == BOX:
            best = f"tyre:{TYRE_NAMES[self.best_tyre(state)]}"
            return best if best in legal else "tyre:keep"
        if step == OVERTAKE:
            return "attempt" if self.wants_attempt(state, seat) else "safe"
        return self.rng.choice(legal)

    @staticmethod
    def best_tyre(state: BRCState) -> int:
        """WET tyres on a WET track, SOFT on a DRY one (SOFT averages 4.7 a turn with lock-ups, HARD 3.5)."""
        if state.weather == DRY_TRACK or state.g.sprint:
            return SOFT
        return WET

    def wants_pit(self, state: BRCState, seat: int) -> bool:
        """Pit for the mandatory window as soon as it opens, or when the tyres are wrong for the weather
        with more than a lap to go."""
        game = state.g
        lap = state.lap(seat)
        window = game.window
        if window is not None and not state.stops[seat] and window[0] <= lap <= window[1]:
            return True
        wrong = (state.weather == DRY_TRACK) == (state.tyre[seat] == WET)
        return wrong and lap < game.laps

    @staticmethod
    def wants_attempt(state: BRCState, seat: int) -> bool:
        """Attempt when P(pass) x spaces gained beyond the defender beats P(collision) x its cost."""
        if state.perks[seat] & DRS:
            return True
        length = state.g.content.length
        defender = state.dist[state.mv_def]
        spot = state.mv_cur + (defender - state.mv_cur) % length
        gain = state.mv_target - spot
        faces = dict(state.g.content.attack_faces)
        total = sum(faces.values())
        p_pass = faces.get("pass", 0) / total
        p_crash = faces.get("crash", 0) / total
        return p_pass * gain > p_crash * CRASH_COST

    def __repr__(self) -> str:
        return f"HeuristicBot({self.name})"

