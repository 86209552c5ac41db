"""Bots by name: random, each game's heuristic (alias greedy) and mcts with its strength."""

from __future__ import annotations

import pytest

from slipstream.bots.mcts import DEFAULT_PLAYOUTS, MCTSBot
from slipstream.bots.random_bot import RandomBot
from slipstream.bots.registry import UnknownBotError, bot_names, check_bot, make_bot, parse_mcts
from tests import toygame
from tests.toygame import HeuristicBot


def test_names_for_a_game_with_a_heuristic_bot(toy: str) -> None:
    assert bot_names(toy) == ["greedy", "heuristic", "mcts", "random"]
    assert isinstance(make_bot("greedy", toy, 1), HeuristicBot)
    assert isinstance(make_bot("heuristic", toy, 1), HeuristicBot)
    assert isinstance(make_bot("random", toy, 1), RandomBot)


def test_a_game_without_a_heuristic_bot_lists_what_it_has(toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Toy Dash declaring no heuristic bot."""
    toygame.use_hooks(monkeypatch, heuristic_bot=None)
    assert bot_names(toy) == ["mcts", "random"]
    with pytest.raises(UnknownBotError, match="no heuristic bot yet; the bots are: mcts, random"):
        make_bot("greedy", toy)


@pytest.mark.parametrize(
    ("name", "playouts", "seconds"),
    [("mcts", DEFAULT_PLAYOUTS, 1.0), ("mcts:400", 400, None), ("mcts:0.5s", None, 0.5),
     ("mcts:400:2s", 400, 2.0), ("mcts:2s:400", 400, 2.0)],
)
def test_mcts_strength_in_the_name(name: str, playouts: int | None, seconds: float | None) -> None:
    bot = make_bot(name, "any-game", 3)
    assert isinstance(bot, MCTSBot)
    assert (bot.playouts, bot.seconds) == (playouts, seconds)


@pytest.mark.parametrize(
    "name", ["mcts:", "mcts:0", "mcts:-3", "mcts:xs", "mcts:0s", "mcts:1:2", "mcts:1s:2s", "mcts:h:h"])
def test_bad_mcts_strength_is_refused_with_the_forms(name: str) -> None:
    with pytest.raises(UnknownBotError, match="mcts:PLAYOUTS"):
        check_bot(name, "any-game")


def test_unknown_bot_lists_the_bots(toy: str) -> None:
    with pytest.raises(UnknownBotError, match="unknown bot 'wizard'; the bots are: greedy, heuristic, mcts"):
        make_bot("wizard", toy)
    assert parse_mcts("mcts") == (None, None, False)
    assert parse_mcts("mcts:50:h") == (50, None, True)


def test_the_default_search_is_guided_and_uct_names_the_plain_tree_search() -> None:
    """``mcts`` searches around the game's heuristic move; ``:uct`` asks for the tree search alone."""
    default = make_bot("mcts", "any-game", 1)
    plain = make_bot("mcts:400:uct", "any-game", 1)
    assert isinstance(default, MCTSBot) and isinstance(plain, MCTSBot)
    assert default.guided and not plain.guided
    assert (plain.playouts, plain.seconds) == (400, None)
    with pytest.raises(UnknownBotError, match=":uct"):
        check_bot("mcts:uct:uct", "any-game")
