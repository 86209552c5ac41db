"""Scrap Racer content: decks, markers, racers and tracks, loaded from data files and validated.

The shipped files are ``content.toml`` and ``tracks/*.toml`` beside this module. A user may pass
their own (option ``content=FILE``, or ``track=FILE.toml``); a bad file raises ``ContentError``
naming the file, the record and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from slipstream.engine.errors import ContentError
from slipstream.games.content_file import Name, NamedRecord, StrictModel, Text, read_content_file, validate_content

HERE = Path(__file__).resolve().parent
TRACK_DIR = HERE / "tracks"

Source = Literal["rulebook", "derived", "default"]
CRASH_CARDS = (
    "advance-2", "advance-3", "advance-5", "two-dice", "five-forward-two-back",
    "three-forward", "stay-put", "catching-up-2", "backwards-die", "push-5",
    "backwards-4", "backwards-6", "catching-up-4", "loss-of-position", "last-place-4",
)
BONUS_CARDS = ("forward-3", "forward-5", "forward-7", "straight", "curve", "catch-up")
GOAL_CARDS = ("all-but-first", "all-but-first-two", "last-two", "last-place")
BOOST_TYPES = ("plus-minus", "reroll", "turn")
ABILITIES = ("crusher", "hover", "jackal", "steel-jacket", "swifty", "twister")
Count = Annotated[int, Field(ge=0, le=1000)]



def _check_names(cards: dict[str, int], known: tuple[str, ...]) -> dict[str, int]:
    for name in cards:
        if name not in known:
            raise ValueError(f"unknown card {name!r}; known: {', '.join(known)}")
    if sum(cards.values()) == 0:
        raise ValueError("a deck needs at least one card")
    return cards


class CrashPile(StrictModel):
    doubles: list[Annotated[int, Field(ge=1, le=6)]]
    name: Name
    text: Text
    source: Source
    cards: dict[str, Count]

    @field_validator("cards")
    @classmethod
    def _known(cls, value: dict[str, int]) -> dict[str, int]:
        return _check_names(value, CRASH_CARDS)


class BonusDeck(StrictModel):
    source: Source
    name: Name
    text: Text
    cards: dict[str, Count]

    @field_validator("cards")
    @classmethod
    def _known(cls, value: dict[str, int]) -> dict[str, int]:
        return _check_names(value, BONUS_CARDS)


class GoalDeck(StrictModel):
    source: Source
    name: Name
    text: Text
    cards: dict[str, Count]

    @field_validator("cards")
    @classmethod
    def _known(cls, value: dict[str, int]) -> dict[str, int]:
        return _check_names(value, GOAL_CARDS)


class BoostMarkers(StrictModel):
    source: Source
    markers: dict[str, Count]

    @field_validator("markers")
    @classmethod
    def _known(cls, value: dict[str, int]) -> dict[str, int]:
        for name in value:
            if name not in BOOST_TYPES:
                raise ValueError(f"unknown boost marker {name!r}; known: {', '.join(BOOST_TYPES)}")
        return value


class BonusMarkers(StrictModel):
    source: Source
    count: Count
    per_card: Annotated[int, Field(ge=1, le=10)]
    hover_per_card: Annotated[int, Field(ge=1, le=10)] | None = None
    """Hover's number ("needs only 2"); when absent, one fewer than ``per_card`` (at least 1)."""

    @field_validator("hover_per_card")
    @classmethod
    def _hover_needs_fewer(cls, value: int | None, info: ValidationInfo) -> int | None:
        per_card = info.data.get("per_card")
        if value is not None and per_card is not None and value > per_card:
            raise ValueError(f"Hover needs only {value} markers: not more than per_card ({per_card})")
        return value


class Racer(NamedRecord):
    """A racer; its ``text`` is its ability (rulebook, "Racer abilities")."""

    KNOWN = ABILITIES
    WHAT = "racer"
    source: Source


CARD_IDS = (*CRASH_CARDS, *BONUS_CARDS, *GOAL_CARDS, *BOOST_TYPES)
"""Every card and boost marker the rules know: each has one ``[[cards]]`` record (its name and text)."""


class CardRecord(NamedRecord):
    """A crash, bonus or goal card or a boost marker, as a player reads it."""

    KNOWN = CARD_IDS
    WHAT = "card"
    source: Source


class Decisions(StrictModel):
    """Each kind of decision a player makes, in one line, told the first time they meet it."""

    order: Text
    roll: Text
    double: Text
    cards: Text
    fight: Text
    source: Source


class ContentFile(StrictModel):
    crash: dict[str, CrashPile]
    bonus_cards: BonusDeck
    goal_cards: GoalDeck
    boost_markers: BoostMarkers
    bonus_markers: BonusMarkers
    racers: list[Racer]
    cards: list[CardRecord]
    decisions: Decisions


class Tile(StrictModel):
    kind: Literal["S", "R", "L"]
    boost: list[Annotated[int, Field(ge=1)]] = Field(default_factory=list)
    short: bool = False


class TrackFile(StrictModel):
    name: str
    source: Source
    straight_spaces: Annotated[int, Field(ge=1, le=20)]
    curve_spaces: Annotated[int, Field(ge=1, le=20)]
    tiles: list[Tile]


@dataclass(frozen=True)
class Content:
    """The validated content: crash piles by double value, decks as (name, count) tuples."""

    pile_of_double: tuple[int, ...]                  # index by die value 1-6 -> pile number
    piles: tuple[tuple[tuple[str, int], ...], ...]   # pile number -> (effect, count)
    pile_names: tuple[str, ...]
    bonus: tuple[tuple[str, int], ...]
    goal: tuple[tuple[str, int], ...]
    boost: tuple[tuple[str, int], ...]
    bonus_markers: int
    markers_per_card: int
    hover_markers_per_card: int
    racers: tuple[tuple[str, str], ...]             # (id, name)
    racer_texts: dict[str, str]                      # racer id -> its ability
    titles: dict[str, str]                           # card or boost marker id -> its name
    texts: dict[str, str]                            # card or boost marker id -> its effect
    decks: dict[str, tuple[str, str]]                # deck ("crash-low", "bonus", "goal") -> (name, text)
    decisions: Decisions


@dataclass(frozen=True)
class Track:
    """A circuit: one entry per space, from the first space past the finish line."""

    name: str
    kinds: str                       # "S" or "C" per space
    boost: tuple[int, ...]           # 0-based boost spaces, clockwise from the line
    source: str

    @property
    def length(self) -> int:
        return len(self.kinds)


def _stamp(path: Path) -> tuple[int, int]:
    """The file's modification time and size: a cached load is redone when the file changes."""
    try:
        st = path.stat()
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


def load_content(path: Path | None = None) -> Content:
    """The content file (the shipped one when ``path`` is None), validated."""
    path = path or HERE / "content.toml"
    return _load_content(path, _stamp(path))


@cache
def _load_content(path: Path, stamp: tuple[int, int]) -> Content:
    data = validate_content(ContentFile, read_content_file(path), str(path))
    pile_of = [-1] * 7
    piles = []
    names = []
    for number, (name, pile) in enumerate(data.crash.items()):
        for face in pile.doubles:
            if pile_of[face] != -1:
                raise ContentError(str(path), f"crash.{name}", "doubles", f"double {face} is in two piles")
            pile_of[face] = number
        piles.append(tuple(sorted((e, n) for e, n in pile.cards.items() if n > 0)))
        names.append(name)
    missing = [face for face in range(1, 7) if pile_of[face] == -1]
    if missing:
        raise ContentError(str(path), "crash", "doubles", f"no pile for double {missing[0]}")
    ids = [racer.id for racer in data.racers]
    if sorted(ids) != sorted(set(ids)) or len(ids) < 6:
        raise ContentError(str(path), "racers", "id", "need the six racers, each once")
    cards = {c.id: c for c in data.cards}
    if len(cards) != len(data.cards):
        raise ContentError(str(path), "cards", "id", "a card has two records")
    used = [*(c for pile in data.crash.values() for c in pile.cards), *data.bonus_cards.cards,
            *data.goal_cards.cards, *data.boost_markers.markers]
    for card in used:
        if card not in cards:
            raise ContentError(str(path), "cards", "id", f"no record (name and text) for the card {card!r}")
    return Content(
        pile_of_double=tuple(pile_of),
        piles=tuple(piles),
        pile_names=tuple(names),
        bonus=tuple(sorted((c, n) for c, n in data.bonus_cards.cards.items() if n > 0)),
        goal=tuple(sorted((c, n) for c, n in data.goal_cards.cards.items() if n > 0)),
        boost=tuple((t, data.boost_markers.markers.get(t, 0)) for t in BOOST_TYPES),
        bonus_markers=data.bonus_markers.count,
        markers_per_card=data.bonus_markers.per_card,
        hover_markers_per_card=hover if (hover := data.bonus_markers.hover_per_card) is not None
        else max(1, data.bonus_markers.per_card - 1),
        racers=tuple((racer.id, racer.name) for racer in data.racers),
        racer_texts={racer.id: racer.text for racer in data.racers},
        titles={c.id: c.name for c in data.cards},
        texts={c.id: c.text for c in data.cards},
        decks={**{f"crash-{name}": (pile.name, pile.text) for name, pile in data.crash.items()},
               "bonus": (data.bonus_cards.name, data.bonus_cards.text),
               "goal": (data.goal_cards.name, data.goal_cards.text)},
        decisions=data.decisions,
    )


# --- tracks -------------------------------------------------------------------------------------

# Closure is checked exactly: with straights of length 1 and curves of radius r, every displacement is
# an integer combination of the eight unit vectors e_0..e_7 at 45-degree steps, and e_{k+4} = -e_k.
# e_0..e_3 are independent over the rationals, so a circuit closes exactly when the straights and the
# arcs each sum to zero in that basis and the curves turn a full circle.


def _add(acc: list[int], direction: int, amount: int) -> None:
    d = direction % 8
    if d < 4:
        acc[d] += amount
    else:
        acc[d - 4] -= amount


def check_closed(tiles: list[Tile], where: str) -> None:
    """Raise ``ContentError`` unless the tiles form a closed circuit."""
    if not tiles:
        raise ContentError(where, "tiles", "kind", "a track needs at least one tile")
    heading = 0
    straight = [0, 0, 0, 0]
    arcs = [0, 0, 0, 0]
    for tile in tiles:
        if tile.kind == "S":
            _add(straight, heading, 1)
        elif tile.kind == "R":           # turning clockwise by 45 degrees
            _add(arcs, heading - 2, 1)
            _add(arcs, heading - 3, -1)
            heading -= 1
        else:                            # turning anticlockwise by 45 degrees
            _add(arcs, heading + 2, 1)
            _add(arcs, heading + 3, -1)
            heading += 1
    if heading % 8 != 0 or abs(heading) != 8:
        raise ContentError(where, "tiles", "kind",
                           f"the curves turn {abs(heading) * 45} degrees, not one full circle: not a closed circuit")
    if any(straight) or any(arcs):
        raise ContentError(where, "tiles", "kind",
                           "the tiles do not come back to the finish line: not a closed circuit")


def build_track(data: TrackFile, where: str, short: bool) -> Track:
    tiles = [t for t in data.tiles if not (short and t.short)]
    check_closed(tiles, where)
    kinds: list[str] = []
    boost: list[int] = []
    for index, tile in enumerate(tiles):
        size = data.straight_spaces if tile.kind == "S" else data.curve_spaces
        for b in tile.boost:
            if b > size:
                problem = f"space {b} is not on a tile of {size} spaces"
                raise ContentError(where, f"tiles #{index + 1}", "boost", problem)
            boost.append(len(kinds) + b - 1)
        kinds.extend(("S" if tile.kind == "S" else "C") * size)
    if len(kinds) < 6:
        raise ContentError(where, "tiles", "kind", "a track needs at least 6 spaces")
    name = data.name + (" (short race)" if short else "")
    return Track(name=name, kinds="".join(kinds), boost=tuple(sorted(set(boost))), source=data.source)


def track_names() -> list[str]:
    return sorted(p.stem for p in TRACK_DIR.glob("*.toml"))


def load_track(track: str, short: bool = False) -> Track:
    """A shipped track by name (``A``), or a track file (a path ending ``.toml``)."""
    path = Path(track) if track.endswith(".toml") else TRACK_DIR / f"{track}.toml"
    return _load_track(path, short, _stamp(path))


@cache
def _load_track(path: Path, short: bool, stamp: tuple[int, int]) -> Track:
    data = validate_content(TrackFile, read_content_file(path), str(path))
    return build_track(data, str(path), short)
