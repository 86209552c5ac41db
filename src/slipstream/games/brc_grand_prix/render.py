"""Text pictures of a BRC Grand Prix race for the terminal (Rich markup), action labels and odds."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.markup import escape

from slipstream.engine.game import Game, State
from slipstream.engine.hooks import Term
from slipstream.engine.play import replayed

from . import notation, words
from .game import BRCGrandPrix
from .rules import DRY_TRACK, SOFT, TYRE_NAMES, WEATHER_NAMES, WET_TRACK, lap, last_entry_lap, standard_move
from .state import BRCState
from .types import Stage

FLAG_STYLE = {"green": "[green]g[/green]", "yellow": "[yellow]y[/yellow]", "blue": "[blue]b[/blue]"}
CAR_STYLE = ("bold red", "bold cyan", "bold magenta", "bold yellow", "bold green", "bold white")


def _car(seat: int) -> str:
    return f"[{CAR_STYLE[seat % len(CAR_STYLE)]}]{seat + 1}[/]"


WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
ROW = 30
"""Track spaces on one line of the board: longer tracks (a content file's) go on several lines."""


def _pit_lane(view: dict[str, Any]) -> list[str]:
    """The pit lane as two rows: the pit space numbers, and what stands on each (cars, E, W, the line).

    The rulebook calls the pit spaces P1..P8, which reads like the players: here they are "pit space 3"
    and plain numbers under the heading "pit space"."""
    layout = view["board"]
    cars = view["cars"]
    numbers: list[str] = []
    marks: list[str] = []
    for k in range(layout["pit_spaces"] + 1):
        here = [c for c in cars if c["pit"] == k and not c["finished"]]
        if here:
            mark, width = "".join(_car(c["seat"]) for c in here), len(here)
        elif k == 0:
            mark, width = "E", 1
        elif k == layout["weather_space"] and not view["sprint"]:
            mark, width = "[bold blue]W[/]", 1
        else:
            mark, width = ".", 1
        label = str(k)
        cell = max(width, len(label))
        numbers.append(label.ljust(cell))
        marks.append(mark + " " * (cell - width))
        if k == layout["pit_line_after"]:
            numbers.append(" ")
            marks.append("|")
    return [
        f"pit lane: in after space {layout['pit_entry_after']}, out to space {layout['rejoin']}",
        "  pit space " + " ".join(numbers).rstrip(),
        "            " + " ".join(marks),
    ]


def _term(view: dict[str, Any], key: str) -> dict[str, str] | None:
    found: dict[str, str] | None = view.get("terms", {}).get(key)
    return found


def _name(view: dict[str, Any], key: str) -> str:
    """The name of an id from the glossary the view carries (``terms``), else the id."""
    term = _term(view, key)
    return term["name"] if term else key


def _explained(head: str, text: str) -> list[str]:
    return [escape(line) for line in textwrap.wrap(f"{head}: {text}", WIDTH, initial_indent="  ",
                                                    subsequent_indent="    ")]


def _key(view: dict[str, Any]) -> list[str]:
    """What the letters, digits and signs stand for, each car's pit box, what the flag spaces and the
    effects the cars hold do, and the last flag card drawn (and the next one, once the order is known)."""
    layout = view["board"]
    cars = view["cars"]
    boxes = "  ".join(f"{_car(i)}->{b}" for i, b in enumerate(layout["pit_boxes"]) if i < len(cars))
    weather = "" if view["sprint"] else "  W weather change"
    lines = [
        f"pit boxes (car->pit space): {boxes}",
        f"1 to 6 cars (dim: off the track)  {FLAG_STYLE['green']}/{FLAG_STYLE['yellow']}/{FLAG_STYLE['blue']} "
        "green/yellow/blue flag  . empty",
        f"| finish line (in the pit lane: the line)  E pit entry{weather}",
        "key:",
    ]
    for colour in dict.fromkeys(flag for flag in layout["flags"] if flag):
        term = _term(view, colour)
        if term:
            lines.extend(_explained(term["name"], term["text"]))
    for perk in dict.fromkeys(p for c in cars for p in c["perks"]):
        term = _term(view, words.effect_key(perk))
        if term:
            lines.extend(_explained(term["name"], term["text"]))
    shown = view.get("flag_card")
    last = _term(view, shown["card"]) if shown else None
    if shown and last:
        lines.extend(_explained(f"Last flag card ({shown['colour']} line used), {last['name']}", last["text"]))
    order = view["flag_deck"]["known_order"]
    upcoming = _term(view, order[0]) if order else None
    if upcoming:
        lines.extend(_explained(f"Next flag card, {upcoming['name']}", upcoming["text"]))
    return lines


def board(view: dict[str, Any]) -> str:
    """The main track, the pit lane, a key and a table of the cars (tyres, pit status, penalties)."""
    layout = view["board"]
    length = int(view["track_length"])
    cars = view["cars"]
    weather = view["weather"]
    wstyle = "bold blue" if weather == "WET" else "bold yellow"
    lines = [
        f"[bold]BRC Grand Prix[/bold]  {view['laps']} laps{'  SPRINT' if view['sprint'] else ''}  "
        f"round {view['round']}  track [{wstyle}]{weather}[/]"
        + (f"  pit window laps {view['pit_window'][0]} to {view['pit_window'][1]}" if view["pit_window"] else ""),
    ]
    cells = []
    for space in range(length):
        here = [c for c in cars if c["space"] == space and not c["finished"] and c["pit"] is None]
        on = [c for c in here if not c["off_track"]]
        if on:
            cells.append(f" {_car(on[0]['seat'])}")
        elif here:
            cells.append(f" [dim]{here[0]['seat'] + 1}[/dim]")
        elif layout["flags"][space]:
            cells.append(f" {FLAG_STYLE[layout['flags'][space]]}")
        else:
            cells.append(" .")
    for first in range(0, length, ROW):
        last = min(length, first + ROW)
        numbers = "".join(f"{s:<10}" for s in range(first, last, 5)).rstrip()
        lines.append(("track  " if first == 0 else "       ") + numbers)
        lines.append("      " + "".join(cells[first:last]) + (" |" if last == length else ""))
    lines.extend(_pit_lane(view))
    lines.extend(_key(view))
    lines.append("pos car  lap  where          tyre  status")
    for c in sorted(cars, key=lambda c: c["position"]):
        if c["finished"]:
            where = "finished"
        elif c["space"] is None and c["pit"] is None:
            where = "grid to set"
        elif c["pit"] is not None:
            where = f"pit space {c['pit']}" if c["pit"] else "pit entry"
        else:
            where = f"space {c['space']}"
        status = []
        if c["off_track"]:
            status.append("off track")
        if c["miss"]:
            status.append(f"misses {c['miss']}")
        status.append("stopped" if c["window_stops"] else "no stop yet")
        if c["penalty"]:
            status.append("penalty")
        if c["roll_mod"]:
            status.append(f"next roll {c['roll_mod']:+d}")
        status.extend(_name(view, words.effect_key(perk)) for perk in c["perks"])
        tyre = (c["tyre"] or "?").upper()
        rest = f"   {c['lap']:>3}  {where:<14} {tyre:<5} "
        indent = len(f"{c['position']:>3} {c['seat'] + 1}{rest}")
        wrapped = textwrap.wrap(", ".join(status), WIDTH - indent, break_on_hyphens=False) or [""]
        lines.append(f"{c['position']:>3} {_car(c['seat'])}{rest}{wrapped[0]}")
        lines.extend(" " * indent + more for more in wrapped[1:])
    deck = view["flag_deck"]
    lines.append(f"flag deck: {deck['unseen']} unseen, {deck['used']} at the bottom")
    return "\n".join(lines)


def describe_action(game: Game, action: str) -> str:
    """A short human label for an action string."""
    try:
        value = notation.parse(action)
    except ValueError:
        return action
    if isinstance(value, notation.StartingTyre):
        return f"P{value.seat + 1} starts on {notation.TYRE_WORDS[value.tyre].upper()}"
    if isinstance(value, notation.Roll):
        return f"roll {value.first}+{value.second}" if value.second else f"roll {value.first}"
    if isinstance(value, notation.AttackFace):
        return {notation.AttackFace.PASS: "Attack Die: pass", notation.AttackFace.FAIL: "Attack Die: overtake failed",
                notation.AttackFace.CRASH: "Attack Die: collision!"}[value]
    if isinstance(value, notation.FlagCard):
        return f"the flag card {_brc(game).terms.get(value.card_id, {'name': value.card_id})['name']}"
    if isinstance(value, notation.TyreChange):
        if value.tyre == notation.KEEP:
            return "keep the tyres"
        return f"fit {notation.TYRE_WORDS[value.tyre].upper()} tyres"
    return {notation.Choice.PIT: "enter the pit lane", notation.Choice.STAY: "stay out",
            notation.Choice.ATTEMPT: "attempt the overtake", notation.Choice.SAFE: "play it safe"}[value]


def glossary(game: Game) -> dict[str, Term]:
    """Every flag card, held effect, flag space and tyre of the loaded game in words (``words.glossary``)."""
    return words.glossary(_brc(game).content)


SCOREBOARD = ("Pit stops", "Tyres", "Overtakes", "Flag cards", "Lock-ups")
_COUNTED = {"box": 0, "pass": 2, "flag": 3, "lockup": 4}
"""The events counted for the car they name (``data["seat"]``), by the column they count in."""


def scoreboard(state: State) -> dict[int, dict[str, str]]:
    """Each driver's race: pit stops, the tyres on at the end, overtakes made, flag cards drawn and
    lock-ups. The state keeps race-wide counts only, so the race is replayed from its record and each
    event counted for the car it names."""
    if not isinstance(state, BRCState):
        raise TypeError(f"not a BRC Grand Prix state: {type(state).__name__}")
    game = state.game
    counts = [[0] * len(SCOREBOARD) for _ in range(game.players)]
    for _, after in replayed(state):
        for event in after.events:
            column = _COUNTED.get(event.kind)
            seat = event.data.get("seat")
            if column is not None and isinstance(seat, int) and 0 <= seat < game.players:
                counts[seat][column] += 1
    out: dict[int, dict[str, str]] = {}
    for seat in range(game.players):
        tyre = game.terms[TYRE_NAMES[state.tyres[seat]]]["name"] if state.tyres[seat] >= 0 else "-"
        row = [str(n) for n in counts[seat]]
        row[1] = tyre
        out[seat] = dict(zip(SCOREBOARD, row, strict=True))
    return out


def _brc(game: Game) -> BRCGrandPrix:
    if not isinstance(game, BRCGrandPrix):
        raise TypeError(f"not a BRC Grand Prix game: {type(game).__name__}")
    return game


def _move_odds(tyre: int, weather: int) -> str:
    moves = [standard_move(r, tyre, weather) for r in range(1, 7)]
    shown = ", ".join(f"{r}->{m}{'!' if lock else ''}" for r, (m, lock) in enumerate(moves, 1))
    avg = sum(m for m, _ in moves) / 6
    return f"{shown} (average {avg:.2f})"


def told(state: BRCState, seat: int) -> list[str]:
    """The one line that says what the decision before ``seat`` does (content ``[decisions]``), the first
    time each kind comes: the starting tyres, entering the pit lane (until the first stop), an overtake
    (on the first lap), a tyre change at the pit box (every time: a few a race)."""
    actor = state.actor
    if not (actor == seat or (isinstance(actor, frozenset) and seat in actor)):
        return []
    lines = state.game.content.model.decisions
    stage = state.stage
    if stage is Stage.TYRES:
        return [lines.starting_tyre]
    if stage is Stage.PIT_CHOICE and not state.window_stops[seat]:
        return [lines.pit]
    if stage is Stage.OVERTAKE and lap(state, seat) == 1:
        return [lines.overtake]
    if stage is Stage.PIT_BOX:
        return [lines.tyre_change]
    return []


def hints(state: State, seat: int) -> list[str]:
    """What the decision does (the first time), then the odds that matter for ``seat`` now."""
    if not isinstance(state, BRCState):
        return []
    game = state.game
    out: list[str] = told(state, seat)
    if state.tyres[seat] < 0 or not state.grid:
        out.append("SOFT: +2 on DRY but a 1 locks up (3 spaces, miss a turn); HARD: +0, no lock-up")
        return out
    tyre = state.tyres[seat]
    if game.sprint:
        if tyre == SOFT:
            out.append("Sprint SOFT: 2d6+4 (average 11); lock-up if either die is 1: 11 in 36 (30.6%)")
        else:
            out.append("Sprint HARD: 2d6 (average 7), no lock-up")
    elif state.pit_space[seat] >= 0:
        out.append(f"pit lane: one unmodified d6; past pit space {game.content.pit_spaces} the roll takes your "
                   "tyre/weather modifier")
    else:
        out.append(f"{TYRE_NAMES[tyre].upper()} on {WEATHER_NAMES[state.weather]}: "
                   + _move_odds(tyre, state.weather))
        other = WET_TRACK if state.weather == DRY_TRACK else DRY_TRACK
        out.append(f"if the weather flips: {_move_odds(tyre, other)}")
    if state.mover == seat and state.stage in (Stage.OVERTAKE, Stage.ATTACK):
        faces = dict(game.content.attack_faces)
        total = sum(faces.values())
        out.append(f"Attack Die: pass {faces.get('pass', 0)}/{total}, fail {faces.get('fail', 0)}/{total}, "
                   f"collision {faces.get('crash', 0)}/{total} (both miss a turn; the others move 6)")
    window = game.window
    if window is not None and not state.window_stops[seat] and state.stage in (Stage.PIT_CHOICE, Stage.ROLL):
        on_lap = lap(state, seat)
        if on_lap < window[0]:
            out.append(f"pit window opens on lap {window[0]} (you are on lap {on_lap})")
        else:
            out.append(f"pass your pit box by the end of lap {window[1]}: enter the pits by lap "
                       f"{last_entry_lap(state, seat)} (you are on lap {on_lap})")
    unseen = sum(state.unseen_cards)
    if unseen:
        out.append(f"flag deck: {unseen} unseen cards")
    else:
        nxt = state.bottom_cards[0]
        out.append(f"flag deck: every card seen, the next is {game.card_names[nxt]}")
        out.append(words.card_text(game.content, nxt))
    return out
