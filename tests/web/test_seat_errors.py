"""Errors a player reads name seats as the page numbers them (issue 15, item 4): "Seat 1 (Ann)", never the
API's 0-based "seat 0", which the page calls Seat 1."""

from __future__ import annotations

from tests.web.server import Api


def test_a_stale_click_names_the_seat_as_the_page_does(api: Api) -> None:
    mid, _host, (ann, _bob) = api.new_match(players=2, humans=2, length=30)
    st = api.wait(mid, ann, lambda s: s["view"]["phase"] == "choose" and bool(s["legal"]))
    api.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:dash", "ply": st["ply"]})
    status, body = api.call(
        "POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:walk", "ply": st["ply"] + 1}
    )
    assert (status, body["error"]["code"]) == (409, "not_your_turn"), body
    assert body["error"]["message"] == "Seat 1 (seat0) is not asked to act now", body


def test_joining_a_taken_seat_names_it_as_the_page_does(api: Api) -> None:
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
    mid = made["id"]
    api.ok("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Ann"})
    status, body = api.call("POST", f"/api/matches/{mid}/seats/0/join", json={"name": "Bob"})
    assert (status, body["error"]["code"]) == (409, "seat_taken")
    assert body["error"]["message"] == "Seat 1 (Ann) is already taken"
    status, body = api.call("POST", f"/api/matches/{mid}/seats/5/join", json={"name": "Cy"})
    assert status == 404
    assert body["error"]["message"] == (
        "no seat 5: the API counts seats from 0 (0 to 1), the page from 1 (Seat 1 to Seat 2)"
    )


def test_an_illegal_move_is_told_in_the_pages_words(api: Api) -> None:
    """The refusal names the seat as the page does and lists the legal moves by their labels ("P1: keep
    going", numbered from 1 as the page's log is), not by the 0-based notation ("0:go"); the API's
    ``legal`` field keeps the notation."""
    mid, _host, (ann, _bob) = api.new_match(game="rev-it-up", players=2, humans=2)
    st = api.wait(mid, ann, lambda s: bool(s["legal"]))
    status, body = api.call("POST", f"/api/matches/{mid}/actions", ann, json={"action": "0:fly", "ply": st["ply"]})
    assert (status, body["error"]["code"]) == (422, "illegal_action")
    message = body["error"]["message"]
    assert message.startswith("Seat 1 (seat0) cannot play that move now; the legal moves: "), message
    assert "fly" not in message, "an error does not repeat the client's text (issue 26)"
    assert all(st["labels"][a] in message for a in st["legal"]) and "0:" not in message.split("moves: ")[1]
    assert body["error"]["legal"] == st["legal"]
