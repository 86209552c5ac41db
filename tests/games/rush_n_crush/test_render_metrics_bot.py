"""The simulator's metrics, the standings and the heuristic bot."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.bots.random_bot import RandomBot
from slipstream.bots.registry import make_bot
from slipstream.engine.game import CHANCE
from slipstream.engine.play import play
from slipstream.games.rush_n_crush import metrics, notation
from slipstream.games.rush_n_crush.bot import HeuristicBot
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage

from .helpers import armed, moving, new, place


def _race(players: int, seed: int, course: str = "sprint", heuristic: int = 0) -> RushState:
    """A race between heuristic and random bots (the heuristic in the seats of the parity ``heuristic``),
    to the end."""
    game = slipstream.load("rush-n-crush", players=players, course=course)
    bots = [HeuristicBot(seed) if k % 2 == heuristic else RandomBot(seed + k) for k in range(players)]
    final = play(game.start(seed=seed), bots)
    assert isinstance(final, RushState) and final.is_over
    return final


@pytest.mark.parametrize(("players", "seed", "course"), [(4, 1, "sprint"), (6, 2, "grand-prix"), (3, 3, "ring"),
                                                         (5, 4, "oval"), (4, 5, "sprint"), (6, 6, "sprint")])
def test_metrics_account_for_every_point_of_damage_and_heat(players: int, seed: int, course: str) -> None:
    """Every Structure point lost and Heat point gained in the race is put down to one source; wrecks are
    the destroyed cars, each destroyed by heat or by structure; the Machine Gun's damage is what its
    ``hits:N`` rolls took (capped by the Structure left)."""
    final = _race(players, seed, course)
    m = metrics.race_metrics(final)
    dashboards = final.dash
    lost = sum(d.structure - final.structure[c] for c, d in enumerate(dashboards))
    assert m["damage_total"] == lost
    assert sum(v for k, v in m.items() if k.startswith("damage_") and k != "damage_total") == lost
    heat = sum(m[k] for k in ("heat_red_dice", "heat_flamer", "heat_rocket_booster"))
    assert heat == sum(final.heat) + m["extinguishers"]
    assert m["wrecks"] == sum(1 for d in final.destroyed if d)
    assert m["destroyed_by_heat"] + m["destroyed_by_structure"] >= m["wrecks"]
    assert m["rounds"] == final.round
    assert m["crossed_the_line"] + m["last_car_running"] == (1.0 if final.winner >= 0 else 0.0)
    state = final.game.start(seed=final.seed)
    gun = 0
    previous = ""
    for action in final.actions:
        assert isinstance(state, RushState)
        if action.startswith("hits:") and previous == "use:machine-gun":
            target = state.need[1]
            gun += min(notation.parse(action).number, state.structure[target])
        if state.actor != CHANCE or action.startswith("hits:"):
            previous = action
        state = state.apply(action)
    assert m["damage_machine_gun"] == gun


def test_metrics_over_seeded_races_see_weapons_rams_and_wrecks() -> None:
    """Over a few races the counters are not all zero: the metrics read the events they are meant to (wrecks
    are rarer: 1 in 30 such races; the test above checks them against the final state). The heuristic bot
    drives the even seats in half the races and the odd ones (the Machine Guns' drivers) in the other."""
    totals: dict[str, float] = {}
    for seed in range(30):
        for key, value in metrics.race_metrics(_race(4, seed, heuristic=seed % 2)).items():
            totals[key] = totals.get(key, 0.0) + value
    for key in ("damage_machine_gun", "damage_rush_n_crush", "damage_mine", "damage_obstruction", "heat_flamer",
                "heat_red_dice", "shots", "mines_dropped", "rocket_boosters", "heat_rocket_booster", "side_rams",
                "rush_n_crush_rams", "extinguishers"):
        assert totals[key] > 0, key


def test_standings_and_seat_labels() -> None:
    s = place(new(3), {0: "1.1.2", 1: "0.2.7", 2: "2.0.0"}, destroyed=(0, 0, 1))
    assert metrics.standings(s) == [0, 1, 2]
    assert metrics.seat_labels(s) == {0: "Armour & Computer / Bumper & Saw", 1: "Armour & Ram / Gun & Saw",
                                      2: "Armour & Mines / Flame & Saw"}
    start = slipstream.load("rush-n-crush", players=3).start(seed=0)
    assert metrics.standings(start) == [0, 1, 2]


def test_heuristic_bot_is_found_by_name_and_plays_legal_actions() -> None:
    bot = make_bot("heuristic", "rush-n-crush", seed=1)
    assert isinstance(bot, HeuristicBot)
    final = play(new(players=3).game.start(seed=2), [HeuristicBot(1), HeuristicBot(2), RandomBot(3)])
    assert final.is_over


def test_heuristic_bot_steers_round_an_obstruction() -> None:
    """Movement: a fixed obstruction two squares ahead in lane 0 of tile 2 (sprint); with lane changes the
    plan leaves the lane rather than crash."""
    s = moving(place(new(2), {0: "2.0.0", 1: "0.3.7"}, activations=0), "g1y", lane_changes=1)
    assert HeuristicBot(0).choose(s, 0) in ("right", "ahead")
    after = s.apply(HeuristicBot(0).choose(s, 0))
    after = after.apply(HeuristicBot(0).choose(after, 0))
    assert after.game.track.lane[after.square[0]] == 1 and after.structure[0] == s.structure[0]


@pytest.mark.parametrize("steer", [1, 2, 4])
def test_heuristic_bot_drives_through_a_rock_field_unhurt(steer: int) -> None:
    """Turn and Movement: the speed decides the lane changes (white dice) and what a crash costs; in the rock
    field of tile 4 (sprint: obstructions at 4.0.5, 4.1.2, 4.2.6, 4.3.3) the bot picks a speed and a way
    through that hits no obstruction, whatever the white dice give (forced to ``steer``)."""
    s = place(new(2), {0: "4.1.0", 1: "0.3.7"}, node=(new(2).game.gear.node("g2b"), 0), activations=0)
    bot = HeuristicBot(0)
    while s.actor in (0, CHANCE) and s.stage is not Stage.AFTER:
        if s.actor == CHANCE:
            word = s.legal_actions()[0].split(":")[0]
            s = s.apply({"steer": f"steer:{steer}", "heat": "heat:0"}.get(word, s.legal_actions()[0]))
        else:
            s = s.apply(bot.choose(s, 0))
    assert s.structure[0] == s.dash[0].structure
    assert s.game.track.tile[s.square[0]] >= 4 and s.movement == 0


def test_heuristic_bot_fires_when_a_gun_bears() -> None:
    """Movement: the Machine Gun "fires directly forward ... at range 1-3": the bot Uses it."""
    s = armed(place(new(), {1: "0.1.2", 0: "0.1.4"}, active=1), 1, "machine-gun")
    assert s.stage is Stage.GEAR
    assert HeuristicBot(0).choose(s, 1) == "use:machine-gun"


def test_heuristic_bot_arms_after_movement_and_keeps_its_activations_for_the_move() -> None:
    """Movement: two Activations a turn, and RC-A6 ("A piece armed this turn can first be Used next turn"):
    arming at the gearstick gains nothing over arming after movement and would take an Activation a gun
    or a Side Ram could use, so the bot moves the gearstick first and arms after its move."""
    s = place(new(), {0: "0.1.0", 1: "0.3.7"})
    assert s.stage is Stage.GEAR and "arm:side-bumper" in s.legal_actions()
    assert HeuristicBot(0).choose(s, 0).startswith("gear:")
    s.stage = s.phase = Stage.AFTER
    assert HeuristicBot(0).choose(s.copy(), 0).startswith("arm:")


def test_heuristic_bot_boosts_into_a_clear_lane_and_not_into_a_car() -> None:
    """Movement: "The Rocket Booster may only be Used at the end of movement": into a clear lane the bot
    fires it for 3; with a whole car two squares ahead one square is not worth the Use (the booster stays
    armed for a later turn) and a Rush 'n' Crush into it is not worth the damage to itself."""
    s = armed(place(new(), {0: "0.1.0", 1: "0.3.7"}), 0, "rocket-booster")
    s.stage = s.phase = Stage.AFTER
    assert HeuristicBot(0).choose(s.copy(), 0) == "boost:3"
    t = armed(place(new(), {0: "0.1.0", 1: "0.1.2"}), 0, "rocket-booster")
    t.stage = t.phase = Stage.AFTER
    assert not HeuristicBot(0).choose(t.copy(), 0).startswith("boost:")


def test_heuristic_bot_boosts_into_a_car_it_can_destroy() -> None:
    """Movement: Rocket Booster ("a car ahead is a Rush 'n' Crush with the squares left", RC-A3) and
    Introduction ("A lone survivor also wins"): the last rival, one Structure left, two squares ahead:
    ``boost:3`` rams it with two dice, each 1-3 (the attacker has no Combat Bumper) destroying it."""
    t = armed(place(new(), {0: "0.1.0", 1: "0.1.2"}, structure=(8, 1)), 0, "rocket-booster")
    t.stage = t.phase = Stage.AFTER
    assert HeuristicBot(0).choose(t.copy(), 0) == "boost:3"


def _side_ram_position(structure: tuple[int, int, int]) -> RushState:
    """Three cars on tile 0 (sprint): P2 (the leader, its turn played) diagonally ahead-right of P1, who
    moves 4 with unlimited lane changes and an armed Side Bumper and Lateral Circular Saw; the square
    beyond P2 is clear, so a 4+ (with the Bumper's +1) displaces it."""
    s = place(new(3), {0: "0.1.2", 1: "0.2.3", 2: "0.3.0"}, order=(1, 0, 2), structure=structure)
    return moving(armed(s, 0, "side-bumper", "circular-saw"), "g1b", lane_changes=-1)


def test_heuristic_bot_side_rams_a_leader_it_may_destroy_and_not_when_it_may_be_destroyed() -> None:
    """Movement: Side Ram (the table, far side clear: with the Bumper's +1 a die of 4-6 hits the target and
    only a 1 the rammer) and Lateral Circular Saw (its own die, 4-6: 1 Structure): against a leader with
    one Structure left the bot rams with both pieces (three in four destroy it); with one Structure left
    itself (a 1 would destroy it) it drives on instead."""
    assert HeuristicBot(0).choose(_side_ram_position((8, 1, 8)), 0) == "right+bumper+saw"
    assert HeuristicBot(0).choose(_side_ram_position((1, 1, 8)), 0) in ("ahead", "left")


def test_heuristic_bot_rush_n_crushes_the_last_rival_unless_the_quota_is_spent() -> None:
    """Movement: Rush 'n' Crush ("roll a die for each point of movement allowance remaining. For each 1-2,
    both vehicles take a structure point; on a 3 (3-4 if you have Combat Bumper) only the target takes
    one") and RC-G12: P2 (Combat Bumper) directly behind the last rival, one Structure left, with four
    steps to go rams it (each die destroys it on 1-4); a whole rival it steps round; when
    ``rush_attacks = once-per-round`` has been spent this round a ram would only stop it, so it steps
    round too."""
    def position(structure: tuple[int, int], **options: str) -> RushState:
        s = place(new(2, **options), {1: "0.1.2", 0: "0.1.3"}, active=1, order=(0, 1), structure=structure,
                  rnc_rolled=(0,) if options else ())
        return moving(s, "g1b", lane_changes=-1)

    assert HeuristicBot(0).choose(position((1, 8)), 1) == "ahead"
    assert HeuristicBot(0).choose(position((8, 8)), 1) in ("left", "right")
    assert HeuristicBot(0).choose(position((1, 8), rush_attacks="once-per-round"), 1) in ("left", "right")


def test_heuristic_bot_beats_random_bots() -> None:
    """Over 30 seeded 2-player sprint races the heuristic bot wins nearly all (fixed seeds: deterministic;
    measured 29 of 30 before the bot rammed, 30 now)."""
    game = slipstream.load("rush-n-crush", players=2)
    wins = 0
    for seed in range(30):
        hero = seed % 2
        seats = [HeuristicBot(seed), RandomBot(seed)] if hero == 0 else [RandomBot(seed), HeuristicBot(seed)]
        final = play(game.start(seed=seed), seats)
        assert final.result is not None
        wins += hero in final.result.winners
    assert wins >= 25


def test_heuristic_races_have_rams_and_shots_and_the_first_car_wins_less_often() -> None:
    """Heuristic bots in every seat, 40 grand-prix races of 4 cars and 40 of 2 (fixed seeds): they Side Ram,
    Rush 'n' Crush and shoot, and the first car to play (grid slot 1, first in round 1's order: Round, RC-G7)
    wins at most 36 of the 80; the bot before it valued attacks (it never rammed) won 42 of these 80 for the
    first car, the ramming bot 34 with the content proposal's numbers, and 31 (9 and 22) with the tuned
    defaults (docs/rules/rush-n-crush.md, Balance)."""
    totals = {"side_rams": 0.0, "rush_n_crush_rams": 0.0, "shots": 0.0}
    first = 0
    for players in (4, 2):
        game = slipstream.load("rush-n-crush", players=players, course="grand-prix")
        for seed in range(40):
            final = play(game.start(seed=seed), [HeuristicBot(seed + k) for k in range(players)])
            assert isinstance(final, RushState)
            first += final.winner == final.grid_seats[0]
            race = metrics.race_metrics(final)
            for key in totals:
                totals[key] += race[key]
    assert all(value > 0 for value in totals.values()), totals
    assert first <= 36


def test_heuristic_bot_choices_are_legal_throughout_a_race() -> None:
    rng = random.Random(5)
    s = slipstream.load("rush-n-crush", players=4, course="grand-prix").start(seed=5)
    bot = HeuristicBot(5)
    while not s.is_over:
        if s.actor == CHANCE:
            s = s.apply(s.sample_chance())
            continue
        seat = s.actor
        assert isinstance(seat, int) and isinstance(s, RushState)
        choice = bot.choose(s, seat) if rng.random() < 0.8 else rng.choice(s.legal_actions())
        assert choice in s.legal_actions()
        s = s.apply(choice)
    assert s.stage is not Stage.GEAR
