"""Helpers for Highway Heist scenarios: set up a road, force the dice and cards, make the choices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import slipstream
from slipstream.engine.fields import replaced
from slipstream.games.highway_heist import rules, turn
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import CAB, OFF, SHAW, SUV, TANK, TRAILER, WRECK, Piece, Stage

Space = tuple[int, int]


def sp(column: int, lane: int) -> int:
    """The space index of (column, lane) on the default 6-lane road."""
    return (column - 1) * 6 + lane - 1


def new(players: int = 2, stunt: str | None = None, **options: Any) -> HeistState:
    """A match at seat 0's first action (the first Stunt card forced, seat 0 chosen to play)."""
    state = slipstream.load("highway-heist", players=players, **options).start(seed=1)
    assert isinstance(state, HeistState)
    state = state.apply(f"stunt-card:{stunt}" if stunt else state.legal_actions()[0])
    return state.apply("0:play")


def arrange(s: HeistState, *, vehicles: dict[int, Space] | None = None, suvs: Sequence[Space] = (),
            wrecks: Sequence[Space] = (), pegs: Sequence[Space] = (), main: dict[str, Space | None] | None = None,
            on_top: dict[int, Space] | None = None, strip: bool = True) -> HeistState:
    """A copy of ``s`` with the road laid out: Player Vehicles by seat, Enemy SUVs, Wrecks (made from
    SUV miniatures), Enemy Pegs on the vehicles at ``pegs``, the scenario's pieces moved (None: off the
    road) and Player Pegs on top of the vehicles at ``on_top``. With ``strip`` every other Enemy SUV
    goes back to the supply and every other Enemy Peg off the road."""
    s = s.copy()
    pieces = list(s.pieces)
    n = s.g.players
    for seat, (c, ln) in (vehicles or {}).items():
        pieces[s.vehicle[seat]] = pieces[s.vehicle[seat]]._replace(space=sp(c, ln))
    if strip:
        for i, p in enumerate(pieces):
            if p.suv:
                pieces[i] = Piece(SUV, OFF, -1, False, 0, True)
            else:
                pieces[i] = p._replace(enemy_peg=False)
    slot = n
    for kind, spots in ((SUV, suvs), (WRECK, wrecks)):
        for c, ln in spots:
            while pieces[slot].space != OFF:
                slot += 1
            pieces[slot] = Piece(kind, sp(c, ln), -1, False, 0, True)
    names = {"tank": TANK, "semi_cab": CAB, "semi_trailer": TRAILER, "shaw_car": SHAW}
    for key, where in (main or {}).items():
        if key == "chopper":
            s.chopper = sp(*where) if where else -1
            continue
        i = next(i for i, p in enumerate(pieces) if p.kind == names[key])
        pieces[i] = pieces[i]._replace(space=sp(*where) if where else OFF)
    s.pieces = tuple(pieces)
    for c, ln in pegs:
        i = rules.occupancy(s)[sp(c, ln)]
        s.pieces = replaced(s.pieces, i, s.pieces[i]._replace(enemy_peg=True))
    for seat, (c, ln) in (on_top or {}).items():
        s.peg_on = replaced(s.peg_on, seat, rules.occupancy(s)[sp(c, ln)])
    return s


def piece_at(s: HeistState, column: int, lane: int) -> Piece:
    return s.pieces[rules.occupancy(s)[sp(column, lane)]]


def index_at(s: HeistState, column: int, lane: int) -> int:
    return rules.occupancy(s)[sp(column, lane)]


def no_assist(s: HeistState) -> HeistState:
    """Every seat passes the Assist window (if one is open)."""
    while s.stage is Stage.ASSIST:
        s = s.apply(f"{min(s.waiting)}:pass")
    return s


def roll(s: HeistState, successes: int, boosts: int = 0, keep: bool = True) -> HeistState:
    """Pass the Assist window and force the Effort Dice: ``successes`` and ``boosts`` faces, the rest
    blank; with ``keep`` a Boost offer is declined."""
    s = no_assist(s)
    assert s.stage is Stage.ROLL, s.stage
    assert s.roll is not None
    blanks = s.roll.dice - successes - boosts
    s = s.apply(f"effort:{successes}s{boosts}b{blanks}x")
    if keep and s.stage is Stage.BOOST:
        s = s.apply("keep")
    return s


def enemy_die(s: HeistState, face: str) -> HeistState:
    """End the turn (if it is not over) and force the Enemy Die."""
    if s.stage is Stage.ACTION:
        s = s.apply("end-turn")
    assert s.stage is Stage.ENEMY_DIE, s.stage
    return s.apply(f"enemy-die:{face}")


def damage(s: HeistState, seat: int) -> int:
    return s.damage[seat]


def end_round(s: HeistState) -> HeistState:
    """A copy of ``s`` taken through End of Round (every character Exhausted): Road Maintenance, then
    Stunt Card Maintenance up to the next Stunt card draw (or the end of the game)."""
    from slipstream.games.highway_heist.types import Phase, Task, TaskKind

    s = s.copy()
    s.phase, s.stage, s.active = Phase.END_ROUND, Stage.AUTO, -1
    s.exhausted = (True,) * s.g.players
    s.queue = (Task(TaskKind.ROAD_MAINTENANCE), Task(TaskKind.STUNT_MAINTENANCE))
    turn.advance(s, [])
    return s


def passive_step(s: HeistState) -> HeistState:
    """One step of a team that does nothing: end the turn, no Assist, no Boost, the first choice, chance
    from the seed."""
    if s.is_chance:
        return s.apply_chance()
    if s.stage is Stage.ACTION:
        return s.apply("end-turn")
    if s.stage is Stage.ASSIST:
        return s.apply(f"{min(s.waiting)}:pass")
    if s.stage is Stage.BOOST:
        return s.apply("keep")
    return s.apply(s.legal_actions()[0])


def play_passively(s: HeistState, limit: int = 20_000) -> HeistState:
    """``passive_step`` until the match ends."""
    for _ in range(limit):
        if s.is_over:
            return s
        s = passive_step(s)
    raise AssertionError("the match did not end")
