"""Live matches: each ``Room`` holds one match's state, seats and connected clients.

Every change to a match happens under the room's lock, in this order: check the request against
the server's own state, apply it through the engine, commit it to the database, then change the
room and tell every client. A request that fails any step changes nothing. Chance outcomes are
drawn from the match's secret key (``dice``) and bots choose in worker processes, so the event loop
never blocks.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from slipstream.bots.random_bot import RandomBot
from slipstream.bots.registry import bot_names, make_bot, parse_mcts
from slipstream.engine.errors import IllegalActionError, SlipstreamError
from slipstream.engine.game import CHANCE, Event, Game, OptionSpec, State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import pending_seats
from slipstream.engine.registry import game_class, games, load
from slipstream.jsontext import encode

from . import clock, dice, invites, presence
from .botwork import DEEP_SECONDS, BotBroke, BotFailed, BotLate, BotWork, is_deep, thinking_seconds
from .chat import ChatDesk
from .limits import Limits
from .pace import PACES
from .protocol import board_module, describe, events_payload, glossary, resigned_result, seat_payload
from .storage import Mark, MatchData, MoveData, SeatData, Stale, Store

log = logging.getLogger("slipstream.web")
T = TypeVar("T")
Write = tuple[Callable[..., int], tuple[Any, ...]]
"""A conditional write: a ``Store`` method taking ``(match id, Mark, *args)`` and its ``args``."""

MAX_NAME = 40
LOG_REPLAY = 300
MAX_BATCH = 200
"""Chance steps committed and sent together with the step before them, at most."""
MAX_IDLE_FINISHED = 500
"""Finished matches kept in memory with nobody watching; older ones are reloaded from the database."""
FORBIDDEN_OPTIONS = ("content",)
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a match id looks like (``secrets.token_urlsafe(8)``): anything else is not looked up."""
ACTIVE = ("open", "running")
TIMEOUT_ID = "timeout-"
"""How a move the turn timer played for a seat is marked (its stored client id)."""
TURN_SECONDS = (3, 3600)
"""The turn timer a host may set, in seconds (the lobby offers 30 s to 5 minutes)."""
BOT_KINDS = ("bot", "resigned")
RETRIES = 3
"""Times a write is decided again after another server process changed the match first."""
WATCH_EVERY = 1.0
"""Seconds between the watchdog's looks at the matches' automatic steps (``Hub.watch``)."""
PRESENCE_EVERY = 10.0
"""Seconds between the stored sightings of the players a process sees (several processes), at most."""
"""Seat kinds a bot plays: a bot's seat, and a player's who resigned (ranked last on the page)."""


STRENGTHS = {"mcts": ("mcts:0.25s", "mcts", "mcts:3s")}
"""Bots whose strength is part of the name: the levels the lobby offers (fast and weaker to slow and strong)."""


BOT_WORDS = {
    "random": "Random",
    "heuristic": "Heuristic",
    "greedy": "Greedy",
    "mcts:0.25s": "Quick search",
    "mcts": "Search",
    "mcts:3s": "Deep search",
}
"""How the page names the lobby's bots (any other valid bot name is shown as it is)."""


def bot_seat_name(bot: str, seat: int, player: str = "") -> str:
    """A bot seat's name, unique in its match: the bot and the seat's number as the page shows it
    (``Heuristic bot 2``); a player's seat handed to a bot keeps the player's name (``Bob (Random bot)``)."""
    word = BOT_WORDS.get(bot, bot)
    if player:
        return f"{player} ({word} bot)"[:60]
    return f"{word} bot {seat + 1}"


def unique_name(wanted: str, seat: int, seats: Sequence[SeatData]) -> str:
    """A joining player's name, made unique in the match (a second "Bob" in seat 3 is "Bob (3)"), so
    every seat has one name the log, the tables and the result can show."""
    name = wanted.strip()[:MAX_NAME] or f"P{seat + 1}"
    taken = {s.name.casefold() for s in seats if s.seat != seat and s.kind != "open"}
    if name.casefold() in taken:
        name = f"{name[: MAX_NAME - 5]} ({seat + 1})"
    return name


def seat_numbers(seats: Sequence[int]) -> str:
    """Seats as the page numbers them (from 1), for messages a person reads: "seats 2 and 3"."""
    shown = [str(s + 1) for s in seats]
    if len(shown) == 1:
        return f"seat {shown[0]}"
    return f"seats {', '.join(shown[:-1])} and {shown[-1]}"


def seat_label(seat: int, seats: Sequence[SeatData] = ()) -> str:
    """One seat as the page names it, for a message a player reads: "Seat 1 (Ann)" (numbered from 1,
    with the seat's name when it has one); the API's own numbers count from 0."""
    name = seats[seat].name if 0 <= seat < len(seats) else ""
    return f"Seat {seat + 1} ({name})" if name else f"Seat {seat + 1}"


def no_such_seat(seat: int, players: int) -> ApiError:
    """A seat number (0-based, as the API counts) the match does not have."""
    return ApiError(
        404,
        "not_found",
        f"no seat {seat}: the API counts seats from 0 (0 to {players - 1}), the page from 1 "
        f"(Seat 1 to Seat {players})",
    )


def bot_menu(game_id: str) -> list[str]:
    """The bots the lobby offers for a game, strengths spelled out (any valid bot name is accepted)."""
    out: list[str] = []
    for name in bot_names(game_id):
        out.extend(STRENGTHS.get(name, (name,)))
    return out


class ApiError(Exception):
    """An error a client caused (or may retry): an HTTP status, a stable code and a reason."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


@dataclass
class Census:
    """Open and running matches in memory (``Hub.census``), all of them and those of one address."""

    open: int = 0
    running: int = 0
    open_here: int = 0
    running_here: int = 0


class Conflict(Exception):
    """Another server process stored this ply of the match first (the database is the shared truth)."""


def is_conflict(exc: BaseException) -> bool:
    """Whether a failed commit was a ply already stored (a unique key broken), not a failing database."""
    import sqlite3

    from sqlalchemy.exc import IntegrityError

    if isinstance(exc, sqlite3.IntegrityError | IntegrityError):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.IntegrityError)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, digest: str | None) -> bool:
    if not token or not digest:
        return False
    return hmac.compare_digest(hash_token(token), digest)


class Outbox(asyncio.Queue[str | None]):
    """A client's outgoing messages, every kind under one rule (states, replies, pongs, errors, notices):
    a client that leaves ``max_messages`` messages or ``max_chars`` characters unread is cut: what it
    has not read is dropped, so is everything put after, and ``on_cut`` runs (the app aborts the
    connection). ``None`` asks the writer to close the socket."""

    def __init__(self, max_messages: int = Limits.max_backlog, max_chars: int = Limits.max_backlog_chars) -> None:
        super().__init__()
        self.max_messages = max_messages
        self.max_chars = max_chars
        self.chars = 0
        """Characters queued and not yet handed to the socket."""
        self.cut = False
        self.on_cut: Callable[[], None] | None = None

    def put_nowait(self, item: str | None) -> None:
        if self.cut:
            return
        if item is not None:
            if self.qsize() >= self.max_messages or self.chars + len(item) > self.max_chars:
                self._cut()
                return
            self.chars += len(item)
        super().put_nowait(item)

    def _get(self) -> str | None:
        item = super()._get()
        if item is not None:
            self.chars -= len(item)
        return item

    def _cut(self) -> None:
        self.cut = True
        while not self.empty():
            self.get_nowait()
        super().put_nowait(None)
        if self.on_cut is not None:
            self.on_cut()


@dataclass(eq=False)
class Subscriber:
    """One connected client: the seat it authenticated as (``None``: spectator), whether it wants the
    game's text board in its ``state`` messages, and its outbox."""

    seat: int | None
    queue: Outbox = field(default_factory=Outbox)
    text_board: bool = False
    claim_key: tuple[tuple[int, ...], float] | None = None
    """What this client was last told about claiming the win (``Room.claim_key``)."""
    viewer: str = ""
    """A spectator's public id in the table chat (``chat.viewer_id``)."""


def played_by_timer(move: MoveData) -> bool:
    """Whether the turn timer's bot played this move for a late player (its stored client id says so)."""
    return (move.client_id or "").startswith(TIMEOUT_ID)


def names_a_file(value: Any) -> bool:
    """Whether an option value could be read as a path on the server (a separator, a dot, a ``~``)."""
    return isinstance(value, str) and (any(c in value for c in "/\\.\0") or value.startswith("~"))


def load_game(game_id: str, options: dict[str, Any]) -> Game:
    """A client's game: options checked by the game, and none of them naming a file on the server.

    The options are refused before the game sees them, so the answer never depends on which files
    exist (and no FIFO or device is ever opened). It may read the game's shipped content, so the
    server calls it in a thread, never on the event loop. No error repeats what the client sent: an
    option is named only when the game has it.
    """
    try:
        cls = game_class(game_id)
    except SlipstreamError:
        raise ApiError(400, "unknown_game", f"no game has this id; the games are: {', '.join(games())}") from None
    opts = dict(options)
    players = opts.pop("players", None)
    specs = {spec.name for spec in cls.option_specs}
    for name in FORBIDDEN_OPTIONS:
        if name in opts:
            raise ApiError(
                400, "bad_option", f"option {name!r} (a server file path) is not accepted over the web"
            )
    for name, value in opts.items():
        if name not in specs:
            raise ApiError(400, "bad_option", f"{cls.name} has no option by that name. Valid: {valid_options(cls.id)}")
        if names_a_file(value):
            raise ApiError(
                400,
                "bad_option",
                f"option {name!r}: over the web only the game's own values are accepted, not a file "
                "(a value has no '/', '\\', '.' or leading '~')",
            )
    try:
        return load(cls.id, players=players, **opts)
    except (SlipstreamError, TypeError) as exc:
        if getattr(exc, "code", None) == "bad_content":
            raise ApiError(400, "bad_content", str(exc)) from None
        problem = option_problem(cls.id, players, opts)
        raise ApiError(400, "bad_option", f"{problem}. Valid: {valid_options(cls.id)}") from None


def option_problem(game_id: str, players: Any, options: dict[str, Any]) -> str:
    """Which of a client's options a game refused, in words that do not repeat the value: the player
    count, else the first option the game refuses on its own, else the mix."""
    try:
        load(game_id, players=players)
    except (SlipstreamError, TypeError):
        cls = game_class(game_id)
        return f"this game is for {cls.min_players} to {cls.max_players} players"
    specs = {spec.name: spec for spec in game_class(game_id).option_specs}
    for name, value in options.items():
        try:
            load(game_id, players=players, **{name: value})
        except (SlipstreamError, TypeError):
            spec = specs[name]
            takes = spec.help if spec.kind is str and spec.choices is None and spec.help else option_values(spec)
            return f"option {name!r} does not take that value: it takes {takes}"
    return "these options do not go together"


def valid_options(game_id: str) -> str:
    """Every option a client may send for a game, with its valid values, in words:
    "laps: a whole number from 1 to 50; grid: roll-off or qualifying; sprint: true or false"."""
    cls = game_class(game_id)
    parts = [f"{spec.name}: {option_values(spec)}" for spec in cls.option_specs if spec.name not in FORBIDDEN_OPTIONS]
    players = f"players: {cls.min_players} to {cls.max_players}"
    return "; ".join([players, *parts])


def option_values(spec: OptionSpec) -> str:
    """The values an option takes, in words: "roll-off or qualifying", "a whole number from 1 to 50"."""
    if spec.choices is not None:
        values = [str(c) for c in spec.choices]
        return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"
    if spec.kind is bool:
        return "true or false"
    if spec.kind is int:
        low = "" if spec.minimum is None else f" from {spec.minimum}"
        high = "" if spec.maximum is None else f" to {spec.maximum}"
        return f"a whole number{low}{high}"
    return "text"


def settled_status(data: MatchData, state: State) -> str:
    """The status of a match read from the database, given the state its stored moves reach.

    A match's row is read before its moves (``Store.load``, one statement each, no snapshot): a commit
    that ended the match between the two reads shows its last move but not the ``finished`` stored with
    it in the same transaction. Moves that end the game are only ever stored with that status, so such a
    match is finished. (The other order could show ``finished`` before the last move, and with it the
    record of a match still hiding cards.)"""
    if state.is_over and data.status in ACTIVE:
        return "finished"
    return data.status


def stored_game(data: MatchData) -> Game:
    """A stored match's game, from the options it was created with: ``load_game`` checked them then,
    and ``record_options`` wrote every option, defaults included (``content`` is the shipped one), so
    they are loaded as they are, not checked again as a client's request."""
    options = dict(data.options)
    players = options.pop("players", None)
    return load(data.game_id, players=players, **options)


class Room:
    """One match in memory.

    **Hidden steps.** A step a seat takes that nobody else can see (Rev it Up's secret cart steps: the
    seat stays asked to act, no event is visible to another seat, and every other seat's view and legal
    actions and the spectator's view are unchanged) must not advance anything another seat can see. So
    the ``ply`` a seat is told (``shown(seat)``) counts the steps it can see: the real ply less the
    hidden steps of other seats. Such a step is sent only to its own seat, and a seat acts, is
    acknowledged and is checked for staleness in its own count. Once the match is over every step is
    public and ``shown`` is the real ply.
    """

    def __init__(
        self, data: MatchData, game: Game, claim_grace: float = Limits.claim_grace, address: str | None = None
    ) -> None:
        self.data = data
        self.game = game
        self.address = address
        """The client address that created the match (``None``: loaded from the database), for the
        per-address caps (``Hub.census``) and the caps on deep-search seats (``Hub._check_searches``)."""
        self._glossary: dict[str, dict[str, str]] | None = None
        self.claim_grace = claim_grace
        """Seconds the other players must be away before a player may claim the win (``claim``)."""
        self.last_seen: dict[int, float] = {}
        """When each seat's last open socket here closed (or the race started); see ``away``."""
        self.active_at: dict[int, float] = {}
        """When each seat's player last made a request here with the seat's token (a REST client)."""
        self.remote_seen: dict[int, float] = {}
        """When another server process last saw each seat's player (stored presence, several processes)."""
        self.remote_window = 0.0
        """Seconds within which a stored sighting means the player is there now (``Hub.presence_every``
        x 2.5; 0: one process)."""
        self.auto_task: asyncio.Task[None] | None = None
        """The task playing the room's automatic steps (chance, bots): ``Hub.kick``."""
        self.progress_at = time.monotonic()
        """When the automatic steps last moved on (a step, a bot's move asked or answered): the watchdog's
        clock (``Hub._watchdog``)."""
        self.loaded_at = clock.now()
        self.lock = asyncio.Lock()
        self.subs: set[Subscriber] = set()
        self.bots: dict[int, tuple[str, int]] = {}
        self.timing = False
        """Whether the turn timer is choosing a late player's decision now."""
        self.first_turn_at: float | None = None
        """When the race's first decision began (an undo back to it keeps its count)."""
        self.bot_choices = bot_menu(data.game_id)
        self._fresh()
        self._make_bots()

    def _fresh(self) -> None:
        """The match at its start: no step taken (``restore`` then replays the stored moves)."""
        self.state: State = self.game.start(seed=self.data.seed)
        self.moves: list[MoveData] = []
        """Every step taken, with the seat that took it (``None``: chance)."""
        self.step_flags: list[tuple[bool, bool]] = []
        """For each step: whether it was hidden (seen by its seat only) and whether it closed a
        simultaneous choice other seats had chosen in (``undo_index``)."""
        self.log: list[tuple[dict[int | None, int], tuple[Event, ...]]] = []
        """Each step's events, with the ply each seat (``None``: spectators) was shown for it."""
        self.since: dict[int, int] = {s: 0 for s in pending_seats(self.state)}
        """For each seat asked to act: the real ply at which its current decision began ..."""
        self.since_shown: dict[int, int] = dict(self.since)
        """... and that ply as the seat was shown it."""
        self.hidden_total = 0
        self.hidden_by: dict[int, int] = {}
        self.private_to: int | None = None
        """The seat every step not sent yet was hidden for (``None``: one of them is public)."""
        self.last_hidden = False
        self.last_public: State = self.state
        """The state after the last step every seat could see ..."""
        self.last_step: dict[int, State] = {}
        """... and, for a seat whose own hidden steps came since, the state after the last of them: a
        fresh message (``state_payload`` without steps) shows the events of the last step its seat could
        see, so another seat's hidden step changes nothing in it."""
        self.acted_at: dict[int, float] = {}
        """When each seat last took a step of its own (stored with the move, so a player acting through
        another server process counts too; not a step the turn timer played): see ``away``."""
        self.window: set[int] = set()
        """The seats that acted so far in the open simultaneous choice."""
        self.closed_on_others = False
        """Whether the last step closed a simultaneous choice other seats had made choices in (it
        revealed them)."""
        self.unsent: list[State] = []
        """The steps since the last broadcast (a seat's action and the chance steps that follow it
        are committed and sent together)."""
        self.accepted: dict[tuple[int, str], int] = {}
        self.states_cache: list[State] | None = None
        self.turn_started: dict[int, float] = {}
        """For each seat asked to act: when (``clock.now()``) its current decision began (the turn timer)."""
        self.notes: dict[int, Event] = {}
        """What the server did that the engine's events do not say, by the ply after it (a seat out of
        time played by a bot)."""

    def rewind(self, moves: list[MoveData]) -> None:
        """Rebuild the match from these moves (an undo took back the last ones)."""
        self._fresh()
        self.restore(moves)
        if self.first_turn_at is not None:
            self.begin_turns(self.first_turn_at)

    def undo_index(self, seat: int) -> int | None:
        """The index in ``moves`` of the step ``seat`` may take back, if any: the match runs, the seat
        is a player's, and its last step revealed nothing and nothing was revealed since: no chance step
        and no other seat's step after it, except other seats' secret steps (a seat cannot know of
        them, so they cannot stop its undo: they are kept), and it did not close a simultaneous choice
        in which other seats had chosen (that showed their choices). A step the turn timer played for
        the seat is not the player's to take back (the timer could not be enforced, and the bot's move
        would be a free hint)."""
        if self.data.status != "running" or self.data.seats[seat].kind != "human":
            return None
        for index in range(len(self.moves) - 1, -1, -1):
            move = self.moves[index]
            hidden, closed_on_others = self.step_flags[index]
            if move.seat == seat:
                return None if closed_on_others or played_by_timer(move) else index
            if move.seat is None or not hidden:
                return None
        return None

    def undoable(self, seat: int) -> bool:
        return self.undo_index(seat) is not None

    def why_no_undo(self, seat: int) -> str:
        """Why ``seat`` has nothing to take back, in words (``cannot_undo``)."""
        last = next((m for m in reversed(self.moves) if m.seat == seat), None)
        if last is not None and played_by_timer(last) and self.data.seats[seat].kind == "human":
            return (
                "your last step was played by the turn timer's bot when your time ran out: a step the timer "
                "played cannot be taken back"
            )
        return (
            "nothing to take back: only your own last step, with no die, card or other player's step since "
            "and no choices revealed by it"
        )

    def mark(self) -> Mark:
        """What this room holds of the match, for a write conditional on it (``Store._guarded``)."""
        rev = self.data.rev or 0
        return Mark(rev, len(self.moves), self.moves[-1].action if self.moves else None)

    def replays(self, moves: Sequence[MoveData]) -> bool:
        """Whether these moves are legal from the start (other seats' secret steps kept by an undo)."""
        state = self.game.start(seed=self.data.seed)
        try:
            for move in moves:
                state = state.apply(move.action)
        except IllegalActionError:
            return False
        return True

    def _make_bots(self) -> None:
        """The bot in each bot seat (or resigned seat): its name and its seed (the bot itself runs in a
        worker process)."""
        for s in self.data.seats:
            if s.kind in BOT_KINDS and s.bot and s.seat not in self.bots:
                self.bots[s.seat] = (s.bot, self.bot_seed(s.seat))

    def bot_seed(self, seat: int) -> int:
        """The seed of the bot that plays ``seat`` (for its seat or, with a turn timer, for a late player)."""
        return (self.data.seed + 7919 * seat) & 0xFFFFFFFF

    def restore(self, moves: list[MoveData]) -> None:
        for move in moves:
            self.set_state(self.state.apply(move.action), move)
        self.unsent.clear()
        self.private_to = None

    def shown(self, seat: int | None) -> int:
        """The ply ``seat`` is told: the steps it can see (see the class docstring)."""
        if self.data.status == "finished":
            return self.state.ply
        own = self.hidden_by.get(seat, 0) if seat is not None else 0
        return self.state.ply - self.hidden_total + own

    def _hidden_step(self, old: State, new: State, seat: int | None) -> bool:
        """Whether the step from ``old`` to ``new``, taken by ``seat``, shows nothing to anyone else."""
        if seat is None or pending_seats(old) != pending_seats(new) or seat not in pending_seats(new):
            return False
        others = [t for t in self.game.seats if t != seat]
        if any(e.visible_to(t) for e in new.events for t in (None, *others)):
            return False
        pending = set(pending_seats(new))
        return all(
            old.view(t) == new.view(t)
            and (t not in pending or old.legal_actions(t) == new.legal_actions(t))
            for t in (None, *others)
        )

    def set_state(self, new: State, move: MoveData) -> None:
        old = self.state
        before = set(pending_seats(old))
        hidden = self._hidden_step(old, new, move.seat)
        self._track_window(old, new, move.seat)
        self.moves.append(move)
        self.step_flags.append((hidden, self.closed_on_others))
        self.last_hidden = hidden
        self.state = new
        self.progress_at = time.monotonic()
        private = move.seat if hidden else None
        self.private_to = private if not self.unsent or self.private_to == private else None
        self.unsent.append(new)
        if hidden and move.seat is not None:
            self.hidden_total += 1
            self.hidden_by[move.seat] = self.hidden_by.get(move.seat, 0) + 1
            self.last_step[move.seat] = new
        else:
            self.last_public = new
            self.last_step = {}
        started = clock.now() if move.at is None else move.at
        events = new.events
        if move.seat is not None and played_by_timer(move):
            note = Event(
                "timeout",
                f"P{move.seat + 1} ran out of time: a bot played for them",
                rule="turn timer",
                seats=frozenset({move.seat}) if hidden else None,
            )
            self.notes[new.ply] = note
            events = (note, *events)
        elif move.seat is not None and not hidden:  # a hidden step moves no clock others see (claim)
            self.acted_at[move.seat] = started
        if events:
            shown = {t: self.shown(t) for t in (None, *self.game.seats)}
            self.log.append((shown, events))
        now = set(pending_seats(new))
        fresh = {s for s in now if s not in before or s == move.seat}
        # a hidden step goes on with its seat's decision: its clock, which others see, does not start again
        restarted = fresh - {move.seat} if hidden else fresh
        self.turn_started = {s: started if s in restarted else self.turn_started.get(s, started) for s in now}
        self.since = {s: new.ply if s in fresh else self.since.get(s, new.ply) for s in now}
        self.since_shown = {
            s: self.shown(s) if s in fresh else self.since_shown.get(s, self.shown(s)) for s in now
        }
        if move.seat is not None and move.client_id:
            self.accepted[(move.seat, move.client_id)] = self.shown(move.seat)

    def begin_turns(self, at: float) -> None:
        """Seats asked to act whose decision has no start yet (the race's first decision, before any
        step) begin it at ``at``: when the race starts, or, after a restart, the match's last change."""
        if not self.moves:
            self.first_turn_at = at
        for s in pending_seats(self.state):
            self.turn_started.setdefault(s, at)

    @property
    def own_bot(self) -> str:
        """The game's own bot (its ``hooks().heuristic_bot``), else ``random``: it plays a resigned
        seat and the decision of a player out of time."""
        return "heuristic" if "heuristic" in self.bot_choices else "random"

    def turn_left(self) -> dict[int, float]:
        """With a turn timer: the seconds each player asked to act has left (bots have no timer)."""
        limit = self.data.turn_seconds
        if limit is None or self.data.status != "running":
            return {}
        now = clock.now()
        return {
            s: max(0.0, round(limit - (now - self.turn_started.get(s, now)), 1))
            for s in pending_seats(self.state)
            if self.data.seats[s].kind == "human"
        }

    def _track_window(self, old: State, new: State, seat: int | None) -> None:
        """Follow who has chosen in an open simultaneous choice, to know whether a step closed one in
        which other seats had chosen."""
        self.closed_on_others = False
        if seat is None or not isinstance(old.actor, frozenset):
            self.window = set()
            return
        if isinstance(new.actor, frozenset) and new.actor <= old.actor:
            self.window.add(seat)
            return
        self.closed_on_others = bool(self.window - {seat})
        self.window = set()

    def leave(self, sub: Subscriber) -> None:
        """A client is gone: a seat left with no open socket here is away from now on."""
        self.subs.discard(sub)
        if sub.seat is not None and all(other.seat != sub.seat for other in self.subs):
            self.last_seen[sub.seat] = clock.now()

    def here(self) -> set[int]:
        """The seats whose player is there: an open socket to this server, or (several processes) one
        another process saw within ``remote_window``."""
        seats = {sub.seat for sub in self.subs if sub.seat is not None}
        if self.remote_window:
            now = clock.now()
            seats |= {s for s, at in self.remote_seen.items() if now - at <= self.remote_window}
        return seats

    def away(self) -> dict[int, float]:
        """Each player's seat (a person's: not a bot's, nor resigned) that is not there (``here``), and
        since when: the last sign of its player, whatever the route and the process: its last socket
        here closed, its last request here, its last step (stored with the move, so one taken through
        another process counts), another process's last sighting, or else the race started or was
        loaded here (a restart gives everyone the grace period again, as their pages reconnect by
        themselves)."""
        here = self.here()
        return {
            s.seat: max(
                self.last_seen.get(s.seat, self.loaded_at),
                self.active_at.get(s.seat, 0.0),
                self.acted_at.get(s.seat, 0.0),
                self.remote_seen.get(s.seat, 0.0),
            )
            for s in self.data.seats
            if s.kind == "human" and s.seat not in here
        }

    def seen(self, seat: int) -> None:
        """A request with the seat's token came here: its player is active (``away``)."""
        self.active_at[seat] = clock.now()

    def claim_key(self, seat: int | None) -> tuple[tuple[int, ...], float] | None:
        """Whether ``seat`` may claim the win, now or later: the race runs, the seat is a player's and is
        here (an open socket), there are other players and none of them is here. The away seats and the
        time (``clock.now()``) from which it may, when every one of them has been away ``claim_grace``
        seconds; ``None`` while no claim can come (``claim_check`` says why). Cheap: it is in every
        state message, and a seat is told again only when it changes."""
        if seat is None or self.data.status != "running" or self.data.seats[seat].kind != "human":
            return None
        if self.data.pace != "live":  # offline is normal at a turn-based pace: the move limit rules
            return None
        connected = {sub.seat for sub in self.subs}
        if seat not in connected:
            return None
        others = [s.seat for s in self.data.seats if s.kind == "human" and s.seat != seat]
        if not others or any(s in connected for s in others):  # the usual case, before ``away``'s work
            return None
        away = self.away()
        if any(s not in away for s in others):
            return None
        ready_at = max(away[s] for s in others) + self.claim_grace
        return tuple(others), round(ready_at, 1)

    def claim_check(self, seat: int) -> tuple[list[int], float]:
        """``claim_key`` for a claim being made: the away seats and the time from which it may, or an
        ``ApiError`` saying why no claim can come."""
        key = self.claim_key(seat)
        if key is not None:
            return list(key[0]), key[1]
        if self.data.status != "running":
            raise ApiError(409, "not_running", f"the match is {self.data.status}")
        if self.data.pace != "live":
            raise ApiError(409, "cannot_claim", "a turn-based race has no claim of the win: a player who does "
                           "not move within the move limit has that move played by a bot")
        if self.data.seats[seat].kind != "human":
            raise ApiError(409, "cannot_claim", f"{seat_label(seat, self.data.seats)} is not a player's seat now")
        away = self.away()
        if all(sub.seat != seat for sub in self.subs):
            raise ApiError(
                409,
                "cannot_claim",
                f"{seat_label(seat, self.data.seats)} has no open connection to the race: only a player "
                "who is there (the race's page open) may claim the win",
            )
        here = [s.seat for s in self.data.seats if s.kind == "human" and s.seat != seat and s.seat not in away]
        if not here:
            raise ApiError(409, "cannot_claim", "no other player in the race to claim the win from")
        names = ", ".join(seat_label(s, self.data.seats) for s in here)
        raise ApiError(409, "cannot_claim", f"{names} {'is' if len(here) == 1 else 'are'} still in the race")

    def claim_info(self, seat: int | None) -> dict[str, Any] | None:
        """``claim_key`` as a seat is told it: ``in``, the seconds to wait (0: now), and ``away``, the
        seats that would resign."""
        key = self.claim_key(seat)
        if key is None:
            return None
        away, ready_at = key
        return {"in": round(max(0.0, ready_at - clock.now()), 1), "away": list(away)}

    def presence(self) -> None:
        """A client came or went: each player's socket whose claim changed (``claim_key``) is told
        whether and when it may claim the win (a ``claim`` message)."""
        for sub in list(self.subs):
            key = self.claim_key(sub.seat)
            if sub.seat is None or key == sub.claim_key:
                continue
            sub.claim_key = key
            sub.queue.put_nowait(encode({"type": "claim", "claim": self.claim_info(sub.seat)}))
        presence.announce(self)

    def seat_for_token(self, token: str) -> int | None:
        for s in self.data.seats:
            if token_matches(token, s.token_hash):
                return s.seat
        return None

    def glossary(self) -> dict[str, dict[str, str]]:
        """The match's game content in words (``protocol.glossary``), made once per room."""
        if self._glossary is None:
            self._glossary = glossary(self.game)
        return self._glossary

    def match_info(self, seat: int | None = None) -> dict[str, Any]:
        """Public match info, with the ply as ``seat`` is shown it (``None``: a spectator)."""
        d = self.data
        info: dict[str, Any] = {
            "id": d.id,
            "game": d.game_id,
            "game_name": self.game.name,
            "title": d.title,
            "status": d.status,
            "options": d.options,
            "players": self.game.players,
            "ply": self.shown(seat),
            "created_at": d.created_at,
            "seats": invites.seat_info(d),
            "bots": self.bot_choices,
            "bot_labels": {b: BOT_WORDS.get(b, b) for b in self.bot_choices},
            "turn_seconds": d.turn_seconds,
            "pace": d.pace,
            "pace_words": PACES[d.pace].words,
            "board": board_module(d.game_id),
            "text_board": hooks_of(self.game).board_text is not None,
            "cooperative": self.game.cooperative,
        }
        if d.status == "finished":
            info["seed"] = d.seed
            info["rematch"] = invites.rematch_info(d)
        return info

    def result_json(self, state: State | None = None) -> dict[str, Any] | None:
        """The result of ``state`` (by default the match's position) as the server reports it: the
        engine's, with every seat whose player resigned ranked last (``protocol.resigned_result``)."""
        result = (self.state if state is None else state).result
        if result is None:
            return None
        return resigned_result(result, {s.seat for s in self.data.seats if s.kind == "resigned"})

    def record(self) -> dict[str, Any]:
        """The match record (the engine's, which replays the moves exactly), with what the server adds:
        the ``result`` it reports (resigned seats last) and each seat's name and kind."""
        record: dict[str, Any] = dict(self.state.record())
        record["result"] = self.result_json()
        record["seats"] = [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in self.data.seats]
        return record

    def message(self, seat: int | None, steps: Sequence[State] = (), text_board: bool = True) -> str:
        """The ``state`` message for ``seat``, with the visible events of ``steps`` (by default the
        last step's); ``text_board``: with the game's text picture of the board."""
        return encode(self.state_payload(seat, steps, text_board))

    def state_payload(self, seat: int | None, steps: Sequence[State] = (), text_board: bool = True) -> dict[str, Any]:
        """What ``message`` sends, as data."""
        if not steps:  # a fresh message: the last step this seat could see (another's hidden step shows nothing)
            steps = (self.last_step.get(seat, self.last_public) if seat is not None else self.last_public,)
        seen = [
            ([self.notes[st.ply].to_json()] if st.ply in self.notes and self.notes[st.ply].visible_to(seat) else [])
            + events_payload(st, seat)
            for st in steps
        ]
        # "step": which of the steps the seat saw it belongs to (the page shows the last step's dice)
        events = [{**e, "step": step} for step, group in enumerate(g for g in seen if g) for e in group]
        payload = seat_payload(self.state, seat, live=self.data.status == "running", text_board=text_board)
        payload["ply"] = self.shown(seat)
        payload["result"] = self.result_json()
        payload["can_undo"] = seat is not None and self.undoable(seat)
        payload["turn_left"] = self.turn_left()
        payload["claim"] = self.claim_info(seat)
        return {"type": "state", "match": self.match_info(seat), "seat": seat, **payload, "events": events}

    def log_message(self, seat: int | None, reset: bool = False) -> str:
        """The last steps' events ``seat`` may see; ``reset``: the client drops what it showed (an undo)."""
        entries = []
        for shown, events in self.log:
            visible = [e.to_json() for e in events if e.visible_to(seat)]
            if visible:
                entries.append({"ply": shown.get(seat, shown[None]), "events": visible})
        return encode({"type": "log", "entries": entries[-LOG_REPLAY:], "reset": reset})

    def sight(self, seat: int | None) -> tuple[str, dict[str, Any]]:
        """What ``seat`` sees of the match, but for the last step's events and the clocks: its log and
        its state message. Equal before and after an undo: the seat cannot tell a step was taken back."""
        message = self.state_payload(seat, text_board=False)
        for key in ("events", "turn_left", "can_undo", "claim"):
            message.pop(key, None)
        return self.log_message(seat), message

    def sights(self) -> dict[int | None, tuple[str, dict[str, Any]]]:
        """Each connected seat's (and the spectators') ``sight``, before the match is rebuilt."""
        return {seat: self.sight(seat) for seat in {sub.seat for sub in self.subs}}

    def resend(self, before: dict[int | None, tuple[str, dict[str, Any]]]) -> None:
        """After the match was rebuilt (an undo, here or in another process): the log from the start
        and the state go to each client whose ``sight`` changed, and nothing to the others, so an
        undone step nobody else saw (a secret cart step) stays unseen, even its undo."""
        after: dict[int | None, tuple[str, dict[str, Any]]] = {}
        for sub in list(self.subs):
            if sub.seat not in after:
                after[sub.seat] = self.sight(sub.seat)
            if before.get(sub.seat) == after[sub.seat]:
                continue
            sub.queue.put_nowait(self.log_message(sub.seat, reset=True))
            sub.queue.put_nowait(self.message(sub.seat, text_board=sub.text_board))

    def broadcast(self) -> None:
        """Queue the new position for every client (a client too far behind is disconnected; it
        gets the current state again when it reconnects). A hidden step goes to its own seat only."""
        cache: dict[tuple[int | None, bool], str] = {}
        private_to, self.private_to = self.private_to, None
        steps, self.unsent = self.unsent or [self.state], []
        for sub in list(self.subs):
            if private_to is not None and sub.seat != private_to:
                continue
            if sub.queue.cut:  # it left too much unread (``Outbox``)
                self.leave(sub)
                continue
            key = (sub.seat, sub.text_board)
            if key not in cache:
                cache[key] = self.message(sub.seat, steps, sub.text_board)
            sub.queue.put_nowait(cache[key])

    def states(self) -> list[State]:
        """Every state from the start (for replays of a finished match)."""
        if self.states_cache is None:
            out = [self.game.start(seed=self.data.seed)]
            for action in self.state.actions:
                out.append(out[-1].apply(action))
            self.states_cache = out
        return self.states_cache


class GroupCommit:
    """Moves from many rooms that arrive while a commit runs go to the database together in the next
    one: a busy server makes a few large commits instead of one per move. A batch the database
    refuses is retried one room at a time, so one room's failure is only that room's.

    Where the commit runs is ``Hub.db``'s choice: on the event loop for SQLite (in WAL mode with
    ``synchronous=NORMAL`` a commit does not wait for the disk, about 0.25 ms), on the database threads
    for PostgreSQL."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.pending: list[tuple[str, list[MoveData], str | None, int, asyncio.Future[None]]] = []
        self.running = False

    async def append(self, match_id: str, moves: list[MoveData], status: str | None, rev: int) -> None:
        """Store ``moves`` (and a new ``status``) if the match is still at revision ``rev``."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((match_id, moves, status, rev, future))
        if not self.running:
            self.running = True
            task = asyncio.get_running_loop().create_task(self._run())
            self.hub.tasks.add(task)
            task.add_done_callback(self.hub.tasks.discard)
        await future

    async def _run(self) -> None:
        store = self.hub.store
        try:
            while self.pending:
                await asyncio.sleep(0)  # let the moves that are ready join this commit
                batch, self.pending = self.pending, []
                try:
                    rows = [(m, moves, st, rev) for m, moves, st, rev, _f in batch]
                    await self.hub.db(store.append_many, rows)
                    outcomes: list[BaseException | None] = [None] * len(batch)
                except Exception as exc:
                    if len(batch) == 1:
                        outcomes = [exc]
                    else:
                        outcomes = []
                        for m, moves, st, rev, _f in batch:
                            try:
                                await self.hub.db(store.append_many, [(m, moves, st, rev)])
                                outcomes.append(None)
                            except Exception as one:
                                outcomes.append(one)
                for (_m, _moves, _st, _rev, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if outcome is None:
                        future.set_result(None)
                    else:
                        future.set_exception(outcome)
        finally:
            self.running = False


class Hub:
    """Every live room, the database thread and the bot threads."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.0,
        plugins: Sequence[str] = (),
        bot_workers: int = 2,
        limits: Limits | None = None,
        peer_poll: float = 0.0,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.db_pool = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="slipstream-db")
        self.plugins = list(plugins)
        self.bot_workers = bot_workers
        self.bots = BotWork(bot_workers, self.plugins, self.limits.bot_deadline)
        self.bots.on_dispatch = self._bot_dispatched
        self.restarts = 0
        """Matches whose automatic steps the watchdog restarted (``watch``)."""
        self.process_id = secrets.token_hex(8)
        """This server process among those sharing the database (its stored presence rows)."""
        self.presence_every = min(PRESENCE_EVERY, self.limits.claim_grace / 4)
        """Seconds between the stored sightings of the players here (several processes only)."""
        self.tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Task[Room]] = {}
        self._buckets: dict[str, tuple[float, float]] = {}
        self.writer = GroupCommit(self)
        self.peer_poll = peer_poll
        self.chat = ChatDesk(self)
        """Every match's table chat (``web/chat.py``)."""

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call: on the database threads for PostgreSQL (network round trips), on the
        event loop itself for SQLite, where a call is a local read or a commit without fsync (WAL) that
        costs less than the thread hop (the hop's GIL hand-overs delayed every other move by
        milliseconds under load)."""
        if self.store.is_sqlite:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    # --- lifecycle -----------------------------------------------------------------------

    async def startup(self) -> None:
        """Load every open or running match and resume it exactly where it was; start the sweeper."""
        for data in await self.db(self.store.load_active):
            await self._keyed(data)
            room = self._restore(data)
            if room is not None and data.status == "running":
                self.kick(room)
        jobs = [self._sweeper(), self._timer(), self._watchdog()]
        if self.peer_poll > 0:
            jobs += [self._peer_watch(), self._presence_beat()]
        for job in jobs:
            task = asyncio.get_running_loop().create_task(job)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _peer_watch(self) -> None:
        """With several server processes on one database (``peer_poll`` > 0): every ``peer_poll``
        seconds, catch up the open and running matches another process changed, so clients connected
        here see its moves and lobby changes too."""
        while True:
            await asyncio.sleep(self.peer_poll)
            try:
                rooms = {i: r for i, r in self.rooms.items() if r.data.status in ACTIVE}
                seen = await self.db(self.store.activity, list(rooms))
                for match_id, (changed_at, moves, rev) in seen.items():
                    room = rooms[match_id]
                    if moves != room.state.ply or changed_at > room.data.updated_at or rev != room.data.rev:
                        async with room.lock:
                            await self.refresh(room)
                        self.kick(room)
            except Exception:
                log.exception("catching up with the other server processes failed")

    @property
    def remote_window(self) -> float:
        """Seconds within which another process's stored sighting of a player means they are there
        (``Room.here``): a few of its sightings' intervals; 0 with one process."""
        return 2.5 * self.presence_every if self.peer_poll > 0 else 0.0

    def _new_room(self, data: MatchData, game: Game, address: str | None = None) -> Room:
        room = Room(data, game, self.limits.claim_grace, address)
        room.remote_window = self.remote_window
        return room

    async def _presence_beat(self) -> None:
        """With several server processes: every ``presence_every`` seconds, store which players this
        process sees (an open socket, or a request with their seat's token since the last look), and read
        what the others saw of the players of each race here where a player here might claim the win
        from players not connected here (``Room.remote_seen``): a claim counts every process's players."""
        while True:
            await asyncio.sleep(self.presence_every)
            try:
                await self.beat()
            except Exception:
                log.exception("storing and reading the players' presence failed")

    async def beat(self) -> None:
        """One look of ``_presence_beat``."""
        now = clock.now()
        rows: list[tuple[str, int, float]] = []
        watched: list[Room] = []
        for room in [r for r in self.rooms.values() if r.data.status == "running"]:
            humans = {s.seat for s in room.data.seats if s.kind == "human"}
            connected = {sub.seat for sub in room.subs if sub.seat is not None}
            active = {s for s, at in room.active_at.items() if now - at <= self.presence_every}
            rows += [(room.data.id, s, now) for s in sorted((connected | active) & humans)]
            if connected & humans and humans - connected:
                watched.append(room)
        await self.db(self.store.store_presence, self.process_id, rows)
        if watched:
            seen = await self.db(self.store.presence, [r.data.id for r in watched], self.process_id)
            for room in watched:
                room.remote_seen = seen[room.data.id]
                room.presence()

    def _bot_dispatched(self, match_id: str) -> None:
        """A worker took a bot move of this match: its automatic steps are making progress (the watchdog)."""
        room = self.rooms.get(match_id)
        if room is not None:
            room.progress_at = time.monotonic()

    async def _timer(self) -> None:
        """Every half second: a player out of time on a timed match has its decision played by the
        game's own bot (``_out_of_time``, one task per match, so a bot thinking in one match holds up
        no other); the log says so."""
        while True:
            await asyncio.sleep(0.5)
            for room in [r for r in self.rooms.values() if r.data.turn_seconds and r.data.status == "running"]:
                if room.timing or not any(left <= 0 for left in room.turn_left().values()):
                    continue
                room.timing = True
                task = asyncio.get_running_loop().create_task(self._out_of_time(room))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def _out_of_time(self, room: Room) -> None:
        """The first late player's decision, chosen by the game's own bot as a resigned seat's is (in
        the bot workers, within ``bot_deadline``, else a random legal action), from that seat's view
        only; committed unless the position changed meanwhile (the player acted after all)."""
        try:
            state = room.state
            seat = next((s for s, left in room.turn_left().items() if left <= 0), None)
            if seat is None:
                return
            action = await self._bot_choice(room, state, seat, room.own_bot, room.bot_seed(seat))
            async with room.lock:
                if room.state is not state or room.turn_left().get(seat, 1.0) > 0:
                    return
                move = MoveData(state.ply, action, seat, f"{TIMEOUT_ID}{state.ply}")
                try:
                    await self._commit(room, self._with_chance(room, state.apply(action), move))
                except Conflict:
                    await self.refresh(room)
            self.kick(room)
        except ApiError:
            pass  # the database refused: the next look tries again
        except Exception:
            log.exception("match %s: the turn timer failed", room.data.id)
        finally:
            room.timing = False

    async def _sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep for expired matches failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire open matches nobody started and abandon running ones nobody plays or watches."""
        now = clock.now() if now is None else now
        done = []
        for room in list(self.rooms.values()):
            idle = now - room.data.updated_at
            patience = self.limits.abandoned_expiry + (PACES[room.data.pace].seconds or 0)  # turn-based: its limit too
            if room.data.status == "open" and idle > self.limits.open_expiry:
                status = "expired"
            elif room.data.status == "running" and not room.subs and idle > patience:
                status = "abandoned"
            else:
                continue
            async with room.lock:
                if room.data.status not in ACTIVE:
                    continue
                try:
                    await self.db(self.store.set_status, room.data.id, room.mark(), status)
                except Stale:
                    await self.refresh(room)  # another process changed it: looked at again next time
                    continue
                room.data.rev = (room.data.rev or 0) + 1
                room.data.status = status
                room.broadcast()
            for sub in list(room.subs):
                sub.queue.put_nowait(None)
            room.subs.clear()
            self.rooms.pop(room.data.id, None)
            done.append(room.data.id)
            log.info("match %s is %s after %.0f s idle", room.data.id, status, idle)
        return done

    def allow_creation(self, client: str) -> None:
        """A client may create ``creations_per_minute`` matches in a minute (a token bucket)."""
        rate = self.limits.creations_per_minute
        now = time.monotonic()
        tokens, last = self._buckets.get(client, (float(rate), now))
        tokens = min(float(rate), tokens + (now - last) * rate / 60.0)
        if tokens < 1.0:
            raise ApiError(
                429,
                "too_many",
                f"at most {rate} matches a minute from one address; try again in "
                f"{(1.0 - tokens) * 60.0 / rate:.0f} s",
            )
        self._buckets[client] = (tokens - 1.0, now)
        if len(self._buckets) > 10_000:  # forget the addresses whose bucket is full again
            full = [c for c, (t, at) in self._buckets.items() if t + (now - at) * rate / 60.0 >= rate]
            for c in full:
                del self._buckets[c]

    async def shutdown(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for room in self.rooms.values():
            for sub in room.subs:
                sub.queue.put_nowait(None)
        self.bots.shutdown()
        self.db_pool.shutdown(wait=True)
        self.store.close()

    async def _conditional(self, room: Room, decide: Callable[[], Write | None], seat: int | None = None) -> bool:
        """Decide a change and write it, conditional on the match as the room holds it (the caller
        holds the room's lock). ``decide`` checks the request against the room (raising ``ApiError``)
        and gives the write (``None``: nothing to write); the write is made only if the database still
        holds the match as the room does (``Room.mark``), and the room then takes the new revision.
        If another server process changed the match first, nothing is written: the room catches up
        (``refresh``) and ``decide`` runs again on the match as it now is. With several processes a
        refusal is also decided on the caught-up match (the room may be behind). Whether it wrote."""
        caught_up = False
        for _attempt in range(RETRIES + 1):
            try:
                planned = decide()
            except ApiError:
                if caught_up or self.peer_poll <= 0:
                    raise
                caught_up = True
                if not await self.refresh(room):
                    raise
                continue
            if planned is None:
                return False
            write, args = planned
            try:
                room.data.rev = await self.db(write, room.data.id, room.mark(), *args)
                return True
            except Stale:
                caught_up = True
                await self.refresh(room)
        raise self._moved_on(room, seat)

    def _moved_on(self, room: Room, seat: int | None = None) -> ApiError:
        """The answer when another process kept changing the match while this one decided (``RETRIES``)."""
        return ApiError(409, "stale", "the match changed in another server process; try again", ply=room.shown(seat))

    async def _keyed(self, data: MatchData) -> None:
        """A match stored before chance keys existed gets one now, before it draws again; one stored
        before revisions existed gets its revision (``storage.RevisionRow``)."""
        if data.chance_key is None and data.status in ACTIVE:
            key = dice.new_key()
            await self.db(self.store.set_chance_key, data.id, key)
            data.chance_key = key
        if data.rev is None:
            await self.db(self.store.ensure_revision, data.id)
            data.rev = 0  # if another process has changed it since, the first write here catches up

    def _restore(self, data: MatchData) -> Room | None:
        room = self._rebuilt(data)
        if room is not None:
            self._keep(room)
        return room

    def _rebuilt(self, data: MatchData) -> Room | None:
        """A stored match rebuilt by replaying its moves (a long one takes milliseconds: ``_load_room``
        runs this in a worker thread), or ``None`` if it cannot be."""
        try:
            room = self._new_room(data, stored_game(data))
            if room.game.version != data.version:
                log.warning(
                    "match %s: stored for %s version %s, this is %s",
                    data.id,
                    data.game_id,
                    data.version,
                    room.game.version,
                )
            room.restore(data.moves)
            data.status = settled_status(data, room.state)
            if data.status == "running":  # an open match's first decision begins when it starts
                room.begin_turns(data.updated_at)
        except (ApiError, SlipstreamError, TypeError) as exc:
            log.error("match %s cannot be restored: %s", data.id, exc)
            return None
        return room

    def _keep(self, room: Room) -> None:
        self.rooms[room.data.id] = room
        self._evict()

    def _evict(self) -> None:
        idle = [r for r in self.rooms.values() if r.data.status not in ACTIVE and not r.subs]
        for r in sorted(idle, key=lambda r: r.data.updated_at)[: max(0, len(idle) - MAX_IDLE_FINISHED)]:
            del self.rooms[r.data.id]

    async def room(self, match_id: str) -> Room:
        """The match's room, loaded from the database if it is not in memory (one load at a time per
        id; nothing is kept for an id that does not exist)."""
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        if not MATCH_ID.fullmatch(match_id):
            raise ApiError(404, "not_found", "no match with this id")
        task = self._loading.get(match_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load_room(match_id))
            self._loading[match_id] = task
            task.add_done_callback(lambda _t: self._loading.pop(match_id, None))
        return await asyncio.shield(task)

    async def _load_room(self, match_id: str) -> Room:
        """A match from the database, replayed in a worker thread (a finished match of some hundred
        plies takes 10-20 ms, which would hold every other match on the event loop)."""
        data = await self.db(self.store.load, match_id)
        if data is None:
            raise ApiError(404, "not_found", "no match with this id")
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        await self._keyed(data)
        built = await asyncio.to_thread(self._rebuilt, data)
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        if built is None:
            raise ApiError(409, "not_found", "this match can no longer be loaded")
        self._keep(built)
        return built

    # --- lobby ---------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        title: str,
        bots: dict[int, str],
        turn_seconds: int | None = None,
        address: str | None = None,
        public: bool = False,
        pace: str = "live",
    ) -> tuple[Room, str]:
        """A new open match; ``address``: the creator's (the caps on deep searches count per address),
        ``public``: listed in ``GET /api/matches`` (else it is reached by its link only), ``pace``: live
        or turn-based (``web/pace.py``: its move limit is the turn timer)."""
        if pace not in PACES:
            raise ApiError(400, "bad_request", f"pace must be one of {', '.join(PACES)}")
        if PACES[pace].seconds is not None:
            if turn_seconds is not None:
                raise ApiError(400, "bad_request", "a turn-based pace is its own move limit: leave turn_seconds out")
            turn_seconds = PACES[pace].seconds
        elif turn_seconds is not None and not TURN_SECONDS[0] <= turn_seconds <= TURN_SECONDS[1]:
            raise ApiError(
                400,
                "bad_request",
                f"turn_seconds must be from {TURN_SECONDS[0]} to {TURN_SECONDS[1]} (or left out: no timer)",
            )
        self._room_for_one_more(address)
        game = await asyncio.to_thread(
            load_game, game_id, {"players": players, **options} if players is not None else options
        )
        host_token = secrets.token_urlsafe(24)
        now = clock.now()
        data = MatchData(
            id=secrets.token_urlsafe(8),
            game_id=game.id,
            version=game.version,
            options=game.record_options(),
            seed=secrets.randbits(48),
            chance_key=dice.new_key(),
            status="open",
            title=title.strip()[:80] or game.name,
            host_hash=hash_token(host_token),
            created_at=now,
            updated_at=now,
            seats=[SeatData(seat=s) for s in game.seats],
            turn_seconds=turn_seconds,
            pace=pace,
            rev=0,
            public=public,
        )
        for seat, bot in bots.items():
            if seat not in game.seats:
                bad = no_such_seat(seat, game.players)
                raise ApiError(400, bad.code, bad.message)
            self._check_bot(game.id, bot)
            data.seats[seat] = SeatData(seat=seat, kind="bot", name=bot_seat_name(bot, seat), bot=bot)
        self._check_searches(address, sum(1 for s in data.seats if s.kind == "bot" and is_deep(s.bot)))
        self._room_for_one_more(address)  # again: others may have been made while the game loaded
        room = self._new_room(data, game, address)
        await self.db(self.store.create_match, data)
        self.rooms[data.id] = room
        return room, host_token

    def census(self, address: str | None) -> Census:
        """The open and running matches in memory, all and those created from ``address``."""
        count = Census()
        for room in self.rooms.values():
            status = room.data.status
            here = int(address is not None and room.address == address)
            if status == "open":
                count.open += 1
                count.open_here += here
            elif status == "running":
                count.running += 1
                count.running_here += here
        return count

    def _room_for_one_more(self, address: str | None) -> None:
        """A new match (created or a rematch) only while its address has fewer than
        ``open_matches_per_address`` and the server fewer than ``max_open_matches`` waiting for players."""
        count = self.census(address)
        limit = self.limits.open_matches_per_address
        if count.open_here >= limit:
            raise ApiError(
                429,
                "too_many",
                f"at most {limit} matches waiting for players from one address: start one, or let one "
                f"expire ({self.limits.open_expiry:.0f} s after its last change)",
            )
        if count.open >= self.limits.max_open_matches:
            raise ApiError(
                503, "busy", f"the server holds {count.open} matches waiting for players; try again later"
            )

    def _run_refusal(self, room: Room) -> ApiError | None:
        """Why ``room`` may not start now, if it may not: its address runs ``running_matches_per_address``
        matches already, or the server ``max_running_matches``."""
        count = self.census(room.address)
        limit = self.limits.running_matches_per_address
        if count.running_here >= limit:
            return ApiError(
                429, "too_many", f"at most {limit} running matches from one address: finish or resign one first"
            )
        if count.running >= self.limits.max_running_matches:
            return ApiError(503, "busy", f"the server runs {count.running} matches; try again later")
        return None

    def _check_searches(self, address: str | None, adding: int) -> None:
        """``adding`` more deep-search seats (``botwork.is_deep``: ``mcts:3s``) only while the open and
        running matches hold fewer than ``deep_searches`` of them on this server and fewer than
        ``deep_searches_per_address`` in the matches created from ``address``: deep searches queue for
        the same few workers, and one user must not be able to fill that queue for everyone."""
        if adding <= 0:
            return
        total = mine = 0
        for room in self.rooms.values():
            if room.data.status not in ACTIVE:
                continue
            deep = sum(1 for s in room.data.seats if s.kind == "bot" and is_deep(s.bot))
            total += deep
            if address is not None and room.address == address:
                mine += deep
        per_address, server = self.limits.deep_searches_per_address, self.limits.deep_searches
        if address is not None and mine + adding > per_address:
            raise ApiError(
                429,
                "too_many_searches",
                f"at most {per_address} deep-search bots (thinking more than {DEEP_SECONDS:g} s a move) in the "
                f"races from one address; yours have {mine}: choose a quicker bot, or wait for a race to end",
            )
        if total + adding > server:
            raise ApiError(
                503,
                "too_many_searches",
                f"the server runs as many deep-search bots as it takes ({server}): choose a quicker bot, or "
                "try again later",
            )

    def _check_bot(self, game_id: str, bot: str) -> None:
        """The lobby's bots, or a search whose time is bounded (``mcts:400:2s``) by ``max_bot_seconds``."""
        menu = bot_menu(game_id)
        if bot not in menu:
            parts = bot.split(":")
            seconds: float | None = None
            if parts[0] in STRENGTHS:
                try:
                    _playouts, seconds, _heuristic = parse_mcts(":".join(p for p in parts if p != "uct"))
                except SlipstreamError:
                    seconds = None
            limit = self.limits.max_bot_seconds
            if seconds is None or not seconds <= limit:
                raise ApiError(
                    400,
                    "unknown_bot",
                    f"this bot is not offered: choose one of {', '.join(menu)}, or a search with "
                    f"a time bound of at most {limit:g} s (e.g. mcts:400:{limit:g}s)",
                    bots=menu,
                )
        try:
            make_bot(bot, game_id, 0)
        except SlipstreamError:
            raise ApiError(
                400, "unknown_bot", f"this bot cannot play this game: choose one of {', '.join(menu)}", bots=menu
            ) from None

    def _seat(self, room: Room, seat: int) -> SeatData:
        if not 0 <= seat < len(room.data.seats):
            raise no_such_seat(seat, len(room.data.seats))
        return room.data.seats[seat]

    def _host(self, room: Room, host_token: str | None) -> None:
        if not token_matches(host_token, room.data.host_hash):
            raise ApiError(403, "not_host", "only the match's creator (with its host token) may do this")

    async def join(self, match_id: str, seat: int, name: str, invited: bool = False) -> tuple[Room, str]:
        """A player takes an open seat; a seat a rematch holds only its ``invited`` player (``invites``)."""
        room = await self.room(match_id)
        token = secrets.token_urlsafe(24)
        new = SeatData(seat=seat)

        def decide() -> Write:
            nonlocal new
            if room.data.status != "open":
                raise ApiError(409, "not_open", "the match has started; seats can no longer be joined")
            current = self._seat(room, seat)
            if current.kind != "open":
                raise ApiError(409, "seat_taken", f"{seat_label(seat, room.data.seats)} is already taken")
            if not invited:
                invites.refuse_held(room.data, seat, "only that player may take it")
            new = SeatData(
                seat=seat, kind="human", name=unique_name(name, seat, room.data.seats), token_hash=hash_token(token)
            )
            return self.store.set_seats, ([new],)

        async with room.lock:
            await self._conditional(room, decide)
            room.data.seats[seat] = new
            room.data.updated_at = clock.now()
            room.broadcast()
        return room, token

    async def new_token(self, room: Room, seat: int) -> str:
        """A new token for a player's seat (its player, known otherwise, moves to another device): the
        old token stops working; the seat, its name and the race are as they were."""
        token = secrets.token_urlsafe(24)
        new = SeatData(seat=seat)

        def decide() -> Write:
            nonlocal new
            current = self._seat(room, seat)
            if current.kind not in ("human", "resigned"):
                raise ApiError(409, "not_open", f"{seat_label(seat, room.data.seats)} is not a player's seat")
            new = replace(current, token_hash=hash_token(token))
            return self.store.set_seats, ([new],)

        async with room.lock:
            await self._conditional(room, decide)
            room.data.seats[seat] = new
        moved = f"Seat {seat + 1} is now played on another device; this page goes on watching the race."
        self._close_seat(room, seat, encode({"type": "seat_lost", "seat": seat, "bot": None, "message": moved}))
        return token

    async def set_bot(self, match_id: str, seat: int, bot: str | None, host_token: str | None) -> Room:
        """Put a bot in a seat, or (``bot=None``) empty the seat of an open match again.

        Before the race starts the host may also take a player out of a seat (a stranger who joined
        through the link): the seat is open again (or a bot's) and the player's token stops working.
        While the match runs, the host may hand any seat to a bot (a player who left): the seat's token
        stops working and the bot plays on from the current position.
        """
        room = await self.room(match_id)
        current = new = SeatData(seat=seat)
        running = False

        def decide() -> Write:
            nonlocal current, new, running
            self._host(room, host_token)
            running = room.data.status == "running"
            if room.data.status not in ("open", "running"):
                raise ApiError(409, "not_open", "the match is over; seats can no longer change")
            current = self._seat(room, seat)
            if running and bot is None:
                raise ApiError(409, "not_open", "a seat cannot be emptied once the match runs; give it a bot")
            if not running:
                invites.refuse_held(room.data, seat, "no bot may take it meanwhile")
            if bot is None:
                new = SeatData(seat=seat)
            else:
                self._check_bot(room.game.id, bot)
                was_deep = current.kind == "bot" and is_deep(current.bot)
                self._check_searches(room.address, int(is_deep(bot) and not was_deep))
                player = current.name if current.kind == "human" and running else ""
                new = SeatData(seat=seat, kind="bot", name=bot_seat_name(bot, seat, player), bot=bot)
            return self.store.set_seats, ([new],)

        async with room.lock:
            await self._conditional(room, decide)
            room.data.seats[seat] = new
            room.data.updated_at = clock.now()
            room.bots.pop(seat, None)
            room._make_bots()
            room.broadcast()
            room.presence()
        if current.kind == "human":
            self._seat_lost(room, seat, bot, running)
        if running:
            self.kick(room)
        return room

    async def start(self, match_id: str, host_token: str | None) -> Room:
        room = await self.room(match_id)
        status = "running"

        def decide() -> Write:
            nonlocal status
            self._host(room, host_token)
            if room.data.status != "open":
                raise ApiError(409, "not_open", "the match has already started")
            empty = [s.seat for s in room.data.seats if s.kind == "open"]
            if empty:
                raise ApiError(
                    409,
                    "seats_open",
                    f"{seat_numbers(empty).capitalize()} {'is' if len(empty) == 1 else 'are'} empty: a player "
                    "joins or the host adds a bot (in the API seats count from 0: 'seats' lists them)",
                    seats=empty,
                )
            refusal = self._run_refusal(room)
            if refusal is not None:
                raise refusal
            status = "finished" if room.state.is_over else "running"
            return self.store.set_status, (status,)

        async with room.lock:
            await self._conditional(room, decide)
            self._begin(room, status)
        self.kick(room)
        return room

    def _begin(self, room: Room, status: str) -> None:
        """The race starts (its status stored): its first decision's clock and every seat's presence
        begin now, and every client is told."""
        room.data.status = status
        room.data.updated_at = clock.now()
        room.begin_turns(room.data.updated_at)
        room.last_seen = {s.seat: room.data.updated_at for s in room.data.seats}
        room.broadcast()
        room.presence()

    # --- play ----------------------------------------------------------------------------

    async def act(self, room: Room, seat: int, action: Any, ply: Any, client_id: Any) -> dict[str, Any]:
        """A seat's action: checked against the server's state, committed, then acknowledged."""
        if not isinstance(action, str) or not action or len(action) > 200:
            raise ApiError(400, "bad_request", "'action' must be a non-empty string (at most 200 characters)")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ApiError(
                400, "bad_request", "'ply' must be the whole number of the position the action is for"
            )
        if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
            raise ApiError(400, "bad_request", "'id' must be a string of 1 to 64 characters")
        for _attempt in range(3):
            async with room.lock:
                if client_id is not None and (seat, client_id) in room.accepted:
                    raise ApiError(
                        409,
                        "duplicate",
                        "an action with this id was already accepted",
                        ply=room.accepted[(seat, client_id)],
                    )
                if room.data.status != "running":
                    raise ApiError(409, "not_running", f"the match is {room.data.status}")
                state = room.state
                now = room.shown(seat)
                if room.data.seats[seat].kind != "human":
                    raise ApiError(
                        409, "not_your_turn", f"{seat_label(seat, room.data.seats)} is played by a bot now", ply=now
                    )
                if seat not in pending_seats(state):
                    raise ApiError(
                        409, "not_your_turn", f"{seat_label(seat, room.data.seats)} is not asked to act now", ply=now
                    )
                if not room.since_shown.get(seat, now) <= ply <= now:
                    raise ApiError(
                        409, "stale", f"the action was chosen at ply {ply}; the match is at ply {now}", ply=now
                    )
                legal = state.legal_actions(seat)
                if action not in legal:
                    shown = ", ".join(describe(room.game, a) for a in legal[:40])
                    shown += " ..." if len(legal) > 40 else ""
                    raise ApiError(
                        422,
                        "illegal_action",
                        f"{seat_label(seat, room.data.seats)} cannot play that move now; the legal moves: "
                        f"{shown or 'none'}",
                        legal=legal,
                    )
                move = MoveData(ply=state.ply, action=action, seat=seat, client_id=client_id)
                try:
                    await self._commit(room, self._with_chance(room, state.apply(action), move))
                except Conflict:  # another process moved the match on: catch up and check again
                    await self.refresh(room)
                    continue
                acked = room.shown(seat)
                if client_id is not None:
                    room.accepted[(seat, client_id)] = acked
                break
        else:
            raise ApiError(409, "stale", "the match moved on in another server process", ply=room.shown(seat))
        self.kick(room)
        return {"type": "ack", "id": client_id, "ply": acked}

    async def undo(self, room: Room, seat: int, ply: Any) -> dict[str, Any]:
        """Take back ``seat``'s last step, if it revealed nothing (``Room.undo_index``): the move is
        deleted from the database (other seats' secret steps after it are kept, a ply earlier, in the
        same transaction), then the room is rebuilt. Only clients whose view changes are told
        (``Room.resend``): a hidden step (a secret cart step) is taken back for its own seat's eyes only.

        The deletion is conditional (``Store.take_back``): it is made only if the stored moves are still
        exactly those this process holds. If another process stored a step since (a step this process
        has not caught up with, perhaps acknowledged to another player), nothing is deleted: the room
        catches up and the undo is decided again on the match as it is (``stale`` or ``cannot_undo``)."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ApiError(400, "bad_request", "'ply' must be the whole number of the position shown")
        kept: list[MoveData] = []
        index = 0

        def decide() -> Write:
            nonlocal kept, index
            if room.data.status != "running":
                raise ApiError(409, "not_running", f"the match is {room.data.status}")
            now = room.shown(seat)
            if ply != now:
                raise ApiError(409, "stale", f"the undo was asked at ply {ply}; the match is at ply {now}", ply=now)
            found = room.undo_index(seat)
            later = [] if found is None else room.moves[found + 1 :]
            kept = [MoveData(m.ply - 1, m.action, m.seat, m.client_id, m.at) for m in later]
            if found is None or (kept and not room.replays(room.moves[:found] + kept)):
                raise ApiError(409, "cannot_undo", room.why_no_undo(seat), ply=now)
            index = found
            return self.store.take_back, (room.moves[index].ply, kept)

        async with room.lock:
            await self._conditional(room, decide, seat)
            before = room.sights()
            room.rewind(room.moves[:index] + kept)
            room.data.updated_at = clock.now()
            room.resend(before)
            return {"type": "undone", "ply": room.shown(seat)}

    async def resign(self, room: Room, seat: int) -> Room:
        """A player resigns: a bot plays the seat to the end (the game's own bot, else random); the
        seat is marked ``resigned`` and its player keeps watching with the same token."""

        def decide() -> Write:
            if room.data.status != "running":
                raise ApiError(409, "not_running", f"the match is {room.data.status}")
            if room.data.seats[seat].kind != "human":
                raise ApiError(409, "not_your_turn", f"{seat_label(seat, room.data.seats)} is not a player's seat now")
            return self._resignation(room, [seat])

        async with room.lock:
            await self._conditional(room, decide, seat)
            self._resigned(room, [seat], None)
        self.kick(room)
        return room

    def _resignation(self, room: Room, seats: list[int]) -> Write:
        """The write that resigns players' seats: each is marked ``resigned`` and the game's own bot plays
        it to the end; its token still shows its view (``_resigned`` then changes the room)."""
        new = [
            SeatData(
                seat=seat,
                kind="resigned",
                name=room.data.seats[seat].name,
                bot=room.own_bot,
                token_hash=room.data.seats[seat].token_hash,
            )
            for seat in seats
        ]
        return self.store.set_seats, (new,)

    def _resigned(self, room: Room, seats: list[int], claimant: int | None) -> None:
        """The room after ``_resignation`` was stored: the seats resigned (``claimant``: the player who
        claimed the win from them), and every client is told, with a line in the log."""
        for seat in seats:
            current = room.data.seats[seat]
            room.data.seats[seat] = SeatData(
                seat=seat, kind="resigned", name=current.name, bot=room.own_bot, token_hash=current.token_hash
            )
        room.data.updated_at = clock.now()
        room._make_bots()
        kind, text = "claim" if claimant is not None else "resign", presence.resigned_text(seats, claimant)
        self.chat.keep_note(room, kind, text, presence.log_line(room, text, kind))
        room.broadcast()
        room.presence()

    async def claim(self, room: Room, seat: int) -> list[int]:
        """A player who is there claims the win from the players who have been away for the grace
        period (``Room.claim_check``): their seats resign, so the game's own bot plays each to the end
        and the result ranks them below every seat that did not resign (in a cooperative game, whose
        result places nobody above anyone, the team plays on with the bots). The seats that resigned.

        Away means away from every route and every process: no socket here, no request or step here or
        through another process (a step is stored with its time; with several processes each stores whom
        it sees: ``Hub.beat``). The resignation is conditional on the match being as this process holds
        it, so a step stored by another process meanwhile makes it catch up and decide again."""
        away: list[int] = []

        def decide() -> Write:
            nonlocal away
            away, ready_at = room.claim_check(seat)
            wait = ready_at - clock.now()
            if wait > 0:
                names = ", ".join(seat_label(s, room.data.seats) for s in away)
                raise ApiError(
                    409,
                    "cannot_claim",
                    f"{names} may still come back: the win can be claimed in {wait:.0f} s "
                    f"(after {room.claim_grace:.0f} s away)",
                    wait=round(wait, 1),
                )
            return self._resignation(room, away)

        async with room.lock:
            if self.peer_poll > 0:
                seen = await self.db(self.store.presence, [room.data.id], self.process_id)
                room.remote_seen = seen[room.data.id]
            await self._conditional(room, decide, seat)
            self._resigned(room, away, seat)
        self.kick(room)
        return away

    async def rematch(self, room: Room, seat: int | None) -> tuple[Room, int | None, str | None]:
        """The same race again with the same seats: the first call makes it (same game, options,
        title, bots and host token); a seat's player who asks gets the same seat under the same name.
        It starts by itself once every player's seat is taken again. Like the race, it is listed
        publicly only if the host listed the race. Two processes asked at once make one rematch: the
        database keeps one per race, and the process that loses reads the other's."""
        async with room.lock:
            if room.data.status != "finished":
                raise ApiError(409, "not_finished", "a rematch is offered once the race is over")
            next_id = await self.db(self.store.rematch_of, room.data.id)
            if next_id is None:
                self._room_for_one_more(room.address)
                bots = [s.bot for s in room.data.seats if s.kind == "bot" and s.bot]
                self._check_searches(room.address, sum(1 for bot in bots if is_deep(bot)))
                old = room.data
                now = clock.now()
                data = MatchData(
                    id=secrets.token_urlsafe(8),
                    game_id=old.game_id,
                    version=room.game.version,
                    options=dict(old.options),
                    seed=secrets.randbits(48),
                    chance_key=dice.new_key(),
                    status="open",
                    title=old.title,
                    host_hash=old.host_hash,
                    created_at=now,
                    updated_at=now,
                    turn_seconds=old.turn_seconds,
                    pace=old.pace,
                    holds=invites.holds(old, self.limits.rematch_hold, now),
                    seats=[
                        SeatData(seat=s.seat, kind="bot", name=bot_seat_name(s.bot, s.seat), bot=s.bot)
                        if s.kind == "bot" and s.bot
                        else SeatData(seat=s.seat)
                        for s in old.seats
                    ],
                    rev=0,
                    public=old.public,
                )
                try:
                    await self.db(self.store.create_match, data, old.id)
                except Exception as exc:
                    if not is_conflict(exc):
                        raise
                    next_id = await self.db(self.store.rematch_of, room.data.id)  # another process made it
                    if next_id is None:
                        raise
                else:
                    self.rooms[data.id] = self._new_room(data, room.game, room.address)
                    next_id = data.id
                    invites.invited(room, data.id, now + self.limits.rematch_hold)
        nxt = await self.room(next_id)
        if seat is None:
            return nxt, None, None
        name = room.data.seats[seat].name
        async with nxt.lock:
            if nxt.data.status != "open" or nxt.data.seats[seat].kind != "open":
                raise ApiError(409, "seat_taken", f"{seat_label(seat)} of the rematch is already taken", id=next_id)
        joined, token = await self.join(next_id, seat, name, invited=True)
        def ready() -> Write | None:
            if joined.data.status != "open" or any(s.kind == "open" for s in joined.data.seats):
                return None
            if self._run_refusal(joined) is not None:  # the caps on running matches: it stays open
                return None
            return self.store.set_status, ("running",)

        async with joined.lock:
            if await self._conditional(joined, ready):
                self._begin(joined, "running")
        self.kick(joined)
        return joined, seat, token

    async def refresh(self, room: Room) -> bool:
        """Catch the room up with the database (moves, seats, status, revision another process stored);
        the caller holds the room's lock. Whether anything changed."""
        data = await self.db(self.store.load, room.data.id)
        if data is None:
            return False
        was = room.data.status
        lost = [
            s.seat for s in room.data.seats
            if s.kind == "human" and data.seats[s.seat].token_hash != s.token_hash
        ]
        if data.rev is not None:
            room.data.rev = data.rev
        ours = [(m.ply, m.action) for m in room.moves]
        if [(m.ply, m.action) for m in data.moves[: len(ours)]] != ours:  # another process took steps back
            before = room.sights()
            room.rewind(data.moves)
            room.data.status, room.data.seats = settled_status(data, room.state), data.seats
            room.data.updated_at = max(room.data.updated_at, data.updated_at)
            room.bots.clear()
            room._make_bots()
            room.resend(before)  # as after an undo here
            changed = True
        else:
            changed = False
            for move in data.moves[room.state.ply :]:
                room.set_state(room.state.apply(move.action), move)
                changed = True
            status = settled_status(data, room.state)
            if status != room.data.status or data.seats != room.data.seats:
                room.data.status, room.data.seats = status, data.seats
                room.bots.clear()
                room._make_bots()
                room.presence()
                changed = True
            if changed:
                room.data.updated_at = max(room.data.updated_at, data.updated_at)
                room.broadcast()
        if was == "open" and room.data.status == "running":  # another process started the race
            room.begin_turns(data.updated_at)
            room.last_seen = {s.seat: data.updated_at for s in room.data.seats}
        for seat in lost:
            current = room.data.seats[seat]
            self._seat_lost(room, seat, current.bot if current.kind == "bot" else None, was == "running")
        return changed

    def _seat_lost(self, room: Room, seat: int, bot: str | None, running: bool) -> None:
        """A player's seat was taken from them by the host (here or in another process): each of their
        sockets is told and closed; they may go on watching."""
        if running:
            message = (
                f"The host handed your seat (Seat {seat + 1}) to the {BOT_WORDS.get(bot or '', bot)} bot; "
                "you can go on watching the race."
            )
        else:
            message = f"The host took you out of Seat {seat + 1} before the race began; you can go on watching."
        self._close_seat(room, seat, encode({"type": "seat_lost", "seat": seat, "bot": bot, "message": message}))

    @staticmethod
    def _close_seat(room: Room, seat: int, notice: str) -> None:
        """Tell each of a seat's sockets ``notice`` and close it (its token no longer holds the seat)."""
        for sub in [sub for sub in room.subs if sub.seat == seat]:
            room.subs.discard(sub)
            sub.queue.put_nowait(notice)
            sub.queue.put_nowait(None)

    def _with_chance(self, room: Room, new: State, move: MoveData) -> list[tuple[State, MoveData]]:
        """A step and the chance steps that follow it (drawn from the match's key), to be committed
        and sent together: one database write and one message per seat instead of one per step."""
        steps = [(new, move)]
        while new.actor == CHANCE and len(steps) < MAX_BATCH:
            outcome = self._draw(room, new)
            move = MoveData(new.ply, outcome)
            new = new.apply(outcome)
            steps.append((new, move))
        return steps

    async def _commit(self, room: Room, steps: list[tuple[State, MoveData]]) -> None:
        """Store the steps in one transaction, then change the room and tell every client."""
        new = steps[-1][0]
        status = "finished" if new.is_over else None
        at = clock.now()
        for _state, move in steps:
            if move.at is None:
                move.at = at
        try:
            await self.writer.append(room.data.id, [m for _s, m in steps], status, room.data.rev or 0)
        except Exception as exc:
            if is_conflict(exc):
                raise Conflict(f"match {room.data.id}: ply {steps[0][1].ply} is already stored") from exc
            log.exception("match %s: could not save ply %s", room.data.id, steps[0][1].ply)
            raise ApiError(503, "unavailable", "the action could not be saved; nothing changed") from exc
        for state, move in steps:
            room.set_state(state, move)
        room.data.updated_at = clock.now()
        if status:
            room.data.status = status
            self._evict()
        room.broadcast()

    def _draw(self, room: Room, state: State) -> str:
        """The chance outcome at this state, from the match's secret key (never from its seed)."""
        key = room.data.chance_key
        if key is None:  # a match stored before keys existed: ``_keyed`` gives it one on load
            raise RuntimeError(f"match {room.data.id} has no chance key")
        return dice.draw(key, state.ply, state.chance_outcomes())

    def kick(self, room: Room) -> None:
        """Make sure the room's automatic steps (chance, bots) are running."""
        if room.data.status != "running" or (room.auto_task is not None and not room.auto_task.done()):
            return
        room.progress_at = time.monotonic()
        task = asyncio.get_running_loop().create_task(self._advance(room))
        room.auto_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot_choice(self, room: Room, state: State, seat: int, name: str, bot_seed: int) -> str:
        """The action bot ``name`` picks for ``seat`` in ``state``: in the bot workers (``botwork``: a
        fair queue, the deadline counted from when a worker takes the move; a ``random`` bot, a uniform
        pick among the seat's own legal actions that peeks at nothing, picks here); a random legal
        action when the bot fails, is late (its workers are replaced) or breaks its workers three times.
        A move whose workers were replaced for another bot's sake is asked again, never lost."""
        fallback = RandomBot(bot_seed * 1_000_003 + state.ply)
        if name == "random":
            return fallback.choose(state, seat)
        d = room.data
        args = (d.id, d.game_id, d.options, d.seed, state.actions, seat, name, bot_seed)
        try:
            return await self.bots.choose(d.id, args, thinking_seconds(name))
        except BotLate:
            log.error(
                "match %s: bot %s took more than %s s; its workers were replaced and it plays a random move",
                d.id,
                name,
                self.limits.bot_deadline,
            )
        except BotBroke:
            log.error("match %s: bot %s broke its workers three times; a random move", d.id, name)
        except BotFailed as exc:
            log.error("match %s: bot %s failed in its worker (%s); it plays a random move", d.id, name, exc)
        finally:
            room.progress_at = time.monotonic()
        return fallback.choose(state, seat)

    async def _advance(self, room: Room) -> None:
        """Play chance and bot steps until a human must act or the match ends."""
        try:
            while True:
                async with room.lock:
                    state = room.state
                    bot_seat = next((s for s in pending_seats(state) if s in room.bots), None)
                    if room.data.status != "running" or (state.actor != CHANCE and bot_seat is None):
                        return
                    if bot_seat is None:
                        outcome = self._draw(room, state)
                        try:
                            await self._commit(
                                room, self._with_chance(room, state.apply(outcome), MoveData(state.ply, outcome))
                            )
                        except Conflict:
                            await self.refresh(room)
                        continue
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                name, bot_seed = room.bots[bot_seat]
                action = await self._bot_choice(room, state, bot_seat, name, bot_seed)
                async with room.lock:
                    if room.state is state and room.bots.get(bot_seat) == (name, bot_seed):
                        move = MoveData(state.ply, action, bot_seat)
                        try:
                            await self._commit(room, self._with_chance(room, state.apply(action), move))
                        except Conflict:
                            await self.refresh(room)
        except ApiError:
            await asyncio.sleep(1.0)
            room.auto_task = None
            self.kick(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: automatic step failed", room.data.id)

    def needs_automatic_step(self, room: Room) -> bool:
        """Whether a running match waits for chance or for one of its bots."""
        state = room.state
        return room.data.status == "running" and (
            state.actor == CHANCE or any(s in room.bots for s in pending_seats(state))
        )

    async def _watchdog(self) -> None:
        """Every ``WATCH_EVERY`` seconds: restart the automatic steps of any running match that waits
        for chance or a bot while nothing works on it (no bot move of it queued or on a worker) for
        longer than ``bot_deadline`` (plus ``bot_delay``): the task that played them ended or hangs.
        A move waiting its turn in the bot queue, or on a worker (which has its own deadline), is work."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                self.watch()
            except Exception:
                log.exception("the watchdog failed")

    def watch(self) -> list[str]:
        """One look of the watchdog (``_watchdog``): the matches restarted."""
        now = time.monotonic()
        late = self.limits.bot_deadline + self.bot_delay
        restarted = []
        for room in list(self.rooms.values()):
            if not self.needs_automatic_step(room) or self.bots.busy(room.data.id) or now - room.progress_at <= late:
                continue
            task = room.auto_task
            log.warning(
                "match %s: no bot or chance step for %.0f s with no worker on it; its automatic steps restart",
                room.data.id,
                now - room.progress_at,
            )
            if task is not None and not task.done():
                task.cancel()
            room.auto_task = None
            self.kick(room)
            restarted.append(room.data.id)
        self.restarts += len(restarted)
        return restarted
