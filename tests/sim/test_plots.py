"""The report's figures: readable whatever the group names."""

from __future__ import annotations

import math
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


def test_each_number_of_a_sweep_gets_a_chart_on_its_own_scale() -> None:
    """One number changed by +582% and others by a few %: each chart keeps its own scale, so the small
    changes stay readable; a dozen points with long names do not make the figure wider."""
    import matplotlib.pyplot as plt

    names = ["lead changes", "rounds", "heat from the red dice", "wrecks"]
    changes = [2.0, -3.0, 582.0, 5.0]
    points = {f"rush_attacks=per-race,gear_lines=upshift-at-high-revs,players={p}":
              [(c, c - 1.0, c + 1.0) for c in changes] for p in range(12)}
    figure = plots.difference_figure(names, points, "against players=2")
    axes = [ax for ax in figure.axes if ax.has_data()]
    assert [ax.get_title() for ax in axes] == names
    spans = [ax.get_xlim()[1] - ax.get_xlim()[0] for ax in axes]
    assert spans[2] > 582 and max(spans[0], spans[1], spans[3]) < 20, "each scale fits its own number (and 0)"
    assert all(ax.get_xlim()[0] < c < ax.get_xlim()[1] for ax, c in zip(axes, changes, strict=True))
    plt.close(figure)
    few = {name: triples for name, triples in list(points.items())[:2]}
    (wide, tall), (wide2, short) = (size(plots.difference_chart(names, points, "t")),
                                    size(plots.difference_chart(names, few, "t")))
    assert wide == wide2 and tall > short, "more points: taller, never wider"
    zero = plots.difference_figure(names, {k: [*v[:3], (math.nan,) * 3] for k, v in few.items()}, "t")
    assert len([ax for ax in zero.axes if ax.has_data()]) == 3, "no change in % (a baseline of 0): no chart"
    plt.close(zero)
