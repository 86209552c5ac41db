"""Scrap Racer, one position: the declared fields and the engine's contract.

A racer's *progress* counts the spaces it has moved since the start (0 = not yet on the track,
waiting behind the finish line); its space is ``(progress - 1) % length``. Decks and the face-down
boost markers are multisets: a draw or a reveal is a chance node weighted by the counts, so no order
is ever stored. The game's nouns are in ``types.py``; the rules and the turn flow in ``rules.py``, in
rulebook order; rule decisions (SR-* ids) are in docs/rules/scrap-racer.md; the action strings are read
in ``notation.py``.

The copy rule (``slipstream.engine.fields``): the one ``list`` field (progress, one entry per racer,
changed on most turns) is copied on every apply and changed in place; every other field holds immutable
values (ints, tuples, enums) and is changed by assigning a new value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from slipstream.engine.chance import DIE_TABLE, ChanceTable
from slipstream.engine.fields import replaced, slots
from slipstream.engine.game import CHANCE, Actor, Event, Result, State

from . import notation, rules
from .content import BOOST_TYPES
from .types import STAGE_NAMES, DeckCounts, Need, Stage, Step

if TYPE_CHECKING:
    from .game import ScrapRacer  # noqa: F401 - the base class names it: State["ScrapRacer"]

class ScrapState(State["ScrapRacer"]):
    """One position of a Scrap Racer race: plain data, declared once (see the module)."""

    legal_is_sorted = True

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
    need: Need
    """The chance outcome or choice being waited for, with the racers, seat, pile or boost space it is
    about (``NeedKind.NOTHING`` between steps)."""
    start_seat: int
    """The start player (-1 until drawn)."""
    crash_cards_drawn: tuple[int, ...]
    """Crash cards drawn per pile (race metrics)."""
    fights: int
    """Fights fought (race metrics)."""
    boost_markers_used: int
    bonus_cards_drawn: int
    bonus_cards_played: int
    outcome: tuple[tuple[int, ...], tuple[int, ...], str]
    """``(order, winners, reason)`` once the race is over (empty strings and tuples before)."""

    __slots__ = slots(__annotations__)

    # --- the engine's contract ---------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage  # the commonest stages first
        if stage is Stage.ROLL or stage is Stage.RESOLVING:
            return CHANCE
        if stage is Stage.DECIDE or stage is Stage.CARDS or stage is Stage.CARDS_AFTER:
            return self.owner[self.order[self.turn]]
        if stage is Stage.OVER:
            return None
        if stage is Stage.SETUP:
            return CHANCE
        if stage is Stage.ORDER:
            return rules.order_chooser(self)
        # FIGHT_CHOICE
        return self.owner[self.need.racer]

    def _chance_table(self) -> ChanceTable | None:
        """The fixed outcomes of a die roll, a fight roll or two dice (None at other nodes)."""
        stage = self.stage
        if stage is Stage.ROLL:
            return DIE_TABLE
        if stage is Stage.RESOLVING:
            return rules.FIXED_CHANCE.get(self.need.kind)
        return None

    def _chance(self) -> list[tuple[str, float]]:
        table = self._chance_table()
        if table is not None:
            return list(table.outcomes)
        return rules.chance_outcomes(self)

    def _legal(self) -> Sequence[str]:
        """The legal actions, already sorted (``legal_is_sorted``); constant tuples where they can be."""
        stage = self.stage
        if stage is Stage.ROLL:
            return rules.DIE_ACTIONS
        if stage is Stage.DECIDE:
            return rules.decision_actions(self)
        if stage is Stage.RESOLVING or stage is Stage.SETUP:
            table = self._chance_table()
            if table is not None:
                return table.actions
            return [action for action, _ in rules.chance_outcomes(self)]
        if stage is Stage.OVER:
            return []
        if stage is Stage.CARDS or stage is Stage.CARDS_AFTER:
            return rules.bonus_card_actions(self)
        if stage is Stage.ORDER:
            return rules.order_actions(self)
        # FIGHT_CHOICE
        return rules.fight_choice_actions(self)

    def _do(self, action: str) -> list[Event]:
        """Dispatch the typed action to the rule of the stage it answers."""
        events: list[Event] = []
        move = notation.parse(action)
        stage = self.stage
        if stage is Stage.ROLL:
            rules.roll_die(self, move.dice[0], events)
        elif stage is Stage.DECIDE:
            rules.decide(self, move, events)
        elif stage is Stage.CARDS or stage is Stage.CARDS_AFTER:
            rules.bonus_card_window(self, move, events)
        elif stage is Stage.RESOLVING:
            rules.chance_outcome(self, move, events)
        elif stage is Stage.SETUP:
            rules.setup_draw(self, move, events)
        elif stage is Stage.ORDER:
            rules.choose_first_racer(self, move.name, events)
        elif stage is Stage.FIGHT_CHOICE:
            rules.choose_fight_winner(self, move.name, events)
        return events

    @property
    def result(self) -> Result | None:
        if self.stage is not Stage.OVER:
            return None
        order, winners, reason = self.outcome
        return Result(order=order, winners=winners, reason=reason,
                      details={"progress": list(self.progress), "laps": list(self.laps), "racers": list(self.racer)})

    def _view(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        actor = self._actor()
        racers = []
        for racer in range(len(self.progress)):
            racers.append({
                "slot": racer,
                "id": self.racer[racer],
                "name": self.names[racer] if self.racer[racer] else "",
                "seat": self.owner[racer],
                "progress": self.progress[racer],
                "space": rules.racer_space(self, racer) if self.progress[racer] else None,
                "laps": self.laps[racer],
                "bonus_markers": self.bonus_markers[racer],
                "boost_markers": {kind: self.boost_markers[racer][i] for i, kind in enumerate(BOOST_TYPES)},
            })
        hands = {str(other): sum(self.bonus_cards[other]) for other in range(game.players)}
        mine = None
        if seat is not None:
            mine = {card: n for card, n in zip(game.bonus_deck.cards, self.bonus_cards[seat], strict=True) if n}
        pending = None
        if actor == seat and seat is not None:
            pending = self.legal_actions()
        stage = self.stage
        return {
            "game": game.id,
            "track": {"name": game.track.name, "length": game.track.length, "kinds": game.track.kinds,
                      "boost_spaces": list(game.track.boost)},
            "seat": seat,
            "seats": [game.seat_name(other) for other in range(game.players)],
            "racers": racers,
            "order": list(self.order),
            "standings": rules.standings(self),
            "active": rules.active_racer(self) if stage not in (Stage.SETUP, Stage.ORDER) and self.order else None,
            "roller": rules.roller(self),
            "phase": STAGE_NAMES[stage],
            "round": self.round,
            "end_round": self.end_round,
            "dice": list(self.dice),
            "die": self.die or None,
            "double_chance": rules.double_chance(self),
            "boost_spaces_filled": [space for space, filled in zip(game.track.boost, self.boost_spaces_filled,
                                                                   strict=True) if filled],
            "supply": {"bonus_markers": self.bonus_supply, "boost_markers": self.boost_supply},
            "decks": {name: sum(self.decks[deck.index].draw) for name, deck in game.deck_table()},
            "bonus_cards_held": hands,
            "my_bonus_cards": mine,
            "actor": sorted(actor) if isinstance(actor, frozenset) else actor,
            "legal_actions": pending,
            "events": self.visible_events(seat),
            "result": self.result.to_json() if self.result else None,
            "terms": game.terms,
        }

    def determinize(self, seat: int | None, rng: random.Random) -> ScrapState:
        """Redeal the bonus cards ``seat`` cannot see (other hands and the deck) at random."""
        game = self.game
        n = len(game.bonus_deck.cards)
        new = self.copy()
        hidden = [other for other in range(game.players) if other != seat]
        pool: list[int] = []
        for other in hidden:
            for card in range(n):
                pool += [card] * new.bonus_cards[other][card]
        bonus = game.bonus_deck.index
        for card in range(n):
            pool += [card] * new.decks[bonus].draw[card]
        rng.shuffle(pool)
        for other in hidden:
            size = sum(new.bonus_cards[other])
            hand = [0] * n
            for card in pool[:size]:
                hand[card] += 1
            new.bonus_cards = replaced(new.bonus_cards, other, tuple(hand))
            pool = pool[size:]
        draw = tuple(pool.count(card) for card in range(n))
        new.decks = replaced(new.decks, bonus, new.decks[bonus]._replace(draw=draw))
        return new

    def invariant_problems(self) -> list[str]:
        """Components are conserved: markers, cards and racers all accounted for."""
        game = self.game
        problems = []
        if self.bonus_supply + sum(self.bonus_markers) != game.content.bonus_markers:
            problems.append("bonus markers are not conserved")
        filled = sum(1 for space_filled in self.boost_spaces_filled if space_filled)
        if sum(self.unseen_boosts) != self.boost_supply + filled:
            problems.append("face-down boost markers do not match the unseen pool")
        for name, deck in game.deck_table():
            held = sum(sum(hand) for hand in self.bonus_cards) if name == "bonus" else 0
            counts = self.decks[deck.index]
            total = sum(counts.draw) + sum(counts.discard) + held
            if total != deck.total:
                problems.append(f"the {name} deck has {total} cards, not {deck.total}")
        if any(progress < 0 for progress in self.progress):
            problems.append("a racer has negative progress")
        length = game.track.length
        if self.stage in (Stage.ROLL, Stage.DECIDE, Stage.OVER):
            spaces = [(progress - 1) % length for progress in self.progress if progress > 0]
            if len(spaces) != len(set(spaces)):
                problems.append("two racers share a space between turns")
        return problems
