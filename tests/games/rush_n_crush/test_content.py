"""Content: the shipped data, courses that join up or not, and clear errors for bad files (RC-G1..G7)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import slipstream
from slipstream.engine.errors import ContentError, OptionError
from slipstream.games.content_file import read_content_file
from slipstream.games.rush_n_crush.content import CONTENT_PATH, load_content
from slipstream.games.rush_n_crush.course import (
    COURSES_PATH,
    TILES_PATH,
    CoursesModel,
    TilesModel,
    check_shipped_sources,
    course_names,
    load_track,
)
from slipstream.games.rush_n_crush.game import RushNCrush


def course_file(tmp_path: Path, faces: list[str], closed: bool = True, laps: int = 1, extra: str = "") -> str:
    """A course file of shipped faces (and ``extra`` records) in ``tmp_path``."""
    listed = ", ".join(f'"{f}"' for f in faces)
    path = tmp_path / "course.toml"
    path.write_text(f'[course]\nid = "mine"\nfaces = [{listed}]\nclosed = {str(closed).lower()}\n'
                    f'laps = {laps}\nsource = "default"\n{extra}')
    return str(path)


def test_every_record_names_its_source() -> None:
    """DESIGN: each shipped record says where it comes from (rulebook, derived or default)."""
    data = read_content_file(CONTENT_PATH)
    for section in ("cars", "drivers"):
        assert all(r["source"] in ("rulebook", "derived", "default") for r in data[section])
    for name in ("gear", "dice", "base"):
        assert data[name]["source"] in ("rulebook", "derived", "default")
    tiles, courses = read_content_file(TILES_PATH), read_content_file(COURSES_PATH)
    for records in (tiles["shapes"], tiles["faces"], courses["courses"]):
        assert all(r["source"] in ("rulebook", "derived", "default") for r in records)


def test_a_shipped_tile_or_course_without_its_source_is_refused() -> None:
    """DESIGN: the shipped tiles and courses must keep naming their source; only a user's course file may
    leave it out (it is then ``user``)."""
    courses = read_content_file(COURSES_PATH)
    del courses["courses"][1]["source"]
    model = CoursesModel.model_validate(courses)
    with pytest.raises(ContentError, match="names its source") as err:
        check_shipped_sources("courses.toml", "courses", model.courses)
    assert (err.value.record, err.value.field) == ("courses grand-prix", "source")
    tiles = read_content_file(TILES_PATH)
    tiles["faces"][0]["source"] = "user"
    with pytest.raises(ContentError, match="names its source"):
        check_shipped_sources("tiles.toml", "faces", TilesModel.model_validate(tiles).faces)


def test_a_course_file_may_leave_out_source(tmp_path: Path) -> None:
    """Content 4.6-4.9: a course written by hand needs only its id, faces, closed and laps; its own shapes
    and faces need no ``source`` either. Each such record is marked ``user``."""
    path = tmp_path / "hand.toml"
    path.write_text('[course]\nid = "hand"\nfaces = ["R1a", "X1"]\nclosed = false\nlaps = 1\n\n'
                    '[[shapes]]\nid = "long"\ncells = [[0, 0], [1, 0], [2, 0]]\nexit = [3, 0]\nturn = 0\n\n'
                    '[[faces]]\nid = "X1"\ntile = "X"\nkind = "straight"\nshape = "long"\nranks = 12\n'
                    'lanes = ["1 1 1 1 1 1 1 1 1 1 1 1", "1 1 1 1 1 1 1 1 1 1 1 1", "1 1 1 1 1 1 1 1 1 1 1 1", '
                    '"1 1 1 1 1 1 1 1 1 1 1 1"]\n')
    track = load_track(str(path))
    assert track.faces == ("R1a", "X1") and track.lap_ranks == 8 + 12
    state = slipstream.load("rush-n-crush", players=2, course=str(path)).start(seed=1)
    assert state.view(None)["course"]["id"] == "hand"


def test_recommended_courses_are_valid() -> None:
    """Setup: "normal length is 8-10 tiles, or 4-5 with two laps. 6-8 ... will provide a short game";
    the shipped courses pass V1-V5 (content 4.9) and every step moves the front rank forward."""
    assert set(course_names()) == {"sprint", "grand-prix", "ring", "oval"}
    for name in course_names():
        track = load_track(name)
        for sq in range(track.squares):
            for target in (track.ahead[sq], track.ahead_left[sq], track.ahead_right[sq]):
                if target >= 0:
                    forward = track.end[target] - track.end[sq]
                    assert forward > 0 or (track.closed and forward + track.lap_ranks > 0)
    assert load_track("ring").closed and load_track("ring").laps == 2
    assert len(load_track("grand-prix").faces) == 10


def test_no_closed_course_of_five_shipped_tiles(tmp_path: Path) -> None:
    """Setup: "4-5 with two laps" (the issue: "closed ones of 4-5 tiles over two laps"). With the default
    outlines (content 4.6: straights 1 x 2 cells, curves a 2 x 2 quarter annulus) a closed loop turns
    through four curves of one hand and pairs its straights, so it has 4, 6, 8 or 10 tiles: every one of
    the 3^5 sequences of straight, left and right tiles fails to make a closed course of five, while the
    ring (4) and the oval (6) join up. The decision is recorded in docs/rules/rush-n-crush.md (RC-G6)."""
    straights = [f"R{n}a" for n in range(1, 7)]
    for shapes in itertools.product("SLR", repeat=5):
        if sum(shape != "S" for shape in shapes) > 4:
            continue                                    # only four curve tiles exist
        curve = iter(range(1, 5))
        faces = [straights[i] if shape == "S" else f"C{next(curve)}{'a' if shape == 'L' else 'b'}"
                 for i, shape in enumerate(shapes)]
        with pytest.raises(ContentError):
            load_track(course_file(tmp_path, faces, laps=2))
    assert load_track(course_file(tmp_path, ["C1a", "C2a", "C3a", "C4a"], laps=2)).closed
    assert load_track(course_file(tmp_path, ["R1a", "C1a", "C2a", "R2a", "C3a", "C4a"], laps=2)).closed


def test_swapping_a_curve_for_a_straight_does_not_join_up(tmp_path: Path) -> None:
    """Content example 12: the ring with C4a swapped for R4a fails V3, naming the last tile."""
    with pytest.raises(ContentError, match=r"course mine.*does not join up: tile 3 \(R4a\)"):
        load_track(course_file(tmp_path, ["C1a", "C2a", "C3a", "R4a"], laps=2))


def test_one_tile_twice_is_refused(tmp_path: Path) -> None:
    """Content example 12: C1a and C1b are the two faces of one tile (V1)."""
    with pytest.raises(ContentError, match="tile C1 is used twice"):
        load_track(course_file(tmp_path, ["C1a", "C2a", "C3a", "C1b"]))


def test_overlapping_tiles_are_refused(tmp_path: Path) -> None:
    """Setup: "Design a course" (RC-G6, GAPS 4.3). Content 4.6, V2: "no two tiles share a cell": an open course
    of four left curves after R1a loops back over tile 0, and the error names both tiles."""
    with pytest.raises(ContentError, match=r"tile 4 \(C4a\) overlaps tile 0 \(R1a\)"):
        load_track(course_file(tmp_path, ["R1a", "C1a", "C2a", "C3a", "C4a", "R2a"], closed=False))


def test_tile_zero_holds_the_grid_and_laps_need_a_loop(tmp_path: Path) -> None:
    """Setup: "Design a course: normal length is 8-10 tiles, or 4-5 with two laps" (RC-G6, RC-G7; GAPS
    4.3). Content 4.6: V4, "tile 0 has no obstruction (it holds the grid)" (R3b narrows its lanes);
    V5, "laps > 1 only on a closed course"; and V1, every face is one of the twenty (no ``R9z``)."""
    with pytest.raises(ContentError, match="tile 0"):
        load_track(course_file(tmp_path, ["R3b", "R1a"], closed=False))
    with pytest.raises(ContentError, match="closed course"):
        load_track(course_file(tmp_path, ["R1a", "R2a"], closed=False, laps=2))
    with pytest.raises(ContentError, match="no tile face 'R9z'"):
        load_track(course_file(tmp_path, ["R1a", "R9z"], closed=False))


def test_a_users_own_tiles(tmp_path: Path) -> None:
    """Setup: "Design a course" with the printed tiles, whose data is not public (RC-G6, GAPS 4.3):
    content 4.6, "A user's own tile file may define other outlines, because the footprint and exit rules
    of each face kind are data", and 4.1/4.5, a lane is a string of square lengths in ranks. A face of
    6 ranks with a wide square in lane 1 and an obstruction there builds, and a race starts on it."""
    face = ('[[faces]]\nid = "X1"\ntile = "X"\nkind = "short"\nshape = "straight"\nranks = 6\n'
            'lanes = ["1 1 1 1 1 1", "2 2 2", "1 1 1 1 1 1", "1 1 1 1 1 1"]\nobstructions = [[1, 2]]\n'
            'source = "default"\n')
    track = load_track(course_file(tmp_path, ["R1a", "X1"], closed=False, extra=face))
    assert [len(lane) for lane in track.tile_squares[1]] == [6, 3, 6, 6]
    assert track.obstruction[track.square_named("1.1.2")]
    state = slipstream.load("rush-n-crush", players=2, course=course_file(tmp_path, ["R1a", "X1"], closed=False,
                                                                          extra=face)).start()
    assert state.view(None)["course"]["faces"] == ["R1a", "X1"]


@pytest.mark.parametrize(("lanes", "problem"), [
    ('["1 1 1", "1 1 1 1 1 1", "1 1 1 1 1 1", "1 1 1 1 1 1"]', "lane 0: the squares cover 3 ranks, not 6"),
    ('["1 1 x 1 1 1", "1 1 1 1 1 1", "1 1 1 1 1 1", "1 1 1 1 1 1"]', "not a list of square lengths"),
])
def test_a_malformed_face_names_file_record_and_field(tmp_path: Path, lanes: str, problem: str) -> None:
    """Bad input: a malformed track file gets a ContentError naming the file, the record and the field."""
    face = (f'[[faces]]\nid = "X1"\ntile = "X"\nkind = "short"\nshape = "straight"\nranks = 6\nlanes = {lanes}\n'
            'source = "default"\n')
    path = course_file(tmp_path, ["R1a", "X1"], closed=False, extra=face)
    with pytest.raises(ContentError, match=problem) as err:
        load_track(path)
    assert err.value.source == path and err.value.record == "faces X1" and err.value.field == "lanes"


def content_file(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "content.toml"
    text = CONTENT_PATH.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("old", "new", "record", "field"), [
    ('fixed = ["armor-shielding", "combat-bumper"]', 'fixed = ["armor-shielding", "rocket"]',
     "cars armour-ram", "fixed"),
    ("structure = 8\nheat_capacity = 8\nsteering = 4", "heat_capacity = 8\nsteering = 4",
     "cars armour-ram", "structure"),
    ('weapons = ["machine-gun", "circular-saw"]', 'weapons = ["machine-gun", "machine-gun"]',
     "drivers gun-saw", "weapons"),
    ("red_per_zone = [1, 2, 3, 4]", "red_per_zone = [1, 2, 3]", "dice", "red_per_zone"),
    ("speeds = [0, 4, 5,", "speeds = [0, 5, 4,", "gear", "record"),
])
def test_a_malformed_content_file(tmp_path: Path, old: str, new: str, record: str, field: str) -> None:
    """Bad input: ContentError(file, record, field, problem); nothing is loaded."""
    path = content_file(tmp_path, old, new)
    with pytest.raises(ContentError) as err:
        slipstream.load("rush-n-crush", players=2, content=str(path))
    assert (err.value.source, err.value.record, err.value.field) == (str(path), record, field)


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("cars = [")
    with pytest.raises(ContentError, match="syntax"):
        load_content(str(bad))
    with pytest.raises(ContentError, match="cannot be read"):
        load_content(str(tmp_path / "missing.toml"))


def test_bad_options() -> None:
    with pytest.raises(OptionError, match="course"):
        slipstream.load("rush-n-crush", course="monaco")
    with pytest.raises(OptionError, match="closed course"):
        slipstream.load("rush-n-crush", course="sprint", laps=2)
    with pytest.raises(OptionError, match="rush_attacks"):
        slipstream.load("rush-n-crush", rush_attacks="never")


def test_user_content_replaces_the_shipped(tmp_path: Path) -> None:
    path = content_file(tmp_path, "steering = 6", "steering = 9")
    game = slipstream.load("rush-n-crush", players=2, content=str(path))
    assert game.start().view(None)["cars"][0]["steering"] == 9


def test_json_content_and_course_files(tmp_path: Path) -> None:
    """A content or course file may be JSON as well as TOML."""
    content = tmp_path / "content.json"
    content.write_text(json.dumps(read_content_file(CONTENT_PATH)))
    course = tmp_path / "loop.json"
    course.write_text(json.dumps({"course": {"id": "loop", "faces": ["C1b", "C2b", "C3b", "C4b"], "closed": True,
                                             "laps": 3, "source": "default"}}))
    game = slipstream.load("rush-n-crush", players=2, content=str(content), course=str(course))
    assert game.track.closed and game.track.laps == 3 and game.start().view(None)["course"]["id"] == "loop"


def test_the_shipped_defaults_keep_the_balance_requirements() -> None:
    """Issue 25 (docs/rules/rush-n-crush.md, Balance): every node of the shipped gear matrix rolls at least
    one red die, so speed always costs heat ("Any 1-2 on red dice gives you a heat point"); no car starts
    with more Turbo points than another; the default course is of the summary's normal length ("Design a
    course: normal length is 8-10 tiles")."""
    game = slipstream.load("rush-n-crush")
    assert isinstance(game, RushNCrush)
    assert all(game.gear.red_dice[node] >= 1 for node in range(1, len(game.gear.names)))
    assert len({car.turbo for car in game.content.cars.values()}) == 1
    assert 8 <= len(game.track.faces) <= 10 and not game.track.closed
