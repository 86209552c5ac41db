"""An end for abandoned races (issue 15, item 1): once every other player has been away (no open socket)
for the grace period (``claim_grace``, 2 s on this test server), a player who is there may claim the
win: the away seats resign, so the game's own bot plays each to the end and the result ranks them last.
Every refusal is a clear error and changes nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_open, ws_until

GRACE = 2.0


@pytest.fixture(scope="module")
def claim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp: Path = tmp_path_factory.mktemp("claim")
    env = {**ROOMY, "SLIPSTREAM_LIMIT_CLAIM_GRACE": str(GRACE)}
    srv = Server(str(tmp / "claim.sqlite3"), tmp / "server.log", env=env).start()
    try:
        yield srv
    finally:
        srv.stop()


def claim(api: Api, mid: str, token: str | None) -> tuple[int, Any]:
    return api.call("POST", f"/api/matches/{mid}/claim", token, json={})


def test_a_player_who_is_there_claims_the_win_from_a_player_away_for_the_grace_period(
    claim_server: Server,
) -> None:
    api = claim_server.client()
    mid, _host, (ann, bob, cy) = api.new_match(players=4, humans=3, length=8)
    with ws_open(claim_server, mid, ann) as ws_ann, ws_open(claim_server, mid, bob) as ws_bob:
        ws_until(ws_ann, lambda m: m["type"] == "state")
        ws_until(ws_bob, lambda m: m["type"] == "state")
        assert api.state(mid, ann)["claim"] is None, "Bob is there: no claim"
        ws_ann.send(json.dumps({"type": "claim", "id": "c1"}))
        refused = ws_until(ws_ann, lambda m: m["type"] == "error")
        assert refused["code"] == "cannot_claim" and refused["id"] == "c1"
        assert refused["message"] == "Seat 2 (seat1) is still in the race", refused
        with ws_open(claim_server, mid, None) as ws_spectator:
            ws_until(ws_spectator, lambda m: m["type"] == "state")
            ws_spectator.send(json.dumps({"type": "claim"}))
            assert ws_until(ws_spectator, lambda m: m["type"] == "error")["code"] == "bad_token"
        assert claim(api, mid, None)[0] == 401, "a spectator cannot claim"
        status, body = claim(api, mid, cy)
        assert (status, body["error"]["code"]) == (409, "cannot_claim"), "Cy is away: he cannot claim"
        assert "Seat 3 (seat2) has no open connection" in body["error"]["message"]
        ws_bob.close()
        told = ws_until(ws_ann, lambda m: m["type"] == "claim" and m["claim"] is not None)
        assert told["claim"]["away"] == [1, 2] and 0 < told["claim"]["in"] <= GRACE
        status, body = claim(api, mid, ann)
        assert (status, body["error"]["code"]) == (409, "cannot_claim"), "before the grace period"
        assert "may still come back" in body["error"]["message"] and 0 < body["error"]["wait"] <= GRACE
        assert [s["kind"] for s in api.state(mid)["match"]["seats"]] == ["human", "human", "human", "bot"]
        time.sleep(told["claim"]["in"] + 0.2)
        assert api.state(mid, ann)["claim"] == {"in": 0.0, "away": [1, 2]}
        ws_ann.send(json.dumps({"type": "claim", "id": "c2"}))
        done = ws_until(ws_ann, lambda m: m["type"] == "claimed")
        assert done == {"type": "claimed", "id": "c2", "seats": [1, 2]}
        after = ws_until(ws_ann, lambda m: m["type"] == "state" and m["match"]["seats"][1]["kind"] == "resigned")
        assert after["claim"] is None, "nobody left to claim from"
    seats = after["match"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "resigned", "resigned", "bot"]
    assert seats[1]["bot"] == "heuristic" and seats[1]["name"] == "seat1", "the game's own bot plays Bob's seat"
    assert api.state(mid, bob)["seat"] == 1, "Bob's token still shows his seat's view"
    assert claim(api, mid, ann)[1]["error"]["code"] == "cannot_claim"
    final = api.play_out(mid, [ann])
    result = final["result"]
    assert result["order"][-2:] in ([1, 2], [2, 1]) and result["details"]["resigned"] == [1, 2]
    assert claim(api, mid, ann)[1]["error"]["code"] == "not_running", "a finished race"


def test_a_claim_in_a_cooperative_race_lets_the_team_play_on_with_bots(claim_server: Server) -> None:
    """Highway Heist: the team wins or loses together, so a claim cannot rank anyone; it hands the away
    players' seats to the game's own bot and the team plays on (the result stays the team's)."""
    api = claim_server.client()
    mid, _host, (ann, _bob) = api.new_match(game="highway-heist", players=2, humans=2)
    with ws_open(claim_server, mid, ann) as ws_ann:
        state = ws_until(ws_ann, lambda m: m["type"] == "state")
        assert state["claim"]["away"] == [1]
        time.sleep(state["claim"]["in"] + 0.2)
        ws_ann.send(json.dumps({"type": "claim"}))
        assert ws_until(ws_ann, lambda m: m["type"] in ("claimed", "error")) == {
            "type": "claimed", "id": None, "seats": [1]
        }
    assert [s["kind"] for s in api.state(mid)["match"]["seats"]] == ["human", "resigned"]


def test_with_no_player_left_the_bots_finish_the_race(claim_server: Server) -> None:
    """When every player's seat has resigned (or been claimed from), the bots race to the end by
    themselves and the record is a finished one."""
    api = claim_server.client()
    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=8)
    for token in (ann, bob):
        api.ok("POST", f"/api/matches/{mid}/resign", token, json={})
    final = api.wait(mid, None, lambda s: s["result"] is not None, timeout=30)
    assert final["match"]["status"] == "finished"
    assert sorted(final["result"]["details"]["resigned"]) == [0, 1]
