"""What the games' notation modules share: the bounded parse cache and the names of a stage enum."""

from __future__ import annotations

import enum

import pytest

from slipstream.engine.notation import ParseCache, view_names


def test_a_string_is_parsed_once_and_the_cache_stops_at_its_limit() -> None:
    calls: list[str] = []

    def parse(text: str) -> int:
        calls.append(text)
        if not text.isdigit():
            raise ValueError(f"not a number: {text!r}")
        return int(text)

    cache = ParseCache(parse, limit=2)
    assert [cache["1"], cache["1"], cache["2"]] == [1, 1, 2]
    assert calls == ["1", "2"]
    assert cache["3"] == 3 and cache["3"] == 3, "past the limit a string is parsed anew"
    assert calls == ["1", "2", "3", "3"] and len(cache) == 2
    with pytest.raises(ValueError, match="not a number"):
        cache["x"]
    assert "x" not in cache, "a string that does not parse is not kept"


def test_view_names_follow_the_members_and_refuse_a_gap() -> None:
    class Stage(enum.IntEnum):
        ROLL = 0
        CARDS_AFTER = 1

    names = view_names(Stage)
    assert names == ("roll", "cards-after") and names[Stage.CARDS_AFTER] == "cards-after"

    class Gapped(enum.IntEnum):
        ROLL = 0
        OVER = 2

    with pytest.raises(ValueError, match=r"Gapped\.OVER is 2, not 1"):
        view_names(Gapped)
