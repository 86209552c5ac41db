"""A cooperative game in the simulator: the team's win rate with its interval by scenario, difficulty
and team (Highway Heist, whose results have every seat or none as winners); MCTS plays it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from slipstream.cli.main import app
from slipstream.sim import SimConfig, run
from slipstream.sim.report import build
from slipstream.sim.stats import summarize, team_of, wilson
from slipstream.sim.sweep import parse_sweep, run_sweep

runner = CliRunner()


def _race(index: int, won: bool, options: dict[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    seats = list(range(len(labels)))
    return {"index": index, "game": "highway-heist", "options": options, "bots": ["heuristic"] * len(seats),
            "result": {"order": seats, "winners": seats if won else [], "reason": "r", "team": True},
            "ranks": [1] * len(seats), "metrics": {"turns": 9.0, "rounds": 3.0}, "labels": labels,
            "lead_changes": 0, "decisions": 10, "turn_order": seats}


def test_team_summary_counts_races_not_seats_by_option_pair_and_team() -> None:
    team_a = {"0": "dom/exotic-supercar", "1": "han/street-drifter"}
    team_b = {"0": "letty/american-muscle", "1": "han/street-drifter"}
    races = [_race(i, won=i % 3 == 0, options={"scenario": sc, "difficulty": d},
                   labels=team_a if i % 2 else team_b)
             for i, (sc, d) in enumerate([("tank", "easy"), ("tank", "beast"), ("semi", "easy"),
                                          ("semi", "beast")] * 6)]
    s = summarize(races)
    team = s["team"]
    assert team is not None and team["races"] == 24
    wins = sum(1 for i in range(24) if i % 3 == 0)
    assert team["win"] == list(wilson(wins, 24))
    assert team["options"] == ["scenario", "difficulty"]
    assert [g["key"] for g in team["by_option"]["difficulty"]] == ["easy", "beast"]   # the sweep's order
    pairs = {tuple(g["key"]): g["n"] for g in team["by_pair"]["scenario|difficulty"]}
    assert pairs == {("tank", "easy"): 6, ("tank", "beast"): 6, ("semi", "easy"): 6, ("semi", "beast"): 6}
    assert {g["key"]: g["n"] for g in team["by_team"]} == {team_of(races[1]): 12, team_of(races[0]): 12}
    assert team_of(races[1]) == "dom/exotic-supercar + han/street-drifter"
    member = {g["key"]: g["n"] for g in team["by_member"]}
    assert member["han/street-drifter"] == 24 and member["dom/exotic-supercar"] == 12


def test_a_competitive_run_has_no_team_summary() -> None:
    race = _race(0, True, {}, {"0": "a", "1": "b"})
    race["result"] = {"order": [1, 0], "winners": [1], "reason": "r"}
    assert summarize([race])["team"] is None


def test_sweep_values_with_commas_are_separated_by_a_bar() -> None:
    assert parse_sweep(["characters=dom,han|letty,tej"]) == {"characters": ["dom,han", "letty,tej"]}
    assert parse_sweep(["difficulty=easy,beast"]) == {"difficulty": ["easy", "beast"]}


def test_a_highway_heist_sweep_reports_the_team_win_rate_by_scenario_difficulty_and_team(tmp_path: Path) -> None:
    base = SimConfig("highway-heist", 2, ("heuristic",), n=2, seed=4)
    sweep = parse_sweep(["scenario=semi-heist,chopper-takedown", "difficulty=easy,beast",
                         "characters=dom,han|letty,tej"])
    outcomes = run_sweep(base, sweep, tmp_path, jobs=1)
    assert len(outcomes) == 8 and all(len(o.races) == 2 for o in outcomes)
    assert all(r["result"]["team"] for o in outcomes for r in o.races)
    page = build(tmp_path).read_text()
    for text in ("team win rate (95% CI)", "Team win rate by scenario and difficulty", "team win rate by characters",
                 "Dom / Exotic Supercar + Han / Street Drifter", "Letty / Exotic Supercar + Tej / Street Drifter",
                 "team member", "Semi Heist", "Chopper Takedown"):
        assert text in page, text
    assert "dom/exotic-supercar" not in page and "<td>semi-heist</td>" not in page, "names in words, not ids"
    assert "win rate by seat" not in page and "first to play" not in page


def test_mcts_plays_a_highway_heist_match_in_the_simulator(tmp_path: Path) -> None:
    outcome = run(SimConfig("highway-heist", 2, ("mcts:4", "heuristic"), n=1, seed=2,
                            options={"scenario": "semi-heist", "difficulty": "beast"}), tmp_path, jobs=1)
    race = outcome.races[0]
    assert race["bots"] == ["mcts:4", "heuristic"] and race["result"]["team"]
    assert set(race["result"]["winners"]) in (set(), {0, 1})
    assert "The team won" in build(tmp_path).read_text()


def test_simulate_command_prints_the_team_win_rate(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "highway-heist", "-n", "2", "-p", "2", "-b", "heuristic",
                                 "-o", "scenario=semi-heist", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "highway-heist: the team won" in result.output and "of 2 races" in result.output
    assert "by team" in result.output and "lead changes" not in result.output.lower()
