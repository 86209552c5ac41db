"""Toy Dash: the one small example game of the web, browser, simulator and bot tests.

- Setup: each seat is dealt one secret gem card (a chance node over the unique cards left); only its
  owner sees it until the race ends. The gem breaks ties at the finish.
- Each round every seat secretly chooses ``walk`` (move 1) or ``dash`` at once (a simultaneous
  choice: actions ``"<seat>:walk"``/``"<seat>:dash"``); the choices are revealed together.
- Each dasher in seat order then rolls (``roll``, then a chance ``die:N``): 1 stalls, else move N.
- With the option ``sprint`` (off by default), once per race a dasher who did not stall may ``sprint``
  instead of ``move``: the roll plus 3 (a tactical choice for the bot tests).
- The race ends after the round in which someone reaches ``length``.

Dash moves 20/6 a round on average against walk's 1: dash is the better choice, which the bot tests
expect the search to find. The hooks (``HeuristicBot``, ``race_metrics``, ``seat_labels``,
``standings``) are declared on ``ToyDash.hooks()`` as a real game declares them; ``HOOKS`` is what it
returns: tests replace it (``use_hooks``) to try the game with other hooks or none.

It is registered only for a test's duration (``install``/``uninstall``), or in a server
subprocess through ``tests.web.toyplugin``.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from typing import Any

from slipstream.engine import registry
from slipstream.engine.chance import DIE_OUTCOMES, weighted
from slipstream.engine.fields import slots
from slipstream.engine.game import CHANCE, Actor, Event, Game, OptionSpec, Result, State, split_seat_action
from slipstream.engine.hooks import GameHooks

GEMS = ("gem-amber", "gem-beryl", "gem-coral", "gem-diamond", "gem-emerald", "gem-flint")
"""The secret cards; each is unique, so a test can look for one by name in messages."""


class ToyDash(Game):
    id = "toy-dash"
    name = "Toy Dash"
    min_players = 2
    max_players = 4
    default_players = 2
    option_specs = (
        OptionSpec("length", 6, "Spaces to the finish.", kind=int, minimum=2, maximum=200),
        OptionSpec("sprint", False, "Once per race a dasher may sprint: the roll plus 3.", kind=bool),
    )

    @classmethod
    def hooks(cls) -> GameHooks:
        return HOOKS

    def _initial_state(self) -> DashState:
        s = DashState()
        n = self.players
        s.pos = [0] * n
        s.cards = [None] * n
        s.choice = [None] * n
        s.revealed = [None] * n
        s.phase = "deal"
        s.turn = 0
        s.round = 1
        s.roll = 0
        s.sprinted = [False] * n
        s.dashes = 0
        return s


class DashState(State):
    pos: list[int]
    cards: list[str | None]
    choice: list[str | None]
    revealed: list[str | None]
    phase: str
    turn: int
    round: int
    roll: int
    sprinted: list[bool]
    dashes: int

    __slots__ = slots(__annotations__)

    def _actor(self) -> Actor:
        if self.phase in ("deal", "die"):
            return CHANCE
        if self.phase == "choose":
            return frozenset(i for i, c in enumerate(self.choice) if c is None)
        if self.phase in ("roll", "move"):
            return self.turn
        return None

    def _legal(self) -> list[str]:
        if self.phase in ("deal", "die"):
            return [a for a, _ in self._chance()]
        if self.phase == "choose":
            return [f"{i}:{c}" for i, ch in enumerate(self.choice) if ch is None for c in ("dash", "walk")]
        if self.phase == "roll":
            return ["roll"]
        if self.phase == "move":
            return ["move", "sprint"]
        return []

    def _chance(self) -> list[tuple[str, float]]:
        if self.phase == "deal":
            left = [g for g in GEMS if g not in self.cards]
            return weighted([(f"card:{g}", 1) for g in left])
        return list(DIE_OUTCOMES)

    def _name(self, seat: int) -> str:
        return self.game.seat_name(seat)

    def _do(self, action: str) -> list[Event]:
        if self.phase == "deal":
            seat = self.cards.index(None)
            card = action.split(":", 1)[1]
            self.cards[seat] = card
            events = [
                Event("deal", f"{self._name(seat)} is dealt a secret gem", rule="setup"),
                Event(
                    "deal-secret",
                    f"you are dealt {card}",
                    rule="setup",
                    data={"card": card},
                    seats=frozenset({seat}),
                ),
            ]
            if None not in self.cards:
                self.phase = "choose"
            return events
        if self.phase == "choose":
            seat, what = split_seat_action(action)
            self.choice[seat] = what
            events = [Event("chosen", f"{self._name(seat)} has chosen", rule="choose")]
            if None not in self.choice:
                events += self._reveal()
            return events
        if self.phase == "roll":
            self.phase = "die"
            return [Event("roll", f"{self._name(self.turn)} rolls", rule="dash")]
        seat = self.turn
        if self.phase == "move":
            n = self.roll + (3 if action == "sprint" else 0)
            self.sprinted[seat] = self.sprinted[seat] or action == "sprint"
            self.roll = 0
            verb = "sprints" if action == "sprint" else "dashes"
            return self._moved(seat, n, f"{self._name(seat)} {verb} {n}", action) + self._next_dasher(seat + 1)
        # die
        n = int(action.split(":", 1)[1])
        if n == 1:
            events = [Event("stall", f"{self._name(seat)} rolls 1 and stalls", rule="dash", data={"die": n})]
        elif self.game.options["sprint"] and not self.sprinted[seat]:
            self.roll = n
            self.phase = "move"
            return [Event("rolled", f"{self._name(seat)} rolls {n}", rule="dash", data={"die": n})]
        else:
            return self._moved(seat, n, f"{self._name(seat)} rolls {n} and dashes {n}", "dash") + self._next_dasher(
                seat + 1
            )
        return events + self._next_dasher(seat + 1)

    def _moved(self, seat: int, n: int, text: str, rule: str) -> list[Event]:
        self.pos[seat] += n
        return [Event("move", text, rule=rule, data={"die": n, "seat": seat})]

    def _reveal(self) -> list[Event]:
        self.revealed = list(self.choice)
        text = ", ".join(
            f"{self._name(i)} {c}{'es' if c == 'dash' else 's'}" for i, c in enumerate(self.choice)
        )
        events = [Event("reveal", text, rule="reveal", data={"choices": list(self.choice)})]
        self.dashes += self.choice.count("dash")
        for i, c in enumerate(self.choice):
            if c == "walk":
                self.pos[i] += 1
        return events + self._next_dasher(0)

    def _next_dasher(self, start: int) -> list[Event]:
        for i in range(start, len(self.pos)):
            if self.choice[i] == "dash":
                self.turn = i
                self.phase = "roll"
                return []
        if max(self.pos) >= self.game.options["length"]:
            self.phase = "over"
            return [Event("finish", "the race is over", rule="finish")]
        self.round += 1
        self.choice = [None] * len(self.pos)
        self.phase = "choose"
        return []

    def _view(self, seat: int | None) -> dict[str, Any]:
        over = self.phase == "over"
        return {
            "length": self.game.options["length"],
            "round": self.round,
            "phase": self.phase,
            "positions": list(self.pos),
            "chosen": [c is not None for c in self.choice],
            "last_choices": list(self.revealed),
            "turn": self.turn if self.phase in ("roll", "die", "move") else None,
            "roll": self.roll,
            "sprinted": list(self.sprinted),
            "hand": self.cards[seat] if seat is not None else None,
            "gems": list(self.cards) if over else None,
        }

    @property
    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        value = {g: i for i, g in enumerate(GEMS)}
        order = sorted(
            range(len(self.pos)), key=lambda i: (-self.pos[i], -value[self.cards[i] or GEMS[0]], i)
        )
        return Result(order=tuple(order), winners=(order[0],), reason="furthest at the end of the round")

    def determinize(self, seat: int | None, rng: random.Random) -> DashState:
        s = self.copy()
        if self.phase == "over":
            return s
        hidden = [i for i, c in enumerate(s.cards) if c is not None and i != seat]
        # the gems this seat has not seen, in a fixed order: the sample must not depend on who holds which
        pool = [g for g in GEMS if g not in s.cards or s.cards.index(g) in hidden]
        rng.shuffle(pool)
        for i in hidden:
            s.cards[i] = pool.pop()
        if self.phase == "choose":
            for i, c in enumerate(s.choice):
                if c is not None and i != seat:
                    s.choice[i] = rng.choice(("dash", "walk"))
        return s


class HeuristicBot:
    """Dash always (it moves 20/6 a round on average, walk 1); sprints when the sprint reaches the
    finish, or on a roll of 5 or 6."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if f"{seat}:dash" in legal:
            return f"{seat}:dash"
        if "sprint" in legal:
            assert isinstance(state, DashState)
            if state.pos[seat] + state.roll + 3 >= state.game.options["length"] or state.roll >= 5:
                return "sprint"
            return "move"
        return legal[0]


def race_metrics(final: State) -> dict[str, float]:
    assert isinstance(final, DashState)
    return {"rounds": float(final.round), "sprints": float(sum(final.sprinted)), "dashes": float(final.dashes)}


def seat_labels(final: State) -> dict[int, str]:
    assert isinstance(final, DashState)
    return {s: str(c) for s, c in enumerate(final.cards)}


def standings(state: State) -> list[int]:
    assert isinstance(state, DashState)
    return sorted(range(len(state.pos)), key=lambda s: (-state.pos[s], s))


HOOKS = GameHooks(heuristic_bot=HeuristicBot, race_metrics=race_metrics, seat_labels=seat_labels,
                  standings=standings)


def use_hooks(monkeypatch: Any, **changes: Any) -> None:
    """For one test: ``ToyDash`` declares ``HOOKS`` with ``changes`` (a hook set to ``None`` is absent)."""
    from slipstream.engine import hooks

    changed = dataclasses.replace(HOOKS, **changes)
    monkeypatch.setattr(sys.modules[__name__], "HOOKS", changed)
    # setitem, not delitem: the undo also drops what the test cached, so the next test sees the real hooks
    monkeypatch.setitem(hooks._CACHE, ToyDash, changed)


def install() -> None:
    """Register the game (idempotent)."""
    registry.register(ToyDash)


def uninstall() -> None:
    registry._GAMES.pop(ToyDash.id, None)
