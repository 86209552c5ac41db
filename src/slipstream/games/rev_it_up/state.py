"""One position of a Rev it Up race (``RevState``): its declared fields, its stages and the views.

The rules themselves are small functions in ``rules.py``, in rulebook order; this module sequences
them through the stages of a round: draw (chance per racer) -> movement (highest first, Boost items)
-> item die rolls (with rerolls) -> stop or keep going (simultaneous) -> use items (simultaneous) ->
... -> buying (simultaneous, private carts) -> end of round.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from slipstream.engine.chance import ChanceTable
from slipstream.engine.fields import replaced, slots
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from . import notation, rules
from .notation import BOOST_VERB, DONE_VERB, REROLL_VERB, Action
from .rules import FINISHED, NO_CHIP, RACING, FinishMark, Task, Trap

if TYPE_CHECKING:
    from .game import RevItUp


class Stage(enum.IntEnum):
    """Where a race stands. The first ones wait for a choice or a chance outcome; the automatic ones
    (from ``TASKS`` on) are passed through by ``RevState._advance`` within the action that reaches them."""

    DRAW = 0
    """Turn Structure 1: the ``current`` racer draws a chip (chance)."""
    ITEM_DIE = 1
    """Turn Structure 3: the ``current`` racer rolls the item die (chance)."""
    REROLL = 2
    """Turn Structure 3: keep the rolled item or reroll."""
    GAIN_ITEM = 3
    """Items: the gainer picks a Sticky Bomb's victim, or the item to drop from a full ready area."""
    BOOST = 4
    """RIU-A5: a Boost item right after the racer's own move, or pass."""
    STOP_OR_GO = 5
    """Turn Structure 4 (simultaneous)."""
    USE_ITEMS = 6
    """Turn Structure 5 (simultaneous)."""
    BUY = 7
    """Buying New Chips and Items (simultaneous, private carts)."""
    OVER = 8
    """Game End."""
    TASKS = 10
    """Play out the queued item rolls and gains, then go on to ``after_tasks``."""
    ROUND_START = 11
    TURN_START = 12
    MOVE = 13
    """Turn Structure 2: each racer in ``movement_order`` moves by its drawn chip."""
    STOP_OR_GO_START = 14
    USE_ITEMS_START = 15
    BUY_START = 16
    ROUND_END = 17


# The stages as module constants for the automaton below: reading an enum member costs a class attribute
# lookup (80 ns in the pure build, measured), a module constant a fifth of that.
_DRAW: Final = Stage.DRAW
_ITEM_DIE: Final = Stage.ITEM_DIE
_REROLL: Final = Stage.REROLL
_GAIN_ITEM: Final = Stage.GAIN_ITEM
_BOOST: Final = Stage.BOOST
_STOP_OR_GO: Final = Stage.STOP_OR_GO
_USE_ITEMS: Final = Stage.USE_ITEMS
_BUY: Final = Stage.BUY
_OVER: Final = Stage.OVER
_TASKS: Final = Stage.TASKS
_ROUND_START: Final = Stage.ROUND_START
_TURN_START: Final = Stage.TURN_START
_MOVE: Final = Stage.MOVE
_STOP_OR_GO_START: Final = Stage.STOP_OR_GO_START
_USE_ITEMS_START: Final = Stage.USE_ITEMS_START
_BUY_START: Final = Stage.BUY_START
_ROUND_END: Final = Stage.ROUND_END

STAGE_NAMES: dict[Stage, str] = {stage: stage.name.lower().replace("_", "-") for stage in Stage}
"""The stage as the view's ``phase`` names it: ``draw``, ``item-die``, ``reroll``, ``gain-item``, ``boost``,
``stop-or-go``, ``use-items``, ``buy``, ``over``. The automatic stages are named too (``tasks``,
``round-start``, ...), but no state rests on one: ``_advance`` runs them within the action that reaches
them (``invariant_problems`` checks it)."""
SIMULTANEOUS = frozenset({Stage.STOP_OR_GO, Stage.USE_ITEMS, Stage.BUY})
_REROLL_ACTIONS = (notation.KEEP, notation.REROLL)


class RevState(State):
    """A Rev it Up position. By the copy rule of ``engine.fields``: the two lists (``drawn``, ``stats``)
    are copied by every apply and changed in place; every other field is shared and replaced (never
    changed) when a rule changes it."""

    g: RevItUp
    stage: Stage
    current: int
    """The racer drawing, rolling, gaining or boosting now (-1 before the first draw)."""
    round: int
    turn: int
    progress: tuple[int, ...]
    """Spaces moved since the start, per seat (the space is progress modulo the track length)."""
    status: tuple[int, ...]
    """``rules.RACING``, ``STOPPED``, ``OVERHEATED`` or ``FINISHED`` per seat."""
    bags: tuple[tuple[int, ...], ...]
    """Per seat, the count of each chip kind (``g.kinds`` order) in the bag."""
    discards: tuple[tuple[int, ...], ...]
    """Per seat, the count of each chip kind in the discard."""
    rev_chips: tuple[tuple[int, ...], ...]
    """Per seat, the chip kinds on the Rev Track, oldest first."""
    rev_spaces: tuple[tuple[int, ...], ...]
    """Per seat, the Rev Track space of each chip in ``rev_chips``."""
    drawn: list[int]
    """Per seat, the chip kind drawn this turn and not yet resolved (``NO_CHIP``: none)."""
    supply: tuple[int, ...]
    """The count of each chip kind in the supply."""
    ready: tuple[tuple[str, ...], ...]
    """Per seat, the items in the ready area."""
    emp_jams: tuple[int, ...]
    """Per seat, EMPs waiting to cancel the next Ecoboost's or Nitrous' movement."""
    collected_coins: tuple[int, ...]
    next_round_coins: tuple[int, ...]
    """Loose Change's coin for the next buying phase."""
    traps: tuple[Trap, ...]
    waiting: frozenset[int]
    """The seats still to choose at a simultaneous choice (the actor)."""
    asked: frozenset[int]
    """The seats that take part in the current simultaneous choice."""
    choices: tuple[Action | None, ...]
    """Per seat, its choice at the current simultaneous choice (``None``: not chosen)."""
    carts: tuple[tuple[Action, ...], ...]
    """Per seat, the buying steps chosen so far (private until everyone is done)."""
    offers: tuple[tuple[str, ...], ...]
    """Per seat, its legal actions at the current simultaneous choice (prefixed, sorted); only those of
    the seats in ``waiting`` are read."""
    movement_order: tuple[int, ...]
    """This turn's movers, in order (Turn Structure 2)."""
    tie_groups: tuple[int, ...]
    """For each mover, the position in ``movement_order`` of the first of its tie group."""
    mover_index: int
    tasks: tuple[Task, ...]
    """Item rolls and gains still to play out, in order."""
    after_tasks: Stage
    rolled_item: str
    rerolls_left: int
    finished_at: tuple[FinishMark | None, ...]
    item_rolls_due: tuple[int, ...]
    """Per seat, item spaces entered or passed this turn."""
    coins_to_spend: tuple[int, ...]
    stats: list[tuple[int, ...]]
    """Per seat, the counters by ``rules.Stat`` that metrics read."""

    __slots__ = slots(__annotations__)

    legal_is_sorted: ClassVar[bool] = True
    """``_legal`` already returns the actions sorted and unique (the engine may skip its sort)."""

    @classmethod
    def initial(cls, game: RevItUp) -> RevState:
        n = game.players
        s = cls()
        s.g = game
        s.stage = _TASKS
        s.current = -1
        s.round = 0
        s.turn = 0
        s.progress = (0,) * n
        s.status = (RACING,) * n
        s.bags = game.starting_bags
        s.discards = ((0,) * game.kind_count,) * n
        s.rev_chips = ((),) * n
        s.rev_spaces = ((),) * n
        s.drawn = [NO_CHIP] * n
        s.supply = tuple(game.content.supply)
        s.ready = ((),) * n
        s.emp_jams = (0,) * n
        s.collected_coins = (0,) * n
        s.next_round_coins = (0,) * n
        s.traps = ()
        s.waiting = frozenset()
        s.asked = frozenset()
        s.choices = (None,) * n
        s.carts = ((),) * n
        s.offers = ((),) * n
        s.movement_order = ()
        s.tie_groups = ()
        s.mover_index = 0
        s.tasks = tuple(Task(True, seat, 0, "") for seat in range(n) for _ in range(game.start_items[seat]))
        s.after_tasks = _ROUND_START
        s.rolled_item = ""
        s.rerolls_left = 0
        s.finished_at = (None,) * n
        s.item_rolls_due = (0,) * n
        s.coins_to_spend = (0,) * n
        s.stats = [(0,) * len(rules.Stat)] * n
        s.events = ()
        s._advance([])
        return s

    # --- the engine hooks --------------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage
        if stage is _DRAW or stage is _ITEM_DIE:
            return CHANCE
        if stage is _REROLL or stage is _GAIN_ITEM or stage is _BOOST:
            return self.current
        if stage is _OVER:
            return None
        return self.waiting

    def _legal(self) -> Sequence[str]:
        """Shared constant tuples where the actions are fixed (the engine never changes them)."""
        stage = self.stage
        if stage is _DRAW:
            return self._draw_table().actions
        if stage is _ITEM_DIE:
            return self.g.item_table.actions
        if stage is _REROLL:
            return _REROLL_ACTIONS
        if stage is _GAIN_ITEM:
            return rules.gain_options(self, self.current, self.rolled_item)
        if stage is _BOOST:
            return [*rules.boost_options(self, self.current), notation.PASS]  # "boost:..." sorts before "pass"
        if stage is _OVER:
            return ()
        if stage is _STOP_OR_GO:
            g = self.g
            legal = g.decide_legal.get(self.waiting)
            if legal is None:
                legal = g.decide_legal[self.waiting] = tuple(
                    a for seat in sorted(self.waiting) for a in g.decide_actions[seat])
            return legal
        out: list[str] = []
        for seat in sorted(self.waiting):
            out.extend(self.offers[seat])
        return out

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """As the engine's; at a simultaneous choice a seat's own are read from ``offers``."""
        if seat is not None and seat in self.waiting and self.stage in SIMULTANEOUS:
            return list(self.offers[seat])
        return super().legal_actions(seat)

    def seat_options(self, seat: int) -> list[str]:
        """A seat's own (unprefixed) options at a simultaneous choice, worked out from the rules.

        They depend only on that seat's own cart and on public facts that do not change while the
        choice is open, so ``offers`` holds them from the start of the choice (and after each cart step).
        """
        stage = self.stage
        if stage is _STOP_OR_GO:
            return [notation.GO, notation.STOP]
        if stage is _USE_ITEMS:
            return [notation.PASS, *rules.use_options(self, seat)]
        if stage is _BUY:
            return [notation.DONE, *rules.cart_options(self, seat)]
        return []

    def _chance(self) -> list[tuple[str, float]]:
        stage = self.stage
        if stage is _DRAW:
            return list(self._draw_table().outcomes)
        if stage is _ITEM_DIE:
            return list(self.g.item_die)
        return []

    def _chance_table(self) -> ChanceTable | None:
        """The draw's or the item die's outcomes with their running sums (``sample_chance`` picks
        from it and caches their actions as the legal actions)."""
        stage = self.stage
        if stage is _DRAW:
            return self._draw_table()
        if stage is _ITEM_DIE:
            return self.g.item_table
        return None

    def _draw_table(self) -> ChanceTable:
        """The current drawer's draw: one outcome per chip kind in its bag, by count / total (a draw
        depends on nothing but the bag, so equal bags share one table)."""
        g = self.g
        bag = self.bags[self.current]
        table = g.draw_cache.get(bag)
        if table is None:
            total = sum(bag)
            table = ChanceTable([(a, n / total) for a, n in zip(g.chip_action, bag, strict=True) if n])
            if len(g.draw_cache) < 100_000:
                g.draw_cache[bag] = table
        return table

    def _do(self, action: str) -> list[Event]:
        events: list[Event] = []
        stage = self.stage
        if stage is _DRAW:
            if self._draw(action, events):
                return events
        elif stage is _ITEM_DIE:
            if self._roll_item_die(notation.parse(action).name, events):
                return events
        elif stage is _REROLL:
            if notation.parse(action).verb is REROLL_VERB:
                self.rerolls_left -= 1
                self.stage = _ITEM_DIE
                rules.log_reroll(self, self.current, events)
                return events
            self.stage = _TASKS
            self._gain(self.current, self.rolled_item, events)
        elif stage is _GAIN_ITEM:
            rules.resolve_gain(self, self.current, self.rolled_item, notation.parse(action), events)
            self.stage = _TASKS
        elif stage is _BOOST:
            chosen = notation.parse(action)
            if chosen.verb is BOOST_VERB:
                rules.use_boost(self, self.current, chosen.name, events)
            self._after_move(events)
        elif self._choose(action, events):
            return events
        self._advance(events)
        return events

    # --- the stages --------------------------------------------------------------------------

    def _draw(self, action: str, events: list[Event]) -> bool:
        """Turn Structure 1: the current racer draws; True while other racers still have to draw."""
        g = self.g
        rules.draw(self, self.current, g.kinds.index[notation.parse(action).name], events)
        following = self._next_drawer(self.current + 1)
        if following >= 0:
            self.current = following
            return True
        self.movement_order, self.tie_groups = rules.movement_order(self)
        self.mover_index = 0
        self.stage = _MOVE
        return False

    def _roll_item_die(self, item: str, events: list[Event]) -> bool:
        """Turn Structure 3: True while the roller may still reroll."""
        rules.log_roll(self, self.current, item, events)
        if self.rerolls_left > 0:
            self.rolled_item = item
            self.stage = _REROLL
            return True
        self.stage = _TASKS
        self._gain(self.current, item, events)
        return False

    def _choose(self, action: str, events: list[Event]) -> bool:
        """A seat's step at a simultaneous choice; True while other seats still have to choose."""
        seat, body, chosen = notation.parse_seated(action)
        stage = self.stage
        buying = stage is _BUY
        if buying and chosen.verb is not DONE_VERB:
            self.carts = replaced(self.carts, seat, (*self.carts[seat], chosen))
            self.offers = replaced(self.offers, seat, notation.seated(seat, self.seat_options(seat)))
        else:
            self.choices = replaced(self.choices, seat, chosen)
            self.waiting = self.waiting - self.g.only[seat]
            events.append(rules.chosen_event(seat))
        events.append(rules.choice_event(seat, body, self.g.say_choice(body)))
        if self.waiting:
            return True
        if stage is _STOP_OR_GO:
            rules.resolve_stops(self, events)
            self.stage = _USE_ITEMS_START
        elif stage is _USE_ITEMS:
            rules.resolve_items(self, events)
            self.stage = _TURN_START
        else:
            unresolved = rules.resolve_buys(self, events)
            if unresolved:
                self._choose_again(unresolved)
                return True
            self.after_tasks = _ROUND_END
            self.stage = _TASKS
        return False

    def _choose_again(self, unresolved: tuple[int, ...]) -> None:
        """Buying: the first of ``unresolved`` found its chip sold out and builds a new cart from what is
        left; the others keep their closed carts (still private) until it is done (RIU-X2)."""
        seat = unresolved[0]
        self.waiting = frozenset((seat,))
        self.asked = frozenset(unresolved)
        self.choices = tuple(None if t == seat else Action(DONE_VERB) for t in self.g.seats)
        self.offers = replaced(self.offers, seat, notation.seated(seat, self.seat_options(seat)))

    def _next_drawer(self, start: int) -> int:
        status = self.status
        for seat in range(start, len(status)):
            if status[seat] == RACING:
                return seat
        return -1

    def _gain(self, seat: int, item: str, events: list[Event]) -> None:
        if rules.gain_item(self, seat, item, events):
            self.rolled_item = item
            self.current = seat
            self.stage = _GAIN_ITEM

    def _after_move(self, events: list[Event]) -> None:
        """Step past the mover at ``mover_index``; at the end of a tie group, see whether the race is over."""
        groups = self.tie_groups
        self.mover_index += 1
        i = self.mover_index
        if FINISHED in self.status and (i == len(groups) or groups[i] != groups[i - 1]) \
                and rules.race_over(self):
            self.stage = _OVER
            events.append(Event("game-end", rules.end_text(self), "Game End"))
            return
        self.stage = _MOVE

    def _advance(self, events: list[Event]) -> None:
        """Run the automatic stages until the next input (a choice or a chance outcome)."""
        while True:
            stage = self.stage
            if stage < _TASKS:
                return
            if stage is _MOVE:
                if self._move(events):
                    return
            elif stage is _TASKS:
                if self._next_task(events):
                    return
            elif stage is _ROUND_START:
                rules.start_round(self, events)
                self.stage = _TURN_START
            elif stage is _TURN_START:
                if self._start_turn(events):
                    return
            elif stage is _STOP_OR_GO_START:
                if self._start_stop_or_go():
                    return
            elif stage is _USE_ITEMS_START:
                if self._start_using_items():
                    return
            elif stage is _BUY_START:
                if self._start_buying(events):
                    return
            elif stage is _ROUND_END:
                rules.end_round(self, events)
                self.stage = _ROUND_START

    def _move(self, events: list[Event]) -> bool:
        """Turn Structure 2: the movers in order; True when one stops for a Boost choice or the race ends."""
        order = self.movement_order
        while self.mover_index < len(order):
            seat = order[self.mover_index]
            rules.resolve_draw(self, seat, events)
            if self.ready[seat] and rules.boost_options(self, seat):
                self.current = seat
                self.stage = _BOOST
                return True
            self._after_move(events)
            if self.stage is _OVER:
                return True
        self.tasks = rules.item_rolls(self)
        self.after_tasks = _STOP_OR_GO_START
        self.stage = _TASKS
        return False

    def _next_task(self, events: list[Event]) -> bool:
        """The next queued item roll (True: the item die is to be rolled) or gain."""
        if not self.tasks:
            self.stage = self.after_tasks
            return False
        task = self.tasks[0]
        self.tasks = self.tasks[1:]
        if task.roll:
            self.current = task.seat
            self.rerolls_left = task.rerolls
            self.stage = _ITEM_DIE
            return True
        self._gain(task.seat, task.item, events)
        return self.stage is _GAIN_ITEM

    def _start_turn(self, events: list[Event]) -> bool:
        """Round Structure 1: another turn while anyone races (True), else on to buying."""
        rules.stop_empty_bags(self, events)
        first = self._next_drawer(0)
        if first < 0:
            self.stage = _BUY_START
            return False
        n = self.g.players
        self.turn += 1
        self.drawn = [NO_CHIP] * n
        self.item_rolls_due = (0,) * n
        self.current = first
        self.stage = _DRAW
        return True

    def _start_stop_or_go(self) -> bool:
        """Turn Structure 4: every racing racer chooses (True), unless none is racing."""
        status = self.status
        if RACING not in status:
            self.stage = _USE_ITEMS_START
            return False
        racing = frozenset(seat for seat, st in enumerate(status) if st == RACING)
        self._open_choice(racing, self.g.decide_actions)
        self.stage = _STOP_OR_GO
        return True

    def _start_using_items(self) -> bool:
        """Turn Structure 5: every racer with an item to use chooses (True), unless none has one."""
        offered = [rules.use_options(self, seat) if held else [] for seat, held in enumerate(self.ready)]
        if not any(offered):
            self.stage = _TURN_START
            return False
        users = frozenset(seat for seat, options in enumerate(offered) if options)
        self._open_choice(users, tuple(notation.seated(seat, [notation.PASS, *options]) if options else ()
                                       for seat, options in enumerate(offered)))
        self.stage = _USE_ITEMS
        return True

    def _start_buying(self, events: list[Event]) -> bool:
        """Buying New Chips and Items: every racer with something to buy builds a cart (True)."""
        n = self.g.players
        self.carts = ((),) * n
        self.tasks = ()
        buyers = rules.start_buying(self, events)
        if not any(buyers):
            self.stage = _ROUND_END
            return False
        self.stage = _BUY
        self._open_choice(frozenset(seat for seat in range(n) if buyers[seat]),
                          tuple(notation.seated(seat, self.seat_options(seat)) if buyers[seat] else ()
                                for seat in range(n)))
        # A racer that sits the phase out counts as done (a view shows that it has chosen).
        self.asked = frozenset(range(n))
        self.choices = tuple(None if buyers[seat] else Action(DONE_VERB) for seat in range(n))
        return True

    def _open_choice(self, seats: frozenset[int], offers: tuple[tuple[str, ...], ...]) -> None:
        self.waiting = self.asked = seats
        self.choices = (None,) * self.g.players
        self.offers = offers

    # --- what a seat may see -----------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, JSON]:
        """Everything is public (bags are built from public buys and public draws) except the other
        seats' pending choices and buying carts: a view says only whether a seat has chosen. Chips, items,
        characters and the track are named by their ids; ``terms`` gives each id's name and effect (the
        game's glossary, ``words.glossary``), for a board to show words."""
        g = self.g
        names = g.kinds.names
        kinds = range(g.kind_count)
        stage = self.stage
        racers: list[dict[str, Any]] = []
        simultaneous = stage in SIMULTANEOUS
        for s in g.seats:
            bag, discard, drawn = self.bags[s], self.discards[s], self.drawn[s]
            racer: dict[str, Any] = {
                "seat": s,
                "character": g.characters[s],
                "progress": self.progress[s],
                "lap": min(self.progress[s] // g.track_length + 1, g.laps),
                "space": self.progress[s] % g.track_length,
                "status": rules.STATUS_NAMES[self.status[s]],
                "bag": {names[k]: bag[k] for k in kinds if bag[k]},
                "discard": {names[k]: discard[k] for k in kinds if discard[k]},
                "rev": [[names[k], space] for k, space in zip(self.rev_chips[s], self.rev_spaces[s], strict=True)],
                "rev_length": g.rev_length[s],
                "drawn": names[drawn] if drawn != NO_CHIP else None,
                "ready": list(self.ready[s]),
                "emp": self.emp_jams[s],
                "collected_coins": self.collected_coins[s],
                "next_round_coins": self.next_round_coins[s],
                "coins_to_spend": self.coins_to_spend[s] if stage is _BUY else None,
                "overheat_chance": round(rules.overheat_chance(self, s), 6),
            }
            if simultaneous and s in self.asked:
                racer["chosen"] = self.choices[s] is not None
            racers.append(racer)
        out: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "phase": STAGE_NAMES[stage],
            "track": {"id": g.track.id, "length": g.track_length, "laps": g.laps,
                      "item_spaces": sorted(g.item_spaces)},
            "items_in_play": list(g.items_in_play),
            "racers": racers,
            "supply": {names[k]: self.supply[k] for k in kinds},
            "traps": [[trap.space, trap.item, trap.owner] for trap in self.traps],
            "finished": [s for s in g.seats if self.status[s] == FINISHED],
            "terms": g.terms,
        }
        if stage in (_REROLL, _GAIN_ITEM, _BOOST, _ITEM_DIE, _DRAW):
            out["current"] = self.current
        out["roller"] = self.current if stage is _DRAW or stage is _ITEM_DIE else None
        if stage is _REROLL or stage is _GAIN_ITEM:
            out["rolled"] = self.rolled_item
            out["rerolls_left"] = self.rerolls_left
        if seat is not None and simultaneous:
            if stage is _BUY:
                out["my_cart"] = [notation.text(step) for step in self.carts[seat]]
            else:
                mine = self.choices[seat]
                out["my_choice"] = notation.text(mine) if mine is not None else None
        return out

    def determinize(self, seat: int | None, rng: random.Random) -> RevState:
        """Redraw the other seats' pending choices and carts: all ``seat`` cannot see."""
        stage = self.stage
        if stage not in SIMULTANEOUS:
            return self
        new = self.copy()
        for other in self.g.seats:
            if other == seat or (stage is _BUY and other not in self.asked):  # a filled cart is public
                continue
            if stage is _BUY:
                new.carts = replaced(new.carts, other, ())
                for _ in range(rng.randrange(4)):
                    options = rules.cart_options(new, other)
                    if not options:
                        break
                    new.carts = replaced(new.carts, other, (*new.carts[other], notation.parse(rng.choice(options))))
                if other in new.waiting:
                    new.offers = replaced(new.offers, other, notation.seated(other, new.seat_options(other)))
            elif new.choices[other] is not None:
                new.choices = replaced(new.choices, other, notation.parse(rng.choice(self.seat_options(other))))
        return new

    @property
    def result(self) -> Result | None:
        if self.stage is not _OVER:
            return None
        return rules.final_result(self)

    def invariant_problems(self) -> list[str]:
        """Chips are conserved between bags, drawn chips, Rev Tracks, discards and the supply; the state
        waits on a choice, a chance outcome or the end, never on an automatic stage (``_advance``)."""
        problems = rules.conservation_problems(self)
        if self.stage >= _TASKS:
            problems.append(f"the state rests on the automatic stage {STAGE_NAMES[self.stage]!r}")
        return problems
