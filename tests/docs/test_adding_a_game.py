"""Every code block of docs/adding-a-game.md runs: the example game plays, replays and passes the contract."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slipstream.engine import registry
from slipstream.engine.fields import copy_rule_problems

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_the_page_has_its_two_examples() -> None:
    assert len(BLOCKS) == 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_code_block_runs(index: int) -> None:
    namespace: dict[str, object] = {"__name__": f"docs_block_{index}"}
    try:
        exec(compile(BLOCKS[index], f"{DOC.name} block {index + 1}", "exec"), namespace)
    finally:
        registry._GAMES.pop("coin-race", None)


def test_the_example_game_keeps_the_copy_rule_and_its_states_unchanged() -> None:
    namespace: dict[str, object] = {"__name__": "docs_example"}
    try:
        exec(compile(BLOCKS[1], DOC.name, "exec"), namespace)
        game = registry.load("coin-race")
        first = game.start(seed=1)
        second = first.apply("coin:heads")
        assert first.view(None) == {"spaces": [0, 0], "turn": 0}
        assert second.view(None) == {"spaces": [1, 0], "turn": 1}
        assert copy_rule_problems(second) == []
    finally:
        registry._GAMES.pop("coin-race", None)
