"""The turn: draw, movement, the Rev Track, item spaces, stop or keep going (rulebook "Turn Structure",
"Round Structure", "Rev Track")."""

from __future__ import annotations

import math
import random

import slipstream
from slipstream.engine import CHANCE, State
from slipstream.games.rev_it_up import rules, types
from slipstream.games.rev_it_up.types import STAGE_NAMES, Stage

from .helpers import bag_of, decide, disc_of, draws, force, new, play, rev_of


def test_everyone_draws_one_chip_weighted_by_the_bag() -> None:
    """Turn Structure 1: "All players simultaneously draw 1 chip from their bags and reveal them"; a
    bag is a multiset, so each chip kind is drawn with probability count/total."""
    s = new()
    force(s, 0, bag={"exhaust-1": 3, "coin-1": 1})
    assert s.actor == CHANCE
    out = dict(s.chance_outcomes())
    assert math.isclose(out["chip:exhaust-1"], 0.75) and math.isclose(out["chip:coin-1"], 0.25)
    assert s.view(None)["roller"] == 0  # issue 13: whose draw the chance step is
    s = s.apply("chip:coin-1")
    assert s.actor == CHANCE and s.view(None)["current"] == 1 == s.view(None)["roller"]
    assert bag_of(s, 0) == {"exhaust-1": 3}
    assert s.view(1)["racers"][0]["drawn"] == "coin-1"


def test_highest_movement_moves_first_ties_to_the_racer_in_front() -> None:
    """Turn Structure 2: "Highest movement moves first, then second highest and so on." RIU-A2: at equal
    movement the racer in front moves first (issue 13); zero and backward moves come last."""
    s = new(players=4)
    force(s, 0, pos=5)
    force(s, 1, pos=0, bag={"nitrous-1": 1})
    force(s, 2, pos=3)
    force(s, 3, pos=10, bag={"recall-1": 1})
    s = draws(s, "exhaust-1", "nitrous-1", "exhaust-1", "recall-1")
    moves = [e.data["seat"] for e in s.events if e.kind == "move"]
    assert moves == [1, 0, 2, 3]
    assert s.progress == (6, 2, 4, 9)


def test_exhaust_moves_its_level_and_skips_rev_spaces() -> None:
    """Exhaust Chips: "move their racer forward a number of spaces equal to the chip's level. Then ...
    place the chip a number of spaces to the right (equal to the chip's level) of the last chip"."""
    s = new()
    force(s, 0, rev=["exhaust-2"], pos=3)
    s = draws(s, "exhaust-3", "coin-1")
    assert s.progress[0] == 6
    assert rev_of(s, 0) == [("exhaust-2", 2), ("exhaust-3", 5)]


def test_first_chip_goes_on_the_space_of_its_level() -> None:
    """Rev Track: "place the chip on the next available space furthest to the left"; an Exhaust 3 as
    the first chip skips spaces 1 and 2."""
    s = draws(new(), "exhaust-3", "exhaust-1")
    assert rev_of(s, 0) == [("exhaust-3", 3)] and rev_of(s, 1) == [("exhaust-1", 1)]


def test_overheat_still_moves_then_stops_the_racer() -> None:
    """Rev Track: "If you would ever need to place a chip and dont have space for it, you Overheat and
    must stop pulling chips for the remainder of the round." RIU-A1: the move resolves first, the chip
    goes to the discard."""
    s = new()
    force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-3"], pos=10)
    s = draws(s, "exhaust-2", "exhaust-1")
    assert s.progress[0] == 12
    assert s.status[0] == types.OVERHEATED
    assert disc_of(s, 0) == {"exhaust-2": 1}
    assert [sp for _, sp in rev_of(s, 0)] == [3, 6, 9]
    assert s.actor == frozenset({1})
    s = decide(s, p1="go")
    assert s.actor == CHANCE and s.view(None)["current"] == 1


def test_overheat_penalty_lose_move_option() -> None:
    """RIU-A1 option overheat_penalty=lose_move: the chip that overheats gives no movement."""
    s = new(overheat_penalty="lose_move")
    force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-3"], pos=10)
    s = draws(s, "exhaust-2", "exhaust-1")
    assert s.progress[0] == 10 and s.status[0] == types.OVERHEATED


def test_chips_without_heat_never_overheat() -> None:
    """RIU-A7: Coin, Ecoboost, Coolant, Upgrade and Recall go to the discard, so a full Rev Track does
    not stop them."""
    s = new()
    force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"], bag={"ecoboost-1": 1, "coin-1": 1})
    s = draws(s, "ecoboost-1", "exhaust-1")
    assert s.status[0] == types.RACING and s.progress[0] == 1
    assert disc_of(s, 0) == {"ecoboost-1": 1}


def test_ecoboost_moves_without_heat() -> None:
    """Ecoboosts: "move your racer forward X spaces and place in your discard area"."""
    s = new()
    force(s, 0, bag={"ecoboost-3": 1, "coin-1": 1})
    s = draws(s, "ecoboost-3", "exhaust-1")
    assert s.progress[0] == 3 and rev_of(s, 0) == [] and disc_of(s, 0) == {"ecoboost-3": 1}


def test_nitrous_moves_double_and_takes_one_space() -> None:
    """Nitrous: "move your racer forward 2X spaces and place on the next space of your Rev Track"."""
    s = new()
    force(s, 0, bag={"nitrous-2": 1, "coin-1": 1}, rev=["exhaust-3"])
    s = draws(s, "nitrous-2", "exhaust-1")
    assert s.progress[0] == 4 and rev_of(s, 0) == [("exhaust-3", 3), ("nitrous-2", 4)]


def test_coolant_removes_the_most_recent_chips() -> None:
    """Coolant: "place in your discard and remove the most recent X chips from your Rev Track, placing
    them back in your bag. Item Chips removed from your Rev Track are returned to the supply." RIU-A6:
    the skipped spaces are freed, since placement counts from the last chip."""
    s = new()
    force(s, 0, bag={"coolant-2": 1}, rev=["exhaust-1", "exhaust-3", "debris"])
    debris_before = s.supply[s.game.debris]
    s = draws(s, "coolant-2", "exhaust-1")
    assert rev_of(s, 0) == [("exhaust-1", 1)]
    assert bag_of(s, 0) == {"exhaust-3": 1}
    assert disc_of(s, 0) == {"coolant-2": 1}
    assert s.supply[s.game.debris] == debris_before + 1
    s = decide(s, p0="go", p1="go")
    s = draws(s, "exhaust-3", "exhaust-1")
    assert rev_of(s, 0) == [("exhaust-1", 1), ("exhaust-3", 4)]


def test_recall_moves_backwards_and_never_behind_the_start() -> None:
    """Recalls: "When pulled, move your racer BACKWARDS X spaces and place in your discard"."""
    s = new()
    force(s, 0, bag={"recall-2": 1, "coin-1": 1}, pos=5)
    force(s, 1, bag={"recall-3": 1, "coin-1": 1}, pos=1)
    s = draws(s, "recall-2", "recall-3")
    assert s.progress == (3, 0)
    assert disc_of(s, 0) == {"recall-2": 1}


def test_passing_or_landing_on_an_item_space_rolls_the_item_die() -> None:
    """Turn Structure 3: "Any player that has passed an item space will now roll the item die". RIU-A3:
    landing counts; backward moves never roll."""
    s = new(players=3)
    force(s, 0, pos=5)
    force(s, 1, pos=6)
    force(s, 2, pos=8, bag={"recall-1": 1, "coin-1": 1})
    s = draws(s, "exhaust-2", "exhaust-3", "recall-1")
    assert s.progress == (7, 9, 7)
    assert s.actor == CHANCE and s.view(None)["current"] == 1
    s = s.apply("item:turbo")
    assert s.ready[1] == ("turbo",)
    assert s.view(None)["current"] == 0
    s = s.apply("item:rocket")
    assert s.actor == 0 and s.legal_actions() == ["keep", "reroll"]
    s = s.apply("keep")
    assert s.ready[0] == ("rocket",) and s.ready[2] == ()
    assert s.actor == frozenset({0, 1, 2})


def test_rerolls_by_place_after_all_moved() -> None:
    """Turn Structure 3: "Players may reroll the Item Die once if they are in second place, and up to 2
    times if they are further back." RIU-A4: place measured after every racer has moved."""
    s = new(players=3)
    force(s, 0, pos=20)
    force(s, 1, pos=13)
    force(s, 2, pos=5)
    s = draws(s, "exhaust-3", "exhaust-2", "exhaust-2")
    assert s.view(None)["current"] == 0
    s = s.apply("item:oil-slick")
    assert s.ready[0] == ("oil-slick",)
    assert s.view(None)["current"] == 1  # the movement order: P2 (in front) before P3 at equal movement
    s = s.apply("item:oil-slick")
    s = s.apply("reroll")
    s = s.apply("item:rocket")
    assert s.ready[1] == ("rocket",)
    assert s.view(None)["current"] == 2
    s = s.apply("item:oil-slick")
    s = s.apply("reroll")
    s = s.apply("item:shield")
    assert s.actor == 2
    s = s.apply("reroll")
    s = s.apply("item:sponsor")
    assert s.ready[2] == ("sponsor",)
    assert isinstance(s.actor, frozenset)


def test_stop_or_keep_going_is_simultaneous_and_hidden() -> None:
    """Turn Structure 4: "players will choose to stop or keep going"; every seat chooses at once and
    no seat sees another's pending choice (Simultaneous play)."""
    s = draws(new(players=3), "exhaust-1", "exhaust-1", "exhaust-1")
    assert s.actor == frozenset({0, 1, 2})
    assert s.legal_actions(1) == ["1:go", "1:stop"]
    s = s.apply("1:stop")
    assert s.actor == frozenset({0, 2})
    assert s.view(1)["my_choice"] == "stop"
    assert "my_choice" not in s.view(0) or s.view(0)["my_choice"] is None
    assert s.view(0)["racers"][1]["chosen"] is True and s.view(0)["racers"][1]["status"] == "racing"
    assert all(e.visible_to(1) for e in s.events)
    assert [e.text for e in s.events if e.visible_to(0)] == ["P2 has chosen"]
    s = decide(s, p0="go", p2="stop")
    assert [st for st in s.status] == [types.RACING, types.STOPPED, types.STOPPED]
    assert s.actor == CHANCE and s.view(None)["current"] == 0


def test_rev_bonus_for_stopping_on_the_last_three_spaces() -> None:
    """Rev Track: "When a player chooses to stop, if they are on one of the last 3 spaces of the Rev
    Track, they will get bonus coins" (RIU-G6: +1/+2/+3 on spaces 8/9/10; RIU-A15: the last chip's
    space; an overheated racer gets none)."""
    s = new(players=2)
    force(s, 0, bag={"coin-1": 2}, rev=["exhaust-3", "exhaust-3", "exhaust-2"])
    force(s, 1, bag={"coin-1": 2}, rev=["exhaust-3", "exhaust-3", "exhaust-3"])
    s = draws(s, "coin-1", "coin-1")
    assert rules.rev_bonus_if_stopped(s, 0) == 1 and rules.rev_bonus_if_stopped(s, 1) == 2
    s = decide(s, p0="stop", p1="stop")
    assert s.coins_to_spend == (2, 3)
    t = new(players=2)
    force(t, 0, bag={"coin-1": 1, "exhaust-2": 1}, rev=["exhaust-3", "exhaust-3", "exhaust-3"])
    force(t, 1, bag={"coin-1": 1, "exhaust-3": 1}, rev=["exhaust-3", "exhaust-3", "exhaust-1"])
    t = draws(t, "coin-1", "coin-1")
    assert rules.rev_bonus_if_stopped(t, 1) == 0
    t = decide(t, p0="go", p1="go")
    t = draws(t, "exhaust-2", "exhaust-3")
    assert t.status == (types.OVERHEATED, types.RACING)
    t = decide(t, p1="stop")
    assert t.coins_to_spend == (1, 1 + 3)


def test_an_empty_bag_forces_a_stop() -> None:
    """RIU-X1: a racer that has drawn its whole bag cannot draw; it stops (with its Rev bonus)."""
    s = new()
    force(s, 0, bag={"ecoboost-1": 1})
    s = draws(s, "ecoboost-1", "exhaust-1")
    s = decide(s, p0="go", p1="go")
    assert s.status[0] == types.STOPPED
    assert s.actor == CHANCE and s.view(None)["current"] == 1


def test_round_ends_when_all_stopped_and_everything_goes_back() -> None:
    """Round Structure 1 and 3: turns go on until all have stopped or overheated; then buying; then
    "place all chips from their Rev Track and Discard back in their bag and turn their racer back
    forward"."""
    s = new()
    force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-3"])
    s = draws(s, "exhaust-2", "coin-2")
    s = decide(s, p1="stop")
    assert s.view(None)["phase"] == "buy"
    assert s.actor == frozenset({1})
    s = s.apply("1:done")
    assert s.round == 2 and s.status == (types.RACING, types.RACING)
    assert rev_of(s, 0) == [] and disc_of(s, 0) == {} and disc_of(s, 1) == {}
    assert bag_of(s, 0)["exhaust-3"] == 3 + 1 and bag_of(s, 1)["coin-2"] == 1


def test_a_chip_that_fits_on_the_last_space_is_placed() -> None:
    """Rev Track: "If you would ever need to place a chip and dont have space for it, you Overheat": a
    chip that lands exactly on the last space has space, so the racer keeps racing and moves (also
    with overheat_penalty=lose_move, RIU-A1), and stopping there pays the last space's bonus (RIU-G6)."""
    for penalty in ("none", "lose_move"):
        s = new(overheat_penalty=penalty)
        force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-3"], pos=4)
        s = draws(s, "exhaust-1", "coin-1")
        assert s.status[0] == types.RACING and s.progress[0] == 5, penalty
        assert rev_of(s, 0)[-1] == ("exhaust-1", 10)
        assert math.isclose(rules.overheat_chance(s, 0), 6 / 11)  # no room: the 6 Exhaust of 11 chips
        s = decide(s, p0="stop", p1="stop")
        assert s.coins_to_spend[0] == 3


def test_a_shorter_asymmetric_rev_track_overheats_sooner_and_pays_on_its_own_last_spaces() -> None:
    """Player Setup, Asymmetric side (RIU-G14: Racer 2 has a Rev Track of 9, bonus on spaces 7/8/9;
    Racer 6 has 11, bonus on 9/10/11). Rev Track: the bonus is for "the last 3 spaces of the Rev Track"."""
    s = new(side="asymmetric", characters="racer-2,racer-6")
    force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-2"], bag={"exhaust-2": 1, "coin-1": 1})
    force(s, 1, rev=["exhaust-3", "exhaust-3", "exhaust-3"], bag={"exhaust-2": 1, "coin-1": 1})
    s = draws(s, "exhaust-2", "exhaust-2")
    assert s.status == (types.OVERHEATED, types.RACING)
    assert rev_of(s, 1)[-1] == ("exhaust-2", 11)
    s = decide(s, p1="stop")
    assert s.coins_to_spend == (0, 3)
    t = new(side="asymmetric", characters="racer-2,racer-6")
    force(t, 0, rev=["exhaust-3", "exhaust-3", "exhaust-1"], bag={"coin-1": 2})
    force(t, 1, rev=["exhaust-3", "exhaust-3", "exhaust-2"], bag={"coin-1": 2})
    t = decide(draws(t, "coin-1", "coin-1"), p0="stop", p1="stop")
    assert t.coins_to_spend == (1 + 1, 1 + 0)


def test_tied_racers_share_a_place_for_rerolls() -> None:
    """Turn Structure 3: "reroll the Item Die once if they are in second place, and up to 2 times if
    they are further back" (RIU-A4: place = 1 + racers strictly ahead, so racers tied for the lead both
    roll with no reroll, and a racer behind two tied leaders is third: two rerolls)."""
    s = new(players=3)
    force(s, 0, pos=5)
    force(s, 1, pos=4)
    force(s, 2, pos=1)
    s = draws(s, "exhaust-2", "exhaust-3", "exhaust-3")
    assert s.progress == (7, 7, 4)
    for seat in (1, 0):
        assert s.view(None)["current"] == seat
        s = s.apply("item:sponsor")
        assert s.ready[seat] == ("sponsor",)
    assert isinstance(s.actor, frozenset)
    t = new(players=3)
    force(t, 0, pos=20)
    force(t, 1, pos=20)
    force(t, 2, pos=5)
    t = draws(t, "coin-1", "coin-1", "exhaust-2")
    t = play(t, "item:sponsor", "reroll", "item:sponsor", "reroll", "item:turbo")
    assert t.ready[2] == ("turbo",) and isinstance(t.actor, frozenset)


def test_racer_9_rerolls_once_more_in_every_place() -> None:
    """Player Setup, Asymmetric side (RIU-G14: Racer 9 has +1 item-die reroll in every place, so even
    as the leader it may reroll once)."""
    s = new(side="asymmetric", characters="racer-9,racer-1")
    force(s, 0, pos=5)
    s = draws(s, "exhaust-2", "coin-1")
    s = s.apply("item:sponsor")
    assert s.actor == 0 and s.legal_actions() == ["keep", "reroll"]
    s = play(s, "reroll", "item:turbo")
    assert s.ready[0] == ("turbo",) and isinstance(s.actor, frozenset)


def test_the_view_names_every_stage_and_rests_only_on_the_listed_ones() -> None:
    """Issue 13: every step name the view's ``phase`` shows is listed in docs/rules/rev-it-up.md (Turn
    Structure 1-5, Buying, Game End). The automatic stages (Round Structure, a turn's start, the moves in
    Turn Structure 2) have names too, so the view never shows "?", but no state rests on one: they run
    within the action that reaches them, which ``invariant_problems`` checks."""
    assert len(STAGE_NAMES) == len(Stage) and STAGE_NAMES[Stage.STOP_OR_GO] == "stop-or-go"
    listed = {"draw", "item-die", "reroll", "gain-item", "boost", "stop-or-go", "use-items", "buy", "over"}
    rng = random.Random(3)
    seen = set()
    for seed in range(3):
        s: State = slipstream.load("rev-it-up", players=3).start(seed=seed)
        while True:
            seen.add(s.view(None)["phase"])
            assert s.invariant_problems() == []
            if s.is_over:
                break
            s = s.apply(s.sample_chance() if s.actor == CHANCE else rng.choice(s.legal_actions()))
    assert seen <= listed and {"draw", "stop-or-go", "buy", "over"} <= seen
    resting = new()
    resting.stage = Stage.MOVE
    assert resting.view(None)["phase"] == "move"
    assert resting.invariant_problems() == ["the state rests on the automatic stage 'move'"]
