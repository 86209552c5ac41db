"""Scrap Racer in the terminal: the track as an oval of spaces, the racers' dashboards, the odds."""

from __future__ import annotations

from typing import Any

from slipstream.engine.game import Game, State

from . import notation
from .game import TITLES
from .notation import Kind

LETTER = {"swifty": "W", "jackal": "J", "crusher": "C", "hover": "H", "twister": "T", "steel-jacket": "S"}
COLOUR = {"swifty": "yellow", "jackal": "red", "crusher": "magenta", "hover": "cyan", "twister": "green",
          "steel-jacket": "blue"}


def letter(racer: dict[str, Any]) -> str:
    """The one letter that stands for a racer on the track (``W`` for Swifty: ``S`` is Steel-Jacket)."""
    return LETTER.get(racer["id"]) or (racer["name"] or "?")[0].upper()


def _cell(space: int, view: dict[str, Any], here: dict[int, list[dict[str, Any]]]) -> str:
    racers = here.get(space, [])
    if racers:
        r = racers[0]
        text = letter(r) + ("+" if len(racers) > 1 else " ")
        return f"[bold {COLOUR.get(r['id'], 'white')}]{text}[/]"
    if space in view["boost_spaces_filled"]:
        return "[bold yellow]* [/]"
    return "[dim]- [/]" if view["track"]["kinds"][space] == "S" else "[dim]o [/]"


def _key(view: dict[str, Any]) -> list[str]:
    """What the letters and signs on the track stand for."""
    racers = [r for r in view["racers"] if r["id"]]
    named = "  ".join(f"[{COLOUR.get(r['id'], 'white')}]{letter(r)}[/] {r['name']}" for r in racers)
    lines = [named] if racers else []
    lines.append("+ more racers there  - straight  o curve  * boost marker  |> finish line")
    return lines


TABLE_HEADER = (("", "racer"), ("", "seat"), ("", "laps"), ("", "space"), ("bonus", "markers"),
                ("bonus", "cards"), ("", "boost markers"))
"""Each column's heading on two lines, so that the narrow numbers keep narrow columns."""
_LEFT = (True, True, False, False, False, False, True)


def _table(view: dict[str, Any]) -> list[str]:
    """The racers in race order, one column per field, two spaces between columns whatever they hold."""
    seats = view["seats"]
    rows: list[tuple[str, ...]] = []
    colours: list[str] = []
    for slot in view["standings"]:
        r = view["racers"][slot]
        boosts = ", ".join(f"{n} {TITLES[t]}" for t, n in r["boost_markers"].items() if n) or "-"
        space = "-" if r["space"] is None else str(r["space"] + 1)
        cards = view["bonus_cards_held"][str(r["seat"])]
        rows.append((r["name"] or "?", seats[r["seat"]], str(r["laps"]), space, str(r["bonus_markers"]),
                     str(cards), boosts))
        colours.append(COLOUR.get(r["id"], "white"))
    heads = tuple(tuple(h[i] for h in TABLE_HEADER) for i in (0, 1))
    widths = [max(len(row[i]) for row in (*heads, *rows)) for i in range(len(TABLE_HEADER))]

    def line(row: tuple[str, ...]) -> list[str]:
        return [cell.ljust(w) if ln else cell.rjust(w) for cell, w, ln in zip(row, widths, _LEFT, strict=True)]

    out = ["  ".join(line(head)).rstrip() for head in heads]
    for row, colour in zip(rows, colours, strict=True):
        cells = line(row)
        cells[0] = f"[{colour}]{cells[0]}[/]"
        out.append("  ".join(cells).rstrip())
    return out


def board(view: dict[str, Any]) -> str:
    """The track as an oval read clockwise: the top row left to right, the bottom row right to left."""
    track = view["track"]
    length = track["length"]
    here: dict[int, list[dict[str, Any]]] = {}
    for r in view["racers"]:
        if r["space"] is not None:
            here.setdefault(r["space"], []).append(r)
    half = (length + 1) // 2
    top = list(range(half))
    bottom = list(range(length - 1, half - 1, -1))
    lines = [f"[bold]{track['name']}[/]  ({length} spaces, read clockwise from |>)"]
    lines.append("   " + "".join(f"{s + 1:<2}" if (s + 1) % 4 == 1 else "  " for s in top).rstrip())
    lines.append(" |>" + "".join(_cell(s, view, here) for s in top))
    lines.append(" | " + "".join(_cell(s, view, here) for s in bottom))
    lines.append("   " + "".join(f"{s + 1:<2}" if (s + 1) % 4 == 1 else "  " for s in bottom).rstrip())
    lines.extend(_key(view))
    waiting = [r for r in view["racers"] if r["space"] is None and r["id"]]
    if waiting:
        lines.append("Behind the line: " + ", ".join(r["name"] for r in waiting))
    lines.append("")
    lines.extend(_table(view))
    mine = view.get("my_bonus_cards")
    if mine:
        lines.append("Your bonus cards: " + ", ".join(f"{n} x {TITLES[c]}" for c, n in mine.items()))
    if view["active"] is not None and view["phase"] in ("roll", "decide"):
        active = view["racers"][view["active"]]
        dice = view["dice"] + ([view["die"]] if view["die"] else [])
        lines.append(f"\n{active['name']} has rolled: {' '.join(map(str, dice)) or 'nothing yet'}"
                     f"  (total {sum(dice)})")
    if view["end_round"]:
        lines.append(f"[bold]Final round[/]: a racer has three lap markers (round {view['end_round']}).")
    return "\n".join(lines)


def describe_action(game: Game, action: str) -> str:
    """A short label for an action."""
    try:
        move = notation.parse(action)
    except ValueError:
        return action
    kind = move.kind
    if kind in LABELS:
        return LABELS[kind]
    if move.use is not None:
        return BOOST_LABELS[move.use]
    if kind == Kind.PLAY_CARD:
        return f"play the bonus card {TITLES.get(move.name, move.name)}"
    if kind == Kind.FIRST:
        return f"start with {move.name}"
    if kind == Kind.LET_WIN:
        return f"let {move.name} win the fight"
    return action


LABELS = {
    Kind.ROLL_AGAIN: "roll another die", Kind.STOP: "stop and move by the dice",
    Kind.ACCEPT_CRASH: "accept the double: crash card", Kind.MOVE: "move by the dice total",
    Kind.DONE: "play no more bonus cards",
}
BOOST_LABELS = {
    notation.BoostUse.UP: "boost marker: +1 on this die",
    notation.BoostUse.DOWN: "boost marker: -1 on this die",
    notation.BoostUse.REROLL: "boost marker: re-roll this die",
    notation.BoostUse.TURN: "boost marker: turn this die over",
}


def hints(state: State, seat: int) -> list[str]:
    """The odds that matter now: the chance that the next die makes a double."""
    view = state.view(seat)
    if view["phase"] != "decide":
        return []
    dice = view["dice"] + ([view["die"]] if view["die"] else [])
    if view["die"] in view["dice"]:
        return [f"This die is a double {view['die']}: a crash card from its pile unless a boost marker changes it."]
    kept = len(set(dice))
    total = sum(dice)
    return [f"Stopping now moves {total}. The next die makes a double with chance {kept}/6 = {kept / 6:.0%}."]
