"""Notation: every action string reads into a typed value and writes back unchanged (notation.py)."""

from __future__ import annotations

import random

import pytest

from slipstream.engine.hooks import hooks_of
from slipstream.games.brc_grand_prix import BRCGrandPrix, notation
from slipstream.games.brc_grand_prix.bot import HeuristicBot
from slipstream.games.brc_grand_prix.rules import HARD, SOFT, WET


@pytest.mark.parametrize("options", [{}, {"sprint": True, "laps": 3}, {"grid": "qualifying", "laps": 3}])
def test_every_legal_action_reads_and_writes_back(options: dict[str, object]) -> None:
    game = BRCGrandPrix(players=3, **options)
    rng = random.Random(5)
    seen: set[str] = set()
    for seed in range(10):
        state = game.start(seed=seed)
        while state.actor is not None:  # not play(): every legal action of every position is read back
            legal = state.legal_actions()
            seen.update(legal)
            state = state.apply(legal[int(rng.random() * len(legal))])
    assert {"die:1", "pit", "attempt", "attack:crash"} & seen
    for action in seen:
        assert notation.format_action(notation.parse(action)) == action


def test_typed_values() -> None:
    assert notation.parse("2:soft") == notation.StartingTyre(2, SOFT)
    assert notation.parse("die:4") == notation.Roll(4, 0)
    assert notation.parse("dice:2-5") == notation.Roll(2, 5)
    assert notation.parse("attack:crash") is notation.AttackFace.CRASH
    assert notation.parse("card:clean-air") == notation.FlagCard("clean-air")
    assert notation.parse("tyre:keep") == notation.TyreChange(notation.KEEP)
    assert notation.parse("tyre:wet") == notation.TyreChange(WET)
    assert notation.parse("stay") is notation.Choice.STAY
    assert notation.starting_tyre_actions(1) == ("1:hard", "1:soft")
    assert notation.format_action(notation.StartingTyre(0, HARD)) == "0:hard"
    for bad in ("die:7", "dice:3", "tyre:slick", "0:wet", "card:", "attack:spin", "jump"):
        with pytest.raises(ValueError):
            notation.parse(bad)


def test_the_hooks_are_declared_on_the_game() -> None:
    hooks = hooks_of(BRCGrandPrix)
    assert hooks.heuristic_bot is HeuristicBot
    assert hooks.web_board is not None and hooks.web_board.name == "board.js" and hooks.web_board.is_file()
    assert hooks.board_text is not None and hooks.describe_action is not None
    game = BRCGrandPrix(players=2)
    assert hooks.describe_action(game, "dice:2-5") == "roll 2+5"
    assert hooks.describe_action(game, "tyre:keep") == "keep the tyres"
