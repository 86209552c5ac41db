"""Rush 'n' Crush courses: the track tiles and the courses built from them, as squares the rules index.

Two files ship beside this module: ``tiles.toml`` (tile shapes and the twenty faces) and ``courses.toml``
(recommended courses). Every shipped record carries ``source`` (rulebook, derived or default). A user's
own course file (option ``course=FILE.toml``) holds one ``[course]`` table and may add ``[[shapes]]`` and
``[[faces]]`` of its own, whose ``source`` may be left out (it is then ``user``). A bad file raises
``ContentError`` naming the file, the record and the field; nothing is half loaded.

Every tile face and course has a display ``name`` and an effect ``text``. Squares are said in words by one
helper, ``place_words`` ("tile 3 (Left curve), lane 2, square 5": tiles, lanes and squares counted from
1, lane 1 the leftmost in the direction of travel, squares from the start of the tile), as the terminal
board labels them.

A course becomes plain tuples of ints (``Track``): squares are numbered over the whole course, and each
neighbour relation of rules/rush-n-crush-content.md section 4.2 is one tuple (-1: none, ``FINISH``: past
the finish line).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Literal, TypeVar

from pydantic import Field, ValidationInfo, field_validator

from slipstream.engine.errors import ContentError
from slipstream.games.content_file import StrictModel, read_content_file, validate_content

HERE = Path(__file__).parent
TILES_PATH: Final = HERE / "tiles.toml"
COURSES_PATH: Final = HERE / "courses.toml"

LANES: Final = 4
"""Every face has four lanes, 0 (left) to 3 (right) in the direction of travel."""
FINISH: Final = -2
"""``Track.ahead`` of a square on the last rank of an open course: the step crosses the finish line."""
NONE: Final = -1

TrackSource = Literal["rulebook", "derived", "default", "user"]
"""Where a shape, face or course comes from: a user's course file may leave it out (``user``); the shipped
``tiles.toml`` and ``courses.toml`` must name one of the other three (``check_shipped_sources``)."""
USER: Final = "user"
R = TypeVar("R", "ShapeModel", "FaceModel")


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
    "FINISH", "NONE", "Track", "build_track", "check_shipped_sources", "check_shipped_words", "course_names",
    "load_track", "place_of_name", "place_words", "shipped_courses",
]
