"""Every Enemy card and Stunt reward line of the default content runs (content sections 5-7), and a
few cards checked in detail."""

from __future__ import annotations

import pytest

import slipstream
from slipstream.games.highway_heist import turn
from slipstream.games.highway_heist.content import Line
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import SUV, TANK, Stage, Task, TaskKind

from .helpers import arrange, new, passive_step, piece_at, play_passively

SCENARIOS = ["tank-assault", "semi-heist", "chopper-takedown"]


def settle(s: HeistState) -> HeistState:
    """Resolve whatever a line left waiting: no Assist, no Boost, first choice, chance from the seed,
    until the queue is empty."""
    for _ in range(500):
        if s.is_over or (not s.queue and s.stage in (Stage.ACTION, Stage.CHOOSE_TURN, Stage.ENEMY_DIE)):
            return s
        s = passive_step(s)
    raise AssertionError("the effect did not settle")


def run_lines(s: HeistState, lines: tuple[Line, ...]) -> HeistState:
    s = s.copy()
    s.queue = tuple(Task(TaskKind.EFFECT, line=line, seat=s.active) for line in lines)
    s.stage = Stage.AUTO
    turn.advance(s, [])
    return settle(s)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_enemy_card_runs_its_reveal_and_activated_effects(scenario: str) -> None:
    game = slipstream.load("highway-heist", players=3, scenario=scenario)
    start = new(players=3, scenario=scenario)
    start = arrange(start, vehicles={0: (8, 2), 1: (7, 4), 2: (6, 3)}, suvs=[(9, 5), (5, 2)], pegs=[(9, 5)],
                    strip=True)
    for card in game.enemy_cards.values():  # type: ignore[attr-defined]
        for lines in (card.reveal, card.activated):
            after = run_lines(start, lines)
            assert after.invariant_problems() == [], card.id


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_stunt_and_scenario_action_reward_runs(scenario: str) -> None:
    game = slipstream.load("highway-heist", players=3, scenario=scenario)
    start = new(players=3, scenario=scenario)
    start = arrange(start, vehicles={0: (8, 2), 1: (7, 4), 2: (6, 3)}, suvs=[(9, 5), (5, 2)], pegs=[(9, 5)],
                    on_top={0: (9, 5)})
    cards = [*game.stunt_cards.values(), *game.scenario_actions.values()]  # type: ignore[attr-defined]
    for card in cards:
        after = run_lines(start, card.reward)
        assert after.invariant_problems() == [], card.id


def test_field_repairs_only_with_a_crewman_on_the_tank() -> None:
    """ta-e08 Field Repairs, Activated: if an Enemy Peg is on the Tank, Tank Damage -1."""
    game = slipstream.load("highway-heist", players=2)
    card = game.enemy_cards["ta-e08"]  # type: ignore[attr-defined]
    s = arrange(new(), vehicles={0: (1, 1), 1: (1, 6)}, main={"tank": (9, 3)}).copy()
    s.track = 2
    assert run_lines(s, card.activated).track == 2
    s = arrange(s, pegs=[(9, 3)], strip=False).copy()
    assert run_lines(s, card.activated).track == 1


def test_pincer_movement_places_in_the_active_lane_from_both_ends() -> None:
    """ta-e11 Pincer Movement: one SUV at the East end of the Active Player's lane stepping West, one at
    the West end stepping East."""
    game = slipstream.load("highway-heist", players=2)
    card = game.enemy_cards["ta-e11"]  # type: ignore[attr-defined]
    s = arrange(new(), vehicles={0: (1, 4), 1: (5, 6)}, suvs=[(12, 4)], main={"tank": (9, 3)})
    s = run_lines(s, card.reveal)
    assert piece_at(s, 11, 4).kind == SUV and piece_at(s, 2, 4).kind == SUV


def test_cargo_snatch_takes_cargo_back_from_boarded_vehicles() -> None:
    """sh-e11 Cargo Snatch: a guard boards each vehicle with Cargo; when Activated, each boarded vehicle
    with Cargo gives one back to the Semi."""
    game = slipstream.load("highway-heist", players=2, scenario="semi-heist")
    card = game.enemy_cards["sh-e11"]  # type: ignore[attr-defined]
    s = arrange(new(scenario="semi-heist"), vehicles={0: (2, 1), 1: (2, 6)}).copy()
    s.cargo_in_semi = 3
    s.pieces = tuple(p._replace(cargo=1) if i == s.vehicle[0] else p for i, p in enumerate(s.pieces))
    s = run_lines(s, card.reveal)
    assert s.pieces[s.vehicle[0]].enemy_peg and not s.pieces[s.vehicle[1]].enemy_peg
    s = run_lines(s, card.activated)
    assert s.pieces[s.vehicle[0]].cargo == 0 and s.cargo_in_semi == 4


def test_turret_traverse_moves_the_tank_toward_the_active_lane() -> None:
    """ta-e06 Turret Traverse, Reveal: the Tank moves one lane toward the Active Player Vehicle."""
    game = slipstream.load("highway-heist", players=2)
    card = game.enemy_cards["ta-e06"]  # type: ignore[attr-defined]
    s = arrange(new(), vehicles={0: (3, 6), 1: (1, 1)}, main={"tank": (9, 3)})
    s = run_lines(s, card.reveal)
    assert piece_at(s, 9, 4).kind == TANK


def test_a_passive_team_never_wins_and_the_game_still_ends() -> None:
    """Every scenario ends (the Stunt clock at the latest) even when the team does nothing."""
    for scenario in SCENARIOS:
        s = play_passively(slipstream.load("highway-heist", players=2, scenario=scenario).start(seed=3))
        assert s.is_over and s.result is not None and s.result.winners == ()
