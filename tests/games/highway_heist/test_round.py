"""Playing the Game, End of Round (Road Maintenance, Stunt Card Maintenance), Stunt Actions, Setup and
Difficulty, and the End of the Game (rules/highway-heist.txt, pages 4-5, 10-11, 15, 19-20)."""

from __future__ import annotations

import pytest

import slipstream
from slipstream.games.highway_heist import rules
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import OFF, SUV, TANK, WRECK, Stage

from .helpers import arrange, end_round, enemy_die, index_at, new, piece_at, play_passively, roll, sp

DOM_DRIFTER = {"characters": "dom,brian", "vehicles": "street-drifter,exotic-supercar"}


def test_setup() -> None:
    """Setup: a Player Vehicle per player in the starting row, manned, cube at the top, two Boost tokens
    each; the scenario's pieces (Tank Assault: the Tank flanked by two SUVs with Enemy Pegs); the first
    Stunt card out with its Boost tokens; twelve Enemy cards in the deck."""
    state = slipstream.load("highway-heist", players=3).start(seed=4)
    assert isinstance(state, HeistState)
    assert state.stage is Stage.STUNT_CARD
    assert sorted(a.split(":")[1] for a in state.legal_actions()) == ["ta-s1a", "ta-s1b", "ta-s1c", "ta-s1d"]
    s = state.apply("stunt-card:ta-s1c")
    assert s.stunt_row == ("ta-s1c", "", "") and s.stunt_tokens == (1, 0, 0)
    assert s.boost == (2, 2, 2) and s.boost_supply == 20 - 6 - 1
    assert [rules.col(s, s.pieces[i].space) for i in s.vehicle] == [0, 0, 0]
    assert all(rules.manned(s, seat) for seat in range(3)) and s.damage == (0, 0, 0)
    assert piece_at(s, 9, 3).kind == TANK
    assert piece_at(s, 9, 2).enemy_peg and piece_at(s, 9, 4).enemy_peg
    assert len(s.enemy_deck) == 12 and s.enemy_row == ("", "", "")
    assert s.stage is Stage.CHOOSE_TURN and s.actor == frozenset({0, 1, 2})


def test_hijacked_suv_cannot_be_chosen_at_the_start() -> None:
    """Setup: the Hijacked SUV on the back of each Vehicle Board cannot be chosen at the start."""
    with pytest.raises(slipstream.OptionError, match="hijacking"):
        slipstream.load("highway-heist", players=2, vehicles="hijacked-suv,street-drifter")


@pytest.mark.parametrize(("difficulty", "deck", "levels"), [
    ("easy", 9, (4, 4, 1)), ("standard", 7, (3, 3, 1)), ("hard", 6, (2, 3, 1)), ("beast", 5, (2, 2, 1))])
def test_difficulty_builds_the_stunt_deck(difficulty: str, deck: int, levels: tuple[int, int, int]) -> None:
    """Difficulty: Easy all nine Stunt cards; Standard removes one Level 1 and one Level 2; Hard two and
    one; It's a Beast! two and two; the Level 3 card at the bottom, Level 1 cards on top."""
    s = slipstream.load("highway-heist", players=2, difficulty=difficulty).start(seed=1)
    assert isinstance(s, HeistState)
    assert s.stunts_left == levels and sum(levels) == deck
    assert all(a.startswith("stunt-card:ta-s1") for a in s.legal_actions())


def test_the_team_chooses_who_plays_next_each_once_a_round() -> None:
    """Playing the Game: the team decides the order (any seat not yet Exhausted may take the turn); once
    every Character Board is Exhausted the round ends."""
    s = new(players=3)
    assert s.active == 0
    s = enemy_die(s, "card").apply("enemy-card:ta-e10")
    assert s.stage is Stage.CHOOSE_TURN and s.actor == frozenset({1, 2})
    assert s.legal_actions() == ["1:play", "2:play"]
    s = s.apply("2:play")
    assert s.active == 2 and s.exhausted == (True, False, False)


def test_road_maintenance_example() -> None:
    """End of Round, EXAMPLE: P2's unmanned Exotic Supercar moves West one space; Wreck B moves four
    spaces West, the Enemy SUV in its path is removed and its Enemy Peg moves onto the Exotic Supercar;
    Wreck C destroys and removes P1's Street Drifter, and both P1 (behind the wheel) and P2 (on top)
    move their pegs to the nearest vehicle with a free slot."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 2), 1: (7, 5)}, suvs=[(7, 4), (2, 4)],
                wrecks=[(6, 2), (9, 4)], pegs=[(7, 4)], on_top={1: (3, 2)}, main={"tank": (12, 1)})
    drifter = s.vehicle[0]
    s = end_round(s)
    assert piece_at(s, 6, 5).owner == 1 and piece_at(s, 6, 5).enemy_peg        # drifted, then boarded
    assert piece_at(s, 5, 4).kind == WRECK and piece_at(s, 2, 2).kind == WRECK    # B and C moved four
    assert sp(7, 4) not in rules.occupancy(s)                                    # the SUV is gone
    assert s.pieces[drifter].space == OFF and s.vehicle[0] == -1                # destroyed and removed
    assert s.peg_on[0] == index_at(s, 2, 4) and s.peg_on[1] == index_at(s, 2, 4)


def test_wreck_passes_other_wrecks_and_leaves_the_road() -> None:
    """Road Maintenance, Wrecks: a Wreck that moves off the Road Board returns to the supply (HH-A4: it
    passes over other Wrecks)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (8, 2), 1: (8, 5)}, wrecks=[(3, 3), (5, 3)], main={"tank": (12, 1)})
    s = end_round(s)
    assert piece_at(s, 1, 3).kind == WRECK                  # from (5,3), over the other
    assert sum(1 for p in s.pieces if p.kind == WRECK and p.space >= 0) == 1
    assert sum(1 for p in s.pieces if p.kind == SUV and p.space < 0) == 7


def test_unmanned_vehicle_drifts_unless_something_is_directly_behind() -> None:
    """Road Maintenance, Unmanned Player Vehicles: one space West, not if a vehicle is directly behind;
    off the road an unmanned Player Vehicle is destroyed."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 2), 1: (1, 5)}, suvs=[(4, 2), (8, 6)],
                on_top={0: (8, 6), 1: (8, 6)}, main={"tank": (12, 1)})
    s = end_round(s)
    assert piece_at(s, 5, 2).owner == 0        # blocked by the SUV behind
    assert s.vehicle[1] == -1                        # P2's fell off the road


def test_manned_vehicles_do_not_drift() -> None:
    """Road Maintenance moves only Wrecks and unmanned or abandoned vehicles."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 2), 1: (7, 5)}, main={"tank": (12, 1)})
    s = end_round(s)
    assert piece_at(s, 5, 2).owner == 0 and piece_at(s, 7, 5).owner == 1


def test_stunt_card_maintenance() -> None:
    """Stunt Card Maintenance: the cards move one spot West; one leaving the road returns its tokens to
    the supply and is discarded; the next card is drawn to the East spot with its Boost tokens."""
    s = new(stunt="ta-s1a").copy()
    s.stunt_row = ("ta-s1a", "ta-s1b", "ta-s1c")
    s.stunt_tokens = (1, 1, 1)
    s.stunt_drawn = ("ta-s1a", "ta-s1b", "ta-s1c")
    s.stunts_left = (0, 3, 1)
    s.boost_supply -= 2
    s = end_round(s)
    assert s.stunt_row == ("", "ta-s1a", "ta-s1b") and s.stunt_discard == ("ta-s1c",)
    assert s.stage is Stage.STUNT_CARD
    assert all(a.startswith("stunt-card:ta-s2") for a in s.legal_actions())
    supply = s.boost_supply
    s = s.apply("stunt-card:ta-s2a")
    assert s.stunt_tokens == (2, 1, 1) and s.boost_supply == supply - 2


def test_level_3_card_leaving_the_road_loses() -> None:
    """Stunt Card Maintenance, NOTE, and End of the Game: if the Level 3 card moves off the road the game
    ends at once and the team loses: no seat wins."""
    s = new().copy()
    s.stunt_row = ("", "", "ta-s3")
    s.stunts_left = (0, 0, 0)
    s = end_round(s)
    assert s.is_over and s.result is not None
    assert s.result.winners == () and "Level 3" in s.result.reason
    assert sorted(s.result.order) == [0, 1]


@pytest.mark.parametrize(("difficulty", "last_round"), [("easy", 11), ("standard", 9), ("hard", 8), ("beast", 7)])
def test_the_stunt_clock(difficulty: str, last_round: int) -> None:
    """GAPS 2.2, the Stunt clock: three spots, so the team that never wins loses at the end of round 11,
    9, 8 or 7."""
    for seed in range(4):
        s = slipstream.load("highway-heist", players=2, difficulty=difficulty).start(seed=seed)
        s = play_passively(s)
        if "Level 3" in s.result.reason:
            assert s.round == last_round
            return
    pytest.fail("no passive game ran out the clock")


def test_stunt_success_takes_a_boost_token_and_an_empty_card_is_flipped() -> None:
    """Stunt Actions: a successful Level 1 or 2 Stunt takes one token off the card for the player; with
    none left the card is no longer available. A Stunt counts as one of the two actions."""
    s = arrange(new(stunt="ta-s1a", **DOM_DRIFTER), vehicles={0: (4, 3), 1: (1, 6)}, suvs=[(4, 2)],
                main={"tank": (2, 2)})
    assert "stunt:ta-s1a@c4l2" in s.legal_actions()
    s = roll(s.apply("stunt:ta-s1a@c4l2"), 2)
    assert piece_at(s, 4, 2).kind == WRECK
    assert s.boost[0] == 3 and s.stunt_tokens[0] == 0 and s.actions_left == 1
    s = s.copy()
    s.pieces = tuple(p._replace(kind=SUV) if i == index_at(s, 4, 2) else p for i, p in enumerate(s.pieces))
    assert not [a for a in s.legal_actions() if a.startswith("stunt:")]


def test_stunt_condition_must_hold() -> None:
    """Stunt Actions: if the Condition is not true, the Stunt may not be attempted."""
    s = arrange(new(stunt="ta-s1a", **DOM_DRIFTER), vehicles={0: (4, 3), 1: (1, 6)}, suvs=[(5, 3)],
                main={"tank": (2, 2)})
    assert not [a for a in s.legal_actions() if a.startswith("stunt:")]


def test_failed_stunt_may_be_tried_again() -> None:
    """FAQ: a failed Stunt may be attempted again with the second action if its Condition still holds."""
    s = arrange(new(stunt="ta-s1a", **DOM_DRIFTER), vehicles={0: (4, 3), 1: (1, 6)}, suvs=[(4, 2)],
                main={"tank": (2, 2)})
    s = roll(s.apply("stunt:ta-s1a@c4l2"), 0)
    assert "stunt:ta-s1a@c4l2" in s.legal_actions()


def test_stunt_token_at_the_cap_goes_to_the_supply() -> None:
    """Getting Boost Tokens, IMPORTANT: at most three (Roman five); a Stunt token beyond it stays in the
    supply (content 0.3)."""
    s = arrange(new(stunt="ta-s1a", **DOM_DRIFTER), vehicles={0: (4, 3), 1: (1, 6)}, suvs=[(4, 2)],
                main={"tank": (2, 2)}).copy()
    s.boost = (3, 2)
    s.boost_supply -= 1
    supply = s.boost_supply
    s = roll(s.apply("stunt:ta-s1a@c4l2"), 2)
    assert s.boost[0] == 3 and s.boost_supply == supply + 1


def test_level_3_stunt_wins_and_is_repeatable() -> None:
    """Stunt Actions: the Level 3 card has no Boost token and may be tried as often as needed; End of the
    Game: performing it wins at once, every seat a winner (Harpoon: on foot on a vehicle next to the
    Tank, Tank Damage at least 3, Athletics 5: Balance)."""
    s = arrange(new(stunt="ta-s1a", characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 2), 1: (1, 6)}, suvs=[(8, 3)], on_top={0: (8, 3)}, main={"tank": (9, 3)}).copy()
    s.stunt_row = ("ta-s3", "", "")
    assert "stunt:ta-s3" not in s.legal_actions()      # the gate: Tank Damage 3
    s = s.copy()
    s.track = 3
    s = roll(s.apply("stunt:ta-s3"), 1)
    assert "stunt:ta-s3" in s.legal_actions()
    s = s.apply("stunt:ta-s3").apply("1:assist")
    assert s.roll is not None and s.roll.dice == 5
    assert not s.apply("effort:4s0b1x").is_over      # 4 successes of 5 dice are not enough
    s = s.apply("effort:5s0b0x")
    assert s.is_over and s.result is not None and s.result.winners == (0, 1)
    assert "Level 3" in s.result.reason


@pytest.mark.parametrize("lanes", ["x", "1,1", "1,9", "1", "1,2,3", "1,a"])
def test_bad_starting_lanes_are_a_clear_option_error(lanes: str) -> None:
    """Setup: each Player Vehicle in a different space of the starting row; a bad ``lanes`` is refused."""
    with pytest.raises(slipstream.OptionError, match="lanes"):
        slipstream.load("highway-heist", players=2, lanes=lanes)
    assert slipstream.load("highway-heist", players=2, lanes="1, 6").start_spaces == (0, 5)  # type: ignore[attr-defined]


def test_a_team_names_each_seats_character_and_vehicle_together() -> None:
    """Setup: each player takes a Character Board and a Vehicle Board. Option ``team`` names both per
    seat (``character/vehicle``), so whole teams can be compared (``simulate --sweep "team=...|..."``);
    it is refused with ``characters`` or ``vehicles``, or written otherwise, naming the option."""
    game = slipstream.load("highway-heist", players=3,
                           team="roman/import-racer, tej/american-muscle,han/street-drifter")
    assert [c.id for c in game.characters] == ["roman", "tej", "han"]  # type: ignore[attr-defined]
    assert [v.id for v in game.vehicles] == ["import-racer", "american-muscle", "street-drifter"]  # type: ignore[attr-defined]
    same = slipstream.load("highway-heist", players=3, characters="roman,tej,han",
                           vehicles="import-racer,american-muscle,street-drifter")
    assert game.start(seed=4).legal_actions() == same.start(seed=4).legal_actions()
    for bad, words in [({"team": "roman,tej,han"}, "character/vehicle pairs"),
                       ({"team": "roman/import-racer,tej/american-muscle,han/street-drifter", "characters": "dom"},
                        "without 'characters'"),
                       ({"team": "roman/import-racer,tej/hijacked-suv,han/street-drifter"}, "hijacking"),
                       ({"team": "roman/import-racer,tej/tank,han/street-drifter"},
                        "team \\(vehicles\\).*unknown 'tank'")]:
        with pytest.raises(slipstream.OptionError, match=words):
            slipstream.load("highway-heist", players=3, **bad)
