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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class RecordsScan:
    """What a records file holds: its whole races (``indices``), and whether it ends in a line that is
    not a whole race (``torn``: cut short, or not a records file at all when no race came before)."""

    indices: tuple[int, ...]
    torn: bool

    def below(self, n: int) -> int:
        """How many of its races are races of a run of ``n`` (their index below ``n``)."""
        return len({i for i in self.indices if i < n})


def scan(path: Path) -> RecordsScan | None:
    """The races a records file holds, read through (``None`` when there is no file)."""
    if not path.exists():
        return None
    indices: list[int] = []
    for _, race in _lines(path):
        if race is None or not isinstance(race, dict) or not isinstance(race.get("index"), int):
            return RecordsScan(tuple(indices), True)
        indices.append(race["index"])
    return RecordsScan(tuple(indices), False)


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


COMPRESS_LEVEL = 2
"""gzip level of the records: level 9 cost half as much time as a random race. Measured on random races
of Rush 'n' Crush, Scrap Racer and Rev it Up (27 November 2026), level 6 takes 2.3-2.4 times level 3's
time for files a quarter smaller; level 2 takes 0.73-0.76 of level 3's time (level 1 the same as 2) for
files 16-18% larger (level 1: a third larger)."""
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


SEAT_COLUMNS = ("race", "seed", "seat", "bot", "label", "rank", "won", "turn_order", "choices", "seat_decisions",
                "led_at_half")
"""The results table's columns of a seat every race has, first: ``turn_order`` is the seat's place in the
order of play (1 for the first to play; empty when the game has none), ``choices`` its decisions with more
than one legal action, ``seat_decisions`` all its decisions, ``led_at_half`` 1 if it led halfway through the
race's decisions. The seat's start positions (``start_<grouping>``, e.g. ``start_grid_row``) follow."""
RACE_COLUMNS = ("lead_changes", "decisions")
"""The columns of the race every race has, after the seat's; its metrics (``turns``, ``rounds``, ``m_``) and
a sweep point's options (``opt_``) follow."""
TABLE_COLUMNS = SEAT_COLUMNS + RACE_COLUMNS
GROUP_ROWS = 4096
"""Rows of the results tables formatted at once while races arrive (and a parquet row group)."""


def _numbers(race: dict[str, Any]) -> list[tuple[str, Any]]:
    """The race's metrics and sweep options as the table's columns (name, value), in the race's order."""
    numbers = [(key if key in ("turns", "rounds") else f"m_{key}", value) for key, value in race["metrics"].items()]
    numbers += [(f"opt_{key}", value) for key, value in race.get("sweep", {}).items()]
    return numbers


def start_column(kind: str) -> str:
    """The column of a start grouping: ``"grid row"`` -> ``start_grid_row``, ``"start order"`` ->
    ``start_order``."""
    words = kind.split()
    return "_".join(words if words[:1] == ["start"] else ["start", *words])


def _seat_values(race: dict[str, Any]) -> list[list[Any]]:
    """Each seat's values of ``SEAT_COLUMNS`` and of the race's start groupings, in that order."""
    bots = race["bots"]
    seats = len(bots)
    winners = race["result"]["winners"]
    labels = race["labels"]
    ranks = race["ranks"]
    order = race.get("turn_order") or []
    choices = race.get("choices") or [None] * seats
    decisions = race.get("seat_decisions") or [None] * seats
    half = race.get("half_leader")
    start = list(race.get("start", {}).values())
    return [[race["index"], race["seed"], seat, bot, labels.get(str(seat), ""), ranks[seat], int(seat in winners),
             order.index(seat) + 1 if seat in order else None, choices[seat], decisions[seat],
             None if half is None else int(seat == half), *(numbers[seat] for numbers in start)]
            for seat, bot in enumerate(bots)]


def race_columns(race: dict[str, Any]) -> tuple[str, ...]:
    """The columns the race fills, in the table's order."""
    return (SEAT_COLUMNS + tuple(start_column(kind) for kind in race.get("start", {})) + RACE_COLUMNS
            + tuple(name for name, _ in _numbers(race)))


def table_columns(races: Iterable[dict[str, Any]]) -> dict[str, list[Any]]:
    """The results table by column: one row per race and seat, in race order, with the race's numbers
    repeated on each of its rows; a column a race lacks (a metric or sweep option it has not) holds
    ``None`` on its rows. Built column by column, not as a dict per row: a run's tables cost a tenth of
    a random race per race when built by rows."""
    columns: dict[str, list[Any]] = {name: [] for name in TABLE_COLUMNS}
    rows = 0
    for race in sorted(races, key=lambda r: r["index"]):
        seats = len(race["bots"])
        names = race_columns(race)
        values = zip(*_seat_values(race), strict=True)
        race_values = [race["lead_changes"], race["decisions"], *(value for _, value in _numbers(race))]
        for name, value in zip(names, [*values, *([value] * seats for value in race_values)], strict=True):
            column = columns.get(name)
            if column is None:
                column = columns[name] = [None] * rows
            column += value
        rows += seats
        if len(names) != len(columns):  # a column this race lacks
            for column in columns.values():
                column += [None] * (rows - len(column))
    return _in_table_order(columns)


def _in_table_order(columns: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """The columns in the table's order: the seat's, its start groupings, the race's, then the rest as
    they came (a start grouping only a later race has still goes with the seat's columns)."""
    starts = [name for name in columns if name.startswith("start_") and name not in SEAT_COLUMNS]
    first = [*SEAT_COLUMNS, *starts, *RACE_COLUMNS]
    return {name: columns[name] for name in [*first, *(n for n in columns if n not in first)]}


class _Rows(list[str]):
    """The rows a ``csv.writer`` writes, one string each (the writer calls ``write`` once per row)."""

    def write(self, row: str) -> None:
        self.append(row)


def csv_rows(races: Iterable[dict[str, Any]]) -> list[str]:
    """The races' rows of ``results.csv`` (each race's columns in its own order, ``race_columns``), as
    ``csv.writer`` writes them. A race's numbers are formatted once and put on each of its seats' rows
    (formatting them once a row cost about as much as all the rest of the table)."""
    rows = _Rows()
    writer = csv.writer(rows)
    out: list[str] = []
    for race in races:
        writer.writerow([race["lead_changes"], race["decisions"], *race["metrics"].values(),
                         *race.get("sweep", {}).values()])  # the order of _numbers
        numbers = rows.pop()
        writer.writerows(_seat_values(race))
        out += [f"{row[:-2]},{numbers}" for row in rows]  # a row ends in the writer's "\r\n"
        rows.clear()
    return out


def preload_table_writer() -> threading.Thread:
    """Import pyarrow (about 0.4 s) on a thread of its own, started while worker processes play, so the
    tables written at the end do not wait for it; join the thread before writing them."""

    def load() -> None:
        with contextlib.suppress(ImportError):  # pyarrow is in the sim extra; without it, no parquet
            importlib.import_module("pyarrow.parquet")
            importlib.import_module("pyarrow.csv")

    thread = threading.Thread(target=load, name="load-pyarrow", daemon=True)
    thread.start()
    return thread


def _pyarrow() -> tuple[Any, Any] | None:
    """pyarrow and pyarrow.parquet, or ``None`` without them (no parquet table then)."""
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pyarrow is in the sim extra
        return None
    return pa, pq


def write_tables(directory: Path, races: list[dict[str, Any]]) -> list[Path]:
    """Write ``results.csv`` (and ``results.parquet`` when pyarrow is there) from every race at once; the
    paths written. ``ResultsWriter`` writes the same tables as races arrive."""
    columns = table_columns(races)
    written = [directory / CSV_FILE]
    with open(written[0], "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        writer.writerows(zip(*columns.values(), strict=True))
    arrow = _pyarrow()
    if arrow is None:  # pragma: no cover - pyarrow is in the sim extra
        return written
    pa, pq = arrow
    pq.write_table(pa.Table.from_pydict(columns), directory / PARQUET_FILE)
    written.append(directory / PARQUET_FILE)
    return written


class ResultsWriter:
    """The results tables written while the races arrive, so that a run's end has little left to do.

    The races come in any order (several workers, a resumed run); ``indices`` are those the run will have.
    A race waits until every race before it in ``indices`` has come (or ``close`` is called), and the
    ready races are formatted ``GROUP_ROWS`` rows at a time: their CSV rows appended to a partial file, and
    the same rows read back by pyarrow's CSV reader (in the first group's parquet types) as a parquet row
    group. ``close`` writes what is left and puts both files in place; the tables are those
    ``write_tables`` writes from the same races (the CSV byte for byte), as long as every race has the first
    race's columns and every value fits the first group's types. A race with other columns (a metric only
    some races have), or a value of another type, ends the streaming, and ``close`` writes both tables
    whole with ``write_tables``.
    """

    def __init__(self, directory: Path, indices: Iterable[int]) -> None:
        self.directory = directory
        self.order = sorted(indices)
        self.next = 0
        """The position in ``order`` of the next race to format."""
        self.waiting: dict[int, dict[str, Any]] = {}
        self.ready: list[dict[str, Any]] = []
        self.ready_rows = 0
        self.keys: tuple[str, ...] | None = None
        """The first race's columns: every race streamed has the same."""
        self.columns: tuple[str, ...] = ()
        self.streaming = True
        self.csv_part = directory / (CSV_FILE + ".part")
        self.parquet_part = directory / (PARQUET_FILE + ".part")
        self._csv: IO[str] | None = None
        self._parquet: Any = None
        self._csv_options: tuple[Any, Any, Any] | None = None

    def add(self, races: Iterable[dict[str, Any]]) -> None:
        """Take finished races (compact), in any order."""
        if not self.streaming:
            return
        waiting = self.waiting
        for race in races:
            waiting[race["index"]] = race
        order = self.order
        while self.next < len(order) and order[self.next] in waiting:
            race = waiting.pop(order[self.next])
            self.next += 1
            self.ready.append(race)
            self.ready_rows += len(race["bots"])
        if self.ready_rows >= GROUP_ROWS:
            try:
                self._write_ready()
            except BaseException:  # a group half written (a full disk): the tables are written whole at the end
                self._stop()
                raise

    def _write_ready(self) -> None:
        ready, self.ready, self.ready_rows = self.ready, [], 0
        if not ready:
            return
        if self.keys is None:
            self.keys = self.columns = race_columns(ready[0])
        keys = self.keys
        if any(race_columns(race) != keys for race in ready):
            self._stop()
            return
        text = "".join(csv_rows(ready))
        if self._csv is None:
            self._csv = open(self.csv_part, "w", newline="", encoding="utf-8")  # noqa: SIM115 - closed in close()
            csv.writer(self._csv).writerow(self.columns)
        self._csv.write(text)
        arrow = _pyarrow()
        if arrow is None:  # pragma: no cover - pyarrow is in the sim extra
            return
        pa, pq = arrow
        import pyarrow.csv as pa_csv  # type: ignore[import-untyped]

        try:
            if self._parquet is None:  # the first group sets the types, as write_tables would find them
                table = pa.Table.from_pydict(table_columns(ready))
                self._parquet = pq.ParquetWriter(self.parquet_part, table.schema)
                self._csv_options = (
                    pa_csv.ReadOptions(column_names=list(self.columns), use_threads=False),
                    pa_csv.ParseOptions(newlines_in_values=True),
                    pa_csv.ConvertOptions(column_types=table.schema, null_values=[""], strings_can_be_null=False),
                )
            else:
                assert self._csv_options is not None
                read, parse, convert = self._csv_options
                table = pa_csv.read_csv(pa.py_buffer(text.encode("utf-8")), read_options=read,
                                        parse_options=parse, convert_options=convert)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # a value of another type than the first group's
            self._stop()
            return
        self._parquet.write_table(table)

    def _stop(self) -> None:
        """Give up streaming: ``close`` writes the tables whole."""
        self.streaming = False
        self.waiting.clear()
        self.ready.clear()

    def close(self, races: list[dict[str, Any]]) -> list[Path]:
        """Write what is left (``races`` is every race of the run, for the tables written whole) and put the
        files in place; the paths written. Races that never came (an interrupted run) are left out."""
        if self.streaming:
            for index in self.order[self.next:]:
                race = self.waiting.pop(index, None)
                if race is not None:
                    self.ready.append(race)
            try:
                self._write_ready()
            except Exception:  # a group half written: the tables written whole say what is wrong, if anything
                self._stop()
        for part in (self._csv, self._parquet):
            if part is not None:
                part.close()
        if not self.streaming or self._csv is None:
            self.csv_part.unlink(missing_ok=True)
            self.parquet_part.unlink(missing_ok=True)
            return write_tables(self.directory, races)
        written = [self.directory / CSV_FILE]
        self.csv_part.replace(written[0])
        if self._parquet is not None:
            written.append(self.directory / PARQUET_FILE)
            self.parquet_part.replace(written[1])
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
