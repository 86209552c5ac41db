"""One position of a BRC Grand Prix race, and the rules that move it on.

Positions: a car on the main track stands ``dist`` spaces past the start line (space ``dist % length``;
grid cars start at -1, -2, ...). A car in the pit lane has ``pit = k`` (0 is the Pit Entry, 1..P the
pit-lane spaces) and keeps in ``dist`` the main-track distance of the Pit Entry it took. Section names
in docstrings and event rules are those of ``rules/brc-grand-prix.txt``; gap ids are decided in
``docs/rules/brc-grand-prix.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from slipstream.engine.chance import DIE_TABLE, ChanceTable
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from .rules import (
    DRY_TRACK,
    HARD,
    SOFT,
    TYRE_NAMES,
    WEATHER_NAMES,
    WET,
    lap_of,
    qualifying_roll,
    sprint_move,
    standard_move,
)

if TYPE_CHECKING:
    from .game import BRCGrandPrix

# What the state waits for.
TYRES, GRID, QUALI, ROLL, PIT_CHOICE, OVERTAKE, ATTACK, FLAG, BOX, OVER = range(10)
STEP_NAMES = ("tyres", "grid-roll-off", "qualifying", "roll", "pit-choice", "overtake", "attack",
              "flag", "pit-box", "over")

# Movement kinds.
MAIN, PIT_IN, PIT_EXIT = 0, 1, 2

# Flag-card perks (bits).
DRS, NO_OVERTAKE, TYRE_SAVER = 1, 2, 4
PERK_NAMES = ((DRS, "drs"), (NO_OVERTAKE, "no-overtake"), (TYRE_SAVER, "tyre-saver"))

# Counters kept for metrics (indices into ``stats``).
STAT_NAMES = (
    "turns", "skipped_turns", "overtake_attempts", "overtakes", "play_safe", "collisions",
    "safety_cars", "lockups", "flag_cards", "weather_flips", "dynamic_weather_flips", "pit_stops",
    "penalties", "sprint_soft_rolls", "sprint_lockups",
)
(S_TURNS, S_SKIPS, S_TRIES, S_PASSES, S_SAFE, S_CRASHES, S_SAFETY, S_LOCKUPS, S_FLAGS, S_WEATHER,
 S_DYN, S_PITS, S_PENALTIES, S_SPRINT_SOFT, S_SPRINT_LOCK) = range(len(STAT_NAMES))

COLOURS = ("green", "yellow", "blue")

PIT_CHOICES = ("pit", "stay")
OVERTAKE_CHOICES = ("attempt", "safe")


class BRCState(State):
    """A BRC Grand Prix position. Plain data: ``_clone`` copies the two lists that change on almost
    every action (``dist``, ``stats``); the per-car tuples that rarely change are shared and replaced
    whole by ``_put``."""

    __slots__ = (
        "bottom",
        "deck",
        "dist",
        "done",
        "finish",
        "flag_col",
        "g",
        "grid",
        "grolls",
        "groups",
        "last_six",
        "miss",
        "mv_cur",
        "mv_def",
        "mv_kind",
        "mv_lock",
        "mv_no_ot",
        "mv_seat",
        "mv_start",
        "mv_target",
        "off",
        "order",
        "pens",
        "perks",
        "pit",
        "q_count",
        "q_dist",
        "q_seat",
        "qual",
        "rmod",
        "rnd",
        "start_tyres",
        "stats",
        "step",
        "stops",
        "turn_i",
        "tyre",
        "weather",
    )

    legal_is_sorted = True
    """``_legal`` returns its actions sorted and unique, so the base class need not sort them."""

    g: BRCGrandPrix
    """The game, typed as this one (the engine's ``game`` is the same object)."""
    step: int
    weather: int
    dist: list[int]
    pit: tuple[int, ...]
    tyre: tuple[int, ...]
    miss: tuple[int, ...]
    off: tuple[bool, ...]
    stops: tuple[int, ...]
    pens: tuple[int, ...]
    rmod: tuple[int, ...]
    perks: tuple[int, ...]
    done: int
    finish: tuple[int, ...]
    order: tuple[int, ...]
    turn_i: int
    rnd: int
    mv_seat: int
    mv_start: int
    mv_cur: int
    mv_target: int
    mv_kind: int
    mv_lock: bool
    mv_def: int
    mv_no_ot: bool
    deck: tuple[int, ...]
    bottom: tuple[int, ...]
    flag_col: str
    last_six: int
    groups: tuple[tuple[int, ...], ...]
    grolls: tuple[int, ...]
    q_seat: int
    q_dist: int
    q_count: int
    qual: tuple[int, ...]
    grid: tuple[int, ...]
    start_tyres: tuple[int, ...]
    stats: list[int]

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def initial(cls, game: BRCGrandPrix) -> BRCState:
        """Setup: lap 1, track DRY, the flag deck shuffled face down, tyres to choose."""
        s = cls()
        n = game.players
        s.g = game
        s.step = TYRES
        s.weather = DRY_TRACK
        s.dist = [0] * n
        s.pit = (-1,) * n
        s.tyre = (-1,) * n
        s.miss = (0,) * n
        s.off = (False,) * n
        s.stops = (0,) * n
        s.pens = (0,) * n
        s.rmod = (0,) * n
        s.perks = (0,) * n
        s.done = 0
        s.finish = ()
        s.order = ()
        s.turn_i = -1
        s.rnd = 0
        s.mv_seat = -1
        s.mv_start = s.mv_cur = s.mv_target = 0
        s.mv_kind = MAIN
        s.mv_lock = False
        s.mv_def = -1
        s.mv_no_ot = False
        s.deck = (1,) * len(game.content.card_ids)
        s.bottom = ()
        s.flag_col = ""
        s.last_six = -1
        s.groups = ()
        s.grolls = ()
        s.q_seat = s.q_dist = s.q_count = 0
        s.qual = ()
        s.grid = ()
        s.start_tyres = ()
        s.stats = [0] * len(STAT_NAMES)
        return s

    def _clone(self) -> BRCState:
        new = BRCState()
        new.g = self.g
        new.step = self.step
        new.weather = self.weather
        new.dist = self.dist[:]
        new.pit = self.pit
        new.tyre = self.tyre
        new.miss = self.miss
        new.off = self.off
        new.stops = self.stops
        new.pens = self.pens
        new.rmod = self.rmod
        new.perks = self.perks
        new.done = self.done
        new.finish = self.finish
        new.order = self.order
        new.turn_i = self.turn_i
        new.rnd = self.rnd
        new.mv_seat = self.mv_seat
        new.mv_start = self.mv_start
        new.mv_cur = self.mv_cur
        new.mv_target = self.mv_target
        new.mv_kind = self.mv_kind
        new.mv_lock = self.mv_lock
        new.mv_def = self.mv_def
        new.mv_no_ot = self.mv_no_ot
        new.deck = self.deck
        new.bottom = self.bottom
        new.flag_col = self.flag_col
        new.last_six = self.last_six
        new.groups = self.groups
        new.grolls = self.grolls
        new.q_seat = self.q_seat
        new.q_dist = self.q_dist
        new.q_count = self.q_count
        new.qual = self.qual
        new.grid = self.grid
        new.start_tyres = self.start_tyres
        new.stats = self.stats[:]
        return new

    def _put(self, field: str, seat: int, value: int | bool) -> None:
        """Set one seat's entry of a per-car tuple (these rarely change, so clones share them)."""
        old = getattr(self, field)
        setattr(self, field, (*old[:seat], value, *old[seat + 1:]))

    # --- the contract hooks ----------------------------------------------------------------

    def _actor(self) -> Actor:
        step = self.step
        if step in (ROLL, ATTACK, FLAG, GRID, QUALI):
            return CHANCE
        if step == OVER:
            return None
        if step == TYRES:
            return frozenset(i for i, t in enumerate(self.tyre) if t < 0)
        return self.mv_seat

    def _legal(self) -> Sequence[str]:
        step = self.step
        if step == TYRES:
            return [f"{i}:{t}" for i, c in enumerate(self.tyre) if c < 0 for t in ("hard", "soft")]
        if step == PIT_CHOICE:
            return PIT_CHOICES
        if step == OVERTAKE:
            return OVERTAKE_CHOICES
        if step == BOX:
            kinds = (SOFT, HARD) if self.g.sprint else (SOFT, HARD, WET)
            mine = self.tyre[self.mv_seat]
            return sorted(["tyre:keep", *(f"tyre:{TYRE_NAMES[t]}" for t in kinds if t != mine)])
        if step == OVER:
            return ()
        table = self._chance_table()
        if table is not None:
            return table.actions
        return [a for a, _ in self._chance()]

    def _chance_table(self) -> ChanceTable | None:
        """The fixed outcomes of a movement roll (one d6, or Sprint's 2d6), a grid or qualifying roll and
        the Attack Die; None at a flag-card draw (its odds follow the deck) and at a player's choice."""
        step = self.step
        if step == ROLL:
            table = self.g.sprint_table if self.g.sprint and self.pit[self.mv_seat] < 0 else DIE_TABLE
        elif step == ATTACK:
            table = self.g.attack_table
        elif step in (GRID, QUALI):
            table = DIE_TABLE
        else:
            return None
        return table

    def _chance(self) -> list[tuple[str, float]]:
        table = self._chance_table()
        if table is not None:
            return list(table.outcomes)
        if self.step == FLAG:
            total = sum(self.deck)
            ids = self.g.content.card_ids
            return sorted((f"card:{ids[i]}", c / total) for i, c in enumerate(self.deck) if c)
        return []

    def _do(self, action: str) -> list[Event]:
        ev: list[Event] = []
        step = self.step
        if step == ROLL:
            self._do_roll(action, ev)
        elif step == OVERTAKE:
            self._do_overtake(action == "attempt", ev)
        elif step == ATTACK:
            self._do_attack(action[7:], ev)
        elif step == PIT_CHOICE:
            self._do_pit_choice(action == "pit", ev)
        elif step == FLAG:
            self._do_flag_card(action[5:], ev)
        elif step == BOX:
            self._do_box(action[5:], ev)
        elif step == TYRES:
            self._do_start_tyre(action, ev)
        elif step == GRID:
            self._do_grid_roll(int(action[4:]), ev)
        elif step == QUALI:
            self._do_qualifying_roll(int(action[4:]), ev)
        return ev

    # --- helpers -----------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return f"P{seat + 1}"

    def _on_track(self, i: int) -> bool:
        """On the main track and in action: such a car fills its space and must be overtaken."""
        return self.pit[i] < 0 and not self.off[i] and not (self.done >> i) & 1

    def _occupant(self, space: int, exclude: int) -> int:
        """The car in action on main-track ``space``, or -1."""
        length = self.g.content.length
        for j in range(len(self.dist)):
            if j != exclude and self._on_track(j) and self.dist[j] % length == space:
                return j
        return -1

    def _closest_ahead(self, cur: int, limit: int, exclude: int) -> tuple[int, int]:
        """(car, spaces ahead) of the closest car in action 1..``limit`` spaces ahead of ``cur``."""
        length = self.g.length
        best, best_off = -1, limit + 1
        pit, off, done = self.pit, self.off, self.done
        for j, d in enumerate(self.dist):
            o = (d - cur) % length
            if 0 < o < best_off and j != exclude and pit[j] < 0 and not off[j] and not (done >> j) & 1:
                best, best_off = j, o
        return best, best_off

    def lap(self, seat: int) -> int:
        """The lap ``seat`` is on (for a car in the pit lane, counting the line in the pit lane)."""
        return lap_of(self._line_dist(seat), self.g.content.length)

    def _line_dist(self, seat: int) -> int:
        """The main-track distance that counts for laps (the pit lane crosses the line after P4)."""
        k = self.pit[seat]
        if k < 0:
            return self.dist[seat]
        c = self.g.content
        return self.dist[seat] + (c.bypass_before_line if k > c.pit_line_after else 0)

    def progress(self, seat: int) -> float:
        """How far round the race a car is, comparable between the main track and the pit lane."""
        k = self.pit[seat]
        d = self.dist[seat]
        if k < 0:
            return float(d)
        c = self.g.content
        if k <= c.pit_line_after:
            return d - 1 + (k + 1) * (c.bypass_before_line + 1) / (c.pit_line_after + 2)
        return d + c.bypass_before_line + (k - c.pit_line_after - 0.5) * c.rejoin / (
            c.pit_spaces - c.pit_line_after)

    def standings(self) -> list[int]:
        """Seats from the leader to the last: finishers in finishing order, then by progress."""
        done, pit, dist = self.done, self.pit, self.dist
        if not done and max(pit) < 0:  # everyone racing on the main track: by distance, ties by seat
            return sorted(range(len(dist)), key=dist.__getitem__, reverse=True)
        keyed = sorted((-(dist[i] if pit[i] < 0 else self.progress(i)), i)
                       for i in range(len(dist)) if not (done >> i) & 1)
        return [*self.finish, *(i for _, i in keyed)]

    def _window_check(self, seat: int, old: int, new: int, ev: list[Event]) -> None:
        """The Mandatory Pit Window: a stop-go (miss 2 turns) on leaving the window without a stop."""
        game = self.g
        window = game.window
        if window is None or not game.stop_go or self.stops[seat] or self.pens[seat]:
            return
        length = game.content.length
        if lap_of(old, length) <= window[1] < lap_of(new, length):
            self._put("pens", seat, 1)
            self._put("miss", seat, self.miss[seat] + 2)
            if self.pit[seat] < 0:
                self._put("off", seat, True)
            self.stats[S_PENALTIES] += 1
            ev.append(Event("penalty", f"{self._name(seat)} missed the pit window: stop-go, misses 2 turns",
                            "The Mandatory Pit Window (F1-G9: stop-go)", {"seat": seat}))

    def _place(self, seat: int, new: int, ev: list[Event], old: int | None = None) -> bool:
        """Put ``seat`` on main-track distance ``new`` (from ``old``); True if that finished its race."""
        if old is None:
            old = self._line_dist(seat)
        if self.pit[seat] >= 0:
            self._put("pit", seat, -1)
        self.dist[seat] = new
        if new > old and self.g.stop_go:
            self._window_check(seat, old, new, ev)
        if new >= self.g.finish_dist:
            self._finish(seat, ev)
            return True
        return False

    def _finish(self, seat: int, ev: list[Event]) -> None:
        """Crossing the Line: the car finishes and leaves the track (F1-A16)."""
        self.done |= 1 << seat
        self.finish = (*self.finish, seat)
        self.dist[seat] = max(self.dist[seat], self.g.finish_dist)
        self._put("pit", seat, -1)
        self._put("off", seat, False)
        self._put("miss", seat, 0)
        place = len(self.finish)
        text = "wins the race" if place == 1 else f"finishes in position {place}"
        ev.append(Event("finish", f"{self._name(seat)} {text}", "Crossing the Line", {"seat": seat,
                                                                                       "place": place}))

    def _flip_weather(self, why: str, rule: str, ev: list[Event]) -> None:
        self.weather = 1 - self.weather
        self.stats[S_WEATHER] += 1
        ev.append(Event("weather", f"{why}: the track is now {WEATHER_NAMES[self.weather]}", rule,
                        {"weather": WEATHER_NAMES[self.weather]}))

    # --- setup: tyres and the grid -----------------------------------------------------------

    def _do_start_tyre(self, action: str, ev: list[Event]) -> None:
        """Setup, Tyre Selection: each player picks SOFT or HARD (simultaneously, hidden until all chose)."""
        seat_text, _, name = action.partition(":")
        seat = int(seat_text)
        self._put("tyre", seat, TYRE_NAMES.index(name))
        ev.append(Event("tyre-chosen", f"{self._name(seat)} has chosen a starting tyre", "Tyre Selection",
                        {"seat": seat}))
        ev.append(Event("tyre-choice", f"{self._name(seat)} chose {name.upper()}", "Tyre Selection",
                        {"seat": seat, "tyre": name}, frozenset((seat,))))
        if min(self.tyre) < 0:
            return
        self.start_tyres = tuple(self.tyre)
        shown = ", ".join(f"{self._name(i)} {TYRE_NAMES[t].upper()}" for i, t in enumerate(self.tyre))
        ev.append(Event("tyres", f"starting tyres: {shown}", "Tyre Selection"))
        if self.g.qualifying:
            self.step = QUALI
            self.q_seat = self.q_dist = self.q_count = 0
        else:
            self.step = GRID
            self.groups = (tuple(range(len(self.tyre))),)
            self.grolls = ()

    def _do_qualifying_roll(self, roll: int, ev: list[Event]) -> None:
        """Qualifying: one hot lap each, solo; fewest rolls takes pole; a SOFT 1 adds +1 to the count."""
        seat = self.q_seat
        move, counted = qualifying_roll(roll, self.tyre[seat])
        self.q_dist += move
        self.q_count += counted
        penalty = " (SOFT 1: +1 roll)" if counted == 2 else ""
        ev.append(Event("qualifying", f"{self._name(seat)} rolls {roll}: moves {move}{penalty}, "
                        f"{self.q_dist}/{self.g.content.length} after {self.q_count} rolls",
                        "Qualifying: the hot lap", {"seat": seat, "roll": roll, "move": move}))
        if self.q_dist < self.g.content.length:
            return
        self.qual = (*self.qual, self.q_count)
        ev.append(Event("qualified", f"{self._name(seat)} sets a hot lap of {self.q_count} rolls",
                        "Qualifying: the hot lap", {"seat": seat, "rolls": self.q_count}))
        if self.q_seat + 1 < len(self.tyre):
            self.q_seat += 1
            self.q_dist = self.q_count = 0
            return
        counts = sorted(set(self.qual))
        self.groups = tuple(tuple(i for i, c in enumerate(self.qual) if c == k) for k in counts)
        self.grolls = ()
        self._next_grid_roll(ev)

    def _do_grid_roll(self, roll: int, ev: list[Event]) -> None:
        """The grid roll-off: highest d6 takes pole; tied drivers roll again among themselves."""
        gi = next(i for i, g in enumerate(self.groups) if len(g) > 1)
        group = self.groups[gi]
        seat = group[len(self.grolls)]
        self.grolls = (*self.grolls, roll)
        ev.append(Event("grid-roll", f"{self._name(seat)} rolls {roll} for the grid",
                        "The grid: roll-off and tie-breaker", {"seat": seat, "roll": roll}))
        if len(self.grolls) < len(group):
            return
        values = sorted(set(self.grolls), reverse=True)
        split = tuple(tuple(s for s, r in zip(group, self.grolls, strict=True) if r == v) for v in values)
        self.groups = (*self.groups[:gi], *split, *self.groups[gi + 1:])
        self.grolls = ()
        for g in split:
            if len(g) > 1:
                ev.append(Event("grid-tie", f"{', '.join(self._name(s) for s in g)} tie and roll again",
                                "The grid: Tie-Breaker", {"seats": list(g)}))
        self._next_grid_roll(ev)

    def _next_grid_roll(self, ev: list[Event]) -> None:
        if any(len(g) > 1 for g in self.groups):
            self.step = GRID
            return
        self.grid = tuple(g[0] for g in self.groups)
        for pos, seat in enumerate(self.grid):
            self.dist[seat] = -(pos + 1)
        ev.append(Event("grid", "grid: " + ", ".join(self._name(s) for s in self.grid),
                        "The grid: Pole Position", {"grid": list(self.grid)}))
        self._next_turn(ev)

    # --- turns -------------------------------------------------------------------------------

    def _next_turn(self, ev: list[Event]) -> None:
        """The next car to roll: race order each round, leader first (F1-G8), serving missed turns."""
        game = self.g
        while True:
            if self.done == game.all_done if game.race_to_end else self.finish:
                self.step = OVER
                self.mv_seat = -1
                return
            turn = self.turn_i + 1
            if turn >= len(self.order):
                self.rnd += 1
                self.order = tuple(s for s in self.standings() if not (self.done >> s) & 1)
                turn = 0
            self.turn_i = turn
            seat = self.order[turn]
            if (self.done >> seat) & 1:
                continue
            if self.miss[seat] > 0:
                self._put("miss", seat, self.miss[seat] - 1)
                self.stats[S_SKIPS] += 1
                ev.append(self._simple_event("skip", seat, -1, "{me} misses a turn", "Serving the Penalty"))
                continue
            if self.off[seat]:
                blocker = self._occupant(self.dist[seat] % game.length, seat)
                if blocker >= 0:
                    self.stats[S_SKIPS] += 1
                    ev.append(Event("skip", f"{self._name(seat)} cannot rejoin: "
                                    f"{self._name(blocker)} is on its space; misses another turn",
                                    "Occupied Space Rule", {"seat": seat}))
                    continue
                self._put("off", seat, False)
                ev.append(self._simple_event("rejoin", seat, -1, "{me} rejoins the track", "The Rejoin Move"))
            self.mv_seat = seat
            self.step = ROLL
            self.stats[S_TURNS] += 1
            return

    # --- the movement roll ---------------------------------------------------------------------

    def _do_roll(self, action: str, ev: list[Event]) -> None:
        seat = self.mv_seat
        game = self.g
        if action[3] == "e":  # "dice:a-b" (Sprint)
            a, b = int(action[5]), int(action[7])
            self._track_roll(seat, a, b, ev, False)
            return
        roll = int(action[4:])
        flip = game.dynamic_weather and self._six_pair(seat, roll)
        if self.pit[seat] >= 0:
            self._pit_roll(seat, roll, ev, flip)
        else:
            self._track_roll(seat, roll, 0, ev, flip)

    def _six_pair(self, seat: int, roll: int) -> bool:
        """Dynamic Weather: True if this movement roll is the second of two consecutive 6s by different
        players. A flip starts a new pair (F1-A11). The caller flips the weather once the roll's move is
        known: the roll was made on the weather at the start of the turn (F1-A13)."""
        if roll != 6:
            self.last_six = -1
        elif self.last_six >= 0 and self.last_six != seat:
            self.last_six = -1
            return True
        else:
            self.last_six = seat
        return False

    def _dynamic_flip(self, ev: list[Event]) -> None:
        self.stats[S_DYN] += 1
        self._flip_weather("two 6s in a row", "Dynamic Weather", ev)

    def _track_roll(self, seat: int, a: int, b: int, ev: list[Event], flip: bool) -> None:
        """Movement on the main track: the tyre/weather table (or Sprint 2d6), then the move; ``flip``: this
        roll completes a Dynamic Weather pair (the weather flips after the move is worked out)."""
        game = self.g
        tyre = self.tyre[seat]
        if game.sprint:
            move, lock = sprint_move(a, b, tyre)
            if tyre == SOFT:
                self.stats[S_SPRINT_SOFT] += 1
                if lock:
                    self.stats[S_SPRINT_LOCK] += 1
        else:
            move, lock = game.move_table[tyre][self.weather][a]
        rmod = self.rmod[seat]
        perks = self.perks[seat]
        if rmod or lock or b:
            move, lock, perks = self._modified_roll(seat, a, b, move, lock, ev)
        else:  # the plain roll, most of them
            ev.append(self._roll_event(seat, a, b, move, 0, False, False))
        if flip:
            self._dynamic_flip(ev)
        d = self.dist[seat]
        self.mv_no_ot = no_ot = bool(perks & NO_OVERTAKE)
        if no_ot:
            self._put("perks", seat, perks & ~NO_OVERTAKE)
        self.mv_lock = lock
        self.mv_kind = MAIN
        self.mv_start = self.mv_cur = d
        self.mv_target = d + move
        if move == 0:
            ev.append(self._simple_event("stay", seat, -1, "{me} does not move", "The Minimum Movement Rule"))
            self._end_move(ev)
            return
        space = d % game.length
        entry = game.content.pit_entry_after
        if space <= entry < space + move and not lock and d >= 0:
            if self._must_pit(seat):
                ev.append(Event("pit-forced", f"{self._name(seat)} has not pitted: it must take the pit "
                                "lane (drive-through)", "The Mandatory Pit Window (F1-G9)", {"seat": seat}))
                self._aim_pit()
            else:
                self.step = PIT_CHOICE
                return
        self._advance(ev)

    def _modified_roll(self, seat: int, a: int, b: int, move: int, lock: bool,
                       ev: list[Event]) -> tuple[int, bool, int]:
        """A roll with a flag card's modifier or perk, a lock-up or Sprint's two dice: (move, lock, perks)."""
        saved = False
        perks = self.perks[seat]
        if lock:
            self.stats[S_LOCKUPS] += 1
            if perks & TYRE_SAVER:
                perks &= ~TYRE_SAVER
                self._put("perks", seat, perks)
                lock, saved = False, True
        rmod = self.rmod[seat]
        if rmod:  # spent on this roll; a standard lock-up moves exactly 3, a Sprint one completes its move
            self._put("rmod", seat, 0)
            if not lock or b:
                move = max(0, move + rmod)
        ev.append(self._roll_event(seat, a, b, move, rmod, lock, saved))
        return move, lock, perks

    def _roll_event(self, seat: int, a: int, b: int, move: int, rmod: int, lock: bool, saved: bool) -> Event:
        """The event of a main-track movement roll, cached per game: the dice, the tyre, the weather, the
        card modifier and a saved lock-up fix the move and the lock-up, so the same roll reads the same."""
        key = (seat, a, b, self.tyre[seat], self.weather, rmod, saved)
        event = self.g.event_cache.get(key)
        if event is None:
            event = self.g.event_cache[key] = self._new_roll_event(seat, a, b, move, rmod, lock, saved)
        return event

    def _new_roll_event(self, seat: int, a: int, b: int, move: int, rmod: int, lock: bool, saved: bool) -> Event:
        sprint = self.g.sprint
        shown = f"{a}+{b}" if sprint else str(a)
        text = (f"{self._name(seat)} rolls {shown} on {TYRE_NAMES[self.tyre[seat]].upper()} "
                f"({WEATHER_NAMES[self.weather]}{f', flag {rmod:+d}' if rmod else ''}): moves {move}")
        rule = "Sprint Tyre Modifiers" if sprint else "The Calculation Formula"
        if saved:
            text += " (lock-up saved by the tyre-saver card)"
        elif lock:
            text += ", LOCK-UP"
            rule = "Sprint Lock-up Penalty" if sprint else "The Lock-up"
        return Event("roll", text, rule, {"seat": seat, "roll": [a, b] if sprint else a, "move": move,
                                          "lockup": lock})

    def _simple_event(self, kind: str, seat: int, other: int, text: str, rule: str) -> Event:
        """A cached event that depends only on its kind and the cars named (texts use placeholders
        ``{me}`` and ``{other}``)."""
        key = (kind, seat, other, text)
        event = self.g.event_cache.get(key)
        if event is None:
            data = {"seat": seat} if other < 0 else {"seat": seat, "car": other}
            event = self.g.event_cache[key] = Event(
                kind, text.format(me=self._name(seat), other=self._name(other)), rule, data)
        return event

    def _must_pit(self, seat: int) -> bool:
        """F1-G9 drive-through: unpitted on the window's last lap or later, the car must enter."""
        game = self.g
        window = game.window
        return (window is not None and not game.stop_go and not self.stops[seat] and not self.pens[seat]
                and self.lap(seat) >= window[1])

    def _aim_pit(self) -> None:
        c = self.g.content
        d = self.dist[self.mv_seat]
        self.mv_kind = PIT_IN
        self.mv_target = d - d % c.length + c.pit_entry_after + 1

    def _do_pit_choice(self, enter: bool, ev: list[Event]) -> None:
        """The Commitment (Pit Entry): entering ends the move; staying out keeps the whole move."""
        if enter:
            self._aim_pit()
        else:
            ev.append(self._simple_event("stay-out", self.mv_seat, -1, "{me} stays out",
                                         "The Commitment (Pit Entry)"))
        self._advance(ev)

    # --- moving along the main track: occupied spaces and overtakes -----------------------------

    def _advance(self, ev: list[Event]) -> None:
        """Move space by space towards the target, stopping for each car in the way, closest first."""
        seat = self.mv_seat
        finish = self.g.finish_dist
        if self.mv_kind == MAIN and self.mv_target >= finish:
            self.mv_target = finish
        target = self.mv_target
        strict = self.mv_kind == PIT_IN or target >= finish
        while True:
            cur = self.mv_cur
            limit = target - cur
            j, o = self._closest_ahead(cur, limit - 1 if strict else limit, seat)
            if j < 0:
                self.mv_cur = target
                break
            if o == limit:
                self.mv_cur = target - 1
                ev.append(self._simple_event("blocked", seat, j, "{me} would land on {other}: stops behind",
                                             "Occupying Spaces"))
                break
            self.mv_def = j
            if self.mv_no_ot:
                self.mv_cur = cur + o - 1
                ev.append(Event("no-overtake", f"{self._name(seat)} may not overtake this turn: stops "
                                f"behind {self._name(j)}", "BRC flag card: no overtaking", {"seat": seat}))
                break
            self.step = OVERTAKE
            return
        self._end_move(ev)

    def _do_overtake(self, attempt: bool, ev: list[Event]) -> None:
        """Challenger's Choice: play it safe (stop behind) or attempt the overtake (the Attack Die)."""
        seat, j = self.mv_seat, self.mv_def
        if not attempt:
            self.stats[S_SAFE] += 1
            self.mv_cur = self._behind_defender()
            ev.append(self._simple_event("safe", seat, j, "{me} plays it safe behind {other}",
                                         "Challenger's Choice: Play it Safe"))
            self._end_move(ev)
            return
        self.stats[S_TRIES] += 1
        if self.perks[seat] & DRS:
            self._put("perks", seat, self.perks[seat] & ~DRS)
            ev.append(Event("drs", f"{self._name(seat)} uses DRS: the pass is automatic",
                            "BRC flag card: DRS", {"seat": seat}))
            self._passed(ev)
            return
        self.step = ATTACK

    def _behind_defender(self) -> int:
        length = self.g.content.length
        return self.mv_cur + (self.dist[self.mv_def] - self.mv_cur) % length - 1

    def _do_attack(self, face: str, ev: list[Event]) -> None:
        """The Attack Die: pass, fail (stop behind, lose the rest), or Explosion (a collision)."""
        seat, j = self.mv_seat, self.mv_def
        if face == "pass":
            self._passed(ev)
        elif face == "fail":
            self.mv_cur = self._behind_defender()
            ev.append(self._simple_event("fail", seat, j, "{me} fails to pass {other} and stops behind",
                                         "Attack Die: Overtake failed"))
            self._end_move(ev)
        else:
            self._collision(ev)

    def _passed(self, ev: list[Event]) -> None:
        """Pass, then Securing the Spot: if the next space is taken, the passed car drops back one."""
        seat, j = self.mv_seat, self.mv_def
        length = self.g.content.length
        self.stats[S_PASSES] += 1
        spot = self.mv_cur + (self.dist[j] - self.mv_cur) % length
        strict = self.mv_kind == PIT_IN or self.mv_target >= self.g.finish_dist
        beyond = spot + 1 <= self.mv_target - (1 if strict else 0)
        if beyond and self._occupant((spot + 1) % length, seat) >= 0:
            self._drop_back(j, seat, ev)
            if self.pit[seat] >= 0:
                self._put("pit", seat, -1)
            self.dist[seat] = spot
            ev.append(self._simple_event("pass", seat, j, "{me} passes {other} and secures the spot; "
                                         "{other} drops back one space", "Securing the Spot"))
        else:
            ev.append(self._simple_event("pass", seat, j, "{me} passes {other}", "Attack Die: Pass"))
        self.mv_cur = spot
        self._advance(ev)

    def _drop_back(self, car: int, mover: int, ev: list[Event]) -> None:
        """Securing the Spot moves the passed car back one space; a car already there drops back
        too, in a chain (F1-A5). This is the only backwards movement caused by an overtake."""
        length = self.g.content.length
        behind = self._occupant((self.dist[car] - 1) % length, mover)
        if behind >= 0 and behind != car:
            self._drop_back(behind, mover, ev)
        self.dist[car] -= 1

    def _collision(self, ev: list[Event]) -> None:
        """Collisions: both cars stop and miss their next turn; the safety car moves every other car 6."""
        seat, j = self.mv_seat, self.mv_def
        self.stats[S_CRASHES] += 1
        self.mv_cur = self._behind_defender()
        ev.append(Event("collision", f"{self._name(seat)} and {self._name(j)} collide! Both miss their "
                        "next turn", "Collisions: Immediate Stop and The Penalty", {"seat": seat, "car": j}))
        self.mv_lock = False
        if self.mv_kind == PIT_EXIT and self.mv_cur <= self.mv_start:
            self._hold_at_exit(seat)
        else:
            self._place(seat, self.mv_cur, ev, self._move_origin())
            self._put("off", seat, True)
        self._put("miss", seat, max(self.miss[seat], 1))
        self._put("off", j, True)
        self._put("miss", j, max(self.miss[j], 1))
        self._safety_car((seat, j), ev)
        self._next_turn(ev)

    def _safety_car(self, involved: tuple[int, ...], ev: list[Event]) -> None:
        """Safety Car Boost: every other car on the main track moves forward 6 (F1-A4).

        In race order from the front, without overtaking (a car stops behind any car in action), with
        no flags and no pit entry; capped below the finish line unless ``safety_car=literal``.
        """
        game = self.g
        self.stats[S_SAFETY] += 1
        finish = game.finish_dist
        moved = []
        for i in self.standings():
            if i in involved or not self._on_track(i):
                continue
            cur = self.dist[i]
            limit = 6
            crossing = cur + limit >= finish
            if crossing and not game.literal_safety_car:
                limit = max(0, finish - 1 - cur)
            j, o = self._closest_ahead(cur, limit - 1 if crossing and game.literal_safety_car else limit, i)
            step = limit if j < 0 else o - 1
            if step <= 0:
                continue
            moved.append(f"{self._name(i)} +{step}")
            self._place(i, cur + step, ev)
        ev.append(Event("safety-car", "safety car: " + (", ".join(moved) or "no car can move"),
                        "Safety Car Boost", {"moved": moved}))

    def _move_origin(self) -> int:
        """Where the move began, as a main-track distance for counting laps."""
        if self.mv_kind == PIT_EXIT:
            return self.mv_start + 1 - self.g.content.rejoin
        return self.mv_start

    def _hold_at_exit(self, seat: int) -> None:
        """A car that cannot rejoin stays on the last pit-lane space (its Pit Entry distance kept)."""
        c = self.g.content
        self._put("pit", seat, c.pit_spaces)
        self.dist[seat] = self.mv_start + 1 - c.bypass

    def _end_move(self, ev: list[Event]) -> None:
        """The move is over: enter the pits, rejoin, finish, lock up or land on a flag."""
        seat = self.mv_seat
        game = self.g
        c = game.content
        cur = self.mv_cur
        if self.mv_kind == PIT_IN and cur == self.mv_target:
            self._enter_pit(seat, cur, ev)
            self._next_turn(ev)
            return
        if self.mv_kind == PIT_EXIT and cur <= self.mv_start:
            self._hold_at_exit(seat)
            ev.append(Event("held", f"{self._name(seat)} cannot rejoin yet and waits at the pit exit",
                            "Pit Exit (Rejoining) (F1-G3)", {"seat": seat}))
            if self.mv_lock:
                self._put("miss", seat, max(self.miss[seat], 1))
            self._next_turn(ev)
            return
        kind = self.mv_kind
        moved = cur != self.mv_start or kind == PIT_EXIT
        if self._place(seat, cur, ev, self.mv_start if kind != PIT_EXIT else self._move_origin()):
            self._next_turn(ev)
            return
        if self.mv_lock:
            self._put("off", seat, True)
            self._put("miss", seat, max(self.miss[seat], 1))
            ev.append(Event("lockup", f"{self._name(seat)} locks up: off the track, misses the next turn",
                            "Sprint Lock-up Penalty" if game.sprint else "The Lock-up", {"seat": seat}))
        elif moved and not self.off[seat]:
            colour = c.flag_colour[cur % game.length]
            if colour and self._flag(seat, colour, ev):
                return
        self._next_turn(ev)

    # --- the pit lane ---------------------------------------------------------------------------

    def _enter_pit(self, seat: int, at: int, ev: list[Event]) -> None:
        """Pit Entry: the car moves onto the Pit Entry space; a stop in laps 2..7 fills the window."""
        game = self.g
        self._put("pit", seat, 0)
        self.dist[seat] = at
        lap = lap_of(at, game.content.length)
        self.stats[S_PITS] += 1
        window = game.window
        note = ""
        if window is not None and window[0] <= lap <= window[1]:
            self._put("stops", seat, self.stops[seat] + 1)
        elif window is not None and lap > window[1] and not self.stops[seat] and not self.pens[seat]:
            self._put("pens", seat, 1)
            self.stats[S_PENALTIES] += 1
            note = " (drive-through penalty for missing the pit window)"
        ev.append(Event("pit-entry", f"{self._name(seat)} enters the pit lane on lap {lap}{note}",
                        "The Commitment (Pit Entry)", {"seat": seat, "lap": lap}))

    def _pit_roll(self, seat: int, roll: int, ev: list[Event], flip: bool) -> None:
        """Pit lane: one unmodified d6; modifiers apply to a roll that would take the car past the exit."""
        game = self.g
        c = game.content
        k = self.pit[seat]
        lock = False
        rule = "Pit Lane: Movement Rules"
        if k + roll <= c.pit_spaces or game.sprint:
            move = roll
        else:
            move, lock = standard_move(roll, self.tyre[seat], self.weather)
            rule = "Pit Exit (Rejoining)"
            if lock:
                self.stats[S_LOCKUPS] += 1  # rolled, as on the main track, even if tyre-saver cancels it
                if self.perks[seat] & TYRE_SAVER:
                    self._put("perks", seat, self.perks[seat] & ~TYRE_SAVER)
                    lock = False
            rmod = self.rmod[seat]
            if rmod:
                self._put("rmod", seat, 0)
                if not lock:
                    move = max(0, move + rmod)
        ev.append(Event("roll", f"{self._name(seat)} rolls {roll} in the pit lane: moves {move}"
                        f"{', LOCK-UP' if lock else ''}", rule,
                        {"seat": seat, "roll": roll, "move": move, "lockup": lock}))
        if flip:
            self._dynamic_flip(ev)
        self.mv_no_ot = bool(self.perks[seat] & NO_OVERTAKE)
        if self.mv_no_ot:
            self._put("perks", seat, self.perks[seat] & ~NO_OVERTAKE)
        self.mv_lock = lock
        self.mv_start = k
        self.mv_target = k + move
        box = c.pit_boxes[seat]
        if k < box <= k + move:
            self.step = BOX
            return
        self._pit_move(ev)

    def _do_box(self, name: str, ev: list[Event]) -> None:
        """The Pit Stop: passing your Pit Box, one tyre change (SOFT/HARD flip, or WET)."""
        seat = self.mv_seat
        if name == "keep":
            ev.append(Event("box", f"{self._name(seat)} passes its pit box and keeps "
                            f"{TYRE_NAMES[self.tyre[seat]].upper()}", "The Pit Stop", {"seat": seat}))
        else:
            old = TYRE_NAMES[self.tyre[seat]].upper()
            self._put("tyre", seat, TYRE_NAMES.index(name))
            ev.append(Event("box", f"{self._name(seat)} changes {old} for {name.upper()}",
                            "The Pit Stop: Single Change Rule", {"seat": seat, "tyre": name}))
        self._pit_move(ev)

    def _pit_move(self, ev: list[Event]) -> None:
        seat = self.mv_seat
        game = self.g
        c = game.content
        k, new = self.mv_start, self.mv_target
        d = self.dist[seat]
        if k <= c.pit_line_after < new:
            line = d + c.bypass_before_line
            if line >= game.finish_dist:
                self._finish(seat, ev)
                self._next_turn(ev)
                return
            self._window_check(seat, d, line, ev)
        if new <= c.pit_spaces:
            self._put("pit", seat, new)
            if new == c.weather_space and new != k and not game.sprint:
                self._flip_weather(f"{self._name(seat)} lands on the Weather Change space",
                                   "The Weather Change space", ev)
            self._next_turn(ev)
            return
        self.mv_kind = PIT_EXIT
        self.mv_start = self.mv_cur = d + c.bypass - 1
        self.mv_target = self.mv_start + new - c.pit_spaces
        self._advance(ev)

    # --- flags ---------------------------------------------------------------------------------

    def _flag(self, seat: int, colour: str, ev: list[Event]) -> bool:
        """Flag spaces: draw the top BRC card (a chance node while unseen cards remain); True if waiting."""
        self.flag_col = colour
        self.stats[S_FLAGS] += 1
        ev.append(Event("flag", f"{self._name(seat)} lands on a {colour} flag", "Flag spaces: Trigger",
                        {"seat": seat, "colour": colour}))
        if any(self.deck):
            self.step = FLAG
            return True
        card = self.bottom[0]
        self.bottom = (*self.bottom[1:], card)
        self._resolve_card(seat, card, ev)
        return False

    def _do_flag_card(self, card_id: str, ev: list[Event]) -> None:
        card = self.g.content.card_ids.index(card_id)
        deck = list(self.deck)
        deck[card] -= 1
        self.deck = tuple(deck)
        self.bottom = (*self.bottom, card)
        self._resolve_card(self.mv_seat, card, ev)
        self._next_turn(ev)

    def _resolve_card(self, seat: int, card: int, ev: list[Event]) -> None:
        """Execution: follow only the line of the space's colour; the card goes to the bottom."""
        c = self.g.content
        effect = c.card_lines[card][self.flag_col]
        ev.append(Event("card", f"BRC card {c.card_ids[card]}: {self.flag_col} line '{effect}'",
                        "Flag spaces: Execution", {"seat": seat, "card": c.card_ids[card],
                                                   "colour": self.flag_col, "effect": effect}))
        apply_effect(self, seat, effect, ev)

    # --- views and results ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        game = self.g
        c = game.content
        hide_tyres = self.step == TYRES
        standing = self.standings()
        cars: list[JSON] = []
        for i in range(len(self.dist)):
            tyre: str | None = TYRE_NAMES[self.tyre[i]] if self.tyre[i] >= 0 else None
            if hide_tyres and i != seat:
                tyre = "chosen" if self.tyre[i] >= 0 else None
            in_pit = self.pit[i] >= 0
            cars.append({
                "seat": i,
                "name": game.seat_name(i),
                "tyre": tyre,
                "dist": self.dist[i],
                "lap": min(self.lap(i), game.laps),
                "space": None if in_pit or not self.grid else self.dist[i] % c.length,
                "pit": self.pit[i] if in_pit else None,
                "pit_box": c.pit_boxes[i],
                "off_track": self.off[i],
                "miss": self.miss[i],
                "window_stops": self.stops[i],
                "penalty": bool(self.pens[i]),
                "roll_mod": self.rmod[i],
                "perks": [name for bit, name in PERK_NAMES if self.perks[i] & bit],
                "finished": bool((self.done >> i) & 1),
                "position": standing.index(i) + 1,
            })
        actor = self._actor()
        pending: dict[str, JSON] = {"step": STEP_NAMES[self.step]}
        if self.step in (OVERTAKE, ATTACK):
            pending.update(seat=self.mv_seat, defender=self.mv_def)
        elif self.step in (ROLL, PIT_CHOICE, BOX, FLAG):
            pending["seat"] = self.mv_seat
        return {
            "game": game.id,
            "laps": game.laps,
            "sprint": game.sprint,
            "dynamic_weather": game.dynamic_weather,
            "weather": WEATHER_NAMES[self.weather],
            "round": self.rnd,
            "track_length": c.length,
            "board": {"flags": list(c.flag_colour), "pit_spaces": c.pit_spaces,
                      "pit_entry_after": c.pit_entry_after, "pit_line_after": c.pit_line_after,
                      "pit_boxes": list(c.pit_boxes[: len(self.dist)]), "weather_space": c.weather_space,
                      "rejoin": c.rejoin},
            "pit_window": list(game.window) if game.window else None,
            "actor": sorted(actor) if isinstance(actor, frozenset) else actor,
            "pending": pending,
            "cars": cars,
            "standings": standing,
            "grid": list(self.grid),
            "qualifying": list(self.qual),
            "flag_deck": {"unseen": sum(self.deck),
                          "known_order": [c.card_ids[i] for i in self.bottom] if not any(self.deck) else [],
                          "used": len(self.bottom)},
            "finish": list(self.finish),
        }

    def determinize(self, seat: int | None, rng: random.Random) -> BRCState:
        """Only the other seats' starting tyres, while still being chosen, are hidden."""
        if self.step != TYRES:
            return self
        new = self._clone()
        new.game, new.seed, new.ply = self.g, self.seed, self.ply
        new._history, new._legal_cache, new.events = self._history, None, self.events
        for i, t in enumerate(new.tyre):
            if t >= 0 and i != seat:
                new._put("tyre", i, rng.choice((SOFT, HARD)))
        return new

    @property
    def result(self) -> Result | None:
        if self.step != OVER:
            return None
        order = tuple(self.standings())
        reason = (f"first to complete {self.g.laps} laps; "
                  + ("everyone raced to the end" if self.g.race_to_end else "the rest by current position"))
        return Result(order=order, winners=(order[0],), reason=reason,
                      details={"finished": list(self.finish)})

    def invariant_problems(self) -> list[str]:
        """Rule invariants the conformance suite checks at every step."""
        problems = []
        c = self.g.content
        spaces = [self.dist[i] % c.length for i in range(len(self.dist)) if self._on_track(i)]
        if self.step not in (TYRES, GRID, QUALI) and len(spaces) != len(set(spaces)):
            problems.append(f"two cars in action share a main-track space: {self.dist}")
        if sum(self.deck) + len(self.bottom) != len(c.card_ids):
            problems.append("flag cards are not conserved")
        for i, k in enumerate(self.pit):
            if not -1 <= k <= c.pit_spaces:
                problems.append(f"P{i + 1} is at pit space {k}")
            if k >= 0 and self.off[i]:
                problems.append(f"P{i + 1} is off track in the pit lane")
        return problems


def apply_effect(state: BRCState, seat: int, effect: str, ev: list[Event]) -> None:
    """One line of a BRC flag card (F1-G5)."""
    name = state._name(seat)
    rule = "BRC flag card"
    if effect == "none":
        return
    if effect.startswith("move+"):
        _free_move(state, seat, int(effect[5:]), ev)
    elif effect.startswith("move-"):
        _move_back(state, seat, int(effect[5:]), ev)
    elif effect.startswith("roll"):
        state._put("rmod", seat, state.rmod[seat] + int(effect[4:]))
        ev.append(Event("card-effect", f"{name}'s next roll {int(effect[4:]):+d}", rule, {"seat": seat}))
    elif effect in ("drs", "no-overtake", "tyre-saver"):
        bit = {"drs": DRS, "no-overtake": NO_OVERTAKE, "tyre-saver": TYRE_SAVER}[effect]
        state._put("perks", seat, state.perks[seat] | bit)
        ev.append(Event("card-effect", f"{name} gets {effect}", rule, {"seat": seat}))
    elif effect == "let-by":
        _let_by(state, seat, ev)
    elif effect == "blue-miss":
        if state.standings()[0] == seat:
            ev.append(Event("card-effect", f"{name} leads and ignores the blue flag", rule, {"seat": seat}))
        else:
            state._put("miss", seat, state.miss[seat] + 1)
            ev.append(Event("card-effect", f"{name} misses its next turn", rule, {"seat": seat}))


def _free_move(state: BRCState, seat: int, n: int, ev: list[Event]) -> None:
    """A flag-card move: up to ``n`` spaces, stopping behind any car in action; no overtakes or flags."""
    cur = state.dist[seat]
    finish = state.g.finish_dist
    crossing = cur + n >= finish
    j, o = state._closest_ahead(cur, finish - cur - 1 if crossing else n, seat)
    step = (finish - cur if crossing else n) if j < 0 else o - 1
    ev.append(Event("card-effect", f"{state._name(seat)} moves {step} of {n}", "BRC flag card",
                    {"seat": seat, "move": step}))
    if step > 0:
        state._place(seat, cur + step, ev)


def _move_back(state: BRCState, seat: int, n: int, ev: list[Event]) -> None:
    """A flag-card move back: ``n`` spaces, or further back to the first free space."""
    length = state.g.content.length
    new = state.dist[seat] - n
    while state._occupant(new % length, seat) >= 0:
        new -= 1
    back = state.dist[seat] - new
    state.dist[seat] = new
    ev.append(Event("card-effect", f"{state._name(seat)} drops back {back} to space {new % length}",
                    "BRC flag card", {"seat": seat, "move": -back}))


def _let_by(state: BRCState, seat: int, ev: list[Event]) -> None:
    """Blue flag: the car directly behind (in action) swaps places with this one."""
    length = state.g.content.length
    behind = state._occupant((state.dist[seat] - 1) % length, seat)
    if behind < 0:
        ev.append(Event("card-effect", f"no car directly behind {state._name(seat)}", "BRC flag card",
                        {"seat": seat}))
        return
    state.dist[seat] -= 1
    ev.append(Event("card-effect", f"{state._name(seat)} lets {state._name(behind)} through",
                    "BRC flag card", {"seat": seat, "car": behind}))
    state._place(behind, state.dist[behind] + 1, ev)

