"""Text pictures of a Highway Heist match for the terminal: the road grid, each board, the Enemy-card row
and the Stunt row; and the hints: the chance of each Skill Roll, with a Boost and with each Assist."""

from __future__ import annotations

import textwrap
from typing import Any

from slipstream.engine.game import Game, State

from . import notation, rules
from .notation import NO_SPACE, WHEEL, Verb
from .rules import RollKind

WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
CELL = 4
"""Characters per road space."""
PIECE_CODES = {"enemy-suv": "S", "abandoned": "a", "wreck": "X", "tank": "T", "semi-cab": "C",
               "semi-trailer": "R", "shaw-car": "D"}
"""One letter per piece kind on the road (Player Vehicles show their seat: ``1`` to ``4``)."""
LEGEND = ("P1-P4 Player Vehicle (p1: unmanned)  S Enemy SUV  X Wreck  a abandoned",
          "T Tank  C/R Semi cab/trailer  D Shaw's Car  H Chopper  * Enemy Peg",
          "^ Player Peg on top  $ Cargo  r Ramsey  (West to East, lanes North to South)")
SKILL_NAMES = ("Speed", "Control", "Athletics", "Defense")


def _space(text: str) -> tuple[int, int]:
    col, lane = notation.parse_space(text)
    return col - 1, lane - 1


def _cell(piece: dict[str, Any], seats: list[dict[str, Any]], ramsey: str | None) -> str:
    kind = piece["kind"]
    if kind in ("player-vehicle", "hijacked-suv"):
        owner = piece["owner"]
        manned = seats[owner]["peg"] == "wheel"
        code = ("P" if manned else "p") + str(owner + 1)
    else:
        code = PIECE_CODES.get(kind, "?")
    marks = ("*" if piece["enemy_peg"] else "") + ("^" * len(piece["player_pegs"]))
    marks += "$" * int(piece["cargo"]) + ("r" if ramsey is not None and ramsey == piece["space"] else "")
    return f"{code}{marks}"[:CELL].ljust(CELL)


def road(view: dict[str, Any]) -> list[str]:
    """The road grid: one line per lane, North first, each space ``CELL`` characters wide."""
    columns, lanes = view["road"]["columns"], view["road"]["lanes"]
    grid = [["." + " " * (CELL - 1) for _ in range(columns)] for _ in range(lanes)]
    for piece in view["pieces"]:
        if piece["space"] is None:
            continue
        col, lane = _space(piece["space"])
        grid[lane][col] = _cell(piece, view["seats"], view["ramsey"])
    if view["chopper"] is not None:
        col, lane = _space(view["chopper"])
        cell = grid[lane][col]
        grid[lane][col] = ("H" + cell.strip().lstrip("."))[:CELL].ljust(CELL)
    head = "    " + "".join(str(c + 1).ljust(CELL) for c in range(columns))
    return [head.rstrip()] + [f"L{lane + 1}  " + "".join(row).rstrip() for lane, row in enumerate(grid)]


def _seat_lines(seat: dict[str, Any], active: int | None) -> list[str]:
    """Two lines per seat: the Character and Vehicle Boards (where, Strength, the peg), then the
    Ratings and Boost tokens."""
    r = seat["ratings"]
    state = "exhausted" if seat["exhausted"] else ("playing" if seat["seat"] == active else "ready")
    if seat["vehicle"]:
        vehicle = (f"{seat['vehicle']} at {seat['vehicle_space']}, strength "
                   f"{seat['strength'] - seat['damage']}/{seat['strength']}")
    else:
        vehicle = "no vehicle"
    peg = {"wheel": "behind the wheel", None: "off the road (HH-X7)"}.get(seat["peg"], f"on top of {seat['peg']}")
    return [f"P{seat['seat'] + 1} {seat['character']}, {vehicle}, {state}",
            f"   {peg}; Speed {r['speed']} Control {r['control']} Athletics {r['athletics']} "
            f"Defense {r['defense']}; Boost {seat['boost']}/{seat['boost_cap']}"]


def _track(view: dict[str, Any]) -> str:
    track = view["track"]
    text = f"{track['name'].replace('_', ' ')} {track['value']}/{track['goal']}"
    if view["scenario"] == "semi-heist":
        text += (f"; Cargo in the Semi {view['cargo_in_semi']}, lost {view['lost_cargo']}; door "
                 + ("open" if view["door_open"] else "closed"))
    return text


def board(view: dict[str, Any]) -> str:
    """The road, then each seat's boards, the Enemy-card row, the Stunt row and any roll under way."""
    active = view["active"]
    turn = f", P{active + 1}'s turn, {view['actions_left']} action(s) left" if active is not None else ""
    lines = [f"{view['scenario']} ({view['difficulty']}) round {view['round']}, {view['stage']}{turn}",
             _track(view)]
    lines += road(view)
    lines += LEGEND
    lines.append("")
    for seat in view["seats"]:
        lines += _seat_lines(seat, active)
    spots = view["enemy_row"]
    names = [f"{i + 1}: {card or '-'}" for i, card in enumerate(spots[:-1])]
    lines.append(f"Enemy cards (deck {view['enemy_deck_size']}, discard {len(view['enemy_discard'])}): "
                 + ", ".join([*names, f"ACTIVATE!: {spots[-1] or '-'}"]))
    lines.append(f"Stunts, East to West (deck {view['stunt_deck_size']}):")
    for i, card in enumerate(view["stunt_row"]):
        if card is None:
            lines.append(f"  {i + 1}: -")
            continue
        if card["level"] == 3:
            tokens = "repeatable"
        else:
            tokens = f"{card['tokens']} Boost token(s)" if card["tokens"] else "used up"
        lines.append(f"  {i + 1}: {card['name']} ({card['card']}, level {card['level']}, {tokens})")
    lines.append(f"supply: {view['boost_supply']} Boost tokens, {view['suv_supply']} Enemy SUVs, "
                 f"{view['enemy_peg_supply']} Enemy Pegs")
    roll = view["roll"]
    if roll is not None:
        what = roll["action"] if roll["kind"] == "action" else f"Defense against {roll['damage']} damage"
        lines.append(f"roll under way: P{roll['seat'] + 1}, {what}, {roll['dice']} dice"
                     + (f", needs {roll['need']}" if roll["kind"] == "action" else ""))
    if view["choice"] is not None:
        choice = view["choice"]
        lines += textwrap.wrap(f"choice for P{choice['seat'] + 1} ({choice['kind'].replace('_', ' ')}): "
                               + ", ".join(choice["options"]), WIDTH, subsequent_indent="  ")
    if view["outcome"]:
        lines += textwrap.wrap(f"the team {'wins' if view['outcome'] == 'win' else 'loses'}: {view['reason']}",
                               WIDTH, subsequent_indent="  ")
    return "\n".join(lines)


_PLAIN = {
    Verb.PLAY: "take the next turn", Verb.ASSIST: "Assist the roll (one Boost token: +2 dice)",
    Verb.PASS: "do not Assist", Verb.SHAKE: "Shake the Enemy Peg off your vehicle",
    Verb.BRAWL: "Brawl the Enemy Peg off this vehicle", Verb.HIJACK: "Hijack this Enemy SUV",
    Verb.TAKE_BOOST: "take a Boost token (ends your turn)", Verb.END_TURN: "end the turn",
    Verb.BOOST: "Boost the roll (every boost face counts)", Verb.KEEP: "keep the roll",
    Verb.FOLLOW: "follow into the vacated space", Verb.STAY: "stay where you are",
}
_AT = {Verb.DRIVE: "drive to", Verb.LEAP: "leap on top of the vehicle at", Verb.RAM: "Ram the Enemy SUV at",
       Verb.FORCE: "Force the vehicle at", Verb.TO: "move it to", Verb.PEG: "move your Player Peg to",
       Verb.SLAM: "the SUV slams the vehicle at", Verb.HIT: "the hit lands on the vehicle at",
       Verb.REMOVE: "remove the Enemy Peg at",
       Verb.RAMSEY: "move Ramsey to the vehicle at"}


def describe_action(game: Game, action: str) -> str:
    """A short human phrase for an action (``0:assist`` -> ``P1: Assist the roll ...``)."""
    try:
        act = notation.parse(action)
    except (KeyError, ValueError, IndexError):
        return action
    who = f"P{act.seat + 1}: " if act.seat >= 0 else ""
    verb = act.verb
    space = "" if act.space == NO_SPACE else notation.space_text(*act.space)
    if verb in _PLAIN:
        return who + _PLAIN[verb]
    if verb is Verb.LEAP and act.space == WHEEL:
        return who + "leap back behind the wheel"
    if verb is Verb.REMOVE and not space:
        return who + "remove no Enemy Peg"
    if verb in _AT:
        return f"{who}{_AT[verb]} {space}"
    if verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
        kind = "Stunt" if verb is Verb.STUNT else "scenario action"
        return f"{who}attempt the {kind} {act.name}" + (f" on {space}" if space else "")
    if verb is Verb.DIRECTION:
        return f"{who}move the Main Enemy {act.name}" if act.name != "none" else f"{who}do not move it"
    if verb is Verb.EFFORT:
        s, b, x = act.dice
        return f"the Effort Dice show {s} success, {b} boost, {x} blank"
    if verb is Verb.ENEMY_DIE:
        return f"the Enemy Die shows {act.name}"
    if verb is Verb.ENEMY_CARD:
        return f"Enemy card {act.name}"
    if verb is Verb.FIRST:
        moved = "the Enemy Peg" if act.name == "enemy" else f"P{int(act.name) + 1}'s Player Peg"
        return f"{who}move {moved} first"
    return f"Stunt card {act.name}"


# --- hints: the odds of every Skill Roll -----------------------------------------------------------


def _odds(faces: tuple[int, int, int], dice: int, need: int, bonus: int, cap: int, tokens: bool,
          helpers: int) -> str:
    """``4 dice 31% (Boosted 59%); +1 Assist (5 dice) 50% (Boosted 79%)``: the chance with the dice now,
    then with each possible Assist (two dice per token, at most ``cap`` dice); Boosted: the roller's own
    Boost token spent after the roll."""
    parts = []
    for assists, n in _assisted(dice, helpers, cap):
        label = f"{n} dice" if not assists else f"+{assists} Assist ({n} dice)"
        parts.append(f"{label} {_chance(faces, n, need, bonus, tokens)}")
    return "; ".join(parts)


def _assisted(dice: int, tokens: int, cap: int) -> list[tuple[int, int]]:
    """(tokens, dice) with 0, 1, ... ``tokens`` Assist tokens (two dice each, never above ``cap``), as
    long as each token adds dice."""
    out = [(0, dice)]
    for spent in range(1, tokens + 1):
        n = min(dice + 2 * spent, cap)
        if n <= out[-1][1]:
            break
        out.append((spent, n))
    return out


def _chance(faces: tuple[int, int, int], dice: int, need: int, bonus: int, tokens: bool) -> str:
    """``31% (Boosted 59%)``: plain, then with the roller's Boost (only if they hold a token)."""
    plain = rules.success_chance(faces, dice, need, bonus=bonus)
    if not tokens:
        return f"{plain:.0%}"
    return f"{plain:.0%} (Boosted {rules.success_chance(faces, dice, need, boost=True, bonus=bonus):.0%})"


def _blocks(faces: tuple[int, int, int], dice: int, damage: int, bonus: int, tokens: bool) -> str:
    """``100% / 75% / 25% (Boosted 100% / 89% / 44%)``: the chance to block at least 1, 2, ... of the
    damage (one point per success, the Exotic Supercar's bonus counted), plain, then Boosted."""
    def row(boost: bool) -> str:
        return " / ".join(f"{rules.success_chance(faces, dice, k, boost=boost, bonus=bonus):.0%}"
                          for k in range(1, damage + 1))
    return row(False) + (f" (Boosted {row(True)})" if tokens else "")


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def _assist_window(s: Any, seat: int) -> list[str]:
    """Assist (Team Member), for every seat: the roll's chance now, plain and Boosted (the roller's own
    token, after the roll); for a seat still deciding, with one and with two of its tokens (two dice
    each, never above five). Defense rolls: the chance to block 1, 2, ... points of the damage."""
    roll = s.roll
    faces = rules.effort_faces(s)
    bonus = rules.roll_bonus(s, roll.seat)
    tokens = s.boost[roll.seat] > 0
    extra = f" + {bonus} success ({s.g.boards[s.board[roll.seat]].name})" if bonus else ""
    deciding = seat != roll.seat and seat in s.waiting
    options = _assisted(roll.dice, min(s.boost[seat], 2) if deciding else 0, s.g.max_dice)
    if roll.kind is RollKind.ACTION:
        odds = [_chance(faces, n, roll.need, bonus, tokens) for _, n in options]
        lines = [f"P{roll.seat + 1} rolls {_dice(roll.dice)}{extra} for {roll.action}, needing {roll.need}: "
                 + odds[0]]
    else:
        odds = [_blocks(faces, n, roll.damage, bonus, tokens) for _, n in options]
        lines = [f"P{roll.seat + 1} defends against {roll.damage} damage: {_dice(roll.dice)}{extra}",
                 f"  chance to block {' / '.join(f'{k}+' for k in range(1, roll.damage + 1))}: {odds[0]}"]
    for (spent, n), chance in zip(options[1:], odds[1:], strict=True):
        lines.append(f"  with {spent} of your tokens ({_dice(n)}): {chance}")
    return lines


def _helper_tokens(s: Any, seat: int) -> int:
    return sum(s.boost[t] for t in s.g.seats if t != seat)


def hints(state: State, seat: int) -> list[str]:
    """For ``seat`` now: the chance of every Skill Roll it may attempt (plain and with its own Boost, and
    with each possible Assist from the team's tokens); in an Assist window, the roll's chance and what
    one or two of the seat's tokens would add (in a Defense roll, per point of damage blocked); and the
    Enemy cards about to activate."""
    from .state import HeistState, Stage

    if not isinstance(state, HeistState):
        return []
    s = state
    g = s.g
    faces = rules.effort_faces(s)
    out: list[str] = []
    if s.stage is Stage.ACTION and s.active == seat:
        helpers = _helper_tokens(s, seat)
        token = s.boost[seat] > 0
        for action in s.legal_actions():
            after = s.apply_unchecked(action)
            roll = after.roll
            if roll is None or roll.kind is not RollKind.ACTION or roll.seat != seat:
                continue
            bonus = rules.roll_bonus(s, seat)
            skill = SKILL_NAMES[_skill_of(s, action)]
            out.append(f"{describe_action(state.game, action)} ({skill} {roll.dice} dice, needs {roll.need}): "
                       + _odds(faces, roll.dice, roll.need, bonus, g.max_dice, token, helpers))
        if not out:
            out.append("no Skill Roll is open to you now: Drive, Leap, take a Boost token or end the turn")
    elif s.roll is not None and s.stage in (Stage.ASSIST, Stage.ROLL):
        out += _assist_window(s, seat)
    elif s.stage is Stage.BOOST and s.roll is not None:
        roll = s.roll
        plain, boosted = rules.roll_successes(roll), rules.roll_successes(roll._replace(boosted=True))
        target = roll.need if roll.kind is RollKind.ACTION else roll.damage
        goal = "needed" if roll.kind is RollKind.ACTION else "of the damage to block"
        out.append(f"you rolled {plain} success(es) of {target} {goal}; with a Boost token: {boosted}")
    waiting = s.enemy_row[-2] if len(s.enemy_row) > 1 else ""
    if waiting:
        card = g.enemy_cards[waiting]
        effects = "; ".join(" ".join((line.verb, *line.words, *([str(line.number)] if line.number else [])))
                            for line in card.activated) or "no Activated effect"
        out.append(f"next to activate: {card.name} ({waiting}): {effects}")
    return out


def _skill_of(s: Any, action: str) -> int:
    """The Skill Category an action's roll uses (``state._roll_of``: the content's actions and cards)."""
    skill: int = s._roll_of(notation.parse(action))[0]
    return skill
