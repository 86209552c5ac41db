"""Results and ratings of the players with accounts: the player page, the leaderboard per game.

- **Results.** When a match with seats tied to accounts (``accounts.SeatAccountRow``) finishes, each
  such seat's place (as the server reports it: a resigned seat last) is recorded once
  (``AccountResultRow``); a cooperative game's seats record the team's win or loss with the scenario and
  difficulty they played (``team_results``).
- **Ratings.** A race created ``rated`` (``RatedMatchRow``; never a cooperative game) whose every
  player's seat is an account's is rated per game with openskill's Weng-Lin model (Plackett-Luce, fit
  for races of 2-6): a rating is ``mu`` and its uncertainty ``sigma``, shown as ``mu ± 2 sigma`` and
  ranked by the cautious ``mu - 2 sigma``. A bot's seat takes part as an anchor: it has the model's
  starting rating and is never changed, so the accounts' ratings move and the bots' stay put.
- **Exactly once.** A finished match is settled in one transaction that first inserts its row in
  ``SettledRow`` (the match id is the key): a second try, by this process after a restart or by
  another process on the same database, fails on that row and changes nothing. Each process looks for
  finished matches not settled yet every ``SETTLE_EVERY`` seconds, so a match that finished while a
  process was down is settled when one starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from openskill.models import PlackettLuce
from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from slipstream.engine.errors import UnknownGameError
from slipstream.engine.registry import game_class

from .accounts import Account, AccountRow, Accounts, SeatAccountRow
from .errors import ApiError
from .hub import Hub
from .room import Room
from .tables import Base, ListingRow, MatchRow

log = logging.getLogger("slipstream.web")
T = TypeVar("T")
SETTLE_EVERY = 1.0
"""Seconds between a process's looks for finished matches whose results are not recorded yet."""
SPREAD = 2.0
"""A rating is shown as ``mu ± SPREAD * sigma`` and ranked by ``mu - SPREAD * sigma``."""
TEAM_SETTING = ("scenario", "difficulty")
"""The options a cooperative result is recorded by (those the game has)."""
PAGE_ROWS = 50
"""Finished matches a player page lists (the latest), and rows of a leaderboard (twice as many)."""


class RatedMatchRow(Base):
    """A match created rated: its result changes the ratings of its accounts."""

    __tablename__ = "rated_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)


class SettledRow(Base):
    """A finished match whose results (and ratings) are recorded: its key makes that happen once."""

    __tablename__ = "settled_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class AccountResultRow(Base):
    """An account's seat in a finished match: its place (1 first; a team result: every seat 1, ``won``
    for all or none), and for a rated race its rating before and after."""

    __tablename__ = "account_results"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_key: Mapped[str] = mapped_column(ForeignKey("accounts.key"), index=True)
    game_id: Mapped[str] = mapped_column(String(64))
    place: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    team: Mapped[bool] = mapped_column(Boolean)
    won: Mapped[bool] = mapped_column(Boolean)
    scenario: Mapped[str] = mapped_column(String(64))
    difficulty: Mapped[str] = mapped_column(String(64))
    finished_at: Mapped[float] = mapped_column(Float)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)


class RatingRow(Base):
    """An account's rating in one game."""

    __tablename__ = "ratings"

    account_key: Mapped[str] = mapped_column(ForeignKey("accounts.key"), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


TABLES = [Base.metadata.tables[row.__tablename__] for row in (RatedMatchRow, SettledRow, AccountResultRow, RatingRow)]


@dataclass(frozen=True)
class Finish:
    """What settling a match needs, read from the match in memory: its game, options, seats' places."""

    match_id: str
    game_id: str
    options: dict[str, Any]
    places: dict[int, int]
    """Each seat's place (1 first)."""
    team: bool
    won: bool


def finish_of(room: Room) -> Finish | None:
    """A finished match's places as the server reports them (resigned seats last), or ``None``."""
    result = room.result_json()
    if room.data.status != "finished" or result is None:
        return None
    order = [int(s) for s in result.get("order", [])]
    team = bool(result.get("team"))
    places = {seat: 1 if team else index + 1 for index, seat in enumerate(order)}
    return Finish(room.data.id, room.data.game_id, dict(room.data.options), places, team, bool(result.get("winners")))


async def off_loop(hub: Hub, fn: Callable[..., T], *args: Any) -> T:
    """A storage call that may take milliseconds (a page's reads, settling a match) off the event loop
    even on SQLite (``Hub.db`` runs SQLite calls on the loop: right for a move's small commit, not for
    these): in a thread for SQLite, on the hub's database threads for PostgreSQL."""
    if hub.store.is_sqlite:
        return await asyncio.to_thread(fn, *args)
    return await hub.db(fn, *args)


def cooperative(game_id: str) -> bool:
    try:
        return bool(game_class(game_id).cooperative)
    except UnknownGameError:
        return False


def shown(mu: float, sigma: float) -> dict[str, float]:
    """A rating as the pages show it: ``mu ± spread`` and the cautious value it is ranked by."""
    return {"mu": round(mu, 2), "sigma": round(sigma, 2), "spread": round(SPREAD * sigma, 2),
            "low": round(mu - SPREAD * sigma, 2)}


class Ratings:
    """Settles finished matches of accounts and answers the player page and the leaderboard."""

    def __init__(self, hub: Hub, accounts: Accounts) -> None:
        self.hub = hub
        self.accounts = accounts
        self.model = PlackettLuce()
        Base.metadata.create_all(hub.store.engine, tables=TABLES)
        self._task: asyncio.Task[None] | None = None
        self.failed: set[str] = set()
        """Matches whose results could not be recorded (logged once; tried again after a restart)."""

    @property
    def engine(self) -> Any:
        return self.hub.store.engine

    # --- rated races ---------------------------------------------------------------------

    def check_rated_game(self, game_id: str) -> None:
        if cooperative(game_id):
            raise ApiError(400, "bad_request", "a cooperative game is not rated (its team results are kept)")

    def mark_rated(self, match_id: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(RatedMatchRow(match_id=match_id))

    def is_rated(self, match_id: str) -> bool:
        return self.hub.store.first_row("SELECT 1 FROM rated_matches WHERE match_id = {p}", (match_id,)) is not None

    def check_start(self, room: Room, tied: dict[int, Account]) -> None:
        """A rated race starts only when every player's seat is an account's."""
        guests = [s.seat for s in room.data.seats if s.kind == "human" and s.seat not in tied]
        if guests:
            seats = ", ".join(str(s + 1) for s in guests)
            raise ApiError(
                409, "account_needed", f"a rated race needs an account in every player's seat (seat {seats})"
            )

    # --- settling ------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.settle_pending()
            await asyncio.sleep(SETTLE_EVERY)

    def pending(self) -> list[str]:
        """Finished matches with seats of accounts whose results are not recorded yet."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeatAccountRow.match_id)
                .join(MatchRow, MatchRow.id == SeatAccountRow.match_id)
                .outerjoin(SettledRow, SettledRow.match_id == SeatAccountRow.match_id)
                .where(MatchRow.status == "finished", SettledRow.match_id.is_(None),
                       SeatAccountRow.match_id.not_in(sorted(self.failed)))
                .distinct()
                .limit(100)
            ).all()
        return [row[0] for row in rows]

    async def settle_pending(self) -> int:
        """Settle every finished match not settled yet; how many this process settled."""
        done = 0
        for match_id in await off_loop(self.hub, self.pending):
            try:
                room = await self.hub.room(match_id)
                finish = finish_of(room)
                if finish is not None and await off_loop(self.hub, self.settle, finish):
                    done += 1
            except Exception:
                self.failed.add(match_id)
                log.exception("match %s: its results could not be recorded", match_id)
        return done

    def settle(self, finish: Finish, now: float | None = None) -> bool:
        """Record a finished match's results and update its ratings, in one transaction, once: whether
        this call did it (``False``: it was done before, here or by another process)."""
        now = time.time() if now is None else now
        try:
            with Session(self.engine) as session, session.begin():
                session.add(SettledRow(match_id=finish.match_id, at=now))
                session.flush()  # the match's key first: a second settling fails here, before any change
                tied = {
                    int(seat): key
                    for seat, key in session.execute(
                        select(SeatAccountRow.seat, SeatAccountRow.account_key).where(
                            SeatAccountRow.match_id == finish.match_id
                        )
                    ).all()
                }
                rated = (
                    session.get(RatedMatchRow, finish.match_id) is not None
                    and not finish.team
                    and len(finish.places) >= 2
                )
                changes = self._rate(session, finish, tied, now) if rated else {}
                for seat, key in tied.items():
                    if seat not in finish.places:
                        continue
                    before, after = changes.get(seat, (None, None))
                    session.add(
                        AccountResultRow(
                            match_id=finish.match_id, seat=seat, account_key=key, game_id=finish.game_id,
                            place=finish.places[seat], players=len(finish.places), team=finish.team,
                            won=finish.won if finish.team else finish.places[seat] == 1,
                            scenario=str(finish.options.get(TEAM_SETTING[0], "")),
                            difficulty=str(finish.options.get(TEAM_SETTING[1], "")),
                            finished_at=now,
                            mu_before=before[0] if before else None, sigma_before=before[1] if before else None,
                            mu_after=after[0] if after else None, sigma_after=after[1] if after else None,
                        )
                    )
        except IntegrityError:
            return False
        return True

    def _rate(
        self, session: Session, finish: Finish, tied: dict[int, str], now: float
    ) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
        """New ratings for the accounts of a rated race (bots' seats as fixed anchors): each account
        seat's (mu, sigma) before and after. The rating rows are read locked (PostgreSQL), so two
        matches of one player settled at once in two processes update one after the other."""
        keys = sorted(set(tied.values()))
        rows = {
            row.account_key: row
            for row in session.scalars(
                select(RatingRow)
                .where(RatingRow.account_key.in_(keys), RatingRow.game_id == finish.game_id)
                .with_for_update()
            )
        }
        seats = sorted(finish.places)
        teams = []
        for seat in seats:
            row = rows.get(tied[seat]) if seat in tied else None
            teams.append([self.model.rating(mu=row.mu, sigma=row.sigma) if row else self.model.rating()])
        rated = self.model.rate(teams, ranks=[float(finish.places[seat]) for seat in seats])
        out = {}
        for seat, before, after in zip(seats, teams, rated, strict=True):
            if seat not in tied:
                continue  # a bot's seat: an anchor, never changed
            key = tied[seat]
            old = (before[0].mu, before[0].sigma)
            new = (after[0].mu, after[0].sigma)
            out[seat] = (old, new)
            row = rows.get(key)
            if row is None:
                session.add(RatingRow(account_key=key, game_id=finish.game_id, mu=new[0], sigma=new[1], matches=1,
                                      updated_at=now))
            else:
                row.mu, row.sigma, row.matches, row.updated_at = new[0], new[1], row.matches + 1, now
        return out

    # --- pages ---------------------------------------------------------------------------

    def leaderboard(self, game_id: str) -> list[dict[str, Any]]:
        """A game's rated accounts, best cautious rating first."""
        low = RatingRow.mu - SPREAD * RatingRow.sigma
        with Session(self.engine) as session:
            rows = session.execute(
                select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.matches)
                .join(AccountRow, AccountRow.key == RatingRow.account_key)
                .where(RatingRow.game_id == game_id)
                .order_by(low.desc(), AccountRow.key)
                .limit(2 * PAGE_ROWS)
            ).all()
        return [
            {"place": index + 1, "name": name, "matches": int(matches), **shown(mu, sigma)}
            for index, (name, mu, sigma, matches) in enumerate(rows)
        ]

    def player_rows(self, account: Account, owner: bool) -> dict[str, Any]:
        """What the player page shows from the database: ratings, finished matches (the latest), team
        results and, for the player themselves, their open and running matches' seats."""
        with Session(self.engine) as session:
            ratings = session.execute(
                select(RatingRow.game_id, RatingRow.mu, RatingRow.sigma, RatingRow.matches)
                .where(RatingRow.account_key == account.key)
                .order_by(RatingRow.game_id)
            ).all()
            finished = session.execute(
                select(AccountResultRow, MatchRow.title, ListingRow.match_id)
                .join(MatchRow, MatchRow.id == AccountResultRow.match_id)
                .outerjoin(ListingRow, ListingRow.match_id == AccountResultRow.match_id)
                .where(AccountResultRow.account_key == account.key)
                .order_by(AccountResultRow.finished_at.desc())
                .limit(PAGE_ROWS)
            ).all()
            team = session.scalars(
                select(AccountResultRow).where(AccountResultRow.account_key == account.key, AccountResultRow.team)
            ).all()
            active: Sequence[Any] = []
            if owner:
                active = session.execute(
                    select(SeatAccountRow.match_id, SeatAccountRow.seat, MatchRow.status, MatchRow.title,
                           MatchRow.game_id, MatchRow.updated_at)
                    .join(MatchRow, MatchRow.id == SeatAccountRow.match_id)
                    .where(SeatAccountRow.account_key == account.key, MatchRow.status.in_(("open", "running")))
                    .order_by(MatchRow.updated_at.desc())
                    .limit(PAGE_ROWS)
                ).all()
        teams: dict[tuple[str, str, str], dict[str, Any]] = {}
        for row in team:
            entry = teams.setdefault(
                (row.game_id, row.scenario, row.difficulty),
                {"game": row.game_id, "scenario": row.scenario, "difficulty": row.difficulty, "won": 0, "lost": 0},
            )
            entry["won" if row.won else "lost"] += 1
        return {
            "ratings": [
                {"game": game_id, "matches": int(matches), **shown(mu, sigma)}
                for game_id, mu, sigma, matches in ratings
            ],
            "finished": [
                {
                    "id": row.match_id if owner or listed else None,
                    "game": row.game_id,
                    "title": title,
                    "place": row.place,
                    "players": row.players,
                    "team": row.team,
                    "won": row.won,
                    "at": row.finished_at,
                    "rated": row.mu_after is not None,
                    "change": None if row.mu_after is None or row.mu_before is None
                    else round(row.mu_after - row.mu_before, 2),
                }
                for row, title, listed in finished
            ],
            "team_results": sorted(teams.values(), key=lambda t: (t["game"], t["scenario"], t["difficulty"])),
            "active": [
                {"id": match_id, "seat": int(seat), "status": status, "title": title, "game": game_id,
                 "updated_at": updated_at}
                for match_id, seat, status, title, game_id, updated_at in active
            ],
        }
