"""Scrap Racer, the rules: one ``ScrapState`` per position, read beside the rulebook.

A racer's *progress* counts the spaces it has moved since the start (0 = not yet on the track,
waiting behind the finish line); its space is ``(progress - 1) % length``. Decks and the face-down
boost markers are multisets: a draw or a reveal is a chance node weighted by the counts, so no order
is ever stored. Rule decisions (SR-* ids) are in docs/rules/scrap-racer.md.

Notation (docs/rules/scrap-racer.md has the full table):
    decisions   roll, stop, crash, boost:up, boost:down, boost:reroll, boost:turn,
                play:<bonus card>, move, done, first:<racer>, win:<racer>
    chance      die:N, dice:A-B, fight:A-B, crash:<effect>, bonus:<card>, goal:<card>,
                marker:<boost type>, racer:<racer>, start:P<n>
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from slipstream.engine.chance import DIE_OUTCOMES, DIE_TABLE, ChanceTable
from slipstream.engine.game import CHANCE, Actor, Event, Result, State

from .content import BOOST_TYPES

if TYPE_CHECKING:
    from .game import ScrapRacer

# Phases of a turn.
SETUP, ORDER, ROLL, DECIDE, CARDS, CARDS_AFTER, WAIT_CHANCE, FIGHT_CHOICE, OVER = range(9)

PM, REROLL, TURN = (BOOST_TYPES.index(t) for t in ("plus-minus", "reroll", "turn"))
DIE_ACTIONS = tuple(a for a, _ in DIE_OUTCOMES)
DIE_FACES = {a: int(a[4:]) for a in DIE_ACTIONS}
FIGHT_OUTCOMES = tuple((f"fight:{a}-{b}", 1 / 36) for a in range(1, 7) for b in range(1, 7))
TWO_DICE_OUTCOMES = tuple(
    (f"dice:{a}-{b}", (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
MARKER_ACTIONS = tuple(f"marker:{t}" for t in BOOST_TYPES)
FIGHT_TABLE = ChanceTable(FIGHT_OUTCOMES)
TWO_DICE_TABLE = ChanceTable(TWO_DICE_OUTCOMES)
FIXED_CHANCE = {"fight": FIGHT_TABLE, "back-die": DIE_TABLE, "two-dice": TWO_DICE_TABLE}
"""The chance nodes whose outcomes never change, by the kind of ``need`` they answer."""
ROLL_OR_STOP = ("roll", "stop")
ONLY_STOP = ("stop",)
ONLY_CRASH = ("crash",)
MOVE_ABILITIES = frozenset(("steel-jacket", "swifty", "twister", "crusher"))
"""The abilities checked after a racer's own move (the others act in fights or on bonus markers)."""
FORWARD_CARDS = {"forward-3": 3, "forward-5": 5, "forward-7": 7}
GOAL_MOVES = {"last-place": 7, "last-two": 5, "all-but-first": 2, "all-but-first-two": 3}

R_ROLL = "Roll the dice"
R_BOOST = "Boost markers"
R_MOVE = "A) Move the Racer, 1) Dice results and bonus cards"
R_ABILITY = "A) Move the Racer, 2) The racer's ability; Racer abilities"
R_FIGHT = "A) Move the Racer, 3) Fight"
R_CRASH = "B) Doubles Rolled, 1st Draw a crash card"
R_MARKER = "B) Doubles Rolled, 2nd Taking a bonus marker"
R_CROSS = "Crossing the finish line, 1)"
R_REFILL = "Crossing the finish line, 2)"
R_COLLECT = "Collecting Boost markers"
R_END = "End of the game and Awards Ceremony"
R_TEAM = "Changes in a 2-player game"


@cache
def die_event(name: str, nth: int, face: int) -> Event:
    """The event of a die roll (``nth``: 1 for the first die, ..., 0 for a re-roll).

    The commonest event of a race, built once per racer, die and face: events are immutable, and its
    data is a read-only mapping.
    """
    what = f"rolls die {nth}:" if nth else "re-rolls"
    return Event("die", f"{name} {what} {face}", R_ROLL if nth else R_BOOST, MappingProxyType({"die": face}))


@cache
def keep_text(name: str, dice: tuple[int, ...]) -> str:
    """The text of keeping the dice, built once per racer and dice."""
    return f"{name} keeps {' + '.join(map(str, dice))} = {sum(dice)}"


@cache
def turn_event(rnd: int, name: str, seat_name: str) -> Event:
    """The event that opens a racer's turn, built once per round, racer and seat."""
    return Event("turn", f"Round {rnd}: {name} ({seat_name}) to play", "Playing the Game")


SHARED_LISTS = ("racer", "order", "pos", "laps", "bmark", "boosts", "cards", "decks", "unseen", "stats")
"""The lists of a state, shared with the states made from it: never changed in place (see ``ScrapState``)."""


def added(values: list[int], i: int, n: int) -> list[int]:
    """A copy of ``values`` with ``n`` added at index ``i`` (copy on write: see ``ScrapState``)."""
    new = values[:]
    new[i] += n
    return new


class ScrapState(State):
    """One position of a Scrap Racer race: plain data.

    Copy on write: ``_clone`` copies only the scalars and shares every list (``SHARED_LISTS``) with the
    state it was made from, so a list is never changed in place; a change replaces it with a changed
    copy (``added``, or a new list). The resolution queue and the kept dice are tuples. Most moves (a
    die, a decision to roll on) change no list at all, and a turn copies only the lists it changes.
    ``tests/games/scrap_racer/helpers.play`` checks that no apply changes the state it was applied to.
    """

    legal_is_sorted = True

    __slots__ = (
        "bmark",
        "bonus_supply",
        "boost_supply",
        "boosts",
        "cards",
        "crossed",
        "decks",
        "dice",
        "die",
        "end_round",
        "filled",
        "g",
        "laps",
        "moved",
        "names",
        "need",
        "order",
        "owner",
        "passed",
        "phase",
        "pos",
        "queue",
        "racer",
        "rnd",
        "start_seat",
        "stats",
        "turn",
        "turns",
        "unseen",
        "winner_info",
    )

    g: ScrapRacer
    """The game, typed as this one (the engine's ``game`` is the same object)."""
    phase: int
    racer: list[str]          # racer id (ability) per racer slot; "" until drawn
    names: tuple[str, ...]    # racer name per slot (from racer; "racer N" until drawn)
    owner: tuple[int, ...]    # seat per racer slot
    order: list[int]          # turn order of racer slots (built during setup)
    pos: list[int]            # progress per racer
    laps: list[int]           # lap markers per racer
    bmark: list[int]          # bonus markers per racer
    boosts: list[int]         # boost markers held, 3 per racer (plus-minus, reroll, turn)
    cards: list[int]          # bonus cards held, one count per card type per seat
    decks: list[int]          # draw and discard counts of every deck (see Deck offsets in game.py)
    bonus_supply: int
    boost_supply: int         # face-down boost markers in the supply
    unseen: list[int]         # face-down boost markers (track and supply) by type
    filled: int               # bitmask over boost spaces that hold a face-down marker
    turn: int                 # index into order of the active racer
    rnd: int                  # round number, from 1
    turns: int                # turns completed
    end_round: int            # the round in which the end was triggered, 0 if not yet
    dice: tuple[int, ...]     # the dice kept this turn
    die: int                  # the die just rolled (0 when none)
    passed: bool              # the active racer passed a space with another racer this turn
    moved: tuple[int, ...]    # the racers moved this turn, each once, the last moved last (who "moved in")
    crossed: bool             # some racer crossed the finish line this turn
    queue: tuple[tuple[Any, ...], ...]  # the steps still to resolve this turn
    need: tuple[Any, ...]     # the chance node or choice being waited for
    start_seat: int
    stats: list[int]          # counters for race metrics (see STAT_* in game.py)
    winner_info: tuple[Any, ...]

    # --- the engine hooks ------------------------------------------------------------------

    def _clone(self) -> ScrapState:
        """A copy that shares the lists (never changed in place: see the class)."""
        new = ScrapState()
        new.g = self.g
        new.phase = self.phase
        new.racer = self.racer
        new.names = self.names
        new.owner = self.owner
        new.order = self.order
        new.pos = self.pos
        new.laps = self.laps
        new.bmark = self.bmark
        new.boosts = self.boosts
        new.cards = self.cards
        new.decks = self.decks
        new.bonus_supply = self.bonus_supply
        new.boost_supply = self.boost_supply
        new.unseen = self.unseen
        new.filled = self.filled
        new.turn = self.turn
        new.rnd = self.rnd
        new.turns = self.turns
        new.end_round = self.end_round
        new.dice = self.dice
        new.die = self.die
        new.passed = self.passed
        new.moved = self.moved
        new.crossed = self.crossed
        new.queue = self.queue
        new.need = self.need
        new.start_seat = self.start_seat
        new.stats = self.stats
        new.winner_info = self.winner_info
        return new

    def _actor(self) -> Actor:
        phase = self.phase  # the commonest phases first
        if phase in (ROLL, WAIT_CHANCE):
            return CHANCE
        if phase in (DECIDE, CARDS, CARDS_AFTER):
            return self.owner[self.order[self.turn]]
        if phase == OVER:
            return None
        if phase == SETUP:
            return CHANCE
        if phase == ORDER:
            return self._order_chooser()
        # FIGHT_CHOICE
        return self.owner[int(self.need[1])]

    def _chance_table(self) -> ChanceTable | None:
        """The fixed outcomes of a die roll, a fight roll or two dice (None at other nodes)."""
        phase = self.phase
        if phase == ROLL:
            return DIE_TABLE
        if phase == WAIT_CHANCE:
            return FIXED_CHANCE.get(self.need[0])
        return None

    def _chance(self) -> list[tuple[str, float]]:
        g = self.g
        table = self._chance_table()
        if table is not None:
            return list(table.outcomes)
        if self.phase == SETUP:
            if self.need[0] == "racer":
                left = sorted(set(g.racer_ids) - set(self.racer))
                return [(f"racer:{r}", 1 / len(left)) for r in left]
            return [(f"start:P{s + 1}", 1 / g.players) for s in range(g.players)]
        kind = self.need[0]
        if kind == "marker":
            total = sum(self.unseen)
            return [(a, n / total) for a, n in zip(MARKER_ACTIONS, self.unseen, strict=True) if n]
        deck = g.deck_for(self.need)
        counts = self.decks[deck.draw: deck.draw + len(deck.cards)]
        total = sum(counts)
        return [(a, n / total) for a, n in zip(deck.actions, counts, strict=True) if n]

    def _legal(self) -> Sequence[str]:
        """The legal actions, already sorted (``legal_is_sorted``); constant tuples where they can be."""
        phase = self.phase
        if phase == ROLL:
            return DIE_ACTIONS
        if phase == DECIDE:
            return self._decide_actions()
        if phase in (WAIT_CHANCE, SETUP):
            table = self._chance_table()
            if table is not None:
                return table.actions
            return [a for a, _ in self._chance()]
        if phase == OVER:
            return []
        if phase in (CARDS, CARDS_AFTER):
            seat = self.owner[self.order[self.turn]]
            plays = [f"play:{c}" for c in self._playable(seat)]
            return ["move", *plays] if phase == CARDS else ["done", *plays]
        if phase == ORDER:
            seat = self._order_chooser()
            return sorted(f"first:{self.racer[r]}" for r in self.g.racers_of(seat))
        # FIGHT_CHOICE
        return sorted([f"win:{self.racer[self.need[1]]}", f"win:{self.racer[self.need[2]]}"])

    def _do(self, action: str) -> list[Event]:
        ev: list[Event] = []
        phase = self.phase
        if phase == ROLL:
            self._on_die(DIE_FACES[action], ev)
            return ev
        head, _, arg = action.partition(":")
        if phase == DECIDE:
            self._on_decide(head, arg, ev)
        elif phase in (CARDS, CARDS_AFTER):
            self._on_cards(head, arg, ev)
        elif phase == WAIT_CHANCE:
            self._on_chance(head, arg, ev)
        elif phase == SETUP:
            self._on_setup(head, arg, ev)
        elif phase == ORDER:
            self._on_order(arg, ev)
        elif phase == FIGHT_CHOICE:
            winner = self.need[1] if self.racer[self.need[1]] == arg else self.need[2]
            loser = self.need[2] if winner == self.need[1] else self.need[1]
            ev.append(Event("fight", f"{self.g.seat_name(self.owner[winner])} lets {self.names[winner]} "
                            f"win the fight against {self.names[loser]}", R_TEAM))
            self._win_fight(winner, 1, ev)
            self._run(ev)
        return ev

    @property
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        order, winners, reason = self.winner_info
        return Result(order=order, winners=winners, reason=reason,
                      details={"progress": list(self.pos), "laps": list(self.laps), "racers": list(self.racer)})

    # --- small helpers ---------------------------------------------------------------------

    def name(self, r: int) -> str:
        """The racer's name ("racer N" until its dashboard is drawn)."""
        return self.names[r]

    def _racer_names(self) -> tuple[str, ...]:
        """Every slot's racer name, for ``names`` (set whenever ``racer`` changes, during setup)."""
        names = self.g.racer_names
        return tuple(names.get(rid) or f"racer {r + 1}" for r, rid in enumerate(self.racer))

    def space(self, r: int) -> int:
        """The 0-based space of an on-track racer."""
        return (self.pos[r] - 1) % self.g.length

    def on_track(self, r: int) -> bool:
        return self.pos[r] > 0

    @property
    def active(self) -> int:
        return self.order[self.turn]

    def standings(self) -> list[int]:
        """Racers from first to last: by progress; racers not yet on the track by turn order."""
        n = len(self.pos)
        if len(self.order) == n:  # a stable sort keeps the turn order among racers with equal progress
            return sorted(self.order, key=self.pos.__getitem__, reverse=True)
        rank = {r: i for i, r in enumerate(self.order)}
        return sorted(range(n), key=lambda r: (-self.pos[r], rank.get(r, n + r)))

    def _order_chooser(self) -> int:
        if not self.order:
            return self.start_seat
        return (self.owner[self.order[-1]] + 1) % self.g.players

    # --- setup -------------------------------------------------------------------------------

    def _on_setup(self, head: str, arg: str, ev: list[Event]) -> None:
        g = self.g
        if head == "racer":
            slot = self.racer.index("")
            self.racer = [*self.racer[:slot], arg, *self.racer[slot + 1:]]
            self.names = self._racer_names()
            ev.append(Event("setup", f"{g.seat_name(self.owner[slot])} draws the dashboard of {self.names[slot]}",
                            "Setup 7)"))
        else:
            self.start_seat = int(arg[1:]) - 1
            ev.append(Event("setup", f"{g.seat_name(self.start_seat)} is the start player", "Setup 8)"))
        self._setup_next(ev)

    def _setup_next(self, ev: list[Event]) -> None:
        """Move on from setup once every dashboard is drawn and the start player is known."""
        if "" in self.racer:
            self.need = ("racer",)
            return
        if self.start_seat < 0:
            self.need = ("start",)
            return
        g = self.g
        if g.per_player == 1:
            self.order = [r for k in range(g.players) for r in g.racers_of((self.start_seat + k) % g.players)]
            self._begin_turn(ev)
        else:
            self.phase = ORDER

    def _on_order(self, arg: str, ev: list[Event]) -> None:
        seat = self._order_chooser()
        mine = self.g.racers_of(seat)
        first = next(r for r in mine if self.racer[r] == arg)
        self.order = [*self.order, first, *(r for r in mine if r != first)]
        ev.append(Event("order", f"{self.g.seat_name(seat)} sends {self.names[first]} first", R_TEAM))
        self._begin_turn(ev)

    # --- rolling the dice ----------------------------------------------------------------------

    def _begin_turn(self, ev: list[Event]) -> None:
        if self.turn >= len(self.order):
            self.phase = ORDER
            return
        self.dice = ()
        self.die = 0
        self.passed = False
        self.moved = ()
        self.crossed = False
        self.queue = ()
        self.phase = ROLL
        r = self.order[self.turn]
        ev.append(turn_event(self.rnd, self.names[r], self.g.seat_names[self.owner[r]]))

    def _on_die(self, face: int, ev: list[Event]) -> None:
        nth = 0 if self.die else len(self.dice) + 1  # 0: a re-roll
        self.die = face
        ev.append(die_event(self.names[self.order[self.turn]], nth, face))
        self._after_die(ev)

    def _after_die(self, ev: list[Event]) -> None:
        """With boost markers the player may change the die first; otherwise it is checked at once."""
        b, i = self.boosts, 3 * self.order[self.turn]
        if b[i] + b[i + 1] + b[i + 2]:  # holds boost markers
            self.phase = DECIDE
        elif self.die in self.dice:  # a double
            self._begin_crash(ev)
        elif len(self.dice) == 5:
            self._keep(ev)
        else:
            self.phase = DECIDE

    def _decide_actions(self) -> Sequence[str]:
        """After a die: change it with a boost marker, or accept it (crash, roll again or stop)."""
        if self.die in self.dice:  # a double
            acts: Sequence[str] = ONLY_CRASH
        elif len(self.dice) == 5:
            acts = ONLY_STOP
        else:
            acts = ROLL_OR_STOP
        r = 3 * self.order[self.turn]
        b = self.boosts
        if b[r] + b[r + 1] + b[r + 2]:
            die = self.die
            boosts = []
            if b[r + PM] and die > 1:
                boosts.append("boost:down")
            if b[r + REROLL]:
                boosts.append("boost:reroll")
            if b[r + TURN]:
                boosts.append("boost:turn")
            if b[r + PM] and die < 6:
                boosts.append("boost:up")
            return [*boosts, *acts]
        return acts

    def _on_decide(self, head: str, arg: str, ev: list[Event]) -> None:
        if head == "boost":
            self._use_boost(self.order[self.turn], arg, ev)
        elif head == "roll":
            self.dice = (*self.dice, self.die)
            self.die = 0
            self.phase = ROLL
        elif head == "stop":
            self._keep(ev)
        else:  # crash
            self._begin_crash(ev)

    def _use_boost(self, r: int, how: str, ev: list[Event]) -> None:
        """Boost markers: used on the die just rolled, before the doubles check, then removed."""
        kind = {"up": PM, "down": PM, "reroll": REROLL, "turn": TURN}[how]
        self.boosts = added(self.boosts, 3 * r + kind, -1)
        self.stats = added(self.stats, self.g.STAT_BOOSTS, 1)
        if how == "reroll":
            ev.append(Event("boost", f"{self.names[r]} uses a Re-roll marker", f"{R_BOOST}: Re-roll"))
            self.phase = ROLL
            return
        old = self.die
        self.die = old + 1 if how == "up" else old - 1 if how == "down" else 7 - old
        label = "Turn" if how == "turn" else "+/- 1"
        ev.append(Event("boost", f"{self.names[r]} uses a {label} marker: {old} becomes {self.die}",
                        f"{R_BOOST}: {label}", {"die": self.die}))
        self._after_die(ev)

    def _keep(self, ev: list[Event]) -> None:
        """Keep the dice: A) Move the Racer."""
        self.dice = (*self.dice, self.die)
        self.die = 0
        ev.append(Event("keep", keep_text(self.names[self.order[self.turn]], self.dice), R_ROLL,
                        {"dice": list(self.dice)}))
        self.phase = CARDS
        self._cards_or_skip(ev)

    # --- A) Move the racer ---------------------------------------------------------------------

    def _cards_or_skip(self, ev: list[Event]) -> None:
        """Bonus cards may be played before and after the dice move; a seat without any is not asked.

        The window opens whenever the seat holds a card (public: the number of cards is open), so
        that it tells no other seat whether the cards held can be played now.
        """
        if self._holds_cards(self.owner[self.order[self.turn]]):
            return
        if self.phase == CARDS:
            self._dice_move(ev)
        self._after_move(ev)

    def _holds_cards(self, seat: int) -> bool:
        n = self.g.n_bonus_cards
        return any(self.cards[seat * n: (seat + 1) * n])

    def _playable(self, seat: int) -> list[str]:
        g = self.g
        n = len(g.bonus_deck.cards)
        base = seat * n
        if not any(self.cards[base: base + n]):
            return []
        out = []
        for i, card in enumerate(g.bonus_deck.cards):
            if self.cards[base + i] and self._card_target(self.active, card) is not None:
                out.append(card)
        return out

    def _card_target(self, r: int, card: str) -> int | None:
        """The progress a bonus card takes racer ``r`` to, or None when it cannot be played."""
        pos = self.pos[r]
        if card in FORWARD_CARDS:
            return pos + FORWARD_CARDS[card]
        track = self.g.track
        length = track.length
        if card in ("straight", "curve"):
            want = "S" if card == "straight" else "C"
            for step in range(1, length + 1):
                if track.kinds[(pos + step - 1) % length] == want:
                    return pos + step
            return None
        here = (pos - 1) % length
        best = None
        for o in range(len(self.pos)):
            if o != r and self.pos[o] > 0:
                d = (self.space(o) - here) % length
                if d and (best is None or d < best):
                    best = d
        return None if best is None else pos + best

    def _on_cards(self, head: str, arg: str, ev: list[Event]) -> None:
        r = self.active
        if head == "play":
            g = self.g
            seat = self.owner[r]
            i = g.bonus_deck.cards.index(arg)
            self.cards = added(self.cards, seat * g.n_bonus_cards + i, -1)
            self.decks = added(self.decks, g.bonus_deck.discard + i, 1)
            self.stats = added(self.stats, g.STAT_CARDS_PLAYED, 1)
            target = self._card_target(r, arg)
            if target is None:  # pragma: no cover - only playable cards are legal
                raise RuntimeError(f"bonus card {arg} has no target")
            ev.append(Event("bonus-card", f"{self.names[r]} plays the bonus card {g.card_title(arg)}",
                            "Bonus cards", {"card": arg}))
            self._forward(r, target - self.pos[r], ev, own_turn=True)
            if not self._holds_cards(seat):
                if self.phase == CARDS:
                    self._dice_move(ev)
                self._after_move(ev)
        elif head == "move":
            self._dice_move(ev)
            self.phase = CARDS_AFTER
            self._cards_or_skip(ev)
        else:  # done
            self._after_move(ev)

    def _dice_move(self, ev: list[Event]) -> None:
        self._forward(self.order[self.turn], sum(self.dice), ev, own_turn=True)
        self.phase = CARDS_AFTER

    def _after_move(self, ev: list[Event]) -> None:
        r = self.order[self.turn]
        self.queue = (("ability",), ("fights", r), ("crossings",), ("refill",), ("collect",), ("end",))
        self._run(ev)

    def _forward(self, r: int, n: int, ev: list[Event], own_turn: bool = False, rule: str = R_MOVE) -> None:
        """Move racer ``r`` forward ``n`` spaces, counting occupied spaces too."""
        if n <= 0:
            return
        start = self.pos[r]
        end = start + n
        self.pos = added(self.pos, r, n)
        self._moved(r)
        if own_turn and not self.passed:
            self.passed = self._passes_someone(r, start, end)
        where = "enters the track and " if start == 0 else ""
        space = (end - 1) % self.g.length + 1
        ev.append(Event("move", f"{self.names[r]} {where}moves {n} forward to space {space}", rule,
                        {"racer": self.racer[r], "from": start, "to": end}))

    def _moved(self, r: int) -> None:
        """Note that racer ``r`` moved: of racers sharing a space, the one moved last is the one that moved in."""
        moved = self.moved
        if not moved:
            self.moved = (r,)  # the turn's first move, most often its only mover
        elif moved[-1] != r:
            self.moved = (*(x for x in moved if x != r), r)

    def _passes_someone(self, r: int, start: int, end: int) -> bool:
        """Does a move from ``start`` to ``end`` pass (not land on) a space with another racer?

        The space it leaves counts too (SR-A4): it is shared only after an earlier move of this turn
        (Catch up), and moving on passes that racer. A racer entering the track leaves no space.
        """
        length = self.g.length
        n = end - start
        lo = 0 if start > 0 else 1
        pos = self.pos
        for o in range(len(pos)):
            q = pos[o]
            if o != r and q > 0 and (n > length or lo <= (q - start) % length < n):
                return True
        return False

    def _backward(self, r: int, n: int, ev: list[Event], rule: str) -> None:
        """Move back ``n`` spaces, never behind the finish line (SR-A1); off-track racers stay."""
        start = self.pos[r]
        if start == 0 or n <= 0:
            return
        length = self.g.length
        floor = (start - 1) // length * length + 1
        self.pos = added(self.pos, r, max(start - n, floor) - start)
        moved = start - self.pos[r]
        if moved:
            self._moved(r)
        note = " (stopped at the finish line)" if moved < n else ""
        ev.append(Event("move", f"{self.names[r]} moves {moved} back to space {self.space(r) + 1}{note}", rule,
                        {"racer": self.racer[r], "from": start, "to": self.pos[r]}))

    # --- the resolution queue -------------------------------------------------------------------

    def _run(self, ev: list[Event]) -> None:
        """Resolve queued steps until one waits for a chance outcome or a choice, or the turn ends."""
        self.phase = WAIT_CHANCE
        while self.queue:
            step, self.queue = self.queue[0], self.queue[1:]
            kind = step[0]
            if kind == "ability":  # the steps of every turn first, in their order, then the others
                self._ability(ev)
            elif kind == "fights":
                if self._fight_next(step[1], ev):
                    return
            elif kind == "crossings":
                if self._crossing_next(ev):
                    return
            elif kind == "refill":
                if self.crossed:
                    self._refill(ev)
            elif kind == "collect":
                if self._reveal(self.order[self.turn], ev):  # the active racer collects a boost marker
                    return
            elif kind == "end":
                self._end_turn(ev)
                return
            elif kind == "marker":
                if self._take_marker(step[1], ev):
                    return
            elif kind == "reveal" and self._reveal(step[1], ev):
                return

    def _wait(self, need: tuple[Any, ...]) -> bool:
        self.need = need
        self.phase = WAIT_CHANCE
        return True

    def _on_chance(self, head: str, arg: str, ev: list[Event]) -> None:
        """A chance outcome arrived for the step that waits for it; then the queue resumes."""
        need = self.need
        kind = need[0]
        waiting = False
        if kind == "fight":
            waiting = self._fight_roll(need[1], need[2], arg, ev)
        elif kind == "crash":
            waiting = self._crash_card(need[1], arg, ev)
        elif kind == "two-dice":
            a, b = (int(x) for x in arg.split("-"))
            ev.append(Event("dice", f"{self.names[self.active]} rolls two dice: {a} + {b}",
                            "Crash cards: 2 dice", {"dice": [a, b]}))
            self._forward(self.active, a + b, ev, rule="Crash cards: 2 dice")
        elif kind == "back-die":
            n = int(arg)
            ev.append(Event("dice", f"{self.names[self.active]} rolls the backwards die: {n}",
                            "Crash cards: Backwards die", {"die": n}))
            self._backward(self.active, n, ev, "Crash cards: Backwards die")
        elif kind == "bonus":
            self._bonus_card_drawn(need[1], arg, ev)
        elif kind == "goal":
            self._goal_card(need[1], arg, ev)
        else:  # marker
            self._marker_revealed(need[1], need[2], arg, ev)
        if not waiting:
            self._run(ev)

    # --- abilities and fights -------------------------------------------------------------------

    def _ability(self, ev: list[Event]) -> None:
        """2) The racer's ability, checked after the move (never on a crash turn)."""
        r = self.order[self.turn]
        ability = self.racer[r]
        if ability not in MOVE_ABILITIES or not self.on_track(r):
            return
        kind = self.g.track.kinds[self.space(r)]
        if (ability == "steel-jacket" and kind == "S") or (ability == "swifty" and kind == "C"):
            self._forward(r, 1, ev, rule=f"Racer abilities: {self.names[r]}")
        elif ability == "twister" and self.passed:
            self._forward(r, 1, ev, rule="Racer abilities: Twister")
        elif ability == "crusher" and self.passed:
            ev.append(Event("ability", "Crusher passed another racer: takes a bonus marker",
                            "Racer abilities: Crusher"))
            self.queue = (("marker", r), *self.queue)

    def _crowd(self, mover: int) -> tuple[int, int] | None:
        """The next two racers that must fight (SR-A7), or None when every racer has a space of its own.

        The crowd of ``mover`` (the racer that just moved: the active racer, a fight's winner, a pushed
        racer, the racer that drew a goal card) first, else the crowd farthest ahead. In the crowd, the
        racer moved last this turn is the one that moved in ("a racer lands on a space with another
        racer"); it fights the other racer there that is earliest in turn order.
        """
        pos = self.pos
        length = self.g.length
        if len({(p - 1) % length for p in pos if p > 0}) == len(pos) - pos.count(0):
            return None  # every racer on the track has a space of its own
        by_space: dict[int, list[int]] = {}
        for r in range(len(pos)):
            if pos[r] > 0:
                by_space.setdefault((pos[r] - 1) % length, []).append(r)
        crowded = [rs for rs in by_space.values() if len(rs) > 1]
        if not crowded:
            return None
        crowd = max(crowded, key=lambda rs: max(pos[o] for o in rs))
        for rs in crowded:
            if mover in rs:
                crowd = rs
        rank = {r: i for i, r in enumerate(self.order)}
        lander = crowd[0]  # every crowd holds a racer moved this turn (no two racers share a space between turns)
        for r in self.moved:
            if r in crowd:
                lander = r
        other = min((o for o in crowd if o != lander), key=lambda o: rank.get(o, o))
        return lander, other

    def _fight_next(self, mover: int, ev: list[Event]) -> bool:
        """3) Fight: racers sharing a space fight until every racer has a space of its own."""
        pair = self._crowd(mover)
        if pair is None:
            return False
        a, b = pair
        self.stats = added(self.stats, self.g.STAT_FIGHTS, 1)
        jackal = a if self.racer[a] == "jackal" else b if self.racer[b] == "jackal" else None
        if jackal is not None:
            other = b if jackal == a else a
            ev.append(Event("fight", f"{self.names[jackal]} wins the fight against {self.names[other]} "
                            "automatically and moves 2", "Racer abilities: Jackal (SR-A2, SR-A3)"))
            self._win_fight(jackal, 2, ev)
            return False
        if self.g.per_player > 1 and self.owner[a] == self.owner[b]:
            self.need = ("own-fight", a, b)
            self.phase = FIGHT_CHOICE
            return True
        return self._wait(("fight", a, b))

    def _fight_roll(self, a: int, b: int, arg: str, ev: list[Event]) -> bool:
        """Both racers roll a die; the higher advances one space; a tie rolls again (True: waiting)."""
        da, db = (int(x) for x in arg.split("-"))
        ev.append(Event("fight-roll", f"Fight: {self.names[a]} rolls {da}, {self.names[b]} rolls {db}", R_FIGHT,
                        {"dice": [da, db]}))
        if da == db:
            ev.append(Event("fight-tie", "A tie: both roll again", R_FIGHT))
            return True
        self._win_fight(a if da > db else b, 1, ev)
        return False

    def _win_fight(self, winner: int, spaces: int, ev: list[Event]) -> None:
        """The winner advances; if it lands on another racer, a new fight follows."""
        self._forward(winner, spaces, ev, rule=R_FIGHT)
        self.queue = (("fights", winner), *self.queue)

    # --- B) doubles rolled ------------------------------------------------------------------------

    def _begin_crash(self, ev: list[Event]) -> None:
        g = self.g
        pile = g.pile_of_double[self.die]
        self.stats = added(self.stats, g.STAT_CRASH + pile, 1)
        ev.append(Event("double", f"{self.names[self.active]} rolled a double {self.die}: "
                        f"a crash card from the {g.pile_label(pile)} pile", R_CRASH, {"die": self.die}))
        self.dice = (*self.dice, self.die)
        self.die = 0
        r = self.order[self.turn]
        self.queue = (("fights", r), ("marker", r), ("crossings",), ("refill",), ("collect",), ("end",))
        self._wait(("crash", pile))

    def _draw(self, deck_need: tuple[Any, ...], card: str) -> None:
        """Take a drawn card off its deck; crash cards go to the discard pile at once."""
        deck = self.g.deck_for(deck_need)
        i = deck.cards.index(card)
        self.decks = added(self.decks, deck.draw + i, -1)
        if deck.discard_on_draw:
            self.decks = added(self.decks, deck.discard + i, 1)
        self._reshuffle_if_empty(deck_need)

    def _reshuffle_if_empty(self, deck_need: tuple[Any, ...]) -> None:
        """An empty draw pile takes its discard pile as a new (shuffled) deck."""
        deck = self.g.deck_for(deck_need)
        n = len(deck.cards)
        if sum(self.decks[deck.draw: deck.draw + n]) == 0:
            d = self.decks[:]  # copy on write
            d[deck.draw: deck.draw + n] = d[deck.discard: deck.discard + n]
            d[deck.discard: deck.discard + n] = [0] * n
            self.decks = d

    def _crash_card(self, pile: int, effect: str, ev: list[Event]) -> bool:
        """Apply a crash card's effect (True: it waits for a die roll)."""
        self._draw(("crash", pile), effect)
        r = self.active
        g = self.g
        rule = f"Crash cards: {g.card_title(effect)}"
        ev.append(Event("crash-card", f"Crash card: {g.card_title(effect)}", rule, {"card": effect}))
        if effect.startswith("advance-") or effect == "three-forward":
            self._forward(r, 3 if effect == "three-forward" else int(effect[-1]), ev, rule=rule)
        elif effect == "two-dice":
            return self._wait(("two-dice",))
        elif effect == "five-forward-two-back":
            front = self._neighbour(r, -1)
            if front is not None:
                self._backward(front, 2, ev, rule)
            self._forward(r, 5, ev, rule=rule)
        elif effect.startswith("catching-up-"):
            behind = self._neighbour(r, +1)
            if behind is not None:
                self._forward(behind, int(effect[-1]), ev, rule=rule)
        elif effect == "backwards-die":
            return self._wait(("back-die",))
        elif effect == "push-5":
            self._push(r, ev, rule)
        elif effect.startswith("backwards-"):
            self._backward(r, int(effect[-1]), ev, rule)
        elif effect == "loss-of-position":
            self._loss_of_position(r, ev, rule)
        elif effect == "last-place-4":
            self._forward(self.standings()[-1], 4, ev, rule=rule)
        # stay-put: nothing moves
        return False

    def _neighbour(self, r: int, step: int) -> int | None:
        """The racer directly in front of (-1) or behind (+1) racer ``r`` in the standings."""
        order = self.standings()
        i = order.index(r) + step
        return order[i] if 0 <= i < len(order) else None

    def _push(self, r: int, ev: list[Event], rule: str) -> None:
        """Push 5: forward up to 5, stopping on a racer, who is pushed 2 spaces on."""
        length = self.g.length
        start = self.pos[r]
        for step in range(1, 6):
            here = (start + step - 1) % length
            hit = [o for o in range(len(self.pos)) if o != r and self.pos[o] > 0 and self.space(o) == here]
            if hit:
                self._forward(r, step, ev, rule=rule)
                self._forward(hit[0], 2, ev, rule=rule)
                self.queue = (("fights", hit[0]), *self.queue[1:])  # the pushed racer fights
                return
        self._forward(r, 5, ev, rule=rule)

    def _loss_of_position(self, r: int, ev: list[Event], rule: str) -> None:
        """Loss of position: just behind the last racer, never behind the finish line (SR-A1)."""
        last = self.standings()[-1]
        if last == r or self.pos[r] == 0:
            return
        self._backward(r, self.pos[r] - (self.pos[last] - 1), ev, rule)

    def _take_marker(self, r: int, ev: list[Event]) -> bool:
        """Take a bonus marker; the third (Hover: second) becomes a hidden bonus card (the numbers are content)."""
        if self.bonus_supply == 0:
            ev.append(Event("marker", "No bonus markers left in the supply", f"{R_MARKER} (SR-G7)"))
            return False
        self.bonus_supply -= 1
        self.bmark = added(self.bmark, r, 1)
        need = self.g.hover_markers_per_card if self.racer[r] == "hover" else self.g.markers_per_card
        ev.append(Event("marker", f"{self.names[r]} takes bonus marker {self.bmark[r]} of {need}", R_MARKER))
        if self.bmark[r] < need:
            return False
        self.bonus_supply += self.bmark[r]
        self.bmark = added(self.bmark, r, -self.bmark[r])
        deck = self.g.bonus_deck
        self._reshuffle_if_empty(("bonus",))
        if sum(self.decks[deck.draw: deck.draw + len(deck.cards)]) == 0:
            ev.append(Event("marker", "The bonus deck is empty: no card", R_MARKER))
            return False
        return self._wait(("bonus", self.owner[r]))

    def _bonus_card_drawn(self, seat: int, card: str, ev: list[Event]) -> None:
        g = self.g
        self._draw(("bonus",), card)
        self.cards = added(self.cards, seat * g.n_bonus_cards + g.bonus_deck.cards.index(card), 1)
        self.stats = added(self.stats, g.STAT_CARDS_DRAWN, 1)
        ev.append(Event("bonus-draw", f"{g.seat_name(seat)} draws a bonus card", R_MARKER))
        ev.append(Event("bonus-draw", f"{g.seat_name(seat)} draws the bonus card {g.card_title(card)}", R_MARKER,
                        {"card": card}, frozenset((seat,))))

    # --- crossing the finish line and boost markers ---------------------------------------------

    def _crossing_next(self, ev: list[Event]) -> bool:
        """Lap markers and goal cards, one racer at a time clockwise from the active one (SR-A11)."""
        length = self.g.length
        order, pos, laps, turn = self.order, self.pos, self.laps, self.turn
        n = len(order)
        for k in range(n):
            r = order[(turn + k) % n]
            p = pos[r]
            if laps[r] < 3 and p > (laps[r] + 1) * length:  # (p - 1) // length > laps[r]
                self.crossed = True
                self.laps = laps = added(laps, r, 1)
                ev.append(Event("lap", f"{self.names[r]} crosses the finish line: lap marker {self.laps[r]}", R_CROSS,
                                {"racer": self.racer[r], "laps": self.laps[r]}))
                self.queue = (("crossings",), *self.queue)
                if self.laps[r] == 3:
                    if not self.end_round:
                        self.end_round = self.rnd
                        ev.append(Event("end", f"{self.names[r]} has three lap markers: the race ends when the "
                                        "round is complete", R_END))
                    return False
                self.queue = (("fights", r), *self.queue)
                return self._wait(("goal", r))
        return False

    def _goal_card(self, r: int, card: str, ev: list[Event]) -> None:
        g = self.g
        self._draw(("goal",), card)
        rule = f"Goal cards: {g.card_title(card)}"
        ev.append(Event("goal-card", f"{self.names[r]} draws the goal card {g.card_title(card)}", rule, {"card": card}))
        order = self.standings()
        if card == "last-place":
            movers = order[-1:]
        elif card == "last-two":
            movers = order[-2:]
        elif card == "all-but-first":
            movers = order[1:]
        else:
            movers = order[2:]
        for m in movers:
            self._forward(m, GOAL_MOVES[card], ev, rule=rule)

    def _refill(self, ev: list[Event]) -> None:
        """After a crossing (``crossed``), empty boost spaces are refilled from the finite supply, from the
        line on."""
        boost = self.g.track.boost
        reveals = []
        for i, space in enumerate(boost):
            if self.boost_supply == 0:
                break
            if not self.filled >> i & 1:
                self.filled |= 1 << i
                self.boost_supply -= 1
                ev.append(Event("refill", f"A boost marker is placed face down on space {space + 1}", R_REFILL))
                for r in range(len(self.pos)):
                    if self.pos[r] > 0 and self.space(r) == space:
                        reveals.append(("reveal", r))
        self.queue = (*reveals, *self.queue)

    def _reveal(self, r: int, ev: list[Event]) -> bool:
        """A racer on a filled boost space reveals (collects) the marker: at the end of the active racer's
        turn, and for a racer on a space just refilled."""
        if self.pos[r] == 0:
            return False
        i = self.g.boost_slot.get(self.space(r))
        if i is None or not self.filled >> i & 1:
            return False
        return self._wait(("marker", r, i))

    def _marker_revealed(self, r: int, i: int, kind: str, ev: list[Event]) -> None:
        t = BOOST_TYPES.index(kind)
        self.filled &= ~(1 << i)
        self.unseen = added(self.unseen, t, -1)
        self.boosts = added(self.boosts, 3 * r + t, 1)
        ev.append(Event("boost-collect", f"{self.names[r]} collects a boost marker: {self.g.card_title(kind)}",
                        R_COLLECT, {"racer": self.racer[r], "marker": kind}))

    # --- the end of a turn and of the race --------------------------------------------------------

    def _end_turn(self, ev: list[Event]) -> None:
        self.turns += 1
        self.turn += 1
        self.dice = ()
        self.die = 0
        self.need = ()
        if self.turn == len(self.pos):
            self.turn = 0
            if self.end_round:
                self._finish(ev)
                return
            self.rnd += 1
        self._begin_turn(ev)

    def _finish(self, ev: list[Event]) -> None:
        self.phase = OVER
        self.need = ()
        g = self.g
        standings = self.standings()
        if g.per_player == 1:
            order = tuple(self.owner[r] for r in standings)
            leader = standings[0]
            reason = (f"{self.names[leader]} ({g.seat_name(self.owner[leader])}) completed three laps and is "
                      "farthest ahead")
        else:
            order, reason = self._team_order(standings)
        self.winner_info = (order, (order[0],), reason)
        ev.append(Event("result", f"The race is over: {reason}", R_END, {"order": list(order)}))

    def _team_order(self, standings: list[int]) -> tuple[tuple[int, ...], str]:
        """2-player (and 3-player two-racer) winner: lap-3 racers first, then the second racer (SR-A12)."""
        g = self.g
        place = {r: i for i, r in enumerate(standings)}

        def key(seat: int) -> tuple[int, int, int]:
            mine = g.racers_of(seat)
            finished = sum(1 for r in mine if self.laps[r] >= 3)
            rear = max(place[r] for r in mine)
            front = min(place[r] for r in mine)
            return (-finished, rear, front)

        order = tuple(sorted(range(g.players), key=key))
        best = order[0]
        finishers = [s for s in range(g.players) if key(s)[0] < 0]
        if len(finishers) == 1:
            reason = f"{g.seat_name(best)} is the only player with a racer that completed three laps"
        else:
            reason = f"{g.seat_name(best)}'s second racer is farthest ahead"
        return order, reason

    # --- views ------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        g = self.g
        ncards = len(g.bonus_deck.cards)
        actor = self._actor()
        racers = []
        for r in range(len(self.pos)):
            racers.append({
                "slot": r,
                "id": self.racer[r],
                "name": self.names[r] if self.racer[r] else "",
                "seat": self.owner[r],
                "progress": self.pos[r],
                "space": self.space(r) if self.pos[r] else None,
                "laps": self.laps[r],
                "bonus_markers": self.bmark[r],
                "boost_markers": {t: self.boosts[3 * r + i] for i, t in enumerate(BOOST_TYPES)},
            })
        hands = {}
        for s in range(g.players):
            counts = self.cards[s * ncards:(s + 1) * ncards]
            hands[str(s)] = sum(counts)
        mine = None
        if seat is not None:
            counts = self.cards[seat * ncards:(seat + 1) * ncards]
            mine = {c: n for c, n in zip(g.bonus_deck.cards, counts, strict=True) if n}
        pending = None
        if actor == seat and seat is not None:
            pending = self.legal_actions()
        return {
            "game": g.id,
            "track": {"name": g.track.name, "length": g.track.length, "kinds": g.track.kinds,
                      "boost_spaces": list(g.track.boost)},
            "seat": seat,
            "seats": [g.seat_name(s) for s in range(g.players)],
            "racers": racers,
            "order": list(self.order),
            "standings": self.standings(),
            "active": self.active if self.phase not in (SETUP, ORDER) and self.order else None,
            "phase": ("setup", "order", "roll", "decide", "cards", "cards-after", "resolving", "fight-choice",
                      "over")[self.phase],
            "round": self.rnd,
            "end_round": self.end_round,
            "dice": list(self.dice),
            "die": self.die or None,
            "double_chance": self.double_chance(),
            "boost_spaces_filled": [s for i, s in enumerate(g.track.boost) if self.filled >> i & 1],
            "supply": {"bonus_markers": self.bonus_supply, "boost_markers": self.boost_supply},
            "decks": {name: sum(self.decks[d.draw: d.draw + len(d.cards)]) for name, d in g.deck_table()},
            "bonus_cards_held": hands,
            "my_bonus_cards": mine,
            "actor": sorted(actor) if isinstance(actor, frozenset) else actor,
            "legal_actions": pending,
            "events": self.visible_events(seat),
            "result": self.result.to_json() if self.result else None,
        }

    def double_chance(self) -> float:
        """The chance that the next die rolled makes a double, before boost markers."""
        kept = set(self.dice)
        if self.die:
            kept.add(self.die)
        return len(kept) / 6

    def determinize(self, seat: int | None, rng: random.Random) -> ScrapState:
        """Redeal the bonus cards ``seat`` cannot see (other hands and the deck) at random."""
        g = self.g
        n = len(g.bonus_deck.cards)
        new = self._clone()
        new.cards, new.decks = self.cards[:], self.decks[:]  # changed in place below: copies
        new.game, new.seed, new.ply = self.g, self.seed, self.ply
        new._history, new._legal_cache, new.events = self._history, None, self.events
        hidden = [s for s in range(g.players) if s != seat]
        pool: list[int] = []
        for s in hidden:
            for i in range(n):
                pool += [i] * new.cards[s * n + i]
        for i in range(n):
            pool += [i] * new.decks[g.bonus_deck.draw + i]
        rng.shuffle(pool)
        for s in hidden:
            size = sum(new.cards[s * n:(s + 1) * n])
            new.cards[s * n:(s + 1) * n] = [0] * n
            for i in pool[:size]:
                new.cards[s * n + i] += 1
            pool = pool[size:]
        new.decks[g.bonus_deck.draw: g.bonus_deck.draw + n] = [pool.count(i) for i in range(n)]
        return new

    def invariant_problems(self) -> list[str]:
        """Components are conserved: markers, cards and racers all accounted for."""
        g = self.g
        problems = []
        if self.bonus_supply + sum(self.bmark) != g.content.bonus_markers:
            problems.append("bonus markers are not conserved")
        filled = bin(self.filled).count("1")
        if sum(self.unseen) != self.boost_supply + filled:
            problems.append("face-down boost markers do not match the unseen pool")
        for name, d in g.deck_table():
            n = len(d.cards)
            held = 0
            if name == "bonus":
                held = sum(self.cards)
            total = sum(self.decks[d.draw:d.draw + n]) + sum(self.decks[d.discard:d.discard + n]) + held
            if total != d.total:
                problems.append(f"the {name} deck has {total} cards, not {d.total}")
        if any(p < 0 for p in self.pos):
            problems.append("a racer has negative progress")
        length = g.track.length
        if self.phase in (ROLL, DECIDE, OVER):
            spaces = [(p - 1) % length for p in self.pos if p > 0]
            if len(spaces) != len(set(spaces)):
                problems.append("two racers share a space between turns")
        return problems
