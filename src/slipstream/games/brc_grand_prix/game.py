"""The BRC Grand Prix game: options, content and the initial state."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from slipstream.engine import chance
from slipstream.engine.errors import ContentError, OptionError
from slipstream.engine.game import Event, Game, OptionSpec
from slipstream.engine.hooks import GameHooks

from .content import Content, load_content
from .rules import pit_window, standard_move
from .state import BRCState


class BRCGrandPrix(Game):
    """The F1 dice game of boardracing.uk: tyres, weather, overtakes, pit stops and BRC flag cards."""

    id: ClassVar[str] = "brc-grand-prix"
    name: ClassVar[str] = "BRC Grand Prix"
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("laps", 8, "laps to race (the rulebook's standard is 8)", kind=int, minimum=1, maximum=50),
        OptionSpec("grid", "roll-off", "how the grid is set: a d6 roll-off or hot-lap qualifying",
                   choices=("roll-off", "qualifying")),
        OptionSpec("standings", "race-to-end", "after the winner: everyone races on, or current positions",
                   choices=("race-to-end", "current-position")),
        OptionSpec("sprint", False, "Sprint mode: 2d6, SOFT +4 (lock-up on any 1), DRY only", kind=bool),
        OptionSpec("dynamic_weather", False, "two consecutive movement 6s by different players flip "
                   "the weather", kind=bool),
        OptionSpec("pit_penalty", "drive-through", "missing the pit window: forced through the pit "
                   "lane (drive-through) or miss 2 turns (stop-go)", choices=("drive-through", "stop-go")),
        OptionSpec("safety_car", "capped", "safety-car boost: capped (never across the finish line) or "
                   "literal (a full 6, which may finish the race)", choices=("capped", "literal")),
        OptionSpec("content", None, "a TOML/JSON content file (board, pit lane, flags, Attack Die, deck)"),
    )
    conformance_options: ClassVar[tuple[tuple[int, dict[str, object]], ...]] = (
        (2, {"grid": "qualifying", "standings": "current-position"}),
        (4, {"sprint": True, "laps": 4}),
        (3, {"dynamic_weather": True, "pit_penalty": "stop-go", "safety_car": "literal", "laps": 5}),
    )

    content: Content
    laps: int
    sprint: bool
    dynamic_weather: bool
    race_to_end: bool
    qualifying: bool
    stop_go: bool
    literal_safety_car: bool
    window: tuple[int, int] | None
    length: int
    finish_dist: int
    move_table: tuple[tuple[tuple[tuple[int, bool], ...], ...], ...]
    """``move_table[tyre][weather][roll]``: the tyre and weather table, precomputed."""
    attack_table: chance.ChanceTable
    sprint_table: chance.ChanceTable
    """The Attack Die and Sprint's 2d6, ready for ``BRCState._chance_table`` (one d6 is ``chance.DIE_TABLE``)."""
    all_done: int
    event_cache: dict[tuple[object, ...], Event]
    """Events that read the same every time (a roll, a skipped turn), made once per game."""

    def _setup(self) -> None:
        opts = self.options
        self.content = load_content(opts["content"])
        if self.players > len(self.content.pit_boxes):
            raise OptionError(f"{self.id}: {self.players} players need {self.players} pit boxes; "
                              f"the content has {len(self.content.pit_boxes)}")
        self.laps = opts["laps"]
        self.sprint = opts["sprint"]
        self.dynamic_weather = opts["dynamic_weather"]
        if self.sprint and self.dynamic_weather:
            raise OptionError(f"{self.id}: Sprint mode locks the track to DRY, so dynamic_weather "
                              "cannot be used with sprint")
        self._check_track_length()
        self.race_to_end = opts["standings"] == "race-to-end"
        self.qualifying = opts["grid"] == "qualifying"
        self.stop_go = opts["pit_penalty"] == "stop-go"
        self.literal_safety_car = opts["safety_car"] == "literal"
        self.window = pit_window(self.laps)
        self.length = self.content.length
        self.finish_dist = self.laps * self.length
        self.move_table = tuple(
            tuple(((0, False), *(standard_move(r, tyre, weather) for r in range(1, 7))) for weather in (0, 1))
            for tyre in (0, 1, 2)
        )
        self.event_cache = {}
        self.attack_table = chance.ChanceTable(
            chance.weighted([(f"attack:{f}", c) for f, c in self.content.attack_faces]))
        self.all_done = (1 << self.players) - 1
        self.sprint_table = chance.ChanceTable(sorted(
            (f"dice:{a}-{b}", (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
        ))

    def _check_track_length(self) -> None:
        """Every move must be shorter than a lap: the rules find the cars in a car's way by their offset
        round the loop, so a longer move could end on an occupied space or miss the Pit Entry."""
        c = self.content
        bonus = max([0, *(int(e[5:]) for lines in c.card_lines for e in lines.values() if e.startswith("roll+"))])
        base, how = (16, "Sprint 2d6 + 4") if self.sprint else (8, "a d6 + 2")
        longest = base + bonus
        if longest >= c.length:
            raise ContentError(c.source, "track", "length",
                               f"{c.length} spaces is too short: a move can be {longest} spaces ({how}"
                               f"{f' and a roll+{bonus} card' if bonus else ''}), and must stay below a lap")

    @classmethod
    def hooks(cls) -> GameHooks:
        """The terminal's board, the simulator's metrics, the heuristic bot and the web board."""
        from slipstream.bots import brc_grand_prix as bot

        from . import metrics, render

        return GameHooks(board_text=render.board, describe_action=render.describe_action, hints=render.hints,
                         race_metrics=metrics.race_metrics, seat_labels=metrics.seat_labels,
                         standings=metrics.standings, position_value=metrics.position_value,
                         heuristic_bot=bot.HeuristicBot, web_board=Path(__file__).with_name("board.js"))

    def _initial_state(self) -> BRCState:
        return BRCState.initial(self)

