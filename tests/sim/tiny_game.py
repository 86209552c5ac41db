"""A tiny dice race used to test the simulator and the bots through the engine contract alone.

Rules: each seat is dealt a hidden boost card (1, 2 or 3; the deck holds two of each, drawn by chance
nodes). Then every seat secretly and simultaneously picks a style, ``bold`` or ``calm``. Turns then go
round the table: roll a die (a chance node), then ``move`` (advance by the roll) or ``boost`` (advance
by the roll plus the card, once per race). A bold racer adds 1 to every move but stalls on a roll of 1.
The first racer to reach ``length`` wins; the others are ranked by how far they got (ties by seat).

``install()`` registers the game; its hooks (``HeuristicBot``, ``race_metrics``, ``seat_labels``,
``standings``) are declared on ``TinyRace.hooks()`` as a real game declares them. ``HOOKS`` is what it
returns: tests replace it to try a game with other hooks or none.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from typing import Any

from slipstream.engine import registry
from slipstream.engine.chance import DIE_OUTCOMES, weighted
from slipstream.engine.game import CHANCE, Actor, Event, Game, OptionSpec, Result, State
from slipstream.engine.hooks import GameHooks

DECK = {"1": 2, "2": 2, "3": 2}


class TinyState(State):
    card: list[int]
    dealt: int
    pos: list[int]
    roll: int
    style: list[str]
    turn: int
    turns: int
    used: list[bool]

    def _actor(self) -> Actor:
        n = self.game.players
        if self.dealt < n:
            return CHANCE
        if "" in self.style:
            return frozenset(s for s in range(n) if not self.style[s])
        if max(self.pos) >= self.game.options["length"]:
            return None
        return CHANCE if self.roll == 0 else self.turn

    def _deck_left(self) -> list[tuple[str, int]]:
        left = dict(DECK)
        for c in self.card[: self.dealt]:
            left[str(c)] -= 1
        return [(f"card:{k}", v) for k, v in left.items()]

    def _chance(self) -> list[tuple[str, float]]:
        if self.dealt < self.game.players:
            return weighted(self._deck_left())
        return list(DIE_OUTCOMES)

    def _legal(self) -> list[str]:
        actor = self._actor()
        if actor is None:
            return []
        if actor == CHANCE:
            return [a for a, _ in self._chance()]
        if isinstance(actor, frozenset):
            return [f"{s}:{style}" for s in actor for style in ("bold", "calm")]
        seat = int(actor)  # type: ignore[arg-type]
        if self.game.options["boosts"] and not self.used[seat]:
            return ["boost", "move"]
        return ["move"]

    def _do(self, action: str) -> list[Event]:
        kind, _, arg = action.partition(":")
        if kind == "card":
            self.card[self.dealt] = int(arg)
            self.dealt += 1
            seats = frozenset({self.dealt - 1})
            return [Event("deal", f"P{self.dealt} is dealt a card", "deal", seats=seats)]
        if kind == "die":
            self.roll = int(arg)
            return [Event("roll", f"rolled {arg}", "roll")]
        if kind.isdigit():
            self.style[int(kind)] = arg
            return [Event("style", f"P{int(kind) + 1} chose", "style", seats=frozenset({int(kind)}))]
        seat = self.turn
        step = self.roll
        if self.style[seat] == "bold":
            step = 0 if self.roll == 1 else step + 1
        if action == "boost":
            step += self.card[seat]
            self.used[seat] = True
        self.pos[seat] += step
        self.roll = 0
        self.turn = (seat + 1) % self.game.players
        self.turns += 1
        return [Event("move", f"P{seat + 1} moves {step}", action)]

    def _view(self, seat: int | None) -> dict[str, Any]:
        hidden_style = "" in self.style
        return {
            "pos": list(self.pos),
            "roll": self.roll,
            "turn": self.turn,
            "used": list(self.used),
            "dealt": self.dealt,
            "card": [c if (s == seat or self.used[s]) else None for s, c in enumerate(self.card)],
            "style": [st if (s == seat or not hidden_style) else ("?" if st else "") for s, st in
                      enumerate(self.style)],
        }

    @property
    def result(self) -> Result | None:
        if self._actor() is not None:
            return None
        order = sorted(range(self.game.players), key=lambda s: (-self.pos[s], s))
        return Result(tuple(order), (order[0],), "finish")

    def determinize(self, seat: int | None, rng: random.Random) -> TinyState:
        new = self.copy()
        pool = [int(k) for k, v in DECK.items() for _ in range(v)]
        for s in range(self.dealt):
            if s == seat or self.used[s]:
                pool.remove(self.card[s])
        rng.shuffle(pool)
        for s in range(self.dealt):
            if s != seat and not self.used[s]:
                new.card[s] = pool.pop()
        if "" in self.style:
            for s in range(self.game.players):
                if s != seat and self.style[s]:
                    new.style[s] = rng.choice(("bold", "calm"))
        return new


class TinyRace(Game):
    id = "tiny-race"
    name = "Tiny Race"
    min_players = 2
    max_players = 4
    default_players = 3
    option_specs = (
        OptionSpec("length", 20, "spaces to the finish", kind=int, minimum=5, maximum=200),
        OptionSpec("boosts", True, "deal boost cards", kind=bool),
    )

    @classmethod
    def hooks(cls) -> GameHooks:
        return HOOKS

    def _initial_state(self) -> TinyState:
        s = TinyState()
        n = self.players
        s.card, s.dealt, s.pos, s.roll = [0] * n, 0, [0] * n, 0
        s.style, s.turn, s.turns, s.used = [""] * n, 0, 0, [False] * n
        return s


class HeuristicBot:
    """Bold always (it moves 25/6 a turn on average, calm 3.5); boosts when the boost finishes the
    race, or with a 3 card on a roll of 5 or 6."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if f"{seat}:bold" in legal:
            return f"{seat}:bold"
        if "boost" in legal:
            assert isinstance(state, TinyState)
            length = state.game.options["length"]
            if state.pos[seat] + state.roll + state.card[seat] >= length or (
                    state.card[seat] == 3 and state.roll >= 5):
                return "boost"
        return "move"


def race_metrics(final: State) -> dict[str, float]:
    assert isinstance(final, TinyState)
    n = final.game.players
    return {"turns": float(final.turns), "rounds": float(-(-final.turns // n)),
            "boosts": float(sum(final.used)), "bold": float(final.style.count("bold"))}


def seat_labels(final: State) -> dict[int, str]:
    assert isinstance(final, TinyState)
    return {s: f"card-{c}" for s, c in enumerate(final.card)}


def standings(state: State) -> list[int]:
    assert isinstance(state, TinyState)
    return sorted(range(state.game.players), key=lambda s: (-state.pos[s], s))


HOOKS = GameHooks(heuristic_bot=HeuristicBot, race_metrics=race_metrics, seat_labels=seat_labels,
                  standings=standings)


def use_hooks(monkeypatch: Any, **changes: Any) -> None:
    """For one test: ``TinyRace`` declares ``HOOKS`` with ``changes`` (a hook set to ``None`` is absent)."""
    from slipstream.engine import hooks

    monkeypatch.setattr(sys.modules[__name__], "HOOKS", dataclasses.replace(HOOKS, **changes))
    monkeypatch.delitem(hooks._CACHE, TinyRace, raising=False)


def install() -> None:
    """Register the game (idempotent)."""
    registry.register(TinyRace)


def uninstall() -> None:
    registry._GAMES.pop(TinyRace.id, None)
