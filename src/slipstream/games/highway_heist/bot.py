"""A cooperative heuristic Highway Heist bot: it plays for the team, never for its own seat.

Every decision compares the positions it leads to by ``metrics.team_score`` (the scenario's track, the
team's vehicles and Boost tokens, the threats on the road, the Wrecks' paths, the Stunts within reach).
An action with a Skill Roll is scored as its chance of success (with the roller's own Boost) times the
position after success, plus the rest times the position after failure; a choice inside an action is
scored by its best option. An Assist is given when the extra dice are worth more to the team than the
token.
"""

from __future__ import annotations

import random

from slipstream.engine.game import State

from . import metrics, notation, rules
from .notation import Verb
from .state import HeistState
from .types import RollKind, Stage

PLANNED = 4
"""First moves of a turn looked at together with the best second action they open."""
CHOICE_DEPTH = 2
"""Nested choices (Force then follow) the bot looks through before scoring a position."""


class HeuristicBot:
    """Greedy for the team, one action ahead: see the module docstring. Ties go to the first action in
    the sorted list (ending the turn comes before waiting moves), then to the bot's seeded RNG."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1 or not isinstance(state, HeistState):
            return legal[0] if len(legal) == 1 else self.rng.choice(legal)
        if state.stage is Stage.ASSIST:
            return self._assist(state, seat)
        if state.stage is Stage.ACTION:
            values = [self._action_value(state, a) for a in legal]
            if state.actions_left > 1:
                self._plan_two(state, legal, values)
            return self._best(legal, values)
        return self._best(legal, [self._after(state.apply_unchecked(a), CHOICE_DEPTH) for a in legal])

    def _best(self, legal: list[str], values: list[float]) -> str:
        top = max(values)
        best = [a for a, v in zip(legal, values, strict=True) if v >= top - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    # --- scoring what an action leads to ------------------------------------------------------------

    def _after(self, state: HeistState, depth: int, plan: int = -1) -> float:
        """The team's score once ``s`` settles: an Assist window passes, a choice takes its best option;
        with ``plan`` (the Active Player) a turn with an action left takes its best next action."""
        state = _pass_assists(state)
        if depth > 0 and not state.outcome:
            if state.stage is Stage.CHOICE or state.stage is Stage.BOOST:
                return max(self._after(state.apply_unchecked(a), depth - 1, plan) for a in state.legal_actions())
            if state.stage is Stage.ROLL and state.roll is not None and state.roll.kind is RollKind.ACTION:
                return self._roll_value(state, depth - 1, plan)
        if plan >= 0 and state.stage is Stage.ACTION and state.active == plan:
            return max(self._action_value(state, a) for a in state.legal_actions())
        return metrics.team_score(state)

    def _action_value(self, state: HeistState, action: str, plan: int = -1) -> float:
        return self._after(state.apply_unchecked(action), CHOICE_DEPTH + 1, plan)

    def _plan_two(self, state: HeistState, legal: list[str], values: list[float]) -> None:
        """The first action of a turn: the ``PLANNED`` best are scored again with the best second action
        each opens (drive next to an Enemy SUV, then Ram it; Ram, then take a Boost token)."""
        for i in sorted(range(len(legal)), key=lambda i: -values[i])[:PLANNED]:
            values[i] = self._action_value(state, legal[i], plan=state.active)

    def _roll_value(self, state: HeistState, depth: int, plan: int = -1) -> float:
        """A Skill Roll about to be made: success and failure by their chances, the roller Boosting
        (and paying the token) when that turns a failure into a success."""
        roll = state.roll
        if roll is None:
            return metrics.team_score(state)
        faces = rules.effort_faces(state)
        dice, need, bonus = roll.dice, roll.need, rules.roll_bonus(state, roll.seat)
        raw = rules.success_chance(faces, dice, need, bonus=bonus)
        boosted = rules.success_chance(faces, dice, need, boost=True, bonus=bonus) if state.boost[roll.seat] else raw
        fail = self._after(state.apply_unchecked(notation.effort(0, 0, dice)), 0, plan)
        if dice + bonus < need:
            return fail
        success = self._after(state.apply_unchecked(notation.effort(dice, 0, 0)), depth, plan)
        return raw * success + (boosted - raw) * (success - metrics.TOKEN) + (1 - boosted) * fail

    # --- Assist -----------------------------------------------------------------------------------

    def _assist(self, state: HeistState, seat: int) -> str:
        """Assist when two more dice raise the roll's expected worth to the team by more than a token."""
        roll = state.roll
        if roll is None:
            return notation.seated(seat, Verb.PASS)
        faces = rules.effort_faces(state)
        more = min(roll.dice + 2, state.g.max_dice)
        if roll.kind is RollKind.DEFENSE:
            gain = self._defense_gain(state, roll.seat, roll.damage, roll.dice, more, faces)
        else:
            waiting = _pass_assists(state)
            bonus = rules.roll_bonus(state, roll.seat)
            token = state.boost[roll.seat] > 0
            now = rules.success_chance(faces, roll.dice, roll.need, boost=token, bonus=bonus)
            then = rules.success_chance(faces, more, roll.need, boost=token, bonus=bonus)
            if then - now < 0.05:
                return notation.seated(seat, Verb.PASS)
            fail = metrics.team_score(_pass_assists(waiting.apply_unchecked(notation.effort(0, 0, roll.dice))))
            # the outcome with every die a success, and as many dice as the Assists could bring
            success = self._after(waiting.apply_unchecked(notation.effort(max(more, roll.need), 0, 0)), CHOICE_DEPTH)
            gain = (then - now) * (success - fail)
        return notation.seated(seat, Verb.ASSIST if gain > metrics.TOKEN * 1.5 else Verb.PASS)

    def _defense_gain(self, state: HeistState, victim: int, damage: int, dice: int, more: int,
                      faces: tuple[int, int, int]) -> float:
        """What two more Defense dice save: the vehicle (and its Cargo or Ramsey) when it would be
        destroyed, else the Strength slots."""
        left = metrics.strength_left(state, victim)
        token = state.boost[victim] > 0
        piece = state.vehicle[victim]
        stake = metrics.VEHICLE + (state.pieces[piece].cargo * metrics.TRACK if piece >= 0 else 0.0)
        if piece >= 0 and state.ramsey == piece:
            stake += 10 * metrics.TRACK
        saving = damage - left + 1
        # the blocks that keep the vehicle on the road (none is needed when it survives anyway)
        gain = 0.0
        for blocked in range(1, damage + 1):
            extra = (rules.success_chance(faces, more, blocked, boost=token)
                     - rules.success_chance(faces, dice, blocked, boost=token))
            gain += extra * (metrics.STRENGTH + (stake if blocked == saving else 0.0))
        return gain


def _pass_assists(state: HeistState) -> HeistState:
    """``s`` with every open Assist window passed (the scores assume no one Assists)."""
    while state.stage is Stage.ASSIST and state.waiting:
        state = state.apply_unchecked(notation.seated(min(state.waiting), Verb.PASS))
    return state
