"""Issue 28's leftover: "Your races" (``POST /api/races/mine``) and the player page list a player's open and
running races from the database, so a second server process on the same database lists the races the
first one holds, as the first one does (which seat's turn it is, the pace, the time left)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from slipstream.engine.play import pending_seats
from slipstream.web.hub import Hub
from slipstream.web.limits import Limits
from slipstream.web.players import MyRaces, Players, SeatToken
from slipstream.web.storage import Store

PLUGINS = ["tests.web.toyplugin"]


def rows_of(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a row of "Your races" says of a race, but for the time left (it runs on between two calls)."""
    return [(r["id"], r["seat"], r["status"], r["your_turn"], r["pace_words"], r["game_name"]) for r in rows]


def test_a_second_process_on_the_database_lists_the_races_the_first_holds(tmp_path: Path, toy: str) -> None:
    async def scenario() -> None:
        database = str(tmp_path / "shared.sqlite3")
        first = Hub(Store(database), plugins=PLUGINS)
        second = Hub(Store(database), plugins=PLUGINS)
        try:
            here, there = Players(first, Limits()), Players(second, Limits())
            ann, _cookie = await asyncio.to_thread(here.accounts.sign_up, "Ann", "a long enough password")
            room, host = await first.create(toy, 2, {}, "", {}, pace="12-hours")
            _, ann_token = await first.join(room.data.id, 0, "Ann")
            await here.joined(room.data.id, 0, ann)
            _, bob_token = await first.join(room.data.id, 1, "Bob")
            await first.start(room.data.id, host)
            for _ in range(500):
                if pending_seats(room.state):
                    break
                await asyncio.sleep(0.01)
            asked = set(pending_seats(room.state))
            assert asked, "no player was asked to act"

            tokens = MyRaces(seats=[
                SeatToken(match=room.data.id, token=ann_token),
                SeatToken(match=room.data.id, token=bob_token),
                SeatToken(match=room.data.id, token="not-a-token"),
                SeatToken(match="no-such-match", token=ann_token),
            ])
            expected = await here.mine(tokens, None)
            assert [(r["seat"], r["your_turn"]) for r in expected] == sorted(
                [(0, 0 in asked), (1, 1 in asked)], key=lambda seat: not seat[1]
            )
            assert room.data.id not in second.rooms, "the second process has not seen this race yet"
            listed = await there.mine(tokens, None)
            assert rows_of(listed) == rows_of(expected), "the second process lists the first one's race"
            assert all(row["pace_words"] == "Turn-based: a move within 12 hours" for row in listed)
            assert [row["turn_left"] is not None for row in listed] == [row["your_turn"] for row in listed]

            by_account = await there.mine(MyRaces(), ann)
            assert rows_of(by_account) == [row for row in rows_of(expected) if row[1] == 0]
            page = await there.player("Ann", ann)
            assert [(r["id"], r["seat"], r["your_turn"], r["pace"]) for r in page["active"]] == [
                (room.data.id, 0, 0 in asked, "12-hours")
            ]

            done, done_host = await first.create(toy, 2, {}, "", {0: "random", 1: "random"})
            await first.start(done.data.id, done_host)
            for _ in range(500):
                if done.data.status == "finished":
                    break
                await asyncio.sleep(0.01)
            assert done.data.status == "finished"
            finished = MyRaces(seats=[SeatToken(match=done.data.id, token=ann_token)])
            assert await there.mine(finished, None) == [], "a finished race is not listed"
            assert done.data.id not in second.rooms, "nor loaded to find that out"
        finally:
            await first.shutdown()
            await second.shutdown()

    asyncio.run(scenario())
