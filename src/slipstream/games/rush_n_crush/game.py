"""Rush 'n' Crush, the game: options, content, the course and the initial state."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from slipstream.engine.errors import OptionError
from slipstream.engine.game import Game, OptionSpec, Picker
from slipstream.engine.hooks import GameHooks

from . import rules
from .content import Content, Dashboard, Gear, build_gear, load_content
from .course import Track, course_names, load_track
from .state import RushState
from .types import Stage

DEFAULT_COURSE = "grand-prix"
"""A course of normal length (10 tiles), chosen by measure (docs/rules/rush-n-crush.md, Balance)."""
DEFAULT_GEAR_LINES = "upshift-at-high-revs"
"""Only the diagonal lines from and to orange and red nodes, chosen by measure (docs, Balance)."""


class RushNCrush(Game):
    """Rush 'n' Crush (Henry, Cazals, Blossier; Rackham/AEG 2009-10), the Overdrive rules: 2-6 armed
    cars race on a course of track tiles; the first across the finish line wins."""

    id: ClassVar[str] = "rush-n-crush"
    name: ClassVar[str] = "Rush 'n' Crush"
    description: ClassVar[str] = (
        "2 to 6 players, one armed car each, race over a course of track tiles: the first across the finish "
        "line wins. Each turn you choose a gear on the gear matrix (faster goes further but heats the engine "
        "and steers less), drive square by square, and ram, shoot, burn or mine your rivals; a destroyed car "
        "stays on the road as a wreck. A race is a handful of rounds: short on the sprint, about twice as long "
        "on the grand prix.")
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("course", DEFAULT_COURSE, "a recommended course (sprint, grand-prix, ring, oval) or a "
                   "course file ending .toml or .json", lobby=Picker(words="the course to race", terms="course")),
        OptionSpec("laps", 0, "laps of a closed course (0: the course's own)", kind=int, minimum=0, maximum=9,
                   lobby=Picker(words="laps of a closed course", labels=((0, "the course's own number"),))),
        OptionSpec("rush_attacks", rules.PER_TURN, "which Rush 'n' Crush attacks roll: every one (per-turn, the "
                   "summary), the first each round (once-per-round, the published edition) or each car's first "
                   "each round (once-per-car)", choices=rules.RUSH_ATTACKS,
                   lobby=Picker("Rush 'n' Crush attacks", "ramming a car from directly behind: which rams roll",
                                labels=((rules.PER_TURN, "every one"),
                                        ("once-per-round", "only the first each round (the published edition)"),
                                        ("once-per-car", "each car's first each round")))),
        OptionSpec("gear_lines", DEFAULT_GEAR_LINES, "the gear matrix's white lines: every diagonal (full) or "
                   "only from and to orange and red nodes (upshift-at-high-revs)",
                   choices=("full", "upshift-at-high-revs"),
                   lobby=Picker("Gear matrix", "the diagonal lines you may shift along", labels=(
                       ("full", "every diagonal"),
                       ("upshift-at-high-revs", "only diagonals from and to orange and red gears")))),
        OptionSpec("seat_assignment", "team", "team: seat k takes car k and driver k of the content; random: "
                   "the cars and drivers are dealt at random", choices=("team", "random"),
                   lobby=Picker("Cars and drivers", "who drives which car", labels=(
                       ("team", "each player a team's car and driver"), ("random", "dealt at random")))),
        OptionSpec("content", None, "a content file (gear matrix, dice, cars, drivers) replacing the shipped one",
                   lobby=Picker(hidden=True)),
    )
    conformance_options: ClassVar[tuple[tuple[int, dict[str, Any]], ...]] = (
        (3, {"course": "ring", "rush_attacks": rules.ONCE_PER_ROUND}),
        (5, {"course": "sprint", "gear_lines": "full", "seat_assignment": "random"}),
        (6, {"course": "oval", "rush_attacks": rules.ONCE_PER_CAR}),
    )
    golden_options: ClassVar[tuple[dict[str, Any], ...]] = (
        {"players": 6, "course": "oval", "rush_attacks": rules.ONCE_PER_ROUND},
        {"players": 5, "course": "grand-prix", "rush_attacks": rules.ONCE_PER_CAR,
         "gear_lines": "full", "seat_assignment": "random"},
    )
    """Seeded races chosen so their playthroughs show what the default one lacks: the Machine Gun, the
    Lateral Circular Saw, a wreck, a mine hit, a spent Rush 'n' Crush quota (RC-G12), the random deal and
    every gear line."""

    content: Content
    track: Track
    gear: Gear
    dashboards: tuple[Dashboard, ...]

    def _setup(self) -> None:
        opts = self.options
        course = str(opts["course"])
        if not course.endswith((".toml", ".json")) and course not in course_names():
            raise OptionError(f"{self.id}: option 'course' cannot be {course!r}; choose one of: "
                              f"{', '.join(course_names())}, or a course file ending .toml or .json")
        laps = int(opts["laps"])
        if laps > 1 and not load_track(course).closed:
            raise OptionError(f"{self.id}: option 'laps' above 1 needs a closed course; {course} is open")
        self.track = load_track(course, laps)
        content = opts["content"]
        self.content = load_content(str(content) if content else None)
        if len(self.content.cars) < self.players:
            raise OptionError(f"{self.id}: the content has {len(self.content.cars)} cars for {self.players} players")
        self.gear = build_gear(self.content.model, str(opts["gear_lines"]))
        cars = list(self.content.cars)
        drivers = list(self.content.drivers)
        self.dashboards = tuple(self.content.dashboard(cars[k], drivers[k]) for k in range(self.players))

    @classmethod
    def hooks(cls) -> GameHooks:
        from . import action_space, bot, metrics, observation, plans, render

        return GameHooks(board_text=render.board, describe_action=render.describe_action, hints=render.hints,
                         glossary=render.glossary, scoreboard=render.scoreboard,
                         move_plans=plans.move_plans,
                         race_metrics=metrics.race_metrics, metrics_tally=metrics.RaceTally,
                         seat_labels=metrics.seat_labels, start_positions=metrics.start_positions,
                         standings=metrics.standings, position_value=metrics.position_value,
                         heuristic_bot=bot.HeuristicBot, action_space=action_space.action_space,
                         observation=observation.RushObservation,
                         web_board=Path(__file__).with_name("board.js"))

    def _initial_state(self) -> RushState:
        state = RushState()
        n = self.players
        state.stage = state.phase = Stage.DEAL if self.options["seat_assignment"] == "random" else Stage.GRID
        state.dash = self.dashboards
        state.dealt = ()
        state.square = [-1] * n
        state.lap = (0,) * n
        state.node = (0,) * n
        rules.set_dashboards(state)
        state.mines = ()
        state.stamp = (0,) * n
        state.clock = 0
        state.destroyed = (0,) * n
        state.destructions = 0
        state.grid_seats = ()
        state.order = ()
        state.turn = 0
        state.round = 1
        state.rnc_rolled = ()
        state.winner = -1
        rules.reset_turn(state, 0)
        state.reason = ""
        return state


__all__ = ["RushNCrush"]
