"""Rev it Up's declared observation (the ``observation`` hook, ``slipstream.engine.observation``): for a
loaded game, every slot a seat's view can fill, named, each in [0, 1] by its true bound, written straight
from the state.

What a seat sees is its view (``RevState._view``): everything on the table (bags are built from public
buys and public draws), but of the other seats' pending choices and buying carts only whether they have
chosen; its own choice or cart it sees. The slots, in order:

- ``seat=S`` (the observer), ``phase=...`` (the stage), ``current=S`` (the racer drawing, rolling, gaining
  or boosting), ``rolled=<item>`` and ``rerolls left`` (of the most a racer can have) after an item-die
  roll, ``round`` and ``turn`` (counts with no true maximum: linear to a usual bound, then ``beyond``);
- the supply's ``supply/<chip>`` (of all the chips of that kind in the game);
- per racer R: ``racer R/progress`` (linear to the finish, then ``progress beyond``), ``space`` (on the
  track), ``status=...``, ``overheat chance``, ``bag/<chip>`` and ``discard/<chip>`` (each of all the chips
  of that kind), ``drawn=<chip>``, ``rev K=<chip>`` (the chip on its Rev space K), ``ready K=<item>`` (the
  K-th item of its ready area), ``emp`` (jams waiting), ``collected coins``, ``next round coins`` and
  ``coins to spend`` (counts), ``choosing`` and ``chosen`` (at a choice everyone makes at once);
- ``trap at S/of R``: racer R's traps on track space S (a count: 1, then ``beyond``);
- the observer's own choice: ``my choice=<action>`` and its cart, ``my cart/<action>`` (an upgrade a count).

The view's lap, place in the finish list and the constant track, items and characters are left out:
each is read from the slots above or the same in every position of the loaded game.

Every value written is a float32 (``Scale``, ``float32``: ``writes_float32``), so a Python list filled
by ``write`` holds what a float32 array would.
"""

from __future__ import annotations

from slipstream.engine.game import Game, State
from slipstream.engine.observation import Buffer, Layout, Scale, float32

from . import notation, rules
from .action_space import action_space
from .game import RevItUp
from .state import RevState
from .types import NO_CHIP, SIMULTANEOUS, STAGE_NAMES, STATUS_NAMES, Stage, Verb

USUAL_ROUNDS = 20
"""``round`` is linear up to this many rounds, then squashed."""
USUAL_TURNS = 60
"""``turn`` (counted over the whole race) is linear up to this, then squashed."""
USUAL_COINS = 10
"""Coins collected or to spend are linear up to this many, then squashed."""
USUAL_JAMS = 2
"""EMP jams waiting are linear up to this many, then squashed."""
RESTING = tuple(stage for stage in Stage if stage < Stage.TASKS)
"""The stages a state rests on (the automatic ones are passed within an action)."""
CURRENT = frozenset({Stage.REROLL, Stage.GAIN_ITEM, Stage.BOOST, Stage.ITEM_DIE, Stage.DRAW})
"""The stages whose view names the ``current`` racer."""
ROLLED = frozenset({Stage.REROLL, Stage.GAIN_ITEM})
"""The stages whose view shows the item rolled and the rerolls left."""
RACER_PARTS = ("progress", "progress beyond", "space", "overheat chance", "emp", "emp beyond",
               "collected coins", "collected coins beyond", "next round coins", "next round coins beyond",
               "coins to spend", "coins to spend beyond", "choosing", "chosen")
"""A racer's single slots, first in its block (a count's ``beyond`` right after it)."""
CART_STEPS = (Verb.BUY, Verb.UPGRADE, Verb.ROLL_ITEM_DIE, Verb.ITEM)
"""The verbs of a buying cart's steps."""


class RevObservation:
    """The declared observation of one loaded Rev it Up game (see the module docstring)."""

    writes_float32 = True
    """Every value ``write`` writes is a float32 (``slipstream.engine.observation``)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, RevItUp):
            raise TypeError(f"not a Rev it Up game: {type(game).__name__}")
        self.game = game
        players = game.players
        names = game.kinds.names
        kinds = range(game.kind_count)
        self.kind_scale = tuple(Scale(max(1, total), 1 / max(1, total)) for total in game.totals)
        """Each chip kind's count over all the chips of that kind in the game."""
        self.rev_kinds = tuple(kind for kind in kinds if game.heat[kind] > 0)
        rev_index = {kind: index for index, kind in enumerate(self.rev_kinds)}
        self.rev_index = tuple(rev_index.get(kind, -1) for kind in kinds)
        self.items = {item: index for index, item in enumerate(game.items_in_play)}
        self.track_length = game.track_length
        self.space_scale = Scale(game.track_length, 1 / max(1, game.track_length - 1))
        """A space on the track (``progress % track_length``) over the last space."""
        self.rerolls = Scale(2 + max(game.reroll_bonus))
        self.rounds = Scale(USUAL_ROUNDS)
        self.turns = Scale(USUAL_TURNS)
        self.coins = Scale(USUAL_COINS)
        self.jams = Scale(USUAL_JAMS)
        self.finish = Scale(game.finish)
        self.one = Scale(1)
        layout = Layout()
        self.seat_at = layout.one_hot("seat", range(players))
        self.phase_at = layout.one_hot("phase", (STAGE_NAMES[stage] for stage in RESTING))
        self.current_at = layout.one_hot("current", range(players))
        self.rolled_at = layout.one_hot("rolled", game.items_in_play)
        self.rerolls_at = layout.slot("rerolls left")
        self.round_at = layout.count("round")
        self.turn_at = layout.count("turn")
        self.supply_at = len(layout)
        for chip in names:
            layout.slot(f"supply/{chip}")
        self.racer_at: list[int] = []
        for racer in range(players):
            name = f"racer {racer}"
            self.racer_at.append(len(layout))
            for part in RACER_PARTS:
                layout.slot(f"{name}/{part}")
            layout.one_hot(f"{name}/status", STATUS_NAMES)
            for pile in ("bag", "discard"):
                for chip in names:
                    layout.slot(f"{name}/{pile}/{chip}")
            layout.one_hot(f"{name}/drawn", names)
            for position in range(1, game.ready_capacity + 1):
                layout.one_hot(f"{name}/ready {position}", game.items_in_play)
            for space in range(1, game.rev_length[racer] + 1):
                layout.one_hot(f"{name}/rev {space}", (names[kind] for kind in self.rev_kinds))
        part_at = {part: index for index, part in enumerate(RACER_PARTS)}
        self.progress_part = part_at["progress"]
        self.space_part = part_at["space"]
        self.overheat_part = part_at["overheat chance"]
        self.emp_part = part_at["emp"]
        self.collected_part = part_at["collected coins"]
        self.next_round_part = part_at["next round coins"]
        self.to_spend_part = part_at["coins to spend"]
        self.choosing_part = part_at["choosing"]
        self.chosen_part = part_at["chosen"]
        self.status_part = len(RACER_PARTS)
        self.bag_part = self.status_part + len(STATUS_NAMES)
        self.discard_part = self.bag_part + game.kind_count
        self.drawn_part = self.discard_part + game.kind_count
        self.ready_part = self.drawn_part + game.kind_count
        self.rev_part = self.ready_part + game.ready_capacity * len(game.items_in_play)
        self.traps_at = len(layout)
        for space in range(game.track_length):
            for owner in range(players):
                layout.count(f"trap at {space}/of {owner}")
        actions = action_space(game).actions
        choices = [action for action in actions if notation.parse(action).verb in (Verb.GO, Verb.STOP, Verb.PASS,
                                                                                  Verb.USE)]
        self.choices = {action: index for index, action in enumerate(choices)}
        self.choice_at = layout.one_hot("my choice", choices)
        self.cart: dict[str, tuple[int, bool]] = {}
        for action in actions:
            verb = notation.parse(action).verb
            if verb in CART_STEPS:
                if verb is Verb.UPGRADE:
                    self.cart[action] = (layout.count(f"my cart/{action}"), True)
                else:
                    self.cart[action] = (layout.slot(f"my cart/{action}"), False)
        self.names: tuple[str, ...] = tuple(layout.names)

    def write(self, state: State, seat: int, out: Buffer) -> None:
        """Write ``seat``'s observation of ``state`` into the zeroed ``out`` (see the module docstring)."""
        if not isinstance(state, RevState):
            raise TypeError(f"not a Rev it Up state: {type(state).__name__}")
        stage = state.stage
        out[self.seat_at + seat] = 1.0
        out[self.phase_at + int(stage)] = 1.0
        if stage in CURRENT:
            out[self.current_at + state.current] = 1.0
        if stage in ROLLED:
            out[self.rolled_at + self.items[state.rolled_item]] = 1.0
            if state.rerolls_left:
                out[self.rerolls_at] = self.rerolls.of(state.rerolls_left)
        self.rounds.write_count(out, self.round_at, state.round)
        self.turns.write_count(out, self.turn_at, state.turn)
        scale = self.kind_scale
        at = self.supply_at
        for kind, count in enumerate(state.supply):
            if count:
                out[at + kind] = scale[kind].of(count)
        self._write_racers(state, out)
        length = self.track_length
        players = self.game.players
        if state.traps:
            counts: dict[int, int] = {}
            for trap in state.traps:
                index = trap.space % length * players + trap.owner
                counts[index] = counts.get(index, 0) + 1
            for index, count in counts.items():
                self.one.write_count(out, self.traps_at + 2 * index, count)
        if stage in SIMULTANEOUS:
            if stage is Stage.BUY:
                cart = self.cart
                upgrades: dict[int, int] = {}
                for step in state.carts[seat]:
                    at, counted = cart[notation.text(step)]
                    if counted:
                        upgrades[at] = upgrades.get(at, 0) + 1
                    else:
                        out[at] = 1.0
                for at, count in upgrades.items():
                    self.one.write_count(out, at, count)
            else:
                mine = state.choices[seat]
                if mine is not None:
                    out[self.choice_at + self.choices[notation.text(mine)]] = 1.0

    def _write_racers(self, state: RevState, out: Buffer) -> None:
        scale = self.kind_scale
        rev_index = self.rev_index
        rev_kinds = len(self.rev_kinds)
        items = self.items
        item_count = len(items)
        length = self.track_length
        coins = self.coins
        simultaneous = state.stage in SIMULTANEOUS
        buying = state.stage is Stage.BUY
        for racer in range(self.game.players):
            at = self.racer_at[racer]
            progress = state.progress[racer]
            if progress:
                self.finish.write_count(out, at + self.progress_part, progress)
                out[at + self.space_part] = self.space_scale.of(progress % length)
            out[at + self.overheat_part] = float32(rules.overheat_chance(state, racer))
            self.jams.write_count(out, at + self.emp_part, state.emp_jams[racer])
            coins.write_count(out, at + self.collected_part, state.collected_coins[racer])
            coins.write_count(out, at + self.next_round_part, state.next_round_coins[racer])
            if buying:
                coins.write_count(out, at + self.to_spend_part, state.coins_to_spend[racer])
            if simultaneous and racer in state.asked:
                out[at + self.choosing_part] = 1.0
                if state.choices[racer] is not None:
                    out[at + self.chosen_part] = 1.0
            out[at + self.status_part + state.status[racer]] = 1.0
            bag_at = at + self.bag_part
            for kind, count in enumerate(state.bags[racer]):
                if count:
                    out[bag_at + kind] = scale[kind].of(count)
            discard_at = at + self.discard_part
            for kind, count in enumerate(state.discards[racer]):
                if count:
                    out[discard_at + kind] = scale[kind].of(count)
            drawn = state.drawn[racer]
            if drawn != NO_CHIP:
                out[at + self.drawn_part + drawn] = 1.0
            ready_at = at + self.ready_part
            for position, item in enumerate(state.ready[racer]):
                out[ready_at + position * item_count + items[item]] = 1.0
            rev_at = at + self.rev_part - rev_kinds  # Rev spaces count from 1
            for kind, space in zip(state.rev_chips[racer], state.rev_spaces[racer], strict=True):
                out[rev_at + space * rev_kinds + rev_index[kind]] = 1.0
