"""Live play over WebSocket against a real server process: every seat sees each change at once, a
simultaneous choice stays secret until revealed, hidden cards never reach another seat, bad messages
get an error code and the connection stays open, a reconnecting client gets the current state."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests import toygame
from tests.web.server import Api, Server, ws_open, ws_recv, ws_until


def drain(ws: Any, box: list[dict[str, Any]], wait: float = 0.02) -> list[dict[str, Any]]:
    """Every message waiting on ``ws`` (each also kept in ``box``)."""
    got = []
    while True:
        try:
            got.append(json.loads(ws.recv(timeout=wait)))
        except TimeoutError:
            box.extend(got)
            return got


def is_state(ply: int) -> Any:
    return lambda m: m["type"] == "state" and m["ply"] >= ply


def test_every_seat_and_spectator_see_a_move_at_once(server: Server, api: Api) -> None:
    mid, _host, (t0, t1) = api.new_match()
    st = api.wait(mid, t0, lambda s: s["legal"])
    with ws_open(server, mid, t0) as ws0, ws_open(server, mid, t1) as ws1, ws_open(server, mid, None) as spec:
        first = [ws_recv(ws) for ws in (ws0, ws1, spec)]
        assert [m["type"] for m in first] == ["log", "log", "log"]
        hello = [ws_until(ws, is_state(st["ply"])) for ws in (ws0, ws1, spec)]
        assert [m["seat"] for m in hello] == [0, 1, None]
        assert hello[0]["legal"] == ["0:dash", "0:walk"] and hello[1]["legal"] == ["1:dash", "1:walk"]
        assert hello[2]["legal"] == [] and hello[2]["view"]["hand"] is None
        ws0.send(json.dumps({"type": "act", "action": "0:dash", "ply": st["ply"], "id": "m1"}))
        seen0: list[dict[str, Any]] = []
        after = ws_until(ws0, is_state(st["ply"] + 1), seen=seen0)
        ack = ws_until(ws0, lambda m: m["type"] == "ack", seen=seen0)
        assert ack == {"type": "ack", "id": "m1", "ply": st["ply"] + 1}
        assert after["legal"] == [] and after["actor"] == {"kind": "simultaneous", "seats": [1]}
        others = [ws_until(ws, is_state(st["ply"] + 1)) for ws in (ws1, spec)]
        for msg in others:
            # seat 0 has chosen, but what it chose is not revealed before seat 1 chooses
            assert msg["view"]["chosen"] == [True, False]
            assert msg["view"]["last_choices"] == [None, None]
            assert "0:dash" not in json.dumps(msg)
            assert [e["kind"] for e in msg["events"]] == ["chosen"]
        assert others[0]["legal"] == ["1:dash", "1:walk"], "the other seat still chooses, from the same ply"
        ws1.send(json.dumps({"type": "act", "action": "1:walk", "ply": st["ply"]}))
        revealed = ws_until(spec, lambda m: m["type"] == "state" and m["view"]["last_choices"][0] is not None)
        assert revealed["view"]["last_choices"] == ["dash", "walk"]
        assert "reveal" in [e["kind"] for e in revealed["events"]]
        assert revealed["events"][-1]["rule"] == "reveal"


def test_no_message_to_another_seat_or_a_spectator_carries_a_secret_card(server: Server, api: Api) -> None:
    """Every message each connection gets over a whole match: a gem is seen only by its owner (until
    the end, when the result reveals all of them)."""
    mid, _host, tokens = api.new_match(players=3, humans=2)
    with contextlib.ExitStack() as stack:
        conns = {
            k: stack.enter_context(ws_open(server, mid, t))
            for k, t in ((0, tokens[0]), (1, tokens[1]), (None, None))
        }
        inbox: dict[int | None, list[dict[str, Any]]] = {k: [] for k in conns}
        final = None
        acted: set[tuple[int, int]] = set()
        for _ in range(3000):
            for seat in (0, 1):
                latest = None
                for msg in drain(conns[seat], inbox[seat]):
                    if msg["type"] == "state":
                        latest = msg
                if latest is None:
                    continue
                if latest["result"] is not None:
                    final = latest
                elif latest["legal"] and (seat, latest["ply"]) not in acted:
                    acted.add((seat, latest["ply"]))
                    pick = next(a for a in latest["legal"] if a.endswith(("dash", "roll")))
                    conns[seat].send(json.dumps({"type": "act", "action": pick, "ply": latest["ply"]}))
            if final is not None:
                break
        assert final is not None, "the match ended"
        drain(conns[None], inbox[None], 0.3)
        gems = final["view"]["gems"]
        assert sorted(gems) == sorted(set(gems)) and all(g in toygame.GEMS for g in gems)
        for seat, box in inbox.items():
            before_end = [m for m in box if not (m["type"] == "state" and m["result"] is not None)]
            assert before_end, "messages arrived before the end"
            text = json.dumps(before_end)
            for owner, gem in enumerate(gems):
                if owner != seat:
                    assert gem not in text, f"seat {seat} saw seat {owner}'s secret {gem}"
                elif seat is not None:
                    assert gem in text, "a seat does see its own card"


def test_bad_messages_get_an_error_code_and_the_connection_stays(server: Server, api: Api) -> None:
    mid, _host, (t0, _t1) = api.new_match()
    st = api.wait(mid, t0, lambda s: s["legal"])
    with ws_open(server, mid, t0) as ws, ws_open(server, mid, None) as spec:
        ws_until(ws, is_state(st["ply"]))
        cases: list[tuple[str, str]] = [
            ("{not json", "bad_request"),
            ("[1, 2]", "bad_request"),
            (json.dumps({"type": "fly"}), "bad_request"),
            (json.dumps({"type": "act", "action": "0:dash"}), "bad_request"),
            (json.dumps({"type": "act", "action": ["0:dash"], "ply": st["ply"]}), "bad_request"),
            (json.dumps({"type": "act", "action": "0:dash", "ply": st["ply"], "id": 5}), "bad_request"),
            (json.dumps({"type": "act", "action": "0:teleport", "ply": st["ply"]}), "illegal_action"),
            (json.dumps({"type": "act", "action": "1:dash", "ply": st["ply"]}), "illegal_action"),
            (json.dumps({"type": "act", "action": "0:dash", "ply": st["ply"] - 1}), "stale"),
            ("x" * 5000, "bad_request"),
        ]
        for text, code in cases:
            ws.send(text)
            err = ws_until(ws, lambda m: m["type"] in ("error", "ack"))
            assert (err["type"], err["code"]) == ("error", code), (text[:60], err)
            assert err["message"]
        ws.send(b"\x00binary")
        assert ws_until(ws, lambda m: m["type"] in ("error", "ack"))["code"] == "bad_request"
        ws.send(json.dumps({"type": "ping"}))
        assert ws_until(ws, lambda m: m["type"] == "pong") == {"type": "pong"}
        spec.send(json.dumps({"type": "act", "action": "0:dash", "ply": st["ply"]}))
        assert ws_until(spec, lambda m: m["type"] == "error")["code"] == "bad_token"
        assert api.state(mid, t0)["ply"] == st["ply"], "nothing changed"
        ws.send(json.dumps({"type": "act", "action": "0:dash", "ply": st["ply"], "id": "x1"}))
        assert ws_until(ws, lambda m: m["type"] in ("error", "ack"))["type"] == "ack"
        ws.send(json.dumps({"type": "act", "action": "0:walk", "ply": st["ply"], "id": "x1"}))
        dup = ws_until(ws, lambda m: m["type"] in ("error", "ack"))
        assert (dup["code"], dup["id"]) == ("duplicate", "x1")


@pytest.mark.parametrize(
    ("hello", "close_code", "code"),
    [
        ({"type": "hello", "token": "forged"}, 4403, "bad_token"),
        ({"type": "hello", "token": 12}, 4403, "bad_token"),
        ({"type": "act"}, 4400, "bad_request"),
        ("not json", 4400, "bad_request"),
        (b"binary", 4400, "bad_request"),
    ],
)
def test_a_bad_hello_is_refused_with_a_code(
    server: Server, api: Api, hello: Any, close_code: int, code: str
) -> None:
    from websockets.sync.client import connect

    mid, _host, _tokens = api.new_match()
    with connect(f"{server.ws_url}/ws/matches/{mid}") as ws:
        ws.send(hello if isinstance(hello, (str, bytes)) else json.dumps(hello))
        msg = ws_recv(ws)
        assert (msg["type"], msg["code"]) == ("error", code)
        with pytest.raises(ConnectionClosed) as info:
            ws.recv(timeout=5)
        assert info.value.rcvd is not None and info.value.rcvd.code == close_code


def test_unknown_match_is_refused(server: Server) -> None:
    with ws_open(server, "no-such-match", None) as ws:
        msg = ws_recv(ws)
        assert (msg["type"], msg["code"]) == ("error", "not_found")


def test_a_reconnecting_player_gets_the_current_state_and_the_log(server: Server, api: Api) -> None:
    mid, _host, (t0, t1) = api.new_match()
    st = api.wait(mid, t0, lambda s: s["legal"])
    with ws_open(server, mid, t0) as ws:
        ws_until(ws, is_state(st["ply"]))
    api.ok("POST", f"/api/matches/{mid}/actions", t1, json={"action": "1:walk", "ply": st["ply"]})
    with ws_open(server, mid, t0) as again:
        log = ws_recv(again)
        assert log["type"] == "log"
        kinds = [e["kind"] for entry in log["entries"] for e in entry["events"]]
        assert kinds.count("deal-secret") == 1, "only this seat's secret deal is in its log"
        assert kinds[-1] == "chosen"
        state = ws_recv(again)
        assert state["type"] == "state" and state["ply"] == st["ply"] + 1
        assert state["view"]["chosen"] == [False, True] and state["legal"] == ["0:dash", "0:walk"]
