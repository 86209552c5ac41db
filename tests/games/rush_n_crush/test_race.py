"""The race: the finish, laps, destruction and the result (summary: Introduction, Setup)."""

from __future__ import annotations

from slipstream.games.rush_n_crush.types import Stage

from .helpers import armed, moving, new, place


def test_first_across_the_line_wins_at_once() -> None:
    """Introduction: "The winner is the first car to cross the finish line. (Turn order matters.)" The
    race ends at once, the rest of the move unplayed (RC-A11)."""
    s = moving(place(new(3), {0: "5.1.6", 1: "5.2.7", 2: "5.0.2"}), "g1b")
    s = s.apply("ahead").apply("ahead")
    assert s.stage is Stage.OVER and s.result is not None
    assert s.result.winners == (0,) and s.result.order == (0, 1, 2)
    assert s.legal_actions() == []


def test_closed_course_counts_laps() -> None:
    """Setup: "4-5 with two laps": on the ring the race ends on the third crossing of the line, the exit
    edge of tile 0 (the first, from the grid, does not count; RC-A11)."""
    s = place(new(2, course="ring"), {0: "0.3.9", 1: "2.0.0"}, lap=(1, 0))
    s = moving(s, "g1b").apply("ahead")
    assert s.stage is not Stage.OVER and s.lap[0] == 1
    s = place(new(2, course="ring"), {0: "3.3.9", 1: "2.0.0"}, lap=(1, 0))
    s = moving(s, "g1b").apply("ahead")
    assert s.lap[0] == 2 and s.stage is not Stage.OVER
    s = place(new(2, course="ring"), {0: "0.3.9", 1: "2.0.0"}, lap=(2, 0))
    s = moving(s, "g1b").apply("ahead")
    assert s.stage is Stage.OVER and s.result is not None and s.result.winners == (0,)


def test_one_lap_closed_course() -> None:
    """The oval is closed over one lap (a short game): the second crossing of the line wins."""
    s = place(new(2, course="oval"), {0: "0.1.7", 1: "3.0.0"}, lap=(1, 0))
    s = moving(s, "g1b").apply("ahead")
    assert s.stage is Stage.OVER and s.result is not None and s.result.winners == (0,)


def test_the_last_car_running_wins() -> None:
    """RC-A11: when every other car is destroyed, the last car running wins at once."""
    s = armed(place(new(), {1: "0.1.2", 0: "0.1.3"}, active=1, structure=(1, 6)), 1, "machine-gun")
    s = s.apply("use:machine-gun").apply("hits:1")
    assert s.stage is Stage.OVER and s.result is not None
    assert s.result.winners == (1,) and s.result.order == (1, 0)
    assert s.view(None)["cars"][0]["destroyed"] is True


def test_result_order_after_the_winner() -> None:
    """RC-A11: after the winner, the running cars by position (ties: the earlier arrival), then the
    destroyed cars, the latest destroyed first."""
    s = place(new(5), {0: "5.1.7", 1: "3.1.0", 2: "4.1.0", 3: "4.2.0", 4: "5.0.0"},
              stamp=(1, 2, 9, 3, 4), destroyed=(0, 0, 0, 0, 1))
    s = moving(s, "g1b").apply("ahead")
    assert s.result is not None and s.result.order == (0, 3, 2, 1, 4)
