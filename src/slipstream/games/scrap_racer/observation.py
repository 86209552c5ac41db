"""Scrap Racer's declared observation (the ``observation`` hook, ``slipstream.engine.observation``): for a
loaded game, every slot a seat's view can fill, named, each in [0, 1] by its true bound, written straight
from the state.

What a seat sees is its view (``ScrapState._view``): every racer, the decks' sizes, the supply, the
boost spaces, how many bonus cards each seat holds, and its own bonus cards and legal actions only. The
slots, in order:

- ``seat=S`` (the observer), ``phase=...`` (the stage), ``actor=S``, ``roller=S`` and ``second roller=S``
  (the two seats of a fight roll, in the order the fight names them);
- ``round`` (a count with no true maximum: linear to 30 rounds, then ``round beyond``), ``last round``
  (a racer has three lap markers), ``die=F`` (the die just rolled), ``dice kept=F`` (how many of the
  turn's dice show face F, out of 2: a double is kept beside its pair), ``double chance``;
- per racer slot R: ``racer R/is=<racer id>`` (its dashboard), ``racer R/progress`` (spaces moved, linear
  to four laps, then ``progress beyond``), ``space``, ``laps`` (of 3), ``bonus markers`` and each kind of
  ``boost marker`` (of all there are), ``turn=K`` (its place in the turn order), ``active``, ``place``
  (in the standings);
- ``boost space N filled``, the supply's ``bonus markers`` and ``boost markers``, each deck's ``draw
  pile``, each seat's ``bonus cards held``, the observer's ``my bonus cards/<card>`` (of that card's
  copies);
- ``legal=<action>``: the observer's legal actions, over the game's declared action space;
- at the end, ``seat S/place=K`` and ``seat S/wins``.

Every value written is a float32 (``Scale``, ``float32``: ``writes_float32``), so a Python list filled by
``write`` holds what a float32 array would.
"""

from __future__ import annotations

from slipstream.engine.game import Game, State
from slipstream.engine.observation import Buffer, Layout, Scale

from . import rules
from .action_space import action_space
from .content import BOOST_TYPES
from .game import ScrapRacer
from .state import ScrapState
from .types import STAGE_NAMES, Stage

USUAL_ROUNDS = 30
"""``round`` is linear up to this many rounds (a race rarely lasts longer), then squashed."""


class ScrapObservation:
    """The declared observation of one loaded Scrap Racer game (see the module docstring)."""

    writes_float32 = True
    """Every value ``write`` writes is a float32 (``slipstream.engine.observation``)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, ScrapRacer):
            raise TypeError(f"not a Scrap Racer game: {type(game).__name__}")
        self.game = game
        content = game.content
        players = game.players
        racers = len(game.owner)
        self.length = game.length
        self.progress = Scale((rules.LAPS_TO_FINISH + 1) * game.length)
        self.space = Scale(game.length, 1 / max(1, game.length - 1))
        """A space on the track (``(progress - 1) % length``) over the last space."""
        self.laps = Scale(rules.LAPS_TO_FINISH)
        self.rounds = Scale(USUAL_ROUNDS)
        self.dice_kept = Scale(2)
        self.faces = Scale(6)
        layout = Layout()
        self.seat_at = layout.one_hot("seat", range(players))
        self.phase_at = layout.one_hot("phase", (STAGE_NAMES[stage] for stage in Stage))
        self.actor_at = layout.one_hot("actor", range(players))
        self.roller_at = layout.one_hot("roller", range(players))
        self.second_roller_at = layout.one_hot("second roller", range(players))
        self.round_at = layout.count("round")
        self.last_round_at = layout.slot("last round")
        self.die_at = layout.one_hot("die", range(1, 7)) - 1
        self.dice_at = layout.one_hot("dice kept", range(1, 7)) - 1
        self.double_at = layout.slot("double chance")
        self.racer_ids = {racer_id: index for index, racer_id in enumerate(game.racer_ids)}
        boost_counts = dict(content.boost)
        self.boost_bounds = tuple(Scale(max(1, boost_counts[kind])) for kind in BOOST_TYPES)
        self.bonus_markers = Scale(max(1, content.bonus_markers))
        slots: list[tuple[int, int, int]] = []
        for racer in range(racers):
            name = f"racer {racer}"
            is_at = layout.one_hot(f"{name}/is", game.racer_ids)
            counts_at = layout.count(f"{name}/progress")
            for part in ("space", "laps", "bonus markers", *(f"boost markers {kind}" for kind in BOOST_TYPES)):
                layout.slot(f"{name}/{part}")
            slots.append((is_at, counts_at, layout.one_hot(f"{name}/turn", range(racers))))
            layout.slot(f"{name}/active")
            layout.slot(f"{name}/place")
        self.racer_slots = tuple(slots)
        """Per racer slot: where its ``is`` block, its progress (then space, laps, markers) and its ``turn``
        block (then ``active`` and ``place``) start."""
        self.place = Scale(max(1, racers - 1), 1 / (racers - 1) if racers > 1 else 1.0)
        self.boost_spaces_at = len(layout)
        for space in game.track.boost:
            layout.slot(f"boost space {space + 1} filled")
        self.supply_at = layout.slot("supply/bonus markers")
        layout.slot("supply/boost markers")
        self.boost_total = Scale(max(1, sum(boost_counts.values())))
        self.decks = [(deck.index, Scale(max(1, deck.total))) for _, deck in game.deck_table()]
        self.decks_at = len(layout)
        for deck_name, _ in game.deck_table():
            layout.slot(f"deck {deck_name}/draw pile")
        self.hands_at = len(layout)
        self.bonus_total = Scale(max(1, game.bonus_deck.total))
        for seat in range(players):
            layout.slot(f"seat {seat}/bonus cards held")
        bonus_counts = dict(content.bonus)
        self.card_bounds = tuple(Scale(max(1, bonus_counts.get(card, 1))) for card in game.bonus_deck.cards)
        self.mine_at = len(layout)
        for card in game.bonus_deck.cards:
            layout.slot(f"my bonus cards/{card}")
        actions = action_space(game).actions
        self.legal = {action: index for index, action in enumerate(actions)}
        self.legal_at = layout.one_hot("legal", actions)
        self.result_at = len(layout)
        for seat in range(players):
            layout.one_hot(f"seat {seat}/place", range(1, players + 1))
            layout.slot(f"seat {seat}/wins")
        self.names: tuple[str, ...] = tuple(layout.names)

    def write(self, state: State, seat: int, out: Buffer) -> None:
        """Write ``seat``'s observation of ``state`` into the zeroed ``out`` (see the module docstring)."""
        if not isinstance(state, ScrapState):
            raise TypeError(f"not a Scrap Racer state: {type(state).__name__}")
        game = self.game
        players = game.players
        stage = state.stage
        out[self.seat_at + seat] = 1.0
        out[self.phase_at + int(stage)] = 1.0
        actor = state.actor
        if isinstance(actor, int):
            out[self.actor_at + actor] = 1.0
        roller = rules.roller(state)
        if isinstance(roller, int):
            out[self.roller_at + roller] = 1.0
        elif roller is not None:
            out[self.roller_at + roller[0]] = 1.0
            out[self.second_roller_at + roller[1]] = 1.0
        self.rounds.write_count(out, self.round_at, state.round)
        if state.end_round:
            out[self.last_round_at] = 1.0
        if state.die:
            out[self.die_at + state.die] = 1.0
        kept = set(state.dice)
        for face in kept:
            out[self.dice_at + face] = self.dice_kept.of(state.dice.count(face))
        if state.die:
            kept.add(state.die)
        if kept:
            out[self.double_at] = self.faces.of(len(kept))
        self._write_racers(state, out)
        at = self.boost_spaces_at
        for filled in state.boost_spaces_filled:
            if filled:
                out[at] = 1.0
            at += 1
        out[self.supply_at] = self.bonus_markers.of(state.bonus_supply)
        out[self.supply_at + 1] = self.boost_total.of(state.boost_supply)
        at = self.decks_at
        for index, total in self.decks:
            out[at] = total.of(sum(state.decks[index].draw))
            at += 1
        for other in range(players):
            held = sum(state.bonus_cards[other])
            if held:
                out[self.hands_at + other] = self.bonus_total.of(held)
        for card, (count, bound) in enumerate(zip(state.bonus_cards[seat], self.card_bounds, strict=True)):
            if count:
                out[self.mine_at + card] = bound.of(count)
        if actor == seat:
            legal, at = self.legal, self.legal_at
            for action in state.legal_actions():
                out[at + legal[action]] = 1.0
        if stage is Stage.OVER:
            order, winners, _ = state.outcome
            for place, placed in enumerate(order):
                out[self.result_at + placed * (players + 1) + place] = 1.0
            for winner in winners:
                out[self.result_at + winner * (players + 1) + players] = 1.0

    def _write_racers(self, state: ScrapState, out: Buffer) -> None:
        stage = state.stage
        order = state.order
        active = order[state.turn] if order and stage is not Stage.SETUP and stage is not Stage.ORDER else -1
        length = self.length
        progress_scale, space_scale = self.progress, self.space
        laps_scale, markers_scale = self.laps, self.bonus_markers
        progress, racer_ids, laps, bonus_markers, boost_markers = (
            state.progress, state.racer, state.laps, state.bonus_markers, state.boost_markers)
        ids, slots = self.racer_ids, self.racer_slots
        plus_minus, reroll, turn_marker = self.boost_bounds
        place_scale = self.place
        for place, racer in enumerate(rules.standings(state)):
            is_at, at, turn_at = slots[racer]
            racer_id = racer_ids[racer]
            if racer_id:
                out[is_at + ids[racer_id]] = 1.0
            moved = progress[racer]
            if moved:
                progress_scale.write_count(out, at, moved)
                out[at + 2] = space_scale.of((moved - 1) % length)
            if laps[racer]:
                out[at + 3] = laps_scale.of(laps[racer])
            if bonus_markers[racer]:
                out[at + 4] = markers_scale.of(bonus_markers[racer])
            held = boost_markers[racer]
            if held[0]:
                out[at + 5] = plus_minus.of(held[0])
            if held[1]:
                out[at + 6] = reroll.of(held[1])
            if held[2]:
                out[at + 7] = turn_marker.of(held[2])
            if racer == active:
                out[turn_at + len(slots)] = 1.0
            if place:
                out[turn_at + len(slots) + 1] = place_scale.of(place)
        for turn, racer in enumerate(order):
            out[slots[racer][2] + turn] = 1.0
