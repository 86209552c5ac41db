"""Train a small tabular agent on two-player BRC Grand Prix through the Gymnasium bridge, then measure it.

    PYTHONPATH=src .venv/bin/python scripts/train_tabular.py [--episodes 20000] [--eval 1000] [--seed 0]

The agent is Monte Carlo control over a small table: its state is a handful of features read from the
observation vector by slot name (``env.unwrapped.table.encoder.names``), so it sees exactly what the
seat's view shows; its actions are the legal ones of the action mask. It learns from the +1/-1 at the end
of each race (every-visit Monte Carlo, an incremental mean per (state, action), epsilon-greedy
exploration that decays to 0.02), half its races against the random bot and half against the heuristic
bot, in both seats.

Then it plays ``--eval`` races greedily against each bot (half in each seat, seeds unseen in training),
beside the random policy and the game's heuristic bot in the same seats and seeds, and prints the win
rates with 95% intervals and the training time (docs/interop.md quotes a run).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, cast

import gymnasium
import numpy as np

from slipstream.bots.registry import make_bot
from slipstream.interop.gymnasium import SlipstreamEnv  # importing it registers the environments
from slipstream.interop.table import Table

GAME = "brc-grand-prix"
Key = tuple[object, ...]


class Features:
    """The table's state: a few of the observation's slots, looked up once by name."""

    def __init__(self, names: tuple[str, ...], seat: int) -> None:
        index = {name: i for i, name in enumerate(names)}
        me, other = f"/cars/{seat}", f"/cars/{1 - seat}"

        def group(prefix: str) -> list[tuple[str, int]]:
            return [(n[len(prefix):], i) for n, i in index.items() if n.startswith(prefix)]

        self.weather = group("/weather=")
        self.tyre = group(f"{me}/tyre=")
        self.drs = [i for n, i in index.items() if n.startswith(f"{me}/perks/") and n.endswith("=drs")]
        self.lap = index[f"{me}/lap"]
        self.stops = index[f"{me}/window_stops"]
        self.position = index[f"{me}/position"]
        self.dist, self.other_dist = index[f"{me}/dist"], index[f"{other}/dist"]

    def key(self, obs: np.ndarray, mask: np.ndarray) -> Key:
        def one_hot(slots: list[tuple[str, int]]) -> str:
            return next((name for name, i in slots if obs[i] > 0), "-")

        gap = float(obs[self.dist] - obs[self.other_dist])
        return (
            tuple(np.flatnonzero(mask)),
            one_hot(self.weather),
            one_hot(self.tyre),
            int(obs[self.lap]),
            min(int(obs[self.stops]), 1),
            int(obs[self.position]),
            int(np.digitize(gap, [-10, -3, 3, 10])),
            any(obs[i] > 0 for i in self.drs),
        )


class TabularAgent:
    def __init__(self, seed: int) -> None:
        self.value: dict[Key, dict[int, float]] = defaultdict(dict)
        self.count: dict[Key, dict[int, int]] = defaultdict(dict)
        self.rng = random.Random(seed)

    def act(self, key: Key, legal: list[int], epsilon: float) -> int:
        if self.rng.random() < epsilon:
            return self.rng.choice(legal)
        values = self.value[key]
        best = max(values.get(a, 0.0) for a in legal)
        return self.rng.choice([a for a in legal if values.get(a, 0.0) == best])

    def learn(self, visits: list[tuple[Key, int]], reward: float) -> None:
        for key, action in visits:
            n = self.count[key].get(action, 0) + 1
            self.count[key][action] = n
            old = self.value[key].get(action, 0.0)
            self.value[key][action] = old + (reward - old) / n


Env = gymnasium.Env[Any, Any]


def make_env(opponent: str, seat: int) -> Env:
    return gymnasium.make(f"slipstream/{GAME}-v0", players=2, seat=seat, opponents=opponent, observation="full")


def table_of(env: Env) -> Table:
    """The bridge's match (its encoder names the observation's slots)."""
    return cast(SlipstreamEnv, env.unwrapped).table


def play(env: Env, seed: int, choose: Callable[[np.ndarray, np.ndarray], int]) -> float:
    obs, info = env.reset(seed=seed)
    while True:
        obs, reward, terminated, truncated, info = env.step(choose(obs, info["action_mask"]))
        if terminated or truncated:
            return float(reward)


def train(agent: TabularAgent, episodes: int, seed: int) -> None:
    envs = {(o, s): make_env(o, s) for o in ("random", "heuristic") for s in (0, 1)}
    features = {s: Features(table_of(envs[("random", s)]).encoder.names, s) for s in (0, 1)}
    for episode in range(episodes):
        opponent, seat = ("random", "heuristic")[episode % 2], (episode // 2) % 2
        epsilon = max(0.02, 0.3 * (1 - episode / (0.8 * episodes)))
        visits: list[tuple[Key, int]] = []

        def choose(obs: np.ndarray, mask: np.ndarray, seat: int = seat, visits: list[tuple[Key, int]] = visits,
                   epsilon: float = epsilon) -> int:
            key = features[seat].key(obs, mask)
            action = agent.act(key, [int(a) for a in np.flatnonzero(mask)], epsilon)
            visits.append((key, action))
            return action

        agent.learn(visits, play(envs[(opponent, seat)], seed + episode, choose))


def evaluate(agent: TabularAgent | str, opponent: str, races: int, seed: int) -> float:
    """The win rate of ``agent`` (the table, or a bot name) against ``opponent`` over ``races``."""
    envs = [make_env(opponent, seat) for seat in (0, 1)]
    features = [Features(table_of(env).encoder.names, seat) for seat, env in enumerate(envs)]
    wins = 0
    for race in range(races):
        seat = race % 2
        table = table_of(envs[seat])
        bot = None if isinstance(agent, TabularAgent) else make_bot(agent, GAME, seed + race)

        def choose(obs: np.ndarray, mask: np.ndarray, seat: int = seat, table: Any = table, bot: Any = bot) -> int:
            if bot is None:
                assert isinstance(agent, TabularAgent)
                return agent.act(features[seat].key(obs, mask), [int(a) for a in np.flatnonzero(mask)], 0.0)
            state = table.state
            action: str = bot.choose(state, seat)
            if isinstance(state.actor, frozenset):
                action = action.split(":", 1)[1]
            return int(table.spec.action_id(action))

        wins += play(envs[seat], seed + race, choose) > 0
    return wins / races


def interval(p: float, n: int) -> float:
    return 1.96 * math.sqrt(p * (1 - p) / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--eval", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    agent = TabularAgent(args.seed)
    started = time.perf_counter()
    cpu = time.process_time()
    train(agent, args.episodes, seed=args.seed * 1_000_000)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    entries = sum(len(v) for v in agent.value.values())
    print(f"trained on {args.episodes} races in {wall:.0f} s ({cpu:.0f} s CPU): "
          f"{len(agent.value)} states, {entries} state-action values")
    eval_seed = 10**9 + args.seed
    print(f"{'player':10} {'vs random':>16} {'vs heuristic':>16}   ({args.eval} races each, half in each seat)")
    for name, player in (("tabular", agent), ("random", "random"), ("heuristic", "heuristic")):
        rates = [evaluate(player, opponent, args.eval, eval_seed) for opponent in ("random", "heuristic")]
        shown = [f"{r:.3f} +- {interval(r, args.eval):.3f}" for r in rates]
        print(f"{name:10} {shown[0]:>16} {shown[1]:>16}")


if __name__ == "__main__":
    main()
