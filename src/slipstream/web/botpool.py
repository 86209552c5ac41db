"""Bots think in worker processes, so a slow search never holds the server's event loop (or its GIL).

A worker gets a match's record (game, options, seed, actions so far) and rebuilds the position by
replaying it, keeping the last position of each match so the next request only applies the new
actions. Bot objects live in the worker, one per match and seat. A bot is handed
``state.determinize(seat, rng)``, never the true position, so no bot can peek at hidden cards or at
the choices other seats have already made in a simultaneous choice.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from slipstream.bots.random_bot import RandomBot
from slipstream.bots.registry import make_bot
from slipstream.engine.game import State
from slipstream.engine.play import Agent
from slipstream.engine.registry import load

log = logging.getLogger("slipstream.web")

_positions: dict[str, State] = {}
_bots: dict[tuple[str, int, str], Agent] = {}
MAX_CACHED = 256


def _init(plugins: list[str]) -> None:
    for name in plugins:
        importlib.import_module(name)
    parent = os.getppid()
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """A worker outlives nothing: when the server dies (even by SIGKILL) its workers exit too."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _position(key: str, game_id: str, options: dict[str, Any], seed: int, actions: list[str]) -> State:
    state = _positions.get(key)
    if (
        state is None
        or state.ply > len(actions)
        or (state.ply and state.actions[-1] != actions[state.ply - 1])
    ):
        opts = dict(options)
        players = opts.pop("players", None)
        state = load(game_id, players=players, **opts).start(seed=seed)
    for action in actions[state.ply :]:
        state = state.apply(action)
    if len(_positions) >= MAX_CACHED and key not in _positions:
        _positions.pop(next(iter(_positions)))
    _positions[key] = state
    return state


def choose(
    key: str,
    game_id: str,
    options: dict[str, Any],
    seed: int,
    actions: list[str],
    seat: int,
    bot: str,
    bot_seed: int,
) -> str:
    """The bot's action for ``seat`` after ``actions`` (a random legal one if the bot fails)."""
    state = _position(key, game_id, options, seed, actions)
    agent = _bots.get((key, seat, bot))
    if agent is None:
        if len(_bots) >= 4 * MAX_CACHED:
            _bots.clear()
        agent = _bots[(key, seat, bot)] = make_bot(bot, game_id, seed=bot_seed)
    legal = state.legal_actions(seat)
    # a bot sees only what its seat may see: everything hidden from the seat is redrawn
    seen = state.determinize(seat, random.Random(bot_seed * 1_000_003 + state.ply))
    try:
        action = agent.choose(seen, seat)
        if action in legal:
            return action
        log.error("%s: bot %s chose illegal %r for seat %s", game_id, bot, action, seat)
    except Exception:
        log.exception("%s: bot %s failed for seat %s", game_id, bot, seat)
    return RandomBot(state.ply).choose(state, seat)


def kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now, killing its workers even in the middle of a move (no clean way exists)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def make_pool(workers: int, plugins: list[str]) -> ProcessPoolExecutor:
    """Worker processes started fresh (spawn), each importing the plugins that register games."""
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init, initargs=(plugins,)
    )
