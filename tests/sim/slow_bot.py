"""A bot for the runner tests: random and a little slow, and it notes in a file each race it starts.

``install()`` registers it as ``counted`` (a setup entry, so worker processes register it too); the file
is the one named by the environment variable ``SLIPSTREAM_TEST_STARTED``.
"""

from __future__ import annotations

import os
import time

from slipstream.bots import registry
from slipstream.bots.random_bot import RandomBot
from slipstream.engine.game import State

STARTED_ENV = "SLIPSTREAM_TEST_STARTED"


class CountedBot(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        path = os.environ.get(STARTED_ENV)
        if path:
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(f"{seed}\n")

    def choose(self, state: State, seat: int) -> str:
        time.sleep(0.002)
        return super().choose(state, seat)


def install() -> None:
    registry.register_bot("counted", lambda game_id, seed: CountedBot(seed))
