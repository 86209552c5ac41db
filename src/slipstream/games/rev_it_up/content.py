"""Rev it Up content: tracks, chips, items, the item die and characters, validated from TOML or JSON.

Every record carries ``source`` (rulebook, derived or default). A bad file raises ``ContentError``
naming the file, the record and the field; nothing is half loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from slipstream.engine.errors import ContentError
from slipstream.games.content_file import Name, StrictModel, Text, read_content_file, validate_content

DEFAULT_PATH = Path(__file__).with_name("content.toml")

COLOURS = ("exhaust", "coin", "ecoboost", "coolant", "nitrous", "upgrade", "recall")
"""The chip colours the rules know (rulebook: "Drawing Chips and Moving Your Racer")."""
ITEM_TYPES = ("trap", "attack", "weapon", "boost", "profit", "shield")
"""Setup step 2: "you must use one item of each type"."""
EFFECTS = (
    "oil_slick", "caltrops", "rocket", "shockwave", "sticky_bomb", "emp",
    "turbo", "slipstream", "sponsor", "loose_change", "shield", "heat_sink",
)
"""The item effects this package implements; a content file assigns them to its item cards."""
ITEM_CHIPS = ("debris", "bomb")

EXHAUST, COIN, ECOBOOST, COOLANT, NITROUS, UPGRADE, RECALL, DEBRIS, BOMB = range(9)
"""Chip colours as small ints, for the rules' fast branches."""
COLOUR_CODE = {
    "exhaust": EXHAUST, "coin": COIN, "ecoboost": ECOBOOST, "coolant": COOLANT, "nitrous": NITROUS,
    "upgrade": UPGRADE, "recall": RECALL, "debris": DEBRIS, "bomb": BOMB,
}

Source = Literal["rulebook", "derived", "default"]



class RulesModel(StrictModel):
    ready_capacity: int = Field(ge=1, le=6)
    source: Source


class RevTrackModel(StrictModel):
    length: int = Field(ge=3, le=30)
    bonus: list[int] = Field(min_length=3, max_length=3)
    source: Source

    @field_validator("bonus")
    @classmethod
    def _bonus_not_negative(cls, v: list[int]) -> list[int]:
        if any(b < 0 for b in v):
            raise ValueError("bonus coins cannot be negative")
        return v


class ItemDieModel(StrictModel):
    faces: list[str] = Field(min_length=1)
    source: Source

    @field_validator("faces")
    @classmethod
    def _known_types(cls, v: list[str]) -> list[str]:
        for face in v:
            if face not in ITEM_TYPES:
                raise ValueError(f"face {face!r} is not an item type ({', '.join(ITEM_TYPES)})")
        return v


class TrackModel(StrictModel):
    id: str = Field(min_length=1)
    name: Name
    length: int = Field(ge=5, le=200)
    item_spaces: list[int]
    laps: int = Field(ge=1, le=20)
    source: Source

    @model_validator(mode="after")
    def _spaces_on_track(self) -> TrackModel:
        for s in self.item_spaces:
            if not 0 < s < self.length:
                raise ValueError(f"item space {s} is not between 1 and {self.length - 1}")
        if len(set(self.item_spaces)) != len(self.item_spaces):
            raise ValueError("item spaces repeat")
        return self


class ChipModel(StrictModel):
    colour: str
    name: Name
    """The colour's name ("Exhaust"); a chip is called by it and its level ("Exhaust 2")."""
    text: Text
    """What a chip of this colour does when drawn, its level written X."""
    costs: list[int] = Field(min_length=1, max_length=5)
    supply: list[int]
    source: Source

    @model_validator(mode="after")
    def _check(self) -> ChipModel:
        if self.colour not in COLOURS:
            raise ValueError(f"colour {self.colour!r} is not one of {', '.join(COLOURS)}")
        if len(self.supply) != len(self.costs):
            raise ValueError("supply needs one count per level, like costs")
        if any(c < 0 for c in self.costs) or any(s < 0 for s in self.supply):
            raise ValueError("costs and supply cannot be negative")
        return self


class ItemChipModel(StrictModel):
    id: str
    name: Name
    text: Text
    supply: int = Field(ge=0, le=200)
    source: Source

    @field_validator("id")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in ITEM_CHIPS:
            raise ValueError(f"item chip {v!r} is not one of {', '.join(ITEM_CHIPS)}")
        return v


class BagModel(StrictModel):
    chip: str
    count: int = Field(ge=0, le=50)
    source: Source


class ItemModel(StrictModel):
    id: str = Field(min_length=1, pattern=r"^[a-z0-9-]+$")
    name: Name
    type: str
    effect: str
    gain: Literal["ready", "opponent_bag"]
    text: Text
    source: Source

    @model_validator(mode="after")
    def _check(self) -> ItemModel:
        if self.type not in ITEM_TYPES:
            raise ValueError(f"type {self.type!r} is not one of {', '.join(ITEM_TYPES)}")
        if self.effect not in EFFECTS:
            raise ValueError(f"effect {self.effect!r} is not one of {', '.join(EFFECTS)}")
        if (self.gain == "opponent_bag") != (self.effect == "sticky_bomb"):
            raise ValueError("only the sticky_bomb effect goes to an opponent's bag")
        return self


class AsymmetricModel(StrictModel):
    remove: list[str] = Field(default_factory=list)
    add: list[str] = Field(default_factory=list)
    rev_length: int | None = Field(default=None, ge=3, le=30)
    start_items: int = Field(default=0, ge=0, le=3)
    reroll_bonus: int = Field(default=0, ge=0, le=3)


class CharacterModel(StrictModel):
    id: str = Field(min_length=1)
    name: Name
    colour: Name | None = None
    """The board's colour in words ("Red"), said with its name; none in a file that leaves it out."""
    text: Text
    """What the board's Asymmetric side changes."""
    source: Source
    asymmetric: AsymmetricModel = AsymmetricModel()


class DecisionsModel(StrictModel):
    """Each kind of decision a player makes, in one line, told the first time they meet it."""

    stop_or_go: Text
    use_items: Text
    buy: Text
    reroll: Text
    give: Text
    drop: Text
    boost: Text
    source: Source


class ContentModel(StrictModel):
    rules: RulesModel
    rev_track: RevTrackModel
    item_die: ItemDieModel
    tracks: list[TrackModel] = Field(min_length=1)
    chips: list[ChipModel] = Field(min_length=1)
    item_chips: list[ItemChipModel]
    starting_bag: list[BagModel] = Field(min_length=1)
    items: list[ItemModel] = Field(min_length=1)
    characters: list[CharacterModel] = Field(min_length=2)
    decisions: DecisionsModel


@dataclass(frozen=True)
class Kinds:
    """Chip kinds as small ints: ``names[k]`` is the notation (``exhaust-2``, ``debris``)."""

    names: tuple[str, ...]
    titles: tuple[str, ...]
    """What a player calls each kind: its colour's name and level ("Exhaust 2"), an item chip's name."""
    texts: tuple[str, ...]
    """What each kind does, from its colour's or item chip's text."""
    colour: tuple[str, ...]
    level: tuple[int, ...]
    cost: tuple[int, ...]
    up: tuple[int, ...]
    """The kind one level higher, or -1."""
    index: dict[str, int]

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class Content:
    """Validated content with chip kinds numbered."""

    source: str
    model: ContentModel
    kinds: Kinds
    supply: tuple[int, ...]
    starting_bag: tuple[int, ...]
    tracks: dict[str, TrackModel]
    items: dict[str, ItemModel]
    characters: dict[str, CharacterModel]


def _number_kinds(model: ContentModel) -> tuple[Kinds, tuple[int, ...]]:
    """Number the chip kinds in the order of their names, so chance outcomes come out sorted."""
    names: list[str] = []
    titles: list[str] = []
    texts: list[str] = []
    colour: list[str] = []
    level: list[int] = []
    cost: list[int] = []
    supply: list[int] = []
    for chip in model.chips:
        for lvl, (c, s) in enumerate(zip(chip.costs, chip.supply, strict=True), start=1):
            names.append(f"{chip.colour}-{lvl}")
            titles.append(f"{chip.name} {lvl}")
            texts.append(chip.text)
            colour.append(chip.colour)
            level.append(lvl)
            cost.append(c)
            supply.append(s)
    for ic in model.item_chips:
        names.append(ic.id)
        titles.append(ic.name)
        texts.append(ic.text)
        colour.append(ic.id)
        level.append(0)
        cost.append(0)
        supply.append(ic.supply)
    order = sorted(range(len(names)), key=lambda i: names[i])
    names = [names[i] for i in order]
    titles = [titles[i] for i in order]
    texts = [texts[i] for i in order]
    colour = [colour[i] for i in order]
    level = [level[i] for i in order]
    cost = [cost[i] for i in order]
    supply = [supply[i] for i in order]
    index = {n: i for i, n in enumerate(names)}
    up = tuple(index.get(f"{colour[i]}-{level[i] + 1}", -1) if level[i] else -1 for i in range(len(names)))
    kinds = Kinds(tuple(names), tuple(titles), tuple(texts), tuple(colour), tuple(level), tuple(cost), up, index)
    return kinds, tuple(supply)


_DRY_BAG = ("the starting bag needs a chip other than a Recall: a bag of Recalls alone can run dry for "
            "good, and then nobody could draw or buy again")


def _keeps_a_chip(kinds: Kinds, bag: list[int]) -> bool:
    """A bag never loses its non-Recall chips (they always come back to it), so one is enough for
    every racer to have something to draw in every round."""
    return any(n and kinds.colour[k] != "recall" for k, n in enumerate(bag))


def parse_content(data: Any, source: str) -> Content:
    """Validate ``data`` (the parsed file) and number its chip kinds; ``ContentError`` if bad."""
    model = validate_content(ContentModel, data, source)
    kinds, supply = _number_kinds(model)
    if len(set(kinds.names)) != len(kinds.names):
        raise ContentError(source, "chips", "colour", "a colour is listed twice")
    for colour in COLOURS:
        if colour not in kinds.colour:
            raise ContentError(source, "chips", "colour", f"no {colour} chips")
    for ic in ITEM_CHIPS:
        if ic not in kinds.index:
            raise ContentError(source, "item_chips", "id", f"no {ic} item chip")
    bag = [0] * len(kinds)
    for rec in model.starting_bag:
        if rec.chip not in kinds.index or kinds.level[kinds.index[rec.chip]] == 0:
            raise ContentError(source, f"starting_bag {rec.chip}", "chip", "not a chip kind of this content")
        bag[kinds.index[rec.chip]] += rec.count
    if not _keeps_a_chip(kinds, bag):
        raise ContentError(source, "starting_bag", "chip", _DRY_BAG)
    tracks = {t.id: t for t in model.tracks}
    items = {i.id: i for i in model.items}
    characters = {c.id: c for c in model.characters}
    for label, table, count in (("tracks", tracks, len(model.tracks)), ("items", items, len(model.items)),
                                ("characters", characters, len(model.characters))):
        if len(table) != count:
            raise ContentError(source, label, "id", "an id is used twice")
    for t in ITEM_TYPES:
        if not any(i.type == t for i in model.items):
            raise ContentError(source, "items", "type", f"no item of type {t!r}")
    for ch in model.characters:
        for fld, chips in (("remove", ch.asymmetric.remove), ("add", ch.asymmetric.add)):
            for chip in chips:
                if chip not in kinds.index or kinds.level[kinds.index[chip]] == 0:
                    raise ContentError(source, f"characters {ch.id}", f"asymmetric.{fld}",
                                       f"{chip!r} is not a chip kind of this content")
        removed = [0] * len(kinds)
        for chip in ch.asymmetric.remove:
            removed[kinds.index[chip]] += 1
        if any(r > b for r, b in zip(removed, bag, strict=True)):
            raise ContentError(source, f"characters {ch.id}", "asymmetric.remove",
                               "removes a chip the starting bag does not have")
        changed = [b - r for b, r in zip(bag, removed, strict=True)]
        for chip in ch.asymmetric.add:
            changed[kinds.index[chip]] += 1
        if not _keeps_a_chip(kinds, changed):
            raise ContentError(source, f"characters {ch.id}", "asymmetric", _DRY_BAG)
    return Content(source, model, kinds, supply, tuple(bag), tracks, items, characters)


def load_content(path: str | Path | None = None) -> Content:
    """The default content, or a user file (``.toml`` or ``.json``)."""
    p = DEFAULT_PATH if path is None or path == "" else Path(path)
    return parse_content(read_content_file(p), str(p))
