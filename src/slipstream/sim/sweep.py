"""Sweeps: the same run over a grid of rule options, one sub-directory per point, compared in the report.

``--sweep laps=4,8 --sweep weather=true,false`` runs the four combinations. ``players`` may be swept
too; an option whose values hold commas is swept with ``|`` between its values
(``--sweep "characters=dom,brian,letty|han,tej,roman"``). Every point uses the same master seed (common
random numbers), so differences between points come from the rules, not from luck of the draw, as far as
the games' chance sequences line up.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import store
from .runner import Progress, RunOutcome, SimConfig, SimError, check_out_dir, run, validate

SWEEP_FILE = "sweep.json"


def parse_sweep(items: Sequence[str]) -> dict[str, list[str]]:
    """``["laps=4,8", "track=A,B"]`` -> ``{"laps": ["4", "8"], "track": ["A", "B"]}``.

    Values that hold commas themselves (a list option such as ``characters=dom,brian|han,tej``) are
    separated by ``|`` instead: a value list with a ``|`` is split on ``|`` only.
    """
    out: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        parts = [v.strip() for v in values.split("|" if "|" in values else ",") if v.strip()]
        if not sep or not key or not parts:
            raise SimError(f"bad sweep {item!r}: write KEY=VALUE1,VALUE2,...")
        if key in out:
            raise SimError(f"option {key!r} is swept twice: give it once, with every value")
        twice = sorted({v for v in parts if parts.count(v) > 1})
        if twice:
            raise SimError(f"--sweep {item.strip()} names {key}={twice[0]} twice: each point once, please")
        out[key] = parts
    return out


def grid(sweep: dict[str, list[str]]) -> list[dict[str, str]]:
    """Every combination of the swept values, in the order given."""
    keys = list(sweep)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(sweep[k] for k in keys))]


def point_name(point: dict[str, str]) -> str:
    """The sub-directory and label of a point: ``laps=4,track=A``."""
    return ",".join(f"{k}={v}" for k, v in point.items())


def point_dir(point: dict[str, str]) -> str:
    """A safe directory name for a point (a value such as a file path loses its slashes)."""
    return re.sub(r"[^A-Za-z0-9=,._-]", "_", point_name(point))


def point_config(base: SimConfig, point: dict[str, str]) -> SimConfig:
    options = dict(base.options)
    players = base.players
    for key, value in point.items():
        if key == "players":
            try:
                players = int(value)
            except ValueError:
                raise SimError(f"players must be a whole number, not {value!r}") from None
        else:
            options[key] = value
    bots = base.bots
    if not base.rotate and len(bots) not in (1, players):
        raise SimError(f"sweeping players to {players} needs one bot for every seat (e.g. --bots greedy)")
    return replace(base, options=options, players=players)


def check_sweep(base: SimConfig, sweep: dict[str, list[str]], out_dir: Path) -> list[SimConfig]:
    """Every point's settings checked, and its directory (a clear error before any race); the configs.

    An option both fixed (``-o laps=4``) and swept is refused (which one was meant?), and so are two points
    that load the same game (``laps=4,04``): the sweep would play the same races twice."""
    if out_dir.exists() and not out_dir.is_dir():
        raise SimError(f"{out_dir} is a file, not a directory: choose another --out")
    both = [key for key in sweep if key in base.options]
    if both:
        key = both[0]
        raise SimError(f"option {key!r} is both fixed (-o {key}={base.options[key]}) and swept (--sweep "
                       f"{key}={','.join(sweep[key])}): give it once")
    configs = []
    seen: dict[str, str] = {}
    for point in grid(sweep):
        config = point_config(base, point)
        game = validate(config)
        same = seen.setdefault(repr(sorted(game.record_options().items(), key=str)), point_name(point))
        if same != point_name(point):
            raise SimError(f"the sweep's points {same} and {point_name(point)} are the same settings: each point "
                           "once, please")
        check_out_dir(config, out_dir / point_dir(point))
        configs.append(config)
    return configs


def run_sweep(base: SimConfig, sweep: dict[str, list[str]], out_dir: Path, jobs: int = 1,
              backend: str = "process", address: str | None = None,
              progress: Callable[[str], Progress] | None = None, verbose: bool = False) -> list[RunOutcome]:
    """Run every point of the grid into ``out_dir/<point>``; ``progress(point)`` gives a callback."""
    points = grid(sweep)
    configs = check_sweep(base, sweep, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    meta: dict[str, Any] = {
        "base": base.to_json(),
        "sweep": sweep,
        "points": [{"name": point_name(p), "dir": point_dir(p), "values": p} for p in points],
    }
    store.write_json(out_dir / SWEEP_FILE, meta)
    outcomes = []
    for point, config in zip(points, configs, strict=True):
        name = point_name(point)
        outcome = run(config, out_dir / point_dir(point), jobs=jobs, backend=backend, address=address,
                      progress=progress(name) if progress else None, point=point, verbose=verbose)
        outcomes.append(outcome)
        if outcome.interrupted:
            break
    return outcomes
