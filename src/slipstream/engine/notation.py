"""What every game's notation shares: action strings parsed once, and enum members named as views show them.

Each game reads its action strings into typed values in its own ``notation.py``; the same strings come
back on every race, so each is parsed once::

    PARSED: Final = ParseCache(_parse)

    def parse(text: str) -> Action:
        return PARSED[text]

Standard library only.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

PARSE_LIMIT = 100_000
"""The most strings a ``ParseCache`` keeps: a game's strings are far fewer (a few thousand at most), so
only strings from outside the game's notation (a fuzzer's) could reach it."""


class ParseCache(dict[str, T]):
    """Action strings and their typed values: ``cache[text]`` parses ``text`` the first time it is asked
    for and keeps the value, up to ``limit`` strings (after that a new string is parsed on every call, so
    the cache never grows without bound). A string that does not parse raises the parse function's error
    and is not kept.

    A dict whose ``__missing__`` parses: a string met before costs one dictionary lookup, in the compiled
    build as in the interpreted one.
    """

    __slots__ = ("limit", "parse")

    def __init__(self, parse: Callable[[str], T], limit: int = PARSE_LIMIT) -> None:
        super().__init__()
        self.parse = parse
        self.limit = limit

    def __missing__(self, text: str) -> T:
        value = self.parse(text)
        if len(self) < self.limit:
            self[text] = value
        return value


def view_names(members: type[enum.IntEnum]) -> tuple[str, ...]:
    """Each member's name as a view shows it, indexed by the member's value (``names[Stage.ROLL]``): its
    name in lower case with hyphens between the words (``CARDS_AFTER`` -> ``"cards-after"``).

    The members must be numbered 0, 1, 2, ... in order, so the value indexes the tuple; anything else is a
    ``ValueError`` when the game is imported.
    """
    names = []
    for index, member in enumerate(members):
        if member.value != index:
            raise ValueError(f"{members.__name__}.{member.name} is {member.value}, not {index}: number the members "
                             "0, 1, 2, ... in order")
        names.append(member.name.lower().replace("_", "-"))
    return tuple(names)
