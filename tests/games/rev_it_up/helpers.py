"""Helpers for Rev it Up scenarios: set up a position, force the draws and rolls, make the choices."""

from __future__ import annotations

from typing import Any

import slipstream
from slipstream.engine.fields import replaced
from slipstream.games.rev_it_up import notation, rules
from slipstream.games.rev_it_up.state import RevState
from slipstream.games.rev_it_up.types import SIMULTANEOUS


def new(players: int = 2, **options: Any) -> RevState:
    """A fresh race at its first chance node."""
    state = slipstream.load("rev-it-up", players=players, **options).start(seed=1)
    assert isinstance(state, RevState)
    return state


def force(s: RevState, seat: int, *, bag: dict[str, int] | None = None, rev: list[str] | None = None,
          pos: int | None = None, ready: tuple[str, ...] | None = None,
          disc: dict[str, int] | None = None) -> RevState:
    """Set up one racer (test set-up only, on a state nobody else holds); chips keep being conserved
    because they are moved from and to the supply."""
    g = s.game
    kinds = g.kind_count
    idx = g.kinds.index
    supply = list(s.supply)
    if bag is not None:
        counts = [0] * kinds
        for k in range(kinds):
            supply[k] += s.bags[seat][k]
        for name, n in bag.items():
            supply[idx[name]] -= n
            counts[idx[name]] += n
        s.bags = replaced(s.bags, seat, tuple(counts))
    if disc is not None:
        counts = list(s.discards[seat])
        for name, n in disc.items():
            supply[idx[name]] -= n
            counts[idx[name]] += n
        s.discards = replaced(s.discards, seat, tuple(counts))
    if rev is not None:
        kinds: list[int] = []
        spaces: list[int] = []
        last = 0
        for name in rev:
            k = idx[name]
            last += g.heat[k]
            supply[k] -= 1
            kinds.append(k)
            spaces.append(last)
        s.rev_chips = replaced(s.rev_chips, seat, tuple(kinds))
        s.rev_spaces = replaced(s.rev_spaces, seat, tuple(spaces))
    s.supply = tuple(supply)
    if pos is not None:
        s.progress = replaced(s.progress, seat, pos)
    if ready is not None:
        s.ready = replaced(s.ready, seat, ready)
    return refresh(s)


def refresh(s: RevState) -> RevState:
    """After a test changed a position in place: the offers of a simultaneous choice worked out again
    from the rules, and no legal actions kept from before."""
    if s.stage in SIMULTANEOUS:
        s.offers = tuple(notation.seated(t, rules.seat_options(s, t)) if t in s.waiting else () for t in s.game.seats)
    s._legal_cache = None
    return s


def choice_of(s: RevState, seat: int) -> str | None:
    """A seat's choice at a simultaneous choice, as its action string (``None``: not chosen)."""
    choice = s.choices[seat]
    return notation.text(choice) if choice is not None else None


def play(s: RevState, *actions: str) -> RevState:
    for action in actions:
        s = s.apply(action)
    return s


def draws(s: RevState, *chips: str) -> RevState:
    """Force the draws of the racing seats in seat order (``None`` skips nothing: give one per drawer)."""
    for chip in chips:
        s = s.apply(f"chip:{chip}")
    return s


def decide(s: RevState, **choices: str) -> RevState:
    """``decide(s, p0="go", p1="stop")``: every pending seat's choice at a simultaneous step."""
    for key, choice in choices.items():
        s = s.apply(f"{int(key[1:])}:{choice}")
    return s


def events(s: RevState) -> list[str]:
    return [e.text for e in s.events]


def name_of(s: RevState, k: int) -> str:
    return s.game.kinds.names[k]


def bag_of(s: RevState, seat: int) -> dict[str, int]:
    return {s.game.kinds.names[k]: n for k, n in enumerate(s.bags[seat]) if n}


def disc_of(s: RevState, seat: int) -> dict[str, int]:
    return {s.game.kinds.names[k]: n for k, n in enumerate(s.discards[seat]) if n}


def rev_of(s: RevState, seat: int) -> list[tuple[str, int]]:
    return [(s.game.kinds.names[k], sp) for k, sp in zip(s.rev_chips[seat], s.rev_spaces[seat], strict=True)]
