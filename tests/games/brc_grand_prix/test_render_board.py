"""The BRC Grand Prix board in the terminal: pit spaces not named like players, a key, the pit lane's
numbers over its spaces, every line within an 80-column terminal (issue 16)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.text import Text

import slipstream
from slipstream.engine.game import State
from slipstream.games.brc_grand_prix.render import board, hints
from tests.playout import random_states

WIDTH = 76
"""An 80-column terminal less the panel's border and padding."""


def _plain(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.splitlines()


def _states(players: int, seed: int, **options: Any) -> list[State]:
    """Every state of a random race (random choices, seeded chance)."""
    game = slipstream.load("brc-grand-prix", players=players, **options)
    return random_states(game.start(seed=seed), random.Random(seed))


RACES = [(6, 1, {}), (4, 2, {"sprint": True}), (2, 3, {"laps": 3}), (5, 4, {"dynamic_weather": True})]


@pytest.mark.parametrize(("players", "seed", "options"), RACES)
def test_pit_spaces_are_not_named_like_players(players: int, seed: int, options: dict[str, Any]) -> None:
    for state in _states(players, seed, **options)[::5]:
        text = "\n".join(_plain(board(state.view(None))))
        assert not re.search(r"\bP\d", text), text
        for seat in range(players):
            for line in hints(state, seat):
                assert not re.search(r"\bP\d", line), line


@pytest.mark.parametrize(("players", "seed", "options"), RACES)
def test_every_line_fits_and_the_pit_lane_lines_up(players: int, seed: int, options: dict[str, Any]) -> None:
    seen_in_pit = False
    for state in _states(players, seed, **options):
        view = state.view(None)
        lines = _plain(board(view))
        assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
        numbers = next(i for i, line in enumerate(lines) if line.startswith("  pit space "))
        heading, marks = lines[numbers], lines[numbers + 1]
        labels = [(m.start(), m.group()) for m in re.finditer(r"\d+", heading[len("  pit space "):])]
        offset = len("  pit space ")
        assert [label for _, label in labels] == [str(k) for k in range(view["board"]["pit_spaces"] + 1)]
        for start, _ in labels:  # something stands under every pit space number
            assert marks[offset + start] != " ", (heading, marks)
        assert marks[offset + labels[0][0]] in "E123456"
        line_at = marks.index("|")
        assert heading[line_at] == " "
        seen_in_pit |= any(c["pit"] for c in view["cars"])
    assert seen_in_pit


def test_the_key_names_every_sign_on_the_board() -> None:
    state = _states(4, 1)[50]
    lines = _plain(board(state.view(None)))
    key = "\n".join(lines)
    for sign in ("1 to 6 cars", "g/y/b green/yellow/blue flag", ". empty", "| finish line", "E pit entry",
                 "W weather change", "pit boxes (car->pit space): 1->2  2->3  3->4  4->5"):
        assert sign in key, key
    track = next(i for i, line in enumerate(lines) if line.startswith("track"))
    used = {ch for ch in lines[track + 1] if not ch.isspace()}
    assert used <= set("123456gyb.|")
