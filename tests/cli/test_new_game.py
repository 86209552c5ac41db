"""``slipstream new-game``: the scaffold is a game in the shared shape that every per-game test takes as it is.

The new package is written into a scratch folder and registered the way the registry finds every game:
as a package on the path of ``slipstream.games``. A ``sitecustomize`` module on ``PYTHONPATH`` adds the
folder there in every Python process the tests start (the web server, its bot workers, the replaying
CLI), so nothing finds the game by munging its id.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from slipstream.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
GAME_ID = "trial-dash"
PER_GAME_TESTS = (
    "tests/conformance",
    "tests/engine/test_fields.py",
    "tests/sim/test_games.py",
    "tests/interop",
    "tests/bots",
    "tests/web/test_real_games.py",
    "tests/web/test_hidden_info.py",
    "tests/web/test_encoding.py",
)
"""The per-game tests run on the new game (each parametrised over every registered game)."""

REGISTER = '''"""Registers the games in {folder} in every Python process started with this folder on PYTHONPATH."""
import slipstream.games

slipstream.games.__path__.append({folder!r})
'''


def new_game(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["new-game", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("game_id", "words"), [
    ("Dice_Dash", "is not a game id"),
    ("dice--dash", "is not a game id"),
    ("9lives", "is not a game id"),
    ("", "is not a game id"),
    ("scrap-racer", "is taken"),
    ("class", "Python keyword"),
])
def test_a_bad_or_taken_id_is_refused_in_one_line(game_id: str, words: str, tmp_path: Path) -> None:
    code, out, err = new_game(game_id, "--into", str(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err
    assert list(tmp_path.iterdir()) == [], "nothing written"


def test_a_package_already_there_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "trial_dash").mkdir()
    (tmp_path / "trial_dash" / "keep.txt").write_text("mine")
    code, _, err = new_game(GAME_ID, "--into", str(tmp_path))
    assert code == 2 and "exists already" in err and err.count("\n") == 1
    assert [p.name for p in (tmp_path / "trial_dash").iterdir()] == ["keep.txt"]


def test_the_new_game_passes_every_per_game_test(tmp_path: Path) -> None:
    """Scaffold, register, generate its golden playthrough with the documented command, then run the
    per-game tests selected for it: all pass, only those needing an optional hook it lacks skip."""
    games = tmp_path / "games"
    code, out, err = new_game(GAME_ID, "--into", str(games))
    assert code == 0, err
    package = games / "trial_dash"
    assert {p.name for p in package.iterdir()} == {"__init__.py", "game.py", "types.py", "state.py", "rules.py",
                                                   "notation.py", "render.py", "metrics.py"}
    assert str(package) in out and f"scripts/make_golden.py {GAME_ID}" in out
    lint = subprocess.run([str(Path(sys.executable).with_name("ruff")), "check", "--config",
                           str(ROOT / "pyproject.toml"), str(package)], capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout

    (tmp_path / "sitecustomize.py").write_text(REGISTER.format(folder=str(games)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT), str(tmp_path)]),
           "SLIPSTREAM_GOLDEN_DIR": str(tmp_path / "golden"), "SLIPSTREAM_INTEROP_CACHE": str(tmp_path / "specs")}
    golden = subprocess.run([sys.executable, "scripts/make_golden.py", GAME_ID], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert golden.returncode == 0, golden.stderr
    assert (tmp_path / "golden" / f"{GAME_ID}.txt").read_text().startswith("# Trial Dash golden playthrough")

    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", GAME_ID, "-rs",
                          *PER_GAME_TESTS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    summary = run.stdout[-3000:] + run.stderr[-2000:]
    assert run.returncode == 0, summary
    passed = re.search(r"(\d+) passed", run.stdout)
    assert passed is not None and int(passed.group(1)) >= 30, summary
    skips = re.findall(r"SKIPPED \[\d+\] [^:]+:\d+: (.*)", run.stdout)
    assert skips and all(s.startswith(f"{GAME_ID} declares no ") and s.endswith("(optional)") for s in skips), skips
