"""The database's tables, as SQLAlchemy declares them: matches, their seats and the append-only list
of moves, and what the server keeps beside them (chance keys, revisions, rematches, timers, paces,
listings, presence, chat). ``storage.Store`` reads and writes them; ``accounts`` and ``ratings`` add
their own tables to the same ``Base``.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    title: Mapped[str] = mapped_column(String(120))
    host_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)


class ChanceKeyRow(Base):
    """The secret each live match draws its chance outcomes from: never served, never in a record.

    A table of its own, so a database made before it existed gains it by ``create_all``."""

    __tablename__ = "chance_keys"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64))


class RematchRow(Base):
    """A finished match's rematch: the match its seats are invited to next (one per match).

    A table of its own, so a database made before it existed gains it by ``create_all``."""

    __tablename__ = "rematches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    next_id: Mapped[str] = mapped_column(String(32))


class TurnTimerRow(Base):
    """A match's turn timer: seconds a player has for each decision (no row: no timer).

    A table of its own, so a database made before it existed gains it by ``create_all``."""

    __tablename__ = "turn_timers"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seconds: Mapped[int] = mapped_column(Integer)


class PaceRow(Base):
    """A turn-based match's pace (``web/pace.py``: ``1-day`` ...; no row: live). Its move limit is also
    its turn timer (``TurnTimerRow``), so the timer needs no other look.

    A table of its own, so a database made before it existed gains it by ``create_all``."""

    __tablename__ = "paces"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    pace: Mapped[str] = mapped_column(String(16))


class RevisionRow(Base):
    """A match's revision: how many times something other than a new move changed it (an undo, a seat,
    its status). Every write a server process makes is conditional on the revision it last read, so a
    process that has not caught up with another one's change writes nothing (``Stale``) and catches up.

    A table of its own, so a database made before it existed gains it by ``create_all`` (a match stored
    before it gets its row when it is loaded: ``Store.ensure_revision``)."""

    __tablename__ = "revisions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    rev: Mapped[int] = mapped_column(Integer)


class ListingRow(Base):
    """A match its host lists publicly (``GET /api/matches``); a match without a row is reached only by
    its link. A table of its own, so a database made before it existed gains it by ``create_all``."""

    __tablename__ = "listings"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)


class PresenceRow(Base):
    """When a server process last saw a seat's player (an open socket, a request): with several processes
    on one database, a claim of the win made in one counts the players another one sees. ``by`` is the
    process that wrote the row (a process reads only the others' rows)."""

    __tablename__ = "presence"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    by: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """A line of a match's table chat (``web/chat.py``), stored before anyone is told of it: a player's or
    a spectator's message, or the server's note of a resignation or a claim (``kind`` ``note``, shown in
    the log). ``ply``: the match's real ply when it was said (the replay shows it there)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    viewer: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    ply: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    shown: Mapped[str | None] = mapped_column(Text, nullable=True)
    """A note's place in each seat's log: ``[[seat or null, ply as that seat was shown it], ...]`` (JSON)."""


class MuteRow(Base):
    """A spectator (its ``viewer`` id) the host muted in a match's table chat."""

    __tablename__ = "chat_mutes"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    viewer: Mapped[str] = mapped_column(String(16), primary_key=True)


class SeatHoldRow(Base):
    """A rematch's seat held for the player of that seat in the race before (``web/invites.py``) until
    ``until`` (``clock.now()``): no stranger joins it and no bot is put in it meanwhile."""

    __tablename__ = "seat_holds"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    until: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(60))
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MoveRow(Base):
    __tablename__ = "moves"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(200))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    at: Mapped[float] = mapped_column(Float)
