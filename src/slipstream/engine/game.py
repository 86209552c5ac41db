"""The one contract every game implements: ``Game`` makes states, ``State`` is one position.

A ``State`` is never changed once a caller holds it: ``apply`` copies it, changes the copy and returns
it. A game's state class declares its fields once, as class annotations (``engine.fields``), and
implements ``_actor``, ``_legal``, ``_chance``, ``_do``, ``view`` and ``result``; the base class adds the
copy, the checking, the history for records and seeded chance. Optional hooks (board text, metrics,
bots, the web board) are declared on the ``Game`` class through ``hooks()`` (``engine.hooks``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar, cast

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar as TypeVarWithDefault

from . import chance
from .citation import rule_words
from .errors import IllegalActionError, OptionError, SeatError
from .fields import copy_declared, install_clone, missing_fields
from .hooks import GameHooks

CHANCE = "chance"
"""The actor at a chance node."""

Actor = int | str | frozenset[int] | None
"""A seat index, ``CHANCE``, a set of seats choosing at once, or ``None`` when the game is over."""

JSON = Any
"""A JSON-able value (dicts, lists, str, int, float, bool, None)."""


class Event(NamedTuple):
    """One thing an ``apply`` did, with the rule it applied.

    ``seats`` is ``None`` for a public event, or the seats allowed to see it (hidden information).
    """

    kind: str
    text: str
    rule: str = ""
    data: Mapping[str, JSON] = MappingProxyType({})
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, JSON]:
        """The event for a page: ``rule`` as given (a link's key), ``rule_words`` as a player reads it."""
        return {"kind": self.kind, "text": self.text, "rule": self.rule, "rule_words": rule_words(self.rule),
                "data": dict(self.data)}


MakeEvent = TypeVar("MakeEvent", bound=Callable[..., Event])


class EventCache:
    """Events that recur with the same content (a die roll's text), each made once and then reused.

    ``cache.get(key, make)`` returns the event ``make()`` builds, made only the first time ``key`` is
    seen: the key must hold every input the event depends on. ``EventCache.verify = True`` (the test
    suite sets it) rebuilds the event on every hit and raises if it differs from the cached one, so a
    key that leaves out an input fails the tests instead of showing a stale event.
    """

    verify: ClassVar[bool] = False

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self._events: dict[tuple[object, ...], Event] = {}

    def memo(self, make: MakeEvent) -> MakeEvent:
        """``make`` made once per arguments: the arguments are the key, so ``make`` must be a function of
        its arguments alone (a decorator for a module-level event maker)::

            @EVENTS.memo
            def die_event(name: str, face: int) -> Event:
                return Event("die", f"{name} rolls {face}", "Roll the dice")

        Cheaper than ``get`` (no key tuple and no ``make`` closure built by the caller, a lookup in C):
        for the events of nearly every action. With ``verify`` set when it decorates (the test suite
        sets it before any game is imported), every call goes through ``get`` and is checked.
        """
        if EventCache.verify:
            def checked(*args: Any) -> Event:
                return self.get((make, *args), lambda: make(*args))

            return cast(MakeEvent, checked)
        return cast(MakeEvent, lru_cache(maxsize=self.limit)(make))

    def get(self, key: tuple[object, ...], make: Callable[[], Event]) -> Event:
        event = self._events.get(key)
        if event is None:
            event = make()
            if len(self._events) < self.limit:
                self._events[key] = event
        elif EventCache.verify and make() != event:
            raise RuntimeError(f"event cache key {key!r} does not determine its event: {make()} != {event}")
        return event


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``order`` lists seats from first to last (ties share a place only through ``ranks``);
    ``winners`` are the seats that won (all seats for a cooperative win, none for a loss).
    ``team`` marks a cooperative result: the seats win or lose together, so none is placed above
    another (every seat's ``rank`` is 1, and ``order`` is only the seats in turn).
    """

    order: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    details: Mapping[str, JSON] = field(default_factory=dict)
    team: bool = False

    def rank(self, seat: int) -> int:
        """1 for the winner, 2 for second place, ...; 1 for every seat of a team result."""
        return 1 if self.team else self.order.index(seat) + 1

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "order": list(self.order),
            "winners": list(self.winners),
            "reason": self.reason,
            "details": dict(self.details),
        }
        if self.team:
            out["team"] = True
        return out


@dataclass(frozen=True)
class Picker:
    """How the web lobby offers an option to a player choosing a race (``OptionSpec.lobby``): in words
    and names, never as ids to type. ``help`` stays the command line's text (how to write the value)."""

    label: str = ""
    """The option's name for a player ("Start player"); empty: the option's name in words."""
    words: str = ""
    """What the option does, for a player (no rulebook codes, no file names); empty: ``help``."""
    terms: str = ""
    """The kind of thing (a glossary ``Term.kind``: "racer", "track", ...) whose content ids the value
    names: the lobby offers their names from the game's glossary."""
    per_seat: bool = False
    """The value lists ``terms`` ids in seat order, comma-separated (``seat_counts`` each, else one): the
    lobby shows a picker per seat."""
    seat_counts: tuple[tuple[int, str, int], ...] = ()
    """Where each seat takes several values of a ``per_seat`` option: ``(players, option, count)``, with
    ``option`` a yes/no option that must be on ("" for any); the first that matches counts."""
    several: bool = False
    """The value is a comma-separated set of ``terms`` ids: the lobby shows a box to tick for each."""
    seat: bool = False
    """The value is a seat counted from 0: the lobby shows the seats counted from 1, as the page does."""
    labels: tuple[tuple[JSON, str], ...] = ()
    """Words for special values (``((-1, "at random"),)``), offered first by these words."""
    hidden: bool = False
    """Not offered in the lobby (the value names a file on the server, or repeats other options)."""


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts, with its default and the values it allows."""

    name: str
    default: JSON
    help: str
    choices: tuple[JSON, ...] | None = None
    kind: type = str
    minimum: int | None = None
    maximum: int | None = None
    lobby: Picker = Picker()
    """How the web lobby offers it to a player."""

    def coerce(self, game_id: str, value: JSON) -> JSON:
        """The value in the option's type; a string from a command line is converted."""
        if value is None and self.default is None:
            return None
        if isinstance(value, str) and self.kind is not str:
            value = _parse_text(game_id, self.name, value, self.kind)
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"{game_id}: option {self.name!r} takes a whole number, not {value!r}")
        if self.kind is bool and not isinstance(value, bool):
            raise OptionError(f"{game_id}: option {self.name!r} takes true or false, not {value!r}")
        if self.kind is str and not isinstance(value, str):
            raise OptionError(f"{game_id}: option {self.name!r} takes text, not {value!r}")
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"{game_id}: option {self.name!r} cannot be {value!r}; choose one of: {shown}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{game_id}: option {self.name!r} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{game_id}: option {self.name!r} must be at most {self.maximum}, not {value!r}")
        return value


def _parse_text(game_id: str, name: str, text: str, kind: type) -> JSON:
    if kind is bool:
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"{game_id}: option {name!r} takes true or false, not {text!r}")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"{game_id}: option {name!r} takes a whole number, not {text!r}") from None
    return text


@mypyc_attr(allow_interpreted_subclasses=True)  # a game need not be compiled (see slipstream._native)
class Game(ABC):
    """A game with its options fixed: the factory of initial states.

    Subclasses set ``id``, ``name``, ``version``, ``min_players``, ``max_players`` and
    ``option_specs``, and implement ``_initial_state``.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str] = "1"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    status: ClassVar[str] = "complete"
    description: ClassVar[str] = ""
    """For a player choosing a game: two or three sentences on players, length and what makes it tick."""
    cooperative: ClassVar[bool] = False
    """Whether the seats play as one team: every result is a team result (``Result.team``), so no seat or
    bot can be rated against another (a tournament refuses such a game)."""
    conformance_options: ClassVar[tuple[tuple[int, dict[str, JSON]], ...]] = ()
    """Extra ``(players, options)`` the conformance suite plays besides each player count's defaults."""
    golden_options: ClassVar[tuple[dict[str, JSON], ...]] = ()
    """Option sets with a golden playthrough of their own, besides the defaults (``scripts/make_golden.py``)."""

    def __init__(self, players: int | str | None = None, **options: JSON) -> None:
        if players is None:
            players = self.default_players
        if isinstance(players, str):
            players = _parse_text(self.id, "players", players, int)
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"{self.id}: players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.id}: players must be from {self.min_players} to {self.max_players}, not {players}"
            )
        specs = {s.name: s for s in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            valid = ", ".join(sorted(specs)) or "none"
            raise OptionError(f"{self.id}: unknown option {unknown[0]!r}; the options are: {valid}")
        self.players: int = players
        self.options: dict[str, JSON] = {
            name: spec.coerce(self.id, options[name]) if name in options else spec.default
            for name, spec in specs.items()
        }
        self._setup()

    def _setup(self) -> None:  # noqa: B027 - a hook with nothing to do by default
        """Load content and check option combinations; raise ``OptionError`` or ``ContentError``."""

    @property
    def seats(self) -> range:
        return range(self.players)

    def record_options(self) -> dict[str, JSON]:
        """The options as written in a match record (``players`` included)."""
        return {"players": self.players, **self.options}

    def start(self, seed: int = 0) -> State:
        """The initial state; ``seed`` fixes every chance outcome the caller does not dictate."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"{self.id}: seed must be a whole number, not {seed!r}")
        state = self._initial_state()
        missing = missing_fields(state)
        if missing:
            raise TypeError(f"{type(state).__name__}: the initial state leaves {', '.join(missing)} unset")
        state.game = self
        state.seed = seed
        state.ply = 0
        state._history = None
        state._legal_cache = None
        state.events = ()
        return state

    @abstractmethod
    def _initial_state(self) -> State:
        """A fresh initial state (the base class fills in game, seed and history)."""

    def seat_name(self, seat: int) -> str:
        """A short human name for a seat."""
        return f"P{seat + 1}"

    @classmethod
    def hooks(cls) -> GameHooks:
        """The game's optional hooks (``engine.hooks.GameHooks``): board text, metrics, bots, web board.

        A game overrides this, importing its hook modules inside it (they are loaded on first use only);
        ``engine.hooks.hooks_of`` caches the answer. The default is a game with no hooks.
        """
        return GameHooks()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, options={self.options!r})"


S = TypeVar("S", bound="State")

GameType = TypeVarWithDefault("GameType", bound=Game, default=Game, covariant=True)
"""The game a state belongs to: a game's state class names its own (``class MyState(State["MyGame"])``),
so ``state.game`` has the game's type in its rules; a plain ``State`` is a state of any game."""


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[GameType]):
    """One position of a game. Treat it as immutable: ``apply`` returns a new state.

    A game's state class derives from ``State["MyGame"]`` (a string: the game module imports the state
    module), which types ``game`` as the game's own class: its rules read ``state.game.track``.
    """

    __slots__ = ("_history", "_legal_cache", "events", "game", "ply", "seed")

    legal_is_sorted: ClassVar[bool] = False
    """A game whose ``_legal`` already returns sorted, unique actions sets this to skip the sort."""

    game: GameType
    seed: int
    ply: int
    _history: tuple[str, Any] | None
    _legal_cache: tuple[str, ...] | None
    events: tuple[Event, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """An interpreted state class gets its ``_clone`` written from its declared fields here (a
        compiled one gets it from the build, ``slipstream._native``)."""
        super().__init_subclass__(**kwargs)
        install_clone(cls)

    # --- the hooks a game implements -------------------------------------------------------

    @abstractmethod
    def _actor(self) -> Actor:
        """Who acts now."""

    @abstractmethod
    def _legal(self) -> Sequence[str]:
        """The legal actions (any order; the base class sorts them).

        A list or a tuple; a game may return a shared constant tuple, which is never changed.
        """

    def _chance(self) -> list[tuple[str, float]]:
        """The chance outcomes with their probabilities, at a chance node."""
        return []

    def _chance_table(self) -> chance.ChanceTable | None:
        """At a chance node whose outcomes are fixed (a die, two dice), their precomputed table.

        Optional: ``sample_chance`` uses it instead of ``_chance`` and picks the same outcome. Its
        actions are the outcomes sorted, as ``chance_outcomes`` lists them: the node's legal actions, so
        ``sample_chance`` caches them as such.
        """
        return None

    @abstractmethod
    def _do(self, action: str) -> list[Event]:
        """Apply a legal action to this (fresh, private) copy in place; return the events."""

    def _clone(self: S) -> S:
        """The declared fields copied by the one rule of ``engine.fields``: a list is copied, any other
        value is shared (it is immutable: a change assigns a new value). Every state class gets this
        method written from its declarations (``__init_subclass__``, or the compiled build); this
        general version serves a compiled class that was built without one."""
        return copy_declared(self)

    def copy(self: S) -> S:
        """An independent copy of this position: same game, seed, ply, history and events.

        For ``determinize`` (redraw what a seat cannot see on the copy) and for tests that set up a
        position; change the copy's fields by the rule of ``engine.fields``.
        """
        new = self._clone()
        new.game = self.game
        new.seed = self.seed
        new.ply = self.ply
        new._history = self._history
        new._legal_cache = None
        new.events = self.events
        return new

    def invariant_problems(self) -> list[str]:
        """What is wrong with this position (components not conserved, ...): checked by the
        conformance suite after every action. A game overrides this; the default finds nothing."""
        return []

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, JSON]:
        """A JSON-able picture of what ``seat`` may see (``None``: a spectator); ``seat`` is checked."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """How the game ended, or ``None`` while it goes on."""

    def determinize(self: S, seat: int | None, rng: random.Random) -> S:
        """A state that ``seat`` cannot tell from this one, with what it cannot see redrawn.

        Games with hidden information override this; bots search on the result.
        """
        return self

    # --- the public contract ---------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        """A JSON-able picture of what ``seat`` may see (``None``: a spectator, who sees only what is
        public). A seat the game does not have is a ``SeatError``; a seat that is not a whole number is a
        ``TypeError`` (the compiled build checks the type on the way in, so both builds raise it)."""
        if seat is not None:
            if not isinstance(seat, int):
                raise TypeError(f"a seat is a whole number or None, not {type(seat).__name__} {seat!r}")
            if isinstance(seat, bool) or not 0 <= seat < self.game.players:
                raise SeatError(seat, self.game.players)
        return self._view(seat)

    @property
    def actor(self) -> Actor:
        return self._actor()

    @property
    def is_over(self) -> bool:
        return self._actor() is None

    @property
    def is_chance(self) -> bool:
        return self._actor() == CHANCE

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """The legal actions, sorted and unique (at a chance node, the outcomes).

        With ``seat`` at a simultaneous choice, only that seat's actions (each begins ``"<seat>:"``).
        """
        cached = self._legal_cache
        if cached is None:
            cached = self._legal_cache = self._legal_tuple()
        if seat is None or not isinstance(self._actor(), frozenset):
            return list(cached)
        prefix = f"{seat}:"
        return [a for a in cached if a.startswith(prefix)]

    def _legal_tuple(self) -> tuple[str, ...]:
        if self.legal_is_sorted:
            return tuple(self._legal())  # a tuple is returned as it is, without a copy
        return tuple(sorted(set(self._legal())))

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """``[(action, probability)]`` at a chance node, sorted by action; empty elsewhere."""
        if self._actor() != CHANCE:
            return []
        return self._chance()

    def apply(self: S, action: str) -> S:
        """The state after ``action``; raises ``IllegalActionError`` and changes nothing if illegal.

        An action is a string: anything else is a ``TypeError`` (the compiled build checks the type on
        the way in, so both builds raise the same error).
        """
        if not isinstance(action, str):
            raise TypeError(f"an action is a string, not {type(action).__name__} {action!r}")
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = tuple(self._legal()) if self.legal_is_sorted else self._legal_tuple()
        if action not in legal:
            reason = "the game is over" if self._actor() is None else ""
            raise IllegalActionError(action, legal, reason)
        return self.apply_unchecked(action)

    def apply_unchecked(self: S, action: str) -> S:
        """``apply`` without the legality check: the fast path for bots and simulation.

        Only for actions taken from ``legal_actions``/``chance_outcomes`` of this state.
        """
        new = self._clone()
        new.game = self.game
        new.seed = self.seed
        new.ply = self.ply + 1
        new._history = (action, self._history)
        new._legal_cache = None
        new.events = tuple(new._do(action))
        return new

    def sample_chance(self) -> str:
        """The chance outcome this state's seed picks (the same for every copy of the state)."""
        # At a chance node the legal actions are the outcomes, sorted: cached for the ``apply`` that follows.
        table = self._chance_table()
        if table is not None:
            if self._legal_cache is None:
                self._legal_cache = table.actions
            return table.pick(chance.uniform(self.seed, self.ply))
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("<chance>", self.legal_actions(), "this is not a chance node")
        if self._legal_cache is None:
            self._legal_cache = tuple(a for a, _ in outcomes)
        return chance.pick(outcomes, chance.uniform(self.seed, self.ply))

    def apply_chance(self: S) -> S:
        """Apply the outcome this state's seed picks."""
        return self.apply_unchecked(self.sample_chance())

    @property
    def actions(self) -> list[str]:
        """Every action applied since the start, in order (chance outcomes included)."""
        out: list[str] = []
        node = self._history
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def record(self) -> dict[str, JSON]:
        """The match record ``{game, version, options, seed, actions}``: replaying it gives this state."""
        return {
            "game": self.game.id,
            "version": self.game.version,
            "options": self.game.record_options(),
            "seed": self.seed,
            "actions": self.actions,
        }

    def visible_events(self, seat: int | None) -> list[dict[str, JSON]]:
        """The last apply's events that ``seat`` may see, as JSON."""
        return [e.to_json() for e in self.events if e.visible_to(seat)]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} ply={self.ply} actor={self._actor()!r}>"


def seat_actions(seat: int, actions: Iterable[str]) -> list[str]:
    """Prefix each action with ``"<seat>:"``, the notation of a simultaneous choice."""
    return [f"{seat}:{a}" for a in actions]


def split_seat_action(action: str) -> tuple[int, str]:
    """``"2:stop"`` -> ``(2, "stop")``."""
    head, _, rest = action.partition(":")
    return int(head), rest
