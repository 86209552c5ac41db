"""Rule citations after each event in the terminal: no doubled brackets (issue 16)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from slipstream.cli.main import app
from slipstream.cli.play import cite

runner = CliRunner()


@pytest.mark.parametrize(("rule", "shown"), [
    ("Setup 7)", "\u2014 Setup 7."),
    ("A) Move the Racer, 1) Dice results and bonus cards", "\u2014 A. Move the Racer, 1. Dice results and bonus cards"),
    ("Coolant (Blue)", "\u2014 Coolant (Blue)"),
    ("The Mandatory Pit Window (F1-G9)", "\u2014 The Mandatory Pit Window"),
    ("Goal cards: All but first (+2)", "\u2014 Goal cards: All but first (+2)"),
])
def test_cite_keeps_the_rule_and_drops_the_doubled_brackets(rule: str, shown: str) -> None:
    assert cite(rule) == shown


@pytest.mark.parametrize("game_id", ["scrap-racer", "brc-grand-prix", "rev-it-up", "rush-n-crush", "highway-heist"])
def test_no_printed_citation_has_doubled_brackets(game_id: str) -> None:
    result = runner.invoke(app, ["demo", game_id, "--seed", "1"])
    assert result.exit_code == 0, result.output
    cited = [line for line in result.output.splitlines() if line.startswith("  ") and "\u2014 " in line]
    assert len(cited) > 20
    for line in cited:
        citation = line.rsplit("\u2014 ", 1)[1]
        for doubled in ("((", "))", "[[", "]]"):
            assert doubled not in citation, line
    assert not [line for line in result.output.splitlines() if line.startswith("  ") and "))" in line]
