"""Every bad input the issue lists, through the real ``slipstream`` command: one line on stderr, exit code
2, no traceback, and nothing lost (a race is saved on quit or Ctrl-C; a save path is checked first)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

import slipstream
from slipstream.engine.play import play
from slipstream.engine.record import dumps, parse
from slipstream.sim import SimConfig, run
from tests.playout import FirstLegal

SRC = str(Path(slipstream.__file__).resolve().parents[1])
ROOT = str(Path(__file__).resolve().parents[2])


def slipstream_cmd(args: Sequence[str], cwd: Path, stdin: str = "", timeout: float = 120
                   ) -> subprocess.CompletedProcess[str]:
    """The installed command, run on this checkout's sources, with no terminal (output piped)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, ROOT]), "COLUMNS": "60"}
    return subprocess.run([sys.executable, "-m", "slipstream.cli.main", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)


def env_with_src() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, ROOT])}


def assert_one_line_error(proc: subprocess.CompletedProcess[str], words: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-800:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ") and words in lines[0], lines[0]
    assert proc.stdout.strip() == "", f"nothing (no empty progress bar) before the error: {proc.stdout!r}"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished record of each game, and a simulation run of three races."""
    here = tmp_path_factory.mktemp("records")
    for game_id, options in (("scrap-racer", {"short": True}), ("brc-grand-prix", {"laps": 1}), ("rev-it-up", {}),
                             ("rush-n-crush", {}), ("highway-heist", {})):
        game = slipstream.load(game_id, **options)
        state = play(game.start(seed=1), [FirstLegal()] * game.players)
        (here / f"{game_id}.json").write_text(dumps(state))
    run(SimConfig("scrap-racer", 2, ("random",), n=3, seed=1, options={"short": "true"}), here / "run")
    (here / "dir.toml").mkdir()
    return here


CASES = [
    (["replay", "scrap-racer.json", "--seat", "9"], "--seat must be from 0 to 3"),
    (["replay", "scrap-racer.json", "--seat", "4"], "--seat must be from 0 to 3 in this 4-player race (seats count "
                                                    "from 0: seat 0 is P1), not 4"),
    (["replay", "brc-grand-prix.json", "--seat", "7"], "--seat must be from 0 to"),
    (["replay", "run/races.jsonl.gz"], "choose a race with --race I (0 to 2)"),
    (["replay", "run"], "choose a race with --race I (0 to 2)"),
    (["replay", "run", "--race", "3"], "no race 3: its races are 0 to 2"),
    (["replay", "scrap-racer.json", "--race", "1"], "--race picks a race of a simulation run"),
    (["replay", "no-such.json"], "no-such.json: no such file"),
    (["play", "scrap-racer", "--delay", "-1", "--humans", "0"], "--delay must be 0 or more"),
    (["play", "scrap-racer", "--humans", "0", "--save", "/nonexistent/dir/x.json"],
     "cannot save the race to /nonexistent/dir/x.json"),
    (["play", "scrap-racer", "--humans", "0", "--save", "."], "cannot save the race to ."),
    (["play", "scrap-racer", "-o", "content=."], "is a directory"),
    (["play", "scrap-racer", "-o", "track=dir.toml"], "dir.toml: file: field 'path': cannot be read: it is a dir"),
    (["play", "scrap-racer", "--resume", "brc-grand-prix.json"],
     "a brc-grand-prix record, not scrap-racer: slipstream play brc-grand-prix --resume"),
    (["play", "scrap-racer", "--humans", "5"], "--humans must be from 0 to 4"),
    (["play", "scrap-racer", "-p", "4", "--seats", "human,random"], "4 seats needed, got 2"),
    (["games", "no-such-game"], "unknown game 'no-such-game'; the games are:"),
    (["play", "scrap-racer", "-o", "track=Z"],
     "option 'track' cannot be 'Z'; choose one of: A, B, C, or a track file ending .toml"),
    # the games added after the list: the same answers
    (["replay", "rev-it-up.json", "--seat", "5"], "--seat must be from 0 to 3"),
    (["replay", "rush-n-crush.json", "--seat", "-1"], "--seat must be from 0 to 3"),
    (["replay", "highway-heist.json", "--seat", "3"], "--seat must be from 0 to 2 in this 3-player race"),
    (["play", "rush-n-crush", "--delay", "-1", "--humans", "0"], "--delay must be 0 or more"),
    (["play", "highway-heist", "--humans", "0", "--save", "/nonexistent/dir/x.json"],
     "cannot save the race to /nonexistent/dir/x.json"),
    (["play", "rev-it-up", "-o", "content=."], "is a directory"),
    (["play", "rush-n-crush", "-o", "course=dir.toml"], "dir.toml: file: field 'path': cannot be read: it is a dir"),
    (["play", "rush-n-crush", "-o", "laps=3"], "option 'laps' above 1 needs a closed course"),
    (["play", "highway-heist", "-o", "content=."], "is a directory"),
    (["play", "highway-heist", "-o", "ramsey_seat=3"], "option 'ramsey_seat' must be a seat from 0 to 2"),
    (["play", "highway-heist", "--resume", "rush-n-crush.json"],
     "a rush-n-crush record, not highway-heist: slipstream play rush-n-crush --resume"),
    (["play", "rush-n-crush", "--humans", "7"], "--humans must be from 0 to 4"),
]


@pytest.mark.parametrize(("args", "words"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_play_and_replay_input_is_one_line_and_exit_code_2(records: Path, args: list[str], words: str) -> None:
    assert_one_line_error(slipstream_cmd(args, records), words)


@pytest.mark.parametrize("game_id", ["rush-n-crush", "highway-heist"])
def test_a_bot_race_of_the_newer_games_saves_and_replays(records: Path, game_id: str) -> None:
    """play with bots only, --save, then replay as a seat: the saved line names the replay command on one
    line (it wrapped inside the path when the output was not a terminal), and the board's key is shown."""
    save = records / f"saved-{game_id}-with-a-long-name-for-the-record-file.json"
    proc = slipstream_cmd(["play", game_id, "--humans", "0", "--seed", "2", "--save", str(save)], records)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"(slipstream replay {save})" in proc.stdout
    assert "key:" in proc.stdout or "Player Vehicle" in proc.stdout
    again = slipstream_cmd(["replay", str(save), "--seat", "2"], records)
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr[-2000:]


def test_replay_a_race_of_a_simulation_run(records: Path) -> None:
    proc = slipstream_cmd(["replay", "run", "--race", "2", "--seat", "1"], records)
    assert proc.returncode == 0, proc.stderr
    assert "Finishing order" in proc.stdout
    same = slipstream_cmd(["replay", "run/races.jsonl.gz", "--race", "2", "--seat", "1"], records)
    header_end = proc.stdout.index("╰")
    assert same.stdout[same.stdout.index("╰"):] == proc.stdout[header_end:], "the same race, named by its file"


def test_quitting_at_the_end_of_input_saves_the_race(records: Path, tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    proc = slipstream_cmd(["play", "scrap-racer", "--seed", "4", "--save", str(save)], records, stdin="2\n2\n")
    assert proc.returncode == 0, proc.stderr
    assert "Race stopped" in proc.stdout and len(parse(save.read_text())["actions"]) > 2


def test_ctrl_c_during_play_saves_the_race_and_exits_130(tmp_path: Path) -> None:
    save = tmp_path / "race.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, ROOT])}
    proc = subprocess.Popen([sys.executable, "-m", "slipstream.cli.main", "play", "scrap-racer", "--seed", "4",
                             "--save", str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("2\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    seen = ""
    while seen.count("your move") < 2 and time.monotonic() < deadline:
        seen += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out[-500:], err[-1500:])
    assert "Traceback" not in err
    assert "Race stopped" in out
    record = json.loads(save.read_text())
    assert record["game"] == "scrap-racer" and len(record["actions"]) >= 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def corrupt(records: Path) -> Path:
    (records / "corrupt").mkdir()
    (records / "corrupt" / "run.json").write_text("{bad")
    return records


SIM_CASES = [
    (["simulate", "scrap-racer", "-n", "3", "--jobs", "0", "--out", "o1"], "--jobs must be at least 1, not 0"),
    (["simulate", "scrap-racer", "-n", "3", "--backend", "spark", "--out", "o2"],
     "unknown backend 'spark'; the backends are: process, ray"),
    (["simulate", "scrap-racer", "-n", "3", "--sweep", "foo=1,2", "--out", "o3"], "unknown option 'foo'"),
    (["simulate", "scrap-racer", "-n", "3", "--sweep", "players=2,9", "--out", "o4"], "players"),
    (["simulate", "scrap-racer", "-n", "3", "-o", "content=.", "--out", "o5"], "is a directory"),
    (["simulate", "scrap-racer", "-n", "3", "--out", "corrupt"], "corrupt/run.json cannot be read"),
    (["simulate", "scrap-racer", "-n", "3", "--out", "scrap-racer.json"], "is a file, not a directory"),
    (["report", "corrupt"], "corrupt/run.json cannot be read"),
    (["tournament", "scrap-racer", "--bots", "random,random", "--out", "o6"], "each bot once"),
    (["tournament", "scrap-racer", "--bots", "random,greedy", "--jobs", "-1", "--out", "o7"], "--jobs must be"),
    (["tournament", "highway-heist", "--bots", "random,greedy", "--out", "o8"],
     "highway-heist is cooperative: the seats win or lose together"),
    (["simulate", "rush-n-crush", "-n", "3", "--bots", "greedy,nobody", "--players", "2", "--out", "o9"],
     "unknown bot 'nobody'"),
    (["simulate", "highway-heist", "-n", "3", "--sweep", "scenario=tank-assault,nowhere", "--out", "o10"],
     "option 'scenario' cannot be 'nowhere'"),
]


@pytest.mark.parametrize(("args", "words"), SIM_CASES, ids=[" ".join(a) for a, _ in SIM_CASES])
def test_bad_simulation_input_is_one_line_and_exit_code_2(corrupt: Path, args: list[str], words: str) -> None:
    assert_one_line_error(slipstream_cmd(args, corrupt), words)


def test_an_unreachable_ray_cluster_is_one_line_within_seconds(records: Path) -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{free_port()}"
    start = time.monotonic()
    proc = slipstream_cmd(["simulate", "scrap-racer", "-n", "2", "--backend", "ray", "--address", address,
                           "--out", "ray-out"], records)
    assert_one_line_error(proc, f"cannot reach the Ray cluster at {address}")
    assert time.monotonic() - start < 60
    assert not (records / "ray-out" / "run.json").exists()


def test_serve_refuses_a_bad_port_a_port_in_use_and_a_database_it_cannot_open(records: Path) -> None:
    assert_one_line_error(slipstream_cmd(["serve", "--port", "99999"], records), "--port must be from 1 to 65535")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = slipstream_cmd(["serve", "--port", str(port), "--database-url", "x.sqlite3"], records)
        assert_one_line_error(proc, f"cannot listen on 127.0.0.1:{port}: address already in use")
        assert "running" not in proc.stdout
    port = free_port()
    assert_one_line_error(slipstream_cmd(["serve", "--port", str(port), "--database-url", "/nonexistent/dir/x.sqlite3"],
                                         records), "cannot open the database /nonexistent/dir/x.sqlite3")
    url = f"postgresql://nobody@127.0.0.1:{free_port()}/nothing"
    assert_one_line_error(slipstream_cmd(["serve", "--port", str(port), "--database-url", url], records),
                          f"cannot open the database {url}")
    proxies = ["serve", "--port", str(port), "--forwarded-allow-ips", "127.0.0.1,proxy.example"]
    assert_one_line_error(slipstream_cmd(proxies, records), "--forwarded-allow-ips: 'proxy.example' is not an IP")


def test_serve_starts_on_a_free_port(records: Path, tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, ROOT])}
    proc = subprocess.Popen([sys.executable, "-m", "slipstream.cli.main", "serve", "--port", str(port),
                             "--database-url", str(tmp_path / "db.sqlite3")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the server did not listen")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_stopping_a_simulation_keeps_every_finished_race(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl-C or SIGTERM, two jobs: exit 130, the run says 'interrupted', every race in the records replays,
    and the same command finishes the run."""
    args = ["simulate", "scrap-racer", "-n", "3000", "--jobs", "2", "--out", "run"]
    proc = subprocess.Popen([sys.executable, "-m", "slipstream.cli.main", *args], cwd=tmp_path, env=env_with_src(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    records = tmp_path / "run" / "races.jsonl.gz"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not records.exists() or records.stat().st_size < 2000):
        time.sleep(0.2)
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out[-1000:], err[-2000:])
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["status"] == "interrupted" and 0 < meta["races"] < 3000
    from slipstream.sim import store

    races, torn = store.read_races(records)
    assert not torn and len(races) == meta["races"] == len({r["index"] for r in races})
    assert f"{meta['races']} races kept" in out
