"""``slipstream simulate``, ``slipstream report`` and ``slipstream tournament``: the analysis tool.

A thin shell over ``slipstream.sim``: bad input (game, option, bot, sweep) prints a clear error listing
what is valid and exits with code 2; Ctrl-C keeps the finished races and exits with code 130.
"""

from __future__ import annotations

import hashlib
import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TaskProgressColumn, TextColumn
from rich.table import Table
from rich.text import Text

from slipstream.engine.registry import game_class
from slipstream.sim.race import RaceFailed
from slipstream.sim.words import Names, metric_words

from .common import errors, fail, parse_options

console = Console(soft_wrap=True)
status = Console(stderr=True)
"""The progress display goes to stderr, so stdout holds only the results (and can be compared or piped)."""

OptionList = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A game option KEY=VALUE (repeatable), e.g. -o laps=4.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (or Ray CPUs).")]
Seed = Annotated[int, typer.Option("--seed", help="The master seed: the same seed gives the same races.")]
Out = Annotated[Path | None, typer.Option(
    "--out", help="Output directory (default: runs/<game>-<settings hash>); rerun to resume.")]
Backend = Annotated[str, typer.Option("--backend", help="process (local processes) or ray.")]
Address = Annotated[str | None, typer.Option(
    "--address", help="Ray cluster address HOST:PORT (default: start a local Ray).")]
Verbose = Annotated[bool, typer.Option(
    "--verbose", help="With --backend ray: show Ray's own log lines (kept out of the terminal otherwise).")]
Setup = Annotated[list[str] | None, typer.Option(
    "--setup", hidden=True, help="Modules to import first (module or module:function).")]

USER_ERRORS = (ValueError, OSError)
"""What bad input raises: ``SlipstreamError`` (a ``ValueError``) and unreadable or unwritable paths."""


def _default_out(kind: str, data: dict[str, Any]) -> Path:
    data = {k: v for k, v in data.items() if k not in ("n", "setup")}
    digest = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:8]
    return Path("runs") / f"{data['game']}-{kind}-{digest}"


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class RateColumn(ProgressColumn):
    """Races per second and the time left, from the races played in this session only (not the ones
    a resumed run already had), over the whole session (a strong bot's races come unevenly)."""

    def render(self, task: Task) -> Text:
        started, done0 = task.fields.get("started"), task.fields.get("done0", 0)
        if started is None or task.total is None:
            return Text("")
        elapsed = time.monotonic() - started
        played = task.completed - done0
        left = task.total - task.completed
        if left <= 0:
            return Text(f"{_clock(elapsed)} elapsed", style="progress.elapsed")
        if played <= 0:
            return Text(f"{_clock(elapsed)} elapsed, time left: after the first race", style="progress.remaining")
        rate = played / elapsed if elapsed > 0 else 0.0
        eta = left / rate if rate > 0 else float("inf")
        shown = f"{rate:.1f} races/s" if rate >= 1 else f"{1 / rate:.1f} s/race" if rate > 0 else ""
        return Text(f"{_clock(elapsed)} elapsed, {shown}, about {_clock(eta)} left", style="progress.remaining")


@contextmanager
def _progress(label: str) -> Iterator[Callable[[str], Callable[[int, int], None]]]:
    """``bar(name)`` gives a ``progress(done, total)`` callback showing a bar with a rate and an ETA.

    Each bar's display starts at its first call (so an error found before the first race prints no
    empty bar) and stops when its races are all done.
    """
    live: list[Progress] = []

    def bar(name: str) -> Callable[[int, int], None]:
        state: dict[str, Any] = {}

        def update(done: int, total: int) -> None:
            if "progress" not in state:
                progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                    TaskProgressColumn(), RateColumn(), console=status, transient=False)
                progress.start()
                live.append(progress)
                state["progress"] = progress
                state["task"] = progress.add_task(f"{label} {name}".strip(), total=total, completed=done,
                                                  started=time.monotonic(), done0=done)
            progress = state["progress"]
            progress.update(state["task"], completed=done, total=total)
            if done >= total and progress in live:
                progress.stop()
                live.remove(progress)
        return update

    try:
        yield bar
    finally:
        for progress in live:
            progress.stop()


def _print_summary(races: list[dict[str, Any]], title: str, skill: dict[str, Any] | None = None,
                   setup: list[str] | None = None) -> None:
    from slipstream.sim.stats import fmt_mean, fmt_rate, summarize

    s = summarize(races)
    if not s["races"]:
        console.print("no races")
        return
    names = Names.of_races(races, setup or ())
    if s["team"] is not None:
        _print_team(s, title, names)
        return
    _print_health(s, title, skill)
    for by, name in (("by_seat", "seat"), ("by_turn_order", "turn order"), ("by_bot", "bot"),
                     ("by_label", names.noun(g["key"] for g in s["by_label"]))):
        groups = names.groups(s[by]) if by == "by_label" else s[by]
        if not groups or (by in ("by_bot", "by_label") and len(groups) == 1):
            continue  # one bot, or one racer, in every seat: nothing to compare
        table = Table(title=f"{title}: {s['races']} races, by {name}")
        for col in (name, "win rate (95% CI)", "mean place (95% CI)"):
            table.add_column(col)
        for g in groups:
            table.add_row(g["key"], fmt_rate(g["win"]), fmt_mean(g["position"]))
        console.print(table)
    console.print(_numbers_table(s))
    fair = 100 / s["players"]
    first = next((g for g in s["by_turn_order"] if g["key"] == "1st to play"), None)
    same = s["first_player"]["same_bots"]
    caveat = "" if same else "; the bots differ by seat, so this is not the turn order alone"
    if first is not None:
        p = first["win"][0]
        console.print(f"first to play wins {fmt_rate(first['win'])} against a fair {fair:.1f}% "
                      f"({100 * p - fair:+.1f} points){caveat}")
    else:
        fp = s["first_player"]
        console.print(f"seat 0 (P1) wins {fmt_rate(fp['win'])} against a fair {fair:.1f}% "
                      f"({100 * fp['advantage'][0]:+.1f} points){caveat}")


def _bots_in(races: int, health: dict[str, Any], bots: list[str]) -> str:
    if health["same_bots"] and len(bots) == 1:
        return f"{races} races, {bots[0]} in every seat"
    return f"{races} races; the bots differ by seat, so the positions' rates mix in the bots'"


def _print_health(s: dict[str, Any], title: str, skill: dict[str, Any] | None) -> None:
    """Race health, first: each start grouping's and the turn order's win rates against the fair share
    with the test in one sentence, then lead changes, comebacks, margin, choices and the skill share."""
    from slipstream.sim.health import skill_sentence
    from slipstream.sim.stats import fmt_mean, fmt_rate

    health = s["health"]
    console.print(f"[bold]{title}: race health[/] ({_bots_in(s['races'], health, [g['key'] for g in s['by_bot']])})")
    for test in health["positions"]:
        name = " = ".join([test["kind"], *test["also"]])
        table = Table()
        for col in (name, "races won (95% CI)", "fair share"):
            table.add_column(col)
        for g in test["groups"]:
            table.add_row(g["key"], fmt_rate(g["win"]), f"{100 * g['fair']:.1f}%")
        console.print(table)
        console.print(f"{name}: {test['sentence']}")
    rows = []
    if health["lead_changes"] is not None:
        d = health["lead_changes"]
        rows.append(("lead changes a race", fmt_mean((d["mean"], d["lo"], d["hi"]))))
    if health["comebacks"] is not None:
        rows.append(("comebacks (winner not leading at half distance)", fmt_rate(health["comebacks"]["win"])))
    if health["margin"] is not None:
        d = health["margin"]
        rows.append(("winning margin", fmt_mean((d["mean"], d["lo"], d["hi"]))))
    if health["choices"] is not None:
        d = health["choices"]
        rows.append(("choices a seat makes a race", fmt_mean((d["mean"], d["lo"], d["hi"]), 1)))
    if rows:
        table = Table(title="the race (95% CI)")
        table.add_column("")
        table.add_column("per race")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    if skill is not None:
        console.print(f"skill share: {skill_sentence(skill)}")


def _numbers_table(s: dict[str, Any]) -> Table:
    """Race length, lead changes (when counted) and every metric that is not always zero."""
    from slipstream.sim.stats import fmt_mean

    table = Table(title="race numbers (mean per race, 95% CI)")
    table.add_column("")
    table.add_column("mean (95% CI)")
    rows = [(metric_words(k), d) for k, d in s["length"].items() if d["n"]]
    if s["lead_changes"] is not None and s["team"] is None:
        rows.append((metric_words("lead_changes"), s["lead_changes"]))
    rows += [(metric_words(k), d) for k, d in s["metrics"].items() if not (d["min"] == d["max"] == 0)]
    for name, d in rows:
        table.add_row(name, fmt_mean((d["mean"], d["lo"], d["hi"])))
    return table


def _race_table(groups: list[dict[str, Any]], title: str, name: str) -> Table:
    from slipstream.sim.stats import fmt_mean, fmt_rate

    table = Table(title=title)
    for col in (name, "races", "team win rate (95% CI)", "mean rounds (95% CI)"):
        table.add_column(col)
    for g in groups:
        table.add_row(str(g["key"]), str(g["n"]), fmt_rate(g["win"]), fmt_mean(g["rounds"], 1))
    return table


def _print_team(s: dict[str, Any], title: str, names: Names) -> None:
    """A cooperative run: the team's win rate, by each option that varies, by team and team member."""
    from slipstream.sim.stats import fmt_rate

    team = s["team"]
    console.print(f"{title}: the team won {fmt_rate(team['win'])} of {team['races']} races "
                  "(every seat wins or none does)")
    for name in team["options"]:
        option = metric_words(name).lower()
        console.print(_race_table(names.groups(team["by_option"][name]), f"{title}: by {option}", option))
    console.print(_race_table(names.groups(team["by_team"]), f"{title}: by team", "team"))
    if len(team["by_member"]) > len(s["by_seat"]):
        table = Table(title=f"{title}: by team member (the races whose team had it)")
        for col in ("team member", "races", "team win rate (95% CI)"):
            table.add_column(col)
        for g in names.groups(team["by_member"]):
            table.add_row(g["key"], str(g["n"]), fmt_rate(g["win"]))
        console.print(table)
    console.print(_numbers_table(s))


def _print_team_sweep(outcomes: list[Any]) -> None:
    """A cooperative sweep: the team's win rate by each swept option, and by the first two together."""
    from slipstream.sim.stats import fmt_rate, summarize

    every = [race for outcome in outcomes for race in outcome.races]
    s = summarize(every)
    team = s["team"]
    if team is None:
        return
    names = Names.of_races(every)
    for name in team["options"]:
        option = metric_words(name).lower()
        console.print(_race_table(names.groups(team["by_option"][name]), f"all points: by {option}", option))
    if len(team["options"]) >= 2:
        rows_key, columns_key = team["options"][:2]
        cells = {tuple(g["key"]): g["win"] for g in team["by_pair"][f"{rows_key}|{columns_key}"]}
        columns = [g["key"] for g in team["by_option"][columns_key]]
        rows_name, columns_name = metric_words(rows_key).lower(), metric_words(columns_key).lower()
        table = Table(title=f"team win rate (95% CI) by {rows_name} and {columns_name}")
        table.add_column(rows_name)
        for c in columns:
            table.add_column(names.label(c))
        for g in team["by_option"][rows_key]:
            table.add_row(names.label(g["key"]), *[fmt_rate(cells[(g["key"], c)]) if (g["key"], c) in cells else "-"
                                                   for c in columns])
        console.print(table)


def difference_tables(outcomes: list[Any]) -> list[Table]:
    """A sweep's points against the first, race by race (the points share their races' seeds): one table
    per point, a row per number (its baseline mean, the mean difference with its 95% interval, the change
    in %), so the tables keep their width whatever the sweep's size and the names of its points."""
    from slipstream.sim.stats import fmt_difference, paired_differences

    base = outcomes[0]
    tables = []
    for outcome in outcomes[1:]:
        diffs = paired_differences(base.races, outcome.races)
        table = Table(title=f"{outcome.out_dir.name} against {base.out_dir.name}, race by race")
        for col in ("number", "baseline", "difference (95% CI)", "change"):
            table.add_column(col)
        for name, x in diffs.items():
            if x["mean"] == x["lo"] == x["hi"] == 0:
                continue
            table.add_row(metric_words(name), *fmt_difference(name, x))
        tables.append(table)
    return tables


def _print_differences(outcomes: list[Any]) -> None:
    for table in difference_tables(outcomes):
        console.print(table)


def _config(game: str, players: int | None, bots: str, n: int, seed: int, option: list[str] | None,
            setup: list[str] | None, jobs: int, backend: str, address: str | None, verbose: bool,
            rotate: bool = False) -> Any:
    """The run's settings, every one checked (so no race starts, and nothing is shown, on bad input)."""
    from slipstream.sim.race import run_setup
    from slipstream.sim.runner import SimConfig, SimError, check_run

    run_setup(setup or [])
    cls = game_class(game)
    config = SimConfig(game=game, players=players if players is not None else cls.default_players,
                       bots=tuple(b.strip() for b in bots.split(",") if b.strip()), n=n, seed=seed,
                       options=parse_options(option or []), rotate=rotate, setup=tuple(setup or ()))
    check_run(config, jobs, backend, address)
    if verbose and backend != "ray":
        raise SimError("--verbose lets Ray's own log lines through: it goes with --backend ray")
    return config


def _warn_damaged(directory: Path) -> None:
    """Say on stderr what is wrong with a run folder about to be resumed (the run repairs it)."""
    from slipstream.sim.integrity import inspect

    if not directory.is_dir():
        return
    for damage in inspect(directory):
        errors.print(f"[yellow]warning:[/] {escape(damage.sentence())}; this run repairs it: it keeps the whole "
                     "races and plays the rest with the same seeds", soft_wrap=True)


def _kept_more(outcome: Any, asked: int) -> None:
    """Say that a folder with more races than ``-n`` asked keeps them all, and how to read the first ones."""
    if outcome.held > asked:
        console.print(f"{outcome.out_dir} keeps all its {outcome.held} races (a lower -n never drops races); the "
                      f"summary above is of the first {asked}, races 0 to {asked - 1}: in results.csv the rows "
                      f"with race < {asked}; the report shows all {outcome.held}")


@contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill``, a batch system's stop) stops a run like Ctrl-C: finished races kept, resumable."""
    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _race_failed(exc: RaceFailed) -> typer.Exit:
    first = (str(exc).splitlines() or [""])[0]
    errors.print(f"[bold red]a race failed[/] (a bug in a game or a bot): {first}")
    return typer.Exit(1)


def own_bot(game: str, setup: list[str] | None) -> str:
    """The game's own bot (``heuristic``), or ``random`` for a game that has none."""
    from slipstream.engine.hooks import hooks_of
    from slipstream.sim.race import run_setup

    try:
        run_setup(setup or [])
        return "heuristic" if hooks_of(game_class(game)).heuristic_bot is not None else "random"
    except USER_ERRORS as exc:
        raise fail(exc) from None


def _skill_pair(game: str, names: str | None, setup: list[str] | None) -> tuple[str, str]:
    """The stronger and the weaker bot of a skill run: ``names`` (``STRONGER,WEAKER``), or the game's own
    bot and random."""
    from slipstream.sim.runner import SimError

    if game_class(game).cooperative:
        raise SimError(f"{game} is cooperative: its seats win or lose together, so no bot wins against another; "
                       "compare bots by the team's win rate (e.g. --bots heuristic,random,random)")
    if names is None:
        strong = own_bot(game, setup)
        if strong == "random":
            raise SimError(f"{game} has no bot of its own: name the bots, e.g. --skill-bots mcts,random")
        return strong, "random"
    pair = [b.strip() for b in names.split(",") if b.strip()]
    if len(pair) != 2:
        raise SimError(f"--skill-bots takes two bots, the stronger first (e.g. heuristic,random), not {names!r}")
    return pair[0], pair[1]


def simulate_command(
    game: Annotated[str, typer.Argument(help="The game id (see slipstream games).")],
    n: Annotated[int, typer.Option("-n", "--races", help="How many races.")] = 1000,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the game's).")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", "-b", help="Bots by seat, comma-separated (one name fills every seat): random, greedy, "
        "heuristic, mcts (100 rollouts a move here, no clock), mcts:400, mcts:0.5s, mcts:200:h (heuristic "
        "playouts). Default: the game's own bot in every seat (random for a game without one).")] = None,
    option: OptionList = None,
    sweep: Annotated[list[str] | None, typer.Option(
        "--sweep", help="Run a grid of options KEY=V1,V2 (repeatable); the report compares them.")] = None,
    skill: Annotated[bool, typer.Option(
        "--skill", help="Also measure the skill share: as many races again, the stronger of --skill-bots in "
        "one seat (every seat in turn, same seeds) against the weaker.")] = False,
    skill_bots: Annotated[str | None, typer.Option(
        "--skill-bots", help="STRONGER,WEAKER for --skill (default: the game's own bot and random).")] = None,
    jobs: Jobs = 1,
    seed: Seed = 0,
    out: Out = None,
    backend: Backend = "process",
    address: Address = None,
    verbose: Verbose = False,
    setup: Setup = None,
) -> None:
    """Simulate races between bots; write records, a results table and print a summary, race health first."""
    from slipstream.sim.runner import SKILL_DIR, SimError, check_out_dir, check_run, run, skill_config
    from slipstream.sim.sweep import check_sweep, parse_sweep, point_dir, run_sweep
    from slipstream.sim.sweep import grid as sweep_grid

    try:
        config = _config(game, players, bots or own_bot(game, setup), n, seed, option, setup, jobs, backend,
                         address, verbose)
        grid = parse_sweep(sweep or [])
        if players is not None and "players" in grid:
            raise SimError(f"players is both fixed (--players {players}) and swept (--sweep "
                           f"players={','.join(grid['players'])}): give it once")
        out_dir = out or _default_out("sweep" if grid else "sim", {**config.to_json(), "sweep": grid})
        if grid:
            check_sweep(config, grid, out_dir)
        else:
            check_out_dir(config, out_dir)
        skill_run = None
        if skill_bots is not None and not skill:
            raise SimError("--skill-bots needs --skill")
        if skill:
            if grid:
                raise SimError("--skill measures one run, not a sweep: run it on the point you want")
            strong, weak = _skill_pair(game, skill_bots, setup)
            skill_run = skill_config(config, strong, weak)
            check_run(skill_run, jobs, backend, address)
            check_out_dir(skill_run, out_dir / SKILL_DIR)
        for point in sweep_grid(grid) if grid else [None]:
            _warn_damaged(out_dir if point is None else out_dir / point_dir(point))
    except USER_ERRORS as exc:
        raise fail(exc) from None
    try:
        if grid:
            with _term_as_interrupt(), _progress("") as bar:
                outcomes = run_sweep(config, grid, out_dir, jobs=jobs, backend=backend, address=address,
                                     progress=bar, verbose=verbose)
        else:
            with _term_as_interrupt(), _progress(game) as bar:
                outcomes = [run(config, out_dir, jobs=jobs, backend=backend, address=address,
                                progress=bar(""), verbose=verbose)]
                if skill_run is not None and not outcomes[0].interrupted:
                    outcomes.append(run(skill_run, out_dir / SKILL_DIR, jobs=jobs, backend=backend,
                                        address=address, progress=bar("skill"), verbose=verbose))
    except RaceFailed as exc:
        raise _race_failed(exc) from None
    except USER_ERRORS as exc:
        raise fail(exc) from None
    shares = None
    if skill_run is not None and len(outcomes) > 1:
        from slipstream.sim.health import skill_share

        shares = skill_share(outcomes.pop().races, skill_run.bots[0])
    for outcome in outcomes:
        title = outcome.out_dir.name if grid else game
        _print_summary(outcome.races, title, shares, setup)
        _kept_more(outcome, n)
    if grid and len(outcomes) > 1:
        _print_differences(outcomes)
        _print_team_sweep(outcomes)
    last = outcomes[-1] if outcomes else None
    console.print(f"records and results in [bold]{out_dir}[/]; slipstream report {out_dir}")
    if last is not None and last.interrupted:
        console.print(f"[yellow]interrupted[/]: {len(last.races)} races kept; run the same command to resume")
        raise typer.Exit(130)


def report_command(
    directory: Annotated[Path, typer.Argument(help="A simulate, sweep or tournament output directory.")],
    out: Annotated[Path | None, typer.Option("--out", help="The HTML file (default: DIR/report.html).")] = None,
    partial: Annotated[bool, typer.Option(
        "--partial", help="Report a damaged run folder from what can be read (it is refused otherwise, with "
        "the command that repairs it).")] = False,
) -> None:
    """Build one self-contained HTML report (plots embedded) from a run, sweep or tournament."""
    from slipstream.sim.integrity import describe, inspect
    from slipstream.sim.report import PARTIAL_HINT, build

    try:
        if not directory.is_dir():
            build(directory, out)  # the error a missing directory gets
        damaged = inspect(directory)
        if damaged and not partial:
            raise fail(f"{describe(damaged)}; {PARTIAL_HINT}")
        if damaged:
            errors.print(f"[yellow]warning:[/] {escape(describe(damaged))}; this report shows what can be read",
                         soft_wrap=True)
        path = build(directory, out, partial=partial, damaged=damaged)
    except USER_ERRORS as exc:
        raise fail(exc) from None
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
    verbose: Verbose = False,
    setup: Setup = None,
) -> None:
    """Play bots against each other in rotated seats and rate them (Elo with 95% intervals)."""
    from slipstream.sim.runner import check_out_dir
    from slipstream.sim.tournament import check_tournament, elo_cells, run_tournament

    try:
        config = check_tournament(_config(game, players, bots, n, seed, option, setup, jobs, backend, address,
                                          verbose, rotate=True))
        out_dir = out or _default_out("tournament", config.to_json())
        check_out_dir(config, out_dir)
        _warn_damaged(out_dir)
    except USER_ERRORS as exc:
        raise fail(exc) from None
    try:
        with _term_as_interrupt(), _progress(game) as bar:
            outcome, rated = run_tournament(config, out_dir, jobs=jobs, backend=backend, address=address,
                                            progress=bar("tournament"), verbose=verbose)
    except RaceFailed as exc:
        raise _race_failed(exc) from None
    except USER_ERRORS as exc:
        raise fail(exc) from None
    table = Table(title=f"{game}: {rated['races']} races, bots in rotated seats")
    for col in ("bot", "Elo", "95% CI", "pairwise wins"):
        table.add_column(col)
    for row in rated["ratings"]:
        table.add_row(row["bot"], *elo_cells(row), f"{row['pair_wins']:.0f} / {row['pairs']:.0f}")
    console.print(table)
    _print_summary(outcome.races, game, setup=setup)
    _kept_more(outcome, n)
    console.print(f"records and ratings in [bold]{out_dir}[/]; slipstream report {out_dir}")
    if outcome.interrupted:
        console.print(f"[yellow]interrupted[/]: {len(outcome.races)} races kept; run the same command to resume")
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
    app.command("report")(report_command)
    app.command("tournament")(tournament_command)
