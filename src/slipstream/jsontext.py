"""Compact JSON text, written and read quickly: the web server's messages and the simulator's records.

With orjson (pinned in the ``web`` and ``sim`` extras) writing costs about a fifth of the standard
library's encoder and reading about half; without it the standard library writes the same text: no
spaces, non-ASCII as is, integer keys as strings, tuples as arrays. Not a number (NaN, infinity) has
no JSON text: orjson writes ``null`` for it where the standard library writes ``NaN``, so values that
may hold one are checked before they are written (the simulator's metrics are).
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - exercised where orjson is not installed
    orjson = None  # type: ignore[assignment]

COMPACT = (",", ":")
"""JSON separators: no spaces (smaller, quicker to write and to parse)."""


def encode(value: Any) -> str:
    """``value`` as compact JSON text."""
    if orjson is not None:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    return json.dumps(value, separators=COMPACT, ensure_ascii=False)


def decode(text: str | bytes) -> Any:
    """The value of JSON ``text`` (``json.JSONDecodeError``, a ``ValueError``, when it is not JSON;
    orjson's own error is a subclass of it)."""
    if orjson is not None:
        return orjson.loads(text)
    return json.loads(text)
