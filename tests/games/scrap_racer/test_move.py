"""A) Move the Racer: bonus cards, the racer abilities and fights (rulebook pages 5, 11 and 12).

Track A: spaces 1-12 straight, 13-24 curve, 25-36 straight, 37-48 curve.
"""

from __future__ import annotations

import pytest

from slipstream.engine import CHANCE, IllegalActionError
from slipstream.games.scrap_racer.types import Need, NeedKind

from .helpers import check, play, position, race, roll, rules, space, texts, whose_turn

# --- bonus cards ---------------------------------------------------------------------------------


def test_phil_plays_a_curve_card_before_his_dice() -> None:
    """A) 1) example: "Phil (green) uses his bonus card first, and advances his racer to the next curved
    space. Then he uses his dice result." Bonus cards, Curve."""
    g = race(racers="hover,twister,crusher,jackal")
    s = position(g, pos={0: 8, 1: 40, 2: 44, 3: 47}, cards={0: {"curve": 1}})
    s = play(s, *roll(2, 3))
    assert s.legal_actions() == ["move", "play:curve"]
    log: list = []
    s = play(s, "play:curve", log=log)
    assert s.progress[0] == 13 + 5, "curve to space 13, then the dice total"
    assert "Bonus cards" in rules(log)
    assert list(s.bonus_cards[0]) == [0] * 6
    deck = g.bonus_deck
    assert s.decks[deck.index].discard[deck.cards.index("curve")] == 1
    assert whose_turn(s) == "twister"
    check(s)


def test_kai_plays_two_cards_before_and_one_after_to_cross_the_line() -> None:
    """Bonus cards, example: "Kai (red) plays two bonus cards first, then uses his dice result. Finally
    he plays another bonus card to cross the finish line this turn."""
    g = race(racers="hover,twister,crusher,jackal")
    s = position(g, pos={0: 30, 1: 5, 2: 9, 3: 11}, cards={0: {"forward-3": 1, "straight": 1, "forward-7": 1}})
    s = play(s, *roll(5, 6))
    assert s.legal_actions() == ["move", "play:forward-3", "play:forward-7", "play:straight"]
    s = play(s, "play:forward-3")              # 30 -> 33 (straight)
    assert s.progress[0] == 33
    s = play(s, "play:straight")               # -> 34, the next straight space (SR-A5)
    assert s.progress[0] == 34
    s = play(s, "move")                        # + 11 -> 45
    assert s.progress[0] == 45 and s.laps[0] == 0
    assert s.legal_actions() == ["done", "play:forward-7"]
    s = play(s, "play:forward-7")              # -> 52: across the finish line
    assert s.progress[0] == 52 and s.laps[0] == 1
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("goal:")


def test_bonus_card_window_after_the_move_can_be_closed_with_done() -> None:
    """A) 1): bonus cards "before and/or after moving": a player may keep a card (``done``)."""
    g = race(racers="hover,twister,crusher,jackal")
    s = position(g, pos={0: 20, 1: 5, 2: 9, 3: 11}, cards={0: {"forward-5": 1}})
    s = play(s, *roll(1, 2), "move")
    assert s.progress[0] == 23 and s.legal_actions() == ["done", "play:forward-5"]
    s = play(s, "done")
    assert s.progress[0] == 23 and s.bonus_cards[0][g.bonus_deck.cards.index("forward-5")] == 1
    assert whose_turn(s) == "twister"


@pytest.mark.parametrize(("card", "start", "end"), [
    ("forward-3", 20, 23), ("forward-5", 20, 25), ("forward-7", 20, 27),
    ("straight", 20, 25), ("straight", 5, 6), ("straight", 12, 25), ("straight", 40, 49),
    ("curve", 5, 13), ("curve", 13, 14), ("curve", 30, 37),
])
def test_each_bonus_card_moves_to_its_target(card: str, start: int, end: int) -> None:
    """Bonus cards: 3, 5, 7 spaces forward; Straight / Curve "advances to the next straight/curved space"
    (SR-A5: the adjacent space counts when it is of that kind)."""
    g = race(racers="hover,twister,crusher,jackal")
    s = position(g, pos={0: start}, cards={0: {card: 1}})
    s = play(s, "die:1", "stop", f"play:{card}")
    assert s.progress[0] == end + 1, f"{card} from {start} should reach {end}, then the die adds 1"


def test_catch_up_joins_the_racer_in_front_and_fights_when_it_stays() -> None:
    """Bonus cards, Catch up: "advances onto the space of the next racer directly in front of him ...
    If no other bonus card is played immediately or the racer does not advance further due to dice rolls,
    a fight occurs."""
    g = race(racers="hover,twister,crusher,steel-jacket")
    s = position(g, pos={0: 20, 1: 30, 2: 40, 3: 10}, cards={0: {"catch-up": 1}})
    s = play(s, *roll(1, 2), "move", "play:catch-up")     # 23, then onto Twister at 30
    assert s.progress[0] == 30 and s.actor == CHANCE
    assert s.legal_actions()[0].startswith("fight:")
    log: list = []
    s = play(s, "fight:6-2", log=log)
    assert s.progress[0] == 31 and s.progress[1] == 30
    assert R_FIGHT_RULE in rules(log)
    # played before the dice, the racer moves on: no fight
    s = position(g, pos={0: 20, 1: 30, 2: 40, 3: 10}, cards={0: {"catch-up": 1}})
    s = play(s, *roll(1, 2), "play:catch-up")
    assert s.progress[0] == 33 and whose_turn(s) == "twister"


R_FIGHT_RULE = "A) Move the Racer, 3) Fight"


def test_bonus_cards_are_not_played_on_a_crash_turn() -> None:
    """SR-A6: bonus cards are used under A) Move the Racer only, never on a crash turn (B)."""
    g = race(racers="hover,twister,crusher,jackal")
    s = position(g, pos={0: 20, 1: 5, 2: 9, 3: 11}, cards={0: {"forward-3": 1}})
    s = play(s, "die:3", "roll", "die:3", "crash:stay-put")
    assert s.actor == CHANCE and not any(a.startswith("play:") for a in s.legal_actions())
    assert whose_turn(s) == "twister"
    assert s.bonus_cards[0][2] == 1


def test_bonus_cards_cannot_be_played_out_of_the_window() -> None:
    """A) 1): cards are played around the dice move; not while rolling (IllegalActionError)."""
    g = race(racers="hover,twister,crusher,jackal")
    s = play(position(g, pos={0: 20}, cards={0: {"forward-3": 1}}), "die:2")
    with pytest.raises(IllegalActionError):
        s.apply("play:forward-3")


# --- racer abilities -----------------------------------------------------------------------------


def test_steel_jacket_ends_on_a_straight_and_advances_once() -> None:
    """Racer abilities, Steel Jacket: "If the racer is on a straight space, it advances by 1 space once
    only." A) 2): the ability is checked after the move."""
    g = race(racers="steel-jacket,twister,crusher,hover")
    s = play(position(g, pos={0: 3}), *roll(2, 3))
    assert s.progress[0] == 9                          # 8 is straight, +1 -> 9 (straight again: no more)
    s = play(position(g, pos={0: 10}), *roll(1, 2))
    assert s.progress[0] == 13                         # 13 is a curve: nothing
    s = play(position(g, pos={0: 30}, cards={0: {"forward-7": 1}}), *roll(1, 3), "move", "play:forward-7")
    assert s.progress[0] == 41                         # the final space (41, curve) decides


def test_swifty_ends_on_a_curve_and_advances_once() -> None:
    """Racer abilities, Swiftly (Swifty, SR-A8): "If the racer is on a curved space, it advances by 1 space
    once only." Jules' example: "she ended her movement on a curved space. She advances one more space"."""
    g = race(racers="swifty,twister,crusher,hover")
    log: list = []
    s = play(position(g, pos={0: 10}), *roll(1, 4), log=log)
    assert s.progress[0] == 16
    assert "Racer abilities: Swifty" in rules(log)
    s = play(position(g, pos={0: 20}), *roll(1, 3))
    assert s.progress[0] == 25 and space(s, 0) == 25  # 24 curve -> 25 straight
    s = play(position(g, pos={0: 3}), *roll(1, 2))
    assert s.progress[0] == 6


def test_twister_passes_a_racer_and_advances() -> None:
    """Racer abilities, Twister: "If the racer has passed at least one space with another racer during
    its turn, it advances by 1 space." SR-A4: landing on the racer is not passing it."""
    g = race(racers="twister,hover,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 6, 2: 40, 3: 44}), *roll(2, 3))
    assert s.progress[0] == 9
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3))
    assert s.progress[0] == 8 and s.actor == CHANCE, "landed on Hover: a fight, no ability"
    s = play(position(g, pos={0: 3, 1: 10, 2: 40, 3: 44}), *roll(2, 3))
    assert s.progress[0] == 8


def test_twister_counts_bonus_card_moves() -> None:
    """SR-A4: movement from bonus cards of the racer's own turn counts for Twister."""
    g = race(racers="twister,hover,crusher,swifty")
    s = position(g, pos={0: 3, 1: 6, 2: 40, 3: 44}, cards={0: {"forward-5": 1}})
    s = play(s, *roll(1, 2), "play:forward-5")   # 3 -> 8 passes 6, then 3 more
    assert s.progress[0] == 12


def test_twister_passing_after_a_catch_up() -> None:
    """SR-A4 with Catch up: the racer joins the space of the racer ahead, then the dice take it past."""
    g = race(racers="twister,hover,crusher,swifty")
    s = position(g, pos={0: 3, 1: 20, 2: 40, 3: 44}, cards={0: {"catch-up": 1}})
    s = play(s, *roll(1, 2), "play:catch-up")
    assert s.progress[0] == 24, "it passed Hover's space during its turn"
    s = position(g, pos={0: 3, 1: 20, 2: 40, 3: 44}, cards={0: {"catch-up": 1}})
    s = play(s, *roll(1, 2), "move", "play:catch-up")
    assert s.progress[0] == 20, "landing on Hover is not passing it: a fight"
    assert s.need == Need(NeedKind.FIGHT, racer=0, other=1)


def test_crusher_takes_one_bonus_marker_when_passing() -> None:
    """Racer abilities, Crusher: "If the racer has passed at least one space with another racer during
    its turn, the player takes one bonus marker" (SR-A4: once per turn)."""
    g = race(racers="crusher,hover,twister,swifty")
    s = play(position(g, pos={0: 3, 1: 5, 2: 6, 3: 44}), *roll(2, 4))
    assert s.progress[0] == 9 and s.bonus_markers[0] == 1 and s.bonus_supply == 16
    s = play(position(g, pos={0: 3, 1: 40, 2: 41, 3: 44}), *roll(2, 4))
    assert s.bonus_markers[0] == 0


def test_crusher_third_marker_from_passing_draws_a_bonus_card() -> None:
    """Crusher + B) 2nd: the third bonus marker becomes a face-down bonus card."""
    g = race(racers="crusher,hover,twister,swifty")
    s = play(position(g, pos={0: 3, 1: 5, 2: 40, 3: 44}, bmark={0: 2}), *roll(2, 4))
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("bonus:")
    s = play(s, "bonus:forward-7")
    assert s.bonus_markers[0] == 0 and s.bonus_supply == 17
    assert s.bonus_cards[0][g.bonus_deck.cards.index("forward-7")] == 1
    check(s)


def test_abilities_only_for_the_active_racer() -> None:
    """Playing the Game: "A player may only use the ability of their racer when they are the active
    player." Steel Jacket pushed onto a straight by another's crash card does not advance."""
    g = race(racers="hover,steel-jacket,crusher,swifty")
    s = position(g, pos={0: 20, 1: 6, 2: 40, 3: 44})
    s = play(s, "die:3", "roll", "die:3", "crash:catching-up-2")
    assert s.progress[1] == 8, "moved onto a straight by the card, no ability"


def test_movement_abilities_never_trigger_on_crash_turns() -> None:
    """B) Important: "No player can use their racer's ability during this process. The racer is moved by
    the effect of the crash card only" (SR-A3)."""
    g = race(racers="steel-jacket,hover,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 4, 2: 40, 3: 44}), "die:1", "roll", "die:1", "crash:advance-3")
    assert s.progress[0] == 6
    g = race(racers="swifty,hover,crusher,steel-jacket")
    s = play(position(g, pos={0: 13, 1: 14, 2: 40, 3: 44}), "die:1", "roll", "die:1", "crash:advance-2")
    assert s.progress[0] == 15
    g = race(racers="twister,hover,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 4, 2: 40, 3: 44}), "die:1", "roll", "die:1", "crash:advance-3")
    assert s.progress[0] == 6
    g = race(racers="crusher,hover,twister,swifty")
    s = play(position(g, pos={0: 3, 1: 4, 2: 40, 3: 44}), "die:1", "roll", "die:1", "crash:advance-3")
    assert s.bonus_markers[0] == 1, "only the crash card's bonus marker"


# --- fights --------------------------------------------------------------------------------------


def test_jules_wins_the_fight_with_a_5() -> None:
    """A) 3) Fight: "both players roll one die and compare their results. The player with the higher
    result is the winner ... and advances their racer by one space." Example: "Jules (blue) and Phil (green)
    are fighting ... Jules wins with a 5 and advances her racer one space."""
    g = race(racers="hover,twister,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3))
    assert s.actor == CHANCE
    assert len(s.chance_outcomes()) == 36
    log: list = []
    s = play(s, "fight:5-2", log=log)
    assert s.progress[0] == 9 and s.progress[1] == 8
    assert whose_turn(s) == "twister"
    assert s.fights == 1
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3), "fight:1-4")
    assert s.progress[0] == 8 and s.progress[1] == 9


def test_a_tie_is_rolled_again() -> None:
    """A) 3): "In case of a tie, both players roll again until there is a winner." No boost markers may
    be used in a fight: the fight roll is a chance node only."""
    g = race(racers="hover,twister,crusher,swifty")
    s = position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}, boosts={0: {"reroll": 1}})
    s = play(s, *roll(2, 3), "fight:4-4")
    assert s.actor == CHANCE and all(a.startswith("fight:") for a in s.legal_actions())
    s = play(s, "fight:3-3", "fight:2-6")
    assert s.progress[1] == 9 and s.progress[0] == 8
    assert s.boost_markers[0][1] == 1


def test_chained_fights() -> None:
    """A) 3): "If the winner of the fight moves onto a space with another racer, a new fight occurs, etc.
    until all racers are on a space of their own."""
    g = race(racers="hover,twister,crusher,steel-jacket")
    s = play(position(g, pos={0: 3, 1: 8, 2: 9, 3: 44}), *roll(2, 3))
    s = play(s, "fight:6-1")       # Hover beats Twister, moves onto Crusher at 9
    assert s.progress[0] == 9 and s.actor == CHANCE
    s = play(s, "fight:2-5")       # Crusher wins against Hover and moves to 10
    assert s.progress == [9, 8, 10, 44]
    assert whose_turn(s) == "twister"
    check(s)


def test_the_loser_stays_and_the_winner_may_chain_when_the_defender_wins() -> None:
    """A) 3): the defender that wins also advances, and may meet the next racer."""
    g = race(racers="hover,twister,crusher,steel-jacket")
    s = play(position(g, pos={0: 3, 1: 8, 2: 9, 3: 44}), *roll(2, 3), "fight:1-6")
    assert s.progress[1] == 9 and s.actor == CHANCE
    s = play(s, "fight:6-5")       # Twister (moved in) beats Crusher
    assert s.progress == [8, 10, 9, 44]


def test_jackal_wins_its_fights_on_its_own_turn_and_moves_2() -> None:
    """Racer abilities, Jackal: "automatically wins all fights against other racers, and moves forward by
    2 spaces", with Playing the Game: "A player may only use the ability of their racer when they are the
    active player" (issue 13, SR-A2): Jackal moving onto Hover wins without dice and moves 2."""
    g = race(racers="jackal,hover,crusher,swifty")
    log: list = []
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3), log=log)
    assert s.progress[0] == 10 and s.progress[1] == 8
    assert not any(t.startswith("Fight:") for t in texts(log))
    assert whose_turn(s) == "hover"


def test_jackal_fights_on_another_players_turn_are_rolled() -> None:
    """Playing the Game: "A player may only use the ability of their racer when they are the active
    player" (issue 13, SR-A2): Hover moves onto Jackal on Hover's turn; both roll, and the higher die (Jackal's
    5 against 2) wins and moves 1, not 2. With option jackal=every-fight Jackal wins without dice and moves 2."""
    g = race(racers="hover,jackal,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3))
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("fight:")
    s = play(s, "fight:2-5")
    assert s.progress[:2] == [8, 9]
    g = race(racers="hover,jackal,crusher,swifty", jackal="every-fight")
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3))
    assert s.progress[:2] == [8, 10]


def test_jackal_fights_caused_by_crash_cards_are_rolled() -> None:
    """B) Doubles Rolled: "No player can use their racer's ability during this process" (issue 13, SR-A3):
    on Jackal's own crash turn, Advance 3 puts it on Hover's space; the fight is rolled (Hover's 6 wins and
    moves 1). With option jackal=every-fight Jackal wins and moves 2."""
    g = race(racers="jackal,hover,crusher,swifty")
    s = play(position(g, pos={0: 5, 1: 8, 2: 40, 3: 44}), "die:1", "roll", "die:1", "crash:advance-3")
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("fight:")
    s = play(s, "fight:1-6")
    assert s.progress[:2] == [8, 9]
    g = race(racers="jackal,hover,crusher,swifty", jackal="every-fight")
    s = play(position(g, pos={0: 5, 1: 8, 2: 40, 3: 44}), "die:1", "roll", "die:1", "crash:advance-3")
    assert s.progress[:2] == [10, 8]


def test_jackal_moving_2_onto_another_racer_fights_again() -> None:
    """Jackal moves 2 and, landing on a racer, a new fight follows (A) 3) "etc.")."""
    g = race(racers="jackal,hover,crusher,swifty")
    s = play(position(g, pos={0: 3, 1: 8, 2: 10, 3: 44}), *roll(2, 3))
    assert s.progress[0] == 12 and s.progress[2] == 10


def test_racers_not_on_the_track_never_fight() -> None:
    """SR-A7: racers waiting behind the line share no space and never fight."""
    g = race(racers="hover,twister,crusher,swifty")
    s = play(position(g), *roll(1, 2))
    assert whose_turn(s) == "twister" and s.progress == [3, 0, 0, 0]


def test_racers_on_the_same_space_on_different_laps_fight() -> None:
    """A) 3): "If the player's racer ends on the same space as another racer, a fight takes place" — the
    space decides, not the lap (a leader lapping a racer fights it)."""
    g = race(racers="hover,twister,crusher,steel-jacket")
    s = play(position(g, pos={0: 51, 1: 8, 2: 40, 3: 44}), *roll(2, 3))
    assert s.progress[0] == 56 and space(s, 0) == 8 == space(s, 1)
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("fight:")


def test_the_ability_comes_before_the_fight() -> None:
    """A) Move the Racer: "The player performs the following steps exactly in this order": 1) dice and bonus
    cards, 2) the racer's ability, 3) fight. Steel Jacket landing on a racer on a straight advances first and
    has no fight; Swifty's extra space onto a racer starts a fight (Swifty moved in)."""
    g = race(racers="steel-jacket,twister,crusher,hover")
    log: list = []
    s = play(position(g, pos={0: 3, 1: 8, 2: 40, 3: 44}), *roll(2, 3), log=log)
    assert s.progress[:2] == [9, 8] and whose_turn(s) == "twister"
    assert not any(e.kind.startswith("fight") for e in log)
    g = race(racers="swifty,twister,crusher,hover")
    s = play(position(g, pos={0: 10, 1: 16, 2: 40, 3: 44}), *roll(1, 4))
    assert s.progress[:2] == [16, 16] and s.need == Need(NeedKind.FIGHT, racer=0, other=1)
    s = play(s, "fight:2-5")
    assert s.progress[:2] == [16, 17] and whose_turn(s) == "twister"


def test_abilities_do_not_trigger_for_racers_moved_by_a_goal_card() -> None:
    """Playing the Game: "A player may only use the ability of their racer when they are the active
    player." Swifty moved onto a curve and Twister moved past a racer by another's goal card do not move on."""
    g = race(racers="hover,twister,crusher,swifty")
    s = position(g, pos={0: 46, 1: 10, 2: 60, 3: 8})
    s = play(s, *roll(2, 3), "goal:last-two")      # Twister 10 -> 15, Swifty 8 -> 13 (a curve)
    assert s.progress == [51, 15, 60, 13], "Swifty on a curve does not advance: not the active racer"
    s = position(g, pos={0: 46, 1: 6, 2: 60, 3: 9})
    s = play(s, *roll(2, 3), "goal:last-place")    # Twister 6 -> 13, passing Swifty on 9
    assert s.progress == [51, 13, 60, 9], "Twister passed a racer, but not on its own turn"


def test_a_bonus_card_drawn_during_a_turn_is_used_on_a_later_turn() -> None:
    """B) 2nd: the bonus card drawn is placed facedown and "The player may use this card during any of
    their future turns": Crusher's third marker (from passing) comes after the bonus-card window."""
    g = race(racers="crusher,hover,twister,swifty")
    s = play(position(g, pos={0: 3, 1: 5, 2: 40, 3: 44}, bmark={0: 2}), *roll(2, 4), "bonus:forward-3")
    assert s.progress[0] == 9 and whose_turn(s) == "hover", "no window to play it this turn"
    s = play(s, *roll(1, 2), *roll(1, 2), *roll(1, 2), *roll(1, 2))
    assert whose_turn(s) == "crusher" and s.legal_actions() == ["move", "play:forward-3"]
    s = play(s, "play:forward-3")
    assert s.progress[0] == 9 + 3 + 3


def test_catch_up_then_an_ability_that_moves_on_means_no_fight() -> None:
    """Bonus cards, Catch up, note: "If no other bonus card is played immediately or the racer does not
    advance further due to dice rolls, a fight occurs" — read with A) "exactly in this order" (1) cards,
    2) ability, 3) fight): Swifty catching up with a racer on a curve after its dice advances by its ability
    first, so there is no fight; Hover (no movement ability) fights."""
    g = race(racers="swifty,twister,crusher,hover")
    s = position(g, pos={0: 3, 1: 14, 2: 40, 3: 44}, cards={0: {"catch-up": 1}})
    log: list = []
    s = play(s, *roll(1, 2), "move", "play:catch-up", log=log)
    assert s.progress[:2] == [15, 14] and whose_turn(s) == "twister"
    assert not any(e.kind.startswith("fight") for e in log)
    g = race(racers="hover,twister,crusher,swifty")
    s = position(g, pos={0: 3, 1: 14, 2: 40, 3: 44}, cards={0: {"catch-up": 1}})
    s = play(s, *roll(1, 2), "move", "play:catch-up")
    assert s.progress[:2] == [14, 14] and s.need == Need(NeedKind.FIGHT, racer=0, other=1)


def test_catch_up_follows_the_track_not_the_standings() -> None:
    """Bonus cards, Catch up: "advances onto the space of the next racer directly in front of him following
    the track" — the next racer on the track ahead, even one a lap behind in the race (Twister on space 15,
    lap 1, is ahead of Hover on space 12, lap 2; Crusher on space 22 leads the race)."""
    g = race(racers="hover,twister,crusher,swifty")
    s = position(g, pos={0: 60, 1: 15, 2: 70, 3: 5}, cards={0: {"catch-up": 1}})
    s = play(s, *roll(1, 2), "play:catch-up")
    assert s.progress[0] == 63 + 3 and space(s, 0) == 18


def test_entering_the_track_passes_nobody_on_the_last_space() -> None:
    """Twister (SR-A4) on its first move: the racer starts behind the finish line (A) 1) Note), so a racer on
    the last space before the line (48) is not passed; one on space 2 is."""
    g = race(racers="twister,hover,crusher,swifty")
    s = play(position(g, pos={1: 48, 2: 30, 3: 40}), *roll(1, 3))
    assert s.progress[0] == 4, "nobody passed: no extra space"
    s = play(position(g, pos={1: 2, 2: 30, 3: 40}), *roll(1, 3))
    assert s.progress[0] == 5
