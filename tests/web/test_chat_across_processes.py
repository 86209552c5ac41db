"""Issue 28's loose end: a chat line and a resignation's log line said through one server process reach
a page connected to another process on the same database with that process's next poll of it
(``SLIPSTREAM_PEER_POLL``), without the page connecting again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from slipstream.web.errors import ApiError
from slipstream.web.hub import Hub
from slipstream.web.room import Room, Subscriber
from slipstream.web.storage import Store

PLUGINS = ["tests.web.toyplugin"]
POLL = 0.05


async def next_message(sub: Subscriber, wanted: Any, within: float) -> dict[str, Any]:
    """The first message queued for ``sub`` that ``wanted`` accepts, within ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        text = await asyncio.wait_for(sub.queue.get(), max(0.001, deadline - time.monotonic()))
        assert text is not None, "the socket was closed"
        message: dict[str, Any] = json.loads(text)
        if wanted(message):
            return message


async def connect(hub: Hub, room: Room, seat: int | None) -> Subscriber:
    """What the app does for a socket's hello: the chat so far, then the socket counted in."""
    sub = Subscriber(seat, viewer="0badcafe" if seat is None else "")
    await hub.chat.history(room)
    room.subs.add(sub)
    return sub


@contextlib.asynccontextmanager
async def two_processes(database_url: str, toy: str) -> AsyncIterator[tuple[Hub, Hub, Room, Room]]:
    """Two hubs on one database (each watching the other every ``POLL``), a running three-seat match
    created through the first, and that match's room in each; both hubs shut down after."""
    first = Hub(Store(database_url), plugins=PLUGINS, peer_poll=POLL)
    second = Hub(Store(database_url), plugins=PLUGINS, peer_poll=POLL)
    await first.startup()
    await second.startup()
    try:
        room, host = await first.create(toy, 3, {}, "", {})
        for seat, name in enumerate(("Ann", "Bob", "Cat")):
            await first.join(room.data.id, seat, name)
        await first.start(room.data.id, host)
        yield first, second, room, await second.room(room.data.id)
    finally:
        await first.shutdown()
        await second.shutdown()


def log_texts(message: dict[str, Any]) -> list[str]:
    return [e["text"] for entry in message["entries"] for e in entry["events"]]


def test_chat_and_a_resignation_reach_a_page_on_another_process_with_the_next_poll(
    database_url: str, toy: str
) -> None:
    async def scenario() -> None:
        async with two_processes(database_url, toy) as (first, second, room, there):
            ann = await connect(first, room, 0)
            spectator = await connect(second, there, None)
            bob = await connect(second, there, 1)

            await first.chat.say(room, ann, {"type": "chat", "text": "good luck, both of you"})
            for sub in (spectator, bob):
                said = await next_message(sub, lambda m: m["type"] == "chat", within=20 * POLL)
                assert [(line["name"], line["text"]) for line in said["lines"]] == [("Ann", "good luck, both of you")]

            await second.chat.say(there, bob, {"type": "chat", "text": "thanks"})
            back = await next_message(
                ann, lambda m: m["type"] == "chat" and m["lines"][0]["name"] == "Bob", within=20 * POLL
            )
            assert [line["text"] for line in back["lines"]] == ["thanks"], "and the other way"

            await first.resign(room, 2)
            line = "P3 resigned: a bot plays their seat to the end, ranked last"
            for sub in (spectator, bob):
                told = await next_message(sub, lambda m: m["type"] == "log" and line in log_texts(m), within=20 * POLL)
                assert log_texts(told).count(line) == 1
            await asyncio.sleep(5 * POLL)
            assert [e.text for _shown, e in there.lines] == [line], "told once, however many polls"
            late = await connect(second, there, 1)
            assert log_texts(json.loads(there.log_message(late.seat))).count(line) == 1
            again = [line["text"] for m in map(json.loads, drain(bob)) if m["type"] == "chat" for line in m["lines"]]
            assert "good luck, both of you" not in again, "no chat line told twice"
            for hub, here in ((first, room), (second, there)):
                said = [line.text for line in hub.chat.tables[here].lines]
                assert said == ["good luck, both of you", "thanks"], said

    asyncio.run(scenario())


def drain(sub: Subscriber) -> list[str]:
    """Every message queued for ``sub`` and not read yet."""
    out: list[str] = []
    while not sub.queue.empty():
        item = sub.queue.get_nowait()
        if item is not None:
            out.append(item)
    return out


def test_a_mute_set_through_one_process_holds_on_another(database_url: str, toy: str) -> None:
    """The host mutes a spectator through one process: the spectator's next line through another process
    on the same database is refused (and nothing is stored or told); the unmute holds there the same way."""

    async def scenario() -> None:
        async with two_processes(database_url, toy) as (first, second, room, there):
            spectator = await connect(second, there, None)
            bob = await connect(second, there, 1)
            await second.chat.say(there, spectator, {"type": "chat", "text": "before the mute"})

            await first.chat.mute(room, spectator.viewer, True)
            with pytest.raises(ApiError) as refused:
                await second.chat.say(there, spectator, {"type": "chat", "text": "after the mute"})
            assert refused.value.code == "muted"
            stored, _muted = second.services.store.chat(room.data.id)
            assert [line.text for line in stored] == ["before the mute"], "nothing stored"
            told = [line["text"] for m in map(json.loads, drain(bob)) if m["type"] == "chat" for line in m["lines"]]
            assert told == ["before the mute"], "nothing told"

            await first.chat.mute(room, spectator.viewer, False)
            await second.chat.say(there, spectator, {"type": "chat", "text": "after the unmute"})
            assert [line.text for line in second.chat.tables[there].lines] == ["before the mute", "after the unmute"]

    asyncio.run(scenario())
