"""Bots by name.

- ``random`` plays every game;
- ``heuristic`` (alias ``greedy``) is each game's own bot, the ``heuristic_bot`` its ``Game`` declares
  in ``hooks()`` (``slipstream.engine.hooks``);
- ``mcts`` is the generic tree search (``slipstream.bots.mcts``); its strength is set in the name:
  ``mcts`` (the default: decides within one second), ``mcts:400`` (400 playouts a move, reproducible),
  ``mcts:0.5s`` (half a second a move), ``mcts:400:2s`` (400 playouts, at most two seconds); add ``:h``
  (``mcts:200:h``) to play out with the game's heuristic bot and keep its move unless the search finds a
  clearly better one. The default search is guided by the game's heuristic bot where it has one (see
  ``slipstream.bots.mcts``); add ``:uct`` (``mcts:400:uct``) for the plain tree search with random
  playouts.

Other modules may add names with ``register_bot``.
"""

from __future__ import annotations

from collections.abc import Callable

from slipstream.engine.errors import SlipstreamError, UnknownGameError
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import Agent
from slipstream.engine.registry import game_class

from .mcts import SIMULATION_PLAYOUTS, MCTSBot
from .random_bot import RandomBot

BotFactory = Callable[[str, int], Agent]
"""``factory(game_id, seed) -> agent``."""

_FACTORIES: dict[str, BotFactory] = {"random": lambda game_id, seed: RandomBot(seed)}
ALIASES = {"greedy": "heuristic"}
PARAMETRIC = ("mcts",)
"""Names that take a strength after a colon."""


class UnknownBotError(SlipstreamError):
    code = "unknown_bot"


def register_bot(name: str, factory: BotFactory) -> None:
    _FACTORIES[name] = factory


def _heuristic(game_id: str, seed: int) -> Agent:
    factory = hooks_of(game_class(game_id)).heuristic_bot
    if factory is None:
        known = ", ".join(bot_names(game_id))
        raise UnknownBotError(f"{game_id} has no heuristic bot yet; the bots are: {known}")
    bot: Agent = factory(seed)
    return bot


def has_heuristic(game_id: str) -> bool:
    try:
        return hooks_of(game_class(game_id)).heuristic_bot is not None
    except UnknownGameError:
        return False


def bot_names(game_id: str | None = None) -> list[str]:
    """The bot names available (for ``game_id``, only those that play it)."""
    names = set(_FACTORIES) | set(PARAMETRIC)
    if game_id is None or has_heuristic(game_id):
        names |= {"heuristic", "greedy"}
    return sorted(names)


def parse_mcts(spec: str) -> tuple[int | None, float | None, bool]:
    """``"mcts"``, ``"mcts:400"``, ``"mcts:0.5s"``, ``"mcts:400:2s"``, ``"mcts:400:h"`` ->
    ``(playouts, seconds, heuristic rollouts)``.

    ``(None, None, False)`` (plain ``mcts``) means the default strength with random playouts.
    """
    parts = spec.split(":")[1:]
    playouts: int | None = None
    seconds: float | None = None
    heuristic = False
    for part in parts:
        try:
            if part == "h":
                if heuristic:
                    raise ValueError
                heuristic = True
            elif part.endswith("s"):
                if seconds is not None:
                    raise ValueError
                seconds = float(part[:-1])
                if not seconds > 0:
                    raise ValueError
            else:
                if playouts is not None:
                    raise ValueError
                playouts = int(part)
                if playouts < 1:
                    raise ValueError
        except ValueError:
            raise UnknownBotError(
                f"bad mcts strength {spec!r}: write mcts, mcts:PLAYOUTS (e.g. mcts:400), mcts:SECONDSs "
                "(e.g. mcts:0.5s) or mcts:PLAYOUTS:SECONDSs, and add :h for the game's heuristic bot "
                "in the playouts (e.g. mcts:200:h) or :uct for the plain tree search (e.g. mcts:400:uct)"
            ) from None
    return playouts, seconds, heuristic


def check_bot(name: str, game_id: str) -> None:
    """Raise ``UnknownBotError`` (listing the bots) unless ``name`` plays ``game_id``."""
    make_bot(name, game_id, 0)


def make_bot(name: str, game_id: str, seed: int = 0, simulation: bool = False) -> Agent:
    """A bot by name for a game: ``make_bot("heuristic", "scrap-racer", seed=3)``.

    ``simulation``: plain ``mcts`` gets the simulation budget (``SIMULATION_PLAYOUTS`` rollouts, no clock,
    so a run is reproducible and thousands of races take minutes, not hours) instead of the interactive
    default (at most ``DEFAULT_PLAYOUTS``, stopped at one second).
    """
    base = name.split(":", 1)[0]
    if base in PARAMETRIC:
        parts = name.split(":")
        uct = parts.count("uct") == 1
        if uct:
            parts.remove("uct")
        playouts, seconds, heuristic = parse_mcts(":".join(parts))
        if simulation and playouts is None and seconds is None:
            playouts = SIMULATION_PLAYOUTS
        return MCTSBot(seed, playouts=playouts, seconds=seconds, heuristic_rollouts=heuristic, guided=not uct)
    key = ALIASES.get(name, name)
    if key == "heuristic":
        return _heuristic(game_id, seed)
    if key not in _FACTORIES:
        raise UnknownBotError(f"unknown bot {name!r}; the bots are: {', '.join(bot_names(game_id))}")
    return _FACTORIES[key](game_id, seed)
