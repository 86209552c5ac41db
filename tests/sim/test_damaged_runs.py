"""A damaged run folder says so (issue 29): ``report`` refuses it in one line naming each problem and the
command that repairs it (exit 2), or with ``--partial`` reports what can be read and says what is wrong;
``simulate`` says what it repairs; the printed command, run as printed, repairs the folder to the races
the first run wrote. Each case through the real command."""

from __future__ import annotations

import gzip
import json
import re
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_errors import assert_one_line_error, slipstream_cmd

RUN = ["simulate", "scrap-racer", "-n", "12", "--players", "3", "--bots", "random", "-o", "short=true",
       "--seed", "3"]


def races_of(directory: Path) -> list[str]:
    """The records' lines, in race order (the jobs may write them in another order)."""
    with gzip.open(directory / "races.jsonl.gz", "rt", encoding="utf-8") as fh:
        return sorted(fh, key=lambda line: json.loads(line)["index"])


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One whole run, a sweep of two points and a run with its skill run, to copy and damage."""
    here = tmp_path_factory.mktemp("made")
    assert slipstream_cmd([*RUN, "--out", "run"], here).returncode == 0
    sweep = ["simulate", "scrap-racer", "-n", "4", "-o", "short=true", "--bots", "random", "--sweep",
             "players=2,3", "--out", "sweep"]
    assert slipstream_cmd(sweep, here).returncode == 0
    assert slipstream_cmd(["simulate", "scrap-racer", "-n", "4", "-o", "short=true", "--skill", "--skill-bots",
                           "greedy,random", "--out", "skilled"], here, timeout=300).returncode == 0
    tournament = ["tournament", "scrap-racer", "-n", "4", "-o", "short=true", "--bots", "random,greedy",
                  "--players", "2", "--out", "rated"]
    assert slipstream_cmd(tournament, here).returncode == 0
    return here


def random_bytes(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 12)


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def one_race_more_counted(directory: Path) -> None:
    meta = json.loads((directory / "run.json").read_text())
    meta["races"] += 1
    (directory / "run.json").write_text(json.dumps(meta))


def rows_cut(path: Path) -> None:
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:5]))


DAMAGE: list[tuple[str, str, Callable[[Path], None], str]] = [
    ("records replaced by random bytes", "races.jsonl.gz", random_bytes,
     "races.jsonl.gz cannot be read: it is not a records file (run.json counts 12 races)"),
    ("records deleted", "races.jsonl.gz", Path.unlink, "races.jsonl.gz is missing (run.json counts 12 races)"),
    ("records cut in half", "races.jsonl.gz", cut_in_half, "races.jsonl.gz is cut short after"),
    ("a count that disagrees", ".", one_race_more_counted, "races.jsonl.gz holds 12 races, run.json counts 13"),
    ("the table deleted", "results.csv", Path.unlink, "results.csv is missing"),
    ("the table cut short", "results.csv", rows_cut, "results.csv has 4 rows, not 36 (one per race and seat)"),
    ("the parquet table deleted", "results.parquet", Path.unlink, "results.parquet is missing"),
]


def repair_of(message: str) -> list[str]:
    """The repair command a message names, as words."""
    found = re.search(r"again \(it keeps the whole races and plays the rest with the same seeds\): (slipstream .*?)"
                      r"(?:; or add --partial|; this report shows|$)", message.strip())
    assert found, message
    return shlex.split(found.group(1))[1:]


@pytest.mark.parametrize(("case", "name", "damage", "problem"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_report_names_the_damage_and_the_repair_and_the_repair_works(made: Path, tmp_path: Path, case: str,
                                                                     name: str, damage: Callable[[Path], None],
                                                                     problem: str) -> None:
    shutil.copytree(made / "run", tmp_path / "run")
    damage(tmp_path / "run" / name if name != "." else tmp_path / "run")
    proc = slipstream_cmd(["report", "run"], tmp_path)
    assert_one_line_error(proc, f"run is damaged: {problem}")
    assert "or add --partial to report what can be read" in proc.stderr
    assert not (tmp_path / "run" / "report.html").exists()
    repair = repair_of(proc.stderr.split("; or add --partial")[0])
    assert repair == [*RUN, "--out", "run"], "the command that made it"

    partial = slipstream_cmd(["report", "run", "--partial"], tmp_path)
    assert partial.returncode == 0, partial.stderr
    assert partial.stderr.startswith("warning: run is damaged: ") and problem in partial.stderr
    page = (tmp_path / "run" / "report.html").read_text()
    assert "Partial report." in page and problem.split(" (")[0] in page

    fixed = slipstream_cmd(repair, tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert f"warning: run is damaged: {problem}" in fixed.stderr and "this run repairs it" in fixed.stderr
    assert races_of(tmp_path / "run") == races_of(made / "run")
    assert (tmp_path / "run" / "results.csv").read_bytes() == (made / "run" / "results.csv").read_bytes()
    again = slipstream_cmd(["report", "run"], tmp_path)
    assert again.returncode == 0 and again.stderr == "", again.stderr


def test_a_damaged_sweep_point_names_the_point_and_the_sweep_command(made: Path, tmp_path: Path) -> None:
    shutil.copytree(made / "sweep", tmp_path / "sweep")
    (tmp_path / "sweep" / "players=3" / "races.jsonl.gz").unlink()
    proc = slipstream_cmd(["report", "sweep"], tmp_path)
    assert_one_line_error(proc, "sweep/players=3 is damaged: races.jsonl.gz is missing (run.json counts 4 races)")
    repair = repair_of(proc.stderr.split("; or add --partial")[0])
    assert repair == ["simulate", "scrap-racer", "-n", "4", "--bots", "random", "-o", "short=true", "--seed", "0",
                      "--sweep", "players=2,3", "--out", "sweep"]
    assert slipstream_cmd(repair, tmp_path).returncode == 0
    assert races_of(tmp_path / "sweep" / "players=3") == races_of(made / "sweep" / "players=3")
    assert slipstream_cmd(["report", "sweep"], tmp_path).returncode == 0


def test_a_damaged_skill_run_names_the_simulate_skill_command(made: Path, tmp_path: Path) -> None:
    shutil.copytree(made / "skilled", tmp_path / "skilled")
    cut_in_half(tmp_path / "skilled" / "skill" / "races.jsonl.gz")
    proc = slipstream_cmd(["report", "skilled"], tmp_path)
    assert_one_line_error(proc, "skilled/skill is damaged: races.jsonl.gz is cut short after")
    repair = repair_of(proc.stderr.split("; or add --partial")[0])
    assert repair[-5:] == ["--skill", "--skill-bots", "greedy,random", "--out", "skilled"]
    assert slipstream_cmd(repair, tmp_path, timeout=300).returncode == 0
    assert races_of(tmp_path / "skilled" / "skill") == races_of(made / "skilled" / "skill")


def test_a_tournament_without_its_ratings_names_the_tournament_command(made: Path, tmp_path: Path) -> None:
    shutil.copytree(made / "rated", tmp_path / "rated")
    (tmp_path / "rated" / "tournament.json").unlink()
    proc = slipstream_cmd(["report", "rated"], tmp_path)
    assert_one_line_error(proc, "rated is damaged: tournament.json is missing")
    repair = repair_of(proc.stderr.split("; or add --partial")[0])
    assert repair[:2] == ["tournament", "scrap-racer"]
    assert slipstream_cmd(repair, tmp_path).returncode == 0
    assert json.loads((tmp_path / "rated" / "tournament.json").read_text()) == json.loads(
        (made / "rated" / "tournament.json").read_text())


def test_a_run_still_running_is_not_called_damaged(made: Path, tmp_path: Path) -> None:
    """A run that says "running" may be writing now (or was stopped by kill -9: the same command resumes it)."""
    shutil.copytree(made / "run", tmp_path / "run")
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    (tmp_path / "run" / "run.json").write_text(json.dumps({"config": meta["config"], "status": "running"}))
    cut_in_half(tmp_path / "run" / "races.jsonl.gz")
    proc = slipstream_cmd(["report", "run"], tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
