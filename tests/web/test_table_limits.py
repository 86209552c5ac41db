"""Issue 28's endpoints and messages within the limits of docs/web.md: every limit is in the limits
table, every API route in the API table, and the chat and the mute answer the protocol's limits (a body
past ``max_body``, a message past ``max_message``) with one error that changes nothing."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from slipstream.web.limits import Limits
from tests.web.server import Api, Server, ws_open, ws_until

DOC = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text()


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.index("\n## ", start + 1)
    return DOC[start:end]


def test_every_limit_is_in_the_limits_table() -> None:
    rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", section("Limits"), re.MULTILINE)}
    missing = [f.name for f in dataclasses.fields(Limits) if f.name not in rows]
    assert not missing, f"limits missing from docs/web.md's table: {missing}"


def test_every_api_route_is_in_the_api_table(api: Api) -> None:
    table = section("HTTP API")
    routes = api.ok("GET", "/api/openapi.json")["paths"]
    missing = []
    for path, methods in routes.items():
        if not path.startswith("/api/") or path in ("/api/health", "/api/matches/{match_id}/glossary"):
            continue
        shown = path.replace("{match_id}", "{id}").replace("{game_id}", "{game}")
        for method in methods:
            if f"`{method.upper()} {shown}`" not in table:
                missing.append(f"{method.upper()} {shown}")
    assert not missing, f"routes missing from docs/web.md's API table: {missing}"


def test_a_chat_message_past_max_message_and_a_mute_past_max_body(server: Server, api: Api) -> None:
    mid, host, (ann, _bob) = api.new_match(length=30)
    big = "x" * (Limits.max_message + 10)
    with ws_open(server, mid, ann) as ws:
        ws_until(ws, lambda m: m["type"] == "chat")
        ws.send(json.dumps({"type": "chat", "text": big}))
        err = ws_until(ws, lambda m: m["type"] == "error")
        assert err["code"] == "bad_request" and "xxxx" not in err["message"]
        ws.send(json.dumps({"type": "chat", "text": "still open"}))
        assert ws_until(ws, lambda m: m["type"] == "chat")["lines"][0]["text"] == "still open"
    status, body = api.call(
        "POST", f"/api/matches/{mid}/chat/mute", host,
        content=json.dumps({"viewer": "0" * 8, "pad": "y" * Limits.max_body}),
        headers={"Content-Type": "application/json"},
    )
    assert (status, body["error"]["code"]) == (413, "too_large")
    status, body = api.call("POST", f"/api/matches/{mid}/chat/mute", host, json={"viewer": "0" * 8, "who": "me"})
    assert status == 400 and "who" not in body["error"]["message"], "an unknown field is not repeated"
