"""Accounts, sessions, seats of accounts, results and ratings (issue 28), against a real server process
on a real SQLite file: what a player who lasts can do, and what nobody else can do with it."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from slipstream.web.accounts import COOKIE, Accounts
from slipstream.web.hub import ApiError
from slipstream.web.limits import Limits
from slipstream.web.ratings import Finish, Ratings
from slipstream.web.storage import MatchData, SeatData, Store
from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_open, ws_until

LIMITS = {
    **ROOMY,
    "SLIPSTREAM_LIMIT_LOGINS_PER_MINUTE_PER_NAME": "4",
    "SLIPSTREAM_LIMIT_LOGINS_PER_MINUTE_PER_ADDRESS": "12",
    "SLIPSTREAM_LIMIT_SIGNUPS_PER_MINUTE_PER_ADDRESS": "40",
}
PASSWORD = "correct horse battery"
_names = iter(range(10**6))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("accounts")


@pytest.fixture(scope="module")
def server(home: Path) -> Iterator[Server]:
    srv = Server(str(home / "slipstream.sqlite3"), home / "server.log", env=LIMITS).start()
    try:
        yield srv
    finally:
        srv.stop()


def fresh_name(stem: str = "racer") -> str:
    return f"{stem}{next(_names)}_{int(time.time() * 1000) % 100000}"


def player(server: Server, name: str | None = None, address: str | None = None) -> tuple[Api, str]:
    """A client signed up (and so logged in) as a new account: (client, name)."""
    api = server.client(address)
    name = name or fresh_name()
    api.ok("POST", "/api/accounts", json={"name": name, "password": PASSWORD})
    return api, name


def rated_race(server: Server, a: Api, b: Api, game: str = "toy-dash", **body: Any) -> tuple[str, str, list[str]]:
    """A rated two-seat race of ``a`` (seat 1) and ``b`` (seat 2), started: (id, host token, seat tokens)."""
    made = a.ok("POST", "/api/matches", json={"game": game, "players": 2, "rated": True, **body})
    tokens = [
        a.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={"name": "ignored"})["token"],
        b.ok("POST", f"/api/matches/{made['id']}/seats/1/join", json={"name": "ignored"})["token"],
    ]
    a.ok("POST", f"/api/matches/{made['id']}/start", made["host_token"])
    return made["id"], made["host_token"], tokens


def settled(api: Api, name: str, match_id: str, timeout: float = 20.0) -> dict[str, Any]:
    """The player page once it lists ``match_id`` as finished (results are recorded within a second)."""
    deadline = time.monotonic() + timeout
    while True:
        page: dict[str, Any] = api.ok("GET", f"/api/players/{name}")
        if any(row["id"] == match_id for row in page["finished"]):
            return page
        if time.monotonic() > deadline:
            raise AssertionError(f"match {match_id} never reached {name}'s page: {page}")
        time.sleep(0.1)


def rating(page: dict[str, Any], game: str = "toy-dash") -> dict[str, Any]:
    return next(r for r in page["ratings"] if r["game"] == game)


# --- accounts and sessions ---------------------------------------------------------------


def test_sign_up_logs_in_with_a_cookie_that_is_httponly_lax_and_signed(server: Server) -> None:
    api = server.client()
    name = fresh_name("Ann")
    r = api.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201 and r.json() == {"name": name}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags, "served over plain http: a Secure cookie would never come back"
    assert api.ok("GET", "/api/session") == {"name": name}
    # the value is signed: changing one character of the signature makes it a guest's. The first
    # character is changed, not the last: the last base64 character of an HMAC carries spare bits,
    # so changing it can decode to the same signature (it did, 3 times in 64).
    value = api.http.cookies[COOKIE]
    payload, _, signature = value.rpartition(".")
    forged = f"{payload}.{'B' if signature[0] == 'A' else 'A'}{signature[1:]}"
    assert Api(server.url).ok("GET", "/api/session", headers={"Cookie": f"{COOKIE}={forged}"}) == {"name": None}
    assert Api(server.url).ok("GET", "/api/session", headers={"Cookie": f"{COOKIE}={value}"}) == {"name": name}
    # logging out ends the session on the server: the old cookie no longer logs anyone in
    api.ok("DELETE", "/api/session")
    assert api.ok("GET", "/api/session") == {"name": None}
    assert Api(server.url).ok("GET", "/api/session", headers={"Cookie": f"{COOKIE}={value}"}) == {"name": None}
    again = server.client()
    assert again.ok("POST", "/api/session", json={"name": name.upper(), "password": PASSWORD}) == {"name": name}


def test_the_cookie_is_secure_behind_an_https_proxy(home: Path) -> None:
    """A proxy that ends https says so (``X-Forwarded-Proto``): the cookie is then Secure."""
    srv = Server(str(home / "proxied.sqlite3"), home / "proxied.log", env=LIMITS,
                 args=["--forwarded-allow-ips", "127.0.0.1"]).start()
    try:
        r = httpx.post(f"{srv.url}/api/accounts", json={"name": fresh_name(), "password": PASSWORD},
                       headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
        assert r.status_code == 201, r.text
        assert "secure" in [part.strip().lower() for part in r.headers["set-cookie"].split(";")]
    finally:
        srv.stop()


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(server: Server) -> None:
    _api, name = player(server)
    answers = []
    for who, password in ((name, "not the password"), (fresh_name("nobody"), "not the password"),
                          (name, ""), ("<b>", PASSWORD)):
        r = server.client("127.0.0.7").http.post("/api/session", json={"name": who, "password": password})
        answers.append((r.status_code, r.text, r.headers.get("set-cookie")))
    assert answers[0][0] == 401 and answers[0][2] is None and '"bad_login"' in answers[0][1]
    assert all(answer == answers[0] for answer in answers), answers


def test_login_attempts_are_limited_per_name_and_per_address(server: Server) -> None:
    """The buckets start full (4 a name, 12 an address here) and refill evenly, one every 15 s and 5 s:
    the first attempts are answered, then refused with at most a refill's worth let through."""
    _api, name = player(server)
    codes = [server.client("127.0.0.8").call("POST", "/api/session", json={"name": name, "password": "wrong one!"})[0]
             for _ in range(8)]
    assert codes[:4] == [401] * 4 and codes.count(429) >= 3, codes
    # the right password is refused too while the name is held: guessing cannot go on from elsewhere
    status, body = server.client("127.0.0.9").call("POST", "/api/session", json={"name": name, "password": PASSWORD})
    assert status == 429 and body["error"]["code"] == "too_many", body
    # one address trying many names
    codes = [server.client("127.0.0.10").call("POST", "/api/session",
                                              json={"name": fresh_name("guess"), "password": "wrong one!"})[0]
             for _ in range(20)]
    assert codes[:12] == [401] * 12 and codes.count(429) >= 4, codes


@pytest.mark.parametrize(
    "name", ["ab", "x" * 25, "has space", "<script>", "émile", "a/b", "", "Ann\n"]
)
def test_names_are_checked(server: Server, name: str) -> None:
    status, body = server.client().call("POST", "/api/accounts", json={"name": name, "password": PASSWORD})
    assert status == 400 and body["error"]["code"] in ("bad_name", "bad_request"), body
    assert name not in body["error"]["message"] or not name, "the bad name is not repeated back"


def test_a_name_is_taken_in_any_case_and_passwords_have_a_length(server: Server) -> None:
    name = fresh_name("Cara")
    player(server, name)
    status, body = server.client().call("POST", "/api/accounts", json={"name": name.lower(), "password": PASSWORD})
    assert status == 409 and body["error"]["code"] == "name_taken"
    status, body = server.client().call("POST", "/api/accounts", json={"name": fresh_name(), "password": "short"})
    assert status == 400 and body["error"]["code"] == "bad_password"


def test_passwords_are_never_stored_or_logged_in_clear(server: Server, home: Path) -> None:
    secret = "Tr0ub4dor&3-unique-" + fresh_name()
    api = server.client()
    name = fresh_name()
    api.ok("POST", "/api/accounts", json={"name": name, "password": secret})
    server.client().call("POST", "/api/session", json={"name": name, "password": secret})
    server.client().call("POST", "/api/session", json={"name": name, "password": secret + "x"})
    db = sqlite3.connect(home / "slipstream.sqlite3")
    try:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in db.execute(f'SELECT * FROM "{table}"'):
                assert not any(isinstance(v, str) and secret in v for v in row), (table, row)
        (stored,) = db.execute("SELECT password_hash FROM accounts WHERE key = ?", (name.casefold(),)).fetchone()
    finally:
        db.close()
    assert stored.startswith("$argon2id$"), "argon2id, as argon2-cffi hashes"
    assert secret not in (home / "server.log").read_text(errors="replace")


def test_a_cookie_without_a_seat_token_acts_for_nobody(server: Server) -> None:
    """A seat acts with its token; a session cookie alone (its own player's or another's) does not,
    and one player's page shows their races now to them only."""
    ann, ann_name = player(server)
    bob, bob_name = player(server)
    match_id, _host, _tokens = rated_race(server, ann, bob)
    ply = ann.state(match_id)["ply"]
    for api in (ann, bob):
        status, body = api.call("POST", f"/api/matches/{match_id}/actions", json={"action": "0:dash", "ply": ply})
        assert status == 401 and body["error"]["code"] == "bad_token"
        status, body = api.call("POST", f"/api/matches/{match_id}/resign", json={})
        assert status == 401 and body["error"]["code"] == "bad_token"
    own = ann.ok("GET", f"/api/players/{ann_name}")
    assert own["you"] and [row["id"] for row in own["active"]] == [match_id]
    seen_by_bob = bob.ok("GET", f"/api/players/{ann_name}")
    assert not seen_by_bob["you"] and seen_by_bob["active"] == []
    assert server.client().ok("GET", f"/api/players/{ann_name}")["active"] == []
    assert bob.ok("GET", f"/api/players/{bob_name}")["active"][0]["id"] == match_id


def test_a_player_takes_their_seat_to_another_device_and_nobody_else_can(server: Server) -> None:
    ann, ann_name = player(server)
    bob, _bob_name = player(server)
    match_id, _host, (old_token, bob_token) = rated_race(server, ann, bob)
    laptop = server.client()
    laptop.ok("POST", "/api/session", json={"name": ann_name, "password": PASSWORD})
    path = f"/api/matches/{match_id}/seats/0/resume"
    for stranger, status in ((bob, 403), (server.client(), 401)):
        answer, body = stranger.call("POST", path)
        assert answer == status, body
    answer, _body = laptop.call("POST", f"/api/matches/{match_id}/seats/1/resume")
    assert answer == 403, "Bob's seat is not Ann's"
    with ws_open(server, match_id, old_token) as old_socket:
        ws_until(old_socket, lambda m: m.get("type") == "state")
        moved = laptop.ok("POST", path)
        notice = ws_until(old_socket, lambda m: m.get("type") == "seat_lost")
        assert "another device" in notice["message"]
    assert laptop.state(match_id, moved["token"])["seat"] == 0
    status, body = ann.call("GET", f"/api/matches/{match_id}/state", old_token)
    assert status == 403 and body["error"]["code"] == "bad_token", "the old device's token stopped working"
    assert ann.state(match_id, bob_token)["seat"] == 1, "Bob's seat is untouched"
    final = ann.play_out(match_id, [moved["token"], bob_token])
    assert final["match"]["seats"][0]["name"] == ann_name


# --- seats of accounts and rated races ---------------------------------------------------


def test_a_seat_joined_logged_in_takes_the_account_name_and_hot_seat_still_works(server: Server) -> None:
    ann, ann_name = player(server)
    made = ann.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 3})
    joined = ann.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={"name": "Somebody else"})
    assert joined["match"]["seats"][0]["name"] == ann_name
    hot_seat = ann.ok("POST", f"/api/matches/{made['id']}/seats/1/join", json={"name": "Second"})
    assert hot_seat["match"]["seats"][1]["name"] == "Second", "a second seat of one device joins as a guest"
    guest = server.client().ok("POST", f"/api/matches/{made['id']}/seats/2/join", json={"name": "Guest"})
    assert guest["match"]["seats"][2]["name"] == "Guest", "guests join as before"
    seats = server.client().ok("GET", f"/api/matches/{made['id']}/accounts")
    assert seats == {"rated": False, "seats": {"0": ann_name}}
    rated = ann.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "rated": True})
    ann.ok("POST", f"/api/matches/{rated['id']}/seats/0/join", json={})
    status, body = ann.call("POST", f"/api/matches/{rated['id']}/seats/1/join", json={"name": "Second"})
    assert status == 409 and body["error"]["code"] == "one_seat", "a rated race: one seat an account"


def test_a_guest_may_not_pass_for_a_player_with_an_account(server: Server) -> None:
    """A guest (or a second seat of one device) may not join under a name an account holds, in any
    case: the join is refused and the seat stays open; a free name still joins."""
    _ann, ann_name = player(server)
    bob, _bob_name = player(server)
    made = server.client().ok("POST", "/api/matches", json={"game": "toy-dash", "players": 3})
    path = f"/api/matches/{made['id']}/seats"
    for client, seat, name in ((server.client(), 0, ann_name), (server.client(), 0, ann_name.upper())):
        status, body = client.call("POST", f"{path}/{seat}/join", json={"name": name})
        assert status == 409 and body["error"]["code"] == "name_taken", body
    bob.ok("POST", f"{path}/1/join", json={})
    status, body = bob.call("POST", f"{path}/2/join", json={"name": f" {ann_name} "})
    assert status == 409 and body["error"]["code"] == "name_taken", "a hot-seat guest seat too"
    seats = server.client().ok("GET", f"/api/matches/{made['id']}")["seats"]
    assert [seat["kind"] for seat in seats].count("open") == 2, "the refused seats stay open"
    joined = server.client().ok("POST", f"{path}/0/join", json={"name": "Ann the guest"})
    assert joined["match"]["seats"][0]["name"] == "Ann the guest"


def test_a_rated_race_takes_accounts_only_and_never_a_cooperative_game(server: Server) -> None:
    ann, _ = player(server)
    made = ann.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "rated": True})
    status, body = server.client().call("POST", f"/api/matches/{made['id']}/seats/1/join", json={"name": "Guest"})
    assert status == 401 and body["error"]["code"] == "account_needed"
    assert ann.state(made["id"])["match"]["seats"][1]["kind"] == "open", "the refused join changed nothing"
    status, body = ann.call("POST", "/api/matches", json={"game": "highway-heist", "players": 2, "rated": True})
    assert status == 400 and "cooperative" in body["error"]["message"]


def test_two_accounts_race_rated_and_both_ratings_move(server: Server) -> None:
    ann, ann_name = player(server)
    bob, bob_name = player(server)
    match_id, _host, tokens = rated_race(server, ann, bob)
    final = ann.play_out(match_id, tokens)
    winner = final["result"]["order"][0]
    pages = [settled(ann, ann_name, match_id), settled(bob, bob_name, match_id)]
    for seat, page in enumerate(pages):
        row = next(r for r in page["finished"] if r["id"] == match_id)
        assert row["place"] == (1 if seat == winner else 2) and row["players"] == 2 and row["rated"]
        got = rating(page)
        assert got["matches"] == 1
        assert (got["mu"] > 25) == (seat == winner), got
        assert got["sigma"] < 25 / 3, "a race makes the rating surer"
        assert got["spread"] == pytest.approx(2 * got["sigma"], abs=0.02)
    board = ann.ok("GET", "/api/leaderboard/toy-dash")["rows"]
    names = [r["name"] for r in board]
    assert names.index((ann_name, bob_name)[winner]) < names.index((ann_name, bob_name)[1 - winner])


def test_a_player_who_resigns_a_rated_race_is_rated_last(server: Server) -> None:
    """A resigned seat is ranked last in the result the server reports, and so in the ratings, even
    when the bot that plays it on would have won."""
    ann, ann_name = player(server)
    bob, bob_name = player(server)
    match_id, _host, tokens = rated_race(server, ann, bob, options={"length": 30})
    ann.ok("POST", f"/api/matches/{match_id}/resign", tokens[0], json={})
    final = ann.play_out(match_id, [tokens[1]], choose="walk")  # Bob walks: Ann's bot dashes ahead
    assert final["result"]["details"]["race_order"][0] == 0, "the bot in Ann's seat crossed first"
    ann_page, bob_page = settled(ann, ann_name, match_id), settled(bob, bob_name, match_id)
    assert next(r for r in ann_page["finished"] if r["id"] == match_id)["place"] == 2
    assert next(r for r in bob_page["finished"] if r["id"] == match_id)["place"] == 1
    assert rating(ann_page)["mu"] < 25 < rating(bob_page)["mu"]


def test_a_rematch_keeps_the_accounts_seats_and_is_not_rated(server: Server) -> None:
    ann, ann_name = player(server)
    bob, bob_name = player(server)
    match_id, _host, tokens = rated_race(server, ann, bob)
    ann.play_out(match_id, tokens)
    rated = rating(settled(ann, ann_name, match_id))
    again = [api.ok("POST", f"/api/matches/{match_id}/rematch", token, json={})
             for api, token in ((ann, tokens[0]), (bob, tokens[1]))]
    rematch_id = again[0]["id"]
    assert again[1]["id"] == rematch_id
    seats = ann.ok("GET", f"/api/matches/{rematch_id}/accounts")
    assert seats == {"rated": False, "seats": {"0": ann_name, "1": bob_name}}
    ann.play_out(rematch_id, [again[0]["token"], again[1]["token"]])
    page = settled(ann, ann_name, rematch_id)
    row = next(r for r in page["finished"] if r["id"] == rematch_id)
    assert not row["rated"] and rating(page) == rated
    assert any(r["id"] == rematch_id for r in settled(bob, bob_name, rematch_id)["finished"])


def test_a_bot_is_an_anchor_and_an_unrated_race_changes_no_rating(server: Server) -> None:
    ann, ann_name = player(server)
    made = ann.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "rated": True,
                                                 "bots": {"1": "random"}})
    token = ann.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={})["token"]
    ann.ok("POST", f"/api/matches/{made['id']}/start", made["host_token"])
    ann.play_out(made["id"], [token])
    page = settled(ann, ann_name, made["id"])
    assert rating(page)["matches"] == 1 and rating(page)["mu"] != 25
    made = ann.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "bots": {"1": "random"}})
    token = ann.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={})["token"]
    ann.ok("POST", f"/api/matches/{made['id']}/start", made["host_token"])
    ann.play_out(made["id"], [token])
    page = settled(ann, ann_name, made["id"])
    assert rating(page)["matches"] == 1, "an unrated race is listed but rates nobody"
    row = next(r for r in page["finished"] if r["id"] == made["id"])
    assert not row["rated"] and row["change"] is None


def test_a_seat_the_host_empties_before_the_start_is_no_longer_the_account(server: Server) -> None:
    ann, ann_name = player(server)
    bob, bob_name = player(server)
    made = ann.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "rated": True})
    ann.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={})
    bob.ok("POST", f"/api/matches/{made['id']}/seats/1/join", json={})
    ann.ok("POST", f"/api/matches/{made['id']}/seats/1/bot", made["host_token"], json={"bot": None})
    assert [r["id"] for r in bob.ok("GET", f"/api/players/{bob_name}")["active"]] == []
    assert [r["id"] for r in ann.ok("GET", f"/api/players/{ann_name}")["active"]] == [made["id"]]


def test_ratings_survive_a_restart_and_are_applied_once(server: Server, home: Path) -> None:
    ann, ann_name = player(server)
    bob, _bob_name = player(server)
    match_id, _host, tokens = rated_race(server, ann, bob)
    ann.play_out(match_id, tokens)
    before = rating(settled(ann, ann_name, match_id))
    server.kill()
    server.start(port=server.port)  # the same address: the clients' cookies still apply
    time.sleep(1.5)  # a settling pass or more of the new process
    after = ann.ok("GET", f"/api/players/{ann_name}")
    assert after["you"], "the session outlives the restart (its secret is kept in the database)"
    assert rating(after) == before
    assert [r["id"] for r in after["finished"]].count(match_id) == 1
    # two more processes on the same database settle the same match at once: neither changes anything
    store = Store(str(home / "slipstream.sqlite3"))
    try:
        ratings = [Ratings(SimpleNamespace(store=store), Accounts(store, Limits())) for _ in range(2)]  # type: ignore[arg-type]
        finish = Finish(match_id, "toy-dash", {}, {0: 2, 1: 1}, team=False, won=False)
        done: list[bool] = []
        threads = [threading.Thread(target=lambda r=r: done.append(r.settle(finish))) for r in ratings]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert done == [False, False]
    finally:
        store.close()
    assert rating(ann.ok("GET", f"/api/players/{ann_name}")) == before


def test_two_server_processes_on_one_database_rate_a_race_once(tmp_path: Path) -> None:
    """Both processes look for finished races to settle every second; the race is rated once, and a
    player logged in on one process is logged in on the other (the session secret is the database's)."""
    db = str(tmp_path / "two.sqlite3")
    env = {**LIMITS, "SLIPSTREAM_PEER_POLL": "0.1"}
    first = Server(db, tmp_path / "first.log", env=env).start()
    second = Server(db, tmp_path / "second.log", env=env).start()
    try:
        ann, ann_name = player(first)
        bob, _bob_name = player(first)
        match_id, _host, tokens = rated_race(first, ann, bob)
        ann.play_out(match_id, tokens)
        page = settled(ann, ann_name, match_id)
        time.sleep(2.5)  # both processes have looked at least twice since
        cookie = ann.http.cookies[COOKIE]
        elsewhere = second.client()
        seen = elsewhere.ok("GET", f"/api/players/{ann_name}", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert seen["you"] and rating(seen) == rating(page) and rating(seen)["matches"] == 1
    finally:
        first.stop()
        second.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM settled_matches WHERE match_id = ?", (match_id,)).fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM account_results WHERE match_id = ?", (match_id,)).fetchone() == (2,)


def test_settling_is_once_when_two_processes_race_for_a_new_match(database_url: str) -> None:
    """Two settlings of one finished match at once (two processes' threads, each its own connections):
    the first records it and updates the ratings, the other changes nothing; nor does a third later."""
    store = Store(database_url)
    try:
        accounts = Accounts(store, Limits())
        settlers = [Ratings(SimpleNamespace(store=store), accounts) for _ in range(2)]  # type: ignore[arg-type]
        ann, _ = accounts.sign_up("Ann", PASSWORD)
        bob, _ = accounts.sign_up("Bob", PASSWORD)
        store.create_match(MatchData(id="m1", game_id="toy-dash", version="1", options={}, seed=1, status="finished",
                                     title="t", host_hash="h", created_at=0.0, updated_at=0.0,
                                     seats=[SeatData(0), SeatData(1)]))
        accounts.tie("m1", 0, ann)
        accounts.tie("m1", 1, bob)
        settlers[0].mark_rated("m1")
        assert settlers[0].pending() == ["m1"]
        finish = Finish("m1", "toy-dash", {}, {0: 1, 1: 2}, team=False, won=True)
        done: list[bool] = []
        start = threading.Barrier(2)

        def settle(settler: Ratings) -> None:
            start.wait()
            done.append(settler.settle(finish))

        threads = [threading.Thread(target=settle, args=(settler,)) for settler in settlers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(done) == [False, True]
        board = settlers[0].leaderboard("toy-dash")
        assert [(r["name"], r["matches"]) for r in board] == [("Ann", 1), ("Bob", 1)]
        assert board[0]["mu"] > 25 > board[1]["mu"]
        assert settlers[1].settle(finish) is False
        assert settlers[0].leaderboard("toy-dash") == board
        assert settlers[0].pending() == []
    finally:
        store.close()


def test_a_cooperative_race_records_the_team_result_by_scenario_and_difficulty(server: Server) -> None:
    ann, ann_name = player(server)
    made = ann.ok("POST", "/api/matches", json={
        "game": "highway-heist", "players": 2, "bots": {"1": "random"},
        "options": {"scenario": "semi-heist", "difficulty": "easy"}})
    token = ann.ok("POST", f"/api/matches/{made['id']}/seats/0/join", json={})["token"]
    ann.ok("POST", f"/api/matches/{made['id']}/start", made["host_token"])
    ann.ok("POST", f"/api/matches/{made['id']}/resign", token, json={})  # a bot plays the seat to the end
    page = settled(ann, ann_name, made["id"], timeout=120)
    assert page["ratings"] == [] or all(r["game"] != "highway-heist" for r in page["ratings"])
    (team,) = [t for t in page["team_results"] if t["game"] == "highway-heist"]
    assert team["scenario_name"] == "Semi Heist" and team["difficulty_name"] == "Easy"
    assert team["won"] + team["lost"] == 1
    status, body = ann.call("GET", "/api/leaderboard/highway-heist")
    assert status == 404 and "cooperative" in body["error"]["message"]


# --- limits ------------------------------------------------------------------------------


def test_the_new_endpoints_keep_the_limits(server: Server) -> None:
    api = server.client("127.0.0.11")
    big = {"name": "x", "password": "y" * (Limits.max_body + 10)}
    for path in ("/api/accounts", "/api/session"):
        status, body = api.call("POST", path, json=big)
        assert status == 413 and body["error"]["code"] == "too_large"
        status, body = api.call("POST", path, json={"name": "abc", "password": "p" * 300})
        assert status == 400 and body["error"]["code"] == "bad_request"
        status, body = api.call("POST", path, json={"name": "abc", "password": PASSWORD, "admin": True})
        assert status == 400 and "…" in body["error"]["message"], "an unknown field is not named back"
    # a form of another site can send text/plain, not JSON: it neither signs anyone up nor logs them in
    for path in ("/api/accounts", "/api/session"):
        r = api.http.post(path, content=f'{{"name": "{fresh_name()}", "password": "{PASSWORD}"}}',
                          headers={"Content-Type": "text/plain"})
        assert r.status_code == 400 and "set-cookie" not in r.headers, r.text
    status, body = api.call("GET", "/api/players/" + "x" * 300)
    assert status == 404 and body["error"]["code"] == "not_found"
    status, body = api.call("GET", "/api/leaderboard/no-such-game")
    assert status == 404
    signups = [api.call("POST", "/api/accounts", json={"name": "?", "password": PASSWORD})[0] for _ in range(42)]
    assert 429 in signups and signups.index(429) == 40, signups


def test_a_hash_made_with_lower_costs_is_renewed_at_the_next_login(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "rehash.sqlite3"))
    try:
        old = Accounts(store, Limits())
        old.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
        old.sign_up("Dora", PASSWORD)
        new = Accounts(store, Limits())
        with pytest.raises(ApiError) as wrong:
            new.log_in("Dora", PASSWORD + "!")
        assert wrong.value.code == "bad_login"
        assert "m=1024" in stored_hash(store, "dora"), "a wrong password renews nothing"
        account, _cookie = new.log_in("Dora", PASSWORD)
        assert account.name == "Dora"
        assert stored_hash(store, "dora").startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert new.log_in("dora", PASSWORD)[0].name == "Dora"
    finally:
        store.close()


def stored_hash(store: Store, key: str) -> str:
    with store.engine.connect() as conn:
        return str(conn.exec_driver_sql("SELECT password_hash FROM accounts WHERE key = ?", (key,)).scalar_one())
