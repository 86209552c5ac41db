"""Gymnasium environments: one seat of a game against bots. Importing this module registers
``slipstream/<game id>-v0`` for every registered game.

>>> import gymnasium
>>> import slipstream.interop.gymnasium
>>> env = gymnasium.make("slipstream/scrap-racer-v0", players=2, opponents="random")
>>> observation, info = env.reset(seed=1)

- The observation is a float32 vector of what the learner's view shows; the
  action space is ``Discrete(len(spec.actions))`` (``slipstream.interop.spec``). ``info["action_mask"]``
  (and ``env.action_masks()``, the sb3-contrib convention) marks the legal actions;
  ``info["legal_actions"]`` names them in the game's notation.
- ``opponents``: a bot name (``"heuristic"``, the default where the game has one, else ``"random"``;
  ``"mcts:200"``...) for every other seat, or one name per other seat in seat order.
  ``seat`` is the learner's seat (default 0). The bots and chance are seeded from ``reset``'s seed.
- Rewards come at the end, by ``reward``: ``"win"`` (the default) +1 if the learner is among the winners,
  -1 otherwise (in a cooperative game, the team's result); ``"place"`` linear by finishing place, +1 first
  to -1 last.
- ``observation``: ``"declared"`` (the game's own slots, each in [0, 1], ``slipstream.interop.declared``;
  the default where the game declares them), ``"full"`` (the view flattened, ``slipstream.interop.encoding``;
  the default otherwise) or ``"compact"`` (the full one's moving slots, scaled, ``slipstream.interop.compact``).
- ``env.unwrapped.observation_names`` names every observation slot; ``render()`` (``render_mode="ansi"``)
  is the terminal board of the learner's view, plain text.
- ``illegal="lose"`` (the default): an illegal action ends the episode with reward -1 and
  ``info["illegal_action"]``; ``illegal="raise"`` raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from slipstream.bots.registry import has_heuristic, make_bot
from slipstream.engine import OptionError, available_games
from slipstream.engine.play import Agent

from .encoding import Vector
from .spec import WIN, GameSpec
from .table import Mask, Table

JSON = Any


def env_id(game_id: str) -> str:
    return f"slipstream/{game_id}-v0"


class SlipstreamEnv(gymnasium.Env[Vector, np.int64]):
    """One seat of ``game_id`` against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - as gymnasium.Env declares it

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] | None = None,
        illegal: str = "lose",
        spec: GameSpec | None = None,
        render_mode: str | None = None,
        reward: str = WIN,
        observation: str | None = None,
        **options: JSON,
    ) -> None:
        self.table = Table(game_id, players, options, spec, reward, observation)
        if not 0 <= seat < self.table.players:
            raise OptionError(f"{game_id}: seat must be from 0 to {self.table.players - 1}, not {seat}")
        if illegal not in ("lose", "raise"):
            raise OptionError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if opponents is None:
            opponents = "heuristic" if has_heuristic(game_id) else "random"
        others = [s for s in range(self.table.players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise OptionError(f"{game_id}: {len(others)} opponents needed, {len(names)} given: {names}")
        for name in names:
            make_bot(name, game_id, 0)  # an unknown bot fails here, with the list of bots
        self.game_id = game_id
        self.learner = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self._bot_names = dict(zip(others, names, strict=True))
        self._bots: dict[int, Agent] = {}
        self._seeds: random.Random | None = None
        self._ended = False
        encoder = self.table.encoder
        self.observation_space = spaces.Box(encoder.low, encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)

    def _play_bots(self) -> None:
        table = self.table
        while True:
            seat = table.seat
            if seat is None or seat == self.learner:
                return
            table.apply(self._bots[seat].choose(table.state, seat))

    def _info(self) -> dict[str, Any]:
        mask = self.action_masks()
        return {
            "action_mask": mask,
            "legal_actions": [self.table.spec.actions[i] for i in np.flatnonzero(mask)],
        }

    def action_masks(self) -> Mask:
        """The legal actions of the learner now, as 0/1 over the action space."""
        return self.table.mask(self.learner)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self._seeds is None:
            self._seeds = random.Random(int(self.np_random.integers(2**31)))
        game_seed = self._seeds.randrange(2**31)
        self.table.reset(game_seed)
        self._bots = {s: make_bot(name, self.game_id, game_seed * 8 + s) for s, name in self._bot_names.items()}
        self._ended = False
        self._play_bots()
        return self.table.observation(self.learner), self._info()

    def step(self, action: np.int64 | int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        table = self.table
        if self._ended or table.seat != self.learner:
            raise RuntimeError("the episode is over: call reset()")
        try:
            table.act(self.learner, int(action))
        except ValueError:
            if self.illegal == "raise":
                raise
            self._ended = True
            info = self._info()
            index = int(action)
            info["illegal_action"] = table.spec.actions[index] if 0 <= index < table.num_actions else index
            return table.observation(self.learner), -1.0, True, False, info
        self._play_bots()
        over = self._ended = table.is_over
        info = self._info()
        if over:
            info["result"] = table.state.result.to_json()  # type: ignore[union-attr]
        return table.observation(self.learner), table.reward(self.learner), over, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.board(self.learner)

    @property
    def observation_names(self) -> tuple[str, ...]:
        """A name for every slot of the observation vector (``/cars/1/tyre=soft``)."""
        return self.table.observation_names


def register() -> None:
    """Register ``slipstream/<game id>-v0`` for every registered game (done on import; idempotent)."""
    for game_id in available_games():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:SlipstreamEnv", kwargs={"game_id": game_id})


register()
