"""Golden playthroughs: each game's seeded race must match its reviewed transcript.

After an intended change of one game's rules or notation, regenerate that game's transcripts only,
``PYTHONPATH=src python scripts/make_golden.py GAME``, and review the diff (``make golden``: every game).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scripts.make_golden import golden_cases, main, playthrough

CASES = golden_cases()


@pytest.mark.parametrize(("game_id", "options", "path"), CASES, ids=[p.stem for _, _, p in CASES])
def test_golden_playthrough(game_id: str, options: dict[str, Any], path: Path) -> None:
    command = f"PYTHONPATH=src python scripts/make_golden.py {game_id}"
    assert path.exists(), f"no golden playthrough {path.name}: run `{command}`"
    assert playthrough(game_id, options) == path.read_text(), (
        f"{path.name} differs from the race played now: if the change is intended, run `{command}` and review"
        " the diff")


def test_the_script_refuses_an_unknown_game_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-game"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "'no-such-game'" in error and "scrap-racer" in error
