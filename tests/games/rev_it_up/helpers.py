"""Helpers for Rev it Up scenarios: set up a position, force the draws and rolls, make the choices."""

from __future__ import annotations

from typing import Any

import slipstream
from slipstream.games.rev_it_up.state import RevState


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
    s._own()
    g = s.g
    K = g.K
    idx = g.kinds.index
    supply = list(s.supply)
    if bag is not None:
        for k in range(K):
            supply[k] += s.bag[seat * K + k]
            s.bag[seat * K + k] = 0
        for name, n in bag.items():
            supply[idx[name]] -= n
            s.bag[seat * K + idx[name]] += n
    if disc is not None:
        for name, n in disc.items():
            supply[idx[name]] -= n
            s.disc[seat * K + idx[name]] += n
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
        s.rev_k[seat] = tuple(kinds)
        s.rev_s[seat] = tuple(spaces)
    s.supply = tuple(supply)
    if pos is not None:
        s.pos[seat] = pos
    if ready is not None:
        s.ready = tuple(ready if t == seat else r for t, r in enumerate(s.ready))
    s._legal_cache = None
    s._act = False
    s._cc = None
    s._opts = [None] * g.players
    return s


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
    return s.g.kinds.names[k]


def bag_of(s: RevState, seat: int) -> dict[str, int]:
    K = s.g.K
    return {s.g.kinds.names[k]: s.bag[seat * K + k] for k in range(K) if s.bag[seat * K + k]}


def disc_of(s: RevState, seat: int) -> dict[str, int]:
    K = s.g.K
    return {s.g.kinds.names[k]: s.disc[seat * K + k] for k in range(K) if s.disc[seat * K + k]}


def rev_of(s: RevState, seat: int) -> list[tuple[str, int]]:
    return [(s.g.kinds.names[k], sp) for k, sp in zip(s.rev_k[seat], s.rev_s[seat], strict=True)]
