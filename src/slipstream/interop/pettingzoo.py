"""PettingZoo environments for every registered game.

>>> from slipstream.interop.pettingzoo import env
>>> aec = env("scrap-racer", players=2)
>>> aec.reset(seed=1)

- ``env(game_id, players=None, spec=None, reward="win", observation=None, **options)``: an AEC environment,
  one agent per seat (``player_0`` ...). Each agent's observation is ``{"observation": float32 vector,
  "action_mask": int8 vector}``, showing only what ``view(seat)`` shows; the action space is
  ``Discrete(len(spec.actions))`` (``slipstream.interop.spec``). Chance is resolved inside, by the seed given
  to ``reset``. At a simultaneous choice the seats act one after another in seat order; each sees only its own
  view, which hides the choices already made. Rewards come at the end, by ``reward``: ``"win"`` (the default)
  +1 for a winner, -1 for every other seat (in a cooperative game, every seat gets the team's +1 or -1);
  ``"place"`` linear by finishing place, +1 first to -1 last. ``observation``: ``"declared"`` (the game's own
  slots, each in [0, 1], written from the state: ``slipstream.interop.declared``; the default where the game
  declares them), ``"full"`` (the view flattened, ``slipstream.interop.encoding``; the default otherwise) or
  ``"compact"`` (the full one's moving slots, scaled: ``slipstream.interop.compact``).
  ``env.observation_names`` names every observation slot; ``render()`` (``render_mode="ansi"``) is the
  terminal board of a spectator's view, plain text.
- ``parallel_env(...)``: the same game as a ``ParallelEnv``. Each step, every seat that may act now
  (the seat whose turn it is, or every seat of a simultaneous choice) acts at once from the same
  position, in seat order (a choice that an earlier seat's choice made illegal, by closing the window,
  is skipped); the other seats' entries are ignored (their masks are all zero; they may be left out).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from .spec import WIN, GameSpec, library_name
from .table import Table

JSON = Any
ObsDict = dict[str, np.ndarray]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    encoder = table.encoder
    observation = spaces.Dict(
        {
            "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (table.num_actions,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(table.num_actions)


def _next_seed(rng: random.Random | None, seed: int | None) -> tuple[random.Random, int]:
    """A given seed starts a new sequence; no seed takes the next one (a fresh random sequence at first)."""
    if seed is not None:
        rng = random.Random(seed)
        return rng, seed
    if rng is None:
        rng = random.Random()
    return rng, rng.randrange(2**31)


class SlipstreamAEC(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """An AEC environment for one game configuration (see the module docstring)."""

    metadata = {"name": "slipstream_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012 - as PettingZoo declares it

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        spec: GameSpec | None = None,
        render_mode: str | None = None,
        reward: str = WIN,
        observation: str | None = None,
        **options: JSON,
    ) -> None:
        super().__init__()
        self.table = Table(game_id, players, options, spec, reward, observation)
        self.metadata = {**self.metadata, "name": f"{library_name(game_id)}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.table.players)]
        observation_space, action_space = _spaces(self.table)
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self._rng: random.Random | None = None
        self.seed: int = 0
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_object(self) -> Any:
        """The engine state (``slipstream.State``) the environment is at."""
        return self.table.state

    def reset(self, seed: int | None = None, options: Mapping[str, JSON] | None = None) -> None:
        self._rng, self.seed = _next_seed(self._rng, seed)
        self.table.reset(self.seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.table.seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> ObsDict:
        seat = self._seats[agent]
        table = self.table
        if agent == self.agent_selection and table.seat == seat:
            mask = table.mask(seat)
        else:
            mask = np.zeros(table.num_actions, dtype=np.int8)
        return {"observation": table.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action: None is only for an agent whose game is over")
        table = self.table
        table.act(self._seats[agent], int(action))
        self._cumulative_rewards[agent] = 0.0
        if table.is_over:
            for other in self.agents:
                self.rewards[other] = table.reward(self._seats[other])
                self.terminations[other] = True
                self.infos[other] = {"result": table.state.result.to_json()}  # type: ignore[union-attr]
            self._select()
            self._accumulate_rewards()
        else:
            self._select()  # the rewards stay 0 until the end: nothing to add up

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.board(None)

    @property
    def observation_names(self) -> tuple[str, ...]:
        """A name for every slot of ``observation["observation"]`` (``/cars/1/tyre=soft``)."""
        return self.table.observation_names

    def close(self) -> None:
        pass


class SlipstreamParallel(ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A parallel environment for one game configuration (see the module docstring)."""

    metadata = {"name": "slipstream_v0", "render_modes": ["ansi"]}  # noqa: RUF012 - as PettingZoo declares it

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        spec: GameSpec | None = None,
        render_mode: str | None = None,
        reward: str = WIN,
        observation: str | None = None,
        **options: JSON,
    ) -> None:
        self.table = Table(game_id, players, options, spec, reward, observation)
        self.metadata = {**self.metadata, "name": f"{library_name(game_id)}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.table.players)]
        self.agents = list(self.possible_agents)
        observation_space, action_space = _spaces(self.table)
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self._rng: random.Random | None = None
        self.seed: int = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _deciding(self) -> list[int]:
        actor = self.table.state.actor
        if isinstance(actor, frozenset):
            return sorted(actor)
        return [actor] if isinstance(actor, int) else []

    def _observations(self) -> dict[str, ObsDict]:
        deciding = set(self._deciding())
        table = self.table
        return {
            agent_name(s): {
                "observation": table.observation(s),
                "action_mask": table.mask(s) if s in deciding else np.zeros(table.num_actions, dtype=np.int8),
            }
            for s in range(table.players)
        }

    def reset(
        self, seed: int | None = None, options: Mapping[str, JSON] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        self._rng, self.seed = _next_seed(self._rng, seed)
        self.table.reset(self.seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[
        dict[str, ObsDict], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:
        table = self.table
        deciding = self._deciding()
        missing = [agent_name(s) for s in deciding if agent_name(s) not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act now")
        chosen = [(s, table.action(s, actions[agent_name(s)])) for s in deciding]
        for number, (seat, action) in enumerate(chosen):
            if number and action not in table.state.legal_actions(seat):
                continue  # an earlier seat's choice closed this seat's window
            table.apply(action)
        over = table.is_over
        agents = list(self.agents)
        observations = self._observations()
        rewards = {a: table.reward(s) for s, a in enumerate(self.possible_agents) if a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over:
            result = table.state.result.to_json()  # type: ignore[union-attr]
            infos = {a: {"result": result} for a in agents}
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.board(None)

    @property
    def observation_names(self) -> tuple[str, ...]:
        """A name for every slot of ``observation["observation"]`` (``/cars/1/tyre=soft``)."""
        return self.table.observation_names

    def close(self) -> None:
        pass


def env(
    game_id: str,
    players: int | None = None,
    spec: GameSpec | None = None,
    reward: str = WIN,
    observation: str | None = None,
    **options: JSON,
) -> SlipstreamAEC:
    """An AEC environment for ``game_id`` (see the module docstring)."""
    return SlipstreamAEC(game_id, players, spec, reward=reward, observation=observation, **options)


def parallel_env(
    game_id: str,
    players: int | None = None,
    spec: GameSpec | None = None,
    reward: str = WIN,
    observation: str | None = None,
    **options: JSON,
) -> SlipstreamParallel:
    """A parallel environment for ``game_id`` (see the module docstring)."""
    return SlipstreamParallel(game_id, players, spec, reward=reward, observation=observation, **options)
