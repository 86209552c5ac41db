"""Reading and validating a content file, shared by every game package.

- ``read_content_file``: TOML, or JSON when the name ends ``.json``. A file that cannot be read (missing,
  a directory, not text) or parsed raises ``ContentError`` naming the file, never an ``OSError``:
  ``slipstream.load(game, content=PATH)`` reports every bad path the same way.
- ``StrictModel``: the base of every game's Pydantic content records (unknown fields refused, frozen).
- ``Name``, ``Text``: a record's display name and its effect text, as a player reads them (every game's
  content names what a player meets and says what it does: issue 31); ``NamedRecord``: a thing the rules
  know by its id, named and explained by the content, and ``each_once``: every such thing has a record.
- ``validate_content``: a model validated from the file's data; its first problem raised as a
  ``ContentError`` naming the record (by its ``id``, ``name``, ``kind``, ``colour`` or ``chip`` where the
  path passes through a list of records, else by position ``#n``) and the field.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from slipstream.engine.errors import ContentError

Model = TypeVar("Model", bound=BaseModel)

RECORD_NAME_KEYS = ("id", "name", "kind", "colour", "chip")
"""The keys that name a record in a list of records, first found first (else its position, ``#n``)."""


Name = Annotated[str, Field(min_length=1, max_length=60, pattern=r"\S")]
"""A display name, as a player reads it ("Oil Slick", "Goldie Gears")."""
Text = Annotated[str, Field(min_length=1, max_length=400, pattern=r"\S")]
"""An effect text: what the thing does, in a sentence or two."""


class StrictModel(BaseModel):
    """The base of every content record: a field the model does not know is refused; records are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NamedRecord(StrictModel):
    """A thing the rules know by its id (one of ``KNOWN``, a ``WHAT``), with the name and effect text a
    player reads; a game's record adds its own fields (``source``)."""

    KNOWN: ClassVar[tuple[str, ...]] = ()
    WHAT: ClassVar[str] = ""
    id: str
    name: Name
    text: Text

    @field_validator("id")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in cls.KNOWN:
            raise ValueError(f"unknown {cls.WHAT} {v!r}; known: {', '.join(cls.KNOWN)}")
        return v


def each_once(records: Sequence[NamedRecord], known: tuple[str, ...]) -> None:
    """Every id in ``known`` has exactly one of ``records`` (a ``ValueError`` naming the first that has not)."""
    ids = [r.id for r in records]
    for known_id in known:
        if ids.count(known_id) != 1:
            raise ValueError(f"{known_id!r} needs exactly one record (it has {ids.count(known_id)})")


def read_content_file(path: Path) -> Any:
    """The data of the TOML or JSON file at ``path`` (its record and fields are the caller's to check)."""
    source = str(path)
    if path.is_dir():
        raise ContentError(source, "file", "path", "cannot be read: it is a directory, not a content file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError(source, "file", "path", "cannot be read: no such file") from None
    except OSError as exc:
        raise ContentError(source, "file", "path", f"cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ContentError(source, "file", "path", "cannot be read: not UTF-8 text") from None
    try:
        return json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ContentError(source, "file", "syntax", f"is not valid TOML/JSON: {exc}") from None


def validate_content(model: type[Model], data: Any, source: str) -> Model:
    """``model`` validated from ``data`` (a parsed file); ``ContentError`` naming record and field if bad."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_problem(source, exc, data) from None


def validation_problem(source: str, exc: ValidationError, data: Any) -> ContentError:
    """The first problem of ``exc`` as a ``ContentError(source, record, field, problem)``.

    The record is the path to the innermost record in a list (``cars Swifty``, ``chips #3``), the field
    the rest of the path (``record`` when the whole record is wrong). A check of the game's own may name
    the field at the start of its message (``"power: must be ..."``).
    """
    err = exc.errors()[0]
    path = list(err["loc"])
    words = [str(step) for step in path]
    problem = str(err["msg"]).removeprefix("Value error, ")
    record, field = "", ""
    node: Any = data
    for i, step in enumerate(path):
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(step, int):
            # named by its id (or name...), unless that is the field found wrong: then by position
            keys = [key for key in RECORD_NAME_KEYS if isinstance(node, dict) and node.get(key)]
            wrong = words[i + 1] if i + 1 < len(words) else None
            name = str(node[keys[0]]) if keys and keys[0] != wrong else f"#{step + 1}"
            record = " ".join(filter(None, (".".join(words[:i]), name)))
            field = ".".join(words[i + 1:]) or "record"
    if not record and words:  # a table's field, or a check of a whole table (``pit``: field ``record``)
        record, field = (".".join(words[:-1]), words[-1]) if len(words) > 1 else (words[0], "record")
    head, colon, rest = problem.partition(": ")
    if colon and " " not in head and "'" not in head:
        problem = rest
        if record:
            field = head
        else:  # a check of the whole file names its record and field: "scenarios.tank: ..."
            record, _, field = head.rpartition(".")
            record = record or head
    return ContentError(source, record or "file", field or "file", problem)
