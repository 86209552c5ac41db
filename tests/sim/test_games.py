"""The simulator on every registered game, through the engine contract and each game's metrics."""

from __future__ import annotations

from pathlib import Path

import pytest

import slipstream
from slipstream.bots.registry import bot_names
from slipstream.engine import registry
from slipstream.sim import SimConfig, run, store
from slipstream.sim.report import build
from slipstream.sim.sweep import run_sweep

GAMES = sorted(registry.games())


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
