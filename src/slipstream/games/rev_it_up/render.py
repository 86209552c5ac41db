"""Text pictures of a Rev it Up race for the terminal: the track, each racer's Rev Track, bag and coins."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.markup import escape

from slipstream.engine.game import Game, State
from slipstream.engine.hooks import Term
from slipstream.engine.play import pending_seats

from . import rules, words
from .game import RevItUp
from .state import RevState
from .types import FINISHED, Stage, Stat

_COLOUR_TAG = {
    "exhaust": "white", "coin": "yellow", "ecoboost": "green", "coolant": "blue", "nitrous": "red",
    "upgrade": "dark_orange", "recall": "magenta", "debris": "grey50", "bomb": "grey50",
}


def _chip(name: str, title: str) -> str:
    colour = name.rsplit("-", 1)[0] if name[-1].isdigit() else name
    return f"[{_COLOUR_TAG.get(colour, 'white')}]{escape(title)}[/]"


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
PHASES = {
    "draw": "drawing chips", "item-die": "rolling the item die", "reroll": "keep or reroll the item die",
    "gain-item": "gaining an item", "boost": "a Boost item after the move", "stop-or-go": "stop or keep going",
    "use-items": "using items", "buy": "buying", "over": "race over",
}
"""The view's ``phase`` in words."""
STATUS = {"racing": "racing", "stopped": "stopped", "overheated": "overheated", "finished": "finished"}


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


class _Names:
    """The names of a view's ids, from the glossary the view carries (``terms``)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.terms: dict[str, dict[str, str]] = view.get("terms") or {}

    def __call__(self, key: str) -> str:
        term = self.terms.get(key)
        return term["name"] if term else key

    def text(self, key: str) -> str:
        term = self.terms.get(key)
        return term["text"] if term else ""


def _chips(counts: dict[str, int], name: _Names) -> list[tuple[str, int]]:
    return [(f"{n} {_chip(k, name(k))}", len(f"{n} {name(k)}")) for k, n in sorted(counts.items())]


def _plain(parts: list[str]) -> list[tuple[str, int]]:
    return [(escape(part), len(part)) for part in parts]


def _rev_key(view: dict[str, Any], name: _Names) -> list[str]:
    """What the letters on the Rev Tracks stand for: every chip that can go there, and any other used."""
    key = {letter: name(chip) for letter, chip in REV_KEY.items()}
    for r in view["racers"]:
        for chip, _ in r["rev"]:
            key.setdefault(chip[0].upper(), name(chip.rsplit("-", 1)[0] if chip[-1].isdigit() else chip))
    letters = "  ".join(f"{letter} {word}" for letter, word in key.items())
    return [f"rev key: {letters}  (E2: an {name('exhaust-2')})",
            "         . empty  $ bonus coins when your last chip ends there"]


def _key(view: dict[str, Any], name: _Names) -> list[str]:
    """What the chips and the items in play do, from the glossary the view carries."""
    lines = ["key:"]
    colours = [chip.rsplit("-", 1)[0] for chip in view["supply"] if chip.endswith("-1")]
    things = [*colours, *(chip for chip in view["supply"] if not chip[-1].isdigit()), *view["items_in_play"]]
    for thing in things:
        lines.extend(textwrap.wrap(f"{name(thing)}: {name.text(thing)}", WIDTH, initial_indent="  ",
                                   subsequent_indent="    "))
    return [escape(line) for line in lines]


def board(view: dict[str, Any]) -> str:
    """The track (one row per racer), then each racer's Rev Track, bag, discard, ready area and coins,
    then a key of what the chips and items do."""
    name = _Names(view)
    track = view["track"]
    length, laps = track["length"], track["laps"]
    lines = [f"Round {view['round']}, turn {view['turn']} - {PHASES.get(view['phase'], view['phase'])}",
             escape(f"{name(track['id'])} track: {length} spaces x {laps} laps; the start line is space 0"),
             "item spaces " + ", ".join(map(str, track["item_spaces"])) + " (pass one: roll the item die)"]
    width = 24
    finish = length * laps
    for r in view["racers"]:
        filled = min(width, round(width * r["progress"] / finish))
        bar = "=" * filled + ">" + " " * (width - filled)
        where = words.place(length, laps, r["progress"])
        lines.append(f"P{r['seat'] + 1} |{bar}| {where} {STATUS.get(r['status'], r['status'])}"
                     f"{'  (chosen)' if r.get('chosen') else ''}")
    if view["traps"]:
        lines.extend(_wrapped("traps: ", _plain([f"{name(item)} on space {sp} (P{o + 1})"
                                                 for sp, item, o in view["traps"]]), 7))
    lines.append("")
    for r in view["racers"]:
        coins = r["coins_to_spend"]
        if coins is None:
            coins = r["collected_coins"] + sum(
                n * int(k.rsplit("-", 1)[1]) for k, n in r["discard"].items() if k.startswith("coin-"))
            purse = f"coins so far {coins}"
        else:
            purse = f"coins to spend {coins}"
        lines.append(f"P{r['seat'] + 1} {escape(name(r['character']))}: rev {_rev_line(r)}")
        lines.append(f"    overheat next draw {r['overheat_chance']:.0%}   {purse}   "
                     f"collected coins: {r['collected_coins']}" + (f"   EMP x{r['emp']}" if r["emp"] else ""))
        lines.extend(_wrapped(f"    bag ({sum(r['bag'].values())}): ", _chips(r["bag"], name), 8))
        lines.extend(_wrapped("    discard: ", _chips(r["discard"], name) or [("-", 1)], 8))
        lines.extend(_wrapped("    ready: ", _plain([name(i) for i in r["ready"]]) or [("-", 1)], 8))
    lines.extend(_rev_key(view, name))
    lines.extend(_key(view, name))
    if view.get("my_choice"):
        lines.append(escape(f"your choice: {words.say(name, view['my_choice'])}"))
    if "my_cart" in view:
        lines.extend(_wrapped("your cart: ", _plain([words.say(name, c) for c in view["my_cart"]])
                              or [("empty", 5)], 4))
    if "rolled" in view:
        lines.append(escape(f"item die shows {name(view['rolled'])} (rerolls left {view['rerolls_left']})"))
    return "\n".join(lines)


def describe_action(game: Game, action: str) -> str:
    """A short phrase for an action of the loaded game, with its chips' and items' names
    (``2:buy:coin-1`` -> ``P3: buy Coin 1``)."""
    return _rev(game).say(action)


def glossary(game: Game) -> dict[str, Term]:
    """Every chip, item, character and track of the loaded game in words (``words.glossary``)."""
    return words.glossary(_rev(game))


SCOREBOARD = ("Character", "Spaces moved", "Overheats", "Coins spent", "Chips bought", "Items used")


def scoreboard(state: State) -> dict[int, dict[str, str]]:
    """Each racer's race: its character by name, then in numbers: spaces moved, overheats, coins spent,
    chips bought and items used."""
    if not isinstance(state, RevState):
        raise TypeError(f"not a Rev it Up state: {type(state).__name__}")
    game = state.game
    stats = (Stat.SPACES_MOVED, Stat.OVERHEATS, Stat.COINS_SPENT, Stat.CHIPS_BOUGHT,
             Stat.ITEMS_USED)
    return {seat: {"Character": game.content.characters[game.characters[seat]].name,
                   **{column: str(state.stats[seat][stat]) for column, stat in zip(SCOREBOARD[1:], stats, strict=True)}}
            for seat in game.seats}


def _rev(game: Game) -> RevItUp:
    if not isinstance(game, RevItUp):
        raise TypeError(f"not a Rev it Up game: {type(game).__name__}")
    return game


def _shop(state: Any, seat: int) -> list[str]:
    """Buying: the coins, each chip of the shop with its price and effect, the items, the upgrades."""
    game = state.game
    cart = rules.cart_totals(state, seat)
    legal = {a.split(":")[1] for a in rules.cart_options(state, seat) if a.startswith("buy:")}
    out = [f"coins to spend: {state.coins_to_spend[seat]}; left after your cart: {cart.coins_left} "
           "(leftover coins are lost)",
           "shop: one chip of each colour; * you can buy it now"]
    names, titles = game.kinds.names, game.kinds.titles
    rows = [("*" if names[k] in legal else " ", titles[k], f"{cost} coin" + ("s" if cost != 1 else ""),
             words.chip_effect(game, k), str(state.supply[k] - cart.kinds_taken.get(k, 0)))
            for k, _, cost, *_ in game.shop]
    heading = (" ", "chip", "price", "effect when drawn", "supply")
    widths = [max(len(row[i]) for row in (heading, *rows)) for i in range(len(heading))]
    for row in (heading, *rows):
        out.append("  ".join(cell.rjust(w) if i == 4 else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    if cart.item:
        out.append("items: one per buying phase, already in your cart")
    else:
        out.append("items, one per buying phase: the item die for 1 coin, or one of these for 3:")
        for item in game.items_in_play:
            card = game.content.items[item]
            out.extend(textwrap.wrap(f"{card.name}: {card.text}", WIDTH,
                                     initial_indent="  ", subsequent_indent="    "))
    points = rules.upgrade_points(state, seat)
    if points:
        out.append(f"upgrades: {points - cart.upgrades} of {points} left (free: a drawn chip one level up)")
    return out


def told(state: Any, seat: int) -> list[str]:
    """The one line that says what the decision before ``seat`` does (content ``[decisions]``): the first
    time each kind comes (stopping, using items and buying in the first round; the rarer ones, a reroll,
    a Bomb's victim, an item to let go, a Boost, every time)."""
    lines = state.game.content.model.decisions
    stage = state.stage
    if stage is Stage.REROLL:
        return [lines.reroll]
    if stage is Stage.BOOST:
        return [lines.boost]
    if stage is Stage.GAIN_ITEM:
        return [lines.give if any(a.startswith("give:") for a in state.legal_actions()) else lines.drop]
    if state.round != 1:
        return []
    first = {Stage.STOP_OR_GO: lines.stop_or_go, Stage.USE_ITEMS: lines.use_items, Stage.BUY: lines.buy}
    return [first[stage]] if stage in first else []


def hints(state: State, seat: int) -> list[str]:
    """What the decision does (the first time), then the odds that matter for ``seat`` now: overheating
    on the next draw, the draw's mix, coins; when buying, the shop with each chip's price and effect and
    the coins left."""
    if not isinstance(state, RevState):
        return []
    game = state.game
    first = [] if seat not in pending_seats(state) else told(state, seat)
    if state.stage is Stage.BUY and state.status[seat] != FINISHED:
        return [*first, *_shop(state, seat)]
    out = [*first, f"chance to overheat on your next draw: {rules.overheat_chance(state, seat):.0%}"]
    bag = state.bags[seat]
    total = sum(bag)
    if total:
        moving = sum(n for k, n in enumerate(bag) if game.move[k] > 0)
        out.append(f"chips in bag: {total}; chance the next one moves you forward: {moving / total:.0%}")
    room = game.rev_length[seat] - rules.rev_last(state, seat)
    out.append(f"Rev Track room: {room} space(s); bonus coins now: {rules.rev_bonus_if_stopped(state, seat)}")
    out.append(f"coins so far this round: {rules.coins_of(state, seat) - rules.rev_bonus(state, seat)}")
    return out
