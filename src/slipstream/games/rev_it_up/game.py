"""The Rev it Up game: options, content and the fixed tables a race reads (``RevItUp``)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from slipstream.engine.chance import ChanceTable
from slipstream.engine.errors import OptionError
from slipstream.engine.game import Game, OptionSpec, Picker
from slipstream.engine.hooks import GameHooks

from . import notation, rules, words
from .content import (
    BOMB,
    COIN,
    COLOUR_CODE,
    DEBRIS,
    ECOBOOST,
    EXHAUST,
    ITEM_TYPES,
    NITROUS,
    RECALL,
    UPGRADE,
    Content,
    Kinds,
    TrackModel,
    load_content,
)
from .state import RevState
from .types import NO_CHIP, RACING, Stage, Stat, Task


class RevItUp(Game):
    """Rev it Up: simultaneous bag-building racing for 2-6 players (rules/rev-it-up.txt)."""

    id = "rev-it-up"
    name = "Rev it Up"
    description = (
        "For 2 to 6 players, everyone at once: a bag-building race of two or three laps. Draw chips to move, "
        "but most heat your engine, so stop before you overheat; then spend your coins on better chips and on "
        "items that trap, attack or outpace the others."
    )
    version = "1"
    min_players = 2
    max_players = 6
    default_players = 4
    option_specs = (
        OptionSpec("track", "standard", "track id from the content file (standard, short, grand)",
                   lobby=Picker(words="the track to race", terms="track")),
        OptionSpec("laps", 0, "laps to race; 0 = the track's own number (RIU-A10)", kind=int,
                   minimum=0, maximum=20,
                   lobby=Picker(words="laps to race", labels=((0, "the track's own number"),))),
        OptionSpec("side", "standard", "character board side", choices=("standard", "asymmetric"),
                   lobby=Picker("Character boards", "every racer uses the same side of its board",
                                labels=(("standard", "the Standard side"), ("asymmetric", "the Asymmetric side")))),
        OptionSpec("characters", "", "comma-separated character ids, one per seat; empty = racer-1, racer-2, ...",
                   lobby=Picker(words="each player's character board (left open: in the game's order)",
                                terms="character", per_seat=True)),
        OptionSpec("items", "", "comma-separated item ids, one of each type; empty = the first of each type",
                   lobby=Picker("Items in play", "one item of each type (none ticked: the first of each type)",
                                terms="item", several=True)),
        OptionSpec("overheat_penalty", "none", "RIU-A1: 'none' (the overheating chip still moves) or "
                   "'lose_move' (it does not)", choices=("none", "lose_move"),
                   lobby=Picker("The chip that overheats you", "the chip that no longer fits your Rev Track", labels=(
                       ("none", "still moves your racer"), ("lose_move", "does not move your racer")))),
        OptionSpec("recall_returns_to_supply", False, "RIU-A8: a drawn Recall goes back to the supply at the "
                   "end of the round instead of staying in the victim's bag", kind=bool,
                   lobby=Picker("Recalls go back to the supply", "a Recall chip drawn from your bag goes back "
                                "to the supply at the end of the round instead of staying in your bag")),
        OptionSpec("max_chips_per_buy", 0, "RIU-G17: chips one racer may buy per buying phase; 0 = no cap",
                   kind=int, minimum=0, maximum=7,
                   lobby=Picker("Chips bought per round", "how many chips one racer may buy in each buying "
                                "phase", labels=((0, "no limit"),))),
        OptionSpec("podium", 1, "play on until this many racers have finished (1 = the game ends at the "
                   "first finisher; 2 or 3 play on for second and third)", kind=int, minimum=1, maximum=5,
                   lobby=Picker("Race on for places", "how many racers finish before the race ends",
                                labels=((1, "the winner only"),))),
        OptionSpec("content", "", "path of a content file (TOML or JSON) to use instead of the default",
                   lobby=Picker(hidden=True)),
    )
    conformance_options: ClassVar[tuple[tuple[int, dict[str, object]], ...]] = (
        (4, {"side": "asymmetric", "characters": "racer-5,racer-9,racer-2,racer-8"}),
        (3, {"podium": 2, "overheat_penalty": "lose_move", "recall_returns_to_supply": True,
             "items": "caltrops,shockwave,emp,slipstream,loose-change,heat-sink"}),
        (2, {"track": "short", "max_chips_per_buy": 2, "side": "asymmetric",
             "characters": "racer-6,racer-7"}),
    )

    content: Content
    item_names: dict[str, str]
    """Every item's name by its id."""
    said: dict[str, str]
    """Action strings said in words (``words.describe``), filled as they are asked for."""
    chose: dict[str, str]
    """A seat's own choices (without the seat) in words (``words.choice``), filled as the events need them."""
    terms: dict[str, dict[str, str]]
    """The glossary as JSON (``words.glossary``): every view carries it, for the terminal board's words."""
    decide_legal: dict[frozenset[int], tuple[str, ...]]
    """Stop-or-go legal actions by the set of seats still choosing."""
    draw_cache: dict[tuple[int, ...], ChanceTable]
    """Draw outcomes by bag contents (a bag's chance node depends on nothing else)."""
    kinds: Kinds
    kind_count: int
    """The number of chip kinds (the length of every per-kind count)."""
    track: TrackModel
    track_length: int
    laps: int
    finish: int
    item_spaces: frozenset[int]
    places: int
    ready_capacity: int
    max_chips: int
    lose_move: bool
    recall_to_supply: bool
    item_of_type: dict[str, str]
    items_in_play: tuple[str, ...]
    effect: dict[str, str]
    to_bag: dict[str, bool]
    item_die: list[tuple[str, float]]
    item_table: ChanceTable
    """``item_die`` ready for ``RevState._chance_table``."""
    characters: tuple[str, ...]
    rev_length: tuple[int, ...]
    short_names: tuple[str, ...]
    only: tuple[frozenset[int], ...]
    decide_actions: tuple[tuple[str, ...], ...]
    reroll_bonus: tuple[int, ...]
    start_items: tuple[int, ...]
    bonus: tuple[int, ...]
    starting_bags: tuple[tuple[int, ...], ...]
    """Per seat, the count of each chip kind in its starting bag."""
    code: tuple[int, ...]
    chip_action: tuple[str, ...]
    """The draw action of each chip kind."""
    debris: int
    bomb: int
    coin_kinds: tuple[int, ...]
    coin_levels: tuple[tuple[int, int], ...]
    upgrade_kinds: tuple[int, ...]
    recall_kinds: tuple[int, ...]
    buyable: tuple[int, ...]
    shop: tuple[tuple[int, str, int, str, bool], ...]
    """Buyable kinds as (kind, colour, cost, ``buy:`` action, is a Recall)."""
    heat: tuple[int, ...]
    move: tuple[int, ...]
    totals: tuple[int, ...]

    def _setup(self) -> None:
        self.draw_cache = {}
        self.decide_legal = {}
        opts = self.options
        self.content = content = load_content(opts["content"] or None)
        kinds = content.kinds
        self.kinds = kinds
        self.kind_count = len(kinds)
        track = content.tracks.get(opts["track"])
        if track is None:
            raise OptionError(f"{self.id}: option 'track' cannot be {opts['track']!r}; choose one of: "
                              f"{', '.join(content.tracks)}")
        self.track = track
        self.track_length = track.length
        self.laps = opts["laps"] or track.laps
        self.finish = self.laps * track.length
        self.item_spaces = frozenset(track.item_spaces)
        self.places = max(1, min(opts["podium"], self.players - 1))
        self.ready_capacity = content.model.rules.ready_capacity
        self.max_chips = opts["max_chips_per_buy"]
        self.lose_move = opts["overheat_penalty"] == "lose_move"
        self.recall_to_supply = bool(opts["recall_returns_to_supply"])
        self._setup_items()
        self._setup_characters()
        self._setup_tables()
        self.item_names = {i.id: i.name for i in content.model.items}
        self.said = {}
        self.chose = {}
        self.terms = {key: term.to_json() for key, term in words.glossary(self).items()}

    def _setup_items(self) -> None:
        content = self.content
        chosen: dict[str, str] = {}
        if self.options["items"]:
            for item_id in (s.strip() for s in self.options["items"].split(",")):
                item = content.items.get(item_id)
                if item is None:
                    raise OptionError(f"{self.id}: option 'items': unknown item {item_id!r}; the items are: "
                                      f"{', '.join(content.items)}")
                if item.type in chosen:
                    raise OptionError(f"{self.id}: option 'items': two items of type {item.type!r} "
                                      "(setup: one item of each type)")
                chosen[item.type] = item_id
            missing = [t for t in ITEM_TYPES if t not in chosen]
            if missing:
                raise OptionError(f"{self.id}: option 'items': no item of type {missing[0]!r} "
                                  "(setup: one item of each type)")
        else:
            for item in content.model.items:
                chosen.setdefault(item.type, item.id)
        self.item_of_type = chosen
        self.items_in_play = tuple(chosen[t] for t in ITEM_TYPES)
        self.effect = {i: content.items[i].effect for i in self.items_in_play}
        self.to_bag = {i: content.items[i].gain == "opponent_bag" for i in self.items_in_play}
        faces: dict[str, int] = {}
        for face in content.model.item_die.faces:
            item_id = chosen[face]
            faces[item_id] = faces.get(item_id, 0) + 1
        total = sum(faces.values())
        self.item_die = sorted((notation.item(i), n / total) for i, n in faces.items())
        self.item_table = ChanceTable(self.item_die)

    def _setup_characters(self) -> None:
        content = self.content
        if len(content.model.characters) < self.players:
            raise OptionError(f"{self.id}: the content has only {len(content.model.characters)} characters "
                              f"for {self.players} players")
        ids = ([s.strip() for s in self.options["characters"].split(",")] if self.options["characters"]
               else [c.id for c in content.model.characters[: self.players]])
        if len(ids) != self.players:
            raise OptionError(f"{self.id}: option 'characters' names {len(ids)} characters for "
                              f"{self.players} players")
        if len(set(ids)) != len(ids):
            raise OptionError(f"{self.id}: option 'characters': each player takes a different board")
        asym = self.options["side"] == "asymmetric"
        std = content.model.rev_track
        self.characters = tuple(ids)
        rev_length: list[int] = []
        reroll_bonus: list[int] = []
        start_items: list[int] = []
        bags: list[tuple[int, ...]] = []
        for cid in ids:
            ch = content.characters.get(cid)
            if ch is None:
                raise OptionError(f"{self.id}: option 'characters': unknown character {cid!r}; the "
                                  f"characters are: {', '.join(content.characters)}")
            bag = list(content.starting_bag)
            a = ch.asymmetric
            if asym:
                for chip in a.remove:
                    bag[self.kinds.index[chip]] -= 1
                for chip in a.add:
                    bag[self.kinds.index[chip]] += 1
            rev_length.append(a.rev_length if asym and a.rev_length else std.length)
            reroll_bonus.append(a.reroll_bonus if asym else 0)
            start_items.append(a.start_items if asym else 0)
            bags.append(tuple(bag))
        self.short_names = tuple(f"P{seat + 1}" for seat in range(self.players))
        self.decide_actions = tuple(notation.seated(seat, [notation.GO, notation.STOP]) for seat in range(self.players))
        self.only = tuple(frozenset((seat,)) for seat in range(self.players))
        self.rev_length = tuple(rev_length)
        self.reroll_bonus = tuple(reroll_bonus)
        self.start_items = tuple(start_items)
        self.bonus = tuple(std.bonus)
        self.starting_bags = tuple(bags)

    def _setup_tables(self) -> None:
        k = self.kinds
        self.code = tuple(COLOUR_CODE[c] for c in k.colour)
        self.chip_action = tuple(notation.draw(n) for n in k.names)
        self.debris = k.index["debris"]
        self.bomb = k.index["bomb"]
        self.coin_kinds = tuple(i for i in range(self.kind_count) if self.code[i] == COIN)
        self.coin_levels = tuple((i, k.level[i]) for i in self.coin_kinds)
        self.recall_kinds = tuple(i for i in range(self.kind_count) if self.code[i] == RECALL)
        self.upgrade_kinds = tuple(i for i in range(self.kind_count) if self.code[i] == UPGRADE)
        self.buyable = tuple(i for i in range(self.kind_count) if k.level[i] > 0)
        self.shop = tuple((i, k.colour[i], k.cost[i], f"buy:{k.names[i]}", self.code[i] == RECALL)
                          for i in self.buyable)
        self.heat = tuple(_heat(self.code[i], k.level[i]) for i in range(self.kind_count))
        self.move = tuple(_move(self.code[i], k.level[i]) for i in range(self.kind_count))
        totals = list(self.content.supply)
        for seat in range(self.players):
            for i in range(self.kind_count):
                totals[i] += self.starting_bags[seat][i]
        self.totals = tuple(totals)

    def _initial_state(self) -> RevState:
        """Setup: each racer's starting bag and the supply; a character's start items are item-die rolls
        played out first, then the first round begins (``rules.advance`` runs the automatic stages up to
        the first input)."""
        n = self.players
        state = RevState()
        state.game = self  # the engine sets it again; the automatic stages below read it already
        state.stage = Stage.TASKS
        state.current = -1
        state.round = 0
        state.turn = 0
        state.progress = (0,) * n
        state.status = (RACING,) * n
        state.bags = self.starting_bags
        state.discards = ((0,) * self.kind_count,) * n
        state.rev_chips = ((),) * n
        state.rev_spaces = ((),) * n
        state.drawn = [NO_CHIP] * n
        state.supply = tuple(self.content.supply)
        state.ready = ((),) * n
        state.emp_jams = (0,) * n
        state.collected_coins = (0,) * n
        state.next_round_coins = (0,) * n
        state.traps = ()
        state.waiting = frozenset()
        state.asked = frozenset()
        state.choices = (None,) * n
        state.carts = ((),) * n
        state.offers = ((),) * n
        state.movement_order = ()
        state.tie_groups = ()
        state.mover_index = 0
        state.tasks = tuple(Task(True, seat, 0, "") for seat in range(n) for _ in range(self.start_items[seat]))
        state.after_tasks = Stage.ROUND_START
        state.rolled_item = ""
        state.rerolls_left = 0
        state.finished_at = (None,) * n
        state.item_rolls_due = (0,) * n
        state.coins_to_spend = (0,) * n
        state.stats = [(0,) * len(Stat)] * n
        rules.advance(state, [])
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
                         observation=observation.RevObservation, web_board=Path(__file__).with_name("board.js"))

    def say(self, action: str) -> str:
        """An action string in words, each said once per game (the events of a race repeat them)."""
        found = self.said.get(action)
        if found is None:
            found = self.said[action] = words.describe(self, action)
        return found

    def say_choice(self, body: str) -> str:
        """A seat's own choice in words, without the seat ("buy Coin 1"), each said once per game."""
        found = self.chose.get(body)
        if found is None:
            found = self.chose[body] = words.choice(self, body)
        return found

    def seat_name(self, seat: int) -> str:
        name = self.content.characters[self.characters[seat]].name
        return f"P{seat + 1} ({name})"


BOMB_BACK = 2
"""A drawn Bomb moves its racer back 2 spaces (the Sticky Bomb card, RIU-G10)."""


def _heat(code: int, level: int) -> int:
    """Rev Track spaces a chip takes: Exhaust its level (skipping spaces), Nitrous and item chips 1,
    every other colour none (it goes to the discard; RIU-A7)."""
    if code == EXHAUST:
        return level
    if code in (NITROUS, DEBRIS, BOMB):
        return 1
    return 0


def _move(code: int, level: int) -> int:
    """Spaces a drawn chip moves its racer: Exhaust and Ecoboost X, Nitrous 2X, Recall -X, Bomb -2."""
    if code in (EXHAUST, ECOBOOST):
        return level
    if code == NITROUS:
        return 2 * level
    if code == RECALL:
        return -level
    if code == BOMB:
        return -BOMB_BACK
    return 0
