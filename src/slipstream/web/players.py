"""The HTTP side of accounts and ratings: sign up, log in and out, the player page and the leaderboard,
and what the lobby's calls (create, join, start, a seat given to a bot) do for accounts.

``Players`` is made by ``app.create_app`` beside the hub; ``add_routes`` adds its endpoints (listed in
docs/web.md with their limits).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from slipstream.engine.errors import UnknownGameError
from slipstream.engine.game import CHANCE
from slipstream.engine.registry import game_class, games

from .accounts import COOKIE, SESSION_DAYS, Account, Accounts
from .errors import ApiError
from .hub import Hub
from .limits import Limits
from .lobby import catalog
from .pace import PACES
from .ratings import TEAM_SETTING, Ratings, cooperative, off_loop
from .room import Room

STATIC = Path(__file__).parent / "static"
MY_RACES = 50
"""Seat tokens ``POST /api/races/mine`` takes at most (a browser's latest races)."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class SeatToken(BaseModel):
    model_config = ConfigDict(extra="forbid")

    match: str = Field(max_length=32)
    token: str = Field(max_length=64)


class MyRaces(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: list[SeatToken] = Field(default_factory=list, max_length=MY_RACES)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "?"


def your_turn(room: Room, seat: int) -> bool:
    """Whether the match waits for ``seat`` (its turn, or a choice open to it)."""
    if room.data.status != "running":
        return False
    actor = room.state.actor
    if actor is None or actor == CHANCE:
        return False
    if isinstance(actor, int):
        return actor == seat
    return seat in actor


def race_row(room: Room, seat: int) -> dict[str, Any]:
    """One of a player's races as the lobby and the player page list it: their turn or not, the pace and
    the time the seat has left to move (a turn-based race: hours or days; ``None``: no limit or not asked)."""
    d = room.data
    return {
        "id": d.id, "seat": seat, "status": d.status, "title": d.title, "game": d.game_id,
        "game_name": room.game.name, "updated_at": d.updated_at, "pace": d.pace, "pace_words": PACES[d.pace].words,
        "your_turn": your_turn(room, seat), "turn_left": room.turn_left().get(seat),
    }


def turn_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The races where it is the player's turn first (the least time left first), then the latest moved."""
    return sorted(rows, key=lambda r: (not r["your_turn"], r["turn_left"] or 0.0, -r["updated_at"]))


def game_name(game_id: str) -> str:
    try:
        return game_class(game_id).name
    except UnknownGameError:
        return game_id


class Players:
    """Accounts and ratings for one app (``hub``'s store, ``limits``)."""

    def __init__(self, hub: Hub, limits: Limits) -> None:
        self.hub = hub
        self.accounts = Accounts(hub.store, limits)
        self.ratings = Ratings(hub, self.accounts)

    async def account(self, request: Request) -> Account | None:
        """The account the request's session cookie is logged in as (``None``: a guest)."""
        cookie = request.cookies.get(COOKIE)
        if not cookie:
            return None
        return await self.hub.db(self.accounts.account_of, cookie)

    # --- what the lobby's calls do for accounts ------------------------------------------

    async def creating(self, game_id: str, rated: bool) -> None:
        if rated:
            self.ratings.check_rated_game(game_id)

    async def created(self, match_id: str, rated: bool) -> None:
        if rated:
            await self.hub.db(self.ratings.mark_rated, match_id)

    async def joining(self, request: Request, match_id: str, name: str) -> tuple[Account | None, str]:
        """Who joins and under which name: a logged-in player as their account, a guest as the name
        they typed. An account holds one seat of a race: the device that joins more (hot-seat) joins
        the others as guests, under the names typed for them. A rated race takes accounts only, one
        seat each."""
        account = await self.account(request)
        rated = await self.hub.db(self.ratings.is_rated, match_id)
        if account is None:
            if rated:
                raise ApiError(401, "account_needed", "a rated race takes players with accounts: log in first")
            return None, await self.guest_name(name)
        if await self.hub.db(self.accounts.holds_seat, match_id, account):
            if rated:
                raise ApiError(409, "one_seat", "an account holds one seat of a match")
            return None, await self.guest_name(name)
        return account, account.name

    async def guest_name(self, name: str) -> str:
        """A guest plays under the name typed, unless an account holds it (in any case): a guest may not
        pass for a player with an account."""
        if await self.hub.db(self.accounts.find, name.strip()) is not None:
            raise ApiError(409, "name_taken", "this name belongs to an account: log in as it, or pick another")
        return name

    async def joined(self, match_id: str, seat: int, account: Account | None) -> None:
        if account is not None:
            await self.hub.db(self.accounts.tie, match_id, seat, account)

    async def starting(self, room: Room) -> None:
        if await self.hub.db(self.ratings.is_rated, room.data.id):
            tied = await self.hub.db(self.accounts.seats_of_match, room.data.id)
            self.ratings.check_start(room, tied)

    async def rematched(self, match_id: str, rematch_id: str, seat: int | None) -> None:
        """A seat's player took their seat of the rematch (their seat's token proved who they are): an
        account's seat is the account's again. A rematch is never rated (it starts by itself once its
        players are back, before every seat could be checked)."""
        if seat is None:
            return
        tied = await self.hub.db(self.accounts.seats_of_match, match_id)
        if seat in tied and seat not in await self.hub.db(self.accounts.seats_of_match, rematch_id):
            with contextlib.suppress(ApiError):  # asked twice at once: the first tie stands
                await self.hub.db(self.accounts.tie, rematch_id, seat, tied[seat])

    async def seat_changed(self, room: Room, seat: int) -> None:
        """The host emptied a seat or gave it to a bot: before the start, the seat is no longer its
        account's (once the race runs, a player's seat handed to a bot still counts as theirs)."""
        if room.data.status == "open":
            await self.hub.db(self.accounts.untie, room.data.id, seat)

    # --- the player page -----------------------------------------------------------------

    async def player(self, name: str, viewer: Account | None) -> dict[str, Any]:
        account = await self.hub.db(self.accounts.find, name)
        if account is None:
            raise ApiError(404, "not_found", "no player has this name")
        owner = viewer is not None and viewer.key == account.key
        page = await off_loop(self.hub, self.ratings.player_rows, account, owner)
        for rating in page["ratings"]:
            rating["game_name"] = game_name(rating["game"])
        for row in page["finished"]:
            row["game_name"] = game_name(row["game"])
        if page["team_results"]:
            settings = await asyncio.to_thread(
                lambda: [self._setting(r["game"], r["scenario"], r["difficulty"]) for r in page["team_results"]]
            )
            for row, words in zip(page["team_results"], settings, strict=True):
                row.update(words)
        active = []
        rooms = await self.rooms_of([row["id"] for row in page["active"]])
        for row in page["active"]:
            room = rooms.get(row["id"])
            row.update(race_row(room, row["seat"]) if room is not None else {
                "game_name": game_name(row["game"]), "your_turn": False, "turn_left": None, "pace": "live",
                "pace_words": PACES["live"].words,
            })
            active.append(row)
        page["active"] = turn_first(active)
        return {"name": account.name, "you": owner, **page}

    async def mine(self, body: MyRaces, viewer: Account | None) -> list[dict[str, Any]]:
        """The open and running races of the seats whose tokens this browser holds, and of the account
        logged in (``viewer``): the lobby's "Your races", your turn first. A token that holds no seat is
        left out (it says nothing of the race)."""
        rows: dict[tuple[str, int], dict[str, Any]] = {}
        rooms = await self.rooms_of([held.match for held in body.seats])
        for held in body.seats:
            room = rooms.get(held.match)
            seat = room.seat_for_token(held.token) if room is not None else None
            if room is not None and seat is not None and room.data.status in ("open", "running"):
                room.seen(seat)
                rows[(room.data.id, seat)] = race_row(room, seat)
        if viewer is not None:
            page = await off_loop(self.hub, self.ratings.player_rows, viewer, True)
            rooms = await self.rooms_of([row["id"] for row in page["active"]])
            for row in page["active"]:
                room = rooms.get(row["id"])
                if room is not None:
                    rows.setdefault((row["id"], row["seat"]), race_row(room, row["seat"]))
        return turn_first(list(rows.values()))

    async def rooms_of(self, match_ids: list[str]) -> dict[str, Room]:
        """The rooms of these matches, by id: those in memory, and those the database holds open or
        running that this process does not (another server process on the same database holds them, or
        they began before a restart), loaded from it (``Hub.room``). A finished match not in memory is
        not loaded (it has no row here), nor is an id the database does not know."""
        rooms = {match_id: room for match_id in match_ids if (room := self.hub.rooms.get(match_id)) is not None}
        missing = sorted({match_id for match_id in match_ids if match_id not in rooms})
        for match_id in await self.hub.db(self.hub.store.active_among, missing):
            with contextlib.suppress(ApiError):  # gone meanwhile, or it cannot be loaded: no row
                rooms[match_id] = await self.hub.room(match_id)
        return rooms

    @staticmethod
    def _setting(game_id: str, scenario: str, difficulty: str) -> dict[str, str]:
        """A cooperative result's scenario and difficulty in the words the lobby offers them."""
        entry = next((g for g in catalog() if g["id"] == game_id), None)
        options = {o["name"]: o for o in entry["options"]} if entry else {}
        words = {"game_name": game_name(game_id)}
        for option, value in zip(TEAM_SETTING, (scenario, difficulty), strict=True):
            labels = options.get(option, {}).get("choice_labels") or {}
            words[f"{option}_name"] = labels.get(value) or value.replace("-", " ").capitalize()
        return words


def set_cookie(response: Response, request: Request, value: str) -> None:
    response.set_cookie(
        COOKIE, value, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
        secure=request.url.scheme == "https", path="/",
    )


def add_routes(app: FastAPI, players: Players) -> None:
    """The account, player page and leaderboard endpoints (docs/web.md, "Accounts and ratings")."""
    hub = players.hub
    accounts = players.accounts

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        return FileResponse(STATIC / "player.html")

    @app.get("/leaderboard/", include_in_schema=False)
    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    async def leaderboard_page(game_id: str = "") -> FileResponse:
        return FileResponse(STATIC / "leaderboard.html")

    @app.post("/api/accounts", status_code=201)
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """A new account, logged in at once (the session cookie is set)."""
        accounts.signups.take(address_of(request))
        account, cookie = await asyncio.to_thread(accounts.sign_up, body.name, body.password)
        set_cookie(response, request, cookie)
        return {"name": account.name}

    @app.post("/api/session")
    async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        accounts.per_address.take(address_of(request))
        accounts.per_name.take(body.name.casefold())
        account, cookie = await asyncio.to_thread(accounts.log_in, body.name, body.password)
        set_cookie(response, request, cookie)
        return {"name": account.name}

    @app.get("/api/session")
    async def who_am_i(request: Request) -> dict[str, Any]:
        account = await players.account(request)
        return {"name": account.name if account else None}

    @app.delete("/api/session")
    async def log_out(request: Request, response: Response) -> dict[str, Any]:
        await hub.db(accounts.log_out, request.cookies.get(COOKIE))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")
        return {"name": None}

    @app.post("/api/matches/{match_id}/seats/{seat}/resume")
    async def resume(match_id: str, seat: int, request: Request) -> dict[str, Any]:
        """A logged-in player takes their seat to this device: a new token for it (the old one, on the
        other device, stops working and its sockets are told and closed)."""
        account = await players.account(request)
        if account is None:
            raise ApiError(401, "account_needed", "log in to play your seat on this device")
        tied = await hub.db(accounts.seats_of_match, match_id)
        if seat not in tied or tied[seat].key != account.key:
            raise ApiError(403, "bad_token", "this seat is not your account's")
        room = await hub.room(match_id)
        if room.data.status not in ("open", "running"):
            raise ApiError(409, "not_running", "the race is over: its page shows the result to everyone")
        token = await hub.new_token(room, seat)
        return {"seat": seat, "token": token, "match": room.match_info(seat)}

    @app.get("/api/matches/{match_id}/accounts")
    async def match_accounts(match_id: str) -> dict[str, Any]:
        """Which seats of a race are players' accounts (by name), and whether it is rated (public: the
        seat list shows the names anyway)."""
        tied = await hub.db(accounts.seats_of_match, match_id)
        rated = await hub.db(players.ratings.is_rated, match_id)
        return {"rated": rated, "seats": {str(seat): account.name for seat, account in sorted(tied.items())}}

    @app.get("/api/players/{name}")
    async def player(name: str, request: Request) -> dict[str, Any]:
        """A player's page: ratings, finished matches and team results for anyone; their open and
        running matches (their turn first) and links to unlisted matches for the player alone."""
        return await players.player(name, await players.account(request))

    @app.post("/api/races/mine")
    async def my_races(body: MyRaces, request: Request) -> list[dict[str, Any]]:
        """The lobby's "Your races": the races of the seat tokens sent and of the account logged in."""
        return await players.mine(body, await players.account(request))

    @app.get("/api/leaderboard/{game_id}")
    async def leaderboard(game_id: str) -> dict[str, Any]:
        if game_id not in games():
            raise ApiError(404, "not_found", "no game has this id")
        if cooperative(game_id):
            raise ApiError(404, "not_found", f"{game_name(game_id)} is cooperative: no ratings; each player's page "
                           "shows the team's results by scenario and difficulty")
        rows = await off_loop(hub, players.ratings.leaderboard, game_id)
        return {"game": game_id, "game_name": game_name(game_id), "rows": rows}
