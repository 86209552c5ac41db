"""Crossing the finish line, goal cards, boost spaces, the end of the race (rulebook pages 6, 7 and 11)."""

from __future__ import annotations

import pytest

from slipstream.engine import CHANCE
from slipstream.engine.fields import replaced
from slipstream.games.scrap_racer.types import DeckCounts, Need, NeedKind

from .helpers import check, play, position, race, roll, rules, space, texts, whose_turn

NEUTRAL = "hover,twister,crusher,swifty"


def test_crossing_the_line_takes_a_lap_marker_and_a_goal_card() -> None:
    """Crossing the finish line, 1): "Each time a player's racer crosses the finish line, that player takes
    one lap marker ... They then draw one goal card and apply its effect immediately." Example: "Tobi
    (purple) has crossed the finish line for the second time, takes a lap marker, and draws a goal card."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 93, 1: 60, 2: 70, 3: 80})
    assert s.laps[0] == 1
    log: list = []
    s = play(s, *roll(2, 3), log=log)
    assert s.progress[0] == 98 and s.laps[0] == 2
    assert R_CROSS in rules(log)
    outcomes = dict(s.chance_outcomes())
    assert set(outcomes) == {"goal:all-but-first", "goal:all-but-first-two", "goal:last-two", "goal:last-place"}
    assert all(p == pytest.approx(1 / 4) for p in outcomes.values())
    s = play(s, "goal:last-place")
    assert s.progress == [98, 67, 70, 80]
    assert whose_turn(s) == "twister"
    check(s)


R_CROSS = "Crossing the finish line, 1)"


def test_landing_on_the_last_space_is_not_a_crossing() -> None:
    """Crossing the finish line: the line lies between space 48 and space 1; reaching space 48 is not yet
    across it."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 45, 1: 60, 2: 70, 3: 80}), *roll(1, 2))
    assert s.progress[0] == 48 and s.laps[0] == 0 and whose_turn(s) == "twister"
    s = play(position(g, pos={0: 45, 1: 60, 2: 70, 3: 80}), *roll(1, 3))
    assert s.laps[0] == 1 and s.actor == CHANCE


@pytest.mark.parametrize(("card", "after"), [
    # standings after the crossing: 1 (60), 0 (51), 3 (30), 2 (20)
    ("all-but-first", [53, 60, 22, 32]),
    ("all-but-first-two", [51, 60, 23, 33]),
    ("last-two", [51, 60, 25, 35]),
    ("last-place", [51, 60, 27, 30]),
])
def test_the_four_goal_cards(card: str, after: list[int]) -> None:
    """Goal cards: Last place (+7 for the last racer); Last and second last (+5 each); All but first (+2
    for all but the leader); All but first and second (+3 for all but the two leaders)."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 46, 1: 60, 2: 20, 3: 30}), *roll(2, 3), f"goal:{card}")
    assert s.progress == after
    assert whose_turn(s) == "twister"
    d = g.goal_deck
    assert s.decks[d.index].discard[d.cards.index(card)] == 1
    check(s)


def test_a_goal_card_move_can_cause_a_fight() -> None:
    """Crossing the finish line, 1): "If, after applying the effect, a racer lands on a space with another
    racer, a fight takes place."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 46, 1: 60, 2: 20, 3: 25}), *roll(2, 3), "goal:last-place")
    assert s.progress[2] == 27 and whose_turn(s) == "twister", "no racer on 27: no fight"
    s = play(position(g, pos={0: 46, 1: 60, 2: 18, 3: 25}), *roll(2, 3), "goal:last-place")
    assert s.progress[2] == 25 and s.actor == CHANCE and s.legal_actions()[0].startswith("fight:")
    s = play(s, "fight:6-1")
    assert s.progress[2] == 26 and s.progress[3] == 25


def test_no_goal_card_with_the_third_lap_marker() -> None:
    """Crossing the finish line, Important: "If a player gets their third (final) lap marker they don't draw
    a goal card!" End of the game: the end is triggered."""
    g = race(racers=NEUTRAL)
    log: list = []
    s = play(position(g, pos={0: 141, 1: 60, 2: 70, 3: 80}), *roll(2, 3), log=log)
    assert s.laps[0] == 3 and s.end_round == 1
    assert whose_turn(s) == "twister", "no goal card was drawn"
    assert "End of the game and Awards Ceremony" in rules(log)


def test_several_racers_cross_in_one_turn_clockwise_from_the_active_racer() -> None:
    """Crossing the finish line, 1): "If other players cross the finish line due to crash or goal cards, they
    draw a lap marker and goal card as well and apply them one after the other in player order." (SR-A11:
    one racer at a time, clockwise from the active racer.)"""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 47, 2: 48, 3: 46}, turn=3)   # Swifty's turn
    log: list = []
    s = play(s, *roll(2, 3), log=log)                            # Swifty 46 -> 51 (straight)
    assert s.laps[3] == 1 and s.actor == CHANCE
    s = play(s, "goal:all-but-first", log=log)                  # 47 -> 49, 48 -> 50, 20 -> 22
    assert s.progress == [22, 49, 50, 51]
    assert list(s.laps) == [0, 1, 0, 1], "Twister (clockwise after Swifty and Hover) draws first"
    assert s.need == Need(NeedKind.GOAL_CARD, racer=1)
    s = play(s, "goal:last-place", log=log)                     # Hover is last: 22 -> 29
    assert s.progress[0] == 29 and list(s.laps) == [0, 1, 1, 1] and s.need == Need(NeedKind.GOAL_CARD, racer=2)
    s = play(s, "goal:last-place", log=log)                     # Crusher's card: Hover 29 -> 36
    assert s.progress[0] == 36
    laps = [e.data["racer"] for e in log if e.kind == "lap"]
    assert laps == ["swifty", "twister", "crusher"]
    assert whose_turn(s) == "hover" and s.round == 2
    check(s)


def test_crossing_on_a_crash_turn_draws_a_goal_card_after_the_bonus_marker() -> None:
    """B) 2nd then Crossing the finish line: a crash card that takes a racer across the line gives it a lap
    marker and a goal card, after the bonus marker."""
    g = race(racers=NEUTRAL)
    log: list = []
    s = play(position(g, pos={0: 46, 1: 60, 2: 70, 3: 80}), "die:2", "roll", "die:2", "crash:advance-5", log=log)
    kinds = [e.kind for e in log]
    assert kinds.index("marker") < kinds.index("lap")
    assert s.laps[0] == 1 and s.legal_actions()[0].startswith("goal:")


def test_push_5_pushes_another_racer_across_the_line() -> None:
    """Crossing the finish line, 1): a racer moved across the line by another's crash card takes the lap
    marker and the goal card too."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 45, 1: 47, 2: 70, 3: 80}), "die:3", "roll", "die:3", "crash:push-5")
    assert s.progress[:2] == [47, 49] and list(s.laps) == [0, 1, 1, 1]
    assert s.need == Need(NeedKind.GOAL_CARD, racer=1)


def test_a_racer_with_three_laps_takes_no_more_lap_markers() -> None:
    """Components: "18 Lap markers" (3 for each of 6 racers): a racer has at most three, and a racer that has
    them takes no more, however far it goes (a position that the race itself cannot reach)."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 190, 1: 60, 2: 70, 3: 80}, laps={0: 3})
    s = play(s, *roll(2, 3))
    assert s.laps[0] == 3 and s.progress[0] == 195
    assert whose_turn(s) == "twister"
    s = play(s, *roll(1, 2))
    assert s.laps[0] == 3 and whose_turn(s) == "crusher"


# --- boost spaces ----------------------------------------------------------------------------------


def test_collecting_a_boost_marker_at_the_end_of_the_turn() -> None:
    """Collecting Boost markers: "At the end of their turn, the player checks if their racer is on a space
    containing a Boost marker. In this case the player collects the marker and places it faceup" (its type
    is drawn when revealed, from the unseen pool)."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 3, 1: 60, 2: 70, 3: 80}, filled=[6, 10], boost_supply=4)
    s = play(s, *roll(1, 2))
    assert s.actor == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert outcomes == pytest.approx({"marker:plus-minus": 1 / 3, "marker:reroll": 1 / 3, "marker:turn": 1 / 3})
    log: list = []
    s = play(s, "marker:turn", log=log)
    assert list(s.boost_markers[0]) == [0, 0, 1]
    assert s.view(None)["boost_spaces_filled"] == [9]
    assert "Collecting Boost markers" in rules(log)
    assert whose_turn(s) == "twister"
    check(s)


def test_a_racer_passing_a_boost_space_collects_nothing() -> None:
    """Collecting Boost markers: only the space the racer ends its turn on counts."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 3, 1: 60, 2: 70, 3: 80}, filled=[6]), *roll(2, 3))
    assert s.progress[0] == 8 and whose_turn(s) == "twister" and list(s.boost_markers[0]) == [0, 0, 0]


def test_only_the_active_racer_collects_at_the_end_of_the_turn() -> None:
    """Collecting Boost markers: "the player" (the active one) checks its own space; a racer moved onto a
    boost space by a fight does not collect."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 2, 1: 5, 2: 70, 3: 80}, filled=[6]), *roll(1, 2), "fight:1-6")
    assert s.progress[1] == 6 and whose_turn(s) == "twister" and list(s.boost_markers[1]) == [0, 0, 0]


def test_collecting_on_a_crash_turn() -> None:
    """Collecting Boost markers comes after B) as well ("Continue with Crossing the finish line and
    collecting Boost markers")."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 3, 1: 60, 2: 70, 3: 80}, filled=[6], boost_supply=2)
    s = play(s, "die:1", "roll", "die:1", "crash:advance-3")
    assert s.actor == CHANCE and s.need.kind is NeedKind.BOOST_MARKER
    s = play(s, "marker:reroll")
    assert list(s.boost_markers[0]) == [0, 1, 0]


def test_refill_after_a_crossing_from_the_line_clockwise_from_the_finite_supply() -> None:
    """Crossing the finish line, 2): "all empty Boost spaces are refilled by placing a Boost marker facedown
    from the common supply. Start with the first empty Boost space behind the finish line and continue around
    the race track clockwise until all empty spaces are refilled or the supply is exhausted. The supply of
    Boost marker is finite and is not replenished during the game."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 46, 1: 60, 2: 70, 3: 80}, filled=[20, 44], boost_supply=3)
    log: list = []
    s = play(s, *roll(2, 3), "goal:last-place", log=log)       # Hover 46 -> 51, then last place: 58
    assert s.view(None)["boost_spaces_filled"] == [1, 5, 9, 19, 43]
    assert s.boost_supply == 0
    assert "Crossing the finish line, 2)" in rules(log)
    check(s)


def test_no_refill_without_a_crossing() -> None:
    """Crossing the finish line, 2): "If at least one player has crossed the finish line this turn"."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 60, 2: 70, 3: 80}, filled=[], boost_supply=3), *roll(2, 3))
    assert s.view(None)["boost_spaces_filled"] == [] and s.boost_supply == 3


def test_jules_collects_a_refilled_marker_at_once() -> None:
    """Crossing the finish line, 2) Note: "If a racer is on a space where the Boost marker has just been
    replenished, the player collects this marker immediately." Example: "While replenishing the last two
    Boost markers from the supply, Jules (blue) is lucky and get's the second marker instantly."""
    # Jules is Twister (slot 1) on space 30; the supply has two markers; spaces 26, 30 and 34 are empty.
    g = race(racers=NEUTRAL)
    filled = [2, 6, 10, 17, 20, 41, 44]
    s = position(g, pos={0: 46, 1: 30, 2: 70, 3: 80}, filled=filled, boost_supply=2)
    s = play(s, *roll(2, 3), "goal:last-place")               # here Twister is last: it leaves 30 first
    assert s.progress[1] == 37 and list(s.boost_markers[1]) == [0, 0, 0]
    s = position(g, pos={0: 46, 1: 30, 2: 20, 3: 80}, filled=filled, boost_supply=2)
    s = play(s, *roll(2, 3), "goal:last-place")               # Crusher 20 -> 27
    assert s.actor == CHANCE and s.need == Need(NeedKind.BOOST_MARKER, racer=1, boost_space=6)
    s = play(s, "marker:plus-minus")
    assert list(s.boost_markers[1]) == [1, 0, 0]
    assert s.view(None)["boost_spaces_filled"] == [1, 5, 9, 16, 19, 25, 40, 43]
    assert whose_turn(s) == "twister"
    check(s)


# --- the end of the race -----------------------------------------------------------------------------


def test_kai_triggers_the_end_and_lars_steals_the_win() -> None:
    """End of the game: "Play continues until all players have taken an equal number of turns". Example:
    "Kai (red) triggers the end of the game, since he crossed the finish line for the third time. Phil
    (green) is the start player, so only Jules (blue) and Lars (orange) have each one final turn."
    Awards Ceremony example: "With his last turn, Lars (orange) has managed to overtake Kai (red) and steals
    the win!"""
    # Phil = seat 0 (start player), Kai = seat 1, Jules = seat 2, Lars = seat 3.
    g = race(racers="twister,hover,crusher,swifty")
    s = position(g, pos={0: 120, 1: 140, 2: 100, 3: 138}, turn=1)
    s = play(s, *roll(4, 5))                                    # Kai 140 -> 149: third lap marker
    assert s.laps[1] == 3 and s.end_round
    assert whose_turn(s) == "crusher" and not s.is_over
    s = play(s, *roll(1, 2))                                    # Jules
    assert whose_turn(s) == "swifty" and not s.is_over
    log: list = []
    s = play(s, *roll(6, 5, 1), log=log)                        # Lars 138 -> 150
    assert s.is_over and s.laps[3] == 3
    result = s.result
    assert result is not None
    assert result.order == (3, 1, 0, 2) and result.winners == (3,)
    assert "Swifty" in result.reason
    assert s.progress[0] == 120, "Phil, the start player, has no further turn"


def test_the_last_player_before_the_start_player_ends_the_race_at_once() -> None:
    """End of the game: when the racer that plays last in the round triggers the end, the race is over."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 120, 1: 110, 2: 100, 3: 140}, turn=3), *roll(4, 5))
    assert s.is_over and s.result is not None and s.result.order == (3, 0, 1, 2)


def test_the_winner_is_the_racer_farthest_ahead_not_the_first_to_finish() -> None:
    """Awards Ceremony: "The player whose racer has completed three laps on the race track and is farthest
    ahead on the track is the winner!"""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 140, 1: 130, 2: 100, 3: 90}), *roll(4, 5))
    assert s.end_round and not s.is_over
    s = play(s, "die:6", "roll", "die:5", "roll", "die:4", "roll", "die:3", "roll", "die:2", "stop")
    assert s.progress[1] == 151 and s.laps[1] == 3, "Twister passed Hover: 150 + 1"
    s = play(s, *roll(2, 4), *roll(1, 2))
    assert s.is_over and s.result is not None
    assert s.result.order[0] == 1
    assert texts(s.events)[-1].startswith("The race is over")
    assert space(s, 1) == 7


def test_the_goal_deck_is_reshuffled_when_empty() -> None:
    """Goal cards are discarded after use; an empty goal deck takes its discard pile as a new deck."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 46, 1: 60, 2: 20, 3: 30})
    d = g.goal_deck
    n = len(d.cards)
    i = d.cards.index("last-two")
    draw = [0] * n
    draw[i] = 1
    discard = [4] * n
    discard[i] = 3
    s.decks = replaced(s.decks, d.index, DeckCounts(tuple(draw), tuple(discard)))
    s = s.copy()  # the cached legal actions go with the edits
    check(s)
    s = play(s, *roll(2, 3))
    assert s.legal_actions() == ["goal:last-two"]
    s = play(s, "goal:last-two")
    assert list(s.decks[d.index].draw) == [4] * n and list(s.decks[d.index].discard) == [0] * n
    check(s)


def test_two_crowds_after_a_goal_card_fight_one_pair_at_a_time() -> None:
    """SR-A7: racers sharing a space fight in pairs until each racer has a space of its own. After a goal
    card the crowd farthest ahead fights first; in each, the racer the card moved (it "lands on a space with
    another racer") is the one that moved in and rolls first."""
    g = race(players=5, racers="hover,twister,crusher,swifty,steel-jacket")
    s = position(g, pos={0: 46, 1: 15, 2: 17, 3: 10, 4: 12})
    s = play(s, *roll(2, 3), "goal:last-two")       # Steel Jacket 12 -> 17 (Crusher), Swifty 10 -> 15 (Twister)
    assert s.progress == [51, 15, 17, 15, 17]
    assert s.need == Need(NeedKind.FIGHT, racer=4, other=2)
    s = play(s, "fight:6-1")                          # Steel Jacket wins: 18
    assert s.need == Need(NeedKind.FIGHT, racer=3, other=1)
    s = play(s, "fight:4-4", "fight:2-5")             # a tie, then Twister wins: 16
    assert s.progress == [51, 16, 17, 15, 18]
    assert whose_turn(s) == "twister"
    check(s)


def test_catch_up_needs_a_racer_on_the_track() -> None:
    """Bonus cards, Catch up: with no other racer on the track there is nobody to catch up with.

    The bonus-card window still opens (the number of cards held is public, whether they can be played is
    not), offering only the dice move and then the end of the turn."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 5}, cards={0: {"catch-up": 1}}), *roll(1, 2))
    assert s.legal_actions() == ["move"]
    s = play(s, "move")
    assert s.legal_actions() == ["done"]
    s = play(s, "done")
    assert whose_turn(s) == "twister" and s.progress[0] == 8
    s = play(position(g, pos={0: 5, 2: 9}, cards={0: {"catch-up": 1}}), *roll(1, 2))
    assert s.legal_actions() == ["move", "play:catch-up"]


def test_crossing_by_the_ability_or_by_winning_a_fight_counts() -> None:
    """Crossing the finish line: "Each time a player's racer crosses the finish line" — however it moves:
    Swifty's +1 from the last curve space, or the fight winner's +1."""
    g = race(racers="swifty,twister,crusher,hover")
    s = play(position(g, pos={0: 45, 1: 60, 2: 70, 3: 80}), *roll(1, 2))
    assert s.progress[0] == 49 and s.laps[0] == 1 and s.need == Need(NeedKind.GOAL_CARD, racer=0)
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 45, 1: 48, 2: 70, 3: 80}), *roll(1, 2), "fight:6-1")
    assert s.progress[:2] == [49, 48] and s.laps[0] == 1 and s.need == Need(NeedKind.GOAL_CARD, racer=0)


def test_the_active_racer_on_a_refilled_space_collects_it_once() -> None:
    """Crossing the finish line, 2) Note and Collecting Boost markers: the crossing racer stopping on a boost
    space that is refilled collects that marker at once, and nothing more at the end of the turn."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 46, 1: 30, 2: 20, 3: 25}, filled=[], boost_supply=1)
    s = play(s, *roll(1, 3), "goal:last-place")               # Hover 46 -> 50 (space 2); Crusher 20 -> 27
    assert s.need == Need(NeedKind.BOOST_MARKER, racer=0, boost_space=0)
    s = play(s, "marker:turn")
    assert list(s.boost_markers[0]) == [0, 0, 1] and s.boost_supply == 0
    assert whose_turn(s) == "twister" and s.view(None)["boost_spaces_filled"] == []
    check(s)


def test_the_racer_a_card_moves_onto_another_is_the_one_that_moved_in() -> None:
    """Crossing the finish line, 1): "If, after applying the effect, a racer lands on a space with another
    racer, a fight takes place" — the racer the goal card moved is the one that landed (moved in), and its
    die is written first (``fight:A-B``, A the racer that moved in), even when the racer it lands on is the
    one that crossed the line this turn or plays earlier in turn order (SR-A7)."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 46, 1: 60, 2: 44, 3: 70}), *roll(2, 3), "goal:last-place")
    assert s.progress[:3] == [51, 60, 51], "Crusher landed on Hover"
    assert s.need == Need(NeedKind.FIGHT, racer=2, other=0)
    s = play(s, "fight:5-2")
    assert s.progress[:3] == [51, 60, 52]
    s = play(position(g, pos={0: 46, 1: 20, 2: 60, 3: 13}), *roll(2, 3), "goal:last-place")
    assert s.progress[1] == s.progress[3] == 20, "Swifty landed on Twister"
    assert s.need == Need(NeedKind.FIGHT, racer=3, other=1)


def test_a_racer_a_crash_card_moves_onto_the_active_racer_moved_in() -> None:
    """Crash cards, Catching Up 2 / Last Place 4 and B) 1st "a racer lands on a space with another racer":
    the racer moved by the card landed on the active racer, so it is the one that moved in (rolls first)."""
    g = race(racers=NEUTRAL)
    s = play(position(g, pos={0: 20, 1: 18, 2: 5, 3: 40}), "die:3", "roll", "die:3", "crash:catching-up-2")
    assert s.progress[:2] == [20, 20] and s.need == Need(NeedKind.FIGHT, racer=1, other=0)
    s = play(s, "fight:1-6")
    assert s.progress[:2] == [21, 20] and s.bonus_markers[0] == 1
    s = play(position(g, pos={0: 20, 1: 30, 2: 35, 3: 16}), "die:5", "roll", "die:5", "crash:last-place-4")
    assert s.progress[3] == s.progress[0] == 20 and s.need == Need(NeedKind.FIGHT, racer=3, other=0)


def test_crossings_by_a_goal_card_go_clockwise_from_the_active_racer_not_from_the_start_player() -> None:
    """Crossing the finish line, 1): other racers crossing "apply them one after the other in player order"
    (SR-A11: clockwise from the active racer). Twister (second in turn order) crosses; its All but first card
    takes Hover (first in turn order) and Crusher (third) across: Crusher, after Twister, draws first."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 47, 1: 46, 2: 48, 3: 20}, turn=1)   # Twister's turn
    s = play(s, *roll(2, 4))                                     # Twister 46 -> 52: lap 1
    assert list(s.laps) == [0, 1, 0, 0] and s.need == Need(NeedKind.GOAL_CARD, racer=1)
    s = play(s, "goal:all-but-first")                           # Crusher 48 -> 50, Hover 47 -> 49, Swifty + 2
    assert list(s.laps) == [0, 1, 1, 0], "Crusher is next clockwise after Twister"
    assert s.need == Need(NeedKind.GOAL_CARD, racer=2)
    s = play(s, "goal:last-place")                              # Swifty 22 -> 29
    assert list(s.laps) == [1, 1, 1, 0] and s.need == Need(NeedKind.GOAL_CARD, racer=0), "then Hover"
