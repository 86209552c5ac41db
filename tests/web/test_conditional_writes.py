"""Issue 26, point 1: with two server processes on one database, every write is conditional on the match
as the process saw it (its revision, and the moves: how many, and the last one). Here process B never
looks at the database by itself (its peer poll is an hour), so it is always behind A: each action kind
reaches B after A changed the match, and B must catch up and decide again instead of overwriting A's
change. Nothing A acknowledged is ever lost, and both processes end up telling the same match."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slipstream.web.storage import Store
from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, one_ending, ws_open, ws_until
from tests.web.test_postgres import pg_database  # noqa: F401 - the fixture


def two_processes(tmp_path: Path, poll: str, db: str | None = None) -> Iterator[tuple[Server, Server]]:
    db = db or str(tmp_path / "shared.sqlite3")
    env = {**ROOMY, "SLIPSTREAM_PEER_POLL": poll}
    started: list[Server] = []
    try:
        for name in ("a", "b"):
            started.append(Server(db, tmp_path / f"{name}.log", env=env).start())
        yield started[0], started[1]
    finally:
        for srv in started:
            srv.stop()


@pytest.fixture
def behind(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Processes A and B on one SQLite file that catch up only when a write of their own is refused."""
    yield from two_processes(tmp_path, "3600")


@pytest.fixture(params=["sqlite", "postgresql"])
def behind_on_both(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """``behind``, on SQLite and on PostgreSQL."""
    db = None if request.param == "sqlite" else request.getfixturevalue("pg_database")
    yield from two_processes(tmp_path, "3600", db)


@pytest.fixture
def peers(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Processes A and B on one SQLite file, each looking for the other's changes every 0.1 s."""
    yield from two_processes(tmp_path, "0.1")


def stored_moves(server: Server, mid: str) -> list[tuple[int, str, int | None]]:
    store = Store(server.database_url)
    try:
        data = store.load(mid)
    finally:
        store.close()
    assert data is not None
    return [(m.ply, m.action, m.seat) for m in data.moves]


def choosing(api: Api, mid: str, token: str) -> dict[str, Any]:
    return api.wait(mid, token, lambda s: s["view"]["phase"] == "choose" and bool(s["legal"]))


def same_match(a: Api, b: Api, mid: str, tokens: list[str]) -> None:
    for token in (None, *tokens):
        seen_a, seen_b = a.state(mid, token), b.state(mid, token)
        keys = ("ply", "view", "legal", "match")
        assert {k: seen_a[k] for k in keys} == {k: seen_b[k] for k in keys}


def test_an_undo_reaching_a_process_behind_keeps_the_acknowledged_move(
    behind_on_both: tuple[Server, Server],
) -> None:
    """Ann chooses through B; Bob's choice, through A, closes the window (acknowledged to Bob), and Ann
    rolls through A: a public die. Ann's undo then reaches B, which still holds her choice as the last step: the
    take-back is conditional on the stored moves being those B holds, so nothing is deleted; B catches up
    and refuses (the match has moved on). Bob's move and the dice stay, and nobody re-rolls them. On SQLite
    and on PostgreSQL."""
    behind = behind_on_both
    a, b = behind[0].client(), behind[1].client()
    mid, _host, (ann, bob) = a.new_match(players=2, humans=2, length=30)
    st = choosing(a, mid, ann)
    b.state(mid, ann)  # B loads the match now (and then never looks again by itself)
    b.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:dash", "ply": st["ply"]})
    bob_st = a.state(mid, bob)  # A does not know Ann's choice yet: Bob acts on the ply A shows
    ack = a.ok("POST", f"/api/matches/{mid}/actions", bob, json={"action": "1:walk", "ply": bob_st["ply"]})
    roll = a.wait(mid, ann, lambda s: s["legal"] == ["roll"])
    a.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "roll", "ply": roll["ply"]})
    kept = stored_moves(behind[0], mid)
    assert kept[st["ply"] + 1 : st["ply"] + 3] == [(st["ply"] + 1, "1:walk", 1), (st["ply"] + 2, "roll", 0)]
    assert kept[st["ply"] + 3][1].startswith("die:"), "the public die after the roll"
    assert b.state(mid, ann)["can_undo"], "B is behind: it still offers Ann her step back"
    status, body = b.call("POST", f"/api/matches/{mid}/undo", ann, json={"ply": st["ply"] + 1})
    assert status == 409 and body["error"]["code"] in ("stale", "cannot_undo"), body
    assert stored_moves(behind[0], mid)[: len(kept)] == kept, "every acknowledged move is still stored"
    assert ack["ply"] >= st["ply"] + 1
    assert not b.state(mid, ann)["can_undo"], "B has caught up: Bob's step came after Ann's"
    same_match(a, b, mid, [ann, bob])


def test_two_processes_give_one_seat_to_one_player(behind: tuple[Server, Server]) -> None:
    """The same seat joined through A and through B: one player gets it, the other is told it is taken
    (B used to overwrite A's player, whose token then silently stopped working)."""
    a, b = behind[0].client(), behind[1].client()
    made = a.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
    mid = made["id"]
    b.ok("GET", f"/api/matches/{mid}")  # B loads the open match
    ann = a.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
    status, body = b.call("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Mallory"})
    assert (status, body["error"]["code"]) == (409, "seat_taken"), body
    assert b.state(mid, ann)["seat"] == 0 and a.state(mid, ann)["seat"] == 0, "Ann's token holds the seat"


def test_a_seat_change_through_one_process_is_not_undone_by_the_other(behind: tuple[Server, Server]) -> None:
    """The host puts a bot in seat 2 through A; a player joining seat 2 through B (which still shows it
    open) is refused; the host starts through A, and emptying a seat of the running match through B is
    refused as for a running match."""
    a, b = behind[0].client(), behind[1].client()
    made = a.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
    mid, host = made["id"], made["host_token"]
    b.ok("GET", f"/api/matches/{mid}")
    a.ok("POST", f"/api/matches/{mid}/seats/1/bot", host, json={"bot": "random"})
    status, body = b.call("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Mallory"})
    assert (status, body["error"]["code"]) == (409, "seat_taken"), body
    ann = b.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
    a.ok("POST", f"/api/matches/{mid}/start", host)  # A is behind now: it catches up, then starts
    status, body = b.call("POST", f"/api/matches/{mid}/seats/0/bot", host, json={"bot": None})
    assert (status, body["error"]["code"]) == (409, "not_open"), body
    assert [s["kind"] for s in a.state(mid)["match"]["seats"]] == ["human", "bot"]
    assert b.state(mid, ann)["match"]["status"] == "running"


def test_a_resignation_through_a_process_behind_keeps_the_other_processes_moves(
    behind: tuple[Server, Server],
) -> None:
    a, b = behind[0].client(), behind[1].client()
    mid, _host, (ann, bob) = a.new_match(players=2, humans=2, length=30)
    st = choosing(a, mid, ann)
    b.state(mid, ann)
    a.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:dash", "ply": st["ply"]})
    before = stored_moves(behind[0], mid)
    b.ok("POST", f"/api/matches/{mid}/resign", bob, json={})
    assert stored_moves(behind[0], mid)[: len(before)] == before
    assert b.state(mid, ann)["view"]["chosen"][0], "B caught up with Ann's choice before resigning Bob"
    final = b.play_out(mid, [ann])
    assert final["result"]["details"]["resigned"] == [1]
    assert [m[1] for m in stored_moves(behind[0], mid)] == b.ok("GET", f"/api/matches/{mid}/record")["actions"]


def test_a_rematch_asked_through_both_processes_at_once_is_one_rematch(peers: tuple[Server, Server]) -> None:
    """Ann asks for the rematch through A and Bob through B at the same moment: one rematch, each in
    their seat, and it starts once both are in, whichever process took the last seat."""
    a, b = peers[0].client(), peers[1].client()
    mid, _host, (ann, bob) = a.new_match(players=2, humans=2, length=4)
    a.play_out(mid, [ann, bob])
    b.wait(mid, None, lambda s: s["result"] is not None, timeout=10)
    answers: dict[str, tuple[int, Any]] = {}

    def ask(name: str, api: Api, token: str) -> None:
        answers[name] = api.call("POST", f"/api/matches/{mid}/rematch", token, json={})

    threads = [threading.Thread(target=ask, args=args) for args in (("ann", a, ann), ("bob", b, bob))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (status_a, made_a), (status_b, made_b) = answers["ann"], answers["bob"]
    assert (status_a, status_b) == (201, 201), answers
    assert made_a["id"] == made_b["id"], "one rematch"
    nxt = made_a["id"]
    assert (made_a["seat"], made_b["seat"]) == (0, 1)
    for api in (a, b):
        st = api.wait(nxt, None, lambda s: s["match"]["status"] == "running", timeout=10)
        assert [s["kind"] for s in st["match"]["seats"]] == ["human", "human"]
    assert a.state(nxt, made_b["token"])["seat"] == 1 and b.state(nxt, made_a["token"])["seat"] == 0


def test_actions_alternating_processes_keep_one_match(behind: tuple[Server, Server], toy: str) -> None:
    """Every kind of step through alternating processes, each arriving at the one behind: acts, an undo,
    seat changes, a resignation; both processes end with the same match and the record replays."""
    from slipstream.engine.record import replay

    a, b = behind[0].client(), behind[1].client()
    made = b.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 3, "options": {"length": 10}})
    mid, host = made["id"], made["host_token"]
    ann = a.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})["token"]
    bob = b.ok("POST", f"/api/matches/{mid}/seats/1/join", json={"name": "Bob"})["token"]
    a.ok("POST", f"/api/matches/{mid}/seats/2/bot", host, json={"bot": "random"})
    b.ok("POST", f"/api/matches/{mid}/start", host)
    tokens = [ann, bob]
    undone = 0
    for turn in range(400):
        api = (a, b)[turn % 2]
        for seat, token in enumerate(tokens):
            st = api.state(mid, token)
            if st["result"] is not None:
                break
            if not st["legal"]:
                continue
            pick = next((x for x in st["legal"] if x.endswith("dash")), st["legal"][0])
            move = {"action": pick, "ply": st["ply"]}
            status, body = api.call("POST", f"/api/matches/{mid}/actions", token, json=move)
            assert status == 200 or body["error"]["code"] in ("stale", "not_your_turn"), body
            if status == 200 and seat == 0 and undone < 3:
                other = (b, a)[turn % 2]
                status, body = other.call("POST", f"/api/matches/{mid}/undo", token, json={"ply": body["ply"]})
                assert status == 200 or body["error"]["code"] in ("stale", "cannot_undo"), body
                undone += status == 200
        if turn == 6:
            (b, a)[turn % 2].ok("POST", f"/api/matches/{mid}/resign", bob, json={})
            tokens = [ann]
        if a.state(mid)["result"] is not None:
            break
    final, record = one_ending(a, b, mid)
    assert [m[1] for m in stored_moves(behind[0], mid)] == record["actions"]
    assert replay(record).view(None) == final["view"]


def test_a_rematch_starts_when_its_last_seat_is_taken_through_a_process_behind(
    behind: tuple[Server, Server],
) -> None:
    """The host makes the rematch through A and B loads it; Ann takes her seat through A, then Bob his
    through B, which still shows Ann's seat open: B catches up before storing Bob's seat, so it knows
    every seat is taken and starts the rematch (it used to wait for a seat already taken, for ever)."""
    a, b = behind[0].client(), behind[1].client()
    mid, host, (ann, bob) = a.new_match(players=2, humans=2, length=4)
    a.play_out(mid, [ann, bob])
    nxt = a.ok("POST", f"/api/matches/{mid}/rematch", host, json={})["id"]
    assert b.ok("GET", f"/api/matches/{nxt}")["status"] == "open"
    first = a.ok("POST", f"/api/matches/{mid}/rematch", ann, json={})
    second = b.ok("POST", f"/api/matches/{mid}/rematch", bob, json={})
    assert first["id"] == second["id"] == nxt and (first["seat"], second["seat"]) == (0, 1)
    assert second["match"]["status"] == "running"
    assert [s["kind"] for s in second["match"]["seats"]] == ["human", "human"]
    assert b.state(nxt, first["token"])["seat"] == 0, "Ann's token holds her seat in B too"


def test_a_claim_reaching_a_process_behind_counts_the_step_the_other_stored(tmp_path: Path) -> None:
    """Ann's page is on B, which loaded the race and then never looks at the database by itself; Bob plays
    through A over REST (no socket anywhere). Past the grace period, Bob steps through A and at once Ann
    claims the win through B: B's resignation of Bob's seat is conditional on the moves it holds (and it
    reads the other processes' sightings first), so it catches up, finds Bob's step and refuses; Bob keeps
    his seat, and both processes tell the same match (B used to resign Bob, who had just played)."""
    from tests.web.test_claim import GRACE
    from tests.web.test_fairness import claimed

    db = str(tmp_path / "shared.sqlite3")
    env = {**ROOMY, "SLIPSTREAM_PEER_POLL": "3600", "SLIPSTREAM_LIMIT_CLAIM_GRACE": str(GRACE)}
    started: list[Server] = []
    try:
        for name in ("a", "b"):
            started.append(Server(db, tmp_path / f"{name}.log", env=env).start())
        a, b = started[0].client(), started[1].client()
        mid, _host, (ann, bob) = a.new_match(players=2, humans=2, length=200)
        with ws_open(started[1], mid, ann) as ws_ann:
            ws_until(ws_ann, lambda m: m["type"] == "state")
            time.sleep(GRACE + 0.5)  # B has seen nothing of Bob since it loaded the race
            for token, choice in ((ann, "0:dash"), (bob, "1:walk")):
                st = choosing(a, mid, token)
                a.ok("POST", f"/api/matches/{mid}/actions", token, json={"action": choice, "ply": st["ply"]})
            answer = claimed(ws_ann)
            assert answer["type"] == "error" and answer["code"] == "cannot_claim", answer
        assert [s["kind"] for s in b.state(mid)["match"]["seats"]] == ["human", "human"]
        same_match(a, b, mid, [ann, bob])
    finally:
        for srv in started:
            srv.stop()
