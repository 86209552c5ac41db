"""Per-race numbers a designer of Rush 'n' Crush cares about: wrecks, how cars were destroyed (heat or
structure), the damage each weapon and hazard dealt, rams and the other equipment used.

The state keeps no counters of its own, so the numbers come from each action's events, which name the
rule they applied, and the change in every car's Structure and Heat: ``RaceTally`` counts them. The
simulator feeds it each action as the race is played (``GameHooks.metrics_tally``); ``race_metrics``
replays a finished race's actions from its seed into one (``apply_unchecked``: the actions are the
race's own), which costs about as much as the race's engine work.
"""

from __future__ import annotations

from typing import Final, cast

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State

from . import rules
from .course import GRID_SLOTS
from .state import RushState
from .types import Stage

SOURCES: Final = (
    ("machine_gun", "Machine Gun"), ("flamer", "Flamer"), ("circular_saw", "Lateral Circular Saw"),
    ("side_ram", "Side Ram"), ("rush_n_crush", "Rush 'n' Crush"), ("obstruction", "fixed obstruction"),
    ("rocket_booster", "Rocket Booster"), ("wreck", "wreck"),
)
"""Metric name and the words of the rule an event cites; a mine's hit cites the wreck rule and is told
apart by the mine's removal in the same action. Heat from the red dice cites "Turn"."""
COUNTED: Final = {"side-ram": "side_rams", "rush-n-crush": "rush_n_crush_rams", "mine-dropped": "mines_dropped",
                  "booster": "rocket_boosters", "fire": "shots", "extinguisher": "extinguishers",
                  "obstruction": "obstruction_hits", "swerve": "swerves", "stopped": "boxed_in_stops"}
"""Event kinds counted as they happen, by metric name."""
FIRST: Final = ("wrecks", "destroyed_by_heat", "destroyed_by_structure", "damage_machine_gun", "heat_flamer",
                "damage_circular_saw", "damage_side_ram", "damage_rush_n_crush", "side_rams", "rush_n_crush_rams",
                "shots", "damage_total")
"""The metrics ``RaceTally.result`` lists first, in this order: the report plots the first twelve that vary
(``sim.plots.MAX_GRID``), and these are the ones a designer of this game asks about first (wrecks and how,
the damage each weapon did, the rams)."""


def _rush(state: State) -> RushState:
    if not isinstance(state, RushState):
        raise TypeError(f"not a Rush 'n' Crush state: {type(state).__name__}")
    return state


def _source(rule: str, mine_removed: bool) -> str:
    for name, words in SOURCES:
        if words in rule:
            return "mine" if name == "wreck" and mine_removed else name
    return "red_dice"


class RaceTally:
    """The race's numbers counted action by action: the simulator tells it of each action as it plays
    (``GameHooks.metrics_tally``), ``race_metrics`` replays a finished race into one."""

    def __init__(self, start: State) -> None:
        self.players = _rush(start).game.players
        out: dict[str, float] = {"turns": 0.0}
        out.update({f"damage_{name}": 0.0 for name, _ in SOURCES})
        out["damage_mine"] = 0.0
        out.update({f"heat_{name}": 0.0 for name in ("red_dice", "flamer", "rocket_booster")})
        out.update({name: 0.0 for name in COUNTED.values()})
        self.counts = out

    def observe(self, before: State, after: State) -> None:
        """Count the events of one action and put each Structure point lost and Heat point gained down to
        its source (the rule its event cites). Called for every action of a simulated race, so it is kept
        lean: the states are of the game ``__init__`` checked (cast, not checked again)."""
        old, new = cast(RushState, before), cast(RushState, after)
        out = self.counts
        events = new.events
        for e in events:
            name = COUNTED.get(e.kind)
            if name is not None:
                out[name] += 1
        if (new.turn != old.turn or new.round != old.round) and old.order and new.order and (
                old.stage is not Stage.GRID and old.stage is not Stage.DEAL):
            out["turns"] += 1
        # Most actions change neither track, and then the state holds the very same tuples.
        if (old.structure is new.structure or old.structure == new.structure) and (
                old.heat is new.heat or old.heat == new.heat):
            return
        rule = {e.kind: e.rule for e in events}
        mine_removed = "mine-gone" in rule
        for c in range(self.players):
            lost = old.structure[c] - new.structure[c]
            if lost > 0:
                out[f"damage_{_source(rule.get('damage', ''), mine_removed)}"] += lost
            gained = new.heat[c] - old.heat[c]
            if gained > 0:
                source = _source(rule.get("heat", ""), False)
                out[f"heat_{source if source in ('flamer', 'rocket_booster') else 'red_dice'}"] += gained

    def result(self, final_state: State) -> dict[str, float]:
        """The counts with what the final state tells: rounds, wrecks and how they were destroyed, the finish;
        the ``FIRST`` metrics first."""
        state = _rush(final_state)
        n = state.game.players
        out = {"rounds": float(state.round), **self.counts}
        if state.stage is Stage.OVER:
            out["turns"] += 1
        dashboards = state.dash
        destroyed = [c for c in range(n) if state.destroyed[c]]
        out["wrecks"] = float(len(destroyed))
        out["destroyed_by_heat"] = float(sum(1 for c in destroyed if state.heat[c] > dashboards[c].heat_capacity))
        out["destroyed_by_structure"] = float(sum(1 for c in destroyed if state.structure[c] <= 0))
        out["damage_total"] = sum(v for k, v in out.items() if k.startswith("damage_"))
        out["crossed_the_line"] = 1.0 if state.winner >= 0 and not state.reason.endswith("last car running") else 0.0
        out["last_car_running"] = 1.0 if state.reason.endswith("last car running") else 0.0
        out["winning_margin"] = winning_margin(state)
        ordered = {name: out[name] for name in FIRST}
        ordered.update(out)
        return ordered


def winning_margin(state: RushState) -> float:
    """Ranks between the winner and the next car at the end: how far the next car was from the line when
    the winner crossed it (from the winner's square, when it won as the last car running); 0 without a
    winner or another car."""
    others = [rules.progress(state, c) for c in range(state.game.players) if c != state.winner]
    if state.winner < 0 or not others:
        return 0.0
    ahead = rules.progress(state, state.winner)
    if not state.reason.endswith("last car running"):
        ahead = max(ahead, finish_key(state))
    return (ahead - max(others)) / 2


def race_metrics(final_state: State) -> dict[str, float]:
    """Rounds, turns, wrecks, destroyed by heat / by structure, Structure damage and Heat by source,
    rams, mines, shots and the finish (crossed the line, or the last car running): the race replayed
    into a ``RaceTally``."""
    state = _rush(final_state)
    replay: State = state.game.start(seed=state.seed)
    tally = RaceTally(replay)
    for action in state.actions:
        before = replay
        replay = replay.apply_unchecked(action)
        tally.observe(before, replay)
    return tally.result(state)


def seat_labels(final_state: State) -> dict[int, str]:
    """Each seat's car and driver ("Armour & Ram / Gun & Saw")."""
    state = _rush(final_state)
    return {seat: f"{d.car_name} / {d.driver_name}" for seat, d in enumerate(state.dash)}


def start_positions(final_state: State) -> dict[str, tuple[int, ...]]:
    """Each car's grid slot (1 on pole) and grid row (1 at the front): the cars are dealt to the grid two a
    row, staggered (RC-G7, ``content.GRID_SLOTS``); empty before the grid is dealt."""
    state = _rush(final_state)
    n = state.game.players
    if len(state.grid_seats) != n:
        return {}
    backs = sorted({back for _, back in GRID_SLOTS})
    slot = [0] * n
    for k, seat in enumerate(state.grid_seats):
        slot[seat] = k + 1
    return {"grid slot": tuple(slot), "grid row": tuple(backs.index(GRID_SLOTS[k - 1][1]) + 1 for k in slot)}


def standings(position: State) -> list[int]:
    """Seats from the leader to the last now: the winner, the running cars front to back, then the
    wrecks, the latest destroyed first (the order ``result`` uses); seat order before the grid is dealt."""
    state = _rush(position)
    if state.stage is Stage.GRID or state.stage is Stage.DEAL:
        return list(range(state.game.players))
    return list(rules.finishing_order(state))


# --- position value (for search bots) -------------------------------------------------------------

RANKS_PER_TURN: Final = 12.0
SPREAD_TURNS: Final = 2.0
"""The pace (ranks a turn) and the spread (turns, per square root of the turns left) of the estimate,
chosen with ``DAMAGE_TURNS`` and ``HEAT_TURNS`` from a grid by the Brier score of positions sampled from
120 races between heuristic bots with the default options (``tests/games/brier.py``'s sampling, 28
November 2026): 0.92 of the fair share's score with 2 players, 0.93 with 4 (the former 5, 0.3, 0.4 and no
heat, fitted when the car ahead never lost its lead: 1.36 and 1.29, worse than the fair share). The lead
now changes two or three times a race and the leader at a round's start wins less than its fair share
until the last two rounds, so no estimate of this shape does much better than the fair share."""
DAMAGE_TURNS: Final = 0.2
"""Turns a lost Structure point is worth (a damaged car must slow down and risks becoming a wreck)."""
HEAT_TURNS: Final = 0.2
"""Turns a Heat point is worth (a hot car must slow down, cool or risk the skull)."""


def finish_key(state: RushState) -> int:
    """The progress key (``rules.progress``) of the finish line."""
    track = state.game.track
    if track.closed:
        return 2 * (track.line_rank + track.laps * track.lap_ranks)
    return 2 * track.lap_ranks


def turns_needed(state: RushState, car: int) -> float:
    """The turns ``car`` needs to reach the line at the average pace, and a little more for each
    Structure point it has lost (``DAMAGE_TURNS``) and each Heat point it carries (``HEAT_TURNS``)."""
    ranks = max(0.0, (finish_key(state) - rules.progress(state, car)) / 2)
    lost = state.dash[car].structure - state.structure[car]
    return ranks / RANKS_PER_TURN + DAMAGE_TURNS * lost + HEAT_TURNS * state.heat[car]


def position_value(position: State, seat: int) -> float:
    """``seat``'s estimated chance of winning from here, in [0, 1]: 1 or 0 once the race is over, 0 for
    a wreck; else the running cars' turns to the line (``turns_needed``) compared with a normal spread
    (``win_chances``)."""
    state = _rush(position)
    if state.stage is Stage.OVER:
        return 1.0 if state.winner == seat else 0.0
    if state.stage is Stage.GRID or state.stage is Stage.DEAL:
        return 1.0 / state.game.players
    if state.destroyed[seat]:
        return 0.0
    cars = rules.running(state)
    need = [turns_needed(state, c) for c in cars]
    spread = SPREAD_TURNS * max(1.0, min(need)) ** 0.5
    return win_chances(need, spread)[cars.index(seat)]
