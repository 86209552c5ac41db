"""Presence (issue 28): every client is told who is there, who is away and for how long, and how many
watch; resigning and claiming the win are log lines for everyone."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_open, ws_until


def presence(msg: dict[str, Any]) -> bool:
    return msg["type"] == "presence"


def test_players_see_who_is_away_and_how_many_watch(server: Server, api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(length=30)
    with ws_open(server, mid, ann) as a:
        first = ws_until(a, presence)
        assert first["seats"]["0"] == {"here": True, "away": None}
        assert first["seats"]["1"]["here"] is False and first["seats"]["1"]["away"] >= 0
        assert first["spectators"] == 0 and first["claim_grace"] == 120
        with ws_open(server, mid, bob):
            now = ws_until(a, lambda m: presence(m) and m["seats"]["1"]["here"])
            assert now["seats"]["1"]["away"] is None
            with ws_open(server, mid, None) as spec:
                assert ws_until(a, lambda m: presence(m) and m["spectators"] == 1)["spectators"] == 1
                assert ws_until(spec, presence)["spectators"] == 1
            assert ws_until(a, lambda m: presence(m) and m["spectators"] == 0)["seats"]["1"]["here"]
        gone = ws_until(a, lambda m: presence(m) and not m["seats"]["1"]["here"])
        assert 0 <= gone["seats"]["1"]["away"] < 5


def log_texts(msg: dict[str, Any]) -> list[str]:
    return [e["text"] for entry in msg["entries"] for e in entry["events"]]


def test_a_resignation_is_a_log_line_for_everyone(server: Server, api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(length=30)
    with ws_open(server, mid, None) as spec, ws_open(server, mid, ann) as a:
        ws_until(spec, presence)
        ws_until(a, presence)
        api.ok("POST", f"/api/matches/{mid}/resign", bob, json={})
        line = "P2 resigned: a bot plays their seat to the end, ranked last"
        for ws in (spec, a):
            assert line in log_texts(ws_until(ws, lambda m: m["type"] == "log"))
            state = ws_until(ws, lambda m: m["type"] == "state")
            assert state["match"]["seats"][1]["kind"] == "resigned"


def test_a_claim_is_a_log_line_for_everyone(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "claim.sqlite3"), tmp_path / "server.log",
                    env={**ROOMY, "SLIPSTREAM_LIMIT_CLAIM_GRACE": "1"}).start()
    try:
        api = server.client()
        mid, _host, (ann, _bob) = api.new_match(length=30)
        with ws_open(server, mid, ann) as a, ws_open(server, mid, None) as spec:
            offer = ws_until(a, lambda m: m["type"] in ("claim", "state") and m["claim"] is not None, timeout=10)
            time.sleep(offer["claim"]["in"] + 0.3)
            a.send(json.dumps({"type": "claim", "id": "c1"}))
            line = "P1 claimed the win from P2, away from the race: a bot plays their seat to the end, ranked last"
            for ws in (a, spec):
                assert ws_until(ws, lambda m: m["type"] == "log" and line in log_texts(m), timeout=5)
    finally:
        server.stop()


def test_the_resignation_line_is_in_the_log_after_a_kill_and_restart(tmp_path: Path) -> None:
    """The line is stored with the match: a server killed and started again puts it back in everyone's
    log, once, after the steps that came before it."""
    server = Server(str(tmp_path / "resign.sqlite3"), tmp_path / "server.log", env=ROOMY).start()
    try:
        api = server.client()
        mid, _host, (_ann, bob) = api.new_match(length=30)
        before = api.wait(mid, bob, lambda st: bool(st["legal"]))
        with ws_open(server, mid, None) as spec:
            ws_until(spec, presence)
            api.ok("POST", f"/api/matches/{mid}/resign", bob, json={})
            line = "P2 resigned: a bot plays their seat to the end, ranked last"
            ws_until(spec, lambda m: m["type"] == "log" and line in log_texts(m))
        time.sleep(0.3)  # the line is stored just after it is told
        server.kill()
        server.start()
        with ws_open(server, mid, None) as spec:
            kept = ws_until(spec, lambda m: m["type"] == "log")
        texts = log_texts(kept)
        assert texts.count(line) == 1
        entry = next(e for e in kept["entries"] if any(ev["text"] == line for ev in e["events"]))
        assert entry["ply"] == before["ply"], "at the position it was said"
        plies = [e["ply"] for e in kept["entries"]]
        assert plies == sorted(plies), "in the order of the race"
        assert texts.index(line) > max(i for i, text in enumerate(texts) if "dealt" in text), "after the deal"
    finally:
        server.stop()


def test_a_resignation_line_stays_in_the_log_after_an_undo(server: Server, api: Api) -> None:
    """An undo takes back a step, not a resignation: the line stays in every client's log, the one the
    undo sends again from the start (``reset``) and the one a client gets when it connects."""
    mid, _host, (ann, _bob, cat) = api.new_match(players=3, humans=3, length=30)
    api.wait(mid, ann, lambda st: st["view"]["phase"] == "choose" and bool(st["legal"]))
    line = "P3 resigned: a bot plays their seat to the end, ranked last"
    with ws_open(server, mid, None) as spec, ws_open(server, mid, ann) as a:
        ws_until(spec, presence)
        ws_until(a, presence)
        api.ok("POST", f"/api/matches/{mid}/resign", cat, json={})
        ws_until(spec, lambda m: m["type"] == "log" and line in log_texts(m))
        ply = ws_until(a, lambda m: m["type"] == "state" and m["view"]["chosen"][2])["ply"]
        a.send(json.dumps({"type": "act", "action": "0:dash", "ply": ply, "id": "a1"}))
        ws_until(a, lambda m: m["type"] == "ack")
        a.send(json.dumps({"type": "undo", "ply": ply + 1}))
        seen: list[dict[str, Any]] = []
        ws_until(a, lambda m: m["type"] == "undone", seen=seen)
        resets = [m for m in seen if m["type"] == "log" and m["reset"]]
        resets.append(ws_until(spec, lambda m: m["type"] == "log" and m["reset"]))
        for again in resets:
            assert log_texts(again).count(line) == 1, log_texts(again)
        assert len(resets) == 2, "Ann was sent her log again"
    with ws_open(server, mid, ann) as a:
        assert log_texts(ws_until(a, lambda m: m["type"] == "log")).count(line) == 1
