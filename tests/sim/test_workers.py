"""Where races are played: every finished race kept on Ctrl-C whatever the batch, the simulation budget
of MCTS, Ray refused quickly when unreachable, and the progress display's rate and time left."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from rich.progress import Progress

from slipstream.bots.mcts import DEFAULT_PLAYOUTS, DEFAULT_SECONDS, SIMULATION_PLAYOUTS, MCTSBot
from slipstream.bots.registry import make_bot
from slipstream.cli.sim_cmd import RateColumn
from slipstream.sim import SimConfig, run, store
from slipstream.sim.workers import BackendError, connect_ray
from tests.sim import slow_bot

SETUP = ("tests.toygame:install", "tests.sim.slow_bot:install")


def counted(n: int, **kw: object) -> SimConfig:
    base: dict[str, object] = {"game": "toy-dash", "players": 3, "bots": ("counted", "random", "random"),
                               "n": n, "seed": 5, "setup": SETUP,
                               "options": {"length": "20", "sprint": "true"}}
    base.update(kw)
    return SimConfig(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_every_finished_race(toy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          jobs: int) -> None:
    """Only the races still being played are lost: at most one per worker, however many were sent out."""
    started = tmp_path / "started.txt"
    monkeypatch.setenv(slow_bot.STARTED_ENV, str(started))

    def progress(done: int, total: int) -> None:
        if done >= 3:
            time.sleep(0.3)  # the workers go on meanwhile: their races must not be lost
            raise KeyboardInterrupt

    cut = run(counted(300), tmp_path / "run", jobs=jobs, progress=progress)
    assert cut.interrupted
    begun = sum(seed != "0" for seed in started.read_text().split())  # seed 0: the settings check's bot
    assert begun - jobs <= len(cut.races) < 300, (begun, len(cut.races))
    on_disk, torn = store.read_races(tmp_path / "run" / store.RACES_FILE)
    assert not torn and sorted(r["index"] for r in on_disk) == [r["index"] for r in cut.races]
    done = run(counted(300), tmp_path / "run", jobs=jobs)
    assert not done.interrupted and len(done.races) == 300 and done.resumed == len(cut.races)


def test_plain_mcts_in_a_simulation_has_a_playout_budget_and_no_clock() -> None:
    sim = make_bot("mcts", "scrap-racer", 1, simulation=True)
    assert isinstance(sim, MCTSBot) and (sim.playouts, sim.seconds) == (SIMULATION_PLAYOUTS, None)
    live = make_bot("mcts", "scrap-racer", 1)
    assert isinstance(live, MCTSBot) and (live.playouts, live.seconds) == (DEFAULT_PLAYOUTS, DEFAULT_SECONDS)
    named = make_bot("mcts:40", "scrap-racer", 1, simulation=True)
    assert isinstance(named, MCTSBot) and (named.playouts, named.seconds) == (40, None)


def test_simulated_races_build_their_bots_for_simulation(toy: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int | None, float | None]] = []
    original = MCTSBot.__init__

    def spy(self: MCTSBot, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        seen.append((self.playouts, self.seconds))

    monkeypatch.setattr(MCTSBot, "__init__", spy)
    run(SimConfig("toy-dash", 2, ("mcts", "random"), n=2, seed=1, setup=SETUP[:1]), tmp_path, jobs=1)
    assert seen[-2:] == [(SIMULATION_PLAYOUTS, None)] * 2, "each race's bot (the first is the settings check)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_an_unreachable_ray_cluster_is_a_quick_clear_error(toy: str, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{free_port()}"
    start = time.monotonic()
    with pytest.raises(BackendError, match=f"cannot reach the Ray cluster at {address}"):
        connect_ray(1, address)
    with pytest.raises(BackendError, match="cannot reach the Ray cluster"):
        run(counted(2), tmp_path / "run", backend="ray", address=address)
    assert time.monotonic() - start < 30
    assert not (tmp_path / "run" / store.RUN_FILE).exists(), "no run file left saying 'running'"


def test_the_time_left_counts_only_the_races_of_this_session() -> None:
    """A resumed run's races are not this session's speed: 10 races in 5 s, 100 left -> 0:50."""
    progress = Progress(RateColumn())
    task_id = progress.add_task("run", total=210, completed=110, started=time.monotonic() - 5, done0=100)
    text = RateColumn().render(progress.tasks[task_id]).plain
    assert "2.0 races/s" in text and "0:50 left" in text, text
    waiting = progress.add_task("slow", total=5, completed=0, started=time.monotonic(), done0=0)
    assert "after the first race" in RateColumn().render(progress.tasks[waiting]).plain


def test_the_runner_starts_a_local_ray_itself_and_gets_the_same_races(tmp_path: Path) -> None:
    """No Ray running: ``--backend ray`` starts one (on the main thread: Ray ties the processes it starts to
    the starting thread) and the races equal the process backend's."""
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    config = SimConfig("scrap-racer", 2, ("random",), n=4, seed=1, options={"short": "true"})
    on_ray = run(config, tmp_path / "ray", jobs=2, backend="ray")
    assert not ray.is_initialized(), "the runner shuts down the Ray it started"
    assert on_ray.races == run(config, tmp_path / "proc", jobs=1).races
