"""Every registered game plays in the server: a race against bots runs to the end, every message a
seat or a spectator gets is exactly what the engine lets it see, and the downloaded record is one that
``slipstream replay`` reads."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.hooks import hooks_of
from slipstream.engine.record import parse, replay
from slipstream.engine.record import states as record_states
from slipstream.engine.registry import games
from slipstream.web.protocol import sent_view
from tests.per_game import game_ids
from tests.web.server import ROOT, Api, Server, ws_open

GAMES = game_ids()


@pytest.mark.skipif(not GAMES, reason="no game is registered yet")
@pytest.mark.parametrize("game_id", GAMES)
def test_bot_race_of_every_game_ends_and_its_record_replays(
    server: Server, api: Api, game_id: str, tmp_path: Path
) -> None:
    cls = games()[game_id]
    players = cls.min_players
    made = api.ok(
        "POST",
        "/api/matches",
        json={"game": game_id, "players": players, "bots": {str(s): "random" for s in range(1, players)}},
    )
    mid = made["id"]
    token = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "me"})["token"]
    assert api.state(mid, token)["legal"] == [], "no actions are offered before the match starts"
    info = api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    if hooks_of(cls).web_board is None:  # an optional hook: no drawing to serve
        assert info["board"] is None
    else:
        assert info["board"] == f"/boards/{game_id}.js", "a game's board drawing is declared in Game.hooks"
        script = api.http.get(info["board"])
        assert script.status_code == 200 and "export function draw" in script.text
        assert script.headers["content-type"].startswith("text/javascript")
    assert api.http.get("/boards/no-such-game.js").status_code == 404
    final = None
    for _ in range(20_000):
        st = api.state(mid, token)
        if st["result"] is not None:
            final = st
            break
        if st["legal"]:
            assert st["actor"]["kind"] in ("seat", "simultaneous") and 0 in st["actor"]["seats"]
            status, body = api.call(
                "POST",
                f"/api/matches/{mid}/actions",
                token,
                json={"action": st["legal"][0], "ply": st["ply"]},
            )
            assert status == 200 or body["error"]["code"] in ("stale", "not_your_turn"), body
    assert final is not None, f"{game_id}: the race did not end"
    text = api.http.get(f"/api/matches/{mid}/record").text
    state = replay(parse(text))
    assert state.is_over and sent_view(state.view(0)) == final["view"]
    assert api.state(mid)["view"] == sent_view(state.view(None))
    path = tmp_path / "race.json"
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "slipstream.cli.main", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


WEIRD = ["", "x" * 500, -1, 0, 10**12, 3.5, True, None, [1], {"a": 1}, "../../etc/passwd"]


@pytest.mark.skipif(not GAMES, reason="no game is registered yet")
@pytest.mark.parametrize("game_id", GAMES)
def test_any_option_value_gets_a_clear_answer_never_a_500(api: Api, game_id: str) -> None:
    """Every option of every game, given odd values: created (201) or refused with a 4xx and a reason."""
    cls = games()[game_id]
    names = [s.name for s in cls.option_specs] + ["players"]
    for name in names:
        for value in WEIRD:
            body = (
                {"game": game_id, "players": value}
                if name == "players"
                else {"game": game_id, "options": {name: value}}
            )
            status, answer = api.call("POST", "/api/matches", json=body)
            assert status == 201 or (400 <= status < 500 and answer["error"]["message"]), (
                name,
                value,
                status,
                answer,
            )


def real_plies(record: dict[str, Any], seat: int | None) -> dict[int, int]:
    """For each ply a seat is shown during a match, the real ply of the step that showed it: a seat's
    ply does not count other seats' hidden steps (``Room``), so the server's own rule is replayed."""
    from slipstream.engine.game import split_seat_action
    from slipstream.web.hub import Room, stored_game
    from slipstream.web.storage import MatchData, MoveData, SeatData

    game = stored_game(MatchData("t", record["game"], "", record["options"], record["seed"], "running", "",
                                 "", 0.0, 0.0))
    data = MatchData("t", game.id, game.version, record["options"], record["seed"], "running", "", "", 0.0,
                     0.0, seats=[SeatData(seat=s) for s in game.seats])
    room = Room(data, game)
    out = {0: 0}
    for ply, action in enumerate(record["actions"]):
        actor = room.state.actor
        by = actor if isinstance(actor, int) and not isinstance(actor, bool) else None
        if isinstance(actor, frozenset):
            by = split_seat_action(action)[0]
        room.set_state(room.state.apply(action), MoveData(ply, action, by))
        out.setdefault(room.shown(seat), room.state.ply)
    return out


def jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.skipif(not GAMES, reason="no game is registered yet")
@pytest.mark.parametrize("game_id", GAMES)
def test_every_websocket_message_is_exactly_what_the_engine_shows_that_seat(
    server: Server, api: Api, game_id: str
) -> None:
    """Seat 0 plays a whole race over WebSocket against a bot while a spectator watches; afterwards the
    record is replayed and every message each of them got is checked against the engine: the seat's
    view, its own legal actions only while it must act, and only the events visible to it."""
    players = games()[game_id].min_players
    made = api.ok(
        "POST",
        "/api/matches",
        json={"game": game_id, "players": players, "bots": {str(s): "random" for s in range(1, players)}},
    )
    mid = made["id"]
    token = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "me"})["token"]
    api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    rng = random.Random(7)
    inbox: dict[int | None, list[dict[str, Any]]] = {0: [], None: []}
    with ws_open(server, mid, token) as ws, ws_open(server, mid, None) as spec:
        acted: set[int] = set()
        done = False
        for _ in range(100_000):
            msg = json.loads(ws.recv(timeout=30))
            inbox[0].append(msg)
            if msg["type"] == "error":
                assert msg["code"] in ("stale", "not_your_turn"), msg
            if msg["type"] != "state":
                continue
            if msg["result"] is not None:
                done = True
                break
            if msg["legal"] and msg["ply"] not in acted:
                acted.add(msg["ply"])
                ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "ply": msg["ply"]}))
        assert done, f"{game_id}: the race did not end"
        while True:
            msg = json.loads(spec.recv(timeout=30))
            inbox[None].append(msg)
            if msg["type"] == "state" and msg["result"] is not None:
                break
    record = api.ok("GET", f"/api/matches/{mid}/record")
    states = list(record_states(record))
    for seat, messages in inbox.items():
        real = real_plies(record, seat)
        checked = 0
        previous: int | None = None
        for msg in messages:
            if msg["type"] == "log":
                for entry in msg["entries"]:
                    assert entry["events"] == jsonish(states[real[entry["ply"]]].visible_events(seat))
            elif msg["type"] == "state":
                ply = msg["ply"] if msg["result"] is not None else real[msg["ply"]]
                st = states[ply]
                assert msg["seat"] == seat
                assert msg["view"] == jsonish(sent_view(st.view(seat))), f"{game_id} ply {msg['ply']} seat {seat}"
                # a message carries the visible events of every step since the seat's previous one (a
                # step and the chance steps after it are sent together); the first, the last step's
                steps = range(ply, ply + 1) if previous is None else range(previous + 1, ply + 1)
                # each event says which of the steps that showed this seat something it belongs to ("step")
                seen = [states[k].visible_events(seat) for k in steps]
                expected_steps = [n for n, group in enumerate(g for g in seen if g) for _e in group]
                assert [e.pop("step") for e in msg["events"]] == expected_steps
                assert msg["events"] == jsonish([e for group in seen for e in group])
                previous = ply
                actor = st.actor
                mine = seat is not None and (
                    actor == seat or (isinstance(actor, frozenset) and seat in actor)
                )
                assert msg["legal"] == (st.legal_actions(seat) if mine else [])
                checked += 1
        assert checked > 1


def test_the_text_board_is_drawn_only_for_a_client_that_shows_it(server: Server, api: Api) -> None:
    """Drawing a game's text board costs most of a ``state`` message, so a live client gets it only
    while it asks (``text_board`` in the hello, or a ``text_board`` message); the REST state always has it."""
    from tests.web.server import ws_recv, ws_until

    mid, _host, (t0, t1) = api.new_match("scrap-racer")
    with ws_open(server, mid, t0) as plain_ws, ws_open(server, mid, t1) as text_ws:
        text_ws.send(json.dumps({"type": "text_board", "on": True}))
        assert ws_recv(plain_ws)["type"] == "log" and ws_recv(text_ws)["type"] == "log"
        first = ws_until(plain_ws, lambda m: m["type"] == "state")
        assert first["match"]["text_board"] is True and first["board_text"] == ""
        ws_until(text_ws, lambda m: m["type"] == "state")  # the hello's state, without the text board
        asked = ws_until(text_ws, lambda m: m["type"] == "state")
        assert asked["board_text"] == api.state(mid, t1)["board_text"] != ""
        text_ws.send(json.dumps({"type": "text_board", "on": "yes"}))
        assert ws_until(text_ws, lambda m: m["type"] == "error")["code"] == "bad_request"
        seat = api.wait(mid, None, lambda s: s["actor"]["kind"] == "seat")["actor"]["seats"][0]
        token = (t0, t1)[seat]
        st = api.state(mid, token)
        api.ok("POST", f"/api/matches/{mid}/actions", token, json={"action": st["legal"][0], "ply": st["ply"]})
        moved_plain = ws_until(plain_ws, lambda m: m["type"] == "state" and m["ply"] > st["ply"])
        moved_text = ws_until(text_ws, lambda m: m["type"] == "state" and m["ply"] > st["ply"])
        assert moved_plain["board_text"] == "" and moved_text["board_text"] != ""
        text_ws.send(json.dumps({"type": "text_board", "on": False}))
        assert ws_until(text_ws, lambda m: m["type"] == "state" and m["board_text"] == "")["ply"] >= moved_text["ply"]
    from websockets.sync.client import connect

    with connect(f"{server.ws_url}/ws/matches/{mid}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": None, "text_board": True}))
        assert ws_recv(ws)["type"] == "log"
        assert ws_until(ws, lambda m: m["type"] == "state")["board_text"] == api.state(mid, None)["board_text"]
