"""BRC Grand Prix's declared observation (the ``observation`` hook, ``slipstream.engine.observation``): for a
loaded game, every slot a seat's view can fill, named, each in [0, 1] by its true bound, written straight
from the state.

What a seat sees is its view (``BRCState._view``): everything but the other cars' starting tyres while
they are being chosen (only whether each has chosen) and the flag deck's face-down order. The slots:

- ``seat=S`` (the observer), ``step=...`` (the stage), ``actor=S`` (every seat still choosing its tyres,
  or the mover), ``roller=S``, ``pending seat=S``, ``defender=S``, ``wet`` (the Track State Card),
  ``round`` (a count with no true maximum: linear to half the race's spaces, then ``round beyond``);
- per car C: ``car C/tyre=soft|hard|wet|chosen``, ``distance`` (past the start line, linear to the
  finish and one more lap, then ``distance beyond``) and ``behind the line`` (a grid car), ``lap`` (of
  the race's laps), ``space`` ((space + 1) / length, 0 off the main track), ``pit`` ((pit space + 1) /
  (pit spaces + 1), 0 out of the pit lane), ``off track``, ``turns to miss``, ``window stops``,
  ``penalty``, ``roll bonus`` and ``roll malus`` (the flag cards' modifier, counts), each perk,
  ``finished``, ``position`` (in the standings), ``grid=K`` (its grid slot), ``qualifying`` (its hot lap
  in rolls, a count), ``finish=K`` (its finishing place);
- the flag deck: ``unseen`` (of all its cards), ``used`` (a count), ``order known`` and each card's
  ``place in the known order``; the last ``flag card=<id>`` and its ``flag colour=<colour>``.

Every value written is a float32 (``Scale``: ``writes_float32``), so a Python list filled by ``write``
holds what a float32 array would.
"""

from __future__ import annotations

from slipstream.engine.game import Game, State
from slipstream.engine.observation import Buffer, Layout, Scale

from . import rules
from .game import BRCGrandPrix
from .state import BRCState
from .types import STAGE_NAMES, Stage

USUAL_COUNT = 3
"""Turns to miss, pit-window stops and roll modifiers are linear up to this, then squashed."""
USUAL_HOT_LAP = 12
"""A qualifying hot lap, in rolls, is linear up to this, then squashed."""
TYRES = (*rules.TYRE_NAMES, "chosen")
CAR_PARTS = ("distance", "distance beyond", "behind the line", "behind the line beyond", "lap", "space", "pit",
             "off track", "turns to miss", "turns to miss beyond", "window stops", "window stops beyond",
             "penalty", "roll bonus", "roll bonus beyond", "roll malus", "roll malus beyond",
             *(f"perk {perk}" for _, perk in rules.PERK_NAMES), "finished", "position",
             "qualifying", "qualifying beyond")


class BRCObservation:
    """The declared observation of one loaded BRC Grand Prix game (see the module docstring)."""

    writes_float32 = True
    """Every value ``write`` writes is a float32 (``slipstream.engine.observation``)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, BRCGrandPrix):
            raise TypeError(f"not a BRC Grand Prix game: {type(game).__name__}")
        self.game = game
        content = game.content
        cars = game.players
        self.length = content.length
        self.usual_distance = game.finish_distance + content.length
        self.usual_rounds = max(10, game.finish_distance // 2)
        self.cards = len(content.card_ids)
        self.colours = tuple(sorted({colour for colour in content.flag_colour if colour}))
        self.rounds = Scale(self.usual_rounds)
        self.card_scale = Scale(self.cards)
        known_places = max(1, self.cards - 1)
        self.known_place_scale = Scale(known_places, 1 / known_places)
        self.distances = Scale(self.usual_distance)
        self.behind_scale = Scale(cars)
        self.lap_scale = Scale(game.laps)
        pit_places = game.content.pit_spaces + 1
        self.pit_scale = Scale(pit_places, 1 / pit_places)
        self.space_scale = Scale(self.length)
        self.counts = Scale(USUAL_COUNT)
        places = max(1, cars - 1)
        self.place_scale = Scale(places, 1 / places)
        self.hot_laps = Scale(USUAL_HOT_LAP)
        layout = Layout()
        self.seat_at = layout.one_hot("seat", range(cars))
        self.step_at = layout.one_hot("step", (STAGE_NAMES[stage] for stage in Stage))
        self.actor_at = layout.one_hot("actor", range(cars))
        self.roller_at = layout.one_hot("roller", range(cars))
        self.pending_at = layout.one_hot("pending seat", range(cars))
        self.defender_at = layout.one_hot("defender", range(cars))
        self.wet_at = layout.slot("wet")
        self.round_at = layout.count("round")
        self.car_at: list[int] = []
        for car in range(cars):
            self.car_at.append(layout.one_hot(f"car {car}/tyre", TYRES))
            for part in CAR_PARTS:
                layout.slot(f"car {car}/{part}")
            layout.one_hot(f"car {car}/grid", range(1, cars + 1))
            layout.one_hot(f"car {car}/finish", range(1, cars + 1))
        self.part = {part: len(TYRES) + index for index, part in enumerate(CAR_PARTS)}
        self.grid_part = len(TYRES) + len(CAR_PARTS)
        self.finish_part = self.grid_part + cars
        self.unseen_at = layout.slot("flag deck/unseen")
        layout.count("flag deck/used")
        self.known_at = layout.slot("flag deck/order known")
        for card in content.card_ids:
            layout.slot(f"flag deck/{card} place in the known order")
        self.card_at = layout.one_hot("flag card", content.card_ids)
        self.colour_at = layout.one_hot("flag colour", self.colours)
        self.names: tuple[str, ...] = tuple(layout.names)

    def write(self, state: State, seat: int, out: Buffer) -> None:
        """Write ``seat``'s observation of ``state`` into the zeroed ``out`` (see the module docstring)."""
        if not isinstance(state, BRCState):
            raise TypeError(f"not a BRC Grand Prix state: {type(state).__name__}")
        stage = state.stage
        out[self.seat_at + seat] = 1.0
        out[self.step_at + int(stage)] = 1.0
        actor = state.actor
        if isinstance(actor, frozenset):
            for chooser in actor:
                out[self.actor_at + chooser] = 1.0
        elif isinstance(actor, int):
            out[self.actor_at + actor] = 1.0
        roller = state.roller()
        if roller is not None:
            out[self.roller_at + roller] = 1.0
        if stage in (Stage.OVERTAKE, Stage.ATTACK):
            out[self.pending_at + state.mover] = 1.0
            out[self.defender_at + state.defender] = 1.0
        elif stage in (Stage.ROLL, Stage.PIT_CHOICE, Stage.PIT_BOX, Stage.FLAG):
            out[self.pending_at + state.mover] = 1.0
        elif roller is not None and stage in (Stage.GRID_ROLL_OFF, Stage.QUALIFYING):
            out[self.pending_at + roller] = 1.0
        if state.weather == rules.WET_TRACK:
            out[self.wet_at] = 1.0
        self.rounds.write_count(out, self.round_at, state.round_number)
        self._write_cars(state, seat, out)
        unseen = sum(state.unseen_cards)
        out[self.unseen_at] = self.card_scale.of(unseen)
        self.card_scale.write_count(out, self.unseen_at + 1, len(state.bottom_cards))
        if not unseen:
            out[self.known_at] = 1.0
            for place, card in enumerate(state.bottom_cards):
                out[self.known_at + 1 + card] = self.known_place_scale.of(place)
        if state.bottom_cards:
            out[self.card_at + state.bottom_cards[-1]] = 1.0
            out[self.colour_at + self.colours.index(state.flag_colour)] = 1.0

    def _write_cars(self, state: BRCState, seat: int, out: Buffer) -> None:
        part = self.part
        hide_tyres = state.stage == Stage.TYRES
        length = self.length
        laps = state.game.laps
        counts = self.counts
        for place, car in enumerate(rules.standings(state)):
            at = self.car_at[car]
            tyre = state.tyres[car]
            if tyre >= 0:
                out[at + (3 if hide_tyres and car != seat else tyre)] = 1.0
            distance = state.distance[car]
            if distance >= 0:
                self.distances.write_count(out, at + part["distance"], distance)
            else:
                self.behind_scale.write_count(out, at + part["behind the line"], -distance)
            out[at + part["lap"]] = self.lap_scale.of(min(rules.lap(state, car), laps))
            pit = state.pit_space[car]
            if pit >= 0:
                out[at + part["pit"]] = self.pit_scale.of(pit + 1)
            elif state.grid:
                out[at + part["space"]] = self.space_scale.of(distance % length + 1)
            if state.off_track[car]:
                out[at + part["off track"]] = 1.0
            counts.write_count(out, at + part["turns to miss"], state.turns_to_miss[car])
            counts.write_count(out, at + part["window stops"], state.window_stops[car])
            if state.penalised[car]:
                out[at + part["penalty"]] = 1.0
            modifier = state.roll_modifier[car]
            if modifier > 0:
                counts.write_count(out, at + part["roll bonus"], modifier)
            elif modifier < 0:
                counts.write_count(out, at + part["roll malus"], -modifier)
            perks = state.perks[car]
            for bit, perk in rules.PERK_NAMES:
                if perks & bit:
                    out[at + part[f"perk {perk}"]] = 1.0
            if state.finished[car]:
                out[at + part["finished"]] = 1.0
            out[at + part["position"]] = self.place_scale.of(place)
        for slot, car in enumerate(state.grid):
            out[self.car_at[car] + self.grid_part + slot] = 1.0
        for index, rolls in enumerate(state.qualifying_results):
            self.hot_laps.write_count(out, self.car_at[index] + part["qualifying"], rolls)
        for place, car in enumerate(state.finishing_order):
            out[self.car_at[car] + self.finish_part + place] = 1.0
