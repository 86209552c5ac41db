"""Every code block of docs/adding-a-game.md runs: the example game plays, replays and passes the contract,
and the scaffold's commands write a registered game and its golden playthrough."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from slipstream.engine import registry
from slipstream.engine.fields import copy_rule_problems

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
COMMANDS = re.findall(r"```sh\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
ROOT = DOC.parents[1]


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


def test_the_scaffold_commands_write_a_registered_game_and_its_golden_playthrough(tmp_path: Path) -> None:
    """The page's commands, run as written but into a scratch folder: ``new-game`` gets ``--into`` (the
    scratch folder is put on the path of ``slipstream.games`` by a ``sitecustomize``, as
    tests/cli/test_new_game.py does) and the golden file goes to ``SLIPSTREAM_GOLDEN_DIR``."""
    assert len(COMMANDS) == 1
    games = tmp_path / "games"
    (tmp_path / "sitecustomize.py").write_text(
        f"import slipstream.games\n\nslipstream.games.__path__.append({str(games)!r})\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT), str(tmp_path)]),
           "SLIPSTREAM_GOLDEN_DIR": str(tmp_path / "golden")}
    lines = [line for line in COMMANDS[0].splitlines() if line.strip()]
    for line in lines:
        words = shlex.split(line)
        if words[0] == "PYTHONPATH=src":
            words = words[1:]
        if words[0] == "slipstream":
            words = [sys.executable, "-m", "slipstream.cli.main", *words[1:]]
            if words[3] == "new-game":
                words += ["--into", str(games)]
        elif words[0] == "python":
            words[0] = sys.executable
        done = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (line, done.stderr)
    game_id = shlex.split(lines[0])[2]
    assert [(package / "rules.py").exists() for package in games.iterdir()] == [True]
    golden = (tmp_path / "golden" / f"{game_id}.txt").read_text()
    assert golden.startswith("# Dice Dash golden playthrough")
    assert golden.rstrip().splitlines()[-1].startswith("result:"), "a whole race, to its result"
