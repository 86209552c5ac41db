"""Matplotlib figures of a run, each returned as PNG bytes (the report embeds them)."""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure


def _png(fig: Figure, tight: bool = True) -> bytes:
    buf = io.BytesIO()
    if tight:
        fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return buf.getvalue()


def _errors(triples: Sequence[Sequence[float]], scale: float = 1.0) -> tuple[list[float], list[list[float]]]:
    centres = [t[0] * scale for t in triples]
    low = [max(0.0, (t[0] - t[1]) * scale) for t in triples]
    high = [max(0.0, (t[2] - t[0]) * scale) for t in triples]
    return centres, [low, high]


LONG_LABEL = 14
"""Group names longer than this (a team: its characters and vehicles) get horizontal bars, wrapped."""


def rate_bars(groups: Sequence[dict[str, Any]], title: str, fair: float | Sequence[float] | None = None,
              ylabel: str = "win rate (%)") -> bytes:
    """Win rate per group with 95% error bars (and the fair share as a dashed line, or one dash on each
    bar when the groups' fair shares differ); long group names (teams) as horizontal bars, each name
    wrapped on its own lines."""
    centres, err = _errors([g["win"] for g in groups], 100)
    keys = [str(g["key"]) for g in groups]
    if fair is not None and not isinstance(fair, float | int):
        shares = list(fair)
        fair = shares[0] if shares and max(shares) - min(shares) < 1e-9 else None
        if fair is None:
            return _bars_with_shares(keys, centres, err, shares, title, ylabel)
    if max((len(key) for key in keys), default=0) <= LONG_LABEL:
        fig, ax = plt.subplots(figsize=(max(4.0, 0.8 * len(groups) + 2), 3.2))
        ax.bar(keys, centres, yerr=err, capsize=4, color="#4c72b0")
        if fair is not None:
            ax.axhline(100 * fair, color="#c44e52", linestyle="--", linewidth=1, label="fair share")
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="x", labelrotation=30 if len(groups) > 4 else 0)
    else:
        names = [textwrap.fill(key, 30) for key in keys]
        lines = sum(name.count("\n") + 1 for name in names)
        fig, ax = plt.subplots(figsize=(7.5, max(2.6, 0.22 * lines + 0.35 * len(groups) + 1.0)))
        ax.barh(names, centres, xerr=err, capsize=4, color="#4c72b0")
        ax.invert_yaxis()  # the first group on top, as in the table
        if fair is not None:
            ax.axvline(100 * fair, color="#c44e52", linestyle="--", linewidth=1, label="fair share")
        ax.set_xlabel(ylabel)
        ax.tick_params(axis="y", labelsize=8)
    if fair is not None:
        ax.legend(loc="upper right", fontsize=8)
    ax.set_title(title)
    return _png(fig)


def _bars_with_shares(keys: Sequence[str], centres: Sequence[float], err: Sequence[Sequence[float]],
                      shares: Sequence[float], title: str, ylabel: str) -> bytes:
    """Upright bars, each with its own fair share as a dash across it."""
    fig, ax = plt.subplots(figsize=(max(4.0, 0.8 * len(keys) + 2), 3.2))
    xs = range(len(keys))
    ax.bar(xs, centres, yerr=err, capsize=4, color="#4c72b0")
    for x, share in zip(xs, shares, strict=True):
        ax.hlines(100 * share, x - 0.4, x + 0.4, color="#c44e52", linestyle="--", linewidth=1.2,
                  label="fair share" if x == 0 else "_")  # "_": not in the legend
    ax.set_xticks(list(xs))
    ax.set_xticklabels(keys, rotation=30 if len(keys) > 4 else 0)
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title(title)
    return _png(fig)


def histogram(values: Sequence[float], title: str, xlabel: str) -> bytes:
    """A histogram with whole-number bins when the values are whole numbers."""
    fig, ax = plt.subplots(figsize=(4.6, 3.0))
    if values:
        lo, hi = min(values), max(values)
        whole = all(float(v).is_integer() for v in values)
        step = max(1, math.ceil((hi - lo + 1) / 60))
        bins: Any = [x - 0.5 for x in range(int(lo), int(hi) + step + 1, step)] if whole else 30
        ax.hist(values, bins=bins, color="#8172b2", edgecolor="white")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("races")
    return _png(fig)


def positions_over_time(race: dict[str, Any], names: Sequence[str]) -> bytes:
    """Each seat's place after every decision of one race (the game's ``standings``)."""
    fig, ax = plt.subplots(figsize=(7.0, 3.4))
    points = race["positions"]
    end = race["decisions"]
    for seat, name in enumerate(names):
        xs: list[float] = []
        ys: list[float] = []
        for x, order in points:
            if seat in order:
                xs.append(x)
                ys.append(order.index(seat) + 1)
        if xs:
            xs.append(end)
            ys.append(ys[-1])
            ax.step(xs, ys, where="post", label=name, linewidth=1.6)
    ax.set_ylim(len(names) + 0.5, 0.5)
    ax.set_yticks(range(1, len(names) + 1))
    ax.set_xlabel("decision")
    ax.set_ylabel("place")
    ax.set_title(f"race {race['index']} (seed {race['seed']}): places over time")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return _png(fig)


MAX_GRID = 12


def metric_grid(metrics: dict[str, Sequence[float]]) -> bytes:
    """Small histograms, one per per-game metric that varies (at most ``MAX_GRID``)."""
    names = [n for n, v in metrics.items() if len(set(v)) > 1][:MAX_GRID] or list(metrics)[:1]
    cols = min(3, max(1, len(names)))
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 2.5 * rows), squeeze=False)
    for i, ax in enumerate(axes.flat):
        if i >= len(names):
            ax.axis("off")
            continue
        values = metrics[names[i]]
        ax.hist(values, bins=min(20, max(5, len(set(values)))), color="#dd8452")
        ax.set_title(names[i], fontsize=9)
        ax.tick_params(labelsize=7)
    fig.subplots_adjust(left=0.06, right=0.98, top=0.93, bottom=0.07, hspace=0.55, wspace=0.3)
    return _png(fig, tight=False)


def compare_bars(labels: Sequence[str], series: Mapping[str, Sequence[Sequence[float]]], title: str,
                 ylabel: str, scale: float = 1.0) -> bytes:
    """Grouped bars with error bars: one group per sweep point, one bar per series (e.g. per seat)."""
    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * len(labels) + 2), 3.4))
    k = max(1, len(series))
    width = 0.8 / k
    for j, (name, triples) in enumerate(series.items()):
        centres, err = _errors(triples, scale)
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(labels))]
        ax.bar(xs, centres, width=width, yerr=err, capsize=3, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return _png(fig)


def wrap_point(name: str, width: int = 26) -> str:
    """A sweep point's name (``laps=4,track=A``) on lines of at most ``width`` characters, broken only after
    its commas (a value is never cut)."""
    lines: list[str] = []
    for part in name.split(","):
        if lines and len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += "," + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return "\n".join(lines)


def difference_chart(names: Sequence[str], points: Mapping[str, Sequence[Sequence[float]]], title: str) -> bytes:
    """``difference_figure`` as PNG."""
    return _png(difference_figure(names, points, title))


def difference_figure(names: Sequence[str], points: Mapping[str, Sequence[Sequence[float]]], title: str) -> Figure:
    """Paired differences against the baseline, as a change in % of the baseline's mean with 95% error
    bars: one small chart per number, each on its own scale (a number that changed by +500% does not
    squeeze the others to a line), one row per sweep point, named on the left of each row of charts. A
    number without a finite change (its baseline mean is 0) gets no chart."""
    labels = list(points)
    shown = [i for i in range(len(names)) if any(math.isfinite(points[p][i][0]) for p in labels)]
    columns = min(3, max(1, len(shown)))
    rows = max(1, math.ceil(len(shown) / columns))
    wrapped = [wrap_point(label) for label in labels]
    label_lines = max((w.count("\n") + 1 for w in wrapped), default=1)
    height = max(1.6, 0.22 * label_lines * len(labels) + 1.0)
    fig, axes = plt.subplots(rows, columns, figsize=(3.0 * columns + 1.8, height * rows + 0.5), squeeze=False,
                             sharey=True)
    ys = list(range(len(labels)))
    for k, ax in enumerate(axes.flat):
        if k >= len(shown):
            ax.axis("off")
            continue
        i = shown[k]
        triples = [points[p][i] for p in labels]
        centres = [t[0] for t in triples]
        err = [[max(0.0, t[0] - t[1]) if math.isfinite(t[0]) else 0.0 for t in triples],
               [max(0.0, t[2] - t[0]) if math.isfinite(t[0]) else 0.0 for t in triples]]
        ax.errorbar(centres, ys, xerr=err, fmt="o", capsize=3, color="#4c72b0")
        ax.axvline(0, color="#444", linewidth=0.8)
        ax.set_title(textwrap.fill(names[i], 30), fontsize=9)
        ax.tick_params(labelsize=7)
        ax.set_yticks(ys)
        ax.set_yticklabels(wrapped, fontsize=7)
        ax.set_ylim(len(labels) - 0.5, -0.5)
        ax.xaxis.set_major_formatter(lambda x, _: f"{x:+.0f}%")
    fig.suptitle(f"{title}: change in % of the baseline's mean, 95% CI", fontsize=10)
    return fig


def elo_bars(ratings: Sequence[dict[str, Any]]) -> bytes:
    """Elo rating per bot with its 95% bootstrap interval (1500 is the average)."""
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(ratings) + 2), 3.2))
    centres = [r["elo"] for r in ratings]
    err = [[max(0.0, r["elo"] - r["lo"]) for r in ratings], [max(0.0, r["hi"] - r["elo"]) for r in ratings]]
    ax.errorbar([r["bot"] for r in ratings], centres, yerr=err, fmt="o", capsize=5, color="#4c72b0")
    ax.axhline(1500, color="#c44e52", linestyle="--", linewidth=1, label="average")
    ax.set_ylabel("Elo (95% CI)")
    ax.set_title("tournament ratings")
    ax.legend(fontsize=8)
    return _png(fig)
