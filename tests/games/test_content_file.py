"""Content files given by path, for every game: a path that is not a readable content file is a
``ContentError`` naming it (``slipstream.games.content_file``), never an ``OSError``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import Field, model_validator

import slipstream
from slipstream.engine import ContentError, SlipstreamError
from slipstream.games.content_file import StrictModel, validate_content

GAMES = ("scrap-racer", "brc-grand-prix", "rev-it-up", "rush-n-crush", "highway-heist")


@pytest.mark.parametrize("game", GAMES)
def test_a_directory_as_content_is_a_content_error(game: str, tmp_path: Path) -> None:
    with pytest.raises(ContentError) as info:
        slipstream.load(game, content=str(tmp_path))
    assert isinstance(info.value, SlipstreamError) and info.value.source == str(tmp_path)
    assert "it is a directory, not a content file" in str(info.value)


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_binary_or_unparsable_file_is_a_content_error(game: str, tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot be read: no such file"):
        slipstream.load(game, content=str(tmp_path / "missing.toml"))
    binary = tmp_path / "image.toml"
    binary.write_bytes(b"\xff\xfe\x00\x89PNG")
    with pytest.raises(ContentError, match="not UTF-8 text"):
        slipstream.load(game, content=str(binary))
    broken = tmp_path / "broken.json"
    broken.write_text("{\"track\": ")
    with pytest.raises(ContentError, match="not valid TOML/JSON") as info:
        slipstream.load(game, content=str(broken))
    assert info.value.field == "syntax"


class _Car(StrictModel):
    id: str = Field(pattern=r"^[a-z]+$")
    speed: int = Field(ge=1)


class _Board(StrictModel):
    cars: list[_Car]
    pit: dict[str, int]
    laps: int = 3

    @model_validator(mode="after")
    def _laps_fit(self) -> _Board:
        if self.laps > 9:
            raise ValueError("rules.laps: at most 9")
        return self


@pytest.mark.parametrize(
    ("change", "record", "field", "problem"),
    [
        # a record in a list is named by its id ...
        (lambda d: d["cars"][1].update(speed=0), "cars swifty", "speed", "greater than or equal to 1"),
        # ... or by its position when the id itself is what is wrong
        (lambda d: d["cars"][1].update(id="Swifty!"), "cars #2", "id", "should match pattern"),
        (lambda d: d["cars"][0].update(wings=2), "cars tank", "wings", "Extra inputs are not permitted"),
        (lambda d: d["pit"].update(box="two"), "pit", "box", "valid integer"),
        (lambda d: d.update(pit=[]), "pit", "record", "valid dictionary"),
        (lambda d: d.update(laps=12), "rules", "laps", "at most 9"),  # a check naming its own field
    ],
)
def test_a_validation_problem_names_the_record_and_the_field(
    change: Any, record: str, field: str, problem: str
) -> None:
    """Every game's content is validated by ``validate_content``: the first problem is a ContentError
    naming the file, the record (by its id where it has one) and the field."""
    data: dict[str, Any] = {"cars": [{"id": "tank", "speed": 2}, {"id": "swifty", "speed": 3}], "pit": {"box": 2}}
    change(data)
    with pytest.raises(ContentError) as info:
        validate_content(_Board, data, "mine.toml")
    error = info.value
    assert (error.source, error.record, error.field) == ("mine.toml", record, field)
    assert problem in str(error)


def test_valid_content_is_returned_as_the_model() -> None:
    board = validate_content(_Board, {"cars": [{"id": "tank", "speed": 2}], "pit": {}}, "mine.toml")
    assert board.cars[0].speed == 2 and board.laps == 3
