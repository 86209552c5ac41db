"""Issue 26, point 7: fairness holes. A step the turn timer played cannot be taken back; claiming the win
counts a player who acts over REST or through another server process as there; the host can take a
stranger out of a seat before the race; matches are listed publicly only when the host says so."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_open, ws_recv, ws_until
from tests.web.test_claim import GRACE, claim_server  # noqa: F401 - the fixture: a grace of GRACE seconds


def listed(api: Api, mid: str) -> bool:
    return any(m["id"] == mid for status in ("open", "running", "finished")
               for m in api.ok("GET", f"/api/matches?status={status}&limit=200"))


def test_a_step_the_turn_timer_played_cannot_be_taken_back(api: Api) -> None:
    """Ann lets her time run out on her sprint decision: the game's own bot decides for her. She may not
    take that step back and play her own (the timer could not be enforced, and the bot's choice would
    be a free hint)."""
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "turn_seconds": 3,
                                                "options": {"length": 30, "sprint": True}})
    mid = made["id"]
    ann = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
    bob = api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})["token"]
    api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    for token, choice in ((ann, "0:dash"), (bob, "1:walk")):
        st = api.wait(mid, token, lambda s: s["view"]["phase"] == "choose" and bool(s["legal"]))
        api.ok("POST", f"/api/matches/{mid}/actions", token, json={"action": choice, "ply": st["ply"]})
    st = api.wait(mid, ann, lambda s: s["legal"] == ["roll"])
    api.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "roll", "ply": st["ply"]})
    deciding = api.wait(mid, ann, lambda s: s["legal"] == ["move", "sprint"])
    assert deciding["can_undo"] is False, "a die was rolled since the roll"
    timed = api.wait(mid, ann, lambda s: s["ply"] > deciding["ply"], timeout=15)
    assert any(e["kind"] == "timeout" for e in timed["events"]), "the timer's bot decided for Ann"
    assert timed["can_undo"] is False
    status, body = api.call("POST", f"/api/matches/{mid}/undo", ann, json={"ply": timed["ply"]})
    assert (status, body["error"]["code"]) == (409, "cannot_undo"), body
    assert "turn timer" in body["error"]["message"]
    assert api.state(mid, ann)["ply"] == timed["ply"], "nothing changed"


def claimed(ws: Any) -> dict[str, Any]:
    ws.send(json.dumps({"type": "claim", "id": "c"}))
    answer: dict[str, Any] = ws_until(ws, lambda m: m["type"] in ("claimed", "error"))
    return answer


def test_a_player_acting_over_rest_is_not_away(claim_server: Server) -> None:  # noqa: F811
    """Bob has no socket but plays his moves over REST (as a script or a page without WebSocket would):
    after the grace period Ann's claim is refused, since Bob acted within it; once he stops, it may come."""
    api = claim_server.client()
    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=200)
    with ws_open(claim_server, mid, ann) as ws_ann:
        ws_until(ws_ann, lambda m: m["type"] == "state")
        until = time.monotonic() + GRACE + 1.5
        acted = 0
        while time.monotonic() < until:
            for token in (ann, bob):
                st = api.state(mid, token)
                if st["legal"]:
                    status, _body = api.call("POST", f"/api/matches/{mid}/actions", token,
                                             json={"action": st["legal"][0], "ply": st["ply"]})
                    acted += status == 200 and token == bob
            time.sleep(0.05)
        assert acted >= 3, "Bob played over REST"
        answer = claimed(ws_ann)
        assert answer["type"] == "error" and answer["code"] == "cannot_claim", answer
        assert api.state(mid)["match"]["seats"][1]["kind"] == "human"
        time.sleep(GRACE + 0.3)  # Bob stops
        assert claimed(ws_ann)["type"] == "claimed"


def test_a_player_connected_to_another_process_is_not_away(tmp_path: Path) -> None:
    """Ann's page is connected to process A and Bob's to B: after the grace period Ann's claim through A
    is refused (B stores that it sees Bob); once Bob's page closes, the claim may come."""
    db = str(tmp_path / "shared.sqlite3")
    env = {**ROOMY, "SLIPSTREAM_PEER_POLL": "0.1", "SLIPSTREAM_LIMIT_CLAIM_GRACE": str(GRACE)}
    a_srv = Server(db, tmp_path / "a.log", env=env).start()
    b_srv = Server(db, tmp_path / "b.log", env=env).start()
    try:
        a = a_srv.client()
        mid, _host, (ann, bob) = a.new_match(players=2, humans=2, length=30)
        with ws_open(a_srv, mid, ann) as ws_ann:
            ws_until(ws_ann, lambda m: m["type"] == "state")
            with ws_open(b_srv, mid, bob) as ws_bob:
                ws_until(ws_bob, lambda m: m["type"] == "state")
                time.sleep(GRACE + 1.5)
                answer = claimed(ws_ann)
                assert answer["type"] == "error" and answer["code"] == "cannot_claim", answer
                assert "still in the race" in answer["message"]
            deadline = time.monotonic() + 4 * GRACE + 5
            while True:
                answer = claimed(ws_ann)
                if answer["type"] == "claimed" or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert answer == {"type": "claimed", "id": "c", "seats": [1]}, answer
    finally:
        a_srv.stop()
        b_srv.stop()


def test_the_host_takes_a_stranger_out_of_a_seat_before_the_race(api: Api, server: Server) -> None:
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
    mid, host = made["id"], made["host_token"]
    api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})
    stranger = api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Mallory"})["token"]
    with ws_open(server, mid, stranger) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        status, body = api.call("POST", f"/api/matches/{mid}/seats/1/bot", stranger, json={"bot": None})
        assert (status, body["error"]["code"]) == (403, "not_host"), "only the host"
        info = api.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": None})
        assert info["seats"][1] == {"seat": 1, "kind": "open", "name": "", "bot": None}
        lost = ws_until(ws, lambda m: m["type"] == "seat_lost")
        assert lost["seat"] == 1 and "took you out of Seat 2" in lost["message"]
        with pytest.raises(ConnectionClosed):
            ws_recv(ws, timeout=5)
    assert api.call("GET", f"/api/matches/{mid}/state", stranger)[0] == 403, "the stranger's token is void"
    bob = api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})["token"]
    info = api.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "random"})
    assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["name"] == "Random bot 2"
    assert api.call("GET", f"/api/matches/{mid}/state", bob)[0] == 403


def test_a_seat_handed_to_a_bot_is_told_before_any_state_of_the_bot(api: Api, server: Server) -> None:
    """While the race runs the host hands Bob's seat to a bot: Bob's socket is told and closed before
    the room tells anyone the new seat, so his page never gets a state of the seat as a bot's (with
    the bot's moves as buttons; a browser test saw them before the notice came)."""
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
    mid, host = made["id"], made["host_token"]
    api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})
    bob = api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})["token"]
    api.ok("POST", f"/api/matches/{mid}/start", host, json={})
    with ws_open(server, mid, bob) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        api.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "random"})
        seen: list[dict[str, Any]] = []
        lost = ws_until(ws, lambda m: m["type"] == "seat_lost", seen=seen)
        assert lost["seat"] == 1 and "handed your seat (Seat 2)" in lost["message"]
        as_bot = [m for m in seen if m["type"] == "state" and m["match"]["seats"][1]["kind"] == "bot"]
        assert not as_bot, "a state of the seat as the bot's came before the notice"
        with pytest.raises(ConnectionClosed):
            ws_recv(ws, timeout=5)


def test_matches_are_listed_only_when_the_host_says_so(api: Api) -> None:
    """An invite (a match made without ``public``) and its rematch are reached by their link only; a match
    made ``public`` is listed, and so is its rematch."""
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
    assert not listed(api, made["id"])
    assert api.ok("GET", f"/api/matches/{made['id']}")["status"] == "open", "its link still works"
    for public in (False, True):
        mid, host, tokens = api.new_match(players=2, humans=2, length=4, public=public)
        assert listed(api, mid) is public
        api.play_out(mid, tokens)
        assert listed(api, mid) is public
        rematch = api.ok("POST", f"/api/matches/{mid}/rematch", host, json={})["id"]
        assert listed(api, rematch) is public
