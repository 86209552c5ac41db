"""Kill the server with SIGKILL and start it again on the same database: every match resumes exactly
where it was, tokens still work, and every acknowledged action is still there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.server import Api, Server


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "restart.sqlite3")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for srv in started:
        srv.stop()


def snapshot(api: Api, mid: str, tokens: list[str]) -> list[dict[str, Any]]:
    views = []
    for token in [None, *tokens]:
        st = api.state(mid, token)
        views.append(
            {k: st[k] for k in ("ply", "actor", "legal", "view", "result")}
            | {"status": st["match"]["status"]}
        )
    return views


def run_server(servers: list[Server], db: str, tmp_path: Path, bot_delay: float = 0.0) -> tuple[Server, Api]:
    srv = Server(db, tmp_path / f"server{len(servers)}.log", bot_delay=bot_delay).start()
    servers.append(srv)
    return srv, srv.client()


def test_sigkill_and_restart_resumes_every_match_exactly(
    db: str, tmp_path: Path, servers: list[Server]
) -> None:
    srv, api = run_server(servers, db, tmp_path)
    # a running match, part-played; every action is acknowledged just before the kill
    mid, host, tokens = api.new_match(players=2, humans=2, length=30)
    for _ in range(3):
        for _seat, token in enumerate(tokens):
            st = api.state(mid, token)
            if st["legal"] and st["result"] is None:
                api.ok(
                    "POST",
                    f"/api/matches/{mid}/actions",
                    token,
                    json={"action": st["legal"][0], "ply": st["ply"]},
                )
    api.wait(mid, None, lambda s: s["actor"]["kind"] != "chance")  # the server's own chance steps are done
    before = snapshot(api, mid, tokens)
    # an open match with one seat joined, and a finished one
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 3})
    joined = api.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={"name": "Ann"})["token"]
    done, _h, done_tokens = api.new_match()
    api.play_out(done, done_tokens)
    record = api.ok("GET", f"/api/matches/{done}/record")
    srv.kill()

    _srv2, api2 = run_server(servers, db, tmp_path)
    assert snapshot(api2, mid, tokens) == before, "the running match is exactly where it was, for every seat"
    assert api2.ok("GET", f"/api/matches/{done}/record") == record
    opened = api2.ok("GET", f"/api/matches/{made['id']}")
    assert opened["status"] == "open" and opened["seats"][0]["name"] == "Ann"
    assert api2.state(made["id"], joined)["seat"] == 0, "a seat's token still works after the restart"
    api2.ok("POST", f"/api/matches/{made['id']}/seats/1/join", json={"name": "Bob"})
    status, body = api2.call("POST", f"/api/matches/{mid}/start", host)
    assert (status, body["error"]["code"]) == (409, "not_open")
    final = api2.play_out(mid, tokens)
    assert final["match"]["status"] == "finished" and final["ply"] > before[0]["ply"]


def test_bots_resume_after_a_kill_mid_match(db: str, tmp_path: Path, servers: list[Server]) -> None:
    srv, api = run_server(servers, db, tmp_path, bot_delay=0.15)
    made = api.ok(
        "POST",
        "/api/matches",
        json={
            "game": "toy-dash",
            "players": 4,
            "options": {"length": 30},
            "bots": {str(s): "random" for s in range(4)},
        },
    )
    mid = made["id"]
    api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    seen = api.wait(mid, None, lambda s: s["ply"] >= 8)["ply"]
    srv.kill()
    _srv2, api2 = run_server(servers, db, tmp_path, bot_delay=0.0)
    resumed = api2.state(mid)
    assert resumed["ply"] >= seen, "no acknowledged step is lost"
    final = api2.wait(mid, None, lambda s: s["result"] is not None, timeout=30)
    assert sorted(final["result"]["order"]) == [0, 1, 2, 3]
    record = api2.ok("GET", f"/api/matches/{mid}/record")
    assert len(record["actions"]) == final["ply"]


@pytest.mark.parametrize("game_id", ["scrap-racer", "brc-grand-prix", "rev-it-up"])
def test_a_real_games_match_resumes_after_sigkill(
    game_id: str, db: str, tmp_path: Path, servers: list[Server]
) -> None:
    """Every real game's options are stored with their defaults (``content`` among them): a restart loads
    the match from them, at the same ply for every seat, and it plays on to the end."""
    srv, api = run_server(servers, db, tmp_path)
    made = api.ok("POST", "/api/matches", json={"game": game_id, "players": 2, "bots": {"1": "random"}})
    mid = made["id"]
    token = api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "me"})["token"]
    api.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    for _ in range(6):
        st = api.wait(mid, token, lambda s: bool(s["legal"]) or s["result"] is not None)
        if st["result"] is not None:
            break
        api.ok("POST", f"/api/matches/{mid}/actions", token, json={"action": st["legal"][0], "ply": st["ply"]})
    # the bot's own pending choice (a simultaneous one) is made before the kill: after it, nothing is left
    # for the server to do until seat 0 acts
    before = api.wait(
        mid, token, lambda s: (bool(s["legal"]) and s["actor"]["seats"] == [0]) or s["result"] is not None
    )
    srv.kill()

    _srv2, api2 = run_server(servers, db, tmp_path)
    after = api2.state(mid, token)
    assert api2.ok("GET", f"/api/matches/{mid}")["status"] == "running"
    assert {k: after[k] for k in ("ply", "view", "legal")} == {k: before[k] for k in ("ply", "view", "legal")}
    for _ in range(5000):
        st = api2.wait(mid, token, lambda s: bool(s["legal"]) or s["result"] is not None, timeout=30)
        if st["result"] is not None:
            break
        api2.ok("POST", f"/api/matches/{mid}/actions", token, json={"action": st["legal"][0], "ply": st["ply"]})
    assert api2.ok("GET", f"/api/matches/{mid}")["status"] == "finished"
