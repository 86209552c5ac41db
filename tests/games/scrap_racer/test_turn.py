"""Roll the dice, boost markers, A) 1) the dice move (Scrap Racer rulebook pages 4-5)."""

from __future__ import annotations

import pytest

import slipstream
from slipstream.engine import CHANCE, IllegalActionError
from slipstream.games.scrap_racer.rules import active_racer

from .helpers import check, play, position, race, roll, rules, space, whose_turn

NEUTRAL = "hover,twister,crusher,swifty"   # slot 0 (Hover) has no movement ability


def test_four_dice_then_stop_moves_13() -> None:
    """Roll the dice: "The player decides after the 4th die to not make another roll. Therefore they
    must move their racer 13 spaces." (page 4, example)."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47})
    s = play(s, "die:1", "roll", "die:3", "roll", "die:4", "roll", "die:5")
    assert s.legal_actions() == ["roll", "stop"]
    s = play(s, "stop")
    assert s.progress[0] == 33
    assert whose_turn(s) == "twister" and s.actor == CHANCE
    check(s)


def test_a_double_ends_the_turn_with_a_crash_card_from_the_matching_pile() -> None:
    """Roll the dice: "If they have rolled the same number as any of their previously rolled dice, they
    immediately draw a crash card without moving their racer." B) 1st: "the crash deck that matches the
    number of the rolled double" (1/2, 3/4, 5/6)."""
    g = race(racers=NEUTRAL)
    for face, cards in ((1, "advance-2"), (2, "advance-2"), (3, "stay-put"), (4, "stay-put"),
                        (5, "backwards-4"), (6, "backwards-4")):
        s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47})
        other = 3 if face != 3 else 2
        s = play(s, f"die:{face}", "roll", f"die:{other}", "roll", f"die:{face}")
        assert s.actor == CHANCE
        outcomes = [a for a, _ in s.chance_outcomes()]
        assert f"crash:{cards}" in outcomes
        assert all(a.startswith("crash:") for a in outcomes)
        assert s.progress[0] == 20, "the dice are not moved"
    pile = {1: {"advance-2", "advance-3", "advance-5", "two-dice", "five-forward-two-back"},
            3: {"three-forward", "stay-put", "catching-up-2", "backwards-die", "push-5"},
            5: {"backwards-4", "backwards-6", "catching-up-4", "loss-of-position", "backwards-die", "last-place-4"}}
    for face, effects in pile.items():
        s = play(position(g, pos={0: 20}), f"die:{face}", "roll", f"die:{face}")
        assert {a.removeprefix("crash:") for a in s.legal_actions()} == effects


def test_a_double_on_the_second_die_may_not_be_rolled_on() -> None:
    """Roll the dice, example: "must now draw the corresponding crash card. They may not roll again"."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20}), "die:3", "roll", "die:3")
    assert s.actor == CHANCE
    with pytest.raises(IllegalActionError):
        s.apply("roll")
    with pytest.raises(IllegalActionError):
        s.apply("stop")


def test_up_to_six_dice_and_the_sixth_is_kept() -> None:
    """Roll the dice: "If they have already rolled all 6 dice they must keep their results"."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47})
    log: list = []
    s = play(s, "die:1", "roll", "die:2", "roll", "die:3", "roll", "die:4", "roll", "die:5", log=log)
    assert s.legal_actions() == ["roll", "stop"]
    s = play(s, "roll", "die:6", log=log)
    assert s.progress[0] == 20 + 21
    assert whose_turn(s) == "twister"


def test_the_sixth_die_with_boost_markers_may_only_stop() -> None:
    """Roll the dice (six dice at most) with Boost markers: after the sixth die there is no roll."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"turn": 1}})
    s = play(s, "die:1", "roll", "die:2", "roll", "die:3", "roll", "die:4", "roll", "die:5", "roll", "die:3")
    assert s.legal_actions() == ["boost:turn", "crash"]
    s = play(s, "boost:turn")  # 3 -> 4, still a double
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("crash:")
    s = play(position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"turn": 1}}),
             "die:1", "roll", "die:2", "roll", "die:3", "roll", "die:4", "roll", "die:5", "roll", "die:6")
    assert s.legal_actions() == ["boost:turn", "stop"]


def test_reroll_marker_only_the_new_result_counts() -> None:
    """Boost markers, Re-roll: "Re-roll the just rolled die. Only the new result counts." Used before
    the doubles check, and "removed from the game"."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"reroll": 1}})
    s = play(s, "die:4", "roll", "die:4")
    assert "crash" in s.legal_actions() and "boost:reroll" in s.legal_actions()
    s = play(s, "boost:reroll")
    assert s.actor == CHANCE and s.legal_actions() == [f"die:{n}" for n in range(1, 7)]
    s = play(s, "die:2")
    assert list(s.boost_markers[0]) == [0, 0, 0]
    assert s.legal_actions() == ["roll", "stop"], "the marker is gone: no more boost actions"
    s = play(s, "stop")
    assert s.progress[0] == 26
    check(s)


@pytest.mark.parametrize(("face", "up", "down"), [(1, 2, None), (3, 4, 2), (6, None, 5)])
def test_plus_minus_marker_never_wraps_6_and_1(face: int, up: int | None, down: int | None) -> None:
    """Boost markers, +/- 1: "change the result ... up or down by one pip ... It is not allowed to change a
    result from 6 to 1 or vice versa"."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"plus-minus": 1}}), f"die:{face}")
    legal = s.legal_actions()
    assert ("boost:up" in legal) == (up is not None)
    assert ("boost:down" in legal) == (down is not None)
    for how, value in (("up", up), ("down", down)):
        if value is not None:
            after = play(s, f"boost:{how}", "stop")
            assert after.progress[0] == 20 + value


@pytest.mark.parametrize("face", range(1, 7))
def test_turn_marker_gives_the_opposite_face(face: int) -> None:
    """Boost markers, Turn: "Turn the just rolled die to its opposite face" (7 - x)."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"turn": 1}}),
             f"die:{face}", "boost:turn", "stop")
    assert s.progress[0] == 20 + 7 - face


def test_several_markers_on_one_die_before_the_doubles_check() -> None:
    """Boost markers: "as many Boost markers they possess as they want during their turn, including more
    than one for a single die", used "before checking the result for doubles"."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"plus-minus": 2, "turn": 1}})
    s = play(s, "die:2", "roll", "die:5", "roll", "die:5")
    assert "crash" in s.legal_actions()
    s = play(s, "boost:turn")          # 5 -> 2: still a double
    assert "crash" in s.legal_actions()
    s = play(s, "boost:up", "boost:up")  # 2 -> 3 -> 4: no double
    assert s.legal_actions() == ["roll", "stop"]
    s = play(s, "stop")
    assert s.progress[0] == 20 + 2 + 5 + 4
    assert list(s.boost_markers[0]) == [0, 0, 0]
    check(s)


def test_holding_markers_a_double_may_be_accepted_with_crash() -> None:
    """Boost markers are optional: a player holding some may accept the double (action ``crash``)."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"reroll": 1}}),
             "die:6", "roll", "die:6", "crash")
    assert s.legal_actions()[0].startswith("crash:") and s.boost_markers[0][1] == 1


def test_three_boost_markers_give_18() -> None:
    """Roll the dice, example: "1) On their third roll the player uses a Boost marker to turn a 1 into a 6.
    2) On the next roll, they spend two markers to reroll two times, avoiding a double. 3) The player used
    3 Boost markers during their turn and gets a total of 18."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"turn": 1, "reroll": 2}})
    log: list = []
    s = play(s, "die:5", "roll", "die:4", "roll", "die:1", "boost:turn", "roll",
             "die:5", "boost:reroll", "die:4", "boost:reroll", "die:3", "stop", log=log)
    assert s.progress[0] == 20 + 18
    assert "Roll the dice" in rules(log)
    assert list(s.boost_markers[0]) == [0, 0, 0]
    assert s.boost_markers_used == 3


def test_first_move_counts_from_behind_the_line() -> None:
    """A) 1) Note: "place your racer on the space behind the finish line and begin counting from here."
    Example: "Kai (red) roled an 8 and places his racer on the 8th space after the finish line"."""
    g = race(racers=NEUTRAL)
    s = play(position(g), *roll(3, 5))
    assert s.progress[0] == 8 and space(s, 0) == 8
    assert s.laps[0] == 0, "entering the track is not a crossing (SR-A13)"
    assert not s.crossed


def test_moving_counts_occupied_spaces() -> None:
    """A) 1): "counting every space as one, even those that are occupied by another racer"."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 21, 2: 22, 3: 23}), *roll(2, 3))
    assert s.progress[0] == 25


def test_a_die_without_markers_is_checked_at_once() -> None:
    """Roll the dice: without boost markers nothing is asked between the die and the doubles check."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20}), "die:2")
    assert s.legal_actions() == ["roll", "stop"]
    assert s.actor == 0


def test_a_second_3_on_the_third_die_draws_from_the_3_4_pile() -> None:
    """Roll the dice, example: "With their third die, the player rolled a second 3, and must now draw the
    corresponding crash card. They may not roll again." (B) 1st: the 3/4 pile.)"""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}), "die:3", "roll", "die:5", "roll", "die:3")
    assert s.actor == CHANCE
    assert {a.removeprefix("crash:") for a in s.legal_actions()} == {
        "three-forward", "stay-put", "catching-up-2", "backwards-die", "push-5"}
    assert s.crash_cards_drawn[g.pile_of_double[3]] == 1
    s = play(s, "crash:three-forward")
    assert s.progress[0] == 23, "the dice 3 + 5 + 3 are ignored; the card moves 3"


def test_used_boost_markers_are_removed_from_the_game() -> None:
    """Boost markers: "Return used Boost markers to the game box; they are removed from the game." They do
    not go back to the supply that refills the boost spaces."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 40, 2: 44, 3: 47}, boosts={0: {"turn": 1, "plus-minus": 1}},
                 filled=[2], boost_supply=3)
    unseen = sum(s.unseen_boosts)
    s = play(s, "die:2", "boost:turn", "boost:up", "stop")
    assert s.progress[0] == 26 and list(s.boost_markers[0]) == [0, 0, 0]
    assert s.boost_supply == 3 and sum(s.unseen_boosts) == unseen
    assert s.view(None)["supply"]["boost_markers"] == 3
    check(s)


def test_play_begins_with_the_start_player_and_passes_clockwise() -> None:
    """Playing the Game: "Play begins with the start player and continues in a clockwise order. After the
    active player has completed their turn, play passes to the next player"."""
    g = race(racers="hover,twister,crusher,swifty", start_seat=2)
    s = g.start(seed=0)
    seats = []
    for faces in ((1, 2), (1, 3), (1, 4), (1, 5), (2, 6), (2, 6)):   # no two racers meet
        seats.append(s.owner[active_racer(s)])
        s = play(s, *roll(*faces))
    assert seats == [2, 3, 0, 1, 2, 3]
    assert s.round == 2


def test_the_view_names_whose_roll_every_chance_step_is() -> None:
    """Issue 13: the view's ``roller`` names whose roll or draw each chance step is: the seat dealt the
    next dashboard (Setup 7), nobody for the start-player draw (SR-G8), the active racer's seat for its
    dice, both seats of a fight in the order ``fight:A-B`` reads them (A) 3) Fight); None at a choice."""
    s = slipstream.load("scrap-racer", players=3).start(seed=0)
    rollers = []
    for racer in ("jackal", "hover", "swifty"):
        rollers.append(s.view(None)["roller"])
        s = s.apply(f"racer:{racer}")
    assert rollers == [0, 1, 2] and s.view(None)["roller"] is None  # the start player: nobody's roll
    s = s.apply("start:P2")
    assert s.view(None)["roller"] == 1
    s = s.apply("die:3")
    assert s.actor == 1 and s.view(None)["roller"] is None  # roll again or stop: a choice
    g = race(racers="hover,twister,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3))
    assert s.legal_actions()[0].startswith("fight:") and s.view(None)["roller"] == [0, 1]
