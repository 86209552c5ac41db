"""Scrap Racer, the game: options, content, the initial state and the hooks (board, metrics, bot)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from slipstream.engine.errors import OptionError
from slipstream.engine.game import JSON, Game, OptionSpec, Picker
from slipstream.engine.hooks import GameHooks

from . import notation, rules, words
from .content import BOOST_TYPES, Content, Track, load_content, load_track, track_names
from .state import ScrapState
from .types import NOTHING_NEEDED, Deck, DeckCounts, Need, NeedKind, Stage


class ScrapRacer(Game):
    """Scrap Racer (A. & S. Richter, Queen Games 2021): 2-6 players, three laps of mayhem."""

    id: ClassVar[str] = "scrap-racer"
    name: ClassVar[str] = "Scrap Racer"
    description: ClassVar[str] = (
        "For 2 to 6 players, three laps of push-your-luck dice: roll up to six dice one at a time and stop "
        "before a double, or draw a crash card that may fling you forward or back. Fights for a shared space, "
        "bonus cards, boost markers and each racer's ability keep the field close; about 30 to 45 minutes."
    )
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("track", "A", "a shipped circuit (A, B, C) or a track file ending .toml",
                   lobby=Picker("Circuit", "the circuit to race", terms="track")),
        OptionSpec("short", False, "the short race: leave out the tiles marked with a red X", kind=bool,
                   lobby=Picker("Short race", "leave out the track tiles marked with a red X")),
        OptionSpec("two_racers", False, "3 players: two racers each (the 3-player variant)", kind=bool,
                   lobby=Picker("Two racers each", "3 players only: each player drives two racers")),
        OptionSpec("racers", "random", "random dashboards, or racer ids in seat order, comma-separated",
                   lobby=Picker(words="each player's racer", terms="racer", per_seat=True,
                                labels=(("random", "dealt at random"),),
                                seat_counts=((2, "", 2), (3, "two_racers", 2)))),
        OptionSpec("start_seat", -1, "-1: a random start player (SR-G8), or the start player's seat, 0-based "
                   "like every seat number (0-5)", kind=int, minimum=-1, maximum=5,
                   lobby=Picker("Start player", "who takes the first turn", seat=True,
                                labels=((-1, "drawn at random"),))),
        OptionSpec("jackal", "own-turn", "Jackal's fight ability (SR-A2): own-turn (on its player's turns, not "
                   "on crash turns) or every-fight (every fight it is in)", choices=("own-turn", "every-fight"),
                   lobby=Picker("Jackal's fight ability", "when Jackal wins its fights without dice and moves 2",
                                labels=(("own-turn", "on its own player's turns only"),
                                        ("every-fight", "in every fight it is in")))),
        OptionSpec("content", None, "a content file (decks, markers, racers) replacing the shipped one",
                   lobby=Picker(hidden=True)),
    )
    conformance_options: ClassVar[tuple[tuple[int, dict[str, Any]], ...]] = (
        (3, {"two_racers": True}),
        (4, {"track": "B", "short": True}),
        (5, {"track": "C"}),
    )

    content: Content
    track: Track
    terms: dict[str, dict[str, str]]
    """The glossary as JSON (``words.glossary``): every view carries it, for the terminal board's words."""

    def __init__(self, players: int | str | None = None, **options: JSON) -> None:
        """As every game's, and reading the option of records made before issue 13: ``start_player``,
        1-based with 0 for random, becomes ``start_seat`` (0-based, -1 for random)."""
        if "start_player" in options:
            legacy = options.pop("start_player")
            if "start_seat" in options:
                raise OptionError(f"{self.id}: give 'start_seat' (0-based) only; 'start_player' is its old "
                                  "1-based name")
            if isinstance(legacy, bool) or not isinstance(legacy, (int, str)):
                raise OptionError(f"{self.id}: option 'start_player' takes a whole number, not {legacy!r}")
            try:
                number = int(legacy)
            except ValueError:
                raise OptionError(f"{self.id}: option 'start_player' takes a whole number, not {legacy!r}") from None
            options["start_seat"] = number - 1
        super().__init__(players, **options)

    def _setup(self) -> None:
        opts = self.options
        track = str(opts["track"])
        if not track.endswith(".toml") and track not in track_names():
            raise OptionError(f"{self.id}: option 'track' cannot be {track!r}; choose one of: "
                              f"{', '.join(track_names())}, or a track file ending .toml")
        self.track = load_track(track, bool(opts["short"]))
        self.length = self.track.length
        self.boost_slot = {space: i for i, space in enumerate(self.track.boost)}
        """The index of each boost space among the track's boost spaces (in ``boost_spaces_filled``)."""
        content = opts["content"]
        self.content = load_content(Path(content) if content else None)
        if opts["two_racers"] and self.players != 3:
            raise OptionError(f"{self.id}: option 'two_racers' is the 3-player variant; players must be 3")
        self.per_player = 2 if self.players == 2 or opts["two_racers"] else 1
        self.jackal_every_fight = opts["jackal"] == "every-fight"
        slots = self.players * self.per_player
        self.racer_ids = tuple(racer_id for racer_id, _ in self.content.racers)
        self.racer_names = dict(self.content.racers)
        racers = str(opts["racers"])
        if racers == "random":
            self.fixed_racers: tuple[str, ...] = ()
        else:
            chosen = tuple(racer_id.strip() for racer_id in racers.split(","))
            bad = [racer_id for racer_id in chosen if racer_id not in self.racer_ids]
            if bad or len(chosen) != slots or len(set(chosen)) != slots:
                raise OptionError(f"{self.id}: option 'racers' needs {slots} different racers from: "
                                  f"{', '.join(self.racer_ids)} (got {racers!r})")
            self.fixed_racers = chosen
        if int(opts["start_seat"]) >= self.players:
            raise OptionError(f"{self.id}: option 'start_seat' must be -1 (random) or a seat 0-{self.players - 1}")
        self.seat_names = tuple(self.seat_name(seat) for seat in range(self.players))
        self.owner = tuple(seat for seat in range(self.players) for _ in range(self.per_player))
        self.pile_of_double = self.content.pile_of_double
        self._pile_labels = tuple(
            "/".join(str(face) for face in range(1, 7) if self.pile_of_double[face] == pile)
            for pile in range(len(self.content.piles))
        )
        self._build_decks()
        self.terms = {key: term.to_json() for key, term in words.glossary(self).items()}

    def _build_decks(self) -> None:
        content = self.content
        decks: list[Deck] = []
        counts: list[dict[str, int]] = []
        for prefix, deck_counts, discard_on_draw in (
            *(("crash", dict(pile), True) for pile in content.piles),
            ("bonus", dict(content.bonus), False),
            ("goal", dict(content.goal), True),
        ):
            cards = tuple(deck_counts)
            actions = tuple(notation.deck_card(prefix, card) for card in cards)
            decks.append(Deck(prefix, cards, len(decks), sum(deck_counts.values()), discard_on_draw, actions))
            counts.append(deck_counts)
        self.crash_decks = tuple(decks[:-2])
        self.bonus_deck = decks[-2]
        self.n_bonus_cards = len(self.bonus_deck.cards)
        self.goal_deck = decks[-1]
        self._initial_decks = tuple(
            DeckCounts(tuple(deck_count[card] for card in deck.cards), (0,) * len(deck.cards))
            for deck, deck_count in zip(decks, counts, strict=True)
        )

    def deck_for(self, need: Need) -> Deck:
        """The deck a card is drawn from for ``need`` (``ScrapState.need``: a crash pile, bonus or goal)."""
        kind = need.kind
        if kind is NeedKind.CRASH_CARD:
            return self.crash_decks[need.pile]
        return self.bonus_deck if kind is NeedKind.BONUS_CARD else self.goal_deck

    def deck_table(self) -> list[tuple[str, Deck]]:
        names = [f"crash-{self.content.pile_names[i]}" for i in range(len(self.crash_decks))]
        return [*zip(names, self.crash_decks, strict=True), ("bonus", self.bonus_deck), ("goal", self.goal_deck)]

    def racers_of(self, seat: int) -> list[int]:
        return [racer for racer, owner in enumerate(self.owner) if owner == seat]

    def pile_label(self, pile: int) -> str:
        """The doubles that draw from a crash pile, e.g. "1/2"."""
        return self._pile_labels[pile]

    def card_title(self, card: str) -> str:
        """The name of a crash, goal or bonus card or a boost marker, from the content."""
        return self.content.titles.get(card, card)

    def _initial_state(self) -> ScrapState:
        state = ScrapState()
        n = len(self.owner)
        state.stage = Stage.SETUP
        state.racer = self.fixed_racers if self.fixed_racers else ("",) * n
        state.owner = self.owner
        state.order = ()
        state.progress = [0] * n
        state.laps = (0,) * n
        state.bonus_markers = (0,) * n
        state.boost_markers = ((0,) * len(BOOST_TYPES),) * n
        state.bonus_cards = ((0,) * self.n_bonus_cards,) * self.players
        state.decks = self._initial_decks
        state.bonus_supply = self.content.bonus_markers
        markers = dict(self.content.boost)
        state.unseen_boosts = tuple(markers[kind] for kind in BOOST_TYPES)
        on_track = min(len(self.track.boost), sum(state.unseen_boosts))
        state.boost_spaces_filled = tuple(i < on_track for i in range(len(self.track.boost)))
        state.boost_supply = sum(state.unseen_boosts) - on_track
        state.turn = 0
        state.round = 1
        state.turns = 0
        state.end_round = 0
        rules.clear_turn(state)
        state.need = NOTHING_NEEDED
        state.start_seat = int(self.options["start_seat"])
        state.crash_cards_drawn = (0,) * len(self.crash_decks)
        state.fights = 0
        state.boost_markers_used = 0
        state.bonus_cards_drawn = 0
        state.bonus_cards_played = 0
        state.outcome = ((), (), "")
        state.game = self  # the engine sets it again in start(); the setup below reads the game
        state.names = rules.racer_names(state)
        rules.next_setup_step(state, [])
        return state

    @property
    def markers_per_card(self) -> int:
        return self.content.markers_per_card

    @property
    def hover_markers_per_card(self) -> int:
        """Hover "needs only 2 bonus markers" (the content's ``hover_per_card``)."""
        return self.content.hover_markers_per_card

    @classmethod
    def hooks(cls) -> GameHooks:
        from . import action_space, bot, metrics, observation, render

        return GameHooks(board_text=render.board, describe_action=render.describe_action, hints=render.hints,
                         glossary=render.glossary, scoreboard=render.scoreboard,
                         race_metrics=metrics.race_metrics, seat_labels=metrics.seat_labels,
                         standings=metrics.standings, start_positions=metrics.start_positions,
                         position_value=metrics.position_value,
                         heuristic_bot=bot.HeuristicBot, action_space=action_space.action_space,
                         observation=observation.ScrapObservation, web_board=Path(__file__).with_name("board.js"))


__all__ = ["ScrapRacer"]
