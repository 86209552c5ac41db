"""``play --resume FILE`` saves back to FILE (on ``s``, ``q``, the end of input, Ctrl-C and at the end of the
race), unless ``--save`` names another file; settings given beside ``--resume`` that differ from the saved
race are refused in one line (issue 29). Through the real command: the file changes, and replaying it gives
the board the terminal showed last."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from slipstream.engine.record import parse, replay

from .test_errors import ROOT, SRC, assert_one_line_error, slipstream_cmd

START = ["play", "scrap-racer", "--seed", "4", "-o", "short=true"]


def last_board(text: str) -> str:
    """The last board the command printed (the panel titled with the game's name)."""
    start = text.rindex("╭─")
    while "Scrap Racer" not in text[start:text.index("\n", start)]:
        start = text.rindex("╭─", 0, start)
    return text[start:text.index("╯", start) + 1]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A race of two decisions, saved on quit."""
    path = tmp_path / "race3.json"
    proc = slipstream_cmd([*START, "--save", str(path)], tmp_path, stdin="2\n2\nq\n")
    assert proc.returncode == 0, proc.stderr
    return path


def actions(path: Path) -> list[str]:
    return list(parse(path.read_text())["actions"])


@pytest.mark.parametrize(("answers", "how"), [("2\n2\nq\n", "q"), ("2\n2\n", "end of input")])
def test_a_resumed_race_is_saved_back_where_it_came_from(saved: Path, answers: str, how: str) -> None:
    before, moves = digest(saved), actions(saved)
    proc = slipstream_cmd(["play", "scrap-racer", "--resume", saved.name], saved.parent, stdin=answers)
    assert proc.returncode == 0, proc.stderr
    assert f"it is saved back to {saved.name}" in proc.stdout and f"Saved to {saved.name}" in proc.stdout, how
    assert digest(saved) != before
    now = actions(saved)
    assert now[:len(moves)] == moves and len(now) > len(moves), "the race goes on from where it was saved"
    assert sorted(p.name for p in saved.parent.iterdir()) == [saved.name], "no new file beside it"
    shown = slipstream_cmd(["replay", saved.name, "--seat", "0"], saved.parent)
    assert shown.returncode == 0, shown.stderr
    assert last_board(shown.stdout) == last_board(proc.stdout), "the file replays to the board last shown"


def test_s_saves_a_resumed_race_to_its_own_file(saved: Path) -> None:
    proc = slipstream_cmd(["play", "scrap-racer", "--resume", saved.name], saved.parent, stdin="2\ns\n")
    assert proc.returncode == 0, proc.stderr
    assert f"Saved the race to {saved.name} " in proc.stdout
    assert not (saved.parent / "scrap-racer-4.json").exists(), "not a new file named after the seed"
    assert last_board(slipstream_cmd(["replay", saved.name, "--seat", "0"], saved.parent).stdout) == last_board(
        proc.stdout)


def test_a_resumed_race_played_to_the_end_is_saved_finished(saved: Path) -> None:
    proc = slipstream_cmd(["play", "scrap-racer", "--resume", saved.name, "--humans", "0"], saved.parent)
    assert proc.returncode == 0, proc.stderr
    final = replay(parse(saved.read_text()))
    assert final.is_over and "Finishing order" in proc.stdout
    assert last_board(slipstream_cmd(["replay", saved.name], saved.parent).stdout) == last_board(proc.stdout)


def test_ctrl_c_saves_a_resumed_race_back(saved: Path) -> None:
    moves = actions(saved)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, ROOT]), "COLUMNS": "60"}
    proc = subprocess.Popen([sys.executable, "-m", "slipstream.cli.main", "play", "scrap-racer", "--resume",
                             saved.name], cwd=saved.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("2\n")
    proc.stdin.flush()
    seen, deadline = "", time.monotonic() + 60
    while seen.count("your move") < 2 and time.monotonic() < deadline:
        seen += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out[-500:], err[-1500:])
    assert len(actions(saved)) > len(moves) and actions(saved)[:len(moves)] == moves


def test_save_beside_resume_writes_the_other_file_only(saved: Path) -> None:
    before = digest(saved)
    proc = slipstream_cmd(["play", "scrap-racer", "--resume", saved.name, "--save", "copy.json"], saved.parent,
                          stdin="2\nq\n")
    assert proc.returncode == 0, proc.stderr
    assert digest(saved) == before
    assert len(actions(saved.parent / "copy.json")) > len(actions(saved))


@pytest.mark.parametrize(("given", "words"), [
    (["-o", "short=false"], "race3.json was saved with short=True, not -o short=false"),
    (["--players", "3"], "race3.json is a 4-player race, not --players 3"),
    (["--seed", "5"], "race3.json was played with --seed 4, not 5"),
])
def test_settings_that_differ_from_the_saved_race_are_refused(saved: Path, given: list[str], words: str) -> None:
    before = digest(saved)
    proc = slipstream_cmd(["play", "scrap-racer", "--resume", saved.name, *given], saved.parent, stdin="q\n")
    assert_one_line_error(proc, words)
    assert "a resumed race keeps the settings it was saved with" in proc.stderr
    assert digest(saved) == before


def test_settings_that_match_the_saved_race_are_accepted(saved: Path) -> None:
    proc = slipstream_cmd(["play", "scrap-racer", "--resume", saved.name, "-o", "short=true", "--seed", "4",
                           "--players", "4"], saved.parent, stdin="q\n")
    assert proc.returncode == 0, proc.stderr
