"""The simulator on every registered game, through the engine contract and each game's metrics."""

from __future__ import annotations

from pathlib import Path

import pytest

import slipstream
from slipstream.bots.registry import bot_names
from slipstream.engine import registry
from slipstream.engine.game import State
from slipstream.engine.hooks import hooks_of
from slipstream.sim import SimConfig, run, store
from slipstream.sim.race import play_race
from slipstream.sim.report import build
from slipstream.sim.sweep import run_sweep
from tests import toygame
from tests.per_game import game_ids, games_with

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_simulates_replays_and_reports(game_id: str, tmp_path: Path) -> None:
    cls = registry.game_class(game_id)
    bots = ["greedy" if "greedy" in bot_names(game_id) else "random", "random"]
    bots = (bots * cls.max_players)[: cls.default_players]
    outcome = run(SimConfig(game_id, cls.default_players, tuple(bots), n=4, seed=7), tmp_path, jobs=1)
    assert len(outcome.races) == 4
    for race in store.iter_races(tmp_path, full=True):
        assert race["metrics"]["turns"] > 0 and race["metrics"]["rounds"] > 0
        final = slipstream.replay({k: race[k] for k in ("game", "version", "options", "seed", "actions")})
        assert final.result is not None and final.result.to_json() == race["result"]
    assert "data:image/png;base64," in build(tmp_path).read_text()


def test_scrap_racer_track_a_against_the_short_race(tmp_path: Path) -> None:
    """The issue's sweep example: the short race is shorter than the full race on Track A."""
    base = SimConfig("scrap-racer", 4, ("random",), n=6, seed=3)
    full, short = run_sweep(base, {"short": ["false", "true"]}, tmp_path, jobs=1)
    assert sum(r["metrics"]["rounds"] for r in short.races) < sum(r["metrics"]["rounds"] for r in full.races)
    assert all(r["labels"] for r in full.races), "Scrap Racer names the racer of each seat"


@pytest.mark.parametrize("game_id", games_with("race_metrics"))
def test_the_metrics_counted_in_play_are_the_games_race_metrics(game_id: str) -> None:
    """The simulator's numbers of a race are the game's ``race_metrics`` of its final state, also where a
    ``metrics_tally`` counts them during play instead of replaying the race (Rush 'n' Crush)."""
    cls = registry.game_class(game_id)
    race_metrics = hooks_of(cls).race_metrics
    assert race_metrics is not None
    game = slipstream.load(game_id, players=cls.default_players)
    bots = (["greedy" if "greedy" in bot_names(game_id) else "random", "random"] * cls.max_players)[: game.players]
    for seed in range(3):
        race = play_race(game, seed, bots)
        final = slipstream.replay({k: race[k] for k in ("game", "version", "options", "seed", "actions")})
        expected = {key: float(value) for key, value in race_metrics(final).items()}
        assert {key: race["metrics"][key] for key in expected} == expected


def test_a_game_with_a_tally_is_not_replayed_for_its_metrics(toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a ``metrics_tally`` the simulator feeds it every action (chance outcomes included) and never
    calls ``race_metrics``, which would replay the race."""

    class Tally:
        def __init__(self, start: State) -> None:
            self.actions = 0

        def observe(self, before: State, after: State) -> None:
            assert after.ply == before.ply + 1
            self.actions += 1

        def result(self, final_state: State) -> dict[str, float]:
            return {"actions seen": float(self.actions)}

    def replaying(final_state: State) -> dict[str, float]:
        raise AssertionError("race_metrics called")

    toygame.use_hooks(monkeypatch, race_metrics=replaying, metrics_tally=Tally)
    race = play_race(slipstream.load("toy-dash", players=3, length=20, sprint=True), 5, ["random"] * 3)
    assert race["metrics"]["actions seen"] == len(race["actions"]) > race["decisions"]


def test_each_games_start_positions_and_turn_order() -> None:
    """Every racing game says where each seat started: Rush 'n' Crush its grid slot and row (two a row),
    whose order is round 1's order of play; BRC its grid slot, the first round's order of play (its rolls
    are no decisions, so the game says it); Scrap Racer the start order, clockwise from the start player,
    which is the order of play; Rev it Up the seat order, and no order of play (the racers draw at once)."""
    def race_of(game_id: str, seed: int) -> dict[str, object]:
        game = slipstream.load(game_id)
        return play_race(game, seed, ["heuristic"] * game.players)

    for seed in range(2):
        rush = race_of("rush-n-crush", seed)
        slots, rows = rush["start"]["grid slot"], rush["start"]["grid row"]  # type: ignore[index]
        assert sorted(slots) == [1, 2, 3, 4] and rows == [(slot + 1) // 2 for slot in slots]
        assert rush["turn_order"] == sorted(range(4), key=slots.__getitem__)
        brc = race_of("brc-grand-prix", seed)
        grid = brc["start"]["grid slot"]  # type: ignore[index]
        assert sorted(grid) == [1, 2, 3, 4] and brc["turn_order"] == sorted(range(4), key=grid.__getitem__)
        scrap = race_of("scrap-racer", seed)
        start = scrap["start"]["start order"]  # type: ignore[index]
        assert scrap["turn_order"] == sorted(range(4), key=start.__getitem__)
        assert [(start[(k + 1) % 4] - start[k]) % 4 for k in range(4)] == [1, 1, 1, 1], "clockwise"
        rev = race_of("rev-it-up", seed)
        assert rev["start"] == {"seat order": [1, 2, 3, 4]} and rev["turn_order"] == []


def test_simulate_rush_n_crush_without_bots_prints_the_first_to_play_and_the_start_position_test(
        tmp_path: Path) -> None:
    """The issue's command, with fewer races: the game's own bot in every seat, the grid slot (the turn
    order) and row tests in one sentence each, and the first to play."""
    from typer.testing import CliRunner

    from slipstream.cli.main import app

    result = CliRunner().invoke(app, ["simulate", "rush-n-crush", "-n", "4", "--players", "4", "--out",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("rush-n-crush: race health (4 races, heuristic in every seat)")
    assert "grid slot = turn order: grid slot " in out and "grid row: grid row " in out
    assert "against a fair 25%" in out and "against a fair 50%" in out
    assert "first to play wins " in out
