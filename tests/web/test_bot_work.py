"""Issue 26, points 3 and 4: the bot workers under load.

Point 3: replacing the bot workers (a bot past its deadline is killed with its process) loses no other
match's queued move, and a watchdog restarts a match whose automatic steps stopped. Point 4: one user's
deep searches cannot starve another match's quick bot, and deep-search seats are capped per address and
per server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slipstream.web.hub import ApiError, Hub, Room
from slipstream.web.limits import Limits
from slipstream.web.storage import Store
from tests.web.server import Api

PLUGINS = ["tests.web.toyplugin", "tests.web.stuckbot"]


@pytest.fixture
def stuck_registered(toy: str) -> Iterator[None]:
    """Toy Dash and the ``stuck`` bot (it never answers) known in this process too."""
    import tests.web.stuckbot  # noqa: F401 - registers the bot

    yield


async def finished(rooms: list[Room], timeout: float) -> list[str]:
    """Wait until every room's match is over (or the timeout): the ids of those still running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(room.data.status == "finished" for room in rooms):
            return []
        await asyncio.sleep(0.1)
    return [room.data.id for room in rooms if room.data.status != "finished"]


async def bot_match(hub: Hub, bots: dict[int, str], length: int) -> Room:
    room, host = await hub.create("toy-dash", len(bots), {"length": length}, "", bots)
    await hub.start(room.data.id, host)
    return room


def test_replacing_the_workers_loses_no_queued_bot_move(tmp_path: Path, stuck_registered: None) -> None:
    """Six bot-only races whose bots think 0.4 s a move (``slow``) queue for two workers, and a race with
    a bot that never answers: each time it is past its deadline the workers are replaced. Every race
    still finishes (the replacement used to cancel the queued moves of the others, whose races then
    stopped for good)."""

    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "replace.sqlite3")), plugins=PLUGINS, limits=Limits(bot_deadline=2.0))
        try:
            thinking = [await bot_match(hub, {0: "slow", 1: "slow"}, 6) for _ in range(6)]
            stuck = await bot_match(hub, {0: "stuck", 1: "random"}, 10)
            left = await finished([*thinking, stuck], timeout=150)
            assert not left, f"{len(left)} of 7 races stopped"
            replaced = sum(1 for move in stuck.moves if move.seat == 0)  # each after its workers were killed
            assert replaced >= 2, "the workers were replaced more than once"
        finally:
            await hub.shutdown()

    asyncio.run(scenario())


def test_the_watchdog_restarts_a_race_whose_automatic_steps_stopped(tmp_path: Path, toy: str) -> None:
    """The task that plays a bot-only race's bots ends without a word (as when a queued bot move was
    cancelled under it): within ``bot_deadline`` the watchdog starts it again and the race finishes."""

    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "watch.sqlite3")), plugins=PLUGINS, limits=Limits(bot_deadline=1.0))
        asked = hub._bot_choice
        failed: list[float] = []

        async def cancelled_once(*args: Any) -> str:
            if not failed:
                failed.append(time.monotonic())
                raise asyncio.CancelledError
            return await asked(*args)

        hub._bot_choice = cancelled_once  # type: ignore[method-assign]
        await hub.startup()
        try:
            room = await bot_match(hub, {0: "random", 1: "random"}, 6)
            left = await finished([room], timeout=20)
            assert failed and not left, "the race went on after its task ended"
        finally:
            await hub.shutdown()

    asyncio.run(scenario())


def test_a_quick_bot_answers_at_once_while_other_races_run_deep_searches(tmp_path: Path, toy: str) -> None:
    """Four Scrap Racer races of deep-search bots (``mcts:3s``, 3 s a move) keep the workers' queue full;
    a fifth race's heuristic bot still answers each move in well under a deep search's time (it used to
    wait its turn behind every queued search: up to 17 s in the attack)."""

    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "fair.sqlite3")), plugins=PLUGINS)
        asked = hub._bot_choice
        quick: list[float] = []

        async def timed(room: Room, state: Any, seat: int, name: str, bot_seed: int) -> str:
            began = time.monotonic()
            action = await asked(room, state, seat, name, bot_seed)
            if name == "heuristic":
                quick.append(time.monotonic() - began)
            return action

        hub._bot_choice = timed  # type: ignore[method-assign]
        try:
            for _ in range(4):
                room, host = await hub.create("scrap-racer", 2, {}, "", {0: "mcts:3s", 1: "mcts:3s"})
                await hub.start(room.data.id, host)
            await asyncio.sleep(4.0)  # the deep searches fill the workers and the queue
            heuristic = await bot_match(hub, {0: "heuristic", 1: "heuristic"}, 30)
            deadline = time.monotonic() + 120
            while len(quick) < 12 and not heuristic.state.is_over and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert len(quick) >= 8, quick
            slowest = max(quick[2:])  # the first moves may start the workers' processes
            assert slowest < 1.5, f"the heuristic bot waited {slowest:.1f} s for a worker: {quick}"
        finally:
            await hub.shutdown()

    asyncio.run(scenario())


def test_deep_search_seats_are_capped_per_address_and_per_server(tmp_path: Path, toy: str) -> None:
    async def scenario() -> None:
        limits = Limits(deep_searches_per_address=6, deep_searches=8)
        hub = Hub(Store(str(tmp_path / "caps.sqlite3")), plugins=PLUGINS, limits=limits)
        deep = "mcts:3s"
        try:
            await hub.create("toy-dash", 4, {}, "", {1: deep, 2: deep, 3: deep}, address="10.0.0.1")
            room, host = await hub.create("toy-dash", 4, {}, "", {1: deep, 2: deep, 3: deep}, address="10.0.0.1")
            with pytest.raises(ApiError) as refused:
                await hub.create("toy-dash", 2, {}, "", {1: deep}, address="10.0.0.1")
            assert (refused.value.status, refused.value.code) == (429, "too_many_searches")
            assert "at most 6 deep-search bots" in refused.value.message
            await hub.create("toy-dash", 2, {}, "", {1: "heuristic", 0: "mcts"}, address="10.0.0.1")
            with pytest.raises(ApiError) as refused:
                await hub.set_bot(room.data.id, 0, "mcts:2s", host)
            assert refused.value.code == "too_many_searches" and room.data.seats[0].kind == "open"
            await hub.set_bot(room.data.id, 1, "mcts:2s", host)  # a deep search for a deep search
            await hub.create("toy-dash", 2, {}, "", {0: deep, 1: deep}, address="10.0.0.2")
            with pytest.raises(ApiError) as refused:
                await hub.create("toy-dash", 2, {}, "", {1: deep}, address="10.0.0.3")
            assert (refused.value.status, refused.value.code) == (503, "too_many_searches")
        finally:
            await hub.shutdown()

    asyncio.run(scenario())


def test_one_address_cannot_fill_the_server_with_deep_searches(api: Api) -> None:
    """Through the HTTP API: six deep-search seats from one address (the default cap), then a 429."""
    deep = {"1": "mcts:3s", "2": "mcts:3s", "3": "mcts:3s"}
    for _ in range(2):
        api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 4, "bots": deep})
    status, body = api.call("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "bots": {"1": "mcts:3s"}})
    assert (status, body["error"]["code"]) == (429, "too_many_searches"), body
    api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "bots": {"1": "mcts:0.25s"}})
