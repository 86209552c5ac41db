"""The Scrap Racer board in the terminal: a key for every letter, columns that never run together, and
every line within an 80-column terminal (issue 16)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.text import Text

import slipstream
from slipstream.engine.game import State
from slipstream.games.scrap_racer.render import TABLE_HEADER, board
from tests.playout import random_states

WIDTH = 76
"""An 80-column terminal less the panel's border and padding."""


def _plain(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.splitlines()


def _states(players: int, seed: int, **options: Any) -> list[State]:
    """Every state of a random race (random choices, seeded chance)."""
    game = slipstream.load("scrap-racer", players=players, **options)
    return random_states(game.start(seed=seed), random.Random(seed))


def _table_rows(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith("racer "))
    return [line for line in lines[start + 1:] if line and not line.startswith(("Your", "Final", "Round"))
            and "has rolled" not in line]


@pytest.mark.parametrize(("players", "seed", "options"), [
    (4, 1, {}), (6, 2, {}), (3, 3, {"two_racers": True}), (2, 4, {"track": "B", "short": True}),
    (5, 5, {"track": "C"}),
])
def test_every_line_fits_and_every_letter_is_in_the_key(players: int, seed: int, options: dict[str, Any]) -> None:
    for state in _states(players, seed, **options)[::7]:
        view = state.view(None)
        lines = _plain(board(view))
        assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
        track = lines[2:4]
        used = {ch for row in track for ch in row[3:] if ch.isupper()}
        key = lines[5] if view["racers"][0]["id"] else ""
        named = dict(re.findall(r"([A-Z]) (.+?)(?=  |$)", key))
        assert used <= set(named), (used, key)
        for r in view["racers"]:
            if r["id"]:
                assert named.get(r["name"][0] if r["id"] != "swifty" else "W") == r["name"]


def test_swifty_is_w_in_the_key() -> None:
    state = _states(6, 2)[40]
    lines = _plain(board(state.view(None)))
    assert "W Swifty" in lines[5]
    assert "S Steel Jacket" in lines[5]
    assert "* boost marker" in lines[6] and "+ more racers" in lines[6]


def test_the_columns_never_run_together() -> None:
    """A racer on space 2 with many boost markers: each column stays apart (it read '21 Re-roll')."""
    state = _states(6, 2)[60]
    view = state.view(None)
    first = view["racers"][view["standings"][0]]
    first["name"] = "Steel-Jacket"
    first["space"] = 1
    first["boost_markers"] = {t: 9 for t in first["boost_markers"]}
    first["bonus_markers"] = 12
    lines = _plain(board(view))
    assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
    rows = _table_rows(lines)
    assert len(rows) == 6
    columns = len(TABLE_HEADER)
    for row in rows:
        assert len(re.split(r" {2,}", row.strip())) == columns, row
    assert re.split(r" {2,}", rows[0].strip())[3] == "2"
    heading = next(line for line in lines if line.startswith("racer "))
    starts = [m.start() for m in re.finditer(r"\S+(?: \S+)*", heading)]
    assert len(starts) == columns
    for row in rows:  # left-aligned columns start under their heading, right-aligned ones end under it
        cells = [(m.start(), m.end()) for m in re.finditer(r"\S+(?: \S+)*", row)]
        assert cells[0][0] == starts[0] and cells[1][0] == starts[1] and cells[-1][0] == starts[-1]
