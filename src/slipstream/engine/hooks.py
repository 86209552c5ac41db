"""The optional hooks a game declares on its ``Game`` class, read from there by bots, sim, cli and web.

Every field is optional: a game without a board text still plays in the terminal (the view as JSON),
one without metrics still simulates (finishing order only). A game declares them in one place::

    class MyGame(Game):
        @classmethod
        def hooks(cls) -> GameHooks:
            from . import bot, metrics, render     # loaded on first use, not with the rules
            return GameHooks(board_text=render.board, describe_action=render.describe_action, ...)

Nothing finds a game's modules by its id: a game whose package is named otherwise loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the game module returns GameHooks from Game.hooks(): these are only its annotations
    from .game import JSON, Game, State
    from .observation import Observation

_CACHE: dict[type[Game], GameHooks] = {}


class MetricsTally(Protocol):
    """A race's metrics counted as it is played: told of every action applied (chance outcomes included),
    it gives at the end what ``race_metrics`` of the final state gives, without replaying the race."""

    def observe(self, before: State, after: State) -> None:
        """One action applied: ``after`` is ``before.apply(action)`` (its ``events`` are the action's)."""

    def result(self, final_state: State) -> Mapping[str, float]:
        """The race's metrics, equal to ``race_metrics(final_state)``."""


@dataclass(frozen=True)
class ActionSpace:
    """Every action string a game can ever offer a seat, and every chance outcome it can ever draw, for one
    loaded game (its options, content and player count), each sorted and unique.

    ``actions`` are written without the ``"<seat>:"`` prefix of a simultaneous choice (``0:go`` and
    ``1:go`` are both ``go``), so every seat shares them. The list is generated from the game's notation
    and content, not from play, and may hold strings no position ever offers (a superset is sound; a
    missing string is a bug the interop property test finds). Sorted order is the numbering the AI
    bridges use: the same game and options always give the same numbers.
    """

    actions: tuple[str, ...]
    chance: tuple[str, ...]

    @classmethod
    def of(cls, actions: Iterable[str], chance: Iterable[str]) -> ActionSpace:
        """The space of these strings, sorted, duplicates dropped."""
        return cls(tuple(sorted(set(actions))), tuple(sorted(set(chance))))


@dataclass(frozen=True)
class Term:
    """One thing a player meets, in words: its ``name``, what it does (``text``, empty when it does
    nothing by itself) and what kind of thing it is (``kind``: "bonus card", "item", "racer", ...)."""

    name: str
    text: str = ""
    kind: str = ""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "text": self.text, "kind": self.kind}


@dataclass(frozen=True)
class GameHooks:
    """A game's optional hooks (each ``None`` when the game has none)."""

    board_text: Callable[[dict[str, JSON]], str] | None = None
    """The terminal's picture of a seat's view (``render.board``)."""
    describe_action: Callable[[Game, str], str] | None = None
    """A short phrase in words for an action string of the loaded game (``render.describe_action(game,
    action)``): names and effects from the game's content, never an id or a coded square. The game is
    passed because a user's own content file names its own cards."""
    glossary: Callable[[Game], Mapping[str, Term]] | None = None
    """Every thing a player of the loaded game may meet (card, item, chip, ability, racer, car, driver,
    character, vehicle, enemy, die face, course), keyed by its content id, with its name and effect in
    words (``render.glossary``): the browser's tooltips and the terminal's key read it."""
    hints: Callable[[State, int], list[str]] | None = None
    """Odds and reminders shown to a human seat before it chooses (``render.hints``)."""
    move_plans: Callable[[State, int], JSON] | None = None
    """What the seat to play can plan on the board for its decision, worked out by the game's own rules
    (``plans.move_plans``): e.g. every square a car can reach in several steps, each with the actions
    that get there, found by applying the seat's actions to copies of the position while the same seat
    keeps acting and no chance node intervenes. JSON for the game's ``board.js`` (``ctx.plans``); None
    when the seat is not to act. The web sends it to that seat only, beside its hints, never in the view
    (the AI bridges encode views): it may use only what that seat may see."""
    scoreboard: Callable[[State], Mapping[int, Mapping[str, str]]] | None = None
    """Each seat's key numbers for the race so far, in words, for the results table a player sees at the
    end: ``{seat: {column: value}}``, every seat with the same columns in the order shown ("Pit stops":
    "2", "Damage dealt": "5"; ``render.scoreboard``)."""
    race_metrics: Callable[[State], Mapping[str, float]] | None = None
    """Numbers the simulator records about a finished race (``metrics.race_metrics``)."""
    metrics_tally: Callable[[State], MetricsTally] | None = None
    """For a game whose ``race_metrics`` must replay the race (its state keeps no counters): a tally
    started on the initial state, which the simulator tells of each action as it plays, so the race is
    not played twice (``metrics.MetricsTally``). Its result must equal ``race_metrics``."""
    seat_labels: Callable[[State], Mapping[int, str]] | None = None
    """Each seat's racer or character, for win rates by racer (``metrics.seat_labels``)."""
    standings: Callable[[State], list[int]] | None = None
    """Seats from leader to last in an unfinished race (``metrics.standings``)."""
    start_positions: Callable[[State], Mapping[str, Sequence[int]]] | None = None
    """Where each seat started, read from the finished race (``metrics.start_positions``), for the
    simulator's win rates by start position: one entry per way to group the start, a noun and each seat's
    number in it, 1 at the front (``{"grid slot": (2, 3, 1, 4), "grid row": (1, 2, 1, 2)}``: seat 3 on
    pole); the simulator names a position by both ("grid row 1")."""
    turn_order: Callable[[State], Sequence[int]] | None = None
    """The seats in the order of their first turn, read from the finished race (``metrics.turn_order``),
    for a game whose turns pass without a decision of the seat (its dice rolled for it); empty when the
    game has no turn order (every seat acts at once). Without it the simulator takes the order of the
    seats' first decisions of their own."""
    position_value: Callable[[State, int], float] | None = None
    """A seat's prospects in [0, 1], for bots that stop their playouts early (``metrics.position_value``)."""
    heuristic_bot: Callable[[int], Any] | None = None
    """Makes the game's own bot from a seed: an object with ``choose(state, seat)`` (``bot.HeuristicBot``)."""
    action_space: Callable[[Game], ActionSpace] | None = None
    """Every action and chance outcome the loaded game can ever make legal, from its notation and content
    (``action_space.action_space``): the AI bridges number their action space from it."""
    observation: Callable[[Game], Observation] | None = None
    """The loaded game's declared observation (``observation.declare``, ``slipstream.engine.observation``):
    named slots with true bounds in [0, 1], written for a seat from the state, showing only what that
    seat's view shows; the AI bridges' default observation where a game declares one."""
    web_board: Path | None = None
    """The browser's board drawing, a JavaScript module in the game's package exporting ``draw(view, ctx)``
    (served as ``/boards/<game id>.js``)."""


def hooks_of(game: Game | type[Game]) -> GameHooks:
    """The hooks a game declares (cached per game class)."""
    cls = game if isinstance(game, type) else type(game)
    found = _CACHE.get(cls)
    if found is None:
        declared = cls.hooks()
        if not isinstance(declared, GameHooks):
            raise TypeError(f"{cls.__name__}.hooks() must return a GameHooks, not {type(declared).__name__}")
        found = _CACHE[cls] = declared
    return found
