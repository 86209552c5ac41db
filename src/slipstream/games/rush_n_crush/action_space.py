"""Every action and chance outcome a Rush 'n' Crush race can ever offer, from the notation, the gear
matrix and the content (the ``action_space`` hook: the AI bridges number their action space from it)."""

from __future__ import annotations

from slipstream.engine.chance import DIE_TABLE
from slipstream.engine.game import Game
from slipstream.engine.hooks import ActionSpace

from . import notation
from .content import FIRE_EXTINGUISHER, FLAMER, MACHINE_GUN, PIECES
from .game import RushNCrush
from .rules import ARM_ACTIONS, BOOST_ACTIONS, MAX_BOOST, STEP_ACTIONS, free_gear_targets
from .types import Direction, Kind

USABLE = (MACHINE_GUN, FLAMER, FIRE_EXTINGUISHER)
"""The pieces Used by an Activation of their own (``use:<piece>``); the Side Bumper and the Lateral
Circular Saw are Used with a step (``left+bumper``), the Rocket Booster as ``boost:N``."""
MAX_WEAPON_DICE = 3
"""A Machine Gun or Flamer rolls 4 - range dice at range 1 to 3: at most 3."""
FACES = range(1, 7)
"""The faces of one d6, kept by the steering and crash rolls (the highest or lowest of several)."""


def action_space(game: Game) -> ActionSpace:
    """Decisions: every gearstick move the matrix draws (free, Turbo or Brake), keep, done, end, every
    step (ahead with or without a mine; a diagonal with any Side Ram and mine), both swerves (with or
    without a mine), every piece armed, the Machine Gun, Flamer and Fire Extinguisher Used, every Rocket
    Booster distance (with a mine on any square it leaves).
    Chance: the grid slots, the cars and drivers dealt, heat (up to the most red or booster dice),
    steering and crash dice, one die, and the weapons' hits."""
    if not isinstance(game, RushNCrush):
        raise TypeError(f"not a Rush 'n' Crush game: {type(game).__name__}")
    gear = game.gear
    nodes = range(len(gear.names))
    steps = [action for (direction, bumper, saw, _), action in STEP_ACTIONS.items()
             if direction != Direction.AHEAD or not (bumper or saw)]
    actions = [notation.KEEP, notation.DONE, notation.END, *steps, *ARM_ACTIONS, *BOOST_ACTIONS[True],
               *(notation.swerve(d, m) for d in (Direction.LEFT, Direction.RIGHT) for m in (False, True)),
               *(notation.use(PIECES[piece]) for piece in USABLE),
               *(notation.gear(gear.names[n]) for node in nodes for n in free_gear_targets(gear, node)),
               *(notation.point(Kind.TURBO, gear.names[n]) for node in nodes for n in gear.accelerate[node]),
               *(notation.point(Kind.BRAKE, gear.names[n]) for node in nodes for n in gear.brake[node])]
    heat_dice = max(*gear.red_dice, MAX_BOOST)
    chance = [*DIE_TABLE.actions, *(notation.grid(seat) for seat in game.seats),
              *(notation.dealt("car", car) for car in game.content.cars),
              *(notation.dealt("driver", driver) for driver in game.content.drivers),
              *(notation.numbered("heat", n) for n in range(heat_dice + 1)),
              *(notation.numbered("hits", n) for n in range(MAX_WEAPON_DICE + 1)),
              *(notation.numbered(word, face) for word in ("steer", "crash") for face in FACES)]
    return ActionSpace.of(actions, chance)
