"""The rules of BRC Grand Prix as small named functions, in the order of the rulebook.

Each docstring cites its section of ``rules/brc-grand-prix.txt`` (the text has lost most headings, so a
section is named by its first words); gap ids (F1-*) are decided in ``docs/rules/brc-grand-prix.md``.
Every function that changes the position takes the state being built by ``BRCState._do`` (a private
copy) and the list of events it appends to; the state's per-car tuples are replaced, never changed.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final, NamedTuple

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event

from .notation import KEEP, AttackFace
from .types import Counter, MoveKind, Stage

if TYPE_CHECKING:
    from .state import BRCState

# --- the tables ---------------------------------------------------------------------------------------------

SOFT: Final = 0
HARD: Final = 1
WET: Final = 2
TYRE_NAMES: Final = ("soft", "hard", "wet")
DRY_TRACK: Final = 0
WET_TRACK: Final = 1
WEATHER_NAMES: Final = ("DRY", "WET")

DRS: Final = 1
NO_OVERTAKE: Final = 2
TYRE_SAVER: Final = 4
"""Flag-card perks (F1-G5), kept per car as bits of ``BRCState.perks`` until used."""
PERK_NAMES: Final = ((DRS, "drs"), (NO_OVERTAKE, "no-overtake"), (TYRE_SAVER, "tyre-saver"))

SAFETY_CAR_SPACES: Final = 6


class Effect(enum.Enum):
    """What a line of a BRC flag card does (F1-G5)."""

    NONE = "none"
    MOVE = "move+"
    MOVE_BACK = "move-"
    ROLL = "roll"
    DRS = "drs"
    NO_OVERTAKE = "no-overtake"
    TYRE_SAVER = "tyre-saver"
    LET_BY = "let-by"
    BLUE_MISS = "blue-miss"


class CardEffect(NamedTuple):
    """One line of a BRC flag card, read from the content once (``read_card_effect``)."""

    kind: Effect
    amount: int
    """The spaces of a move, or the modifier of a roll (0 for the other effects)."""
    text: str
    """The line as the card reads (``move+2``, ``drs``, ...)."""


def read_card_effect(text: str) -> CardEffect:
    """A card line of the content (``content.EFFECT_RE``): ``move+N``, ``move-N``, ``roll+N``/``roll-N``
    or one of the named effects."""
    if text.startswith(Effect.MOVE.value):
        return CardEffect(Effect.MOVE, int(text.removeprefix(Effect.MOVE.value)), text)
    if text.startswith(Effect.MOVE_BACK.value):
        return CardEffect(Effect.MOVE_BACK, int(text.removeprefix(Effect.MOVE_BACK.value)), text)
    if text.startswith(Effect.ROLL.value):
        return CardEffect(Effect.ROLL, int(text.removeprefix(Effect.ROLL.value)), text)
    return CardEffect(Effect(text), 0, text)


PERK_OF_EFFECT: Final = {Effect.DRS: DRS, Effect.NO_OVERTAKE: NO_OVERTAKE, Effect.TYRE_SAVER: TYRE_SAVER}


def name(seat: int) -> str:
    """A car's name in the events."""
    return f"P{seat + 1}"


# --- The Board (F1-G1, F1-G3): where the cars are -----------------------------------------------------------


def in_action(state: BRCState, car: int) -> bool:
    """Occupying Spaces: a car on the main track and in action fills its space and must be overtaken
    (a car off track, in the pit lane or finished does not, F1-G10)."""
    return state.pit_space[car] < 0 and not state.off_track[car] and not state.finished[car]


def occupant(state: BRCState, space: int, exclude: int) -> int:
    """The car in action (``in_action``, written out: this runs for every space a move looks at) on
    main-track ``space`` (other than ``exclude``), or -1."""
    length = state.game.length
    pit_space, off_track, finished = state.pit_space, state.off_track, state.finished
    for car, at in enumerate(state.distance):
        if at % length == space and car != exclude and pit_space[car] < 0 and not off_track[car] \
                and not finished[car]:
            return car
    return -1


def closest_ahead(state: BRCState, position: int, limit: int, exclude: int) -> tuple[int, int]:
    """(car, spaces ahead) of the closest car in action 1..``limit`` spaces ahead of ``position``."""
    length = state.game.length
    best, best_offset = -1, limit + 1
    pit_space, off_track, finished = state.pit_space, state.off_track, state.finished
    for car, at in enumerate(state.distance):
        offset = (at - position) % length
        if (0 < offset < best_offset and car != exclude and pit_space[car] < 0 and not off_track[car]
                and not finished[car]):
            best, best_offset = car, offset
    return best, best_offset


def lap_of(distance: int, length: int) -> int:
    """Lap Counter: the lap a car is on at ``distance`` spaces past the start line (grid cars behind it
    are on lap 1)."""
    return max(1, distance // length + 1)


def line_distance(state: BRCState, seat: int) -> int:
    """The main-track distance that counts for laps (the line crosses the pit lane after P4, F1-G3)."""
    pit_space = state.pit_space[seat]
    if pit_space < 0:
        return state.distance[seat]
    content = state.game.content
    return state.distance[seat] + (content.bypass_before_line if pit_space > content.pit_line_after else 0)


def lap(state: BRCState, seat: int) -> int:
    """The lap ``seat`` is on (for a car in the pit lane, counting the line in the pit lane)."""
    return lap_of(line_distance(state, seat), state.game.length)


def progress(state: BRCState, seat: int) -> float:
    """How far round the race a car is, comparable between the main track and the pit lane (F1-G8)."""
    pit_space = state.pit_space[seat]
    at = state.distance[seat]
    if pit_space < 0:
        return float(at)
    content = state.game.content
    if pit_space <= content.pit_line_after:
        return at - 1 + (pit_space + 1) * (content.bypass_before_line + 1) / (content.pit_line_after + 2)
    past_the_line = pit_space - content.pit_line_after - 0.5
    return (at + content.bypass_before_line
            + past_the_line * content.rejoin / (content.pit_spaces - content.pit_line_after))


def standings(state: BRCState) -> list[int]:
    """Seats from the leader to the last: finishers in finishing order, then by progress (F1-G8)."""
    pit_space, distance = state.pit_space, state.distance
    if not state.finishing_order and max(pit_space) < 0:  # all on the main track: by distance, ties by seat
        return sorted(range(len(distance)), key=distance.__getitem__, reverse=True)
    finished = state.finished
    keyed = sorted((-(distance[i] if pit_space[i] < 0 else progress(state, i)), i)
                   for i in range(len(distance)) if not finished[i])
    return [*state.finishing_order, *(i for _, i in keyed)]


# --- events -------------------------------------------------------------------------------------------------


def simple_event(state: BRCState, kind: str, seat: int, other: int, text: str, rule: str) -> Event:
    """An event that depends only on its kind, text, rule and the cars named (the text's placeholders
    ``{me}`` and ``{other}``), made once per game."""
    return state.game.event_cache.get((kind, seat, other, text, rule),
                                   lambda: _make_simple_event(kind, seat, other, text, rule))


def _make_simple_event(kind: str, seat: int, other: int, text: str, rule: str) -> Event:
    data = {"seat": seat} if other < 0 else {"seat": seat, "car": other}
    return Event(kind, text.format(me=name(seat), other=name(other)), rule, data)


# --- Setup: Tyre Selection ----------------------------------------------------------------------------------


def choose_starting_tyre(state: BRCState, seat: int, tyre: int, events: list[Event]) -> None:
    """Setup, Tyre Selection: each player picks SOFT or HARD (simultaneously, hidden until all chose);
    then the grid is set by the roll-off or by qualifying (F1-A2)."""
    state.tyres = replaced(state.tyres, seat, tyre)
    word = TYRE_NAMES[tyre]
    events.append(Event("tyre-chosen", f"{name(seat)} has chosen a starting tyre", "Tyre Selection",
                        {"seat": seat}))
    events.append(Event("tyre-choice", f"{name(seat)} chose {word.upper()}", "Tyre Selection",
                        {"seat": seat, "tyre": word}, frozenset((seat,))))
    if min(state.tyres) < 0:
        return
    state.starting_tyres = state.tyres
    shown = ", ".join(f"{name(i)} {TYRE_NAMES[t].upper()}" for i, t in enumerate(state.tyres))
    events.append(Event("tyres", f"starting tyres: {shown}", "Tyre Selection"))
    if state.game.qualifying:
        state.stage = Stage.QUALIFYING
        state.qualifying_seat = state.qualifying_distance = state.qualifying_rolls = 0
    else:
        state.stage = Stage.GRID_ROLL_OFF
        state.grid_groups = (tuple(range(len(state.tyres))),)
        state.grid_rolls = ()


# --- The grid: roll-off and Tie-Breaker ---------------------------------------------------------------------


def grid_roll(state: BRCState, roll: int, events: list[Event]) -> None:
    """"Every driver rolls a standard 6-sided dice. The highest roller takes Pole Position";
    Tie-Breaker: tied drivers roll again among themselves for their slots."""
    index = next(i for i, group in enumerate(state.grid_groups) if len(group) > 1)
    group = state.grid_groups[index]
    seat = group[len(state.grid_rolls)]
    state.grid_rolls = (*state.grid_rolls, roll)
    events.append(Event("grid-roll", f"{name(seat)} rolls {roll} for the grid",
                        "The grid: roll-off and tie-breaker", {"seat": seat, "roll": roll}))
    if len(state.grid_rolls) < len(group):
        return
    values = sorted(set(state.grid_rolls), reverse=True)
    split = tuple(tuple(s for s, r in zip(group, state.grid_rolls, strict=True) if r == v) for v in values)
    state.grid_groups = (*state.grid_groups[:index], *split, *state.grid_groups[index + 1:])
    state.grid_rolls = ()
    for tied in split:
        if len(tied) > 1:
            events.append(Event("grid-tie", f"{', '.join(name(s) for s in tied)} tie and roll again",
                                "The grid: Tie-Breaker", {"seats": list(tied)}))
    next_grid_roll(state, events)


def next_grid_roll(state: BRCState, events: list[Event]) -> None:
    """Roll off while a slot is tied; then the grid is set (pole on the space behind the line, F1-G2)
    and the race starts."""
    if any(len(group) > 1 for group in state.grid_groups):
        state.stage = Stage.GRID_ROLL_OFF
        return
    state.grid = tuple(group[0] for group in state.grid_groups)
    for slot, seat in enumerate(state.grid):
        state.distance[seat] = -(slot + 1)
    events.append(Event("grid", "grid: " + ", ".join(name(s) for s in state.grid),
                        "The grid: Pole Position", {"grid": list(state.grid)}))
    next_turn(state, events)


# --- Qualifying: the hot lap --------------------------------------------------------------------------------


def qualifying_roll(roll: int, tyre: int) -> tuple[int, int]:
    """Hot-lap qualifying: (spaces moved, rolls counted). SOFT +2 / HARD +0; "The SOFT Penalty: If
    qualifying on SOFT tyres and you roll a 1, add +1 to your total roll count" (a 1 moves 3, F1-A3)."""
    if tyre == SOFT:
        return (3, 2) if roll == 1 else (roll + 2, 1)
    return roll, 1


def hot_lap_roll(state: BRCState, roll: int, events: list[Event]) -> None:
    """Qualifying: one hot lap each, solo, in seat order; "The driver with the lowest total roll count
    takes Pole Position. Ties are settled by a single D6 roll-off"."""
    seat = state.qualifying_seat
    move, counted = qualifying_roll(roll, state.tyres[seat])
    state.qualifying_distance += move
    state.qualifying_rolls += counted
    penalty = " (SOFT 1: +1 roll)" if counted == 2 else ""
    length = state.game.length
    events.append(Event("qualifying", f"{name(seat)} rolls {roll}: moves {move}{penalty}, "
                        f"{state.qualifying_distance}/{length} after {state.qualifying_rolls} rolls",
                        "Qualifying: the hot lap", {"seat": seat, "roll": roll, "move": move}))
    if state.qualifying_distance < length:
        return
    state.qualifying_results = (*state.qualifying_results, state.qualifying_rolls)
    events.append(Event("qualified", f"{name(seat)} sets a hot lap of {state.qualifying_rolls} rolls",
                        "Qualifying: the hot lap", {"seat": seat, "rolls": state.qualifying_rolls}))
    if state.qualifying_seat + 1 < len(state.tyres):
        state.qualifying_seat += 1
        state.qualifying_distance = state.qualifying_rolls = 0
        return
    counts = sorted(set(state.qualifying_results))
    results = state.qualifying_results
    state.grid_groups = tuple(tuple(seat for seat, count in enumerate(results) if count == rolls) for rolls in counts)
    state.grid_rolls = ()
    next_grid_roll(state, events)


# --- Turns (F1-G8) ------------------------------------------------------------------------------------------


def next_turn(state: BRCState, events: list[Event]) -> None:
    """The next car to roll: race order each round, leader first (F1-G8), serving missed turns; the race
    ends by Final Standings (everyone across the line, or the first finisher)."""
    game = state.game
    while True:
        if len(state.finishing_order) == game.players if game.race_to_end else state.finishing_order:
            state.stage = Stage.OVER
            state.mover = -1
            return
        turn = state.turn_index + 1
        if turn >= len(state.race_order):
            state.round_number += 1
            finished = state.finished
            state.race_order = tuple(s for s in standings(state) if not finished[s])
            turn = 0
        state.turn_index = turn
        seat = state.race_order[turn]
        if state.finished[seat]:
            continue
        if not serve_penalty_or_rejoin(state, seat, events):
            continue
        state.mover = seat
        state.stage = Stage.ROLL
        state.counters[Counter.TURNS] += 1
        return


# --- Movement: The Calculation Formula, The Lock-up, The Minimum Movement Rule ------------------------------


def tyre_modifier(tyre: int, weather: int) -> int:
    """The tyre and weather table (F1-A1): DRY: SOFT +2, HARD +0, WET -2; WET: WET +2, SOFT/HARD -2."""
    if weather == DRY_TRACK:
        return (2, 0, -2)[tyre]
    return 2 if tyre == WET else -2


def standard_move(roll: int, tyre: int, weather: int) -> tuple[int, bool]:
    """Spaces moved for one d6 and whether the car locked up: "The Calculation Formula Standard 6-sided
    dice roll + Tyre/Weather Modifier = Total Spaces Moved".

    "The Lock-up (Rolling a 1): If you roll a 1, you move exactly 3 spaces ... and miss your next full
    turn" (SOFT on a DRY track only: "The Lock-up penalty for Soft tyres does not apply in Wet
    conditions"). "The Minimum Movement Rule": never below 0.
    """
    if roll == 1 and tyre == SOFT and weather == DRY_TRACK:
        return 3, True
    return max(0, roll + tyre_modifier(tyre, weather)), False


def movement_roll(state: BRCState, first: int, second: int, events: list[Event]) -> None:
    """"At the start of your turn, check the current weather and your tyre compound": the roll moves the
    car on the main track or in the pit lane (Movement Rules); Sprint rolls two dice."""
    seat = state.mover
    if second:
        track_roll(state, seat, first, second, events, False)
        return
    flip = state.game.dynamic_weather and six_pair(state, seat, first)
    if state.pit_space[seat] >= 0:
        pit_lane_roll(state, seat, first, events, flip)
    else:
        track_roll(state, seat, first, 0, events, flip)


def track_roll(state: BRCState, seat: int, first: int, second: int, events: list[Event], flip: bool) -> None:
    """Movement on the main track: the tyre/weather table (or Sprint's 2d6), then the move, which may
    reach the Pit Entry (The Commitment, F1-A7; a drive-through is forced, F1-G9); ``flip``: this roll
    completes a Dynamic Weather pair (the weather flips once the move is worked out, F1-A13)."""
    game = state.game
    tyre = state.tyres[seat]
    if game.sprint:
        move, locked_up = sprint_move(first, second, tyre)
        if tyre == SOFT:
            state.counters[Counter.SPRINT_SOFT_ROLLS] += 1
            if locked_up:
                state.counters[Counter.SPRINT_LOCKUPS] += 1
    else:
        move, locked_up = game.move_table[tyre][state.weather][first]
    perks = state.perks[seat]
    if state.roll_modifier[seat] or locked_up or second:
        move, locked_up, perks = modified_roll(state, seat, first, second, move, locked_up, events)
    else:  # the plain roll, most of them
        events.append(roll_event(state, seat, first, second, move, 0, False, False))
    if flip:
        dynamic_weather_flip(state, events)
    at = state.distance[seat]
    state.no_overtaking = no_overtaking = bool(perks & NO_OVERTAKE)
    if no_overtaking:
        state.perks = replaced(state.perks, seat, perks & ~NO_OVERTAKE)
    state.move_locked_up = locked_up
    state.move_kind = MoveKind.MAIN_TRACK
    state.move_start = state.move_position = at
    state.move_target = at + move
    if move == 0:
        events.append(simple_event(state, "stay", seat, -1, "{me} does not move", "The Minimum Movement Rule"))
        end_move(state, events)
        return
    space = at % game.length
    entry = game.content.pit_entry_after
    if space <= entry < space + move and not locked_up and at >= 0:
        if must_pit(state, seat):
            events.append(Event("pit-forced", f"{name(seat)} has not pitted: it must take the pit lane "
                                "(drive-through)", "The Mandatory Pit Window (F1-G9)", {"seat": seat}))
            aim_for_pit_entry(state)
        else:
            state.stage = Stage.PIT_CHOICE
            return
    advance(state, events)


def modified_roll(state: BRCState, seat: int, first: int, second: int, move: int, locked_up: bool,
                  events: list[Event]) -> tuple[int, bool, int]:
    """A roll with a flag card's modifier or perk (F1-G5), a lock-up or Sprint's two dice: (move, lock-up,
    perks left). A standard lock-up moves exactly 3 whatever the card; a Sprint one completes its move."""
    saved = False
    perks = state.perks[seat]
    if locked_up:
        state.counters[Counter.LOCKUPS] += 1
        if perks & TYRE_SAVER:
            perks &= ~TYRE_SAVER
            state.perks = replaced(state.perks, seat, perks)
            locked_up, saved = False, True
    modifier = state.roll_modifier[seat]
    if modifier:  # spent on this roll
        state.roll_modifier = replaced(state.roll_modifier, seat, 0)
        if not locked_up or second:
            move = max(0, move + modifier)
    events.append(roll_event(state, seat, first, second, move, modifier, locked_up, saved))
    return move, locked_up, perks


def roll_event(state: BRCState, seat: int, first: int, second: int, move: int, modifier: int, locked_up: bool,
               saved: bool) -> Event:
    """The event of a main-track movement roll, made once per game: the dice, the tyre, the weather, the
    card modifier and a saved lock-up fix the move and the lock-up, so the same roll reads the same."""
    tyre, weather, sprint = state.tyres[seat], state.weather, state.game.sprint
    saver = state.game.effect_names["tyre-saver"] if saved else ""
    return state.game.event_cache.get(
        (seat, first, second, tyre, weather, modifier, saved),
        lambda: _make_roll_event(seat, first, second, tyre, weather, sprint, move, modifier, locked_up, saved, saver))


def _make_roll_event(seat: int, first: int, second: int, tyre: int, weather: int, sprint: bool, move: int,
                     modifier: int, locked_up: bool, saved: bool, saver: str) -> Event:
    """The roll's event; ``saver``: the name of the effect that saved a lock-up (the content's)."""
    shown = f"{first}+{second}" if sprint else str(first)
    text = (f"{name(seat)} rolls {shown} on {TYRE_NAMES[tyre].upper()} "
            f"({WEATHER_NAMES[weather]}{f', flag {modifier:+d}' if modifier else ''}): moves {move}")
    rule = "Sprint Tyre Modifiers" if sprint else "The Calculation Formula"
    if saved:
        text += f" (lock-up saved by {saver})"
    elif locked_up:
        text += ", LOCK-UP"
        rule = "Sprint Lock-up Penalty" if sprint else "The Lock-up"
    roll: object = [first, second] if sprint else first
    return Event("roll", text, rule, {"seat": seat, "roll": roll, "move": move, "lockup": locked_up})


# --- Occupying Spaces and The Overtaking Trigger ------------------------------------------------------------


def advance(state: BRCState, events: list[Event]) -> None:
    """Move space by space towards the target: "If your final movement count lands you exactly on an
    occupied space, you must stop in the unoccupied space immediately behind them" (the first free space
    behind, ``landing``); a car in the way before it triggers an overtake, closest first (F1-A6);
    off-track cars count as empty (F1-G10)."""
    seat = state.mover
    finish = state.game.finish_distance
    if state.move_kind == MoveKind.MAIN_TRACK and state.move_target >= finish:
        state.move_target = finish
    target = state.move_target
    strict = state.move_kind == MoveKind.INTO_PIT or target >= finish
    while True:
        position = state.move_position
        end = target if strict else landing(state, seat, position, target)
        car, offset = closest_ahead(state, position, end - position - (1 if strict else 0), seat)
        if car < 0:
            state.move_position = end
            if end < target:
                blocker = occupant(state, target % state.game.length, seat)
                text = ("{me} would land on {other}: stops behind" if end == target - 1 else
                        "{me} would land on {other}: stops in the first free space behind")
                events.append(simple_event(state, "blocked", seat, blocker, text, "Occupying Spaces"))
            break
        state.defender = car
        if state.no_overtaking:
            state.move_position = position + offset - 1
            events.append(Event("no-overtake", f"{name(seat)} may not overtake this turn: stops behind "
                                f"{name(car)}", "BRC flag card: no overtaking", {"seat": seat}))
            break
        state.stage = Stage.OVERTAKE
        return
    end_move(state, events)


def landing(state: BRCState, seat: int, position: int, target: int) -> int:
    """Occupying Spaces: where a move to ``target`` ends: the target, or if a car in action is on it, the
    unoccupied space immediately behind, further back past a queue of cars (issue 13, F1-X1: no overtake of the
    cars queued behind the one landed on is offered); never behind ``position``."""
    length = state.game.length
    end = target
    while end > position and occupant(state, end % length, seat) >= 0:
        end -= 1
    return end


def behind_defender(state: BRCState) -> int:
    """The space directly behind the Defender, as a distance along the mover's way."""
    length = state.game.length
    return state.move_position + (state.distance[state.defender] - state.move_position) % length - 1


# --- Challenger's Choice ------------------------------------------------------------------------------------


def challengers_choice(state: BRCState, attempt: bool, events: list[Event]) -> None:
    """Challenger's Choice: "Play it Safe: Stop your car in the space directly behind the Defender. Your
    turn ends." or "Attempt the Overtake: ... roll the Attack Die" (a DRS card passes automatically)."""
    seat, defender = state.mover, state.defender
    if not attempt:
        state.counters[Counter.PLAY_SAFE] += 1
        state.move_position = behind_defender(state)
        events.append(simple_event(state, "safe", seat, defender, "{me} plays it safe behind {other}",
                                   "Challenger's Choice: Play it Safe"))
        end_move(state, events)
        return
    state.counters[Counter.OVERTAKE_ATTEMPTS] += 1
    if state.perks[seat] & DRS:
        state.perks = replaced(state.perks, seat, state.perks[seat] & ~DRS)
        events.append(Event("drs", f"{name(seat)} uses DRS: the pass is automatic", "BRC flag card: DRS",
                            {"seat": seat}))
        overtake_passed(state, events)
        return
    state.stage = Stage.ATTACK


# --- The Attack Die and Securing the Spot -------------------------------------------------------------------


def attack_die(state: BRCState, face: AttackFace, events: list[Event]) -> None:
    """The Attack Die: Pass, Overtake failed ("Stop in the space immediately behind the Defender and lose
    all remaining movement") or Explosion (a collision)."""
    if face == AttackFace.PASS:
        overtake_passed(state, events)
    elif face == AttackFace.FAIL:
        state.move_position = behind_defender(state)
        events.append(simple_event(state, "fail", state.mover, state.defender,
                                   "{me} fails to pass {other} and stops behind", "Attack Die: Overtake failed"))
        end_move(state, events)
    else:
        collision(state, events)


def overtake_passed(state: BRCState, events: list[Event]) -> None:
    """Pass, then Securing the Spot: "If you successfully pass a Defender but the very next space is
    occupied by another car ... Move the car you just passed one space backward"; the move goes on."""
    seat, defender = state.mover, state.defender
    length = state.game.length
    state.counters[Counter.OVERTAKES] += 1
    spot = state.move_position + (state.distance[defender] - state.move_position) % length
    strict = state.move_kind == MoveKind.INTO_PIT or state.move_target >= state.game.finish_distance
    beyond = spot + 1 <= state.move_target - (1 if strict else 0)
    if beyond and occupant(state, (spot + 1) % length, seat) >= 0:
        drop_back(state, defender, seat, events)
        if state.pit_space[seat] >= 0:
            state.pit_space = replaced(state.pit_space, seat, -1)
        state.distance[seat] = spot
        events.append(simple_event(state, "pass", seat, defender, "{me} passes {other} and secures the spot; "
                                   "{other} drops back one space", "Securing the Spot"))
    else:
        events.append(simple_event(state, "pass", seat, defender, "{me} passes {other}", "Attack Die: Pass"))
    state.move_position = spot
    advance(state, events)


def drop_back(state: BRCState, car: int, mover: int, events: list[Event]) -> None:
    """Securing the Spot moves the passed car back one space; a car already there drops back too, in a
    chain (F1-A5). This is the only backwards movement caused by an overtake."""
    behind = occupant(state, (state.distance[car] - 1) % state.game.length, mover)
    if behind >= 0 and behind != car:
        drop_back(state, behind, mover, events)
    state.distance[car] -= 1


# --- Collisions: Immediate Stop, The Penalty, Safety Car Boost ----------------------------------------------


def collision(state: BRCState, events: list[Event]) -> None:
    """"Immediate Stop: Both the Attacker and the Defender stop exactly where they are. The Penalty: Both
    drivers miss their next full turn" (off track, F1-G10); then the safety car."""
    seat, defender = state.mover, state.defender
    state.counters[Counter.COLLISIONS] += 1
    state.move_position = behind_defender(state)
    events.append(Event("collision", f"{name(seat)} and {name(defender)} collide! Both miss their next turn",
                        "Collisions: Immediate Stop and The Penalty", {"seat": seat, "car": defender}))
    state.move_locked_up = False
    if state.move_kind == MoveKind.OUT_OF_PIT and state.move_position <= state.move_start:
        hold_at_pit_exit(state, seat)
    else:
        place(state, seat, state.move_position, events, move_origin(state))
        state.off_track = replaced(state.off_track, seat, True)
    state.turns_to_miss = replaced(state.turns_to_miss, seat, max(state.turns_to_miss[seat], 1))
    state.off_track = replaced(state.off_track, defender, True)
    state.turns_to_miss = replaced(state.turns_to_miss, defender, max(state.turns_to_miss[defender], 1))
    safety_car_boost(state, (seat, defender), events)
    next_turn(state, events)


def safety_car_boost(state: BRCState, involved: tuple[int, ...], events: list[Event]) -> None:
    """Safety Car Boost: "Every other car on the track (not involved in the crash) immediately moves
    forward 6 spaces" (F1-A4).

    The field moves at once: a car stops behind a car in action only where that car ends up after its
    own boost, so a car directly behind another is never held back by it (``safety_car_moves``). No
    overtakes, no flags, no pit entry; capped below the finish line unless ``safety_car=literal``. The
    cars are then placed in race order (laps count; a literal boost may finish cars, the car in front
    first).
    """
    state.counters[Counter.SAFETY_CARS] += 1
    moves = safety_car_moves(state, involved)
    moved = []
    for car in standings(state):
        spaces = moves.get(car, 0)
        if spaces > 0:
            moved.append(f"{name(car)} +{spaces}")
            place(state, car, state.distance[car] + spaces, events)
    events.append(Event("safety-car", "safety car: " + (", ".join(moved) or "no car can move"),
                        "Safety Car Boost", {"moved": moved}))


def safety_car_moves(state: BRCState, involved: tuple[int, ...]) -> dict[int, int]:
    """How far each boosted car moves (F1-A4): up to 6 (capped: to the last space before the finish line),
    but never onto or past the space where a car ahead of it ends its own boost. Every boosted car starts
    with its full allowance and is cut short behind the end of any car ahead, repeated until nothing
    changes: cars moving together keep their gaps (so a literal boost is always the full 6), and only a
    capped car near the line can hold up the cars behind it."""
    game = state.game
    length, finish = game.length, game.finish_distance
    cars = [car for car in range(len(state.distance)) if in_action(state, car)]
    moves: dict[int, int] = {}
    for car in cars:
        if car in involved:
            continue
        at = state.distance[car]
        limit = SAFETY_CAR_SPACES
        if at + limit >= finish and not game.literal_safety_car:
            limit = max(0, finish - 1 - at)
        moves[car] = limit
    changed = True
    while changed:
        changed = False
        for car, spaces in moves.items():
            at = state.distance[car]
            for other in cars:
                if other == car:
                    continue
                end = (state.distance[other] - at) % length + moves.get(other, 0)  # its end, seen from here
                if end <= spaces:
                    spaces = end - 1
            if spaces != moves[car]:
                moves[car] = spaces
                changed = True
    return moves


# --- Serving the Penalty, Occupied Space Rule, The Rejoin Move ----------------------------------------------


def serve_penalty_or_rejoin(state: BRCState, seat: int, events: list[Event]) -> bool:
    """Serving the Penalty, the Occupied Space Rule and the Rejoin Move: a car owing a turn misses it; an
    off-track car rejoins its space unless a car in action is there (then it misses another turn, F1-G10).
    True if the car takes its turn."""
    if state.turns_to_miss[seat] > 0:
        state.turns_to_miss = replaced(state.turns_to_miss, seat, state.turns_to_miss[seat] - 1)
        state.counters[Counter.SKIPPED_TURNS] += 1
        events.append(simple_event(state, "skip", seat, -1, "{me} misses a turn", "Serving the Penalty"))
        return False
    if state.off_track[seat]:
        blocker = occupant(state, state.distance[seat] % state.game.length, seat)
        if blocker >= 0:
            state.counters[Counter.SKIPPED_TURNS] += 1
            events.append(Event("skip", f"{name(seat)} cannot rejoin: {name(blocker)} is on its space; "
                                "misses another turn", "Occupied Space Rule", {"seat": seat}))
            return False
        state.off_track = replaced(state.off_track, seat, False)
        events.append(simple_event(state, "rejoin", seat, -1, "{me} rejoins the track", "The Rejoin Move"))
    return True


# --- The Mandatory Pit Window -------------------------------------------------------------------------------


def pit_window(laps: int) -> tuple[int, int] | None:
    """"Every driver must complete at least one pit stop between the start of Lap 2 and the end of Lap 7"
    (of 8): laps 2..laps-1 (F1-G9). Races shorter than 3 laps have no window."""
    if laps < 3:
        return None
    return 2, laps - 1


def box_lap(state: BRCState, seat: int) -> int:
    """The lap on which a car that took the Pit Entry at its ``distance`` passes its Pit Box: the entry's
    lap, or the next one for a box after the line (which crosses the pit lane, F1-G3)."""
    content = state.game.content
    after_line = content.pit_boxes[seat] > content.pit_line_after
    return lap_of(state.distance[seat] + (content.bypass_before_line if after_line else 0), content.length)


def last_entry_lap(state: BRCState, seat: int) -> int:
    """The last lap on which ``seat`` can take the Pit Entry and still pass its box inside the window (the
    window's last lap, or the lap before it for a box after the line); 0 without a window."""
    window = state.game.window
    if window is None:
        return 0
    content = state.game.content
    return window[1] - (1 if content.pit_boxes[seat] > content.pit_line_after else 0)


def must_pit(state: BRCState, seat: int) -> bool:
    """F1-G9 drive-through: unpitted on the last lap whose pit entry still completes the stop in the
    window (``last_entry_lap``) or later, the car must enter."""
    game = state.game
    return (game.window is not None and not game.stop_go and not state.window_stops[seat]
            and not state.penalised[seat] and lap(state, seat) >= last_entry_lap(state, seat))


def stop_go_check(state: BRCState, seat: int, old: int, new: int, events: list[Event]) -> None:
    """The Mandatory Pit Window with ``pit_penalty=stop-go`` (F1-G9): leaving the window without a stop,
    the car goes off track and misses 2 turns."""
    game = state.game
    window = game.window
    if window is None or not game.stop_go or state.window_stops[seat] or state.penalised[seat]:
        return
    length = game.length
    if lap_of(old, length) <= window[1] < lap_of(new, length):
        state.penalised = replaced(state.penalised, seat, True)
        state.turns_to_miss = replaced(state.turns_to_miss, seat, state.turns_to_miss[seat] + 2)
        if state.pit_space[seat] < 0:
            state.off_track = replaced(state.off_track, seat, True)
        state.counters[Counter.PENALTIES] += 1
        events.append(Event("penalty", f"{name(seat)} missed the pit window: stop-go, misses 2 turns",
                            "The Mandatory Pit Window (F1-G9: stop-go)", {"seat": seat}))


# --- The Commitment (Pit Entry) -----------------------------------------------------------------------------


def pit_entry_choice(state: BRCState, enter: bool, events: list[Event]) -> None:
    """The Commitment (Pit Entry): entering ends the move on the Pit Entry; staying out keeps the whole
    move (F1-A7)."""
    if enter:
        aim_for_pit_entry(state)
    else:
        events.append(simple_event(state, "stay-out", state.mover, -1, "{me} stays out",
                                   "The Commitment (Pit Entry)"))
    advance(state, events)


def aim_for_pit_entry(state: BRCState) -> None:
    """"To enter the pits, move your car onto the designated Pit Entry space. Your movement ends
    immediately": the move's target becomes the Pit Entry."""
    content = state.game.content
    at = state.distance[state.mover]
    state.move_kind = MoveKind.INTO_PIT
    state.move_target = at - at % content.length + content.pit_entry_after + 1


def enter_pit(state: BRCState, seat: int, at: int, events: list[Event]) -> None:
    """Pit Entry: the car moves onto the Pit Entry space (the stop counts for the window when the car
    passes its box, ``pit_stop``)."""
    state.pit_space = replaced(state.pit_space, seat, 0)
    state.distance[seat] = at
    entry_lap = lap_of(at, state.game.length)
    state.counters[Counter.PIT_STOPS] += 1
    events.append(Event("pit-entry", f"{name(seat)} enters the pit lane on lap {entry_lap}",
                        "The Commitment (Pit Entry)", {"seat": seat, "lap": entry_lap}))


# --- Pit Lane: Movement Rules -------------------------------------------------------------------------------


def pit_lane_roll(state: BRCState, seat: int, roll: int, events: list[Event], flip: bool) -> None:
    """Movement Rules: "While inside the Pit Lane, roll a single 6-sided dice. No tyre or weather modifiers
    are applied"; Pit Exit: "Modifiers are reapplied as soon as a roll would take your car past the Pit
    Exit line" (F1-A8; in Sprint the die stays single and takes the Sprint tyre modifier, SOFT +4 with a
    lock-up on a 1, F1-A9). Overtaking in the pits is automatic."""
    game = state.game
    content = game.content
    pit_space = state.pit_space[seat]
    locked_up = False
    rule = "Pit Lane: Movement Rules"
    if pit_space + roll <= content.pit_spaces:
        move = roll
    else:
        if game.sprint:
            move, locked_up = sprint_move(roll, 0, state.tyres[seat])
        else:
            move, locked_up = standard_move(roll, state.tyres[seat], state.weather)
        rule = "Pit Exit (Rejoining)"
        if locked_up:
            state.counters[Counter.LOCKUPS] += 1  # rolled, as on the main track, even if tyre-saver cancels it
            if state.perks[seat] & TYRE_SAVER:
                state.perks = replaced(state.perks, seat, state.perks[seat] & ~TYRE_SAVER)
                locked_up = False
        modifier = state.roll_modifier[seat]
        if modifier:
            state.roll_modifier = replaced(state.roll_modifier, seat, 0)
            if not locked_up or game.sprint:  # a Sprint lock-up completes its move, modifier included
                move = max(0, move + modifier)
    events.append(Event("roll", f"{name(seat)} rolls {roll} in the pit lane: moves {move}"
                        f"{', LOCK-UP' if locked_up else ''}", rule,
                        {"seat": seat, "roll": roll, "move": move, "lockup": locked_up}))
    if flip:
        dynamic_weather_flip(state, events)
    state.no_overtaking = bool(state.perks[seat] & NO_OVERTAKE)
    if state.no_overtaking:
        state.perks = replaced(state.perks, seat, state.perks[seat] & ~NO_OVERTAKE)
    state.move_locked_up = locked_up
    state.move_start = pit_space
    state.move_target = pit_space + move
    box = content.pit_boxes[seat]
    if pit_space < box <= pit_space + move:
        state.stage = Stage.PIT_BOX
        return
    pit_lane_move(state, events)


# --- The Pit Stop: Single Change Rule -----------------------------------------------------------------------


def pit_stop(state: BRCState, tyre: int, events: list[Event]) -> None:
    """The Pit Stop: "When you pass your Pit Box, you may change your tyre compound"; one change per pit
    entry (SOFT/HARD flip, or WET)."""
    seat = state.mover
    old = TYRE_NAMES[state.tyres[seat]].upper()
    if tyre == KEEP:
        events.append(Event("box", f"{name(seat)} passes its pit box and keeps {old}", "The Pit Stop",
                            {"seat": seat}))
    else:
        state.tyres = replaced(state.tyres, seat, tyre)
        word = TYRE_NAMES[tyre]
        events.append(Event("box", f"{name(seat)} changes {old} for {word.upper()}",
                            "The Pit Stop: Single Change Rule", {"seat": seat, "tyre": word}))
    count_window_stop(state, seat, events)
    pit_lane_move(state, events)


def count_window_stop(state: BRCState, seat: int, events: list[Event]) -> None:
    """The Mandatory Pit Window: "complete at least one pit stop between the start of Lap 2 and the end of
    Lap 7"; a stop is complete when the car passes its box, so the lap it passes the box on counts, not
    the lap it entered (issue 13). With ``pit_penalty=drive-through`` a first stop completed after the
    window is the penalty (F1-G9); with ``stop-go`` it is not: that penalty is for crossing the line out
    of the window without a completed stop (``stop_go_check``), and a car whose box is past the line
    crosses it before the box (in this very move, checked after the box, or an earlier one)."""
    game = state.game
    window = game.window
    if window is None:
        return
    stop_lap = box_lap(state, seat)
    if window[0] <= stop_lap <= window[1]:
        state.window_stops = replaced(state.window_stops, seat, state.window_stops[seat] + 1)
        events.append(Event("window-stop", f"{name(seat)}'s pit stop on lap {stop_lap} counts for the pit window",
                            "The Mandatory Pit Window", {"seat": seat, "lap": stop_lap}))
    elif (not game.stop_go and stop_lap > window[1] and not state.window_stops[seat]
          and not state.penalised[seat]):
        state.penalised = replaced(state.penalised, seat, True)
        state.counters[Counter.PENALTIES] += 1
        events.append(Event("penalty", f"{name(seat)}'s pit stop on lap {stop_lap} is after the window: "
                            "a drive-through penalty", "The Mandatory Pit Window (F1-G9)",
                            {"seat": seat, "lap": stop_lap}))


# --- Pit Exit (Rejoining) and The Weather Change space ------------------------------------------------------


def pit_lane_move(state: BRCState, events: list[Event]) -> None:
    """The move in the pit lane: the line (crossed between P4 and P5, F1-G3) counts laps and may finish the
    race; landing on the Weather Change space flips the weather; past the Pit Exit line the car rejoins
    the main track and may overtake there."""
    seat = state.mover
    game = state.game
    content = game.content
    old_space, new_space = state.move_start, state.move_target
    at = state.distance[seat]
    if old_space <= content.pit_line_after < new_space:
        line = at + content.bypass_before_line
        if line >= game.finish_distance:
            finish(state, seat, events)
            next_turn(state, events)
            return
        stop_go_check(state, seat, at, line, events)
    if new_space <= content.pit_spaces:
        state.pit_space = replaced(state.pit_space, seat, new_space)
        if new_space == content.weather_space and new_space != old_space and not game.sprint:
            flip_weather(state, f"{name(seat)} lands on the Weather Change space", "The Weather Change space",
                         events)
        next_turn(state, events)
        return
    state.move_kind = MoveKind.OUT_OF_PIT
    state.move_start = state.move_position = at + content.bypass - 1
    state.move_target = state.move_start + new_space - content.pit_spaces
    advance(state, events)


def move_origin(state: BRCState) -> int:
    """Where the move began, as a main-track distance for counting laps."""
    if state.move_kind == MoveKind.OUT_OF_PIT:
        return state.move_start + 1 - state.game.content.rejoin
    return state.move_start


def hold_at_pit_exit(state: BRCState, seat: int) -> None:
    """A car that cannot rejoin stays on the last pit-lane space, its Pit Entry distance kept (F1-G3)."""
    content = state.game.content
    state.pit_space = replaced(state.pit_space, seat, content.pit_spaces)
    state.distance[seat] = state.move_start + 1 - content.bypass


def flip_weather(state: BRCState, why: str, rule: str, events: list[Event]) -> None:
    """The Weather Change space: "the Track State is flipped (DRY <-> WET)", for every driver from their
    next turn (also Dynamic Weather's flip)."""
    state.weather = 1 - state.weather
    state.counters[Counter.WEATHER_FLIPS] += 1
    events.append(Event("weather", f"{why}: the track is now {WEATHER_NAMES[state.weather]}", rule,
                        {"weather": WEATHER_NAMES[state.weather]}))


# --- The end of a move: the pits, the line, the lock-up, the flags ------------------------------------------


def end_move(state: BRCState, events: list[Event]) -> None:
    """The move is over: enter the pits, wait at the pit exit, finish, lock up (off track, miss the next
    turn) or land on a flag."""
    seat = state.mover
    game = state.game
    position = state.move_position
    kind = state.move_kind
    if kind == MoveKind.INTO_PIT and position == state.move_target:
        enter_pit(state, seat, position, events)
        next_turn(state, events)
        return
    if kind == MoveKind.OUT_OF_PIT and position <= state.move_start:
        hold_at_pit_exit(state, seat)
        events.append(Event("held", f"{name(seat)} cannot rejoin yet and waits at the pit exit",
                            "Pit Exit (Rejoining) (F1-G3)", {"seat": seat}))
        if state.move_locked_up:
            state.turns_to_miss = replaced(state.turns_to_miss, seat, max(state.turns_to_miss[seat], 1))
        next_turn(state, events)
        return
    moved = position != state.move_start or kind == MoveKind.OUT_OF_PIT
    if place(state, seat, position, events, state.move_start if kind != MoveKind.OUT_OF_PIT else move_origin(state)):
        next_turn(state, events)
        return
    if state.move_locked_up:
        state.off_track = replaced(state.off_track, seat, True)
        state.turns_to_miss = replaced(state.turns_to_miss, seat, max(state.turns_to_miss[seat], 1))
        events.append(Event("lockup", f"{name(seat)} locks up: off the track, misses the next turn",
                            "Sprint Lock-up Penalty" if game.sprint else "The Lock-up", {"seat": seat}))
    elif moved and not state.off_track[seat]:
        colour = game.content.flag_colour[position % game.length]
        if colour and land_on_flag(state, seat, colour, events):
            return
    next_turn(state, events)


def place(state: BRCState, seat: int, new: int, events: list[Event], old: int | None = None) -> bool:
    """Put ``seat`` on main-track distance ``new`` (from ``old``): laps count (a stop-go if it leaves the
    pit window); True if that crossed the line and finished its race. With ``standings=current-position``
    only the first car across finishes: a second car carried over the line in the same safety-car boost
    is ranked by its current spot ("The race ends immediately when the winner crosses the line")."""
    if old is None:
        old = line_distance(state, seat)
    if state.pit_space[seat] >= 0:
        state.pit_space = replaced(state.pit_space, seat, -1)
    state.distance[seat] = new
    game = state.game
    if new > old and game.stop_go:
        stop_go_check(state, seat, old, new, events)
    if new >= game.finish_distance and (game.race_to_end or not state.finishing_order):
        finish(state, seat, events)
        return True
    return False


# --- Flag spaces: Trigger, The Action, Execution ------------------------------------------------------------


def land_on_flag(state: BRCState, seat: int, colour: str, events: list[Event]) -> bool:
    """Flag spaces: "Landing exactly on a space marked with a Green, Yellow, or Blue Flag icon triggers a
    Track Event. ... Draw the top card from the BRC deck" (a chance node while unseen cards remain,
    F1-G5); True if the draw waits for chance."""
    state.flag_colour = colour
    state.counters[Counter.FLAG_CARDS] += 1
    events.append(Event("flag", f"{name(seat)} lands on a {colour} flag", "Flag spaces: Trigger",
                        {"seat": seat, "colour": colour}))
    if any(state.unseen_cards):
        state.stage = Stage.FLAG
        return True
    card = state.bottom_cards[0]
    state.bottom_cards = (*state.bottom_cards[1:], card)
    resolve_card(state, seat, card, events)
    return False


def draw_flag_card(state: BRCState, card: int, events: list[Event]) -> None:
    """The Action: the card drawn (one of the unseen ones) is resolved and goes to the bottom."""
    state.unseen_cards = replaced(state.unseen_cards, card, state.unseen_cards[card] - 1)
    state.bottom_cards = (*state.bottom_cards, card)
    resolve_card(state, state.mover, card, events)
    next_turn(state, events)


def resolve_card(state: BRCState, seat: int, card: int, events: list[Event]) -> None:
    """Execution: "Read and follow only the instruction that matches the color of the space you landed
    on. Once resolved, place the card at the bottom of the deck"."""
    game = state.game
    card_id = game.content.card_ids[card]
    colour = state.flag_colour
    effect = game.card_effects[card][colour]
    events.append(Event("card", f"Flag card {game.card_names[card]}, {colour} line: {game.line_words[card][colour]}",
                        "Flag spaces: Execution", {"seat": seat, "card": card_id,
                                                   "colour": colour, "effect": effect.text}))
    card_effect(state, seat, effect, events)


def card_effect(state: BRCState, seat: int, effect: CardEffect, events: list[Event]) -> None:
    """One line of a BRC flag card (F1-G5)."""
    rule = "BRC flag card"
    kind = effect.kind
    if kind == Effect.NONE:
        return
    if kind == Effect.MOVE:
        free_move(state, seat, effect.amount, events)
    elif kind == Effect.MOVE_BACK:
        move_back(state, seat, effect.amount, events)
    elif kind == Effect.ROLL:
        modifier = effect.amount
        state.roll_modifier = replaced(state.roll_modifier, seat, state.roll_modifier[seat] + modifier)
        events.append(Event("card-effect", f"{name(seat)}'s next roll {modifier:+d}", rule, {"seat": seat}))
    elif kind in PERK_OF_EFFECT:
        state.perks = replaced(state.perks, seat, state.perks[seat] | PERK_OF_EFFECT[kind])
        events.append(Event("card-effect", f"{name(seat)} gets {state.game.effect_names[kind.value]}", rule,
                            {"seat": seat}))
    elif kind == Effect.LET_BY:
        let_by(state, seat, events)
    elif kind == Effect.BLUE_MISS:
        if standings(state)[0] == seat:
            events.append(Event("card-effect", f"{name(seat)} leads and ignores the blue flag", rule,
                                {"seat": seat}))
        else:
            state.turns_to_miss = replaced(state.turns_to_miss, seat, state.turns_to_miss[seat] + 1)
            events.append(Event("card-effect", f"{name(seat)} misses its next turn", rule, {"seat": seat}))


def free_move(state: BRCState, seat: int, spaces: int, events: list[Event]) -> None:
    """A flag-card move: up to ``spaces``, stopping behind any car in action; no overtakes or flags."""
    at = state.distance[seat]
    finish_at = state.game.finish_distance
    crossing = at + spaces >= finish_at
    car, offset = closest_ahead(state, at, finish_at - at - 1 if crossing else spaces, seat)
    moved = (finish_at - at if crossing else spaces) if car < 0 else offset - 1
    events.append(Event("card-effect", f"{name(seat)} moves {moved} of {spaces}", "BRC flag card",
                        {"seat": seat, "move": moved}))
    if moved > 0:
        place(state, seat, at + moved, events)


def move_back(state: BRCState, seat: int, spaces: int, events: list[Event]) -> None:
    """A flag-card move back: ``spaces``, or further back to the first free space."""
    length = state.game.length
    new = state.distance[seat] - spaces
    while occupant(state, new % length, seat) >= 0:
        new -= 1
    back = state.distance[seat] - new
    state.distance[seat] = new
    events.append(Event("card-effect", f"{name(seat)} drops back {back} to space {new % length}",
                        "BRC flag card", {"seat": seat, "move": -back}))


def let_by(state: BRCState, seat: int, events: list[Event]) -> None:
    """Blue flag: the car directly behind (in action) swaps places with this one."""
    behind = occupant(state, (state.distance[seat] - 1) % state.game.length, seat)
    if behind < 0:
        events.append(Event("card-effect", f"no car directly behind {name(seat)}", "BRC flag card",
                            {"seat": seat}))
        return
    state.distance[seat] -= 1
    events.append(Event("card-effect", f"{name(seat)} lets {name(behind)} through", "BRC flag card",
                        {"seat": seat, "car": behind}))
    place(state, behind, state.distance[behind] + 1, events)


# --- Crossing the Line and Final Standings ------------------------------------------------------------------


def finish(state: BRCState, seat: int, events: list[Event]) -> None:
    """Crossing the Line: "Any movement that takes your car on or past the finish line counts as
    finishing the race"; the car leaves the track (F1-A16)."""
    state.finished = replaced(state.finished, seat, True)
    state.finishing_order = (*state.finishing_order, seat)
    state.distance[seat] = max(state.distance[seat], state.game.finish_distance)
    state.pit_space = replaced(state.pit_space, seat, -1)
    state.off_track = replaced(state.off_track, seat, False)
    state.turns_to_miss = replaced(state.turns_to_miss, seat, 0)
    place_number = len(state.finishing_order)
    text = "wins the race" if place_number == 1 else f"finishes in position {place_number}"
    events.append(Event("finish", f"{name(seat)} {text}", "Crossing the Line",
                        {"seat": seat, "place": place_number}))


# --- Sprint mode --------------------------------------------------------------------------------------------


def sprint_move(first: int, second: int, tyre: int) -> tuple[int, bool]:
    """Sprint Tyre Modifiers: 2d6; "SOFT Tyres: +4 Modifier. Risk: Lock-up if either D6 die shows a 1"
    (Sprint Lock-up Penalty: the move is completed); HARD +0."""
    if tyre == SOFT:
        return first + second + 4, first == 1 or second == 1
    return first + second, False


# --- Dynamic Weather ----------------------------------------------------------------------------------------


def six_pair(state: BRCState, seat: int, roll: int) -> bool:
    """Dynamic Weather: "If any two players roll a 6 on their movement die consecutively ... the weather
    state immediately flips": True if this movement roll is the second of two consecutive 6s by different
    players. Each consecutive pair counts, so this 6 can also start the next pair: three 6s in a row flip
    the weather twice (F1-A11, issue 13). The caller flips the weather once the roll's move is known: the
    roll was made on the weather at the start of the turn (F1-A13)."""
    if roll != 6:
        state.last_six_roller = -1
        return False
    pair = state.last_six_roller >= 0 and state.last_six_roller != seat
    state.last_six_roller = seat
    return pair


def dynamic_weather_flip(state: BRCState, events: list[Event]) -> None:
    """Dynamic Weather's flip (DRY <-> WET)."""
    state.counters[Counter.DYNAMIC_WEATHER_FLIPS] += 1
    flip_weather(state, "two 6s in a row", "Dynamic Weather", events)
