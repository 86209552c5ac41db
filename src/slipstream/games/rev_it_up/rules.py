"""The rules of Rev it Up as small functions, in rulebook order (../shared/rules/rev-it-up.txt).

Each function changes a fresh ``RevState`` copy (``apply`` made it) by assigning new values to its
fields (they are tuples: ``replaced`` for one entry) and appends the ``Event``state it caused, each naming
the rulebook section (or the gap decision, docs/rules/rev-it-up.md) it applied. The last section
sequences them through the stages of a round (``take_action``, ``advance``); ``state.py`` holds the
declared fields and the engine's contract.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event, EventCache, Result

from . import notation, words
from .content import BOMB, COOLANT, DEBRIS, ECOBOOST, NITROUS, RECALL, UPGRADE
from .types import (
    FINISHED,
    NO_CHIP,
    OVERHEATED,
    RACING,
    STOPPED,
    Action,
    FinishMark,
    Stage,
    Stat,
    Task,
    Trap,
    Verb,
)

if TYPE_CHECKING:
    from .game import RevItUp
    from .state import RevState

TURBO_SPACES: Final = 3
SHOCKWAVE_RANGE: Final = 3


_EVENTS = EventCache()
"""The events that recur with the same content every race (draws, moves, placements, choices)."""


def _ev(events: list[Event], kind: str, text: str, rule: str, **data: object) -> None:
    """An event made afresh (the rarer ones: the recurring ones come from ``_EVENTS``)."""
    events.append(Event(kind, text, rule, data))


def _name(state: RevState, seat: int) -> str:
    """The seat's short name in event texts ("P2")."""
    return state.game.short_names[seat]


def _added(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    """``values`` with ``amount`` added to entry ``index`` (a new tuple)."""
    items = list(values)
    items[index] += amount
    return tuple(items)


def _to_bag(state: RevState, seat: int, kind: int, count: int = 1) -> None:
    """``count`` chips of ``kind`` into the seat's bag (out of it for a negative ``count``)."""
    bag = list(state.bags[seat])
    bag[kind] += count
    state.bags = replaced(state.bags, seat, tuple(bag))


def _to_discard(state: RevState, seat: int, kind: int, count: int = 1) -> None:
    """``count`` chips of ``kind`` onto the seat's discard."""
    discard = list(state.discards[seat])
    discard[kind] += count
    state.discards = replaced(state.discards, seat, tuple(discard))


def _to_supply(state: RevState, kind: int, count: int = 1) -> None:
    """``count`` chips of ``kind`` back to the supply (taken from it for a negative ``count``)."""
    state.supply = _added(state.supply, kind, count)


def _count(state: RevState, seat: int, stat: int, count: int = 1) -> None:
    """Add to one of a seat's counters (``stats`` is a list: changed in place)."""
    counters = list(state.stats[seat])
    counters[stat] += count
    state.stats[seat] = tuple(counters)


def _set_status(state: RevState, seat: int, status: int) -> None:
    """The seat's status this round (``RACING``, ``STOPPED``, ``OVERHEATED`` or ``FINISHED``)."""
    state.status = replaced(state.status, seat, status)


# --- Turn Structure 1: draw -----------------------------------------------------------------------

def draw(state: RevState, seat: int, kind: int, events: list[Event]) -> None:
    """Turn Structure 1: "All players simultaneously draw 1 chip from their bags and reveal them"."""
    _to_bag(state, seat, kind, -1)
    state.drawn[seat] = kind
    kinds = state.game.kinds
    events.append(draw_event(seat, kinds.names[kind], kinds.titles[kind]))


@_EVENTS.memo
def draw_event(seat: int, chip: str, title: str) -> Event:
    """Turn Structure 1: the chip a seat drew, by its name (made once per seat and chip)."""
    return Event("draw", f"P{seat + 1} draws {title}", "Turn Structure 1", {"seat": seat, "chip": chip})


# --- Turn Structure 2: movement -------------------------------------------------------------------

def movement_order(state: RevState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Turn Structure 2: "Highest movement moves first, then second highest and so on".

    RIU-A2: zero and backward moves come last; at equal movement the racer in front moves first, then
    seat order (movement is simultaneous, so a racer behind must not reach the line before the racer in
    front has moved: issue 13). The movement is the chip's own (an EMP zeroes an Ecoboost's or
    Nitrous'). Returns the seats in that order and, for each, its tie group: the position in the order
    of the first racer with the same movement from the same progress (RIU-A11).
    """
    game = state.game
    keys = sorted((-(0 if state.emp_jams[seat] and game.code[kind] in (ECOBOOST, NITROUS) else game.move[kind]),
                   -state.progress[seat], seat) for seat, kind in enumerate(state.drawn) if kind != NO_CHIP)
    groups: list[int] = []
    for i, (movement, before, _) in enumerate(keys):
        tied = i > 0 and keys[i - 1][0] == movement and keys[i - 1][1] == before
        groups.append(groups[i - 1] if tied else i)
    return tuple(seat for _, _, seat in keys), tuple(groups)


def resolve_draw(state: RevState, seat: int, events: list[Event]) -> None:
    """Move by the drawn chip, then place it (Exhaust, Nitrous, Bomb) or discard it (the others).

    RIU-A1: the move comes first, as the text orders ("move ... Then place"); with the option
    ``overheat_penalty=lose_move`` a chip that cannot be placed gives no movement.
    """
    game = state.game
    kind = state.drawn[seat]
    state.drawn[seat] = NO_CHIP
    _count(state, seat, Stat.DRAWS)
    code = game.code[kind]
    move = game.move[kind]
    if state.emp_jams[seat] and code in (ECOBOOST, NITROUS):
        state.emp_jams = _added(state.emp_jams, seat, -1)
        move = 0
        _ev(events, "emp", f"{_name(state, seat)}'s {game.kinds.titles[kind]} is cancelled by an EMP", "Item: EMP",
            seat=seat)
    heat = game.heat[kind]
    if heat:
        fits = rev_last(state, seat) + heat <= game.rev_length[seat]
        if not fits and game.lose_move and move > 0:  # a penalty: a Bomb still moves back
            move = 0
            _ev(events, "lose-move", f"{_name(state, seat)}'s chip would overheat: no movement",
                "RIU-A1 (overheat_penalty=lose_move)", seat=seat)
    if move > 0:
        move_forward(state, seat, move, events)
    elif move < 0:
        move_back(state, seat, -move, events, "Recalls (Purple)" if code == RECALL else "Item: Sticky Bomb")
    if heat:
        target = rev_last(state, seat) + heat
        if target <= game.rev_length[seat] and state.status[seat] != OVERHEATED:
            place_on_rev(state, seat, kind, target)
            events.append(rev_event(seat, game.kinds.titles[kind], target))
        else:
            to_discard_or_supply(state, seat, kind)
            overheat(state, seat, events, game.kinds.titles[kind])
    elif code == COOLANT:
        _to_discard(state, seat, kind)
        coolant(state, seat, game.kinds.level[kind], events)
    else:
        _to_discard(state, seat, kind)


@_EVENTS.memo
def rev_event(seat: int, chip: str, target: int) -> Event:
    """Rev Track: a chip (by its name) placed on a Rev space (made once per seat, chip and space)."""
    return Event("rev", f"P{seat + 1} places {chip} on Rev space {target}", "Rev Track",
                 {"seat": seat, "space": target})


def move_forward(state: RevState, seat: int, spaces: int, events: list[Event]) -> None:
    """Move ahead space by space: count item spaces entered or passed (RIU-A3) and spring traps.

    A racer that reaches the finish on its final lap finishes (Game End); the race ends at the end
    of the current group of tied movers (RIU-A11).
    """
    game = state.game
    length = game.track_length
    start = state.progress[seat]
    position = start
    target = position + spaces
    item_spaces = 0
    while position < target:
        position += 1
        space = position % length
        if space in game.item_spaces:
            item_spaces += 1
        if state.traps and spring_traps(state, seat, space, events):
            target = position
    if item_spaces:
        state.item_rolls_due = _added(state.item_rolls_due, seat, item_spaces)
    moved = position - start
    state.progress = replaced(state.progress, seat, position)
    _count(state, seat, Stat.SPACES_MOVED, moved)
    events.append(move_event(seat, moved, position, length, game.laps))
    if position >= game.finish and state.status[seat] != FINISHED:
        finish(state, seat, events)


@_EVENTS.memo
def move_event(seat: int, moved: int, progress: int, length: int, laps: int) -> Event:
    """Turn Structure 2: a move forward to a place said as the board numbers it (made once per seat,
    spaces, progress and track)."""
    return Event("move", f"P{seat + 1} moves {moved} space{'' if moved == 1 else 's'} to "
                 f"{words.place(length, laps, progress)}", "Turn Structure 2", {"seat": seat, "to": progress})


def move_back(state: RevState, seat: int, spaces: int, events: list[Event], rule: str) -> None:
    """Recalls (and Bombs) move the racer BACKWARDS; never behind the start, never onto item rolls."""
    position = max(0, state.progress[seat] - spaces)
    state.progress = replaced(state.progress, seat, position)
    place = words.place(state.game.track_length, state.game.laps, position)
    _ev(events, "move", f"{_name(state, seat)} moves back to {place}", rule, seat=seat, to=position)


# --- Turn Structure 3: items from the track -------------------------------------------------------

def place_of(state: RevState, seat: int) -> int:
    """1 + the number of racers strictly ahead (RIU-A4: tied racers share a place)."""
    position = state.progress[seat]
    return 1 + sum(1 for other_position in state.progress if other_position > position)


def rerolls_for(state: RevState, seat: int) -> int:
    """Turn Structure 3: one reroll in second place, two further back, none for the leader."""
    place = place_of(state, seat)
    return (0 if place == 1 else 1 if place == 2 else 2) + state.game.reroll_bonus[seat]


def item_rolls(state: RevState) -> tuple[Task, ...]:
    """Turn Structure 3: one item-die roll per item space passed, places measured after all moved."""
    tasks: list[Task] = []
    for seat in state.movement_order:
        if state.item_rolls_due[seat] and state.status[seat] != FINISHED:
            rerolls = rerolls_for(state, seat)
            tasks.extend(Task(True, seat, rerolls, "") for _ in range(state.item_rolls_due[seat]))
    return tuple(tasks)


def log_roll(state: RevState, seat: int, item: str, events: list[Event]) -> None:
    """Turn Structure 3: "roll the item die and take the corresponding item chip"."""
    _ev(events, "item-die", f"{_name(state, seat)} rolls the item die: {state.game.item_names[item]}",
        "Turn Structure 3", seat=seat, item=item)


def log_reroll(state: RevState, seat: int, events: list[Event]) -> None:
    """Turn Structure 3: "Players may reroll the Item Die once if they are in second place ..."."""
    events.append(Event("reroll", f"{_name(state, seat)} rerolls the item die", "Turn Structure 3"))


# --- Turn Structure 4: stop or keep going ---------------------------------------------------------

@_EVENTS.memo
def chosen_event(seat: int) -> Event:
    """Simultaneous play: everyone sees *that* a seat has chosen."""
    return Event("chosen", f"P{seat + 1} has chosen", "Simultaneous play", {"seat": seat})


@_EVENTS.memo
def choice_event(seat: int, choice: str, said: str) -> Event:
    """Simultaneous play: the choice itself (``said`` in words), for that seat only (a buying step shows
    only this one, so nobody counts another's cart)."""
    return Event("choice", f"P{seat + 1} chose to {said}", "Simultaneous play", {"seat": seat, "choice": choice},
                 frozenset((seat,)))


def resolve_stops(state: RevState, events: list[Event]) -> None:
    """Turn Structure 4: "players will choose to stop or keep going" (revealed together)."""
    for seat, choice in enumerate(state.choices):
        if choice is None:
            continue
        if choice.verb is Verb.STOP:
            _set_status(state, seat, STOPPED)
            _count(state, seat, Stat.STOPS)
            events.append(_stop_go_event(seat, notation.STOP))
        elif choice.verb is Verb.GO:
            events.append(_stop_go_event(seat, notation.GO))


@_EVENTS.memo
def _stop_go_event(seat: int, choice: str) -> Event:
    """Turn Structure 4: a seat's stop or go, revealed (made once per seat and choice)."""
    return Event(choice, f"P{seat + 1} stops" if choice == notation.STOP else f"P{seat + 1} keeps going",
                 "Turn Structure 4", {"seat": seat})


# --- Turn Structure 5: items from the ready area --------------------------------------------------

def rocket_targets(state: RevState, seat: int) -> list[int]:
    """The racer directly ahead that is still racing (stopped racers are immune, RIU-A13)."""
    position = state.progress[seat]
    ahead = [other for other in state.game.seats
             if other != seat and state.status[other] == RACING and state.progress[other] > position]
    if not ahead:
        return []
    nearest = min(state.progress[other] for other in ahead)
    return [other for other in ahead if state.progress[other] == nearest]


def shockwave_targets(state: RevState, seat: int) -> list[int]:
    """Items: Shockwave hits every racing racer 1-3 spaces ahead (RIU-G10; stopped racers are immune)."""
    position = state.progress[seat]
    return [other for other in state.game.seats
            if other != seat and state.status[other] == RACING
            and position < state.progress[other] <= position + SHOCKWAVE_RANGE]


def use_options(state: RevState, seat: int) -> list[str]:
    """The items a seat may use now from its ready area (Turn Structure 5)."""
    if state.status[seat] == FINISHED or not state.ready[seat]:
        return []
    out: list[str] = []
    effect_of = state.game.effect
    for item in sorted(set(state.ready[seat])):
        effect = effect_of[item]
        if effect in ("oil_slick", "caltrops", "sponsor", "loose_change"):
            out.append(notation.use(item))
        elif effect == "rocket":
            out.extend(notation.use(item, other) for other in rocket_targets(state, seat))
        elif effect == "shockwave":
            if shockwave_targets(state, seat):
                out.append(notation.use(item))
        elif effect == "emp":
            out.extend(notation.use(item, other) for other in state.game.seats
                       if other != seat and state.status[other] == RACING)
        elif effect == "heat_sink" and state.rev_chips[seat]:
            out.append(notation.use(item))
    return out


def priority(state: RevState) -> list[int]:
    """Buying / items: "Furthest behind breaks disputes" (then seat order)."""
    return sorted(state.game.seats, key=lambda seat: (state.progress[seat], seat))


def resolve_items(state: RevState, events: list[Event]) -> None:
    """Turn Structure 5, resolved together in the order furthest behind first."""
    game = state.game
    for seat in priority(state):
        choice = state.choices[seat]
        if choice is None or choice.verb is not Verb.USE:
            continue
        item = choice.name
        if item not in state.ready[seat]:
            continue
        _spend(state, seat, item)
        effect = game.effect[item]
        _ev(events, "item", f"{_name(state, seat)} uses {game.item_names[item]}",
            f"Items: {game.content.items[item].type.capitalize()}",
            seat=seat, item=item)
        if effect in ("oil_slick", "caltrops"):
            state.traps = (*state.traps, Trap(state.progress[seat] % game.track_length, item, seat))
        elif effect in ("rocket", "emp"):
            _hit(state, choice.target if choice.target is not None else -1, effect, events)
        elif effect == "shockwave":
            for other in shockwave_targets(state, seat):
                _hit(state, other, effect, events)
        elif effect == "sponsor":
            state.collected_coins = _added(state.collected_coins, seat, 2)
        elif effect == "loose_change":
            state.collected_coins = _added(state.collected_coins, seat, 1)
            state.next_round_coins = _added(state.next_round_coins, seat, 1)
        elif effect == "heat_sink":
            removed = remove_recent(state, seat, 1)
            _ev(events, "heat-sink",
                f"{_name(state, seat)} takes {_titles(game, removed) or 'nothing'} off the Rev Track",
                "Item: Heat Sink", seat=seat)


def _hit(state: RevState, target: int, effect: str, events: list[Event]) -> None:
    """Items: an Attack or Weapon lands, unless its target has stopped (RIU-A13) or holds a Shield."""
    if state.status[target] != RACING:
        _ev(events, "immune", f"{_name(state, target)} has stopped and is immune", "RIU-A13", seat=target)
        return
    if shielded(state, target, events):
        return
    if effect == "emp":
        state.emp_jams = _added(state.emp_jams, target, 1)
        _ev(events, "emp", f"{_name(state, target)}'s next Ecoboost or Nitrous is jammed", "Item: EMP",
            seat=target)
    else:
        add_debris(state, target, events)


# --- Round Structure ------------------------------------------------------------------------------

def start_round(state: RevState, events: list[Event]) -> None:
    """Round Structure: another round of turns."""
    state.round += 1
    _ev(events, "round", f"round {state.round} begins", "Round Structure", round=state.round)


def stop_empty_bags(state: RevState, events: list[Event]) -> None:
    """Round Structure 1: turns go on until all have stopped or overheated; a racer with nothing left
    to draw must stop (a stop, so the Rev bonus counts; RIU-X1)."""
    for seat, status in enumerate(state.status):
        if status == RACING and not any(state.bags[seat]):
            _set_status(state, seat, STOPPED)
            _count(state, seat, Stat.STOPS)
            _ev(events, "stop", f"{_name(state, seat)} has an empty bag and stops", "RIU-X1", seat=seat)


def end_round(state: RevState, events: list[Event]) -> None:
    """Round Structure 3: "place all chips from their Rev Track and Discard back in their bag and turn
    their racer back forward". Item chips go to the supply; Recalls stay (RIU-A8) unless the option
    ``recall_returns_to_supply``."""
    game = state.game
    discards = state.discards
    if game.recall_to_supply:
        for seat in game.seats:
            for kind in game.recall_kinds:
                count = discards[seat][kind]
                if count:
                    discards = replaced(discards, seat, replaced(discards[seat], kind, 0))
                    _to_supply(state, kind, count)
    bags: list[tuple[int, ...]] = []
    for seat in game.seats:
        bag = [in_bag + in_discard for in_bag, in_discard in zip(state.bags[seat], discards[seat], strict=True)]
        for kind in state.rev_chips[seat]:
            if game.code[kind] in (DEBRIS, BOMB):
                _to_supply(state, kind)
            else:
                bag[kind] += 1
        bags.append(tuple(bag))
        if state.status[seat] != FINISHED:
            _set_status(state, seat, RACING)
    state.bags = tuple(bags)
    state.discards = ((0,) * game.kind_count,) * game.players
    state.rev_chips = ((),) * game.players
    state.rev_spaces = ((),) * game.players
    state.collected_coins = state.next_round_coins
    state.next_round_coins = (0,) * game.players
    _ev(events, "round-end", f"round {state.round} ends: every chip goes back in its bag", "Round Structure 3")


# --- Exhaust Chips and the Rev Track --------------------------------------------------------------

def rev_last(state: RevState, seat: int) -> int:
    """The space of the last chip placed on the Rev Track (0 when empty)."""
    spaces = state.rev_spaces[seat]
    return spaces[-1] if spaces else 0


def place_on_rev(state: RevState, seat: int, kind: int, space: int) -> None:
    """Rev Track: "place the chip on the next available space" (Exhaust: ``space`` skips its level)."""
    state.rev_chips = replaced(state.rev_chips, seat, (*state.rev_chips[seat], kind))
    state.rev_spaces = replaced(state.rev_spaces, seat, (*state.rev_spaces[seat], space))


def to_discard_or_supply(state: RevState, seat: int, kind: int) -> None:
    """Rev Track (RIU-A1): a chip that cannot be placed goes to the discard; an item chip to the supply."""
    if state.game.code[kind] in (DEBRIS, BOMB):
        _to_supply(state, kind)
    else:
        _to_discard(state, seat, kind)


def overheat(state: RevState, seat: int, events: list[Event], chip: str) -> None:
    """Rev Track: "If you would ever need to place a chip and dont have space for it, you Overheat and
    must stop pulling chips for the remainder of the round" (RIU-A1: the chip goes to the discard)."""
    if state.status[seat] == RACING:
        _set_status(state, seat, OVERHEATED)
        _count(state, seat, Stat.OVERHEATS)
        _ev(events, "overheat", f"{_name(state, seat)} cannot place {chip} and overheats", "Rev Track",
            seat=seat)


def rev_bonus(state: RevState, seat: int) -> int:
    """Rev Track: bonus coins for stopping (not overheating) with the last chip on one of the last 3
    spaces."""
    return rev_bonus_if_stopped(state, seat) if state.status[seat] == STOPPED else 0


def rev_bonus_if_stopped(state: RevState, seat: int) -> int:
    """The bonus read from the space of the last placed chip (RIU-A15)."""
    length = state.game.rev_length[seat]
    i = rev_last(state, seat) - (length - 2)
    return state.game.bonus[i] if i >= 0 else 0


def overheat_chance(state: RevState, seat: int) -> float:
    """The chance that the next chip this racer draws cannot be placed."""
    if state.status[seat] != RACING:
        return 0.0
    game = state.game
    room = game.rev_length[seat] - rev_last(state, seat)
    total = bad = 0
    heat = game.heat
    for kind, count in enumerate(state.bags[seat]):
        if count:
            total += count
            if heat[kind] > room:
                bad += count
    return bad / total if total else 0.0


def remove_recent(state: RevState, seat: int, count: int) -> list[str]:
    """Take the most recent ``count`` chips off a Rev Track: to the bag, item chips to the supply (RIU-A6)."""
    game = state.game
    kinds = state.rev_chips[seat]
    count = min(count, len(kinds))
    if not count:
        return []
    keep = len(kinds) - count
    removed = kinds[keep:]
    state.rev_chips = replaced(state.rev_chips, seat, kinds[:keep])
    state.rev_spaces = replaced(state.rev_spaces, seat, state.rev_spaces[seat][:keep])
    for kind in removed:
        if game.code[kind] in (DEBRIS, BOMB):
            _to_supply(state, kind)
        else:
            _to_bag(state, seat, kind)
    return [game.kinds.names[kind] for kind in removed]


def _titles(game: RevItUp, chips: list[str]) -> str:
    """Chip kinds (by id) by their names, joined: "Exhaust 2, Debris"."""
    kinds = game.kinds
    return ", ".join(kinds.titles[kinds.index[chip]] for chip in chips)


def coolant(state: RevState, seat: int, level: int, events: list[Event]) -> None:
    """Coolant (Blue): "remove the most recent X chips from your Rev Track, placing them back in your
    bag. Item Chips removed from your Rev Track are returned to the supply." """
    removed = remove_recent(state, seat, level)
    _ev(events, "coolant",
        f"{_name(state, seat)} cools down: {_titles(state.game, removed) or 'nothing'} off the Rev Track",
        "Coolant (Blue)", seat=seat, removed=removed)


# --- Items ----------------------------------------------------------------------------------------

def gain_item(state: RevState, seat: int, item: str, events: list[Event]) -> bool:
    """Items: gained items go to the ready area; a Sticky Bomb goes into an opponent's bag.

    Returns True when the gainer must choose (the victim, or which item to drop when full, RIU-G13).
    """
    game = state.game
    _count(state, seat, Stat.ITEMS_GAINED)
    if game.to_bag[item]:
        if not state.supply[game.bomb] or not gain_options(state, seat, item):
            _ev(events, "gain", f"{_name(state, seat)} gains {game.item_names[item]}, but it cannot be played", "Items",
                seat=seat, item=item)
            return False
        return True
    if len(state.ready[seat]) < game.ready_capacity:
        state.ready = replaced(state.ready, seat, (*state.ready[seat], item))
        _ev(events, "gain", f"{_name(state, seat)} gains {game.item_names[item]} to the ready area", "Items",
            seat=seat, item=item)
        return False
    return True


def gain_options(state: RevState, seat: int, item: str) -> list[str]:
    """Items: a Sticky Bomb's victim (any unfinished opponent), or the item to drop (RIU-G13)."""
    if state.game.to_bag[item]:
        return [notation.give(other) for other in state.game.seats if other != seat and state.status[other] != FINISHED]
    return sorted({notation.drop(held) for held in (*state.ready[seat], item)})


def resolve_gain(state: RevState, seat: int, item: str, choice: Action, events: list[Event]) -> None:
    """Items: the Sticky Bomb goes into the chosen opponent's bag (a Shield stops it), or the chosen
    item leaves a full ready area (RIU-G13)."""
    game = state.game
    if choice.verb is Verb.GIVE:
        victim = choice.target if choice.target is not None else -1
        if shielded(state, victim, events):
            return
        _to_supply(state, game.bomb, -1)
        _to_bag(state, victim, game.bomb)
        _ev(events, "bomb", f"{_name(state, seat)} puts a Bomb into {_name(state, victim)}'s bag", "Item: Sticky Bomb",
            seat=seat, victim=victim)
        return
    held = [*state.ready[seat], item]
    held.remove(choice.name)
    state.ready = replaced(state.ready, seat, tuple(held))
    names = game.item_names
    _ev(events, "drop", f"{_name(state, seat)} keeps {' and '.join(names[i] for i in held)} and lets "
        f"{names[choice.name]} go", "Items: the ready area holds two (RIU-G13)",
        seat=seat, dropped=choice.name)


def boost_options(state: RevState, seat: int) -> list[str]:
    """Boost items (Turbo, Slipstream), used during movement (RIU-A5)."""
    if state.status[seat] == FINISHED or not state.ready[seat]:
        return []
    out: list[str] = []
    effect_of = state.game.effect
    progress = state.progress
    for item in sorted(set(state.ready[seat])):
        effect = effect_of[item]
        if effect == "turbo" or (effect == "slipstream"
                                 and any(other_position > progress[seat] for other_position in progress)):
            out.append(notation.boost(item))
    return out


def use_boost(state: RevState, seat: int, item: str, events: list[Event]) -> None:
    """Turn Structure 5: "Some items are used during the movement phase" (Turbo, Slipstream)."""
    _spend(state, seat, item)
    _ev(events, "item", f"{_name(state, seat)} uses {state.game.item_names[item]}", "Items: Boost", seat=seat,
        item=item)
    if state.game.effect[item] == "turbo":
        move_forward(state, seat, TURBO_SPACES, events)
    else:
        mine = state.progress[seat]
        ahead = min(other_position for other_position in state.progress if other_position > mine)
        move_forward(state, seat, ahead - mine, events)


def _spend(state: RevState, seat: int, item: str) -> None:
    """Items: a used item leaves the ready area."""
    held = list(state.ready[seat])
    held.remove(item)
    state.ready = replaced(state.ready, seat, tuple(held))
    _count(state, seat, Stat.ITEMS_USED)


def spring_traps(state: RevState, seat: int, space: int, events: list[Event]) -> bool:
    """Items: Trap. Every other racer's trap on ``space`` springs as ``seat`` enters or passes it
    (each is a card of its own: two Caltrops there add two Debris); a Shield cancels one. Returns
    True when an Oil Slick stops the racer there."""
    game = state.game
    sprung = [trap for trap in state.traps if trap.space == space and trap.owner != seat]
    if not sprung:
        return False
    state.traps = tuple(trap for trap in state.traps if trap.space != space or trap.owner == seat)
    stop = False
    for trap in sprung:
        _ev(events, "trap", f"{_name(state, seat)} runs over {_name(state, trap.owner)}'s "
            f"{game.item_names[trap.item]} on space {space}",
            "Items: Trap", seat=seat, space=space)
        if shielded(state, seat, events):
            continue
        if game.effect[trap.item] == "oil_slick":
            stop = True
        else:
            add_debris(state, seat, events)
    return stop


def shielded(state: RevState, seat: int, events: list[Event]) -> bool:
    """Shield: held in the ready area, cancels the next Attack, Weapon or Trap on you."""
    effect_of = state.game.effect
    for item in state.ready[seat]:
        if effect_of[item] == "shield":
            _spend(state, seat, item)
            _ev(events, "shield", f"{_name(state, seat)}'s {state.game.item_names[item]} cancels it", "Items: Shield",
                seat=seat)
            return True
    return False


def add_debris(state: RevState, seat: int, events: list[Event]) -> None:
    """Items: Attacks "add chips to other player's Rev Tracks" (a Debris chip, one space; RIU-G12).

    No space: a racing racer overheats; a stopped one just does not take it (RIU-A13).
    """
    game = state.game
    if not state.supply[game.debris]:
        _ev(events, "debris", "no Debris left in the supply", "RIU-G12", seat=seat)
        return
    space = rev_last(state, seat) + 1
    if space <= game.rev_length[seat]:
        _to_supply(state, game.debris, -1)
        place_on_rev(state, seat, game.debris, space)
        _count(state, seat, Stat.DEBRIS_TAKEN)
        _ev(events, "debris", f"{_name(state, seat)} takes a Debris on Rev space {space}", "Items: Attack",
            seat=seat)
    else:
        overheat(state, seat, events, game.kinds.titles[game.debris])


# --- Buying New Chips and Items -------------------------------------------------------------------

def coins_of(state: RevState, seat: int) -> int:
    """Coins in the discard (a Coin chip of level X is X coins), collected coins and the Rev bonus."""
    return _discard_coins(state, seat) + state.collected_coins[seat] + rev_bonus(state, seat)


def _discard_coins(state: RevState, seat: int) -> int:
    """Coins (Yellow): the coins in the discard (a Coin chip of level X is X coins)."""
    discard = state.discards[seat]
    coins = 0
    for kind, level in state.game.coin_levels:
        coins += level * discard[kind]
    return coins


def start_buying(state: RevState, events: list[Event]) -> list[bool]:
    """Buying: "all players determine how many coins they have to spend". Finished racers sit out,
    and so does a racer with nothing it could buy or upgrade (its only choice would be "done")."""
    buyers: list[bool] = []
    purses: list[int] = []
    for seat in state.game.seats:
        racing = state.status[seat] != FINISHED
        bonus = rev_bonus(state, seat)
        _count(state, seat, Stat.REV_BONUS, bonus)
        coins = _discard_coins(state, seat) + state.collected_coins[seat] + bonus if racing else 0
        purses.append(coins)
        if racing:
            _ev(events, "coins", f"{_name(state, seat)} has {coins} coins (Rev bonus {bonus})",
                "Buying New Chips and Items", seat=seat, coins=coins)
    state.coins_to_spend = tuple(purses)
    for seat, coins in enumerate(purses):
        # With a coin the item die is always on offer; without, only an upgrade could be.
        buyers.append(state.status[seat] != FINISHED and (coins >= 1 or bool(cart_options(state, seat))))
    return buyers


class CartTotals(NamedTuple):
    """What a seat's cart holds so far."""

    coins_left: int
    colours: set[str]
    chips: int
    upgrades: int
    item: bool
    kinds_taken: dict[int, int]
    """Supply taken by kind (bought chips and the higher chips of upgrades)."""
    upgraded: list[str]


def cart_totals(state: RevState, seat: int) -> CartTotals:
    """Buying: what the steps of a seat's cart add up to (the limits of rules 1 and 2 read these)."""
    game = state.game
    index = game.kinds.index
    left = state.coins_to_spend[seat]
    colours: set[str] = set()
    chips = upgrades = 0
    item = False
    taken: dict[int, int] = {}
    upgraded: list[str] = []
    for step in state.carts[seat]:
        verb = step.verb
        if verb is Verb.BUY:
            kind = index[step.name]
            left -= game.kinds.cost[kind]
            colours.add(game.kinds.colour[kind])
            chips += 1
            taken[kind] = taken.get(kind, 0) + 1
        elif verb is Verb.UPGRADE:
            upgrades += 1
            kind = game.kinds.up[index[step.name]]
            taken[kind] = taken.get(kind, 0) + 1
            upgraded.append(step.name)
        else:
            item = True
            left -= 1 if verb is Verb.ROLL_ITEM_DIE else 3
    return CartTotals(left, colours, chips, upgrades, item, taken, upgraded)


def upgrade_points(state: RevState, seat: int) -> int:
    """Upgrades (Orange): each Upgrade X pulled this round gives X single-level steps (RIU-A9)."""
    game = state.game
    discard = state.discards[seat]
    level = game.kinds.level
    points = 0
    for kind in game.upgrade_kinds:
        points += level[kind] * discard[kind]
    return points


def upgradable_pool(state: RevState, seat: int) -> list[int]:
    """Counts of this round's pulled chips (Rev Track and discard) that an Upgrade may raise
    (RIU-A9: not Upgrades themselves, Recalls or item chips)."""
    game = state.game
    discard = state.discards[seat]
    pool = [0] * game.kind_count
    for kind in range(game.kind_count):
        if game.code[kind] not in (UPGRADE, RECALL, DEBRIS, BOMB):
            pool[kind] = discard[kind]
    for kind in state.rev_chips[seat]:
        if game.code[kind] not in (UPGRADE, RECALL, DEBRIS, BOMB):
            pool[kind] += 1
    return pool


def cart_options(state: RevState, seat: int) -> list[str]:
    """A seat's next possible purchase: one chip per colour, upgrades, one item (Buying rules 1-2)."""
    game = state.game
    if state.status[seat] == FINISHED:
        return []
    cart = cart_totals(state, seat)
    left = cart.coins_left
    taken = cart.kinds_taken
    kinds = game.kinds
    out: list[str] = []
    supply = state.supply
    if not game.max_chips or cart.chips < game.max_chips:
        for kind, colour, cost, action, recall in game.shop:
            if cost > left or colour in cart.colours or supply[kind] - taken.get(kind, 0) <= 0:
                continue
            if recall:
                out.extend(notation.buy(kinds.names[kind], other) for other in game.seats
                           if other != seat and state.status[other] != FINISHED)
            else:
                out.append(action)
    if game.upgrade_kinds and cart.upgrades < upgrade_points(state, seat):
        pool = upgradable_pool(state, seat)
        for name in cart.upgraded:
            kind = kinds.index[name]
            pool[kind] -= 1
            pool[kinds.up[kind]] += 1
        for kind in range(game.kind_count):
            higher = kinds.up[kind]
            if pool[kind] > 0 and higher >= 0 and supply[higher] - taken.get(higher, 0) > 0:
                out.append(notation.upgrade(kinds.names[kind]))
    if not cart.item:
        if left >= 1:
            out.append(notation.ROLL_ITEM_DIE)
        if left >= 3:
            out.extend(notation.item(i) for i in game.items_in_play)
    return out


def _upgrade(state: RevState, seat: int, kind: int) -> bool:
    """Upgrades (Orange): one pulled chip (the discard first, else the latest on the Rev Track) one
    level up, the higher chip from the supply."""
    game = state.game
    higher = game.kinds.up[kind]
    if not state.supply[higher]:
        return False
    discard = state.discards[seat]
    if discard[kind]:
        state.discards = replaced(state.discards, seat, _added(_added(discard, kind, -1), higher, 1))
    elif kind in state.rev_chips[seat]:
        kinds = list(state.rev_chips[seat])
        kinds[len(kinds) - 1 - kinds[::-1].index(kind)] = higher
        state.rev_chips = replaced(state.rev_chips, seat, tuple(kinds))
    else:
        return False
    _to_supply(state, higher, -1)
    _to_supply(state, kind, 1)
    return True


def sold_out_in_cart(state: RevState, seat: int) -> str:
    """The first chip a seat's cart takes from the supply (a buy, or an upgrade's higher chip) that the
    supply can no longer give, or "" when the whole cart can be filled."""
    names = state.game.kinds.names
    for kind, count in cart_totals(state, seat).kinds_taken.items():
        if count > state.supply[kind]:
            return names[kind]
    return ""


def resolve_buys(state: RevState, events: list[Event]) -> tuple[int, ...]:
    """Buying, resolved together: "Buying all happens simultaneously, however, if a chip type would run
    out, the player furthest back on the track will get to choose first"; "All leftover coins are lost".

    The carts are filled furthest behind first (rule 4, ``priority``). A cart that asks for a chip the
    racers before it have taken is not filled: its racer chooses again from what is left (issue 13,
    RIU-X2), with its whole purse. Returns the seats still to resolve, that racer first (empty when every
    cart is filled); the item rolls and gains to play out are queued on ``state.tasks``. A filled cart is
    emptied and its purse spent, so resolving it again does nothing.
    """
    order = priority(state)
    for i, seat in enumerate(order):
        chip = sold_out_in_cart(state, seat)
        if chip:
            state.carts = replaced(state.carts, seat, ())
            title = state.game.kinds.titles[state.game.kinds.index[chip]]
            _ev(events, "sold-out", f"{title} ran out before {_name(state, seat)}'s turn: {_name(state, seat)} chooses "
                "again from what is left", "Buying New Chips and Items (RIU-X2)", seat=seat, chip=chip)
            return tuple(order[i:])
        fill_cart(state, seat, events)
    return ()


def fill_cart(state: RevState, seat: int, events: list[Event]) -> None:
    """One racer's purchases, which the supply can give: chips into the bag (a Recall into the named
    opponent's), upgrades, an item to roll or gain; leftover coins are lost (rule 3)."""
    kinds = state.game.kinds
    tasks: list[Task] = []
    spent = 0
    for step in state.carts[seat]:
        verb = step.verb
        name = step.name
        if verb is Verb.BUY:
            kind = kinds.index[name]
            _to_supply(state, kind, -1)
            owner = step.target if step.target is not None else seat
            _to_bag(state, owner, kind)
            spent += kinds.cost[kind]
            _count(state, seat, Stat.CHIPS_BOUGHT)
            where = f" into {_name(state, owner)}'s bag" if step.target is not None else ""
            _ev(events, "buy", f"{_name(state, seat)} buys {kinds.titles[kind]}{where}", "Buying New Chips and Items",
                seat=seat, chip=name)
        elif verb is Verb.UPGRADE:
            kind = kinds.index[name]
            ok = _upgrade(state, seat, kind)
            title = kinds.titles[kind]
            text = f"upgrades a {title}" if ok else f"cannot upgrade a {title} (none of the next level left)"
            _ev(events, "upgrade", f"{_name(state, seat)} {text}", "Upgrades (Orange)", seat=seat)
        elif verb is Verb.ROLL_ITEM_DIE:
            spent += 1
            tasks.append(Task(True, seat, 0, ""))
        else:
            spent += 3
            tasks.append(Task(False, seat, 0, name))
            _ev(events, "buy-item", f"{_name(state, seat)} takes {state.game.item_names[name]} for 3 coins",
                "Buying: items", seat=seat, item=name)
    _count(state, seat, Stat.COINS_SPENT, spent)
    lost = state.coins_to_spend[seat] - spent
    if lost > 0:
        coins = "1 leftover coin" if lost == 1 else f"{lost} leftover coins"
        _ev(events, "coins-lost", f"{_name(state, seat)} loses {coins}", "Buying rule 3",
            seat=seat)
    state.coins_to_spend = replaced(state.coins_to_spend, seat, 0)
    state.carts = replaced(state.carts, seat, ())
    state.tasks = (*state.tasks, *tasks)


# --- Game End -------------------------------------------------------------------------------------

def finish(state: RevState, seat: int, events: list[Event]) -> None:
    """Game End: crossing the finish line on the final lap."""
    group = state.mover_index
    if 0 <= group < len(state.tie_groups):
        group = state.tie_groups[group]
    _set_status(state, seat, FINISHED)
    state.finished_at = replaced(state.finished_at, seat, FinishMark(state.turn, group, -state.progress[seat]))
    _ev(events, "finish", f"{_name(state, seat)} crosses the finish line on the final lap", "Game End",
        seat=seat)


def race_over(state: RevState) -> bool:
    """Game End: the first finisher ends it, or (option podium) enough finishers."""
    return state.status.count(FINISHED) >= state.game.places


def end_text(state: RevState) -> str:
    """Game End: who won."""
    result = final_result(state)
    return f"race over: {', '.join(_name(state, winner) for winner in result.winners)} wins"


def final_result(state: RevState) -> Result:
    """Finishers in the order they crossed (RIU-A11), then the rest by progress."""
    marks = state.finished_at
    done = sorted((seat for seat in state.game.seats if marks[seat] is not None), key=lambda seat: (marks[seat], seat))
    rest = sorted((seat for seat in state.game.seats if marks[seat] is None),
                  key=lambda seat: (-state.progress[seat], seat))
    winners = tuple(seat for seat in done if marks[seat] == marks[done[0]]) if done else ()
    return Result(tuple(done + rest), winners, "first across the finish line on the final lap",
                  {"rounds": state.round, "turns": state.turn, "progress": list(state.progress)})


def conservation_problems(state: RevState) -> list[str]:
    """Chips are conserved between bags, drawn chips, Rev Tracks, discards and the supply."""
    game = state.game
    count = list(state.supply)
    for seat in game.seats:
        for kind in range(game.kind_count):
            count[kind] += state.bags[seat][kind] + state.discards[seat][kind]
        for kind in state.rev_chips[seat]:
            count[kind] += 1
        if state.drawn[seat] != NO_CHIP:
            count[state.drawn[seat]] += 1
    problems = [f"{game.kinds.names[kind]}: {count[kind]} chips, expected {game.totals[kind]}"
                for kind in range(game.kind_count) if count[kind] != game.totals[kind]]
    for seat in game.seats:
        if rev_last(state, seat) > game.rev_length[seat]:
            problems.append(f"P{seat + 1}: Rev Track over its length")
        if state.progress[seat] < 0:
            problems.append(f"P{seat + 1}: behind the start")
    if any(value < 0 for value in state.supply) or any(value < 0 for bag in state.bags for value in bag) \
            or any(value < 0 for discard in state.discards for value in discard):
        problems.append("a negative chip count")
    return problems


# --- The round, stage by stage ---------------------------------------------------------------------
# Round Structure and Turn Structure put the rules above in order: draw (chance per racer) -> movement
# (highest first, Boost items) -> item die rolls (with rerolls) -> stop or keep going (simultaneous) ->
# use items (simultaneous) -> ... -> buying (simultaneous, private carts) -> end of round. An action
# answers the stage the state rests on (``take_action``); ``advance`` then runs the automatic stages
# until the next choice or chance outcome.

def take_action(state: RevState, action: str, events: list[Event]) -> None:
    """Apply ``action`` (legal at the state's stage), then run the automatic stages to the next input."""
    stage = state.stage
    if stage is Stage.DRAW:
        if take_draw(state, action, events):
            return
    elif stage is Stage.ITEM_DIE:
        if roll_item_die(state, notation.parse(action).name, events):
            return
    elif stage is Stage.REROLL:
        if notation.parse(action).verb is Verb.REROLL:
            state.rerolls_left -= 1
            state.stage = Stage.ITEM_DIE
            log_reroll(state, state.current, events)
            return
        state.stage = Stage.TASKS
        gain_or_ask(state, state.current, state.rolled_item, events)
    elif stage is Stage.GAIN_ITEM:
        resolve_gain(state, state.current, state.rolled_item, notation.parse(action), events)
        state.stage = Stage.TASKS
    elif stage is Stage.BOOST:
        chosen = notation.parse(action)
        if chosen.verb is Verb.BOOST:
            use_boost(state, state.current, chosen.name, events)
        after_move(state, events)
    elif choose(state, action, events):
        return
    advance(state, events)


def advance(state: RevState, events: list[Event]) -> None:
    """Run the automatic stages until the next input (a choice or a chance outcome)."""
    while True:
        stage = state.stage
        if stage < Stage.TASKS:
            return
        if stage is Stage.MOVE:
            if move_racers(state, events):
                return
        elif stage is Stage.TASKS:
            if next_task(state, events):
                return
        elif stage is Stage.ROUND_START:
            start_round(state, events)
            state.stage = Stage.TURN_START
        elif stage is Stage.TURN_START:
            if start_turn(state, events):
                return
        elif stage is Stage.STOP_OR_GO_START:
            if open_stop_or_go(state):
                return
        elif stage is Stage.USE_ITEMS_START:
            if open_using_items(state):
                return
        elif stage is Stage.BUY_START:
            if open_buying(state, events):
                return
        elif stage is Stage.ROUND_END:
            end_round(state, events)
            state.stage = Stage.ROUND_START


def start_turn(state: RevState, events: list[Event]) -> bool:
    """Round Structure 1: another turn while anyone races (True), else on to buying."""
    stop_empty_bags(state, events)
    first = next_drawer(state, 0)
    if first < 0:
        state.stage = Stage.BUY_START
        return False
    players = state.game.players
    state.turn += 1
    state.drawn = [NO_CHIP] * players
    state.item_rolls_due = (0,) * players
    state.current = first
    state.stage = Stage.DRAW
    return True


def next_drawer(state: RevState, start: int) -> int:
    """Turn Structure 1: the first racing seat from ``start`` on (-1: none), who draws next."""
    status = state.status
    for seat in range(start, len(status)):
        if status[seat] == RACING:
            return seat
    return -1


def take_draw(state: RevState, action: str, events: list[Event]) -> bool:
    """Turn Structure 1: the current racer draws; True while other racers still have to draw."""
    draw(state, state.current, state.game.kinds.index[notation.parse(action).name], events)
    following = next_drawer(state, state.current + 1)
    if following >= 0:
        state.current = following
        return True
    state.movement_order, state.tie_groups = movement_order(state)
    state.mover_index = 0
    state.stage = Stage.MOVE
    return False


def move_racers(state: RevState, events: list[Event]) -> bool:
    """Turn Structure 2: the movers in order; True when one stops for a Boost choice or the race ends."""
    order = state.movement_order
    while state.mover_index < len(order):
        seat = order[state.mover_index]
        resolve_draw(state, seat, events)
        if state.ready[seat] and boost_options(state, seat):
            state.current = seat
            state.stage = Stage.BOOST
            return True
        after_move(state, events)
        if state.stage is Stage.OVER:
            return True
    state.tasks = item_rolls(state)
    state.after_tasks = Stage.STOP_OR_GO_START
    state.stage = Stage.TASKS
    return False


def after_move(state: RevState, events: list[Event]) -> None:
    """Step past the mover at ``mover_index``; at the end of a tie group, see whether the race is over
    (Game End, RIU-A11)."""
    groups = state.tie_groups
    state.mover_index += 1
    i = state.mover_index
    if FINISHED in state.status and (i == len(groups) or groups[i] != groups[i - 1]) and race_over(state):
        state.stage = Stage.OVER
        events.append(Event("game-end", end_text(state), "Game End"))
        return
    state.stage = Stage.MOVE


def next_task(state: RevState, events: list[Event]) -> bool:
    """Turn Structure 3: the next queued item roll (True: the item die is to be rolled) or gain."""
    if not state.tasks:
        state.stage = state.after_tasks
        return False
    task = state.tasks[0]
    state.tasks = state.tasks[1:]
    if task.roll:
        state.current = task.seat
        state.rerolls_left = task.rerolls
        state.stage = Stage.ITEM_DIE
        return True
    gain_or_ask(state, task.seat, task.item, events)
    return state.stage is Stage.GAIN_ITEM


def roll_item_die(state: RevState, item: str, events: list[Event]) -> bool:
    """Turn Structure 3: True while the roller may still reroll."""
    log_roll(state, state.current, item, events)
    if state.rerolls_left > 0:
        state.rolled_item = item
        state.stage = Stage.REROLL
        return True
    state.stage = Stage.TASKS
    gain_or_ask(state, state.current, item, events)
    return False


def gain_or_ask(state: RevState, seat: int, item: str, events: list[Event]) -> None:
    """Items: ``seat`` gains ``item``; when that needs a choice (a Sticky Bomb's victim, the item to drop
    from a full ready area) the state waits for it at ``GAIN_ITEM``."""
    if gain_item(state, seat, item, events):
        state.rolled_item = item
        state.current = seat
        state.stage = Stage.GAIN_ITEM


def open_stop_or_go(state: RevState) -> bool:
    """Turn Structure 4: every racing racer chooses (True), unless none is racing."""
    status = state.status
    if RACING not in status:
        state.stage = Stage.USE_ITEMS_START
        return False
    racing = frozenset(seat for seat, racer_status in enumerate(status) if racer_status == RACING)
    open_choice(state, racing, state.game.decide_actions)
    state.stage = Stage.STOP_OR_GO
    return True


def open_using_items(state: RevState) -> bool:
    """Turn Structure 5: every racer with an item to use chooses (True), unless none has one."""
    offered = [use_options(state, seat) if held else [] for seat, held in enumerate(state.ready)]
    if not any(offered):
        state.stage = Stage.TURN_START
        return False
    users = frozenset(seat for seat, options in enumerate(offered) if options)
    open_choice(state, users, tuple(notation.seated(seat, [notation.PASS, *options]) if options else ()
                                    for seat, options in enumerate(offered)))
    state.stage = Stage.USE_ITEMS
    return True


def open_buying(state: RevState, events: list[Event]) -> bool:
    """Buying New Chips and Items: every racer with something to buy builds a cart (True)."""
    players = state.game.players
    state.carts = ((),) * players
    state.tasks = ()
    buyers = start_buying(state, events)
    if not any(buyers):
        state.stage = Stage.ROUND_END
        return False
    state.stage = Stage.BUY
    open_choice(state, frozenset(seat for seat in range(players) if buyers[seat]),
                tuple(notation.seated(seat, seat_options(state, seat)) if buyers[seat] else ()
                      for seat in range(players)))
    # A racer that sits the phase out counts as done (a view shows that it has chosen).
    state.asked = frozenset(range(players))
    state.choices = tuple(None if buyers[seat] else Action(Verb.DONE) for seat in range(players))
    return True


def open_choice(state: RevState, seats: frozenset[int], offers: tuple[tuple[str, ...], ...]) -> None:
    """Simultaneous play: ``seats`` choose at once, each from its ``offers``."""
    state.waiting = state.asked = seats
    state.choices = (None,) * state.game.players
    state.offers = offers


def seat_options(state: RevState, seat: int) -> list[str]:
    """A seat's own (unprefixed) options at a simultaneous choice, worked out from the rules.

    They depend only on that seat's own cart and on public facts that do not change while the
    choice is open, so ``offers`` holds them from the start of the choice (and after each cart step).
    """
    stage = state.stage
    if stage is Stage.STOP_OR_GO:
        return [notation.GO, notation.STOP]
    if stage is Stage.USE_ITEMS:
        return [notation.PASS, *use_options(state, seat)]
    if stage is Stage.BUY:
        return [notation.DONE, *cart_options(state, seat)]
    return []


def choose(state: RevState, action: str, events: list[Event]) -> bool:
    """Simultaneous play: a seat's step at a simultaneous choice; True while other seats still have to
    choose. The last choice resolves the stage: Turn Structure 4, Turn Structure 5 or Buying."""
    seat, body, chosen = notation.parse_seated(action)
    stage = state.stage
    buying = stage is Stage.BUY
    if buying and chosen.verb is not Verb.DONE:
        state.carts = replaced(state.carts, seat, (*state.carts[seat], chosen))
        state.offers = replaced(state.offers, seat, notation.seated(seat, seat_options(state, seat)))
    else:
        state.choices = replaced(state.choices, seat, chosen)
        state.waiting = state.waiting - state.game.only[seat]
        events.append(chosen_event(seat))
    events.append(choice_event(seat, body, state.game.say_choice(body)))
    if state.waiting:
        return True
    if stage is Stage.STOP_OR_GO:
        resolve_stops(state, events)
        state.stage = Stage.USE_ITEMS_START
    elif stage is Stage.USE_ITEMS:
        resolve_items(state, events)
        state.stage = Stage.TURN_START
    else:
        unresolved = resolve_buys(state, events)
        if unresolved:
            choose_again(state, unresolved)
            return True
        state.after_tasks = Stage.ROUND_END
        state.stage = Stage.TASKS
    return False


def choose_again(state: RevState, unresolved: tuple[int, ...]) -> None:
    """Buying: the first of ``unresolved`` found its chip sold out and builds a new cart from what is
    left; the others keep their closed carts (still private) until it is done (RIU-X2)."""
    seat = unresolved[0]
    state.waiting = frozenset((seat,))
    state.asked = frozenset(unresolved)
    state.choices = tuple(None if other == seat else Action(Verb.DONE) for other in state.game.seats)
    state.offers = replaced(state.offers, seat, notation.seated(seat, seat_options(state, seat)))
