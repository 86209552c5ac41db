"""The rules of Rev it Up as small functions, in rulebook order (rules/rev-it-up.txt).

Each function changes a fresh ``RevState`` copy in place and appends the ``Event``s it caused, each
naming the rulebook section (and the gap decision, docs/rules/rev-it-up.md) it applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from slipstream.engine.game import Event, Result

from .content import BOMB, COOLANT, DEBRIS, ECOBOOST, NITROUS, RECALL, UPGRADE

if TYPE_CHECKING:
    from .game import RevItUp
    from .state import RevState

RACING, STOPPED, OVERHEATED, FINISHED = range(4)
STATUS_NAMES = ("racing", "stopped", "overheated", "finished")

# Per-seat counters kept for metrics.
ST_DRAWS, ST_OVERHEATS, ST_STOPS, ST_GAINED, ST_USED, ST_SPENT, ST_BOUGHT, ST_BONUS, ST_DEBRIS, ST_MOVED = range(10)
NSTATS = 10

TURBO_SPACES = 3
SHOCKWAVE_RANGE = 3

T_ROLL, T_GAIN = 0, 1


X = TypeVar("X")


def _add(t: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
    """``t`` with ``d`` added at ``i`` (rarely changed per-seat numbers are tuples: never copied)."""
    items = list(t)
    items[i] += d
    return tuple(items)


def _put(t: tuple[X, ...], i: int, v: X) -> tuple[X, ...]:
    """``t`` with ``v`` at ``i``."""
    items = list(t)
    items[i] = v
    return tuple(items)


_EVENTS: dict[tuple[object, ...], Event] = {}
_CHOICE_EVENTS: dict[tuple[int, str], tuple[Event, Event]] = {}


def _ev(events: list[Event], kind: str, text: str, rule: str, **data: object) -> None:
    """Append an event. Events are immutable and their text says everything their data does, so
    each distinct one is built once and shared (the cache is bounded)."""
    key = (kind, text, rule, data.get("seat"))
    cached = _EVENTS.get(key)
    if cached is None:
        cached = Event(kind, text, rule, data)
        if len(_EVENTS) < 200_000:
            _EVENTS[key] = cached
    events.append(cached)


def _name(s: RevState, seat: int) -> str:
    return s.g.short_names[seat]


def choice_events(g: RevItUp, seat: int, choice: str) -> tuple[Event, Event]:
    """A simultaneous choice: public "P2 has chosen", and the choice itself for that seat only.

    (A buying step other than ``done`` shows only the private one, so nobody counts another's cart.)"""
    key = (seat, choice)
    cached = _CHOICE_EVENTS.get(key)
    if cached is None:
        who = f"P{seat + 1}"
        cached = _CHOICE_EVENTS[key] = (
            Event("chosen", f"{who} has chosen", "Simultaneous play", {"seat": seat}),
            Event("choice", f"{who} chose {choice}", "Simultaneous play", {"seat": seat, "choice": choice},
                  frozenset((seat,))),
        )
    return cached


# --- Turn Structure 1: draw -----------------------------------------------------------------------

def draw(s: RevState, seat: int, kind: int, events: list[Event]) -> None:
    """Turn Structure 1: "All players simultaneously draw 1 chip from their bags and reveal them"."""
    g = s.g
    s.bag[seat * g.K + kind] -= 1
    s.drawn[seat] = kind
    key = ("draw", seat, kind)
    event = g.keyed_events.get(key)
    if event is None:
        chip = g.kinds.names[kind]
        event = g.keyed_events[key] = Event("draw", f"P{seat + 1} draws {chip}", "Turn Structure 1",
                                    {"seat": seat, "chip": chip})
    events.append(event)


def stop_empty_bags(s: RevState, events: list[Event]) -> None:
    """A racer with nothing left to draw must stop (a stop, so the Rev bonus counts; RIU-X1)."""
    K = s.g.K
    for seat, st in enumerate(s.status):
        if st == RACING and not any(s.bag[seat * K: seat * K + K]):
            s.status[seat] = STOPPED
            s.stats[seat * NSTATS + ST_STOPS] += 1
            _ev(events, "stop", f"{_name(s, seat)} has an empty bag and stops", "RIU-X1", seat=seat)


# --- Turn Structure 2: movement -------------------------------------------------------------------

def movement_order(s: RevState) -> tuple[tuple[int, int, int], ...]:
    """Turn Structure 2: "Highest movement moves first, then second highest and so on".

    RIU-A2: zero and backward moves come last; ties go to the racer further behind, then seat order.
    The movement is the chip's own (an EMP zeroes an Ecoboost's or Nitrous'). Entries are
    ``(seat, movement, progress before moving)``.
    """
    g = s.g
    keys = sorted((-(0 if s.emp[seat] and g.code[k] in (ECOBOOST, NITROUS) else g.move[k]), s.pos[seat], seat)
                  for seat, k in enumerate(s.drawn) if k >= 0)
    return tuple((seat, -neg, pos) for neg, pos, seat in keys)


def resolve_draw(s: RevState, seat: int, events: list[Event]) -> None:
    """Move by the drawn chip, then place it (Exhaust, Nitrous, Bomb) or discard it (the others).

    RIU-A1: the move comes first, as the text orders ("move ... Then place"); with the option
    ``overheat_penalty=lose_move`` a chip that cannot be placed gives no movement.
    """
    g = s.g
    kind = s.drawn[seat]
    s.drawn[seat] = -1
    s.stats[seat * NSTATS + ST_DRAWS] += 1
    code = g.code[kind]
    move = g.move[kind]
    if s.emp[seat] and code in (ECOBOOST, NITROUS):
        s.emp = _add(s.emp, seat, -1)
        move = 0
        _ev(events, "emp", f"{_name(s, seat)}'s {g.kinds.names[kind]} is cancelled by an EMP", "Item: EMP",
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
            key = ("rev", seat, kind, target)
            event = g.keyed_events.get(key)
            if event is None:
                event = g.keyed_events[key] = Event(
                    "rev", f"P{seat + 1} places {g.kinds.names[kind]} on Rev space {target}", "Rev Track",
                    {"seat": seat, "space": target})
            events.append(event)
        else:
            to_discard_or_supply(s, seat, kind)
            overheat(s, seat, events, g.kinds.names[kind])
    elif code == COOLANT:
        s.disc[seat * g.K + kind] += 1
        coolant(s, seat, g.kinds.level[kind], events)
    else:
        s.disc[seat * g.K + kind] += 1


def move_forward(s: RevState, seat: int, spaces: int, events: list[Event]) -> None:
    """Move ahead space by space: count item spaces entered or passed (RIU-A3) and spring traps.

    A racer that reaches the finish on its final lap finishes (Game End); the race ends at the end
    of the current group of tied movers (RIU-A11).
    """
    g = s.g
    L = g.track_length
    p = s.pos[seat]
    target = p + spaces
    while p < target:
        p += 1
        sp = p % L
        if sp in g.item_spaces:
            s.rolls_due[seat] += 1
        if s.traps and spring_traps(s, seat, sp, events):
            target = p
    moved = p - s.pos[seat]
    s.pos[seat] = p
    s.stats[seat * NSTATS + ST_MOVED] += moved
    key = ("move", seat, moved, p)
    event = g.keyed_events.get(key)
    if event is None:
        event = g.keyed_events[key] = Event("move", f"P{seat + 1} moves {moved} to {p}", "Turn Structure 2",
                                    {"seat": seat, "to": p})
    events.append(event)
    if p >= g.finish and s.status[seat] != FINISHED:
        finish(s, seat, events)


def spring_traps(s: RevState, seat: int, sp: int, events: list[Event]) -> bool:
    """Items: Trap. Every other racer's trap on space ``sp`` springs as ``seat`` enters or passes it
    (each is a card of its own: two Caltrops there add two Debris); a Shield cancels one. Returns
    True when an Oil Slick stops the racer there."""
    g = s.g
    sprung = [trap for trap in s.traps if trap[0] == sp and trap[2] != seat]
    if not sprung:
        return False
    s.traps = tuple(trap for trap in s.traps if trap[0] != sp or trap[2] == seat)
    stop = False
    for _, item, owner in sprung:
        _ev(events, "trap", f"{_name(s, seat)} runs over {_name(s, owner)}'s {item} on space {sp}",
            "Items: Trap", seat=seat, space=sp)
        if shielded(s, seat, events):
            continue
        if g.effect[item] == "oil_slick":
            stop = True
        else:
            add_debris(s, seat, events)
    return stop


def move_back(s: RevState, seat: int, spaces: int, events: list[Event], rule: str) -> None:
    """Recalls (and Bombs) move the racer BACKWARDS; never behind the start, never onto item rolls."""
    p = max(0, s.pos[seat] - spaces)
    s.pos[seat] = p
    _ev(events, "move", f"{_name(s, seat)} moves back to {p}", rule, seat=seat, to=p)


def finish(s: RevState, seat: int, events: list[Event]) -> None:
    """Game End: crossing the finish line on the final lap."""
    order = s.order
    group = s.idx
    if 0 <= s.idx < len(order):
        key = order[s.idx][1:]
        group = next(i for i, m in enumerate(order) if m[1:] == key)
    s.status[seat] = FINISHED
    s.fin = _put(s.fin, seat, (s.turn, group, -s.pos[seat]))
    _ev(events, "finish", f"{_name(s, seat)} crosses the finish line on the final lap", "Game End",
        seat=seat)


def race_over(s: RevState) -> bool:
    """Game End: the first finisher ends it, or (option podium) enough finishers."""
    return s.status.count(FINISHED) >= s.g.places


def end_text(s: RevState) -> str:
    result = final_result(s)
    return f"race over: {', '.join(_name(s, w) for w in result.winners)} wins"


# --- The Rev Track --------------------------------------------------------------------------------

def rev_last(s: RevState, seat: int) -> int:
    """The space of the last chip placed on the Rev Track (0 when empty)."""
    spaces = s.rev_s[seat]
    return spaces[-1] if spaces else 0


def place_on_rev(s: RevState, seat: int, kind: int, space: int) -> None:
    s.rev_k[seat] = (*s.rev_k[seat], kind)
    s.rev_s[seat] = (*s.rev_s[seat], space)


def to_discard_or_supply(s: RevState, seat: int, kind: int) -> None:
    code = s.g.code[kind]
    if code in (DEBRIS, BOMB):
        s.supply = _add(s.supply, kind, 1)
    else:
        s.disc[seat * s.g.K + kind] += 1


def overheat(s: RevState, seat: int, events: list[Event], chip: str) -> None:
    """Rev Track: "If you would ever need to place a chip and dont have space for it, you Overheat and
    must stop pulling chips for the remainder of the round" (RIU-A1: the chip goes to the discard)."""
    if s.status[seat] == RACING:
        s.status[seat] = OVERHEATED
        s.stats[seat * NSTATS + ST_OVERHEATS] += 1
        _ev(events, "overheat", f"{_name(s, seat)} cannot place {chip} and overheats", "Rev Track",
            seat=seat)


def remove_recent(s: RevState, seat: int, n: int) -> list[str]:
    """Take the most recent ``n`` chips off a Rev Track: to the bag, item chips to the supply (RIU-A6)."""
    g = s.g
    kinds = s.rev_k[seat]
    n = min(n, len(kinds))
    if not n:
        return []
    removed = kinds[len(kinds) - n:]
    s.rev_k[seat] = kinds[: len(kinds) - n]
    s.rev_s[seat] = s.rev_s[seat][: len(kinds) - n]
    for k in removed:
        if g.code[k] in (DEBRIS, BOMB):
            s.supply = _add(s.supply, k, 1)
        else:
            s.bag[seat * g.K + k] += 1
    return [g.kinds.names[k] for k in removed]


def coolant(s: RevState, seat: int, level: int, events: list[Event]) -> None:
    """Coolant (Blue): "remove the most recent X chips from your Rev Track, placing them back in your
    bag. Item Chips removed from your Rev Track are returned to the supply." """
    removed = remove_recent(s, seat, level)
    _ev(events, "coolant", f"{_name(s, seat)} cools down: {', '.join(removed) or 'nothing'} off the Rev Track",
        "Coolant (Blue)", seat=seat, removed=removed)


def add_debris(s: RevState, seat: int, events: list[Event]) -> None:
    """Attacks "add chips to other player's Rev Tracks" (a Debris chip, one space; RIU-G12).

    No space: a racing racer overheats; a stopped one just does not take it (RIU-A13).
    """
    g = s.g
    if not s.supply[g.debris]:
        _ev(events, "debris", "no Debris left in the supply", "RIU-G12", seat=seat)
        return
    space = rev_last(s, seat) + 1
    if space <= g.rev_length[seat]:
        s.supply = _add(s.supply, g.debris, -1)
        place_on_rev(s, seat, g.debris, space)
        s.stats[seat * NSTATS + ST_DEBRIS] += 1
        _ev(events, "debris", f"{_name(s, seat)} takes a Debris on Rev space {space}", "Items: Attack",
            seat=seat)
    else:
        overheat(s, seat, events, "debris")


def rev_bonus(s: RevState, seat: int) -> int:
    """Bonus coins for stopping (not overheating) with the last chip on one of the last 3 spaces."""
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
    base = seat * g.K
    room = g.rev_length[seat] - rev_last(s, seat)
    total = bad = 0
    heat = g.heat
    for k in range(g.K):
        n = s.bag[base + k]
        if n:
            total += n
            if heat[k] > room:
                bad += n
    return bad / total if total else 0.0


# --- Turn Structure 3: items from the track -------------------------------------------------------

def place_of(s: RevState, seat: int) -> int:
    """1 + the number of racers strictly ahead (RIU-A4: tied racers share a place)."""
    p = s.pos[seat]
    return 1 + sum(1 for q in s.pos if q > p)


def rerolls_for(s: RevState, seat: int) -> int:
    """Turn Structure 3: one reroll in second place, two further back, none for the leader."""
    place = place_of(s, seat)
    return (0 if place == 1 else 1 if place == 2 else 2) + s.g.reroll_bonus[seat]


def item_rolls(s: RevState) -> tuple[tuple[int, int, int, str], ...]:
    """Turn Structure 3: one item-die roll per item space passed, places measured after all moved."""
    tasks: list[tuple[int, int, int, str]] = []
    for seat, _, _ in s.order:
        if s.rolls_due[seat] and s.status[seat] != FINISHED:
            n = rerolls_for(s, seat)
            tasks.extend((T_ROLL, seat, n, "") for _ in range(s.rolls_due[seat]))
    return tuple(tasks)


def log_roll(s: RevState, seat: int, item: str, events: list[Event]) -> None:
    _ev(events, "item-die", f"{_name(s, seat)} rolls the item die: {item}", "Turn Structure 3",
        seat=seat, item=item)


def gain_item(s: RevState, seat: int, item: str, events: list[Event]) -> bool:
    """Items: gained items go to the ready area; a Sticky Bomb goes into an opponent's bag.

    Returns True when the gainer must choose (the victim, or which item to drop when full, RIU-G13).
    """
    g = s.g
    s.stats[seat * NSTATS + ST_GAINED] += 1
    if g.to_bag[item]:
        if not s.supply[g.bomb] or not gain_options(s, seat, item):
            _ev(events, "gain", f"{_name(s, seat)} gains {item}, but it cannot be played", "Items",
                seat=seat, item=item)
            return False
        return True
    if len(s.ready[seat]) < g.ready_capacity:
        s.ready = _put(s.ready, seat, (*s.ready[seat], item))
        _ev(events, "gain", f"{_name(s, seat)} gains {item} to the ready area", "Items", seat=seat, item=item)
        return False
    return True


def gain_options(s: RevState, seat: int, item: str) -> list[str]:
    if s.g.to_bag[item]:
        return [f"give:{t}" for t in range(s.g.players) if t != seat and s.status[t] != FINISHED]
    return sorted({f"drop:{x}" for x in (*s.ready[seat], item)})


def resolve_gain(s: RevState, seat: int, item: str, action: str, events: list[Event]) -> None:
    g = s.g
    verb, _, arg = action.partition(":")
    if verb == "give":
        victim = int(arg)
        if shielded(s, victim, events):
            return
        s.supply = _add(s.supply, g.bomb, -1)
        s.bag[victim * g.K + g.bomb] += 1
        _ev(events, "bomb", f"{_name(s, seat)} puts a Bomb into {_name(s, victim)}'s bag", "Item: Sticky Bomb",
            seat=seat, victim=victim)
        return
    held = [*s.ready[seat], item]
    held.remove(arg)
    s.ready = _put(s.ready, seat, tuple(held))
    _ev(events, "drop", f"{_name(s, seat)} keeps {', '.join(held)} and drops {arg}", "RIU-G13",
        seat=seat, dropped=arg)


# --- Boost items, used during movement (RIU-A5) ---------------------------------------------------

def boost_options(s: RevState, seat: int) -> list[str]:
    if s.status[seat] == FINISHED or not s.ready[seat]:
        return []
    out: list[str] = []
    eff = s.g.effect
    for item in sorted(set(s.ready[seat])):
        e = eff[item]
        if e == "turbo" or (e == "slipstream" and any(q > s.pos[seat] for q in s.pos)):
            out.append(f"boost:{item}")
    return out


def use_boost(s: RevState, seat: int, item: str, events: list[Event]) -> None:
    """Turn Structure 5: "Some items are used during the movement phase" (Turbo, Slipstream)."""
    _spend(s, seat, item)
    _ev(events, "item", f"{_name(s, seat)} uses {item}", "Items: Boost", seat=seat, item=item)
    if s.g.effect[item] == "turbo":
        move_forward(s, seat, TURBO_SPACES, events)
    else:
        ahead = min(q for q in s.pos if q > s.pos[seat])
        move_forward(s, seat, ahead - s.pos[seat], events)


def _spend(s: RevState, seat: int, item: str) -> None:
    held = list(s.ready[seat])
    held.remove(item)
    s.ready = _put(s.ready, seat, tuple(held))
    s.stats[seat * NSTATS + ST_USED] += 1


# --- Turn Structure 4: stop or keep going ---------------------------------------------------------

def resolve_stops(s: RevState, events: list[Event]) -> None:
    """Turn Structure 4: "players will choose to stop or keep going" (revealed together)."""
    for seat, choice in enumerate(s.pending):
        if choice == "stop":
            s.status[seat] = STOPPED
            s.stats[seat * NSTATS + ST_STOPS] += 1
            events.append(_stop_go_event(s.g, seat, "stop"))
        elif choice == "go":
            events.append(_stop_go_event(s.g, seat, "go"))


def _stop_go_event(g: RevItUp, seat: int, choice: str) -> Event:
    key = ("stop-go", seat, choice)
    event = g.keyed_events.get(key)
    if event is None:
        text = f"P{seat + 1} stops" if choice == "stop" else f"P{seat + 1} keeps going"
        event = g.keyed_events[key] = Event(choice, text, "Turn Structure 4", {"seat": seat})
    return event


# --- Turn Structure 5: items from the ready area --------------------------------------------------

def rocket_targets(s: RevState, seat: int) -> list[int]:
    """The racer directly ahead that is still racing (stopped racers are immune, RIU-A13)."""
    p = s.pos[seat]
    ahead = [t for t in range(s.g.players) if t != seat and s.status[t] == RACING and s.pos[t] > p]
    if not ahead:
        return []
    nearest = min(s.pos[t] for t in ahead)
    return [t for t in ahead if s.pos[t] == nearest]


def shockwave_targets(s: RevState, seat: int) -> list[int]:
    p = s.pos[seat]
    return [t for t in range(s.g.players)
            if t != seat and s.status[t] == RACING and p < s.pos[t] <= p + SHOCKWAVE_RANGE]


def use_options(s: RevState, seat: int) -> list[str]:
    """The items a seat may use now from its ready area (Turn Structure 5)."""
    if s.status[seat] == FINISHED or not s.ready[seat]:
        return []
    out: list[str] = []
    eff = s.g.effect
    for item in sorted(set(s.ready[seat])):
        e = eff[item]
        if e in ("oil_slick", "caltrops", "sponsor", "loose_change"):
            out.append(f"use:{item}")
        elif e == "rocket":
            out.extend(f"use:{item}:{t}" for t in rocket_targets(s, seat))
        elif e == "shockwave":
            if shockwave_targets(s, seat):
                out.append(f"use:{item}")
        elif e == "emp":
            out.extend(f"use:{item}:{t}" for t in range(s.g.players) if t != seat and s.status[t] == RACING)
        elif e == "heat_sink" and s.rev_k[seat]:
            out.append(f"use:{item}")
    return out


def priority(s: RevState) -> list[int]:
    """Buying / items: "Furthest behind breaks disputes" (then seat order)."""
    return sorted(range(s.g.players), key=lambda t: (s.pos[t], t))


def shielded(s: RevState, seat: int, events: list[Event]) -> bool:
    """Shield: held in the ready area, cancels the next Attack, Weapon or Trap on you."""
    eff = s.g.effect
    for item in s.ready[seat]:
        if eff[item] == "shield":
            _spend(s, seat, item)
            _ev(events, "shield", f"{_name(s, seat)}'s {item} cancels it", "Items: Shield", seat=seat)
            return True
    return False


def resolve_items(s: RevState, events: list[Event]) -> None:
    """Turn Structure 5, resolved together in the order furthest behind first."""
    g = s.g
    for seat in priority(s):
        choice = s.pending[seat]
        if not choice or not choice.startswith("use:"):
            continue
        parts = choice.split(":")
        item = parts[1]
        if item not in s.ready[seat]:
            continue
        _spend(s, seat, item)
        e = g.effect[item]
        _ev(events, "item", f"{_name(s, seat)} uses {item}", f"Items: {g.content.items[item].type}",
            seat=seat, item=item)
        if e in ("oil_slick", "caltrops"):
            s.traps = (*s.traps, (s.pos[seat] % g.track_length, item, seat))
        elif e in ("rocket", "emp"):
            _hit(s, int(parts[2]), e, events)
        elif e == "shockwave":
            for t in shockwave_targets(s, seat):
                _hit(s, t, e, events)
        elif e == "sponsor":
            s.collected = _add(s.collected, seat, 2)
        elif e == "loose_change":
            s.collected = _add(s.collected, seat, 1)
            s.carry = _add(s.carry, seat, 1)
        elif e == "heat_sink":
            removed = remove_recent(s, seat, 1)
            _ev(events, "heat-sink", f"{_name(s, seat)} removes {', '.join(removed) or 'nothing'}",
                "Item: Heat Sink", seat=seat)


def _hit(s: RevState, target: int, effect: str, events: list[Event]) -> None:
    if s.status[target] != RACING:
        _ev(events, "immune", f"{_name(s, target)} has stopped and is immune", "RIU-A13", seat=target)
        return
    if shielded(s, target, events):
        return
    if effect == "emp":
        s.emp = _add(s.emp, target, 1)
        _ev(events, "emp", f"{_name(s, target)}'s next Ecoboost or Nitrous is jammed", "Item: EMP",
            seat=target)
    else:
        add_debris(s, target, events)


# --- Round Structure 1 and 3 ----------------------------------------------------------------------

def start_round(s: RevState, events: list[Event]) -> None:
    s.round += 1
    _ev(events, "round", f"round {s.round} begins", "Round Structure", round=s.round)


def end_round(s: RevState, events: list[Event]) -> None:
    """Round Structure 3: "place all chips from their Rev Track and Discard back in their bag and turn
    their racer back forward". Item chips go to the supply; Recalls stay (RIU-A8) unless the option
    ``recall_returns_to_supply``."""
    g = s.g
    K = g.K
    if g.recall_to_supply:
        for seat in range(g.players):
            for k in g.recall_kinds:
                n = s.disc[seat * K + k]
                if n:
                    s.disc[seat * K + k] = 0
                    s.supply = _add(s.supply, k, n)
    s.bag = [b + d for b, d in zip(s.bag, s.disc, strict=True)]
    s.disc = [0] * len(s.disc)
    for seat in range(g.players):
        for k in s.rev_k[seat]:
            if g.code[k] in (DEBRIS, BOMB):
                s.supply = _add(s.supply, k, 1)
            else:
                s.bag[seat * K + k] += 1
        s.rev_k[seat] = ()
        s.rev_s[seat] = ()
        if s.status[seat] != FINISHED:
            s.status[seat] = RACING
    s.collected = s.carry
    s.carry = (0,) * g.players
    _ev(events, "round-end", f"round {s.round} ends: every chip goes back in its bag", "Round Structure 3")


# --- Buying New Chips and Items -------------------------------------------------------------------

def coins_of(s: RevState, seat: int) -> int:
    """Coins in the discard (a Coin chip of level X is X coins), collected coins and the Rev bonus."""
    return _discard_coins(s, seat) + s.collected[seat] + rev_bonus(s, seat)


def _discard_coins(s: RevState, seat: int) -> int:
    g = s.g
    base = seat * g.K
    disc = s.disc
    coins = 0
    for k, level in g.coin_levels:
        coins += level * disc[base + k]
    return coins


def start_buying(s: RevState, events: list[Event]) -> list[bool]:
    """Buying: "all players determine how many coins they have to spend". Finished racers sit out,
    and so does a racer with nothing it could buy or upgrade (its only choice would be "done")."""
    buyers: list[bool] = []
    purses: list[int] = []
    for seat in range(s.g.players):
        racing = s.status[seat] != FINISHED
        bonus = rev_bonus(s, seat)
        s.stats[seat * NSTATS + ST_BONUS] += bonus
        coins = _discard_coins(s, seat) + s.collected[seat] + bonus if racing else 0
        purses.append(coins)
        if racing:
            _ev(events, "coins", f"{_name(s, seat)} has {coins} coins (Rev bonus {bonus})",
                "Buying New Chips and Items", seat=seat, coins=coins)
    s.coins = tuple(purses)
    for seat, coins in enumerate(purses):
        # With a coin the item die is always on offer; without, only an upgrade could be.
        buyers.append(s.status[seat] != FINISHED and (coins >= 1 or bool(cart_options(s, seat))))
    return buyers


def _cart_totals(s: RevState, seat: int) -> tuple[int, set[str], int, int, bool, dict[int, int], list[str]]:
    g = s.g
    index = g.kinds.index
    left = s.coins[seat]
    colours: set[str] = set()
    chips = ups = 0
    item = False
    used: dict[int, int] = {}
    up_steps: list[str] = []
    for step in s.carts[seat]:
        verb, _, rest = step.partition(":")
        if verb == "buy":
            k = index[rest.partition(":")[0]]
            left -= g.kinds.cost[k]
            colours.add(g.kinds.colour[k])
            chips += 1
            used[k] = used.get(k, 0) + 1
        elif verb == "up":
            ups += 1
            k = g.kinds.up[index[rest]]
            used[k] = used.get(k, 0) + 1
            up_steps.append(rest)
        else:
            item = True
            left -= 1 if rest == "roll" else 3
    return left, colours, chips, ups, item, used, up_steps


def upgrade_points(s: RevState, seat: int) -> int:
    """Upgrades (Orange): each Upgrade X pulled this round gives X single-level steps (RIU-A9)."""
    g = s.g
    base = seat * g.K
    disc = s.disc
    level = g.kinds.level
    points = 0
    for k in g.upgrade_kinds:
        points += level[k] * disc[base + k]
    return points


def upgradable_pool(s: RevState, seat: int) -> list[int]:
    """Counts of this round's pulled chips (Rev Track and discard) that an Upgrade may raise
    (RIU-A9: not Upgrades themselves, Recalls or item chips)."""
    g = s.g
    base = seat * g.K
    pool = [0] * g.K
    for k in range(g.K):
        if g.code[k] not in (UPGRADE, RECALL, DEBRIS, BOMB):
            pool[k] = s.disc[base + k]
    for k in s.rev_k[seat]:
        if g.code[k] not in (UPGRADE, RECALL, DEBRIS, BOMB):
            pool[k] += 1
    return pool


def cart_options(s: RevState, seat: int) -> list[str]:
    """A seat's next possible purchase: one chip per colour, upgrades, one item (Buying rules 1-2)."""
    g = s.g
    if s.status[seat] == FINISHED:
        return []
    left, colours, chips, ups, item, used, up_steps = _cart_totals(s, seat)
    kinds = g.kinds
    out: list[str] = []
    supply = s.supply
    if not g.max_chips or chips < g.max_chips:
        for k, colour, cost, action, recall in g.shop:
            if cost > left or colour in colours or supply[k] - used.get(k, 0) <= 0:
                continue
            if recall:
                out.extend(f"{action}:{t}" for t in range(g.players) if t != seat and s.status[t] != FINISHED)
            else:
                out.append(action)
    if g.upgrade_kinds and ups < upgrade_points(s, seat):
        pool = upgradable_pool(s, seat)
        for name in up_steps:
            k = kinds.index[name]
            pool[k] -= 1
            pool[kinds.up[k]] += 1
        for k in range(g.K):
            nxt = kinds.up[k]
            if pool[k] > 0 and nxt >= 0 and s.supply[nxt] - used.get(nxt, 0) > 0:
                out.append(f"up:{kinds.names[k]}")
    if not item:
        if left >= 1:
            out.append("item:roll")
        if left >= 3:
            out.extend(f"item:{i}" for i in g.items_in_play)
    return out


def _upgrade(s: RevState, seat: int, k: int) -> bool:
    g = s.g
    nxt = g.kinds.up[k]
    if not s.supply[nxt]:
        return False
    i = seat * g.K
    if s.disc[i + k]:
        s.disc[i + k] -= 1
        s.disc[i + nxt] += 1
    elif k in s.rev_k[seat]:
        kinds = list(s.rev_k[seat])
        kinds[len(kinds) - 1 - kinds[::-1].index(k)] = nxt
        s.rev_k[seat] = tuple(kinds)
    else:
        return False
    s.supply = _add(s.supply, nxt, -1)
    s.supply = _add(s.supply, k, 1)
    return True


def resolve_buys(s: RevState, events: list[Event]) -> tuple[tuple[int, int, int, str], ...]:
    """Buying, resolved together: "if a chip type would run out, the player furthest back on the
    track will get to choose first" (a later buyer of a sold-out chip gets nothing for it, RIU-X2);
    "All leftover coins are lost". Returns the item rolls and gains to play out."""
    g = s.g
    kinds = g.kinds
    tasks: list[tuple[int, int, int, str]] = []
    for seat in priority(s):
        spent = 0
        for step in s.carts[seat]:
            verb, _, rest = step.partition(":")
            if verb == "buy":
                name, _, target = rest.partition(":")
                k = kinds.index[name]
                if s.supply[k]:
                    s.supply = _add(s.supply, k, -1)
                    owner = int(target) if target else seat
                    s.bag[owner * g.K + k] += 1
                    spent += kinds.cost[k]
                    s.stats[seat * NSTATS + ST_BOUGHT] += 1
                    where = f" into {_name(s, owner)}'s bag" if target else ""
                    _ev(events, "buy", f"{_name(s, seat)} buys {name}{where}", "Buying New Chips and Items",
                        seat=seat, chip=name)
                else:
                    _ev(events, "sold-out", f"{name} is sold out before {_name(s, seat)}'s turn",
                        "Buying rule 4 (RIU-X2)", seat=seat, chip=name)
            elif verb == "up":
                ok = _upgrade(s, seat, kinds.index[rest])
                text = f"upgrades a {rest}" if ok else f"cannot upgrade {rest} (none left)"
                _ev(events, "upgrade", f"{_name(s, seat)} {text}", "Upgrades (Orange)", seat=seat)
            elif rest == "roll":
                spent += 1
                tasks.append((T_ROLL, seat, 0, ""))
            else:
                spent += 3
                tasks.append((T_GAIN, seat, 0, rest))
                _ev(events, "buy-item", f"{_name(s, seat)} takes {rest} for 3 coins", "Buying: items",
                    seat=seat, item=rest)
        s.stats[seat * NSTATS + ST_SPENT] += spent
        lost = s.coins[seat] - spent
        if lost > 0:
            _ev(events, "coins-lost", f"{_name(s, seat)} loses {lost} leftover coins", "Buying rule 3",
                seat=seat)
        s.coins = _put(s.coins, seat, 0)
    return tuple(tasks)


# --- Game End -------------------------------------------------------------------------------------

def final_result(s: RevState) -> Result:
    """Finishers in the order they crossed (RIU-A11), then the rest by progress."""
    n = s.g.players
    done = sorted((t for t in range(n) if s.fin[t] is not None), key=lambda t: (s.fin[t], t))
    rest = sorted((t for t in range(n) if s.fin[t] is None), key=lambda t: (-s.pos[t], t))
    winners = tuple(t for t in done if s.fin[t] == s.fin[done[0]]) if done else ()
    return Result(tuple(done + rest), winners, "first across the finish line on the final lap",
                  {"rounds": s.round, "turns": s.turn, "progress": list(s.pos)})


def conservation_problems(s: RevState) -> list[str]:
    """Chips are conserved between bags, drawn chips, Rev Tracks, discards and the supply."""
    g = s.g
    K = g.K
    count = list(s.supply)
    for seat in range(g.players):
        for k in range(K):
            count[k] += s.bag[seat * K + k] + s.disc[seat * K + k]
        for k in s.rev_k[seat]:
            count[k] += 1
        if s.drawn[seat] >= 0:
            count[s.drawn[seat]] += 1
    problems = [f"{g.kinds.names[k]}: {count[k]} chips, expected {g.totals[k]}"
                for k in range(K) if count[k] != g.totals[k]]
    for seat in range(g.players):
        if rev_last(s, seat) > g.rev_length[seat]:
            problems.append(f"P{seat + 1}: Rev Track over its length")
        if s.pos[seat] < 0:
            problems.append(f"P{seat + 1}: behind the start")
    if any(v < 0 for v in s.supply) or any(v < 0 for v in s.bag) or any(v < 0 for v in s.disc):
        problems.append("a negative chip count")
    return problems
