"""Live chance is secret (issue 14, item 5): a live match draws its chance outcomes from a key only the
server holds, not from its seed, so no run of public outcomes reveals the next ones; the finished
match's record still replays exactly."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import slipstream
from slipstream.engine.record import replay
from slipstream.web import dice
from tests import toygame
from tests.web.server import Api, Server


def test_a_live_match_does_not_draw_its_chance_from_its_seed(api: Api, server: Server) -> None:
    mid, _host, tokens = api.new_match(length=40)
    final = api.play_out(mid, tokens, choose="dash")
    record = api.ok("GET", f"/api/matches/{mid}/record")
    toygame.install()
    try:
        engine = replay(record).record()
        assert engine == {k: record[k] for k in engine}, "the record replays exactly"
        state = slipstream.load("toy-dash", players=2, length=40).start(seed=record["seed"])
        chance_plies = agree = 0
        for action in record["actions"]:
            if state.actor == "chance":
                chance_plies += 1
                agree += state.sample_chance() == action
            state = state.apply(action)
    finally:
        toygame.uninstall()
    assert state.ply == final["ply"] and chance_plies >= 15
    assert agree < 0.6 * chance_plies, (
        f"{agree} of {chance_plies} chance outcomes are the ones the public seed picks: the seed gives the dice away"
    )


def test_the_chance_key_never_leaves_the_server(api: Api, server: Server) -> None:
    mid, _host, tokens = api.new_match(length=8)
    db = Path(server.database_url)
    with sqlite3.connect(db) as conn:
        (key,) = conn.execute("SELECT key FROM chance_keys WHERE match_id = ?", (mid,)).fetchone()
    assert len(bytes.fromhex(key)) == 32, "256 random bits"
    seen = [api.http.get(f"/api/matches/{mid}/state", headers={"Authorization": f"Bearer {t}"}).text
            for t in tokens]
    api.play_out(mid, tokens)
    for path in (f"/api/matches/{mid}", f"/api/matches/{mid}/record", f"/api/matches/{mid}/state",
                 "/api/matches?limit=200", f"/api/matches/{mid}/replay?ply=3"):
        seen.append(api.http.get(path).text)
    assert not any(key in text for text in seen)


def test_draws_follow_the_probabilities_and_depend_only_on_key_and_ply() -> None:
    key = dice.new_key()
    outcomes = [("a", 0.5), ("b", 0.25), ("c", 0.25)]
    counts = Counter(dice.draw(key, ply, outcomes) for ply in range(8000))
    assert abs(counts["a"] / 8000 - 0.5) < 0.03 and abs(counts["b"] / 8000 - 0.25) < 0.03
    assert [dice.draw(key, p, outcomes) for p in range(50)] == [dice.draw(key, p, outcomes) for p in range(50)]
    other = dice.new_key()
    assert [dice.draw(key, p, outcomes) for p in range(64)] != [dice.draw(other, p, outcomes) for p in range(64)]
