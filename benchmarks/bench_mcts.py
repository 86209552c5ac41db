"""MCTS speed per registered game: playouts per second, and how long the default bot takes a decision.

    .venv/bin/python -m benchmarks.bench_mcts [--seconds S] [GAME ...]

For each game, a race is played with random bots and the MCTS bot searches at decisions sampled along the
way (only decisions with more than one legal action); the figures are totals over those searches.
"""

from __future__ import annotations

import argparse
import random
import time

import slipstream
from slipstream.bots.mcts import MCTSBot
from slipstream.engine import registry
from slipstream.engine.game import State
from slipstream.engine.play import play


def decision_points(game_id: str, count: int, seed: int = 1) -> list[tuple[State, int]]:
    """Up to ``count`` states spread over a random race where the actor has a real choice."""
    rng = random.Random(seed)
    game = slipstream.load(game_id)
    found: list[tuple[State, int]] = []

    class Collector:
        """Plays at random, keeping each position where the seat has a real choice."""

        def choose(self, state: State, seat: int) -> str:
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                found.append((state, seat))
            return rng.choice(legal)

    play(game.start(seed=seed), [Collector()] * game.players)
    step = max(1, len(found) // count)
    return found[::step][:count]


def bench(game_id: str, seconds: float) -> dict[str, float]:
    points = decision_points(game_id, 12)
    bot = MCTSBot(0, playouts=None, seconds=seconds / max(1, len(points)))
    start = time.perf_counter()
    for state, seat in points:
        bot.choose(state, seat)
    elapsed = time.perf_counter() - start
    default = MCTSBot(0)
    t0 = time.perf_counter()
    for state, seat in points[:4]:
        default.choose(state, seat)
    per_default = (time.perf_counter() - t0) / max(1, min(4, len(points)))
    return {"decisions": len(points), "playouts_per_s": bot.total_playouts / elapsed,
            "default_s_per_decision": per_default, "default_capped": default.capped_moves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--seconds", type=float, default=6.0, help="search time per game")
    args = parser.parse_args()
    ids = args.games or list(registry.games())
    print(f"{'game':16} {'decisions':>9} {'playouts/s':>11} {'default s/decision':>19} {'capped':>6}")
    for gid in ids:
        r = bench(gid, args.seconds)
        print(f"{gid:16} {r['decisions']:9.0f} {r['playouts_per_s']:11.1f} {r['default_s_per_decision']:19.3f}"
              f" {r['default_capped']:6.0f}")


if __name__ == "__main__":
    main()
