"""The HTML report, sweeps, tournaments and the simulate/report/tournament commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from slipstream.cli.main import app
from slipstream.sim import SimConfig, SimError, run
from slipstream.sim.report import build
from slipstream.sim.sweep import grid, parse_sweep, point_config, run_sweep
from slipstream.sim.tournament import run_tournament

SETUP = ("tests.toygame:install",)
runner = CliRunner()


def cfg(**kw: object) -> SimConfig:
    base: dict[str, object] = {"game": "toy-dash", "players": 3, "bots": ("greedy", "random", "mcts:10"),
                               "n": 8, "seed": 1, "setup": SETUP,
                               "options": {"length": "20", "sprint": "true"}}
    base.update(kw)
    return SimConfig(**base)  # type: ignore[arg-type]


def self_contained(page: str) -> None:
    assert page.startswith("<!doctype html>")
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page), "the report loads nothing from outside"
    assert page.count("data:image/png;base64,") >= 4


def test_report_of_a_run_has_the_tables_and_embedded_plots(toy: str, tmp_path: Path) -> None:
    run(cfg(), tmp_path, jobs=1)
    page = build(tmp_path).read_text()
    self_contained(page)
    for text in ("win rate by seat", "Win rate by turn order", "How races ended", "Race length", "Game metrics",
                 "Sprints", "mcts:10", "gem-", "A sample race", "Lead changes"):
        assert text in page, text


def test_sweep_runs_the_grid_and_the_report_compares_the_points(toy: str, tmp_path: Path) -> None:
    sweep = parse_sweep(["length=10,40", "players=2,3"])
    assert grid(sweep) == [{"length": "10", "players": "2"}, {"length": "10", "players": "3"},
                           {"length": "40", "players": "2"}, {"length": "40", "players": "3"}]
    outcomes = run_sweep(cfg(bots=("greedy",), options={"sprint": "true"}), sweep, tmp_path, jobs=1)
    assert [len(o.races) for o in outcomes] == [8, 8, 8, 8]
    short = [r["metrics"]["turns"] for r in outcomes[0].races]
    long = [r["metrics"]["turns"] for r in outcomes[2].races]
    assert sum(long) > sum(short), "a longer track makes longer races"
    page = build(tmp_path).read_text()
    self_contained(page)
    assert "Sweep: side by side" in page and "length=40,players=3" in page
    assert "Compared with length=10,players=2, race by race" in page and "sweep differences" in page


@pytest.mark.parametrize("bad", ["length", "=1,2", "length="])
def test_a_malformed_sweep_is_refused(bad: str) -> None:
    with pytest.raises(SimError, match="KEY=VALUE1,VALUE2"):
        parse_sweep([bad])


def test_sweeping_players_needs_one_bot_for_every_seat() -> None:
    with pytest.raises(SimError, match="one bot for every seat"):
        point_config(cfg(), {"players": "2"})


def test_tournament_rates_mcts_above_random(toy: str, tmp_path: Path) -> None:
    outcome, rated = run_tournament(cfg(bots=("mcts:40", "random"), players=2, n=40,
                                        options={"length": "60", "sprint": "true"}), tmp_path, jobs=1)
    assert [r["bot"] for r in rated["ratings"]] == ["mcts:40", "random"]
    assert json.loads((tmp_path / "tournament.json").read_text())["races"] == 40
    seats = [tuple(r["bots"]) for r in outcome.races]
    assert seats.count(("mcts:40", "random")) == seats.count(("random", "mcts:40")) == 20
    page = build(tmp_path).read_text()
    assert "Tournament ratings" in page and "Head to head" in page and 'alt="Elo ratings"' in page


def test_a_tournament_needs_distinct_bots(toy: str, tmp_path: Path) -> None:
    with pytest.raises(SimError, match="each bot once"):
        run_tournament(cfg(bots=("random", "random")), tmp_path)
    with pytest.raises(SimError, match="at least two bots"):
        run_tournament(cfg(bots=("random",)), tmp_path)


def test_a_tournament_of_a_cooperative_game_is_refused_before_any_race(tmp_path: Path) -> None:
    """Highway Heist's seats win or lose together: no bot can be rated above another, so the tournament
    says so at once (the Elo table it printed gave every bot 1500) and points to simulate."""
    with pytest.raises(SimError, match=r"highway-heist is cooperative.*simulate"):
        run_tournament(SimConfig("highway-heist", 3, ("heuristic", "random"), n=2), tmp_path / "run")
    assert not (tmp_path / "run").exists()
    code, out = cli("tournament", "highway-heist", "--bots", "greedy,random", "-n", "2", "--out",
                    str(tmp_path / "run"))
    assert code == 2 and "cooperative" in out and "Traceback" not in out, out
    assert not (tmp_path / "run").exists()


def test_report_of_a_directory_without_a_run_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SimError, match="no run"):
        build(tmp_path)


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, [*args])
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def test_simulate_command_writes_records_tables_and_summary(toy: str, tmp_path: Path) -> None:
    code, out = cli("simulate", "toy-dash", "--setup", SETUP[0], "-n", "6", "--bots", "greedy,random,random",
                    "--players", "3", "-o", "length=15", "--seed", "2", "--out", str(tmp_path))
    assert code == 0, out
    assert "win rate" in out and "by turn order" in out and "first to play wins" in out
    assert {p.name for p in tmp_path.iterdir()} >= {"run.json", "races.jsonl.gz", "results.csv",
                                                    "results.parquet"}
    code, out = cli("report", str(tmp_path))
    assert code == 0 and (tmp_path / "report.html").exists()


def test_simulate_command_sweep(toy: str, tmp_path: Path) -> None:
    code, out = cli("simulate", "toy-dash", "--setup", SETUP[0], "-n", "3", "--bots", "random",
                    "--sweep", "sprint=true,false", "--out", str(tmp_path))
    assert code == 0, out
    assert (tmp_path / "sprint=true").is_dir() and (tmp_path / "sprint=false").is_dir()
    assert "against sprint=true, race by race" in out and "Turns" in out


def test_tournament_command_prints_elo(toy: str, tmp_path: Path) -> None:
    code, out = cli("tournament", "toy-dash", "--setup", SETUP[0], "--bots", "greedy,random", "-n", "6",
                    "--players", "2", "--out", str(tmp_path))
    assert code == 0, out
    assert "Elo" in out and "greedy" in out


@pytest.mark.parametrize(
    ("args", "listed"),
    [
        (["simulate", "no-such-game"], "the games are:"),
        (["simulate", "toy-dash", "-o", "speed=9"], "the options are: length, sprint"),
        (["simulate", "toy-dash", "-o", "speed"], "write KEY=VALUE"),
        (["simulate", "toy-dash", "--bots", "genius"], "the bots are: greedy, heuristic, mcts, random"),
        (["simulate", "toy-dash", "--sweep", "length"], "KEY=VALUE1,VALUE2"),
        (["simulate", "toy-dash", "--backend", "dask", "-n", "1"], "the backends are: process, ray"),
        (["tournament", "no-such-game", "--bots", "random,greedy"], "the games are:"),
        (["tournament", "toy-dash", "--bots", "random,nobody"], "the bots are:"),
        (["report", "/no/such/dir"], "is not a directory"),
    ],
)
def test_bad_input_is_a_clear_error_with_exit_code_2(toy: str, tmp_path: Path, args: list[str],
                                                     listed: str) -> None:
    if args[0] != "report":
        args = [*args, "--setup", SETUP[0], "--out", str(tmp_path / "out")]
    code, out = cli(*args)
    assert code == 2, out
    assert listed in out and "Traceback" not in out


def test_ctrl_c_keeps_the_races_and_exits_130(toy: str, tmp_path: Path) -> None:
    """A KeyboardInterrupt in the middle of a run: the finished races stay, rerunning completes it."""
    from slipstream.bots import registry
    from slipstream.bots.random_bot import RandomBot

    calls = {"n": 0}

    class Impatient(RandomBot):
        def choose(self, state: object, seat: int) -> str:
            calls["n"] += 1
            if calls["n"] == 60:
                raise KeyboardInterrupt
            return super().choose(state, seat)  # type: ignore[arg-type]

    registry.register_bot("impatient", lambda gid, seed: Impatient(seed))
    try:
        args = ["simulate", "toy-dash", "--setup", SETUP[0], "-n", "30", "--bots", "impatient",
                "--out", str(tmp_path)]
        code, out = cli(*args)
        assert code == 130, out
        assert "interrupted" in out and "run the same command to resume" in out
        kept = json.loads((tmp_path / "run.json").read_text())["races"]
        assert 0 < kept < 30
        code, out = cli(*args)
        assert code == 0, out
        meta = json.loads((tmp_path / "run.json").read_text())
        assert (meta["status"], meta["races"]) == ("complete", 30)
    finally:
        registry._FACTORIES.pop("impatient")


def test_summary_names_metrics_in_words_and_leaves_out_those_always_zero(toy: str, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import toygame

    def metrics(final: object) -> dict[str, float]:
        return {"sprints_used": 1.0, "never_happened": 0.0}

    toygame.use_hooks(monkeypatch, race_metrics=metrics)
    code, out = cli("simulate", "toy-dash", "--setup", SETUP[0], "-n", "4", "--bots", "random",
                    "--out", str(tmp_path))
    assert code == 0, out
    assert "Sprints used" in out and "sprints_used" not in out
    assert "ever happened" not in out and "never_happened" not in out
    page = build(tmp_path).read_text()
    assert "Sprints used" in page and "ever happened" not in page
