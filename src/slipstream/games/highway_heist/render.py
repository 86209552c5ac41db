"""Highway Heist in words: the terminal board (the road grid, its key with every piece's effect, each
seat's boards and powers, the Enemy-card row with both effects of each card and the Stunt row with each
card's Condition and Reward), the action labels, the hints (what a decision does, the chance of each
Skill Roll with a Boost and with each Assist, and the Activated effect coming next), the glossary and
the scoreboard.

Names and texts come from the content (``words.Words``, made once per loaded game); a space is said as
the board labels it, "column 5, lane 3" (columns 1 to 12 from West to East along the top, lanes 1 to 6
from North to South down the side)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from slipstream.engine.game import Game, State
from slipstream.engine.hooks import Term

from . import notation, rules
from .game import HighwayHeist
from .notation import Verb
from .types import RollKind
from .words import describe

WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
CELL = 4
"""Characters per road space."""
PIECE_CODES = {"enemy-suv": "S", "abandoned": "a", "wreck": "X", "tank": "T", "semi-cab": "C",
               "semi-trailer": "R", "shaw-car": "D"}
"""One letter per piece kind on the road (Player Vehicles show their seat: ``P1`` to ``P4``)."""
LEGEND = ("key: P1-P4 a Player Vehicle (p1: nobody behind its wheel)  S Enemy SUV",
          "     X Wreck  a abandoned vehicle  T Tank  C/R the Semi's cab/trailer",
          "     D Shaw's Car  H Chopper  * Enemy Peg  ^ Player Peg on top  $ Cargo",
          "     @ Ramsey")
SKILL_NAMES = ("Speed", "Control", "Athletics", "Defense")


def _wrap(text: str, first: str = "", indent: str = "     ") -> list[str]:
    """``text`` in lines of at most ``WIDTH`` characters: the first after ``first``, the rest after
    ``indent``."""
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=indent, break_on_hyphens=False)


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
    marks += "$" * int(piece["cargo"]) + ("@" if ramsey is not None and ramsey == piece["space"] else "")
    return f"{code}{marks}"[:CELL].ljust(CELL)


def road(view: dict[str, Any]) -> list[str]:
    """The road grid: the column numbers, then one line per lane (``L1`` the North edge), each space
    ``CELL`` characters wide."""
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
    """Per seat: the Character and Vehicle Boards (where, Strength, the peg), the Ratings and Boost tokens,
    then each Special Power with its effect."""
    r = seat["ratings"]
    state = "Exhausted" if seat["exhausted"] else ("playing" if seat["seat"] == active else "ready")
    if seat["vehicle"]:
        vehicle = (f"{seat['vehicle_name']} in {seat['vehicle_place']}, strength "
                   f"{seat['strength'] - seat['damage']} of {seat['strength']}")
    else:
        vehicle = "no vehicle"
    lines = _wrap(f"{seat['character_name']}, {vehicle}, {state}", first=f"P{seat['seat'] + 1} ")
    lines += _wrap(seat["peg_place"], first="   ")
    lines.append(f"   Speed {r['speed']}, Control {r['control']}, Athletics {r['athletics']}, Defense {r['defense']}; "
                 f"Boost tokens {seat['boost']} of {seat['boost_cap']}")
    for name, text in ((seat["power_name"], seat["power_text"]), (seat["vehicle_power_name"],
                                                                   seat["vehicle_power_text"])):
        if name:
            lines += _wrap(f"{name}: {text}", first="   ")
    return lines


def _track(view: dict[str, Any]) -> str:
    track = view["track"]
    text = f"{track['label']} {track['value']} of {track['goal']}"
    if view["scenario"] == "semi-heist":
        text += (f"; Cargo in the Semi {view['cargo_in_semi']}, lost {view['lost_cargo']}; door "
                 + ("open" if view["door_open"] else "closed"))
    return text


def _enemy_row(view: dict[str, Any]) -> list[str]:
    """The Enemy-card row, spot 1 to ACTIVATE!, each card with its Reveal effect and its Activated effect
    (said in advance: the card in the spot before ACTIVATE! acts at the next Enemy Card face)."""
    cards = view["enemy_row_cards"]
    lines = [f"Enemy cards (deck {view['enemy_deck_size']}, discard {len(view['enemy_discard'])}), moving toward "
             "ACTIVATE!:"]
    for i, card in enumerate(cards):
        last = i == len(cards) - 1
        spot = "ACTIVATE!" if last else f"spot {i + 1}" + (" (activates next)" if i == len(cards) - 2 else "")
        if card is None:
            lines.append(f"  {spot}: -")
            continue
        lines += _wrap(f"{spot}: {card['name']}", first="  ")
        if not last:
            lines += _wrap(f"revealed: {card['reveal']}", first="     ", indent="       ")
        effect = card["activated"] or "nothing"
        lines += _wrap(f"{'has done' if last else 'at ACTIVATE!'}: {effect}", first="     ", indent="       ")
    return lines


def _stunt_row(view: dict[str, Any]) -> list[str]:
    lines = [f"Stunts, East to West (deck {view['stunt_deck_size']}):"]
    for i, card in enumerate(view["stunt_row"]):
        if card is None:
            lines.append(f"  {i + 1}: -")
            continue
        if card["level"] == 3:
            tokens = "may be tried again and again"
        elif card["tokens"]:
            tokens = f"{card['tokens']} Boost token" + ("" if card["tokens"] == 1 else "s")
        else:
            tokens = "used up"
        lines += _wrap(f"{card['name']} (level {card['level']}, {tokens}): {card['roll']}", first=f"  {i + 1}: ")
        lines += _wrap(card["text"], first="     ", indent="     ")
    return lines


def board(view: dict[str, Any]) -> str:
    """The road and its key, each seat's boards and powers, the Enemy-card row, the Stunt row and any
    roll or choice under way."""
    active = view["active"]
    turn = ""
    if active is not None:
        left = view["actions_left"]
        turn = f", P{active + 1}'s turn, {left} action{'' if left == 1 else 's'} left"
    lines = _wrap(f"{view['scenario_name']} ({view['difficulty_name']}), round {view['round']}{turn}")
    lines.append(_track(view))
    lines += road(view)
    lines += LEGEND
    road_size = view["road"]
    lines += _wrap(f"columns 1-{road_size['columns']} run West to East, lanes L1-L{road_size['lanes']} North to "
                   "South: column 5 in lane L3 is the space called \"column 5, lane 3\"", first="     ")
    for term in view["key"]:
        lines += _wrap(f"{term['name']}: {term['text']}", first="  ")
    lines.append("")
    for seat in view["seats"]:
        lines += _seat_lines(seat, active)
    lines += _enemy_row(view)
    lines += _stunt_row(view)
    lines.append(f"supply: {view['boost_supply']} Boost tokens, {view['suv_supply']} Enemy SUVs, "
                 f"{view['enemy_peg_supply']} Enemy Pegs")
    roll = view["roll"]
    if roll is not None:
        if roll["kind"] == "action":
            what = f"{roll['label']}, {roll['dice']} dice, needs {roll['need']}"
        else:
            what = f"Defense against {roll['damage']} damage, {roll['dice']} dice"
        lines += _wrap(f"roll under way: P{roll['seat'] + 1}, {what}")
    choice = view["choice"]
    if choice is not None:
        lines += _wrap(f"choice for P{choice['seat'] + 1}: {choice['text']}")
        lines += _wrap("; ".join(choice["labels"]), first="  ", indent="  ")
    if view["outcome"]:
        lines += _wrap(f"the team {'wins' if view['outcome'] == 'win' else 'loses'}: {view['reason']}",
                       indent="  ")
    return "\n".join(lines)


def _heist_game(game: Game) -> HighwayHeist:
    if not isinstance(game, HighwayHeist):
        raise TypeError(f"not a Highway Heist game: {type(game).__name__}")
    return game


def describe_action(game: Game, action: str) -> str:
    """An action in words (``0:assist`` -> ``P1 (Dom): Assist the roll ...``, ``drive:c5l3`` -> ``drive to
    column 5, lane 3``)."""
    return describe(_heist_game(game), action)


def glossary(game: Game) -> Mapping[str, Term]:
    """Every thing a player of the loaded game meets, by its id (``words.Words.terms``): the scenario and
    its track, the characters, vehicles and Special Powers in play, the actions, the pieces and enemies,
    the faces of both dice, every Enemy card, Stunt card and scenario action of the scenario."""
    return _heist_game(game).words.terms


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


def _assist_window(state: Any, seat: int) -> list[str]:
    """Assist (Team Member), for every seat: the roll's chance now, plain and Boosted (the roller's own
    token, after the roll); for a seat still deciding, with one and with two of its tokens (two dice
    each, never above five). Defense rolls: the chance to block 1, 2, ... points of the damage."""
    roll = state.roll
    faces = rules.effort_faces(state)
    bonus = rules.roll_bonus(state, roll.seat)
    tokens = state.boost[roll.seat] > 0
    extra = f" + {bonus} success ({state.g.boards[state.board[roll.seat]].name})" if bonus else ""
    deciding = seat != roll.seat and seat in state.waiting
    options = _assisted(roll.dice, min(state.boost[seat], 2) if deciding else 0, state.g.max_dice)
    who = state.g.seat_name(roll.seat)
    if roll.kind is RollKind.ACTION:
        odds = [_chance(faces, n, roll.need, bonus, tokens) for _, n in options]
        lines = [f"{who} rolls {_dice(roll.dice)}{extra} for {state.g.words.attempt(state.g, roll.action)}, "
                 f"needing {roll.need}: {odds[0]}"]
    else:
        odds = [_blocks(faces, n, roll.damage, bonus, tokens) for _, n in options]
        lines = [f"{who} defends against {roll.damage} damage: {_dice(roll.dice)}{extra}",
                 f"  chance to block {' / '.join(f'{k}+' for k in range(1, roll.damage + 1))}: {odds[0]}"]
    for (spent, n), chance in zip(options[1:], odds[1:], strict=True):
        lines.append(f"  with {spent} of your tokens ({_dice(n)}): {chance}")
    return lines


def _helper_tokens(state: Any, seat: int) -> int:
    return sum(state.boost[t] for t in state.g.seats if t != seat)


def _decision(state: Any, seat: int) -> list[str]:
    """What the decision ``seat`` faces does, in one line (content ``[decisions]``, the powers' texts): a
    choice inside an action or an enemy effect and a power's window every time (they are rare), the
    turn, the actions, the Assist and the Boost in the first round (they come every turn)."""
    from .types import Stage

    game = state.g
    told = game.words.decisions
    if state.stage is Stage.CHOICE and state.choice is not None and state.choice.seat == seat:
        return [told[state.choice.kind.name.lower()]]
    if state.stage is Stage.POWER and state.power_seat == seat:
        power = {"wheelman": "wheelman", "tech": "tech_support", "family": "family_first"}[state.power]
        return [f"{game.words.power_names[power]}: {game.words.power_texts[power]}"]
    if state.round != 1:
        return []
    first = {Stage.CHOOSE_TURN: "choose_turn", Stage.ACTION: "action", Stage.ASSIST: "assist", Stage.BOOST: "boost"}
    kind = first.get(state.stage)
    if kind is None or (state.stage is Stage.ACTION and state.active != seat) or (state.stage is Stage.ASSIST and seat
                                                                          not in state.waiting):
        return []
    return [told[kind]]


def hints(state: State, seat: int) -> list[str]:
    """For ``seat`` now: what its decision does (the first time it comes, every time for a rare one); the
    chance of every Skill Roll it may attempt (plain and with its own Boost, and with each possible Assist
    from the team's tokens); in an Assist window, the roll's chance and what one or two of the seat's
    tokens would add (in a Defense roll, per point of damage blocked); and the Enemy card about to
    activate, with its Activated effect in words."""
    from .state import HeistState
    from .types import Stage

    if not isinstance(state, HeistState):
        return []
    game = state.g
    faces = rules.effort_faces(state)
    out: list[str] = _decision(state, seat)
    if state.stage is Stage.ACTION and state.active == seat:
        helpers = _helper_tokens(state, seat)
        token = state.boost[seat] > 0
        rolls = []
        for action in state.legal_actions():
            after = state.apply_unchecked(action)
            roll = after.roll
            if roll is None or roll.kind is not RollKind.ACTION or roll.seat != seat:
                continue
            bonus = rules.roll_bonus(state, seat)
            skill = SKILL_NAMES[_skill_of(state, action)]
            rolls.append(f"{describe(game, action)} ({skill} {roll.dice} dice, needs {roll.need}): "
                         + _odds(faces, roll.dice, roll.need, bonus, game.max_dice, token, helpers))
        out += rolls or ["no Skill Roll is open to you now: Drive, Leap, take a Boost token or end your actions"]
    elif state.roll is not None and state.stage in (Stage.ASSIST, Stage.ROLL):
        out += _assist_window(state, seat)
    elif state.stage is Stage.BOOST and state.roll is not None:
        roll = state.roll
        plain, boosted = rules.roll_successes(roll), rules.roll_successes(roll._replace(boosted=True))
        target = roll.need if roll.kind is RollKind.ACTION else roll.damage
        goal = "needed" if roll.kind is RollKind.ACTION else "of the damage to block"
        out.append(f"you rolled {plain} success(es) of {target} {goal}; with a Boost token: {boosted}")
    waiting = state.enemy_row[-2] if len(state.enemy_row) > 1 else ""
    if waiting and not state.outcome:
        card = game.enemy_cards[waiting]
        effect = game.words.activated[waiting] or "it has no Activated effect"
        out.append(f"next to reach ACTIVATE! (at the next Enemy Card face): {card.name}: {effect}")
    return out


def _skill_of(state: Any, action: str) -> int:
    """The Skill Category an action's roll uses (``rules.roll_of``: the content's actions and cards)."""
    skill: int = rules.roll_of(state, notation.parse(action))[0]
    return skill


# --- the scoreboard -----------------------------------------------------------------------------------

SCOREBOARD = ("Skill Rolls won", "Skill Rolls lost", "Stunts made", "Assists given", "Damage taken")
"""The columns of the results table, the same for every seat."""


def scoreboard(state: State) -> dict[int, dict[str, str]]:
    """Each seat's part in the team's game so far: its Skill Rolls won and lost (actions, Stunts and
    scenario actions; Defense rolls are not counted), the Stunts it made, the Assists it gave (Boost
    tokens spent on a team mate's roll) and the damage its vehicles took. The state keeps no counters, so
    the match is replayed from its record (once, for the table shown at the end)."""
    from .state import HeistState

    if not isinstance(state, HeistState):
        raise TypeError(f"not a Highway Heist state: {type(state).__name__}")
    seats = list(state.g.seats)
    counts = {seat: dict.fromkeys(SCOREBOARD, 0) for seat in seats}
    now: State = state.game.start(seed=state.seed)
    for action in state.actions:
        before = now
        now = now.apply(action)
        _tally(before, now, action, counts)
    return {seat: {column: str(value) for column, value in counts[seat].items()} for seat in seats}


def _tally(before: Any, after: Any, action: str, counts: dict[int, dict[str, int]]) -> None:
    """What one action added to each seat's counts."""
    act = notation.parse(action)
    if act.verb is Verb.ASSIST and act.seat in counts:
        counts[act.seat]["Assists given"] += 1
    roll = before.roll
    if roll is None:
        return
    for event in after.events:
        if event.kind == "success" or event.kind == "fail":
            won = event.kind == "success"
            counts[roll.seat]["Skill Rolls won" if won else "Skill Rolls lost"] += 1
            if won and notation.parse(roll.action).verb is Verb.STUNT:
                counts[roll.seat]["Stunts made"] += 1
        elif event.kind == "defense":
            counts[roll.seat]["Damage taken"] += max(0, after.damage[roll.seat] - before.damage[roll.seat])
