"""Highway Heist content: the road, the dice, characters, vehicles, actions and the three scenarios
(pieces, Enemy cards, Stunt cards, scenario actions), validated from TOML or JSON.

Every record carries ``source`` (rulebook, derived or default). Card effects and Stunt conditions are
lines of the small effect language (docs/rules/highway-heist.md, "The effect language"): each line is
checked and turned into a typed ``Line`` here, once, so the rules never read a string. A bad file raises
``ContentError`` naming the file, the record and the field; nothing is half loaded.

What a player reads comes from the same file: every character, vehicle, power, action, piece, die face,
Enemy card (its Reveal and its Activated effect), Stunt card, scenario action and scenario has a display
``name`` and an effect ``text``, and each kind of decision a one-line explanation (``[decisions]``). A
text may name the content's numbers in braces (``{slam_damage}``, see ``NUMBER_NAMES``), filled in when
the game is loaded, so it says what the data does even after a number is changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from string import Formatter
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import AfterValidator, Field, model_validator

from slipstream.games.content_file import StrictModel, read_content_file, validate_content

DEFAULT_PATH = Path(__file__).with_name("content.toml")

Source = Literal["rulebook", "derived", "default"]
SKILLS = ("speed", "control", "athletics", "defense")
"""The four Skill Categories, in the order of every ``ratings`` list."""
SCENARIOS = ("tank-assault", "semi-heist", "chopper-takedown")
DIFFICULTIES = ("easy", "standard", "hard", "beast")
EFFORT_FACES = ("success", "boost", "blank")
ENEMY_FACES = ("suv", "peg", "card", "main_left", "main_right")
PIECE_KINDS = ("suv", "tank", "semi_cab", "semi_trailer", "shaw_car", "chopper")
MAIN_ENEMIES = ("tank", "semi", "chopper")
CHARACTER_POWERS = ("family_first", "wheelman", "tough", "hoarder", "tech_support", "parkour", "none")
VEHICLE_POWERS = ("thoroughbred", "drift", "battering_ram", "nudge", "none")

POWERS = tuple(p for p in (*CHARACTER_POWERS, *VEHICLE_POWERS) if p != "none")
"""Every Special Power the rules know: each has a ``[powers.<id>]`` record (its name and text)."""
PIECE_TERMS = ("suv", "enemy_peg", "wreck", "abandoned", "tank", "semi_cab", "semi_trailer", "shaw_car",
               "chopper", "ramsey", "cargo")
"""Every piece and token on the road a player meets: each has a ``[pieces.<id>]`` record."""
FREE_ACTIONS = ("drive", "leap", "take_boost")
"""The actions without a Skill Roll: each has a ``[free_actions.<id>]`` record."""
DECISIONS = ("choose_turn", "action", "assist", "boost", "force_to", "move_to", "follow", "direction", "peg",
             "enemy_peg", "slam", "hit", "remove_peg", "free_leap", "ramsey", "peg_order")
"""The kinds of decision a player makes, each explained in one line by ``[decisions]``."""
NUMBER_NAMES = ("slam_damage", "peg_damage", "max_dice", "start_boost", "boost_cap", "shove_damage",
                "shotgun_damage", "missile_damage", "missile_splash", "shaw_slam", "tej_tokens", "goal", "cargo",
                "lost_cargo_limit", "columns", "lanes")
"""The numbers a text may name in braces (``{slam_damage}``): the content's own, filled in at load time
(``goal``, ``cargo`` and ``lost_cargo_limit`` are the loaded scenario's)."""

PIECES = ("tank", "semi_cab", "semi_trailer", "semi", "shaw_car", "chopper")
"""Named scenario pieces a line may refer to (``semi`` is either Semi space)."""
SELECTORS = ("each_pv", "active_pv", "ramsey_pv", "self", "target", "roof", "each_enemy_suv",
             "tank", "semi_cab", "semi_trailer", "shaw_car", "pv_in_throw_zone", "pv_with_cargo")
"""Vehicle sets an effect acts on; ``pv_adjacent:<piece>``, ``pv_same_lane:<piece>`` and
``pv_within1:<piece>`` filter the Player Vehicles by a piece."""
FILTERED = ("pv_adjacent", "pv_same_lane", "pv_within1")
DIRECTIONS = ("north", "south", "east", "west", "toward_active_lane", "toward_ramsey", "away_from_ramsey",
              "choice_ns", "choice_any")

EFFECT_FORMS: dict[str, tuple[str, ...]] = {
    "place_suv": ("side", "selector"),
    "place_suv_lane": ("column", "step"),
    "place_peg": ("selector",),
    "activate": ("enemies",),
    "damage": ("number", "selector"),
    "damage_one": ("number", "selector"),
    "shoot": ("number", "step"),
    "missile": ("number",),
    "main_move": ("direction",),
    "track": ("signed",),
    "door": ("door",),
    "cargo_back": (),
    "cargo_to": ("selector",),
    "ramsey_to": ("selector",),
    "wreck": ("selector",),
    "remove_wreck": ("selector",),
    "move": ("mover", "number", "*move_flag"),
    "remove_peg": ("selector",),
    "remove_peg_adjacent": (),
    "win": (),
    "if_enemy_peg": ("piece", "effect"),
}
"""Each effect verb and the words it takes (``*``: optional)."""

CONDITION_FORMS: dict[str, tuple[str, ...]] = {
    "manned": (), "on_foot": (), "on_top": ("piece",), "not_on_top": ("piece",), "on_semi": (),
    "roof_adjacent": ("piece",), "roof_within": ("number", "piece"),
    "vehicle_adjacent": ("piece",), "vehicle_within": ("number", "piece"),
    "vehicle_directly_in_front": ("piece",), "vehicle_directly_behind": ("piece",),
    "vehicle_west_of": ("piece",), "vehicle_in_throw_zone": (),
    "enemy_peg_on": ("peg_place",), "enemy_peg_on_semi": (), "track_at_least": ("number",),
    "door_open": (), "door_closed": (), "cargo_in_semi": (), "carries_ramsey": (),
    "player_pegs_on_semi": ("number",), "player_peg_on": ("piece",), "throw_zone_has_empty": (),
    "target": ("target_kind",),
    "target_adjacent": ("anchor",), "target_directly_beside": ("anchor",), "target_same_lane": ("piece",),
    "target_east_of": ("piece",), "target_within": ("number", "anchor"), "target_in_throw_zone": (),
}
"""Each Stunt/scenario-action condition and the words it takes; all of a card's conditions must hold."""

WORDS: dict[str, tuple[str, ...]] = {
    "side": ("behind", "in_front"), "step": ("east", "west"), "door": ("open", "closed"),
    "enemies": ("enemy_suvs", "enemy_pegs", "shaw_car", "shotgun"), "direction": DIRECTIONS,
    "piece": PIECES, "peg_place": (*PIECES, "roof"), "target_kind": ("enemy_suv", "pv"),
    "anchor": ("self", *PIECES), "mover": ("self", "target", "shaw_car"), "move_flag": ("follow", "throw_zone"),
}


class Line(NamedTuple):
    """One checked line of the effect language: the verb, its words and its number (0 if none)."""

    verb: str
    words: tuple[str, ...]
    number: int
    then: tuple[Line, ...] = ()
    """For ``if_enemy_peg``: the effect that follows the condition."""


def parse_line(text: str, forms: dict[str, tuple[str, ...]]) -> Line:
    """``text`` checked against ``forms``; ``ValueError`` says what is wrong."""
    parts = text.split()
    if not parts or parts[0] not in forms:
        raise ValueError(f"{text!r}: unknown verb; the verbs are: {', '.join(forms)}")
    verb, rest = parts[0], parts[1:]
    words: list[str] = []
    number = 0
    for i, slot in enumerate(forms[verb]):
        optional = slot.startswith("*")
        slot = slot.lstrip("*")
        if slot == "effect":
            then = parse_line(" ".join(rest[i:]), EFFECT_FORMS)
            return Line(verb, tuple(words), number, (then,))
        if i >= len(rest):
            if optional:
                break
            raise ValueError(f"{text!r}: {verb} needs a {slot}")
        word = rest[i]
        if slot in ("number", "column"):
            if not word.isdigit():
                raise ValueError(f"{text!r}: {word!r} is not a whole number")
            number = int(word)
        elif slot == "signed":
            if not (word[:1] in "+-" and word[1:].isdigit()):
                raise ValueError(f"{text!r}: {word!r} is not +N or -N")
            number = int(word)
        elif slot == "selector":
            head, _, piece = word.partition(":")
            if not (word in SELECTORS or (head in FILTERED and piece in PIECES)):
                raise ValueError(f"{text!r}: {word!r} is not a selector ({', '.join(SELECTORS)}, "
                                 f"or {', '.join(FILTERED)} with :<piece>)")
            words.append(word)
        else:
            if word not in WORDS[slot]:
                raise ValueError(f"{text!r}: {word!r} is not one of {', '.join(WORDS[slot])}")
            words.append(word)
    if len(rest) > len(forms[verb]):
        raise ValueError(f"{text!r}: too many words for {verb}")
    return Line(verb, tuple(words), number)



def placeholders(text: str) -> list[str]:
    """The names in braces in ``text`` (``"{slam_damage} damage"`` -> ``["slam_damage"]``)."""
    return [name for _, name, _, _ in Formatter().parse(text) if name is not None]


def _known_numbers(text: str) -> str:
    try:
        names = placeholders(text)
    except ValueError as exc:
        raise ValueError(f"braces: {exc} (write {{{{ and }}}} for a brace itself)") from None
    for name in names:
        if name not in NUMBER_NAMES:
            raise ValueError(f"{{{name}}} is not a number a text may name ({', '.join(NUMBER_NAMES)})")
    return text


Name = Annotated[str, Field(min_length=1, max_length=60)]
"""A display name, as a player reads it."""
Text = Annotated[str, Field(min_length=1, max_length=400), AfterValidator(_known_numbers)]
"""What a thing does, in a sentence or two, as a player reads it (``{number}``s allowed)."""
OptionalText = Annotated[str, Field(max_length=400), AfterValidator(_known_numbers)]


class TermModel(StrictModel):
    """A thing the rules know by its id, named and explained by the content."""

    name: Name
    text: Text


class DecisionsModel(StrictModel):
    """One line for each kind of decision (``DECISIONS``): what it does, shown as a hint."""

    choose_turn: Text
    action: Text
    assist: Text
    boost: Text
    force_to: Text
    move_to: Text
    follow: Text
    direction: Text
    peg: Text
    enemy_peg: Text
    slam: Text
    hit: Text
    remove_peg: Text
    free_leap: Text
    ramsey: Text
    peg_order: Text


def _every_term(field: str, table: dict[str, TermModel], known: tuple[str, ...], what: str) -> None:
    """``table`` (the field ``field``) names each id of ``known`` and nothing else."""
    for key in table:
        if key not in known:
            raise ValueError(f"{field}.{key}: not a {what} the rules know ({', '.join(known)})")
    for key in known:
        if key not in table:
            raise ValueError(f"{field}.{key}: missing (every {what} needs a name and a text)")


class RoadModel(StrictModel):
    columns: int = Field(ge=6, le=30)
    lanes: int = Field(ge=3, le=10)
    stunt_spots: int = Field(ge=1, le=6)
    enemy_spots: int = Field(ge=1, le=6)
    source: Source


class SupplyModel(StrictModel):
    enemy_suvs: int = Field(ge=1, le=20)
    enemy_pegs: int = Field(ge=1, le=20)
    boost_tokens: int = Field(ge=0, le=60)
    tej_tokens: int = Field(ge=0, le=10)
    source: Source


class RulesModel(StrictModel):
    max_dice: int = Field(ge=1, le=10)
    start_boost: int = Field(ge=0, le=5)
    boost_cap: int = Field(ge=1, le=9)
    slam_damage: int = Field(ge=0, le=10)
    peg_damage: int = Field(ge=0, le=10)
    source: Source


class KnobsModel(StrictModel):
    strength_offset: int = Field(ge=-3, le=5)
    shove_damage: int = Field(ge=0, le=10)
    shotgun_damage: int = Field(ge=0, le=10)
    missile_damage: int = Field(ge=0, le=10)
    missile_splash: int = Field(ge=0, le=10)
    shaw_slam: int = Field(ge=0, le=10)
    source: Source


class DieModel(StrictModel):
    faces: list[str] = Field(min_length=1, max_length=12)
    source: Source


class SkillRollModel(StrictModel):
    name: Name
    text: Text
    skill: Literal["speed", "control", "athletics"]
    need: int = Field(ge=0, le=10)
    source: Source


class DifficultyModel(StrictModel):
    name: Name
    remove: list[int] = Field(min_length=2, max_length=2)
    source: Source


class BoardModel(StrictModel):
    id: str = Field(min_length=1, pattern=r"^[a-z0-9-]+$")
    name: Name
    ratings: list[int] = Field(min_length=4, max_length=4)
    power: str
    source: Source

    @model_validator(mode="after")
    def _ratings(self) -> BoardModel:
        if any(r < 0 or r > 6 for r in self.ratings):
            raise ValueError("ratings: 0 to 6 icons each (speed, control, athletics, defense)")
        return self


class CharacterModel(BoardModel):
    boost_cap: int = Field(ge=1, le=9)

    @model_validator(mode="after")
    def _power(self) -> CharacterModel:
        if self.power not in CHARACTER_POWERS:
            raise ValueError(f"power: {self.power!r} is not one of {', '.join(CHARACTER_POWERS)}")
        return self


class VehicleModel(BoardModel):
    strength: int = Field(ge=1, le=12)
    hijacked: bool = False

    @model_validator(mode="after")
    def _power(self) -> VehicleModel:
        if self.power not in VEHICLE_POWERS:
            raise ValueError(f"power: {self.power!r} is not one of {', '.join(VEHICLE_POWERS)}")
        return self


class PieceModel(StrictModel):
    kind: str
    at: list[int] = Field(min_length=2, max_length=2)
    enemy_peg: bool = False
    source: Source

    @model_validator(mode="after")
    def _kind(self) -> PieceModel:
        if self.kind not in PIECE_KINDS:
            raise ValueError(f"kind: {self.kind!r} is not one of {', '.join(PIECE_KINDS)}")
        return self


def _lines(lines: list[str], forms: dict[str, tuple[str, ...]]) -> tuple[Line, ...]:
    return tuple(parse_line(text, forms) for text in lines)


def _checked(field: str, lines: list[str], forms: dict[str, tuple[str, ...]]) -> tuple[Line, ...]:
    """``_lines`` with the field named in the error."""
    try:
        return _lines(lines, forms)
    except ValueError as exc:
        raise ValueError(f"{field}: {exc}") from None


class EnemyCardModel(StrictModel):
    id: str = Field(min_length=1, pattern=r"^[a-z0-9-]+$")
    name: Name
    reveal_text: Text
    """The Reveal effect in words (what happens when the card is drawn)."""
    activated_text: OptionalText = ""
    """The Activated effect in words (what happens when it reaches ACTIVATE!); empty when it has none."""
    reveal: list[str]
    activated: list[str]
    source: Source

    @model_validator(mode="after")
    def _effects(self) -> EnemyCardModel:
        _checked("reveal", self.reveal, EFFECT_FORMS)
        _checked("activated", self.activated, EFFECT_FORMS)
        if self.activated and not self.activated_text:
            raise ValueError("activated_text: the card has an Activated effect: say it in words")
        if self.activated_text and not self.activated:
            raise ValueError("activated_text: the card has no Activated effect to describe")
        return self


class ActionModel(StrictModel):
    """A Stunt card or a scenario action: a Condition, a Skill Roll and a Reward."""

    id: str = Field(min_length=1, pattern=r"^[a-z0-9-]+$")
    name: Name
    text: Text
    """The Condition and the Reward in words (the Skill Roll is said from ``skill`` and ``need``)."""
    skill: Literal["speed", "control", "athletics"]
    need: int = Field(ge=0, le=10)
    condition: list[str]
    reward: list[str] = Field(min_length=1)
    ram: bool = False
    level: int = Field(default=0, ge=0, le=3)
    boost: int = Field(default=0, ge=0, le=3)
    source: Source

    @model_validator(mode="after")
    def _lines(self) -> ActionModel:
        conditions = _checked("condition", self.condition, CONDITION_FORMS)
        _checked("reward", self.reward, EFFECT_FORMS)
        target_words = [c for c in conditions if c.verb.startswith("target")]
        if target_words and target_words[0].verb != "target":
            raise ValueError("condition: a target filter needs 'target enemy_suv' or 'target pv' first")
        return self


class ScenarioModel(StrictModel):
    name: Name
    text: Text
    """The objective and the ways to lose, in words."""
    track_name: Name
    """The scenario track as a player calls it ("Tank Damage")."""
    main_left_text: Text
    """What the Main Enemy does on the Enemy Die's left-arrow face (``main_left``), in words."""
    main_right_text: Text
    main_enemy: str
    main_left: list[str]
    main_right: list[str]
    track: Literal["tank_damage", "cargo_secured", "chopper_damage"]
    goal: int = Field(ge=1, le=20)
    cargo: int = Field(default=0, ge=0, le=10)
    lost_cargo_limit: int = Field(default=0, ge=0, le=10)
    ramsey: bool = False
    pieces: list[PieceModel]
    enemy_cards: list[EnemyCardModel] = Field(min_length=4)
    stunts: list[ActionModel]
    actions: list[ActionModel] = Field(default_factory=list)
    source: Source

    @model_validator(mode="after")
    def _check(self) -> ScenarioModel:
        if self.main_enemy not in MAIN_ENEMIES:
            raise ValueError(f"main_enemy: {self.main_enemy!r} is not one of {', '.join(MAIN_ENEMIES)}")
        _checked("main_left", self.main_left, EFFECT_FORMS)
        _checked("main_right", self.main_right, EFFECT_FORMS)
        levels = [s.level for s in self.stunts]
        if levels.count(3) != 1 or levels.count(1) < 2 or levels.count(2) < 2:
            raise ValueError("stunts: one level 3 card and at least two of levels 1 and 2")
        for s in self.stunts:
            if s.level == 0:
                raise ValueError(f"stunts: {s.id}: level must be 1, 2 or 3")
            if (s.level == 3) != (s.boost == 0):
                raise ValueError(f"stunts: {s.id}: levels 1 and 2 have 1 or 2 Boost symbols, level 3 none")
        kinds = [p.kind for p in self.pieces]
        wanted = {"tank": ["tank"], "semi": ["semi_cab", "semi_trailer"], "chopper": ["chopper"]}
        for kind in wanted[self.main_enemy]:
            if kinds.count(kind) != 1:
                raise ValueError(f"pieces: the {self.main_enemy} scenario needs exactly one {kind}")
        if self.main_enemy == "semi":
            cab = next(p for p in self.pieces if p.kind == "semi_cab").at
            trailer = next(p for p in self.pieces if p.kind == "semi_trailer").at
            if (trailer[0] + 1, trailer[1]) != (cab[0], cab[1]):
                raise ValueError("pieces: the semi_trailer is directly behind (West of) the semi_cab")
        if self.track == "cargo_secured" and self.cargo < self.goal:
            raise ValueError("cargo: fewer Cargo tokens than the goal")
        ids = [c.id for c in self.enemy_cards] + [s.id for s in self.stunts] + [a.id for a in self.actions]
        if len(set(ids)) != len(ids):
            raise ValueError("id: an id is used twice")
        return self


class ContentModel(StrictModel):
    road: RoadModel
    supply: SupplyModel
    rules: RulesModel
    knobs: KnobsModel
    effort_die: DieModel
    enemy_die: DieModel
    actions: dict[Literal["ram", "force", "shake", "brawl", "hijack"], SkillRollModel]
    difficulties: dict[str, DifficultyModel]
    characters: list[CharacterModel] = Field(min_length=2)
    vehicles: list[VehicleModel] = Field(min_length=2)
    scenarios: dict[str, ScenarioModel]
    powers: dict[str, TermModel]
    pieces: dict[str, TermModel]
    free_actions: dict[str, TermModel]
    enemy_die_faces: dict[str, TermModel]
    effort_die_faces: dict[str, TermModel]
    decisions: DecisionsModel

    @model_validator(mode="after")
    def _check(self) -> ContentModel:
        _every_term("powers", self.powers, POWERS, "power")
        _every_term("pieces", self.pieces, PIECE_TERMS, "piece")
        _every_term("free_actions", self.free_actions, FREE_ACTIONS, "free action")
        _every_term("enemy_die_faces", self.enemy_die_faces, ENEMY_FACES, "Enemy Die face")
        _every_term("effort_die_faces", self.effort_die_faces, EFFORT_FACES, "Effort Die face")
        for face in self.effort_die.faces:
            if face not in EFFORT_FACES:
                raise ValueError(f"effort_die.faces: {face!r} is not one of {', '.join(EFFORT_FACES)}")
        for face in self.enemy_die.faces:
            if face not in ENEMY_FACES:
                raise ValueError(f"enemy_die.faces: {face!r} is not one of {', '.join(ENEMY_FACES)}")
        for name in ("ram", "force", "shake", "brawl", "hijack"):
            if name not in self.actions:
                raise ValueError(f"actions.{name}: missing")
        for name in DIFFICULTIES:
            if name not in self.difficulties:
                raise ValueError(f"difficulties.{name}: missing")
        for name in SCENARIOS:
            if name not in self.scenarios:
                raise ValueError(f"scenarios.{name}: missing")
        if sum(1 for v in self.vehicles if v.hijacked) != 1:
            raise ValueError("vehicles.hijacked: exactly one hijacked board (the back of every Vehicle Board)")
        if len({c.id for c in self.characters}) != len(self.characters):
            raise ValueError("characters.id: an id is used twice")
        if len({v.id for v in self.vehicles}) != len(self.vehicles):
            raise ValueError("vehicles.id: an id is used twice")
        for name, scenario in self.scenarios.items():
            for piece in scenario.pieces:
                col, lane = piece.at
                if not (1 <= col <= self.road.columns and 1 <= lane <= self.road.lanes):
                    raise ValueError(f"scenarios.{name}.pieces.at: {piece.kind} at {piece.at} is off the road")
            for s in scenario.stunts:
                if s.level in (1, 2) and sum(1 for t in scenario.stunts if t.level == s.level) < max(
                        d.remove[s.level - 1] for d in self.difficulties.values()) + 1:
                    raise ValueError(f"scenarios.{name}.stunts: too few level {s.level} cards for the "
                                     "difficulties' removals")
        return self


@dataclass(frozen=True)
class Action:
    """A Stunt card or scenario action with its lines checked."""

    id: str
    name: str
    skill: int
    """Index into ``SKILLS``."""
    need: int
    condition: tuple[Line, ...]
    reward: tuple[Line, ...]
    level: int
    boost: int
    ram: bool


@dataclass(frozen=True)
class EnemyCard:
    id: str
    name: str
    reveal: tuple[Line, ...]
    activated: tuple[Line, ...]


@dataclass(frozen=True)
class Content:
    """Validated content with every line of the effect language parsed."""

    source: str
    model: ContentModel
    characters: dict[str, CharacterModel]
    vehicles: dict[str, VehicleModel]
    enemy_cards: dict[str, dict[str, EnemyCard]]
    """By scenario, by card id."""
    stunts: dict[str, dict[str, Action]]
    scenario_actions: dict[str, dict[str, Action]]
    main_moves: dict[str, tuple[tuple[Line, ...], tuple[Line, ...]]]


def _action(m: ActionModel) -> Action:
    return Action(m.id, m.name, SKILLS.index(m.skill), m.need, _lines(m.condition, CONDITION_FORMS),
                  _lines(m.reward, EFFECT_FORMS), m.level, m.boost, m.ram)


def parse_content(data: Any, source: str) -> Content:
    """Validate ``data`` (the parsed file) and parse its effect lines; ``ContentError`` if bad."""
    model = validate_content(ContentModel, data, source)
    enemy_cards = {name: {c.id: EnemyCard(c.id, c.name, _lines(c.reveal, EFFECT_FORMS),
                                          _lines(c.activated, EFFECT_FORMS)) for c in sc.enemy_cards}
                   for name, sc in model.scenarios.items()}
    stunts = {name: {s.id: _action(s) for s in sc.stunts} for name, sc in model.scenarios.items()}
    actions = {name: {a.id: _action(a) for a in sc.actions} for name, sc in model.scenarios.items()}
    moves = {name: (_lines(sc.main_left, EFFECT_FORMS), _lines(sc.main_right, EFFECT_FORMS))
             for name, sc in model.scenarios.items()}
    return Content(source, model, {c.id: c for c in model.characters}, {v.id: v for v in model.vehicles},
                   enemy_cards, stunts, actions, moves)


_CACHE: dict[str, Content] = {}


def load_content(path: str | Path | None = None) -> Content:
    """The default content (read once), or a user file (``.toml`` or ``.json``)."""
    p = DEFAULT_PATH if path is None or path == "" else Path(path)
    source = str(p)
    if p == DEFAULT_PATH and source in _CACHE:
        return _CACHE[source]
    content = parse_content(read_content_file(p), source)
    if p == DEFAULT_PATH:
        _CACHE[source] = content
    return content
