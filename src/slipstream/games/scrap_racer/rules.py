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

import enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event, EventCache

from . import notation
from .content import BOOST_TYPES
from .notation import BOOST_KIND, MOVE_KIND, PLAY_CARD_KIND, ROLL_AGAIN_KIND, STOP_KIND, Action, BoostUse, Kind
from .state import (
    ABILITY,
    ABILITY_STEP,
    BACKWARDS_DIE_NEED,
    BONUS_CARD_NEED,
    BONUS_MARKER,
    BONUS_MARKER_STEPS,
    BOOST_MARKER_NEED,
    CARDS_AFTER_MOVE,
    CARDS_BEFORE_MOVE,
    CHOOSE_ORDER,
    COLLECT,
    COLLECT_STEP,
    CRASH_CARD_NEED,
    CROSSINGS,
    CROSSINGS_STEP,
    DECIDE,
    END,
    END_STEP,
    FIGHT_CHOICE,
    FIGHT_NEED,
    FIGHTS,
    FIGHTS_STEPS,
    GOAL_CARD_NEED,
    ONLY_CRASH,
    ONLY_STOP,
    OVER,
    OWN_FIGHT_NEED,
    PLUS_MINUS_MARKER,
    RACER_NEED,
    REFILL,
    REFILL_STEP,
    REROLL_MARKER,
    RESOLVING,
    REVEAL,
    REVEAL_STEPS,
    ROLL,
    ROLL_OR_STOP,
    START_PLAYER_NEED,
    TURN_MARKER,
    TWO_DICE_NEED,
    BoostType,
    DeckCounts,
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


def increased(counts: tuple[int, ...], index: int, n: int) -> tuple[int, ...]:
    """``counts`` with ``n`` added to entry ``index`` (a new tuple: the copy rule's change of one count)."""
    return replaced(counts, index, counts[index] + n)


# --- Setup --------------------------------------------------------------------------------------------

def racer_names(s: ScrapState) -> tuple[str, ...]:
    """Every slot's racer name, for ``names`` (set whenever ``racer`` changes, during setup)."""
    names = s.g.racer_names
    return tuple(names.get(rid) or f"racer {r + 1}" for r, rid in enumerate(s.racer))


def setup_draw(s: ScrapState, action: Action, events: list[Event]) -> None:
    """Setup 7) each player draws a dashboard at random; 8) a random start player (SR-G8)."""
    g = s.g
    if action.kind == Kind.RACER:
        slot = s.racer.index("")
        s.racer = replaced(s.racer, slot, action.name)
        s.names = racer_names(s)
        events.append(Event("setup", f"{g.seat_name(s.owner[slot])} draws the dashboard of {s.names[slot]}",
                            RULE_SETUP_DASHBOARDS))
    else:
        s.start_seat = action.dice[0]
        events.append(Event("setup", f"{g.seat_name(s.start_seat)} is the start player", RULE_SETUP_START))
    next_setup_step(s, events)


def next_setup_step(s: ScrapState, events: list[Event]) -> None:
    """Setup: move on once every dashboard is drawn and the start player is known; play goes clockwise
    from the start player (the team game chooses its order during play: ``choose_first_racer``)."""
    if "" in s.racer:
        s.need = (RACER_NEED,)
        return
    if s.start_seat < 0:
        s.need = (START_PLAYER_NEED,)
        return
    g = s.g
    if g.per_player == 1:
        s.order = tuple(r for k in range(g.players) for r in g.racers_of((s.start_seat + k) % g.players))
        begin_turn(s, events)
    else:
        s.stage = CHOOSE_ORDER


# --- Playing the Game ---------------------------------------------------------------------------------

@EVENTS.memo
def turn_event(round_number: int, name: str, seat_name: str) -> Event:
    """The event that opens a racer's turn (made once per round, racer and seat)."""
    return Event("turn", f"Round {round_number}: {name} ({seat_name}) to play", RULE_PLAYING)


def begin_turn(s: ScrapState, events: list[Event]) -> None:
    """Playing the Game: the racers take turns clockwise, starting with the start player."""
    if s.turn >= len(s.order):
        s.stage = CHOOSE_ORDER
        return
    s.dice = ()
    s.die = 0
    s.passed = False
    s.moved = ()
    s.crossed = False
    s.queue = ()
    s.stage = ROLL
    r = s.order[s.turn]
    events.append(turn_event(s.round, s.names[r], s.g.seat_names[s.owner[r]]))


# --- Roll the dice ------------------------------------------------------------------------------------

@EVENTS.memo
def die_event(name: str, nth: int, face: int) -> Event:
    """The event of a die roll (``nth``: 1 for the first die, ..., 0 for a re-roll), made once per racer,
    die and face."""
    return Event("die", f"{name} {f'rolls die {nth}:' if nth else 're-rolls'} {face}",
                 RULE_ROLL if nth else RULE_BOOST, MappingProxyType({"die": face}))


def roll_die(s: ScrapState, face: int, events: list[Event]) -> None:
    """Roll the dice: the active player rolls one die and checks the result."""
    nth = 0 if s.die else len(s.dice) + 1  # 0: a re-roll
    s.die = face
    events.append(die_event(s.names[s.order[s.turn]], nth, face))
    check_die(s, events)


def holds_boost_markers(s: ScrapState, r: int) -> bool:
    return any(s.boost_markers[r])


def check_die(s: ScrapState, events: list[Event]) -> None:
    """Roll the dice: a double ends the rolling (B); the sixth die is kept; otherwise roll on or stop.
    A player holding boost markers may change the die first, so is asked before the check."""
    if holds_boost_markers(s, s.order[s.turn]):
        s.stage = DECIDE
    elif s.die in s.dice:  # a double
        begin_crash(s, events)
    elif len(s.dice) == MAX_DICE - 1:
        keep_dice(s, events)
    else:
        s.stage = DECIDE


BOOST_DOWN: Final = notation.boost(BoostUse.DOWN)
BOOST_REROLL: Final = notation.boost(BoostUse.REROLL)
BOOST_TURN: Final = notation.boost(BoostUse.TURN)
BOOST_UP: Final = notation.boost(BoostUse.UP)


def decision_actions(s: ScrapState) -> Sequence[str]:
    """Roll the dice and Boost markers: after a die, change it with a boost marker, or accept it (a double:
    the crash card; else roll again or stop; the sixth die: stop). Sorted, as the legal actions."""
    if s.die in s.dice:  # a double
        accept: Sequence[str] = ONLY_CRASH
    elif len(s.dice) == MAX_DICE - 1:
        accept = ONLY_STOP
    else:
        accept = ROLL_OR_STOP
    held = s.boost_markers[s.order[s.turn]]
    if not any(held):
        return accept
    die = s.die
    boosts = []
    if held[PLUS_MINUS_MARKER] and die > 1:
        boosts.append(BOOST_DOWN)
    if held[REROLL_MARKER]:
        boosts.append(BOOST_REROLL)
    if held[TURN_MARKER]:
        boosts.append(BOOST_TURN)
    if held[PLUS_MINUS_MARKER] and die < 6:
        boosts.append(BOOST_UP)
    return [*boosts, *accept]


def decide(s: ScrapState, action: Action, events: list[Event]) -> None:
    """Roll the dice: use a boost marker on the die, roll another die, stop and move, or take the crash."""
    kind = action.kind
    if kind == BOOST_KIND and action.use is not None:
        use_boost_marker(s, s.order[s.turn], action.use, events)
    elif kind == ROLL_AGAIN_KIND:
        s.dice = (*s.dice, s.die)
        s.die = 0
        s.stage = ROLL
    elif kind == STOP_KIND:
        keep_dice(s, events)
    else:  # ACCEPT_CRASH
        begin_crash(s, events)


@EVENTS.memo
def keep_event(name: str, dice: tuple[int, ...]) -> Event:
    """The event of keeping the dice (made once per racer and dice)."""
    return Event("keep", f"{name} keeps {' + '.join(map(str, dice))} = {sum(dice)}", RULE_ROLL,
                 MappingProxyType({"dice": list(dice)}))


def keep_dice(s: ScrapState, events: list[Event]) -> None:
    """Roll the dice: the player stops and keeps the dice: A) Move the Racer."""
    s.dice = (*s.dice, s.die)
    s.die = 0
    events.append(keep_event(s.names[s.order[s.turn]], s.dice))
    s.stage = CARDS_BEFORE_MOVE
    open_bonus_card_window(s, events)


# --- Boost markers ------------------------------------------------------------------------------------

BOOST_OF_USE: Final = {BoostUse.UP: BoostType.PLUS_MINUS, BoostUse.DOWN: BoostType.PLUS_MINUS,
                       BoostUse.REROLL: BoostType.REROLL, BoostUse.TURN: BoostType.TURN}


def give_boost_markers(s: ScrapState, r: int, boost: int, n: int) -> None:
    """Racer ``r`` gains ``n`` boost markers of one type (a negative ``n`` gives them up)."""
    held = s.boost_markers[r]
    s.boost_markers = replaced(s.boost_markers, r, increased(held, boost, n))


def use_boost_marker(s: ScrapState, r: int, use: BoostUse, events: list[Event]) -> None:
    """Boost markers: used on the die just rolled, before the doubles check, then removed from the game.
    Re-roll: only the new result counts; +/- 1: never from 6 to 1 or back; Turn: the opposite face."""
    give_boost_markers(s, r, BOOST_OF_USE[use], -1)
    s.boost_markers_used += 1
    if use == BoostUse.REROLL:
        events.append(Event("boost", f"{s.names[r]} uses a Re-roll marker", f"{RULE_BOOST}: Re-roll"))
        s.stage = ROLL
        return
    old = s.die
    s.die = old + 1 if use == BoostUse.UP else old - 1 if use == BoostUse.DOWN else 7 - old
    label = "Turn" if use == BoostUse.TURN else "+/- 1"
    events.append(Event("boost", f"{s.names[r]} uses a {label} marker: {old} becomes {s.die}",
                        f"{RULE_BOOST}: {label}", {"die": s.die}))
    check_die(s, events)


# --- A) Move the Racer, 1) Dice results and bonus cards -----------------------------------------------

FORWARD_CARDS: Final = {"forward-3": 3, "forward-5": 5, "forward-7": 7}
"""Bonus cards that move a fixed number of spaces."""
NEXT_SPACE_CARDS: Final = {"straight": "S", "curve": "C"}
"""Bonus cards that move to the next space of a kind (S straight, C curve); ``catch-up`` moves to the next
racer ahead."""


def open_bonus_card_window(s: ScrapState, events: list[Event]) -> None:
    """1) Bonus cards may be played before and after the dice move; a seat without any is not asked.

    The window opens whenever the seat holds a card (public: the number of cards is open), so that it
    tells no other seat whether the cards held can be played now.
    """
    if holds_bonus_cards(s, s.owner[s.order[s.turn]]):
        return
    if s.stage == CARDS_BEFORE_MOVE:
        dice_move(s, events)
    after_move(s, events)


def holds_bonus_cards(s: ScrapState, seat: int) -> bool:
    return any(s.bonus_cards[seat])


def playable_cards(s: ScrapState, seat: int) -> list[str]:
    """1) The bonus cards ``seat`` may play now: those it holds that can move the active racer."""
    hand = s.bonus_cards[seat]
    if not any(hand):
        return []
    r = s.active
    return [card for card, n in zip(s.g.bonus_deck.cards, hand, strict=True)
            if n and card_target(s, r, card) is not None]


def card_target(s: ScrapState, r: int, card: str) -> int | None:
    """Overview of Cards, bonus cards: the progress a card takes racer ``r`` to, or None when it cannot be
    played (a fixed number of spaces; the next straight or curve; Catch up: the next racer ahead)."""
    progress = s.progress[r]
    forward = FORWARD_CARDS.get(card)
    if forward is not None:
        return progress + forward
    track = s.g.track
    length = track.length
    kind = NEXT_SPACE_CARDS.get(card)
    if kind is not None:
        for step in range(1, length + 1):
            if track.kinds[(progress + step - 1) % length] == kind:
                return progress + step
        return None
    here = (progress - 1) % length
    best = None
    for other in range(len(s.progress)):
        if other != r and s.progress[other] > 0:
            gap = (s.space(other) - here) % length
            if gap and (best is None or gap < best):
                best = gap
    return None if best is None else progress + best


def bonus_card_window(s: ScrapState, action: Action, events: list[Event]) -> None:
    """1) Play a bonus card (a hidden card, then discarded), move by the dice, or close the window."""
    r = s.active
    kind = action.kind
    if kind == PLAY_CARD_KIND:
        play_bonus_card(s, r, action.name, events)
    elif kind == MOVE_KIND:
        dice_move(s, events)
        s.stage = CARDS_AFTER_MOVE
        open_bonus_card_window(s, events)
    else:  # DONE
        after_move(s, events)


def play_bonus_card(s: ScrapState, r: int, card: str, events: list[Event]) -> None:
    """Bonus cards: the active racer moves by the card; when the seat holds no more cards the window
    closes (the dice move follows if it has not been made)."""
    g = s.g
    seat = s.owner[r]
    deck = g.bonus_deck
    i = deck.cards.index(card)
    hand = s.bonus_cards[seat]
    s.bonus_cards = replaced(s.bonus_cards, seat, increased(hand, i, -1))
    counts = s.decks[deck.index]
    s.decks = replaced(s.decks, deck.index, DeckCounts(counts.draw, increased(counts.discard, i, 1)))
    s.bonus_cards_played += 1
    target = card_target(s, r, card)
    if target is None:  # pragma: no cover - only playable cards are legal
        raise RuntimeError(f"bonus card {card} has no target")
    events.append(Event("bonus-card", f"{s.names[r]} plays the bonus card {g.card_title(card)}", RULE_BONUS_CARDS,
                        {"card": card}))
    move_forward(s, r, target - s.progress[r], events, own_turn=True)
    if not holds_bonus_cards(s, seat):
        if s.stage == CARDS_BEFORE_MOVE:
            dice_move(s, events)
        after_move(s, events)


def dice_move(s: ScrapState, events: list[Event]) -> None:
    """1) The racer moves forward by the sum of the dice kept."""
    move_forward(s, s.order[s.turn], sum(s.dice), events, own_turn=True)
    s.stage = CARDS_AFTER_MOVE


def after_move(s: ScrapState, events: list[Event]) -> None:
    """A) after the move: 2) the racer's ability, 3) fights, then the finish line, boost spaces, the end."""
    r = s.order[s.turn]
    s.queue = (ABILITY_STEP, FIGHTS_STEPS[r], CROSSINGS_STEP, REFILL_STEP,
               COLLECT_STEP, END_STEP)
    run_queue(s, events)


def move_forward(s: ScrapState, r: int, n: int, events: list[Event], own_turn: bool = False,
                 rule: str = RULE_MOVE) -> None:
    """1) Move racer ``r`` forward ``n`` spaces, counting occupied spaces too; a racer behind the line
    enters the track (its first space is space 1)."""
    if n <= 0:
        return
    start = s.progress[r]
    end = start + n
    s.progress[r] = end
    note_moved(s, r)
    if own_turn and not s.passed:
        s.passed = passes_someone(s, r, start, end)
    where = "enters the track and " if start == 0 else ""
    space = (end - 1) % s.g.length + 1
    events.append(Event("move", f"{s.names[r]} {where}moves {n} forward to space {space}", rule,
                        {"racer": s.racer[r], "from": start, "to": end}))


def note_moved(s: ScrapState, r: int) -> None:
    """Note that racer ``r`` moved: of racers sharing a space, the one moved last is the one that moved in."""
    moved = s.moved
    if not moved:
        s.moved = (r,)  # the turn's first move, most often its only mover
    elif moved[-1] != r:
        s.moved = (*(x for x in moved if x != r), r)


def passes_someone(s: ScrapState, r: int, start: int, end: int) -> bool:
    """Does a move from ``start`` to ``end`` pass (not land on) a space with another racer (Twister,
    Crusher)?

    The space it leaves counts too (SR-A4): it is shared only after an earlier move of this turn
    (Catch up), and moving on passes that racer. A racer entering the track leaves no space.
    """
    length = s.g.length
    n = end - start
    low = 0 if start > 0 else 1
    progress = s.progress
    for other in range(len(progress)):
        q = progress[other]
        if other != r and q > 0 and (n > length or low <= (q - start) % length < n):
            return True
    return False


def move_backward(s: ScrapState, r: int, n: int, events: list[Event], rule: str) -> None:
    """Crash cards: move back ``n`` spaces, never behind the finish line (SR-A1); off-track racers stay."""
    start = s.progress[r]
    if start == 0 or n <= 0:
        return
    length = s.g.length
    floor = (start - 1) // length * length + 1
    s.progress[r] = max(start - n, floor)
    moved = start - s.progress[r]
    if moved:
        note_moved(s, r)
    note = " (stopped at the finish line)" if moved < n else ""
    events.append(Event("move", f"{s.names[r]} moves {moved} back to space {s.space(r) + 1}{note}", rule,
                        {"racer": s.racer[r], "from": start, "to": s.progress[r]}))


# --- Turn overview: the steps after the dice, in order ------------------------------------------------

def run_queue(s: ScrapState, events: list[Event]) -> None:
    """Turn overview: resolve the queued steps until one waits for a chance outcome or a choice, or the
    turn ends."""
    s.stage = RESOLVING
    while s.queue:
        step = s.queue[0]
        s.queue = s.queue[1:]
        kind = step.kind
        if kind is ABILITY:  # the steps of every turn first, in their order, then the others
            racer_ability(s, events)
        elif kind is FIGHTS:
            if next_fight(s, step.racer, events):
                return
        elif kind is CROSSINGS:
            if next_crossing(s, events):
                return
        elif kind is REFILL:
            if s.crossed:
                refill_boost_spaces(s, events)
        elif kind is COLLECT:
            if reveal_boost_marker(s, s.order[s.turn]):  # the active racer collects a boost marker
                return
        elif kind is END:
            end_turn(s, events)
            return
        elif kind is BONUS_MARKER:
            if take_bonus_marker(s, step.racer, events):
                return
        elif kind is REVEAL and reveal_boost_marker(s, step.racer):
            return


def wait_for(s: ScrapState, need: tuple[Any, ...]) -> bool:
    """Pause the queue for a chance outcome (always True: the queue waits)."""
    s.need = need
    s.stage = RESOLVING
    return True


def chance_outcome(s: ScrapState, action: Action, events: list[Event]) -> None:
    """A chance outcome arrived for the step that waits for it; then the queue resumes."""
    need = s.need
    kind = need[0]
    waiting = False
    if kind == FIGHT_NEED:
        waiting = fight_roll(s, need[1], need[2], action.dice, events)
    elif kind == CRASH_CARD_NEED:
        waiting = crash_card(s, need[1], action.name, events)
    elif kind == TWO_DICE_NEED:
        two_dice_roll(s, action.dice, events)
    elif kind == BACKWARDS_DIE_NEED:
        backwards_die_roll(s, action.dice[0], events)
    elif kind == BONUS_CARD_NEED:
        bonus_card_drawn(s, need[1], action.name, events)
    elif kind == GOAL_CARD_NEED:
        goal_card(s, need[1], action.name, events)
    else:  # BOOST_MARKER_NEED
        boost_marker_revealed(s, need[1], need[2], action.name, events)
    if not waiting:
        run_queue(s, events)


# --- A) Move the Racer, 2) The racer's ability --------------------------------------------------------

def racer_ability(s: ScrapState, events: list[Event]) -> None:
    """2) The racer's ability, checked after the move (never on a crash turn); Racer abilities: Steel
    Jacket ends on a straight, Swifty on a curve: one more space; Twister passed a racer: one more space;
    Crusher passed a racer: a bonus marker."""
    r = s.order[s.turn]
    ability = s.racer[r]
    if ability not in MOVE_ABILITIES or not s.on_track(r):
        return
    kind = s.g.track.kinds[s.space(r)]
    if (ability == "steel-jacket" and kind == "S") or (ability == "swifty" and kind == "C"):
        move_forward(s, r, 1, events, rule=f"{RULE_ABILITY}: {s.names[r]}")
    elif ability == "twister" and s.passed:
        move_forward(s, r, 1, events, rule=f"{RULE_ABILITY}: Twister")
    elif ability == "crusher" and s.passed:
        events.append(Event("ability", "Crusher passed another racer: takes a bonus marker",
                            f"{RULE_ABILITY}: Crusher"))
        s.queue = (BONUS_MARKER_STEPS[r], *s.queue)


# --- A) Move the Racer, 3) Fight ----------------------------------------------------------------------

def crowd(s: ScrapState, mover: int) -> tuple[int, int] | None:
    """3) The next two racers that must fight (SR-A7), or None when every racer has a space of its own.

    The crowd of ``mover`` (the racer that just moved: the active racer, a fight's winner, a pushed
    racer, the racer that drew a goal card) first, else the crowd farthest ahead. In the crowd, the
    racer moved last this turn is the one that moved in ("a racer lands on a space with another
    racer"); it fights the other racer there that is earliest in turn order.
    """
    progress = s.progress
    length = s.g.length
    if len({(p - 1) % length for p in progress if p > 0}) == len(progress) - progress.count(0):
        return None  # every racer on the track has a space of its own
    by_space: dict[int, list[int]] = {}
    for r in range(len(progress)):
        if progress[r] > 0:
            by_space.setdefault((progress[r] - 1) % length, []).append(r)
    crowded = [rs for rs in by_space.values() if len(rs) > 1]
    if not crowded:
        return None
    found = max(crowded, key=lambda rs: max(progress[o] for o in rs))
    for rs in crowded:
        if mover in rs:
            found = rs
    rank = {r: i for i, r in enumerate(s.order)}
    lander = found[0]  # every crowd holds a racer moved this turn (no two racers share a space between turns)
    for r in s.moved:
        if r in found:
            lander = r
    other = min((o for o in found if o != lander), key=lambda o: rank.get(o, o))
    return lander, other


def crash_turn(s: ScrapState) -> bool:
    """B) Doubles Rolled: this turn's dice hold a double (the crash card's turn, kept by ``begin_crash``)."""
    return len(set(s.dice)) < len(s.dice)


def jackal_ability(s: ScrapState, racer: int) -> bool:
    """Jackal: "automatically wins all fights against other racers" (SR-A2). Playing the Game: "A player may
    only use the ability of their racer when they are the active player", and "No player can use their
    racer's ability" on a crash turn: so only on its own player's turns that are not crash turns (issue 13);
    option ``jackal=every-fight``: in every fight."""
    if s.racer[racer] != "jackal":
        return False
    return s.g.jackal_every_fight or (s.owner[racer] == s.owner[s.active] and not crash_turn(s))


def next_fight(s: ScrapState, mover: int, events: list[Event]) -> bool:
    """3) Fight: racers sharing a space fight until every racer has a space of its own (True: waiting).
    Two racers of one player: the player chooses, Jackal or not (Changes in a 2-player game, Fights); else
    Jackal with its ability wins and moves 2 (SR-A2, SR-A3); else both roll."""
    pair = crowd(s, mover)
    if pair is None:
        return False
    a, b = pair
    s.fights += 1
    if s.g.per_player > 1 and s.owner[a] == s.owner[b]:
        s.need = (OWN_FIGHT_NEED, a, b)
        s.stage = FIGHT_CHOICE
        return True
    jackal = a if jackal_ability(s, a) else b if jackal_ability(s, b) else None
    if jackal is not None:
        other = b if jackal == a else a
        events.append(Event("fight", f"{s.names[jackal]} wins the fight against {s.names[other]} "
                            "automatically and moves 2", f"{RULE_ABILITY}: Jackal (SR-A2, SR-A3)"))
        win_fight(s, jackal, 2, events)
        return False
    return wait_for(s, (FIGHT_NEED, a, b))


def fight_roll(s: ScrapState, a: int, b: int, dice: tuple[int, ...], events: list[Event]) -> bool:
    """3) Both racers roll a die; the higher advances one space; a tie rolls again (True: waiting)."""
    die_a, die_b = dice
    events.append(Event("fight-roll", f"Fight: {s.names[a]} rolls {die_a}, {s.names[b]} rolls {die_b}", RULE_FIGHT,
                        {"dice": [die_a, die_b]}))
    if die_a == die_b:
        events.append(Event("fight-tie", "A tie: both roll again", RULE_FIGHT))
        return True
    win_fight(s, a if die_a > die_b else b, 1, events)
    return False


def win_fight(s: ScrapState, winner: int, spaces: int, events: list[Event]) -> None:
    """3) The winner advances; if it lands on another racer, a new fight follows."""
    move_forward(s, winner, spaces, events, rule=RULE_FIGHT)
    s.queue = (FIGHTS_STEPS[winner], *s.queue)


# --- B) Doubles Rolled, 1st Draw a crash card ---------------------------------------------------------

class CrashEffect(enum.Enum):
    """What a crash card does (Overview of Cards: Crash cards)."""

    FORWARD = "forward"
    TWO_DICE = "two-dice"
    FIVE_FORWARD_TWO_BACK = "five-forward-two-back"
    STAY_PUT = "stay-put"
    CATCHING_UP = "catching-up"
    BACKWARDS_DIE = "backwards-die"
    PUSH = "push"
    BACKWARDS = "backwards"
    LOSS_OF_POSITION = "loss-of-position"
    LAST_PLACE_FORWARD = "last-place"


CRASH_EFFECTS: Final = {
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


def begin_crash(s: ScrapState, events: list[Event]) -> None:
    """B) A double: the die is kept, the turn's move is a crash card from the pile of the double, then a
    fight and a bonus marker (no bonus cards, no ability: SR-A6)."""
    g = s.g
    pile = g.pile_of_double[s.die]
    s.crash_cards_drawn = increased(s.crash_cards_drawn, pile, 1)
    events.append(Event("double", f"{s.names[s.active]} rolled a double {s.die}: "
                        f"a crash card from the {g.pile_label(pile)} pile", RULE_CRASH, {"die": s.die}))
    s.dice = (*s.dice, s.die)
    s.die = 0
    r = s.order[s.turn]
    s.queue = (FIGHTS_STEPS[r], BONUS_MARKER_STEPS[r], CROSSINGS_STEP,
               REFILL_STEP, COLLECT_STEP, END_STEP)
    wait_for(s, (CRASH_CARD_NEED, pile))


def draw_card(s: ScrapState, deck_need: tuple[Any, ...], card: str) -> None:
    """Take a drawn card off its deck; crash and goal cards go to the discard pile at once."""
    deck = s.g.deck_for(deck_need)
    i = deck.cards.index(card)
    counts = s.decks[deck.index]
    draw = increased(counts.draw, i, -1)
    discard = increased(counts.discard, i, 1) if deck.discard_on_draw else counts.discard
    s.decks = replaced(s.decks, deck.index, DeckCounts(draw, discard))
    reshuffle_if_empty(s, deck_need)


def reshuffle_if_empty(s: ScrapState, deck_need: tuple[Any, ...]) -> None:
    """An empty draw pile takes its discard pile as a new (shuffled) deck."""
    deck = s.g.deck_for(deck_need)
    counts = s.decks[deck.index]
    if sum(counts.draw) == 0:
        s.decks = replaced(s.decks, deck.index, DeckCounts(counts.discard, (0,) * len(counts.discard)))


def crash_card(s: ScrapState, pile: int, card: str, events: list[Event]) -> bool:
    """1st Draw a crash card from the pile and apply its effect (True: it waits for a die roll)."""
    draw_card(s, (CRASH_CARD_NEED, pile), card)
    r = s.active
    g = s.g
    rule = f"Crash cards: {g.card_title(card)}"
    events.append(Event("crash-card", f"Crash card: {g.card_title(card)}. {g.content.texts.get(card, '')}".rstrip(),
                        rule, {"card": card}))
    effect, spaces = CRASH_EFFECTS.get(card, (CrashEffect.STAY_PUT, 0))
    if effect == CrashEffect.FORWARD:
        move_forward(s, r, spaces, events, rule=rule)
    elif effect == CrashEffect.TWO_DICE:
        return wait_for(s, (TWO_DICE_NEED,))
    elif effect == CrashEffect.FIVE_FORWARD_TWO_BACK:
        front = neighbour(s, r, -1)
        if front is not None:
            move_backward(s, front, 2, events, rule)
        move_forward(s, r, spaces, events, rule=rule)
    elif effect == CrashEffect.CATCHING_UP:
        behind = neighbour(s, r, +1)
        if behind is not None:
            move_forward(s, behind, spaces, events, rule=rule)
    elif effect == CrashEffect.BACKWARDS_DIE:
        return wait_for(s, (BACKWARDS_DIE_NEED,))
    elif effect == CrashEffect.PUSH:
        push(s, r, spaces, events, rule)
    elif effect == CrashEffect.BACKWARDS:
        move_backward(s, r, spaces, events, rule)
    elif effect == CrashEffect.LOSS_OF_POSITION:
        loss_of_position(s, r, events, rule)
    elif effect == CrashEffect.LAST_PLACE_FORWARD:
        move_forward(s, s.standings()[-1], spaces, events, rule=rule)
    # STAY_PUT: nothing moves
    return False


def two_dice_roll(s: ScrapState, dice: tuple[int, ...], events: list[Event]) -> None:
    """Crash cards, 2 dice: the active racer moves by two dice (no boost markers)."""
    first, second = dice
    rule = "Crash cards: 2 dice"
    events.append(Event("dice", f"{s.names[s.active]} rolls two dice: {first} + {second}", rule,
                        {"dice": [first, second]}))
    move_forward(s, s.active, first + second, events, rule=rule)


def backwards_die_roll(s: ScrapState, n: int, events: list[Event]) -> None:
    """Crash cards, Backwards die: the active racer moves back by one die."""
    rule = "Crash cards: Backwards die"
    events.append(Event("dice", f"{s.names[s.active]} rolls the backwards die: {n}", rule, {"die": n}))
    move_backward(s, s.active, n, events, rule)


def neighbour(s: ScrapState, r: int, step: int) -> int | None:
    """The racer directly in front of (-1) or behind (+1) racer ``r`` in the standings."""
    order = s.standings()
    i = order.index(r) + step
    return order[i] if 0 <= i < len(order) else None


def push(s: ScrapState, r: int, spaces: int, events: list[Event], rule: str) -> None:
    """Crash cards, Push 5: forward up to 5, stopping on a racer, who is pushed 2 spaces on (and fights)."""
    length = s.g.length
    start = s.progress[r]
    for step in range(1, spaces + 1):
        here = (start + step - 1) % length
        hit = [o for o in range(len(s.progress)) if o != r and s.progress[o] > 0 and s.space(o) == here]
        if hit:
            move_forward(s, r, step, events, rule=rule)
            move_forward(s, hit[0], 2, events, rule=rule)
            s.queue = (FIGHTS_STEPS[hit[0]], *s.queue[1:])  # the pushed racer fights
            return
    move_forward(s, r, spaces, events, rule=rule)


def loss_of_position(s: ScrapState, r: int, events: list[Event], rule: str) -> None:
    """Crash cards, Loss of position: just behind the last racer, never behind the finish line (SR-A1)."""
    last = s.standings()[-1]
    if last == r or s.progress[r] == 0:
        return
    move_backward(s, r, s.progress[r] - (s.progress[last] - 1), events, rule)


# --- B) Doubles Rolled, 2nd Taking a bonus marker -----------------------------------------------------

def take_bonus_marker(s: ScrapState, r: int, events: list[Event]) -> bool:
    """2nd Take a bonus marker; the third (Hover: second) becomes a hidden bonus card and the markers go
    back (the numbers are content); none when the supply is empty (SR-G7). True: waiting for the card."""
    if s.bonus_supply == 0:
        events.append(Event("marker", "No bonus markers left in the supply", f"{RULE_MARKER} (SR-G7)"))
        return False
    s.bonus_supply -= 1
    s.bonus_markers = increased(s.bonus_markers, r, 1)
    need = s.g.hover_markers_per_card if s.racer[r] == "hover" else s.g.markers_per_card
    events.append(Event("marker", f"{s.names[r]} takes bonus marker {s.bonus_markers[r]} of {need}", RULE_MARKER))
    if s.bonus_markers[r] < need:
        return False
    s.bonus_supply += s.bonus_markers[r]
    s.bonus_markers = increased(s.bonus_markers, r, -s.bonus_markers[r])
    reshuffle_if_empty(s, (BONUS_CARD_NEED,))
    if sum(s.decks[s.g.bonus_deck.index].draw) == 0:
        events.append(Event("marker", "The bonus deck is empty: no card", RULE_MARKER))
        return False
    return wait_for(s, (BONUS_CARD_NEED, s.owner[r]))


def bonus_card_drawn(s: ScrapState, seat: int, card: str, events: list[Event]) -> None:
    """2nd The bonus card is drawn into the seat's hidden hand (every seat sees that a card was drawn)."""
    g = s.g
    draw_card(s, (BONUS_CARD_NEED,), card)
    i = g.bonus_deck.cards.index(card)
    hand = s.bonus_cards[seat]
    s.bonus_cards = replaced(s.bonus_cards, seat, increased(hand, i, 1))
    s.bonus_cards_drawn += 1
    events.append(Event("bonus-draw", f"{g.seat_name(seat)} draws a bonus card", RULE_MARKER))
    events.append(Event("bonus-draw", f"{g.seat_name(seat)} draws the bonus card {g.card_title(card)}", RULE_MARKER,
                        {"card": card}, frozenset((seat,))))


# --- Crossing the finish line and collecting Boost markers --------------------------------------------

GOAL_CARDS: Final = {"last-place": (-1, 7), "last-two": (-2, 5), "all-but-first": (1, 2), "all-but-first-two": (2, 3)}
"""Each goal card as the racers it moves (a slice start into the standings: -1 the last racer, 1 all but
the first) and the spaces they move."""


def next_crossing(s: ScrapState, events: list[Event]) -> bool:
    """1st Crossing the finish line: a lap marker and a goal card, one racer at a time clockwise from the
    active one (SR-A11); the third lap marker draws no goal card and ends the race after the round."""
    length = s.g.length
    order, progress, laps, turn = s.order, s.progress, s.laps, s.turn
    n = len(order)
    for k in range(n):
        r = order[(turn + k) % n]
        if laps[r] < LAPS_TO_FINISH and progress[r] > (laps[r] + 1) * length:  # (p - 1) // length > laps[r]
            s.crossed = True
            s.laps = laps = increased(laps, r, 1)
            events.append(Event("lap", f"{s.names[r]} crosses the finish line: lap marker {laps[r]}", RULE_CROSS,
                                {"racer": s.racer[r], "laps": laps[r]}))
            s.queue = (CROSSINGS_STEP, *s.queue)
            if laps[r] == LAPS_TO_FINISH:
                if not s.end_round:
                    s.end_round = s.round
                    events.append(Event("end", f"{s.names[r]} has three lap markers: the race ends when the "
                                        "round is complete", RULE_END))
                return False
            s.queue = (FIGHTS_STEPS[r], *s.queue)
            return wait_for(s, (GOAL_CARD_NEED, r))
    return False


def goal_card(s: ScrapState, r: int, card: str, events: list[Event]) -> None:
    """Goal cards: the racers the card names (by the standings) move forward."""
    g = s.g
    draw_card(s, (GOAL_CARD_NEED,), card)
    rule = f"Goal cards: {g.card_title(card)}"
    events.append(Event("goal-card", f"{s.names[r]} draws the goal card {g.card_title(card)}. "
                        f"{g.content.texts.get(card, '')}".rstrip(), rule, {"card": card}))
    first_mover, spaces = GOAL_CARDS[card]
    for mover in s.standings()[first_mover:]:
        move_forward(s, mover, spaces, events, rule=rule)


def refill_boost_spaces(s: ScrapState, events: list[Event]) -> None:
    """2) After a crossing (``crossed``), empty boost spaces are refilled from the finite supply, from
    the line on; a racer on a refilled space reveals its marker."""
    reveals = []
    filled = s.boost_spaces_filled
    for i, space in enumerate(s.g.track.boost):
        if s.boost_supply == 0:
            break
        if not filled[i]:
            filled = replaced(filled, i, True)
            s.boost_supply -= 1
            events.append(Event("refill", f"A boost marker is placed face down on space {space + 1}", RULE_REFILL))
            for r in range(len(s.progress)):
                if s.progress[r] > 0 and s.space(r) == space:
                    reveals.append(REVEAL_STEPS[r])
    s.boost_spaces_filled = filled
    s.queue = (*reveals, *s.queue)


def reveal_boost_marker(s: ScrapState, r: int) -> bool:
    """Collecting Boost markers: a racer on a filled boost space reveals (collects) the marker: at the end
    of the active racer's turn, and for a racer on a space just refilled (True: waiting for the marker)."""
    if s.progress[r] == 0:
        return False
    i = s.g.boost_slot.get(s.space(r))
    if i is None or not s.boost_spaces_filled[i]:
        return False
    return wait_for(s, (BOOST_MARKER_NEED, r, i))


def boost_marker_revealed(s: ScrapState, r: int, i: int, boost_type: str, events: list[Event]) -> None:
    """Collecting Boost markers: the racer keeps the marker revealed; the space is empty."""
    t = BOOST_TYPES.index(boost_type)
    s.boost_spaces_filled = replaced(s.boost_spaces_filled, i, False)
    s.unseen_boosts = increased(s.unseen_boosts, t, -1)
    give_boost_markers(s, r, t, 1)
    events.append(Event("boost-collect", f"{s.names[r]} collects a boost marker: {s.g.card_title(boost_type)}",
                        RULE_COLLECT, {"racer": s.racer[r], "marker": boost_type}))


def end_turn(s: ScrapState, events: list[Event]) -> None:
    """Play then passes to the next player clockwise; after the round in which a racer took its third lap
    marker, the race ends."""
    s.turns += 1
    s.turn += 1
    s.dice = ()
    s.die = 0
    s.need = ()
    if s.turn == len(s.progress):
        s.turn = 0
        if s.end_round:
            finish(s, events)
            return
        s.round += 1
    begin_turn(s, events)


# --- End of the game and Awards Ceremony --------------------------------------------------------------

def finish(s: ScrapState, events: list[Event]) -> None:
    """End of the game: the racer farthest ahead wins (the team game: ``team_order``)."""
    s.stage = OVER
    s.need = ()
    g = s.g
    standings = s.standings()
    if g.per_player == 1:
        order = tuple(s.owner[r] for r in standings)
        leader = standings[0]
        reason = (f"{s.names[leader]} ({g.seat_name(s.owner[leader])}) completed three laps and is "
                  "farthest ahead")
    else:
        order, reason = team_order(s, standings)
    s.outcome = (order, (order[0],), reason)
    events.append(Event("result", f"The race is over: {reason}", RULE_END, {"order": list(order)}))


# --- Changes in a 2-player game (and the 3-player variant) --------------------------------------------

def choose_first_racer(s: ScrapState, racer_id: str, events: list[Event]) -> None:
    """Turn order: the players take turns choosing which of their racers goes next, the start player
    first."""
    seat = s.order_chooser()
    mine = s.g.racers_of(seat)
    first = next(r for r in mine if s.racer[r] == racer_id)
    s.order = (*s.order, first, *(r for r in mine if r != first))
    events.append(Event("order", f"{s.g.seat_name(seat)} sends {s.names[first]} first", RULE_TEAM))
    begin_turn(s, events)


def choose_fight_winner(s: ScrapState, racer_id: str, events: list[Event]) -> None:
    """Fights: when two racers of one player fight, the player decides which one wins."""
    a, b = s.need[1], s.need[2]
    winner = a if s.racer[a] == racer_id else b
    loser = b if winner == a else a
    events.append(Event("fight", f"{s.g.seat_name(s.owner[winner])} lets {s.names[winner]} "
                        f"win the fight against {s.names[loser]}", RULE_TEAM))
    win_fight(s, winner, 1, events)
    run_queue(s, events)


def team_order(s: ScrapState, standings: list[int]) -> tuple[tuple[int, ...], str]:
    """End of the game: players with a racer that completed three laps first, then by their second
    racer (SR-A12)."""
    g = s.g
    place = {r: i for i, r in enumerate(standings)}

    def key(seat: int) -> tuple[int, int, int]:
        mine = g.racers_of(seat)
        finished = sum(1 for r in mine if s.laps[r] >= LAPS_TO_FINISH)
        rear = max(place[r] for r in mine)
        front = min(place[r] for r in mine)
        return (-finished, rear, front)

    order = tuple(sorted(range(g.players), key=key))
    best = order[0]
    finishers = [seat for seat in range(g.players) if key(seat)[0] < 0]
    if len(finishers) == 1:
        reason = f"{g.seat_name(best)} is the only player with a racer that completed three laps"
    else:
        reason = f"{g.seat_name(best)}'s second racer is farthest ahead"
    return order, reason
