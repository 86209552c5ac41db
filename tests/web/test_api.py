"""The HTTP API against a real server process and a real SQLite file."""

from __future__ import annotations

import json
from typing import Any

import pytest

from slipstream.engine.record import parse, replay
from tests import toygame
from tests.web.server import Api


def error(api: Api, method: str, path: str, token: str | None = None, **kw: Any) -> tuple[int, str]:
    status, body = api.call(method, path, token, **kw)
    assert isinstance(body, dict) and "error" in body, body
    assert body["error"]["message"], "every error says why"
    return status, body["error"]["code"]


def test_catalog_lists_registered_games_with_options_and_bots(api: Api) -> None:
    games = {g["id"]: g for g in api.ok("GET", "/api/games")}
    toy = games["toy-dash"]
    assert (toy["min_players"], toy["max_players"]) == (2, 4)
    assert [o["name"] for o in toy["options"]] == ["length", "sprint"]
    assert "random" in toy["bots"]


def test_lobby_flow_create_join_bots_start(api: Api) -> None:
    made = api.ok(
        "POST",
        "/api/matches",
        json={"game": "toy-dash", "players": 3, "options": {"length": 5}, "title": "Friday race", "public": True},
    )
    mid, host = made["id"], made["host_token"]
    assert made["join_url"].endswith(f"/m/{mid}")
    assert made["match"]["status"] == "open"
    assert made["match"]["options"] == {"players": 3, "length": 5, "sprint": False}
    assert mid in [m["id"] for m in api.ok("GET", "/api/matches?status=open")]
    assert error(api, "POST", f"/api/matches/{mid}/start", host) == (409, "seats_open")
    joined = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})
    assert joined["seat"] == 0 and len(joined["token"]) >= 24
    assert error(api, "POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Bob"}) == (409, "seat_taken")
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/bot", json={"bot": "random"}) == (403, "not_host")
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/bot", joined["token"], json={"bot": "random"}) == (
        403,
        "not_host",
    )
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "nope"}) == (
        400,
        "unknown_bot",
    )
    info = api.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "random"})
    assert info["seats"][1] == {"seat": 1, "kind": "bot", "name": "Random bot 2", "bot": "random"}
    api.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": None})
    assert api.ok("GET", f"/api/matches/{mid}")["seats"][1]["kind"] == "open"
    api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})
    api.ok("POST", f"/api/matches/{mid}/seats/2/bot", host, json={"bot": "random"})
    assert error(api, "POST", f"/api/matches/{mid}/start", "wrong-token") == (403, "not_host")
    assert api.ok("POST", f"/api/matches/{mid}/start", host)["status"] == "running"
    assert error(api, "POST", f"/api/matches/{mid}/start", host) == (409, "not_open")
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/join", json={}) == (409, "not_open")
    assert mid in [m["id"] for m in api.ok("GET", "/api/matches?status=running")]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "no-such-game"}, "unknown_game"),
        ({"game": "toy-dash", "players": 9}, "bad_option"),
        ({"game": "toy-dash", "options": {"length": "far"}}, "bad_option"),
        ({"game": "toy-dash", "options": {"speed": 3}}, "bad_option"),
        ({"game": "toy-dash", "options": {"content": "/etc/passwd"}}, "bad_option"),
        ({"game": "toy-dash", "bots": {"5": "random"}}, "not_found"),
        ({"game": "toy-dash", "bots": {"1": "superbot"}}, "unknown_bot"),
        ({"game": "toy-dash", "colour": "red"}, "bad_request"),
        ({"players": 2}, "bad_request"),
        ({"game": ["toy-dash"]}, "bad_request"),
    ],
)
def test_bad_creation_requests_get_a_4xx_with_a_reason(api: Api, body: dict[str, Any], code: str) -> None:
    before = len(api.ok("GET", "/api/matches?limit=200"))
    status, got = error(api, "POST", "/api/matches", json=body)
    assert 400 <= status < 500 and got == code
    assert len(api.ok("GET", "/api/matches?limit=200")) == before, "a rejected request changes nothing"


@pytest.mark.parametrize(
    ("method", "path", "kw"),
    [
        ("POST", "/api/matches", {"content": b"{not json", "headers": {"content-type": "application/json"}}),
        ("POST", "/api/matches", {"content": b"[1, 2]", "headers": {"content-type": "application/json"}}),
        ("GET", "/api/matches?status=lost", {}),
        ("GET", "/api/matches?limit=lots", {}),
        ("GET", "/api/matches/nope", {}),
        ("GET", "/api/matches/" + "x" * 300, {}),
        ("GET", "/api/matches/nope/state", {}),
        ("POST", "/api/matches/nope/seats/0/join", {"json": {}}),
        ("POST", "/api/matches/nope/seats/x/join", {"json": {}}),
        ("GET", "/api/no-such-route", {}),
    ],
)
def test_malformed_requests_get_a_4xx_never_a_500(
    api: Api, method: str, path: str, kw: dict[str, Any]
) -> None:
    status, body = api.call(method, path, **kw)
    assert 400 <= status < 500, (status, body)
    assert body["error"]["code"] in ("bad_request", "not_found")


def test_acting_needs_the_seats_token_and_the_current_ply(api: Api) -> None:
    mid, host, (t0, t1) = api.new_match()
    st = api.wait(mid, t0, lambda s: s["legal"])
    ply = st["ply"]
    assert st["actor"] == {"kind": "simultaneous", "seats": [0, 1]}
    assert st["legal"] == ["0:dash", "0:walk"]
    act = f"/api/matches/{mid}/actions"
    assert error(api, "POST", act, json={"action": "0:dash", "ply": ply}) == (401, "bad_token")
    assert error(api, "POST", act, "forged", json={"action": "0:dash", "ply": ply}) == (403, "bad_token")
    assert error(api, "POST", act, host, json={"action": "0:dash", "ply": ply}) == (403, "bad_token")
    assert error(api, "GET", f"/api/matches/{mid}/state", "forged") == (403, "bad_token")
    assert error(
        api, "POST", act, "x", headers={"Authorization": "Basic abc"}, json={"action": "0:dash", "ply": ply}
    ) == (401, "bad_token")
    # seat 1's token cannot play seat 0's action
    assert error(api, "POST", act, t1, json={"action": "0:dash", "ply": ply})[1] == "illegal_action"
    assert error(api, "POST", act, t0, json={"action": "0:fly", "ply": ply}) == (422, "illegal_action")
    assert error(api, "POST", act, t0, json={"action": "0:dash"}) == (400, "bad_request")
    assert error(api, "POST", act, t0, json={"action": "0:dash", "ply": "now"}) == (400, "bad_request")
    assert error(api, "POST", act, t0, json={"action": 7, "ply": ply}) == (400, "bad_request")
    assert error(api, "POST", act, t0, json={"action": "0:dash", "ply": ply + 5}) == (409, "stale")
    assert error(api, "POST", act, t0, json={"action": "0:dash", "ply": 0}) == (409, "stale")
    assert api.state(mid, t0)["ply"] == ply, "rejected requests change nothing"
    ack = api.ok("POST", act, t0, json={"action": "0:dash", "ply": ply, "id": "a1"})
    assert ack == {"type": "ack", "id": "a1", "ply": ply + 1}
    status, body = api.call("POST", act, t0, json={"action": "0:walk", "ply": ply + 1, "id": "a1"})
    assert (status, body["error"]["code"], body["error"]["ply"]) == (409, "duplicate", ply + 1)
    assert error(api, "POST", act, t0, json={"action": "0:walk", "ply": ply + 1}) == (409, "not_your_turn")
    # seat 1 chose at the same time: its ply may still be the one it saw (the choice was open since then)
    api.ok("POST", act, t1, json={"action": "1:walk", "ply": ply})
    st = api.wait(mid, t0, lambda s: s["view"]["phase"] != "choose" or s["result"])
    assert st["view"]["last_choices"] == ["dash", "walk"]


def test_a_duplicate_submission_of_a_turn_action_is_rejected_as_stale(api: Api) -> None:
    mid, _host, (t0, t1) = api.new_match()
    st = api.wait(mid, t0, lambda s: s["legal"])
    act = f"/api/matches/{mid}/actions"
    api.ok("POST", act, t0, json={"action": "0:dash", "ply": st["ply"]})
    api.ok("POST", act, t1, json={"action": "1:walk", "ply": st["ply"]})
    st = api.wait(mid, t0, lambda s: s["legal"] == ["roll"])
    api.ok("POST", act, t0, json={"action": "roll", "ply": st["ply"]})
    status, body = api.call("POST", act, t0, json={"action": "roll", "ply": st["ply"]})
    assert status == 409 and body["error"]["code"] in ("stale", "not_your_turn", "not_running")


def test_finished_match_record_replays_and_steps(api: Api, toy: str) -> None:
    mid, _host, tokens = api.new_match(players=3, humans=2, public=True)
    status, code = error(api, "GET", f"/api/matches/{mid}/record")
    assert (status, code) == (409, "not_finished"), "no record (with its secrets) while the match runs"
    assert error(api, "GET", f"/api/matches/{mid}/replay?ply=0")[1] == "not_finished"
    final = api.play_out(mid, tokens)
    assert final["match"]["status"] == "finished" and final["result"]["order"]
    assert sorted(final["view"]["gems"]) == sorted(final["view"]["gems"])
    text = api.http.get(f"/api/matches/{mid}/record")
    assert "attachment" in text.headers["content-disposition"]
    record = parse(text.text)
    state = replay(record)
    assert state.is_over and list(state.result.order) == final["result"]["order"]  # type: ignore[union-attr]
    assert state.view(None) == final["view"] | {"hand": None}
    total = len(record["actions"])
    first = api.ok("GET", f"/api/matches/{mid}/replay?ply=0")
    assert first["total"] == total and first["action"] is None and first["view"]["positions"] == [0, 0, 0]
    last = api.ok("GET", f"/api/matches/{mid}/replay?ply={total}&seat=1")
    assert last["action"] == record["actions"][-1] and last["result"] == final["result"]
    step = api.ok("GET", f"/api/matches/{mid}/replay?ply=1&seat=0")
    assert step["action"] == record["actions"][0] and step["view"]["hand"] == record["actions"][0][5:]
    assert any(e["kind"] == "deal-secret" for e in step["events"])
    assert error(api, "GET", f"/api/matches/{mid}/replay?ply={total + 1}") == (404, "not_found")
    assert error(api, "GET", f"/api/matches/{mid}/replay?ply=1&seat=7") == (404, "not_found")
    assert mid in [m["id"] for m in api.ok("GET", "/api/matches?status=finished")]
    assert (
        error(api, "POST", f"/api/matches/{mid}/actions", tokens[0], json={"action": "0:dash", "ply": 1})[1]
        == "not_running"
    )
    assert json.loads(json.dumps(record)) == record


def test_bots_play_a_whole_match_by_themselves(api: Api) -> None:
    made = api.ok(
        "POST",
        "/api/matches",
        json={"game": "toy-dash", "players": 4, "bots": {str(s): "random" for s in range(4)}},
    )
    api.ok("POST", f"/api/matches/{made['id']}/start", made["host_token"])
    st = api.wait(made["id"], None, lambda s: s["result"] is not None)
    assert sorted(st["result"]["order"]) == [0, 1, 2, 3]
    assert set(st["view"]["gems"]) <= set(toygame.GEMS)


def test_the_service_worker_of_notifications_is_served_as_javascript_and_reads_no_requests(api: Api) -> None:
    """A browser registers a worker only from a JavaScript response; this one shows notifications only:
    no fetch handler (the app is online only)."""
    script = api.http.get("/static/sw.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert '"notificationclick"' in script.text and '"fetch"' not in script.text


def test_spectator_state_has_no_hand_and_no_actions(api: Api) -> None:
    mid, _host, (t0, _t1) = api.new_match()
    mine = api.wait(mid, t0, lambda s: s["legal"])
    public = api.state(mid)
    assert public["seat"] is None and public["legal"] == [] and public["view"]["hand"] is None
    assert mine["view"]["hand"] in toygame.GEMS
    assert mine["view"]["hand"] not in json.dumps(public)


def test_host_hands_a_running_seat_to_a_bot(api: Api) -> None:
    """A player leaves: the host gives the seat to a bot, the old token stops working, the race ends."""
    mid, host, (t0, t1) = api.new_match(length=12)
    st = api.wait(mid, t1, lambda s: s["legal"])
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/bot", t0, json={"bot": "random"}) == (
        403,
        "not_host",
    )
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": None}) == (
        409,
        "not_open",
    )
    info = api.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "random"})
    assert info["seats"][1]["kind"] == "bot" and info["status"] == "running"
    assert error(api, "GET", f"/api/matches/{mid}/state", t1) == (403, "bad_token")
    body = {"action": "1:walk", "ply": st["ply"]}
    assert error(api, "POST", f"/api/matches/{mid}/actions", t1, json=body) == (403, "bad_token")
    final = api.play_out(mid, [t0])
    assert final["match"]["status"] == "finished"
    assert error(api, "POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "random"}) == (
        409,
        "not_open",
    )
