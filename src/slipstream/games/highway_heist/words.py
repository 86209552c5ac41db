"""Highway Heist in words: every name and effect text of the loaded game, made once when it is loaded.

``Words.of(game)`` fills the content's texts with the content's numbers (``{slam_damage}``: see
``content.NUMBER_NAMES``) and keeps, for the rules' events, the board and the hints, what a player reads:
each space as the board labels it (``place``: "column 5, lane 3"; columns 1 to 12 from West to East, lanes
1 to 6 from North to South, the numbers along the top and the left side of the road), each piece, die face,
card and power by name with its text, and the glossary (``terms``). ``describe(game, action)`` says an
action string in words.

Nothing here is compiled: the rules (compiled) read the ready strings, so an event costs what it cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from slipstream.engine.hooks import Term

from . import notation
from .content import SKILLS, ContentModel, ScenarioModel
from .notation import NO_SPACE, WHEEL, Verb
from .types import KIND_NAMES

if TYPE_CHECKING:
    from .game import HighwayHeist

KIND_TERMS = {"enemy-suv": "suv", "wreck": "wreck", "abandoned": "abandoned", "tank": "tank", "semi-cab": "semi_cab",
              "semi-trailer": "semi_trailer", "shaw-car": "shaw_car"}
"""The view's piece kinds (``KIND_NAMES``) and the content's ``[pieces]`` record of each."""
SKILL_WORDS = ("Speed", "Control", "Athletics", "Defense")
DIRECTION_WORDS = {"north": "North", "south": "South", "east": "East", "west": "West", "north-east": "North-East",
                   "north-west": "North-West", "south-east": "South-East", "south-west": "South-West"}
"""The compass directions of ``dir:<direction>`` as the road is drawn: North at the top, East on the right."""
FACE_WORDS = {"success": ("success", "successes"), "boost": ("boost", "boosts"), "blank": ("blank", "blanks")}


def place(column: int, lane: int) -> str:
    """A space as a player finds it on the board: "column 5, lane 3" (both counted from 1)."""
    return f"column {column}, lane {lane}"


def place_of(space: str) -> str:
    """A space of the view or the notation (``c5l3``) in words; anything else as it is."""
    try:
        column, lane = notation.parse_space(space)
    except ValueError:
        return space
    return place(column, lane)


def numbers(model: ContentModel, scenario: ScenarioModel) -> dict[str, int]:
    """The numbers a text may name (``content.NUMBER_NAMES``), as the loaded content has them."""
    rules, knobs = model.rules, model.knobs
    return {"slam_damage": rules.slam_damage, "peg_damage": rules.peg_damage, "max_dice": rules.max_dice,
            "start_boost": rules.start_boost, "boost_cap": rules.boost_cap, "shove_damage": knobs.shove_damage,
            "shotgun_damage": knobs.shotgun_damage, "missile_damage": knobs.missile_damage,
            "missile_splash": knobs.missile_splash, "shaw_slam": knobs.shaw_slam, "tej_tokens": model.supply.tej_tokens,
            "goal": scenario.goal, "cargo": scenario.cargo, "lost_cargo_limit": scenario.lost_cargo_limit,
            "columns": model.road.columns, "lanes": model.road.lanes}


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@cache
def dice_words(faces: tuple[int, int, int]) -> str:
    """Effort Dice in words: "2 successes, 1 boost, 0 blanks"."""
    return ", ".join(_count(n, *FACE_WORDS[face]) for n, face in zip(faces, FACE_WORDS, strict=True))


@cache
def roll_words(skill: int, need: int) -> str:
    """A Skill Roll symbol in words: "Speed roll, 3 successes needed"."""
    return f"{SKILL_WORDS[skill]} roll, {_count(need, 'success', 'successes')} needed"


@dataclass(frozen=True)
class Words:
    """What a player of one loaded game reads (names and texts with the numbers filled in)."""

    places: tuple[str, ...]
    """Each space (``column * lanes + lane``, 0-based) as the board labels it."""
    piece_names: dict[str, str]
    """Each of the view's piece kinds (``enemy-suv``, ``tank``, ...) by name."""
    kind_names: tuple[str, ...]
    """The same by the rules' piece kind (``KIND_NAMES`` order), for the events."""
    main_enemy: str
    """The scenario's Main Enemy by name ("Tank", "Semi", "Chopper")."""
    scenario_name: str
    difficulty_name: str
    track_name: str
    face_names: dict[str, str]
    """Each Enemy Die face (``suv``, ``main_left``, ...) by name."""
    face_texts: dict[str, str]
    """What each Enemy Die face does in this scenario (the arrows: the Main Enemy's move, then the cards)."""
    reveal: dict[str, str]
    """Each Enemy card's Reveal effect in words."""
    activated: dict[str, str]
    """Each Enemy card's Activated effect in words ("" when it has none)."""
    card_texts: dict[str, str]
    """Each Stunt card's and scenario action's Condition and Reward in words."""
    card_rolls: dict[str, str]
    """Each Stunt card's and scenario action's Skill Roll in words."""
    power_names: dict[str, str]
    power_texts: dict[str, str]
    decisions: dict[str, str]
    """One line for each kind of decision (``content.DECISIONS``)."""
    terms: dict[str, Term]
    """The glossary: every thing a player of this game meets, by its id."""
    action_names: dict[str, str]
    """The rolled actions (``ram``, ...) by name."""
    _attempts: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def attempt(self, game: HighwayHeist, action: str) -> str:
        """What a Skill Roll is for, as the events say it: "Ram Enemy SUV in column 3, lane 3", "the Stunt
        Roadblock on the Enemy SUV in column 3, lane 3" (made once per action string)."""
        said = self._attempts.get(action)
        if said is None:
            said = self._attempts[action] = _attempt(game, self, action)
        return said

    @classmethod
    def of(cls, game: HighwayHeist) -> Words:
        model = game.content.model
        scenario = game.scenario
        fill = numbers(model, scenario)

        def text(raw: str) -> str:
            return raw.format(**fill)

        places = tuple(place(space // game.lanes + 1, space % game.lanes + 1) for space in range(game.spaces))
        pieces = {key: text(term.text) for key, term in model.pieces.items()}
        piece_names = {kind: model.pieces[key].name for kind, key in KIND_TERMS.items()}
        piece_names["chopper"] = model.pieces["chopper"].name
        piece_names["player-vehicle"] = "Player Vehicle"
        piece_names["hijacked-suv"] = game.boards[game.hijacked_board].name
        main_key = {"tank": "tank", "semi": "semi_cab", "chopper": "chopper"}[scenario.main_enemy]
        main_enemy = model.pieces[main_key].name.split()[0] if scenario.main_enemy == "semi" else \
            model.pieces[main_key].name
        faces = {face: term.name for face, term in model.enemy_die_faces.items()}
        arrows = {"main_left": text(scenario.main_left_text), "main_right": text(scenario.main_right_text)}
        face_texts = {face: f"{arrows[face]} {text(term.text)}" if face in arrows else text(term.text)
                      for face, term in model.enemy_die_faces.items()}
        reveal = {c.id: text(c.reveal_text) for c in scenario.enemy_cards}
        activated = {c.id: text(c.activated_text) for c in scenario.enemy_cards}
        cards = [*scenario.stunts, *scenario.actions]
        card_texts = {c.id: text(c.text) for c in cards}
        card_rolls = {c.id: roll_words(SKILLS.index(c.skill), c.need) for c in cards}
        powers = {key: term.name for key, term in model.powers.items()}
        power_texts = {key: text(term.text) for key, term in model.powers.items()}
        decisions = {key: text(value) for key, value in model.decisions.model_dump().items()}

        terms: dict[str, Term] = {}
        terms[game.scenario_id] = Term(scenario.name, text(scenario.text), "scenario")
        terms[scenario.track] = Term(scenario.track_name, f"The scenario's track: {fill['goal']} wins.", "track")
        levels = [len(game.stunt_levels[0]), len(game.stunt_levels[1])]
        for key, level_of in model.difficulties.items():  # the lobby names each level of the option
            kept = [levels[0] - level_of.remove[0], levels[1] - level_of.remove[1]]
            out = " and ".join(f"{n} Level {level + 1}" for level, n in enumerate(level_of.remove) if n)
            terms[key] = Term(level_of.name, f"{sum(kept) + 1} Stunt cards in the deck ({kept[0]} Level 1, "
                              f"{kept[1]} Level 2 and the Level 3): "
                              + (f"{out} taken out, fewer rounds to win." if out else "every card, the most "
                                 "rounds to win."), "difficulty")
        for character in game.characters:
            power = model.powers.get(character.power)
            ratings = ", ".join(f"{SKILL_WORDS[i]} {r}" for i, r in enumerate(character.ratings))
            about = f"{ratings} (character icons); Boost cap {character.boost_cap}."
            if power is not None:
                about += f" {power.name}: {text(power.text)}"
            terms[character.id] = Term(character.name, about, "character")
        offset = model.knobs.strength_offset
        for vehicle in game.boards:
            power = model.powers.get(vehicle.power)
            ratings = ", ".join(f"{SKILL_WORDS[i]} {r}" for i, r in enumerate(vehicle.ratings))
            about = f"{ratings} (vehicle icons); Strength {vehicle.strength + offset}."
            about += f" {power.name}: {text(power.text)}" if power is not None else " No Special Power."
            terms[vehicle.id] = Term(vehicle.name, about, "vehicle")
        for key in {c.power for c in game.characters} | {v.power for v in game.boards}:
            if key in model.powers:
                terms[key] = Term(model.powers[key].name, text(model.powers[key].text), "special power")
        for key, spec in model.actions.items():
            terms[key] = Term(spec.name, f"{text(spec.text)} {roll_words(SKILLS.index(spec.skill), spec.need)}.",
                              "action")
        for key, term in model.free_actions.items():
            terms[key] = Term(term.name, text(term.text) + " No roll needed.", "action")
        for kind, key in {**KIND_TERMS, "chopper": "chopper", "enemy-peg": "enemy_peg", "ramsey": "ramsey",
                          "cargo": "cargo"}.items():
            terms[kind] = Term(model.pieces[key].name, pieces[key], "enemy" if key in _ENEMIES else "piece")
        for face in sorted(set(model.enemy_die.faces)):
            terms[f"enemy-die:{face}"] = Term(faces[face], face_texts[face], "Enemy Die face")
        for face in sorted(set(model.effort_die.faces)):
            terms[f"effort:{face}"] = Term(model.effort_die_faces[face].name, text(model.effort_die_faces[face].text),
                                           "Effort Die face")
        for c in scenario.enemy_cards:
            after = f" When it reaches ACTIVATE!: {activated[c.id]}" if activated[c.id] else \
                " No Activated effect."
            terms[c.id] = Term(c.name, f"When revealed: {reveal[c.id]}{after}", "Enemy card")
        for s in scenario.stunts:
            tokens = "no Boost token: it may be tried again and again" if s.level == 3 else \
                _count(s.boost, "Boost token", "Boost tokens")
            terms[s.id] = Term(s.name, f"{card_texts[s.id]} {card_rolls[s.id]}. Level {s.level}, {tokens}.",
                               "Stunt card")
        for a in scenario.actions:
            terms[a.id] = Term(a.name, f"{card_texts[a.id]} {card_rolls[a.id]}.", "scenario action")
        difficulty = model.difficulties[game.options["difficulty"]].name
        actions: dict[str, str] = {key: a.name for key, a in model.actions.items()}
        kind_names = tuple(piece_names.get(kind, kind) for kind in KIND_NAMES)
        return cls(places, piece_names, kind_names, main_enemy, scenario.name, difficulty, scenario.track_name,
                   faces, face_texts, reveal, activated, card_texts, card_rolls, powers, power_texts, decisions,
                   terms, actions)


KEY_ORDER = ("enemy-suv", "enemy-peg", "wreck", "abandoned", "tank", "semi-cab", "semi-trailer", "shaw-car", "chopper",
             "ramsey", "cargo")
"""The pieces of the terminal's key, in the order it lists those on the road."""

_ENEMIES = frozenset({"suv", "enemy_peg", "tank", "semi_cab", "semi_trailer", "shaw_car", "chopper"})


# --- actions in words ---------------------------------------------------------------------------------

_PLAIN = {
    Verb.SHAKE: "Shake the Enemy Peg off your vehicle", Verb.BRAWL: "Brawl the Enemy Peg off this vehicle",
    Verb.HIJACK: "Hijack the Enemy SUV you stand on", Verb.TAKE_BOOST: "take a Boost token (ends your actions)",
    Verb.END_TURN: "end your actions", Verb.BOOST: "Boost the roll (every boost face counts as a success)",
    Verb.KEEP: "keep the roll as it is", Verb.FOLLOW: "follow into the space it left", Verb.STAY: "stay where you are",
}
_AT = {Verb.DRIVE: "drive to", Verb.LEAP: "leap onto the vehicle in", Verb.RAM: "Ram the Enemy SUV in",
       Verb.FORCE: "Force the vehicle in", Verb.TO: "move it to", Verb.PEG: "the peg goes onto the vehicle in",
       Verb.SLAM: "the slam hits the vehicle in", Verb.HIT: "the hit lands on the vehicle in",
       Verb.REMOVE: "knock off the Enemy Peg in", Verb.RAMSEY: "Ramsey moves to the vehicle in"}

_POWER_VERBS = {Verb.REROLL: ("wheelman", "reroll a die showing a {}"),
                Verb.TECH: ("tech_support", "spend a Tej token: a blank die becomes a success"),
                Verb.TAKE_SLAM: ("family_first", "take the slam for your team mate")}
"""The Special Powers' own actions: the power, and what the action does."""


def describe(game: HighwayHeist, action: str) -> str:
    """An action string of ``game`` in words (``drive:c5l3`` -> ``drive to column 5, lane 3``); a string
    that is no action of the notation comes back as it is."""
    try:
        act = notation.parse(action)
    except (KeyError, ValueError, IndexError):
        return action
    words = game.words
    who = f"{game.seat_name(act.seat)}: " if 0 <= act.seat < game.players else ""
    verb = act.verb
    at = "" if act.space in (NO_SPACE, WHEEL) else place(*act.space)
    if verb in _PLAIN:
        return who + _PLAIN[verb]
    if verb is Verb.LEAP and act.space == WHEEL:
        return who + "leap back behind your wheel"
    if verb is Verb.REMOVE and not at:
        return who + "knock off no other Enemy Peg"
    if verb in _AT:
        return f"{who}{_AT[verb]} {at}"
    if verb is Verb.PLAY:
        return who + "take the next turn"
    if verb is Verb.ASSIST:
        return who + "Assist the roll (discard a Boost token: 2 more dice)"
    if verb is Verb.PASS:
        return who + "pass"
    if verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
        return who + _card_action(game, act.name, verb is Verb.STUNT, at)
    if verb is Verb.DIRECTION:
        if act.name in DIRECTION_WORDS:
            return f"{who}move the {words.main_enemy} one space {DIRECTION_WORDS[act.name]}"
        return f"{who}leave the {words.main_enemy} where it is"
    if verb is Verb.EFFORT:
        return f"the Effort Dice show {dice_words(act.dice)}"
    if verb is Verb.ENEMY_DIE:
        return f"the Enemy Die shows {words.face_names.get(act.name, 'an unknown face')}"
    if verb in (Verb.ENEMY_CARD, Verb.STUNT_CARD):
        kind, cards = ("Enemy", game.enemy_cards) if verb is Verb.ENEMY_CARD else ("Stunt", game.stunt_cards)
        drawn = cards.get(act.name)
        return f"the {kind} card {drawn.name if drawn else 'that nobody knows'} is drawn"
    if verb in _POWER_VERBS:
        power, what = _POWER_VERBS[verb]
        return f"{who}{what.format(act.name)} ({words.power_names[power]})"
    if verb is Verb.FIRST:
        if act.name == "enemy":
            return f"{who}the Enemy Peg moves first"
        seat = int(act.name) if act.name.isdigit() else -1
        owner = game.seat_name(seat) if 0 <= seat < game.players else "a player"
        return f"{who}{owner}'s Player Peg moves first"
    return action


def _card_action(game: HighwayHeist, card_id: str, stunt: bool, at: str) -> str:
    """``attempt the Stunt Roadblock on the Enemy SUV in column 3, lane 3``."""
    card = (game.stunt_cards if stunt else game.scenario_actions).get(card_id)
    if card is None:
        return "attempt an unknown card"
    kind = "the Stunt " if stunt else ""
    if not at:
        return f"attempt {kind}{card.name}"
    target = next((line.words[0] for line in card.condition if line.verb == "target"), "")
    what = "Enemy SUV" if target == "enemy_suv" else "Player Vehicle" if target == "pv" else "vehicle"
    return f"attempt {kind}{card.name} on the {what} in {at}"


_ROLLED = {Verb.RAM: "ram", Verb.FORCE: "force", Verb.SHAKE: "shake", Verb.BRAWL: "brawl", Verb.HIJACK: "hijack"}


def _attempt(game: HighwayHeist, words: Words, action: str) -> str:
    try:
        act = notation.parse(action)
    except (KeyError, ValueError, IndexError):
        return action
    at = "" if act.space in (NO_SPACE, WHEEL) else place(*act.space)
    if act.verb in _ROLLED:
        name = words.action_names[_ROLLED[act.verb]]
        if act.verb is Verb.FORCE:
            return f"{name} on the vehicle in {at}"
        return f"{name} in {at}" if at else name
    if act.verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
        return _card_action(game, act.name, act.verb is Verb.STUNT, at).removeprefix("attempt ")
    return describe(game, action)
