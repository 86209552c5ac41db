"""Rush 'n' Crush, one position: the declared fields and the engine's contract.

A car is a seat (one car each). Its square is a number of the course's ``Track`` (``course.py``); its
``lap`` counts the times it crossed from the last tile to tile 0 of a closed course. A destroyed car
stays where it is as a wreck. The rules are in ``rules.py``, in rulebook order; rule decisions (RC-*
ids) in docs/rules/rush-n-crush.md; the action strings are read in ``notation.py``; the nouns (stages,
tasks, typed actions) are in ``types.py``.

The copy rule (``slipstream.engine.fields``): ``square``, changed on most actions, is the one list and
is changed in place; every other field holds immutable values and is replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.chance import ChanceTable
from slipstream.engine.fields import slots
from slipstream.engine.game import CHANCE, Actor, Event, Result, State

from . import notation, rules
from .content import Dashboard
from .types import ATTACKS, STAGE_NAMES, Stage, Task

if TYPE_CHECKING:
    from .game import RushNCrush  # noqa: F401 - the base class names it: State["RushNCrush"]


class RushState(State["RushNCrush"]):
    """One position of a Rush 'n' Crush race: plain data, declared once (see the module)."""

    legal_is_sorted = True

    dash: tuple[Dashboard, ...]
    """Each seat's car and driver (with ``seat_assignment = "random"``, placeholders until dealt)."""
    dealt: tuple[str, ...]
    """The car ids, then the driver ids, dealt to seats 0, 1, ... so far (random seating)."""
    stage: Stage
    phase: Stage
    """The player's part of the turn (``GEAR``, ``POINTS``, ``MOVE`` or ``AFTER``) that a roll returns to."""
    need: tuple[int, ...]
    """The roll a chance node waits for: a ``Task`` entry (empty elsewhere)."""
    queue: tuple[tuple[int, ...], ...]
    """Rolls and steps still to resolve in this turn, in order."""
    square: list[int]
    """Each car's square (-1 before the grid is dealt)."""
    lap: tuple[int, ...]
    node: tuple[int, ...]
    """Each car's gearstick node (0: the zero spot)."""
    structure: tuple[int, ...]
    heat: tuple[int, ...]
    steering: tuple[int, ...]
    brake: tuple[int, ...]
    turbo: tuple[int, ...]
    armed: tuple[int, ...]
    """Bit i set: the car's ``content.PIECES[i]`` is armed."""
    mines_left: tuple[int, ...]
    mines: tuple[tuple[int, int], ...]
    """(square, owner) of every mine on the track."""
    stamp: tuple[int, ...]
    """Arrival stamps: the smaller arrived first (turn-order ties)."""
    clock: int
    destroyed: tuple[int, ...]
    """0 for a running car; else the number of the destruction (cars destroyed together share it)."""
    destructions: int
    grid_seats: tuple[int, ...]
    """The seats dealt to grid slots 1, 2, ... so far."""
    order: tuple[int, ...]
    """This round's turn order, front to back."""
    turn: int
    """The index into ``order`` of the active car."""
    round: int
    activations: int
    """Activations left this turn."""
    moved: int
    """Bit i set: the counter of ``content.PIECES[i]`` moved this turn."""
    turbo_spent: int
    points_kind: int
    """0, ``TURBO_POINTS`` or ``BRAKE_POINTS``: the kind of point spent this turn."""
    lane_changes: int
    """Lane changes left from the white dice (-1: unlimited)."""
    movement: int
    """Movement allowance left."""
    mine_dropped: bool
    boost_entered: int
    """Squares the Rocket Booster has moved this turn."""
    boosted: bool
    rnc_rolled: tuple[int, ...]
    """The cars whose Rush 'n' Crush rolled dice this round (the ``rush_attacks`` quota)."""
    winner: int
    """The winning seat, -1 for none yet (or no winner)."""
    reason: str
    """Why the race ended ("" while it runs)."""

    __slots__ = slots(__annotations__)

    # --- the engine's contract ---------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage
        if stage is Stage.ROLL or stage is Stage.GRID or stage is Stage.DEAL:
            return CHANCE
        if stage is Stage.OVER:
            return None
        return self.order[self.turn]

    def _chance_table(self) -> ChanceTable | None:
        if self.stage is Stage.ROLL:
            return rules.chance_table(self, self.need)
        return None

    def _chance(self) -> list[tuple[str, float]]:
        if self.stage is Stage.DEAL:
            deal = rules.deal_outcomes(self)
            return [(action, 1 / len(deal)) for action in sorted(deal)]
        if self.stage is Stage.GRID:
            left = [seat for seat in range(self.game.players) if seat not in self.grid_seats]
            return [(notation.grid(seat), 1 / len(left)) for seat in left]
        return list(rules.chance_table(self, self.need).outcomes)

    def _legal(self) -> Sequence[str]:
        stage = self.stage
        if stage is Stage.ROLL:
            return rules.chance_table(self, self.need).actions
        if stage is Stage.OVER:
            return ()
        if stage is Stage.GRID or stage is Stage.DEAL:
            return [action for action, _ in self._chance()]
        return rules.decisions(self)

    def _do(self, action: str) -> list[Event]:
        events: list[Event] = []
        move = notation.parse(action)
        if self.stage is Stage.ROLL:
            rules.resolve_roll(self, move, events)
        elif self.stage is Stage.GRID:
            rules.deal_grid_slot(self, move.number, events)
        elif self.stage is Stage.DEAL:
            rules.deal_dashboard(self, move, events)
            if len(self.dealt) == 2 * self.game.players:
                self.stage = self.phase = Stage.GRID
        else:
            rules.decide(self, move, events)
        return events

    @property
    def result(self) -> Result | None:
        if self.stage is not Stage.OVER:
            return None
        order = rules.finishing_order(self)
        winners = (self.winner,) if self.winner >= 0 else ()
        return Result(order, winners, self.reason, {
            "structure": list(self.structure), "heat": list(self.heat),
            "destroyed": [destruction > 0 for destruction in self.destroyed], "rounds": self.round,
        })

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything in Rush 'n' Crush is public; every seat sees the same picture.

        Keys (stable; new keys may be added):

        - ``game``: "rush-n-crush"; ``seat``: the viewer; ``seats``: seat names.
        - ``course``: ``id``, ``name``, ``closed``, ``laps``, ``faces`` (tile faces, tile 0 first),
          ``lap_ranks`` (ranks per lap), ``line_rank`` (the start/finish line's rank), ``tiles``: per tile
          ``face``, ``name`` (the face's name: "Left curve"), ``kind`` (straight, left-90, rocks-a, ...),
          ``shape``, ``cell`` ([x, y] of its entry cell on a grid of 4-lane-wide cells, tile 0 at [0, 0]),
          ``heading`` (N, E, S, W: its direction of travel), ``lanes`` (per lane, left to right, the
          length in ranks of each square in the direction of travel) and ``obstructions`` ([lane, index]
          squares).
        - ``cars``: one dict per seat: ``seat``, ``car``/``car_name``, ``driver``/``driver_name``, ``team``
          (these five None while random seating deals), ``square`` ("tile.lane.index", None before the grid),
          ``lane``, ``tile``, ``lap``, ``progress`` (larger is further forward), ``structure``, ``heat``,
          ``heat_capacity`` (destroyed above it), ``steering``, ``brake``, ``turbo``, ``node`` (gearstick
          node, "zero" or "g3y"), ``gear``, ``speed``, ``zone`` (None at zero), ``pieces`` (the driver's
          activatable pieces), ``armed`` (those armed), ``fixed`` (the car's fixed pieces), ``mines_left``,
          ``destroyed`` (bool), ``stamp`` (arrival stamp: smaller arrived first).
        - ``wrecks``: squares holding a wreck; ``mines``: ``{square, owner}``; ``obstructions``: squares.
        - ``terms``: every piece of equipment and hazard (``obstruction``, ``wreck``, ``mine``) by id, with
          its ``name``, effect ``text`` and ``kind``, for a board's key (each tile's ``name`` is in
          ``course.tiles``).
        - ``round``; ``order`` (this round's turn order, seats); ``active`` (the seat whose turn it is,
          None during setup or at the end); ``phase`` (a ``Stage`` name: deal, grid, gear, points, roll,
          move, swerve, after, over); ``roll`` (the roll being waited for, a ``Task`` name, or None);
          ``roller`` (whose roll or deal the chance step is, ``roller``; None at the grid and at a choice).
        - ``turn``: the active car's turn so far: ``activations`` left, ``moved`` (pieces whose
          counter moved), ``turbo_spent``, ``lane_changes`` (None: unlimited), ``movement`` left,
          ``mine_dropped``, ``boosted``.
        - ``actor``, ``legal_actions`` (the viewer's, when it is to act), ``events``, ``result``.
        """
        game = self.game
        track = game.track
        gear = game.gear
        cars = []
        dealt = self.stage is not Stage.DEAL
        for car in range(game.players):
            dash = self.dash[car]
            sq = self.square[car]
            node = self.node[car]
            cars.append({
                "seat": car, "car": dash.car if dealt else None, "car_name": dash.car_name if dealt else None,
                "driver": dash.driver if dealt else None, "driver_name": dash.driver_name if dealt else None,
                "team": game.content.cars[dash.car].team if dealt else None,
                "square": track.name_of(sq) if sq >= 0 else None,
                "lane": track.lane[sq] if sq >= 0 else None, "tile": track.tile[sq] if sq >= 0 else None,
                "lap": self.lap[car], "progress": rules.progress(self, car) if sq >= 0 else None,
                "structure": self.structure[car], "heat": self.heat[car], "heat_capacity": dash.heat_capacity,
                "steering": self.steering[car], "brake": self.brake[car], "turbo": self.turbo[car],
                "node": gear.names[node], "gear": gear.gear[node], "speed": gear.speed[node],
                "zone": gear.zone_names[gear.zone[node]] if node else None,
                "pieces": rules.piece_names(dash.pieces) if dealt else [],
                "armed": rules.piece_names(self.armed[car]),
                "fixed": list(game.content.cars[dash.car].fixed) if dealt else [], "mines_left": self.mines_left[car],
                "destroyed": self.destroyed[car] > 0, "stamp": self.stamp[car],
            })
        actor = self._actor()
        running = self.stage not in (Stage.GRID, Stage.OVER, Stage.DEAL)
        return {
            "game": game.id,
            "seat": seat,
            "seats": [game.seat_name(index) for index in range(game.players)],
            "course": {"id": track.id, "name": track.name, "closed": track.closed, "laps": track.laps,
                       "faces": list(track.faces), "lap_ranks": track.lap_ranks, "line_rank": track.line_rank,
                       "tiles": track.tiles_view()},
            "cars": cars,
            "wrecks": [track.name_of(self.square[car]) for car in range(game.players) if self.destroyed[car]],
            "mines": [{"square": track.name_of(sq), "owner": owner} for sq, owner in self.mines],
            "obstructions": [track.name_of(square) for square in range(track.squares) if track.obstruction[square]],
            "terms": game.content.terms,
            "round": self.round,
            "order": list(self.order),
            "active": self.order[self.turn] if running else None,
            "phase": STAGE_NAMES[self.stage],
            "roll": Task(self.need[0]).name.lower() if self.stage is Stage.ROLL else None,
            "roller": self.roller(),
            "turn": {"activations": self.activations, "moved": rules.piece_names(self.moved),
                     "turbo_spent": self.turbo_spent,
                     "lane_changes": None if self.lane_changes < 0 else self.lane_changes,
                     "movement": self.movement, "mine_dropped": self.mine_dropped, "boosted": self.boosted},
            "actor": actor,
            "legal_actions": self.legal_actions() if seat is not None and actor == seat else None,
            "events": self.visible_events(seat),
            "result": self.result.to_json() if self.result else None,
        }

    def roller(self) -> int | None:
        """Whose roll or deal the chance node is (the view's ``roller``): with random seating, the seat dealt
        the next car or driver; at a roll, the attacker (the active car) for a Side Ram, the Lateral
        Circular Saw, the Machine Gun, the Flamer and a Rush 'n' Crush, else the car the roll is for (the
        active car's red and white dice, an obstruction's crash dice and its Rocket Booster's heat dice; a
        wreck's or a mine's die for the car that crossed it, the rulebook's "If you hit a wreck, roll a
        die"). None for the grid (a slot is dealt to a car, nobody rolls) and when the state is not at a
        chance node."""
        stage = self.stage
        if stage is Stage.DEAL:
            return len(self.dealt) % self.game.players
        if stage is not Stage.ROLL:
            return None
        need = self.need
        return self.order[self.turn] if need[0] in ATTACKS else need[1]

    def invariant_problems(self) -> list[str]:
        """Cars on distinct squares, mines conserved, the tracks within their bounds."""
        game = self.game
        problems = []
        placed = [self.square[car] for car in range(game.players) if self.square[car] >= 0 and not self.destroyed[car]]
        if len(placed) != len(set(placed)):
            problems.append("two running cars share a square")
        for car in range(game.players):
            dash = self.dash[car]
            laid = sum(1 for _, owner in self.mines if owner == car)
            if self.mines_left[car] + laid > dash.mines:
                problems.append(f"car {car} has more mines than it started with")
            if not 0 <= self.steering[car] <= dash.steering or not 0 <= self.brake[car] <= dash.brake \
                    or not 0 <= self.turbo[car] <= dash.turbo:
                problems.append(f"car {car} has a Steering, Brake or Turbo count out of its track")
            if self.structure[car] > dash.structure or self.heat[car] < 0:
                problems.append(f"car {car} has Structure or Heat out of its track")
            if not self.destroyed[car] and (self.structure[car] <= 0 or self.heat[car] > dash.heat_capacity):
                problems.append(f"car {car} should have been destroyed")
        if self.destructions != max(self.destroyed):
            problems.append("the destruction count does not match the destroyed cars")
        squares = [sq for sq, _ in self.mines]
        if len(squares) != len(set(squares)):
            problems.append("two mines share a square")
        return problems

