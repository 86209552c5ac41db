"""One position of a Rev it Up race (``RevState``): its declared fields and the engine's contract.

The rules and the flow of a round through its stages are small functions in ``rules.py``, in rulebook
order; the nouns (stages, statuses, tasks, typed actions) are in ``types.py``; the action strings are
read in ``notation.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from slipstream.engine.chance import ChanceTable
from slipstream.engine.fields import replaced, slots
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from . import notation, rules
from .types import (
    FINISHED,
    NO_CHIP,
    SIMULTANEOUS,
    STAGE_NAMES,
    STATUS_NAMES,
    Action,
    FinishMark,
    Stage,
    Task,
    Trap,
)

if TYPE_CHECKING:
    from .game import RevItUp  # noqa: F401 - the base class names it: State["RevItUp"]


_REROLL_ACTIONS: Final = (notation.KEEP, notation.REROLL)
"""The choice after an item-die roll with rerolls left (sorted)."""


class RevState(State["RevItUp"]):
    """A Rev it Up position. By the copy rule of ``engine.fields``: the two lists (``drawn``, ``stats``)
    are copied by every apply and changed in place; every other field is shared and replaced (never
    changed) when a rule changes it."""

    stage: Stage
    current: int
    """The racer drawing, rolling, gaining or boosting now (-1 before the first draw)."""
    round: int
    turn: int
    progress: tuple[int, ...]
    """Spaces moved since the start, per seat (the space is progress modulo the track length)."""
    status: tuple[int, ...]
    """``RACING``, ``STOPPED``, ``OVERHEATED`` or ``FINISHED`` (``types.py``) per seat."""
    bags: tuple[tuple[int, ...], ...]
    """Per seat, the count of each chip kind (``game.kinds`` order) in the bag."""
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
    """Per seat, the counters by ``Stat`` that metrics read."""

    __slots__ = slots(__annotations__)

    legal_is_sorted: ClassVar[bool] = True
    """``_legal`` already returns the actions sorted and unique (the engine may skip its sort)."""

    # --- the engine hooks --------------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage
        if stage is Stage.DRAW or stage is Stage.ITEM_DIE:
            return CHANCE
        if stage is Stage.REROLL or stage is Stage.GAIN_ITEM or stage is Stage.BOOST:
            return self.current
        if stage is Stage.OVER:
            return None
        return self.waiting

    def _legal(self) -> Sequence[str]:
        """Shared constant tuples where the actions are fixed (the engine never changes them)."""
        stage = self.stage
        if stage is Stage.DRAW:
            return self._draw_table().actions
        if stage is Stage.ITEM_DIE:
            return self.game.item_table.actions
        if stage is Stage.REROLL:
            return _REROLL_ACTIONS
        if stage is Stage.GAIN_ITEM:
            return rules.gain_options(self, self.current, self.rolled_item)
        if stage is Stage.BOOST:
            return [*rules.boost_options(self, self.current), notation.PASS]  # "boost:..." sorts before "pass"
        if stage is Stage.OVER:
            return ()
        if stage is Stage.STOP_OR_GO:
            game = self.game
            legal = game.decide_legal.get(self.waiting)
            if legal is None:
                legal = game.decide_legal[self.waiting] = tuple(
                    action for seat in sorted(self.waiting) for action in game.decide_actions[seat])
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

    def _chance(self) -> list[tuple[str, float]]:
        stage = self.stage
        if stage is Stage.DRAW:
            return list(self._draw_table().outcomes)
        if stage is Stage.ITEM_DIE:
            return list(self.game.item_die)
        return []

    def _chance_table(self) -> ChanceTable | None:
        """The draw's or the item die's outcomes with their running sums (``sample_chance`` picks
        from it and caches their actions as the legal actions)."""
        stage = self.stage
        if stage is Stage.DRAW:
            return self._draw_table()
        if stage is Stage.ITEM_DIE:
            return self.game.item_table
        return None

    def _draw_table(self) -> ChanceTable:
        """The current drawer's draw: one outcome per chip kind in its bag, by count / total (a draw
        depends on nothing but the bag, so equal bags share one table)."""
        game = self.game
        bag = self.bags[self.current]
        table = game.draw_cache.get(bag)
        if table is None:
            total = sum(bag)
            table = ChanceTable([(action, count / total)
                                 for action, count in zip(game.chip_action, bag, strict=True) if count])
            if len(game.draw_cache) < 100_000:
                game.draw_cache[bag] = table
        return table

    def _do(self, action: str) -> list[Event]:
        events: list[Event] = []
        rules.take_action(self, action, events)
        return events

    # --- what a seat may see -----------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, JSON]:
        """Everything is public (bags are built from public buys and public draws) except the other
        seats' pending choices and buying carts: a view says only whether a seat has chosen. Chips, items,
        characters and the track are named by their ids; ``terms`` gives each id's name and effect (the
        game's glossary, ``words.glossary``), for a board to show words."""
        game = self.game
        names = game.kinds.names
        kinds = range(game.kind_count)
        stage = self.stage
        racers: list[dict[str, Any]] = []
        simultaneous = stage in SIMULTANEOUS
        for racer_seat in game.seats:
            bag, discard, drawn = self.bags[racer_seat], self.discards[racer_seat], self.drawn[racer_seat]
            racer: dict[str, Any] = {
                "seat": racer_seat,
                "character": game.characters[racer_seat],
                "progress": self.progress[racer_seat],
                "lap": min(self.progress[racer_seat] // game.track_length + 1, game.laps),
                "space": self.progress[racer_seat] % game.track_length,
                "status": STATUS_NAMES[self.status[racer_seat]],
                "bag": {names[kind]: bag[kind] for kind in kinds if bag[kind]},
                "discard": {names[kind]: discard[kind] for kind in kinds if discard[kind]},
                "rev": [[names[kind], space]
                        for kind, space in zip(self.rev_chips[racer_seat], self.rev_spaces[racer_seat], strict=True)],
                "rev_length": game.rev_length[racer_seat],
                "drawn": names[drawn] if drawn != NO_CHIP else None,
                "ready": list(self.ready[racer_seat]),
                "emp": self.emp_jams[racer_seat],
                "collected_coins": self.collected_coins[racer_seat],
                "next_round_coins": self.next_round_coins[racer_seat],
                "coins_to_spend": self.coins_to_spend[racer_seat] if stage is Stage.BUY else None,
                "overheat_chance": round(rules.overheat_chance(self, racer_seat), 6),
            }
            if simultaneous and racer_seat in self.asked:
                racer["chosen"] = self.choices[racer_seat] is not None
            racers.append(racer)
        out: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "phase": STAGE_NAMES[stage],
            "track": {"id": game.track.id, "length": game.track_length, "laps": game.laps,
                      "item_spaces": sorted(game.item_spaces)},
            "items_in_play": list(game.items_in_play),
            "racers": racers,
            "supply": {names[kind]: self.supply[kind] for kind in kinds},
            "traps": [[trap.space, trap.item, trap.owner] for trap in self.traps],
            "finished": [racer_seat for racer_seat in game.seats if self.status[racer_seat] == FINISHED],
            "terms": game.terms,
        }
        if stage in (Stage.REROLL, Stage.GAIN_ITEM, Stage.BOOST, Stage.ITEM_DIE, Stage.DRAW):
            out["current"] = self.current
        out["roller"] = self.current if stage is Stage.DRAW or stage is Stage.ITEM_DIE else None
        if stage is Stage.REROLL or stage is Stage.GAIN_ITEM:
            out["rolled"] = self.rolled_item
            out["rerolls_left"] = self.rerolls_left
        if seat is not None and simultaneous:
            if stage is Stage.BUY:
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
        for other in self.game.seats:
            if other == seat or (stage is Stage.BUY and other not in self.asked):  # a filled cart is public
                continue
            if stage is Stage.BUY:
                new.carts = replaced(new.carts, other, ())
                for _ in range(rng.randrange(4)):
                    options = rules.cart_options(new, other)
                    if not options:
                        break
                    new.carts = replaced(new.carts, other, (*new.carts[other], notation.parse(rng.choice(options))))
                if other in new.waiting:
                    new.offers = replaced(new.offers, other, notation.seated(other, rules.seat_options(new, other)))
            elif new.choices[other] is not None:
                new.choices = replaced(new.choices, other, notation.parse(rng.choice(rules.seat_options(self, other))))
        return new

    @property
    def result(self) -> Result | None:
        if self.stage is not Stage.OVER:
            return None
        return rules.final_result(self)

    def invariant_problems(self) -> list[str]:
        """Chips are conserved between bags, drawn chips, Rev Tracks, discards and the supply; the state
        waits on a choice, a chance outcome or the end, never on an automatic stage (``rules.advance``)."""
        problems = rules.conservation_problems(self)
        if self.stage >= Stage.TASKS:
            problems.append(f"the state rests on the automatic stage {STAGE_NAMES[self.stage]!r}")
        return problems
