"""A standard deep-RL library learns a Slipstream race: MaskablePPO (sb3-contrib, the ``rl`` extra) trained on
two-player BRC Grand Prix against the random bot through the Gymnasium bridge (``examples/train_maskable_ppo.py``,
docs/interop.md "Training an agent").

The learner's greedy win rate against the random bot is measured over the same 200 seeded races (half in each
seat, seeds training never meets) before and after a small budget of training. Everything is seeded and torch
runs one thread, so the figures are the same on every run of the same build: with seed 0, 0.330 untrained and
0.785 after 6,144 decisions (seeds 1 and 2: 0.405 to 0.785, 0.440 to 0.745). The check is that the rate rises
well above the untrained policy's: by more than 0.15, three standard errors of the difference of two 200-race
rates near 0.5, and to at least 0.6. A learner that does not learn (learning rate 0) fails that same check.
About 40 seconds on one core of the pure-Python build.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from examples.train_maskable_ppo import Settings, make_model, run, win_rate

pytestmark = pytest.mark.slow

GAME = "brc-grand-prix"
BUDGET = 6_144
"""Learner decisions: six updates of 4 environments x 256 steps, about 350 races."""
RACES = 200
MARGIN = 0.15
FLOOR = 0.6


def before_and_after(learning_rate: float, seed: int = 0) -> tuple[float, float]:
    """The learner's win rate against the random bot untrained, then after ``BUDGET`` decisions of training."""
    model = make_model(GAME, seed, Settings(learning_rate=learning_rate))
    before = win_rate(model, GAME, "random", RACES)
    model.learn(total_timesteps=BUDGET)
    assert model.num_timesteps >= BUDGET
    return before, win_rate(model, GAME, "random", RACES)


def rises_well_above(before: float, after: float) -> bool:
    return after - before > MARGIN and after >= FLOOR


def test_training_raises_the_win_rate_against_random_well_above_the_untrained_policy() -> None:
    before, after = before_and_after(learning_rate=1e-3)
    assert rises_well_above(before, after), f"untrained {before:.3f}, trained {after:.3f}"


def test_a_learner_that_does_not_learn_fails_the_same_check() -> None:
    before, after = before_and_after(learning_rate=0.0)
    assert before == after  # the same greedy policy on the same seeded races
    assert not rises_well_above(before, after)


def parameters_after_training(seed: int) -> list[torch.Tensor]:
    model = make_model(GAME, seed)
    model.learn(total_timesteps=1_024)
    return [tensor.detach().clone() for tensor in model.policy.parameters()]


def test_a_seed_fixes_the_training() -> None:
    first, again, other = parameters_after_training(0), parameters_after_training(0), parameters_after_training(1)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(first, other, strict=True))


def test_the_example_prints_its_curve_and_draws_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "curve.png"
    assert run(["--budget", "1024", "--points", "1", "--races", "4", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "two-player BRC Grand Prix, trained against the random bot; win rates over 4 races" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [row[0] for row in rows] == ["0", "1,024"]
    assert all(0 <= float(rate) <= 1 for row in rows for rate in row[2:])
    assert "heuristic bot" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--game", "chess"], "error: --game 'chess' is not one of brc-grand-prix, scrap-racer"),
    (["--budget", "lots"], "error: Invalid value for '--budget'"),
])
def test_bad_input_is_one_line_and_exit_code_2(arguments: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert run(arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and len(err.strip().splitlines()) == 1, err
