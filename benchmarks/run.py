"""``make bench``: complete random 4-player races per second for every registered game, both paths.

    python -m benchmarks.run [--races N] [--repeat K]

Each game as ``python -m benchmarks.races GAME`` reports it, then the cost of one action as a ratio to
OpenSpiel's backgammon in the same run (``benchmarks.peer``); the other benchmarks (simulator, MCTS, web,
the AI bridges) take longer and are run on their own (see their docstrings).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import slipstream
from benchmarks import peer, races


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    for game_id in slipstream.available_games():
        races.main([game_id, "--races", str(args.races), "--repeat", str(args.repeat)])
    peer.main(["--rounds", str(args.repeat)])


if __name__ == "__main__":
    main()
