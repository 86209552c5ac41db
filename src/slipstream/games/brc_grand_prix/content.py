"""BRC Grand Prix content: board, pit lane, flag spaces, Attack Die and flag deck, from a data file.

The packaged ``content.toml`` holds our defaults (every record marks its ``source``); a player who owns
the board can pass their own file with ``content=PATH`` (TOML or JSON of the same shape). A bad file
raises ``ContentError`` naming the file, the record and the field, and nothing is loaded.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from slipstream.engine.errors import ContentError
from slipstream.games.content_file import (
    Name,
    NamedRecord,
    StrictModel,
    Text,
    each_once,
    read_content_file,
    validate_content,
)

Source = Literal["rulebook", "derived", "default"]
Colour = Literal["green", "yellow", "blue"]
COLOURS: tuple[Colour, ...] = ("green", "yellow", "blue")
EFFECT_RE = re.compile(r"^(none|drs|tyre-saver|no-overtake|let-by|blue-miss|(move|roll)[+-][1-6])$")
EFFECTS = ("none", "move+", "move-", "roll", "drs", "tyre-saver", "no-overtake", "let-by", "blue-miss")
"""The kinds of effect a flag card's line can have (a line ``move+2`` is of kind ``move+``, ``roll-1`` of
``roll``): each has one ``[[effects]]`` record saying it in words."""
TYRES = ("soft", "hard", "wet")



class TrackModel(StrictModel):
    source: Source
    length: int = Field(ge=12, le=200)


class PitModel(StrictModel):
    source: Source
    entry_after: int = Field(ge=0)
    spaces: int = Field(ge=1, le=30)
    line_after: int = Field(ge=0)
    boxes: list[int] = Field(min_length=2, max_length=6)
    weather_space: int = Field(ge=1)
    rejoin: int = Field(ge=0)

    @model_validator(mode="after")
    def _inside_the_pit_lane(self) -> PitModel:
        if self.line_after > self.spaces:
            raise ValueError(f"line_after {self.line_after} is past the last pit space {self.spaces}")
        if self.weather_space > self.spaces:
            raise ValueError(f"weather_space {self.weather_space} is past the last pit space {self.spaces}")
        for box in self.boxes:
            if not 1 <= box <= self.spaces:
                raise ValueError(f"pit box {box} is not a pit-lane space 1..{self.spaces}")
        if len(set(self.boxes)) != len(self.boxes):
            raise ValueError("two cars share a pit box")
        return self


class FlagModel(StrictModel):
    source: Source
    colour: Colour
    name: Name
    text: Text
    spaces: list[int] = Field(min_length=1)


class AttackFaceModel(StrictModel):
    source: Source
    face: Literal["pass", "fail", "crash"]
    count: int = Field(ge=0, le=20)


class CardModel(StrictModel):
    source: Source
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: Name
    green: str = Field(pattern=EFFECT_RE.pattern)
    yellow: str = Field(pattern=EFFECT_RE.pattern)
    blue: str = Field(pattern=EFFECT_RE.pattern)


class EffectModel(NamedRecord):
    """One kind of flag-card effect in words; ``{n}``, ``{spaces}`` and ``{signed}`` in its text take the
    line's number (``2``, ``2 spaces``, ``+2``)."""

    KNOWN = EFFECTS
    WHAT = "effect"
    source: Source

    @field_validator("text")
    @classmethod
    def _placeholders(cls, v: str) -> str:
        try:
            v.format(n=1, signed="+1", spaces="1 space")
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"only {{n}}, {{spaces}} and {{signed}} may stand in it ({exc})") from None
        return v


class TyreModel(NamedRecord):
    KNOWN = TYRES
    WHAT = "tyre"
    source: Source


class DecisionsModel(StrictModel):
    """Each kind of decision a player makes, in one line, told the first time they meet it."""

    source: Source
    starting_tyre: Text
    pit: Text
    overtake: Text
    tyre_change: Text


class ContentModel(StrictModel):
    track: TrackModel
    pit: PitModel
    flags: list[FlagModel] = Field(min_length=1)
    attack_die: list[AttackFaceModel] = Field(min_length=1)
    effects: list[EffectModel]
    tyres: list[TyreModel]
    decisions: DecisionsModel
    cards: list[CardModel] = Field(min_length=1)

    @field_validator("effects")
    @classmethod
    def _every_effect(cls, v: list[EffectModel]) -> list[EffectModel]:
        each_once(v, EFFECTS)
        return v

    @field_validator("tyres")
    @classmethod
    def _every_tyre(cls, v: list[TyreModel]) -> list[TyreModel]:
        each_once(v, TYRES)
        return v


@dataclass(frozen=True)
class Content:
    """The validated content, in the plain form the rules use."""

    length: int
    pit_entry_after: int
    pit_spaces: int
    pit_line_after: int
    pit_boxes: tuple[int, ...]
    weather_space: int
    rejoin: int
    flag_colour: tuple[str, ...]
    """``flag_colour[space]`` is ``"green"``, ``"yellow"``, ``"blue"`` or ``""``."""
    attack_faces: tuple[tuple[str, int], ...]
    card_ids: tuple[str, ...]
    card_lines: tuple[dict[str, str], ...]
    """``card_lines[i][colour]`` is card ``i``'s effect for that colour."""
    source: str
    model: ContentModel
    """The validated file: the names and texts a player reads (``words``)."""

    @property
    def bypass_before_line(self) -> int:
        """Main spaces the pit lane skips before the line (after the entry branch)."""
        return self.length - 1 - self.pit_entry_after

    @property
    def bypass(self) -> int:
        """Main spaces the pit lane skips in all: from the entry branch to the rejoin space."""
        return self.bypass_before_line + self.rejoin



def parse_content(data: Any, source: str) -> Content:
    """Validate raw data (from TOML or JSON) into ``Content``; ``ContentError`` if anything is wrong."""
    model = validate_content(ContentModel, data, source)
    length = model.track.length
    pit = model.pit
    if pit.entry_after >= length - 1:
        raise ContentError(source, "pit", "entry_after", f"must be below the last space {length - 1}")
    if pit.rejoin > pit.entry_after:
        raise ContentError(source, "pit", "rejoin", "the rejoin space must come before the pit entry")
    colour = [""] * length
    for i, flag in enumerate(model.flags):
        for space in flag.spaces:
            if not 0 <= space < length:
                raise ContentError(source, f"flags #{i + 1}", "spaces", f"space {space} is not on the track")
            if colour[space]:
                raise ContentError(source, f"flags #{i + 1}", "spaces", f"space {space} already has a flag")
            colour[space] = flag.colour
    faces: dict[str, int] = {}
    for i, face in enumerate(model.attack_die):
        if face.face in faces:
            raise ContentError(source, f"attack_die #{i + 1}", "face", f"{face.face!r} is listed twice")
        faces[face.face] = face.count
    if sum(faces.values()) == 0:
        raise ContentError(source, "attack_die", "count", "the Attack Die needs at least one face")
    ids = [c.id for c in model.cards]
    for i, card_id in enumerate(ids):
        if card_id in ids[:i]:
            raise ContentError(source, f"cards #{i + 1}", "id", f"card id {card_id!r} is used twice")
    return Content(
        length=length,
        pit_entry_after=pit.entry_after,
        pit_spaces=pit.spaces,
        pit_line_after=pit.line_after,
        pit_boxes=tuple(pit.boxes),
        weather_space=pit.weather_space,
        rejoin=pit.rejoin,
        flag_colour=tuple(colour),
        attack_faces=tuple(sorted(faces.items())),
        card_ids=tuple(ids),
        card_lines=tuple({"green": c.green, "yellow": c.yellow, "blue": c.blue} for c in model.cards),
        source=source,
        model=model,
    )


def load_content(path: str | None = None) -> Content:
    """The packaged content, or a user's TOML/JSON file."""
    if path is None:
        text = resources.files(__package__).joinpath("content.toml").read_text(encoding="utf-8")
        return parse_content(tomllib.loads(text), "brc_grand_prix/content.toml")
    return parse_content(read_content_file(Path(path)), str(path))
