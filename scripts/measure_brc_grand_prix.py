"""The BRC Grand Prix rulebook's numbers, checked with heuristic bots over many races.

    python scripts/measure_brc_grand_prix.py [--races N]

1. Dynamic Weather: how often two consecutive movement rolls of 6 flip the weather in a 4-player,
   8-lap race (the rulebook: "1 in 36 ... rare but statistically likely to occur at least once").
2. Sprint: how often a SOFT roll locks up (the rulebook's odds follow from 2d6: 11/36 = 30.6%).
3. The safety car: how often it comes out in a standard 4-player, 8-lap race.
Figures are means over races with a 95% normal-approximation interval.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import slipstream
from slipstream.engine.game import State
from slipstream.engine.play import play
from slipstream.games.brc_grand_prix.bot import HeuristicBot
from slipstream.games.brc_grand_prix.metrics import race_metrics


def mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def races(options: dict[str, object], count: int,
          on_step: Callable[[State], None] | None = None) -> list[dict[str, float]]:
    game = slipstream.load("brc-grand-prix", players=4, **options)
    out = []
    for seed in range(count):
        bots = [HeuristicBot(seed * 10 + seat) for seat in range(4)]
        final = play(game.start(seed=seed), bots, on_step=on_step)
        out.append(race_metrics(final))
    return out


def show(label: str, values: list[float], unit: str = "") -> None:
    mean, half = mean_ci(values)
    print(f"  {label:<52s} {mean:8.3f} ± {half:.3f}{unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=2000)
    n = parser.parse_args().races

    print(f"BRC Grand Prix, 4 heuristic bots, 8 laps, {n} races per configuration")

    pairs = {"pairs": 0, "both_six": 0}
    last: list[tuple[int, int]] = []

    def count_pairs(state: State) -> None:
        for event in state.events:
            if event.kind == "roll" and isinstance(event.data.get("roll"), int):
                seat, roll = int(event.data["seat"]), int(event.data["roll"])
                if last and last[0][0] != seat:
                    pairs["pairs"] += 1
                    pairs["both_six"] += last[0][1] == 6 and roll == 6
                last[:] = [(seat, roll)]
            elif event.kind == "grid":
                last.clear()

    dyn = races({"dynamic_weather": True}, n, count_pairs)
    print("Dynamic Weather on (standard mode):")
    show("dynamic-weather flips per race", [m["dynamic_weather_flips"] for m in dyn])
    show("races with at least one dynamic flip (share)", [float(m["dynamic_weather_flips"] > 0) for m in dyn])
    show("all weather flips per race (incl. Weather Change space)", [m["weather_flips"] for m in dyn])
    rate = pairs["both_six"] / pairs["pairs"] if pairs["pairs"] else 0.0
    print(f"  consecutive movement-roll pairs by different drivers: {pairs['pairs']}, both 6: "
          f"{pairs['both_six']} = {rate:.4f} (1/36 = {1 / 36:.4f})")
    print(f"  movement-roll pairs per race: {pairs['pairs'] / n:.1f}")

    sprint = races({"sprint": True}, n)
    rolls = sum(m["sprint_soft_rolls"] for m in sprint)
    locks = sum(m["sprint_lockups"] for m in sprint)
    print("Sprint mode:")
    print(f"  SOFT rolls {rolls:.0f}, lock-ups {locks:.0f}: {locks / rolls:.4f} (11/36 = {11 / 36:.4f})")
    show("lock-ups per race", [m["sprint_lockups"] for m in sprint])

    std = races({}, n)
    print("Standard race (no options):")
    show("safety cars per race", [m["safety_cars"] for m in std])
    show("races with at least one safety car (share)", [m["safety_car_out"] for m in std])
    show("overtake attempts per race", [m["overtake_attempts"] for m in std])
    show("collisions per attempt", [m["collisions"] / m["overtake_attempts"] for m in std
                                    if m["overtake_attempts"]])
    show("weather flips per race (Weather Change space)", [m["weather_flips"] for m in std])
    show("pit stops per race", [m["pit_stops"] for m in std])
    show("rounds per race", [m["rounds"] for m in std])
    show("turns per race (all cars)", [m["turns"] for m in std])
    show("pit-window penalties per race", [m["penalties"] for m in std])


if __name__ == "__main__":
    main()
