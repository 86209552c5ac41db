"""Undo, resign and rematch through the API and the WebSocket, and the rules pages (issue 15).

Undo takes back a seat's own last step only while it revealed nothing: no chance step and no other
seat's step since, and not the step that closed a simultaneous choice others had made (it showed
their choices). Every refusal changes nothing; an undo survives a SIGKILL of the server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.server import Api, Server, ws_open, ws_until


def act(api: Api, mid: str, token: str, action: str) -> dict[str, Any]:
    ply = api.state(mid, token)["ply"]
    result: dict[str, Any] = api.ok("POST", f"/api/matches/{mid}/actions", token, json={"action": action, "ply": ply})
    return result


def undo(api: Api, mid: str, token: str | None, ply: int | None = None) -> tuple[int, Any]:
    if ply is None:
        ply = api.state(mid, token)["ply"] if token else 0
    return api.call("POST", f"/api/matches/{mid}/undo", token, json={"ply": ply})


def choosing(api: Api, mid: str, token: str) -> dict[str, Any]:
    return api.wait(mid, token, lambda st: st["view"]["phase"] == "choose" and bool(st["legal"]))


def test_undo_takes_back_a_choice_nobody_has_seen(api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=30)
    choosing(api, mid, ann)
    before = api.state(mid, ann)
    bob_before = api.state(mid, bob)
    act(api, mid, ann, "0:dash")
    assert api.state(mid, ann)["can_undo"] and not api.state(mid, bob)["can_undo"]
    assert undo(api, mid, bob)[1]["error"]["code"] == "cannot_undo", "not Bob's step"
    assert undo(api, mid, None)[0] == 401, "a spectator cannot undo"
    assert undo(api, mid, "not-a-token", ply=api.state(mid, ann)["ply"])[0] == 403
    status, body = undo(api, mid, ann, ply=0)
    assert (status, body["error"]["code"]) == (409, "stale")
    status, body = api.call("POST", f"/api/matches/{mid}/undo", ann, json={"ply": "x"})
    assert status == 400
    assert api.state(mid, ann)["view"]["chosen"] == [True, False], "the refusals changed nothing"
    status, body = undo(api, mid, ann)
    assert status == 200 and body["type"] == "undone", body
    after = api.state(mid, ann)
    assert after["legal"] == before["legal"] and after["view"] == before["view"] and after["ply"] == before["ply"]
    assert api.state(mid, bob)["view"] == bob_before["view"], "Bob's view is as before Ann's step"
    assert undo(api, mid, ann)[1]["error"]["code"] == "cannot_undo", "nothing of Ann's left to take back"
    # Ann walks; Bob's choice closes the window and shows Ann's: neither may take theirs back now
    act(api, mid, ann, "0:walk")
    act(api, mid, bob, "1:dash")
    assert undo(api, mid, bob)[1]["error"]["code"] == "cannot_undo", "Bob's step revealed Ann's choice"
    assert undo(api, mid, ann)[1]["error"]["code"] == "cannot_undo", "Bob acted since"
    assert api.state(mid, ann)["view"]["last_choices"] == ["walk", "dash"]


def test_undo_is_refused_after_a_roll(api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=30)
    choosing(api, mid, ann)
    act(api, mid, ann, "0:dash")
    act(api, mid, bob, "1:walk")
    st = api.wait(mid, ann, lambda s: s["legal"] == ["roll"])
    act(api, mid, ann, "roll")
    st = api.state(mid, ann)
    assert not st["can_undo"]
    assert undo(api, mid, ann)[1]["error"]["code"] == "cannot_undo", "the die was rolled since"


def test_undo_over_the_websocket_tells_every_client(server: Server, api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=30)
    choosing(api, mid, ann)
    with ws_open(server, mid, ann) as ws_ann, ws_open(server, mid, bob) as ws_bob:
        ws_until(ws_ann, lambda m: m["type"] == "state")
        ws_until(ws_bob, lambda m: m["type"] == "state")
        ply = api.state(mid, ann)["ply"]
        ws_ann.send(json.dumps({"type": "act", "action": "0:dash", "ply": ply, "id": "a1"}))
        ws_until(ws_ann, lambda m: m["type"] == "ack")
        ws_until(ws_bob, lambda m: m["type"] == "state" and m["view"]["chosen"] == [True, False])
        ws_ann.send(json.dumps({"type": "undo", "ply": ply + 1}))
        ws_until(ws_ann, lambda m: m["type"] == "undone")
        log = ws_until(ws_bob, lambda m: m["type"] == "log")
        assert log["reset"] is True and not any("has chosen" in json.dumps(e) for e in log["entries"][-1:])
        state = ws_until(ws_bob, lambda m: m["type"] == "state")
        assert state["view"]["chosen"] == [False, False] and state["ply"] == ply


def test_an_undo_survives_sigkill(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "undo.sqlite3"), tmp_path / "server.log").start()
    try:
        api = srv.client()
        mid, _host, (ann, _bob) = api.new_match(players=2, humans=2, length=30)
        choosing(api, mid, ann)
        act(api, mid, ann, "0:dash")
        assert undo(api, mid, ann)[0] == 200
        expected = api.state(mid, ann)
        port = srv.port
        srv.kill()
        srv.start(port=port)
        api = srv.client()
        again = api.state(mid, ann)
        assert again["view"] == expected["view"] and again["ply"] == expected["ply"]
        assert again["legal"] == ["0:dash", "0:walk"]
    finally:
        srv.stop()


def test_resign_hands_the_seat_to_a_bot_and_the_race_ends(api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=8)
    choosing(api, mid, bob)
    assert api.call("POST", f"/api/matches/{mid}/resign", None, json={})[0] == 401
    info = api.ok("POST", f"/api/matches/{mid}/resign", bob, json={})
    assert info["seats"][1]["kind"] == "resigned" and info["seats"][1]["name"] == "seat1"
    assert api.call("POST", f"/api/matches/{mid}/resign", bob, json={})[1]["error"]["code"] == "not_your_turn"
    status, body = api.call(
        "POST", f"/api/matches/{mid}/actions", bob, json={"action": "1:dash", "ply": api.state(mid, bob)["ply"]}
    )
    assert (status, body["error"]["code"]) == (409, "not_your_turn"), "a resigned seat no longer acts"
    final = api.play_out(mid, [ann])
    assert final["result"] is not None and final["match"]["status"] == "finished"


def test_rematch_keeps_the_seats_and_starts_when_they_are_back(api: Api) -> None:
    mid, host, (ann, bob) = api.new_match(players=3, humans=2, length=4)
    status, body = api.call("POST", f"/api/matches/{mid}/rematch", ann, json={})
    assert (status, body["error"]["code"]) == (409, "not_finished")
    api.play_out(mid, [ann, bob])
    assert api.call("POST", f"/api/matches/{mid}/rematch", "nope", json={})[0] == 403
    assert api.call("POST", f"/api/matches/{mid}/rematch", ann, json={"seat": 1})[0] == 403, "not Ann's seat"
    first = api.ok("POST", f"/api/matches/{mid}/rematch", ann, json={"seat": 0})
    nxt = first["id"]
    assert nxt != mid and first["seat"] == 0 and first["match"]["status"] == "open"
    assert [s["kind"] for s in first["match"]["seats"]] == ["human", "open", "bot"]
    assert first["match"]["seats"][0]["name"] == "seat0"
    assert api.ok("POST", f"/api/matches/{mid}/rematch", host, json={})["id"] == nxt, "one rematch per race"
    second = api.ok("POST", f"/api/matches/{mid}/rematch", bob, json={})
    assert second["id"] == nxt and second["seat"] == 1 and second["match"]["status"] == "running"
    assert api.call("POST", f"/api/matches/{mid}/rematch", bob, json={})[1]["error"]["code"] == "seat_taken"
    assert api.state(nxt, second["token"])["seat"] == 1


def test_rules_pages_are_our_text_escaped(api: Api) -> None:
    r = api.http.get("/rules/scrap-racer")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert "<table>" in r.text and "Rule coverage" in r.text and "<script>" not in r.text.replace(
        '<script type="module" src="/static/rules.js"></script>', ""
    )
    tag = r.headers["etag"]
    assert "max-age=" in r.headers["cache-control"] and tag.startswith('"')
    again = api.http.get("/rules/scrap-racer", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"", "unchanged: the browser's copy is good"
    other = api.http.get("/rules/brc-grand-prix", headers={"If-None-Match": tag})
    assert other.status_code == 200 and other.headers["etag"] != tag
    assert api.call("GET", "/rules/no-such-game")[0] == 404
    assert api.call("GET", "/rules/toy-dash")[0] == 404, "a game without a rules text"
    assert api.call("GET", "/rules/..%2F..%2Fpyproject")[0] == 404


def test_option_errors_list_the_valid_values(api: Api) -> None:
    def message(options: dict[str, Any]) -> str:
        status, body = api.call("POST", "/api/matches", json={"game": "brc-grand-prix", "options": options})
        assert status == 400 and body["error"]["code"] == "bad_option", body
        text: str = body["error"]["message"]
        return text

    assert "'grid'" in message({"grid": "nope"}) and "roll-off or qualifying" in message({"grid": "nope"})
    assert "nope" not in message({"grid": "nope"}), "an error does not repeat the client's text (issue 26)"
    unknown = message({"lapz": 3})
    assert "no option by that name" in unknown and "laps: a whole number from 1 to 50" in unknown
    assert "lapz" not in unknown
    assert "content" not in unknown, "a server file is not an option over the web"
    assert "from 1 to 50" in message({"laps": 0})
    assert "whole number" in message({"laps": "many"}) and "from" in message({"laps": "many"})


def test_a_player_out_of_time_is_played_by_a_bot_and_the_log_says_so(server: Server, api: Api) -> None:
    made = api.ok(
        "POST",
        "/api/matches",
        json={"game": "toy-dash", "players": 2, "options": {"length": 30}, "turn_seconds": 3},
    )
    mid, host = made["id"], made["host_token"]
    assert made["match"]["turn_seconds"] == 3
    ann = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
    api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})
    api.ok("POST", f"/api/matches/{mid}/start", host)
    st = choosing(api, mid, ann)
    assert 0 < st["turn_left"]["0"] <= 3 and 0 < st["turn_left"]["1"] <= 3
    act(api, mid, ann, "0:dash")
    with ws_open(server, mid, ann) as ws:
        log = ws_until(ws, lambda m: m["type"] == "log")
        assert not any(e["kind"] == "timeout" for entry in log["entries"] for e in entry["events"])
        state = ws_until(ws, lambda m: m["type"] == "state" and m["view"]["last_choices"][1] is not None, timeout=10)
    note = next(e for e in state["events"] if e["kind"] == "timeout")
    assert note["text"] == "P2 ran out of time: a bot played for them" and note["rule"] == "turn timer"
    assert api.state(mid, ann)["view"]["chosen"] != [True, False], "Bob's choice was made for him"
    assert st["view"]["positions"] == [0, 0]
    status, body = api.call("POST", "/api/matches", json={"game": "toy-dash", "turn_seconds": 1})
    assert (status, body["error"]["code"]) == (400, "bad_request") and "from 3 to 3600" in body["error"]["message"]


def test_a_resigned_seat_is_ranked_last_in_the_result_and_the_record(api: Api, toy: str) -> None:
    """Issue 15: the result the API reports and the record's ``result`` agree with the page: a resigned
    seat is last (and named in ``details["resigned"]``), while the record's actions still replay to the
    engine's own result (kept as ``details["race_order"]``)."""
    from slipstream.engine.record import replay

    mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=8)
    choosing(api, mid, ann)
    api.ok("POST", f"/api/matches/{mid}/resign", ann, json={})
    final = api.play_out(mid, [bob], choose="walk")  # Ann's bot dashes, Bob walks: Ann's bot wins the race
    result = final["result"]
    assert result["details"]["race_order"] == [0, 1], "the race itself: Ann's bot ahead"
    assert result["order"] == [1, 0] and result["winners"] == [1], "Ann resigned: she is last, Bob wins"
    assert result["details"]["resigned"] == [0]
    record = api.ok("GET", f"/api/matches/{mid}/record")
    assert record["result"] == result
    assert [s["kind"] for s in record["seats"]] == ["resigned", "human"]
    engine = replay(record).result
    assert engine is not None and list(engine.order) == [0, 1], "the moves replay exactly to the race's order"
    last = api.ok("GET", f"/api/matches/{mid}/replay?ply={final['ply']}")
    assert last["result"] == result


def test_a_team_result_keeps_its_order_and_names_who_resigned() -> None:
    from slipstream.engine.game import Result
    from slipstream.web.protocol import resigned_result

    team = Result(order=(0, 1, 2), winners=(0, 1, 2), reason="the heist succeeds", team=True)
    out = resigned_result(team, {1})
    assert out["order"] == [0, 1, 2] and out["winners"] == [0, 1, 2] and out["details"] == {"resigned": [1]}
    race = Result(order=(2, 0, 1), winners=(2,), reason="first over the line")
    assert resigned_result(race, set()) == race.to_json()
    out = resigned_result(race, {0, 2})
    assert out["order"] == [1, 2, 0] and out["winners"] == [1]
    assert out["details"] == {"resigned": [0, 2], "race_order": [2, 0, 1]}


def timed_match(api: Api, seconds: int, length: int = 30) -> tuple[str, str, str]:
    """A started Toy Dash race with a turn timer, Ann in seat 0 and Bob in seat 1: (id, Ann, Bob)."""
    made = api.ok(
        "POST", "/api/matches", json={"game": "toy-dash", "players": 2, "options": {"length": length},
                                      "turn_seconds": seconds},
    )
    mid = made["id"]
    ann = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
    bob = api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})["token"]
    api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    return mid, ann, bob


def test_the_turn_timer_plays_the_games_own_bot(api: Api) -> None:
    """Issue 15: a player out of time has the decision played by the game's own bot (Toy Dash's
    heuristic bot always dashes), not by a uniform pick (which would walk half the time). Bob never
    acts: in four rounds his four timed-out choices are all dashes (a uniform pick: 1 chance in 16)."""
    mid, ann, bob = timed_match(api, 3)
    bob_choices: list[str] = []
    for _round in range(4):
        st = choosing(api, mid, ann)
        act(api, mid, ann, "0:walk")
        done = api.wait(
            mid, ann, lambda s, r=st["view"]["round"]: s["view"]["phase"] != "choose" or s["view"]["round"] != r,
            timeout=15,
        )
        bob_choices.append(done["view"]["last_choices"][1])
        # Ann plays her own roll decisions; Bob's run out of time too
        for _step in range(40):
            now = api.state(mid, ann)
            if now["view"]["phase"] == "choose" and now["legal"]:
                break
            if now["legal"]:
                act(api, mid, ann, now["legal"][0])
            else:
                api.wait(mid, ann, lambda s, ply=now["ply"]: s["ply"] != ply, timeout=15)
    assert bob_choices == ["dash"] * 4, bob_choices
    assert api.state(mid, bob)["match"]["seats"][1]["kind"] == "human", "Bob keeps his seat"


def test_a_restart_resumes_the_turn_count_from_where_it_was(tmp_path: Path) -> None:
    """Issue 15: the count of the decision a player is in survives a SIGKILL and restart from when the
    decision began (the stored time of the step that began it), instead of starting again from full."""
    import time

    srv = Server(str(tmp_path / "timer.sqlite3"), tmp_path / "server.log").start()
    try:
        api = srv.client()
        mid, ann, bob = timed_match(api, 60)
        choosing(api, mid, ann)
        act(api, mid, ann, "0:dash")  # Bob's choice is still open: his decision began at the race's start
        began = time.time()
        left = api.state(mid, bob)["turn_left"]["1"]
        assert left <= 60
        time.sleep(3)
        port = srv.port
        srv.kill()
        srv.start(port=port)
        again = srv.client().state(mid, bob)
        waited = time.time() - began
        assert again["turn_left"]["1"] <= left - waited + 0.5, (again["turn_left"], left, waited)
        assert again["turn_left"]["1"] > 60 - waited - 10, "counted from the decision's start, not earlier"
    finally:
        srv.stop()


def test_the_races_first_decision_is_timed_from_the_start_even_across_a_restart(tmp_path: Path) -> None:
    """BRC Grand Prix asks both players for their tyres before any step: that first decision is timed
    from the race's start (it used to have no start, so it never ran out), and a restart while the
    match was still open does not start its count early."""
    import time

    srv = Server(str(tmp_path / "first.sqlite3"), tmp_path / "server.log").start()
    try:
        api = srv.client()
        made = api.ok("POST", "/api/matches", json={"game": "brc-grand-prix", "players": 2, "turn_seconds": 3})
        mid = made["id"]
        ann = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
        api.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})
        port = srv.port
        srv.kill()
        srv.start(port=port)
        api = srv.client()
        time.sleep(3.5)
        api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
        st = api.state(mid, ann)
        assert st["ply"] == 0 and st["turn_left"]["0"] > 2, st["turn_left"]
        api.wait(mid, ann, lambda s: s["ply"] > 0, timeout=15)  # nobody acts: the timer played
    finally:
        srv.stop()
