"""One match as every bridge drives it: numbered actions in, masks and observation vectors out."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.text import Text

from slipstream.engine import CHANCE, Actor, OptionError, State, hooks_of, load

from .compact import Encoder, check_observation, make_encoder
from .encoding import Vector
from .spec import (
    WIN,
    GameSpec,
    Numbering,
    check_reward,
    seat_reward,
    settle,
    spec_for_game,
)

JSON = Any
Mask = npt.NDArray[np.int8]


class Table:
    """A match of ``game_id`` through the public contract, with chance resolved by the seed.

    ``state`` is always a decision or the end (``settle``); ``seat`` is the one who decides now.
    """

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, JSON] | None = None,
        spec: GameSpec | None = None,
        reward: str = WIN,
        observation: str | None = None,
    ) -> None:
        self.game = load(game_id, players=players, **dict(options or {}))
        self.reward_kind = check_reward(self.game, reward)
        """``"win"`` or ``"place"`` (``slipstream.interop.spec.REWARDS``)."""
        self.observation_kind = check_observation(self.game, observation)
        """``"declared"``, ``"compact"`` or ``"full"`` (``None`` picks the game's default)."""
        self.spec = spec if spec is not None else spec_for_game(self.game)
        if self.spec.game != game_id:
            raise OptionError(f"a spec for {self.spec.game} cannot drive {game_id}")
        if self.game.players > self.spec.max_players:
            raise OptionError(f"{game_id}: the spec covers at most {self.spec.max_players} players")
        self.players: int = self.game.players
        self.encoder: Encoder = make_encoder(self.game, self.spec, self.observation_kind)
        """The declared observation (the default where the game has one), the full one (the default
        otherwise) or the compact one (``slipstream.interop.compact``)."""
        self.num_actions: int = len(self.spec.actions)
        self._numbering = Numbering(self.spec)
        self._masks: dict[tuple[int, ...], Mask] = {}
        """A mask by the numbers of its legal actions (copied out: a race meets the same few again and again)."""
        self.decisions = 0
        """Seat decisions applied since the last reset."""
        self.state = settle(self.game.start(seed=0))

    @property
    def state(self) -> State:
        """The engine state: a decision or the end."""
        return self._state

    @state.setter
    def state(self, state: State) -> None:
        self._settled(state, state.actor)

    def _settled(self, state: State, actor: Actor) -> None:
        """Hold ``state`` (a decision or the end), whose actor is ``actor``."""
        self._state = state
        self._actor = actor
        self.seat: int | None = (
            min(actor) if isinstance(actor, frozenset) else actor if isinstance(actor, int) else None)
        """The seat that decides now (``acting_seat``), ``None`` at the end."""

    def reset(self, seed: int) -> None:
        self.state = settle(self.game.start(seed=seed))
        self.decisions = 0

    @property
    def is_over(self) -> bool:
        return self._actor is None

    def _numbers(self, seat: int) -> tuple[int, ...] | None:
        """The numbers of ``seat``'s legal actions in their order, ``None`` unless it decides now."""
        actor = self._actor
        if isinstance(actor, frozenset):
            if seat not in actor:
                return None
            return self._numbering.legal(self._state.legal_actions(seat), len(str(seat)) + 1)[0]
        if seat != self.seat:
            return None
        return self._numbering.legal(self._state.legal_actions(), 0)[0]

    def legal_ids(self, seat: int) -> list[int]:
        """The numbers of ``seat``'s legal actions (empty unless it decides now)."""
        numbers = self._numbers(seat)
        return [] if numbers is None else list(numbers)

    def mask(self, seat: int) -> Mask:
        numbers = self._numbers(seat)
        if numbers is None:
            return np.zeros(self.num_actions, dtype=np.int8)
        mask = self._masks.get(numbers)
        if mask is None:
            if len(self._masks) >= Numbering.LIMIT:
                self._masks.clear()
            mask = self._masks[numbers] = np.zeros(self.num_actions, dtype=np.int8)
            mask[list(numbers)] = 1
        return mask.copy()

    def observation(self, seat: int) -> Vector:
        return self.encoder.observe(self._state, seat)

    def action(self, seat: int, action_id: int) -> str:
        """The game's action string for ``seat`` choosing number ``action_id`` now."""
        index = int(action_id)
        if not 0 <= index < len(self.spec.actions):
            raise ValueError(f"{self.game.id}: action number {action_id} is outside 0..{len(self.spec.actions) - 1}")
        action = self.spec.actions[index]
        return f"{seat}:{action}" if isinstance(self._actor, frozenset) else action

    def act(self, seat: int, action_id: int) -> None:
        """Apply ``seat``'s numbered action (checked: an illegal one raises and changes nothing)."""
        self.apply(self.action(seat, action_id))

    def apply(self, action: str) -> None:
        """Apply an action in the game's notation (a bot's choice), then chance by the seed (``settle``)."""
        state = self._state.apply(action)
        actor = state.actor
        while actor == CHANCE:
            state = state.apply_chance()
            actor = state.actor
        self._settled(state, actor)
        self.decisions += 1

    def reward(self, seat: int) -> float:
        return seat_reward(self.state, seat, self.reward_kind)

    @property
    def observation_names(self) -> tuple[str, ...]:
        """A name for every slot of the observation vector (``ViewEncoder.names``)."""
        return self.encoder.names

    def board(self, seat: int | None) -> str:
        """The terminal board of ``seat``'s view (``None``: a spectator's), as ``slipstream play`` prints it
        but plain text (the game's ``board_text`` hook, its Rich markup dropped); the view as JSON for a
        game without that hook."""
        return board_text(self.state, seat)


def board_text(state: State, seat: int | None) -> str:
    """``state``'s terminal board for ``seat`` as plain text (see ``Table.board``)."""
    view = state.view(seat)
    hook = hooks_of(state.game).board_text
    if hook is None:
        return json.dumps(view, indent=1)
    return Text.from_markup(str(hook(view))).plain
