"""Highway Heist's declared observation (the ``observation`` hook, ``slipstream.engine.observation``): for a
loaded game, every slot a seat's view can fill, named, each in [0, 1] by its true bound, written straight
from the state.

Highway Heist is cooperative and shows everything to every seat (``HeistState._view``): no seat holds
anything private, so a seat's observation differs from another's only in ``seat``. A place on the road
is three things: ``on road``, ``column`` ((column + 1) / columns) and ``lane=L``. The slots, in order:

- ``seat=S`` (the observer), ``stage=...``, ``phase=...``, ``active=S``, ``roller=S``, ``actions left``
  (of two), ``round`` (a count: linear to the usual last round, then ``round beyond``);
- per piece P (every vehicle, Wreck and Main Enemy piece of the scenario, on the road or off it):
  ``piece P/kind=...``, its place, ``owner=S``, ``enemy peg``, ``cargo`` (of the scenario's);
- ``chopper`` and ``ramsey`` (Ramsey's vehicle): each a place;
- per seat S: ``seat S/vehicle=<board>``, ``has vehicle`` and the vehicle's place, ``damage`` (a count
  over the largest strength), ``boost`` (of its cap), ``peg=wheel``, ``peg=nowhere`` or ``peg=piece P``,
  ``exhausted``, ``assisting`` and each rating (of the largest it could reach);
- ``boost supply`` (of all the tokens), ``tej tokens``, ``track`` (the objective's count: linear to the
  goal, then ``track beyond``), ``cargo in semi``, ``lost cargo``, ``door open``;
- ``enemy spot K=<card>``, ``enemy discard/<card>``, ``enemy deck`` (of all the cards), ``stunt spot
  K=<card>`` and ``stunt spot K/tokens`` (a count), ``stunt deck`` (of the cards kept);
- the roll under way: ``roll/kind=...``, ``roll/seat=S``, ``roll/dice`` (of the most), ``roll/need`` and
  ``roll/damage`` (counts), ``roll/action=<verb>`` with its place, ``roll/successes``, ``roll/boosts``
  and ``roll/blanks`` (of the most dice), ``roll/bonus``, ``roll/boosted``;
- the choice open: ``choice/kind=...``, ``choice/seat=S``, its options ``choice/option at`` each space
  (the option's verb is the choice's) and ``choice/option=<word>`` for the others;
- ``power=...`` and ``power/seat=S`` (an open power window), ``outcome=win|lose`` and ``reason=...``.

The names, texts, labels and key of the view are words for what these slots hold, and the scenario,
difficulty, characters and road are the same in every position of the loaded game: they are left out.

Every value written is a float32 (``Scale``: ``writes_float32``), so a Python list filled by ``write``
holds what a float32 array would.
"""

from __future__ import annotations

from slipstream.engine.game import Game, State
from slipstream.engine.observation import Buffer, Layout, Scale

from . import notation, rules
from .action_space import action_space
from .game import HighwayHeist
from .notation import NO_SPACE, WHEEL, Verb
from .state import HeistState
from .types import BEHIND_WHEEL, KIND_NAMES, NOWHERE, ChoiceKind, Phase, RollKind, Stage

USUAL_ROUNDS = 9
"""``round`` is linear up to the Standard game's last round, then squashed."""
USUAL_TOKENS = 3
"""Boost tokens on a Stunt spot are linear up to this many, then squashed."""
ROLLED = (Verb.RAM, Verb.FORCE, Verb.SHAKE, Verb.BRAWL, Verb.HIJACK, Verb.STUNT, Verb.SCENARIO_ACTION)
"""The verbs of an action that takes a Skill Roll (a roll's declared action)."""
POWERS = ("wheelman", "tech", "family")
REASONS = (("win", "is achieved"), ("win", "Stunt is performed"), ("lose", "Stunt card left the road"),
           ("lose", "too little left to secure"), ("lose", "no Player Vehicle was near to take her"))
"""How a match ends, by its outcome and words of its reason (``rules.win``, ``rules.lose``);
any other reason is ``reason=other``."""
SEAT_PARTS = ("has vehicle", "on road", "column", "damage", "damage beyond", "boost", "exhausted", "assisting",
              "speed", "control", "athletics", "defense")
"""A seat's single slots, first in its block (the vehicle's lanes come after them)."""


def head(action: notation.Action) -> str:
    """An action without the space it names: ``ram``, ``stunt:ta-s1a``, ``leap:wheel``, ``remove:none``."""
    if action.space == WHEEL:
        return f"{action.verb.value}:wheel"
    if action.verb is Verb.REMOVE and action.space == NO_SPACE:
        return "remove:none"
    return f"{action.verb.value}:{action.name}" if action.name else action.verb.value


class HeistObservation:
    """The declared observation of one loaded Highway Heist game (see the module docstring)."""

    writes_float32 = True
    """Every value ``write`` writes is a float32 (``slipstream.engine.observation``)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, HighwayHeist):
            raise TypeError(f"not a Highway Heist game: {type(game).__name__}")
        self.game = game
        model = game.content.model
        players = game.players
        start = game.start(seed=0)
        if not isinstance(start, HeistState):
            raise TypeError(f"not a Highway Heist state: {type(start).__name__}")
        self.pieces = len(start.pieces)
        self.lanes = game.lanes
        self.columns = Scale(game.columns, 1 / game.columns)
        """A column's value, (column + 1) / columns."""
        self.actions = Scale(2)
        self.rounds = Scale(USUAL_ROUNDS)
        self.space_size = 2 + game.lanes
        self.cargo = max(1, game.scenario.cargo)
        self.boost_tokens = max(1, model.supply.boost_tokens)
        self.tej_tokens = max(1, model.supply.tej_tokens)
        self.strength = max(1, max(board.strength for board in game.boards) + model.knobs.strength_offset)
        self.ratings = tuple(max(1, max(c.ratings[skill] for c in game.characters)
                                 + max(board.ratings[skill] for board in game.boards)) for skill in range(4))
        self.max_dice = model.rules.max_dice
        self.enemy_cards = {card: index for index, card in enumerate(sorted(game.enemy_cards))}
        self.stunt_cards = {card: index for index, card in enumerate(sorted(game.stunt_cards))}
        self.stunt_total = max(1, sum(game.stunts_kept))
        self.goal = max(1, game.scenario.goal)
        self.cargo_scale = Scale(self.cargo)
        self.boost_token_scale = Scale(self.boost_tokens)
        self.tej_token_scale = Scale(self.tej_tokens)
        self.strength_scale = Scale(self.strength)
        self.boost_cap_scales = tuple(Scale(cap) for cap in game.boost_caps)
        self.rating_scales = tuple(Scale(bound) for bound in self.ratings)
        self.track_scale = Scale(self.goal)
        self.enemy_deck_scale = Scale(max(1, len(self.enemy_cards)))
        self.stunt_token_scale = Scale(USUAL_TOKENS)
        self.stunt_deck_scale = Scale(self.stunt_total)
        self.dice_scale = Scale(self.max_dice)
        self.bonus_scale = Scale(1)
        actions = [notation.parse(action) for action in action_space(game).actions]
        rolled = sorted({head(action) for action in actions if action.verb in ROLLED})
        self.rolled = {name: index for index, name in enumerate(rolled)}
        words = sorted({head(action) for action in actions if action.space in (NO_SPACE, WHEEL)
                        and action.verb not in ROLLED})
        self.option_words = {name: index for index, name in enumerate(words)}
        layout = Layout()
        self.seat_at = layout.one_hot("seat", range(players))
        self.stage_at = layout.one_hot("stage", (stage.name.lower().replace("_", "-") for stage in Stage))
        self.phase_at = layout.one_hot("phase", (phase.name.lower() for phase in Phase))
        self.active_at = layout.one_hot("active", range(players))
        self.roller_at = layout.one_hot("roller", range(players))
        self.actions_left_at = layout.slot("actions left")
        self.round_at = layout.count("round")
        self.piece_at = len(layout)
        for piece in range(self.pieces):
            name = f"piece {piece}"
            layout.one_hot(f"{name}/kind", KIND_NAMES)
            self._place(layout, name)
            layout.one_hot(f"{name}/owner", range(players))
            layout.slot(f"{name}/enemy peg")
            layout.slot(f"{name}/cargo")
        self.piece_size = len(KIND_NAMES) + self.space_size + players + 2
        self.chopper_at = self._place(layout, "chopper")
        self.ramsey_at = self._place(layout, "ramsey")
        self.seats_at = len(layout)
        peg_places = ("wheel", "nowhere", *(f"piece {piece}" for piece in range(self.pieces)))
        for seat in range(players):
            name = f"seat {seat}"
            for part in SEAT_PARTS:
                layout.slot(f"{name}/{part}")
            layout.one_hot(f"{name}/lane", range(1, game.lanes + 1))
            layout.one_hot(f"{name}/vehicle", (board.id for board in game.boards))
            layout.one_hot(f"{name}/peg", peg_places)
        self.seat_part = {part: index for index, part in enumerate(SEAT_PARTS)}
        self.lane_part = len(SEAT_PARTS)
        self.board_part = self.lane_part + game.lanes
        self.peg_part = self.board_part + len(game.boards)
        self.seat_size = self.peg_part + len(peg_places)
        self.boost_supply_at = layout.slot("boost supply")
        self.tej_at = layout.slot("tej tokens")
        self.track_at = layout.count("track")
        self.cargo_in_semi_at = layout.slot("cargo in semi")
        self.lost_cargo_at = layout.slot("lost cargo")
        self.door_at = layout.slot("door open")
        self.enemy_row_at = [layout.one_hot(f"enemy spot {spot}", self.enemy_cards)
                             for spot in range(1, model.road.enemy_spots + 1)]
        self.enemy_discard_at = len(layout)
        for card in self.enemy_cards:
            layout.slot(f"enemy discard/{card}")
        self.enemy_deck_at = layout.slot("enemy deck")
        self.stunt_row_at: list[int] = []
        for spot in range(1, model.road.stunt_spots + 1):
            self.stunt_row_at.append(layout.one_hot(f"stunt spot {spot}", self.stunt_cards))
            layout.count(f"stunt spot {spot}/tokens")
        self.stunt_deck_at = layout.slot("stunt deck")
        self.roll_kind_at = layout.one_hot("roll/kind", (kind.name.lower() for kind in RollKind))
        self.roll_seat_at = layout.one_hot("roll/seat", range(players))
        self.roll_dice_at = layout.slot("roll/dice")
        self.roll_need_at = layout.count("roll/need")
        self.roll_damage_at = layout.count("roll/damage")
        self.roll_action_at = layout.one_hot("roll/action", rolled)
        self.roll_target_at = self._place(layout, "roll/target")
        self.roll_faces_at = layout.slot("roll/successes")
        layout.slot("roll/boosts")
        layout.slot("roll/blanks")
        self.roll_bonus_at = layout.count("roll/bonus")
        self.roll_boosted_at = layout.slot("roll/boosted")
        self.choice_kind_at = layout.one_hot("choice/kind", (kind.name.lower() for kind in ChoiceKind))
        self.choice_seat_at = layout.one_hot("choice/seat", range(players))
        self.option_at = len(layout)
        for space in range(game.spaces):
            layout.slot(f"choice/option at {game.space_name(space)}")
        self.option_word_at = layout.one_hot("choice/option", words)
        self.power_at = layout.one_hot("power", POWERS)
        self.power_seat_at = layout.one_hot("power/seat", range(players))
        self.outcome_at = layout.one_hot("outcome", ("win", "lose"))
        self.reason_at = layout.one_hot("reason", (*(ending for _, ending in REASONS), "other"))
        self.names: tuple[str, ...] = tuple(layout.names)

    def _place(self, layout: Layout, name: str) -> int:
        """Slots for a place on the road: ``on road``, ``column``, ``lane=L``."""
        start = layout.slot(f"{name}/on road")
        layout.slot(f"{name}/column")
        layout.one_hot(f"{name}/lane", range(1, self.lanes + 1))
        return start

    def _write_place(self, out: Buffer, at: int, space: int) -> None:
        if space >= 0:
            column, lane = divmod(space, self.lanes)
            out[at] = 1.0
            out[at + 1] = self.columns.of(column + 1)
            out[at + 2 + lane] = 1.0

    def write(self, state: State, seat: int, out: Buffer) -> None:
        """Write ``seat``'s observation of ``state`` into the zeroed ``out`` (see the module docstring)."""
        if not isinstance(state, HeistState):
            raise TypeError(f"not a Highway Heist state: {type(state).__name__}")
        out[self.seat_at + seat] = 1.0
        out[self.stage_at + int(state.stage)] = 1.0
        out[self.phase_at + int(state.phase)] = 1.0
        if state.active >= 0:
            out[self.active_at + state.active] = 1.0
        roller = state.roller()
        if roller is not None:
            out[self.roller_at + roller] = 1.0
        if state.actions_left:
            out[self.actions_left_at] = self.actions.of(state.actions_left)
        self.rounds.write_count(out, self.round_at, state.round)
        self._write_pieces(state, out)
        self._write_place(out, self.chopper_at, state.chopper)
        if state.ramsey >= 0:
            self._write_place(out, self.ramsey_at, state.pieces[state.ramsey].space)
        self._write_seats(state, out)
        if state.boost_supply:
            out[self.boost_supply_at] = self.boost_token_scale.of(state.boost_supply)
        if state.tej_tokens:
            out[self.tej_at] = self.tej_token_scale.of(state.tej_tokens)
        self.track_scale.write_count(out, self.track_at, rules.track_value(state))
        if state.cargo_in_semi:
            out[self.cargo_in_semi_at] = self.cargo_scale.of(state.cargo_in_semi)
        if state.lost_cargo:
            out[self.lost_cargo_at] = self.cargo_scale.of(state.lost_cargo)
        if state.door_open:
            out[self.door_at] = 1.0
        self._write_cards(state, out)
        self._write_roll(state, out)
        self._write_choice(state, out)
        if state.power:
            out[self.power_at + POWERS.index(state.power)] = 1.0
            out[self.power_seat_at + state.power_seat] = 1.0
        if state.outcome:
            out[self.outcome_at + (0 if state.outcome == "win" else 1)] = 1.0
            out[self.reason_at + reason_index(state.outcome, state.reason)] = 1.0

    def _write_pieces(self, state: HeistState, out: Buffer) -> None:
        at = self.piece_at
        kinds = len(KIND_NAMES)
        owner_at = kinds + self.space_size
        peg_at = owner_at + self.game.players
        for piece in state.pieces:
            out[at + piece.kind] = 1.0
            self._write_place(out, at + kinds, piece.space)
            if piece.owner >= 0:
                out[at + owner_at + piece.owner] = 1.0
            if piece.enemy_peg:
                out[at + peg_at] = 1.0
            if piece.cargo:
                out[at + peg_at + 1] = self.cargo_scale.of(piece.cargo)
            at += self.piece_size

    def _write_seats(self, state: HeistState, out: Buffer) -> None:
        part = self.seat_part
        pieces = state.pieces
        for seat in range(self.game.players):
            at = self.seats_at + seat * self.seat_size
            vehicle = state.vehicle[seat]
            if vehicle >= 0:
                out[at + part["has vehicle"]] = 1.0
                space = pieces[vehicle].space
                if space >= 0:
                    column, lane = divmod(space, self.lanes)
                    out[at + part["on road"]] = 1.0
                    out[at + part["column"]] = self.columns.of(column + 1)
                    out[at + self.lane_part + lane] = 1.0
            board = state.board[seat]
            if board >= 0:
                out[at + self.board_part + board] = 1.0
            self.strength_scale.write_count(out, at + part["damage"], state.damage[seat])
            if state.boost[seat]:
                out[at + part["boost"]] = self.boost_cap_scales[seat].of(state.boost[seat])
            if state.exhausted[seat]:
                out[at + part["exhausted"]] = 1.0
            if seat in state.waiting:
                out[at + part["assisting"]] = 1.0
            on = state.peg_on[seat]
            out[at + self.peg_part + (0 if on == BEHIND_WHEEL else 1 if on == NOWHERE else 2 + on)] = 1.0
            for skill, scale in enumerate(self.rating_scales):
                out[at + part["speed"] + skill] = scale.of(rules.rating(state, seat, skill))

    def _write_cards(self, state: HeistState, out: Buffer) -> None:
        enemy = self.enemy_cards
        for spot, card in enumerate(state.enemy_row):
            if card:
                out[self.enemy_row_at[spot] + enemy[card]] = 1.0
        for card in state.enemy_discard:
            out[self.enemy_discard_at + enemy[card]] = 1.0
        out[self.enemy_deck_at] = self.enemy_deck_scale.of(len(state.enemy_deck))
        stunt = self.stunt_cards
        for spot, card in enumerate(state.stunt_row):
            at = self.stunt_row_at[spot]
            if card:
                out[at + stunt[card]] = 1.0
            self.stunt_token_scale.write_count(out, at + len(stunt), state.stunt_tokens[spot])
        out[self.stunt_deck_at] = self.stunt_deck_scale.of(sum(state.stunts_left))

    def _write_roll(self, state: HeistState, out: Buffer) -> None:
        roll = state.roll
        if roll is None:
            return
        out[self.roll_kind_at + int(roll.kind)] = 1.0
        out[self.roll_seat_at + roll.seat] = 1.0
        out[self.roll_dice_at] = self.dice_scale.of(roll.dice)
        self.dice_scale.write_count(out, self.roll_need_at, roll.need)
        self.dice_scale.write_count(out, self.roll_damage_at, roll.damage)
        if roll.action:
            action = notation.parse(roll.action)
            out[self.roll_action_at + self.rolled[head(action)]] = 1.0
            if action.space not in (NO_SPACE, WHEEL):
                column, lane = action.space
                self._write_place(out, self.roll_target_at, (column - 1) * self.lanes + lane - 1)
        for index, count in enumerate(roll.faces):
            if count:
                out[self.roll_faces_at + index] = self.dice_scale.of(count)
        self.bonus_scale.write_count(out, self.roll_bonus_at, roll.bonus)
        if roll.boosted:
            out[self.roll_boosted_at] = 1.0

    def _write_choice(self, state: HeistState, out: Buffer) -> None:
        choice = state.choice
        if choice is None:
            return
        out[self.choice_kind_at + int(choice.kind)] = 1.0
        out[self.choice_seat_at + choice.seat] = 1.0
        for option in choice.options:
            action = notation.parse(option)
            if action.space in (NO_SPACE, WHEEL):
                out[self.option_word_at + self.option_words[head(action)]] = 1.0
            else:
                column, lane = action.space
                out[self.option_at + (column - 1) * self.lanes + lane - 1] = 1.0


def reason_index(outcome: str, reason: str) -> int:
    """The ``reason=`` slot of a finished match's reason (``REASONS``, else the last, ``other``)."""
    for index, (won_or_lost, ending) in enumerate(REASONS):
        if outcome == won_or_lost and ending in reason:
            return index
    return len(REASONS)

