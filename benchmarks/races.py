"""Complete random races per second on one core, for any registered game.

    python -m benchmarks.races GAME [--races N] [--players P] [--repeat K] [--option name=value ...]

Two paths: the public, checked contract (legal_actions + apply, chance sampled by the state's seed with
sample_chance) and the fast path (apply_unchecked with the same choices). Every decision is a uniformly
random legal action; at a simultaneous choice a random pending seat acts first (as in the conformance
suite). The machine is shared, so the figure is CPU time of this process (``time.process_time``), the two
paths take turns, and the best and the median of ``--repeat`` runs are shown. The build is named: the
compiled modules (``make``) or the pure-Python ones (``SLIPSTREAM_PURE=1``, see slipstream/_native.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import slipstream
from slipstream import _native
from slipstream.engine.game import CHANCE


def race(game: slipstream.Game, seed: int, checked: bool) -> int:
    """One complete random race; the number of actions applied."""
    rng = random.Random(seed)
    state = game.start(seed=seed)
    plies = 0
    while True:
        actor = state.actor
        if actor is None:
            return plies
        if actor == CHANCE:
            action = state.sample_chance()
        else:
            if isinstance(actor, frozenset):
                seats = sorted(actor)
                legal = state.legal_actions(seats[int(rng.random() * len(seats))])
            else:
                legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state = state.apply(action) if checked else state.apply_unchecked(action)
        plies += 1


def measure(game: slipstream.Game, races: int, checked: bool) -> tuple[float, float]:
    """(races, actions) per CPU second over ``races`` seeded random races."""
    start = time.process_time()
    plies = sum(race(game, seed, checked) for seed in range(races))
    elapsed = time.process_time() - start
    return races / elapsed, plies / elapsed


def main(argv: Sequence[str] | None = None, default_game: str | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    if default_game is None:
        parser.add_argument("game")
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3, help="runs per path; the best and the median are shown")
    parser.add_argument("--option", "-o", action="append", default=[], help="a game option name=value")
    args = parser.parse_args(argv)
    game_id = default_game or args.game
    options = dict(o.split("=", 1) for o in args.option)
    game = slipstream.load(game_id, players=args.players, **options)
    paths = (("public contract (apply)", True), ("fast path (apply_unchecked)", False))
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in paths}
    for _ in range(args.repeat):
        for label, checked in paths:
            runs[label].append(measure(game, args.races, checked))
    for label, results in runs.items():
        best = max(results)
        median = statistics.median(r[0] for r in results)
        print(f"{game_id} {args.players}p {label:28s}: best {best[0]:5.0f} races/s ({best[1]:7.0f} actions/s, "
              f"{1e6 / best[1]:5.2f} us/action), median {median:5.0f} races/s; CPU time, {args.repeat} runs "
              f"of {args.races}; build: {_native.mode}")


if __name__ == "__main__":
    main()
