"""Golden playthroughs: each game's seeded race must match its reviewed transcript.

After an intended change of rules or notation, run ``make golden`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scripts.make_golden import golden_cases, playthrough

CASES = golden_cases()


@pytest.mark.parametrize(("game_id", "options", "path"), CASES, ids=[p.stem for _, _, p in CASES])
def test_golden_playthrough(game_id: str, options: dict[str, Any], path: Path) -> None:
    assert path.exists(), f"no golden playthrough {path.name}: run `make golden`"
    assert playthrough(game_id, options) == path.read_text()
