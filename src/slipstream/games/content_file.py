"""Reading a content file, shared by every game package: TOML, or JSON when the name ends ``.json``.

A file that cannot be read (missing, a directory, not text) or parsed raises ``ContentError`` naming the
file, never an ``OSError``: ``slipstream.load(game, content=PATH)`` reports every bad path the same way.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from slipstream.engine.errors import ContentError


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
