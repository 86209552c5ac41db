"""The Highway Heist game: options, content and the fixed tables a match reads (``HighwayHeist``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from math import factorial
from pathlib import Path
from typing import ClassVar

from slipstream.engine.chance import ChanceTable, weighted
from slipstream.engine.errors import OptionError
from slipstream.engine.game import Game, OptionSpec, Picker
from slipstream.engine.hooks import GameHooks

from . import notation
from .content import (
    DIFFICULTIES,
    SCENARIOS,
    Action,
    CharacterModel,
    Content,
    EnemyCard,
    Line,
    ScenarioModel,
    VehicleModel,
    load_content,
)
from .state import HeistState
from .words import Words

DEFAULT_LANES = {2: (3, 4), 3: (2, 3, 4), 4: (2, 3, 4, 5)}
"""Starting lanes in column 1 when the option ``lanes`` is empty (Setup: "any space in the starting
row"; the team's choice, HH-G1)."""


class HighwayHeist(Game):
    """Fast & Furious: Highway Heist, a cooperative game for 2-4 players (rules/highway-heist.txt)."""

    id = "highway-heist"
    name = "Fast & Furious: Highway Heist"
    version = "1"
    min_players = 2
    max_players = 4
    default_players = 3
    cooperative = True
    description = ("A cooperative chase for 2 to 4 players, at most 9 rounds at Standard: the crew drives, leaps "
                   "from roof to roof and pulls off Stunts to stop Shaw's Tank, rob a Semi or down a Chopper "
                   "before the last Stunt card leaves the road. Enemy cards show their danger a few turns ahead, "
                   "so the team plans together and spends Boost tokens on each other's rolls.")
    option_specs = (
        OptionSpec("scenario", "tank-assault", "the scenario", choices=SCENARIOS,
                   lobby=Picker(words="the team's mission (Tank Assault is the one to learn with)")),
        OptionSpec("difficulty", "standard", "Stunt cards removed (Difficulty)", choices=DIFFICULTIES,
                   lobby=Picker(words="fewer Stunt cards leave fewer rounds to win")),  # named by the glossary
        OptionSpec("characters", "", "comma-separated character ids, one per seat; empty = dom, brian, "
                   "letty, roman in seat order",
                   lobby=Picker(words="each player's character (left open: Dom, Brian, Letty, Roman)",
                                terms="character", per_seat=True)),
        OptionSpec("vehicles", "", "comma-separated starting vehicle ids, one per seat; empty = the "
                   "content's vehicles in order (never the Hijacked SUV)",
                   lobby=Picker("Starting vehicles", "each player's starting vehicle (left open: in the "
                                "game's order)", terms="vehicle", per_seat=True)),
        OptionSpec("team", "", "comma-separated character/vehicle pairs, one per seat (dom/exotic-supercar,"
                   "brian/street-drifter): the characters and vehicles together, instead of those two options",
                   lobby=Picker(hidden=True)),
        OptionSpec("lanes", "", "comma-separated starting lanes in column 1, one per seat; empty = the "
                   "middle lanes",
                   lobby=Picker("Starting lanes", "each player's lane in the first column, 1 (north) to 6 "
                                "(south); left open: the middle lanes", per_seat=True)),
        OptionSpec("ramsey_seat", 0, "Chopper Takedown: the seat whose vehicle carries Ramsey", kind=int,
                   minimum=0, maximum=3,
                   lobby=Picker("Ramsey rides with", "Chopper Takedown: the player whose vehicle carries "
                                "Ramsey", seat=True)),
        OptionSpec("content", "", "path of a content file (TOML or JSON) to use instead of the default",
                   lobby=Picker(hidden=True)),
    )
    conformance_options: ClassVar[tuple[tuple[int, dict[str, object]], ...]] = (
        (3, {"scenario": "semi-heist"}),
        (3, {"scenario": "chopper-takedown", "ramsey_seat": 1}),
        (2, {"scenario": "semi-heist", "difficulty": "beast", "characters": "han,tej",
             "vehicles": "street-drifter,american-muscle"}),
        (4, {"scenario": "chopper-takedown", "difficulty": "easy",
             "characters": "roman,han,tej,letty"}),
    )

    golden_options: ClassVar[tuple[dict[str, object], ...]] = (
        {"scenario": "semi-heist"}, {"scenario": "chopper-takedown"})

    content: Content
    scenario_id: str
    scenario: ScenarioModel
    columns: int
    lanes: int
    spaces: int
    characters: tuple[CharacterModel, ...]
    vehicles: tuple[VehicleModel, ...]
    hijacked_board: int
    """Index of the Hijacked SUV in ``boards``."""
    boards: tuple[VehicleModel, ...]
    starting_boards: tuple[int, ...]
    start_spaces: tuple[int, ...]
    ramsey_seat: int
    stunt_cards: dict[str, Action]
    stunt_levels: tuple[tuple[str, ...], ...]
    """The Stunt card ids of levels 1, 2 and 3."""
    stunts_kept: tuple[int, int, int]
    """Cards of each level in the Stunt deck after the difficulty's removal."""
    scenario_actions: dict[str, Action]
    enemy_cards: dict[str, EnemyCard]
    main_left: tuple[Line, ...]
    main_right: tuple[Line, ...]
    effort_tables: tuple[ChanceTable, ...]
    """By number of dice (0 to the cap), the effort outcomes."""
    enemy_die: ChanceTable
    max_dice: int
    boost_caps: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    """Per space, the on-road spaces adjacent to it (eight directions)."""
    distances: tuple[int, ...]
    """King-move distance between spaces ``a`` and ``b`` at ``a * spaces + b``."""
    space_actions: dict[notation.Verb, tuple[str, ...]]
    """Per verb that names a space, its action string for every space (``drive:c5l3``)."""
    words: Words
    """What a player reads: names and effect texts of this game's content (``words.Words``)."""
    places: tuple[str, ...]
    """Each space in words, as the board labels it ("column 5, lane 3"): the events say places so."""
    kind_names: tuple[str, ...]
    """Each piece kind of the rules by name ("Enemy SUV", "Tank", ...), for the events."""

    def _setup(self) -> None:
        opts = self.options
        self.content = content = load_content(opts["content"] or None)
        model = content.model
        self.scenario_id = opts["scenario"]
        self.scenario = model.scenarios[self.scenario_id]
        self.columns = model.road.columns
        self.lanes = model.road.lanes
        self.spaces = self.columns * self.lanes
        self.max_dice = model.rules.max_dice
        self._setup_seats()
        self.stunt_cards = content.stunts[self.scenario_id]
        self.stunt_levels = tuple(tuple(sorted(s.id for s in self.stunt_cards.values() if s.level == level))
                                  for level in (1, 2, 3))
        removed = model.difficulties[opts["difficulty"]].remove
        self.stunts_kept = (len(self.stunt_levels[0]) - removed[0], len(self.stunt_levels[1]) - removed[1], 1)
        self.scenario_actions = content.scenario_actions[self.scenario_id]
        self.enemy_cards = content.enemy_cards[self.scenario_id]
        self.main_left, self.main_right = content.main_moves[self.scenario_id]
        self.effort_tables = tuple(ChanceTable(effort_outcomes(model.effort_die.faces, n))
                                   for n in range(self.max_dice + 1))
        faces = model.enemy_die.faces
        self.enemy_die = ChanceTable(weighted([(f"enemy-die:{f}", faces.count(f)) for f in set(faces)]))
        self.neighbours = tuple(self._neighbours(space) for space in range(self.spaces))
        lanes = self.lanes
        self.distances = tuple(max(abs(a // lanes - b // lanes), abs(a % lanes - b % lanes))
                               for a in range(self.spaces) for b in range(self.spaces))
        self.space_actions = {verb: tuple(notation.at(verb, space // lanes + 1, space % lanes + 1)
                                          for space in range(self.spaces)) for verb in notation.SPACE_VERBS}
        self.words = Words.of(self)
        self.places = self.words.places
        self.kind_names = self.words.kind_names

    def _setup_seats(self) -> None:
        content, n = self.content, self.players
        (char_option, char_text), (vehicle_option, vehicle_text) = self._seat_texts()
        chars = self._ids(char_option, char_text, [c.id for c in content.model.characters][:n], content.characters)
        starting = [v.id for v in content.model.vehicles if not v.hijacked]
        vehicles = self._ids(vehicle_option, vehicle_text, (starting * 4)[:n], content.vehicles)
        for vid in vehicles:
            if content.vehicles[vid].hijacked:
                raise OptionError(f"{self.id}: option {vehicle_option!r}: the {vid} is only reached by hijacking "
                                  "(Setup)")
        self.characters = tuple(content.characters[c] for c in chars)
        self.boards = tuple(content.model.vehicles)
        self.hijacked_board = next(i for i, v in enumerate(self.boards) if v.hijacked)
        index = {v.id: i for i, v in enumerate(self.boards)}
        self.starting_boards = tuple(index[v] for v in vehicles)
        self.vehicles = tuple(content.vehicles[v] for v in vehicles)
        lane_text = self.options["lanes"]
        words = [x.strip() for x in lane_text.split(",")] if lane_text else []
        lanes = [int(x) for x in words if x.isdigit()] if words else list(DEFAULT_LANES[n])
        if (len(lanes) != n or len(lanes) != len(words or lanes) or len(set(lanes)) != n
                or not all(1 <= x <= self.lanes for x in lanes)):
            raise OptionError(f"{self.id}: option 'lanes' needs {n} different lanes from 1 to {self.lanes}, "
                              f"separated by commas, not {lane_text!r}"[:300])
        self.start_spaces = tuple(lane - 1 for lane in lanes)
        self.ramsey_seat = self.options["ramsey_seat"]
        if self.ramsey_seat >= n:
            raise OptionError(f"{self.id}: option 'ramsey_seat' must be a seat from 0 to {n - 1}")
        cap = self.content.model.rules.boost_cap
        self.boost_caps = tuple(c.boost_cap if c.power == "hoarder" else cap for c in self.characters)

    def _seat_texts(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """(option named in errors, text) of the characters and of the vehicles: those two options, or
        ``team``'s pairs (one option to name, or sweep, whole teams: ``dom/exotic-supercar,...``)."""
        team = self.options["team"]
        if not team:
            return ("characters", self.options["characters"]), ("vehicles", self.options["vehicles"])
        if self.options["characters"] or self.options["vehicles"]:
            raise OptionError(f"{self.id}: option 'team' names the characters and vehicles: give it without "
                              "'characters' and 'vehicles'")
        pairs = [pair.strip().partition("/") for pair in team.split(",")]
        if not all(character.strip() and slash and vehicle.strip() for character, slash, vehicle in pairs):
            raise OptionError(f"{self.id}: option 'team' is character/vehicle pairs separated by commas "
                              f"(dom/exotic-supercar,brian/street-drifter), not {team!r}"[:300])
        return (("team (characters)", ",".join(character.strip() for character, _, _ in pairs)),
                ("team (vehicles)", ",".join(vehicle.strip() for _, _, vehicle in pairs)))

    def _ids(self, option: str, text: str, default: list[str], known: Mapping[str, object]) -> list[str]:
        """The ids one per seat named by ``text`` (of ``option``), else ``default``."""
        ids = [s.strip() for s in text.split(",")] if text else default
        if len(ids) != self.players:
            raise OptionError(f"{self.id}: option {option!r} names {len(ids)} for {self.players} players")
        if len(set(ids)) != len(ids):
            raise OptionError(f"{self.id}: option {option!r}: each player takes a different board")
        for i in ids:
            if i not in known:
                raise OptionError(f"{self.id}: option {option!r}: unknown {i!r}; choose from: {', '.join(known)}")
        return ids

    def _neighbours(self, space: int) -> tuple[int, ...]:
        col, lane = divmod(space, self.lanes)
        out = []
        for dc in (-1, 0, 1):
            for dl in (-1, 0, 1):
                if (dc or dl) and 0 <= col + dc < self.columns and 0 <= lane + dl < self.lanes:
                    out.append((col + dc) * self.lanes + lane + dl)
        return tuple(out)

    def space_name(self, space: int) -> str:
        col, lane = divmod(space, self.lanes)
        return notation.space_text(col + 1, lane + 1)

    def _initial_state(self) -> HeistState:
        return HeistState.initial(self)

    def seat_name(self, seat: int) -> str:
        return f"P{seat + 1} ({self.characters[seat].name})"

    @classmethod
    def hooks(cls) -> GameHooks:
        from . import action_space, bot, metrics, observation, render

        return GameHooks(board_text=render.board, describe_action=render.describe_action, hints=render.hints,
                         glossary=render.glossary, scoreboard=render.scoreboard,
                         race_metrics=metrics.race_metrics, seat_labels=metrics.seat_labels,
                         standings=metrics.standings, position_value=metrics.position_value,
                         heuristic_bot=bot.HeuristicBot, action_space=action_space.action_space,
                         observation=observation.HeistObservation, web_board=Path(__file__).with_name("board.js"))


def effort_outcomes(faces: list[str], dice: int) -> list[tuple[str, float]]:
    """The chance outcomes of rolling ``dice`` Effort Dice: each count of (success, boost, blank) faces
    with its multinomial probability, as ``effort:<S>s<B>b<X>x``."""
    total = len(faces)
    p = [faces.count(f) / total for f in ("success", "boost", "blank")]
    out: list[tuple[str, float]] = []
    for s, b in product(range(dice + 1), repeat=2):
        x = dice - s - b
        if x < 0:
            continue
        ways = factorial(dice) // (factorial(s) * factorial(b) * factorial(x))
        prob = ways * p[0] ** s * p[1] ** b * p[2] ** x
        if prob > 0:
            out.append((notation.effort(s, b, x), prob))
    scale = sum(q for _, q in out)
    return sorted((a, q / scale) for a, q in out)
