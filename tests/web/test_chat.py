"""Table chat (issue 28): seats and spectators talk, the line is stored with the match (a SIGKILL and a
restart keep it), the replay shows it, and the limits hold: length, rate per socket and per seat, a
spectator never speaks as a seat, a muted spectator is refused, no error repeats what was sent."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_connect, ws_open, ws_recv, ws_until

SCRIPT = "<script>window.hacked = 1</script> & 'quotes' \"too\""


def chat_lines(msg: dict[str, Any]) -> list[dict[str, Any]]:
    return list(msg["lines"]) if msg.get("type") == "chat" else []


def history(server: Server, match_id: str) -> list[dict[str, Any]]:
    """The chat a new spectator is sent when it connects."""
    with ws_open(server, match_id, None) as ws:
        return chat_lines(ws_until(ws, lambda m: m["type"] == "chat"))


def greeted(*sockets: Any) -> None:
    """Wait on each socket for the chat history a client gets when it connects."""
    for ws in sockets:
        assert ws_until(ws, lambda m: m["type"] == "chat")["reset"] is True


def error_of(ws: Any) -> dict[str, Any]:
    return ws_until(ws, lambda m: m["type"] == "error")


def no_chat_for(ws: Any, seconds: float = 0.5) -> bool:
    """Whether ``ws`` gets no new chat line for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            msg = ws_recv(ws, max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            return True
        if msg["type"] == "chat" and not msg.get("reset"):
            return False
    return True


def test_a_line_reaches_the_other_seat_and_the_spectator_and_survives_a_kill(tmp_path: Path) -> None:
    """A seat's line reaches every client as it was written (text, never markup: the page shows it as
    text), stored before anyone is told: after a SIGKILL and a restart a new client gets it."""
    server = Server(str(tmp_path / "chat.sqlite3"), tmp_path / "server.log", env=ROOMY).start()
    try:
        api = server.client()
        mid, _host, (ann, _bob) = api.new_match(length=30)
        with ws_open(server, mid, ann) as a, ws_open(server, mid, _bob) as b, ws_open(server, mid, None) as spec:
            greeted(a, b, spec)
            a.send(json.dumps({"type": "chat", "text": f"  {SCRIPT}\n"}))
            for ws in (a, b, spec):
                (line,) = chat_lines(ws_until(ws, lambda m: m["type"] == "chat"))
                assert (line["text"], line["seat"], line["name"], line["kind"]) == (SCRIPT, 0, "seat0", "say")
                assert "ply" not in line, "a live line carries no real ply (it could count hidden steps)"
        server.kill()
        server.start()
        (kept,) = history(server, mid)
        assert kept["text"] == SCRIPT and kept["name"] == "seat0"
    finally:
        server.stop()


def test_a_spectator_speaks_as_a_spectator_never_as_a_seat(server: Server, api: Api) -> None:
    mid, _host, (ann, _bob) = api.new_match(length=30)
    with ws_open(server, mid, ann) as a, ws_open(server, mid, None) as spec:
        greeted(spec, a)
        for forged in ({"seat": 0}, {"name": "seat0"}, {"token": ann}):
            spec.send(json.dumps({"type": "chat", "text": "I am seat 0", **forged}))
            err = error_of(spec)
            assert err["code"] == "bad_request" and "I am seat 0" not in err["message"]
        assert no_chat_for(a), "a refused line is sent to nobody"
        spec.send(json.dumps({"type": "chat", "text": "just watching"}))
        (line,) = chat_lines(ws_until(a, lambda m: m["type"] == "chat"))
        assert line["seat"] is None and line["name"] == f"Spectator {line['viewer']}"
    assert [x["text"] for x in history(server, mid)] == ["just watching"]


def test_length_and_rate_are_one_clear_error_that_changes_nothing(tmp_path: Path) -> None:
    """Too long: ``bad_request``; faster than the rate (a burst of 2, here): ``too_many`` with ``wait``,
    counted per seat over all its sockets too. Neither repeats the text, stores it or sends it."""
    env = {**ROOMY, "SLIPSTREAM_LIMIT_CHAT_BURST": "2", "SLIPSTREAM_LIMIT_CHAT_PER_MINUTE": "6",
           "SLIPSTREAM_LIMIT_CHAT_LENGTH": "50"}
    server = Server(str(tmp_path / "rate.sqlite3"), tmp_path / "server.log", env=env).start()
    try:
        api = server.client()
        mid, _host, (ann, bob) = api.new_match(length=30)
        with ws_open(server, mid, ann) as a, ws_open(server, mid, ann) as a2, ws_open(server, mid, bob) as b:
            greeted(a, a2, b)
            a.send(json.dumps({"type": "chat", "text": "Q" * 51, "id": "long"}))
            err = error_of(a)
            assert (err["code"], err["id"]) == ("bad_request", "long") and "QQQ" not in err["message"]
            assert "50 characters" in err["message"]
            a.send(json.dumps({"type": "chat", "text": "   "}))
            assert error_of(a)["code"] == "bad_request"
            a.send(json.dumps({"type": "chat", "text": "one"}))
            a2.send(json.dumps({"type": "chat", "text": "two"}))  # the same seat through another socket
            for text in ("one", "two"):
                assert chat_lines(ws_until(b, lambda m: m["type"] == "chat"))[0]["text"] == text
            a2.send(json.dumps({"type": "chat", "text": "three"}))
            err = error_of(a2)
            assert err["code"] == "too_many" and err["wait"] > 0 and "three" not in err["message"]
            assert no_chat_for(b)
            b.send(json.dumps({"type": "chat", "text": "bob's own"}))
            said = ws_until(a, lambda m: m["type"] == "chat" and m["lines"][-1]["seat"] == 1)
            assert chat_lines(said)[0]["text"] == "bob's own", "Bob's own rate"
        assert [x["text"] for x in history(server, mid)] == ["one", "two", "bob's own"]
    finally:
        server.stop()


def test_the_host_mutes_a_spectator(server: Server, api: Api) -> None:
    mid, host, (ann, _bob) = api.new_match(length=30)
    with ws_open(server, mid, None) as spec, ws_open(server, mid, ann) as a:
        greeted(spec, a)
        spec.send(json.dumps({"type": "chat", "text": "spam"}))
        viewer = chat_lines(ws_until(a, lambda m: m["type"] == "chat"))[0]["viewer"]
        path = f"/api/matches/{mid}/chat/mute"
        assert api.call("POST", path, ann, json={"viewer": viewer})[1]["error"]["code"] == "not_host"
        assert api.call("POST", path, None, json={"viewer": viewer})[0] == 403
        bad = api.call("POST", path, host, json={"viewer": "<b>x</b>"})
        assert bad[0] == 400 and "<b>" not in bad[1]["error"]["message"]
        assert api.ok("POST", path, host, json={"viewer": viewer}) == {"viewer": viewer, "muted": True}
        spec.send(json.dumps({"type": "chat", "text": "more spam"}))
        err = error_of(spec)
        assert err["code"] == "muted" and "spam" not in err["message"]
        assert no_chat_for(a)
        a.send(json.dumps({"type": "chat", "text": "players still talk"}))
        assert chat_lines(ws_until(spec, lambda m: m["type"] == "chat"))[0]["text"] == "players still talk"
    api.ok("POST", f"/api/matches/{mid}/chat/mute", host, json={"viewer": viewer, "muted": False})


def test_a_viewer_key_keeps_the_spectator_s_id_and_its_mute(server: Server, api: Api) -> None:
    """The page keeps a ``viewer`` key: a new socket of the same page is the same spectator, muted too."""
    mid, host, _tokens = api.new_match(length=30)

    def speak(text: str) -> dict[str, Any]:
        with ws_connect(server, mid) as ws:
            ws.send(json.dumps({"type": "hello", "token": None, "viewer": "my-browser-key"}))
            ws_until(ws, lambda m: m["type"] == "chat")
            ws.send(json.dumps({"type": "chat", "text": text}))
            return ws_until(ws, lambda m: m["type"] in ("chat", "error"))

    first = speak("hello")
    viewer = first["lines"][0]["viewer"]
    assert speak("again")["lines"][0]["viewer"] == viewer, "the same page key, the same spectator"
    api.ok("POST", f"/api/matches/{mid}/chat/mute", host, json={"viewer": viewer})
    assert speak("after the mute")["code"] == "muted"


def test_the_replay_shows_each_line_at_its_move(server: Server, api: Api) -> None:
    mid, _host, (ann, bob) = api.new_match(length=4)
    said_at = api.wait(mid, ann, lambda st: bool(st["legal"]))["ply"]  # the deal is over: Ann chooses
    with ws_open(server, mid, ann) as a:
        ws_until(a, lambda m: m["type"] == "chat")
        a.send(json.dumps({"type": "chat", "text": "good luck"}))
        ws_until(a, lambda m: m["type"] == "chat" and not m.get("reset"))
    final = api.play_out(mid, [ann, bob])
    with ws_open(server, mid, bob) as b:
        ws_until(b, lambda m: m["type"] == "chat")
        b.send(json.dumps({"type": "chat", "text": "well played"}))
        ws_until(b, lambda m: m["type"] == "chat" and not m.get("reset"))
    assert said_at > 0, "Toy Dash deals before the first choice"
    before = api.ok("GET", f"/api/matches/{mid}/replay?ply={said_at - 1}")
    assert before["chat"] == []
    start = api.ok("GET", f"/api/matches/{mid}/replay?ply={said_at}")
    assert [x["text"] for x in start["chat"]] == ["good luck"]
    end = api.ok("GET", f"/api/matches/{mid}/replay?ply={final['ply']}")
    assert [(x["text"], x["ply"]) for x in end["chat"]] == [("good luck", said_at), ("well played", final["ply"])]
