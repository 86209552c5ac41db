"""Text pictures of a Rev it Up race for the terminal: the track, each racer's Rev Track, bag and coins."""

from __future__ import annotations

import textwrap
from typing import Any

from slipstream.engine.game import Game, State

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


WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
REV_KEY = {"E": "exhaust", "N": "nitrous", "D": "debris", "B": "bomb"}
"""The chips that go on a Rev Track (the others go to the discard), by the letter that stands for them."""


def _wrapped(head: str, parts: list[tuple[str, int]], indent: int, width: int = WIDTH) -> list[str]:
    """``head`` then ``parts`` (markup and its plain length) joined by ", ", wrapped at ``width`` with
    the continuation lines indented by ``indent``; ``head`` is plain text."""
    lines: list[str] = []
    line, used = head, len(head)
    for i, (markup, length) in enumerate(parts):
        sep = ", " if i else ""
        if i and used + len(sep) + length > width:
            lines.append(line + ",")
            line, used = " " * indent + markup, indent + length
        else:
            line, used = line + sep + markup, used + len(sep) + length
    lines.append(line)
    return lines


def _chips(counts: dict[str, int]) -> list[tuple[str, int]]:
    return [(f"{n}x{_chip(k)}", len(f"{n}x{k}")) for k, n in sorted(counts.items())]


def _rev_key(view: dict[str, Any]) -> list[str]:
    """What the letters on the Rev Tracks stand for: every chip that can go there, and any other used."""
    key = dict(REV_KEY)
    for r in view["racers"]:
        for name, _ in r["rev"]:
            key.setdefault(name[0].upper(), name.rsplit("-", 1)[0] if name[-1].isdigit() else name)
    letters = "  ".join(f"{letter} {word}" for letter, word in key.items())
    return [f"rev key: {letters}  (E2: an exhaust-2)",
            "         . empty  $ bonus coins when your last chip ends there"]


def board(view: dict[str, Any]) -> str:
    """The track (one row per racer), then each racer's Rev Track, bag, discard, ready area and coins."""
    track = view["track"]
    length, laps = track["length"], track["laps"]
    lines = [f"Round {view['round']}, turn {view['turn']} - {view['phase']}",
             f"track {track['id']}: {length} spaces x {laps} laps, item spaces "
             + ", ".join(map(str, track["item_spaces"]))]
    finish = length * laps
    width = 34
    for r in view["racers"]:
        filled = min(width, round(width * r["progress"] / finish))
        bar = "=" * filled + ">" + " " * (width - filled)
        lines.append(f"P{r['seat'] + 1} |{bar}| {r['progress']:3d}/{finish} lap {r['lap']} "
                     f"{r['status']}{'  (chosen)' if r.get('chosen') else ''}")
    if view["traps"]:
        lines.extend(_wrapped("traps: ", [(t, len(t)) for t in (f"{eff} on space {sp} (P{o + 1})"
                                                                for sp, eff, o in view["traps"])], 7))
    lines.append("")
    for r in view["racers"]:
        coins = r["coins_to_spend"]
        if coins is None:
            coins = r["collected_coins"] + sum(
                n * int(k.rsplit("-", 1)[1]) for k, n in r["discard"].items() if k.startswith("coin-"))
            purse = f"coins so far {coins}"
        else:
            purse = f"coins to spend {coins}"
        lines.append(f"P{r['seat'] + 1} {r['character']}: rev {_rev_line(r)}")
        lines.append(f"    overheat next draw {r['overheat_chance']:.0%}   {purse}   "
                     f"collected coins: {r['collected_coins']}" + (f"   EMP x{r['emp']}" if r["emp"] else ""))
        lines.extend(_wrapped(f"    bag ({sum(r['bag'].values())}): ", _chips(r["bag"]), 8))
        lines.extend(_wrapped("    discard: ", _chips(r["discard"]) or [("-", 1)], 8))
        lines.extend(_wrapped("    ready: ", [(i, len(i)) for i in r["ready"]] or [("-", 1)], 8))
    lines.extend(_rev_key(view))
    if view.get("my_choice"):
        lines.append(f"your choice: {view['my_choice']}")
    if "my_cart" in view:
        lines.extend(_wrapped("your cart: ", [(c, len(c)) for c in view["my_cart"]] or [("empty", 5)], 4))
    if "rolled" in view:
        lines.append(f"item die shows {view['rolled']} (rerolls left {view['rerolls_left']})")
    return "\n".join(lines)


_VERBS = {
    Verb.GO: "keep going", Verb.STOP: "stop for this round", Verb.PASS: "do nothing", Verb.DONE: "finish buying",
    Verb.KEEP: "keep the item", Verb.REROLL: "reroll the item die", Verb.ROLL_ITEM_DIE: "roll the item die (1 coin)",
}


def describe_action(game: Game, action: str) -> str:
    """A short human label for an action (``2:buy:coin-1`` -> ``P3: buy coin-1``)."""
    try:
        if action.partition(":")[0].isdigit():
            seat, body, parsed = notation.parse_seated(action)
            return f"P{seat + 1}: {describe_action(game, body)}"
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


def chip_effect(g: Any, k: int) -> str:
    """What a chip kind does when drawn, in a few words (from the game's movement and heat tables)."""
    colour, level = g.kinds.colour[k], g.kinds.level[k]
    move, heat = g.move[k], g.heat[k]
    plural = "s" if level != 1 else ""
    if colour == "recall":
        return f"in a rival's bag: it goes back {-move}"
    if colour == "coin":
        return f"+{level} coin{plural} to spend"
    if colour == "coolant":
        return f"cools {level} Rev Track chip{plural}"
    if colour == "upgrade":
        return f"{level} upgrade{plural} when buying"
    if move > 0:
        return f"moves {move}, " + (f"heat {heat}" if heat else "no heat")
    return f"moves {move}, heat {heat}"


def _shop(s: Any, seat: int) -> list[str]:
    """Buying: the coins, each chip of the shop with its price and effect, the items, the upgrades."""
    g = s.g
    cart = rules.cart_totals(s, seat)
    legal = {a.split(":")[1] for a in rules.cart_options(s, seat) if a.startswith("buy:")}
    out = [f"coins to spend: {s.coins_to_spend[seat]}; left after your cart: {cart.coins_left} "
           "(leftover coins are lost)",
           "shop: one chip of each colour; * you can buy it now"]
    names = g.kinds.names
    rows = [("*" if names[k] in legal else " ", names[k], f"{cost} coin" + ("s" if cost != 1 else ""),
             chip_effect(g, k), str(s.supply[k] - cart.kinds_taken.get(k, 0))) for k, _, cost, *_ in g.shop]
    heading = (" ", "chip", "price", "effect when drawn", "supply")
    widths = [max(len(row[i]) for row in (heading, *rows)) for i in range(len(heading))]
    for row in (heading, *rows):
        out.append("  ".join(cell.rjust(w) if i == 4 else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    if cart.item:
        out.append("items: one per buying phase, already in your cart")
    else:
        out.append("items, one per buying phase: the item die for 1 coin, or one of these for 3:")
        for item in g.items_in_play:
            card = g.content.items[item]
            out.extend(textwrap.wrap(f"{card.name} ({item}): {card.text}", WIDTH,
                                     initial_indent="  ", subsequent_indent="    "))
    points = rules.upgrade_points(s, seat)
    if points:
        out.append(f"upgrades: {points - cart.upgrades} of {points} left (free: a drawn chip one level up)")
    return out


def hints(state: State, seat: int) -> list[str]:
    """The odds that matter for ``seat`` now: overheating on the next draw, the draw's mix, coins; when
    buying, the shop with each chip's price and effect and the coins left."""
    from .state import RevState, Stage

    if not isinstance(state, RevState):
        return []
    s = state
    g = s.g
    if s.stage is Stage.BUY and s.status[seat] != rules.FINISHED:
        return _shop(s, seat)
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
