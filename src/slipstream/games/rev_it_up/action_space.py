"""Every action and chance outcome a Rev it Up race can ever offer, from the notation and the content
(the ``action_space`` hook: the AI bridges number their action space from it)."""

from __future__ import annotations

from slipstream.engine.game import Game
from slipstream.engine.hooks import ActionSpace

from . import notation
from .content import BOMB, DEBRIS, RECALL, UPGRADE
from .game import RevItUp

USED_ALONE = ("oil_slick", "caltrops", "sponsor", "loose_change", "shockwave", "heat_sink")
"""Item effects used from the ready area without a target (``use:<item>``)."""
USED_ON_A_SEAT = ("rocket", "emp")
"""Item effects used on another racer (``use:<item>:<seat>``)."""
BOOSTS = ("turbo", "slipstream")
"""Item effects used during movement (``boost:<item>``)."""


def action_space(game: Game) -> ActionSpace:
    """Decisions (seat prefixes dropped): the fixed words; a Sticky Bomb given to each seat; each item in
    play dropped, boosted or used (on each seat where it takes a target); each buyable chip bought (a
    Recall into each seat's bag); each chip an Upgrade can raise; each item in play bought. Chance:
    every chip kind drawn and every face of the item die."""
    if not isinstance(game, RevItUp):
        raise TypeError(f"not a Rev it Up game: {type(game).__name__}")
    kinds = game.kinds
    seats = game.seats
    actions = [notation.KEEP, notation.REROLL, notation.PASS, notation.GO, notation.STOP, notation.DONE,
               notation.ROLL_ITEM_DIE, *(notation.give(seat) for seat in seats)]
    for item in game.items_in_play:
        effect = game.effect[item]
        actions.append(notation.item(item))
        if not game.to_bag[item]:
            actions.append(notation.drop(item))
        if effect in BOOSTS:
            actions.append(notation.boost(item))
        if effect in USED_ALONE:
            actions.append(notation.use(item))
        if effect in USED_ON_A_SEAT:
            actions.extend(notation.use(item, seat) for seat in seats)
    for kind, _, _, buy, recall in game.shop:
        actions.extend([notation.buy(kinds.names[kind], seat) for seat in seats] if recall else [buy])
    if game.upgrade_kinds:
        actions.extend(notation.upgrade(kinds.names[kind]) for kind in range(game.kind_count)
                       if kinds.up[kind] >= 0 and game.code[kind] not in (UPGRADE, RECALL, DEBRIS, BOMB))
    chance = [*game.chip_action, *(face for face, _ in game.item_die)]
    return ActionSpace.of(actions, chance)
