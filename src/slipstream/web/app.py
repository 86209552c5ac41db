"""The FastAPI app: the lobby and play API, the WebSocket for live play, the static browser UI.

``create_app(database_url)`` builds it; ``slipstream serve`` runs it with uvicorn. The protocol and
the error codes are described in docs/web.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from slipstream.engine.errors import UnknownGameError
from slipstream.engine.hooks import hooks_of
from slipstream.engine.registry import game_class, games
from slipstream.jsontext import encode

from . import presence
from .chat import viewer_id
from .errors import ApiError
from .guard import CUT_KEY, BodyGuard, too_deep
from .hub import Hub
from .limits import Limits
from .lobby import Finished, catalog, rules_page
from .pace import PACES
from .players import Credentials, MyRaces, Players, SeatToken, add_routes
from .protocol import ERROR_CODES, actor_info, describe, events_payload, replay_log, seat_payload
from .room import Outbox, Room, Subscriber
from .seats import no_such_seat, seat_label, token_matches
from .storage import DEFAULT_SQLITE, Store

log = logging.getLogger("slipstream.web")
STATUSES = ("open", "running", "finished", "expired", "abandoned")
STATIC = Path(__file__).parent / "static"
RULES_MAX_AGE = 600
"""Seconds a browser keeps a game's rules page before asking again (with its ``ETag``)."""
PLUGINS_ENV = "SLIPSTREAM_PLUGINS"
PEER_POLL_ENV = "SLIPSTREAM_PEER_POLL"
"""Seconds between looks at the database for matches other server processes changed (0: one process)."""
MESSAGE_COSTS = {"text_board": 5, "undo": 5}
"""WebSocket messages that count as several against the socket's rate (``messages_per_second``): a
``text_board`` request builds a whole state with the text board, an undo replays the match."""
MAX_PLY = 10**9
"""The largest ply a client may name (a larger number is a ``bad_request``, never repeated back)."""
MESSAGE_TYPES = "use 'act', 'undo', 'claim', 'chat', 'text_board' or 'ping'"


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    title: str = Field(default="", max_length=80)
    bots: dict[int, str] = Field(default_factory=dict, max_length=16)
    turn_seconds: int | None = None
    public: bool = False
    rated: bool = False
    pace: str = Field(default="live", max_length=16)


class JoinSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=40)


class SetBot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bot: str | None = Field(max_length=40)


class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=200)
    ply: int = Field(ge=-MAX_PLY, le=MAX_PLY)
    id: str | None = Field(default=None, max_length=64)


class Undo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ply: int = Field(ge=-MAX_PLY, le=MAX_PLY)


class Resign(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Rematch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = None


class Mute(BaseModel):
    model_config = ConfigDict(extra="forbid")

    viewer: str = Field(max_length=16)
    muted: bool = True


KNOWN_NAMES = frozenset(
    {"body", "query", "path", "header", "[key]", "status", "limit", "ply", "seat", "match_id", "game_id"}
    | {name for model in (CreateMatch, JoinSeat, SetBot, Act, Undo, Rematch, Credentials, Mute, MyRaces, SeatToken)
       for name in model.model_fields}
)
"""The names a request's fields and parameters may have: a validation error names these, and only these."""


def field_path(loc: Any) -> str:
    """Where a validation error is, without repeating client text: names the API knows and small
    numbers as they are, anything else (an unknown field, a dict key the client chose) as "…"."""
    parts = []
    for part in loc:
        number = isinstance(part, str) and part.isdigit() and len(part) <= 3
        known = isinstance(part, int) or part in KNOWN_NAMES or number
        parts.append(str(part) if known else "…")
    return ".".join(parts)


def load_plugins(names: list[str]) -> None:
    """Import extra modules that register games (``SLIPSTREAM_PLUGINS=pkg.mod,other.mod``)."""
    for name in names:
        importlib.import_module(name)


def bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", "send the token as 'Authorization: Bearer <token>'")
    return token.strip()


def create_app(
    database_url: str | None = None, bot_delay: float = 0.0, plugins: str | None = None
) -> FastAPI:
    """The server app; ``database_url`` is a SQLAlchemy/PostgreSQL URL or a SQLite file path."""
    names = [
        n.strip() for n in (plugins if plugins is not None else os.environ.get(PLUGINS_ENV, "")).split(",")
    ]
    names = [n for n in names if n]
    load_plugins(names)
    games()  # discover every game now: discovery is not thread-safe, and games are loaded in threads
    limits = Limits.from_env()
    store = Store(database_url or DEFAULT_SQLITE, checkpoint_thread=True)
    peer_poll = float(os.environ.get(PEER_POLL_ENV, "0") or 0)
    hub = Hub(store, bot_delay=bot_delay, plugins=names, limits=limits, peer_poll=peer_poll)
    finished = Finished()
    players = Players(hub, limits)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.startup()
        players.ratings.start()
        yield
        await players.ratings.stop()
        await hub.shutdown()

    app = FastAPI(
        title="Slipstream", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json"
    )
    app.state.hub = hub
    app.state.limits = limits
    app.state.players = players
    app.add_middleware(BodyGuard, limits=limits)

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.to_json()}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{field_path(e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()[:10])
        return JSONResponse(
            {"error": {"code": "bad_request", "message": problems or "malformed request"}}, status_code=400
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "bad_request"
        return JSONResponse(
            {"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code
        )

    # --- pages ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/m/{match_id}", include_in_schema=False)
    async def match_page(match_id: str) -> FileResponse:
        return FileResponse(STATIC / "match.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_routes(app, players)

    @app.get("/boards/{game_id}.js", include_in_schema=False)
    async def board_script(game_id: str) -> FileResponse:
        """A game's board drawing: the ``web_board`` script its ``Game.hooks()`` declares."""
        try:
            script = hooks_of(game_class(game_id)).web_board
        except UnknownGameError:
            script = None
        if script is None:
            raise ApiError(404, "not_found", "no board drawing for this game id")
        return FileResponse(script, media_type="text/javascript")

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page_of(game_id: str, request: Request) -> Response:
        """A game's page for players: how to play, then the rules in full (Markdown rendered with raw HTML
        switched off, so nothing in it runs; kept once rendered); ``/static/rules.js`` scrolls to the
        paragraph the link's ``?rule=`` names. A browser may keep it for ``RULES_MAX_AGE`` seconds, then
        asks again with its ``ETag`` and gets ``304 Not Modified`` while the text is unchanged."""
        try:
            cls = game_class(game_id)
        except UnknownGameError:
            raise ApiError(404, "not_found", "no game has this id") from None
        page = await asyncio.to_thread(rules_page, cls)
        if page is None:
            raise ApiError(404, "not_found", f"no rules text for {cls.id!r}")
        headers = {
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
            "Cache-Control": f"public, max-age={RULES_MAX_AGE}",
            "ETag": '"' + hashlib.blake2b(page.encode(), digest_size=12).hexdigest() + '"',
        }
        if headers["ETag"] in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(page, media_type="text/html", headers=headers)

    # --- lobby ---------------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "rooms": len(hub.rooms)}

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return await asyncio.to_thread(catalog)

    @app.get("/api/errors")
    async def list_errors() -> dict[str, str]:
        return ERROR_CODES

    @app.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatch, request: Request) -> dict[str, Any]:
        address = request.client.host if request.client else "?"
        hub.allow_creation(address)
        await players.creating(body.game, body.rated)
        room, host_token = await hub.create(
            body.game, body.players, body.options, body.title, body.bots, body.turn_seconds, address, body.public,
            body.pace,
        )
        await players.created(room.data.id, body.rated)
        return {
            "id": room.data.id,
            "host_token": host_token,
            "match": room.match_info(),
            "join_url": str(request.url_for("match_page", match_id=room.data.id)),
        }

    @app.get("/api/matches")
    async def list_matches(status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        if status is not None and status not in STATUSES:
            raise ApiError(400, "bad_request", f"status must be one of {', '.join(STATUSES)}")
        limit = max(1, min(limit, 200))
        rows = await hub.db(hub.store.list_matches, status, limit)

        def public_ply(d: Any, moves: int) -> int | None:
            """The ply a spectator is shown: hidden steps (see ``Room``) are not counted."""
            room = hub.rooms.get(d.id)
            if room is not None:
                return room.shown(None)
            return moves if d.status in ("open", "finished") else None

        def in_memory(match_id: str) -> dict[str, Any] | None:
            room = hub.rooms.get(match_id)
            return room.result_json() if room is not None else None

        done = [d for d, _moves in rows if d.status == "finished" and d.id not in finished.known]
        if done:
            await asyncio.to_thread(finished.fill, done, in_memory, hub.store.load)
        names = {gid: cls.name for gid, cls in games().items()}
        return [
            {
                "id": d.id,
                "game": d.game_id,
                "game_name": names.get(d.game_id, d.game_id),
                "title": d.title,
                "status": d.status,
                "pace": d.pace,
                "pace_words": PACES[d.pace].words,
                "players": len(d.seats),
                "created_at": d.created_at,
                "updated_at": d.updated_at,
                "ply": public_ply(d, moves),
                "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in d.seats],
                "result": finished.known.get(d.id) if d.status == "finished" else None,
            }
            for d, moves in rows
        ]

    @app.get("/api/matches/{match_id}")
    async def get_match(match_id: str) -> dict[str, Any]:
        return (await hub.room(match_id)).match_info()

    @app.post("/api/matches/{match_id}/seats/{seat}/join")
    async def join(match_id: str, seat: int, body: JoinSeat, request: Request) -> dict[str, Any]:
        account, name = await players.joining(request, match_id, body.name)
        room, token = await hub.join(match_id, seat, name)
        await players.joined(match_id, seat, account)
        return {"seat": seat, "token": token, "match": room.match_info()}

    @app.post("/api/matches/{match_id}/seats/{seat}/bot")
    async def set_bot(
        match_id: str, seat: int, body: SetBot, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        room = await hub.set_bot(match_id, seat, body.bot, bearer(authorization))
        await players.seat_changed(room, seat)
        return room.match_info()

    @app.post("/api/matches/{match_id}/start")
    async def start(match_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        await players.starting(await hub.room(match_id))
        room = await hub.start(match_id, bearer(authorization))
        return room.match_info()

    # --- play ----------------------------------------------------------------------------

    async def seat_of(room: Room, authorization: str | None) -> int | None:
        token = bearer(authorization)
        if token is None:
            return None
        seat = room.seat_for_token(token)
        if seat is None:
            raise ApiError(403, "bad_token", "this token does not hold a seat in this match")
        room.seen(seat)  # its player is active, whatever the route (a claim of the win counts it)
        return seat

    @app.get("/api/matches/{match_id}/glossary")
    async def get_glossary(match_id: str) -> dict[str, Any]:
        """The match's cards, items, racers, ... in words (public: content is no secret, which card is
        drawn is): ``{id: {name, text, kind}}`` for the browser's names and tips."""
        return (await hub.room(match_id)).glossary()

    @app.get("/api/matches/{match_id}/state")
    async def get_state(match_id: str, authorization: str | None = Header(default=None)) -> Response:
        room = await hub.room(match_id)
        seat = await seat_of(room, authorization)
        return Response(room.message(seat), media_type="application/json")

    @app.post("/api/matches/{match_id}/actions")
    async def post_action(
        match_id: str, body: Act, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        room = await hub.room(match_id)
        seat = await seat_of(room, authorization)
        if seat is None:
            raise ApiError(
                401, "bad_token", "acting needs the seat's token ('Authorization: Bearer <token>')"
            )
        return await hub.act(room, seat, body.action, body.ply, body.id)

    async def player_seat(room: Room, authorization: str | None, what: str) -> int:
        seat = await seat_of(room, authorization)
        if seat is None:
            raise ApiError(401, "bad_token", f"{what} needs the seat's token ('Authorization: Bearer <token>')")
        return seat

    @app.post("/api/matches/{match_id}/undo")
    async def post_undo(match_id: str, body: Undo, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        room = await hub.room(match_id)
        seat = await player_seat(room, authorization, "undoing")
        return await hub.undo(room, seat, body.ply)

    @app.post("/api/matches/{match_id}/resign")
    async def post_resign(
        match_id: str, body: Resign, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        room = await hub.room(match_id)
        seat = await player_seat(room, authorization, "resigning")
        return (await hub.resign(room, seat)).match_info(seat)

    @app.post("/api/matches/{match_id}/claim")
    async def post_claim(
        match_id: str, body: Claim, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """A player who is there claims the win from the players away for ``claim_grace`` seconds."""
        room = await hub.room(match_id)
        seat = await player_seat(room, authorization, "claiming the win")
        away = await hub.claim(room, seat)
        return {"type": "claimed", "seats": away, "match": room.match_info(seat)}

    @app.post("/api/matches/{match_id}/rematch", status_code=201)
    async def post_rematch(
        match_id: str, body: Rematch, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """A seat's token (its player gets the same seat in the rematch) or the host's token."""
        room = await hub.room(match_id)
        token = bearer(authorization)
        seat = room.seat_for_token(token) if token else None
        if seat is None and not token_matches(token, room.data.host_hash):
            raise ApiError(403, "bad_token", "a rematch needs a seat's token or the host's token")
        if body.seat is not None and body.seat != seat:
            raise ApiError(403, "bad_token", f"this token does not hold {seat_label(body.seat)}")
        nxt, joined, seat_token = await hub.rematch(room, seat)
        await players.rematched(room.data.id, nxt.data.id, joined)
        return {"id": nxt.data.id, "seat": joined, "token": seat_token, "match": nxt.match_info(joined)}

    @app.post("/api/matches/{match_id}/chat/mute")
    async def post_mute(match_id: str, body: Mute, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """The host mutes (``muted: false``: unmutes) a spectator of the table chat, by the id it shows."""
        room = await hub.room(match_id)
        if not token_matches(bearer(authorization), room.data.host_hash):
            raise ApiError(403, "not_host", "only the match's creator (with its host token) may mute a spectator")
        await hub.chat.mute(room, body.viewer, body.muted)
        return {"viewer": body.viewer, "muted": body.muted}

    @app.get("/api/matches/{match_id}/record")
    async def get_record(match_id: str) -> Response:
        room = await hub.room(match_id)
        if room.data.status != "finished":
            raise ApiError(409, "not_finished", "the record holds hidden information until the match is over")
        return Response(
            json.dumps(room.record(), indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{room.data.game_id}-{match_id}.json"'},
        )

    @app.get("/api/matches/{match_id}/replay")
    async def get_replay(match_id: str, ply: int = 0, seat: int | None = None) -> dict[str, Any]:
        room = await hub.room(match_id)
        if room.data.status != "finished":
            raise ApiError(409, "not_finished", "a replay is available once the match is over")
        if seat is not None and seat not in room.game.seats:
            raise no_such_seat(seat, room.game.players)
        chat = await hub.chat.replay(room)
        answer = await asyncio.to_thread(replay_at, room, ply, seat)  # replaying takes milliseconds
        answer["chat"] = [line for line in chat if line["ply"] <= ply]
        return answer

    # --- live play -----------------------------------------------------------------------

    sockets: dict[str, int] = {}
    """Open WebSockets by client address (``sockets_per_address``)."""

    @app.websocket("/ws/matches/{match_id}")
    async def live(websocket: WebSocket, match_id: str) -> None:
        address = websocket.client.host if websocket.client else "?"
        await websocket.accept()
        if sockets.get(address, 0) >= limits.sockets_per_address:
            await _refuse(
                websocket,
                ApiError(429, "too_many", f"at most {limits.sockets_per_address} connections from one address"),
            )
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await _play(websocket, match_id)
        finally:
            if sockets[address] > 1:
                sockets[address] -= 1
            else:
                del sockets[address]

    async def _play(websocket: WebSocket, match_id: str) -> None:
        """One client's connection to a match: the hello, then its messages, read no faster than its
        rate (``MessageRate``); its outbox cuts the connection when it leaves too much unread."""
        try:
            hello = parse_message(await asyncio.wait_for(_receive_text(websocket), limits.hello_timeout), limits)
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise ApiError(
                    400, "bad_request", 'the first message must be {"type": "hello", "token": ...}'
                )
            room = await hub.room(match_id)
            token = hello.get("token")
            seat: int | None = None
            if token is not None:
                seat = room.seat_for_token(token) if isinstance(token, str) else None
                if seat is None:
                    raise ApiError(403, "bad_token", "this token does not hold a seat in this match")
            elif sum(1 for sub in room.subs if sub.seat is None) >= limits.spectators_per_match:
                raise ApiError(
                    429, "too_many", f"this race has {limits.spectators_per_match} spectators already; try later"
                )
        except (ApiError, TimeoutError, WebSocketDisconnect) as exc:
            err = exc if isinstance(exc, ApiError) else ApiError(400, "bad_request", "expected a hello message")
            await _refuse(websocket, err)
            return
        outbox = Outbox(limits.max_backlog, limits.max_backlog_chars)
        outbox.on_cut = _cutter(websocket)
        sub = Subscriber(seat, queue=outbox, text_board=hello.get("text_board") is True)
        if seat is None:
            sub.viewer = viewer_id(hello.get("viewer"))
        chat = await hub.chat.history(room)  # then no line is said before the socket is counted in
        room.subs.add(sub)  # first: the state below says whether this seat, now here, may claim the win
        sub.queue.put_nowait(room.log_message(seat))
        sub.queue.put_nowait(room.message(seat, text_board=sub.text_board))
        sub.queue.put_nowait(chat)
        sub.queue.put_nowait(presence.message(room))
        sub.claim_key = room.claim_key(seat)
        presence.tell(room)
        writer = asyncio.create_task(_writer(websocket, sub))
        rate = MessageRate(limits.messages_per_second, limits.message_burst)
        try:
            while not sub.queue.cut:
                cost = 1
                try:
                    text = await _receive_text(websocket)
                except ApiError as exc:
                    sub.queue.put_nowait(encode({"type": "error", "id": None, **exc.to_json()}))
                else:
                    reply, cost = await _handle(hub, room, sub, text, limits)
                    if reply is not None:
                        sub.queue.put_nowait(reply if isinstance(reply, str) else encode(reply))
                wait = rate.take(cost)
                if wait > 0:  # the client waits: its next messages stay unread in its own buffers
                    await asyncio.sleep(wait)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.leave(sub)
            presence.tell(room)
            writer.cancel()

    return app


def replay_at(room: Room, ply: int, seat: int | None) -> dict[str, Any]:
    """A finished match's position after ``ply`` actions from ``seat``'s view, with the log up to it
    (the states are replayed once per room and kept)."""
    states = room.states()
    if not 0 <= ply < len(states):
        raise ApiError(404, "not_found", f"ply must be from 0 to {len(states) - 1}")
    state = states[ply]
    payload = seat_payload(state, seat, live=False)
    action = state.actions[-1] if ply else None
    return {
        "match": room.match_info(),
        "seat": seat,
        "total": len(states) - 1,
        "action": action,
        "action_label": describe(room.game, action) if action is not None else None,
        "log": replay_log(states[1 : ply + 1], seat),
        "actor": actor_info(state),
        **payload,
        "result": room.result_json(state),
        "events": events_payload(state, seat),
    }


async def _receive_text(websocket: WebSocket) -> str:
    """The next text message; a binary one is a ``bad_request``, a closed socket ``WebSocketDisconnect``."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ApiError(400, "bad_request", "messages are JSON text, not binary")
    return str(text)


class MessageRate:
    """A socket's allowance of messages: ``burst`` at once, then ``rate`` a second (a token bucket that
    may run into debt: a message costing more than is left is handled, and the socket waits it off)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self, cost: int) -> float:
        """Spend ``cost`` messages; the seconds to wait before reading the next one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate) - cost
        self.at = now
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


async def _refuse(websocket: WebSocket, error: ApiError) -> None:
    """Tell a client why its socket is refused and close it with ``4000 + status`` (4429, 4403, ...)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(encode({"type": "error", **error.to_json()}))
        await websocket.close(code=4000 + error.status)


def _cutter(websocket: WebSocket) -> Callable[[], None]:
    """What cuts a client that left too much unread: the connection aborted at once (served by
    ``serve.run``, whose WebSocket protocol offers it), else nothing more than the outbox's own close,
    which waits for the writer."""
    abort = websocket.scope.get(CUT_KEY)
    return abort if callable(abort) else (lambda: None)


async def _writer(websocket: WebSocket, sub: Subscriber) -> None:
    """Send a client its messages in order; a slow client never holds up a room."""
    with contextlib.suppress(Exception):
        while True:
            text = await sub.queue.get()
            if text is None:
                await websocket.close()
                return
            await websocket.send_text(text)


def parse_message(text: str, limits: Limits) -> Any:
    """A client's WebSocket message as JSON: too long, too deeply nested or not JSON is a ``bad_request``."""
    if len(text) > limits.max_message:
        raise ApiError(400, "bad_request", f"messages are at most {limits.max_message} characters")
    if too_deep(text, limits.max_depth):
        raise ApiError(400, "bad_request", f"JSON is nested at most {limits.max_depth} deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_request", "the message is not valid JSON") from None


async def _handle(
    hub: Hub, room: Room, sub: Subscriber, text: str, limits: Limits
) -> tuple[dict[str, Any] | str | None, int]:
    """One client message: ``act``, ``undo``, ``claim``, ``chat``, ``text_board`` or ``ping``; a bad one gets an
    error message, never a disconnect, and no error repeats what the client sent. The reply and what
    the message costs against the socket's rate (``MESSAGE_COSTS``)."""
    seat = sub.seat
    msg_id = None
    cost = 1
    try:
        msg = parse_message(text, limits)
        if not isinstance(msg, dict):
            raise ApiError(400, "bad_request", "a message is a JSON object with a 'type'")
        given = msg.get("id")
        msg_id = given if isinstance(given, str) and 0 < len(given) <= 64 else None
        kind = msg.get("type")
        cost = MESSAGE_COSTS.get(kind, 1) if isinstance(kind, str) else 1
        if kind == "ping":
            return {"type": "pong"}, cost
        if kind == "text_board":
            on = msg.get("on")
            if not isinstance(on, bool):
                raise ApiError(400, "bad_request", "'on' must be true or false")
            sub.text_board = on
            return room.message(seat, text_board=on), cost
        if kind == "chat":
            await hub.chat.say(room, sub, msg)
            return None, cost
        if kind in ("act", "undo", "claim"):
            if seat is None:
                raise ApiError(401, "bad_token", "spectators cannot act; join a seat")
            ply = msg.get("ply")
            if isinstance(ply, int) and not -MAX_PLY <= ply <= MAX_PLY:
                raise ApiError(400, "bad_request", "'ply' must be the whole number of the position shown")
            if kind == "undo":
                return await hub.undo(room, seat, ply), cost
            if kind == "claim":
                return {"type": "claimed", "id": msg_id, "seats": await hub.claim(room, seat)}, cost
            return await hub.act(room, seat, msg.get("action"), ply, msg.get("id")), cost
        raise ApiError(400, "bad_request", f"unknown message type; {MESSAGE_TYPES}")
    except ApiError as exc:
        return {"type": "error", "id": msg_id, **exc.to_json()}, cost
