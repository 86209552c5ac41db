"""Text pictures of a Rev it Up race for the terminal: the track, each racer's Rev Track, bag and coins."""

from __future__ import annotations

from typing import Any

from slipstream.engine.game import State

from . import notation, rules
from .notation import Verb

_COLOUR_TAG = {
    "exhaust": "white", "coin": "yellow", "ecoboost": "green", "coolant": "blue", "nitrous": "red",
    "upgrade": "dark_orange", "recall": "magenta", "debris": "grey50", "bomb": "grey50",
}


def _chip(name: str) -> str:
    colour = name.rsplit("-", 1)[0] if name[-1].isdigit() else name
    return f"[{_COLOUR_TAG.get(colour, 'white')}]{name}[/]"


def _rev_line(racer: dict[str, Any]) -> str:
    length = racer["rev_length"]
    cells = ["."] * length
    for name, space in racer["rev"]:
        cells[space - 1] = name[0].upper() + (name[-1] if name[-1].isdigit() else "")
    bonus_from = length - 2
    shown = [c if i + 1 < bonus_from else f"{c}$" for i, c in enumerate(cells)]
    return "[" + " ".join(shown) + "]"


def board(view: dict[str, Any]) -> str:
    """The track (one row per racer), then each racer's Rev Track, bag, discard, ready area and coins."""
    track = view["track"]
    length, laps = track["length"], track["laps"]
    lines = [f"Round {view['round']}, turn {view['turn']} - {view['phase']}   "
             f"track {track['id']} ({length} spaces x {laps} laps, items at {track['item_spaces']})"]
    finish = length * laps
    width = 40
    for r in view["racers"]:
        filled = min(width, round(width * r["progress"] / finish))
        bar = "=" * filled + ">" + " " * (width - filled)
        lines.append(f"P{r['seat'] + 1} |{bar}| {r['progress']:3d}/{finish} lap {r['lap']} "
                     f"{r['status']}{'  (chosen)' if r.get('chosen') else ''}")
    if view["traps"]:
        lines.append("traps: " + ", ".join(f"{eff} on space {sp} (P{o + 1})" for sp, eff, o in view["traps"]))
    lines.append("")
    for r in view["racers"]:
        bag = ", ".join(f"{n}x{_chip(k)}" for k, n in sorted(r["bag"].items()))
        disc = ", ".join(f"{n}x{_chip(k)}" for k, n in sorted(r["discard"].items())) or "-"
        coins = r["coins_to_spend"]
        if coins is None:
            coins = r["collected_coins"] + sum(
                n * int(k.rsplit("-", 1)[1]) for k, n in r["discard"].items() if k.startswith("coin-"))
            extra = f"  coins so far {coins}"
        else:
            extra = f"  coins to spend {coins}"
        lines.append(f"P{r['seat'] + 1} {r['character']}: rev {_rev_line(r)}  "
                     f"overheat next draw {r['overheat_chance']:.0%}{extra}")
        lines.append(f"    bag ({sum(r['bag'].values())}): {bag}")
        lines.append(f"    discard: {disc}   ready: {', '.join(r['ready']) or '-'}   "
                     f"collected coins: {r['collected_coins']}" + (f"   EMP x{r['emp']}" if r["emp"] else ""))
    if view.get("my_choice"):
        lines.append(f"your choice: {view['my_choice']}")
    if "my_cart" in view:
        lines.append(f"your cart: {', '.join(view['my_cart']) or 'empty'}")
    if "rolled" in view:
        lines.append(f"item die shows {view['rolled']} (rerolls left {view['rerolls_left']})")
    return "\n".join(lines)


_VERBS = {
    Verb.GO: "keep going", Verb.STOP: "stop for this round", Verb.PASS: "do nothing", Verb.DONE: "finish buying",
    Verb.KEEP: "keep the item", Verb.REROLL: "reroll the item die", Verb.ROLL_ITEM_DIE: "roll the item die (1 coin)",
}


def describe_action(action: str) -> str:
    """A short human label for an action (``2:buy:coin-1`` -> ``P3: buy coin-1``)."""
    try:
        if action.partition(":")[0].isdigit():
            seat, body, parsed = notation.parse_seated(action)
            return f"P{seat + 1}: {describe_action(body)}"
        parsed = notation.parse(action)
    except notation.NotationError:
        return action
    verb, name, target = parsed
    on = f" on P{target + 1}" if target is not None else ""
    if verb in _VERBS:
        return _VERBS[verb]
    if verb is Verb.DRAW:
        return f"draw {name}"
    if verb is Verb.ITEM:
        return f"take {name} (the item die, or 3 coins when buying)"
    if verb is Verb.BUY:
        return f"buy {name}" + (f" for P{target + 1}'s bag" if target is not None else "")
    if verb is Verb.UPGRADE:
        return f"upgrade a {name}"
    if verb is Verb.USE:
        return f"use {name}{on}"
    if verb is Verb.BOOST:
        return f"use {name} now"
    if verb is Verb.DROP:
        return f"drop {name}"
    return f"put the bomb in P{(target or 0) + 1}'s bag"


def hints(state: State, seat: int) -> list[str]:
    """The odds that matter for ``seat`` now: overheating on the next draw, the draw's mix, coins."""
    from .state import RevState

    if not isinstance(state, RevState):
        return []
    s = state
    g = s.g
    out = [f"chance to overheat on your next draw: {rules.overheat_chance(s, seat):.0%}"]
    bag = s.bags[seat]
    total = sum(bag)
    if total:
        moving = sum(n for k, n in enumerate(bag) if g.move[k] > 0)
        out.append(f"chips in bag: {total}; chance the next one moves you forward: {moving / total:.0%}")
    room = g.rev_length[seat] - rules.rev_last(s, seat)
    out.append(f"Rev Track room: {room} space(s); bonus coins now: {rules.rev_bonus_if_stopped(s, seat)}")
    out.append(f"coins so far this round: {rules.coins_of(s, seat) - rules.rev_bonus(s, seat)}")
    return out
