"""One position of a Highway Heist match (``HeistState``): its declared fields, its stages and the views.

The rules themselves are small functions in ``rules.py``, in rulebook order; this module sequences them:
the team picks who plays (a choice open to every seat not yet Exhausted) -> up to two actions, each Skill
Roll with an Assist window (every other seat with a Boost token), the roll (chance) and the roller's
Boost -> the Enemy Die (chance) and what it starts -> after the last turn, Road Maintenance and Stunt Card
Maintenance. Enemy effects, damage and maintenance wait in ``queue`` as ``rules.Task``s; a Defense roll or
a choice pauses the queue and the action that settles it resumes it.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from slipstream.engine.chance import ChanceTable
from slipstream.engine.fields import replaced, slots
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from . import notation, rules
from .content import Action
from .notation import NO_SPACE, WHEEL, Verb
from .rules import (
    ABANDONED,
    BEHIND_WHEEL,
    CAB,
    HIJACKED,
    KIND_NAMES,
    NOWHERE,
    PLAYER,
    SHAW,
    SUV,
    TANK,
    TRAILER,
    Choice,
    ChoiceKind,
    Piece,
    Roll,
    RollKind,
    Task,
    TaskKind,
)
from .words import KEY_ORDER, describe, dice_words, roll_words

if TYPE_CHECKING:
    from .game import HighwayHeist


class Stage(enum.IntEnum):
    """Where a match stands. ``AUTO`` is never seen outside ``apply``: the queue is being worked."""

    AUTO = 0
    CHOOSE_TURN = 1
    """Playing the Game: the team chooses who plays next (each seat not yet Exhausted may claim it)."""
    ACTION = 2
    """Take Two Actions: the Active Player's next action."""
    ASSIST = 3
    """Assist: the other seats with Boost tokens may add dice before the roll."""
    ROLL = 4
    """Skill Rolls: the Effort Dice (chance)."""
    BOOST = 5
    """Boost (yourself): after the roll, the roller may discard a token."""
    CHOICE = 6
    """A choice inside an action or an enemy effect (``choice``)."""
    ENEMY_DIE = 7
    """Roll the Enemy Die (chance)."""
    ENEMY_CARD = 8
    """Draw an Enemy card (chance: the deck holds no order)."""
    STUNT_CARD = 9
    """Draw a Stunt card (chance: the next level's cards not yet seen)."""
    OVER = 10
    POWER = 11
    """A Special Power's window: Brian's reroll, Tej's token (any roll), Dom taking a slam."""
    REROLL = 12
    """Brian's Wheelman: the rerolled die (chance)."""


class Phase(enum.IntEnum):
    SETUP = 0
    ACTIONS = 1
    ENEMY = 2
    END_ROUND = 3


STAGE_NAMES = {s: s.name.lower().replace("_", "-") for s in Stage}
ROLL_VERBS = {Verb.RAM: "ram", Verb.FORCE: "force", Verb.SHAKE: "shake", Verb.BRAWL: "brawl",
              Verb.HIJACK: "hijack"}


class HeistState(State):
    """A Highway Heist position. By the copy rule of ``engine.fields`` every field is shared and
    replaced (never changed) when a rule changes it: the state is a handful of small tuples."""

    g: HighwayHeist
    stage: Stage
    phase: Phase
    round: int
    active: int
    """The Active Player (-1 between turns)."""
    actions_left: int
    exhausted: tuple[bool, ...]
    pieces: tuple[Piece, ...]
    """Every vehicle, Wreck and Main Enemy piece: the starting Player Vehicles (one per seat), the Enemy
    SUVs (on the road or in the supply) and the scenario's pieces."""
    chopper: int
    """The Chopper's space (Chopper Takedown), else -1."""
    pv: tuple[int, ...]
    """Per seat, the piece that is their Player Vehicle, or -1."""
    board: tuple[int, ...]
    """Per seat, the Vehicle Board face up (``g.boards``), or -1 with no Player Vehicle."""
    damage: tuple[int, ...]
    peg_on: tuple[int, ...]
    """Per seat: ``BEHIND_WHEEL``, the piece whose roof the Player Peg is on, or ``NOWHERE``."""
    stranded: tuple[int, ...]
    """Per seat: the space a stranded Player Peg left (no vehicle had a free slot, HH-X7), else -1."""
    boost: tuple[int, ...]
    boost_supply: int
    ramsey: int
    track: int
    """Tank Damage or Chopper Damage (Semi Heist counts Cargo on Player Vehicles instead)."""
    cargo_in_semi: int
    lost_cargo: int
    door_open: bool
    enemy_row: tuple[str, ...]
    """Spot 1, spot 2, ..., ACTIVATE! ("" for an empty spot)."""
    enemy_deck: tuple[str, ...]
    """The cards in the Enemy deck, sorted (a multiset: its order is drawn by chance)."""
    enemy_discard: tuple[str, ...]
    stunt_row: tuple[str, ...]
    """The Stunt spots from East (new cards) to West (leaving next)."""
    stunt_tokens: tuple[int, ...]
    stunts_left: tuple[int, ...]
    """Cards of levels 1, 2 and 3 still to come from the Stunt deck."""
    stunt_drawn: tuple[str, ...]
    stunt_discard: tuple[str, ...]
    queue: tuple[Task, ...]
    roll: Roll | None
    waiting: frozenset[int]
    choice: Choice | None
    activated_pegs: frozenset[int]
    tej_tokens: int
    family_first_used: frozenset[int]
    """Seats whose Family First was used this round."""
    wheelman_used: bool
    """Brian's Wheelman was used this turn."""
    power: str
    """The open power window: "", "wheelman", "tech" or "family"."""
    power_seat: int
    power_data: tuple[int, int]
    """Family First: (the slammed seat, the damage)."""
    outcome: str
    reason: str

    __slots__ = slots(__annotations__)

    legal_is_sorted: ClassVar[bool] = True
    """``_legal`` returns the actions sorted and unique (every branch builds them so)."""

    @classmethod
    def initial(cls, game: HighwayHeist) -> HeistState:
        """Setup: boards, vehicles in column 1, two Boost tokens each, the scenario's pieces, the decks."""
        n = game.players
        model = game.content.model
        s = cls()
        s.g = game
        s.stage = Stage.STUNT_CARD
        s.phase = Phase.SETUP
        s.round = 1
        s.active = -1
        s.actions_left = 0
        s.exhausted = (False,) * n
        pieces = [Piece(PLAYER, game.start_spaces[seat], seat) for seat in range(n)]
        pieces += [Piece(SUV, rules.OFF, -1, False, 0, True)] * model.supply.enemy_suvs
        s.chopper = -1
        kinds = {"tank": TANK, "semi_cab": CAB, "semi_trailer": TRAILER, "shaw_car": SHAW}
        suv = n
        for rec in game.scenario.pieces:
            space = (rec.at[0] - 1) * game.lanes + rec.at[1] - 1
            if rec.kind == "chopper":
                s.chopper = space
            elif rec.kind == "suv":
                pieces[suv] = Piece(SUV, space, -1, rec.enemy_peg, 0, True)
                suv += 1
            else:
                pieces.append(Piece(kinds[rec.kind], space, -1, rec.enemy_peg))
        s.pieces = tuple(pieces)
        s.pv = tuple(range(n))
        s.board = game.starting_boards
        s.damage = (0,) * n
        s.peg_on = (BEHIND_WHEEL,) * n
        s.stranded = (rules.OFF,) * n
        start = model.rules.start_boost
        s.boost = (start,) * n
        s.boost_supply = model.supply.boost_tokens - start * n
        s.ramsey = game.ramsey_seat if game.scenario.ramsey else -1
        s.track = 0
        s.cargo_in_semi = game.scenario.cargo
        s.lost_cargo = 0
        s.door_open = False
        s.enemy_row = ("",) * model.road.enemy_spots
        s.enemy_deck = tuple(sorted(game.enemy_cards))
        s.enemy_discard = ()
        s.stunt_row = ("",) * model.road.stunt_spots
        s.stunt_tokens = (0,) * model.road.stunt_spots
        s.stunts_left = game.stunts_kept
        s.stunt_drawn = ()
        s.stunt_discard = ()
        s.queue = ()
        s.roll = None
        s.waiting = frozenset()
        s.choice = None
        s.activated_pegs = frozenset()
        s.tej_tokens = model.supply.tej_tokens if any(c.power == "tech_support" for c in game.characters) else 0
        s.family_first_used = frozenset()
        s.wheelman_used = False
        s.power = ""
        s.power_seat = -1
        s.power_data = (0, 0)
        s.outcome = ""
        s.reason = ""
        s.events = ()
        return s

    # --- the contract ----------------------------------------------------------------------------

    def _actor(self) -> Actor:
        stage = self.stage
        if stage is Stage.CHOOSE_TURN:
            return frozenset(seat for seat, done in enumerate(self.exhausted) if not done)
        if stage is Stage.ACTION:
            return self.active
        if stage is Stage.ASSIST:
            return self.waiting
        if stage is Stage.BOOST:
            return self.roll.seat if self.roll is not None else None
        if stage is Stage.CHOICE:
            return self.choice.seat if self.choice is not None else None
        if stage is Stage.OVER:
            return None
        if stage is Stage.POWER:
            return self.power_seat if self.power == "wheelman" else frozenset((self.power_seat,))
        return CHANCE

    def _chance_table(self) -> ChanceTable | None:
        if self.stage is Stage.ROLL and self.roll is not None:
            return self.g.effort_tables[self.roll.dice]
        if self.stage is Stage.REROLL:
            return self.g.effort_tables[1]
        if self.stage is Stage.ENEMY_DIE:
            return self.g.enemy_die
        return None

    def _chance(self) -> list[tuple[str, float]]:
        table = self._chance_table()
        if table is not None:
            return list(table.outcomes)
        if self.stage is Stage.ENEMY_CARD:
            deck = self.enemy_deck
            return [(notation.enemy_card(c), 1 / len(deck)) for c in deck]
        pool = self.stunt_pool()
        return [(notation.stunt_card(c), 1 / len(pool)) for c in pool]

    def stunt_pool(self) -> list[str]:
        """The Stunt cards the next draw may show: the current level's cards not yet seen (drawing them
        one by one is the same chance as removing some unseen and shuffling the rest; Setup)."""
        level = rules.stunt_level(self)
        if level < 0:
            return []
        return [c for c in self.g.stunt_levels[level] if c not in self.stunt_drawn]

    def _legal(self) -> Sequence[str]:
        stage = self.stage
        if stage is Stage.CHOOSE_TURN:
            return sorted(notation.seated(seat, Verb.PLAY) for seat, done in enumerate(self.exhausted) if not done)
        if stage is Stage.ACTION:
            return self.action_choices()
        if stage is Stage.ASSIST:
            return sorted(a for seat in self.waiting
                          for a in (notation.seated(seat, Verb.ASSIST), notation.seated(seat, Verb.PASS)))
        if stage is Stage.BOOST:
            return ["boost", "keep"]
        if stage is Stage.CHOICE:
            return list(self.choice.options) if self.choice is not None else []
        if stage is Stage.OVER:
            return []
        if stage is Stage.POWER:
            return self.power_choices()
        return [a for a, _ in self._chance()]

    def power_choices(self) -> list[str]:
        seat = self.power_seat
        if self.power == "wheelman" and self.roll is not None:
            _, boosts, blanks = self.roll.faces
            return sorted(["pass"] + (["reroll:blank"] if blanks else []) + (["reroll:boost"] if boosts else []))
        verb = Verb.TECH if self.power == "tech" else Verb.TAKE_SLAM
        return sorted([notation.seated(seat, Verb.PASS), notation.seated(seat, verb)])

    def action_choices(self) -> list[str]:
        """Take Two Actions: every action the Active Player may take now."""
        s, seat = self, self.active
        out = [Verb.END_TURN.value]
        if s.boost[seat] < s.g.boost_caps[seat] and s.boost_supply > 0:
            out.append(Verb.TAKE_BOOST.value)
        name = self._space_at
        if rules.manned(s, seat):
            out += [name(Verb.DRIVE, d) for d in rules.drive_destinations(s, seat)]
            out += [name(Verb.RAM, s.pieces[t].space) for t in rules.ram_targets(s, seat)]
            out += [name(Verb.FORCE, s.pieces[t].space) for t in rules.force_targets(s, seat)]
            if s.pieces[s.pv[seat]].enemy_peg:
                out.append(Verb.SHAKE.value)
        out += [name(Verb.LEAP, s.pieces[t].space) for t in rules.leap_targets(s, seat)]
        if rules.can_leap_to_wheel(s, seat):
            out.append("leap:wheel")
        roof = s.peg_on[seat]
        if roof >= 0:
            if s.pieces[roof].enemy_peg:
                out.append(Verb.BRAWL.value)
            if s.pieces[roof].kind == SUV and not (s.ramsey >= 0 and s.ramsey == s.pv[seat]):
                out.append(Verb.HIJACK.value)
        for spot, card_id in enumerate(s.stunt_row):
            if not card_id:
                continue
            card = s.g.stunt_cards[card_id]
            if card.level < 3 and s.stunt_tokens[spot] <= 0:
                continue
            out += self._card_actions(Verb.STUNT, card)
        for card in s.g.scenario_actions.values():
            out += self._card_actions(Verb.SCENARIO_ACTION, card)
        return sorted(set(out))

    def _space_at(self, verb: Verb, space: int) -> str:
        return self.g.space_actions[verb][space]

    def _card_actions(self, verb: Verb, card: Action) -> list[str]:
        targets = rules.condition_targets(self, self.active, card)
        if targets is None:
            return []
        return [notation.card_action(verb, card.id, NO_SPACE if t < 0 else rules._cl(self, self.pieces[t].space))
                for t in targets]

    # --- apply -----------------------------------------------------------------------------------

    def _do(self, action: str) -> list[Event]:
        events: list[Event] = []
        act = notation.parse(action)
        verb = act.verb
        stage = self.stage
        self.stage = Stage.AUTO
        if stage is Stage.CHOOSE_TURN:
            self.active = act.seat
            self.actions_left = 2
            self.wheelman_used = False
            self.phase = Phase.ACTIONS
            events.append(Event("turn", f"{self.g.seat_name(act.seat)} takes a turn", "Playing the Game"))
            rules.return_stranded_peg(self, act.seat, events)
        elif stage is Stage.ASSIST:
            self._assist(act.seat, verb is Verb.ASSIST, events)
        elif stage is Stage.ROLL:
            self._rolled(act.dice, events)
        elif stage is Stage.POWER:
            self._use_power(act, events)
        elif stage is Stage.REROLL:
            self._rerolled(act.dice, events)
        elif stage is Stage.BOOST:
            self._boost(verb is Verb.BOOST, events)
        elif stage is Stage.CHOICE:
            self._chosen(act, events)
        elif stage is Stage.ENEMY_DIE:
            face = act.name
            events.append(Event("enemy-die", f"the Enemy Die shows {self.g.words.face_names[face]}",
                                "Roll the Enemy Die"))
            self.phase = Phase.ENEMY
            self.queue = (*rules.enemy_die_tasks(self, face), *self.queue)
        elif stage is Stage.ENEMY_CARD:
            rules.reveal_enemy_card(self, act.name, events)
        elif stage is Stage.STUNT_CARD:
            rules.reveal_stunt(self, act.name, events)
        else:
            self._take_action(action, act, events)
        self._advance(events)
        return events

    def _take_action(self, text: str, act: notation.Action, events: list[Event]) -> None:
        """Take Two Actions: an action without a Skill Roll happens now; one with a roll starts it."""
        seat, verb = self.active, act.verb
        self.actions_left -= 1
        if verb is Verb.END_TURN:
            self.actions_left = 0
            return
        if verb is Verb.TAKE_BOOST:
            self.actions_left = 0
            self.boost = replaced(self.boost, seat, self.boost[seat] + 1)
            self.boost_supply -= 1
            events.append(Event("boost", f"{self.g.seat_name(seat)} takes a Boost token as the last action",
                                "Take Boost Token"))
            return
        if verb in ROLL_VERBS or verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
            skill, need, ram = self._roll_of(act)
            if verb is Verb.RAM:
                ram = True
            if ram and rules.vehicle_power(self, seat) == "battering_ram":
                need -= 1
            self.begin_roll(RollKind.ACTION, seat, rules.rating(self, seat, skill), max(0, need), text, skill=skill)
            events.append(Event("attempt", f"{self.g.seat_name(seat)} attempts {self.g.words.attempt(self.g, text)}: "
                                f"{roll_words(skill, max(0, need))}", "Skill Rolls"))
            return
        self.perform(text, act, events)

    def _roll_of(self, act: notation.Action) -> tuple[int, int, bool]:
        if act.verb is Verb.STUNT:
            card = self.g.stunt_cards[act.name]
            return card.skill, card.need, card.ram
        if act.verb is Verb.SCENARIO_ACTION:
            card = self.g.scenario_actions[act.name]
            return card.skill, card.need, card.ram
        spec = self.g.content.model.actions[ROLL_VERBS[act.verb]]  # type: ignore[index]
        return ("speed", "control", "athletics").index(spec.skill), spec.need, False

    def begin_roll(self, kind: RollKind, seat: int, dice: int, need: int, action: str = "",
                   damage: int = 0, skill: int = rules.DEFENSE) -> None:
        """Skill Rolls: the dice of the rating (at most five), then the Assist window."""
        dice = min(dice, self.g.max_dice)
        self.roll = Roll(kind, seat, dice, need, action, damage, skill=skill)
        self._open_assist()

    def _open_assist(self) -> None:
        roll = self.roll
        if roll is None:
            return
        if roll.dice < self.g.max_dice:
            self.waiting = frozenset(seat for seat in self.g.seats if seat != roll.seat and self.boost[seat] > 0)
        else:
            self.waiting = frozenset()
        self.stage = Stage.ASSIST if self.waiting else Stage.ROLL

    def _assist(self, seat: int, assist: bool, events: list[Event]) -> None:
        """Assist (team member): each token discarded before the roll adds two dice, never above five."""
        roll = self.roll
        if roll is None:
            return
        waiting = self.waiting - {seat}
        if assist:
            self.boost = replaced(self.boost, seat, self.boost[seat] - 1)
            self.boost_supply += 1
            dice = min(roll.dice + 2, self.g.max_dice)
            self.roll = roll._replace(dice=dice)
            events.append(Event("assist", f"{self.g.seat_name(seat)} Assists: {dice} dice", "Assist (Team Member)"))
            if self.boost[seat] > 0:
                waiting = waiting | {seat}
            if dice >= self.g.max_dice:
                waiting = frozenset()
        self.waiting = waiting
        self.stage = Stage.ASSIST if waiting else Stage.ROLL

    def _rolled(self, faces: tuple[int, int, int], events: list[Event]) -> None:
        roll = self.roll
        if roll is None:
            return
        roll = roll._replace(faces=faces, bonus=rules.roll_bonus(self, roll.seat))
        self.roll = roll
        events.append(Event("roll", f"{self.g.seat_name(roll.seat)} rolls {dice_words(faces)}", "Skill Rolls"))
        self._after_roll(events)

    def _after_roll(self, events: list[Event]) -> None:
        """After the dice: Brian's reroll, Tej's token, then the roller's Boost, each only offered where
        it can still change the outcome; then the roll resolves."""
        roll = self.roll
        if roll is None:
            return
        _, boosts, blanks = roll.faces
        short = self._boost_matters(roll)
        if (short and roll.kind is RollKind.ACTION and not roll.rerolled and not self.wheelman_used
                and roll.skill in (rules.SPEED, rules.CONTROL) and boosts + blanks > 0
                and self.g.characters[roll.seat].power == "wheelman"):
            self._open_power("wheelman", roll.seat)
            return
        if short and not roll.teched and blanks > 0 and self.tej_tokens > 0:
            tej = next(s for s, c in enumerate(self.g.characters) if c.power == "tech_support")
            self._open_power("tech", tej)
            return
        if self.boost[roll.seat] > 0 and boosts > 0 and short:
            self.stage = Stage.BOOST
            return
        self._resolve_roll(events)

    def _open_power(self, power: str, seat: int, data: tuple[int, int] = (0, 0)) -> None:
        self.power, self.power_seat, self.power_data = power, seat, data
        self.stage = Stage.POWER

    def _use_power(self, act: notation.Action, events: list[Event]) -> None:
        """Special Powers (HH-G6): Wheelman, Tech Support and Family First, used or passed."""
        power, seat = self.power, self.power_seat
        self.power, self.power_seat = "", -1
        roll = self.roll
        if power == "family":
            victim, amount = self.power_data
            if act.verb is Verb.TAKE_SLAM:
                self.family_first_used = self.family_first_used | {seat}
                events.append(Event("power", f"{self.g.seat_name(seat)} takes the slam for "
                                    f"{self.g.seat_name(victim)} ({self.g.words.power_names['family_first']})",
                                    "Special Powers"))
                victim = seat
            rules.push_front(self, Task(TaskKind.DAMAGE, amount, victim))
            return
        if roll is None:
            return
        if power == "wheelman":
            if act.verb is Verb.REROLL:
                self.wheelman_used = True
                s, b, x = roll.faces
                faces = (s, b - 1, x) if act.name == "boost" else (s, b, x - 1)
                self.roll = roll._replace(faces=faces, rerolled=True)
                events.append(Event("power", f"{self.g.seat_name(seat)} rerolls a die showing a {act.name} "
                                    f"({self.g.words.power_names['wheelman']})", "Special Powers"))
                self.stage = Stage.REROLL
                return
            self.roll = roll._replace(rerolled=True)
        elif act.verb is Verb.TECH:
            self.tej_tokens -= 1
            s, b, x = roll.faces
            self.roll = roll._replace(faces=(s + 1, b, x - 1), teched=True)
            events.append(Event("power", f"{self.g.seat_name(seat)} spends a Tej token: a blank die becomes a "
                                f"success ({self.g.words.power_names['tech_support']})", "Special Powers"))
        else:
            self.roll = roll._replace(teched=True)
        self._after_roll(events)

    def _rerolled(self, die: tuple[int, int, int], events: list[Event]) -> None:
        roll = self.roll
        if roll is None:
            return
        faces = (roll.faces[0] + die[0], roll.faces[1] + die[1], roll.faces[2] + die[2])
        self.roll = roll._replace(faces=faces)
        events.append(Event("roll", f"the rerolled die shows {('success', 'boost', 'blank')[die.index(1)]}",
                            "Special Powers"))
        self._after_roll(events)

    def _boost_matters(self, roll: Roll) -> bool:
        got = rules.roll_successes(roll)
        if roll.kind is RollKind.DEFENSE:
            return got < roll.damage
        return got < roll.need

    def _boost(self, boost: bool, events: list[Event]) -> None:
        """Boost (yourself): after rolling, one token makes every boost face a success."""
        roll = self.roll
        if roll is None:
            return
        if boost:
            self.boost = replaced(self.boost, roll.seat, self.boost[roll.seat] - 1)
            self.boost_supply += 1
            self.roll = roll._replace(boosted=True)
            events.append(Event("boost", f"{self.g.seat_name(roll.seat)} Boosts the roll", "Boost (Yourself)"))
        self._resolve_roll(events)

    def _resolve_roll(self, events: list[Event]) -> None:
        roll = self.roll
        if roll is None:
            return
        self.roll = None
        got = rules.roll_successes(roll)
        if roll.kind is RollKind.DEFENSE:
            taken = max(0, roll.damage - got)
            board = self.board[roll.seat]
            vehicle = f"the {self.g.boards[board].name}" if board >= 0 else "the vehicle"
            events.append(Event("defense", f"{self.g.seat_name(roll.seat)} blocks {min(got, roll.damage)} of "
                                f"{roll.damage} damage: {vehicle} takes {taken}", "Damage and Defense"))
            rules.apply_damage(self, roll.seat, taken, events)
            return
        if got < roll.need:
            events.append(Event("fail", f"{got} of {roll.need} successes: {self.g.words.attempt(self.g, roll.action)} "
                                "fails", "Skill Rolls"))
            return
        events.append(Event("success", f"{got} of {roll.need} successes: {self.g.words.attempt(self.g, roll.action)} "
                            "succeeds", "Skill Rolls"))
        self.perform(roll.action, notation.parse(roll.action), events)

    def perform(self, text: str, act: notation.Action, events: list[Event]) -> None:
        """The action itself, once any Skill Roll succeeded (Take Two Actions; Stunt Actions)."""
        seat, verb = self.active, act.verb
        who = self.g.seat_name(seat)
        target = rules.space_of(self, act.space) if act.space not in (NO_SPACE, WHEEL) else -1
        at = rules.occupancy(self).get(target, -1) if target >= 0 else -1
        if verb is Verb.DRIVE:
            rules.set_piece(self, self.pv[seat], self.pieces[self.pv[seat]]._replace(space=target))
            events.append(Event("drive", f"{who} drives to {rules.name(self, target)}", "Drive"))
        elif verb is Verb.LEAP:
            if act.space == WHEEL:
                self.peg_on = replaced(self.peg_on, seat, BEHIND_WHEEL)
                events.append(Event("leap", f"{who} leaps back behind the wheel", "Leap"))
            else:
                self.peg_on = replaced(self.peg_on, seat, at)
                events.append(Event("leap", f"{who} leaps on top of {rules.piece_words(self, at)}", "Leap"))
        elif verb is Verb.RAM:
            events.append(Event("ram", f"{who} rams {rules.piece_words(self, at)} into a Wreck", "Ram Enemy SUV"))
            rules.make_wreck(self, at, events)
        elif verb is Verb.FORCE:
            options = rules.reachable(self, target, rules.force_range(self, seat), rules.occupancy(self))
            choices = tuple(sorted(self._space_at(Verb.TO, o) for o in options))
            rules.ask(self, Choice(ChoiceKind.FORCE_TO, seat, choices, at, target, True))
        elif verb is Verb.SHAKE:
            piece = self.pv[seat]
            rules.set_piece(self, piece, self.pieces[piece]._replace(enemy_peg=False))
            events.append(Event("shake", f"{who} shakes the Enemy Peg off {rules.piece_words(self, piece)}", "Shake"))
        elif verb is Verb.BRAWL:
            piece = self.peg_on[seat]
            rules.set_piece(self, piece, self.pieces[piece]._replace(enemy_peg=False))
            events.append(Event("brawl", f"{who} Brawls the Enemy Peg off {rules.piece_words(self, piece)}", "Brawl"))
            if self.g.characters[seat].power == "parkour":
                self._free_leap(seat)
        elif verb is Verb.HIJACK:
            self._hijack(seat, events)
        else:
            card = (self.g.stunt_cards if verb is Verb.STUNT else self.g.scenario_actions)[act.name]
            if verb is Verb.STUNT:
                spot = self.stunt_row.index(act.name)
                rules.take_stunt_token(self, seat, spot)
            events.append(Event("stunt", f"{who} performs {card.name}", "Stunt Actions"))
            self.queue = (*(Task(TaskKind.EFFECT, line=line, seat=seat, target=at) for line in card.reward),
                          *self.queue)

    def _free_leap(self, seat: int) -> None:
        """Han's Parkour (HH-G6): after a successful Brawl, a free Leap of one space (or stay)."""
        here = rules.peg_space(self, seat)
        options = [self._space_at(Verb.LEAP, self.pieces[i].space) for i in rules.leap_targets(self, seat)
                   if rules.dist(self, here, self.pieces[i].space) <= 1]
        if self.pv[seat] >= 0 and rules.dist(self, here, self.pieces[self.pv[seat]].space) <= 1:
            options.append("leap:wheel")
        if options:
            rules.ask(self, Choice(ChoiceKind.FREE_LEAP, seat, tuple(sorted([*options, "stay"]))))

    def _hijack(self, seat: int, events: list[Event]) -> None:
        """Hijack Enemy SUV: the SUV becomes your Player Vehicle (Hijacked SUV board, full Strength, behind
        the wheel); a starting vehicle is abandoned for good, a hijacked one goes back to the enemy."""
        piece = self.peg_on[seat]
        old = self.pv[seat]
        if old >= 0:
            p = self.pieces[old]
            if p.kind == PLAYER:
                rules.set_piece(self, old, p._replace(kind=ABANDONED))
            else:
                rules.set_piece(self, old, p._replace(kind=SUV, owner=-1))
        rules.set_piece(self, piece, self.pieces[piece]._replace(kind=HIJACKED, owner=seat))
        self.pv = replaced(self.pv, seat, piece)
        self.board = replaced(self.board, seat, self.g.hijacked_board)
        self.damage = replaced(self.damage, seat, 0)
        self.peg_on = replaced(self.peg_on, seat, BEHIND_WHEEL)
        events.append(Event("hijack", f"{self.g.seat_name(seat)} hijacks the Enemy SUV in "
                            f"{rules.name(self, self.pieces[piece].space)}", "Hijack Enemy SUV"))

    def _chosen(self, act: notation.Action, events: list[Event]) -> None:
        choice = self.choice
        if choice is None:
            return
        self.choice = None
        kind = choice.kind
        space = rules.space_of(self, act.space) if act.space != NO_SPACE else -1
        taken = rules.occupancy(self)
        if kind in (ChoiceKind.FORCE_TO, ChoiceKind.MOVE_TO):
            moved = rules.piece_words(self, choice.a)
            rules.set_piece(self, choice.a, self.pieces[choice.a]._replace(space=space))
            rule = "Force" if kind is ChoiceKind.FORCE_TO else "Stunt Actions"
            events.append(Event("move", f"{moved} moves to {rules.name(self, space)}", rule))
            seat = choice.seat
            if choice.follow and rules.manned(self, seat) and dist_ok(self, seat, choice.b):
                rules.ask(self, Choice(ChoiceKind.FOLLOW, seat, ("follow", "stay"), choice.b))
        elif kind is ChoiceKind.FOLLOW:
            if act.verb is Verb.FOLLOW:
                piece = self.pv[choice.seat]
                rules.set_piece(self, piece, self.pieces[piece]._replace(space=choice.a))
                who = self.g.seat_name(choice.seat)
                events.append(Event("move", f"{who} follows into {rules.name(self, choice.a)}", "Force"))
        elif kind is ChoiceKind.DIRECTION:
            if act.name != "none":
                rules.main_move(self, act.name, choice.seat, events)
        elif kind is ChoiceKind.PEG:
            rules.place_player_peg(self, choice.seat, taken[space], events)
        elif kind is ChoiceKind.SLAM:
            victim = self.pieces[taken[space]].owner
            events.append(Event("slam", f"{rules.piece_words(self, taken[space])} is slammed for {choice.a} damage",
                                "Roll the Enemy Die: Slam"))
            # as a slam with one target: Dom's Family First may take it first (HH-G6)
            rules.push_front(self, Task(TaskKind.FAMILY_FIRST, choice.a, victim))
        elif kind is ChoiceKind.HIT:
            victim = self.pieces[taken[space]].owner
            events.append(Event("hit", f"the team chooses {rules.piece_words(self, taken[space])} to take the hit "
                                f"of {choice.a} damage", "HH-X2"))
            rules.push_front(self, Task(TaskKind.DAMAGE, choice.a, victim))
        elif kind is ChoiceKind.REMOVE_PEG:
            if space >= 0:
                piece = taken[space]
                rules.set_piece(self, piece, self.pieces[piece]._replace(enemy_peg=False))
                events.append(Event("peg", f"the Enemy Peg on {rules.piece_words(self, piece)} returns to the supply",
                                    "Stunt Actions"))
        elif kind is ChoiceKind.ENEMY_PEG:
            rules.place_enemy_peg(self, choice.a, taken[space], "FAQ: the team decides", events)
        elif kind is ChoiceKind.FREE_LEAP:
            if act.space == WHEEL:
                self.peg_on = replaced(self.peg_on, choice.seat, BEHIND_WHEEL)
                events.append(Event("leap", f"{self.g.seat_name(choice.seat)} leaps back behind the wheel "
                                    f"({self.g.words.power_names['parkour']})", "Special Powers"))
            elif space >= 0:
                self.peg_on = replaced(self.peg_on, choice.seat, taken[space])
                events.append(Event("leap", f"{self.g.seat_name(choice.seat)} leaps onto "
                                    f"{rules.piece_words(self, taken[space])} ({self.g.words.power_names['parkour']})",
                                    "Special Powers"))
        elif kind is ChoiceKind.PEG_ORDER:
            rules.move_peg_first(self, choice.a, -1 if act.name == "enemy" else int(act.name))
        elif kind is ChoiceKind.RAMSEY:
            self.ramsey = taken[space]
            events.append(Event("ramsey", f"Ramsey moves to {rules.piece_words(self, taken[space])}",
                                "Chopper Takedown: Ramsey"))

    # --- the queue and the round -------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> None:
        """Work the queue until a decision or a chance outcome is needed; then move the round on."""
        while True:
            rules.check_objective(self, events)
            if self.outcome:
                self.stage = Stage.OVER
                self.queue = ()
                self.roll = None
                self.choice = None
                self.waiting = frozenset()
                self.power, self.power_seat = "", -1
                return
            if self.stage is not Stage.AUTO:
                return
            if self.queue:
                task = self.queue[0]
                self.queue = self.queue[1:]
                self._run(task, events)
                continue
            if self.phase is Phase.ACTIONS:
                self.stage = Stage.ACTION if self.actions_left > 0 else Stage.ENEMY_DIE
                return
            if self.phase is Phase.ENEMY:
                self.exhausted = replaced(self.exhausted, self.active, True)
                self.active = -1
                if all(self.exhausted):
                    self.phase = Phase.END_ROUND
                    events.append(Event("round", f"end of round {self.round}", "End of Round"))
                    self.queue = (Task(TaskKind.ROAD_MAINTENANCE), Task(TaskKind.STUNT_MAINTENANCE))
                    continue
                self.stage = Stage.CHOOSE_TURN
                return
            if self.phase is Phase.END_ROUND:
                self.round += 1
                self.exhausted = (False,) * self.g.players
                self.family_first_used = frozenset()
            self.stage = Stage.CHOOSE_TURN
            return

    def _run(self, task: Task, events: list[Event]) -> None:
        kind = task.kind
        if kind is TaskKind.EFFECT and task.line is not None:
            rules.run_effect(self, task.line, task.seat, task.target, events)
        elif kind is TaskKind.SUV:
            rules.activate_suv(self, task.a, events)
        elif kind is TaskKind.PEG:
            rules.activate_peg(self, task.a, events)
        elif kind is TaskKind.SHAW:
            rules.activate_shaw(self, events)
        elif kind is TaskKind.DAMAGE:
            seat = task.seat
            if self.pv[seat] >= 0 and task.a > 0:
                self.begin_roll(RollKind.DEFENSE, seat, rules.defense_dice(self, seat), 0, damage=task.a)
        elif kind is TaskKind.CARD:
            rules.enemy_card_step(self, events)
        elif kind is TaskKind.DRAW_ENEMY:
            if not self.enemy_deck:
                self.enemy_deck = self.enemy_discard
                self.enemy_discard = ()
                events.append(Event("card", "the Enemy discard pile is shuffled into a new deck", "Enemy Cards"))
            if self.enemy_deck:
                self.stage = Stage.ENEMY_CARD
        elif kind is TaskKind.ROAD_MAINTENANCE:
            self.queue = (*rules.road_maintenance_tasks(self), *self.queue)
        elif kind is TaskKind.WRECK_MOVE:
            rules.move_wreck(self, task.a, events)
        elif kind is TaskKind.DRIFT:
            rules.drift(self, task.a, events)
        elif kind is TaskKind.STUNT_MAINTENANCE:
            if rules.stunt_maintenance(self, events):
                self.stage = Stage.STUNT_CARD
        elif kind is TaskKind.RELOCATE:
            rules.relocate_player_peg(self, task.seat, task.a, events)
        elif kind is TaskKind.ENEMY_RELOCATE:
            rules.relocate_enemy_peg(self, task.a, events)
        elif kind is TaskKind.RAMSEY:
            rules.move_ramsey(self, task.a, events)
        elif kind is TaskKind.PEG_ORDER:
            rules.order_pegs(self, task.a)
        elif kind is TaskKind.FAMILY_FIRST:
            dom = rules.family_first_seat(self, task.seat)
            if dom >= 0:
                self._open_power("family", dom, (task.seat, task.a))
            else:
                rules.push_front(self, Task(TaskKind.DAMAGE, task.a, task.seat))

    # --- views and the rest of the contract ----------------------------------------------------------

    def enemy_pegs_in_supply(self) -> int:
        return self.g.content.model.supply.enemy_pegs - sum(1 for p in self.pieces if p.enemy_peg and p.space >= 0)

    def _view(self, seat: int | None) -> dict[str, JSON]:
        """Everything is public in Highway Heist (a cooperative game with open information; the decks
        hold no order, so nothing is hidden). The keys, kept stable for renderers and bots (ids and coded
        spaces for code; every ``*name``, ``*place``, ``label``, ``text`` key is what a player reads):

        - ``scenario``, ``difficulty``, ``scenario_name``, ``difficulty_name``, ``main_enemy`` (its name),
          ``round``, ``stage`` (``STAGE_NAMES``), ``phase``, ``active`` (seat or None), ``actions_left``,
          ``road`` ({columns, lanes});
        - ``pieces``: per piece {id, kind (``rules.KIND_NAMES``), space ("c5l3" or None when off the
          road), owner (seat or None), enemy_peg, cargo, player_pegs (seats on its roof), name (in
          words, with its place: "the Enemy SUV in column 5, lane 3"; None off the road)};
        - ``key``: each kind of piece or token on the road now {kind, name, text} (the terminal's key);
        - ``chopper`` (space or None), ``ramsey`` (space of Ramsey's vehicle or None);
        - ``seats``: per seat {seat, character, power, character_name, power_name, vehicle (board id or
          None), vehicle_name, vehicle_power (its power's id, None without one), vehicle_power_name,
          power_text, vehicle_power_text, vehicle_space,
          vehicle_place, peg_place, damage, strength, boost, boost_cap, peg ("wheel", a space, or None),
          exhausted, ratings {speed, control, athletics, defense}};
        - ``boost_supply``, ``enemy_peg_supply``, ``suv_supply``;
        - ``track`` {name, value, goal, label}, ``cargo_in_semi``, ``lost_cargo``, ``door_open``;
        - ``enemy_row`` (card ids or None, the last is ACTIVATE!), ``enemy_deck_size``, ``enemy_discard``,
          ``enemy_row_names`` (the name of each card in ``enemy_row``, None for an empty spot),
          ``enemy_row_cards`` (per spot {card, name, reveal, activated: the two effects in words} or None);
        - ``stunt_row`` (per spot, East first: {card, name, level, tokens, text, roll} or None),
          ``stunt_deck_size``;
        - ``roll`` (None or {kind, seat, dice, need, action, damage, faces, boosted, bonus, label}),
          ``assisting`` (seats still deciding), ``choice`` (None or {kind, seat, options, labels: each
          option in words, text: what the decision is});
        - ``tej_tokens``; ``power`` (None or {power: "wheelman"|"tech"|"family", seat}: an open window);
        - ``outcome`` ("", "win" or "lose") and ``reason``;
        - ``roller``: whose roll or draw the chance step is (``roller``), None at a choice.
        """
        g = self.g
        words = g.words
        names = [g.space_name(p.space) if p.space >= 0 else None for p in self.pieces]
        roll = self.roll
        choice = self.choice
        return {
            "scenario": g.scenario_id,
            "difficulty": g.options["difficulty"],
            "scenario_name": words.scenario_name,
            "difficulty_name": words.difficulty_name,
            "main_enemy": words.main_enemy,
            "round": self.round,
            "stage": STAGE_NAMES[self.stage],
            "phase": self.phase.name.lower(),
            "active": self.active if self.active >= 0 else None,
            "actions_left": self.actions_left,
            "road": {"columns": g.columns, "lanes": g.lanes},
            "pieces": [{"id": i, "kind": KIND_NAMES[p.kind], "space": names[i],
                        "owner": p.owner if p.owner >= 0 else None, "enemy_peg": p.enemy_peg, "cargo": p.cargo,
                        "player_pegs": [s for s, on in enumerate(self.peg_on) if on == i],
                        "name": rules.piece_words(self, i) if p.space >= 0 else None}
                       for i, p in enumerate(self.pieces)],
            "key": self._key(),
            "chopper": g.space_name(self.chopper) if self.chopper >= 0 else None,
            "ramsey": names[self.ramsey] if self.ramsey >= 0 else None,
            "seats": [self._seat_view(s) for s in g.seats],
            "boost_supply": self.boost_supply,
            "enemy_peg_supply": self.enemy_pegs_in_supply(),
            "suv_supply": sum(1 for p in self.pieces if p.kind == SUV and p.space < 0),
            "track": {"name": g.scenario.track, "value": rules.track_value(self), "goal": g.scenario.goal,
                      "label": words.track_name},
            "cargo_in_semi": self.cargo_in_semi,
            "lost_cargo": self.lost_cargo,
            "door_open": self.door_open,
            "enemy_row": [c or None for c in self.enemy_row],
            "enemy_deck_size": len(self.enemy_deck),
            "enemy_discard": list(self.enemy_discard),
            "enemy_row_names": [g.enemy_cards[c].name if c else None for c in self.enemy_row],
            "enemy_row_cards": [{"card": c, "name": g.enemy_cards[c].name, "reveal": words.reveal[c],
                                 "activated": words.activated[c]} if c else None for c in self.enemy_row],
            "stunt_row": [{"card": c, "name": g.stunt_cards[c].name, "level": g.stunt_cards[c].level,
                           "tokens": self.stunt_tokens[i], "text": words.card_texts[c], "roll": words.card_rolls[c]}
                          if c else None for i, c in enumerate(self.stunt_row)],
            "stunt_deck_size": sum(self.stunts_left),
            "roll": None if roll is None else {
                "kind": roll.kind.name.lower(), "seat": roll.seat, "dice": roll.dice, "need": roll.need,
                "action": roll.action, "damage": roll.damage, "faces": list(roll.faces), "boosted": roll.boosted,
                "bonus": roll.bonus,
                "label": words.attempt(g, roll.action) if roll.kind is RollKind.ACTION else "Defense"},
            "assisting": sorted(self.waiting),
            "choice": None if choice is None else {
                "kind": choice.kind.name.lower(), "seat": choice.seat, "options": list(choice.options),
                "labels": [describe(g, option) for option in choice.options],
                "text": words.decisions[choice.kind.name.lower()]},
            "tej_tokens": self.tej_tokens,
            "power": None if not self.power else {"power": self.power, "seat": self.power_seat},
            "outcome": self.outcome,
            "reason": self.reason,
            "roller": self.roller(),
        }

    def _key(self) -> list[JSON]:
        """The view's ``key``: each kind of piece or token on the road now, by name with its effect."""
        present = {KIND_NAMES[p.kind] for p in self.pieces if p.space >= 0}
        if any(p.enemy_peg and p.space >= 0 for p in self.pieces):
            present.add("enemy-peg")
        if self.chopper >= 0:
            present.add("chopper")
        if self.ramsey >= 0:
            present.add("ramsey")
        if self.cargo_in_semi or any(p.cargo and p.space >= 0 for p in self.pieces):
            present.add("cargo")
        terms = self.g.words.terms
        return [{"kind": kind, "name": terms[kind].name, "text": terms[kind].text} for kind in KEY_ORDER
                if kind in present]

    def roller(self) -> int | None:
        """Whose roll or draw the chance node is (the view's ``roller``): the seat making the Skill Roll
        (``roll.seat``: the Active Player's action, a Defense roll's damaged player) for the Effort Dice and
        Brian's rerolled die; the Active Player for the Enemy Die ("the player who rolled the Enemy Die")
        and the Enemy card it draws; None for a Stunt card (drawn at setup and at the End of Round, by
        the team) and when the state is not at a chance node."""
        stage = self.stage
        if stage is Stage.ROLL or stage is Stage.REROLL:
            return self.roll.seat if self.roll is not None else None
        if stage is Stage.ENEMY_DIE or stage is Stage.ENEMY_CARD:
            return self.active if self.active >= 0 else None
        return None

    def _seat_view(self, seat: int) -> dict[str, JSON]:
        g = self.g
        board = self.board[seat]
        on = self.peg_on[seat]
        peg: str | None
        if on == BEHIND_WHEEL:
            peg = "wheel"
        elif on == NOWHERE:
            peg = None
        else:
            peg = g.space_name(self.pieces[on].space)
        words = g.words
        character = g.characters[seat]
        vehicle = g.boards[board] if board >= 0 else None
        return {
            "seat": seat,
            "character": character.id,
            "power": character.power,
            "character_name": character.name,
            "power_name": words.power_names.get(character.power),
            "power_text": words.power_texts.get(character.power),
            "vehicle": vehicle.id if vehicle is not None else None,
            "vehicle_name": vehicle.name if vehicle is not None else None,
            "vehicle_power": vehicle.power if vehicle is not None and vehicle.power in words.power_names else None,
            "vehicle_power_name": words.power_names.get(vehicle.power) if vehicle is not None else None,
            "vehicle_power_text": words.power_texts.get(vehicle.power) if vehicle is not None else None,
            "vehicle_space": g.space_name(self.pieces[self.pv[seat]].space) if self.pv[seat] >= 0 else None,
            "vehicle_place": g.places[self.pieces[self.pv[seat]].space] if self.pv[seat] >= 0 else None,
            "peg_place": ("behind the wheel" if on == BEHIND_WHEEL else "off the road, waiting" if on == NOWHERE
                          else f"on top of {rules.piece_words(self, on)}"),
            "damage": self.damage[seat],
            "strength": (g.boards[board].strength + g.content.model.knobs.strength_offset) if board >= 0 else 0,
            "boost": self.boost[seat],
            "boost_cap": g.boost_caps[seat],
            "peg": peg,
            "exhausted": self.exhausted[seat],
            "ratings": {name: rules.rating(self, seat, i)
                        for i, name in enumerate(("speed", "control", "athletics", "defense"))},
        }

    @property
    def result(self) -> Result | None:
        """The team wins or loses together: every seat wins on a win, none on a loss."""
        if self.stage is not Stage.OVER:
            return None
        seats = tuple(self.g.seats)
        won = self.outcome == "win"
        return Result(seats, seats if won else (), self.reason,
                      {"outcome": self.outcome, "round": self.round, "track": rules.track_value(self)}, team=True)

    def determinize(self, seat: int | None, rng: random.Random) -> HeistState:
        """Nothing is hidden: the decks are multisets drawn by chance and the Stunt removals are drawn
        only as cards are revealed."""
        return self.copy()

    def invariant_problems(self) -> list[str]:
        g = self.g
        model = g.content.model
        problems = []
        if sum(1 for p in self.pieces if p.suv) != model.supply.enemy_suvs:
            problems.append("the Enemy SUVs are not conserved")
        if self.enemy_pegs_in_supply() < 0:
            problems.append("more Enemy Pegs on the road than exist")
        tokens = sum(self.boost) + sum(self.stunt_tokens) + self.boost_supply
        if tokens != model.supply.boost_tokens:
            problems.append(f"Boost tokens are not conserved: {tokens}")
        cargo = self.cargo_in_semi + self.lost_cargo + sum(p.cargo for p in self.pieces)
        if cargo != g.scenario.cargo:
            problems.append(f"Cargo is not conserved: {cargo}")
        for seat in g.seats:
            if self.boost[seat] > g.boost_caps[seat] or self.boost[seat] < 0:
                problems.append(f"seat {seat} holds {self.boost[seat]} Boost tokens")
        spaces = [p.space for p in self.pieces if p.space >= 0]
        if len(spaces) != len(set(spaces)):
            problems.append("two pieces share a space")
        for i, p in enumerate(self.pieces):
            if p.space >= 0 and p.kind != rules.WRECK and rules.pegs_on(self, i) + p.enemy_peg > rules.ROOF_SLOTS:
                problems.append(f"too many pegs on piece {i}")
        return problems


def dist_ok(s: HeistState, seat: int, space: int) -> bool:
    """Force: the vacated space is free for the Active Player Vehicle to follow into."""
    return space not in rules.occupancy(s) and rules.dist(s, s.pieces[s.pv[seat]].space, space) == 1
