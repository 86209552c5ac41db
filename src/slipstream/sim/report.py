"""``slipstream report DIR``: one self-contained HTML file (plots embedded as PNG) for a run, a sweep
or a tournament directory.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import plots, store
from .health import skill_sentence, skill_share
from .integrity import Damage, DamagedRunError, describe, inspect
from .runner import SKILL_DIR, SimConfig, SimError
from .stats import (
    fmt_difference,
    fmt_mean,
    fmt_rate,
    paired_differences,
    relative_change,
    summarize,
    team_summary,
)
from .sweep import SWEEP_FILE
from .tournament import TOURNAMENT_FILE, elo_cells
from .words import Names, metric_words

REPORT_FILE = "report.html"

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
.meta { color: #555; } img { max-width: 100%; margin: 0.4em 0.6em 0.4em 0; }
.note { color: #555; font-size: 0.9em; }
"""


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _num(x: float, digits: int = 2) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _group_table(groups: Sequence[dict[str, Any]], title: str) -> str:
    rows = [(g["key"], g["n"], fmt_rate(g["win"]), fmt_mean(g["position"])) for g in groups]
    return _table([title, "seat-races", "win rate (95% CI)", "mean place (95% CI)"], rows)


def _describe_row(name: str, d: dict[str, float]) -> list[Any]:
    return [name, fmt_mean((d["mean"], d["lo"], d["hi"])), _num(d["median"], 1), _num(d["sd"]),
            _num(d["min"], 1), _num(d["max"], 1)]


def run_section(directory: Path, title: str | None = None) -> str:
    """The HTML of one run: settings, statistics tables and plots, every name in words."""
    if not (directory / store.RUN_FILE).exists():
        raise SimError(f"{directory} holds no run (no {store.RUN_FILE}); run slipstream simulate first")
    meta = store.read_json(directory / store.RUN_FILE)
    config = SimConfig.from_json(meta["config"])
    races = sorted(store.iter_races(directory), key=lambda r: r["index"])
    races = [r for r in races if r["index"] < config.n]
    names = Names.of_races(races, config.setup)
    parts = [f"<h2>{html.escape(title or config.game)}</h2>"]
    bots = "rotated pool " + ", ".join(config.bots) if config.rotate else ", ".join(config.bots)
    parts.append(
        f"<p class='meta'>game <b>{html.escape(config.game)}</b>, {config.players} players, options "
        f"{html.escape(str(config.options) if config.options else 'default')}, bots {html.escape(bots)}, "
        f"master seed {config.seed}; {len(races)} of {config.n} races "
        f"({html.escape(meta.get('status', '?'))})</p>")
    if not races:
        parts.append("<p>No races yet.</p>")
        return "\n".join(parts)
    s = summarize(races)
    if s["team"] is not None:
        parts.append(team_section(s["team"], names))
        return "\n".join([*parts, *_length_and_metrics(s, races), *_reasons(s, races)])
    parts.append(health_section(s["health"], config, _skill(directory)))
    parts.append("<h3>Win rates and places</h3>")
    parts.append(_group_table(s["by_seat"], "seat"))
    parts.append(_img(plots.rate_bars(s["by_seat"], "win rate by seat", s["first_player"]["fair"]),
                      "win rate by seat"))
    if not config.rotate and len(set(config.bots)) == 1:
        parts.append(f"<p class='note'>Every seat is played by {html.escape(config.bots[0])}.</p>")
    else:
        parts.append(_group_table(s["by_bot"], "bot"))
        parts.append(_img(plots.rate_bars(s["by_bot"], "win rate by bot"), "win rate by bot"))
    if len(s["by_label"]) > 1:  # one racer for every seat (BRC's bots all start on soft tyres) says nothing
        noun = names.noun(g["key"] for g in s["by_label"])
        labelled = names.groups(s["by_label"])
        parts.append(_group_table(labelled, noun))
        parts.append(_img(plots.rate_bars(labelled, f"win rate by {noun}"), f"win rate by {noun}"))
    if s["by_turn_order"]:
        parts.append("<h3>Win rate by turn order</h3>")
        parts.append(_group_table(s["by_turn_order"], "turn order"))
        parts.append(_img(plots.rate_bars(s["by_turn_order"], "win rate by turn order", s["first_player"]["fair"]),
                          "win rate by turn order"))
        parts.append("<p class='note'>The seats in the order of their first turn of their own, whoever started "
                     "(where the start player is drawn, this is the first-player advantage; seat 0 is not "
                     "the first to play).</p>")
    fp = s["first_player"]
    parts.append(
        f"<p><b>Seat 0 (P1)</b>: seat 0 won {fmt_rate(fp['win'])} of races against a fair share "
        f"of {100 * fp['fair']:.1f}%: {100 * fp['advantage'][0]:+.1f} points "
        f"(95% CI {100 * fp['advantage'][1]:+.1f} to {100 * fp['advantage'][2]:+.1f})."
        + ("" if fp["same_bots"] else " The bots differ between seats, so this mixes the seat's effect with "
           "the bot's: run one bot in every seat to measure the seat alone.") + "</p>")
    parts += _length_and_metrics(s, races)
    sample = store.first_race(directory)
    if sample is not None and len(sample.get("positions", [])) > 1:
        parts.append("<h3>A sample race</h3>")
        seats = [f"P{i + 1} {b}" + (f" ({names.label(sample['labels'][str(i)])})" if str(i) in sample["labels"]
                                    else "") for i, b in enumerate(sample["bots"])]
        parts.append(_img(plots.positions_over_time(sample, seats), "positions over time"))
    parts += _reasons(s, races)
    return "\n".join(parts)


def _skill(directory: Path) -> dict[str, Any] | None:
    """The skill share of the run's skill run (``simulate --skill``), if it has one."""
    sub = directory / SKILL_DIR
    if not (sub / store.RUN_FILE).exists():
        return None
    config = SimConfig.from_json(store.read_json(sub / store.RUN_FILE)["config"])
    return skill_share([r for r in store.iter_races(sub) if r["index"] < config.n], config.bots[0])


def health_section(health: dict[str, Any], config: SimConfig, skill: dict[str, Any] | None) -> str:
    """Race health: each start grouping's and the turn order's share of the wins against the fair share,
    with the test in one sentence and a chart; lead changes, comebacks, margin, choices; the skill share."""
    parts = ["<h3>Race health</h3>"]
    if health["same_bots"] and len(set(config.bots)) == 1:
        parts.append(f"<p class='note'>{html.escape(config.bots[0])} in every seat, so the start position and "
                     "the turn order are all that differ between the seats.</p>")
    else:
        parts.append("<p class='note'>The bots differ between the seats, so the positions' rates mix in the "
                     "bots': run one bot in every seat to measure the positions alone.</p>")
    for test in health["positions"]:
        name = " = ".join([test["kind"], *test["also"]])
        df = test["test"]["df"]
        parts.append(f"<p><b>By {html.escape(name)}</b>: {html.escape(test['sentence'])} (chi-square "
                     f"{_num(test['test']['chi2'], 1)}, {df} degree{'' if df == 1 else 's'} of freedom).</p>")
        parts.append(_table([name, "races", "races won (95% CI)", "fair share"],
                            [(g["key"], g["races"], fmt_rate(g["win"]), f"{100 * g['fair']:.1f}%")
                             for g in test["groups"]]))
        parts.append(_img(plots.rate_bars(test["groups"], f"races won by {name}", [g["fair"] for g in test["groups"]],
                                          ylabel="races won (%)"), f"races won by {name}"))
    rows = []
    if health["lead_changes"] is not None:
        rows.append(_describe_row("lead changes a race", health["lead_changes"]))
    if health["comebacks"] is not None:
        rows.append(["comebacks (the winner was not leading at half distance)", fmt_rate(health["comebacks"]["win"]),
                     "", "", "", ""])
    if health["margin"] is not None:
        rows.append(_describe_row("winning margin", health["margin"]))
    if health["choices"] is not None:
        rows.append(_describe_row("choices a seat makes a race", health["choices"]))
    if rows:
        parts.append(_table(["", "mean or rate (95% CI)", "median", "sd", "min", "max"], rows))
    if skill is not None:
        parts.append(f"<p><b>Skill share</b>: {html.escape(skill_sentence(skill))}.</p>")
    parts.append("<p class='note'>A position's fair share is its seats over the race's seats; the test is "
                 "Pearson's chi-square of the wins against the fair shares. Half distance: halfway through the "
                 "race's decisions. Choices: decisions with more than one legal action. Skill share: (the stronger "
                 "bot's win rate - its fair share) / (1 - its fair share), each seed played with it in every "
                 "seat.</p>")
    return "\n".join(parts)


def _length_and_metrics(s: dict[str, Any], races: list[dict[str, Any]]) -> list[str]:
    parts = ["<h3>Race length</h3>"]
    rows = [_describe_row(metric_words(name), d) for name, d in s["length"].items() if d["n"]]
    if s["lead_changes"] is not None:
        rows.append(_describe_row(metric_words("lead_changes"), s["lead_changes"]))
    parts.append(_table(["", "mean (95% CI)", "median", "sd", "min", "max"], rows))
    for name in ("turns", "rounds"):
        values = [r["metrics"][name] for r in races if name in r["metrics"]]
        parts.append(_img(plots.histogram(values, f"Race length in {name}", metric_words(name)), f"{name} histogram"))
    if s["metrics"]:
        parts.append("<h3>Game metrics</h3>")
        parts.append(_table(["metric", "mean per race (95% CI)", "median", "sd", "min", "max"],
                            [_describe_row(metric_words(n), d) for n, d in s["metrics"].items()
                             if not d["min"] == d["max"] == 0]))
        parts.append(_img(plots.metric_grid({metric_words(n): [r["metrics"][n] for r in races if n in r["metrics"]]
                                             for n in s["metrics"]}), "metrics"))
        parts.append(f"<p class='note'>Histograms of up to {plots.MAX_GRID} metrics that vary between "
                     "races; the table has them all.</p>")
    return parts


def _reasons(s: dict[str, Any], races: list[dict[str, Any]]) -> list[str]:
    return ["<h3>How races ended</h3>",
            _table(["reason", "races", "share"], [(reason, count, f"{100 * count / len(races):.1f}%")
                                                  for reason, count in s["reasons"].items()])]


def _race_group_table(groups: Sequence[dict[str, Any]], title: str) -> str:
    rows = [(g["key"], g["n"], fmt_rate(g["win"]), fmt_mean(g["rounds"], 1)) for g in groups]
    return _table([title, "races", "team win rate (95% CI)", "mean rounds (95% CI)"], rows)


def team_section(team: dict[str, Any], names: Names) -> str:
    """A cooperative run: the team's win rate, by each option that varies, by team and by team member
    (teams, members and option values in words)."""
    parts = ["<h3>Team win rate</h3>",
             f"<p>The team won <b>{fmt_rate(team['win'])}</b> of {team['races']} races (every seat wins or "
             "none does; Wilson 95% interval).</p>"]
    for name in team["options"]:
        groups = names.groups(team["by_option"][name])
        option = metric_words(name).lower()
        parts.append(_race_group_table(groups, option))
        parts.append(_img(plots.rate_bars(groups, f"team win rate by {option}"), f"team win rate by {option}"))
    options = team["options"]
    if len(options) >= 2:
        parts.append(pivot_table(team, options[0], options[1], names))
    teams, members = names.groups(team["by_team"]), names.groups(team["by_member"])
    parts.append(_race_group_table(teams, "team"))
    if len(teams) > 1:
        parts.append(_img(plots.rate_bars(teams, "team win rate by team"), "team win rate by team"))
    parts.append(_table(["team member", "races", "team win rate (95% CI)"],
                        [(g["key"], g["n"], fmt_rate(g["win"])) for g in members]))
    if len(members) > 1:
        parts.append(_img(plots.rate_bars(members, "team win rate by team member"), "team win rate by team member"))
    parts.append("<p class='note'>By team member: the races whose team had that member (a character and "
                 "its vehicle), so the rates overlap.</p>")
    return "\n".join(parts)


def pivot_table(team: dict[str, Any], rows_key: str, columns_key: str, names: Names | None = None) -> str:
    """The team win rate with its interval for every pair of two options' values (rows by the first), the
    options and their values in words."""
    names = names or Names()
    cells: dict[tuple[str, str], list[float]] = {}
    for g in team["by_pair"].get(f"{rows_key}|{columns_key}", []):
        cells[(g["key"][0], g["key"][1])] = g["win"]
    rows_values = [g["key"] for g in team["by_option"][rows_key]]
    column_values = [g["key"] for g in team["by_option"][columns_key]]
    rows = [[names.label(r)] + [fmt_rate(cells[(r, c)]) if (r, c) in cells else "-" for c in column_values]
            for r in rows_values]
    nan = [math.nan] * 3
    series = {names.label(c): [cells.get((r, c), nan) for r in rows_values] for c in column_values}
    rows_name, columns_name = metric_words(rows_key).lower(), metric_words(columns_key).lower()
    title = f"team win rate by {rows_name} and {columns_name}"
    return (f"<h3>{html.escape(title[0].upper() + title[1:])}</h3>"
            + _table([f"{rows_name} \\ {columns_name}", *(names.label(c) for c in column_values)], rows)
            + _img(plots.compare_bars([names.label(r) for r in rows_values], series, title, "team win rate (%)",
                                      scale=100), title))


def tournament_section(directory: Path) -> str:
    data = store.read_json(directory / TOURNAMENT_FILE)
    rows = [(r["bot"], *elo_cells(r), f"{r['pair_wins']:.0f}", f"{r['pairs']:.0f}") for r in data["ratings"]]
    parts = ["<h2>Tournament ratings</h2>",
             _table(["bot", "Elo", "95% CI", "pairwise wins", "pairwise games"], rows)]
    rated = [r for r in data["ratings"] if r.get("elo") is not None]
    if rated:
        parts.append(_img(plots.elo_bars(rated), "Elo ratings"))
    if len(rated) < len(data["ratings"]):
        parts.append("<p class='note'>A bot that never beat another (or never lost to one) has no finite "
                     "Elo: it is said to be below (above) the others, without a number, and the rest are "
                     "rated among themselves.</p>")
    h2h = data["head_to_head"]
    bots = list(h2h)
    parts.append("<h3>Head to head (row placed ahead of column)</h3>")
    parts.append(_table(["", *bots], [[a] + ["" if a == b else ("-" if h2h[a].get(b) is None
                                             else f"{100 * h2h[a][b]:.1f}%") for b in bots] for a in bots]))
    return "\n".join(parts)


def _point_races(directory: Path, point: dict[str, Any]) -> list[dict[str, Any]]:
    sub = directory / point["dir"]
    if not (sub / store.RUN_FILE).exists():
        return []
    n = SimConfig.from_json(store.read_json(sub / store.RUN_FILE)["config"]).n
    return [r for r in store.iter_races(sub) if r["index"] < n]


def _diff(name: str, d: dict[str, float]) -> str:
    """``+1.20 (+0.80 to +1.60), +4%`` (a share's in points: ``-8.3 (-25.0 to +8.3) pt``)."""
    _, difference, change = fmt_difference(name, d)
    return difference + ("" if change == "-" else f", {change}")


def _relative(name: str, d: dict[str, float] | None) -> list[float]:
    if d is None or relative_change(name, d) is None:
        return [math.nan] * 3
    return [100 * d["mean"] / abs(d["base"]), 100 * d["lo"] / abs(d["base"]), 100 * d["hi"] / abs(d["base"])]


def _triple(d: dict[str, float] | None) -> list[float]:
    return [math.nan] * 3 if d is None else [float(d["mean"]), float(d["lo"]), float(d["hi"])]


def sweep_section(directory: Path) -> str:
    meta = store.read_json(directory / SWEEP_FILE)
    labels: list[str] = []
    summaries = []
    for point in meta["points"]:
        sub = directory / point["dir"]
        races = list(store.iter_races(sub)) if (sub / store.RUN_FILE).exists() else []
        if races:
            n = SimConfig.from_json(store.read_json(sub / store.RUN_FILE)["config"]).n
            races = [r for r in races if r["index"] < n]
        if races:
            labels.append(point["name"])
            summaries.append(summarize(races))
    point_races = [(p["name"], list(_point_races(directory, p))) for p in meta["points"]]
    point_races = [(name, races) for name, races in point_races if races]
    parts = ["<h2>Sweep: side by side</h2>"]
    if not summaries:
        parts.append("<p>No point of the sweep has races yet.</p>")
        return "\n".join(parts)
    if all(s["team"] is not None for s in summaries):
        parts.append(_table(["point", "races", "team win rate (95% CI)", "rounds"],
                            [[label, s["races"], fmt_rate(s["team"]["win"]),
                              fmt_mean(_triple(s["length"]["rounds"]), 1)]
                             for label, s in zip(labels, summaries, strict=True)]))
        every = [r for _, races in point_races for r in races]
        parts.append(team_section(team_summary(every), Names.of_races(every)))
    else:
        parts.append(_table(["point", "races", "turns", "rounds", "lead changes", "first to play wins",
                             "its fair share"],
                            [[label, s["races"], fmt_mean(_triple(s["length"]["turns"]), 1),
                              fmt_mean(_triple(s["length"]["rounds"]), 1),
                              fmt_mean(_triple(s["lead_changes"])) if s["lead_changes"] else "-",
                              next((fmt_rate(g["win"]) for g in s["by_turn_order"] if g["key"] == "1st to play"),
                                   "-"), f"{100 / s['players']:.1f}%"]
                             for label, s in zip(labels, summaries, strict=True)]))
    if len(point_races) > 1:
        base_label, base = point_races[0]
        diffs = {label: paired_differences(base, races) for label, races in point_races[1:]}
        names = [n for n in diffs[point_races[1][0]] if any(abs(d[n]["base"]) > 0 or d[n]["mean"] != 0
                                                            for d in diffs.values() if n in d)]
        parts.append(f"<h3>Compared with {html.escape(base_label)}, race by race</h3>")
        parts.append("<p class='note'>Each point's races have the same seeds as the baseline's, so the "
                     "difference is taken race by race (paired): mean difference with its 95% interval, and "
                     "the change in % of the baseline's mean."
                     + ("" if all(s["team"] is not None for s in summaries) else
                        " The first to play is compared by its wins over its fair share (1/players of each "
                        "point), so points with other player counts compare fairly.") + "</p>")
        rows = []
        for name in names:
            row: list[Any] = [metric_words(name), fmt_difference(name, diffs[point_races[1][0]][name])[0]]
            for label in diffs:
                d = diffs[label].get(name)
                row.append("-" if d is None else _diff(name, d))
            rows.append(row)
        parts.append(_table(["number", f"baseline mean ({base_label})", *diffs], rows))
        series = {label: [_relative(name, diffs[label].get(name)) for name in names] for label in diffs}
        parts.append(_img(plots.difference_chart([metric_words(n) for n in names], series,
                                                 f"against {base_label}"), "sweep differences"))
        parts.append("<p class='note'>One chart per number, each with its own scale, so a large change in "
                     "one number does not hide a small one in another; a number whose baseline mean is 0 has "
                     "no change in % and no chart"
                     + ("" if all(s["team"] is not None for s in summaries) else
                        ", nor has the first to play over its fair share, a share of races whose difference the "
                        "table gives in points") + ".</p>")
    for point in meta["points"]:
        if (directory / point["dir"] / store.RUN_FILE).exists():
            parts.append(run_section(directory / point["dir"], point["name"]))
    return "\n".join(parts)


PARTIAL_HINT = "or add --partial to report what can be read"


def build(directory: Path, out: Path | None = None, partial: bool = False,
          damaged: list[Damage] | None = None) -> Path:
    """Write the report of a run, sweep or tournament directory; its path.

    A damaged folder (``integrity.inspect``; ``damaged`` when already inspected) is refused with a
    ``DamagedRunError`` naming each problem and the command that repairs it, unless ``partial``: then the
    report shows what can be read, and says at the top what is wrong."""
    if not directory.is_dir():
        raise SimError(f"{directory} is not a directory")
    if damaged is None:
        damaged = inspect(directory)
    if damaged and not partial:
        raise DamagedRunError(f"{describe(damaged)}; {PARTIAL_HINT}")
    warning = ("<p class='note'><b>Partial report.</b> " + html.escape(describe(damaged)) + ".</p>\n"
               if damaged else "")
    if (directory / SWEEP_FILE).exists():
        body = sweep_section(directory)
        title = "Slipstream sweep"
    elif (directory / store.RUN_FILE).exists():
        body = ""
        title = "Slipstream simulation"
        if (directory / TOURNAMENT_FILE).exists():
            body = tournament_section(directory)
            title = "Slipstream tournament"
        body += run_section(directory)
    else:
        raise SimError(f"{directory} holds no run, sweep or tournament; run slipstream simulate first")
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{CSS}</style></head><body><h1>{title}</h1>\n{warning}{body}\n"
            "<p class='note'>Intervals are 95%: Wilson for rates, normal approximation for means, "
            "bootstrap for Elo.</p></body></html>\n")
    path = out or directory / REPORT_FILE
    path.write_text(page, encoding="utf-8")
    return path
