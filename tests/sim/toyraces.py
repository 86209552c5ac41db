"""Toy Grid: a race whose race health is known exactly, for the tests of the chi-square test and the skill
share.

- Setup: the cars are dealt at random to grid slots 1, 2, ... (one chance node a slot, ``grid:P<n>``),
  two a row (row 1 at the front).
- Each car, in grid order (slot 1 first), chooses once: ``sure`` (1 point) or ``gamble`` (0 points).
- With the option ``pole_wins`` (a rigged race), the car in slot 1 wins whatever was chosen. Otherwise the
  most points win; a tie is broken by a fair draw among the tied cars (a chance node ``win:P<n>``).

So, known answers:

- rigged: slot 1 (and row 1, and the first to play) wins every race; any bot against any other wins
  exactly when it is dealt slot 1, so the skill share is 0;
- fair, the game's bot (always ``sure``) in every seat: every position wins its fair share;
- fair, the game's bot against random bots (``sure`` or ``gamble`` at even odds): it wins 3/4 of two-car
  races (the other gambles: a win; both sure: a fair draw), a skill share of 1/2, and
  ``sum over k of C(3, k) / 8 / (k + 1) = 15/32`` of four-car races.
"""

from __future__ import annotations

import random
from typing import Any

from slipstream.engine import registry
from slipstream.engine.fields import slots
from slipstream.engine.game import CHANCE, Actor, Event, Game, OptionSpec, Result, State
from slipstream.engine.hooks import GameHooks


class ToyGrid(Game):
    id = "toy-grid"
    name = "Toy Grid"
    min_players = 2
    max_players = 6
    default_players = 4
    option_specs = (OptionSpec("pole_wins", False, "The car on pole always wins.", kind=bool),)

    @classmethod
    def hooks(cls) -> GameHooks:
        return HOOKS

    def _initial_state(self) -> GridState:
        s = GridState()
        s.grid = ()
        s.points = [None] * self.players
        s.winner = -1
        return s


class GridState(State):
    grid: tuple[int, ...]
    points: list[int | None]
    winner: int

    __slots__ = slots(__annotations__)

    def _dealt(self) -> bool:
        return len(self.grid) == self.game.players

    def _actor(self) -> Actor:
        if self.winner >= 0:
            return None
        if not self._dealt():
            return CHANCE
        waiting = [seat for seat in self.grid if self.points[seat] is None]
        return waiting[0] if waiting else CHANCE

    def _legal(self) -> list[str]:
        if self._actor() == CHANCE:
            return [a for a, _ in self._chance()]
        return ["gamble", "sure"]

    def _tied(self) -> list[int]:
        best = max(p or 0 for p in self.points)
        return [seat for seat in range(self.game.players) if self.points[seat] == best]

    def _chance(self) -> list[tuple[str, float]]:
        if not self._dealt():
            left = [seat for seat in range(self.game.players) if seat not in self.grid]
            return [(f"grid:P{seat + 1}", 1 / len(left)) for seat in left]
        tied = self._tied()
        return [(f"win:P{seat + 1}", 1 / len(tied)) for seat in tied]

    def _do(self, action: str) -> list[Event]:
        if action.startswith("grid:"):
            seat = int(action[6:]) - 1
            self.grid = (*self.grid, seat)
            return [Event("grid", f"P{seat + 1} takes grid slot {len(self.grid)}", "setup")]
        if action.startswith("win:"):
            self.winner = self.grid[0] if self.game.options["pole_wins"] else int(action[5:]) - 1
            return [Event("win", f"P{self.winner + 1} wins", "finish")]
        seat = self._actor()
        assert isinstance(seat, int)
        self.points[seat] = 1 if action == "sure" else 0
        return [Event("choose", f"P{seat + 1} plays {action}", "choose")]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"grid": list(self.grid), "points": list(self.points), "winner": self.winner}

    @property
    def result(self) -> Result | None:
        if self.winner < 0:
            return None
        rest = sorted((s for s in range(self.game.players) if s != self.winner), key=self.grid.index)
        return Result(order=(self.winner, *rest), winners=(self.winner,), reason="the winner")

    def determinize(self, seat: int | None, rng: random.Random) -> GridState:
        return self.copy()


class SureBot:
    """Toy Grid's own bot: always ``sure``."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State, seat: int) -> str:
        return "sure"


def start_positions(final: State) -> dict[str, tuple[int, ...]]:
    assert isinstance(final, GridState)
    slot = tuple(final.grid.index(seat) + 1 for seat in range(final.game.players))
    return {"grid slot": slot, "grid row": tuple((k + 1) // 2 for k in slot)}


def race_metrics(final: State) -> dict[str, float]:
    assert isinstance(final, GridState)
    return {"rounds": 1.0, "winning_margin": float(sum(p == 1 for p in final.points))}


HOOKS = GameHooks(heuristic_bot=SureBot, start_positions=start_positions, race_metrics=race_metrics)


def install() -> None:
    """Register the game (idempotent)."""
    registry.register(ToyGrid)


def uninstall() -> None:
    registry._GAMES.pop(ToyGrid.id, None)
