"""No input taken silently (issue 29): what the commands used to accept and ignore, or let one value quietly
override another, is refused in one line with exit code 2 and changes nothing; Typer's own parse errors
come in the same one-line form; a lower ``-n`` on a finished run keeps every race and says how to read the
first ones."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from .test_errors import assert_one_line_error, slipstream_cmd

PARSE_ERRORS = [
    (["simulate", "scrap-racer", "-n", "abc"], "invalid value for '-n' / '--races'", "slipstream simulate --help"),
    (["simulate", "scrap-racer", "--seed", "abc"], "invalid value for '--seed'", "slipstream simulate --help"),
    (["simulate", "scrap-racer", "--job", "2"], "no such option: --job", "slipstream simulate --help"),
    (["tournament", "scrap-racer", "--bots", "random,greedy", "-n", "x"], "invalid value for '-n'",
     "slipstream tournament --help"),
    (["replay", "race.json", "--seat", "first"], "invalid value for '--seat'", "slipstream replay --help"),
    (["play", "scrap-racer", "--seed", "1.5"], "invalid value for '--seed'", "slipstream play --help"),
    (["simulate"], "missing argument 'game'", "slipstream simulate --help"),
    (["simulate", "scrap-racer", "--seed"], "option '--seed' requires an argument", ""),
    (["no-such-command"], "no such command 'no-such-command'", "slipstream --help"),
]


@pytest.mark.parametrize(("args", "words", "hint"), PARSE_ERRORS, ids=[" ".join(a) for a, _, _ in PARSE_ERRORS])
def test_parse_errors_are_one_line_like_every_other_error(tmp_path: Path, args: list[str], words: str,
                                                          hint: str) -> None:
    """Typer printed a five- or six-line box (usage, a hint, a framed message) for these."""
    proc = slipstream_cmd(args, tmp_path)
    assert_one_line_error(proc, words)
    assert hint in proc.stderr and "╭" not in proc.stderr and "Usage:" not in proc.stderr


SILENT = [
    (["simulate", "brc-grand-prix", "-n", "2", "--sweep", "laps=4,4"], "--sweep laps=4,4 names laps=4 twice"),
    (["simulate", "brc-grand-prix", "-n", "2", "--sweep", "laps=4,04"],
     "the sweep's points laps=4 and laps=04 are the same settings"),
    (["simulate", "brc-grand-prix", "-n", "2", "-o", "laps=4", "--sweep", "laps=4,8"],
     "option 'laps' is both fixed (-o laps=4) and swept (--sweep laps=4,8)"),
    (["simulate", "brc-grand-prix", "-n", "2", "--players", "2", "--sweep", "players=2,4"],
     "players is both fixed (--players 2) and swept (--sweep players=2,4)"),
    (["simulate", "brc-grand-prix", "-n", "2", "-o", "laps=4", "-o", "laps=5"],
     "option 'laps' is given twice (-o laps=4 and -o laps=5)"),
    (["tournament", "brc-grand-prix", "--bots", "random,greedy", "-n", "2", "-o", "laps=4", "-o", "laps=5"],
     "option 'laps' is given twice"),
    (["play", "brc-grand-prix", "-o", "laps=4", "-o", "laps=5"], "option 'laps' is given twice"),
    (["simulate", "brc-grand-prix", "-n", "2", "--address", "10.0.0.1:6379"],
     "--address 10.0.0.1:6379 is a Ray cluster's: add --backend ray"),
    (["tournament", "brc-grand-prix", "--bots", "random,greedy", "-n", "2", "--address", "10.0.0.1:6379"],
     "add --backend ray"),
    (["simulate", "brc-grand-prix", "-n", "2", "--verbose"], "--verbose lets Ray's own log lines through"),
]


@pytest.mark.parametrize(("args", "words"), SILENT, ids=[" ".join(a) for a, _ in SILENT])
def test_input_once_taken_silently_is_refused(tmp_path: Path, args: list[str], words: str) -> None:
    proc = slipstream_cmd([*args, "--out", "out"] if args[0] != "play" else args, tmp_path, stdin="q\n")
    assert_one_line_error(proc, words)
    assert not (tmp_path / "out").exists(), "nothing written"


def digests(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


def test_a_lower_n_on_a_finished_run_keeps_every_race_and_says_how_to_read_the_first(tmp_path: Path) -> None:
    """It used to rewrite run.json and the tables to the first N races, without a word."""
    run = ["simulate", "scrap-racer", "-o", "short=true", "--bots", "random", "--out", "run"]
    assert slipstream_cmd([*run, "-n", "6"], tmp_path).returncode == 0
    before = digests(tmp_path / "run")
    proc = slipstream_cmd([*run, "-n", "3"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert digests(tmp_path / "run") == before, "run.json, the records and the tables unchanged"
    text = " ".join(proc.stdout.split())
    assert "run keeps all its 6 races (a lower -n never drops races)" in text
    assert "the summary above is of the first 3, races 0 to 2: in results.csv the rows with race < 3" in text
    assert "race health (3 races" in text, "the summary is of the races asked for"
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert (meta["config"]["n"], meta["races"], meta["status"]) == (6, 6, "complete")
    report = slipstream_cmd(["report", "run"], tmp_path)
    assert report.returncode == 0 and "6 of 6 races" in (tmp_path / "run" / "report.html").read_text()
