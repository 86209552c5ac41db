"""Scrap Racer, the rules: small functions in the order of the rulebook (../shared/rules/scrap-racer.txt).

Each function changes a ``ScrapState`` (a fresh copy, private to the ``apply`` that made it) by the copy
rule of ``slipstream.engine.fields``, appends the events it causes to ``events``, and cites its section of
the rulebook. Rule decisions (SR-* ids) are in docs/rules/scrap-racer.md.

A turn: roll dice until the player stops or rolls a double; A) move (bonus cards before and after),
the racer's ability, fights; or B) a crash card and a bonus marker; then crossings of the finish line,
the refill of boost spaces, collecting a boost marker, and the next turn. Everything after the dice
resolves through the state's ``queue`` of steps (``run_queue``), pausing at each chance node.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from slipstream.engine.chance import DIE_OUTCOMES, DIE_TABLE, ChanceTable
from slipstream.engine.fields import replaced
from slipstream.engine.game import CHANCE, Event, EventCache

from . import notation
from .content import BOOST_TYPES
from .types import (
    ABILITY_STEP,
    BONUS_MARKER_STEPS,
    COLLECT_STEP,
    CROSSINGS_STEP,
    END_STEP,
    FIGHTS_STEPS,
    NOTHING_NEEDED,
    REFILL_STEP,
    REVEAL_STEPS,
    Action,
    BoostType,
    BoostUse,
    CrashEffect,
    Deck,
    DeckCounts,
    Kind,
    Need,
    NeedKind,
    Stage,
    StepKind,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .state import ScrapState

RULE_SETUP_DASHBOARDS = "Setup 7)"
RULE_SETUP_START = "Setup 8)"
RULE_PLAYING = "Playing the Game"
RULE_ROLL = "Roll the dice"
RULE_BOOST = "Boost markers"
RULE_MOVE = "A) Move the Racer, 1) Dice results and bonus cards"
RULE_BONUS_CARDS = "Bonus cards"
RULE_ABILITY = "Racer abilities"
RULE_FIGHT = "A) Move the Racer, 3) Fight"
RULE_CRASH = "B) Doubles Rolled, 1st Draw a crash card"
RULE_MARKER = "B) Doubles Rolled, 2nd Taking a bonus marker"
RULE_CROSS = "Crossing the finish line, 1)"
RULE_REFILL = "Crossing the finish line, 2)"
RULE_COLLECT = "Collecting Boost markers"
RULE_END = "End of the game and Awards Ceremony"
RULE_TEAM = "Changes in a 2-player game"

MOVE_ABILITIES: Final = frozenset(("steel-jacket", "swifty", "twister", "crusher"))
"""The abilities checked after a racer's own move (the others act in fights or on bonus markers)."""
MAX_DICE: Final = 6
"""Up to six dice a turn: the sixth is kept."""
LAPS_TO_FINISH: Final = 3

EVENTS: Final = EventCache()
"""The events that recur with the same content (a die roll, the start of a turn), each made once."""


def increased(counts: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    """``counts`` with ``amount`` added to entry ``index`` (a new tuple: the copy rule's change of one count)."""
    return replaced(counts, index, counts[index] + amount)


# --- What a position says ----------------------------------------------------------------------------

def racer_space(state: ScrapState, racer: int) -> int:
    """The 0-based space of an on-track racer."""
    return (state.progress[racer] - 1) % state.game.length


def on_track(state: ScrapState, racer: int) -> bool:
    return state.progress[racer] > 0


def active_racer(state: ScrapState) -> int:
    """The racer slot whose turn it is."""
    return state.order[state.turn]


def standings(state: ScrapState) -> list[int]:
    """Racers from first to last: by progress; racers not yet on the track by turn order."""
    progress = state.progress
    n = len(progress)
    if len(state.order) == n:  # a stable sort keeps the turn order among racers with equal progress
        return sorted(state.order, key=progress.__getitem__, reverse=True)
    rank = {racer: i for i, racer in enumerate(state.order)}
    return sorted(range(n), key=lambda racer: (-progress[racer], rank.get(racer, n + racer)))


def roller(state: ScrapState) -> int | list[int] | None:
    """Whose roll or draw the chance node is (the view's ``roller``): the seat whose racer rolls its die,
    draws a crash, goal or bonus card, reveals a boost marker or is dealt a dashboard; both seats of a
    fight, in the order ``fight:A-B`` reads them; None for the start-player draw (nobody's roll) and when
    the state is not at a chance node."""
    if state.actor != CHANCE:
        return None
    need = state.need
    kind = need.kind
    if state.stage is Stage.SETUP:
        return state.owner[state.racer.index("")] if kind is NeedKind.RACER else None
    if state.stage is Stage.ROLL:
        return state.owner[active_racer(state)]
    if kind is NeedKind.FIGHT:
        return [state.owner[need.racer], state.owner[need.other]]
    if kind is NeedKind.BONUS_CARD:
        return need.seat
    if kind is NeedKind.GOAL_CARD or kind is NeedKind.BOOST_MARKER:
        return state.owner[need.racer]
    return state.owner[active_racer(state)]  # a crash card and its dice


# --- Setup --------------------------------------------------------------------------------------------

def racer_names(state: ScrapState) -> tuple[str, ...]:
    """Every slot's racer name, for ``names`` (set whenever ``racer`` changes, during setup)."""
    names = state.game.racer_names
    return tuple(names.get(rid) or f"racer {racer + 1}" for racer, rid in enumerate(state.racer))


def setup_draw(state: ScrapState, action: Action, events: list[Event]) -> None:
    """Setup 7) each player draws a dashboard at random; 8) a random start player (SR-G8)."""
    game = state.game
    if action.kind == Kind.RACER:
        slot = state.racer.index("")
        state.racer = replaced(state.racer, slot, action.name)
        state.names = racer_names(state)
        events.append(Event("setup", f"{game.seat_name(state.owner[slot])} draws the dashboard of {state.names[slot]}",
                            RULE_SETUP_DASHBOARDS))
    else:
        state.start_seat = action.dice[0]
        events.append(Event("setup", f"{game.seat_name(state.start_seat)} is the start player", RULE_SETUP_START))
    next_setup_step(state, events)


def next_setup_step(state: ScrapState, events: list[Event]) -> None:
    """Setup: move on once every dashboard is drawn and the start player is known; play goes clockwise
    from the start player (the team game chooses its order during play: ``choose_first_racer``)."""
    if "" in state.racer:
        state.need = Need(NeedKind.RACER)
        return
    if state.start_seat < 0:
        state.need = Need(NeedKind.START_PLAYER)
        return
    game = state.game
    if game.per_player == 1:
        seats = ((state.start_seat + k) % game.players for k in range(game.players))
        state.order = tuple(racer for seat in seats for racer in game.racers_of(seat))
        begin_turn(state, events)
    else:
        state.stage = Stage.ORDER


# --- Playing the Game ---------------------------------------------------------------------------------

@EVENTS.memo
def turn_event(round_number: int, name: str, seat_name: str) -> Event:
    """The event that opens a racer's turn (made once per round, racer and seat)."""
    return Event("turn", f"Round {round_number}: {name} ({seat_name}) to play", RULE_PLAYING)


def clear_turn(state: ScrapState) -> None:
    """A new turn holds no dice, no move and nothing queued yet."""
    state.dice = ()
    state.die = 0
    state.passed = False
    state.moved = ()
    state.crossed = False
    state.queue = ()


def begin_turn(state: ScrapState, events: list[Event]) -> None:
    """Playing the Game: the racers take turns clockwise, starting with the start player."""
    if state.turn >= len(state.order):
        state.stage = Stage.ORDER
        return
    clear_turn(state)
    state.stage = Stage.ROLL
    racer = state.order[state.turn]
    events.append(turn_event(state.round, state.names[racer], state.game.seat_names[state.owner[racer]]))


# --- Roll the dice ------------------------------------------------------------------------------------

DIE_ACTIONS: Final = tuple(action for action, _ in DIE_OUTCOMES)
ROLL_OR_STOP: Final = (notation.ROLL_AGAIN, notation.STOP)
ONLY_STOP: Final = (notation.STOP,)
ONLY_CRASH: Final = (notation.ACCEPT_CRASH,)


@EVENTS.memo
def die_event(name: str, nth: int, face: int) -> Event:
    """The event of a die roll (``nth``: 1 for the first die, ..., 0 for a re-roll), made once per racer,
    die and face."""
    return Event("die", f"{name} {f'rolls die {nth}:' if nth else 're-rolls'} {face}",
                 RULE_ROLL if nth else RULE_BOOST, MappingProxyType({"die": face}))


def roll_die(state: ScrapState, face: int, events: list[Event]) -> None:
    """Roll the dice: the active player rolls one die and checks the result."""
    nth = 0 if state.die else len(state.dice) + 1  # 0: a re-roll
    state.die = face
    events.append(die_event(state.names[state.order[state.turn]], nth, face))
    check_die(state, events)


def double_chance(state: ScrapState) -> float:
    """The chance that the next die rolled makes a double, before boost markers."""
    kept = set(state.dice)
    if state.die:
        kept.add(state.die)
    return len(kept) / 6


def holds_boost_markers(state: ScrapState, racer: int) -> bool:
    return any(state.boost_markers[racer])


def check_die(state: ScrapState, events: list[Event]) -> None:
    """Roll the dice: a double ends the rolling (B); the sixth die is kept; otherwise roll on or stop.
    A player holding boost markers may change the die first, so is asked before the check."""
    if holds_boost_markers(state, state.order[state.turn]):
        state.stage = Stage.DECIDE
    elif state.die in state.dice:  # a double
        begin_crash(state, events)
    elif len(state.dice) == MAX_DICE - 1:
        keep_dice(state, events)
    else:
        state.stage = Stage.DECIDE


BOOST_DOWN: Final = notation.boost(BoostUse.DOWN)
BOOST_REROLL: Final = notation.boost(BoostUse.REROLL)
BOOST_TURN: Final = notation.boost(BoostUse.TURN)
BOOST_UP: Final = notation.boost(BoostUse.UP)


def decision_actions(state: ScrapState) -> Sequence[str]:
    """Roll the dice and Boost markers: after a die, change it with a boost marker, or accept it (a double:
    the crash card; else roll again or stop; the sixth die: stop). Sorted, as the legal actions."""
    if state.die in state.dice:  # a double
        accept: Sequence[str] = ONLY_CRASH
    elif len(state.dice) == MAX_DICE - 1:
        accept = ONLY_STOP
    else:
        accept = ROLL_OR_STOP
    held = state.boost_markers[state.order[state.turn]]
    if not any(held):
        return accept
    die = state.die
    boosts = []
    if held[BoostType.PLUS_MINUS] and die > 1:
        boosts.append(BOOST_DOWN)
    if held[BoostType.REROLL]:
        boosts.append(BOOST_REROLL)
    if held[BoostType.TURN]:
        boosts.append(BOOST_TURN)
    if held[BoostType.PLUS_MINUS] and die < 6:
        boosts.append(BOOST_UP)
    return [*boosts, *accept]


def decide(state: ScrapState, action: Action, events: list[Event]) -> None:
    """Roll the dice: use a boost marker on the die, roll another die, stop and move, or take the crash."""
    kind = action.kind
    if kind == Kind.BOOST and action.use is not None:
        use_boost_marker(state, state.order[state.turn], action.use, events)
    elif kind == Kind.ROLL_AGAIN:
        state.dice = (*state.dice, state.die)
        state.die = 0
        state.stage = Stage.ROLL
    elif kind == Kind.STOP:
        keep_dice(state, events)
    else:  # ACCEPT_CRASH
        begin_crash(state, events)


@EVENTS.memo
def keep_event(name: str, dice: tuple[int, ...]) -> Event:
    """The event of keeping the dice (made once per racer and dice)."""
    return Event("keep", f"{name} keeps {' + '.join(map(str, dice))} = {sum(dice)}", RULE_ROLL,
                 MappingProxyType({"dice": list(dice)}))


def keep_dice(state: ScrapState, events: list[Event]) -> None:
    """Roll the dice: the player stops and keeps the dice: A) Move the Racer."""
    state.dice = (*state.dice, state.die)
    state.die = 0
    events.append(keep_event(state.names[state.order[state.turn]], state.dice))
    state.stage = Stage.CARDS
    open_bonus_card_window(state, events)


# --- Boost markers ------------------------------------------------------------------------------------

BOOST_OF_USE: Final = {BoostUse.UP: BoostType.PLUS_MINUS, BoostUse.DOWN: BoostType.PLUS_MINUS,
                       BoostUse.REROLL: BoostType.REROLL, BoostUse.TURN: BoostType.TURN}


def give_boost_markers(state: ScrapState, racer: int, boost: int, count: int) -> None:
    """``racer`` gains ``count`` boost markers of one type (a negative ``count`` gives them up)."""
    held = state.boost_markers[racer]
    state.boost_markers = replaced(state.boost_markers, racer, increased(held, boost, count))


def use_boost_marker(state: ScrapState, racer: int, use: BoostUse, events: list[Event]) -> None:
    """Boost markers: used on the die just rolled, before the doubles check, then removed from the game.
    Re-roll: only the new result counts; +/- 1: never from 6 to 1 or back; Turn: the opposite face."""
    give_boost_markers(state, racer, BOOST_OF_USE[use], -1)
    state.boost_markers_used += 1
    if use == BoostUse.REROLL:
        events.append(Event("boost", f"{state.names[racer]} uses a Re-roll marker", f"{RULE_BOOST}: Re-roll"))
        state.stage = Stage.ROLL
        return
    old = state.die
    state.die = old + 1 if use == BoostUse.UP else old - 1 if use == BoostUse.DOWN else 7 - old
    label = "Turn" if use == BoostUse.TURN else "+/- 1"
    events.append(Event("boost", f"{state.names[racer]} uses a {label} marker: {old} becomes {state.die}",
                        f"{RULE_BOOST}: {label}", {"die": state.die}))
    check_die(state, events)


# --- A) Move the Racer, 1) Dice results and bonus cards -----------------------------------------------

FORWARD_CARDS: Final = {"forward-3": 3, "forward-5": 5, "forward-7": 7}
"""Bonus cards that move a fixed number of spaces."""
NEXT_SPACE_CARDS: Final = {"straight": "S", "curve": "C"}
"""Bonus cards that move to the next space of a kind (S straight, C curve); ``catch-up`` moves to the next
racer ahead."""


def open_bonus_card_window(state: ScrapState, events: list[Event]) -> None:
    """1) Bonus cards may be played before and after the dice move; a seat without any is not asked.

    The window opens whenever the seat holds a card (public: the number of cards is open), so that it
    tells no other seat whether the cards held can be played now.
    """
    if holds_bonus_cards(state, state.owner[state.order[state.turn]]):
        return
    if state.stage == Stage.CARDS:
        dice_move(state, events)
    after_move(state, events)


def bonus_card_actions(state: ScrapState) -> list[str]:
    """1) Before the dice move: move, or play a card; after it: done, or play a card. Sorted, as the legal
    actions."""
    plays = [notation.play_card(card) for card in playable_cards(state, state.owner[active_racer(state)])]
    return [notation.MOVE if state.stage is Stage.CARDS else notation.DONE, *plays]


def holds_bonus_cards(state: ScrapState, seat: int) -> bool:
    return any(state.bonus_cards[seat])


def playable_cards(state: ScrapState, seat: int) -> list[str]:
    """1) The bonus cards ``seat`` may play now: those it holds that can move the active racer."""
    hand = state.bonus_cards[seat]
    if not any(hand):
        return []
    racer = active_racer(state)
    return [card for card, n in zip(state.game.bonus_deck.cards, hand, strict=True)
            if n and card_target(state, racer, card) is not None]


def card_target(state: ScrapState, racer: int, card: str) -> int | None:
    """Overview of Cards, bonus cards: the progress a card takes ``racer`` to, or None when it cannot be
    played (a fixed number of spaces; the next straight or curve; Catch up: the next racer ahead)."""
    progress = state.progress[racer]
    forward = FORWARD_CARDS.get(card)
    if forward is not None:
        return progress + forward
    track = state.game.track
    length = track.length
    kind = NEXT_SPACE_CARDS.get(card)
    if kind is not None:
        for step in range(1, length + 1):
            if track.kinds[(progress + step - 1) % length] == kind:
                return progress + step
        return None
    here = (progress - 1) % length
    best = None
    for other in range(len(state.progress)):
        if other != racer and state.progress[other] > 0:
            gap = (racer_space(state, other) - here) % length
            if gap and (best is None or gap < best):
                best = gap
    return None if best is None else progress + best


def bonus_card_window(state: ScrapState, action: Action, events: list[Event]) -> None:
    """1) Play a bonus card (a hidden card, then discarded), move by the dice, or close the window."""
    racer = active_racer(state)
    kind = action.kind
    if kind == Kind.PLAY_CARD:
        play_bonus_card(state, racer, action.name, events)
    elif kind == Kind.MOVE:
        dice_move(state, events)
        state.stage = Stage.CARDS_AFTER
        open_bonus_card_window(state, events)
    else:  # DONE
        after_move(state, events)


def play_bonus_card(state: ScrapState, racer: int, card: str, events: list[Event]) -> None:
    """Bonus cards: the active racer moves by the card; when the seat holds no more cards the window
    closes (the dice move follows if it has not been made)."""
    game = state.game
    seat = state.owner[racer]
    deck = game.bonus_deck
    i = deck.cards.index(card)
    hand = state.bonus_cards[seat]
    state.bonus_cards = replaced(state.bonus_cards, seat, increased(hand, i, -1))
    counts = state.decks[deck.index]
    state.decks = replaced(state.decks, deck.index, DeckCounts(counts.draw, increased(counts.discard, i, 1)))
    state.bonus_cards_played += 1
    target = card_target(state, racer, card)
    if target is None:  # pragma: no cover - only playable cards are legal
        raise RuntimeError(f"bonus card {card} has no target")
    events.append(Event("bonus-card", f"{state.names[racer]} plays the bonus card {game.card_title(card)}",
                        RULE_BONUS_CARDS, {"card": card}))
    move_forward(state, racer, target - state.progress[racer], events, own_turn=True)
    if not holds_bonus_cards(state, seat):
        if state.stage == Stage.CARDS:
            dice_move(state, events)
        after_move(state, events)


def dice_move(state: ScrapState, events: list[Event]) -> None:
    """1) The racer moves forward by the sum of the dice kept."""
    move_forward(state, state.order[state.turn], sum(state.dice), events, own_turn=True)
    state.stage = Stage.CARDS_AFTER


def after_move(state: ScrapState, events: list[Event]) -> None:
    """A) after the move: 2) the racer's ability, 3) fights, then the finish line, boost spaces, the end."""
    racer = state.order[state.turn]
    state.queue = (ABILITY_STEP, FIGHTS_STEPS[racer], CROSSINGS_STEP, REFILL_STEP,
               COLLECT_STEP, END_STEP)
    run_queue(state, events)


def move_forward(state: ScrapState, racer: int, spaces: int, events: list[Event], own_turn: bool = False,
                 rule: str = RULE_MOVE) -> None:
    """1) Move ``racer`` forward ``spaces`` spaces, counting occupied spaces too; a racer behind the line
    enters the track (its first space is space 1)."""
    if spaces <= 0:
        return
    start = state.progress[racer]
    end = start + spaces
    state.progress[racer] = end
    note_moved(state, racer)
    if own_turn and not state.passed:
        state.passed = passes_someone(state, racer, start, end)
    where = "enters the track and " if start == 0 else ""
    space = (end - 1) % state.game.length + 1
    events.append(Event("move", f"{state.names[racer]} {where}moves {spaces} forward to space {space}", rule,
                        {"racer": state.racer[racer], "from": start, "to": end}))


def note_moved(state: ScrapState, racer: int) -> None:
    """Note that ``racer`` moved: of racers sharing a space, the one moved last is the one that moved in."""
    moved = state.moved
    if not moved:
        state.moved = (racer,)  # the turn's first move, most often its only mover
    elif moved[-1] != racer:
        state.moved = (*(x for x in moved if x != racer), racer)


def passes_someone(state: ScrapState, racer: int, start: int, end: int) -> bool:
    """Does a move from ``start`` to ``end`` pass (not land on) a space with another racer (Twister,
    Crusher)?

    The space it leaves counts too (SR-A4): it is shared only after an earlier move of this turn
    (Catch up), and moving on passes that racer. A racer entering the track leaves no space.
    """
    length = state.game.length
    distance = end - start
    low = 0 if start > 0 else 1
    progress = state.progress
    for other in range(len(progress)):
        ahead = progress[other]
        if other != racer and ahead > 0 and (distance > length or low <= (ahead - start) % length < distance):
            return True
    return False


def move_backward(state: ScrapState, racer: int, spaces: int, events: list[Event], rule: str) -> None:
    """Crash cards: move back ``spaces`` spaces, never behind the finish line (SR-A1); off-track racers stay."""
    start = state.progress[racer]
    if start == 0 or spaces <= 0:
        return
    length = state.game.length
    floor = (start - 1) // length * length + 1
    state.progress[racer] = max(start - spaces, floor)
    moved = start - state.progress[racer]
    if moved:
        note_moved(state, racer)
    note = " (stopped at the finish line)" if moved < spaces else ""
    events.append(Event("move", f"{state.names[racer]} moves {moved} back to space {racer_space(state, racer) + 1}"
                        f"{note}", rule, {"racer": state.racer[racer], "from": start, "to": state.progress[racer]}))


# --- Turn overview: the steps after the dice, in order ------------------------------------------------

def run_queue(state: ScrapState, events: list[Event]) -> None:
    """Turn overview: resolve the queued steps until one waits for a chance outcome or a choice, or the
    turn ends."""
    state.stage = Stage.RESOLVING
    while state.queue:
        step = state.queue[0]
        state.queue = state.queue[1:]
        kind = step.kind
        if kind is StepKind.ABILITY:  # the steps of every turn first, in their order, then the others
            racer_ability(state, events)
        elif kind is StepKind.FIGHTS:
            if next_fight(state, step.racer, events):
                return
        elif kind is StepKind.CROSSINGS:
            if next_crossing(state, events):
                return
        elif kind is StepKind.REFILL:
            if state.crossed:
                refill_boost_spaces(state, events)
        elif kind is StepKind.COLLECT:
            if reveal_boost_marker(state, state.order[state.turn]):  # the active racer collects a boost marker
                return
        elif kind is StepKind.END:
            end_turn(state, events)
            return
        elif kind is StepKind.BONUS_MARKER:
            if take_bonus_marker(state, step.racer, events):
                return
        elif kind is StepKind.REVEAL and reveal_boost_marker(state, step.racer):
            return


def wait_for(state: ScrapState, need: Need) -> bool:
    """Pause the queue for a chance outcome (always True: the queue waits)."""
    state.need = need
    state.stage = Stage.RESOLVING
    return True


def chance_outcome(state: ScrapState, action: Action, events: list[Event]) -> None:
    """A chance outcome arrived for the step that waits for it; then the queue resumes."""
    need = state.need
    kind = need.kind
    waiting = False
    if kind == NeedKind.FIGHT:
        waiting = fight_roll(state, need.racer, need.other, action.dice, events)
    elif kind == NeedKind.CRASH_CARD:
        waiting = crash_card(state, need.pile, action.name, events)
    elif kind == NeedKind.TWO_DICE:
        two_dice_roll(state, action.dice, events)
    elif kind == NeedKind.BACKWARDS_DIE:
        backwards_die_roll(state, action.dice[0], events)
    elif kind == NeedKind.BONUS_CARD:
        bonus_card_drawn(state, need.seat, action.name, events)
    elif kind == NeedKind.GOAL_CARD:
        goal_card(state, need.racer, action.name, events)
    else:  # NeedKind.BOOST_MARKER
        boost_marker_revealed(state, need.racer, need.boost_space, action.name, events)
    if not waiting:
        run_queue(state, events)


# --- A) Move the Racer, 2) The racer's ability --------------------------------------------------------

def racer_ability(state: ScrapState, events: list[Event]) -> None:
    """2) The racer's ability, checked after the move (never on a crash turn); Racer abilities: Steel
    Jacket ends on a straight, Swifty on a curve: one more space; Twister passed a racer: one more space;
    Crusher passed a racer: a bonus marker."""
    racer = state.order[state.turn]
    ability = state.racer[racer]
    if ability not in MOVE_ABILITIES or not on_track(state, racer):
        return
    kind = state.game.track.kinds[racer_space(state, racer)]
    if (ability == "steel-jacket" and kind == "S") or (ability == "swifty" and kind == "C"):
        move_forward(state, racer, 1, events, rule=f"{RULE_ABILITY}: {state.names[racer]}")
    elif ability == "twister" and state.passed:
        move_forward(state, racer, 1, events, rule=f"{RULE_ABILITY}: Twister")
    elif ability == "crusher" and state.passed:
        events.append(Event("ability", "Crusher passed another racer: takes a bonus marker",
                            f"{RULE_ABILITY}: Crusher"))
        state.queue = (BONUS_MARKER_STEPS[racer], *state.queue)


# --- A) Move the Racer, 3) Fight ----------------------------------------------------------------------

def crowd(state: ScrapState, mover: int) -> tuple[int, int] | None:
    """3) The next two racers that must fight (SR-A7), or None when every racer has a space of its own.

    The crowd of ``mover`` (the racer that just moved: the active racer, a fight's winner, a pushed
    racer, the racer that drew a goal card) first, else the crowd farthest ahead. In the crowd, the
    racer moved last this turn is the one that moved in ("a racer lands on a space with another
    racer"); it fights the other racer there that is earliest in turn order.
    """
    progress = state.progress
    length = state.game.length
    if len({(p - 1) % length for p in progress if p > 0}) == len(progress) - progress.count(0):
        return None  # every racer on the track has a space of its own
    by_space: dict[int, list[int]] = {}
    for racer in range(len(progress)):
        if progress[racer] > 0:
            by_space.setdefault((progress[racer] - 1) % length, []).append(racer)
    crowded = [rs for rs in by_space.values() if len(rs) > 1]
    if not crowded:
        return None
    found = max(crowded, key=lambda rs: max(progress[o] for o in rs))
    for rs in crowded:
        if mover in rs:
            found = rs
    rank = {racer: i for i, racer in enumerate(state.order)}
    lander = found[0]  # every crowd holds a racer moved this turn (no two racers share a space between turns)
    for racer in state.moved:
        if racer in found:
            lander = racer
    other = min((o for o in found if o != lander), key=lambda o: rank.get(o, o))
    return lander, other


def crash_turn(state: ScrapState) -> bool:
    """B) Doubles Rolled: this turn's dice hold a double (the crash card's turn, kept by ``begin_crash``)."""
    return len(set(state.dice)) < len(state.dice)


def jackal_ability(state: ScrapState, racer: int) -> bool:
    """Jackal: "automatically wins all fights against other racers" (SR-A2). Playing the Game: "A player may
    only use the ability of their racer when they are the active player", and "No player can use their
    racer's ability" on a crash turn: so only on its own player's turns that are not crash turns (issue 13);
    option ``jackal=every-fight``: in every fight."""
    if state.racer[racer] != "jackal":
        return False
    own_turn = state.owner[racer] == state.owner[active_racer(state)]
    return state.game.jackal_every_fight or (own_turn and not crash_turn(state))


def next_fight(state: ScrapState, mover: int, events: list[Event]) -> bool:
    """3) Fight: racers sharing a space fight until every racer has a space of its own (True: waiting).
    Two racers of one player: the player chooses, Jackal or not (Changes in a 2-player game, Fights); else
    Jackal with its ability wins and moves 2 (SR-A2, SR-A3); else both roll."""
    pair = crowd(state, mover)
    if pair is None:
        return False
    first, second = pair
    state.fights += 1
    if state.game.per_player > 1 and state.owner[first] == state.owner[second]:
        state.need = Need(NeedKind.OWN_FIGHT, first, second)
        state.stage = Stage.FIGHT_CHOICE
        return True
    jackal = first if jackal_ability(state, first) else second if jackal_ability(state, second) else None
    if jackal is not None:
        other = second if jackal == first else first
        events.append(Event("fight", f"{state.names[jackal]} wins the fight against {state.names[other]} "
                            "automatically and moves 2", f"{RULE_ABILITY}: Jackal (SR-A2, SR-A3)"))
        win_fight(state, jackal, 2, events)
        return False
    return wait_for(state, Need(NeedKind.FIGHT, first, second))


def fight_roll(state: ScrapState, first: int, second: int, dice: tuple[int, ...], events: list[Event]) -> bool:
    """3) Both racers roll a die; the higher advances one space; a tie rolls again (True: waiting)."""
    first_die, second_die = dice
    events.append(Event("fight-roll", f"Fight: {state.names[first]} rolls {first_die}, {state.names[second]} "
                        f"rolls {second_die}", RULE_FIGHT, {"dice": [first_die, second_die]}))
    if first_die == second_die:
        events.append(Event("fight-tie", "A tie: both roll again", RULE_FIGHT))
        return True
    win_fight(state, first if first_die > second_die else second, 1, events)
    return False


def win_fight(state: ScrapState, winner: int, spaces: int, events: list[Event]) -> None:
    """3) The winner advances; if it lands on another racer, a new fight follows."""
    move_forward(state, winner, spaces, events, rule=RULE_FIGHT)
    state.queue = (FIGHTS_STEPS[winner], *state.queue)


# --- B) Doubles Rolled, 1st Draw a crash card ---------------------------------------------------------

CRASH_CARD_EFFECTS: Final = {
    "advance-2": (CrashEffect.FORWARD, 2), "advance-3": (CrashEffect.FORWARD, 3),
    "advance-5": (CrashEffect.FORWARD, 5), "three-forward": (CrashEffect.FORWARD, 3),
    "two-dice": (CrashEffect.TWO_DICE, 0), "five-forward-two-back": (CrashEffect.FIVE_FORWARD_TWO_BACK, 5),
    "stay-put": (CrashEffect.STAY_PUT, 0), "catching-up-2": (CrashEffect.CATCHING_UP, 2),
    "catching-up-4": (CrashEffect.CATCHING_UP, 4), "backwards-die": (CrashEffect.BACKWARDS_DIE, 0),
    "push-5": (CrashEffect.PUSH, 5), "backwards-4": (CrashEffect.BACKWARDS, 4),
    "backwards-6": (CrashEffect.BACKWARDS, 6), "loss-of-position": (CrashEffect.LOSS_OF_POSITION, 0),
    "last-place-4": (CrashEffect.LAST_PLACE_FORWARD, 4),
}
"""Each crash card (the content's ids) as its effect and its number of spaces."""


def begin_crash(state: ScrapState, events: list[Event]) -> None:
    """B) A double: the die is kept, the turn's move is a crash card from the pile of the double, then a
    fight and a bonus marker (no bonus cards, no ability: SR-A6)."""
    game = state.game
    pile = game.pile_of_double[state.die]
    state.crash_cards_drawn = increased(state.crash_cards_drawn, pile, 1)
    events.append(Event("double", f"{state.names[active_racer(state)]} rolled a double {state.die}: "
                        f"a crash card from the {game.pile_label(pile)} pile", RULE_CRASH, {"die": state.die}))
    state.dice = (*state.dice, state.die)
    state.die = 0
    racer = state.order[state.turn]
    state.queue = (FIGHTS_STEPS[racer], BONUS_MARKER_STEPS[racer], CROSSINGS_STEP,
               REFILL_STEP, COLLECT_STEP, END_STEP)
    wait_for(state, Need(NeedKind.CRASH_CARD, pile=pile))


def draw_card(state: ScrapState, deck: Deck, card: str) -> None:
    """Take a drawn card off its deck; crash and goal cards go to the discard pile at once."""
    i = deck.cards.index(card)
    counts = state.decks[deck.index]
    draw = increased(counts.draw, i, -1)
    discard = increased(counts.discard, i, 1) if deck.discard_on_draw else counts.discard
    state.decks = replaced(state.decks, deck.index, DeckCounts(draw, discard))
    reshuffle_if_empty(state, deck)


def reshuffle_if_empty(state: ScrapState, deck: Deck) -> None:
    """An empty draw pile takes its discard pile as a new (shuffled) deck."""
    counts = state.decks[deck.index]
    if sum(counts.draw) == 0:
        state.decks = replaced(state.decks, deck.index, DeckCounts(counts.discard, (0,) * len(counts.discard)))


def crash_card(state: ScrapState, pile: int, card: str, events: list[Event]) -> bool:
    """1st Draw a crash card from the pile and apply its effect (True: it waits for a die roll)."""
    draw_card(state, state.game.crash_decks[pile], card)
    racer = active_racer(state)
    game = state.game
    rule = f"Crash cards: {game.card_title(card)}"
    events.append(Event("crash-card",
                        f"Crash card: {game.card_title(card)}. {game.content.texts.get(card, '')}".rstrip(),
                        rule, {"card": card}))
    effect, spaces = CRASH_CARD_EFFECTS.get(card, (CrashEffect.STAY_PUT, 0))
    if effect == CrashEffect.FORWARD:
        move_forward(state, racer, spaces, events, rule=rule)
    elif effect == CrashEffect.TWO_DICE:
        return wait_for(state, Need(NeedKind.TWO_DICE))
    elif effect == CrashEffect.FIVE_FORWARD_TWO_BACK:
        front = neighbour(state, racer, -1)
        if front is not None:
            move_backward(state, front, 2, events, rule)
        move_forward(state, racer, spaces, events, rule=rule)
    elif effect == CrashEffect.CATCHING_UP:
        behind = neighbour(state, racer, +1)
        if behind is not None:
            move_forward(state, behind, spaces, events, rule=rule)
    elif effect == CrashEffect.BACKWARDS_DIE:
        return wait_for(state, Need(NeedKind.BACKWARDS_DIE))
    elif effect == CrashEffect.PUSH:
        push(state, racer, spaces, events, rule)
    elif effect == CrashEffect.BACKWARDS:
        move_backward(state, racer, spaces, events, rule)
    elif effect == CrashEffect.LOSS_OF_POSITION:
        loss_of_position(state, racer, events, rule)
    elif effect == CrashEffect.LAST_PLACE_FORWARD:
        move_forward(state, standings(state)[-1], spaces, events, rule=rule)
    # STAY_PUT: nothing moves
    return False


def two_dice_roll(state: ScrapState, dice: tuple[int, ...], events: list[Event]) -> None:
    """Crash cards, 2 dice: the active racer moves by two dice (no boost markers)."""
    first, second = dice
    rule = "Crash cards: 2 dice"
    events.append(Event("dice", f"{state.names[active_racer(state)]} rolls two dice: {first} + {second}", rule,
                        {"dice": [first, second]}))
    move_forward(state, active_racer(state), first + second, events, rule=rule)


def backwards_die_roll(state: ScrapState, face: int, events: list[Event]) -> None:
    """Crash cards, Backwards die: the active racer moves back by one die."""
    rule = "Crash cards: Backwards die"
    events.append(Event("dice", f"{state.names[active_racer(state)]} rolls the backwards die: {face}", rule,
                        {"die": face}))
    move_backward(state, active_racer(state), face, events, rule)


def neighbour(state: ScrapState, racer: int, step: int) -> int | None:
    """The racer directly in front of (-1) or behind (+1) ``racer`` in the standings."""
    order = standings(state)
    place = order.index(racer) + step
    return order[place] if 0 <= place < len(order) else None


def push(state: ScrapState, racer: int, spaces: int, events: list[Event], rule: str) -> None:
    """Crash cards, Push 5: forward up to 5, stopping on a racer, who is pushed 2 spaces on (and fights)."""
    length = state.game.length
    start = state.progress[racer]
    for step in range(1, spaces + 1):
        here = (start + step - 1) % length
        hit = [other for other in range(len(state.progress))
               if other != racer and state.progress[other] > 0 and racer_space(state, other) == here]
        if hit:
            move_forward(state, racer, step, events, rule=rule)
            move_forward(state, hit[0], 2, events, rule=rule)
            state.queue = (FIGHTS_STEPS[hit[0]], *state.queue[1:])  # the pushed racer fights
            return
    move_forward(state, racer, spaces, events, rule=rule)


def loss_of_position(state: ScrapState, racer: int, events: list[Event], rule: str) -> None:
    """Crash cards, Loss of position: just behind the last racer, never behind the finish line (SR-A1)."""
    last = standings(state)[-1]
    if last == racer or state.progress[racer] == 0:
        return
    move_backward(state, racer, state.progress[racer] - (state.progress[last] - 1), events, rule)


# --- B) Doubles Rolled, 2nd Taking a bonus marker -----------------------------------------------------

def take_bonus_marker(state: ScrapState, racer: int, events: list[Event]) -> bool:
    """2nd Take a bonus marker; the third (Hover: second) becomes a hidden bonus card and the markers go
    back (the numbers are content); none when the supply is empty (SR-G7). True: waiting for the card."""
    if state.bonus_supply == 0:
        events.append(Event("marker", "No bonus markers left in the supply", f"{RULE_MARKER} (SR-G7)"))
        return False
    state.bonus_supply -= 1
    state.bonus_markers = increased(state.bonus_markers, racer, 1)
    per_card = state.game.hover_markers_per_card if state.racer[racer] == "hover" else state.game.markers_per_card
    events.append(Event("marker", f"{state.names[racer]} takes bonus marker {state.bonus_markers[racer]} of "
                        f"{per_card}", RULE_MARKER))
    if state.bonus_markers[racer] < per_card:
        return False
    state.bonus_supply += state.bonus_markers[racer]
    state.bonus_markers = increased(state.bonus_markers, racer, -state.bonus_markers[racer])
    reshuffle_if_empty(state, state.game.bonus_deck)
    if sum(state.decks[state.game.bonus_deck.index].draw) == 0:
        events.append(Event("marker", "The bonus deck is empty: no card", RULE_MARKER))
        return False
    return wait_for(state, Need(NeedKind.BONUS_CARD, seat=state.owner[racer]))


def bonus_card_drawn(state: ScrapState, seat: int, card: str, events: list[Event]) -> None:
    """2nd The bonus card is drawn into the seat's hidden hand (every seat sees that a card was drawn)."""
    game = state.game
    draw_card(state, game.bonus_deck, card)
    i = game.bonus_deck.cards.index(card)
    hand = state.bonus_cards[seat]
    state.bonus_cards = replaced(state.bonus_cards, seat, increased(hand, i, 1))
    state.bonus_cards_drawn += 1
    events.append(Event("bonus-draw", f"{game.seat_name(seat)} draws a bonus card", RULE_MARKER))
    events.append(Event("bonus-draw", f"{game.seat_name(seat)} draws the bonus card {game.card_title(card)}",
                        RULE_MARKER, {"card": card}, frozenset((seat,))))


# --- Crossing the finish line and collecting Boost markers --------------------------------------------

GOAL_CARD_MOVES: Final = {"last-place": (-1, 7), "last-two": (-2, 5), "all-but-first": (1, 2),
                          "all-but-first-two": (2, 3)}
"""Each goal card as the racers it moves (a slice start into the standings: -1 the last racer, 1 all but
the first) and the spaces they move."""


def next_crossing(state: ScrapState, events: list[Event]) -> bool:
    """1st Crossing the finish line: a lap marker and a goal card, one racer at a time clockwise from the
    active one (SR-A11); the third lap marker draws no goal card and ends the race after the round."""
    length = state.game.length
    order, progress, laps, turn = state.order, state.progress, state.laps, state.turn
    n = len(order)
    for k in range(n):
        racer = order[(turn + k) % n]
        if laps[racer] < LAPS_TO_FINISH and progress[racer] > (laps[racer] + 1) * length:  # (p - 1) // length > laps[r]
            state.crossed = True
            state.laps = laps = increased(laps, racer, 1)
            events.append(Event("lap", f"{state.names[racer]} crosses the finish line: lap marker {laps[racer]}",
                                RULE_CROSS, {"racer": state.racer[racer], "laps": laps[racer]}))
            state.queue = (CROSSINGS_STEP, *state.queue)
            if laps[racer] == LAPS_TO_FINISH:
                if not state.end_round:
                    state.end_round = state.round
                    events.append(Event("end", f"{state.names[racer]} has three lap markers: the race ends when the "
                                        "round is complete", RULE_END))
                return False
            state.queue = (FIGHTS_STEPS[racer], *state.queue)
            return wait_for(state, Need(NeedKind.GOAL_CARD, racer))
    return False


def goal_card(state: ScrapState, racer: int, card: str, events: list[Event]) -> None:
    """Goal cards: the racers the card names (by the standings) move forward."""
    game = state.game
    draw_card(state, game.goal_deck, card)
    rule = f"Goal cards: {game.card_title(card)}"
    events.append(Event("goal-card", f"{state.names[racer]} draws the goal card {game.card_title(card)}. "
                        f"{game.content.texts.get(card, '')}".rstrip(), rule, {"card": card}))
    first_mover, spaces = GOAL_CARD_MOVES[card]
    for mover in standings(state)[first_mover:]:
        move_forward(state, mover, spaces, events, rule=rule)


def refill_boost_spaces(state: ScrapState, events: list[Event]) -> None:
    """2) After a crossing (``crossed``), empty boost spaces are refilled from the finite supply, from
    the line on; a racer on a refilled space reveals its marker."""
    reveals = []
    filled = state.boost_spaces_filled
    for i, space in enumerate(state.game.track.boost):
        if state.boost_supply == 0:
            break
        if not filled[i]:
            filled = replaced(filled, i, True)
            state.boost_supply -= 1
            events.append(Event("refill", f"A boost marker is placed face down on space {space + 1}", RULE_REFILL))
            for racer in range(len(state.progress)):
                if state.progress[racer] > 0 and racer_space(state, racer) == space:
                    reveals.append(REVEAL_STEPS[racer])
    state.boost_spaces_filled = filled
    state.queue = (*reveals, *state.queue)


def reveal_boost_marker(state: ScrapState, racer: int) -> bool:
    """Collecting Boost markers: a racer on a filled boost space reveals (collects) the marker: at the end
    of the active racer's turn, and for a racer on a space just refilled (True: waiting for the marker)."""
    if state.progress[racer] == 0:
        return False
    boost_space = state.game.boost_slot.get(racer_space(state, racer))
    if boost_space is None or not state.boost_spaces_filled[boost_space]:
        return False
    return wait_for(state, Need(NeedKind.BOOST_MARKER, racer, boost_space=boost_space))


def boost_marker_revealed(state: ScrapState, racer: int, boost_space: int, boost_type: str,
                          events: list[Event]) -> None:
    """Collecting Boost markers: the racer keeps the marker revealed; the space is empty."""
    boost = BOOST_TYPES.index(boost_type)
    state.boost_spaces_filled = replaced(state.boost_spaces_filled, boost_space, False)
    state.unseen_boosts = increased(state.unseen_boosts, boost, -1)
    give_boost_markers(state, racer, boost, 1)
    events.append(Event("boost-collect",
                        f"{state.names[racer]} collects a boost marker: {state.game.card_title(boost_type)}",
                        RULE_COLLECT, {"racer": state.racer[racer], "marker": boost_type}))


def end_turn(state: ScrapState, events: list[Event]) -> None:
    """Play then passes to the next player clockwise; after the round in which a racer took its third lap
    marker, the race ends."""
    state.turns += 1
    state.turn += 1
    state.dice = ()
    state.die = 0
    state.need = NOTHING_NEEDED
    if state.turn == len(state.progress):
        state.turn = 0
        if state.end_round:
            finish(state, events)
            return
        state.round += 1
    begin_turn(state, events)


# --- End of the game and Awards Ceremony --------------------------------------------------------------

def finish(state: ScrapState, events: list[Event]) -> None:
    """End of the game: the racer farthest ahead wins (the team game: ``team_order``)."""
    state.stage = Stage.OVER
    state.need = NOTHING_NEEDED
    game = state.game
    ranked = standings(state)
    if game.per_player == 1:
        order = tuple(state.owner[racer] for racer in ranked)
        leader = ranked[0]
        reason = (f"{state.names[leader]} ({game.seat_name(state.owner[leader])}) completed three laps and is "
                  "farthest ahead")
    else:
        order, reason = team_order(state, ranked)
    state.outcome = (order, (order[0],), reason)
    events.append(Event("result", f"The race is over: {reason}", RULE_END, {"order": list(order)}))


# --- Changes in a 2-player game (and the 3-player variant) --------------------------------------------

def order_chooser(state: ScrapState) -> int:
    """Turn order: the seat that chooses which of its racers goes next (the start player first)."""
    if not state.order:
        return state.start_seat
    return (state.owner[state.order[-1]] + 1) % state.game.players


def order_actions(state: ScrapState) -> list[str]:
    """Turn order: the chooser's racers, each of which may go first."""
    return sorted(notation.first(state.racer[racer]) for racer in state.game.racers_of(order_chooser(state)))


def fight_choice_actions(state: ScrapState) -> list[str]:
    """Fights: either of the player's two fighting racers may win."""
    return sorted([notation.let_win(state.racer[state.need.racer]), notation.let_win(state.racer[state.need.other])])


def choose_first_racer(state: ScrapState, racer_id: str, events: list[Event]) -> None:
    """Turn order: the players take turns choosing which of their racers goes next, the start player
    first."""
    seat = order_chooser(state)
    mine = state.game.racers_of(seat)
    first = next(racer for racer in mine if state.racer[racer] == racer_id)
    state.order = (*state.order, first, *(racer for racer in mine if racer != first))
    events.append(Event("order", f"{state.game.seat_name(seat)} sends {state.names[first]} first", RULE_TEAM))
    begin_turn(state, events)


def choose_fight_winner(state: ScrapState, racer_id: str, events: list[Event]) -> None:
    """Fights: when two racers of one player fight, the player decides which one wins."""
    first, second = state.need.racer, state.need.other
    winner = first if state.racer[first] == racer_id else second
    loser = second if winner == first else first
    events.append(Event("fight", f"{state.game.seat_name(state.owner[winner])} lets {state.names[winner]} "
                        f"win the fight against {state.names[loser]}", RULE_TEAM))
    win_fight(state, winner, 1, events)
    run_queue(state, events)


def team_order(state: ScrapState, ranked: list[int]) -> tuple[tuple[int, ...], str]:
    """End of the game: players with a racer that completed three laps first, then by their second
    racer (SR-A12)."""
    game = state.game
    place = {racer: i for i, racer in enumerate(ranked)}

    def key(seat: int) -> tuple[int, int, int]:
        mine = game.racers_of(seat)
        finished = sum(1 for racer in mine if state.laps[racer] >= LAPS_TO_FINISH)
        rear = max(place[racer] for racer in mine)
        front = min(place[racer] for racer in mine)
        return (-finished, rear, front)

    order = tuple(sorted(range(game.players), key=key))
    best = order[0]
    finishers = [seat for seat in range(game.players) if key(seat)[0] < 0]
    if len(finishers) == 1:
        reason = f"{game.seat_name(best)} is the only player with a racer that completed three laps"
    else:
        reason = f"{game.seat_name(best)}'s second racer is farthest ahead"
    return order, reason


# --- The chance nodes ---------------------------------------------------------------------------------

FIGHT_TABLE: Final = ChanceTable(tuple(
    (notation.fight_dice(first, second), 1 / 36) for first in range(1, 7) for second in range(1, 7)))
TWO_DICE_TABLE: Final = ChanceTable(tuple(
    (notation.two_dice(first, second), (1 if first == second else 2) / 36)
    for first in range(1, 7) for second in range(first, 7)
))
FIXED_CHANCE: Final = {NeedKind.FIGHT: FIGHT_TABLE, NeedKind.BACKWARDS_DIE: DIE_TABLE,
                       NeedKind.TWO_DICE: TWO_DICE_TABLE}
"""The chance nodes whose outcomes never change, by the kind of ``need`` they answer (with the die of
``Stage.ROLL``, ``DIE_TABLE``)."""
MARKER_ACTIONS: Final = tuple(notation.marker(kind) for kind in BOOST_TYPES)


def chance_outcomes(state: ScrapState) -> list[tuple[str, float]]:
    """The outcomes of a chance node whose odds change (not in ``FIXED_CHANCE``): a dashboard dealt, the
    start player, a boost marker revealed (by the unseen markers), a card drawn (by the draw pile)."""
    game = state.game
    kind = state.need.kind
    if kind is NeedKind.RACER:
        left = sorted(set(game.racer_ids) - set(state.racer))
        return [(notation.racer(racer), 1 / len(left)) for racer in left]
    if kind is NeedKind.START_PLAYER:
        return [(notation.start_player(seat), 1 / game.players) for seat in range(game.players)]
    if kind is NeedKind.BOOST_MARKER:
        total = sum(state.unseen_boosts)
        return [(action, n / total) for action, n in zip(MARKER_ACTIONS, state.unseen_boosts, strict=True) if n]
    deck = game.deck_for(state.need)
    counts = state.decks[deck.index].draw
    total = sum(counts)
    return [(action, n / total) for action, n in zip(deck.actions, counts, strict=True) if n]
