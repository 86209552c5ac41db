"""Golden playthroughs: each game's seeded race must match its reviewed transcript.

After an intended change of rules or notation, run ``make golden`` and review the diff.
"""

from __future__ import annotations

import pytest

import slipstream
from scripts.make_golden import GOLDEN_DIR, playthrough


@pytest.mark.parametrize("game_id", list(slipstream.available_games()))
def test_golden_playthrough(game_id: str) -> None:
    path = GOLDEN_DIR / f"{game_id}.txt"
    assert path.exists(), f"no golden playthrough for {game_id}: run `make golden`"
    assert playthrough(game_id) == path.read_text()
