"""Rush 'n' Crush content: the gear matrix, the dice, cars, drivers and equipment.

``content.toml`` ships beside this module (gear matrix, dice, dashboards, cars, drivers, equipment and
hazards); every shipped record carries ``source`` (rulebook, derived or default). A user's own content
file (option ``content``) replaces it. A bad file raises ``ContentError`` naming the file, the record and
the field; nothing is half loaded. The track tiles and courses are in ``course.py``.

What a player reads comes from the same file: every car, driver, piece of equipment and hazard (fixed
obstruction, wreck, mine) has a display ``name`` and an effect ``text``, and the first decision of each
kind a one-line explanation (``[decisions]``). Gears are said in words by one helper, ``gear_words``
("gear 2, yellow zone (speed 6)").

The gear matrix is turned here into plain tuples of ints that the rules index (``Gear``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import Field, field_validator, model_validator

from slipstream.engine.errors import ContentError
from slipstream.games.content_file import StrictModel, read_content_file, validate_content

HERE = Path(__file__).parent
CONTENT_PATH: Final = HERE / "content.toml"

FIXED_PIECES: Final = ("armor-shielding", "onboard-computer", "combat-bumper", "minelayer")
"""The four fixed pieces of a car (rulebook: Introduction)."""
WEAPONS: Final = ("side-bumper", "flamer", "machine-gun", "circular-saw")
"""The four optional activatable pieces of a driver (rulebook: Introduction)."""
PIECES: Final = (*WEAPONS, "rocket-booster", "fire-extinguisher")
"""Every activatable piece, in the order of the ``armed``/``moved`` bits of a car (bit i = PIECES[i])."""
EQUIPMENT: Final = (*FIXED_PIECES, *PIECES)
"""Every piece of equipment the rules know: each has one ``[[equipment]]`` record (its name and text)."""
HAZARDS: Final = ("obstruction", "wreck", "mine")
"""The things on the track besides the cars: each has one ``[[hazards]]`` record."""
DECISIONS: Final = ("gear", "points", "move", "swerve", "after", "equipment")
"""The kinds of decision a player makes, each explained in one line by ``[decisions]`` the first time."""
SIDE_BUMPER, FLAMER, MACHINE_GUN, CIRCULAR_SAW, ROCKET_BOOSTER, FIRE_EXTINGUISHER = range(6)

Source = Literal["rulebook", "derived", "default"]



class GearModel(StrictModel):
    speeds: list[int] = Field(min_length=3)
    zones: list[str] = Field(min_length=1, max_length=8)
    gears: int = Field(ge=1, le=9)
    source: Source
    gap: str = ""

    @model_validator(mode="after")
    def _rows(self) -> GearModel:
        if self.speeds[0] != 0:
            raise ValueError("the first speed row is the zero spot, speed 0")
        if any(b <= a for a, b in zip(self.speeds, self.speeds[1:], strict=False)):
            raise ValueError("speeds must rise from row to row")
        if len(self.speeds) != self.gears + len(self.zones):
            raise ValueError("node (gear g, zone c) sits on row g + c: speeds needs gears + zones rows")
        return self


WhiteRule = Literal["unlimited", "none"] | tuple[Literal["highest", "lowest"], int]


class DiceModel(StrictModel):
    red_per_zone: list[int]
    heat_on: int = Field(ge=0, le=6)
    white: list[WhiteRule]
    source: Source
    gap: str = ""

    @field_validator("red_per_zone")
    @classmethod
    def _red(cls, v: list[int]) -> list[int]:
        if any(not 0 <= n <= 6 for n in v):
            raise ValueError("a zone rolls 0 to 6 red dice")
        return v

    @field_validator("white")
    @classmethod
    def _white(cls, v: list[WhiteRule]) -> list[WhiteRule]:
        for rule in v:
            if isinstance(rule, tuple) and not 1 <= rule[1] <= 6:
                raise ValueError("a speed row rolls 1 to 6 white dice")
        return v


class BaseDashboardModel(StrictModel):
    structure: int = Field(ge=1, le=30)
    heat_capacity: int = Field(ge=1, le=30)
    steering: int = Field(ge=0, le=30)
    brake: int = Field(ge=0, le=30)
    turbo: int = Field(ge=0, le=30)
    mines: int = Field(ge=0, le=20)
    activations: int = Field(ge=1, le=6)
    source: Source


def _different_pieces(pieces: list[str], allowed: tuple[str, ...], what: str) -> list[str]:
    """A car's fixed pieces or a driver's weapons: known pieces, each once."""
    for piece in pieces:
        if piece not in allowed:
            raise ValueError(f"{piece!r} is not a {what} ({', '.join(allowed)})")
    if len(set(pieces)) != len(pieces):
        raise ValueError(f"the two {what}s must differ")
    return pieces


Name = Annotated[str, Field(min_length=1, max_length=60)]
"""A display name, as a player reads it."""
Text = Annotated[str, Field(min_length=1, max_length=400)]
"""An effect text: what the thing does, in a sentence or two."""


class CarModel(StrictModel):
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: Name
    text: Text
    team: str
    fixed: list[str] = Field(min_length=2, max_length=2)
    structure: int = Field(ge=1, le=30)
    heat_capacity: int = Field(ge=1, le=30)
    steering: int = Field(ge=0, le=30)
    brake: int = Field(ge=0, le=30)
    turbo: int = Field(ge=0, le=30)
    source: Source

    @field_validator("fixed")
    @classmethod
    def _fixed(cls, v: list[str]) -> list[str]:
        return _different_pieces(v, FIXED_PIECES, "fixed piece")


class DriverModel(StrictModel):
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: Name
    text: Text
    team: str
    weapons: list[str] = Field(min_length=2, max_length=2)
    source: Source

    @field_validator("weapons")
    @classmethod
    def _weapons(cls, v: list[str]) -> list[str]:
        return _different_pieces(v, WEAPONS, "weapon")


class RuleRecordModel(StrictModel):
    """A thing the rules know by its id (``KNOWN``), named and explained by the content."""

    KNOWN: ClassVar[tuple[str, ...]] = ()
    WHAT: ClassVar[str] = ""
    id: str
    name: Name
    text: Text
    source: Source

    @field_validator("id")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in cls.KNOWN:
            raise ValueError(f"{v!r} is not a {cls.WHAT} the rules know ({', '.join(cls.KNOWN)})")
        return v


class EquipmentModel(RuleRecordModel):
    """A piece of equipment: a car's fixed piece or a driver's activatable one (``EQUIPMENT``)."""

    KNOWN = EQUIPMENT
    WHAT = "piece of equipment"


class HazardModel(RuleRecordModel):
    """A fixed obstruction, a wreck or a mine (``HAZARDS``)."""

    KNOWN = HAZARDS
    WHAT = "hazard"


class DecisionsModel(StrictModel):
    """One line for each kind of decision, shown the first time a player meets it (``DECISIONS``)."""

    gear: Text
    points: Text
    move: Text
    swerve: Text
    after: Text
    equipment: Text


def _each_once(records: list[EquipmentModel] | list[HazardModel], known: tuple[str, ...]) -> None:
    """Every id the rules know has one record."""
    ids = [r.id for r in records]
    for record_id in known:
        if ids.count(record_id) != 1:
            raise ValueError(f"{record_id!r} needs exactly one record (it has {ids.count(record_id)})")


class ContentModel(StrictModel):
    gear: GearModel
    dice: DiceModel
    base: BaseDashboardModel
    cars: list[CarModel] = Field(min_length=2)
    drivers: list[DriverModel] = Field(min_length=2)
    equipment: list[EquipmentModel]
    hazards: list[HazardModel]
    decisions: DecisionsModel

    @field_validator("equipment")
    @classmethod
    def _every_piece(cls, v: list[EquipmentModel]) -> list[EquipmentModel]:
        _each_once(v, EQUIPMENT)
        return v

    @field_validator("hazards")
    @classmethod
    def _every_hazard(cls, v: list[HazardModel]) -> list[HazardModel]:
        _each_once(v, HAZARDS)
        return v


# --- the gear matrix and the dice -----------------------------------------------------------------------


@dataclass(frozen=True)
class Gear:
    """The gear matrix as a graph (RC-G1). Node 0 is the zero spot; node (g, c) is 1 + (g-1)*zones + c.

    ``accelerate[n]``/``brake[n]``/``shift[n]``: the nodes one white line up, one white line down, and
    along the dashed lines of the same row. ``steer[n]`` is the white-dice rule of the node's speed row:
    ``(-1, 0)`` unlimited, ``(0, 0)`` none, ``(+1, k)`` highest of k, ``(-2, k)`` lowest of k.
    """

    names: tuple[str, ...]
    gear: tuple[int, ...]
    zone: tuple[int, ...]
    speed: tuple[int, ...]
    accelerate: tuple[tuple[int, ...], ...]
    brake: tuple[tuple[int, ...], ...]
    shift: tuple[tuple[int, ...], ...]
    steer: tuple[tuple[int, int], ...]
    red_dice: tuple[int, ...]
    zone_names: tuple[str, ...]
    titles: tuple[str, ...]
    """Each node in words (``gear_words``): "the zero spot (speed 0)", "gear 2, yellow zone (speed 6)"."""

    def node(self, name: str) -> int:
        return self.names.index(name)


def gear_words(gear: int, zone: str | None, speed: int) -> str:
    """A node of the gear matrix as a player reads the matrix: its gear column, its colour zone and the
    speed of its row ("gear 2, yellow zone (speed 6)"); gear 0 is the zero spot."""
    if not gear:
        return f"the zero spot (speed {speed})"
    return f"gear {gear}, {zone} zone (speed {speed})"


UNLIMITED: Final = -1
HIGHEST: Final = 1
LOWEST: Final = -2


def build_gear(content: ContentModel, lines: str) -> Gear:
    """The matrix of rules/rush-n-crush-content.md section 1: every white line, or with ``lines =
    "upshift-at-high-revs"`` only the diagonal lines from and to orange and red nodes."""
    matrix = content.gear
    zones = len(matrix.zones)
    names = ["zero"]
    gear = [0]
    zone = [-1]
    speed = [0]
    for gear_number in range(1, matrix.gears + 1):
        for zone_index in range(zones):
            names.append(f"g{gear_number}{matrix.zones[zone_index][0]}")
            gear.append(gear_number)
            zone.append(zone_index)
            speed.append(matrix.speeds[gear_number + zone_index])

    def node(gear_number: int, zone_index: int) -> int:
        inside = 1 <= gear_number <= matrix.gears and 0 <= zone_index < zones
        return 1 + (gear_number - 1) * zones + zone_index if inside else -1

    def diagonal_kept(zone_index: int) -> bool:
        return lines == "full" or zone_index >= zones // 2

    up: list[list[int]] = [[node(1, 0)]]
    down: list[list[int]] = [[]]
    for gear_number in range(1, matrix.gears + 1):
        for zone_index in range(zones):
            diagonal = diagonal_kept(zone_index)
            up.append([index for index in (node(gear_number, zone_index + 1),
                                           node(gear_number + 1, zone_index) if diagonal else -1) if index >= 0])
            down.append([index for index in (node(gear_number, zone_index - 1),
                                             node(gear_number - 1, zone_index) if diagonal else -1) if index >= 0])
    rows: dict[int, list[int]] = {}
    for index in range(1, len(names)):
        rows.setdefault(gear[index] + zone[index], []).append(index)
    shift = [()] + [tuple(other for other in rows[gear[index] + zone[index]] if other != index)
                    for index in range(1, len(names))]
    white = content.dice.white
    steer: list[tuple[int, int]] = [(0, 0)]
    for index in range(1, len(names)):
        rule = white[gear[index] + zone[index] - 1] if gear[index] + zone[index] - 1 < len(white) else "none"
        if rule == "unlimited":
            steer.append((UNLIMITED, 0))
        elif rule == "none":
            steer.append((0, 0))
        else:
            steer.append((HIGHEST if rule[0] == "highest" else LOWEST, rule[1]))
    red = content.dice.red_per_zone
    titles = tuple(gear_words(gear[index], matrix.zones[zone[index]] if index else None, speed[index])
                   for index in range(len(names)))
    return Gear(tuple(names), tuple(gear), tuple(zone), tuple(speed), tuple(tuple(x) for x in up),
                tuple(tuple(x) for x in down), tuple(shift), tuple(steer),
                tuple(0 if z < 0 else red[z] for z in zone), tuple(matrix.zones), titles)


# --- cars and drivers -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dashboard:
    """One seat's car and driver at the start: the tracks' tops and its equipment."""

    car: str
    car_name: str
    driver: str
    driver_name: str
    structure: int
    heat_capacity: int
    steering: int
    brake: int
    turbo: int
    mines: int
    combat_bumper: bool
    pieces: int
    """Bit i set: the driver has ``PIECES[i]`` (its two weapons, the booster and the extinguisher)."""


@dataclass(frozen=True)
class Content:
    source: str
    model: ContentModel
    cars: dict[str, CarModel]
    drivers: dict[str, DriverModel]
    equipment: dict[str, EquipmentModel]
    """Every piece by id (``EQUIPMENT``), with its name and text."""
    hazards: dict[str, HazardModel]
    piece_names: tuple[str, ...]
    """The names of ``PIECES`` in bit order (event texts index them)."""
    terms: dict[str, dict[str, str]]
    """Every piece and hazard by id: ``{name, text, kind}`` (the view carries it for the terminal's key)."""

    def dashboard(self, car_id: str, driver_id: str) -> Dashboard:
        car = self.cars[car_id]
        driver = self.drivers[driver_id]
        pieces = (1 << ROCKET_BOOSTER) | (1 << FIRE_EXTINGUISHER)
        for w in driver.weapons:
            pieces |= 1 << PIECES.index(w)
        mines = self.model.base.mines if "minelayer" in car.fixed else 0
        return Dashboard(car.id, car.name, driver.id, driver.name, car.structure, car.heat_capacity,
                         car.steering, car.brake, car.turbo, mines, "combat-bumper" in car.fixed, pieces)


def parse_content(data: Any, source: str) -> Content:
    """Validate the content file's data; ``ContentError`` names the record and field at fault."""
    model = validate_content(ContentModel, data, source)
    if len(model.dice.red_per_zone) != len(model.gear.zones):
        raise ContentError(source, "dice", "red_per_zone", "needs one count per zone of the gear matrix")
    if len(model.dice.white) != len(model.gear.speeds) - 1:
        raise ContentError(source, "dice", "white", "needs one rule per speed row above 0")
    cars = {c.id: c for c in model.cars}
    drivers = {d.id: d for d in model.drivers}
    if len(cars) != len(model.cars):
        raise ContentError(source, "cars", "id", "an id is used twice")
    if len(drivers) != len(model.drivers):
        raise ContentError(source, "drivers", "id", "an id is used twice")
    if len(cars) != len(drivers):
        raise ContentError(source, "drivers", "id", "needs one driver per car (seats take car k and driver k)")
    equipment = {e.id: e for e in model.equipment}
    hazards = {h.id: h for h in model.hazards}
    terms = {p: {"name": equipment[p].name, "text": equipment[p].text,
                 "kind": "fixed equipment" if p in FIXED_PIECES else "equipment"} for p in EQUIPMENT}
    terms.update({h: {"name": hazards[h].name, "text": hazards[h].text, "kind": "hazard"} for h in HAZARDS})
    return Content(source, model, cars, drivers, equipment, hazards, tuple(equipment[p].name for p in PIECES), terms)


@cache
def _default_content() -> Content:
    return parse_content(read_content_file(CONTENT_PATH), str(CONTENT_PATH))


def load_content(path: str | None = None) -> Content:
    """The shipped content, or a user's file (``.toml`` or ``.json``)."""
    if not path:
        return _default_content()
    p = Path(path)
    return parse_content(read_content_file(p), str(p))


__all__ = ["PIECES", "Content", "Dashboard", "Gear", "build_gear", "gear_words", "load_content"]
