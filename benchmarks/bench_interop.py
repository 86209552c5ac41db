"""Steps per second through each AI bridge, beside the public contract, in the same run.

    .venv/bin/python -m benchmarks.bench_interop [GAME ...] [--players N] [--seconds S] [--observation KIND]

A step is one seat decision, random among the legal ones, with the chance nodes after it resolved
(each is counted in the time, not as a step). Each figure is CPU time over about ``--seconds``:

- ``contract``: ``legal_actions`` + ``apply`` on the engine state, chance by ``apply_chance``: the floor;
- ``pettingzoo``: the AEC environment, ``last()`` (observation vector and action mask) + ``step``;
- ``gymnasium``: one seat against random bots, ``step`` (the bots' decisions count as steps too, as they
  are decisions made inside the step; the learner's observation and mask are built once per step);
- ``openspiel``: ``legal_actions`` + ``apply_action`` on the pyspiel state, chance outcomes sampled by
  weight, no observation (as OpenSpiel's own random playouts do); ``+obs`` adds ``observation_tensor``
  for the seat that acts.

The ratio is the bridge's cost per step over the contract's: what the numbering and the observation
encoding cost on top of the engine. Every runner picks its random action the same way
(``random.Random``, the legal numbers read from the mask with ``nonzero``), so the picking costs each
bridge what it costs the contract. ``--observation`` picks the bridges' observation (``declared``,
``full`` or ``compact``); by default each game's own default (declared where the game declares one).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import cast

import gymnasium
import pyspiel  # type: ignore[import-not-found]

import slipstream
from slipstream.interop.gymnasium import SlipstreamEnv  # importing it registers the environments
from slipstream.interop.openspiel import register
from slipstream.interop.pettingzoo import env as aec_env
from slipstream.interop.spec import acting_seat, library_name, settle

Runner = Callable[[int], int]
"""Plays one game from a seed, returns its decision steps."""


def contract(game_id: str, players: int) -> Runner:
    game = slipstream.load(game_id, players=players)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = settle(game.start(seed=seed))
        steps = 0
        while not state.is_over:
            seat = acting_seat(state)
            legal = state.legal_actions(seat)
            state = settle(state.apply(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps

    return run


def pettingzoo(game_id: str, players: int, observation: str | None) -> Runner:
    aec = aec_env(game_id, players=players, observation=observation)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        aec.reset(seed=seed)
        steps = 0
        for _ in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            aec.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps

    return run


def gym(game_id: str, players: int, observation: str | None) -> Runner:
    env = cast(SlipstreamEnv, gymnasium.make(f"slipstream/{game_id}-v0", players=players, opponents="random",
                                             observation=observation).unwrapped)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, terminated, truncated, info = env.step(int(legal[int(rng.random() * len(legal))]))
            done = terminated or truncated
        decisions: int = env.table.decisions
        return decisions

    return run


def openspiel(game_id: str, players: int, observe: bool, observation: str | None = None) -> Runner:
    params: dict[str, int | str] = {"players": players}
    if observation is not None:
        params["observation"] = observation
    game = pyspiel.load_game(library_name(game_id), params)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            if observe:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        return steps

    return run


def measure(runner: Runner, seconds: float) -> float:
    """Decision steps per CPU second over whole games for about ``seconds``."""
    steps, seed = 0, 1
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += runner(seed)
        seed += 1
    return steps / (time.process_time() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--observation", choices=("declared", "full", "compact"), default=None)
    args = parser.parse_args(argv)
    register()
    games = args.games or sorted(slipstream.available_games())
    kind = args.observation or "each game's default"
    print(f"decision steps per CPU second, {args.players} players, random play ({args.seconds:g} s each), "
          f"observation: {kind}")
    print(f"{'game':16} {'bridge':12} {'steps/s':>9} {'cost x':>7}")
    for game_id in games:
        runners: list[tuple[str, Runner]] = [
            ("contract", contract(game_id, args.players)),
            ("pettingzoo", pettingzoo(game_id, args.players, args.observation)),
            ("gymnasium", gym(game_id, args.players, args.observation)),
            ("openspiel", openspiel(game_id, args.players, observe=False)),
            ("openspiel+obs", openspiel(game_id, args.players, observe=True, observation=args.observation)),
        ]
        base = 0.0
        for name, runner in runners:
            rate = measure(runner, args.seconds)
            base = base or rate
            print(f"{game_id:16} {name:12} {rate:9.0f} {base / rate:7.2f}")


if __name__ == "__main__":
    main()
