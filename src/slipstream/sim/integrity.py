"""Whether a run folder holds what its ``run.json`` says, and the command that repairs it when not.

A run's folder can be damaged outside the simulator: its records replaced, cut short or deleted, a table
removed. ``report`` would then have shown "0 of 300 races" or "149 of 300" as if the run were so, so it
checks first (``inspect``) and names each problem with the command that repairs it: the same ``simulate``
(or ``tournament``) again, which reads the records up to their last whole race and plays the rest, with
the same seeds, so the repaired folder is the one the first run wrote. ``simulate`` checks too, and says
what it repairs.

A run whose ``run.json`` says ``running`` is not checked: it may be writing right now (or was stopped
without closing, by ``kill -9``: the same command resumes it).
"""

from __future__ import annotations

import importlib.util
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import store
from .runner import SKILL_DIR, SimConfig, SimError
from .sweep import SWEEP_FILE
from .tournament import TOURNAMENT_FILE


class DamagedRunError(SimError):
    """A run folder that does not hold what its ``run.json`` says (the message says what, and the repair)."""

    code = "damaged_run"


@dataclass(frozen=True)
class Damage:
    """What is wrong with one run folder, and the command that repairs it."""

    directory: Path
    problems: tuple[str, ...]
    repair: str

    def sentence(self) -> str:
        return f"{self.directory} is damaged: {'; '.join(self.problems)}"


def _rows(path: Path) -> int:
    """The data rows of a CSV table (its lines less the header; no value of ours holds a line break)."""
    with open(path, "rb") as fh:
        return max(0, sum(1 for _ in fh) - 1)


def problems(directory: Path) -> list[str]:
    """Each thing wrong with the run in ``directory``, in words (none: it holds what ``run.json`` says)."""
    meta = store.read_json(directory / store.RUN_FILE)
    config = SimConfig.from_json(meta["config"])
    counted = meta.get("races")
    if meta.get("status") == "running" or not isinstance(counted, int):
        return []
    found: list[str] = []
    records = store.scan(directory / store.RACES_FILE)
    whole = 0 if records is None else records.below(config.n)
    if records is None:
        if counted:
            found.append(f"{store.RACES_FILE} is missing (run.json counts {counted} races)")
    elif records.torn and not records.indices:
        found.append(f"{store.RACES_FILE} cannot be read: it is not a records file (run.json counts {counted} races)")
    elif records.torn:
        found.append(f"{store.RACES_FILE} is cut short after {whole} whole races (run.json counts {counted})")
    elif whole != counted:
        found.append(f"{store.RACES_FILE} holds {whole} races, run.json counts {counted}")
    if counted:
        table = directory / store.CSV_FILE
        if not table.exists():
            found.append(f"{store.CSV_FILE} is missing")
        elif _rows(table) != counted * config.players:
            found.append(f"{store.CSV_FILE} has {_rows(table)} rows, not {counted * config.players} (one per race "
                         "and seat)")
        if importlib.util.find_spec("pyarrow") is not None and not (directory / store.PARQUET_FILE).exists():
            found.append(f"{store.PARQUET_FILE} is missing")
        if config.rotate and meta.get("status") == "complete" and not (directory / TOURNAMENT_FILE).exists():
            found.append(f"{TOURNAMENT_FILE} is missing")
    return found


def _settings(config: SimConfig, players: bool = True) -> list[str]:
    """The options of ``simulate`` or ``tournament`` that give ``config``'s races (not ``--out``)."""
    words = [config.game, "-n", str(config.n)]
    if players:
        words += ["--players", str(config.players)]
    words += ["--bots", ",".join(config.bots)]
    for key, value in config.options.items():
        words += ["-o", f"{key}={value}"]
    words += ["--seed", str(config.seed)]
    for module in config.setup:
        words += ["--setup", module]
    return words


def repair_command(directory: Path) -> str:
    """The command that made the run in ``directory`` (a run, a sweep's point, a skill run, a tournament),
    which run again repairs it."""
    parent = directory.parent
    if (parent / SWEEP_FILE).exists():
        meta = store.read_json(parent / SWEEP_FILE)
        base = SimConfig.from_json(meta["base"])
        sweep: dict[str, list[str]] = meta["sweep"]
        base = SimConfig(base.game, base.players, base.bots, base.n, base.seed,
                         {k: v for k, v in base.options.items() if k not in sweep}, base.rotate, base.setup)
        words = ["simulate", *_settings(base, players="players" not in sweep)]
        for key, values in sweep.items():
            joiner = "|" if any("," in v for v in values) else ","
            words += ["--sweep", f"{key}={joiner.join(values)}"]
        return shlex.join(["slipstream", *words, "--out", str(parent)])
    if directory.name == SKILL_DIR and (parent / store.RUN_FILE).exists():
        skill = SimConfig.from_json(store.read_json(directory / store.RUN_FILE)["config"])
        run = SimConfig.from_json(store.read_json(parent / store.RUN_FILE)["config"])
        return shlex.join(["slipstream", "simulate", *_settings(run), "--skill", "--skill-bots",
                           ",".join(skill.bots), "--out", str(parent)])
    config = SimConfig.from_json(store.read_json(directory / store.RUN_FILE)["config"])
    command = "tournament" if config.rotate else "simulate"
    return shlex.join(["slipstream", command, *_settings(config), "--out", str(directory)])


def runs_in(directory: Path) -> list[Path]:
    """The run folders of a run, sweep or tournament folder: itself, a sweep's points, a skill run."""
    if (directory / SWEEP_FILE).exists():
        points: list[dict[str, Any]] = store.read_json(directory / SWEEP_FILE)["points"]
        return [directory / point["dir"] for point in points if (directory / point["dir"] / store.RUN_FILE).exists()]
    found = [directory] if (directory / store.RUN_FILE).exists() else []
    if (directory / SKILL_DIR / store.RUN_FILE).exists():
        found.append(directory / SKILL_DIR)
    return found


def inspect(directory: Path) -> list[Damage]:
    """Every damaged run folder in ``directory`` (see ``runs_in``), with its problems and its repair."""
    damaged = []
    for run_dir in runs_in(directory):
        found = problems(run_dir)
        if found:
            damaged.append(Damage(run_dir, tuple(found), repair_command(run_dir)))
    return damaged


def describe(damaged: list[Damage]) -> str:
    """Every damage in one line, with the repair (one command when they share it, as a sweep's points do)."""
    repairs = list(dict.fromkeys(d.repair for d in damaged))
    return (f"{'; '.join(d.sentence() for d in damaged)}; to repair it, run the command that made it again "
            f"(it keeps the whole races and plays the rest with the same seeds): {' then '.join(repairs)}")
