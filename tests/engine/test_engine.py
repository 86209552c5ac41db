"""Engine contract pieces that hold for any game: errors, options, chance, records."""

from __future__ import annotations

import math

import pytest

import slipstream
from slipstream.engine import chance
from slipstream.engine.errors import IllegalActionError, OptionError, RecordError, UnknownGameError
from slipstream.engine.record import check, game_of, parse


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError) as info:
        slipstream.load("no-such-game")
    assert isinstance(info.value, ValueError)
    for gid in slipstream.available_games():
        assert gid in str(info.value)


def test_uniform_is_fixed_by_seed_and_ply_and_spread() -> None:
    assert chance.uniform(7, 3) == chance.uniform(7, 3)
    values = [chance.uniform(1, ply) for ply in range(20_000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert abs(sum(values) / len(values) - 0.5) < 0.01
    buckets = [0] * 6
    for v in values:
        buckets[int(v * 6)] += 1
    assert max(buckets) - min(buckets) < 400


def test_pick_follows_the_cumulative_distribution() -> None:
    outcomes = [("a", 0.25), ("b", 0.5), ("c", 0.25)]
    assert chance.pick(outcomes, 0.0) == "a"
    assert chance.pick(outcomes, 0.3) == "b"
    assert chance.pick(outcomes, 0.99) == "c"


def test_weighted_drops_zero_counts_and_sums_to_one() -> None:
    out = chance.weighted([("card:b", 2), ("card:a", 1), ("card:z", 0)])
    assert [a for a, _ in out] == ["card:a", "card:b"]
    assert math.isclose(sum(p for _, p in out), 1.0)


@pytest.mark.parametrize(
    "bad",
    [[], {"game": 1}, {"game": "x", "options": {}, "seed": "1", "actions": []},
     {"game": "x", "options": {}, "seed": 1, "actions": [1]}],
)
def test_malformed_records_are_rejected(bad: object) -> None:
    with pytest.raises(RecordError):
        check(bad)


def test_record_text_must_be_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        parse("{nope")


def test_record_for_unknown_game_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="unknown game"):
        game_of({"game": "nope", "options": {}, "seed": 1, "actions": []})


def test_error_messages_name_the_input_and_the_legal_actions() -> None:
    err = IllegalActionError("fly", ["roll", "stop"])
    assert "'fly'" in str(err) and "roll, stop" in str(err)
    assert isinstance(OptionError("x"), ValueError)
