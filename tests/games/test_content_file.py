"""Content files given by path, for every game: a path that is not a readable content file is a
``ContentError`` naming it (``slipstream.games.content_file``), never an ``OSError``."""

from __future__ import annotations

from pathlib import Path

import pytest

import slipstream
from slipstream.engine import ContentError, SlipstreamError

GAMES = ("scrap-racer", "brc-grand-prix", "rev-it-up")


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
