"""The rule an event applied, in the words a player reads.

An event names its rule as our rules text does: a rulebook section (``Setup 7)``), a decision of
``docs/rules/<game>.md`` by its code (``Main Enemy Moves (HH-A9)``, a bare ``RIU-G13``), or both. The
code is for programs (the rules page finds the paragraph by it); a player reads the words only, with a
section number ending in a full stop, since ``7)`` in brackets reads as a stray. The terminal and the
browser both show ``rule_words``, so the two never disagree.
"""

from __future__ import annotations

import re
from functools import lru_cache

DECISION_CODE = r"[A-Z][A-Z0-9]{0,3}-[A-Z]?\d+"
"""A decision code of ``docs/rules/<game>.md``: ``RC-G7``, ``RIU-G13``, ``F1-13``, ``HH-A9``."""

_CODES = re.compile(rf"\s*\((?:{DECISION_CODE}(?:,\s*)?)+\)|^(?:{DECISION_CODE}(?:,\s*)?)+$")
_ENUMERATOR = re.compile(r"(?:(?<=^)|(?<=\s))([A-Z]|\d{1,2})\)")


@lru_cache(maxsize=4096)
def rule_words(rule: str) -> str:
    """``rule`` without its decision codes, section numbers ending in a full stop: ``Setup 7.`` for
    ``Setup 7)``, ``Main Enemy Moves`` for ``Main Enemy Moves (HH-A9)``, empty for a bare ``RIU-G13``.
    Cached: a game names a few dozen rules, and every event a page is sent carries one (the server
    turned each one's two regular expressions thousands of times a second)."""
    return _ENUMERATOR.sub(r"\1.", _CODES.sub("", rule).strip())
