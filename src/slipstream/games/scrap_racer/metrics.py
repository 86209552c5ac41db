"""Scrap Racer numbers for the simulator: crash cards by pile, fights, boosts and bonus cards."""

from __future__ import annotations

from slipstream.engine.game import State

from .game import ScrapRacer
from .rules import ScrapState


def race_metrics(final: State) -> dict[str, float]:
    """Per-race figures a designer cares about."""
    if not isinstance(final, ScrapState):
        return {}
    g = final.game
    stats = final.stats
    crash = {f"crash_cards_{name}": float(stats[ScrapRacer.STAT_CRASH + i])
             for i, name in enumerate(g.content.pile_names)}
    return {
        "turns": float(final.turns),
        "rounds": float(final.rnd),
        "crash_cards": float(sum(crash.values())),
        **crash,
        "fights": float(stats[ScrapRacer.STAT_FIGHTS]),
        "boost_markers_used": float(stats[ScrapRacer.STAT_BOOSTS]),
        "bonus_cards_drawn": float(stats[ScrapRacer.STAT_CARDS_DRAWN]),
        "bonus_cards_played": float(stats[ScrapRacer.STAT_CARDS_PLAYED]),
        "winning_margin": float(_margin(final)),
    }


def _margin(final: ScrapState) -> int:
    order = final.standings()
    return final.pos[order[0]] - final.pos[order[1]] if len(order) > 1 else 0


def seat_labels(final: State) -> dict[int, str]:
    """The racer(s) each seat raced."""
    if not isinstance(final, ScrapState):
        return {}
    labels: dict[int, list[str]] = {}
    for r, seat in enumerate(final.owner):
        labels.setdefault(seat, []).append(final.name(r))
    return {seat: "+".join(names) for seat, names in labels.items()}


def standings(state: State) -> list[int]:
    """Seats from the leader to the last (a seat with two racers ranks by its leading racer)."""
    if not isinstance(state, ScrapState):
        return []
    seen: list[int] = []
    for r in state.standings():
        seat = state.owner[r]
        if seat not in seen:
            seen.append(seat)
    return seen
