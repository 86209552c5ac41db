"""The Scrap Racer heuristic bot: pushes its luck by the odds of a double, saves boost markers for
doubles, and plays bonus cards for the most ground.

It weighs "roll again" against "stop" by the expected movement of one more die: the faces not yet
rolled add to the total, a double loses the total and brings the average of its crash pile.
"""

from __future__ import annotations

import random

from slipstream.engine.game import State

from . import notation, rules
from .state import ScrapState
from .types import BoostUse, Kind, Stage

# Expected movement of the active racer for each crash pile (docs/rules/scrap-racer.md), plus a
# little for the bonus marker that every crash brings.
CRASH_VALUE = {1: 5.5, 2: 5.5, 3: 1.5, 4: 1.5, 5: -3.0, 6: -3.0}
BOOST_RISK_DISCOUNT = 0.6


class HeuristicBot:
    """A fair opponent for a casual player."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if not isinstance(state, ScrapState):
            return self.rng.choice(legal)
        stage = state.stage
        if stage == Stage.DECIDE:
            return self._decide(state, legal)
        if stage in (Stage.CARDS, Stage.CARDS_AFTER):
            return self._cards(state, legal)
        if stage == Stage.ORDER:
            return legal[0]
        if stage == Stage.FIGHT_CHOICE:
            return self._own_fight(state, legal)
        return self.rng.choice(legal)

    def _decide(self, state: ScrapState, legal: list[str]) -> str:
        die, dice = state.die, state.dice
        uses = {use: action for action in legal if (use := notation.parse(action).use) is not None}
        if notation.ACCEPT_CRASH in legal:
            fixes = sorted(action for use, action in uses.items()
                           if use != BoostUse.REROLL and _changed(die, use) not in dice)
            if CRASH_VALUE[die] > sum(dice) * 0.5 + 1:
                return notation.ACCEPT_CRASH   # a low double is worth more than the dice
            if fixes:
                return fixes[0]
            if BoostUse.REROLL in uses:
                return uses[BoostUse.REROLL]
            return notation.ACCEPT_CRASH
        if die <= 2 and BoostUse.TURN in uses and 7 - die not in dice:
            return uses[BoostUse.TURN]
        if notation.ROLL_AGAIN not in legal:
            return notation.STOP
        total = sum(dice) + die
        kept = {*dice, die}
        gain = sum(total + f for f in range(1, 7) if f not in kept) / 6
        loss = sum(CRASH_VALUE[f] for f in kept) / 6
        if uses:
            loss = loss * BOOST_RISK_DISCOUNT + total * len(kept) / 6 * (1 - BOOST_RISK_DISCOUNT)
        return notation.ROLL_AGAIN if gain + loss > total else notation.STOP

    def _cards(self, state: ScrapState, legal: list[str]) -> str:
        """Play the card that gains the most ground now; keep Catch up for a long gap."""
        racer = rules.active_racer(state)
        best, best_gain = legal[0] if legal[0] in (notation.MOVE, notation.DONE) else notation.MOVE, 0
        for action in legal:
            move = notation.parse(action)
            if move.kind != Kind.PLAY_CARD:
                continue
            card = move.name
            target = rules.card_target(state, racer, card)
            if target is None:
                continue
            gain = target - state.progress[racer]
            if card == "catch-up" and gain < 4:
                continue
            if gain > best_gain:
                best, best_gain = action, gain
        if best not in legal:
            return legal[0]
        return best

    def _own_fight(self, state: ScrapState, legal: list[str]) -> str:
        """Team game: the rear racer decides the winner, so let the one with fewer laps win."""
        first, second = state.need.racer, state.need.other
        rear = first if state.laps[first] <= state.laps[second] else second
        return notation.let_win(state.racer[rear])


def _changed(die: int, use: BoostUse) -> int:
    if use == BoostUse.UP:
        return die + 1
    if use == BoostUse.DOWN:
        return die - 1
    if use == BoostUse.TURN:
        return 7 - die
    return die
