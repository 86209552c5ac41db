"""The store's commit path (issue 14, Load): a group commit writes all its moves in one statement (on
SQLite in chunks, on PostgreSQL as one array per column), dates a live match at most once every
``STAMP_SECONDS``, and on PostgreSQL keeps its own connection, which, when it dies, costs no move: the
commit fails, is retried and stored on a new one."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slipstream.web import storage
from slipstream.web.storage import Mark, MatchData, MoveData, SeatData, Stale, Store
from tests.web.test_postgres import pg_database  # noqa: F401 - the fixture

pytest_plugins: list[str] = []


def new_match(store: Store, match_id: str, at: float = 1000.0) -> None:
    store.create_match(MatchData(id=match_id, game_id="toy-dash", version="1", options={}, seed=1,
                                 status="running", title="", host_hash="h", created_at=at, updated_at=at,
                                 seats=[SeatData(0, "human"), SeatData(1, "human")]))


def updated_at(store: Store, match_id: str) -> float:
    data = store.load(match_id)
    assert data is not None
    return data.updated_at


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = str(tmp_path / "store.sqlite3") if request.param == "sqlite" else request.getfixturevalue("pg_database")
    store = Store(url)
    try:
        yield store
    finally:
        store.close()


def test_a_live_match_is_dated_with_its_moves_at_most_once_a_minute(store: Store) -> None:
    new_match(store, "m1")
    store.append_many([("m1", [MoveData(0, "a", 0)], None, 0)], now=2000.0)
    assert updated_at(store, "m1") == 2000.0, "the first commit dates the match"
    store.append_many([("m1", [MoveData(1, "b", 1)], None, 0)], now=2000.0 + storage.STAMP_SECONDS - 1)
    assert updated_at(store, "m1") == 2000.0, "within a minute the moves alone are written"
    store.append_many([("m1", [MoveData(2, "c", 0)], None, 0)], now=2000.0 + storage.STAMP_SECONDS)
    assert updated_at(store, "m1") == 2000.0 + storage.STAMP_SECONDS
    store.append_many([("m1", [MoveData(3, "d", 1)], "finished", 0)], now=2061.0)
    data = store.load("m1")
    assert data is not None and (data.status, data.updated_at) == ("finished", 2061.0), "a new status always"
    assert [m.ply for m in data.moves] == [0, 1, 2, 3]
    assert [m.at for m in data.moves] == [2000.0, 2000.0 + storage.STAMP_SECONDS - 1, 2060.0, 2061.0]


def test_a_large_batch_is_written_whole_in_chunks_or_not_at_all(store: Store,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "INSERT_ROWS", 7)
    for i in range(5):
        new_match(store, f"b{i}")
    batches: list[tuple[str, list[MoveData], str | None, int]] = [
        (f"b{i}", [MoveData(ply, f"x{ply}", 0) for ply in range(6)], None, 0) for i in range(5)]
    store.append_many(batches)
    for i in range(5):
        data = store.load(f"b{i}")
        assert data is not None and [m.ply for m in data.moves] == list(range(6))
    clash = [("b0", [MoveData(6, "y", 0)], None), ("b1", [MoveData(5, "again", 0)], None, 0)]
    with pytest.raises(Exception):  # noqa: B017 - the driver's own integrity error
        store.append_many(clash)
    data = store.load("b0")
    assert data is not None and len(data.moves) == 6, "the batch is one transaction: b0's move is not kept"
    store.append_many([("b0", [MoveData(6, "y", 0)], None, 0)])
    data = store.load("b0")
    assert data is not None and len(data.moves) == 7, "the store is usable after a refused batch"


def test_every_column_of_a_move_is_stored_as_it_was_sent(store: Store) -> None:
    """Moves with and without a seat (chance steps have none), a client id or not, any text: on
    PostgreSQL they go in as one array per column, where a column may hold only nulls."""
    new_match(store, "c1")
    new_match(store, "c2")
    first = [MoveData(0, "0:dash", 0, "id-1", at=1.5), MoveData(1, "die:4", None, None, at=1.5),
             MoveData(2, "1:buy:l'épée, \"2\"", 1, None, at=2.25)]
    chance_only = [MoveData(0, "die:6", None, None, at=3.0), MoveData(1, "die:1", None, None, at=3.0)]
    store.append_many([("c1", first, None, 0), ("c2", chance_only, None, 0)])
    for match_id, sent in (("c1", first), ("c2", chance_only)):
        data = store.load(match_id)
        assert data is not None
        assert [(m.ply, m.action, m.seat, m.client_id, m.at) for m in data.moves] == [
            (m.ply, m.action, m.seat, m.client_id, m.at) for m in sent]


def cut_connections(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        killed = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    assert killed, "the store's connections were cut"
    time.sleep(0.2)


@pytest.fixture
def cut_store(pg_database: str) -> Iterator[Store]:  # noqa: F811
    """A PostgreSQL store that has committed match ``c1``'s first move, whose connections are then cut."""
    store = Store(pg_database)
    try:
        new_match(store, "c1")
        store.append_many([("c1", [MoveData(0, "a", 0)], None, 0)])
        cut_connections(pg_database)
        yield store
    finally:
        store.close()


def moves_of(store: Store, match_id: str) -> list[tuple[int, str]]:
    data = store.load(match_id)
    assert data is not None
    return [(m.ply, m.action) for m in data.moves]


def test_a_postgres_connection_cut_while_quiet_costs_no_commit(monkeypatch: pytest.MonkeyPatch,
                                                                cut_store: Store) -> None:
    monkeypatch.setattr(storage, "PING_AFTER", 0.1)
    cut_store.append_many([("c1", [MoveData(1, "b", 1)], None, 0)])  # pinged first: a new connection
    assert moves_of(cut_store, "c1") == [(0, "a"), (1, "b")]


def test_a_postgres_connection_cut_mid_play_fails_one_commit_then_recovers(monkeypatch: pytest.MonkeyPatch,
                                                                           cut_store: Store) -> None:
    monkeypatch.setattr(storage, "PING_AFTER", 3600.0)
    with pytest.raises(Exception):  # noqa: B017 - the commit on the dead connection fails, said so
        cut_store.append_many([("c1", [MoveData(1, "b", 1)], None, 0)])
    cut_store.append_many([("c1", [MoveData(1, "b", 1)], None, 0)])  # its retry: a new connection
    assert moves_of(cut_store, "c1") == [(0, "a"), (1, "b")]


def moves_and_revision(store: Store, match_id: str) -> tuple[list[tuple[int, str]], int | None]:
    data = store.load(match_id)
    assert data is not None
    return [(m.ply, m.action) for m in data.moves], data.rev


def test_a_write_is_made_only_on_the_match_as_the_process_saw_it(store: Store) -> None:
    """Issue 26, point 1: an undo, a seat change and a status change are stored only if the match's
    revision and its moves (how many, the last one) are still those the process holds (else ``Stale``
    and nothing written), and a move only at the revision it was decided at."""
    new_match(store, "w1")
    store.append_many([("w1", [MoveData(0, "a", 0), MoveData(1, "b", 1)], None, 0)])
    seen = Mark(0, 2, "b")
    store.append_many([("w1", [MoveData(2, "c", 0)], None, 0)])  # another process moved on
    with pytest.raises(Stale):
        store.take_back("w1", seen, 1)
    assert moves_and_revision(store, "w1") == ([(0, "a"), (1, "b"), (2, "c")], 0), "nothing deleted"
    assert store.take_back("w1", Mark(0, 3, "c"), 2) == 1
    with pytest.raises(Exception):  # noqa: B017 - the driver's own integrity error: decided at revision 0
        store.append_many([("w1", [MoveData(2, "d", 0)], None, 0)])
    store.append_many([("w1", [MoveData(2, "d", 0)], None, 1)])
    bot = SeatData(1, "bot", "Random bot 2", "random")
    with pytest.raises(Stale):
        store.set_seats("w1", Mark(1, 3, "c"), [bot])  # as many moves, another last one
    with pytest.raises(Stale):
        store.set_seats("w1", Mark(0, 3, "d"), [bot])  # the same moves, an older revision
    assert store.set_seats("w1", Mark(1, 3, "d"), [bot]) == 2
    with pytest.raises(Stale):
        store.set_status("w1", Mark(1, 3, "d"), "abandoned")
    assert store.set_status("w1", Mark(2, 3, "d"), "abandoned") == 3
    data = store.load("w1")
    assert data is not None and (data.status, data.rev, data.seats[1].kind) == ("abandoned", 3, "bot")
    assert [(m.ply, m.action) for m in data.moves] == [(0, "a"), (1, "b"), (2, "d")]


class SlowStore(Store):
    """A store whose conditional writes pause while they hold the match (to let another write try)."""

    @contextlib.contextmanager
    def _guarded(self, match_id: str, mark: Mark) -> Iterator[Any]:
        with super()._guarded(match_id, mark) as cursor:
            time.sleep(0.5)
            yield cursor


def test_a_move_waits_for_an_undo_in_progress_and_is_then_refused(store: Store) -> None:
    """Another process's move arriving while an undo is being stored must not land after it on a match it
    did not see: it waits for the undo (PostgreSQL: the revision's row is locked; SQLite: the write lock),
    then finds the revision changed and is refused, whole."""
    slow = SlowStore(store.url)
    try:
        new_match(store, "w2")
        store.append_many([("w2", [MoveData(0, "a", 0), MoveData(1, "b", 1)], None, 0)])
        undo = threading.Thread(target=slow.take_back, args=("w2", Mark(0, 2, "b"), 1))
        undo.start()
        time.sleep(0.2)
        with pytest.raises(Exception):  # noqa: B017 - the driver's own error (integrity, or SQLite busy)
            store.append_many([("w2", [MoveData(2, "c", 0)], None, 0)])
        undo.join()
        assert moves_and_revision(store, "w2") == ([(0, "a")], 1)
    finally:
        slow.close()


def test_chat_lines_and_moves_share_the_commit_connection(store: Store) -> None:
    """A chat line is stored (on PostgreSQL on the connection kept for commits, ``Store._kept``) between
    commits of moves, in order, with its id; a line the database refuses (no such match) raises and
    leaves the next line and the next commit unharmed."""
    new_match(store, "m1")
    first = store.add_chat("m1", storage.ChatLine("say", 0, "", "Ann", "hello <b>", 0, 2000.0))
    assert store.is_sqlite or store._commit_conn is not None, "PostgreSQL: the line took the kept connection"
    store.append_many([("m1", [MoveData(0, "a", 0)], None, 0)], now=2001.0)
    with pytest.raises(Exception):  # noqa: B017 - the driver's foreign-key error, whichever the database
        store.add_chat("nowhere", storage.ChatLine("say", 0, "", "Ann", "lost", 0, 2001.5))
    second = store.add_chat("m1", storage.ChatLine("say", 1, "", "Bob", "hi", 1, 2002.0))
    store.append_many([("m1", [MoveData(1, "b", 1)], None, 0)], now=2003.0)
    lines, muted = store.chat("m1")
    assert [(line.id, line.name, line.text) for line in lines] == [(first, "Ann", "hello <b>"), (second, "Bob", "hi")]
    assert second > first and muted == set()
    assert moves_of(store, "m1") == [(0, "a"), (1, "b")]


def test_moves_and_chat_lines_commit_together_all_or_none(store: Store) -> None:
    """``append_many`` stores moves and chat lines in one transaction and gives the lines' ids in their
    order; a line the database refuses (no such match) leaves nothing stored, the moves included."""
    new_match(store, "m1")
    new_match(store, "m2")
    said = [("m1", storage.ChatLine("say", 0, "", "Ann", "go", 0, 2000.0)),
            ("m2", storage.ChatLine("note", None, "resign", "", "Bob resigned", 0, 2000.0, shown="[[0, 0]]"))]
    ids = store.append_many([("m1", [MoveData(0, "a", 0)], None, 0)], now=2000.0, lines=said)
    assert len(ids) == 2 and ids[0] < ids[1]
    assert [(line.id, line.text) for line in store.chat("m1")[0]] == [(ids[0], "go")]
    assert [(line.id, line.kind, line.shown) for line in store.chat("m2")[0]] == [(ids[1], "note", "[[0, 0]]")]
    lost = [("nowhere", storage.ChatLine("say", 0, "", "Ann", "lost", 1, 2001.0))]
    with pytest.raises(Exception):  # noqa: B017 - the driver's foreign-key error, whichever the database
        store.append_many([("m1", [MoveData(1, "b", 1)], None, 0)], now=2001.0, lines=lost)
    assert moves_of(store, "m1") == [(0, "a")]
    assert [line.text for line in store.chat("m1")[0]] == ["go"]


def test_sqlite_checkpoints_on_its_own_thread_never_in_a_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Store(checkpoint_thread=True)`` (the server's): no commit copies the write-ahead log into the
    database file (SQLite's default does, in the commit that fills the log to 1,000 pages: 5-8 ms on the
    event loop at 500 games); the ``Checkpointer``'s thread does, every ``CHECKPOINT_EVERY`` seconds."""
    page = 4096
    text = "x" * 3000  # each line's commit writes at least one page of its own

    def fill(store: Store, lines: int) -> None:
        new_match(store, "m1")
        for n in range(lines):
            store.add_chat("m1", storage.ChatLine("say", 0, "", "Ann", f"{n} {text}", 0, 2000.0 + n))

    monkeypatch.setattr(storage, "CHECKPOINT_EVERY", 3600.0)  # the thread waits all through this store
    quiet = tmp_path / "quiet.sqlite3"
    store = Store(str(quiet), checkpoint_thread=True)
    try:
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        fill(store, 1500)
        wal = Path(f"{quiet}-wal").stat().st_size
        assert wal > 1500 * page, f"the log ({wal} bytes) was checkpointed by a commit"
    finally:
        store.close()

    monkeypatch.setattr(storage, "CHECKPOINT_EVERY", 0.05)
    busy = tmp_path / "busy.sqlite3"
    store = Store(str(busy), checkpoint_thread=True)
    try:
        fill(store, 1500)
        deadline = time.monotonic() + 20
        while busy.stat().st_size < 1500 * 3000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert busy.stat().st_size >= 1500 * 3000, "the checkpoint thread copied the log into the file"
    finally:
        store.close()
    assert store.checkpointer is not None and not store.checkpointer.is_alive(), "close() ends the thread"
