"""The Scrap Racer heuristic bot: pushes its luck by the odds of a double, saves boost markers for
doubles, and plays bonus cards for the most ground.

It weighs "roll again" against "stop" by the expected movement of one more die: the faces not yet
rolled add to the total, a double loses the total and brings the average of its crash pile.
"""

from __future__ import annotations

import random

from slipstream.engine.game import State
from slipstream.games.scrap_racer.rules import CARDS, CARDS_AFTER, DECIDE, FIGHT_CHOICE, ORDER, ScrapState

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
        phase = state.phase
        if phase == DECIDE:
            return self._decide(state, legal)
        if phase in (CARDS, CARDS_AFTER):
            return self._cards(state, legal)
        if phase == ORDER:
            return legal[0]
        if phase == FIGHT_CHOICE:
            return self._own_fight(state, legal)
        return self.rng.choice(legal)

    def _decide(self, s: ScrapState, legal: list[str]) -> str:
        die, dice = s.die, s.dice
        if "crash" in legal:
            fixes = [a for a in legal if a.startswith("boost:") and a != "boost:reroll" and
                     _changed(die, a) not in dice]
            if CRASH_VALUE[die] > sum(dice) * 0.5 + 1:
                return "crash"            # a low double is worth more than the dice
            if fixes:
                return fixes[0]
            if "boost:reroll" in legal:
                return "boost:reroll"
            return "crash"
        if die <= 2 and "boost:turn" in legal and 7 - die not in dice:
            return "boost:turn"
        if "roll" not in legal:
            return "stop"
        total = sum(dice) + die
        kept = {*dice, die}
        gain = sum(total + f for f in range(1, 7) if f not in kept) / 6
        loss = sum(CRASH_VALUE[f] for f in kept) / 6
        if any(a.startswith("boost:") for a in legal):
            loss = loss * BOOST_RISK_DISCOUNT + total * len(kept) / 6 * (1 - BOOST_RISK_DISCOUNT)
        return "roll" if gain + loss > total else "stop"

    def _cards(self, s: ScrapState, legal: list[str]) -> str:
        """Play the card that gains the most ground now; keep Catch up for a long gap."""
        r = s.order[s.turn]
        best, best_gain = legal[0] if legal[0] in ("move", "done") else "move", 0
        for action in legal:
            if not action.startswith("play:"):
                continue
            card = action[5:]
            target = s._card_target(r, card)
            if target is None:
                continue
            gain = target - s.pos[r]
            if card == "catch-up" and gain < 4:
                continue
            if gain > best_gain:
                best, best_gain = action, gain
        if best not in legal:
            return legal[0]
        return best

    def _own_fight(self, s: ScrapState, legal: list[str]) -> str:
        """Team game: the rear racer decides the winner, so let the one with fewer laps win."""
        a, b = s.need[1], s.need[2]
        rear = a if s.laps[a] <= s.laps[b] else b
        return f"win:{s.racer[rear]}"


def _changed(die: int, action: str) -> int:
    if action == "boost:up":
        return die + 1
    if action == "boost:down":
        return die - 1
    if action == "boost:turn":
        return 7 - die
    return die
