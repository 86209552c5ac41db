"""Highway Heist's turn flow: how a match moves from one decision to the next, in the order of play.

The rules themselves are small functions in ``rules.py`` (and the effect language in ``effects.py``);
this module sequences them: the team picks who plays (a choice open to every seat not yet Exhausted) ->
up to two actions, each Skill Roll with an Assist window (every other seat with a Boost token), the roll
(chance), the Special Powers' windows and the roller's Boost -> the action performed -> the Enemy Die
(chance) and what it starts -> after the last turn, Road Maintenance and Stunt Card Maintenance. Enemy
effects, damage and maintenance wait in ``state.queue`` as ``Task``s; a Defense roll or a choice pauses
the queue and the action that settles it resumes it (``advance``).

``apply_action`` is ``HeistState._do``: one action on the fresh copy ``apply`` made, by the copy rule of
``engine.fields``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event

from . import effects, notation, rules
from .notation import NO_SPACE, WHEEL, Action, Verb
from .types import (
    ABANDONED,
    BEHIND_WHEEL,
    CONTROL,
    DEFENSE,
    HIJACKED,
    PLAYER,
    ROLL_VERBS,
    SPEED,
    SUV,
    Choice,
    ChoiceKind,
    Phase,
    Roll,
    RollKind,
    Stage,
    Task,
    TaskKind,
)
from .words import dice_words, roll_words

if TYPE_CHECKING:
    from .state import HeistState


# --- one action (Playing the Game; Take Two Actions) --------------------------------------------------------


def apply_action(state: HeistState, action: str) -> list[Event]:
    events: list[Event] = []
    act = notation.PARSED[action]
    verb = act.verb
    stage = state.stage
    state.stage = Stage.AUTO
    if stage is Stage.CHOOSE_TURN:
        state.active = act.seat
        state.actions_left = 2
        state.wheelman_used = False
        state.phase = Phase.ACTIONS
        events.append(Event("turn", f"{state.g.seat_name(act.seat)} takes a turn", "Playing the Game"))
        rules.return_stranded_peg(state, act.seat, events)
    elif stage is Stage.ASSIST:
        assist(state, act.seat, verb is Verb.ASSIST, events)
    elif stage is Stage.ROLL:
        rolled(state, act.dice, events)
    elif stage is Stage.POWER:
        use_power(state, act, events)
    elif stage is Stage.REROLL:
        rerolled(state, act.dice, events)
    elif stage is Stage.BOOST:
        boost_roll(state, verb is Verb.BOOST, events)
    elif stage is Stage.CHOICE:
        answer_choice(state, act, events)
    elif stage is Stage.ENEMY_DIE:
        face = act.name
        events.append(Event("enemy-die", f"the Enemy Die shows {state.g.words.face_names[face]}",
                            "Roll the Enemy Die"))
        state.phase = Phase.ENEMY
        state.queue = (*rules.enemy_die_tasks(state, face), *state.queue)
    elif stage is Stage.ENEMY_CARD:
        rules.reveal_enemy_card(state, act.name, events)
    elif stage is Stage.STUNT_CARD:
        rules.reveal_stunt(state, act.name, events)
    else:
        take_action(state, action, act, events)
    advance(state, events)
    return events


def take_action(state: HeistState, text: str, act: Action, events: list[Event]) -> None:
    """Take Two Actions: an action without a Skill Roll happens now; one with a roll starts it."""
    seat, verb = state.active, act.verb
    state.actions_left -= 1
    if verb is Verb.END_TURN:
        state.actions_left = 0
        return
    if verb is Verb.TAKE_BOOST:
        state.actions_left = 0
        state.boost = replaced(state.boost, seat, state.boost[seat] + 1)
        state.boost_supply -= 1
        events.append(Event("boost", f"{state.g.seat_name(seat)} takes a Boost token as the last action",
                            "Take Boost Token"))
        return
    if verb in ROLL_VERBS or verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
        skill, need, ram = rules.roll_of(state, act)
        if verb is Verb.RAM:
            ram = True
        if ram and rules.vehicle_power(state, seat) == "battering_ram":
            need -= 1
        begin_roll(state, RollKind.ACTION, seat, rules.rating(state, seat, skill), max(0, need), text, skill=skill,
                   declared=act)
        events.append(Event("attempt", f"{state.g.seat_name(seat)} attempts {state.g.words.attempt(state.g, text)}: "
                            f"{roll_words(skill, max(0, need))}", "Skill Rolls"))
        return
    perform(state, act, events)


# --- Skill Rolls: the Assist, Special Power and Boost windows (Skill Rolls; HH-G6) --------------------------


def begin_roll(state: HeistState, kind: RollKind, seat: int, dice: int, need: int, action: str = "",
               damage: int = 0, skill: int = DEFENSE, declared: Action | None = None) -> None:
    """Skill Rolls: the dice of the rating (at most five), then the Assist window. ``declared`` is the
    action (``action`` parsed) an ACTION roll performs on success."""
    dice = min(dice, state.g.max_dice)
    state.roll = Roll(kind, seat, dice, need, action, damage, skill=skill, declared=declared)
    open_assist(state)


def open_assist(state: HeistState) -> None:
    roll = state.roll
    if roll is None:
        return
    if roll.dice < state.g.max_dice:
        state.waiting = frozenset(seat for seat in state.g.seats if seat != roll.seat and state.boost[seat] > 0)
    else:
        state.waiting = frozenset()
    state.stage = Stage.ASSIST if state.waiting else Stage.ROLL


def assist(state: HeistState, seat: int, assisting: bool, events: list[Event]) -> None:
    """Assist (team member): each token discarded before the roll adds two dice, never above five."""
    roll = state.roll
    if roll is None:
        return
    waiting = state.waiting - {seat}
    if assisting:
        state.boost = replaced(state.boost, seat, state.boost[seat] - 1)
        state.boost_supply += 1
        dice = min(roll.dice + 2, state.g.max_dice)
        state.roll = roll._replace(dice=dice)
        events.append(Event("assist", f"{state.g.seat_name(seat)} Assists: {dice} dice", "Assist (Team Member)"))
        if state.boost[seat] > 0:
            waiting = waiting | {seat}
        if dice >= state.g.max_dice:
            waiting = frozenset()
    state.waiting = waiting
    state.stage = Stage.ASSIST if waiting else Stage.ROLL


def rolled(state: HeistState, faces: tuple[int, int, int], events: list[Event]) -> None:
    roll = state.roll
    if roll is None:
        return
    roll = roll._replace(faces=faces, bonus=rules.roll_bonus(state, roll.seat))
    state.roll = roll
    events.append(Event("roll", f"{state.g.seat_name(roll.seat)} rolls {dice_words(faces)}", "Skill Rolls"))
    after_roll(state, events)


def after_roll(state: HeistState, events: list[Event]) -> None:
    """After the dice: Brian's reroll, Tej's token, then the roller's Boost, each only offered where
    it can still change the outcome; then the roll resolves."""
    roll = state.roll
    if roll is None:
        return
    _, boosts, blanks = roll.faces
    short = boost_matters(state, roll)
    if (short and roll.kind is RollKind.ACTION and not roll.rerolled and not state.wheelman_used
            and roll.skill in (SPEED, CONTROL) and boosts + blanks > 0
            and state.g.characters[roll.seat].power == "wheelman"):
        open_power(state, "wheelman", roll.seat)
        return
    if short and not roll.teched and blanks > 0 and state.tej_tokens > 0:
        tej = next(s for s, c in enumerate(state.g.characters) if c.power == "tech_support")
        open_power(state, "tech", tej)
        return
    if state.boost[roll.seat] > 0 and boosts > 0 and short:
        state.stage = Stage.BOOST
        return
    resolve_roll(state, events)


def open_power(state: HeistState, power: str, seat: int, data: tuple[int, int] = (0, 0)) -> None:
    state.power, state.power_seat, state.power_data = power, seat, data
    state.stage = Stage.POWER


def use_power(state: HeistState, act: Action, events: list[Event]) -> None:
    """Special Powers (HH-G6): Wheelman, Tech Support and Family First, used or passed."""
    power, seat = state.power, state.power_seat
    state.power, state.power_seat = "", -1
    roll = state.roll
    if power == "family":
        victim, amount = state.power_data
        if act.verb is Verb.TAKE_SLAM:
            state.family_first_used = state.family_first_used | {seat}
            events.append(Event("power", f"{state.g.seat_name(seat)} takes the slam for "
                                f"{state.g.seat_name(victim)} ({state.g.words.power_names['family_first']})",
                                "Special Powers"))
            victim = seat
        rules.push_front(state, Task(TaskKind.DAMAGE, victim, amount=amount))
        return
    if roll is None:
        return
    if power == "wheelman":
        if act.verb is Verb.REROLL:
            state.wheelman_used = True
            successes, boosts, blanks = roll.faces
            kept = (successes, boosts - 1, blanks) if act.name == "boost" else (successes, boosts, blanks - 1)
            state.roll = roll._replace(faces=kept, rerolled=True)
            events.append(Event("power", f"{state.g.seat_name(seat)} rerolls a die showing a {act.name} "
                                f"({state.g.words.power_names['wheelman']})", "Special Powers"))
            state.stage = Stage.REROLL
            return
        state.roll = roll._replace(rerolled=True)
    elif act.verb is Verb.TECH:
        state.tej_tokens -= 1
        successes, boosts, blanks = roll.faces
        state.roll = roll._replace(faces=(successes + 1, boosts, blanks - 1), teched=True)
        events.append(Event("power", f"{state.g.seat_name(seat)} spends a Tej token: a blank die becomes a "
                            f"success ({state.g.words.power_names['tech_support']})", "Special Powers"))
    else:
        state.roll = roll._replace(teched=True)
    after_roll(state, events)


def rerolled(state: HeistState, die: tuple[int, int, int], events: list[Event]) -> None:
    roll = state.roll
    if roll is None:
        return
    faces = (roll.faces[0] + die[0], roll.faces[1] + die[1], roll.faces[2] + die[2])
    state.roll = roll._replace(faces=faces)
    events.append(Event("roll", f"the rerolled die shows {('success', 'boost', 'blank')[die.index(1)]}",
                        "Special Powers"))
    after_roll(state, events)


def boost_matters(state: HeistState, roll: Roll) -> bool:
    got = rules.roll_successes(roll)
    if roll.kind is RollKind.DEFENSE:
        return got < roll.damage
    return got < roll.need


def boost_roll(state: HeistState, boost: bool, events: list[Event]) -> None:
    """Boost (yourself): after rolling, one token makes every boost face a success."""
    roll = state.roll
    if roll is None:
        return
    if boost:
        state.boost = replaced(state.boost, roll.seat, state.boost[roll.seat] - 1)
        state.boost_supply += 1
        state.roll = roll._replace(boosted=True)
        events.append(Event("boost", f"{state.g.seat_name(roll.seat)} Boosts the roll", "Boost (Yourself)"))
    resolve_roll(state, events)


def resolve_roll(state: HeistState, events: list[Event]) -> None:
    roll = state.roll
    if roll is None:
        return
    state.roll = None
    got = rules.roll_successes(roll)
    if roll.kind is RollKind.DEFENSE:
        taken = max(0, roll.damage - got)
        board = state.board[roll.seat]
        vehicle = f"the {state.g.boards[board].name}" if board >= 0 else "the vehicle"
        events.append(Event("defense", f"{state.g.seat_name(roll.seat)} blocks {min(got, roll.damage)} of "
                            f"{roll.damage} damage: {vehicle} takes {taken}", "Damage and Defense"))
        rules.apply_damage(state, roll.seat, taken, events)
        return
    if got < roll.need:
        events.append(Event("fail", f"{got} of {roll.need} successes: {state.g.words.attempt(state.g, roll.action)} "
                            "fails", "Skill Rolls"))
        return
    events.append(Event("success", f"{got} of {roll.need} successes: {state.g.words.attempt(state.g, roll.action)} "
                        "succeeds", "Skill Rolls"))
    if roll.declared is not None:
        perform(state, roll.declared, events)


# --- the action performed (Take Two Actions; Stunt Actions) -------------------------------------------------


def perform(state: HeistState, act: Action, events: list[Event]) -> None:
    """The action itself, once any Skill Roll succeeded (Take Two Actions; Stunt Actions)."""
    seat, verb = state.active, act.verb
    who = state.g.seat_name(seat)
    target = rules.space_of(state, act.space) if act.space not in (NO_SPACE, WHEEL) else -1
    at = rules.occupancy(state).get(target, -1) if target >= 0 else -1
    if verb is Verb.DRIVE:
        rules.set_piece(state, state.vehicle[seat], state.pieces[state.vehicle[seat]]._replace(space=target))
        events.append(Event("drive", f"{who} drives to {rules.name(state, target)}", "Drive"))
    elif verb is Verb.LEAP:
        if act.space == WHEEL:
            state.peg_on = replaced(state.peg_on, seat, BEHIND_WHEEL)
            events.append(Event("leap", f"{who} leaps back behind the wheel", "Leap"))
        else:
            state.peg_on = replaced(state.peg_on, seat, at)
            events.append(Event("leap", f"{who} leaps on top of {rules.piece_words(state, at)}", "Leap"))
    elif verb is Verb.RAM:
        events.append(Event("ram", f"{who} rams {rules.piece_words(state, at)} into a Wreck", "Ram Enemy SUV"))
        rules.make_wreck(state, at, events)
    elif verb is Verb.FORCE:
        options = rules.reachable(state, target, rules.force_range(state, seat), rules.occupancy(state))
        choices = tuple(sorted(rules.space_action(state, Verb.TO, o) for o in options))
        rules.ask(state, Choice(ChoiceKind.FORCE_TO, seat, choices, piece=at, vacated=target, follow=True))
    elif verb is Verb.SHAKE:
        piece = state.vehicle[seat]
        rules.set_piece(state, piece, state.pieces[piece]._replace(enemy_peg=False))
        events.append(Event("shake", f"{who} shakes the Enemy Peg off {rules.piece_words(state, piece)}", "Shake"))
    elif verb is Verb.BRAWL:
        piece = state.peg_on[seat]
        rules.set_piece(state, piece, state.pieces[piece]._replace(enemy_peg=False))
        events.append(Event("brawl", f"{who} Brawls the Enemy Peg off {rules.piece_words(state, piece)}", "Brawl"))
        if state.g.characters[seat].power == "parkour":
            free_leap(state, seat)
    elif verb is Verb.HIJACK:
        hijack(state, seat, events)
    else:
        card = (state.g.stunt_cards if verb is Verb.STUNT else state.g.scenario_actions)[act.name]
        if verb is Verb.STUNT:
            spot = state.stunt_row.index(act.name)
            rules.take_stunt_token(state, seat, spot)
        events.append(Event("stunt", f"{who} performs {card.name}", "Stunt Actions"))
        state.queue = (*(Task(TaskKind.EFFECT, line=line, seat=seat, target=at) for line in card.reward),
                      *state.queue)


def free_leap(state: HeistState, seat: int) -> None:
    """Han's Parkour (HH-G6): after a successful Brawl, a free Leap of one space (or stay)."""
    here = rules.peg_space(state, seat)
    options = [rules.space_action(state, Verb.LEAP, state.pieces[i].space) for i in rules.leap_targets(state, seat)
               if rules.dist(state, here, state.pieces[i].space) <= 1]
    if state.vehicle[seat] >= 0 and rules.dist(state, here, state.pieces[state.vehicle[seat]].space) <= 1:
        options.append("leap:wheel")
    if options:
        rules.ask(state, Choice(ChoiceKind.FREE_LEAP, seat, tuple(sorted([*options, "stay"]))))


def hijack(state: HeistState, seat: int, events: list[Event]) -> None:
    """Hijack Enemy SUV: the SUV becomes your Player Vehicle (Hijacked SUV board, full Strength, behind
    the wheel); a starting vehicle is abandoned for good, a hijacked one goes back to the enemy."""
    piece = state.peg_on[seat]
    old = state.vehicle[seat]
    if old >= 0:
        p = state.pieces[old]
        if p.kind == PLAYER:
            rules.set_piece(state, old, p._replace(kind=ABANDONED))
        else:
            rules.set_piece(state, old, p._replace(kind=SUV, owner=-1))
    rules.set_piece(state, piece, state.pieces[piece]._replace(kind=HIJACKED, owner=seat))
    state.vehicle = replaced(state.vehicle, seat, piece)
    state.board = replaced(state.board, seat, state.g.hijacked_board)
    state.damage = replaced(state.damage, seat, 0)
    state.peg_on = replaced(state.peg_on, seat, BEHIND_WHEEL)
    events.append(Event("hijack", f"{state.g.seat_name(seat)} hijacks the Enemy SUV in "
                        f"{rules.name(state, state.pieces[piece].space)}", "Hijack Enemy SUV"))


# --- a choice inside an action or an enemy effect answered --------------------------------------------------


def answer_choice(state: HeistState, act: Action, events: list[Event]) -> None:
    choice = state.choice
    if choice is None:
        return
    state.choice = None
    kind = choice.kind
    space = rules.space_of(state, act.space) if act.space != NO_SPACE else -1
    taken = rules.occupancy(state)
    if kind in (ChoiceKind.FORCE_TO, ChoiceKind.MOVE_TO):
        moved = rules.piece_words(state, choice.piece)
        rules.set_piece(state, choice.piece, state.pieces[choice.piece]._replace(space=space))
        rule = "Force" if kind is ChoiceKind.FORCE_TO else "Stunt Actions"
        events.append(Event("move", f"{moved} moves to {rules.name(state, space)}", rule))
        seat = choice.seat
        if choice.follow and rules.manned(state, seat) and can_follow(state, seat, choice.vacated):
            rules.ask(state, Choice(ChoiceKind.FOLLOW, seat, ("follow", "stay"), vacated=choice.vacated))
    elif kind is ChoiceKind.FOLLOW:
        if act.verb is Verb.FOLLOW:
            piece = state.vehicle[choice.seat]
            rules.set_piece(state, piece, state.pieces[piece]._replace(space=choice.vacated))
            who = state.g.seat_name(choice.seat)
            events.append(Event("move", f"{who} follows into {rules.name(state, choice.vacated)}", "Force"))
    elif kind is ChoiceKind.DIRECTION:
        if act.name != "none":
            rules.main_move(state, act.name, choice.seat, events)
    elif kind is ChoiceKind.PEG:
        rules.place_player_peg(state, choice.seat, taken[space], events)
    elif kind is ChoiceKind.SLAM:
        victim = state.pieces[taken[space]].owner
        events.append(Event("slam", f"{rules.piece_words(state, taken[space])} is slammed for {choice.amount} damage",
                            "Roll the Enemy Die: Slam"))
        # as a slam with one target: Dom's Family First may take it first (HH-G6)
        rules.push_front(state, Task(TaskKind.FAMILY_FIRST, victim, amount=choice.amount))
    elif kind is ChoiceKind.HIT:
        victim = state.pieces[taken[space]].owner
        events.append(Event("hit", f"the team chooses {rules.piece_words(state, taken[space])} to take the hit "
                            f"of {choice.amount} damage", "HH-X2"))
        rules.push_front(state, Task(TaskKind.DAMAGE, victim, amount=choice.amount))
    elif kind is ChoiceKind.REMOVE_PEG:
        if space >= 0:
            piece = taken[space]
            rules.set_piece(state, piece, state.pieces[piece]._replace(enemy_peg=False))
            events.append(Event("peg", f"the Enemy Peg on {rules.piece_words(state, piece)} returns to the supply",
                                "Stunt Actions"))
    elif kind is ChoiceKind.ENEMY_PEG:
        rules.place_enemy_peg(state, choice.piece, taken[space], "FAQ: the team decides", events)
    elif kind is ChoiceKind.FREE_LEAP:
        if act.space == WHEEL:
            state.peg_on = replaced(state.peg_on, choice.seat, BEHIND_WHEEL)
            events.append(Event("leap", f"{state.g.seat_name(choice.seat)} leaps back behind the wheel "
                                f"({state.g.words.power_names['parkour']})", "Special Powers"))
        elif space >= 0:
            state.peg_on = replaced(state.peg_on, choice.seat, taken[space])
            events.append(Event("leap", f"{state.g.seat_name(choice.seat)} leaps onto "
                                f"{rules.piece_words(state, taken[space])} ({state.g.words.power_names['parkour']})",
                                "Special Powers"))
    elif kind is ChoiceKind.PEG_ORDER:
        rules.move_peg_first(state, choice.origin, -1 if act.name == "enemy" else int(act.name))
    elif kind is ChoiceKind.RAMSEY:
        state.ramsey = taken[space]
        events.append(Event("ramsey", f"Ramsey moves to {rules.piece_words(state, taken[space])}",
                            "Chopper Takedown: Ramsey"))


def can_follow(state: HeistState, seat: int, space: int) -> bool:
    """Force: the vacated space is free for the Active Player Vehicle to follow into."""
    here = state.pieces[state.vehicle[seat]].space
    return space not in rules.occupancy(state) and rules.dist(state, here, space) == 1


# --- the queue and the round (Roll the Enemy Die; End of Round) -------------------------------------


def advance(state: HeistState, events: list[Event]) -> None:
    """Work the queue until a decision or a chance outcome is needed; then move the round on."""
    while True:
        rules.check_objective(state, events)
        if state.outcome:
            state.stage = Stage.OVER
            state.queue = ()
            state.roll = None
            state.choice = None
            state.waiting = frozenset()
            state.power, state.power_seat = "", -1
            return
        if state.stage is not Stage.AUTO:
            return
        if state.queue:
            task = state.queue[0]
            state.queue = state.queue[1:]
            run_task(state, task, events)
            continue
        if state.phase is Phase.ACTIONS:
            state.stage = Stage.ACTION if state.actions_left > 0 else Stage.ENEMY_DIE
            return
        if state.phase is Phase.ENEMY:
            state.exhausted = replaced(state.exhausted, state.active, True)
            state.active = -1
            if all(state.exhausted):
                state.phase = Phase.END_ROUND
                events.append(Event("round", f"end of round {state.round}", "End of Round"))
                state.queue = (Task(TaskKind.ROAD_MAINTENANCE), Task(TaskKind.STUNT_MAINTENANCE))
                continue
            state.stage = Stage.CHOOSE_TURN
            return
        if state.phase is Phase.END_ROUND:
            state.round += 1
            state.exhausted = (False,) * state.g.players
            state.family_first_used = frozenset()
        state.stage = Stage.CHOOSE_TURN
        return


def run_task(state: HeistState, task: Task, events: list[Event]) -> None:
    kind = task.kind
    if kind is TaskKind.EFFECT and task.line is not None:
        effects.run_effect(state, task.line, task.seat, task.target, events)
    elif kind is TaskKind.SUV:
        rules.activate_suv(state, task.piece, events)
    elif kind is TaskKind.PEG:
        rules.activate_peg(state, task.piece, events)
    elif kind is TaskKind.SHAW:
        rules.activate_shaw(state, events)
    elif kind is TaskKind.DAMAGE:
        seat = task.seat
        if state.vehicle[seat] >= 0 and task.amount > 0:
            begin_roll(state, RollKind.DEFENSE, seat, rules.defense_dice(state, seat), 0, damage=task.amount)
    elif kind is TaskKind.CARD:
        rules.enemy_card_step(state, events)
    elif kind is TaskKind.DRAW_ENEMY:
        if not state.enemy_deck:
            state.enemy_deck = state.enemy_discard
            state.enemy_discard = ()
            events.append(Event("card", "the Enemy discard pile is shuffled into a new deck", "Enemy Cards"))
        if state.enemy_deck:
            state.stage = Stage.ENEMY_CARD
    elif kind is TaskKind.ROAD_MAINTENANCE:
        state.queue = (*rules.road_maintenance_tasks(state), *state.queue)
    elif kind is TaskKind.WRECK_MOVE:
        rules.move_wreck(state, task.piece, events)
    elif kind is TaskKind.DRIFT:
        rules.drift(state, task.piece, events)
    elif kind is TaskKind.STUNT_MAINTENANCE:
        if rules.stunt_maintenance(state, events):
            state.stage = Stage.STUNT_CARD
    elif kind is TaskKind.RELOCATE:
        rules.relocate_player_peg(state, task.seat, task.origin, events)
    elif kind is TaskKind.ENEMY_RELOCATE:
        rules.relocate_enemy_peg(state, task.origin, events)
    elif kind is TaskKind.RAMSEY:
        rules.move_ramsey(state, task.origin, events)
    elif kind is TaskKind.PEG_ORDER:
        rules.order_pegs(state, task.origin)
    elif kind is TaskKind.FAMILY_FIRST:
        dom = rules.family_first_seat(state, task.seat)
        if dom >= 0:
            open_power(state, "family", dom, (task.seat, task.amount))
        else:
            rules.push_front(state, Task(TaskKind.DAMAGE, task.seat, amount=task.amount))
