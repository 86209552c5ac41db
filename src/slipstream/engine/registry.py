"""The registry of games: each package under ``slipstream.games`` that defines ``GAME`` is found."""

from __future__ import annotations

import importlib
import pkgutil
import threading

from .errors import UnknownGameError
from .game import JSON, Game

_GAMES: dict[str, type[Game]] = {}
_discovered = False
_DISCOVERY = threading.RLock()


def register(cls: type[Game]) -> type[Game]:
    """Add a game class to the registry (usable as a class decorator)."""
    _GAMES[cls.id] = cls
    return cls


def _discover() -> None:
    """Import every game package once; under a lock, so a thread that asks while another imports waits
    for the whole list (the server loads games in threads)."""
    global _discovered
    if _discovered:
        return
    with _DISCOVERY:
        if _discovered:
            return
        import slipstream.games as pkg

        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            cls = getattr(module, "GAME", None)
            if isinstance(cls, type) and issubclass(cls, Game):
                register(cls)
        _discovered = True


def games() -> dict[str, type[Game]]:
    """Every registered game class by id, sorted by id."""
    _discover()
    return dict(sorted(_GAMES.items()))


def game_class(game_id: str) -> type[Game]:
    """The game class registered as ``game_id`` (looked up on every server message: no copy made)."""
    _discover()
    cls = _GAMES.get(game_id)
    if cls is None:
        raise UnknownGameError(game_id, list(games()))
    return cls


def load(game_id: str, players: int | None = None, **options: JSON) -> Game:
    """A game with its options checked: ``load("scrap-racer", players=4, track="A")``."""
    return game_class(game_id)(players=players, **options)
