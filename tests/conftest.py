"""Shared fixtures: the registered games and the configurations the conformance suite runs."""

from __future__ import annotations

from typing import Any

import slipstream
from slipstream.engine.game import EventCache

EventCache.verify = True  # a cached event whose key misses an input fails the test that meets it


def conformance_configs() -> list[tuple[str, int, dict[str, Any]]]:
    """(game id, players, options) for every registered game.

    A game may list extra configurations in ``conformance_options`` (a tuple of (players, options)).
    """
    out: list[tuple[str, int, dict[str, Any]]] = []
    for gid, cls in slipstream.available_games().items():
        configs = {(cls.min_players, ()), (cls.default_players, ()), (cls.max_players, ())}
        for players, options in cls.conformance_options:
            configs.add((players, tuple(sorted(options.items()))))
        for players, options in sorted(configs, key=repr):
            out.append((gid, players, dict(options)))
    return out
