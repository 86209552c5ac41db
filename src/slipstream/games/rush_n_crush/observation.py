"""Rush 'n' Crush's declared observation (the ``observation`` hook, ``slipstream.engine.observation``): for a
loaded game, every slot a seat's view can fill, named, each in [0, 1] by its true bound, written straight
from the state.

Everything in Rush 'n' Crush is public (``RushState._view``): every seat sees the same picture, so a seat's
observation differs from another's only in ``seat``. The slots:

- ``seat=S`` (the observer), ``phase=...`` (the stage), ``roll=...`` (the roll a chance step waits for),
  ``roller=S``, ``actor=S`` and ``active=S`` (the car whose turn it is), ``order K=S`` (this round's turn
  order, front to back), ``winner=S``, ``round`` (a count with no true maximum: linear to
  ``USUAL_ROUNDS``, then ``round beyond``);
- the active car's turn: ``activations``, ``turbo spent``, ``movement`` (counts), ``lane changes``
  (a count) or ``lane changes unlimited``, ``mine dropped``, ``boosted`` and each piece's ``moved``;
- per car C: ``car C/car=<id>`` and ``driver=<id>`` (only with random seating, where they are dealt),
  ``placed``, ``square`` ((square + 1) / squares), ``lane=L``, ``progress`` (twice the ranks run,
  linear to the race's length, then ``progress beyond``), ``lap`` (of the race's laps), ``structure``
  (of the largest on any car) and ``structure below zero``, ``heat`` (linear to the largest capacity,
  then ``heat beyond``), ``steering``, ``brake``, ``turbo``, ``mines left`` (each of its largest),
  ``gear=<node>`` (the gearstick node), each piece ``armed``, ``destroyed``, ``arrival`` (its arrival
  stamp, a count), and ``mine K`` ((square + 1) / squares of the K-th of its mines on the track, by square).

Every value written is a float32 (``Scale``: ``writes_float32``), so a Python list filled by ``write``
holds what a float32 array would.
"""

from __future__ import annotations

from slipstream.engine.game import Game, State
from slipstream.engine.observation import Buffer, Layout, Scale

from . import rules
from .content import PIECES, Dashboard
from .game import RushNCrush
from .state import RushState
from .types import STAGE_NAMES, Stage, Task

USUAL_ROUNDS = 30
"""The round number is linear up to this, then squashed."""
USUAL_COUNT = 3
"""Activations, Turbo spent and lane changes are linear up to this, then squashed."""
USUAL_STAMPS = 20
"""Arrival stamps grow by one an arrival: linear up to this many per car, then squashed."""
CAR_PARTS = ("placed", "square", "progress", "progress beyond", "lap", "lap beyond", "structure",
             "structure below zero", "structure below zero beyond", "heat", "heat beyond", "steering",
             "brake", "turbo", "mines left", *(f"{piece} armed" for piece in PIECES), "destroyed",
             "arrival", "arrival beyond")


class RushObservation:
    """The declared observation of one loaded Rush 'n' Crush game (see the module docstring)."""

    writes_float32 = True
    """Every value ``write`` writes is a float32 (``slipstream.engine.observation``)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, RushNCrush):
            raise TypeError(f"not a Rush 'n' Crush game: {type(game).__name__}")
        self.game = game
        players = game.players
        track = game.track
        content = game.content
        self.random_seats = game.options["seat_assignment"] == "random"
        dashboards: list[Dashboard] = (
            [content.dashboard(car, driver) for car in content.cars for driver in content.drivers]
            if self.random_seats else list(game.dashboards))
        self.car_ids = tuple(content.cars)
        self.driver_ids = tuple(content.drivers)
        self.squares = track.squares
        self.lanes = max(track.lane) + 1
        self.usual_progress = 2 * track.lap_ranks * max(1, track.laps)
        self.laps = max(1, track.laps)
        self.structure = max(dash.structure for dash in dashboards)
        self.heat = max(dash.heat_capacity for dash in dashboards)
        self.steering = max(1, *(dash.steering for dash in dashboards))
        self.brake = max(1, *(dash.brake for dash in dashboards))
        self.turbo = max(1, *(dash.turbo for dash in dashboards))
        self.mines = max(dash.mines for dash in dashboards)
        self.usual_speed = max(1, *game.gear.speed)
        self.usual_stamps = USUAL_STAMPS * players
        self.lane_of: tuple[int, ...] = tuple(track.lane)
        self.square_scale = Scale(track.squares)
        """A square as (square + 1) / squares: read for the square plus one."""
        self.rounds = Scale(USUAL_ROUNDS)
        self.counts = Scale(USUAL_COUNT)
        self.speeds = Scale(self.usual_speed)
        self.progresses = Scale(self.usual_progress)
        self.lap_scale = Scale(self.laps)
        self.structures = Scale(self.structure)
        self.heats = Scale(self.heat)
        self.steerings = Scale(self.steering)
        self.brakes = Scale(self.brake)
        self.turbos = Scale(self.turbo)
        self.mine_counts = Scale(self.mines)
        self.stamps = Scale(self.usual_stamps)
        layout = Layout()
        self.seat_at = layout.one_hot("seat", range(players))
        self.phase_at = layout.one_hot("phase", (STAGE_NAMES[stage] for stage in Stage))
        self.roll_at = layout.one_hot("roll", (task.name.lower() for task in Task))
        self.roller_at = layout.one_hot("roller", range(players))
        self.actor_at = layout.one_hot("actor", range(players))
        self.active_at = layout.one_hot("active", range(players))
        self.order_at = [layout.one_hot(f"order {place}", range(players)) for place in range(1, players + 1)]
        self.winner_at = layout.one_hot("winner", range(players))
        self.round_at = layout.count("round")
        self.activations_at = layout.count("turn/activations")
        self.turbo_spent_at = layout.count("turn/turbo spent")
        self.movement_at = layout.count("turn/movement")
        self.lane_changes_at = layout.count("turn/lane changes")
        self.unlimited_at = layout.slot("turn/lane changes unlimited")
        self.mine_dropped_at = layout.slot("turn/mine dropped")
        self.boosted_at = layout.slot("turn/boosted")
        self.moved_at = layout.one_hot("turn/moved", PIECES)
        self.car_at: list[int] = []
        for car in range(players):
            self.car_at.append(len(layout))
            if self.random_seats:
                layout.one_hot(f"car {car}/car", self.car_ids)
                layout.one_hot(f"car {car}/driver", self.driver_ids)
            for part in CAR_PARTS:
                layout.slot(f"car {car}/{part}")
            layout.one_hot(f"car {car}/lane", range(1, self.lanes + 1))
            layout.one_hot(f"car {car}/gear", game.gear.names)
            for mine in range(1, self.mines + 1):
                layout.slot(f"car {car}/mine {mine}")
        dealt = len(self.car_ids) + len(self.driver_ids) if self.random_seats else 0
        part_at = {part: dealt + index for index, part in enumerate(CAR_PARTS)}
        self.placed_part = part_at["placed"]
        self.square_part = part_at["square"]
        self.progress_part = part_at["progress"]
        self.lap_part = part_at["lap"]
        self.structure_part = part_at["structure"]
        self.below_zero_part = part_at["structure below zero"]
        self.heat_part = part_at["heat"]
        self.steering_part = part_at["steering"]
        self.brake_part = part_at["brake"]
        self.turbo_part = part_at["turbo"]
        self.mines_left_part = part_at["mines left"]
        self.armed_parts = tuple(part_at[f"{piece} armed"] for piece in PIECES)
        self.destroyed_part = part_at["destroyed"]
        self.arrival_part = part_at["arrival"]
        self.lane_part = dealt + len(CAR_PARTS)
        self.gear_part = self.lane_part + self.lanes
        self.mine_part = self.gear_part + len(game.gear.names)
        self.names: tuple[str, ...] = tuple(layout.names)

    def write(self, state: State, seat: int, out: Buffer) -> None:
        """Write ``seat``'s observation of ``state`` into the zeroed ``out`` (see the module docstring)."""
        if not isinstance(state, RushState):
            raise TypeError(f"not a Rush 'n' Crush state: {type(state).__name__}")
        stage = state.stage
        out[self.seat_at + seat] = 1.0
        out[self.phase_at + int(stage)] = 1.0
        if stage is Stage.ROLL:
            out[self.roll_at + state.need[0]] = 1.0
        roller = state.roller()
        if roller is not None:
            out[self.roller_at + roller] = 1.0
        actor = state.actor
        if isinstance(actor, int):
            out[self.actor_at + actor] = 1.0
        if stage not in (Stage.GRID, Stage.OVER, Stage.DEAL):
            out[self.active_at + state.order[state.turn]] = 1.0
        for place, car in enumerate(state.order):
            out[self.order_at[place] + car] = 1.0
        if state.winner >= 0:
            out[self.winner_at + state.winner] = 1.0
        self.rounds.write_count(out, self.round_at, state.round)
        self.counts.write_count(out, self.activations_at, state.activations)
        self.counts.write_count(out, self.turbo_spent_at, state.turbo_spent)
        self.speeds.write_count(out, self.movement_at, state.movement)
        if state.lane_changes < 0:
            out[self.unlimited_at] = 1.0
        else:
            self.counts.write_count(out, self.lane_changes_at, state.lane_changes)
        if state.mine_dropped:
            out[self.mine_dropped_at] = 1.0
        if state.boosted:
            out[self.boosted_at] = 1.0
        for bit in range(len(PIECES)):
            if state.moved >> bit & 1:
                out[self.moved_at + bit] = 1.0
        self._write_cars(state, out)

    def _write_cars(self, state: RushState, out: Buffer) -> None:
        square_scale = self.square_scale
        lane_of = self.lane_of
        armed_parts = self.armed_parts
        dealt = state.stage is not Stage.DEAL
        mines: dict[int, list[int]] = {}
        for square, owner in state.mines:
            mines.setdefault(owner, []).append(square)
        for car in range(self.game.players):
            at = self.car_at[car]
            if self.random_seats and dealt:
                dash = state.dash[car]
                out[at + self.car_ids.index(dash.car)] = 1.0
                out[at + len(self.car_ids) + self.driver_ids.index(dash.driver)] = 1.0
            square = state.square[car]
            if square >= 0:
                out[at + self.placed_part] = 1.0
                out[at + self.square_part] = square_scale.of(square + 1)
                out[at + self.lane_part + lane_of[square]] = 1.0
                self.progresses.write_count(out, at + self.progress_part, rules.progress(state, car))
            self.lap_scale.write_count(out, at + self.lap_part, state.lap[car])
            structure = state.structure[car]
            if structure >= 0:
                out[at + self.structure_part] = self.structures.of(structure)
            else:
                self.structures.write_count(out, at + self.below_zero_part, -structure)
            self.heats.write_count(out, at + self.heat_part, state.heat[car])
            out[at + self.steering_part] = self.steerings.of(state.steering[car])
            out[at + self.brake_part] = self.brakes.of(state.brake[car])
            out[at + self.turbo_part] = self.turbos.of(state.turbo[car])
            if self.mines:
                out[at + self.mines_left_part] = self.mine_counts.of(state.mines_left[car])
            armed = state.armed[car]
            if armed:
                for bit, armed_part in enumerate(armed_parts):
                    if armed >> bit & 1:
                        out[at + armed_part] = 1.0
            if state.destroyed[car]:
                out[at + self.destroyed_part] = 1.0
            self.stamps.write_count(out, at + self.arrival_part, state.stamp[car])
            out[at + self.gear_part + state.node[car]] = 1.0
            if mines:
                for index, square in enumerate(sorted(mines.get(car, ()))):
                    out[at + self.mine_part + index] = square_scale.of(square + 1)
