"""The report's figures: readable whatever the group names."""

from __future__ import annotations

import struct

from slipstream.sim import plots


def size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels, from the PNG header."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_team_names_get_horizontal_bars_that_grow_with_the_teams() -> None:
    """Team names (three characters and vehicles) are too long for the x axis, where they overlapped and
    squeezed the plot: they get horizontal bars on a figure of fixed width, one band per team."""
    team = "dom/exotic-supercar + brian/street-drifter + letty/american-muscle"
    three = [{"key": f"{team} {i}", "win": (0.3 + i / 10, 0.2, 0.5)} for i in range(3)]
    six = [{"key": f"{team} {i}", "win": (0.3, 0.2, 0.5)} for i in range(6)]
    (width3, height3), (width6, height6) = size(plots.rate_bars(three, "by team")), size(plots.rate_bars(six, "t"))
    assert width3 == width6 == int(7.5 * 90) and height6 > height3 > width3 / 3


def test_short_names_keep_upright_bars() -> None:
    seats = [{"key": f"seat {i}", "win": (0.25, 0.2, 0.3)} for i in range(4)]
    width, height = size(plots.rate_bars(seats, "by seat", fair=0.25))
    assert (width, height) == (int((0.8 * 4 + 2) * 90), int(3.2 * 90))
