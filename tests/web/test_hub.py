"""The hub in-process (no HTTP): bot-only matches run to the end, idle finished matches leave memory
and come back from the database unchanged."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from slipstream.web import hub as hub_module
from slipstream.web.hub import Hub
from slipstream.web.storage import Store


def test_finished_matches_are_evicted_and_reloaded(
    tmp_path: Path, toy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "MAX_IDLE_FINISHED", 1)

    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "hub.sqlite3")), plugins=["tests.web.toyplugin"])
        ids, records = [], {}
        for _ in range(3):
            room, host = await hub.create(toy, 2, {}, "", {0: "random", 1: "random"})
            await hub.start(room.data.id, host)
            ids.append(room.data.id)
        for _ in range(500):
            if all(hub.rooms[i].data.status == "finished" for i in ids if i in hub.rooms) and not hub.tasks:
                break
            await asyncio.sleep(0.01)
        kept = [i for i in ids if i in hub.rooms]
        assert len(kept) == 1, "only one idle finished match stays in memory"
        for i in ids:
            room = await hub.room(i)
            assert room.data.status == "finished" and room.state.is_over
            records[i] = room.state.record()
        again = Hub(Store(str(tmp_path / "hub.sqlite3")), plugins=["tests.web.toyplugin"])
        for i in ids:
            assert (await again.room(i)).state.record() == records[i]
        await hub.shutdown()
        await again.shutdown()

    asyncio.run(scenario())
