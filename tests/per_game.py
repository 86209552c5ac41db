"""Tests run once per registered game: every game the registry finds, each test naming what it needs.

A game must follow the engine contract; everything else is optional (``docs/adding-a-game.md``, "What is
required, what is optional"). A per-game test that exercises an optional hook or a shipped file takes its
games from here, and a game without that hook is skipped with the reason, never failed::

    @pytest.mark.parametrize("game_id", games_with("action_space"))
    def test_...(game_id: str) -> None: ...

Player counts come from the game (``players_near``): a 2-player game is never asked for 3 seats.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from slipstream.engine import hooks_of, registry
from slipstream.engine.hooks import GameHooks
from slipstream.interop.spec import SHIPPED

HOOKS = frozenset(field.name for field in fields(GameHooks))
"""The optional hooks a game may declare (the fields of ``GameHooks``)."""

SHIPPED_SPEC = "shipped interop spec"
"""Needed by a test that reads the game's shipped spec (``src/slipstream/interop/specs/<id>.json``)."""


def game_ids() -> list[str]:
    """Every registered game's id, sorted."""
    return sorted(registry.games())


def missing(game_id: str, needs: tuple[str, ...]) -> list[str]:
    """What of ``needs`` (hook names, or ``SHIPPED_SPEC``) the game lacks."""
    declared = hooks_of(registry.game_class(game_id))
    lacking = []
    for need in needs:
        if need == SHIPPED_SPEC:
            if not (SHIPPED / f"{game_id}.json").exists():
                lacking.append(need)
        elif need not in HOOKS:
            raise ValueError(f"no optional hook {need!r}: the hooks are {', '.join(sorted(HOOKS))}")
        elif getattr(declared, need) is None:
            lacking.append(f"hook {need}")
    return lacking


def games_with(*needs: str) -> list[Any]:
    """Every registered game as a test parameter; one lacking any of ``needs`` (optional hooks by their
    ``GameHooks`` name, or ``SHIPPED_SPEC``) is skipped, the reason naming what it lacks."""
    params = []
    for game_id in game_ids():
        lacking = missing(game_id, needs)
        marks = [pytest.mark.skip(reason=f"{game_id} declares no {' or '.join(lacking)} (optional)")] if lacking else []
        params.append(pytest.param(game_id, marks=marks, id=game_id))
    return params


def players_near(game_id: str, wanted: int) -> int:
    """``wanted`` seats if the game takes them, else the nearest count it takes."""
    cls = registry.game_class(game_id)
    return min(max(wanted, cls.min_players), cls.max_players)
