"""The BRC Grand Prix game: options, content and the initial state."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from slipstream.engine import chance
from slipstream.engine.errors import ContentError, OptionError
from slipstream.engine.game import EventCache, Game, OptionSpec, Picker
from slipstream.engine.hooks import GameHooks

from . import notation, words
from .content import Content, load_content
from .rules import DRY_TRACK, HARD, SOFT, WET, CardEffect, Effect, pit_window, read_card_effect, standard_move
from .state import BRCState
from .types import Counter, MoveKind, Stage


class BRCGrandPrix(Game):
    """The F1 dice game of boardracing.uk: tyres, weather, overtakes, pit stops and BRC flag cards."""

    id: ClassVar[str] = "brc-grand-prix"
    name: ClassVar[str] = "BRC Grand Prix"
    description: ClassVar[str] = (
        "For 2 to 6 players, an eight-lap Formula 1 race on one die: choose soft tyres (faster, but a 1 locks "
        "them up) or hard, risk the Attack Die to overtake or sit behind, make your pit stop between laps 2 and "
        "7, and mind the flag spaces and the rain. About 100 moves."
    )
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("laps", 8, "laps to race (the rulebook's standard is 8)", kind=int, minimum=1, maximum=50),
        OptionSpec("grid", "roll-off", "how the grid is set: a d6 roll-off or hot-lap qualifying",
                   choices=("roll-off", "qualifying"),
                   lobby=Picker("Starting grid", "how the starting order is decided",
                                labels=(("roll-off", "a dice roll-off"), ("qualifying", "a qualifying hot lap")))),
        OptionSpec("standings", "race-to-end", "after the winner: everyone races on, or current positions",
                   choices=("race-to-end", "current-position"),
                   lobby=Picker("After the winner", "once someone has won", labels=(
                       ("race-to-end", "everyone races on to the line"),
                       ("current-position", "the race stops: places as the cars stand")))),
        OptionSpec("sprint", False, "Sprint mode: 2d6, SOFT +4 (lock-up on any 1), DRY only", kind=bool,
                   lobby=Picker("Sprint mode", "two dice; soft tyres +4 but any 1 locks them up; always dry")),
        OptionSpec("dynamic_weather", False, "two consecutive movement 6s by different players flip "
                   "the weather", kind=bool,
                   lobby=Picker(words="two 6s in a row on movement rolls, by different players, flip dry and wet")),
        OptionSpec("pit_penalty", "drive-through", "missing the pit window: forced through the pit "
                   "lane (drive-through) or miss 2 turns (stop-go)", choices=("drive-through", "stop-go"),
                   lobby=Picker("Missing the pit window", "for a driver who has not pitted between laps 2 and 7",
                                labels=(("drive-through", "a drive-through the pit lane"),
                                        ("stop-go", "miss two turns")))),
        OptionSpec("safety_car", "capped", "safety-car boost: capped (never across the finish line) or "
                   "literal (a full 6, which may finish the race)", choices=("capped", "literal"),
                   lobby=Picker("Safety-car boost", "the free move of the cars not in a collision", labels=(
                       ("capped", "6 spaces, stopping short of the finish line"),
                       ("literal", "a full 6 spaces, which may finish the race")))),
        OptionSpec("content", None, "a TOML/JSON content file (board, pit lane, flags, Attack Die, deck)",
                   lobby=Picker(hidden=True)),
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
    """Main-track spaces in a lap."""
    finish_distance: int
    """The distance past the start line at which a car has finished (laps x length)."""
    move_table: tuple[tuple[tuple[tuple[int, bool], ...], ...], ...]
    """``move_table[tyre][weather][roll]``: the tyre and weather table, precomputed."""
    attack_table: chance.ChanceTable
    sprint_table: chance.ChanceTable
    """The Attack Die and Sprint's 2d6, ready for ``BRCState._chance_table`` (one d6 is ``chance.DIE_TABLE``)."""
    card_effects: tuple[dict[str, CardEffect], ...]
    """Each flag card's lines by colour, read once (``rules.read_card_effect``)."""
    card_actions: tuple[str, ...]
    """``card:<id>`` for each flag card, by its index in ``content.card_ids``."""
    card_index: dict[str, int]
    """Each flag card's index in ``content.card_ids``, by its id."""
    pit_box_actions: tuple[tuple[str, ...], ...]
    """The legal actions at the Pit Box (sorted), by the tyre the car has on."""
    event_cache: EventCache
    """Events that read the same every time (a roll, a skipped turn), made once per game."""
    card_names: tuple[str, ...]
    """Each flag card's name, by its index in ``content.card_ids``."""
    line_words: tuple[dict[str, str], ...]
    """``line_words[card][colour]``: that line of the card in words (``words.line``)."""
    effect_names: dict[str, str]
    """Each kind of flag-card effect's name (``drs`` -> "DRS")."""
    terms: dict[str, dict[str, str]]
    """The glossary as JSON (``words.glossary``): every view carries it, for the terminal board's words."""

    def _setup(self) -> None:
        opts = self.options
        self.content = load_content(opts["content"])
        if self.players > len(self.content.pit_boxes):
            raise OptionError(f"{self.id}: {self.players} players need {self.players} pit boxes; "
                              f"the content has {len(self.content.pit_boxes)}")
        self.card_effects = tuple({colour: read_card_effect(text) for colour, text in lines.items()}
                                  for lines in self.content.card_lines)
        self.card_names = tuple(card.name for card in self.content.model.cards)
        self.line_words = tuple({colour: words.line(self.content, code) for colour, code in lines.items()}
                                for lines in self.content.card_lines)
        self.effect_names = {effect.id: effect.name for effect in self.content.model.effects}
        self.terms = {key: term.to_json() for key, term in words.glossary(self.content).items()}
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
        self.finish_distance = self.laps * self.length
        self.move_table = tuple(
            tuple(((0, False), *(standard_move(r, tyre, weather) for r in range(1, 7))) for weather in (0, 1))
            for tyre in (0, 1, 2)
        )
        self.event_cache = EventCache()
        self.attack_table = chance.ChanceTable(chance.weighted(
            [(notation.format_action(notation.AttackFace(face)), count) for face, count in self.content.attack_faces]))
        self.sprint_table = chance.ChanceTable(sorted(
            (notation.format_action(notation.Roll(a, b)), (1 if a == b else 2) / 36)
            for a in range(1, 7) for b in range(a, 7)
        ))
        self.card_actions = tuple(notation.format_action(notation.FlagCard(i)) for i in self.content.card_ids)
        self.card_index = {}
        for i, card_id in enumerate(self.content.card_ids):
            self.card_index.setdefault(card_id, i)
        fitted = (SOFT, HARD) if self.sprint else (SOFT, HARD, WET)
        self.pit_box_actions = tuple(
            tuple(sorted(notation.format_action(notation.TyreChange(t)) for t in (notation.KEEP, *fitted) if t != on))
            for on in (SOFT, HARD, WET)
        )

    def _check_track_length(self) -> None:
        """Every move must be shorter than a lap: the rules find the cars in a car's way by their offset
        round the loop, so a longer move could end on an occupied space or miss the Pit Entry."""
        content = self.content
        bonus = max([0, *(e.amount for lines in self.card_effects for e in lines.values() if e.kind == Effect.ROLL)])
        base, how = (16, "Sprint 2d6 + 4") if self.sprint else (8, "a d6 + 2")
        longest = base + bonus
        if longest >= content.length:
            raise ContentError(content.source, "track", "length",
                               f"{content.length} spaces is too short: a move can be {longest} spaces ({how}"
                               f"{f' and a roll+{bonus} card' if bonus else ''}), and must stay below a lap")

    def _initial_state(self) -> BRCState:
        """Setup: lap 1, track DRY, the flag deck shuffled face down, tyres to choose."""
        state = BRCState()
        n = self.players
        state.stage = Stage.TYRES
        state.weather = DRY_TRACK
        state.distance = [0] * n
        state.pit_space = (-1,) * n
        state.tyres = (-1,) * n
        state.turns_to_miss = (0,) * n
        state.off_track = (False,) * n
        state.window_stops = (0,) * n
        state.penalised = (False,) * n
        state.roll_modifier = (0,) * n
        state.perks = (0,) * n
        state.finished = (False,) * n
        state.finishing_order = ()
        state.race_order = ()
        state.turn_index = -1
        state.round_number = 0
        state.mover = -1
        state.move_start = state.move_position = state.move_target = 0
        state.move_kind = MoveKind.MAIN_TRACK
        state.move_locked_up = False
        state.defender = -1
        state.no_overtaking = False
        state.unseen_cards = (1,) * len(self.content.card_ids)
        state.bottom_cards = ()
        state.flag_colour = ""
        state.last_six_roller = -1
        state.grid_groups = ()
        state.grid_rolls = ()
        state.qualifying_seat = state.qualifying_distance = state.qualifying_rolls = 0
        state.qualifying_results = ()
        state.grid = ()
        state.starting_tyres = ()
        state.counters = [0] * len(Counter)
        return state

    @classmethod
    def hooks(cls) -> GameHooks:
        from . import action_space, bot, metrics, observation, render

        return GameHooks(board_text=render.board, describe_action=render.describe_action, hints=render.hints,
                         glossary=render.glossary, scoreboard=render.scoreboard,
                         race_metrics=metrics.race_metrics, seat_labels=metrics.seat_labels,
                         standings=metrics.standings, start_positions=metrics.start_positions,
                         turn_order=metrics.turn_order, position_value=metrics.position_value,
                         heuristic_bot=bot.HeuristicBot, action_space=action_space.action_space,
                         observation=observation.BRCObservation, web_board=Path(__file__).with_name("board.js"))

