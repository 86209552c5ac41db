"""``slipstream simulate``, ``slipstream report`` and ``slipstream tournament``: the analysis tool.

A thin shell over ``slipstream.sim``: bad input (game, option, bot, sweep) prints a clear error listing
what is valid and exits with code 2; Ctrl-C keeps the finished races and exits with code 130.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from slipstream.engine.errors import SlipstreamError
from slipstream.engine.registry import game_class
from slipstream.sim.race import RaceFailed

console = Console()
errors = Console(stderr=True)

OptionList = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A game option KEY=VALUE (repeatable), e.g. -o laps=4.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (or Ray CPUs).")]
Seed = Annotated[int, typer.Option("--seed", help="The master seed: the same seed gives the same races.")]
Out = Annotated[Path | None, typer.Option(
    "--out", help="Output directory (default: runs/<game>-<settings hash>); rerun to resume.")]
Backend = Annotated[str, typer.Option("--backend", help="process (local processes) or ray.")]
Address = Annotated[str | None, typer.Option(
    "--address", help="Ray cluster address (default: start a local Ray).")]
Setup = Annotated[list[str] | None, typer.Option(
    "--setup", hidden=True, help="Modules to import first (module or module:function).")]


def _fail(message: str) -> typer.Exit:
    errors.print(f"[bold red]error:[/] {message}", markup=True, highlight=False)
    return typer.Exit(2)


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``["laps=4", "track=A"]`` -> ``{"laps": "4", "track": "A"}`` (the game converts the values)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad option {item!r}: write KEY=VALUE, e.g. -o laps=4")
        out[key.strip()] = value.strip()
    return out


def _default_out(kind: str, data: dict[str, Any]) -> Path:
    data = {k: v for k, v in data.items() if k not in ("n", "setup")}
    digest = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:8]
    return Path("runs") / f"{data['game']}-{kind}-{digest}"


@contextmanager
def _progress(label: str) -> Iterator[Callable[[str], Callable[[int, int], None]]]:
    """A Rich progress display; ``bar(name)`` gives a ``progress(done, total)`` callback."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        def bar(name: str) -> Callable[[int, int], None]:
            task = progress.add_task(f"{label} {name}".strip(), total=None)

            def update(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)
            return update
        yield bar


def _print_summary(races: list[dict[str, Any]], title: str) -> None:
    from slipstream.sim.stats import fmt_mean, fmt_rate, summarize

    s = summarize(races)
    if not s["races"]:
        console.print("no races")
        return
    for by, name in (("by_seat", "seat"), ("by_bot", "bot"), ("by_label", "racer")):
        groups = s[by]
        if not groups or (by == "by_bot" and len(groups) == 1):
            continue
        table = Table(title=f"{title}: {s['races']} races, by {name}")
        for col in (name, "win rate (95% CI)", "mean place (95% CI)"):
            table.add_column(col)
        for g in groups:
            table.add_row(g["key"], fmt_rate(g["win"]), fmt_mean(g["position"]))
        console.print(table)
    table = Table(title="race numbers (mean per race, 95% CI)")
    table.add_column("")
    table.add_column("mean (95% CI)")
    rows = [(k, d) for k, d in s["length"].items() if d["n"]]
    if s["lead_changes"] is not None:
        rows.append(("lead changes", s["lead_changes"]))
    rows += list(s["metrics"].items())
    for name, d in rows:
        table.add_row(name, fmt_mean((d["mean"], d["lo"], d["hi"])))
    console.print(table)
    fp = s["first_player"]
    console.print(f"first-player advantage: seat 1 wins {fmt_rate(fp['win'])} against a fair "
                  f"{100 * fp['fair']:.1f}% ({100 * fp['advantage'][0]:+.1f} points)"
                  + ("" if fp["same_bots"] else "; the bots differ by seat, so this is not the seat alone"))


def _config(game: str, players: int | None, bots: str, n: int, seed: int, option: list[str] | None,
            setup: list[str] | None, rotate: bool = False) -> Any:
    from slipstream.sim.race import run_setup
    from slipstream.sim.runner import SimConfig, validate

    run_setup(setup or [])
    cls = game_class(game)
    config = SimConfig(game=game, players=players if players is not None else cls.default_players,
                       bots=tuple(b.strip() for b in bots.split(",") if b.strip()), n=n, seed=seed,
                       options=parse_options(option or []), rotate=rotate, setup=tuple(setup or ()))
    validate(config)
    return config


def simulate_command(
    game: Annotated[str, typer.Argument(help="The game id (see slipstream games).")],
    n: Annotated[int, typer.Option("-n", "--races", help="How many races.")] = 1000,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the game's).")] = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="Bots by seat, comma-separated (one name fills every seat): random, greedy, "
        "heuristic, mcts, mcts:400, mcts:0.5s, mcts:200:h (heuristic playouts).")] = "random",
    option: OptionList = None,
    sweep: Annotated[list[str] | None, typer.Option(
        "--sweep", help="Run a grid of options KEY=V1,V2 (repeatable); the report compares them.")] = None,
    jobs: Jobs = 1,
    seed: Seed = 0,
    out: Out = None,
    backend: Backend = "process",
    address: Address = None,
    setup: Setup = None,
) -> None:
    """Simulate races between bots; write records, a results table and print a summary."""
    from slipstream.sim.runner import run
    from slipstream.sim.sweep import parse_sweep, run_sweep

    try:
        config = _config(game, players, bots, n, seed, option, setup)
        grid = parse_sweep(sweep or [])
        out_dir = out or _default_out("sweep" if grid else "sim", {**config.to_json(), "sweep": grid})
        if grid:
            with _progress("") as bar:
                outcomes = run_sweep(config, grid, out_dir, jobs=jobs, backend=backend, address=address,
                                     progress=bar)
        else:
            with _progress(game) as bar:
                outcomes = [run(config, out_dir, jobs=jobs, backend=backend, address=address,
                                progress=bar(""))]
    except (SlipstreamError, ValueError) as exc:
        raise _fail(str(exc)) from None
    except RaceFailed as exc:
        errors.print(f"[bold red]a race failed[/] (a bug in a game or a bot): {exc}", highlight=False)
        raise typer.Exit(1) from None
    for outcome in outcomes:
        title = outcome.out_dir.name if grid else game
        _print_summary(outcome.races, title)
    last = outcomes[-1] if outcomes else None
    console.print(f"records and results in [bold]{out_dir}[/]; slipstream report {out_dir}")
    if last is not None and last.interrupted:
        console.print(f"[yellow]interrupted[/]: {len(last.races)} races kept; run the same command to resume")
        raise typer.Exit(130)


def report_command(
    directory: Annotated[Path, typer.Argument(help="A simulate, sweep or tournament output directory.")],
    out: Annotated[Path | None, typer.Option("--out", help="The HTML file (default: DIR/report.html).")] = None,
) -> None:
    """Build one self-contained HTML report (plots embedded) from a run, sweep or tournament."""
    from slipstream.sim.report import build

    try:
        path = build(directory, out)
    except (SlipstreamError, ValueError, OSError) as exc:
        raise _fail(str(exc)) from None
    console.print(f"wrote {path}")


def tournament_command(
    game: Annotated[str, typer.Argument(help="The game id (see slipstream games).")],
    bots: Annotated[str, typer.Option("--bots", "-b", help="The bots, comma-separated, e.g. mcts,greedy,random.")],
    n: Annotated[int, typer.Option("-n", "--races", help="How many races.")] = 300,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the game's).")] = None,
    option: OptionList = None,
    jobs: Jobs = 1,
    seed: Seed = 0,
    out: Out = None,
    backend: Backend = "process",
    address: Address = None,
    setup: Setup = None,
) -> None:
    """Play bots against each other in rotated seats and rate them (Elo with 95% intervals)."""
    from slipstream.sim.tournament import run_tournament

    try:
        config = _config(game, players, bots, n, seed, option, setup, rotate=True)
        out_dir = out or _default_out("tournament", config.to_json())
        with _progress(game) as bar:
            outcome, rated = run_tournament(config, out_dir, jobs=jobs, backend=backend, address=address,
                                            progress=bar("tournament"))
    except (SlipstreamError, ValueError) as exc:
        raise _fail(str(exc)) from None
    except RaceFailed as exc:
        errors.print(f"[bold red]a race failed[/] (a bug in a game or a bot): {exc}", highlight=False)
        raise typer.Exit(1) from None
    table = Table(title=f"{game}: {rated['races']} races, bots in rotated seats")
    for col in ("bot", "Elo", "95% CI", "pairwise wins"):
        table.add_column(col)
    for row in rated["ratings"]:
        table.add_row(row["bot"], f"{row['elo']:.0f}", f"{row['lo']:.0f} – {row['hi']:.0f}",
                      f"{row['pair_wins']:.0f} / {row['pairs']:.0f}")
    console.print(table)
    _print_summary(outcome.races, game)
    console.print(f"records and ratings in [bold]{out_dir}[/]; slipstream report {out_dir}")
    if outcome.interrupted:
        console.print(f"[yellow]interrupted[/]: {len(outcome.races)} races kept; run the same command to resume")
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
    app.command("report")(report_command)
    app.command("tournament")(tournament_command)
