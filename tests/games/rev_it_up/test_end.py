"""Game End (rulebook "Game End"; RIU-A10, RIU-A11)."""

from __future__ import annotations

from pathlib import Path

from slipstream.engine import CHANCE
from slipstream.games.rev_it_up import types
from slipstream.games.rev_it_up.content import DEFAULT_PATH

from .helpers import decide, draws, force, new, play


def test_the_first_racer_across_on_the_final_lap_wins_at_once() -> None:
    """Game End: "The game will end immediately after the first player has crossed the finish line on
    their final lap" (Standard: 2 laps of 30 spaces). Later movers do not move."""
    s = new(players=3)
    force(s, 0, pos=58)
    force(s, 1, pos=59)
    s = draws(s, "exhaust-3", "exhaust-1", "coin-1")
    assert s.is_over
    assert s.progress == (61, 59, 0)
    assert s.result is not None
    assert s.result.winners == (0,) and s.result.order == (0, 1, 2)
    assert s.legal_actions() == []


def test_crossing_the_line_before_the_final_lap_does_not_end() -> None:
    """Game End: only the final lap counts ("Players can track which lap they are on")."""
    s = new()
    force(s, 0, pos=29)
    s = draws(s, "exhaust-2", "coin-1")
    assert not s.is_over and s.view(None)["racers"][0]["lap"] == 2


def test_higher_movement_resolves_first_at_the_finish() -> None:
    """RIU-A11: the first racer in the movement order to cross wins, even if another would end
    further."""
    s = new()
    force(s, 0, pos=59)
    force(s, 1, pos=57)
    s = draws(s, "exhaust-1", "exhaust-3")
    assert s.result is not None and s.result.winners == (1,)
    assert s.progress == (59, 60)


def test_equal_movement_at_the_finish_the_racer_in_front_crosses_first() -> None:
    """Turn Structure 2 ("Play is almost entirely simultaneous ... move their racers according to the
    movement on their drawn chip") and Game End ("The game will end immediately after the first player
    has crossed the finish line on their final lap"), issue 13: P1 on 58 and P2 on 57 both draw Exhaust
    3; moving at the same time, P1 in front crosses first and wins. (Before, P2 moved first, crossed and
    won while P1 never moved.)"""
    s = new()
    force(s, 0, pos=58)
    force(s, 1, pos=57)
    s = draws(s, "exhaust-3", "exhaust-3")
    assert s.result is not None and s.result.winners == (0,) and s.result.order == (0, 1)
    assert s.progress == (61, 57)


def test_an_exact_tie_shares_the_win() -> None:
    """RIU-A11: racers with the same movement from the same space cross together and share the win."""
    s = new(players=3)
    force(s, 0, pos=58)
    force(s, 1, pos=58)
    s = draws(s, "exhaust-2", "exhaust-2", "exhaust-1")
    assert s.result is not None and s.result.winners == (0, 1)
    assert s.progress[2] == 0


def test_play_on_for_second_and_third() -> None:
    """Game End: "Players may choose to keep playing for second and third" (option podium)."""
    s = new(players=3, podium=2)
    force(s, 0, pos=58)
    s = draws(s, "exhaust-3", "exhaust-1", "exhaust-1")
    assert not s.is_over and s.status[0] == types.FINISHED
    assert s.actor == frozenset({1, 2})
    force(s, 2, pos=59)
    s = decide(s, p1="go", p2="go")
    assert s.view(None)["current"] == 1
    s = draws(s, "exhaust-1", "exhaust-1")
    assert s.result is not None
    assert s.result.order == (0, 2, 1) and s.result.winners == (0,)


def test_laps_option_moves_the_finish() -> None:
    """Setup 1: "decide how many laps you'll be racing" (RIU-A10: option laps)."""
    s = new(laps=1)
    force(s, 0, pos=28)
    s = draws(s, "exhaust-2", "coin-1")
    assert s.result is not None and s.result.winners == (0,)


def test_finished_racers_sit_out_the_rest_of_the_race() -> None:
    """Game End, playing on (option podium): a racer that has finished no longer draws or buys."""
    s = new(players=3, podium=2)
    force(s, 0, pos=58, disc={"coin-3": 1})
    s = draws(s, "exhaust-3", "coin-1", "coin-1")
    assert s.status[0] == types.FINISHED
    s = decide(s, p1="stop", p2="stop")
    assert s.view(None)["phase"] == "buy"
    assert s.actor == frozenset({1, 2}) and s.coins_to_spend[0] == 0
    s = s.apply("1:done").apply("2:done")
    assert s.actor == CHANCE
    assert s.view(None)["current"] == 1


def test_in_a_tie_the_racer_further_past_the_line_wins() -> None:
    """RIU-A11: racers with the same movement from the same space cross in the same group; if one ends
    further past the line (here the other is stopped on the line by an Oil Slick dropped there), it
    wins alone."""
    s = new(players=3)
    force(s, 2, ready=("oil-slick",), pos=0)
    force(s, 0, pos=58)
    force(s, 1, pos=58)
    s = decide(draws(s, "coin-1", "coin-1", "coin-1"), p0="go", p1="go", p2="go")
    s = s.apply("2:use:oil-slick")
    assert s.traps == ((0, "oil-slick", 2),)
    s = draws(s, "exhaust-3", "exhaust-3", "coin-2")
    assert s.progress == (60, 61, 0)
    assert s.result is not None and s.result.winners == (1,) and s.result.order == (1, 0, 2)


def podium_content(tmp_path: Path) -> str:
    """The default content with an item space on the last space of the Standard track (29)."""
    path = tmp_path / "last-space-item.toml"
    path.write_text(DEFAULT_PATH.read_text().replace("item_spaces = [7, 15, 23]", "item_spaces = [7, 15, 29]"))
    return str(path)


def test_a_finished_racer_no_longer_rolls_boosts_or_uses_items(tmp_path: Path) -> None:
    """Game End, playing on (option podium; RIU-X3): a racer that crossed the line on its final lap
    is out of the race: passing an item space on the way gives it no roll, and it is offered neither
    a Boost during movement nor its ready items afterwards."""
    s = new(players=3, podium=2, content=podium_content(tmp_path))
    force(s, 0, pos=58, ready=("turbo", "sponsor"))
    s = draws(s, "exhaust-2", "coin-1", "coin-1")
    assert s.status[0] == types.FINISHED and s.progress[0] == 60
    assert s.actor == frozenset({1, 2})
    s = decide(s, p1="go", p2="go")
    assert s.actor == CHANCE and s.view(None)["current"] == 1
    assert s.ready[0] == ("turbo", "sponsor")


def test_a_finished_racer_gets_no_sticky_bomb() -> None:
    """Game End, playing on (option podium; RIU-X3): a Sticky Bomb goes to any opponent still in the
    race (a stopped one too, RIU-G10 decision), never to one that has finished."""
    s = new(players=3, podium=2)
    force(s, 0, pos=58)
    force(s, 1, pos=5)
    s = decide(draws(s, "exhaust-3", "coin-1", "coin-1"), p1="go", p2="stop")
    assert s.status == (types.FINISHED, types.RACING, types.STOPPED)
    s = draws(s, "exhaust-2")
    s = play(s, "item:sticky-bomb", "keep")
    assert s.actor == 1 and s.legal_actions() == ["give:2"]


def test_an_overheating_chip_that_carries_a_racer_over_the_line_still_wins() -> None:
    """Game End with RIU-A1: the overheating chip's move resolves first ("move ... Then place"), so a
    racer it carries over the line on the final lap finishes and wins although it overheats; with
    overheat_penalty=lose_move the chip gives no move and the race goes on."""
    s = new()
    force(s, 0, pos=58, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    s = draws(s, "exhaust-2", "coin-1")
    assert s.progress[0] == 60 and s.result is not None and s.result.winners == (0,)
    t = new(overheat_penalty="lose_move")
    force(t, 0, pos=58, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    t = draws(t, "exhaust-2", "coin-1")
    assert t.progress[0] == 58 and not t.is_over and t.status[0] == types.OVERHEATED


def test_the_result_lists_finishers_in_crossing_order_then_the_rest_by_progress() -> None:
    """Game End, "keep playing for second and third" (option podium): the finishers in the order they
    crossed (RIU-A11), then everyone else by how far they got."""
    s = new(players=4, podium=2)
    force(s, 2, pos=58)
    force(s, 1, pos=10)
    force(s, 3, pos=20)
    s = draws(s, "coin-1", "coin-1", "exhaust-3", "coin-1")
    assert s.status[2] == types.FINISHED
    force(s, 0, pos=59)
    s = decide(s, p0="go", p1="go", p3="go")
    s = draws(s, "exhaust-1", "coin-1", "coin-1")
    assert s.result is not None
    assert s.result.order == (2, 0, 3, 1) and s.result.winners == (2,)


def test_a_boost_after_an_overheat_can_still_cross_the_line() -> None:
    """Game End: "the first player has crossed the finish line on their final lap" wins, whatever
    carried it there: here a Turbo used right after the chip that overheated its racer (RIU-A5)."""
    s = new()
    force(s, 0, pos=56, ready=("turbo",), rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    s = draws(s, "exhaust-1", "coin-1")
    assert s.status[0] == types.OVERHEATED and s.actor == 0
    s = s.apply("boost:turbo")
    assert s.progress[0] == 60 and s.result is not None and s.result.winners == (0,)
