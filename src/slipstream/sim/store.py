"""A run's files: ``run.json`` (the settings), ``races.jsonl.gz`` (one JSON line per race) and the
results table (``results.csv``, and ``results.parquet`` where pyarrow is installed).

The records file is appended to as races finish and closed cleanly on Ctrl-C; a file cut short by a
harder stop is read up to its last whole line and rewritten, so a run can always be resumed.
"""

from __future__ import annotations

import csv
import gzip
import json
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

RUN_FILE = "run.json"
RACES_FILE = "races.jsonl.gz"
CSV_FILE = "results.csv"
PARQUET_FILE = "results.parquet"


def read_races(path: Path) -> tuple[list[dict[str, Any]], bool]:
    """The whole races in a records file, and whether the file was cut short."""
    races: list[dict[str, Any]] = []
    if not path.exists():
        return races, False
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if not line.endswith("\n"):
                    return races, True
                try:
                    races.append(json.loads(line))
                except json.JSONDecodeError:
                    return races, True
    except (EOFError, gzip.BadGzipFile, zlib.error):
        return races, True
    return races, False


def iter_races(directory: Path) -> Iterator[dict[str, Any]]:
    yield from read_races(directory / RACES_FILE)[0]


def write_races(path: Path, races: Iterable[dict[str, Any]]) -> None:
    """Write the records file anew (after a cut-short file was read)."""
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        for race in races:
            fh.write(json.dumps(race, separators=(",", ":")) + "\n")
    tmp.replace(path)


class RaceWriter:
    """Appends race lines to the records file (a new gzip member per session, closed on exit)."""

    def __init__(self, path: Path) -> None:
        self._fh = gzip.open(path, "at", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def write(self, race: dict[str, Any]) -> None:
        self._fh.write(json.dumps(race, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> RaceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def table_rows(races: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results table: one row per race and seat, with the race's numbers repeated on each row."""
    rows: list[dict[str, Any]] = []
    for race in sorted(races, key=lambda r: r["index"]):
        winners = set(race["result"]["winners"])
        for seat, bot in enumerate(race["bots"]):
            row: dict[str, Any] = {
                "race": race["index"],
                "seed": race["seed"],
                "seat": seat,
                "bot": bot,
                "label": race["labels"].get(str(seat), ""),
                "rank": race["ranks"][seat],
                "won": int(seat in winners),
                "lead_changes": race["lead_changes"],
                "decisions": race["decisions"],
            }
            for key, value in race["metrics"].items():
                row[key if key in ("turns", "rounds") else f"m_{key}"] = value
            for key, value in race.get("sweep", {}).items():
                row[f"opt_{key}"] = value
            rows.append(row)
    return rows


def write_tables(directory: Path, races: list[dict[str, Any]]) -> list[Path]:
    """Write ``results.csv`` (and ``results.parquet`` when pyarrow is there); the paths written."""
    rows = table_rows(races)
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    written = [directory / CSV_FILE]
    with open(written[0], "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pyarrow is in the sim extra
        return written
    full = [{c: row.get(c) for c in columns} for row in rows]
    pq.write_table(pa.Table.from_pylist(full), directory / PARQUET_FILE)
    written.append(directory / PARQUET_FILE)
    return written


def read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
