"""Train MaskablePPO (sb3-contrib) on a two-player race through the Gymnasium bridge, and draw its learning curve.

    PYTHONPATH=src .venv/bin/python -m examples.train_maskable_ppo [--game brc-grand-prix] [--budget 200000]
        [--points 10] [--races 200] [--against random] [--seed 0] [--plot curve.png] [--save learner.zip]

The learner plays one seat of a two-player race of ``--game`` (``slipstream/<game>-v0``, the game's declared
observation: every slot in [0, 1]) against the random bot (``--against heuristic``: the game's heuristic bot;
``both``: half its races against each), half its environments in seat 0 and half in seat 1; the action mask
(``env.action_masks()``) keeps it to the legal actions. It learns from the +1/-1 at the end of each race only
(``Settings`` holds the PPO settings: an update every 1,024 decisions). Every ``--budget / --points`` learner
decisions it plays ``--races`` races greedily (its most likely legal action) against the random bot and
against the game's heuristic bot, half in each seat, on seeds it never trained on; the untrained policy is the
curve's first point. The heuristic bot plays the same races, as the line to reach. Needs the ``rl`` extra
(``pip install -e '.[rl]'``).

The run is deterministic for a given ``--seed``, game and budget (one torch thread; only the times vary).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, cast

import gymnasium
import numpy as np
import torch
import typer
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

try:  # Typer 0.29 and later carry their own copy of Click (as slipstream.cli.common says)
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - an older Typer, on Click itself
    from click import ClickException  # type: ignore[assignment]

from slipstream.bots.registry import make_bot
from slipstream.cli.common import fail, one_line
from slipstream.interop.gymnasium import SlipstreamEnv, env_id

GAMES = {"brc-grand-prix": "BRC Grand Prix", "scrap-racer": "Scrap Racer"}
"""The two-player races this example trains on, with the names a reader sees."""
OPPONENTS = ("random", "heuristic")
TRAINING = {"random": "against the random bot", "heuristic": "against the heuristic bot",
            "both": "half against each bot"}
"""``--against``: the bots the learner trains against."""
EVALUATION_SEED = 10**9
"""Evaluation races are reset with seeds from here on; training's come from ``--seed`` (each race's game seed is
then a 31-bit draw from its reset seed, so a race met in both is as unlikely as two equal draws)."""

Policy = Callable[[np.ndarray, np.ndarray, SlipstreamEnv], int]
"""Chooses an action number from the observation, the action mask and the environment (for a bot)."""


@dataclass
class Settings:
    """MaskablePPO's settings for a race: one update every ``steps * environments`` decisions."""

    environments: int = 4
    steps: int = 256
    batch: int = 256
    epochs: int = 4
    learning_rate: float = 1e-3
    entropy: float = 0.01
    gamma: float = 1.0
    layers: tuple[int, ...] = (64, 64)
    against: tuple[str, ...] = ("random",)
    """The bots it trains against: environment ``i`` plays seat ``i % 2`` against ``against[i // 2 % len]``."""


@dataclass
class Point:
    """One point of the learning curve: the win rates after ``steps`` learner decisions."""

    steps: int
    seconds: float
    win_rates: dict[str, float] = field(default_factory=dict)


def make_env(game: str, seat: int, opponent: str) -> gymnasium.Env[Any, Any]:
    return gymnasium.make(env_id(game), players=2, seat=seat, opponents=opponent)


def make_model(game: str, seed: int, settings: Settings | None = None) -> MaskablePPO:
    """An untrained MaskablePPO learner for ``game``, its environments half in each seat (``Settings``)."""
    settings = settings or Settings()
    torch.set_num_threads(1)  # deterministic, and one core of a shared machine
    against = settings.against
    vector = DummyVecEnv([partial(make_env, game, index % 2, against[index // 2 % len(against)])
                          for index in range(settings.environments)])
    return MaskablePPO(
        "MlpPolicy", vector, seed=seed, n_steps=settings.steps, batch_size=settings.batch,
        n_epochs=settings.epochs, learning_rate=settings.learning_rate, ent_coef=settings.entropy,
        gamma=settings.gamma, policy_kwargs={"net_arch": list(settings.layers)}, device="cpu")


def model_policy(model: MaskablePPO) -> Policy:
    """The learner's greedy play: its most likely legal action."""

    def choose(observation: np.ndarray, mask: np.ndarray, env: SlipstreamEnv) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def bot_policy(name: str, game: str, seed: int) -> Policy:
    """A Slipstream bot playing the learner's seat, through the action numbers."""
    bot = make_bot(name, game, seed)

    def choose(observation: np.ndarray, mask: np.ndarray, env: SlipstreamEnv) -> int:
        state = env.table.state
        action: str = bot.choose(state, env.learner)
        if isinstance(state.actor, frozenset):  # a simultaneous choice names its seat: "0:go"
            action = action.split(":", 1)[1]
        return int(env.table.spec.action_id(action))

    return choose


def win_rate(player: MaskablePPO | str, game: str, opponent: str, races: int, seed: int = EVALUATION_SEED) -> float:
    """The share of ``races`` that ``player`` (a learner, or a bot's name) wins against ``opponent``, half in
    each seat, race ``i`` on seed ``seed + i``."""
    envs = [cast(SlipstreamEnv, make_env(game, seat, opponent).unwrapped) for seat in (0, 1)]
    wins = 0
    for race in range(races):
        env = envs[race % 2]
        choose = model_policy(player) if isinstance(player, MaskablePPO) else bot_policy(player, game, seed + race)
        observation, info = env.reset(seed=seed + race)
        while True:
            observation, reward, terminated, truncated, info = env.step(choose(observation, info["action_mask"], env))
            if terminated or truncated:
                wins += reward > 0
                break
    return wins / races


class CurveCallback(BaseCallback):
    """Measures the learner every ``every`` decisions (at the first update past each multiple)."""

    def __init__(self, game: str, every: int, races: int, started: float, curve: list[Point]) -> None:
        super().__init__()
        self.game, self.every, self.races, self.started, self.curve = game, every, races, started, curve

    def _on_step(self) -> bool:
        return True

    def _on_rollout_start(self) -> None:  # the policy trained on every decision counted so far
        if self.num_timesteps >= self.curve[-1].steps + self.every:
            model = cast(MaskablePPO, self.model)
            self.curve.append(measure(model, self.game, self.races, self.num_timesteps, self.started))


def measure(model: MaskablePPO, game: str, races: int, steps: int, started: float) -> Point:
    seconds = time.process_time() - started
    return Point(steps, seconds, {opponent: win_rate(model, game, opponent, races) for opponent in OPPONENTS})


def learning_curve(game: str, budget: int, points: int, races: int, seed: int,
                   settings: Settings | None = None) -> tuple[MaskablePPO, list[Point]]:
    """Train a learner for ``budget`` decisions, measuring it about ``points`` times (and untrained first)."""
    started = time.process_time()
    model = make_model(game, seed, settings)
    curve = [measure(model, game, races, 0, started)]
    model.learn(total_timesteps=budget, callback=CurveCallback(game, max(1, budget // points), races, started, curve))
    if curve[-1].steps < model.num_timesteps:
        curve.append(measure(model, game, races, model.num_timesteps, started))
    return model, curve


def interval(rate: float, races: int) -> float:
    """The half-width of a 95% interval around a win rate."""
    return 1.96 * math.sqrt(rate * (1 - rate) / races)


def plot(curve: list[Point], references: dict[str, float], game: str, races: int, against: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    steps = [point.steps for point in curve]
    for opponent, colour in zip(OPPONENTS, ("tab:blue", "tab:red"), strict=True):
        rates = np.array([point.win_rates[opponent] for point in curve])
        spread = np.array([interval(rate, races) for rate in rates])
        axes.plot(steps, rates, marker="o", color=colour, label=f"MaskablePPO against the {opponent} bot")
        axes.fill_between(steps, rates - spread, rates + spread, color=colour, alpha=0.15)
        axes.axhline(references[opponent], color=colour, linestyle="--",
                     label=f"the heuristic bot against the {opponent} bot")
    axes.set_ylim(0, 1)
    axes.set_xlabel(f"learner decisions in training ({TRAINING[against]})")
    axes.xaxis.set_major_formatter(lambda value, _: f"{value:,.0f}")
    axes.set_ylabel(f"win rate over {races} races")
    axes.set_title(f"MaskablePPO learning two-player {GAMES[game]}")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)


app = typer.Typer(add_completion=False)


@app.command()
def main(
    game: Annotated[str, typer.Option(help="brc-grand-prix or scrap-racer")] = "brc-grand-prix",
    budget: Annotated[int, typer.Option(min=1, help="learner decisions to train for")] = 200_000,
    points: Annotated[int, typer.Option(min=1, help="how many times to measure the learner while it trains")] = 10,
    races: Annotated[int, typer.Option(min=2, help="races per measurement against each bot")] = 200,
    against: Annotated[str, typer.Option(help="train against the random bot, the heuristic bot or both")] = "random",
    seed: Annotated[int, typer.Option(help="seeds the network, the training races and the bots")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help="write the learning curve here (PNG)")] = None,
    save: Annotated[Path | None, typer.Option(help="save the trained learner here (MaskablePPO.load reads it)")] = None,
) -> None:
    """Train MaskablePPO on a two-player race against bots and print its learning curve."""
    if game not in GAMES:
        raise fail(f"--game {game!r} is not one of {', '.join(GAMES)}")
    if against not in TRAINING:
        raise fail(f"--against {against!r} is not one of {', '.join(TRAINING)}")
    references = {opponent: win_rate("heuristic", game, opponent, races) for opponent in OPPONENTS}
    bots = OPPONENTS if against == "both" else (against,)
    model, curve = learning_curve(game, budget, points, races, seed, Settings(against=bots))
    print(f"two-player {GAMES[game]}, trained {TRAINING[against]}; win rates over {races} races "
          f"(half in each seat; a 95% interval is +- {interval(0.5, races):.3f} at 0.5)")
    print(f"{'decisions':>10} {'CPU s':>7} {'vs random':>10} {'vs heuristic':>13}")
    for point in curve:
        print(f"{point.steps:>10,} {point.seconds:>7.0f} {point.win_rates['random']:>10.3f} "
              f"{point.win_rates['heuristic']:>13.3f}")
    print(f"{'heuristic bot':>18} {references['random']:>10.3f} {references['heuristic']:>13.3f}")
    if save is not None:
        model.save(save)
        print(f"trained learner: {save}")
    if plot_path is not None:
        plot(curve, references, game, races, against, plot_path)
        print(f"learning curve: {plot_path}")


def run(arguments: list[str] | None = None) -> int:
    """Run the command; Click's own errors (``--budget abc``) print as one line too. Its exit code."""
    try:
        code = app(args=arguments, standalone_mode=False, prog_name="python -m examples.train_maskable_ppo")
    except ClickException as exc:
        print(f"error: {one_line(exc.format_message())}; see --help", file=sys.stderr)
        return 2
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(run())
