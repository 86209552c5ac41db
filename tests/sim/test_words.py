"""Names in words in every chart title and axis, and in the summary (issue 29): metric ids become words in
one place (``sim.words.metric_words``), seat labels that are content ids become the names of the game's
glossary, with the noun its kind gives ("character", "character / vehicle"), and a label every seat shares
(BRC's bots all start on soft tyres) gets no table or chart of one bar. Through the real commands."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from slipstream.cli.main import app
from slipstream.sim import plots
from slipstream.sim.words import Names, metric_words

runner = CliRunner()


def test_metric_words() -> None:
    assert metric_words("crash_cards") == "Crash cards"
    assert metric_words("first_to_play_over_fair_share") == "First to play over fair share"
    assert metric_words("turns") == "Turns"


def test_labels_become_the_glossarys_names_with_its_kinds() -> None:
    heist = Names.of("highway-heist", {"players": 3})
    assert heist.label("dom/exotic-supercar + brian/street-drifter") == "Dom / Exotic Supercar + Brian / Street Drifter"
    assert heist.noun(["dom/exotic-supercar", "brian/street-drifter"]) == "character / vehicle"
    rev = Names.of("rev-it-up", {"players": 4})
    assert rev.label("racer-3") == "Goldie Gears" and rev.noun(["racer-1", "racer-3"]) == "character"
    assert Names.of("scrap-racer", {}).noun(["Hover", "Steel Jacket"]) == "racer"
    assert Names.of("rush-n-crush", {}).noun(["Armour & Ram / Gun & Saw"]) == "car / driver"
    brc = Names.of("brc-grand-prix", {})
    assert brc.label("SOFT start") == "SOFT start" and brc.noun(["SOFT start", "HARD start"]) == "tyre"
    assert Names().label("racer-3") == "racer-3", "no glossary: the label as it is"


@pytest.fixture
def charted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the report gives a chart (titles, axis labels, bar and legend names), recorded."""
    texts: list[str] = []

    def strings(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            for item in value:
                yield from strings(item)

    def record(name: str, real: Callable[..., bytes]) -> Callable[..., bytes]:
        def chart(*args: Any, **kwargs: Any) -> bytes:
            if name == "positions_over_time":
                texts.extend(args[1])
            elif name == "difference_chart":
                texts.extend(args[0])  # the numbers; the points are named as the sweep gave them (--sweep)
                texts.append(re.sub(r"against .*", "against the first point", args[2]))
            elif name == "metric_grid":
                texts.extend(args[0])
            else:
                for arg in [*args, *kwargs.values()]:
                    if isinstance(arg, list) and arg and isinstance(arg[0], dict):
                        texts.extend(str(g["key"]) for g in arg)
                    elif isinstance(arg, dict):
                        texts.extend(arg)
                    else:
                        texts.extend(strings(arg))
            return real(*args, **kwargs)
        return chart

    for name in ("rate_bars", "histogram", "positions_over_time", "metric_grid", "compare_bars", "difference_chart"):
        monkeypatch.setattr(plots, name, record(name, getattr(plots, name)))
    yield texts


IDS = re.compile(r"_|\bracer-\d|exotic-supercar|street-drifter|\bdom\b|semi-heist|chopper-takedown")


def check_words(texts: list[str]) -> None:
    assert texts, "charts were drawn"
    ids = [text for text in texts if IDS.search(text)]
    assert not ids, f"ids in the charts: {ids}"


def test_every_chart_of_a_run_is_in_words(tmp_path: Path, charted: list[str]) -> None:
    result = runner.invoke(app, ["simulate", "rev-it-up", "-n", "4", "--bots", "random", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "by character" in result.output and "Nitro Nell" in result.output and "racer-1" not in result.output
    assert "Draws per racer round" in result.output
    assert runner.invoke(app, ["report", str(tmp_path)]).exit_code == 0
    check_words(charted)
    assert "win rate by character" in charted and "Draws per racer round" in charted


def test_every_chart_of_a_cooperative_sweep_is_in_words(tmp_path: Path, charted: list[str]) -> None:
    result = runner.invoke(app, ["simulate", "highway-heist", "-n", "2", "-p", "2", "--bots", "random", "--sweep",
                                 "scenario=semi-heist,chopper-takedown", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Semi Heist" in result.output and "Dom / Exotic Supercar" in result.output
    assert "semi-heist" not in result.output.split("records and results")[0].split("all points")[1]
    assert "dom/exotic-supercar" not in result.output
    assert runner.invoke(app, ["report", str(tmp_path)]).exit_code == 0
    check_words(charted)
    assert "Chopper Takedown" in charted


def test_a_label_every_seat_shares_gets_no_table_and_no_chart(tmp_path: Path, charted: list[str]) -> None:
    """BRC's heuristic bots all start on soft tyres: "by racer" was one bar, "SOFT start"."""
    result = runner.invoke(app, ["simulate", "brc-grand-prix", "-n", "3", "-o", "laps=1", "--bots", "greedy",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "SOFT start" not in result.output and "by racer" not in result.output
    assert runner.invoke(app, ["report", str(tmp_path)]).exit_code == 0
    shared = [text for text in charted if text == "SOFT start" or "by racer" in text or "by tyre" in text]
    assert not shared, shared
    check_words(charted)
