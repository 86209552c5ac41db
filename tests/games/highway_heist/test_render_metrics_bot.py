"""Highway Heist's metrics and the cooperative heuristic bot."""

from __future__ import annotations

import slipstream
from slipstream.bots.random_bot import RandomBot
from slipstream.bots.registry import make_bot
from slipstream.engine.play import play
from slipstream.games.highway_heist import metrics
from slipstream.games.highway_heist.bot import HeuristicBot
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import Stage

from .helpers import arrange, new, no_assist, play_passively

HAN_DRIFTER = {"characters": "han,dom", "vehicles": "street-drifter,exotic-supercar"}


def test_metrics_of_a_team_that_runs_out_of_time() -> None:
    """A team that only ends its turns loses when the Level 3 Stunt card leaves the road (Standard:
    at the end of round 9)."""
    final = play_passively(new())
    m = metrics.race_metrics(final)
    assert m["team_won"] == 0.0 and m["lost_on_the_clock"] == 1.0 and m["rounds"] == 9.0
    assert m["won_by_level_3_stunt"] == 0.0 and m["track"] == 0.0 and m["track_share"] == 0.0
    assert m["player_vehicles_left"] <= 2.0


def test_labels_name_each_seat_character_and_vehicle_and_the_team_has_no_leader() -> None:
    s = new(**HAN_DRIFTER)
    assert metrics.seat_labels(s) == {0: "han/street-drifter", 1: "dom/exotic-supercar"}
    assert metrics.standings(s) == [0, 1]


def test_heuristic_bot_is_found_by_name_and_plays_a_whole_match() -> None:
    assert isinstance(make_bot("heuristic", "highway-heist", seed=1), HeuristicBot)
    game = slipstream.load("highway-heist", players=3, scenario="chopper-takedown", difficulty="beast")
    final = play(game.start(seed=2), [HeuristicBot(1), HeuristicBot(2), RandomBot(3)])
    assert final.is_over and final.result is not None and final.result.team


def test_bot_rams_the_suv_in_the_tanks_path() -> None:
    """Tank Assault (content 5.4): a Wreck within four spaces in front of the Tank, in its lane, hits it
    at the End of Round; the bot wrecks the Enemy SUV there rather than drive about: with the Roadblock
    Stunt while its card is on the road (the same Wreck and a Boost token), else with a Ram."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (8, 2), 1: (1, 6)}, suvs=[(9, 3)], main={"tank": (6, 3)})
    assert s.stunt_row[0] == "ta-s1a"
    assert HeuristicBot(0).choose(s, 0) == "stunt:ta-s1a@c9l3"
    s = s.copy()
    s.stunt_row = ("", "", "")
    assert HeuristicBot(0).choose(s, 0) == "ram:c9l3"


def test_bot_assists_the_roll_that_wins_the_game() -> None:
    """Assist: a team member gives two dice to the Level 3 Stunt (Harpoon: Tank Damage 3 or more, on
    foot on a vehicle next to the Tank, Athletics 5)."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (7, 2), 1: (1, 6)}, suvs=[(8, 3)], main={"tank": (9, 3)},
                on_top={0: (8, 3)})
    s.track = 3
    s.stunt_row = ("ta-s3", "", "")
    s = s.apply("stunt:ta-s3")
    assert s.stage is Stage.ASSIST and s.waiting == frozenset({1})
    assert HeuristicBot(0).choose(s, 1) == "1:assist"


def test_bot_boosts_a_failed_roll_it_can_save() -> None:
    """Boost (yourself): after rolling 2 successes and a boost face for a Ram needing 3, the bot spends
    its token."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (8, 2), 1: (1, 6)}, suvs=[(9, 3)], main={"tank": (6, 3)})
    s = no_assist(s.apply("ram:c9l3")).apply("effort:2s1b1x")
    assert s.stage is Stage.BOOST
    assert HeuristicBot(0).choose(s, 0) == "boost"


def _team_wins(bot: type[HeuristicBot] | type[RandomBot], seeds: range) -> int:
    game = slipstream.load("highway-heist", players=3, scenario="semi-heist")
    wins = 0
    for seed in seeds:
        final = play(game.start(seed=seed), [bot(seed * 10 + seat) for seat in range(3)])
        assert isinstance(final, HeistState)
        wins += final.outcome == "win"
    return wins


def test_a_team_of_heuristic_bots_wins_where_random_bots_do_not() -> None:
    """Semi Heist, Standard, 12 seeded matches (deterministic): measured 7 wins for the heuristic team,
    none for a random one."""
    assert _team_wins(HeuristicBot, range(12)) >= 4
    assert _team_wins(RandomBot, range(12)) <= 1
