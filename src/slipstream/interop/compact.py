"""A compact, normalised observation: only the slots that change in one game configuration, each in [0, 1].

The full observation (``slipstream.interop.encoding``) has a slot for everything any configuration of the
game ever showed, unscaled: most slots never move in a given race (a six-seat list in a two-seat race,
another track's spaces), and numbers run to hundreds. ``observation="compact"`` keeps, for one loaded
game (its player count and options), the slots whose value changed across ``COMPACT_PLAYOUTS`` seeded
playouts of that configuration (random seats, and in one playout of three seats mixing the heuristic
bot, where the game has one, with the random one; every seat's view in turn), and scales each by the
range those playouts met, ``(value - lowest) / (highest - lowest)``, clipped to [0, 1]. A one-hot stays
a one-hot (its slots run from 0 to 1 already); the observer's seat one-hot keeps the seats that play.

The bounds are learned, not declared by the game, so a rare position can go beyond them: such a value is
clipped to 0 or 1 (never dropped silently: ``CompactEncoder.clipped`` counts it), and a slot that never
moved in the playouts is left out, so a rare position that moves it shows nothing there. The full
observation stays the default until each game declares its own schema and bounds.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import numpy as np

from slipstream.bots.registry import has_heuristic, make_bot
from slipstream.engine import CHANCE, Game, OptionError, State

from .declared import DeclaredEncoder, declares_observation
from .encoding import Vector, ViewEncoder
from .spec import GameSpec, acting_seat

JSON = Any
FULL = "full"
COMPACT = "compact"
DECLARED = "declared"
OBSERVATIONS = (FULL, COMPACT, DECLARED)

COMPACT_PLAYOUTS = 24
"""Seeded playouts of the configuration whose views set the compact observation's slots and ranges."""

_CACHE: dict[tuple[str, str, int, str, int, int], tuple[GameSpec, CompactEncoder]] = {}
"""Compact encoders by configuration and spec; each holds its spec, so the spec's ``id`` stays its own."""


class CompactEncoder:
    """The compact observation of one configuration (see the module docstring), read through the full
    encoder: ``encode(view, seat)`` gives a float32 vector in [0, 1] of length ``size``."""

    def __init__(self, full: ViewEncoder, lowest: Vector, highest: Vector) -> None:
        self.full = full
        self.keep = np.flatnonzero(highest > lowest)
        self.offset: Vector = lowest[self.keep].astype(np.float32)
        self.scale: Vector = (1.0 / (highest[self.keep] - lowest[self.keep])).astype(np.float32)
        self.names: tuple[str, ...] = tuple(full.names[i] for i in self.keep)
        """The name of each kept slot (the full observation's names)."""
        self.low: Vector = np.zeros(len(self.keep), np.float32)
        self.high: Vector = np.ones(len(self.keep), np.float32)
        self.clipped: Counter[str] = Counter()
        """How often each slot's value fell outside the range the playouts met (and was clipped)."""

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def unseen(self) -> Counter[str]:
        """View paths the full schema never met (``ViewEncoder.unseen``)."""
        return self.full.unseen

    def observe(self, state: State, seat: int) -> Vector:
        """``seat``'s observation of ``state`` (``encode`` of its view)."""
        return self.encode(state.view(seat), seat)

    def encode(self, view: JSON, seat: int) -> Vector:
        vector = self.full.encode(view, seat)[self.keep]
        vector -= self.offset
        vector *= self.scale
        outside = np.flatnonzero((vector < 0.0) | (vector > 1.0))
        if len(outside):
            self.clipped.update(self.names[i] for i in outside)
            np.clip(vector, 0.0, 1.0, out=vector)
        return vector


Encoder = ViewEncoder | CompactEncoder | DeclaredEncoder
"""Any of the three observations: each has ``names``, ``size``, ``low``, ``high`` and ``observe(state, seat)``."""


def default_observation(game: Game | type[Game]) -> str:
    """The bridges' default: the declared observation where the game declares one, else the full one."""
    return DECLARED if declares_observation(game) else FULL


def check_observation(game: Game, observation: str | None) -> str:
    """``observation`` if it is a known kind the game has (``None``: the game's default); an
    ``OptionError`` names the choices otherwise."""
    if observation is None:
        return default_observation(game)
    if observation not in OBSERVATIONS:
        raise OptionError(
            f"{game.id}: observation must be one of {', '.join(map(repr, OBSERVATIONS))}, not {observation!r}")
    if observation == DECLARED and not declares_observation(game):
        raise OptionError(f"{game.id} declares no observation: choose {FULL!r} or {COMPACT!r}")
    return observation


def make_encoder(game: Game, spec: GameSpec, observation: str) -> Encoder:
    """The encoder of a checked ``observation`` kind for ``game`` under ``spec`` (a fresh full encoder, the
    configuration's compact one, or the game's declared one)."""
    if observation == DECLARED:
        return DeclaredEncoder(game)
    if observation == COMPACT:
        return compact_encoder(game, spec)
    return spec.encoder()


def compact_encoder(game: Game, spec: GameSpec, playouts: int = COMPACT_PLAYOUTS) -> CompactEncoder:
    """The compact observation of ``game``'s configuration under ``spec`` (built once per configuration
    and kept: the same game, options and spec always give the same slots and ranges)."""
    key = (game.id, game.version, game.players, json.dumps(dict(game.options), sort_keys=True, default=str),
           id(spec), playouts)
    found = _CACHE.get(key)
    if found is None:
        lowest, highest = _ranges(game, spec.encoder(), playouts)
        found = _CACHE[key] = (spec, CompactEncoder(spec.encoder(), lowest, highest))
    return found[1]


def _ranges(game: Game, full: ViewEncoder, playouts: int) -> tuple[Vector, Vector]:
    """The lowest and highest value of every full slot over seeded playouts of ``game``."""
    lowest = np.full(full.size, np.inf, np.float32)
    highest = np.full(full.size, -np.inf, np.float32)
    players = game.players
    heuristic = has_heuristic(game.id)

    def see(vector: Vector) -> None:
        np.minimum(lowest, vector, out=lowest)
        np.maximum(highest, vector, out=highest)

    for number in range(playouts):
        rng = random.Random(number)
        bots = [make_bot("heuristic" if heuristic and (number + s) % 2 else "random", game.id, number * 8 + s)
                for s in range(players)]
        state = game.start(seed=number)
        while not state.is_over:
            if state.actor == CHANCE:
                state = state.apply_chance()
                continue
            observer = state.ply % players
            see(full.encode(state.view(observer), observer))
            seat = acting_seat(state)
            if seat is None:
                raise RuntimeError(f"{game.id}: no seat acts at ply {state.ply}")
            state = state.apply(bots[seat].choose(state, seat) if number % 3 == 1
                                else rng.choice(state.legal_actions(seat)))
        for seat in range(players):
            see(full.encode(state.view(seat), seat))
    return lowest, highest
