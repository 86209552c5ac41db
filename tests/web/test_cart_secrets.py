"""Issue 26, point 2: Rev it Up's secret cart steps (rulebook, "Buying phase": each player fills their
cart in secret) stay secret in every message. Another seat or a spectator is sent nothing for a hidden
step (issue 14), and every message they may ask for afresh (the REST state, a WebSocket's hello, a
``text_board`` reply) is the same, field for field, with and without the hidden step and its undo: the
events shown are those of the last step that seat could see, and the cart's seat's turn clock does not
start again at a step nobody else sees."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from slipstream.engine.game import CHANCE
from slipstream.web import clock as web_clock
from slipstream.web.hub import Hub, Room, Subscriber
from slipstream.web.storage import Store
from tests.web.server import Api, Server, ws_open, ws_until
from tests.web.test_hidden_info import reach_buying


class Clock:
    """The server's clock (``web/clock.py``), a wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


def seen_by(room: Room, seat: int | None) -> dict[str, Any]:
    """Everything a seat (``None``: a spectator) may be sent afresh about the match."""
    return {
        "state": json.loads(room.message(seat)),
        "state without the text board": json.loads(room.message(seat, text_board=False)),
        "log": json.loads(room.log_message(seat)),
        "match": room.match_info(seat),
    }


async def settle(room: Room) -> None:
    """Let the room draw its chance steps."""
    for _ in range(500):
        if room.state.actor != CHANCE:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the chance steps did not come")


def test_a_hidden_cart_step_and_its_undo_change_nothing_others_may_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a turn timer (clocks in every message): at the same moment, everything Bob and a spectator
    could be sent is the same with Ann's secret purchase as without it, and after its undo; Ann's own
    clock goes on counting from the start of her buying decision."""
    clock = Clock()
    monkeypatch.setattr(web_clock, "now", clock.time)

    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "cart.sqlite3")))
        room, host = await hub.create("rev-it-up", 2, {}, "", {}, 120)
        await hub.join(room.data.id, 0, "Ann")
        await hub.join(room.data.id, 1, "Bob")
        await hub.start(room.data.id, host)
        for _ in range(400):
            await settle(room)
            if room.state.view(0)["phase"] == "buy" and any(":buy:" in a for a in room.state.legal_actions(0)):
                break
            seat = next(iter(sorted(room.state.actor))) if isinstance(room.state.actor, frozenset) else room.state.actor
            clock.now += 2.0
            await hub.act(room, seat, room.state.legal_actions(seat)[0], room.shown(seat), None)
        else:
            raise AssertionError("no buying phase")
        room.subs |= {Subscriber(1), Subscriber(None)}  # Bob's page is open, Ann's not: Bob is told his claim
        clock.now += 7.0
        without = {seat: seen_by(room, seat) for seat in (1, None)}
        assert without[1]["state"]["claim"] is not None, "Bob's claim countdown (Ann away) is in his messages"
        ann_clock = json.loads(room.message(0))["turn_left"]["0"]
        buy = next(a for a in room.state.legal_actions(0) if ":buy:" in a)
        await hub.act(room, 0, buy, room.shown(0), None)
        assert room.last_hidden, "buying a chip is a secret step"
        for seat, before in without.items():
            assert seen_by(room, seat) == before, f"seat {seat} can tell a cart step was taken"
        assert json.loads(room.message(0))["turn_left"]["0"] == ann_clock, "Ann's clock goes on"
        clock.now += 3.0
        without = {seat: seen_by(room, seat) for seat in (1, None)}
        await hub.undo(room, 0, room.shown(0))
        for seat, before in without.items():
            assert seen_by(room, seat) == before, f"seat {seat} can tell a cart step was taken back"
        assert json.loads(room.message(0))["turn_left"]["0"] == ann_clock - 3.0
        await hub.shutdown()

    asyncio.run(scenario())


def test_fresh_messages_to_others_are_the_same_after_a_hidden_step(api: Api, server: Server) -> None:
    """Through the real server: Bob's and a spectator's REST state, WebSocket hello (log and state) and
    ``text_board`` reply are the same before and after Ann's secret purchase (the events of the step
    before it used to vanish from them, so a cart step could be seen)."""

    def fresh(token: str | None) -> list[dict[str, Any]]:
        rest = api.state(mid, token)
        with ws_open(server, mid, token) as ws:
            log = ws_until(ws, lambda m: m["type"] == "log")
            hello = ws_until(ws, lambda m: m["type"] == "state")
            ws.send(json.dumps({"type": "text_board", "on": True}))
            reply = ws_until(ws, lambda m: m["type"] == "state")
        return [rest, log, hello, reply]

    mid, _host, (ann, bob) = api.new_match(game="rev-it-up", players=2, humans=2)
    reach_buying(api, mid, [ann, bob])
    with ws_open(server, mid, ann) as _ann_page:  # Ann is there (else Bob's claim countdown runs in his messages)
        before = {token: fresh(token) for token in (bob, None)}
        assert before[None][0]["events"], "the buying phase's start has events (they used to vanish after a cart step)"
        mine = api.state(mid, ann)
        buy = next(a for a in mine["legal"] if ":buy:" in a)
        api.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": buy, "ply": mine["ply"]})
        assert api.state(mid, ann)["ply"] == mine["ply"] + 1
        for token, seen in before.items():
            assert fresh(token) == seen, f"{'a spectator' if token is None else 'Bob'} can tell Ann bought something"
