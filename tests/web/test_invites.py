"""Rematch invitations (issue 28): a rematch holds every player's seat for them (``rematch_hold``), no
stranger joins it and no bot is put in it meanwhile, bots keep their seats, the finished race's pages
are told, the hold survives a restart and, once it runs out, the seat is open as any other."""

from __future__ import annotations

import time
from pathlib import Path

from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_open, ws_until


def finished_race(api: Api) -> tuple[str, str, list[str]]:
    """Ann and Bob race a bot (seat 3) to the end: (id, host token, their tokens)."""
    mid, host, tokens = api.new_match(players=3, humans=2, length=4)
    api.play_out(mid, tokens)
    return mid, host, tokens


def test_the_rematch_holds_bob_s_seat_and_tells_his_page(server: Server, api: Api) -> None:
    mid, host, (ann, bob) = finished_race(api)
    with ws_open(server, mid, bob) as bob_page:
        ws_until(bob_page, lambda m: m["type"] == "state")
        first = api.ok("POST", f"/api/matches/{mid}/rematch", ann, json={})
        nxt = first["id"]
        told = ws_until(bob_page, lambda m: m["type"] == "state" and m["match"].get("rematch"))
        assert told["match"]["rematch"]["id"] == nxt and 290 < told["match"]["rematch"]["held"] <= 300
    seats = first["match"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "open", "bot"], "the bot kept as it was"
    assert seats[1]["held_for"] == "seat1" and 290 < seats[1]["held"] <= 300
    assert "held_for" not in seats[0] and "held_for" not in seats[2]
    stranger = api.call("POST", f"/api/matches/{nxt}/seats/1/join", json={"name": "Eve"})
    assert stranger[0] == 409 and stranger[1]["error"]["code"] == "seat_held"
    assert "Eve" not in stranger[1]["error"]["message"] and stranger[1]["error"]["wait"] > 0
    bot = api.call("POST", f"/api/matches/{nxt}/seats/1/bot", host, json={"bot": "random"})
    assert bot[1]["error"]["code"] == "seat_held"
    assert api.ok("GET", f"/api/matches/{nxt}")["seats"][1]["kind"] == "open", "nothing changed"
    second = api.ok("POST", f"/api/matches/{mid}/rematch", bob, json={})
    assert (second["id"], second["seat"]) == (nxt, 1) and second["match"]["status"] == "running"
    assert second["match"]["seats"][1]["name"] == "seat1"


def test_the_hold_survives_a_restart_then_runs_out(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "hold.sqlite3"), tmp_path / "server.log",
                    env={**ROOMY, "SLIPSTREAM_LIMIT_REMATCH_HOLD": "4"}).start()
    try:
        api = server.client()
        mid, _host, (ann, _bob) = finished_race(api)
        made = time.monotonic()
        nxt = api.ok("POST", f"/api/matches/{mid}/rematch", ann, json={})["id"]
        server.kill()
        api = server.start().client()
        if time.monotonic() - made < 3.5:
            status, body = api.call("POST", f"/api/matches/{nxt}/seats/1/join", json={"name": "Eve"})
            assert (status, body["error"]["code"]) == (409, "seat_held"), "the hold is stored"
        assert api.ok("GET", f"/api/matches/{mid}")["rematch"]["id"] == nxt
        while time.monotonic() - made < 4.5:
            time.sleep(0.1)
        info = api.ok("GET", f"/api/matches/{nxt}")
        assert "held_for" not in info["seats"][1]
        assert api.ok("GET", f"/api/matches/{mid}")["rematch"]["held"] == 0
        joined = api.ok("POST", f"/api/matches/{nxt}/seats/1/join", json={"name": "Eve"})
        assert joined["match"]["seats"][1]["name"] == "Eve", "an open seat as any other"
    finally:
        server.stop()
