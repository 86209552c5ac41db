"""Turn-based tables (issue 28): a pace per match, stored; the move limit's bot only at the limit; no
claim of the win and no "abandoned" for a player who is simply offline; "Your races", your turn first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.play import pending_seats
from slipstream.web import clock as web_clock
from slipstream.web import presence
from slipstream.web.hub import ApiError, Hub, Room, played_by_timer
from slipstream.web.storage import Store
from tests.web.server import Api, Server


class FakeClock:
    """The server's clock (``web/clock.py``), moved on by hand."""

    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def now(self) -> float:
        return self.at


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(web_clock, "now", fake.now)
    return fake


async def two_players(hub: Hub, game: str, pace: str) -> tuple[Room, list[str]]:
    """A started race of two players at ``pace``, waiting for a player's decision."""
    room, host = await hub.create(game, 2, {}, "", {}, pace=pace)
    tokens = [(await hub.join(room.data.id, seat, f"P{seat + 1}"))[1] for seat in (0, 1)]
    await hub.start(room.data.id, host)
    for _ in range(500):
        if pending_seats(room.state):
            return room, tokens
        await asyncio.sleep(0.01)
    raise AssertionError("no player was asked to act")


async def settle(seconds: float) -> None:
    """Let the hub's timer (every half second) look at the matches."""
    await asyncio.sleep(seconds)


def test_a_turn_based_move_is_played_by_the_bot_at_its_limit_and_not_before(
    tmp_path: Path, toy: str, fake_clock: FakeClock
) -> None:
    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "pace.sqlite3")), plugins=["tests.web.toyplugin"])
        await hub.startup()
        try:
            room, _tokens = await two_players(hub, toy, "1-hour")
            assert room.data.turn_seconds == 3600 and room.data.pace == "1-hour"
            ply = room.state.ply
            fake_clock.at += 3600 - 5
            await settle(1.2)
            assert room.state.ply == ply, "nobody's move was played five seconds before the limit"
            assert all(0 < left <= 5 for left in room.turn_left().values()), room.turn_left()
            fake_clock.at += 10
            for _ in range(300):
                if room.state.ply > ply:
                    break
                await asyncio.sleep(0.02)
            assert room.state.ply > ply, "past the limit, the timer's bot moved"
            assert any(played_by_timer(m) for m in room.moves), "and the move is marked as the timer's"
        finally:
            await hub.shutdown()

    asyncio.run(scenario())


def test_a_turn_based_race_has_no_claim_and_is_not_abandoned_within_its_limit(
    tmp_path: Path, toy: str, fake_clock: FakeClock
) -> None:
    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "claim.sqlite3")), plugins=["tests.web.toyplugin"])
        try:
            slow, _ = await two_players(hub, toy, "3-days")
            live, _ = await two_players(hub, toy, "live")
            fake_clock.at += 3600  # an hour offline: a live race could be claimed long ago
            with pytest.raises(ApiError) as refused:
                slow.claim_check(0)
            assert refused.value.code == "cannot_claim" and "turn-based" in refused.value.message
            assert slow.claim_key(0) is None
            assert presence.summary(slow)["claim_grace"] is None, "no countdown to a claim on the page"
            assert presence.summary(live)["claim_grace"] == live.claim_grace
            gone = await hub.sweep(fake_clock.at + 2 * 86400)  # two days with no move, nobody connected
            assert gone == [live.data.id], "the live race is abandoned, the 3-day race is not"
            assert slow.data.status == "running"
            gone = await hub.sweep(fake_clock.at + 4.5 * 86400)  # its limit and a day more
            assert gone == [slow.data.id]
        finally:
            await hub.shutdown()

    asyncio.run(scenario())


def test_the_pace_is_stored_and_survives_a_restart(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "restart.sqlite3"), tmp_path / "server.log").start()
    try:
        api = server.client()
        made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "pace": "1-day",
                                                    "public": True})
        assert made["match"]["pace"] == "1-day" and made["match"]["turn_seconds"] == 86400
        assert made["match"]["pace_words"] == "Turn-based: a move within 1 day"
        mid = made["id"]
        live = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "public": True})
        assert live["match"]["pace"] == "live" and live["match"]["turn_seconds"] is None
        api.http.close()
        server.stop()
        server.start()
        api = server.client()
        info = api.ok("GET", f"/api/matches/{mid}")
        assert (info["pace"], info["turn_seconds"]) == ("1-day", 86400)
        listed = {m["id"]: m for m in api.ok("GET", "/api/matches?status=open")}
        assert listed[mid]["pace_words"] == "Turn-based: a move within 1 day"
        assert listed[live["id"]]["pace"] == "live"
        api.http.close()
    finally:
        server.stop()


@pytest.mark.parametrize(
    "body",
    [
        {"pace": "2-weeks"},
        {"pace": "<script>alert(1)</script>"},
        {"pace": 86400},
        {"pace": "x" * 5000},
        {"pace": "1-day", "turn_seconds": 60},
    ],
    ids=["unknown", "markup", "number", "long", "with-a-timer"],
)
def test_a_bad_pace_is_refused_in_words_and_makes_nothing(api: Api, body: dict[str, Any]) -> None:
    before = api.ok("GET", "/api/matches?status=open&limit=200")
    status, answer = api.call("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "public": True, **body})
    assert status == 400 and answer["error"]["code"] == "bad_request", answer
    message = answer["error"]["message"]
    assert "pace" in message and "<script>" not in message and "2-weeks" not in message, message
    assert api.ok("GET", "/api/matches?status=open&limit=200") == before, "no match was made"


def test_my_races_list_the_races_where_it_is_my_turn_first(api: Api) -> None:
    """Ann holds seats in two turn-based races: in the first it is Bob's turn (he must walk first: Ann
    already chose), in the second her own; a token of no seat says nothing."""
    waiting, _host, (ann1, _bob1) = api.new_match(pace="12-hours")
    mine, _host, (ann2, _bob2) = api.new_match(pace="12-hours")
    st = api.wait(waiting, ann1, lambda s: bool(s["legal"]))
    api.ok("POST", f"/api/matches/{waiting}/actions", ann1, json={"action": st["legal"][0], "ply": st["ply"]})
    api.wait(mine, ann2, lambda s: bool(s["legal"]))
    rows = api.ok("POST", "/api/races/mine", json={"seats": [
        {"match": waiting, "token": ann1}, {"match": mine, "token": ann2}, {"match": mine, "token": "not-a-token"},
    ]})
    assert [(r["id"], r["your_turn"]) for r in rows] == [(mine, True), (waiting, False)], rows
    assert rows[0]["pace_words"] == "Turn-based: a move within 12 hours"
    assert 0 < rows[0]["turn_left"] <= 12 * 3600
    assert rows[0]["game_name"] == "Toy Dash" and rows[0]["seat"] == 0
    status, answer = api.call("POST", "/api/races/mine", json={"seats": [{"match": "m", "token": "t"}] * 51})
    assert status == 400 and answer["error"]["code"] == "bad_request"
