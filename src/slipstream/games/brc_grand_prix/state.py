"""One position of a BRC Grand Prix race: its declared fields and the engine's contract.

Positions: a car on the main track stands ``distance`` spaces past the start line (space
``distance % length``; grid cars start at -1, -2, ...). A car in the pit lane has ``pit_space = k`` (0 is
the Pit Entry, 1..P the pit-lane spaces) and keeps in ``distance`` the main-track distance of the Pit
Entry it took. The rules that move a position on are in ``rules.py``, in rulebook order; the action
strings are read in ``notation.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from slipstream.engine.chance import DIE_TABLE, ChanceTable
from slipstream.engine.fields import replaced, slots
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from . import notation, rules
from .types import CHANCE_STAGES, SETUP_STAGES, STAGE_NAMES, MoveKind, Stage

if TYPE_CHECKING:
    from .game import BRCGrandPrix  # noqa: F401 - the base class names it: State["BRCGrandPrix"]


class BRCState(State["BRCGrandPrix"]):
    """A BRC Grand Prix position. ``distance`` and ``counters`` change on almost every action and are
    lists; the per-car tuples that rarely change are shared between positions and replaced whole."""

    legal_is_sorted = True
    """``_legal`` returns its actions sorted and unique, so the base class need not sort them."""

    stage: Stage
    weather: int
    """``rules.DRY_TRACK`` or ``rules.WET_TRACK``: the Track State Card."""
    distance: list[int]
    """Each car's main-track distance past the start line (see the module docstring)."""
    pit_space: tuple[int, ...]
    """Each car's pit-lane space (0 the Pit Entry), -1 when it is not in the pit lane."""
    tyres: tuple[int, ...]
    """Each car's tyre (``rules.SOFT``, ``HARD``, ``WET``), -1 until chosen."""
    turns_to_miss: tuple[int, ...]
    off_track: tuple[bool, ...]
    """A locked-up, crashed or stop-go car waiting to rejoin on its space (out of action)."""
    window_stops: tuple[int, ...]
    """Pit stops each car made inside the mandatory pit window."""
    penalised: tuple[bool, ...]
    """Whether each car has taken its penalty for missing the pit window."""
    roll_modifier: tuple[int, ...]
    """A flag card's modifier for each car's next movement roll."""
    perks: tuple[int, ...]
    """Each car's flag-card perks (bits ``rules.DRS``, ``NO_OVERTAKE``, ``TYRE_SAVER``) kept until used."""
    finished: tuple[bool, ...]
    finishing_order: tuple[int, ...]
    race_order: tuple[int, ...]
    """This round's turn order, leader first."""
    turn_index: int
    """Whose turn of ``race_order`` it is."""
    round_number: int
    mover: int
    """The car taking its turn (-1 before the race and after it)."""
    move_start: int
    move_position: int
    move_target: int
    move_kind: MoveKind
    move_locked_up: bool
    defender: int
    """The car the mover is about to overtake."""
    no_overtaking: bool
    """This move may not overtake (a ``no-overtake`` flag card)."""
    unseen_cards: tuple[int, ...]
    """How many copies of each flag card are still face down (by index into ``content.card_ids``)."""
    bottom_cards: tuple[int, ...]
    """The cards drawn, in the order they went to the bottom of the deck."""
    flag_colour: str
    """The colour of the flag space whose card is being drawn."""
    last_six_roller: int
    """Dynamic Weather: the car whose movement roll before this one was a 6 (-1 if it was not)."""
    grid_groups: tuple[tuple[int, ...], ...]
    """The grid in slots: a group of more than one car is still tied."""
    grid_rolls: tuple[int, ...]
    """The roll-off dice rolled so far by the tied group."""
    qualifying_seat: int
    qualifying_distance: int
    qualifying_rolls: int
    qualifying_results: tuple[int, ...]
    """Each seat's hot lap, in rolls."""
    grid: tuple[int, ...]
    """The cars from pole position back (empty until the grid is set)."""
    starting_tyres: tuple[int, ...]
    counters: list[int]
    """The metrics' counters, indexed by ``Counter``."""

    __slots__ = slots(__annotations__)

    # --- the contract ---------------------------------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage
        if stage == Stage.OVER:
            return None
        if stage == Stage.TYRES:
            return frozenset(i for i, t in enumerate(self.tyres) if t < 0)
        if stage in CHANCE_STAGES:
            return CHANCE
        return self.mover

    def _legal(self) -> Sequence[str]:
        stage = self.stage
        if stage == Stage.PIT_CHOICE:
            return notation.PIT_CHOICES
        if stage == Stage.OVERTAKE:
            return notation.OVERTAKE_CHOICES
        if stage == Stage.PIT_BOX:
            return self.game.pit_box_actions[self.tyres[self.mover]]
        if stage == Stage.TYRES:
            return [a for i, t in enumerate(self.tyres) if t < 0 for a in notation.starting_tyre_actions(i)]
        if stage == Stage.OVER:
            return ()
        table = self._chance_table()
        if table is not None:
            return table.actions
        return [a for a, _ in self._chance()]

    def _chance_table(self) -> ChanceTable | None:
        """The fixed outcomes of a movement roll (one d6, or Sprint's 2d6), a grid or qualifying roll and
        the Attack Die; None at a flag-card draw (its odds follow the deck) and at a player's choice."""
        stage = self.stage
        if stage == Stage.ROLL:
            game = self.game
            return game.sprint_table if game.sprint and self.pit_space[self.mover] < 0 else DIE_TABLE
        if stage == Stage.ATTACK:
            return self.game.attack_table
        if stage in (Stage.GRID_ROLL_OFF, Stage.QUALIFYING):
            return DIE_TABLE
        return None

    def _chance(self) -> list[tuple[str, float]]:
        table = self._chance_table()
        if table is not None:
            return list(table.outcomes)
        if self.stage == Stage.FLAG:
            total = sum(self.unseen_cards)
            actions = self.game.card_actions
            return sorted((actions[i], count / total) for i, count in enumerate(self.unseen_cards) if count)
        return []

    def _do(self, action: str) -> list[Event]:
        events: list[Event] = []
        stage = self.stage
        if stage == Stage.ROLL:
            first, second = notation.roll(action)
            rules.movement_roll(self, first, second, events)
        elif stage == Stage.OVERTAKE:
            rules.challengers_choice(self, notation.choice(action) == notation.Choice.ATTEMPT, events)
        elif stage == Stage.ATTACK:
            rules.attack_die(self, notation.attack_face(action), events)
        elif stage == Stage.PIT_CHOICE:
            rules.pit_entry_choice(self, notation.choice(action) == notation.Choice.PIT, events)
        elif stage == Stage.FLAG:
            rules.draw_flag_card(self, self.game.card_index[notation.card_id(action)], events)
        elif stage == Stage.PIT_BOX:
            rules.pit_stop(self, notation.tyre_change(action), events)
        elif stage == Stage.TYRES:
            seat, tyre = notation.starting_tyre(action)
            rules.choose_starting_tyre(self, seat, tyre, events)
        elif stage == Stage.GRID_ROLL_OFF:
            rules.grid_roll(self, notation.roll(action).first, events)
        elif stage == Stage.QUALIFYING:
            rules.hot_lap_roll(self, notation.roll(action).first, events)
        return events

    def _view(self, seat: int | None) -> dict[str, JSON]:
        game = self.game
        content = game.content
        hide_tyres = self.stage == Stage.TYRES
        standing = rules.standings(self)
        cars: list[JSON] = []
        for i in range(len(self.distance)):
            tyre: str | None = rules.TYRE_NAMES[self.tyres[i]] if self.tyres[i] >= 0 else None
            if hide_tyres and i != seat:
                tyre = "chosen" if self.tyres[i] >= 0 else None
            in_pit = self.pit_space[i] >= 0
            cars.append({
                "seat": i,
                "name": game.seat_name(i),
                "tyre": tyre,
                "dist": self.distance[i],
                "lap": min(rules.lap(self, i), game.laps),
                "space": None if in_pit or not self.grid else self.distance[i] % content.length,
                "pit": self.pit_space[i] if in_pit else None,
                "pit_box": content.pit_boxes[i],
                "off_track": self.off_track[i],
                "miss": self.turns_to_miss[i],
                "window_stops": self.window_stops[i],
                "penalty": self.penalised[i],
                "roll_mod": self.roll_modifier[i],
                "perks": [name for bit, name in rules.PERK_NAMES if self.perks[i] & bit],
                "finished": self.finished[i],
                "position": standing.index(i) + 1,
            })
        actor = self._actor()
        stage = self.stage
        pending: dict[str, JSON] = {"step": STAGE_NAMES[stage]}
        if stage in (Stage.OVERTAKE, Stage.ATTACK):
            pending.update(seat=self.mover, defender=self.defender)
        elif stage in (Stage.ROLL, Stage.PIT_CHOICE, Stage.PIT_BOX, Stage.FLAG):
            pending["seat"] = self.mover
        elif stage in (Stage.GRID_ROLL_OFF, Stage.QUALIFYING):
            pending["seat"] = self.roller()
        return {
            "game": game.id,
            "laps": game.laps,
            "sprint": game.sprint,
            "dynamic_weather": game.dynamic_weather,
            "weather": rules.WEATHER_NAMES[self.weather],
            "round": self.round_number,
            "track_length": content.length,
            "board": {"flags": list(content.flag_colour), "pit_spaces": content.pit_spaces,
                      "pit_entry_after": content.pit_entry_after, "pit_line_after": content.pit_line_after,
                      "pit_boxes": list(content.pit_boxes[: len(self.distance)]),
                      "weather_space": content.weather_space,
                      "rejoin": content.rejoin},
            "pit_window": list(game.window) if game.window else None,
            "actor": sorted(actor) if isinstance(actor, frozenset) else actor,
            "roller": self.roller(),
            "pending": pending,
            "cars": cars,
            "standings": standing,
            "grid": list(self.grid),
            "qualifying": list(self.qualifying_results),
            "flag_deck": {"unseen": sum(self.unseen_cards),
                          "known_order": ([content.card_ids[i] for i in self.bottom_cards]
                                          if not any(self.unseen_cards) else []),
                          "used": len(self.bottom_cards)},
            "finish": list(self.finishing_order),
            "flag_card": ({"card": content.card_ids[self.bottom_cards[-1]], "colour": self.flag_colour}
                          if self.bottom_cards else None),
            "terms": game.terms,
        }

    def roller(self) -> int | None:
        """Whose roll or draw the chance node is (the view's ``roller``): the driver rolling for the grid
        roll-off (the next of the tied group, in seat order) or its hot lap, the mover's movement roll,
        Attack Die (the challenger's) or flag card; None when the state is not at a chance node."""
        stage = self.stage
        if stage == Stage.GRID_ROLL_OFF:
            group = next(group for group in self.grid_groups if len(group) > 1)
            return group[len(self.grid_rolls)]
        if stage == Stage.QUALIFYING:
            return self.qualifying_seat
        if stage in (Stage.ROLL, Stage.ATTACK, Stage.FLAG):
            return self.mover
        return None

    @property
    def result(self) -> Result | None:
        if self.stage != Stage.OVER:
            return None
        order = tuple(rules.standings(self))
        reason = (f"first to complete {self.game.laps} laps; "
                  + ("everyone raced to the end" if self.game.race_to_end else "the rest by current position"))
        return Result(order=order, winners=(order[0],), reason=reason,
                      details={"finished": list(self.finishing_order)})

    def determinize(self, seat: int | None, rng: random.Random) -> BRCState:
        """Only the other seats' starting tyres, while still being chosen, are hidden."""
        if self.stage != Stage.TYRES:
            return self
        new = self.copy()
        for i, t in enumerate(new.tyres):
            if t >= 0 and i != seat:
                new.tyres = replaced(new.tyres, i, rng.choice((rules.SOFT, rules.HARD)))
        return new

    def invariant_problems(self) -> list[str]:
        """Rule invariants the conformance suite checks at every step."""
        problems = []
        content = self.game.content
        spaces = [self.distance[i] % content.length for i in range(len(self.distance)) if rules.in_action(self, i)]
        if self.stage not in SETUP_STAGES and len(spaces) != len(set(spaces)):
            problems.append(f"two cars in action share a main-track space: {self.distance}")
        if sum(self.unseen_cards) + len(self.bottom_cards) != len(content.card_ids):
            problems.append("flag cards are not conserved")
        for i, k in enumerate(self.pit_space):
            if not -1 <= k <= content.pit_spaces:
                problems.append(f"P{i + 1} is at pit space {k}")
            if k >= 0 and self.off_track[i]:
                problems.append(f"P{i + 1} is off track in the pit lane")
        return problems
