"""Race health: the chi-square test of the start positions and the skill share on Toy Grid, whose answers
are known (tests/sim/toyraces.py), the results table's columns, and the command's race health."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from slipstream.cli.main import app
from slipstream.sim import SimConfig, run
from slipstream.sim.health import chi_square_sf, fair_share_test, skill_sentence, skill_share
from slipstream.sim.report import build
from slipstream.sim.runner import skill_config
from slipstream.sim.stats import summarize
from slipstream.sim.sweep import parse_sweep, run_sweep
from tests.sim import toyraces

SETUP = ("tests.sim.toyraces:install",)
runner = CliRunner()


@pytest.fixture
def grid() -> Iterator[str]:
    toyraces.install()
    yield toyraces.ToyGrid.id
    toyraces.uninstall()


def config(n: int, players: int = 4, pole_wins: bool = False, bots: tuple[str, ...] = ("heuristic",),
           seed: int = 1) -> SimConfig:
    return SimConfig("toy-grid", players, bots, n=n, seed=seed, setup=SETUP,
                     options={"pole_wins": "true" if pole_wins else "false"})


def position_tests_of(races: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {test["kind"]: test for test in summarize(races)["health"]["positions"]}


# --- the chi-square test --------------------------------------------------------------------------------


@pytest.mark.parametrize(("statistic", "df", "p"), [
    (3.841458820694124, 1, 0.05),  # the 95% points of the textbook tables
    (7.814727903251179, 3, 0.05),
    (6.634896601021214, 1, 0.01),
    (2.0, 3, 0.5724067044708798),  # 3 df: 2 (1 - Phi(sqrt 2)) + sqrt(4 / pi) exp(-1)
    (2.0, 2, math.exp(-1.0)),  # 2 df: exp(-x/2)
    (0.0, 4, 1.0),
])
def test_the_chi_square_survival_function_gives_the_tables_values(statistic: float, df: int, p: float) -> None:
    assert chi_square_sf(statistic, df) == pytest.approx(p, rel=1e-6)


def test_the_fair_share_test_of_counts_worked_by_hand() -> None:
    """30, 20, 25, 25 wins of 100 against 25 each: chi-square (25 + 25) / 25 = 2 on 3 degrees of freedom."""
    test = fair_share_test([30, 20, 25, 25], [25, 25, 25, 25])
    assert (test["chi2"], test["df"]) == (2.0, 3) and test["p"] == pytest.approx(0.5724067044708798)
    assert not test["rough"]
    assert fair_share_test([3, 1], [2, 2])["rough"], "fewer than 5 expected: rough"
    assert math.isnan(fair_share_test([4], [4])["p"]), "one position: nothing to test"


def test_a_race_the_pole_always_wins_is_unbalanced(grid: str, tmp_path: Path) -> None:
    """Slot 1 wins all 200 races: 200 against 50 expected of each of 4 slots, chi-square 150²/50 + 3·50 = 600;
    row 1 (two of the four cars) against a fair half: 100²/100 · 2 = 200."""
    races = run(config(200, pole_wins=True), tmp_path, jobs=1).races
    tests = position_tests_of(races)
    slot, row = tests["grid slot"], tests["grid row"]
    assert slot["also"] == ["turn order"], "the cars play in grid order: one test, not two"
    assert slot["test"]["chi2"] == pytest.approx(600.0) and slot["test"]["df"] == 3
    assert slot["test"]["p"] < 1e-100
    assert [(g["key"], g["win"][0], g["fair"]) for g in slot["groups"]] == [
        ("grid slot 1", 1.0, 0.25), ("grid slot 2", 0.0, 0.25), ("grid slot 3", 0.0, 0.25), ("grid slot 4", 0.0, 0.25)]
    assert slot["sentence"] == "grid slot 1 wins 100% against a fair 25%: unbalanced, p < 0.001"
    assert row["test"]["chi2"] == pytest.approx(200.0) and row["test"]["df"] == 1
    assert row["sentence"] == "grid row 1 wins 100% against a fair 50%: unbalanced, p < 0.001"
    assert "turn order" not in tests, "shown once, with the grid slot"


def test_a_fair_race_shows_no_imbalance(grid: str, tmp_path: Path) -> None:
    """The game's bot in every seat, every race a four-way tie drawn fairly: each position expects the same
    wins, and the test finds nothing."""
    races = run(config(400), tmp_path, jobs=1).races
    for test in position_tests_of(races).values():
        assert test["test"]["p"] >= 0.05, test["sentence"]
        assert "no imbalance 400 races can show" in test["sentence"]
        assert sum(g["wins"] for g in test["groups"]) == 400
        assert {g["expected"] for g in test["groups"]} == {400 / len(test["groups"])}
    health = summarize(races)["health"]
    assert health["choices"]["mean"] == 1.0, "one choice of two actions a seat"
    assert health["margin"]["mean"] == 4.0, "the game's winning_margin metric"


# --- the skill share ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rate"), [(2, 3 / 4), (4, 15 / 32)])
def test_the_skill_share_of_a_race_that_rewards_play(grid: str, tmp_path: Path, players: int, rate: float) -> None:
    """The game's bot (always sure) against random bots (sure at even odds): it wins 3/4 of two-car races,
    a skill share of (3/4 - 1/2) / (1 - 1/2) = 1/2, and 15/32 of four-car races."""
    skill = skill_config(config(600, players=players), "heuristic", "random")
    races = run(skill, tmp_path, jobs=1).races
    assert len(races) == 600 and all(r["bots"].count("heuristic") == 1 for r in races)
    share = skill_share(races, "heuristic")
    assert share is not None and share["races"] == 600
    low, high = share["win"][1], share["win"][2]
    assert low <= rate <= high
    fair = 1 / players
    assert share["fair"] == pytest.approx(fair)
    assert share["share"][1] <= (rate - fair) / (1 - fair) <= share["share"][2]
    assert "heuristic wins" in skill_sentence(share) and "against random" in skill_sentence(share)


def test_a_race_the_dice_decide_has_no_skill_share(grid: str, tmp_path: Path) -> None:
    """Rigged for the pole: each seed is played with the stronger bot in every seat, so it holds the pole in
    exactly one race of each seed: a win rate of exactly 1/players, a skill share of exactly 0."""
    races = run(skill_config(config(100, pole_wins=True), "heuristic", "random"), tmp_path, jobs=1).races
    seeds = [r["seed"] for r in races]
    assert all(len(set(seeds[k:k + 4])) == 1 for k in range(0, 100, 4)), "four races a seed"
    assert [r["bots"].index("heuristic") for r in races[:4]] == [0, 1, 2, 3]
    share = skill_share(races, "heuristic")
    assert share is not None and share["win"][0] == 0.25 and share["share"][0] == 0.0


# --- the results table ----------------------------------------------------------------------------------


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_the_results_table_has_each_seats_start_turn_order_and_choices(grid: str, tmp_path: Path) -> None:
    run(config(6), tmp_path, jobs=1)
    rows = read_csv(tmp_path / "results.csv")
    assert list(rows[0])[:13] == ["race", "seed", "seat", "bot", "label", "rank", "won", "turn_order", "choices",
                                  "seat_decisions", "led_at_half", "start_grid_slot", "start_grid_row"]
    assert len(rows) == 24
    for row in rows:
        assert row["turn_order"] == row["start_grid_slot"], "the cars play in grid order"
        assert row["start_grid_row"] == str((int(row["start_grid_slot"]) + 1) // 2)
        assert (row["choices"], row["seat_decisions"]) == ("1", "1")
        assert row["led_at_half"] == "", "the game has no standings: no leader to tell"
        assert row["m_winning_margin"] == "4.0"


def test_a_sweeps_results_tables_have_the_points_options(grid: str, tmp_path: Path) -> None:
    base = replace(config(4), options={})  # pole_wins swept, not fixed too
    outcomes = run_sweep(base, parse_sweep(["pole_wins=false,true", "players=2,4"]), tmp_path, jobs=1)
    for outcome in outcomes:
        rows = read_csv(outcome.out_dir / "results.csv")
        assert list(rows[0])[-2:] == ["opt_pole_wins", "opt_players"]
        point = outcome.out_dir.name
        assert {f"pole_wins={r['opt_pole_wins']},players={r['opt_players']}" for r in rows} == {point}


# --- the command and the report -------------------------------------------------------------------------


def test_simulate_without_bots_plays_the_games_own_bot_and_prints_race_health_first(grid: str,
                                                                                      tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "toy-grid", "-n", "40", "-o", "pole_wins=true", "--skill",
                                 "--out", str(tmp_path), "--setup", SETUP[0]])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("toy-grid: race health (40 races, heuristic in every seat)")
    assert "grid slot = turn order: grid slot 1 wins 100% against a fair 25%: unbalanced, p < 0.001" in out
    assert "grid row: grid row 1 wins 100% against a fair 50%: unbalanced, p < 0.001" in out
    assert "skill share: heuristic wins 25% (" in out and "skill share 0% (" in out
    assert out.index("race health") < out.index("by seat")
    page = build(tmp_path).read_text()
    assert page.index("Race health") < page.index("Win rates and places")
    assert "Skill share" in page and "grid slot 1 wins 100% against a fair 25%: unbalanced" in page


def test_a_game_without_a_bot_of_its_own_plays_random_bots(grid: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from slipstream.engine import hooks

    monkeypatch.setitem(hooks._CACHE, toyraces.ToyGrid, dataclasses.replace(toyraces.HOOKS, heuristic_bot=None))
    result = runner.invoke(app, ["simulate", "toy-grid", "-n", "4", "--out", str(tmp_path), "--setup", SETUP[0]])
    assert result.exit_code == 0, result.output
    assert "random in every seat" in result.output
    refused = runner.invoke(app, ["simulate", "toy-grid", "-n", "4", "--skill", "--out", str(tmp_path / "b"),
                                  "--setup", SETUP[0]])
    assert refused.exit_code == 2 and "no bot of its own" in refused.output


def test_skill_bots_are_two_bots_and_need_skill(grid: str, tmp_path: Path) -> None:
    for extra, message in ((["--skill", "--skill-bots", "heuristic"], "takes two bots"),
                           (["--skill-bots", "heuristic,random"], "needs --skill")):
        result = runner.invoke(app, ["simulate", "toy-grid", "-n", "4", "--out", str(tmp_path), "--setup",
                                     SETUP[0], *extra])
        assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / "run.json").exists(), "refused before any race"


def test_the_sweep_tables_fit_80_columns_with_every_name_whole() -> None:
    """Long point names used to be cut to "rush_atta…" in one wide table: each point gets a table of its own
    whose columns keep their width whatever the sweep's size."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from slipstream.cli.sim_cmd import difference_tables

    def races(shift: float) -> list[dict[str, Any]]:
        return [{"index": i, "bots": ["b"] * 4, "turn_order": [0, 1, 2, 3], "lead_changes": 1 + i % 3 + shift,
                 "result": {"winners": [(i + int(shift)) % 4]},
                 "metrics": {"turns": 20.0 + i + shift, "rounds": 5.0 + shift,
                             "damage_from_the_rocket_booster": 1.0 + i % 2 + 6 * shift}}
                for i in range(12)]

    names = [f"rush_attacks=per-race,gear_lines=upshift-at-high-revs,players={p}" for p in (2, 4, 5, 6)]
    outcomes = [SimpleNamespace(out_dir=Path("runs") / name, races=races(k)) for k, name in enumerate(names)]
    console = Console(width=80, file=io.StringIO(), record=True)
    for table in difference_tables(outcomes):
        console.print(table)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text and "..." not in text
    for name in names[1:]:
        assert f"{name} against {names[0]}" in " ".join(text.split())
    for words in ("difference (95% CI)", "baseline", "change", "Lead changes"):
        assert words in text
    tokens = text.split()
    assert all(word in tokens for word in ["Damage", "from", "the", "rocket", "booster"]), "wrapped in words"
    assert "+400%" in text and "+1200%" in text, "one table per point: its own changes"
    share = next(line for line in text.splitlines() if "First to play over fair" in line)
    assert " pt " in share and "%" not in share, "a share's difference in points, no change in %"


def test_a_skill_run_gives_the_same_races_whatever_the_jobs(grid: str, tmp_path: Path) -> None:
    skill = skill_config(config(16), "heuristic", "random")
    one = run(skill, tmp_path / "one", jobs=1).races
    two = run(skill, tmp_path / "two", jobs=2).races
    assert one == two and len(one) == 16


def test_a_cooperative_game_has_no_skill_share(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "highway-heist", "-n", "2", "--skill", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "is cooperative" in result.output
