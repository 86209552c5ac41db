"""The batch runner: reproducible from the master seed, resumable, with records that replay."""

from __future__ import annotations

import gzip
import itertools
import json
import multiprocessing
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

import slipstream
from slipstream import jsontext
from slipstream.bots.registry import UnknownBotError
from slipstream.engine.errors import OptionError, UnknownGameError
from slipstream.sim import SimConfig, SimError, run, runner, store, workers
from slipstream.sim.race import RaceFailed, RaceSpec, play_race, race_seed, to_line
from slipstream.sim.runner import seating
from tests import toygame

SETUP = ("tests.toygame:install",)


def config(n: int = 12, seed: int = 3, **kw: object) -> SimConfig:
    base: dict[str, object] = {"game": "toy-dash", "players": 3, "bots": ("greedy", "random", "random"),
                               "n": n, "seed": seed, "setup": SETUP,
                               "options": {"length": "20", "sprint": "true"}}
    base.update(kw)
    return SimConfig(**base)  # type: ignore[arg-type]


def strip(races: list[dict[str, object]]) -> list[dict[str, object]]:
    return sorted(races, key=lambda r: r["index"])  # type: ignore[arg-type, return-value]


def test_same_seed_same_races_whatever_the_jobs(toy: str, tmp_path: Path) -> None:
    one = run(config(n=16), tmp_path / "one", jobs=1)
    two = run(config(n=16), tmp_path / "two", jobs=2)
    assert one.races == two.races
    assert len(one.races) == 16 and not one.interrupted
    assert strip(list(store.iter_races(tmp_path / "one", full=True))) == strip(
        list(store.iter_races(tmp_path / "two", full=True))), "the same actions, chance outcomes included"
    other = run(config(n=16, seed=4), tmp_path / "other", jobs=1)
    assert [r["seed"] for r in other.races] != [r["seed"] for r in one.races]


def test_race_seeds_are_distinct_and_fixed_by_master_seed_and_index() -> None:
    seeds = [race_seed(7, i) for i in range(1000)]
    assert len(set(seeds)) == 1000 and all(0 <= s < 2**63 for s in seeds)
    assert race_seed(7, 5) == seeds[5] != race_seed(8, 5)


def test_each_record_replays_to_the_same_result(toy: str, tmp_path: Path) -> None:
    outcome = run(config(n=6), tmp_path, jobs=1)
    full = strip(list(store.iter_races(tmp_path, full=True)))
    assert [store.compact(r) for r in full] == outcome.races
    for race in full:
        record = {k: race[k] for k in ("game", "version", "options", "seed", "actions")}
        final = slipstream.replay(record)
        assert final.result is not None
        assert final.result.to_json() == race["result"]
        assert [final.result.rank(s) for s in range(3)] == race["ranks"]


def test_races_carry_the_games_metrics_labels_and_standings(toy: str, tmp_path: Path) -> None:
    run(config(n=1), tmp_path, jobs=1)
    race = store.first_race(tmp_path)
    assert race is not None
    assert set(race["metrics"]) == {"turns", "rounds", "sprints", "dashes"}
    assert set(race["labels"]) == {"0", "1", "2"}
    assert race["positions"][0][0] == 0 and race["lead_changes"] is not None
    leaders = [order[0] for _, order in race["positions"]]
    assert race["lead_changes"] == sum(a != b for a, b in itertools.pairwise(leaders))


def test_a_game_without_metrics_hooks_gets_generic_numbers(toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    toygame.use_hooks(monkeypatch, race_metrics=None, seat_labels=None, standings=None)
    game = slipstream.load("toy-dash", players=2, length=20, sprint=True)
    race = play_race(game, 5, ["random", "random"])
    assert set(race["metrics"]) == {"turns", "rounds"}
    choices = [a for a in race["actions"] if a.endswith((":dash", ":walk"))]
    moves = [a for a in race["actions"] if a in ("move", "sprint")]
    assert choices and moves
    # each round's two choices are one turn, and a dasher's roll and its move (or sprint) are one turn
    assert race["metrics"]["turns"] == race["decisions"] - len(choices) // 2 - len(moves)
    assert race["labels"] == {} and race["lead_changes"] is None and race["positions"] == []


@pytest.mark.parametrize("with_orjson", [True, False])
def test_a_race_line_is_the_race_as_json_with_its_compact_form(toy: str, with_orjson: bool,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if not with_orjson:
        monkeypatch.setattr(jsontext, "orjson", None)
    elif jsontext.orjson is None:
        pytest.skip("orjson is not installed (pip install -e .[sim])")
    game = slipstream.load("toy-dash", players=3, length=20, sprint=True)
    race = play_race(game, 5, ["random", "greedy", "random"], 4)
    race["labels"] = {"0": "Élan — ü"}  # non-ASCII text, as a racer's name may be
    line, text = to_line(race)
    small = jsontext.decode(text)
    assert line.endswith("\n") and line.count("\n") == 1
    assert json.loads(line) == json.loads(json.dumps(race)), "every field, the bulky ones after the rest"
    assert small == store.compact(json.loads(line)) and "actions" not in small and "positions" not in small
    assert list(json.loads(line))[-2:] == ["actions", "positions"]


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_metric_that_is_not_a_number_is_refused_by_name(toy: str, value: float) -> None:
    game = slipstream.load("toy-dash", players=3, length=20, sprint=True)
    race = play_race(game, 5, ["random", "greedy", "random"], 4)
    race["metrics"]["dashes"] = value
    with pytest.raises(ValueError, match=r"race 4: metric 'dashes' is (nan|inf), not a finite number"):
        to_line(race)


def test_results_table_has_a_row_per_race_and_seat(toy: str, tmp_path: Path) -> None:
    outcome = run(config(n=5), tmp_path, jobs=1)
    assert {p.name for p in outcome.files} == {"results.csv", "results.parquet"}
    lines = (tmp_path / "results.csv").read_text().splitlines()
    header = lines[0].split(",")
    assert header[:7] == ["race", "seed", "seat", "bot", "label", "rank", "won"]
    assert {"turns", "rounds", "m_sprints", "m_dashes", "lead_changes"} <= set(header)
    assert len(lines) == 1 + 5 * 3
    table = pq.read_table(tmp_path / "results.parquet").to_pylist()
    assert len(table) == 15 and sum(row["won"] for row in table) == 5


def test_results_table_columns_hold_every_race_in_order_and_none_where_a_race_lacks_one(tmp_path: Path) -> None:
    """Races out of order, one without a metric the others have, one with a sweep option: every row in
    race order, and an empty cell (CSV) or null (parquet) where a race has no value."""

    def race(index: int, metrics: dict[str, float], sweep: dict[str, Any] | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"index": index, "seed": 100 + index, "bots": ["a", "b"], "labels": {"1": "Swifty"},
                                "ranks": [2, 1], "result": {"winners": [1]}, "lead_changes": None,
                                "decisions": 7, "metrics": metrics}
        if sweep is not None:
            data["sweep"] = sweep
        return data

    races = [race(2, {"turns": 3.0, "crashes": 1.0}, {"laps": 2}), race(0, {"turns": 5.0, "crashes": 0.0}),
             race(1, {"turns": 4.0})]
    written = store.write_tables(tmp_path, races)
    assert [p.name for p in written] == ["results.csv", "results.parquet"]
    assert (tmp_path / "results.csv").read_text().splitlines() == [
        "race,seed,seat,bot,label,rank,won,turn_order,choices,seat_decisions,led_at_half,lead_changes,decisions,"
        "turns,m_crashes,opt_laps",
        "0,100,0,a,,2,0,,,,,,7,5.0,0.0,",
        "0,100,1,b,Swifty,1,1,,,,,,7,5.0,0.0,",
        "1,101,0,a,,2,0,,,,,,7,4.0,,",
        "1,101,1,b,Swifty,1,1,,,,,,7,4.0,,",
        "2,102,0,a,,2,0,,,,,,7,3.0,1.0,2",
        "2,102,1,b,Swifty,1,1,,,,,,7,3.0,1.0,2",
    ]
    table = pq.read_table(tmp_path / "results.parquet").to_pydict()
    assert table["m_crashes"] == [0.0, 0.0, None, None, 1.0, 1.0]
    assert table["opt_laps"] == [None, None, None, None, 2, 2]
    assert table["won"] == [0, 1, 0, 1, 0, 1]


def _table_race(index: int, metrics: dict[str, float], lead_changes: int | None = None,
                label: str = "Swifty") -> dict[str, Any]:
    return {"index": index, "seed": 100 + index, "bots": ["a", "b, the \"second\""], "labels": {"1": label},
            "ranks": [2, 1], "result": {"winners": [1]}, "lead_changes": lead_changes, "decisions": 7 + index,
            "metrics": metrics}


def _tables_of(directory: Path) -> tuple[bytes, Any]:
    return (directory / "results.csv").read_bytes(), pq.read_table(directory / "results.parquet")


def _whole(directory: Path, races: list[dict[str, Any]]) -> tuple[bytes, Any]:
    """The tables ``write_tables`` writes from every race at once."""
    directory.mkdir()
    store.write_tables(directory, races)
    return _tables_of(directory)


def _streamed(directory: Path, races: list[dict[str, Any]], indices: Any, bunch: int = 3) -> list[Path]:
    directory.mkdir()
    writer = store.ResultsWriter(directory, indices)
    for start in range(0, len(races), bunch):
        writer.add(races[start:start + bunch])
    return writer.close(races)


def test_tables_written_as_races_arrive_are_those_written_at_the_end(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Races in any order, in bunches, formatted a few rows at a time: the same CSV byte for byte (quoted
    names and labels included) and the same parquet table as one write of every race, in row groups."""
    monkeypatch.setattr(store, "GROUP_ROWS", 5)
    races = [_table_race(i, {"turns": float(i), "crashes": i / 3}, lead_changes=i % 2, label=f"Car, {i}")
             for i in range(23)]
    shuffled = sorted(races, key=lambda r: r["index"] ^ 1)  # 1, 0, 3, 2, ...: each race after the next
    written = _streamed(tmp_path / "streamed", shuffled, range(23))
    assert [p.name for p in written] == ["results.csv", "results.parquet"]
    streamed, whole = _tables_of(tmp_path / "streamed"), _whole(tmp_path / "whole", races)
    assert streamed[0] == whole[0] and streamed[1].equals(whole[1])
    assert pq.ParquetFile(tmp_path / "streamed" / "results.parquet").metadata.num_row_groups > 2, "streamed"
    assert sorted(p.name for p in (tmp_path / "streamed").iterdir()) == ["results.csv", "results.parquet"]


def test_tables_of_an_interrupted_run_hold_the_races_that_came_in_order(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Races 3 and 7 never came (Ctrl-C): the rest are written in order at ``close``, held ones included."""
    monkeypatch.setattr(store, "GROUP_ROWS", 4)
    came = [_table_race(i, {"turns": float(i)}, lead_changes=1) for i in range(12) if i not in (3, 7)]
    _streamed(tmp_path / "streamed", list(reversed(came)), range(12), bunch=2)
    streamed, whole = _tables_of(tmp_path / "streamed"), _whole(tmp_path / "whole", came)
    assert streamed[0] == whole[0] and streamed[1].equals(whole[1])
    assert [row.split(b",")[0] for row in streamed[0].splitlines()[1::2]] == [
        str(i).encode() for i in range(12) if i not in (3, 7)]


@pytest.mark.parametrize("case", ["a metric only some races have", "a column typed otherwise later"])
def test_tables_fall_back_to_one_write_when_races_differ(case: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Streaming needs every race to have the first one's columns (and the first row group's parquet types):
    otherwise ``close`` writes both tables whole, as ``write_tables`` does, and leaves no partial file."""
    monkeypatch.setattr(store, "GROUP_ROWS", 4)
    if case == "a metric only some races have":
        races = [_table_race(i, {"turns": 1.0} if i < 6 else {"turns": 1.0, "crashes": 2.0}) for i in range(10)]
    else:  # no lead changes at all in the first group (a null parquet column), then some
        races = [_table_race(i, {"turns": 1.0}, lead_changes=None if i < 4 else i) for i in range(10)]
    written = _streamed(tmp_path / "streamed", races, range(10))
    streamed, whole = _tables_of(tmp_path / "streamed"), _whole(tmp_path / "whole", races)
    assert streamed[0] == whole[0] and streamed[1].equals(whole[1])
    assert pq.ParquetFile(written[1]).metadata.num_row_groups == 1, "written whole"
    assert sorted(p.name for p in (tmp_path / "streamed").iterdir()) == ["results.csv", "results.parquet"]


def test_a_run_can_be_extended_and_gives_what_one_long_run_gives(toy: str, tmp_path: Path) -> None:
    first = run(config(n=6), tmp_path / "a", jobs=1)
    assert first.played == 6
    more = run(config(n=14), tmp_path / "a", jobs=2)
    assert (more.resumed, more.played) == (6, 8)
    fresh = run(config(n=14), tmp_path / "b", jobs=1)
    assert more.races == fresh.races


def test_an_interrupted_run_keeps_its_races_and_resumes(toy: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (a KeyboardInterrupt while races are finishing) keeps what is done; rerunning finishes."""
    monkeypatch.setattr(workers, "FLUSH_SECONDS", 0.0)  # one job hands each race over as it ends
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done >= 4:
            raise KeyboardInterrupt

    cut = run(config(n=20), tmp_path / "a", jobs=1, progress=progress)
    assert cut.interrupted and 4 <= len(cut.races) < 20
    meta = json.loads((tmp_path / "a" / "run.json").read_text())
    assert meta["status"] == "interrupted" and meta["races"] == len(cut.races)
    assert len((tmp_path / "a" / "results.csv").read_text().splitlines()) == 1 + 3 * len(cut.races)
    done = run(config(n=20), tmp_path / "a", jobs=2)
    assert done.resumed == len(cut.races) and not done.interrupted
    assert done.races == run(config(n=20), tmp_path / "b", jobs=1).races
    assert json.loads((tmp_path / "a" / "run.json").read_text())["status"] == "complete"


def test_ctrl_c_during_a_race_on_one_job_keeps_the_races_not_yet_handed_over(toy: str, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """One job hands its races over every ``FLUSH_SECONDS``: Ctrl-C in the middle of the 8th race keeps the
    7 before it although none was handed over yet, in the records and in the tables."""
    monkeypatch.setattr(workers, "FLUSH_SECONDS", 3600.0)
    real = workers.play_race
    started = []

    def play_race(*args: Any) -> dict[str, Any]:
        started.append(args)
        if len(started) == 8:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(workers, "play_race", play_race)
    cut = run(config(n=20), tmp_path, jobs=1)
    assert cut.interrupted and [race["index"] for race in cut.races] == list(range(7))
    assert [race["index"] for race in store.read_races(tmp_path / store.RACES_FILE)[0]] == list(range(7))
    assert len((tmp_path / "results.csv").read_text().splitlines()) == 1 + 3 * 7


def test_ctrl_c_while_races_are_kept_waits_until_they_are_kept_whole() -> None:
    """The runner keeps a bunch of races (records, memory, tables) inside ``interrupts_deferred``: a Ctrl-C
    there lets the block finish, then raises as it would have; the handlers are put back."""
    done = []
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), workers.interrupts_deferred():
        signal.raise_signal(signal.SIGINT)
        done.append("the rest of the block")
    assert done == ["the rest of the block"] and signal.getsignal(signal.SIGINT) is before
    with workers.interrupts_deferred():
        done.append("no signal")
    assert done[-1] == "no signal"


def test_ctrl_c_after_a_bunch_is_handed_over_and_before_it_is_kept_loses_nothing(
        toy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C landing between an executor handing a bunch over and the runner keeping it: ``stop`` offers
    that bunch again, and the runner keeps it (and skips one it already kept)."""
    monkeypatch.setattr(workers, "FLUSH_SECONDS", 0.0)  # a bunch per race
    real = runner.interrupts_deferred
    entered = []

    @contextmanager
    def landing_on_the_fifth() -> Iterator[None]:
        entered.append(True)
        if len(entered) == 5:
            raise KeyboardInterrupt
        with real():
            yield

    monkeypatch.setattr(runner, "interrupts_deferred", landing_on_the_fifth)
    cut = run(config(n=20), tmp_path, jobs=1)
    assert cut.interrupted and [race["index"] for race in cut.races] == list(range(5))
    assert [race["index"] for race in store.read_races(tmp_path / store.RACES_FILE)[0]] == list(range(5))


def test_ctrl_c_while_a_worker_message_is_read_lets_the_read_finish_and_keeps_its_races(
        toy: str, tmp_path: Path) -> None:
    """Two jobs: a Ctrl-C landing while the runner reads a worker's message waits for the whole message
    (half a message left in the pipe hung the next read), then stops; the bunch read goes out by ``stop``."""
    pool = workers.Processes(RaceSpec(toy, 3, {}, (("random",) * 3,) * 2, (0, 1), 5, SETUP), jobs=2)
    real = pool.open
    bunch = (["a line"], ['{"index": 0}'])
    reader, writer = multiprocessing.Pipe(duplex=False)
    writer.send(("races", bunch, None))

    class Reading:
        def fileno(self) -> int:
            return reader.fileno()

        def recv(self) -> Any:
            signal.raise_signal(signal.SIGINT)  # lands mid-read
            return reader.recv()

    pool.open = [Reading()]  # type: ignore[list-item]
    try:
        with pytest.raises(KeyboardInterrupt):
            pool._take(0.1)
        pool.open = real
        assert list(itertools.islice(pool.stop(), 1)) == [bunch]
    finally:
        pool.open = real
        pool.close()


def test_a_worker_killed_mid_run_is_a_clear_failure_not_a_hang(toy: str) -> None:
    """A worker killed outright (SIGKILL: out of memory) ends its pipe: the run fails at once with a clear
    message instead of waiting for its last word."""
    pool = workers.Processes(RaceSpec(toy, 3, {"length": "200"}, (("greedy",) * 3,) * 400, tuple(range(400)), 5,
                                      SETUP), jobs=2)
    try:
        pid = pool.procs[0].pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(RaceFailed, match="a worker process died"):
            for _ in pool.results():
                pass
    finally:
        pool.close()


def test_a_records_file_cut_short_is_repaired_on_resume(toy: str, tmp_path: Path) -> None:
    run(config(n=10), tmp_path, jobs=1)
    path = tmp_path / store.RACES_FILE
    raw = gzip.decompress(path.read_bytes())
    cut_at = raw.index(b"\n", len(raw) // 2) + 20  # whole lines, then a torn one
    path.write_bytes(gzip.compress(raw[:cut_at])[:-8])  # and no gzip trailer either
    races, torn = store.read_races(path)
    assert torn and 0 < len(races) < 10 and "actions" in races[0]
    again = run(config(n=10), tmp_path, jobs=1)
    assert again.resumed == len(races) and len(again.races) == 10
    after, torn = store.read_races(path, full=False)
    assert not torn and strip(after) == again.races


def test_another_run_in_the_same_directory_is_refused(toy: str, tmp_path: Path) -> None:
    run(config(n=2), tmp_path, jobs=1)
    with pytest.raises(SimError, match="other settings"):
        run(config(n=2, seed=99), tmp_path, jobs=1)


@pytest.mark.parametrize(
    ("kw", "error", "listed"),
    [
        ({"game": "no-such-game"}, UnknownGameError, "toy-dash"),
        ({"options": {"lenght": "9"}}, OptionError, "length, sprint"),
        ({"options": {"length": "two"}}, OptionError, "whole number"),
        ({"bots": ("greedy", "nobody", "random")}, UnknownBotError, "greedy, heuristic, mcts, random"),
        ({"bots": ("mcts:lots",)}, UnknownBotError, "mcts:PLAYOUTS"),
        ({"bots": ("random", "random")}, SimError, "one bot per seat"),
        ({"players": 9}, OptionError, "from 2 to 4"),
    ],
)
def test_bad_settings_are_clear_errors_before_any_race(toy: str, tmp_path: Path, kw: dict[str, object],
                                                       error: type[Exception], listed: str) -> None:
    with pytest.raises(error, match=listed):
        run(config(**kw), tmp_path / "out", jobs=1)
    assert not (tmp_path / "out").exists()


def test_a_failing_bot_names_the_race_and_keeps_the_others(toy: str, tmp_path: Path) -> None:
    from slipstream.bots import registry

    class Broken:
        def choose(self, state: object, seat: int) -> str:
            raise ZeroDivisionError("boom")

    registry.register_bot("broken", lambda gid, seed: Broken())
    try:
        with pytest.raises(RaceFailed, match=r"race 0 \(seed \d+, bots broken"):
            run(config(n=3, bots=("broken",)), tmp_path, jobs=1)
    finally:
        registry._FACTORIES.pop("broken")


def test_rotated_seating_gives_every_bot_every_seat() -> None:
    seat_of = seating(("a", "b", "c"), 2, rotate=True)
    arrangements = [seat_of(i) for i in range(6)]
    assert sorted(arrangements) == sorted([("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("c", "a"),
                                           ("c", "b")])
    few = seating(("a", "b"), 4, rotate=True)
    assert [few(i) for i in range(2)] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert seating(("x",), 3, rotate=False)(5) == ("x", "x", "x")


def test_the_ray_backend_gives_the_process_backends_races(toy: str, tmp_path: Path) -> None:
    """A local Ray (2 CPUs, no dashboard) plays the same races as local processes for the same seed."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(
                 [str(Path(slipstream.__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])])}})
    try:
        on_ray = run(config(n=8), tmp_path / "ray", jobs=2, backend="ray")
    finally:
        ray.shutdown()
    assert on_ray.races == run(config(n=8), tmp_path / "proc", jobs=1).races
    assert strip(list(store.iter_races(tmp_path / "ray", full=True))) == strip(
        list(store.iter_races(tmp_path / "proc", full=True)))


def test_an_unknown_backend_is_refused(toy: str, tmp_path: Path) -> None:
    with pytest.raises(SimError, match="process, ray"):
        run(config(n=1), tmp_path, backend="dask")


def test_standings_are_looked_at_once_a_round(toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's standings hook is the simulator's main cost beyond the race itself: once a round (and at
    the start and the end), not after every decision or turn."""
    calls = []
    standings = toygame.HOOKS.standings
    assert standings is not None

    def counted(state: object) -> list[int]:
        calls.append(1)
        return standings(state)  # type: ignore[arg-type]

    toygame.use_hooks(monkeypatch, standings=counted)
    race = play_race(slipstream.load("toy-dash", players=3, length=20, sprint=True), 5, ["random"] * 3)
    assert len(calls) <= race["metrics"]["rounds"] + 2 < race["metrics"]["turns"], (len(calls), race["metrics"])
