"""Accounts beside guests: a name and a password (hashed with argon2), a signed session cookie, and
the seats an account holds.

Guests play exactly as before (a name typed per match, a seat token in the browser). A player who
signs up or logs in gets a session cookie; joining a seat with it ties the seat to the account
(``SeatAccountRow``), so the seat shows the account's name, its results go to the player page and a
rated race can rate it (``ratings.py``).

- Passwords: argon2id through argon2-cffi; only the hash is stored, nothing logs the password.
- The session cookie holds a random session id signed with the server's session secret
  (itsdangerous); the database keeps only the id's hash (``SessionRow``), so logging out ends the
  session on every server process. The secret is ``$SLIPSTREAM_SESSION_SECRET`` or, without it, one
  made once and kept in the database (``ServerKeyRow``), shared by every process on that database.
- The cookie is HttpOnly, SameSite=Lax, and Secure when the page was served over https.
- Logging in is limited per name and per address (``Limits.logins_per_minute_per_name`` and
  ``..._per_address``); a wrong name and a wrong password get the same answer (status, code, text) and
  cost about the same time (an unknown name is checked against a dummy hash).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, TimestampSigner
from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .errors import ApiError
from .limits import Limits
from .storage import Store
from .tables import Base

COOKIE = "slipstream_session"
SESSION_DAYS = 30
SESSION_SECRET_ENV = "SLIPSTREAM_SESSION_SECRET"
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{3,24}")
NAME_RULE = "a name is 3 to 24 letters (a-z, A-Z), digits, '_' or '-'"
PASSWORD_LENGTH = (8, 200)
BAD_LOGIN = ApiError(401, "bad_login", "wrong name or password")
"""The one answer to a wrong name and to a wrong password."""


class AccountRow(Base):
    """An account: ``key`` is the name case-folded (one "Ann" and no "ann" beside it)."""

    __tablename__ = "accounts"

    key: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A logged-in browser: the hash of its session id (the cookie holds the id, signed)."""

    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_key: Mapped[str] = mapped_column(ForeignKey("accounts.key"), index=True)
    created_at: Mapped[float] = mapped_column(Float)


class ServerKeyRow(Base):
    """A secret of the server made once and shared by every process on the database (``session``)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class SeatAccountRow(Base):
    """A seat joined by a logged-in player: the seat belongs to that account (one seat per account and
    match). The tie is undone when the host empties the seat, or gives it to a bot, before the start."""

    __tablename__ = "seat_accounts"
    __table_args__ = (UniqueConstraint("match_id", "account_key"),)

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_key: Mapped[str] = mapped_column(ForeignKey("accounts.key"), index=True)


TABLES = [Base.metadata.tables[row.__tablename__] for row in (AccountRow, SessionRow, ServerKeyRow, SeatAccountRow)]


@dataclass(frozen=True)
class Account:
    key: str
    name: str


def check_name(name: str) -> str:
    """A valid account name as given, else ``bad_name`` (the name is not repeated back)."""
    if not isinstance(name, str) or NAME_PATTERN.fullmatch(name) is None:
        raise ApiError(400, "bad_name", NAME_RULE)
    return name


def name_key(name: str) -> str:
    return name.casefold()


def check_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise ApiError(400, "bad_password", f"a password is {low} to {high} characters")
    return password


def session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class Attempts:
    """Login attempts per key (a name or an address): ``per_minute`` in any minute, as a token bucket
    (a burst of as many, refilled evenly); past it a 429 ``too_many`` that says when to try again."""

    def __init__(self, per_minute: int, what: str) -> None:
        self.per_minute = per_minute
        self.what = what
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float | None = None) -> None:
        rate = float(self.per_minute)
        now = time.monotonic() if now is None else now
        tokens, last = self.buckets.get(key, (rate, now))
        tokens = min(rate, tokens + (now - last) * rate / 60.0)
        if tokens < 1.0:
            wait = (1.0 - tokens) * 60.0 / rate
            raise ApiError(
                429, "too_many", f"at most {self.per_minute} logins a minute {self.what}; try again in {wait:.0f} s"
            )
        self.buckets[key] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:  # forget the keys whose bucket is full again
            full = [k for k, (t, at) in self.buckets.items() if t + (now - at) * rate / 60.0 >= rate]
            for k in full:
                del self.buckets[k]


class Accounts:
    """The accounts, sessions and seat ties of one server process (its methods are synchronous: the app
    runs them through ``Hub.db``; hashing runs in a worker thread)."""

    def __init__(self, store: Store, limits: Limits, secret: str | None = None) -> None:
        self.store = store
        self.limits = limits
        Base.metadata.create_all(store.engine, tables=TABLES)
        self.hasher = PasswordHasher()
        self.dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        """Checked against when the name is unknown, so that answer takes as long as a wrong password."""
        secret = secret or os.environ.get(SESSION_SECRET_ENV) or self._stored_secret()
        self.signer = TimestampSigner(secret, salt="slipstream.session")
        self.per_name = Attempts(limits.logins_per_minute_per_name, "for one name")
        self.per_address = Attempts(limits.logins_per_minute_per_address, "from one address")
        self.signups = Attempts(limits.signups_per_minute_per_address, "from one address")
        self.signups.what = "from one address (sign-ups)"

    def _stored_secret(self) -> str:
        """The database's session secret, made by whichever process asks first."""
        try:
            with Session(self.store.engine) as session, session.begin():
                if session.get(ServerKeyRow, "session") is None:
                    session.add(ServerKeyRow(name="session", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first
        with Session(self.store.engine) as session:
            row = session.get(ServerKeyRow, "session")
            if row is None:
                raise RuntimeError("the session secret could not be stored")
            return row.value

    # --- accounts and sessions -----------------------------------------------------------

    def sign_up(self, name: str, password: str) -> tuple[Account, str]:
        """A new account and a session for it (the cookie's value); ``name_taken`` if the name (in any
        case) has an account."""
        check_name(name)
        check_password(password)
        digest = self.hasher.hash(password)
        try:
            with Session(self.store.engine) as session, session.begin():
                session.add(AccountRow(key=name_key(name), name=name, password_hash=digest, created_at=time.time()))
        except IntegrityError:
            raise ApiError(409, "name_taken", "this name has an account already; log in, or pick another") from None
        account = Account(name_key(name), name)
        return account, self.new_session(account)

    def log_in(self, name: str, password: str) -> tuple[Account, str]:
        """The account and a new session, or ``BAD_LOGIN`` for a wrong name or password alike."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_LENGTH[1]:
            raise BAD_LOGIN
        with Session(self.store.engine) as session:
            row = session.get(AccountRow, name_key(name)) if NAME_PATTERN.fullmatch(name) else None
            found = (row.key, row.name, row.password_hash) if row is not None else None
        try:
            self.hasher.verify(found[2] if found else self.dummy_hash, password)
        except (VerificationError, InvalidHashError):
            raise BAD_LOGIN from None
        if found is None:
            raise BAD_LOGIN
        account = Account(found[0], found[1])
        if self.hasher.check_needs_rehash(found[2]):  # the hasher's costs went up since: keep the new hash
            self._store_hash(account, self.hasher.hash(password))
        return account, self.new_session(account)

    def _store_hash(self, account: Account, digest: str) -> None:
        with Session(self.store.engine) as session, session.begin():
            row = session.get(AccountRow, account.key)
            if row is not None:
                row.password_hash = digest

    def new_session(self, account: Account) -> str:
        session_id = secrets.token_urlsafe(32)
        with Session(self.store.engine) as session, session.begin():
            session.add(SessionRow(id_hash=session_hash(session_id), account_key=account.key, created_at=time.time()))
        return self.signer.sign(session_id).decode()

    def session_id(self, cookie: str | None) -> str | None:
        """The session id a cookie carries, if its signature holds and it is not too old."""
        if not cookie or len(cookie) > 200:
            return None
        try:
            return self.signer.unsign(cookie, max_age=SESSION_DAYS * 86400).decode()
        except (BadSignature, UnicodeDecodeError):
            return None

    def account_of(self, cookie: str | None) -> Account | None:
        """The account a session cookie is logged in as (``None``: a guest, or a cookie that is not
        signed by this server, too old, or logged out)."""
        session_id = self.session_id(cookie)
        if session_id is None:
            return None
        with Session(self.store.engine) as session:
            found = session.execute(
                select(AccountRow.key, AccountRow.name)
                .join(SessionRow, SessionRow.account_key == AccountRow.key)
                .where(SessionRow.id_hash == session_hash(session_id), SessionRow.created_at > time.time()
                       - SESSION_DAYS * 86400)
            ).first()
        return Account(found[0], found[1]) if found is not None else None

    def log_out(self, cookie: str | None) -> None:
        session_id = self.session_id(cookie)
        if session_id is None:
            return
        with Session(self.store.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash(session_id)))

    def find(self, name: str) -> Account | None:
        if NAME_PATTERN.fullmatch(name) is None:
            return None
        row = self.store.first_row("SELECT key, name FROM accounts WHERE key = {p}", (name_key(name),))
        return Account(row[0], row[1]) if row is not None else None

    # --- seats ---------------------------------------------------------------------------

    def tie(self, match_id: str, seat: int, account: Account) -> None:
        """The seat is the account's (``one_seat`` if the account holds another seat of the match)."""
        try:
            with Session(self.store.engine) as session, session.begin():
                session.add(SeatAccountRow(match_id=match_id, seat=seat, account_key=account.key))
        except IntegrityError:
            raise ApiError(409, "one_seat", "an account holds one seat of a match") from None

    def untie(self, match_id: str, seat: int) -> None:
        with Session(self.store.engine) as session, session.begin():
            session.execute(
                delete(SeatAccountRow).where(SeatAccountRow.match_id == match_id, SeatAccountRow.seat == seat)
            )

    def seats_of_match(self, match_id: str) -> dict[int, Account]:
        """The seats of a match tied to accounts."""
        with Session(self.store.engine) as session:
            rows = session.execute(
                select(SeatAccountRow.seat, AccountRow.key, AccountRow.name)
                .join(AccountRow, AccountRow.key == SeatAccountRow.account_key)
                .where(SeatAccountRow.match_id == match_id)
            ).all()
        return {int(seat): Account(key, name) for seat, key, name in rows}

    def holds_seat(self, match_id: str, account: Account) -> bool:
        with Session(self.store.engine) as session:
            return session.execute(
                select(SeatAccountRow.seat).where(
                    SeatAccountRow.match_id == match_id, SeatAccountRow.account_key == account.key
                )
            ).first() is not None
