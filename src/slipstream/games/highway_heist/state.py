"""One position of a Highway Heist match (``HeistState``): its declared fields and the engine's contract.

The rules are small functions in ``rules.py``, in rulebook order, and the effect language of the cards
in ``effects.py``; ``turn.py`` sequences them (the turn flow: ``_do`` is ``turn.apply_action``). The
nouns (stages, pieces, tasks, rolls, choices) are in ``types.py``; the action strings are read in
``notation.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from slipstream.engine.chance import ChanceTable
from slipstream.engine.fields import slots
from slipstream.engine.game import CHANCE, JSON, Actor, Event, Result, State

from . import notation, rules, turn
from .notation import Verb
from .types import (
    BEHIND_WHEEL,
    CAB,
    KIND_NAMES,
    NOWHERE,
    OFF,
    PLAYER,
    ROOF_SLOTS,
    SHAW,
    STAGE_NAMES,
    SUV,
    TANK,
    TRAILER,
    WRECK,
    Choice,
    Phase,
    Piece,
    Roll,
    RollKind,
    Stage,
    Task,
)
from .words import KEY_ORDER, describe

if TYPE_CHECKING:
    from .game import HighwayHeist


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
    vehicle: tuple[int, ...]
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
        state = cls()
        state.g = game
        state.stage = Stage.STUNT_CARD
        state.phase = Phase.SETUP
        state.round = 1
        state.active = -1
        state.actions_left = 0
        state.exhausted = (False,) * n
        pieces = [Piece(PLAYER, game.start_spaces[seat], seat) for seat in range(n)]
        pieces += [Piece(SUV, OFF, -1, False, 0, True)] * model.supply.enemy_suvs
        state.chopper = -1
        kinds = {"tank": TANK, "semi_cab": CAB, "semi_trailer": TRAILER, "shaw_car": SHAW}
        suv = n
        for rec in game.scenario.pieces:
            space = (rec.at[0] - 1) * game.lanes + rec.at[1] - 1
            if rec.kind == "chopper":
                state.chopper = space
            elif rec.kind == "suv":
                pieces[suv] = Piece(SUV, space, -1, rec.enemy_peg, 0, True)
                suv += 1
            else:
                pieces.append(Piece(kinds[rec.kind], space, -1, rec.enemy_peg))
        state.pieces = tuple(pieces)
        state.vehicle = tuple(range(n))
        state.board = game.starting_boards
        state.damage = (0,) * n
        state.peg_on = (BEHIND_WHEEL,) * n
        state.stranded = (OFF,) * n
        start = model.rules.start_boost
        state.boost = (start,) * n
        state.boost_supply = model.supply.boost_tokens - start * n
        state.ramsey = game.ramsey_seat if game.scenario.ramsey else -1
        state.track = 0
        state.cargo_in_semi = game.scenario.cargo
        state.lost_cargo = 0
        state.door_open = False
        state.enemy_row = ("",) * model.road.enemy_spots
        state.enemy_deck = tuple(sorted(game.enemy_cards))
        state.enemy_discard = ()
        state.stunt_row = ("",) * model.road.stunt_spots
        state.stunt_tokens = (0,) * model.road.stunt_spots
        state.stunts_left = game.stunts_kept
        state.stunt_drawn = ()
        state.stunt_discard = ()
        state.queue = ()
        state.roll = None
        state.waiting = frozenset()
        state.choice = None
        state.activated_pegs = frozenset()
        state.tej_tokens = model.supply.tej_tokens if any(c.power == "tech_support" for c in game.characters) else 0
        state.family_first_used = frozenset()
        state.wheelman_used = False
        state.power = ""
        state.power_seat = -1
        state.power_data = (0, 0)
        state.outcome = ""
        state.reason = ""
        state.events = ()
        return state

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
            return rules.action_choices(self)
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
            return rules.power_choices(self)
        return [a for a, _ in self._chance()]

    def _do(self, action: str) -> list[Event]:
        return turn.apply_action(self, action)

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
        - ``pieces``: per piece {id, kind (``types.KIND_NAMES``), space ("c5l3" or None when off the
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
        game = self.g
        words = game.words
        names = [game.space_name(p.space) if p.space >= 0 else None for p in self.pieces]
        roll = self.roll
        choice = self.choice
        return {
            "scenario": game.scenario_id,
            "difficulty": game.options["difficulty"],
            "scenario_name": words.scenario_name,
            "difficulty_name": words.difficulty_name,
            "main_enemy": words.main_enemy,
            "round": self.round,
            "stage": STAGE_NAMES[self.stage],
            "phase": self.phase.name.lower(),
            "active": self.active if self.active >= 0 else None,
            "actions_left": self.actions_left,
            "road": {"columns": game.columns, "lanes": game.lanes},
            "pieces": [{"id": i, "kind": KIND_NAMES[p.kind], "space": names[i],
                        "owner": p.owner if p.owner >= 0 else None, "enemy_peg": p.enemy_peg, "cargo": p.cargo,
                        "player_pegs": [seat for seat, on in enumerate(self.peg_on) if on == i],
                        "name": rules.piece_words(self, i) if p.space >= 0 else None}
                       for i, p in enumerate(self.pieces)],
            "key": self._key(),
            "chopper": game.space_name(self.chopper) if self.chopper >= 0 else None,
            "ramsey": names[self.ramsey] if self.ramsey >= 0 else None,
            "seats": [self._seat_view(seat) for seat in game.seats],
            "boost_supply": self.boost_supply,
            "enemy_peg_supply": self.enemy_pegs_in_supply(),
            "suv_supply": sum(1 for p in self.pieces if p.kind == SUV and p.space < 0),
            "track": {"name": game.scenario.track, "value": rules.track_value(self), "goal": game.scenario.goal,
                      "label": words.track_name},
            "cargo_in_semi": self.cargo_in_semi,
            "lost_cargo": self.lost_cargo,
            "door_open": self.door_open,
            "enemy_row": [c or None for c in self.enemy_row],
            "enemy_deck_size": len(self.enemy_deck),
            "enemy_discard": list(self.enemy_discard),
            "enemy_row_names": [game.enemy_cards[c].name if c else None for c in self.enemy_row],
            "enemy_row_cards": [{"card": c, "name": game.enemy_cards[c].name, "reveal": words.reveal[c],
                                 "activated": words.activated[c]} if c else None for c in self.enemy_row],
            "stunt_row": [{"card": c, "name": game.stunt_cards[c].name, "level": game.stunt_cards[c].level,
                           "tokens": self.stunt_tokens[i], "text": words.card_texts[c], "roll": words.card_rolls[c]}
                          if c else None for i, c in enumerate(self.stunt_row)],
            "stunt_deck_size": sum(self.stunts_left),
            "roll": None if roll is None else {
                "kind": roll.kind.name.lower(), "seat": roll.seat, "dice": roll.dice, "need": roll.need,
                "action": roll.action, "damage": roll.damage, "faces": list(roll.faces), "boosted": roll.boosted,
                "bonus": roll.bonus,
                "label": words.attempt(game, roll.action) if roll.kind is RollKind.ACTION else "Defense"},
            "assisting": sorted(self.waiting),
            "choice": None if choice is None else {
                "kind": choice.kind.name.lower(), "seat": choice.seat, "options": list(choice.options),
                "labels": [describe(game, option) for option in choice.options],
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
        game = self.g
        board = self.board[seat]
        on = self.peg_on[seat]
        peg: str | None
        if on == BEHIND_WHEEL:
            peg = "wheel"
        elif on == NOWHERE:
            peg = None
        else:
            peg = game.space_name(self.pieces[on].space)
        words = game.words
        character = game.characters[seat]
        vehicle = game.boards[board] if board >= 0 else None
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
            "vehicle_space": (game.space_name(self.pieces[self.vehicle[seat]].space) if self.vehicle[seat] >= 0
                              else None),
            "vehicle_place": game.places[self.pieces[self.vehicle[seat]].space] if self.vehicle[seat] >= 0 else None,
            "peg_place": ("behind the wheel" if on == BEHIND_WHEEL else "off the road, waiting" if on == NOWHERE
                          else f"on top of {rules.piece_words(self, on)}"),
            "damage": self.damage[seat],
            "strength": (game.boards[board].strength + game.content.model.knobs.strength_offset) if board >= 0 else 0,
            "boost": self.boost[seat],
            "boost_cap": game.boost_caps[seat],
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
        game = self.g
        model = game.content.model
        problems = []
        if sum(1 for p in self.pieces if p.suv) != model.supply.enemy_suvs:
            problems.append("the Enemy SUVs are not conserved")
        if self.enemy_pegs_in_supply() < 0:
            problems.append("more Enemy Pegs on the road than exist")
        tokens = sum(self.boost) + sum(self.stunt_tokens) + self.boost_supply
        if tokens != model.supply.boost_tokens:
            problems.append(f"Boost tokens are not conserved: {tokens}")
        cargo = self.cargo_in_semi + self.lost_cargo + sum(p.cargo for p in self.pieces)
        if cargo != game.scenario.cargo:
            problems.append(f"Cargo is not conserved: {cargo}")
        for seat in game.seats:
            if self.boost[seat] > game.boost_caps[seat] or self.boost[seat] < 0:
                problems.append(f"seat {seat} holds {self.boost[seat]} Boost tokens")
        spaces = [p.space for p in self.pieces if p.space >= 0]
        if len(spaces) != len(set(spaces)):
            problems.append("two pieces share a space")
        for i, p in enumerate(self.pieces):
            if p.space >= 0 and p.kind != WRECK and rules.pegs_on(self, i) + p.enemy_peg > ROOF_SLOTS:
                problems.append(f"too many pegs on piece {i}")
        return problems

