"""The cost of one action through the public contract, as a ratio to a peer in the same run.

    python -m benchmarks.peer [GAME ...] [--seconds S] [--rounds K]

The machine is shared and noisy, so a figure in actions per second means little alone. The peer is
OpenSpiel's backgammon (C++, through ``pyspiel``, installed with the ``interop`` extra): random playouts
where each action is ``legal_actions`` + ``apply_action`` (chance outcomes sampled by weight). Our games
run random 4-player races through the public contract (``legal_actions`` + ``apply``, chance by
``sample_chance``), as ``benchmarks.races`` does. The two take turns for ``--rounds`` rounds of about
``--seconds`` CPU seconds each; the ratio printed is our microseconds per action over the peer's, from the
median of the rounds (below 1: our action is cheaper than the peer's).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import slipstream
from benchmarks.races import race
from slipstream import _native


def peer_actions(seconds: float, seed: int) -> tuple[int, float]:
    """(actions, CPU seconds) of random backgammon playouts through pyspiel for about ``seconds``."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            state.apply_action(action)
            actions += 1
    return actions, time.process_time() - start


def our_actions(game: slipstream.Game, seconds: float, seed: int) -> tuple[int, float]:
    """(actions, CPU seconds) of random races of ``game`` through the checked contract."""
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += race(game, seed, checked=True)
        seed += 1
    return actions, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    game_ids = args.games or list(slipstream.available_games())
    peer: list[float] = []
    ours: dict[str, list[float]] = {g: [] for g in game_ids}
    games = {g: slipstream.load(g, players=4) for g in game_ids}
    for k in range(args.rounds):  # interleaved, so load on the machine hits both alike
        count, elapsed = peer_actions(args.seconds, k)
        peer.append(elapsed / count * 1e6)
        for game_id, game in games.items():
            count, elapsed = our_actions(game, args.seconds, 1000 * k)
            ours[game_id].append(elapsed / count * 1e6)
    peer_us = statistics.median(peer)
    print(f"peer: OpenSpiel backgammon via pyspiel {peer_us:.2f} us/action (median of {args.rounds} rounds)")
    for game_id, values in ours.items():
        us = statistics.median(values)
        print(f"{game_id:16s} {us:6.2f} us/action  ratio to peer {us / peer_us:5.2f}  build: {_native.mode}")


if __name__ == "__main__":
    main()
