"""The registry of games: each package under ``slipstream.games`` that defines ``GAME`` is found."""

from __future__ import annotations

import importlib
import pkgutil

from .errors import UnknownGameError
from .game import JSON, Game

_GAMES: dict[str, type[Game]] = {}
_discovered = False


def register(cls: type[Game]) -> type[Game]:
    """Add a game class to the registry (usable as a class decorator)."""
    _GAMES[cls.id] = cls
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import slipstream.games as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{pkg.__name__}.{info.name}")
        cls = getattr(module, "GAME", None)
        if isinstance(cls, type) and issubclass(cls, Game):
            register(cls)


def games() -> dict[str, type[Game]]:
    """Every registered game class by id, sorted by id."""
    _discover()
    return dict(sorted(_GAMES.items()))


def game_class(game_id: str) -> type[Game]:
    known = games()
    if game_id not in known:
        raise UnknownGameError(game_id, list(known))
    return known[game_id]


def load(game_id: str, players: int | None = None, **options: JSON) -> Game:
    """A game with its options checked: ``load("scrap-racer", players=4, track="A")``."""
    return game_class(game_id)(players=players, **options)
