"""Highway Heist's effect language (content section 0.2): the lines of Enemy cards, Stunt Rewards and
scenario actions, run one at a time from the state's queue (``TaskKind.EFFECT``, ``turn.run_task``).

``select`` reads a selector (``each_pv``, ``pv_adjacent:semi_cab``, ``target``, ...) as pieces in
Resolution Order; ``run_effect`` does one line by its verb with the rules of ``rules.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slipstream.engine.game import Event

from . import notation, rules
from .content import Line
from .types import SHAW, WRECK, Choice, ChoiceKind, Task, TaskKind

if TYPE_CHECKING:
    from .state import HeistState


def select(state: HeistState, selector: str, seat: int, target: int) -> list[int]:
    """The pieces a selector names, in Resolution Order."""
    head, _, piece = selector.partition(":")
    vehicles = rules.player_vehicles(state)
    if selector == "each_pv":
        return vehicles
    if selector == "active_pv":
        return [state.vehicle[state.active]] if state.active >= 0 and state.vehicle[state.active] >= 0 else []
    if selector == "ramsey_pv":
        return [state.ramsey] if state.ramsey >= 0 else []
    if selector == "self":
        return [state.vehicle[seat]] if seat >= 0 and state.vehicle[seat] >= 0 else []
    if selector == "target":
        return [target] if target >= 0 and state.pieces[target].space >= 0 else []
    if selector == "roof":
        return [state.peg_on[seat]] if seat >= 0 and state.peg_on[seat] >= 0 else []
    if selector == "each_enemy_suv":
        return rules.enemy_suvs(state)
    if selector == "pv_in_throw_zone":
        zone = rules.throw_zone(state)
        return [i for i in vehicles if state.pieces[i].space in zone]
    if selector == "pv_with_cargo":
        return [i for i in vehicles if state.pieces[i].cargo > 0]
    if head == "pv_adjacent":
        return [i for i in vehicles if rules.near(state, state.pieces[i].space, piece, "adjacent")]
    if head == "pv_same_lane":
        return [i for i in vehicles if any(rules.lane(state, state.pieces[i].space) == rules.lane(state, o)
                                           for o in rules.named_spaces(state, piece))]
    if head == "pv_within1":
        return [i for i in vehicles if rules.near(state, state.pieces[i].space, piece, "within", 1)]
    return rules.named_pieces(state, selector)


def run_effect(state: HeistState, line: Line, seat: int, target: int, events: list[Event]) -> None:
    """One line of an Enemy card, a Stunt Reward or a scenario action."""
    verb, words, n = line.verb, line.words, line.number
    if verb == "place_suv":
        dc = -1 if words[0] == "behind" else 1
        for anchor in select(state, words[1], seat, target):
            if not rules.place_suv_from(state, rules.step(state, state.pieces[anchor].space, dc, 0), dc, 0, events):
                break
    elif verb == "place_suv_lane":
        active_vehicle = state.vehicle[state.active] if state.active >= 0 else -1
        if active_vehicle >= 0:
            dc = -1 if words[0] == "west" else 1
            here = state.pieces[active_vehicle].space
            start = (min(n, state.g.columns) - 1) * state.g.lanes + rules.lane(state, here)
            rules.place_suv_from(state, start, dc, 0, events)
    elif verb == "place_peg":
        for piece in select(state, words[0], seat, target):
            if state.enemy_pegs_in_supply() <= 0:
                break
            if rules.enemy_peg_fits(state, piece):
                rules.set_piece(state, piece, state.pieces[piece]._replace(enemy_peg=True))
                events.append(Event("peg", f"an Enemy Peg is placed on {rules.piece_words(state, piece)}",
                                    "Enemy Cards"))
    elif verb == "activate":
        what = words[0]
        if what == "enemy_suvs":
            rules.push_front(state, *rules.enemy_die_tasks(state, "suv"))
        elif what == "enemy_pegs":
            rules.push_front(state, *rules.enemy_die_tasks(state, "peg"))
        elif what == "shaw_car":
            rules.push_front(state, Task(TaskKind.SHAW))
        else:
            shotgun(state, events)
    elif verb in ("damage", "damage_one"):
        hit = select(state, words[0], seat, target)
        if verb == "damage_one" and hit:
            rules.hit_one(state, hit, n)
        else:
            rules.push_front(state, *(Task(TaskKind.DAMAGE, state.pieces[i].owner, amount=n) for i in hit))
    elif verb == "shoot":
        rules.shoot(state, n, words[0] == "east", events)
    elif verb == "missile":
        missile(state, n, events)
    elif verb == "main_move":
        rules.main_move(state, words[0], seat, events)
    elif verb == "track":
        state.track = max(0, state.track + n)
        events.append(Event("track", f"{state.g.words.track_name} is now {state.track} of {state.g.scenario.goal}",
                            "Objective"))
    elif verb == "door":
        state.door_open = words[0] == "open"
        events.append(Event("door", f"the Semi's door is {words[0]}", "Semi Heist: the door"))
    elif verb == "cargo_to":
        for piece in select(state, words[0], seat, target)[:1]:
            if state.cargo_in_semi > 0:
                state.cargo_in_semi -= 1
                rules.set_piece(state, piece, state.pieces[piece]._replace(cargo=state.pieces[piece].cargo + 1))
                events.append(Event("cargo", f"Cargo lands on {rules.piece_words(state, piece)}", "Semi Heist: Cargo"))
    elif verb == "cargo_back":
        for piece in rules.player_vehicles(state):
            p = state.pieces[piece]
            if p.enemy_peg and p.cargo:
                rules.set_piece(state, piece, p._replace(cargo=p.cargo - 1))
                state.cargo_in_semi += 1
                events.append(Event("cargo", f"Cargo goes back to the Semi from {rules.piece_words(state, piece)}",
                                    "Semi Heist: Cargo"))
    elif verb == "ramsey_to":
        for piece in select(state, words[0], seat, target)[:1]:
            state.ramsey = piece
            events.append(Event("ramsey", f"Ramsey moves to {rules.piece_words(state, piece)}",
                                "Chopper Takedown: Ramsey"))
    elif verb == "wreck":
        for piece in select(state, words[0], seat, target):
            events.append(Event("wreck", f"{rules.piece_words(state, piece)} becomes a Wreck", "Wrecks"))
            rules.make_wreck(state, piece, events)
    elif verb == "remove_wreck":
        if target >= 0 and state.pieces[target].kind == WRECK and state.pieces[target].space >= 0:
            p = state.pieces[target]
            rules.set_piece(state, target, rules.off_the_road(p))
    elif verb == "move":
        move_effect(state, line, seat, target)
    elif verb == "remove_peg":
        for piece in select(state, words[0], seat, target):
            if state.pieces[piece].enemy_peg:
                rules.set_piece(state, piece, state.pieces[piece]._replace(enemy_peg=False))
                events.append(Event("peg", f"the Enemy Peg on {rules.piece_words(state, piece)} returns to the supply",
                                    "Stunt Actions"))
    elif verb == "remove_peg_adjacent":
        roof = state.peg_on[seat] if seat >= 0 else -1
        if roof >= 0:
            here = state.pieces[roof].space
            options = [i for i, p in enumerate(state.pieces)
                       if p.enemy_peg and p.space >= 0 and rules.dist(state, here, p.space) == 1]
            if options:
                rules.ask(state, Choice(ChoiceKind.REMOVE_PEG, seat, tuple(sorted(
                    [notation.at(notation.Verb.REMOVE, *rules.column_lane(state, state.pieces[i].space))
                     for i in options]
                    + ["remove:none"]))))
    elif verb == "win":
        rules.win(state, "the Level 3 Stunt is performed", events)
    elif verb == "if_enemy_peg" and any(state.pieces[p].enemy_peg for p in rules.named_pieces(state, words[0])):
        rules.push_front(state, *(Task(TaskKind.EFFECT, line=then, seat=seat, target=target) for then in line.then))


def move_effect(state: HeistState, line: Line, seat: int, target: int) -> None:
    """``move``: the actor moves a vehicle along a Force path (content 0.2 move_vehicle)."""
    mover, flag = line.words[0], line.words[1] if len(line.words) > 1 else ""
    if mover == "self":
        piece = state.vehicle[seat] if seat >= 0 else -1
    elif mover == "shaw_car":
        piece = rules.main_piece(state, SHAW)
    else:
        piece = target
    if piece < 0 or state.pieces[piece].space < 0:
        return
    options = rules.reachable(state, state.pieces[piece].space, line.number, rules.occupancy(state))
    if flag == "throw_zone":
        zone = rules.throw_zone(state)
        options = [o for o in options if o in zone]
    if not options:
        return
    choices = tuple(sorted(notation.at(notation.Verb.TO, *rules.column_lane(state, o)) for o in options))
    rules.ask(state, Choice(ChoiceKind.MOVE_TO, seat, choices, piece=piece, vacated=state.pieces[piece].space,
                            follow=flag == "follow"))


def shotgun(state: HeistState, events: list[Event]) -> None:
    """Semi Heist (content 6.2): the Shotgun hits one Player Vehicle adjacent to the cab."""
    hit = select(state, "pv_adjacent:semi_cab", -1, -1)
    if hit:
        victim = rules.hit_one(state, hit, state.g.content.model.knobs.shotgun_damage)
        target = "one of the vehicles next to the cab: the team chooses which" if victim < 0 else \
            rules.piece_words(state, victim)
        events.append(Event("shotgun", f"the Shotgun fires at {target}", "Semi Heist: Shotgun"))


def missile(state: HeistState, reach: int, events: list[Event]) -> None:
    """Chopper Takedown (content 0.2): a missile at Ramsey's vehicle within range, splash on its
    neighbours."""
    if state.ramsey < 0 or state.chopper < 0:
        return
    here = state.pieces[state.ramsey].space
    if rules.dist(state, state.chopper, here) > reach:
        events.append(Event("missile", "the missile has no lock: Ramsey is out of range", "Chopper Takedown"))
        return
    knobs = state.g.content.model.knobs
    tasks = [Task(TaskKind.DAMAGE, state.pieces[state.ramsey].owner, amount=knobs.missile_damage)]
    tasks += [Task(TaskKind.DAMAGE, state.pieces[i].owner, amount=knobs.missile_splash)
              for i in rules.player_vehicles(state)
              if rules.dist(state, here, state.pieces[i].space) == 1]
    events.append(Event("missile", "a missile streaks at Ramsey's vehicle", "Chopper Takedown"))
    rules.push_front(state, *tasks)
