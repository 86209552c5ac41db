"""Bots by name. ``random`` plays every game; ``heuristic`` (alias ``greedy``) is each game's own
bot, found as ``HeuristicBot`` in ``slipstream.bots.<game package>`` (``scrap-racer`` ->
``slipstream.bots.scrap_racer``). Other modules may add names with ``register_bot``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from slipstream.engine.errors import SlipstreamError
from slipstream.engine.play import Agent

from .random_bot import RandomBot

BotFactory = Callable[[str, int], Agent]
"""``factory(game_id, seed) -> agent``."""

_FACTORIES: dict[str, BotFactory] = {"random": lambda game_id, seed: RandomBot(seed)}
ALIASES = {"greedy": "heuristic"}


class UnknownBotError(SlipstreamError):
    code = "unknown_bot"


def register_bot(name: str, factory: BotFactory) -> None:
    _FACTORIES[name] = factory


def _heuristic(game_id: str, seed: int) -> Agent:
    module_name = f"slipstream.bots.{game_id.replace('-', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        raise UnknownBotError(f"{game_id} has no heuristic bot yet; bots: {', '.join(bot_names(game_id))}") from None
    cls = module.HeuristicBot
    bot: Agent = cls(seed)
    return bot


def has_heuristic(game_id: str) -> bool:
    try:
        importlib.import_module(f"slipstream.bots.{game_id.replace('-', '_')}")
    except ModuleNotFoundError:
        return False
    return True


def bot_names(game_id: str | None = None) -> list[str]:
    """The bot names available (for ``game_id``, only those that play it)."""
    names = set(_FACTORIES)
    if game_id is None or has_heuristic(game_id):
        names |= {"heuristic", "greedy"}
    return sorted(names)


def make_bot(name: str, game_id: str, seed: int = 0) -> Agent:
    """A bot by name for a game: ``make_bot("heuristic", "scrap-racer", seed=3)``."""
    key = ALIASES.get(name, name)
    if key == "heuristic":
        return _heuristic(game_id, seed)
    if key not in _FACTORIES:
        raise UnknownBotError(f"unknown bot {name!r}; the bots are: {', '.join(bot_names(game_id))}")
    return _FACTORIES[key](game_id, seed)
