"""``replay`` says what it replays (game, options, seed, bots, race number), counts seats from 0 like every
command, and ``--step`` ends cleanly when its input ends; ``games`` prints each game's description; Ray's
own log lines stay out of the terminal unless ``--verbose``; ``bench_sim`` prints no ``nan`` (issue 29)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import slipstream
from slipstream.engine.record import dumps

from .test_errors import ROOT, SRC, slipstream_cmd


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("replays")
    proc = slipstream_cmd(["simulate", "scrap-racer", "-n", "3", "--players", "3", "-o", "short=true", "--bots",
                           "random,greedy,random", "--seed", "5", "--out", "run"], here)
    assert proc.returncode == 0, proc.stderr
    game = slipstream.load("scrap-racer", players=2, short=True)
    state = game.start(seed=9)
    for _ in range(12):
        state = state.apply_chance() if state.actor == "chance" else state.apply(state.legal_actions()[0])
    (here / "saved.json").write_text(dumps(state))
    return here


def test_replay_of_a_simulated_race_names_the_game_race_seed_options_and_bots(places: Path) -> None:
    from slipstream.sim import store

    race = next(r for r in store.iter_races(places / "run", full=True) if r["index"] == 2)
    proc = slipstream_cmd(["replay", "run", "--race", "2", "--seat", "1"], places)
    assert proc.returncode == 0, proc.stderr
    header = " ".join(proc.stdout[:proc.stdout.index("╰")].replace("│", " ").split())
    assert f"Scrap Racer: race 2 of run, seed {race['seed']}, {len(race['actions'])} actions" in header
    assert "options: players=3, track=A, short=True" in header
    assert "bots: seat 0 (P1) random, seat 1 (P2) greedy, seat 2 (P3) random" in header
    assert "shown as seat 1 (P2) saw it" in header


def test_replay_of_a_saved_race_names_its_file_seed_and_options(places: Path) -> None:
    proc = slipstream_cmd(["replay", "saved.json"], places)
    assert proc.returncode == 0, proc.stderr
    header = " ".join(proc.stdout[:proc.stdout.index("╰")].replace("│", " ").split())
    assert "Scrap Racer: saved.json, seed 9, 12 actions" in header and "options: players=2" in header
    assert "bots:" not in header, "a saved race does not record who played"
    assert "shown as everyone sees it" in header


def test_seats_count_from_0_in_replay_as_everywhere(places: Path) -> None:
    """Seat 0 is P1: the view of seat 0 is P1's (its hidden cards shown to it), and seat 3 of three does not
    exist."""
    first = slipstream_cmd(["replay", "run", "--race", "0", "--seat", "0"], places)
    assert first.returncode == 0 and "shown as seat 0 (P1) saw it" in " ".join(first.stdout.split())
    over = slipstream_cmd(["replay", "run", "--race", "0", "--seat", "3"], places)
    assert over.returncode == 2 and "--seat must be from 0 to 2 in this 3-player race" in over.stderr


def test_step_ends_cleanly_when_the_input_ends(places: Path) -> None:
    """It exited with 130 (as for Ctrl-C) when stdin closed: now the rest is shown without stopping."""
    proc = slipstream_cmd(["replay", "saved.json", "--step"], places, stdin="\n\n")
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert "(end of input: the rest without stopping)" in proc.stdout
    assert proc.stdout.index("(end of input") > proc.stdout.index("   2 "), "two steps were taken first"
    assert "  12 " in proc.stdout and "Traceback" not in proc.stderr


def test_games_prints_each_games_description(tmp_path: Path) -> None:
    proc = slipstream_cmd(["games"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    for game_id, cls in slipstream.available_games().items():
        assert cls.description, f"{game_id} has no description"
        assert f"{game_id}: {cls.name}" in text
        assert " ".join(cls.description.split()) in text


def test_ray_log_lines_stay_out_of_the_terminal_unless_verbose(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    quiet = slipstream_cmd(["simulate", "scrap-racer", "-n", "2", "-o", "short=true", "--bots", "random",
                            "--backend", "ray", "--out", "quiet"], tmp_path, timeout=300)
    assert quiet.returncode == 0, quiet.stderr
    lines = [line for line in quiet.stderr.splitlines() if "━" not in line and line.strip()]
    assert lines == [], lines
    loud = slipstream_cmd(["simulate", "scrap-racer", "-n", "2", "-o", "short=true", "--bots", "random",
                           "--backend", "ray", "--verbose", "--out", "loud"], tmp_path, timeout=300)
    assert loud.returncode == 0, loud.stderr
    assert "INFO" in loud.stderr and "Ray" in loud.stderr


def test_bench_sim_prints_no_nan_with_other_bots(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, ROOT])}
    proc = subprocess.run([sys.executable, "-m", "benchmarks.bench_sim", "-n", "2", "--bots", "greedy", "scrap-racer"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    row = proc.stdout.splitlines()[-1].split()
    assert row[0] == "scrap-racer" and row[2] == "-" and "nan" not in proc.stdout
