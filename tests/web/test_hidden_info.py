"""No message the server builds for a seat or a spectator depends on what that seat cannot see, in
every registered game (and Toy Dash): a message is built from the seat's view, its own legal
actions, the game's render hooks and the events visible to it, so redrawing everything hidden from
the seat (``determinize``) must not change a byte of it."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import slipstream
from slipstream.engine import State
from slipstream.engine.registry import games
from slipstream.web.hub import Room
from slipstream.web.protocol import seat_payload, sent_view
from slipstream.web.storage import MatchData, SeatData
from tests import toygame
from tests.playout import random_states

MAX_PLIES = 600


def game_ids() -> list[str]:
    return sorted({*games(), toygame.ToyDash.id})


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    toygame.install()
    yield
    toygame.uninstall()


def playout(game_id: str, seed: int) -> list[State]:
    return random_states(slipstream.load(game_id).start(seed=seed), random.Random(seed), MAX_PLIES - 1,
                         must_end=False)


@pytest.mark.parametrize("game_id", game_ids())
def test_seat_messages_do_not_change_when_hidden_information_is_redrawn(game_id: str) -> None:
    rng = random.Random(3)
    for seed in (1, 2):
        states = playout(game_id, seed)
        stride = max(1, len(states) // 60)
        for state in [*states[::stride], states[-1]]:
            for seat in [None, *state.game.seats]:
                mine = json.dumps(seat_payload(state, seat), sort_keys=True)
                for _ in range(2):
                    other = state.determinize(seat, rng)
                    assert json.dumps(seat_payload(other, seat), sort_keys=True) == mine, (
                        f"{game_id} ply {state.ply}: seat {seat}'s message depends on hidden information"
                    )


@pytest.mark.parametrize("game_id", game_ids())
def test_room_log_and_messages_carry_only_events_the_seat_may_see(game_id: str) -> None:
    states = playout(game_id, 5)
    game = states[0].game
    data = MatchData(
        id="t",
        game_id=game_id,
        version=game.version,
        options=game.record_options(),
        seed=5,
        status="running",
        title="t",
        host_hash="",
        created_at=0.0,
        updated_at=0.0,
        seats=[SeatData(seat=s) for s in game.seats],
    )

    async def build() -> Room:
        room = Room(data, game)
        from slipstream.web.storage import MoveData

        room.restore([MoveData(ply=i, action=a) for i, a in enumerate(states[-1].actions)])
        return room

    room = asyncio.run(build())
    assert room.state.record() == states[-1].record()
    hidden_events = 0
    for seat in [None, *game.seats]:
        log = json.loads(room.log_message(seat))["entries"]
        shown = [e for entry in log for e in entry["events"]]
        allowed = [
            e.to_json()
            for _ply, events in room.log
            for e in events
            if e.seats is None or (seat is not None and seat in e.seats)
        ]
        assert shown == allowed[-len(shown) :] if shown else not allowed
        hidden_events += sum(1 for _p, events in room.log for e in events if not e.visible_to(seat))
        message = json.loads(room.message(seat))
        assert message["view"] == sent_view(room.state.view(seat))
        # each event says which step it belongs to ("step"; one step here): the rest is the engine's event
        assert {e.pop("step") for e in message["events"]} <= {0}
        assert message["events"] == room.state.visible_events(seat)
    if game_id == toygame.ToyDash.id:
        assert hidden_events > 0, "Toy Dash deals secret cards, so some events are hidden from some seats"


def reach_buying(api: Any, mid: str, tokens: list[str]) -> None:
    """Play a Rev it Up race's seats (each its first legal action) until seat 0 may buy a chip, a secret
    step of its cart (one nobody else sees)."""
    for _ in range(400):
        states = [api.state(mid, t) for t in tokens]
        if states[0]["view"]["phase"] == "buy" and any(":buy:" in a for a in states[0]["legal"]):
            return
        for token, st in zip(tokens, states, strict=True):
            if st["legal"]:
                api.call("POST", f"/api/matches/{mid}/actions", token,
                         json={"action": st["legal"][0], "ply": st["ply"]})
    raise AssertionError("no buying phase")


def test_a_seats_hidden_steps_advance_nothing_another_seat_can_see(api: Any, server: Any) -> None:
    """Issue 14, item 6: in Rev it Up's buying phase each secret cart step used to reach every seat as a
    new state with ply + 1 (and ``GET /api/matches`` counted it), so others could count a cart. Now a
    hidden step goes only to its seat, and every other seat's and the spectator's ply stays put."""
    from tests.web.server import ws_open, ws_quiet, ws_until

    mid, _host, tokens = api.new_match(game="rev-it-up", players=2, humans=2, public=True)
    reach_buying(api, mid, tokens)
    other_before = api.state(mid, tokens[1])
    spectator_before = api.state(mid)
    listed_before = next(m for m in api.ok("GET", "/api/matches?limit=200") if m["id"] == mid)["ply"]
    with ws_open(server, mid, tokens[1]) as other, ws_open(server, mid, None) as watcher:
        for ws in (other, watcher):
            ws_until(ws, lambda m: m["type"] == "state")
        mine = api.state(mid, tokens[0])
        steps = 0
        while steps < 3 and any(":buy:" in a for a in mine["legal"]):
            pick = next(a for a in mine["legal"] if ":buy:" in a)
            ack = api.ok("POST", f"/api/matches/{mid}/actions", tokens[0], json={"action": pick, "ply": mine["ply"]})
            mine = api.state(mid, tokens[0])
            assert ack["ply"] == mine["ply"], "the seat itself counts its own steps"
            steps += 1
        assert steps >= 1
        for ws in (other, watcher):
            ws_quiet(ws, 1.0)
        for token, before in ((tokens[1], other_before), (None, spectator_before)):
            now = api.state(mid, token)
            assert {k: now[k] for k in ("ply", "view", "legal", "actor")} == {
                k: before[k] for k in ("ply", "view", "legal", "actor")
            }
            assert now["match"]["ply"] == before["match"]["ply"]
        listed = next(m for m in api.ok("GET", "/api/matches?limit=200") if m["id"] == mid)["ply"]
        assert listed == listed_before
        # seat 1 may still act with the ply it was shown; then seat 0 finishes its cart: one public step each
        done = next(a for a in mine["legal"] if a.endswith(":done"))
        api.ok("POST", f"/api/matches/{mid}/actions", tokens[0], json={"action": done, "ply": mine["ply"]})
        seen = ws_until(other, lambda m: m["type"] == "state")
        assert seen["ply"] == other_before["ply"] + 1, "other seats see one step: seat 0 is done"


@pytest.mark.parametrize("game_id", game_ids())
def test_board_text_is_rich_markup_made_plain(game_id: str) -> None:
    """The server strips a board's Rich markup itself (Rich's own styled text cost ~1 ms a message):
    the text must be exactly Rich's plain text."""
    from rich.text import Text

    from slipstream.engine.hooks import hooks_of
    from slipstream.web.protocol import plain

    board = hooks_of(slipstream.load(game_id).__class__).board_text
    if board is None:
        pytest.skip(f"{game_id} has no board text")
    states = playout(game_id, 9)
    for state in states[:: max(1, len(states) // 40)]:
        for seat in [None, *state.game.seats]:
            markup = str(board(state.view(seat)))
            assert plain(markup) == Text.from_markup(markup).plain


def test_a_secret_step_taken_after_yours_does_not_stop_your_undo(api: Any, server: Any) -> None:
    """Issue 15: Ann and Bob fill their carts at once (Rev it Up's buying phase). Ann buys, then Bob buys:
    both steps are secret, so Ann's page still offers Undo, and a refusal ("someone acted since") would
    tell her Bob bought something. Her undo takes back her own step and keeps Bob's; Bob is sent
    nothing, and his view and his cart are as they were."""
    from tests.web.server import ws_open, ws_quiet, ws_until

    mid, _host, (ann, bob) = api.new_match(game="rev-it-up", players=2, humans=2)
    reach_buying(api, mid, [ann, bob])
    assert any(":buy:" in a for a in api.state(mid, bob)["legal"]), "Bob may buy too"
    ann_before = api.state(mid, ann)
    pick = next(a for a in ann_before["legal"] if ":buy:" in a)
    api.ok("POST", f"/api/matches/{mid}/actions", ann, json={"action": pick, "ply": ann_before["ply"]})
    with ws_open(server, mid, bob) as ws_bob:
        ws_until(ws_bob, lambda m: m["type"] == "state")
        bob_now = api.state(mid, bob)
        pick = next(a for a in bob_now["legal"] if ":buy:" in a)
        api.ok("POST", f"/api/matches/{mid}/actions", bob, json={"action": pick, "ply": bob_now["ply"]})
        ws_until(ws_bob, lambda m: m["type"] == "state")
        bob_bought = api.state(mid, bob)
        mine = api.state(mid, ann)
        assert mine["can_undo"], "Bob's secret step does not take Ann's Undo away"
        status, body = api.call("POST", f"/api/matches/{mid}/undo", ann, json={"ply": mine["ply"]})
        assert status == 200, body
        ws_quiet(ws_bob, 1.0)
    keys = ("ply", "view", "legal", "actor")
    assert {k: api.state(mid, bob)[k] for k in keys} == {k: bob_bought[k] for k in keys}, "Bob keeps his step"
    assert {k: api.state(mid, ann)[k] for k in keys} == {k: ann_before[k] for k in keys}
