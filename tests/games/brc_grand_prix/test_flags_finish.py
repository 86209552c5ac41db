"""Flag spaces and the BRC flag deck; crossing the line and the final standings.

Rulebook sections: "Trigger" (flag spaces), "The Action", "Execution", "Crossing the Line",
"Final Standings" (Race to the End / Current Position). Gap decisions F1-G4, F1-G5, F1-A16.
"""

from __future__ import annotations

import math

import pytest

from slipstream.engine.game import Event
from slipstream.games.brc_grand_prix import BRCState, words
from slipstream.games.brc_grand_prix.content import load_content
from slipstream.games.brc_grand_prix.metrics import race_metrics
from slipstream.games.brc_grand_prix.rules import DRS, NO_OVERTAKE, TYRE_SAVER, card_effect, read_card_effect
from slipstream.games.brc_grand_prix.types import Stage

from .helpers import poised, started, texts

OTHERS = [70, 71, 76]


def p1(dist: int, tyre: str = "hard", **kw: object) -> BRCState:
    state = kw.pop("state", None) or started()
    return poised(state, 0, dist=[dist, *kw.pop("others", OTHERS)],  # type: ignore[arg-type]
                  tyres=[tyre, "hard", "hard", "hard"], **kw)


def test_landing_on_a_green_flag_draws_a_card_and_follows_the_green_line() -> None:
    """Trigger: landing exactly on a flag space; The Action: draw the top BRC card (unknown order: a
    chance node over the unseen cards); Execution: only the line of the space's colour."""
    s = p1(31).apply("die:4")  # space 5: green
    assert s.stage == Stage.FLAG
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 18 and math.isclose(sum(p for _, p in outcomes), 1.0)
    s = s.apply("card:clean-air")  # green: move+2
    assert s.distance[0] == 37 and "Flag card Clean Air, green line: Move up to 2 spaces forward" in texts(s)


def test_a_yellow_space_follows_the_yellow_line_and_the_card_goes_to_the_bottom() -> None:
    """Execution: the yellow line; 'Once resolved, place the card at the bottom of the deck.'"""
    s = p1(31, tyre="soft").apply("die:6")  # 8 spaces to space 9: yellow
    s = s.apply("card:clean-air")  # yellow: move-1
    assert s.distance[0] == 38
    assert s.unseen_cards[0] == 0 and s.bottom_cards == (0,)
    s = p1(31, tyre="soft", state=s).apply("die:6")
    assert len(s.chance_outcomes()) == 17 and "card:clean-air" not in s.legal_actions()


def test_passing_a_flag_space_does_nothing() -> None:
    """Trigger: only landing exactly on a flag space."""
    s = p1(31).apply("die:5")  # passes space 5, ends on 6
    assert s.stage == Stage.ROLL and s.distance[0] == 36


def test_once_every_card_is_seen_the_order_is_known_and_draws_need_no_chance() -> None:
    """Cards go to the bottom in the order drawn, so after a full cycle the next card is known."""
    s = p1(31)
    s.unseen_cards = (0,) * len(s.unseen_cards)
    s.bottom_cards = (1, *range(2, 18), 0)  # perfect-exit on top: green roll+1
    s = s.apply("die:4")
    assert s.stage == Stage.ROLL and s.roll_modifier[0] == 1 and s.bottom_cards[-1] == 1 and s.bottom_cards[0] == 2


def effect(s: BRCState, seat: int, name: str) -> list[Event]:
    ev: list[Event] = []
    card_effect(s, seat, read_card_effect(name), ev)
    return ev


def test_card_effects_roll_modifier_and_tyre_saver() -> None:
    """F1-G5 effects: roll+N/-N change the next modified roll; tyre-saver ignores the next lock-up."""
    s = p1(30, tyre="soft")
    effect(s, 0, "roll-1")
    assert s.apply("die:4").distance[0] == 35  # 4 + 2 - 1
    s = p1(30, tyre="soft")
    effect(s, 0, "tyre-saver")
    assert s.perks[0] == TYRE_SAVER
    s = s.apply("die:1")
    assert s.distance[0] == 33 and not s.off_track[0] and s.perks[0] == 0


def test_card_effects_moves_stop_behind_cars_and_never_overtake() -> None:
    """F1-G5: move+N is a free move that stops behind a car; move-N drops to the first free space."""
    s = p1(66)  # space 6; P2 at space 10
    effect(s, 0, "move+6")
    assert s.distance[0] == 69
    s = p1(72, others=[71, 70, 76])  # P2 and P3 directly behind at spaces 11 and 10
    effect(s, 0, "move-1")
    assert s.distance[0] == 69


def test_let_by_swaps_with_the_car_directly_behind() -> None:
    """F1-G5 blue line let-by: the car directly behind passes."""
    s = p1(72)  # P3 at space 11 directly behind
    effect(s, 0, "let-by")
    assert s.distance[:3] == [71, 70, 72]


def test_blue_miss_spares_the_leader() -> None:
    """F1-G5 blue line: miss your next turn unless you are leading."""
    s = p1(90)  # P1 leads
    effect(s, 0, "blue-miss")
    assert s.turns_to_miss[0] == 0
    effect(s, 1, "blue-miss")
    assert s.turns_to_miss[1] == 1


def test_crossing_the_line_after_the_last_lap_finishes_and_the_others_race_on() -> None:
    """Crossing the Line: any movement on or past the finish line finishes; Race to the End: the others
    keep taking turns until all have crossed (finished cars leave the track, F1-A16)."""
    s = p1(57, state=started(laps=2)).apply("die:4")
    assert s.finishing_order == (0,) and "P1 wins the race" in texts(s)
    assert s.actor == "chance" and s.mover != 0


def test_cars_beyond_the_line_are_not_challenged_by_a_finishing_car() -> None:
    """A car that crosses the line has finished: cars beyond it are no longer in its way."""
    s = p1(58, others=[61, 70, 76], state=started(laps=2)).apply("die:3")
    assert s.finishing_order == (0,)


def test_current_position_standings_end_the_race_at_the_first_finish() -> None:
    """Current Position: the race ends when the winner crosses; the rest by their current spots."""
    s = p1(57, others=[40, 50, 45], state=started(laps=2, standings="current-position"))
    s = s.apply("die:4")
    assert s.is_over and s.result is not None
    assert s.result.order == (0, 2, 3, 1) and s.result.winners == (0,)


def test_race_to_the_end_orders_by_finishing() -> None:
    """Race to the End: the final order is the order of crossing the line."""
    s = p1(57, others=[50, 52, 54], state=started(laps=2), order=[0, 3, 2, 1])
    for action in ["die:4", "die:6", "die:6", "die:6", "die:6", "die:6"]:
        s = s.apply(action)
        if s.legal_actions() == ["pit", "stay"]:
            s = s.apply("stay")
    assert s.is_over and s.result is not None
    assert s.finishing_order == (0, 3, 2, 1) and s.result.order == s.finishing_order


def test_a_saved_lock_up_is_a_normal_roll_and_keeps_the_cards_roll_modifier() -> None:
    """F1-G5: tyre-saver ignores the lock-up, so the roll is an ordinary SOFT 1 (1 + 2) and a pending
    roll+1 card still applies: 4 spaces (the modifier was lost before the fix)."""
    s = p1(30, tyre="soft")
    effect(s, 0, "tyre-saver")
    effect(s, 0, "roll+1")
    s = s.apply("die:1")
    assert s.distance[0] == 34 and not s.off_track[0] and s.roll_modifier[0] == 0 and s.perks[0] == 0
    assert race_metrics(s)["lockups"] == 1  # the metric counts lock-ups rolled, saved ones included


def test_a_lock_up_moves_exactly_3_and_spends_the_roll_modifier() -> None:
    """The Lock-up: "you move exactly 3 spaces"; a pending roll+N is spent on that roll (F1-G5)."""
    s = p1(30, tyre="soft")
    effect(s, 0, "roll+2")
    s = s.apply("die:1")
    assert s.distance[0] == 33 and s.off_track[0] and s.roll_modifier[0] == 0


def test_a_sprint_lock_up_completes_the_move_with_the_roll_modifier() -> None:
    """Sprint Lock-up Penalty: "the player completes their current move": 1 + 4 + 4 and a roll+2 card is
    11 spaces, then the car misses its next turn (the modifier was lost before the fix)."""
    s = p1(30, tyre="soft", state=started(sprint=True), others=[50, 52, 54])
    effect(s, 0, "roll+2")
    s = s.apply("dice:1-4")
    assert s.distance[0] == 41 and s.off_track[0] and s.turns_to_miss[0] == 1 and s.roll_modifier[0] == 0


def test_a_saved_lock_up_on_the_exit_roll_keeps_the_roll_modifier() -> None:
    """Pit Exit (Rejoining) with tyre-saver and roll+1 (F1-A8, F1-G5): the exit roll's SOFT 1 is not a
    lock-up, so it moves 1 + 2 + 1 = 4 from P8: to space 5."""
    s = poised(started(), 0, dist=[56, 70, 71, 76], pit=[8, -1, -1, -1], tyres=["soft", "hard", "hard", "hard"])
    effect(s, 0, "tyre-saver")
    effect(s, 0, "roll+1")
    s = s.apply("die:1")
    assert s.pit_space[0] == -1 and s.distance[0] == 56 + 5 + 4 and not s.off_track[0]
    assert race_metrics(s)["lockups"] == 1  # counted as on the main track (it was not, before)


CONTENT = load_content()
LINES = [(card, colour) for card in CONTENT.card_ids for colour in ("green", "yellow", "blue")]


def _land_on(colour: str) -> BRCState:
    """P1 (HARD) drawing a card on a flag space of ``colour``: green 5 (from 1, a 4), yellow 9 (from 3, a
    6), blue 12 (from 10, a 2 that passes P2 on 11, who is then directly behind). P3 leads on lap 4; P4
    is in the pit lane."""
    start, roll, others = {"green": (31, 4, 44), "yellow": (33, 6, 44), "blue": (40, 2, 41)}[colour]
    s = poised(started(), 0, dist=[start, others, 110, 56], pit=[-1, -1, -1, 3], tyres=["hard"] * 4)
    s = s.apply(f"die:{roll}")
    if colour == "blue":
        s = s.apply("attempt").apply("attack:pass")
    assert s.stage == Stage.FLAG and s.flag_colour == colour
    return s


@pytest.mark.parametrize(("card", "colour"), LINES)
def test_every_line_of_every_brc_flag_card(card: str, colour: str) -> None:
    """Flag spaces, Execution: "Read and follow only the instruction that matches the color of the space
    you landed on. Once resolved, place the card at the bottom of the deck." Every line of the 18 cards
    (F1-G5), drawn through the chance node on a space of its colour, does what its effect names."""
    s = _land_on(colour)
    before = list(s.distance)
    s = s.apply(f"card:{card}")
    index = CONTENT.card_ids.index(card)
    effect = CONTENT.card_lines[index][colour]
    assert s.bottom_cards == (index,) and s.unseen_cards[index] == 0 and s.stage == Stage.ROLL
    name = CONTENT.model.cards[index].name
    assert f"Flag card {name}, {colour} line: {words.line(CONTENT, effect)}" in texts(s)
    dist, rmod, perks, miss = list(before), 0, 0, 0
    if effect.startswith("move+"):
        dist[0] += int(effect[5:])  # the spaces ahead are free
    elif effect.startswith("move-"):
        dist[0] -= int(effect[5:])  # the spaces behind are free
    elif effect.startswith("roll"):
        rmod = int(effect[4:])
    elif effect in ("drs", "no-overtake", "tyre-saver"):
        perks = {"drs": DRS, "no-overtake": NO_OVERTAKE, "tyre-saver": TYRE_SAVER}[effect]
    elif effect == "let-by":
        dist[0], dist[1] = dist[1], dist[0]  # P2 was directly behind: they swap
    elif effect == "blue-miss":
        miss = 1  # P3 leads, so P1 misses its next turn
    else:
        assert effect == "none"
    assert (s.distance, s.roll_modifier[0], s.perks[0], s.turns_to_miss[0]) == (dist, rmod, perks, miss)


def test_stopping_behind_a_car_on_a_flag_space_draws_a_card() -> None:
    """Trigger: landing on a flag space; a move that ends there because the space ahead is taken
    (Occupying Spaces) lands there too (docs: a flag is drawn when the car's own move ends on it)."""
    s = p1(31, others=[36, 71, 76]).apply("die:5")  # exactly onto P2 on space 6: stops on 5 (green)
    assert s.distance[0] == 35 and s.stage == Stage.FLAG


def test_finished_cars_leave_the_track() -> None:
    """Race to the End with F1-A16: a finished car no longer fills a space: a lapped car passes its space
    without an overtake, and the safety car does not move it."""
    s = p1(57, others=[25, 40, 42], state=started(laps=2)).apply("die:4")
    assert s.finishing_order == (0,) and s.distance[0] == 60  # on the line: space 0
    s = poised(s, 1, order=[1, 2, 3]).apply("die:6").apply("stay")  # P2 from space 25 past space 0
    assert s.distance[1] == 31 and s.stage == Stage.ROLL
    s = poised(s, 2, order=[2, 3, 1]).apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance == [60, 37, 41, 42] and "safety car: P2 +6" in texts(s)
    s = poised(s, 3, dist=[60, 37, 41, 58], off=[False] * 4, order=[3, 1, 2])  # P4 on 28, to the line
    s = s.apply("die:4")
    assert s.finishing_order == (0, 3) and s.stage == Stage.ROLL


def test_current_position_ranks_a_car_in_the_pit_lane_by_its_progress() -> None:
    """Current Position: "the remaining positions are taken from the cars' current spots on the track";
    a car on P6 (past the line in the pit lane, which bypasses spaces 26-29, 0 and 1: F1-G3) is ahead of
    a car on main space 0 of lap 2 and behind one on space 3."""
    s = poised(started(laps=2, standings="current-position"), 0, dist=[57, 30, 26, 33],
               pit=[-1, -1, 6, -1], tyres=["hard"] * 4)
    s = s.apply("die:4")
    assert s.is_over and s.result is not None and s.result.order == (0, 3, 2, 1)


def test_race_over_in_current_position_mode_stops_all_play() -> None:
    """Current Position: "The race ends immediately when the winner crosses the line"."""
    s = p1(57, state=started(laps=2, standings="current-position")).apply("die:4")
    assert s.stage == Stage.OVER and s.actor is None and s.legal_actions() == []


def test_blue_miss_after_the_winner_has_finished_spares_no_one() -> None:
    """F1-G5 blue-miss "unless leading": leading means first in the race order (the view's position 1),
    so once the winner has finished no car still racing is spared."""
    s = p1(57, others=[40, 50, 54], state=started(laps=2)).apply("die:4")
    assert s.finishing_order == (0,)
    effect(s, 3, "blue-miss")
    assert s.turns_to_miss[3] == 1


def test_a_car_that_does_not_move_does_not_land_on_its_flag_space() -> None:
    """Trigger: "Landing exactly on a space": a car already on green space 5 whose roll moves it 0 (HARD
    on a WET track, a 2: The Minimum Movement Rule) has not landed there and draws no card."""
    s = p1(35, weather="WET").apply("die:2")
    assert s.distance[0] == 35 and s.stage == Stage.ROLL and "flag" not in texts(s)


def test_a_card_move_that_reaches_the_line_exactly_finishes() -> None:
    """Crossing the Line: "Any movement that takes your car on or past the finish line counts as
    finishing": a card's move+2 from space 28 of the last lap reaches the line, even with a car
    standing on space 0 (beyond the line: not in the way)."""
    s = p1(58, others=[30, 45, 46], state=started(laps=2))  # P2, 28 spaces behind, on space 0
    effect(s, 0, "move+2")
    assert s.finishing_order == (0,) and s.distance[0] == 60


def test_a_car_that_has_pitted_is_not_penalised_after_the_window() -> None:
    """F1-G9: a car that stopped inside the window may enter the pit lane on lap 8 without a penalty."""
    s = p1(230, stops=[1, 0, 0, 0]).apply("die:6").apply("pit")
    assert s.pit_space[0] == 0 and s.penalised[0] == 0 and "penalty" not in texts(s)
