"""Rush 'n' Crush content: the gear matrix, the dice, cars, drivers, track tiles and courses.

Three files ship beside this module: ``content.toml`` (gear matrix, dice, dashboards, cars, drivers),
``tiles.toml`` (tile shapes and the twenty faces) and ``courses.toml`` (recommended courses). Every
shipped record carries ``source`` (rulebook, derived or default). A user's own content file (option
``content``) replaces ``content.toml``; a user's own course file (option ``course=FILE.toml``) holds one
``[course]`` table and may add ``[[shapes]]`` and ``[[faces]]`` of its own, whose ``source`` may be left
out (it is then ``user``). A bad file raises ``ContentError`` naming the file, the record and the field;
nothing is half loaded.

What a player reads comes from the same files: every car, driver, piece of equipment, hazard (fixed
obstruction, wreck, mine), tile face and course has a display ``name`` and an effect ``text``, and the
first decision of each kind a one-line explanation (``[decisions]``). Gears and squares are said in words
by one helper each, ``gear_words`` ("gear 2, yellow zone (speed 6)") and ``place_words`` ("tile 3 (Left
curve), lane 2, square 5": tiles, lanes and squares counted from 1, lane 1 the leftmost in the direction
of travel, squares from the start of the tile), as the terminal board labels them.

The content is turned here into plain tuples of ints that the rules index (``Gear``, ``Track``):
squares are numbered over the whole course, and each neighbour relation of
rules/rush-n-crush-content.md section 4.2 is one tuple (-1: none, ``FINISH``: past the finish line).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar

from pydantic import Field, ValidationInfo, field_validator, model_validator

from slipstream.engine.errors import ContentError
from slipstream.games.content_file import StrictModel, read_content_file, validate_content

HERE = Path(__file__).parent
CONTENT_PATH: Final = HERE / "content.toml"
TILES_PATH: Final = HERE / "tiles.toml"
COURSES_PATH: Final = HERE / "courses.toml"

LANES: Final = 4
"""Every face has four lanes, 0 (left) to 3 (right) in the direction of travel."""
FINISH: Final = -2
"""``Track.ahead`` of a square on the last rank of an open course: the step crosses the finish line."""
NONE: Final = -1

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
TrackSource = Literal["rulebook", "derived", "default", "user"]
"""Where a shape, face or course comes from: a user's course file may leave it out (``user``); the shipped
``tiles.toml`` and ``courses.toml`` must name one of the other three (``check_shipped_sources``)."""
USER: Final = "user"
R = TypeVar("R", "ShapeModel", "FaceModel")



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


class ShapeModel(StrictModel):
    id: str = Field(min_length=1)
    cells: list[tuple[int, int]] = Field(min_length=1)
    exit: tuple[int, int]
    turn: int = Field(ge=-1, le=1)
    source: TrackSource = USER


class FaceModel(StrictModel):
    id: str = Field(min_length=1)
    tile: str = Field(min_length=1)
    kind: str
    shape: str
    ranks: int = Field(ge=1, le=40)
    lanes: list[str] = Field(min_length=LANES, max_length=LANES)
    obstructions: list[tuple[int, int]] = Field(default_factory=list)
    name: str = Field("", max_length=30)
    """How a player calls the face ("Left curve"): the board's tile label and ``place_words``' tile."""
    text: str = Field("", max_length=400)
    source: TrackSource = USER

    @field_validator("lanes")
    @classmethod
    def _spans(cls, v: list[str], info: ValidationInfo) -> list[str]:
        ranks = info.data.get("ranks")
        for lane, text in enumerate(v):
            try:
                spans = [int(x) for x in text.split()]
            except ValueError:
                raise ValueError(f"lane {lane}: {text!r} is not a list of square lengths") from None
            if not spans or any(x < 1 for x in spans):
                raise ValueError(f"lane {lane}: every square is at least one rank long")
            if ranks is not None and sum(spans) != ranks:
                raise ValueError(f"lane {lane}: the squares cover {sum(spans)} ranks, not {ranks}")
        return v

    @field_validator("obstructions")
    @classmethod
    def _on_the_face(cls, v: list[tuple[int, int]], info: ValidationInfo) -> list[tuple[int, int]]:
        lanes = info.data.get("lanes")
        for lane, index in v:
            if lanes is None or not 0 <= lane < LANES or not 0 <= index < len(lanes[lane].split()):
                raise ValueError(f"[{lane}, {index}] is not a square of this face")
        return v

    def spans(self, lane: int) -> list[int]:
        return [int(x) for x in self.lanes[lane].split()]


class CourseModel(StrictModel):
    id: str = Field(min_length=1)
    name: str = Field("", max_length=60)
    text: str = Field("", max_length=400)
    faces: list[str] = Field(min_length=1)
    closed: bool
    laps: int = Field(ge=1, le=9)
    game: str = ""
    source: TrackSource = USER


class TilesModel(StrictModel):
    shapes: list[ShapeModel] = Field(default_factory=list)
    faces: list[FaceModel] = Field(default_factory=list)


class CoursesModel(StrictModel):
    courses: list[CourseModel] = Field(min_length=1)


class CourseFileModel(StrictModel):
    course: CourseModel
    shapes: list[ShapeModel] = Field(default_factory=list)
    faces: list[FaceModel] = Field(default_factory=list)


# --- reading files --------------------------------------------------------------------------------------


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
    g = content.gear
    zones = len(g.zones)
    names = ["zero"]
    gear = [0]
    zone = [-1]
    speed = [0]
    for gg in range(1, g.gears + 1):
        for c in range(zones):
            names.append(f"g{gg}{g.zones[c][0]}")
            gear.append(gg)
            zone.append(c)
            speed.append(g.speeds[gg + c])

    def node(gg: int, c: int) -> int:
        return 1 + (gg - 1) * zones + c if 1 <= gg <= g.gears and 0 <= c < zones else -1

    def diagonal_kept(c: int) -> bool:
        return lines == "full" or c >= zones // 2

    up: list[list[int]] = [[node(1, 0)]]
    down: list[list[int]] = [[]]
    for gg in range(1, g.gears + 1):
        for c in range(zones):
            up.append([n for n in (node(gg, c + 1), node(gg + 1, c) if diagonal_kept(c) else -1) if n >= 0])
            down.append([n for n in (node(gg, c - 1), node(gg - 1, c) if diagonal_kept(c) else -1) if n >= 0])
    rows: dict[int, list[int]] = {}
    for n in range(1, len(names)):
        rows.setdefault(gear[n] + zone[n], []).append(n)
    shift = [()] + [tuple(m for m in rows[gear[n] + zone[n]] if m != n) for n in range(1, len(names))]
    white = content.dice.white
    steer: list[tuple[int, int]] = [(0, 0)]
    for n in range(1, len(names)):
        rule = white[gear[n] + zone[n] - 1] if gear[n] + zone[n] - 1 < len(white) else "none"
        if rule == "unlimited":
            steer.append((UNLIMITED, 0))
        elif rule == "none":
            steer.append((0, 0))
        else:
            steer.append((HIGHEST if rule[0] == "highest" else LOWEST, rule[1]))
    red = content.dice.red_per_zone
    titles = tuple(gear_words(gear[n], g.zones[zone[n]] if n else None, speed[n]) for n in range(len(names)))
    return Gear(tuple(names), tuple(gear), tuple(zone), tuple(speed), tuple(tuple(x) for x in up),
                tuple(tuple(x) for x in down), tuple(shift), tuple(steer),
                tuple(0 if z < 0 else red[z] for z in zone), tuple(g.zones), titles)


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


# --- track tiles and courses ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Track:
    """A course as squares numbered 0..n-1, tile by tile, lane by lane (rules/rush-n-crush-content.md
    section 4). ``start``/``end`` are a square's span in ranks unrolled over one lap (``lap_ranks``);
    the neighbour tuples hold a square number, ``NONE`` or ``FINISH``."""

    id: str
    name: str
    closed: bool
    laps: int
    faces: tuple[str, ...]
    lane: tuple[int, ...]
    tile: tuple[int, ...]
    index: tuple[int, ...]
    start: tuple[int, ...]
    end: tuple[int, ...]
    obstruction: tuple[bool, ...]
    ahead: tuple[int, ...]
    ahead_left: tuple[int, ...]
    ahead_right: tuple[int, ...]
    behind: tuple[int, ...]
    beside_left: tuple[int, ...]
    beside_right: tuple[int, ...]
    lap_ranks: int
    line_rank: int
    """The start/finish line: the exit edge of tile 0."""
    grid: tuple[int, ...]
    """The squares of grid slots 1..6 (section 4.8)."""
    tile_squares: tuple[tuple[tuple[int, ...], ...], ...]
    """``tile_squares[t][lane]``: the squares of that lane on tile t, in the direction of travel."""
    names: tuple[str, ...]
    """Each square's name, ``tile.lane.index`` (``name_of``)."""
    placements: tuple[tuple[int, int, int], ...]
    """Each tile's entry cell and heading on the grid of cells, ``(x, y, heading)`` (0-3: N, E, S, W)."""
    kinds: tuple[str, ...]
    shapes: tuple[str, ...]
    diagonals: tuple[tuple[tuple[int, int], ...], ...]
    """``diagonals[sq]``: the diagonal steps a car in ``sq`` may try, ``(direction, target)`` with
    direction -1 (left) or +1 (right): the target exists and is no obstruction (RC-A9). A table made once
    per course, so the legal steps need no geometry at play time."""
    lines_ahead: tuple[tuple[int, ...], ...]
    lines_behind: tuple[tuple[int, ...], ...]
    """``lines_ahead[sq]``: the squares at range 1, 2, 3 "directly forward (i.e. within your lane, even
    if it's curving)" that a Machine Gun's line can reach: it stops before a fixed obstruction or the
    end of the course (RC-A7); ``lines_behind`` the same backward, for the Flamer."""
    tile_names: tuple[str, ...]
    """Each tile's face name ("Left curve"; "" when a user's face has none)."""
    tile_texts: tuple[str, ...]
    """Each tile's face text (what it holds, in words; "" when a user's face has none)."""
    places: tuple[str, ...]
    """Each square in words (``place_words``), made once per course for the event texts."""
    text: str
    """The course's description ("" when a user's course has none)."""

    def tiles_view(self) -> list[dict[str, object]]:
        """The course as data for a board: per tile its face, kind, shape, placement, the lengths in ranks
        of each lane's squares, and its obstructions ``[lane, index]``."""
        out: list[dict[str, object]] = []
        for t, lanes in enumerate(self.tile_squares):
            x, y, heading = self.placements[t]
            out.append({
                "face": self.faces[t], "name": self.tile_names[t], "kind": self.kinds[t], "shape": self.shapes[t],
                "cell": [x, y], "heading": "NESW"[heading],
                "lanes": [[self.end[sq] - self.start[sq] for sq in lane] for lane in lanes],
                "obstructions": [[self.lane[sq], self.index[sq]] for lane in lanes for sq in lane
                                 if self.obstruction[sq]],
            })
        return out

    @property
    def squares(self) -> int:
        return len(self.lane)

    def name_of(self, square: int) -> str:
        """``tile.lane.index``, e.g. ``3.0.5`` (for code, records and the view; a player reads
        ``places``)."""
        return self.names[square]

    def square_named(self, name: str) -> int:
        t, lane, i = (int(x) for x in name.split("."))
        return self.tile_squares[t][lane][i]


def place_words(tile: int, lane: int, index: int, tile_name: str) -> str:
    """A square as a player finds it on the board: "tile 3 (Left curve), lane 2, square 5". Tiles are
    counted from 1 at the start of the course, lanes from 1 at the left in the direction of travel, and
    squares from 1 at the start of the tile along the lane (``tile``, ``lane`` and ``index`` are the
    0-based numbers of the square's name ``tile.lane.index``)."""
    named = f" ({tile_name})" if tile_name else ""
    return f"tile {tile + 1}{named}, lane {lane + 1}, square {index + 1}"


def place_of_name(name: str, tile_names: list[str] | tuple[str, ...]) -> str:
    """``place_words`` of a square's name ``tile.lane.index`` (as the view gives it)."""
    tile, lane, index = (int(x) for x in name.split("."))
    return place_words(tile, lane, index, tile_names[tile] if tile < len(tile_names) else "")


GRID_SLOTS: Final = ((0, 1), (2, 1), (1, 3), (3, 3), (0, 5), (2, 5))
"""Grid slots 1..6: (lane, squares behind the line), counting the last square of the lane as 1st."""
HEADINGS: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""North, east, south, west as (x, y) cell steps."""


def _check_layout(source: str, course: CourseModel, faces: dict[str, FaceModel],
                  shapes: dict[str, ShapeModel]) -> tuple[tuple[int, int, int], ...]:
    """V1-V5 of section 4.6: real faces, each tile once, no overlap, a closed course joins up. Returns
    each tile's placement: its entry cell and heading ``(x, y, heading)``, heading 0-3 = N, E, S, W."""
    record = f"course {course.id}"
    if len(course.faces) > 10:
        raise ContentError(source, record, "faces", "a course has 1 to 10 tiles (V1)")
    tiles_used: dict[str, str] = {}
    for fid in course.faces:
        if fid not in faces:
            raise ContentError(source, record, "faces", f"no tile face {fid!r}")
        tile = faces[fid].tile
        if tile in tiles_used:
            raise ContentError(source, record, "faces",
                               f"tile {tile} is used twice ({tiles_used[tile]} and {fid}): each tile once (V1)")
        tiles_used[tile] = fid
        if faces[fid].shape not in shapes:
            raise ContentError(source, f"faces {fid}", "shape", f"no shape {faces[fid].shape!r}")
    if faces[course.faces[0]].obstructions:
        raise ContentError(source, record, "faces", f"tile 0 ({course.faces[0]}) holds the grid: no obstructions (V4)")
    if course.laps > 1 and not course.closed:
        raise ContentError(source, record, "laps", "more than one lap needs a closed course (V5)")
    x, y, heading = 0, 0, 0
    taken: dict[tuple[int, int], str] = {}
    placements = []
    for t, fid in enumerate(course.faces):
        placements.append((x, y, heading))
        shape = shapes[faces[fid].shape]
        fx, fy = HEADINGS[heading]
        rx, ry = HEADINGS[(heading + 1) % 4]
        for forward, right in shape.cells:
            cell = (x + forward * fx + right * rx, y + forward * fy + right * ry)
            if cell in taken:
                raise ContentError(source, record, "faces",
                                   f"tile {t} ({fid}) overlaps tile {taken[cell]} (V2)")
            taken[cell] = f"{t} ({fid})"
        forward, right = shape.exit
        x, y = x + forward * fx + right * rx, y + forward * fy + right * ry
        heading = (heading + shape.turn) % 4
    if course.closed and (x, y, heading) != (0, 0, 0):
        last = len(course.faces) - 1
        raise ContentError(source, record, "faces",
                           f"the course does not join up: tile {last} ({course.faces[-1]}) ends at cell "
                           f"({x}, {y}) heading {'NESW'[heading]}, not back at tile 0 (V3)")
    return tuple(placements)


def build_track(source: str, course: CourseModel, faces: dict[str, FaceModel],
                shapes: dict[str, ShapeModel]) -> Track:
    """The course's squares and neighbours (section 4.2), after checking its layout."""
    placements = _check_layout(source, course, faces, shapes)
    tile_names = tuple(faces[f].name for f in course.faces)
    lane_of: list[int] = []
    tile_of: list[int] = []
    index_of: list[int] = []
    start: list[int] = []
    end: list[int] = []
    obstruction: list[bool] = []
    tile_squares: list[tuple[tuple[int, ...], ...]] = []
    offset = 0
    for t, fid in enumerate(course.faces):
        face = faces[fid]
        blocked = {(lane, i) for lane, i in face.obstructions}
        per_lane: list[tuple[int, ...]] = []
        for lane in range(LANES):
            a = offset
            ids = []
            for i, length in enumerate(face.spans(lane)):
                ids.append(len(lane_of))
                lane_of.append(lane)
                tile_of.append(t)
                index_of.append(i)
                start.append(a)
                end.append(a + length)
                obstruction.append((lane, i) in blocked)
                a += length
            per_lane.append(tuple(ids))
        tile_squares.append(tuple(per_lane))
        offset += face.ranks
    total = offset
    at_rank = [[0] * total for _ in range(LANES)]
    for sq in range(len(lane_of)):
        for r in range(start[sq], end[sq]):
            at_rank[lane_of[sq]][r] = sq

    def find(lane: int, rank: int) -> int:
        if not 0 <= lane < LANES:
            return NONE
        if rank >= total or rank < 0:
            if not course.closed:
                return NONE
            rank %= total
        return at_rank[lane][rank]

    squares = range(len(lane_of))
    left = tuple(find(lane_of[s] - 1, end[s]) for s in squares)
    right = tuple(find(lane_of[s] + 1, end[s]) for s in squares)
    diagonals = tuple(tuple((d, target) for d, target in ((-1, left[s]), (1, right[s]))
                            if target >= 0 and not obstruction[target]) for s in squares)
    behind = tuple(find(lane_of[s], start[s] - 1) for s in squares)
    ahead = tuple(FINISH if end[s] == total and not course.closed else find(lane_of[s], end[s]) for s in squares)
    line = faces[course.faces[0]].ranks
    grid = []
    for lane, back in GRID_SLOTS:
        lane_squares = tile_squares[0][lane]
        if back > len(lane_squares):
            raise ContentError(source, f"course {course.id}", "faces",
                               f"tile 0 ({course.faces[0]}) is too short in lane {lane} for the grid")
        grid.append(lane_squares[-back])
    return Track(
        course.id, course.name or course.id, course.closed, course.laps, tuple(course.faces),
        tuple(lane_of), tuple(tile_of), tuple(index_of), tuple(start), tuple(end), tuple(obstruction), ahead,
        left, right,
        behind,
        tuple(find(lane_of[s] - 1, start[s]) for s in squares), tuple(find(lane_of[s] + 1, start[s]) for s in squares),
        total, line, tuple(grid), tuple(tile_squares),
        tuple(f"{tile_of[s]}.{lane_of[s]}.{index_of[s]}" for s in squares), placements,
        tuple(faces[f].kind for f in course.faces), tuple(faces[f].shape for f in course.faces), diagonals,
        tuple(_line(s, ahead, obstruction) for s in squares), tuple(_line(s, behind, obstruction) for s in squares),
        tile_names, tuple(faces[f].text for f in course.faces),
        tuple(place_words(tile_of[s], lane_of[s], index_of[s], tile_names[tile_of[s]]) for s in squares),
        course.text,
    )


def _line(square: int, step: tuple[int, ...], obstruction: list[bool]) -> tuple[int, ...]:
    """Up to three squares from ``square`` along ``step`` (ahead or behind), stopping before a fixed
    obstruction or the end of the course."""
    out: list[int] = []
    for _ in range(3):
        square = step[square]
        if square < 0 or obstruction[square]:
            break
        out.append(square)
    return tuple(out)


def check_shipped_sources(source: str, label: str, records: list[ShapeModel] | list[FaceModel] | list[CourseModel]
                          ) -> None:
    """DESIGN: every shipped record says where it comes from, rulebook, derived or default (only a user's
    course file may leave ``source`` out)."""
    for record in records:
        if "source" not in record.model_fields_set or record.source == USER:
            raise ContentError(source, f"{label} {record.id}", "source",
                               "a shipped record names its source: rulebook, derived or default")


def check_shipped_words(source: str, label: str, records: list[FaceModel] | list[CourseModel]) -> None:
    """DESIGN: every shipped face and course has a name and a text a player reads (a user's course file
    may leave them out: its squares are then said without the tile's name)."""
    for record in records:
        for field in ("name", "text"):
            if not getattr(record, field).strip():
                raise ContentError(source, f"{label} {record.id}", field, "a shipped record has a name and a text")


@cache
def _shipped_tiles() -> TilesModel:
    model = validate_content(TilesModel, read_content_file(TILES_PATH), str(TILES_PATH))
    check_shipped_sources(str(TILES_PATH), "shapes", model.shapes)
    check_shipped_sources(str(TILES_PATH), "faces", model.faces)
    check_shipped_words(str(TILES_PATH), "faces", model.faces)
    return model


@cache
def _shipped_courses() -> dict[str, CourseModel]:
    model = validate_content(CoursesModel, read_content_file(COURSES_PATH), str(COURSES_PATH))
    check_shipped_sources(str(COURSES_PATH), "courses", model.courses)
    check_shipped_words(str(COURSES_PATH), "courses", model.courses)
    return {c.id: c for c in model.courses}


def course_names() -> tuple[str, ...]:
    """The recommended courses shipped in ``courses.toml``."""
    return tuple(_shipped_courses())


def shipped_courses() -> dict[str, CourseModel]:
    """The recommended courses shipped in ``courses.toml``, by id (their names and texts for a glossary)."""
    return dict(_shipped_courses())


def _merged(source: str, label: str, shipped: list[R], own: list[R]) -> dict[str, R]:
    table = {r.id: r for r in shipped}
    seen: set[str] = set()
    for r in own:
        if r.id in seen:
            raise ContentError(source, f"{label} {r.id}", "id", "an id is used twice")
        seen.add(r.id)
        table[r.id] = r
    return table


def load_track(course: str, laps: int = 0) -> Track:
    """A shipped course by id, or a course file (``.toml``/``.json``, read anew each time, so an edited
    file counts); ``laps`` > 0 overrides the course's laps."""
    if not course.endswith((".toml", ".json")):
        return _shipped_track(course, laps)
    tiles = _shipped_tiles()
    path = Path(course)
    source = str(path)
    model = validate_content(CourseFileModel, read_content_file(path), source)
    shapes = _merged(source, "shapes", tiles.shapes, model.shapes)
    faces = _merged(source, "faces", tiles.faces, model.faces)
    chosen = model.course.model_copy(update={"laps": laps}) if laps else model.course
    return build_track(source, chosen, faces, shapes)


@cache
def _shipped_track(course: str, laps: int) -> Track:
    tiles = _shipped_tiles()
    chosen = _shipped_courses()[course]
    if laps:
        chosen = chosen.model_copy(update={"laps": laps})
    return build_track(str(COURSES_PATH), chosen, {f.id: f for f in tiles.faces}, {s.id: s for s in tiles.shapes})


__all__ = [
    "FINISH", "NONE", "PIECES", "Content", "Dashboard", "Gear", "Track", "build_gear", "build_track",
    "check_shipped_sources", "check_shipped_words", "course_names", "gear_words", "load_content", "load_track",
    "place_of_name", "place_words", "shipped_courses",
]
