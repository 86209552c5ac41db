"""Scrap Racer, one position: the declared fields, the stages of a turn and the engine's contract.

A racer's *progress* counts the spaces it has moved since the start (0 = not yet on the track,
waiting behind the finish line); its space is ``(progress - 1) % length``. Decks and the face-down
boost markers are multisets: a draw or a reveal is a chance node weighted by the counts, so no order
is ever stored. The rules themselves are in ``rules.py``, in rulebook order; rule decisions (SR-* ids)
are in docs/rules/scrap-racer.md; the action strings are read in ``notation.py``.

The copy rule (``slipstream.engine.fields``): the one ``list`` field (progress, one entry per racer,
changed on most turns) is copied on every apply and changed in place; every other field holds immutable
values (ints, tuples, enums) and is changed by assigning a new value.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from slipstream.engine.chance import DIE_OUTCOMES, DIE_TABLE, ChanceTable
from slipstream.engine.fields import replaced, slots
from slipstream.engine.game import CHANCE, Actor, Event, Result, State

from . import notation
from .content import BOOST_TYPES

if TYPE_CHECKING:
    from .game import ScrapRacer


class Stage(enum.IntEnum):
    """Where a race stands: what the next action answers."""

    SETUP = 0
    """Dashboards and the start player are drawn (chance)."""
    CHOOSE_ORDER = 1
    """Team game: a player chooses which of its racers goes first."""
    ROLL = 2
    """The active racer rolls a die (chance)."""
    DECIDE = 3
    """After a die: use a boost marker, roll again, stop, or accept a double."""
    CARDS_BEFORE_MOVE = 4
    """Bonus cards may be played before the dice move (``move`` moves by the dice)."""
    CARDS_AFTER_MOVE = 5
    """Bonus cards may be played after the dice move (``done`` ends the window)."""
    RESOLVING = 6
    """The turn's steps resolve; a chance outcome (fight dice, a card, a marker) is awaited."""
    FIGHT_CHOICE = 7
    """Team game: two racers of one player fight, and the player chooses the winner."""
    OVER = 8
    """The race is over."""


# The stages as module constants: the compiled build reads a module constant directly, where ``Stage.ROLL``
# is a class attribute lookup, and the rules read the stage on every action (with the prebuilt steps
# below: 455 -> 476 races/s, compiled).
SETUP: Final = Stage.SETUP
CHOOSE_ORDER: Final = Stage.CHOOSE_ORDER
ROLL: Final = Stage.ROLL
DECIDE: Final = Stage.DECIDE
CARDS_BEFORE_MOVE: Final = Stage.CARDS_BEFORE_MOVE
CARDS_AFTER_MOVE: Final = Stage.CARDS_AFTER_MOVE
RESOLVING: Final = Stage.RESOLVING
FIGHT_CHOICE: Final = Stage.FIGHT_CHOICE
OVER: Final = Stage.OVER

STAGE_NAMES: Final = ("setup", "order", "roll", "decide", "cards", "cards-after", "resolving", "fight-choice",
                      "over")
"""Each stage as the view names it (``phase`` in the view)."""


class BoostType(enum.IntEnum):
    """The three kinds of boost marker, in the order of ``content.BOOST_TYPES`` (an index into a racer's
    ``boost_markers``)."""

    PLUS_MINUS = 0
    REROLL = 1
    TURN = 2


PLUS_MINUS_MARKER: Final = BoostType.PLUS_MINUS
REROLL_MARKER: Final = BoostType.REROLL
TURN_MARKER: Final = BoostType.TURN


class Need(enum.StrEnum):
    """What a state waits for: the first entry of ``ScrapState.need`` (each equal to its text)."""

    RACER = "racer"
    """Setup: a dashboard is drawn (chance)."""
    START_PLAYER = "start"
    """Setup: the start player is drawn (chance)."""
    FIGHT = "fight"
    """``("fight", a, b)``: racers ``a`` and ``b`` roll their fight dice (chance)."""
    OWN_FIGHT = "own-fight"
    """``("own-fight", a, b)``: team game, the owner of both racers chooses the winner."""
    CRASH_CARD = "crash"
    """``("crash", pile)``: a crash card is drawn from the pile (chance)."""
    TWO_DICE = "two-dice"
    """The 2 dice of a crash card (chance)."""
    BACKWARDS_DIE = "back-die"
    """The backwards die of a crash card (chance)."""
    BONUS_CARD = "bonus"
    """``("bonus", seat)``: a bonus card is drawn into the seat's hand (chance)."""
    GOAL_CARD = "goal"
    """``("goal", racer)``: the racer that crossed the line draws a goal card (chance)."""
    BOOST_MARKER = "marker"
    """``("marker", racer, boost space)``: the face-down boost marker is revealed (chance)."""


# The needs as module constants, as the stages above: in the pure build (Python 3.11) reading ``Need.FIGHT``
# passes through the enum class's ``__getattr__`` hook, about 900 machine instructions where a module
# constant takes 50 (callgrind), and the rules read a need on most chance outcomes.
RACER_NEED: Final = Need.RACER
START_PLAYER_NEED: Final = Need.START_PLAYER
FIGHT_NEED: Final = Need.FIGHT
OWN_FIGHT_NEED: Final = Need.OWN_FIGHT
CRASH_CARD_NEED: Final = Need.CRASH_CARD
TWO_DICE_NEED: Final = Need.TWO_DICE
BACKWARDS_DIE_NEED: Final = Need.BACKWARDS_DIE
BONUS_CARD_NEED: Final = Need.BONUS_CARD
GOAL_CARD_NEED: Final = Need.GOAL_CARD
BOOST_MARKER_NEED: Final = Need.BOOST_MARKER


class DeckCounts(NamedTuple):
    """The cards of one deck by card (the order of ``Deck.cards``): in the draw pile and the discard pile."""

    draw: tuple[int, ...]
    discard: tuple[int, ...]


class StepKind(enum.Enum):
    """A step of the turn's resolution queue (``rules.run_queue``)."""

    ABILITY = "ability"
    FIGHTS = "fights"
    CROSSINGS = "crossings"
    REFILL = "refill"
    COLLECT = "collect"
    END = "end"
    BONUS_MARKER = "marker"
    REVEAL = "reveal"


# The step kinds as module constants, for ``rules.run_queue`` (as the stages above).
ABILITY: Final = StepKind.ABILITY
FIGHTS: Final = StepKind.FIGHTS
CROSSINGS: Final = StepKind.CROSSINGS
REFILL: Final = StepKind.REFILL
COLLECT: Final = StepKind.COLLECT
END: Final = StepKind.END
BONUS_MARKER: Final = StepKind.BONUS_MARKER
REVEAL: Final = StepKind.REVEAL


class Step(NamedTuple):
    """One step still to resolve this turn, with the racer it is about (-1: none)."""

    kind: StepKind
    racer: int = -1


MAX_RACERS: Final = 6
"""The most racers a race has (6 seats of one racer, or 3 seats of two)."""
ABILITY_STEP: Final = Step(StepKind.ABILITY)
CROSSINGS_STEP: Final = Step(StepKind.CROSSINGS)
REFILL_STEP: Final = Step(StepKind.REFILL)
COLLECT_STEP: Final = Step(StepKind.COLLECT)
END_STEP: Final = Step(StepKind.END)
FIGHTS_STEPS: Final = tuple(Step(StepKind.FIGHTS, r) for r in range(MAX_RACERS))
"""Racer ``r``'s fights step is ``FIGHTS_STEPS[r]`` (the steps of every turn are made once)."""
BONUS_MARKER_STEPS: Final = tuple(Step(StepKind.BONUS_MARKER, r) for r in range(MAX_RACERS))
REVEAL_STEPS: Final = tuple(Step(StepKind.REVEAL, r) for r in range(MAX_RACERS))


DIE_ACTIONS: Final = tuple(a for a, _ in DIE_OUTCOMES)
FIGHT_TABLE: Final = ChanceTable(tuple((notation.fight_dice(a, b), 1 / 36) for a in range(1, 7) for b in range(1, 7)))
TWO_DICE_TABLE: Final = ChanceTable(tuple(
    (notation.two_dice(a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
))
FIXED_CHANCE: Final = {Need.FIGHT: FIGHT_TABLE, Need.BACKWARDS_DIE: DIE_TABLE, Need.TWO_DICE: TWO_DICE_TABLE}
"""The chance nodes whose outcomes never change, by the kind of ``need`` they answer."""
MARKER_ACTIONS: Final = tuple(notation.marker(t) for t in BOOST_TYPES)
ROLL_OR_STOP: Final = (notation.ROLL_AGAIN, notation.STOP)
ONLY_STOP: Final = (notation.STOP,)
ONLY_CRASH: Final = (notation.ACCEPT_CRASH,)


class ScrapState(State):
    """One position of a Scrap Racer race: plain data, declared once (see the module)."""

    legal_is_sorted = True

    g: ScrapRacer
    """The game, typed as this one (the engine's ``game`` is the same object)."""
    stage: Stage
    racer: tuple[str, ...]
    """The racer id (its ability) of each racer slot; "" until its dashboard is drawn."""
    names: tuple[str, ...]
    """The racer name of each slot ("racer N" until drawn)."""
    owner: tuple[int, ...]
    """The seat of each racer slot."""
    order: tuple[int, ...]
    """The turn order of the racer slots (built during setup)."""
    progress: list[int]
    """Spaces moved since the start, per racer (0: behind the finish line)."""
    laps: tuple[int, ...]
    """Lap markers per racer."""
    bonus_markers: tuple[int, ...]
    """Bonus markers held per racer."""
    boost_markers: tuple[tuple[int, ...], ...]
    """Boost markers held per racer, by ``BoostType``."""
    bonus_cards: tuple[tuple[int, ...], ...]
    """Bonus cards held per seat, by card (the order of the bonus deck's cards)."""
    decks: tuple[DeckCounts, ...]
    """Every deck's draw and discard piles, by ``Deck.index``."""
    bonus_supply: int
    """Bonus markers in the supply."""
    boost_supply: int
    """Face-down boost markers in the supply."""
    unseen_boosts: tuple[int, ...]
    """The face-down boost markers (on the track and in the supply), by ``BoostType``."""
    boost_spaces_filled: tuple[bool, ...]
    """Whether each boost space (in the order of the track's boost spaces) holds a face-down marker."""
    turn: int
    """The index into ``order`` of the active racer."""
    round: int
    """The round number, from 1."""
    turns: int
    """Turns completed."""
    end_round: int
    """The round in which the end was triggered, 0 if not yet."""
    dice: tuple[int, ...]
    """The dice kept this turn."""
    die: int
    """The die just rolled (0 when none)."""
    passed: bool
    """The active racer passed a space with another racer this turn."""
    moved: tuple[int, ...]
    """The racers moved this turn, each once, the last moved last (who "moved in")."""
    crossed: bool
    """Some racer crossed the finish line this turn."""
    queue: tuple[Step, ...]
    """The steps still to resolve this turn."""
    need: tuple[Any, ...]
    """The chance node or choice being waited for: a ``Need`` and its racers, seat or pile, e.g.
    ``("fight", a, b)``, ``("crash", pile)`` (empty between steps)."""
    start_seat: int
    """The start player (-1 until drawn)."""
    crash_cards_drawn: tuple[int, ...]
    """Crash cards drawn per pile (race metrics)."""
    fights: int
    """Fights fought (race metrics)."""
    boost_markers_used: int
    bonus_cards_drawn: int
    bonus_cards_played: int
    outcome: tuple[Any, ...]
    """``(order, winners, reason)`` once the race is over."""

    __slots__ = slots(__annotations__)

    # --- the engine's contract ---------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage  # the commonest stages first
        if stage in (ROLL, RESOLVING):
            return CHANCE
        if stage in (DECIDE, CARDS_BEFORE_MOVE, CARDS_AFTER_MOVE):
            return self.owner[self.order[self.turn]]
        if stage == OVER:
            return None
        if stage == SETUP:
            return CHANCE
        if stage == CHOOSE_ORDER:
            return self.order_chooser()
        # FIGHT_CHOICE
        return self.owner[int(self.need[1])]

    def _chance_table(self) -> ChanceTable | None:
        """The fixed outcomes of a die roll, a fight roll or two dice (None at other nodes)."""
        stage = self.stage
        if stage == ROLL:
            return DIE_TABLE
        if stage == RESOLVING:
            return FIXED_CHANCE.get(self.need[0])
        return None

    def _chance(self) -> list[tuple[str, float]]:
        g = self.g
        table = self._chance_table()
        if table is not None:
            return list(table.outcomes)
        if self.stage == SETUP:
            if self.need[0] == RACER_NEED:
                left = sorted(set(g.racer_ids) - set(self.racer))
                return [(notation.racer(r), 1 / len(left)) for r in left]
            return [(notation.start_player(s), 1 / g.players) for s in range(g.players)]
        if self.need[0] == BOOST_MARKER_NEED:
            total = sum(self.unseen_boosts)
            return [(a, n / total) for a, n in zip(MARKER_ACTIONS, self.unseen_boosts, strict=True) if n]
        deck = g.deck_for(self.need)
        counts = self.decks[deck.index].draw
        total = sum(counts)
        return [(a, n / total) for a, n in zip(deck.actions, counts, strict=True) if n]

    def _legal(self) -> Sequence[str]:
        """The legal actions, already sorted (``legal_is_sorted``); constant tuples where they can be."""
        stage = self.stage
        if stage == ROLL:
            return DIE_ACTIONS
        if stage == DECIDE:
            return rules.decision_actions(self)
        if stage in (RESOLVING, SETUP):
            table = self._chance_table()
            if table is not None:
                return table.actions
            return [a for a, _ in self._chance()]
        if stage == OVER:
            return []
        if stage in (CARDS_BEFORE_MOVE, CARDS_AFTER_MOVE):
            plays = [notation.play_card(c) for c in rules.playable_cards(self, self.owner[self.active])]
            return [notation.MOVE, *plays] if stage == CARDS_BEFORE_MOVE else [notation.DONE, *plays]
        if stage == CHOOSE_ORDER:
            return sorted(notation.first(self.racer[r]) for r in self.g.racers_of(self.order_chooser()))
        # FIGHT_CHOICE
        return sorted([notation.let_win(self.racer[self.need[1]]), notation.let_win(self.racer[self.need[2]])])

    def _do(self, action: str) -> list[Event]:
        """Dispatch the typed action to the rule of the stage it answers."""
        events: list[Event] = []
        move = notation.parse(action)
        stage = self.stage
        if stage == ROLL:
            rules.roll_die(self, move.dice[0], events)
        elif stage == DECIDE:
            rules.decide(self, move, events)
        elif stage in (CARDS_BEFORE_MOVE, CARDS_AFTER_MOVE):
            rules.bonus_card_window(self, move, events)
        elif stage == RESOLVING:
            rules.chance_outcome(self, move, events)
        elif stage == SETUP:
            rules.setup_draw(self, move, events)
        elif stage == CHOOSE_ORDER:
            rules.choose_first_racer(self, move.name, events)
        elif stage == FIGHT_CHOICE:
            rules.choose_fight_winner(self, move.name, events)
        return events

    @property
    def result(self) -> Result | None:
        if self.stage != OVER:
            return None
        order, winners, reason = self.outcome
        return Result(order=order, winners=winners, reason=reason,
                      details={"progress": list(self.progress), "laps": list(self.laps), "racers": list(self.racer)})

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.g
        actor = self._actor()
        racers = []
        for r in range(len(self.progress)):
            racers.append({
                "slot": r,
                "id": self.racer[r],
                "name": self.names[r] if self.racer[r] else "",
                "seat": self.owner[r],
                "progress": self.progress[r],
                "space": self.space(r) if self.progress[r] else None,
                "laps": self.laps[r],
                "bonus_markers": self.bonus_markers[r],
                "boost_markers": {t: self.boost_markers[r][i] for i, t in enumerate(BOOST_TYPES)},
            })
        hands = {str(s): sum(self.bonus_cards[s]) for s in range(g.players)}
        mine = None
        if seat is not None:
            mine = {c: n for c, n in zip(g.bonus_deck.cards, self.bonus_cards[seat], strict=True) if n}
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
            "active": self.active if self.stage not in (SETUP, CHOOSE_ORDER) and self.order else None,
            "roller": self.roller(),
            "phase": STAGE_NAMES[self.stage],
            "round": self.round,
            "end_round": self.end_round,
            "dice": list(self.dice),
            "die": self.die or None,
            "double_chance": self.double_chance(),
            "boost_spaces_filled": [s for s, filled in zip(g.track.boost, self.boost_spaces_filled, strict=True)
                                    if filled],
            "supply": {"bonus_markers": self.bonus_supply, "boost_markers": self.boost_supply},
            "decks": {name: sum(self.decks[d.index].draw) for name, d in g.deck_table()},
            "bonus_cards_held": hands,
            "my_bonus_cards": mine,
            "actor": sorted(actor) if isinstance(actor, frozenset) else actor,
            "legal_actions": pending,
            "events": self.visible_events(seat),
            "result": self.result.to_json() if self.result else None,
            "terms": g.terms,
        }

    def determinize(self, seat: int | None, rng: random.Random) -> ScrapState:
        """Redeal the bonus cards ``seat`` cannot see (other hands and the deck) at random."""
        g = self.g
        n = len(g.bonus_deck.cards)
        new = self.copy()
        hidden = [s for s in range(g.players) if s != seat]
        pool: list[int] = []
        for s in hidden:
            for i in range(n):
                pool += [i] * new.bonus_cards[s][i]
        bonus = g.bonus_deck.index
        for i in range(n):
            pool += [i] * new.decks[bonus].draw[i]
        rng.shuffle(pool)
        for s in hidden:
            size = sum(new.bonus_cards[s])
            hand = [0] * n
            for i in pool[:size]:
                hand[i] += 1
            new.bonus_cards = replaced(new.bonus_cards, s, tuple(hand))
            pool = pool[size:]
        draw = tuple(pool.count(i) for i in range(n))
        new.decks = replaced(new.decks, bonus, new.decks[bonus]._replace(draw=draw))
        return new

    def invariant_problems(self) -> list[str]:
        """Components are conserved: markers, cards and racers all accounted for."""
        g = self.g
        problems = []
        if self.bonus_supply + sum(self.bonus_markers) != g.content.bonus_markers:
            problems.append("bonus markers are not conserved")
        filled = sum(1 for f in self.boost_spaces_filled if f)
        if sum(self.unseen_boosts) != self.boost_supply + filled:
            problems.append("face-down boost markers do not match the unseen pool")
        for name, d in g.deck_table():
            held = sum(sum(hand) for hand in self.bonus_cards) if name == "bonus" else 0
            counts = self.decks[d.index]
            total = sum(counts.draw) + sum(counts.discard) + held
            if total != d.total:
                problems.append(f"the {name} deck has {total} cards, not {d.total}")
        if any(p < 0 for p in self.progress):
            problems.append("a racer has negative progress")
        length = g.track.length
        if self.stage in (ROLL, DECIDE, OVER):
            spaces = [(p - 1) % length for p in self.progress if p > 0]
            if len(spaces) != len(set(spaces)):
                problems.append("two racers share a space between turns")
        return problems

    # --- what the rules, views and bots ask of a position ------------------------------------------

    def name(self, r: int) -> str:
        """The racer's name ("racer N" until its dashboard is drawn)."""
        return self.names[r]

    def space(self, r: int) -> int:
        """The 0-based space of an on-track racer."""
        return (self.progress[r] - 1) % self.g.length

    def on_track(self, r: int) -> bool:
        return self.progress[r] > 0

    @property
    def active(self) -> int:
        """The racer slot whose turn it is."""
        return self.order[self.turn]

    def roller(self) -> int | list[int] | None:
        """Whose roll or draw the chance node is (the view's ``roller``): the seat whose racer rolls its
        die, draws a crash, goal or bonus card, reveals a boost marker or is dealt a dashboard; both seats of
        a fight, in the order ``fight:A-B`` reads them; None for the start-player draw (nobody's roll) and
        when the state is not at a chance node."""
        if self._actor() != CHANCE:
            return None
        need = self.need
        kind = need[0] if need else None
        if self.stage == SETUP:
            return self.owner[self.racer.index("")] if kind == RACER_NEED else None
        if self.stage == ROLL:
            return self.owner[self.active]
        if kind == FIGHT_NEED:
            return [self.owner[int(need[1])], self.owner[int(need[2])]]
        if kind == BONUS_CARD_NEED:
            return int(need[1])
        if kind in (GOAL_CARD_NEED, BOOST_MARKER_NEED):
            return self.owner[int(need[1])]
        return self.owner[self.active]  # a crash card and its dice

    def standings(self) -> list[int]:
        """Racers from first to last: by progress; racers not yet on the track by turn order."""
        n = len(self.progress)
        if len(self.order) == n:  # a stable sort keeps the turn order among racers with equal progress
            return sorted(self.order, key=self.progress.__getitem__, reverse=True)
        rank = {r: i for i, r in enumerate(self.order)}
        return sorted(range(n), key=lambda r: (-self.progress[r], rank.get(r, n + r)))

    def order_chooser(self) -> int:
        """Team game: the seat that chooses which of its racers goes next (the start player first)."""
        if not self.order:
            return self.start_seat
        return (self.owner[self.order[-1]] + 1) % self.g.players

    def double_chance(self) -> float:
        """The chance that the next die rolled makes a double, before boost markers."""
        kept = set(self.dice)
        if self.die:
            kept.add(self.die)
        return len(kept) / 6


from . import rules  # noqa: E402  (the rules import this module's types)
