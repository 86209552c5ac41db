"""The team result (engine.Result with team=True) and the odds helper a bot or a hint reads."""

from __future__ import annotations

import pytest

from slipstream.engine.game import Result
from slipstream.games.highway_heist import rules
from slipstream.games.highway_heist.types import SPEED

from .helpers import arrange, new


def test_a_team_result_ranks_every_seat_first_and_says_so_in_json() -> None:
    """A cooperative result places no seat above another: rank 1 for all; 'team' appears in the JSON
    only for a team result, so the racing games' records are unchanged."""
    won = Result((0, 1, 2), (0, 1, 2), "objective", team=True)
    lost = Result((0, 1, 2), (), "clock", team=True)
    assert [won.rank(s) for s in range(3)] == [1, 1, 1] == [lost.rank(s) for s in range(3)]
    assert won.to_json()["team"] is True
    race = Result((2, 0, 1), (2,), "first")
    assert race.rank(1) == 3 and "team" not in race.to_json()


def test_roll_odds_with_boost_and_assists() -> None:
    """rules.roll_odds: the chance of a roll plain, Boosted and with one or two Assists (two dice each,
    at most five): Han + Street Drifter Ram, Speed 4 needing 3 (content 2: 0.31 plain, 0.59 boosted)."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"), vehicles={0: (3, 3), 1: (9, 6)})
    odds = rules.roll_odds(s, 0, SPEED, 3)
    assert odds["plain"] == pytest.approx(0.3125)
    assert odds["boosted"] == pytest.approx(0.5926, abs=1e-4)
    assert odds["assisted"] == pytest.approx(0.5)          # five dice
    assert odds["assisted"] == odds["assisted_twice"]      # the cap
    assert odds["assisted_boosted"] > odds["assisted"]
