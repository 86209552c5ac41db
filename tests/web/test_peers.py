"""Two server processes on one database serve one match consistently (issue 14, Load): the database is
the shared truth, a ply one process stored first makes the other catch up and check the action again,
and each process catches up with the other's moves, so both tell every seat the same match."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.record import replay
from slipstream.web.protocol import sent_view
from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, one_ending


@pytest.fixture
def peers(tmp_path: Path) -> Iterator[list[Server]]:
    db = str(tmp_path / "shared.sqlite3")
    env = {**ROOMY, "SLIPSTREAM_PEER_POLL": "0.1"}
    started = []
    try:
        for name in ("a", "b"):
            started.append(Server(db, tmp_path / f"{name}.log", env=env).start())
        yield started
    finally:
        for srv in started:
            srv.stop()


def test_two_processes_serve_one_match_consistently(peers: list[Server]) -> None:
    a, b = peers[0].client(), peers[1].client()
    made = a.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "options": {"length": 12}})
    mid = made["id"]
    tokens = [
        a.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "ann"})["token"],
        b.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "bob"})["token"],
    ]
    b.wait(mid, None, lambda s: [x["kind"] for x in s["match"]["seats"]] == ["human", "human"], timeout=10)
    b.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
    a.wait(mid, None, lambda s: s["match"]["status"] == "running", timeout=10)

    def act(api: Api, token: str, out: list[Any]) -> None:
        st = api.state(mid, token)
        if st["legal"] and st["result"] is None:
            pick = next((x for x in st["legal"] if x.endswith("dash")), st["legal"][0])
            out.append(api.call("POST", f"/api/matches/{mid}/actions", token, json={"action": pick, "ply": st["ply"]}))

    for turn in range(400):
        # both seats act at once, each through "its" process, which swap every turn
        apis = (a, b) if turn % 2 else (b, a)
        answers: list[Any] = []
        threads = [threading.Thread(target=act, args=(apis[s], tokens[s], answers)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for status, body in answers:
            assert status == 200 or body["error"]["code"] in ("stale", "not_your_turn", "not_running"), body
        if a.state(mid)["result"] is not None:
            break
    one_ending(a, b, mid, timeout=10)


def test_an_undo_in_one_process_is_seen_in_the_other(peers: list[Server]) -> None:
    """Ann's choice is taken back through process A: process B, which told Bob she had chosen, shows
    the match without it (and accepts her new choice), so the two never fork."""
    a, b = peers[0].client(), peers[1].client()
    mid, _host, (ann, bob) = a.new_match(players=2, humans=2, length=30)
    st = a.wait(mid, ann, lambda s: s["view"]["phase"] == "choose" and bool(s["legal"]), timeout=10)
    a.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:dash", "ply": st["ply"]})
    b.wait(mid, bob, lambda s: s["view"]["chosen"] == [True, False], timeout=10)
    a.ok("POST", f"/api/matches/{mid}/undo", ann, json={"ply": st["ply"] + 1})
    back = b.wait(mid, bob, lambda s: s["view"]["chosen"] == [False, False], timeout=10)
    assert back["ply"] == st["ply"]
    again = b.state(mid, ann)
    assert again["legal"] == ["0:dash", "0:walk"]
    b.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:walk", "ply": again["ply"]})
    b.ok("POST", f"/api/matches/{mid}/actions", bob, json={"action": "1:walk", "ply": again["ply"] + 1})
    final = a.wait(mid, None, lambda s: s["view"]["last_choices"] == ["walk", "walk"], timeout=10)
    assert final["view"] == b.state(mid)["view"]


@pytest.mark.parametrize("where", ["one process", "two processes"])
def test_an_undone_hidden_step_is_as_if_nothing_had_happened_for_others(peers: list[Server], where: str) -> None:
    """Issue 15: Ann's secret cart step (Rev it Up's buying phase) and its undo, through process A: Bob and
    a spectator, connected to A (one process) or to B (which catches up from the database), are sent
    nothing at all, neither for the step nor for its undo, and their state is as before; Ann's own
    view is back to before the step."""
    from tests.web.server import ws_open, ws_quiet, ws_until
    from tests.web.test_hidden_info import reach_buying

    a = peers[0].client()
    watched = peers[0] if where == "one process" else peers[1]
    mid, _host, (ann, bob) = a.new_match(game="rev-it-up", players=2, humans=2)
    reach_buying(a, mid, [ann, bob])
    ann_before = a.state(mid, ann)
    others_before = {t: a.state(mid, t) for t in (bob, None)}
    time.sleep(0.5)  # B has caught up with the race so far
    with ws_open(watched, mid, bob) as ws_bob, ws_open(watched, mid, None) as ws_watcher:
        for ws in (ws_bob, ws_watcher):
            ws_until(ws, lambda m: m["type"] == "state")
        buy = next(x for x in ann_before["legal"] if ":buy:" in x)
        a.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": buy, "ply": ann_before["ply"]})
        mine = a.state(mid, ann)
        assert mine["ply"] == ann_before["ply"] + 1 and mine["can_undo"]
        time.sleep(0.5)  # B has caught up with the step
        undone = a.ok("POST", f"/api/matches/{mid}/undo", ann, json={"ply": mine["ply"]})
        assert undone["ply"] == ann_before["ply"]
        time.sleep(0.5)  # several of B's looks at the database
        for ws in (ws_bob, ws_watcher):
            ws_quiet(ws, 1.0)
    keys = ("ply", "view", "legal", "actor")
    for token, before in others_before.items():
        now = watched.client().state(mid, token)
        assert {k: now[k] for k in keys} == {k: before[k] for k in keys}
    assert {k: a.state(mid, ann)[k] for k in keys} == {k: ann_before[k] for k in keys}


@pytest.mark.parametrize("game_id", ["scrap-racer", "highway-heist"])
def test_two_processes_serve_one_real_match_consistently(peers: list[Server], game_id: str) -> None:
    """A real game through both processes at once (issue 14, Load): the server draws its dice, cards and
    bags between the seats' steps, and Highway Heist's team choices are open to both seats at the same
    time, so both seats acting through different processes race for the same ply. Played to the end
    (or, past 300 rounds, ended by a resignation), both processes tell every seat and a spectator the
    same position and keep the same record, and that record replays through the engine to it."""
    a, b = peers[0].client(), peers[1].client()
    mid, _host, tokens = a.new_match(game=game_id, players=2, humans=2)
    b.wait(mid, None, lambda s: s["match"]["status"] == "running", timeout=10)
    answers: list[Any] = []

    def act(api: Api, seat: int) -> None:
        st = api.state(mid, tokens[seat])
        if st["legal"] and st["result"] is None:
            answers.append(
                api.call(
                    "POST",
                    f"/api/matches/{mid}/actions",
                    tokens[seat],
                    json={"action": st["legal"][0], "ply": st["ply"]},
                )
            )

    for turn in range(3000):
        apis = (a, b) if turn % 2 else (b, a)
        threads = [threading.Thread(target=act, args=(apis[s], s)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if a.state(mid)["result"] is not None:
            break
    for status, body in answers:
        assert status == 200 or body["error"]["code"] in ("stale", "not_your_turn", "not_running"), body
    assert sum(status == 200 for status, _ in answers) >= 10, "both processes took real steps"
    finals = [api.wait(mid, None, lambda s: s["result"] is not None, timeout=10) for api in (a, b)]
    for token in (None, *tokens):
        seen_a, seen_b = a.state(mid, token), b.state(mid, token)
        assert [seen_a[k] for k in ("ply", "view", "result")] == [seen_b[k] for k in ("ply", "view", "result")]
    record = a.ok("GET", f"/api/matches/{mid}/record")
    assert record == b.ok("GET", f"/api/matches/{mid}/record"), "one match, the same record in both"
    assert len(record["actions"]) == finals[0]["ply"]
    final = replay(record)
    assert final.is_over and sent_view(final.view(None)) == finals[0]["view"] == finals[1]["view"]
