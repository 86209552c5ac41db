"""A run's files: ``run.json`` (the settings), ``races.jsonl.gz`` (one JSON line per race) and the
results table (``results.csv``, and ``results.parquet`` where pyarrow is installed).

The records file is appended to as races finish and closed cleanly on Ctrl-C; a file cut short by a
harder stop is read up to its last whole line and rewritten, so a run can always be resumed.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import importlib
import json
import threading
import time
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from slipstream.engine.errors import SlipstreamError
from slipstream.jsontext import decode, encode

RUN_FILE = "run.json"
RACES_FILE = "races.jsonl.gz"
CSV_FILE = "results.csv"
PARQUET_FILE = "results.parquet"


BULKY = ("actions", "positions")
"""The fields of a race line that only replays and the sample-race plot need (kept on disk only)."""


def compact(race: dict[str, Any]) -> dict[str, Any]:
    """A race without its bulky fields: what statistics and tables need, small enough for 10^5 races."""
    return {k: v for k, v in race.items() if k not in BULKY}


def _open(path: Path) -> IO[str]:
    """A records file for reading: gzip-compressed (as written), or plain JSON lines."""
    with open(path, "rb") as raw:
        magic = raw.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _lines(path: Path) -> Iterator[tuple[str, dict[str, Any] | None]]:
    """Each whole line with its race; a final ``("", None)`` if the file is cut short."""
    try:
        with _open(path) as fh:
            for line in fh:
                if not line.endswith("\n"):
                    yield "", None
                    return
                try:
                    race = decode(line)
                except json.JSONDecodeError:
                    yield "", None
                    return
                yield line, race
    except (EOFError, gzip.BadGzipFile, zlib.error, UnicodeDecodeError):
        yield "", None


def iter_file(path: Path) -> Iterator[dict[str, Any]]:
    """The whole races of one records file, in full, streamed (a torn end is left out)."""
    for _, race in _lines(path):
        if race is None or not isinstance(race, dict) or "index" not in race:
            return
        yield race


def read_races(path: Path, full: bool = True) -> tuple[list[dict[str, Any]], bool]:
    """The whole races in a records file (``compact`` ones unless ``full``), and whether the file was
    cut short."""
    races: list[dict[str, Any]] = []
    if not path.exists():
        return races, False
    for _, race in _lines(path):
        if race is None:
            return races, True
        races.append(race if full else compact(race))
    return races, False


def iter_races(directory: Path, full: bool = False) -> Iterator[dict[str, Any]]:
    """The races of a run directory, streamed (``compact`` unless ``full``)."""
    path = directory / RACES_FILE
    if not path.exists():
        return
    for _, race in _lines(path):
        if race is None:
            return
        yield race if full else compact(race)


def repair(path: Path) -> None:
    """Rewrite a cut-short records file with its whole lines only (streamed, not held in memory)."""
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as out:
        for line, race in _lines(path):
            if race is None:
                break
            out.write(line)
    tmp.replace(path)


def first_race(directory: Path) -> dict[str, Any] | None:
    """The full line of the race with the lowest index (the report's sample race)."""
    best: dict[str, Any] | None = None
    for race in iter_races(directory, full=True):
        if best is None or race["index"] < best["index"]:
            best = race
        if best["index"] == 0:
            break
    return best


COMPRESS_LEVEL = 3
"""gzip level of the records: level 9 cost half as much time as a random race; 3 is ten times cheaper
for files about a third larger."""
FLUSH_BYTES = 1 << 20


def pack(lines: Iterable[str]) -> bytes:
    """Race lines as one gzip member (members concatenate into one valid gzip file)."""
    return gzip.compress("".join(lines).encode("utf-8"), compresslevel=COMPRESS_LEVEL, mtime=0)


class RaceWriter:
    """Appends races to the records file as gzip members: lines are held up to ``FLUSH_BYTES`` (or until
    ``flush``/``close``), members packed elsewhere (by a worker process) are written as they are."""

    def __init__(self, path: Path) -> None:
        self._fh = open(path, "ab")  # noqa: SIM115 - closed in close()
        self._held: list[str] = []
        self._size = 0
        self._since = time.monotonic()

    def write(self, race: dict[str, Any]) -> None:
        self.write_line(encode(race) + "\n")

    def write_line(self, line: str) -> None:
        """Write a race already serialised as one JSON line (ending in a newline)."""
        self._held.append(line)
        self._size += len(line)
        if self._size >= FLUSH_BYTES or time.monotonic() - self._since >= 1.0:
            self.flush()

    def write_packed(self, member: bytes) -> None:
        """Write races already packed (``pack``) by a worker."""
        self.flush()
        self._fh.write(member)

    def flush(self) -> None:
        if self._held:
            self._fh.write(pack(self._held))
            self._held, self._size = [], 0
        self._fh.flush()
        self._since = time.monotonic()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._fh.close()

    def __enter__(self) -> RaceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


TABLE_COLUMNS = ("race", "seed", "seat", "bot", "label", "rank", "won", "lead_changes", "decisions")
"""The results table's columns every race has, first; its metrics (``m_``) and sweep options (``opt_``)
follow."""


def table_columns(races: Iterable[dict[str, Any]]) -> dict[str, list[Any]]:
    """The results table by column: one row per race and seat, in race order, with the race's numbers
    repeated on each of its rows; a column a race lacks (a metric or sweep option it has not) holds
    ``None`` on its rows. Built column by column, not as a dict per row: a run's tables cost a tenth of
    a random race per race when built by rows."""
    columns: dict[str, list[Any]] = {name: [] for name in TABLE_COLUMNS}
    race_, seed_, seat_, bot_, label_, rank_, won_, lead_, decisions_ = columns.values()
    rows = 0
    for race in sorted(races, key=lambda r: r["index"]):
        bots = race["bots"]
        seats = len(bots)
        winners = race["result"]["winners"]
        labels = race["labels"]
        race_ += [race["index"]] * seats
        seed_ += [race["seed"]] * seats
        seat_ += range(seats)
        bot_ += bots
        label_ += [labels.get(str(seat), "") for seat in range(seats)]
        rank_ += race["ranks"][:seats]
        won_ += [int(seat in winners) for seat in range(seats)]
        lead_ += [race["lead_changes"]] * seats
        decisions_ += [race["decisions"]] * seats
        numbers = [(key if key in ("turns", "rounds") else f"m_{key}", value)
                   for key, value in race["metrics"].items()]
        numbers += [(f"opt_{key}", value) for key, value in race.get("sweep", {}).items()]
        for name, value in numbers:
            column = columns.get(name)
            if column is None:
                column = columns[name] = [None] * rows
            column += [value] * seats
        rows += seats
        if len(numbers) + len(TABLE_COLUMNS) != len(columns):  # a column this race lacks
            for column in columns.values():
                column += [None] * (rows - len(column))
    return columns


def preload_table_writer() -> threading.Thread:
    """Import pyarrow (about 0.4 s) on a thread of its own, started while worker processes play, so the
    tables written at the end do not wait for it; join the thread before writing them."""

    def load() -> None:
        with contextlib.suppress(ImportError):  # pyarrow is in the sim extra; without it, no parquet
            importlib.import_module("pyarrow.parquet")

    thread = threading.Thread(target=load, name="load-pyarrow", daemon=True)
    thread.start()
    return thread


def write_tables(directory: Path, races: list[dict[str, Any]]) -> list[Path]:
    """Write ``results.csv`` (and ``results.parquet`` when pyarrow is there); the paths written."""
    columns = table_columns(races)
    written = [directory / CSV_FILE]
    with open(written[0], "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        writer.writerows(zip(*columns.values(), strict=True))
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pyarrow is in the sim extra
        return written
    table = pa.Table.from_pydict(columns)
    pq.write_table(table, directory / PARQUET_FILE)
    written.append(directory / PARQUET_FILE)
    return written


class RunFileError(SlipstreamError):
    """A run's JSON file that cannot be read (the message names the file)."""

    code = "bad_run_file"


def read_json(path: Path) -> dict[str, Any]:
    """A run's JSON file (an object); a ``RunFileError`` naming the file if it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise RunFileError(f"{path} cannot be read: {exc}; remove it, or use another directory") from None
    if not isinstance(data, dict):
        raise RunFileError(f"{path} cannot be read: it holds no JSON object; remove it, or use another directory")
    return data


def write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
