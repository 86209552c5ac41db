"""One match as every bridge drives it: numbered actions in, masks and observation vectors out."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.text import Text

from slipstream.engine import OptionError, State, hooks_of, load

from .compact import Encoder, check_observation, make_encoder
from .encoding import Vector
from .spec import (
    WIN,
    GameSpec,
    acting_seat,
    check_reward,
    game_action,
    seat_actions,
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
        self.state: State = settle(self.game.start(seed=0))
        self.decisions = 0
        """Seat decisions applied since the last reset."""

    @property
    def num_actions(self) -> int:
        return len(self.spec.actions)

    def reset(self, seed: int) -> None:
        self.state = settle(self.game.start(seed=seed))
        self.decisions = 0

    @property
    def seat(self) -> int | None:
        return acting_seat(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal_ids(self, seat: int) -> list[int]:
        """The numbers of ``seat``'s legal actions (empty unless it decides now)."""
        if acting_seat(self.state) != seat and not (
            isinstance(self.state.actor, frozenset) and seat in self.state.actor
        ):
            return []
        action_id = self.spec.action_id
        return [action_id(a) for a in seat_actions(self.state, seat)]

    def mask(self, seat: int) -> Mask:
        out = np.zeros(len(self.spec.actions), dtype=np.int8)
        out[self.legal_ids(seat)] = 1
        return out

    def observation(self, seat: int) -> Vector:
        return self.encoder.observe(self.state, seat)

    def action(self, seat: int, action_id: int) -> str:
        """The game's action string for ``seat`` choosing number ``action_id`` now."""
        index = int(action_id)
        if not 0 <= index < len(self.spec.actions):
            raise ValueError(f"{self.game.id}: action number {action_id} is outside 0..{len(self.spec.actions) - 1}")
        return game_action(self.state, seat, self.spec.actions[index])

    def act(self, seat: int, action_id: int) -> None:
        """Apply ``seat``'s numbered action (checked: an illegal one raises and changes nothing)."""
        self.state = settle(self.state.apply(self.action(seat, action_id)))
        self.decisions += 1

    def apply(self, action: str) -> None:
        """Apply an action in the game's notation (a bot's choice)."""
        self.state = settle(self.state.apply(action))
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
