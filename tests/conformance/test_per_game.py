"""The per-game parametrisation (``tests/per_game.py``): a game lacking an optional hook is skipped with
the reason, a misspelt hook is an error, and player counts stay within the game's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from slipstream.engine import registry
from tests import toygame
from tests.per_game import SHIPPED_SPEC, games_with, missing, players_near


@pytest.fixture
def toy() -> Iterator[str]:
    toygame.install()
    try:
        yield toygame.ToyDash.id
    finally:
        toygame.uninstall()


def test_a_game_without_a_hook_is_skipped_naming_it(toy: str) -> None:
    """Toy Dash declares a heuristic bot and race metrics but no action space, board or shipped spec."""
    params = {param.values[0]: param for param in games_with("heuristic_bot", "action_space")}
    assert set(params) == set(registry.games())
    (mark,) = params[toy].marks
    assert mark.name == "skip" and mark.kwargs["reason"] == "toy-dash declares no hook action_space (optional)"
    assert missing(toy, ("heuristic_bot", "race_metrics")) == []
    assert missing(toy, ("web_board", SHIPPED_SPEC)) == ["hook web_board", SHIPPED_SPEC]
    assert not params["rev-it-up"].marks, "Rev it Up declares both"


def test_a_misspelt_hook_is_an_error() -> None:
    with pytest.raises(ValueError, match="no optional hook 'action_spaces'"):
        games_with("action_spaces")


def test_player_counts_stay_within_the_games(toy: str) -> None:
    low, high = registry.game_class(toy).min_players, registry.game_class(toy).max_players
    assert players_near(toy, 1) == low and players_near(toy, 99) == high
    assert players_near("scrap-racer", 3) == 3 and players_near("highway-heist", 6) == 4
