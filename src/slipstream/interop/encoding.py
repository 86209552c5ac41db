"""A fixed-length numeric picture of a seat's view: the observation every bridge hands to a learner.

A view (``state.view(seat)``) is JSON: dicts, lists, strings, numbers, booleans and ``None``. The
encoder flattens it into leaves named by their path (``/cars/1/tyre``) and gives each path fixed slots:

- a number or a boolean: one slot holding its value (a boolean as 0 or 1);
- a string: a one-hot block over the strings seen at that path, plus one "other" slot for a string
  never seen while the schema was built. Paths are pooled across list positions for this vocabulary
  (``/cars/*/tyre``), so every car shares one list of tyres. A path with more than ``MAX_CATEGORIES``
  distinct strings is free text (an event's sentence, a name) and gets no slots;
- a path that is ever ``None``: one slot saying it is present;
- a list: one slot with its length, then its items by position, up to the longest list seen.

The schema is kept pooled (``/racers/*/bag/coin-2``): a path seen at one position of a list gets its
slots at every position, so seat 5's bag has a ``coin-2`` slot even if only seat 0's ever held one.
A key missing from a view leaves its slots at zero.

The schema is learned from views met in seeded playouts (``slipstream.interop.spec``); only views
are read, so an observation holds exactly what ``view(seat)`` shows that seat and nothing more.
A path the schema never met (a list longer than any seen keeps its first items and its true length)
is left out with a warning and counted in ``ViewEncoder.unseen``; ``strict=True`` raises instead. An
empty dict has nothing to encode and is never a miss.

The view's ``events`` (what the last apply did, ``State.visible_events``) are left out of the
observation on purpose (``OMITTED``): they are a log, not the position (what they changed is in the rest
of the view), their ``data`` has a different shape for every kind of event, and in the bridges they
describe only the last step (often a chance outcome resolved inside the environment). The view's
``terms`` (the names and effect texts of the game's content, for the terminal's key) are the same at
every position: left out too.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from slipstream.engine import State

JSON = Any
Vector = npt.NDArray[np.float32]

MAX_CATEGORIES = 48
"""A string path with more distinct values than this is free text, left out of the observation."""

NUMBER_BOUND = 1.0e6
"""Numbers are clipped to +-NUMBER_BOUND so the observation space has finite bounds."""

OMITTED = ("events", "terms")
"""Top-level view keys left out of the observation (see the module docstring); a schema lists them."""
_OMITTED = frozenset(OMITTED)


def without_omitted(view: JSON, omitted: frozenset[str]) -> JSON:
    """The view without its ``omitted`` top-level keys (the view itself if it has none)."""
    if isinstance(view, dict) and not omitted.isdisjoint(view):
        return {key: value for key, value in view.items() if key not in omitted}
    return view


class UnseenViewPathError(ValueError):
    """A strict encoder met a view path its schema does not know."""


def leaves(view: JSON) -> Iterator[tuple[str, str, JSON]]:
    """Every leaf of a JSON value as ``(path, pooled path, value)``; a list also yields its length.

    The pooled path writes list positions as ``*``: the key of a string's vocabulary.
    """
    stack: list[tuple[str, str, JSON]] = [("", "", view)]
    while stack:
        path, pooled, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                stack.append((f"{path}/{key}", f"{pooled}/{key}", item))
        elif isinstance(value, (list, tuple)):
            yield f"{path}/#", f"{pooled}/#", len(value)
            for index, item in enumerate(value):
                stack.append((f"{path}/{index}", f"{pooled}/*", item))
        else:
            yield path, pooled, value


@dataclass
class SchemaBuilder:
    """Collects the pooled paths, kinds, list lengths and strings of many views, then freezes them
    into a schema for ``ViewEncoder``."""

    numbers: set[str] = field(default_factory=set)
    nullable: set[str] = field(default_factory=set)
    vocab: dict[str, set[str]] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)
    views: int = 0

    def observe(self, view: JSON) -> None:
        self.views += 1
        for _, pooled, value in leaves(without_omitted(view, _OMITTED)):
            if value is None:
                self.nullable.add(pooled)
            elif isinstance(value, str):
                words = self.vocab.setdefault(pooled, set())
                if len(words) <= MAX_CATEGORIES:
                    words.add(value)
            else:
                self.numbers.add(pooled)
                if pooled.endswith("/#") and value > self.lengths.get(pooled, -1):
                    self.lengths[pooled] = value

    @property
    def size(self) -> int:
        """How much the schema has learned: its paths, strings and list lengths (it only grows)."""
        return (len(self.numbers) + len(self.nullable) + sum(len(words) for words in self.vocab.values())
                + sum(self.lengths.values()))

    def to_json(self) -> dict[str, JSON]:
        """The schema as JSON, every list sorted."""
        categories = {
            pooled: sorted(words) for pooled, words in sorted(self.vocab.items()) if len(words) <= MAX_CATEGORIES
        }
        return {
            "numbers": sorted(self.numbers),
            "nullable": sorted(self.nullable),
            "categories": categories,
            "lengths": dict(sorted(self.lengths.items())),
            "text": sorted(pooled for pooled, words in self.vocab.items() if len(words) > MAX_CATEGORIES),
            "omitted": list(OMITTED),
        }


def expand(pooled: str, lengths: Mapping[str, int]) -> list[str]:
    """The concrete paths of a pooled path: each ``*`` becomes every position up to its list's longest."""
    out = [""]
    prefix = ""
    for part in pooled.split("/")[1:]:
        if part == "*":
            out = [f"{path}/{i}" for path in out for i in range(lengths.get(f"{prefix}/#", 0))]
        else:
            out = [f"{path}/{part}" for path in out]
        prefix = f"{prefix}/{part}"
    return out


class _Node:
    """The slots of one path of the view, and its children: the encoder walks the view and this tree
    together (no path strings are built while encoding)."""

    __slots__ = ("children", "items", "length", "number", "present", "start", "text", "words")

    def __init__(self) -> None:
        self.number: int | None = None
        self.present: int | None = None
        self.start = 0
        self.words: dict[str, int] | None = None
        self.text = False
        self.length: int | None = None
        self.children: dict[str, _Node] = {}
        self.items: list[_Node] = []

    def at(self, pooled: str, path: str) -> _Node:
        """The node of a concrete ``path`` (whose pooled form says which parts are list positions)."""
        node = self
        for pooled_part, part in zip(pooled.split("/")[1:], path.split("/")[1:], strict=True):
            if pooled_part == "#":
                return node
            if pooled_part == "*":
                index = int(part)
                while len(node.items) <= index:
                    node.items.append(_Node())
                node = node.items[index]
            else:
                node = node.children.setdefault(part, _Node())
        return node


Chain = tuple[object, "Chain"] | None
"""A path as a linked list of its parts, innermost first: made into a string only when reported."""


def _path(chain: Chain) -> str:
    parts: list[str] = []
    while chain is not None:
        parts.append(str(chain[0]))
        chain = chain[1]
    return "/" + "/".join(reversed(parts))


class ViewEncoder:
    """Turns a view into a float32 vector of fixed length ``size`` (see the module docstring).

    The first ``max_players`` slots say which seat observes (a one-hot): a shared policy needs it and
    it is no secret.
    """

    def __init__(self, schema: Mapping[str, JSON], max_players: int, strict: bool = False) -> None:
        self.schema = schema
        self.max_players = max_players
        self.strict = strict
        self.unseen: Counter[str] = Counter()
        self.omitted = frozenset(schema.get("omitted", ()))
        names: list[str] = [f"seat={i}" for i in range(max_players)]
        low: list[float] = [0.0] * max_players
        high: list[float] = [1.0] * max_players
        self._root = _Node()
        slots: dict[str, list[tuple[str, str]]] = {}
        lengths = schema["lengths"]
        for kind, pooled_paths in (("number", schema["numbers"]), ("present", schema["nullable"]),
                                   ("string", schema["categories"]), ("text", schema["text"])):
            for pooled in pooled_paths:
                for path in expand(pooled, lengths):
                    slots.setdefault(path, []).append((kind, pooled))
        for path in sorted(slots):
            for kind, pooled in sorted(slots[path]):
                node = self._root.at(pooled, path)
                if kind == "number":
                    if pooled.endswith("/#"):
                        node.length = len(names)
                    else:
                        node.number = len(names)
                    names.append(path)
                    low.append(-NUMBER_BOUND)
                    high.append(NUMBER_BOUND)
                elif kind == "present":
                    node.present = len(names)
                    names.append(f"{path}?")
                    low.append(0.0)
                    high.append(1.0)
                elif kind == "string":
                    words = schema["categories"][pooled]
                    node.start, node.words = len(names), {w: i for i, w in enumerate(words)}
                    names.extend(f"{path}={w}" for w in words)
                    names.append(f"{path}=<other>")
                    low.extend([0.0] * (len(words) + 1))
                    high.extend([1.0] * (len(words) + 1))
                else:
                    node.text = True
        self.names: tuple[str, ...] = tuple(names)
        """Each slot's name: ``seat=0``, ``/cars/1/dist``, ``/cars/1/pit?``, ``/cars/1/tyre=soft``."""
        self.low: Vector = np.array(low, dtype=np.float32)
        self.high: Vector = np.array(high, dtype=np.float32)

    @property
    def size(self) -> int:
        return len(self.names)

    def observe(self, state: State, seat: int) -> Vector:
        """``seat``'s observation of ``state`` (``encode`` of its view)."""
        return self.encode(state.view(seat), seat)

    def encode(self, view: JSON, seat: int) -> Vector:
        """The vector for ``view``, the view of ``seat``."""
        slots: list[int] = [seat]
        values: list[float] = [1.0]
        self._walk(self._root, without_omitted(view, self.omitted), slots, values, None)
        vector = np.zeros(len(self.names), dtype=np.float32)
        vector[slots] = values
        np.clip(vector, -NUMBER_BOUND, NUMBER_BOUND, out=vector)
        return vector

    def _walk(self, node: _Node, value: JSON, slots: list[int], values: list[float], chain: Chain) -> None:
        """Append the slots ``value`` sets, and their values, to ``slots`` and ``values``."""
        if value is None:
            return
        if node.present is not None:
            slots.append(node.present)
            values.append(1.0)
        if isinstance(value, dict):
            children = node.children
            for key, item in value.items():
                child = children.get(key)
                if child is None:
                    if item != {}:
                        self._miss((key, chain))
                else:
                    self._walk(child, item, slots, values, (key, chain))
        elif isinstance(value, (list, tuple)):
            if node.length is None:
                self._miss(("#", chain))
            else:
                slots.append(node.length)
                values.append(len(value))
            items = node.items
            for index, item in enumerate(value):
                if index < len(items):
                    self._walk(items[index], item, slots, values, (index, chain))
                else:
                    self._miss((index, chain))
        elif isinstance(value, str):
            words = node.words
            if words is not None:
                slots.append(node.start + words.get(value, len(words)))
                values.append(1.0)
            elif not node.text:
                self._miss(chain)
        elif node.number is not None:
            slots.append(node.number)
            values.append(value)
        else:
            self._miss(chain)

    def _miss(self, chain: Chain) -> None:
        path = _path(chain)
        if self.strict:
            raise UnseenViewPathError(
                f"view path {path!r} is not in the observation schema; rebuild the spec with more playouts "
                "or with this game configuration (slipstream.interop.spec.build_spec)"
            )
        if not self.unseen[path]:
            warnings.warn(f"view path {path!r} is not in the observation schema: left out", stacklevel=4)
        self.unseen[path] += 1
