"""The rules of Rev it Up as small functions, in rulebook order (../shared/rules/rev-it-up.txt).

Each function changes a fresh ``RevState`` copy (``apply`` made it) by assigning new values to its
fields (they are tuples: ``replaced`` for one entry) and appends the ``Event``s it caused, each naming
the rulebook section (or the gap decision, docs/rules/rev-it-up.md) it applied. ``state.py`` sequences
them through the stages of a round.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final, NamedTuple

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event, EventCache, Result

from . import notation, words
from .content import BOMB, COOLANT, DEBRIS, ECOBOOST, NITROUS, RECALL, UPGRADE
from .notation import BUY_VERB, GIVE_VERB, GO_VERB, ROLL_ITEM_DIE_VERB, STOP_VERB, UPGRADE_VERB, USE_VERB, Action

if TYPE_CHECKING:
    from .game import RevItUp
    from .state import RevState

RACING: Final = 0
STOPPED: Final = 1
OVERHEATED: Final = 2
FINISHED: Final = 3
"""A racer's status this round (``RevState.status``)."""
STATUS_NAMES = ("racing", "stopped", "overheated", "finished")
NO_CHIP: Final = -1
"""``RevState.drawn`` for a racer with no drawn chip to resolve."""

TURBO_SPACES: Final = 3
SHOCKWAVE_RANGE: Final = 3


class Stat(enum.IntEnum):
    """The per-seat counters kept for metrics (``RevState.stats[seat][stat]``)."""

    DRAWS = 0
    OVERHEATS = 1
    STOPS = 2
    ITEMS_GAINED = 3
    ITEMS_USED = 4
    COINS_SPENT = 5
    CHIPS_BOUGHT = 6
    REV_BONUS = 7
    DEBRIS_TAKEN = 8
    SPACES_MOVED = 9


# The counters as module constants (as ``notation``'s verbs): one is counted on nearly every action.
DRAWS_STAT: Final = Stat.DRAWS
OVERHEATS_STAT: Final = Stat.OVERHEATS
STOPS_STAT: Final = Stat.STOPS
ITEMS_GAINED_STAT: Final = Stat.ITEMS_GAINED
ITEMS_USED_STAT: Final = Stat.ITEMS_USED
COINS_SPENT_STAT: Final = Stat.COINS_SPENT
CHIPS_BOUGHT_STAT: Final = Stat.CHIPS_BOUGHT
REV_BONUS_STAT: Final = Stat.REV_BONUS
DEBRIS_TAKEN_STAT: Final = Stat.DEBRIS_TAKEN
SPACES_MOVED_STAT: Final = Stat.SPACES_MOVED


class Task(NamedTuple):
    """An item roll (``roll``: with ``rerolls``) or an item gain (``item``) still to play out."""

    roll: bool
    seat: int
    rerolls: int
    item: str


class Trap(NamedTuple):
    """A Trap item waiting on a space of the track for the next other racer."""

    space: int
    item: str
    owner: int


class FinishMark(NamedTuple):
    """When a racer crossed the finish line: earlier marks finish ahead (RIU-A11)."""

    turn: int
    group: int
    """The index of its tie group in the turn's movement order."""
    behind: int
    """Minus its progress: further past the line is ahead."""




_EVENTS = EventCache()
"""The events that recur with the same content every race (draws, moves, placements, choices)."""


def _ev(events: list[Event], kind: str, text: str, rule: str, **data: object) -> None:
    """An event made afresh (the rarer ones: the recurring ones come from ``_EVENTS``)."""
    events.append(Event(kind, text, rule, data))


def _name(s: RevState, seat: int) -> str:
    return s.g.short_names[seat]


def _added(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    """``values`` with ``amount`` added to entry ``index`` (a new tuple)."""
    items = list(values)
    items[index] += amount
    return tuple(items)


def _to_bag(s: RevState, seat: int, kind: int, n: int = 1) -> None:
    bag = list(s.bags[seat])
    bag[kind] += n
    s.bags = replaced(s.bags, seat, tuple(bag))


def _to_discard(s: RevState, seat: int, kind: int, n: int = 1) -> None:
    discard = list(s.discards[seat])
    discard[kind] += n
    s.discards = replaced(s.discards, seat, tuple(discard))


def _to_supply(s: RevState, kind: int, n: int = 1) -> None:
    s.supply = _added(s.supply, kind, n)


def _count(s: RevState, seat: int, stat: int, n: int = 1) -> None:
    """Add to one of a seat's counters (``stats`` is a list: changed in place)."""
    counters = list(s.stats[seat])
    counters[stat] += n
    s.stats[seat] = tuple(counters)


def _set_status(s: RevState, seat: int, status: int) -> None:
    s.status = replaced(s.status, seat, status)


# --- Turn Structure 1: draw -----------------------------------------------------------------------

def draw(s: RevState, seat: int, kind: int, events: list[Event]) -> None:
    """Turn Structure 1: "All players simultaneously draw 1 chip from their bags and reveal them"."""
    _to_bag(s, seat, kind, -1)
    s.drawn[seat] = kind
    kinds = s.g.kinds
    events.append(draw_event(seat, kinds.names[kind], kinds.titles[kind]))


@_EVENTS.memo
def draw_event(seat: int, chip: str, title: str) -> Event:
    """Turn Structure 1: the chip a seat drew, by its name (made once per seat and chip)."""
    return Event("draw", f"P{seat + 1} draws {title}", "Turn Structure 1", {"seat": seat, "chip": chip})


# --- Turn Structure 2: movement -------------------------------------------------------------------

def movement_order(s: RevState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Turn Structure 2: "Highest movement moves first, then second highest and so on".

    RIU-A2: zero and backward moves come last; at equal movement the racer in front moves first, then
    seat order (movement is simultaneous, so a racer behind must not reach the line before the racer in
    front has moved: issue 13). The movement is the chip's own (an EMP zeroes an Ecoboost's or
    Nitrous'). Returns the seats in that order and, for each, its tie group: the position in the order
    of the first racer with the same movement from the same progress (RIU-A11).
    """
    g = s.g
    keys = sorted((-(0 if s.emp_jams[seat] and g.code[k] in (ECOBOOST, NITROUS) else g.move[k]), -s.progress[seat],
                   seat) for seat, k in enumerate(s.drawn) if k != NO_CHIP)
    groups: list[int] = []
    for i, (movement, before, _) in enumerate(keys):
        tied = i > 0 and keys[i - 1][0] == movement and keys[i - 1][1] == before
        groups.append(groups[i - 1] if tied else i)
    return tuple(seat for _, _, seat in keys), tuple(groups)


def resolve_draw(s: RevState, seat: int, events: list[Event]) -> None:
    """Move by the drawn chip, then place it (Exhaust, Nitrous, Bomb) or discard it (the others).

    RIU-A1: the move comes first, as the text orders ("move ... Then place"); with the option
    ``overheat_penalty=lose_move`` a chip that cannot be placed gives no movement.
    """
    g = s.g
    kind = s.drawn[seat]
    s.drawn[seat] = NO_CHIP
    _count(s, seat, DRAWS_STAT)
    code = g.code[kind]
    move = g.move[kind]
    if s.emp_jams[seat] and code in (ECOBOOST, NITROUS):
        s.emp_jams = _added(s.emp_jams, seat, -1)
        move = 0
        _ev(events, "emp", f"{_name(s, seat)}'s {g.kinds.titles[kind]} is cancelled by an EMP", "Item: EMP",
            seat=seat)
    heat = g.heat[kind]
    if heat:
        fits = rev_last(s, seat) + heat <= g.rev_length[seat]
        if not fits and g.lose_move and move > 0:  # a penalty: a Bomb still moves back
            move = 0
            _ev(events, "lose-move", f"{_name(s, seat)}'s chip would overheat: no movement",
                "RIU-A1 (overheat_penalty=lose_move)", seat=seat)
    if move > 0:
        move_forward(s, seat, move, events)
    elif move < 0:
        move_back(s, seat, -move, events, "Recalls (Purple)" if code == RECALL else "Item: Sticky Bomb")
    if heat:
        target = rev_last(s, seat) + heat
        if target <= g.rev_length[seat] and s.status[seat] != OVERHEATED:
            place_on_rev(s, seat, kind, target)
            events.append(rev_event(seat, g.kinds.titles[kind], target))
        else:
            to_discard_or_supply(s, seat, kind)
            overheat(s, seat, events, g.kinds.titles[kind])
    elif code == COOLANT:
        _to_discard(s, seat, kind)
        coolant(s, seat, g.kinds.level[kind], events)
    else:
        _to_discard(s, seat, kind)


@_EVENTS.memo
def rev_event(seat: int, chip: str, target: int) -> Event:
    """Rev Track: a chip (by its name) placed on a Rev space (made once per seat, chip and space)."""
    return Event("rev", f"P{seat + 1} places {chip} on Rev space {target}", "Rev Track",
                 {"seat": seat, "space": target})


def move_forward(s: RevState, seat: int, spaces: int, events: list[Event]) -> None:
    """Move ahead space by space: count item spaces entered or passed (RIU-A3) and spring traps.

    A racer that reaches the finish on its final lap finishes (Game End); the race ends at the end
    of the current group of tied movers (RIU-A11).
    """
    g = s.g
    length = g.track_length
    start = s.progress[seat]
    p = start
    target = p + spaces
    item_spaces = 0
    while p < target:
        p += 1
        space = p % length
        if space in g.item_spaces:
            item_spaces += 1
        if s.traps and spring_traps(s, seat, space, events):
            target = p
    if item_spaces:
        s.item_rolls_due = _added(s.item_rolls_due, seat, item_spaces)
    moved = p - start
    s.progress = replaced(s.progress, seat, p)
    _count(s, seat, SPACES_MOVED_STAT, moved)
    events.append(move_event(seat, moved, p, length, g.laps))
    if p >= g.finish and s.status[seat] != FINISHED:
        finish(s, seat, events)


@_EVENTS.memo
def move_event(seat: int, moved: int, progress: int, length: int, laps: int) -> Event:
    """Turn Structure 2: a move forward to a place said as the board numbers it (made once per seat,
    spaces, progress and track)."""
    return Event("move", f"P{seat + 1} moves {moved} space{'' if moved == 1 else 's'} to "
                 f"{words.place(length, laps, progress)}", "Turn Structure 2", {"seat": seat, "to": progress})


def move_back(s: RevState, seat: int, spaces: int, events: list[Event], rule: str) -> None:
    """Recalls (and Bombs) move the racer BACKWARDS; never behind the start, never onto item rolls."""
    p = max(0, s.progress[seat] - spaces)
    s.progress = replaced(s.progress, seat, p)
    _ev(events, "move", f"{_name(s, seat)} moves back to {words.place(s.g.track_length, s.g.laps, p)}", rule,
        seat=seat, to=p)


# --- Turn Structure 3: items from the track -------------------------------------------------------

def place_of(s: RevState, seat: int) -> int:
    """1 + the number of racers strictly ahead (RIU-A4: tied racers share a place)."""
    p = s.progress[seat]
    return 1 + sum(1 for q in s.progress if q > p)


def rerolls_for(s: RevState, seat: int) -> int:
    """Turn Structure 3: one reroll in second place, two further back, none for the leader."""
    place = place_of(s, seat)
    return (0 if place == 1 else 1 if place == 2 else 2) + s.g.reroll_bonus[seat]


def item_rolls(s: RevState) -> tuple[Task, ...]:
    """Turn Structure 3: one item-die roll per item space passed, places measured after all moved."""
    tasks: list[Task] = []
    for seat in s.movement_order:
        if s.item_rolls_due[seat] and s.status[seat] != FINISHED:
            rerolls = rerolls_for(s, seat)
            tasks.extend(Task(True, seat, rerolls, "") for _ in range(s.item_rolls_due[seat]))
    return tuple(tasks)


def log_roll(s: RevState, seat: int, item: str, events: list[Event]) -> None:
    """Turn Structure 3: "roll the item die and take the corresponding item chip"."""
    _ev(events, "item-die", f"{_name(s, seat)} rolls the item die: {s.g.item_names[item]}", "Turn Structure 3",
        seat=seat, item=item)


def log_reroll(s: RevState, seat: int, events: list[Event]) -> None:
    """Turn Structure 3: "Players may reroll the Item Die once if they are in second place ..."."""
    events.append(Event("reroll", f"{_name(s, seat)} rerolls the item die", "Turn Structure 3"))


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


def resolve_stops(s: RevState, events: list[Event]) -> None:
    """Turn Structure 4: "players will choose to stop or keep going" (revealed together)."""
    for seat, choice in enumerate(s.choices):
        if choice is None:
            continue
        if choice.verb is STOP_VERB:
            _set_status(s, seat, STOPPED)
            _count(s, seat, STOPS_STAT)
            events.append(_stop_go_event(seat, notation.STOP))
        elif choice.verb is GO_VERB:
            events.append(_stop_go_event(seat, notation.GO))


@_EVENTS.memo
def _stop_go_event(seat: int, choice: str) -> Event:
    return Event(choice, f"P{seat + 1} stops" if choice == notation.STOP else f"P{seat + 1} keeps going",
                 "Turn Structure 4", {"seat": seat})


# --- Turn Structure 5: items from the ready area --------------------------------------------------

def rocket_targets(s: RevState, seat: int) -> list[int]:
    """The racer directly ahead that is still racing (stopped racers are immune, RIU-A13)."""
    p = s.progress[seat]
    ahead = [t for t in s.g.seats if t != seat and s.status[t] == RACING and s.progress[t] > p]
    if not ahead:
        return []
    nearest = min(s.progress[t] for t in ahead)
    return [t for t in ahead if s.progress[t] == nearest]


def shockwave_targets(s: RevState, seat: int) -> list[int]:
    """Items: Shockwave hits every racing racer 1-3 spaces ahead (RIU-G10; stopped racers are immune)."""
    p = s.progress[seat]
    return [t for t in s.g.seats
            if t != seat and s.status[t] == RACING and p < s.progress[t] <= p + SHOCKWAVE_RANGE]


def use_options(s: RevState, seat: int) -> list[str]:
    """The items a seat may use now from its ready area (Turn Structure 5)."""
    if s.status[seat] == FINISHED or not s.ready[seat]:
        return []
    out: list[str] = []
    effect_of = s.g.effect
    for item in sorted(set(s.ready[seat])):
        effect = effect_of[item]
        if effect in ("oil_slick", "caltrops", "sponsor", "loose_change"):
            out.append(notation.use(item))
        elif effect == "rocket":
            out.extend(notation.use(item, t) for t in rocket_targets(s, seat))
        elif effect == "shockwave":
            if shockwave_targets(s, seat):
                out.append(notation.use(item))
        elif effect == "emp":
            out.extend(notation.use(item, t) for t in s.g.seats if t != seat and s.status[t] == RACING)
        elif effect == "heat_sink" and s.rev_chips[seat]:
            out.append(notation.use(item))
    return out


def priority(s: RevState) -> list[int]:
    """Buying / items: "Furthest behind breaks disputes" (then seat order)."""
    return sorted(s.g.seats, key=lambda t: (s.progress[t], t))


def resolve_items(s: RevState, events: list[Event]) -> None:
    """Turn Structure 5, resolved together in the order furthest behind first."""
    g = s.g
    for seat in priority(s):
        choice = s.choices[seat]
        if choice is None or choice.verb is not USE_VERB:
            continue
        item = choice.name
        if item not in s.ready[seat]:
            continue
        _spend(s, seat, item)
        effect = g.effect[item]
        _ev(events, "item", f"{_name(s, seat)} uses {g.item_names[item]}",
            f"Items: {g.content.items[item].type.capitalize()}",
            seat=seat, item=item)
        if effect in ("oil_slick", "caltrops"):
            s.traps = (*s.traps, Trap(s.progress[seat] % g.track_length, item, seat))
        elif effect in ("rocket", "emp"):
            _hit(s, choice.target if choice.target is not None else -1, effect, events)
        elif effect == "shockwave":
            for t in shockwave_targets(s, seat):
                _hit(s, t, effect, events)
        elif effect == "sponsor":
            s.collected_coins = _added(s.collected_coins, seat, 2)
        elif effect == "loose_change":
            s.collected_coins = _added(s.collected_coins, seat, 1)
            s.next_round_coins = _added(s.next_round_coins, seat, 1)
        elif effect == "heat_sink":
            removed = remove_recent(s, seat, 1)
            _ev(events, "heat-sink", f"{_name(s, seat)} takes {_titles(g, removed) or 'nothing'} off the Rev Track",
                "Item: Heat Sink", seat=seat)


def _hit(s: RevState, target: int, effect: str, events: list[Event]) -> None:
    """Items: an Attack or Weapon lands, unless its target has stopped (RIU-A13) or holds a Shield."""
    if s.status[target] != RACING:
        _ev(events, "immune", f"{_name(s, target)} has stopped and is immune", "RIU-A13", seat=target)
        return
    if shielded(s, target, events):
        return
    if effect == "emp":
        s.emp_jams = _added(s.emp_jams, target, 1)
        _ev(events, "emp", f"{_name(s, target)}'s next Ecoboost or Nitrous is jammed", "Item: EMP",
            seat=target)
    else:
        add_debris(s, target, events)


# --- Round Structure ------------------------------------------------------------------------------

def start_round(s: RevState, events: list[Event]) -> None:
    """Round Structure: another round of turns."""
    s.round += 1
    _ev(events, "round", f"round {s.round} begins", "Round Structure", round=s.round)


def stop_empty_bags(s: RevState, events: list[Event]) -> None:
    """Round Structure 1: turns go on until all have stopped or overheated; a racer with nothing left
    to draw must stop (a stop, so the Rev bonus counts; RIU-X1)."""
    for seat, status in enumerate(s.status):
        if status == RACING and not any(s.bags[seat]):
            _set_status(s, seat, STOPPED)
            _count(s, seat, STOPS_STAT)
            _ev(events, "stop", f"{_name(s, seat)} has an empty bag and stops", "RIU-X1", seat=seat)


def end_round(s: RevState, events: list[Event]) -> None:
    """Round Structure 3: "place all chips from their Rev Track and Discard back in their bag and turn
    their racer back forward". Item chips go to the supply; Recalls stay (RIU-A8) unless the option
    ``recall_returns_to_supply``."""
    g = s.g
    discards = s.discards
    if g.recall_to_supply:
        for seat in g.seats:
            for k in g.recall_kinds:
                n = discards[seat][k]
                if n:
                    discards = replaced(discards, seat, replaced(discards[seat], k, 0))
                    _to_supply(s, k, n)
    bags: list[tuple[int, ...]] = []
    for seat in g.seats:
        bag = [b + d for b, d in zip(s.bags[seat], discards[seat], strict=True)]
        for k in s.rev_chips[seat]:
            if g.code[k] in (DEBRIS, BOMB):
                _to_supply(s, k)
            else:
                bag[k] += 1
        bags.append(tuple(bag))
        if s.status[seat] != FINISHED:
            _set_status(s, seat, RACING)
    s.bags = tuple(bags)
    s.discards = ((0,) * g.kind_count,) * g.players
    s.rev_chips = ((),) * g.players
    s.rev_spaces = ((),) * g.players
    s.collected_coins = s.next_round_coins
    s.next_round_coins = (0,) * g.players
    _ev(events, "round-end", f"round {s.round} ends: every chip goes back in its bag", "Round Structure 3")


# --- Exhaust Chips and the Rev Track --------------------------------------------------------------

def rev_last(s: RevState, seat: int) -> int:
    """The space of the last chip placed on the Rev Track (0 when empty)."""
    spaces = s.rev_spaces[seat]
    return spaces[-1] if spaces else 0


def place_on_rev(s: RevState, seat: int, kind: int, space: int) -> None:
    """Rev Track: "place the chip on the next available space" (Exhaust: ``space`` skips its level)."""
    s.rev_chips = replaced(s.rev_chips, seat, (*s.rev_chips[seat], kind))
    s.rev_spaces = replaced(s.rev_spaces, seat, (*s.rev_spaces[seat], space))


def to_discard_or_supply(s: RevState, seat: int, kind: int) -> None:
    """Rev Track (RIU-A1): a chip that cannot be placed goes to the discard; an item chip to the supply."""
    if s.g.code[kind] in (DEBRIS, BOMB):
        _to_supply(s, kind)
    else:
        _to_discard(s, seat, kind)


def overheat(s: RevState, seat: int, events: list[Event], chip: str) -> None:
    """Rev Track: "If you would ever need to place a chip and dont have space for it, you Overheat and
    must stop pulling chips for the remainder of the round" (RIU-A1: the chip goes to the discard)."""
    if s.status[seat] == RACING:
        _set_status(s, seat, OVERHEATED)
        _count(s, seat, OVERHEATS_STAT)
        _ev(events, "overheat", f"{_name(s, seat)} cannot place {chip} and overheats", "Rev Track",
            seat=seat)


def rev_bonus(s: RevState, seat: int) -> int:
    """Rev Track: bonus coins for stopping (not overheating) with the last chip on one of the last 3
    spaces."""
    return rev_bonus_if_stopped(s, seat) if s.status[seat] == STOPPED else 0


def rev_bonus_if_stopped(s: RevState, seat: int) -> int:
    """The bonus read from the space of the last placed chip (RIU-A15)."""
    length = s.g.rev_length[seat]
    i = rev_last(s, seat) - (length - 2)
    return s.g.bonus[i] if i >= 0 else 0


def overheat_chance(s: RevState, seat: int) -> float:
    """The chance that the next chip this racer draws cannot be placed."""
    if s.status[seat] != RACING:
        return 0.0
    g = s.g
    room = g.rev_length[seat] - rev_last(s, seat)
    total = bad = 0
    heat = g.heat
    for k, n in enumerate(s.bags[seat]):
        if n:
            total += n
            if heat[k] > room:
                bad += n
    return bad / total if total else 0.0


def remove_recent(s: RevState, seat: int, n: int) -> list[str]:
    """Take the most recent ``n`` chips off a Rev Track: to the bag, item chips to the supply (RIU-A6)."""
    g = s.g
    kinds = s.rev_chips[seat]
    n = min(n, len(kinds))
    if not n:
        return []
    keep = len(kinds) - n
    removed = kinds[keep:]
    s.rev_chips = replaced(s.rev_chips, seat, kinds[:keep])
    s.rev_spaces = replaced(s.rev_spaces, seat, s.rev_spaces[seat][:keep])
    for k in removed:
        if g.code[k] in (DEBRIS, BOMB):
            _to_supply(s, k)
        else:
            _to_bag(s, seat, k)
    return [g.kinds.names[k] for k in removed]


def _titles(g: RevItUp, chips: list[str]) -> str:
    """Chip kinds (by id) by their names, joined: "Exhaust 2, Debris"."""
    kinds = g.kinds
    return ", ".join(kinds.titles[kinds.index[chip]] for chip in chips)


def coolant(s: RevState, seat: int, level: int, events: list[Event]) -> None:
    """Coolant (Blue): "remove the most recent X chips from your Rev Track, placing them back in your
    bag. Item Chips removed from your Rev Track are returned to the supply." """
    removed = remove_recent(s, seat, level)
    _ev(events, "coolant", f"{_name(s, seat)} cools down: {_titles(s.g, removed) or 'nothing'} off the Rev Track",
        "Coolant (Blue)", seat=seat, removed=removed)


# --- Items ----------------------------------------------------------------------------------------

def gain_item(s: RevState, seat: int, item: str, events: list[Event]) -> bool:
    """Items: gained items go to the ready area; a Sticky Bomb goes into an opponent's bag.

    Returns True when the gainer must choose (the victim, or which item to drop when full, RIU-G13).
    """
    g = s.g
    _count(s, seat, ITEMS_GAINED_STAT)
    if g.to_bag[item]:
        if not s.supply[g.bomb] or not gain_options(s, seat, item):
            _ev(events, "gain", f"{_name(s, seat)} gains {g.item_names[item]}, but it cannot be played", "Items",
                seat=seat, item=item)
            return False
        return True
    if len(s.ready[seat]) < g.ready_capacity:
        s.ready = replaced(s.ready, seat, (*s.ready[seat], item))
        _ev(events, "gain", f"{_name(s, seat)} gains {g.item_names[item]} to the ready area", "Items",
            seat=seat, item=item)
        return False
    return True


def gain_options(s: RevState, seat: int, item: str) -> list[str]:
    """Items: a Sticky Bomb's victim (any unfinished opponent), or the item to drop (RIU-G13)."""
    if s.g.to_bag[item]:
        return [notation.give(t) for t in s.g.seats if t != seat and s.status[t] != FINISHED]
    return sorted({notation.drop(x) for x in (*s.ready[seat], item)})


def resolve_gain(s: RevState, seat: int, item: str, choice: Action, events: list[Event]) -> None:
    """Items: the Sticky Bomb goes into the chosen opponent's bag (a Shield stops it), or the chosen
    item leaves a full ready area (RIU-G13)."""
    g = s.g
    if choice.verb is GIVE_VERB:
        victim = choice.target if choice.target is not None else -1
        if shielded(s, victim, events):
            return
        _to_supply(s, g.bomb, -1)
        _to_bag(s, victim, g.bomb)
        _ev(events, "bomb", f"{_name(s, seat)} puts a Bomb into {_name(s, victim)}'s bag", "Item: Sticky Bomb",
            seat=seat, victim=victim)
        return
    held = [*s.ready[seat], item]
    held.remove(choice.name)
    s.ready = replaced(s.ready, seat, tuple(held))
    names = g.item_names
    _ev(events, "drop", f"{_name(s, seat)} keeps {' and '.join(names[i] for i in held)} and lets "
        f"{names[choice.name]} go", "RIU-G13",
        seat=seat, dropped=choice.name)


def boost_options(s: RevState, seat: int) -> list[str]:
    """Boost items (Turbo, Slipstream), used during movement (RIU-A5)."""
    if s.status[seat] == FINISHED or not s.ready[seat]:
        return []
    out: list[str] = []
    effect_of = s.g.effect
    progress = s.progress
    for item in sorted(set(s.ready[seat])):
        effect = effect_of[item]
        if effect == "turbo" or (effect == "slipstream" and any(q > progress[seat] for q in progress)):
            out.append(notation.boost(item))
    return out


def use_boost(s: RevState, seat: int, item: str, events: list[Event]) -> None:
    """Turn Structure 5: "Some items are used during the movement phase" (Turbo, Slipstream)."""
    _spend(s, seat, item)
    _ev(events, "item", f"{_name(s, seat)} uses {s.g.item_names[item]}", "Items: Boost", seat=seat, item=item)
    if s.g.effect[item] == "turbo":
        move_forward(s, seat, TURBO_SPACES, events)
    else:
        mine = s.progress[seat]
        ahead = min(q for q in s.progress if q > mine)
        move_forward(s, seat, ahead - mine, events)


def _spend(s: RevState, seat: int, item: str) -> None:
    """Items: a used item leaves the ready area."""
    held = list(s.ready[seat])
    held.remove(item)
    s.ready = replaced(s.ready, seat, tuple(held))
    _count(s, seat, ITEMS_USED_STAT)


def spring_traps(s: RevState, seat: int, space: int, events: list[Event]) -> bool:
    """Items: Trap. Every other racer's trap on ``space`` springs as ``seat`` enters or passes it
    (each is a card of its own: two Caltrops there add two Debris); a Shield cancels one. Returns
    True when an Oil Slick stops the racer there."""
    g = s.g
    sprung = [trap for trap in s.traps if trap.space == space and trap.owner != seat]
    if not sprung:
        return False
    s.traps = tuple(trap for trap in s.traps if trap.space != space or trap.owner == seat)
    stop = False
    for trap in sprung:
        _ev(events, "trap", f"{_name(s, seat)} runs over {_name(s, trap.owner)}'s {g.item_names[trap.item]} on "
            f"space {space}",
            "Items: Trap", seat=seat, space=space)
        if shielded(s, seat, events):
            continue
        if g.effect[trap.item] == "oil_slick":
            stop = True
        else:
            add_debris(s, seat, events)
    return stop


def shielded(s: RevState, seat: int, events: list[Event]) -> bool:
    """Shield: held in the ready area, cancels the next Attack, Weapon or Trap on you."""
    effect_of = s.g.effect
    for item in s.ready[seat]:
        if effect_of[item] == "shield":
            _spend(s, seat, item)
            _ev(events, "shield", f"{_name(s, seat)}'s {s.g.item_names[item]} cancels it", "Items: Shield", seat=seat)
            return True
    return False


def add_debris(s: RevState, seat: int, events: list[Event]) -> None:
    """Items: Attacks "add chips to other player's Rev Tracks" (a Debris chip, one space; RIU-G12).

    No space: a racing racer overheats; a stopped one just does not take it (RIU-A13).
    """
    g = s.g
    if not s.supply[g.debris]:
        _ev(events, "debris", "no Debris left in the supply", "RIU-G12", seat=seat)
        return
    space = rev_last(s, seat) + 1
    if space <= g.rev_length[seat]:
        _to_supply(s, g.debris, -1)
        place_on_rev(s, seat, g.debris, space)
        _count(s, seat, DEBRIS_TAKEN_STAT)
        _ev(events, "debris", f"{_name(s, seat)} takes a Debris on Rev space {space}", "Items: Attack",
            seat=seat)
    else:
        overheat(s, seat, events, g.kinds.titles[g.debris])


# --- Buying New Chips and Items -------------------------------------------------------------------

def coins_of(s: RevState, seat: int) -> int:
    """Coins in the discard (a Coin chip of level X is X coins), collected coins and the Rev bonus."""
    return _discard_coins(s, seat) + s.collected_coins[seat] + rev_bonus(s, seat)


def _discard_coins(s: RevState, seat: int) -> int:
    """Coins (Yellow): the coins in the discard (a Coin chip of level X is X coins)."""
    discard = s.discards[seat]
    coins = 0
    for k, level in s.g.coin_levels:
        coins += level * discard[k]
    return coins


def start_buying(s: RevState, events: list[Event]) -> list[bool]:
    """Buying: "all players determine how many coins they have to spend". Finished racers sit out,
    and so does a racer with nothing it could buy or upgrade (its only choice would be "done")."""
    buyers: list[bool] = []
    purses: list[int] = []
    for seat in s.g.seats:
        racing = s.status[seat] != FINISHED
        bonus = rev_bonus(s, seat)
        _count(s, seat, REV_BONUS_STAT, bonus)
        coins = _discard_coins(s, seat) + s.collected_coins[seat] + bonus if racing else 0
        purses.append(coins)
        if racing:
            _ev(events, "coins", f"{_name(s, seat)} has {coins} coins (Rev bonus {bonus})",
                "Buying New Chips and Items", seat=seat, coins=coins)
    s.coins_to_spend = tuple(purses)
    for seat, coins in enumerate(purses):
        # With a coin the item die is always on offer; without, only an upgrade could be.
        buyers.append(s.status[seat] != FINISHED and (coins >= 1 or bool(cart_options(s, seat))))
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


def cart_totals(s: RevState, seat: int) -> CartTotals:
    """Buying: what the steps of a seat's cart add up to (the limits of rules 1 and 2 read these)."""
    g = s.g
    index = g.kinds.index
    left = s.coins_to_spend[seat]
    colours: set[str] = set()
    chips = upgrades = 0
    item = False
    taken: dict[int, int] = {}
    upgraded: list[str] = []
    for step in s.carts[seat]:
        verb = step.verb
        if verb is BUY_VERB:
            k = index[step.name]
            left -= g.kinds.cost[k]
            colours.add(g.kinds.colour[k])
            chips += 1
            taken[k] = taken.get(k, 0) + 1
        elif verb is UPGRADE_VERB:
            upgrades += 1
            k = g.kinds.up[index[step.name]]
            taken[k] = taken.get(k, 0) + 1
            upgraded.append(step.name)
        else:
            item = True
            left -= 1 if verb is ROLL_ITEM_DIE_VERB else 3
    return CartTotals(left, colours, chips, upgrades, item, taken, upgraded)


def upgrade_points(s: RevState, seat: int) -> int:
    """Upgrades (Orange): each Upgrade X pulled this round gives X single-level steps (RIU-A9)."""
    g = s.g
    discard = s.discards[seat]
    level = g.kinds.level
    points = 0
    for k in g.upgrade_kinds:
        points += level[k] * discard[k]
    return points


def upgradable_pool(s: RevState, seat: int) -> list[int]:
    """Counts of this round's pulled chips (Rev Track and discard) that an Upgrade may raise
    (RIU-A9: not Upgrades themselves, Recalls or item chips)."""
    g = s.g
    discard = s.discards[seat]
    pool = [0] * g.kind_count
    for k in range(g.kind_count):
        if g.code[k] not in (UPGRADE, RECALL, DEBRIS, BOMB):
            pool[k] = discard[k]
    for k in s.rev_chips[seat]:
        if g.code[k] not in (UPGRADE, RECALL, DEBRIS, BOMB):
            pool[k] += 1
    return pool


def cart_options(s: RevState, seat: int) -> list[str]:
    """A seat's next possible purchase: one chip per colour, upgrades, one item (Buying rules 1-2)."""
    g = s.g
    if s.status[seat] == FINISHED:
        return []
    cart = cart_totals(s, seat)
    left = cart.coins_left
    taken = cart.kinds_taken
    kinds = g.kinds
    out: list[str] = []
    supply = s.supply
    if not g.max_chips or cart.chips < g.max_chips:
        for k, colour, cost, action, recall in g.shop:
            if cost > left or colour in cart.colours or supply[k] - taken.get(k, 0) <= 0:
                continue
            if recall:
                out.extend(notation.buy(kinds.names[k], t) for t in g.seats if t != seat and s.status[t] != FINISHED)
            else:
                out.append(action)
    if g.upgrade_kinds and cart.upgrades < upgrade_points(s, seat):
        pool = upgradable_pool(s, seat)
        for name in cart.upgraded:
            k = kinds.index[name]
            pool[k] -= 1
            pool[kinds.up[k]] += 1
        for k in range(g.kind_count):
            higher = kinds.up[k]
            if pool[k] > 0 and higher >= 0 and supply[higher] - taken.get(higher, 0) > 0:
                out.append(notation.upgrade(kinds.names[k]))
    if not cart.item:
        if left >= 1:
            out.append(notation.ROLL_ITEM_DIE)
        if left >= 3:
            out.extend(notation.item(i) for i in g.items_in_play)
    return out


def _upgrade(s: RevState, seat: int, k: int) -> bool:
    """Upgrades (Orange): one pulled chip (the discard first, else the latest on the Rev Track) one
    level up, the higher chip from the supply."""
    g = s.g
    higher = g.kinds.up[k]
    if not s.supply[higher]:
        return False
    discard = s.discards[seat]
    if discard[k]:
        s.discards = replaced(s.discards, seat, _added(_added(discard, k, -1), higher, 1))
    elif k in s.rev_chips[seat]:
        kinds = list(s.rev_chips[seat])
        kinds[len(kinds) - 1 - kinds[::-1].index(k)] = higher
        s.rev_chips = replaced(s.rev_chips, seat, tuple(kinds))
    else:
        return False
    _to_supply(s, higher, -1)
    _to_supply(s, k, 1)
    return True


def sold_out_in_cart(s: RevState, seat: int) -> str:
    """The first chip a seat's cart takes from the supply (a buy, or an upgrade's higher chip) that the
    supply can no longer give, or "" when the whole cart can be filled."""
    names = s.g.kinds.names
    for k, n in cart_totals(s, seat).kinds_taken.items():
        if n > s.supply[k]:
            return names[k]
    return ""


def resolve_buys(s: RevState, events: list[Event]) -> tuple[int, ...]:
    """Buying, resolved together: "Buying all happens simultaneously, however, if a chip type would run
    out, the player furthest back on the track will get to choose first"; "All leftover coins are lost".

    The carts are filled furthest behind first (rule 4, ``priority``). A cart that asks for a chip the
    racers before it have taken is not filled: its racer chooses again from what is left (issue 13,
    RIU-X2), with its whole purse. Returns the seats still to resolve, that racer first (empty when every
    cart is filled); the item rolls and gains to play out are queued on ``s.tasks``. A filled cart is
    emptied and its purse spent, so resolving it again does nothing.
    """
    order = priority(s)
    for i, seat in enumerate(order):
        chip = sold_out_in_cart(s, seat)
        if chip:
            s.carts = replaced(s.carts, seat, ())
            title = s.g.kinds.titles[s.g.kinds.index[chip]]
            _ev(events, "sold-out", f"{title} ran out before {_name(s, seat)}'s turn: {_name(s, seat)} chooses "
                "again from what is left", "Buying New Chips and Items (RIU-X2)", seat=seat, chip=chip)
            return tuple(order[i:])
        fill_cart(s, seat, events)
    return ()


def fill_cart(s: RevState, seat: int, events: list[Event]) -> None:
    """One racer's purchases, which the supply can give: chips into the bag (a Recall into the named
    opponent's), upgrades, an item to roll or gain; leftover coins are lost (rule 3)."""
    kinds = s.g.kinds
    tasks: list[Task] = []
    spent = 0
    for step in s.carts[seat]:
        verb = step.verb
        name = step.name
        if verb is BUY_VERB:
            k = kinds.index[name]
            _to_supply(s, k, -1)
            owner = step.target if step.target is not None else seat
            _to_bag(s, owner, k)
            spent += kinds.cost[k]
            _count(s, seat, CHIPS_BOUGHT_STAT)
            where = f" into {_name(s, owner)}'s bag" if step.target is not None else ""
            _ev(events, "buy", f"{_name(s, seat)} buys {kinds.titles[k]}{where}", "Buying New Chips and Items",
                seat=seat, chip=name)
        elif verb is UPGRADE_VERB:
            k = kinds.index[name]
            ok = _upgrade(s, seat, k)
            title = kinds.titles[k]
            text = f"upgrades a {title}" if ok else f"cannot upgrade a {title} (none of the next level left)"
            _ev(events, "upgrade", f"{_name(s, seat)} {text}", "Upgrades (Orange)", seat=seat)
        elif verb is ROLL_ITEM_DIE_VERB:
            spent += 1
            tasks.append(Task(True, seat, 0, ""))
        else:
            spent += 3
            tasks.append(Task(False, seat, 0, name))
            _ev(events, "buy-item", f"{_name(s, seat)} takes {s.g.item_names[name]} for 3 coins", "Buying: items",
                seat=seat, item=name)
    _count(s, seat, COINS_SPENT_STAT, spent)
    lost = s.coins_to_spend[seat] - spent
    if lost > 0:
        _ev(events, "coins-lost", f"{_name(s, seat)} loses {lost} leftover coins", "Buying rule 3",
            seat=seat)
    s.coins_to_spend = replaced(s.coins_to_spend, seat, 0)
    s.carts = replaced(s.carts, seat, ())
    s.tasks = (*s.tasks, *tasks)


# --- Game End -------------------------------------------------------------------------------------

def finish(s: RevState, seat: int, events: list[Event]) -> None:
    """Game End: crossing the finish line on the final lap."""
    group = s.mover_index
    if 0 <= group < len(s.tie_groups):
        group = s.tie_groups[group]
    _set_status(s, seat, FINISHED)
    s.finished_at = replaced(s.finished_at, seat, FinishMark(s.turn, group, -s.progress[seat]))
    _ev(events, "finish", f"{_name(s, seat)} crosses the finish line on the final lap", "Game End",
        seat=seat)


def race_over(s: RevState) -> bool:
    """Game End: the first finisher ends it, or (option podium) enough finishers."""
    return s.status.count(FINISHED) >= s.g.places


def end_text(s: RevState) -> str:
    """Game End: who won."""
    result = final_result(s)
    return f"race over: {', '.join(_name(s, w) for w in result.winners)} wins"


def final_result(s: RevState) -> Result:
    """Finishers in the order they crossed (RIU-A11), then the rest by progress."""
    marks = s.finished_at
    done = sorted((t for t in s.g.seats if marks[t] is not None), key=lambda t: (marks[t], t))
    rest = sorted((t for t in s.g.seats if marks[t] is None), key=lambda t: (-s.progress[t], t))
    winners = tuple(t for t in done if marks[t] == marks[done[0]]) if done else ()
    return Result(tuple(done + rest), winners, "first across the finish line on the final lap",
                  {"rounds": s.round, "turns": s.turn, "progress": list(s.progress)})


def conservation_problems(s: RevState) -> list[str]:
    """Chips are conserved between bags, drawn chips, Rev Tracks, discards and the supply."""
    g = s.g
    count = list(s.supply)
    for seat in g.seats:
        for k in range(g.kind_count):
            count[k] += s.bags[seat][k] + s.discards[seat][k]
        for k in s.rev_chips[seat]:
            count[k] += 1
        if s.drawn[seat] != NO_CHIP:
            count[s.drawn[seat]] += 1
    problems = [f"{g.kinds.names[k]}: {count[k]} chips, expected {g.totals[k]}"
                for k in range(g.kind_count) if count[k] != g.totals[k]]
    for seat in g.seats:
        if rev_last(s, seat) > g.rev_length[seat]:
            problems.append(f"P{seat + 1}: Rev Track over its length")
        if s.progress[seat] < 0:
            problems.append(f"P{seat + 1}: behind the start")
    if any(v < 0 for v in s.supply) or any(v < 0 for bag in s.bags for v in bag) \
            or any(v < 0 for discard in s.discards for v in discard):
        problems.append("a negative chip count")
    return problems
