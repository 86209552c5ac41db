"""Every python code block of docs/interop.md runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import slipstream
from slipstream.interop.spec import SHIPPED
from slipstream.interop.table import Table

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_the_page_has_an_example_per_library() -> None:
    text = "\n".join(BLOCKS)
    assert len(BLOCKS) >= 3
    for library in ("slipstream.interop.pettingzoo", "slipstream.interop.gymnasium", "slipstream.interop.openspiel"):
        assert library in text


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_code_block_runs(index: int) -> None:
    namespace: dict[str, object] = {"__name__": f"docs_interop_block_{index}"}
    exec(compile(BLOCKS[index], f"{DOC.name} block {index + 1}", "exec"), namespace)


def test_the_compact_size_table_is_what_the_compact_observation_keeps() -> None:
    """The page's table of full and compact slots at two players, measured again: a row for every game
    with a shipped spec (the games the page documents; a new game's spec is built on first use)."""
    section = DOC.read_text().split("### The compact observation")[1].split("```")[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| ([\d,]+) \| ([\d,]+) \|$", section, flags=re.MULTILINE)
    assert sorted(game_id for game_id, _, _ in rows) == [
        game_id for game_id in sorted(slipstream.available_games()) if (SHIPPED / f"{game_id}.json").exists()]
    for game_id, full, compact in rows:
        table = Table(game_id, 2, observation="compact")
        assert (int(full.replace(",", "")), int(compact.replace(",", ""))) == (
            table.spec.encoder().size, table.encoder.size), game_id
