"""Scrap Racer in the terminal: the track as an oval of spaces, the racers' dashboards, the odds."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.markup import escape

from slipstream.engine.game import Game, State
from slipstream.engine.hooks import Term
from slipstream.engine.play import replayed

from . import notation, words
from .game import ScrapRacer
from .state import ScrapState
from .types import BoostUse, Kind, Stage

LETTER = {"swifty": "W", "jackal": "J", "crusher": "C", "hover": "H", "twister": "T", "steel-jacket": "S"}
COLOUR = {"swifty": "yellow", "jackal": "red", "crusher": "magenta", "hover": "cyan", "twister": "green",
          "steel-jacket": "blue"}


def letter(racer: dict[str, Any]) -> str:
    """The one letter that stands for a racer on the track (``W`` for Swifty: ``S`` is Steel-Jacket)."""
    return LETTER.get(racer["id"]) or (racer["name"] or "?")[0].upper()


def _cell(space: int, view: dict[str, Any], here: dict[int, list[dict[str, Any]]]) -> str:
    racers = here.get(space, [])
    if racers:
        racer = racers[0]
        text = letter(racer) + ("+" if len(racers) > 1 else " ")
        return f"[bold {COLOUR.get(racer['id'], 'white')}]{text}[/]"
    if space in view["boost_spaces_filled"]:
        return "[bold yellow]* [/]"
    return "[dim]- [/]" if view["track"]["kinds"][space] == "S" else "[dim]o [/]"


WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
PHASES = {"setup": "dealing the dashboards", "order": "choosing the order of the racers", "roll": "rolling",
          "decide": "roll again or stop", "cards": "bonus cards before the move", "cards-after":
          "bonus cards after the move", "resolving": "moving", "fight-choice": "choosing a fight's winner",
          "over": "race over"}
"""The view's ``phase`` in words."""


def _name(view: dict[str, Any], key: str) -> str:
    """The name of an id from the glossary the view carries (``terms``), else the id."""
    term = view.get("terms", {}).get(key)
    return str(term["name"]) if term else key


def _explained(view: dict[str, Any], key: str, head: str = "") -> list[str]:
    """``head`` (or the id's name) and its effect from the view's glossary, wrapped for the terminal."""
    term = view.get("terms", {}).get(key)
    if not term:
        return []
    return [escape(line) for line in textwrap.wrap(f"{head or term['name']}: {term['text']}", WIDTH,
                                                    initial_indent="  ", subsequent_indent="    ")]


def _key(view: dict[str, Any]) -> list[str]:
    """What the letters and signs on the track stand for, then what the racers' abilities, the boost
    markers and the seat's bonus cards do."""
    racers = [racer for racer in view["racers"] if racer["id"]]
    named = "  ".join(f"[{COLOUR.get(racer['id'], 'white')}]{letter(racer)}[/] {racer['name']}" for racer in racers)
    lines = [named] if racers else []
    lines.append("+ more racers there  - straight  o curve  * boost marker  |> finish line")
    if racers:
        lines.append("key:")
        for racer in racers:
            lines.extend(_explained(view, racer["id"]))
        for boost in racers[0]["boost_markers"]:
            lines.extend(_explained(view, boost, f"Boost marker {_name(view, boost)}"))
        for card in view.get("my_bonus_cards") or {}:
            lines.extend(_explained(view, card, f"Bonus card {_name(view, card)}"))
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
        racer = view["racers"][slot]
        boosts = ", ".join(f"{n} {_name(view, t)}" for t, n in racer["boost_markers"].items() if n) or "-"
        space = "-" if racer["space"] is None else str(racer["space"] + 1)
        cards = view["bonus_cards_held"][str(racer["seat"])]
        rows.append((racer["name"] or "?", seats[racer["seat"]], str(racer["laps"]), space, str(racer["bonus_markers"]),
                     str(cards), boosts))
        colours.append(COLOUR.get(racer["id"], "white"))
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
    for racer in view["racers"]:
        if racer["space"] is not None:
            here.setdefault(racer["space"], []).append(racer)
    half = (length + 1) // 2
    top = list(range(half))
    bottom = list(range(length - 1, half - 1, -1))
    lines = [f"[bold]{escape(track['name'])}[/]  ({length} spaces, read clockwise from |>)"]
    lines.append("   " + "".join(f"{state + 1:<2}" if (state + 1) % 4 == 1 else "  " for state in top).rstrip())
    lines.append(" |>" + "".join(_cell(state, view, here) for state in top))
    lines.append(" | " + "".join(_cell(state, view, here) for state in bottom))
    lines.append("   " + "".join(f"{state + 1:<2}" if (state + 1) % 4 == 1 else "  " for state in bottom).rstrip())
    lines.extend(_key(view))
    waiting = [racer for racer in view["racers"] if racer["space"] is None and racer["id"]]
    if waiting:
        lines.append("Behind the line: " + ", ".join(racer["name"] for racer in waiting))
    lines.append("")
    lines.extend(_table(view))
    mine = view.get("my_bonus_cards")
    if mine:
        lines.append("Your bonus cards: " + ", ".join(f"{n} x {_name(view, c)}" for c, n in mine.items()))
    lines.append(f"Round {view['round']}: {PHASES.get(view['phase'], view['phase'])}")
    if view["active"] is not None and view["phase"] in ("roll", "decide"):
        active = view["racers"][view["active"]]
        dice = view["dice"] + ([view["die"]] if view["die"] else [])
        lines.append(f"\n{active['name']} has rolled: {' '.join(map(str, dice)) or 'nothing yet'}"
                     f"  (total {sum(dice)})")
    if view["end_round"]:
        lines.append(f"[bold]Final round[/]: a racer has three lap markers (round {view['end_round']}).")
    return "\n".join(lines)


def describe_action(game: Game, action: str) -> str:
    """A short label for an action, with the loaded game's names for racers and cards."""
    terms = _sr(game).terms
    try:
        move = notation.parse(action)
    except ValueError:
        return action
    kind = move.kind
    if kind in LABELS:
        return LABELS[kind]
    if move.use is not None:
        return BOOST_LABELS[move.use]
    name = terms[move.name]["name"] if move.name in terms else move.name
    named = {Kind.PLAY_CARD: f"play the bonus card {name}", Kind.FIRST: f"{name} goes first",
             Kind.LET_WIN: f"let {name} win the fight", Kind.CRASH_CARD: f"the crash card {name}",
             Kind.BONUS_CARD: f"the bonus card {name}", Kind.GOAL_CARD: f"the goal card {name}",
             Kind.MARKER: f"a {name} boost marker", Kind.RACER: f"the dashboard of {name}"}
    if kind in named:
        return named[kind]
    if kind == Kind.START_PLAYER:
        return f"P{move.dice[0] + 1} starts"
    faces = " and ".join(map(str, move.dice))
    return {Kind.DIE: f"the die shows {faces}", Kind.TWO_DICE: f"the two dice show {faces}"}.get(
        kind, f"the fight dice show {faces}")


def glossary(game: Game) -> dict[str, Term]:
    """Every racer, card, boost marker, deck and track of the loaded game in words (``words.glossary``)."""
    return words.glossary(_sr(game))


SCOREBOARD = ("Laps", "Crash cards", "Bonus cards played", "Boost markers used")
_COUNTED = {"double": 1, "bonus-card": 2, "boost": 3}
"""The events counted for the seat of the racer on turn, by the column they count in."""


def scoreboard(state: State) -> dict[int, dict[str, str]]:
    """Each player's race: laps (each racer's), crash cards drawn, bonus cards played and boost markers
    used. The state keeps race-wide counts only, so the race is replayed from its record and each event
    counted for the seat of the racer on turn."""
    state = _scrap_state(state)
    game = state.game
    counts = [[0] * len(SCOREBOARD) for _ in range(game.players)]
    for before, after in replayed(state):
        turn = _scrap_state(before)
        seat = turn.owner[turn.order[turn.turn]] if turn.turn < len(turn.order) else -1
        for event in after.events:
            column = _COUNTED.get(event.kind)
            if column is not None and seat >= 0:
                counts[seat][column] += 1
    out: dict[int, dict[str, str]] = {}
    for seat in range(game.players):
        laps = " and ".join(str(state.laps[racer]) for racer in game.racers_of(seat))
        values = [laps, *(str(n) for n in counts[seat][1:])]
        out[seat] = dict(zip(SCOREBOARD, values, strict=True))
    return out


def _scrap_state(state: State) -> ScrapState:
    if not isinstance(state, ScrapState):
        raise TypeError(f"not a Scrap Racer state: {type(state).__name__}")
    return state


def _sr(game: Game) -> ScrapRacer:
    if not isinstance(game, ScrapRacer):
        raise TypeError(f"not a Scrap Racer game: {type(game).__name__}")
    return game


LABELS = {
    Kind.ROLL_AGAIN: "roll another die", Kind.STOP: "stop and move by the dice",
    Kind.ACCEPT_CRASH: "accept the double: crash card", Kind.MOVE: "move by the dice total",
    Kind.DONE: "play no more bonus cards",
}
BOOST_LABELS = {
    BoostUse.UP: "boost marker: +1 on this die",
    BoostUse.DOWN: "boost marker: -1 on this die",
    BoostUse.REROLL: "boost marker: re-roll this die",
    BoostUse.TURN: "boost marker: turn this die over",
}


def told(state: State, seat: int) -> list[str]:
    """The one line that says what the decision before ``seat`` does (content ``[decisions]``): the first
    time each kind comes (rolling on in the first round; the rarer ones, a double, bonus cards, the order
    of a player's racers and a fight between them, every time)."""
    if not isinstance(state, ScrapState) or state.actor != seat:
        return []
    lines = state.game.content.decisions
    stage = state.stage
    if stage == Stage.DECIDE:
        if state.die and state.die in state.dice:
            return [lines.double]
        return [lines.roll] if state.round == 1 else []
    kinds = {Stage.ORDER: lines.order, Stage.CARDS: lines.cards, Stage.CARDS_AFTER: lines.cards,
             Stage.FIGHT_CHOICE: lines.fight}
    return [kinds[stage]] if stage in kinds else []


def hints(state: State, seat: int) -> list[str]:
    """What the decision does (the first time), then the odds that matter now: the chance that the next
    die makes a double."""
    first = told(state, seat)
    view = state.view(seat)
    if view["phase"] != "decide":
        return first
    dice = view["dice"] + ([view["die"]] if view["die"] else [])
    if view["die"] in view["dice"]:
        return [*first, f"This die is a double {view['die']}: a crash card from its pile unless a boost marker "
                "changes it."]
    kept = len(set(dice))
    total = sum(dice)
    return [*first, f"Stopping now moves {total}. The next die makes a double with chance {kept}/6 = {kept / 6:.0%}."]
