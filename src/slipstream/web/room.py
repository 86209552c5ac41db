"""A match room: one live match's state, seats and connected clients (``Room``), and each client's
outbox (``Outbox``, ``Subscriber``).

The room holds what the match is in memory and tells its clients; the hub's jobs change it, each under
the room's lock and after the database took the change (``commits``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.errors import IllegalActionError
from slipstream.engine.game import Event, Game, State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import pending_seats
from slipstream.jsontext import encode

from . import clock, invites
from .errors import ApiError
from .limits import Limits
from .pace import PACES
from .protocol import board_module, events_payload, glossary, resigned_result, seat_payload
from .seats import BOT_KINDS, BOT_WORDS, bot_menu, seat_label, token_matches
from .storage import Mark, MatchData, MoveData

LOG_REPLAY = 300
ACTIVE = ("open", "running")
TIMEOUT_ID = "timeout-"
"""How a move the turn timer played for a seat is marked (its stored client id)."""


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
        per-address caps (``Caps.census``) and the caps on deep-search seats (``Caps.check_searches``)."""
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
        """Seconds within which a stored sighting means the player is there now (``Services.remote_window``;
        0: one process)."""
        self.auto_task: asyncio.Task[None] | None = None
        """The task playing the room's automatic steps (chance, bots): ``Autoplay.kick``."""
        self.progress_at = time.monotonic()
        """When the automatic steps last moved on (a step, a bot's move asked or answered): the watchdog's
        clock (``Autoplay.watch``)."""
        self.loaded_at = clock.now()
        self.lock = asyncio.Lock()
        self.subs: set[Subscriber] = set()
        self.bots: dict[int, tuple[str, int]] = {}
        self.timing = False
        """Whether the turn timer is choosing a late player's decision now."""
        self.first_turn_at: float | None = None
        """When the race's first decision began (an undo back to it keeps its count)."""
        self.bot_choices = bot_menu(data.game_id)
        self.lines: list[tuple[dict[int | None, int], Event]] = []
        """The log's lines that no move makes (a resignation, a claim), with the ply each seat (``None``:
        spectators) was shown when it was written: an undo rebuilds the log from the moves and puts these
        back (``rewind``), for a resignation is not undone."""
        self._fresh()
        self.make_bots()

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
        for shown, event in self.lines:
            self._place_line(shown, event)
        if self.first_turn_at is not None:
            self.begin_turns(self.first_turn_at)

    def add_line(self, shown: dict[int | None, int], event: Event) -> None:
        """A line of the log that no move makes (``lines``), placed after the steps its spectators had been
        shown when it was written."""
        self.lines.append((shown, event))
        self._place_line(shown, event)

    def _place_line(self, shown: dict[int | None, int], event: Event) -> None:
        at = len(self.log)
        while at > 0 and self.log[at - 1][0].get(None, 0) > shown.get(None, 0):
            at -= 1
        self.log.insert(at, (shown, (event,)))

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

    def make_bots(self) -> None:
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

    def seat_lost(self, seat: int, bot: str | None, running: bool) -> None:
        """A player's seat was taken from them by the host (here or in another process): each of their
        sockets is told and closed; they may go on watching."""
        if running:
            message = (
                f"The host handed your seat (Seat {seat + 1}) to the {BOT_WORDS.get(bot or '', bot)} bot; "
                "you can go on watching the race."
            )
        else:
            message = f"The host took you out of Seat {seat + 1} before the race began; you can go on watching."
        self.close_seat(seat, encode({"type": "seat_lost", "seat": seat, "bot": bot, "message": message}))

    def close_seat(self, seat: int, notice: str) -> None:
        """Tell each of a seat's sockets ``notice`` and close it (its token no longer holds the seat)."""
        for sub in [sub for sub in self.subs if sub.seat == seat]:
            self.subs.discard(sub)
            sub.queue.put_nowait(notice)
            sub.queue.put_nowait(None)

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
