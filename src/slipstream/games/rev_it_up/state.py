"""One position of a Rev it Up race (``RevState``): the turn and round automaton and the views.

The rules themselves are small functions in ``rules.py``, named after the rulebook sections; this
module sequences them: draw (chance per racer) -> movement (highest first, Boost items) -> item die
rolls (with rerolls) -> stop or keep going (simultaneous) -> use items (simultaneous) -> ... ->
buying (simultaneous, private carts) -> end of round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.chance import ChanceTable
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from . import rules
from .rules import FINISHED, RACING

if TYPE_CHECKING:
    from .game import RevItUp

# Phases that wait for input.
P_DRAW, P_ROLL, P_REROLL, P_GAIN, P_BOOST, P_DECIDE, P_USE, P_BUY, P_OVER = range(9)
# Automatic stages the automaton passes through.
S_QUEUE, S_ROUND_START, S_TURN_START, S_MOVE, S_DECIDE_START, S_USE_START, S_BUY_START, S_ROUND_END = range(
    10, 18
)
PHASE_NAMES = {
    P_DRAW: "draw", P_ROLL: "item-die", P_REROLL: "reroll", P_GAIN: "gain-item", P_BOOST: "boost",
    P_DECIDE: "stop-or-go", P_USE: "use-items", P_BUY: "buy", P_OVER: "over",
}
_REROLL_ACTIONS = ("keep", "reroll")
T_ROLL, T_GAIN = 0, 1
"""Queue tasks: roll the item die for a seat (with n rerolls), or gain a named item."""


class RevState(State):
    """A Rev it Up position. Plain data: lists of ints and tuples, flat per-seat chip counts."""

    __slots__ = (
        "_act",
        "_cc",
        "_opts",
        "_shared",
        "after",
        "bag",
        "carry",
        "carts",
        "coins",
        "collected",
        "cur",
        "disc",
        "drawn",
        "emp",
        "fin",
        "g",
        "idx",
        "order",
        "pending",
        "phase",
        "pos",
        "queue",
        "ready",
        "rerolls",
        "rev_k",
        "rev_s",
        "rolled",
        "rolls_due",
        "round",
        "stats",
        "status",
        "supply",
        "traps",
        "turn",
        "waiting",
    )

    _act: Actor | bool
    _cc: ChanceTable | None
    """The draw's chance table, once looked up (cleared by every clone)."""
    _opts: list[tuple[str, ...] | None]
    _shared: int
    waiting: frozenset[int]
    """The seats still to choose at a simultaneous choice (the actor)."""
    g: RevItUp
    phase: int
    cur: int
    round: int
    turn: int
    pos: list[int]
    status: list[int]
    bag: list[int]
    disc: list[int]
    rev_k: list[tuple[int, ...]]
    rev_s: list[tuple[int, ...]]
    drawn: list[int]
    supply: tuple[int, ...]
    ready: tuple[tuple[str, ...], ...]
    emp: tuple[int, ...]
    collected: tuple[int, ...]
    carry: tuple[int, ...]
    traps: tuple[tuple[int, str, int], ...]
    pending: list[str | None]
    carts: list[tuple[str, ...]]
    order: tuple[tuple[int, int, int], ...]
    idx: int
    queue: tuple[tuple[int, int, int, str], ...]
    after: int
    rolled: str
    rerolls: int
    fin: tuple[tuple[int, int, int] | None, ...]
    rolls_due: list[int]
    coins: tuple[int, ...]
    stats: list[int]

    legal_is_sorted = True
    """``_legal`` already returns the actions sorted and unique (the engine may skip its sort)."""

    @classmethod
    def initial(cls, game: RevItUp) -> RevState:
        n = game.players
        s = cls()
        s._act = False
        s._cc = None
        s._opts = [None] * game.players
        s._shared = 0
        s.waiting = frozenset()
        s.g = game
        s.phase = S_QUEUE
        s.cur = -1
        s.round = 0
        s.turn = 0
        s.pos = [0] * n
        s.status = [RACING] * n
        s.bag = list(game.starting_bags)
        s.disc = [0] * (n * game.K)
        s.rev_k = [()] * n
        s.rev_s = [()] * n
        s.drawn = [-1] * n
        s.supply = tuple(game.content.supply)
        s.ready = ((),) * n
        s.emp = (0,) * n
        s.collected = (0,) * n
        s.carry = (0,) * n
        s.traps = ()
        s.pending = [None] * n
        s.carts = [()] * n
        s.order = ()
        s.idx = 0
        s.queue = tuple((T_ROLL, seat, 0, "") for seat in range(n) for _ in range(game.start_items[seat]))
        s.after = S_ROUND_START
        s.rolled = ""
        s.rerolls = 0
        s.fin = (None,) * n
        s.rolls_due = [0] * n
        s.coins = (0,) * n
        s.stats = [0] * (n * rules.NSTATS)
        s.events = ()
        s._advance([])
        return s

    # --- the engine hooks --------------------------------------------------------------------

    def _clone(self) -> RevState:
        """A copy that shares every list with this state (copy on write, see ``_own``), except the
        ones the next step may change in place without calling ``_own``: the bag and the drawn chips
        at a draw, the pending choices, carts and option cache at a simultaneous choice."""
        new = RevState()
        new._act = False
        new._cc = None
        ph = self.phase
        if ph == P_DRAW:
            new._shared = 1
            new.bag = self.bag[:]
            new.drawn = self.drawn[:]
            new.pending = self.pending
            new.carts = self.carts
            new._opts = self._opts
        else:
            new._shared = 2
            new.bag = self.bag
            new.drawn = self.drawn
            if ph in (P_DECIDE, P_USE, P_BUY):
                new.pending = self.pending[:]
                new.carts = self.carts[:]
                new._opts = self._opts[:]
            else:
                new.pending = self.pending
                new.carts = self.carts
                new._opts = self._opts
        new.g = self.g
        new.waiting = self.waiting
        new.phase = ph
        new.cur = self.cur
        new.round = self.round
        new.turn = self.turn
        new.pos = self.pos
        new.status = self.status
        new.disc = self.disc
        new.rev_k = self.rev_k
        new.rev_s = self.rev_s
        new.supply = self.supply
        new.ready = self.ready
        new.emp = self.emp
        new.collected = self.collected
        new.carry = self.carry
        new.traps = self.traps
        new.order = self.order
        new.idx = self.idx
        new.queue = self.queue
        new.after = self.after
        new.rolled = self.rolled
        new.rerolls = self.rerolls
        new.fin = self.fin
        new.rolls_due = self.rolls_due
        new.coins = self.coins
        new.stats = self.stats
        return new

    def _own(self) -> None:
        """Copy the lists this state still shares with the one it was cloned from (copy on write).

        Light steps (a draw that is not the last, a simultaneous choice that others still wait on, a
        roll or reroll with rerolls left) change only what ``_clone`` copied; every other step calls
        this first. Pending choices, carts and the option cache are only ever changed in place at a
        simultaneous choice (elsewhere they are replaced by new lists), so they are not copied here.
        """
        shared = self._shared
        if shared:
            self._shared = 0
            if shared == 2:
                self.bag = self.bag[:]
                self.drawn = self.drawn[:]
            self.pos = self.pos[:]
            self.status = self.status[:]
            self.disc = self.disc[:]
            self.rev_k = self.rev_k[:]
            self.rev_s = self.rev_s[:]
            self.rolls_due = self.rolls_due[:]
            self.stats = self.stats[:]

    def _actor(self) -> Actor:
        act = self._act
        if act is False:
            act = self._act = self._find_actor()
        return act

    def _find_actor(self) -> Actor:
        ph = self.phase
        if ph in (P_DRAW, P_ROLL):
            return CHANCE
        if ph in (P_REROLL, P_GAIN, P_BOOST):
            return self.cur
        if ph == P_OVER:
            return None
        return self.waiting

    def _legal(self) -> Sequence[str]:
        """Shared constant tuples where the actions are fixed (the engine never changes them)."""
        ph = self.phase
        if ph == P_DRAW:
            return self._draw_table().actions
        if ph == P_ROLL:
            return self.g.item_table.actions
        if ph == P_REROLL:
            return _REROLL_ACTIONS
        if ph == P_GAIN:
            return rules.gain_options(self, self.cur, self.rolled)
        if ph == P_BOOST:
            return [*rules.boost_options(self, self.cur), "pass"]
        if ph == P_OVER:
            return ()
        if ph == P_DECIDE:
            legal = self.g.decide_legal.get(self.waiting)
            if legal is None:
                legal = self.g.decide_legal[self.waiting] = tuple(
                    a for seat in sorted(self.waiting) for a in self.g.decide_actions[seat])
            return legal
        out: list[str] = []
        for seat, p in enumerate(self.pending):
            if p is None:
                out.extend(self._seat_tuple(seat))
        return out

    def _seat_tuple(self, seat: int) -> tuple[str, ...]:
        mine = self._opts[seat]
        if mine is None and self.phase == P_DECIDE:
            mine = self._opts[seat] = self.g.decide_actions[seat]
        elif mine is None:
            prefix = f"{seat}:"
            mine = self._opts[seat] = tuple(prefix + a for a in sorted(self.seat_options(seat)))
        return mine

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """As the engine's, with a seat's own options at a simultaneous choice read from ``_opts``."""
        if seat is not None and 0 <= seat < len(self.pending) and self.pending[seat] is None and \
                self.phase in (P_DECIDE, P_USE, P_BUY):
            return list(self._seat_tuple(seat))
        return super().legal_actions(seat)

    def seat_options(self, seat: int) -> list[str]:
        """A seat's own (unprefixed) options at a simultaneous choice.

        They depend only on that seat's own pending choice or cart and on public facts that do not
        change while the choice is open, so they are cached per seat (``_opts``).
        """
        ph = self.phase
        if ph == P_DECIDE:
            return ["go", "stop"]
        if ph == P_USE:
            return ["pass", *rules.use_options(self, seat)]
        if ph == P_BUY:
            return ["done", *rules.cart_options(self, seat)]
        return []

    def _chance(self) -> list[tuple[str, float]]:
        ph = self.phase
        if ph == P_DRAW:
            return list(self._draw_table().outcomes)
        if ph == P_ROLL:
            return list(self.g.item_die)
        return []

    def _chance_table(self) -> ChanceTable | None:
        """The draw's or the item die's outcomes with their running sums (``sample_chance`` picks
        from it and caches their actions as the legal actions)."""
        ph = self.phase
        if ph == P_DRAW:
            table = self._draw_table()
        elif ph == P_ROLL:
            table = self.g.item_table
        else:
            return None
        return table

    def _draw_table(self) -> ChanceTable:
        """The current drawer's draw: one outcome per chip kind in its bag, by count / total."""
        table = self._cc
        if table is not None:
            return table
        g = self.g
        K = g.K
        seg = tuple(self.bag[self.cur * K: (self.cur + 1) * K])
        table = g.draw_cache.get(seg)
        if table is None:
            total = sum(seg)
            table = ChanceTable([(a, n / total) for a, n in zip(g.chip_action, seg, strict=True) if n])
            if len(g.draw_cache) < 100_000:
                g.draw_cache[seg] = table
        self._cc = table
        return table

    def _do(self, action: str) -> list[Event]:
        events: list[Event] = []
        ph = self.phase
        if ph == P_DRAW:
            rules.draw(self, self.cur, self.g.action_chip[action], events)
            nxt = self._next_drawer(self.cur + 1)
            if nxt >= 0:
                self.cur = nxt
                return events
            self._own()
            self.order = rules.movement_order(self)
            self.idx = 0
            self.phase = S_MOVE
        elif ph == P_ROLL:
            item = action[5:]
            rules.log_roll(self, self.cur, item, events)
            if self.rerolls > 0:
                self.rolled = item
                self.phase = P_REROLL
                return events
            self._own()
            self.phase = S_QUEUE
            self._gain(self.cur, item, events)
        elif ph == P_REROLL:
            if action == "reroll":
                self.rerolls -= 1
                self.phase = P_ROLL
                events.append(Event("reroll", f"{self.g.short_names[self.cur]} rerolls the item die",
                                    "Turn Structure 3"))
                return events
            self._own()
            self.phase = S_QUEUE
            self._gain(self.cur, self.rolled, events)
        elif ph == P_GAIN:
            self._own()
            rules.resolve_gain(self, self.cur, self.rolled, action, events)
            self.phase = S_QUEUE
        elif ph == P_BOOST:
            self._own()
            if action != "pass":
                rules.use_boost(self, self.cur, action[6:], events)
            self._after_move(events)
        else:
            seat = ord(action[0]) - 48  # "<seat>:<choice>", seats 0-5
            choice = action[2:]
            self._opts[seat] = None
            if ph == P_BUY:
                if choice == "done":
                    self.pending[seat] = "done"
                    self.waiting = self.waiting - self.g.only[seat]
                else:
                    self.carts[seat] = (*self.carts[seat], choice)
            else:
                self.pending[seat] = choice
                self.waiting = self.waiting - self.g.only[seat]
            chosen, private = rules.choice_events(self.g, seat, choice)
            if ph != P_BUY or choice == "done":
                events.append(chosen)
            events.append(private)
            if self.waiting:
                return events
            self._own()
            if ph == P_DECIDE:
                rules.resolve_stops(self, events)
                self.phase = S_USE_START
            elif ph == P_USE:
                rules.resolve_items(self, events)
                self.phase = S_TURN_START
            else:
                self.queue = rules.resolve_buys(self, events)
                self.after = S_ROUND_END
                self.phase = S_QUEUE
        self._advance(events)
        return events

    # --- the automaton -----------------------------------------------------------------------

    def _next_drawer(self, start: int) -> int:
        status = self.status
        for seat in range(start, len(status)):
            if status[seat] == RACING:
                return seat
        return -1

    def _gain(self, seat: int, item: str, events: list[Event]) -> None:
        if rules.gain_item(self, seat, item, events):
            self.rolled = item
            self.cur = seat
            self.phase = P_GAIN

    def _after_move(self, events: list[Event]) -> None:
        """Step past the mover at ``idx``; at the end of a tie group, see whether the race is over."""
        order = self.order
        self.idx += 1
        i = self.idx
        if FINISHED in self.status and (i == len(order) or order[i][1:] != order[i - 1][1:]) \
                and rules.race_over(self):
            self.phase = P_OVER
            events.append(Event("game-end", rules.end_text(self), "Game End"))
            return
        self.phase = S_MOVE

    def _advance(self, events: list[Event]) -> None:
        """Run the automatic stages until the next input (a choice or a chance outcome)."""
        g = self.g
        while True:
            ph = self.phase
            if ph < S_QUEUE:
                return
            if ph == S_MOVE:
                order = self.order
                while self.idx < len(order):
                    seat = order[self.idx][0]
                    rules.resolve_draw(self, seat, events)
                    if self.ready[seat] and rules.boost_options(self, seat):
                        self.cur = seat
                        self.phase = P_BOOST
                        return
                    self._after_move(events)
                    if self.phase == P_OVER:
                        return
                self.queue = rules.item_rolls(self)
                self.after = S_DECIDE_START
                self.phase = S_QUEUE
            elif ph == S_QUEUE:
                if not self.queue:
                    self.phase = self.after
                    continue
                kind, seat, n, item = self.queue[0]
                self.queue = self.queue[1:]
                if kind == T_ROLL:
                    self.cur = seat
                    self.rerolls = n
                    self.phase = P_ROLL
                    return
                self._gain(seat, item, events)
            elif ph == S_ROUND_START:
                rules.start_round(self, events)
                self.phase = S_TURN_START
            elif ph == S_TURN_START:
                rules.stop_empty_bags(self, events)
                first = self._next_drawer(0)
                if first < 0:
                    self.phase = S_BUY_START
                    continue
                self.turn += 1
                self.drawn = [-1] * g.players
                self.rolls_due = [0] * g.players
                self.cur = first
                self.phase = P_DRAW
                return
            elif ph == S_DECIDE_START:
                status = self.status
                if RACING not in status:
                    self.phase = S_USE_START
                    continue
                self.pending = [None if st == RACING else "" for st in status]
                self.waiting = frozenset(seat for seat, st in enumerate(status) if st == RACING)
                self._opts = [None] * g.players
                self.phase = P_DECIDE
                return
            elif ph == S_USE_START:
                offers = [rules.use_options(self, seat) if r else [] for seat, r in enumerate(self.ready)]
                if not any(offers):
                    self.phase = S_TURN_START
                    continue
                self.pending = [None if o else "" for o in offers]
                self.waiting = frozenset(seat for seat, o in enumerate(offers) if o)
                self._opts = [tuple(f"{seat}:{a}" for a in sorted(["pass", *o])) if o else None
                              for seat, o in enumerate(offers)]
                self.phase = P_USE
                return
            elif ph == S_BUY_START:
                self.carts = [()] * g.players
                buyers = rules.start_buying(self, events)
                self.pending = [None if b else "done" for b in buyers]
                self.waiting = frozenset(seat for seat, b in enumerate(buyers) if b)
                self._opts = [None] * g.players
                if not any(buyers):
                    self.phase = S_ROUND_END
                    continue
                self.phase = P_BUY
                return
            elif ph == S_ROUND_END:
                rules.end_round(self, events)
                self.phase = S_ROUND_START

    # --- what a seat may see -----------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        """Everything is public (bags are built from public buys and public draws) except the other
        seats' pending choices and buying carts: a view says only whether a seat has chosen."""
        g = self.g
        names = g.kinds.names
        K = g.K
        racers: list[dict[str, Any]] = []
        simultaneous = self.phase in (P_DECIDE, P_USE, P_BUY)
        for s in range(g.players):
            base = s * K
            racer: dict[str, Any] = {
                "seat": s,
                "character": g.characters[s],
                "progress": self.pos[s],
                "lap": min(self.pos[s] // g.track_length + 1, g.laps),
                "space": self.pos[s] % g.track_length,
                "status": rules.STATUS_NAMES[self.status[s]],
                "bag": {names[k]: self.bag[base + k] for k in range(K) if self.bag[base + k]},
                "discard": {names[k]: self.disc[base + k] for k in range(K) if self.disc[base + k]},
                "rev": [[names[k], sp] for k, sp in zip(self.rev_k[s], self.rev_s[s], strict=True)],
                "rev_length": g.rev_length[s],
                "drawn": names[self.drawn[s]] if self.drawn[s] >= 0 else None,
                "ready": list(self.ready[s]),
                "emp": self.emp[s],
                "collected_coins": self.collected[s],
                "next_round_coins": self.carry[s],
                "coins_to_spend": self.coins[s] if self.phase == P_BUY else None,
                "overheat_chance": round(rules.overheat_chance(self, s), 6),
            }
            if simultaneous and self.pending[s] != "":
                racer["chosen"] = self.pending[s] is not None
            racers.append(racer)
        out: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "phase": PHASE_NAMES.get(self.phase, "?"),
            "track": {"id": g.track.id, "length": g.track_length, "laps": g.laps,
                      "item_spaces": sorted(g.item_spaces)},
            "items_in_play": list(g.items_in_play),
            "racers": racers,
            "supply": {names[k]: self.supply[k] for k in range(K)},
            "traps": [[sp, eff, owner] for sp, eff, owner in self.traps],
            "finished": [s for s in range(g.players) if self.status[s] == FINISHED],
        }
        if self.phase in (P_REROLL, P_GAIN, P_BOOST, P_ROLL, P_DRAW):
            out["current"] = self.cur
        if self.phase in (P_REROLL, P_GAIN):
            out["rolled"] = self.rolled
            out["rerolls_left"] = self.rerolls
        if seat is not None and simultaneous:
            if self.phase == P_BUY:
                out["my_cart"] = list(self.carts[seat])
            else:
                out["my_choice"] = self.pending[seat] or None
        return out

    def determinize(self, seat: int | None, rng: random.Random) -> RevState:
        """Redraw the other seats' pending choices and carts: all ``seat`` cannot see."""
        if self.phase not in (P_DECIDE, P_USE, P_BUY):
            return self
        new = self._clone()
        new._opts = [None] * self.g.players
        for other in range(self.g.players):
            if other == seat:
                continue
            if self.phase == P_BUY:
                done = new.pending[other]
                new.pending[other] = None
                new.carts[other] = ()
                for _ in range(rng.randrange(4)):
                    opts = rules.cart_options(new, other)
                    if not opts:
                        break
                    new.carts[other] = (*new.carts[other], rng.choice(opts))
                new.pending[other] = done
            elif new.pending[other]:
                new.pending[other] = rng.choice(self.seat_options(other))
        new.game = self.game
        new.seed = self.seed
        new.ply = self.ply
        new._history = self._history
        new._legal_cache = None
        new.events = self.events
        return new

    @property
    def result(self) -> Result | None:
        if self.phase != P_OVER:
            return None
        return rules.final_result(self)

    def invariant_problems(self) -> list[str]:
        """Chips are conserved between bags, drawn chips, Rev Tracks, discards and the supply."""
        return rules.conservation_problems(self)
