"""Rush 'n' Crush in words (issue 31): squares and gears as a player finds them on the board and the gear
matrix, events and labels with the content's names, the names and effect texts validated in the content
files, the glossary, the scoreboard and the game's description."""

from __future__ import annotations

import itertools
import json
import random
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import slipstream
from slipstream.engine.errors import ContentError
from slipstream.engine.hooks import hooks_of
from slipstream.games.rush_n_crush import render
from slipstream.games.rush_n_crush.content import CONTENT_PATH, EQUIPMENT, HAZARDS, gear_words, load_content
from slipstream.games.rush_n_crush.course import (
    COURSES_PATH,
    TILES_PATH,
    CoursesModel,
    TilesModel,
    check_shipped_words,
    course_names,
    load_track,
    place_of_name,
    place_words,
)
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage, Task
from tests.playout import random_states

from .helpers import armed, moving, new, place, play


def texts(s: RushState) -> list[str]:
    return [e.text for e in s.events]


# --- places and gears -----------------------------------------------------------------------------


def test_a_square_is_said_by_tile_lane_and_square_counted_from_one() -> None:
    """Issue 31: "squares in words a player can find on the board": the tile (numbered from the start, with
    its name as the board heads it), the lane (1 on the left in the direction of travel) and the square
    (from the tile's start), never the code ``tile.lane.index``."""
    assert place_words(2, 1, 4, "Left curve") == "tile 3 (Left curve), lane 2, square 5"
    assert place_words(0, 3, 0, "") == "tile 1, lane 4, square 1"
    track = load_track("sprint")
    assert track.places[track.square_named("1.1.4")] == "tile 2 (Left curve), lane 2, square 5"
    assert track.places[track.grid[0]] == "tile 1 (Straight), lane 1, square 8"
    names = [view["name"] for view in track.tiles_view()]
    assert names == ["Straight", "Left curve", "Narrowing", "Right curve", "Rock field", "Straight"]
    for square in range(track.squares):
        assert place_of_name(track.name_of(square), names) == track.places[square]


def test_a_gear_is_said_as_the_matrix_reads() -> None:
    """Content 1.1: node (g, c) is gear g in zone c at the speed of row g + c; the zero spot has no gear."""
    gear = slipstream.load("rush-n-crush", players=2).gear
    assert gear.titles[gear.node("g1b")] == "gear 1, blue zone (speed 4)"
    assert gear.titles[gear.node("g3o")] == "gear 3, orange zone (speed 10)"
    assert gear.titles[gear.node("zero")] == "the zero spot (speed 0)"
    assert gear_words(6, "red", 18) == "gear 6, red zone (speed 18)"


# --- events -----------------------------------------------------------------------------------------


def test_setup_and_gearstick_events_name_places_and_gears() -> None:
    """Setup and Turn: the grid slot's square, then accelerate, brake, shift and keep along the matrix's
    lines, and the Turbo and Brake points, each said with the gear reached."""
    s = slipstream.load("rush-n-crush", players=2, course="sprint", gear_lines="full").start(seed=1)
    s = s.apply("grid:P2")
    assert texts(s)[:2] == ["P2 takes grid slot 1: tile 1 (Straight), lane 1, square 8",
                            "P1 takes grid slot 2: tile 1 (Straight), lane 3, square 8"]
    base = place(new(2), {0: "0.1.5", 1: "0.2.7"}, node=(new(2).game.gear.node("g2y"), 0), round=2)
    assert texts(base.apply("gear:g2o"))[0] == "P1 accelerates to gear 2, orange zone (speed 8)"
    assert texts(base.apply("gear:g1y"))[0] == "P1 brakes to gear 1, yellow zone (speed 5)"
    assert texts(base.apply("gear:g3b"))[0] == "P1 shifts to gear 3, blue zone (speed 6)"
    assert texts(base.apply("keep"))[0] == "P1 keeps the gearstick at gear 2, yellow zone (speed 6)"
    points = base.apply("keep")
    assert texts(points.apply("turbo:g3y"))[0] == ("P1 spends a Turbo point to accelerate to gear 3, yellow zone "
                                                   "(speed 8)")
    assert texts(points.apply("brake:g2b"))[0] == "P1 spends a Brake point to brake to gear 2, blue zone (speed 5)"


def test_movement_events_name_the_squares() -> None:
    """Movement: each step, a mine dropped on the square left, a fixed obstruction hit, in words."""
    mines = moving(place(new(3), {2: "0.2.3", 0: "0.0.1", 1: "0.3.1"}, active=2), "g1y")
    assert texts(mines.apply("ahead+mine")) == ["P3 drops a mine at tile 1 (Straight), lane 3, square 4",
                                                "P3 moves to tile 1 (Straight), lane 3, square 5"]
    crash = moving(place(new(2), {0: "2.0.1", 1: "0.2.7"}), "g1y").apply("ahead")
    assert texts(crash)[:2] == ["P1 hits a fixed obstruction at tile 3 (Narrowing), lane 1, square 3",
                                f"P1 takes 1 structure ({crash.dash[0].structure - 1} left)"]


def test_equipment_events_and_labels_take_the_content_names(tmp_path: Path) -> None:
    """A user's own content file names its own pieces: arming, firing and the labels use its names."""
    data = tomllib.loads(CONTENT_PATH.read_text())
    for record in data["equipment"]:
        if record["id"] == "machine-gun":
            record["name"] = "Twin Cannon"
    path = tmp_path / "content.json"
    path.write_text(json.dumps(data))
    game = slipstream.load("rush-n-crush", players=2, content=str(path))
    s = game.start(seed=1).apply("grid:P1")
    # P2 (Gun & Saw) in lane 2, P1 two squares ahead of it: the Twin Cannon bears at range 2
    s = armed(place(s, {1: "0.1.3", 0: "0.1.5"}, active=1), 1, "machine-gun")
    assert render.describe_action(game, "use:machine-gun") == "Use the Twin Cannon"
    assert render.describe_action(game, "arm:machine-gun") == "arm the Twin Cannon"
    fired = s.apply("use:machine-gun")
    assert texts(fired) == ["P2 fires the Twin Cannon at P1 (range 2, 2 dice)"]
    assert texts(fired.apply("hits:1"))[:2] == ["the Twin Cannon: 1 hit",
                                                f"P1 takes 1 structure ({s.dash[0].structure - 1} left)"]
    assert hooks_of(game).glossary is not None
    assert hooks_of(game).glossary(game)["machine-gun"].name == "Twin Cannon"


# --- the content's names and texts ---------------------------------------------------------------


def _bad_content(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> ContentError:
    data = tomllib.loads(CONTENT_PATH.read_text())
    change(data)
    path = tmp_path / "content.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ContentError) as err:
        load_content(str(path))
    return err.value


def _equipment(data: dict[str, Any], piece: str) -> dict[str, Any]:
    record: dict[str, Any] = next(r for r in data["equipment"] if r["id"] == piece)
    return record


@pytest.mark.parametrize(("change", "record", "field", "words"), [
    (lambda d: d["equipment"].remove(_equipment(d, "minelayer")), "equipment", "record",
     "'minelayer' needs exactly one record (it has 0)"),
    (lambda d: _equipment(d, "flamer").update(id="laser"), "equipment #6", "id",
     "'laser' is not a piece of equipment the rules know"),
    (lambda d: _equipment(d, "combat-bumper").update(name=""), "equipment combat-bumper", "name", "at least 1"),
    (lambda d: d["cars"][1].pop("text"), "cars armour-ram", "text", "Field required"),
    (lambda d: d["drivers"][0].update(text=""), "drivers bumper-saw", "text", "at least 1"),
    (lambda d: d["hazards"][1].update(text=""), "hazards wreck", "text", "at least 1"),
    (lambda d: d["decisions"].pop("swerve"), "decisions", "swerve", "Field required"),
])
def test_a_content_file_without_a_name_or_text_is_refused(tmp_path: Path, change: Callable[[dict[str, Any]], None],
                                                           record: str, field: str, words: str) -> None:
    """Issue 31: every car, driver, piece and hazard has a name and an effect text, every kind of decision its
    line; a file without one gets a clear error naming the record and the field."""
    err = _bad_content(tmp_path, change)
    assert (err.record, err.field) == (record, field)
    assert words in str(err)


def test_every_shipped_face_and_course_has_a_name_and_a_text() -> None:
    """The shipped tiles and courses say what they are; a shipped record without its words is refused
    (a user's course file may leave them out)."""
    tiles = TilesModel.model_validate(tomllib.loads(TILES_PATH.read_text()))
    courses = CoursesModel.model_validate(tomllib.loads(COURSES_PATH.read_text()))
    check_shipped_words("tiles.toml", "faces", tiles.faces)
    check_shipped_words("courses.toml", "courses", courses.courses)
    blank = tiles.faces[4].model_copy(update={"text": ""})
    with pytest.raises(ContentError, match="a shipped record has a name and a text") as err:
        check_shipped_words("tiles.toml", "faces", [blank])
    assert (err.value.record, err.value.field) == (f"faces {blank.id}", "text")


# --- glossary, scoreboard, description ---------------------------------------------------------------


def test_the_glossary_names_everything_a_player_meets() -> None:
    """Every car, driver, piece of equipment, hazard, course, tile of the course and node of the gear
    matrix, with its name and effect in words."""
    game = slipstream.load("rush-n-crush", players=3, course="grand-prix")
    terms = render.glossary(game)
    content = game.content
    expected = {*content.cars, *content.drivers, *EQUIPMENT, *HAZARDS, *course_names(), *game.track.faces,
                *game.gear.names}
    assert set(terms) == expected
    assert all(term.name and term.text and term.kind for term in terms.values())
    assert terms["ram-mines"].kind == "car" and terms["ram-mines"].text.startswith(content.cars["ram-mines"].text)
    assert "Fixed equipment: Combat Bumper and Minelayer." in terms["ram-mines"].text
    assert terms["flame-gun"].text.endswith("Equipment: Flamer, Machine Gun, and the Rocket Booster and Fire "
                                            "Extinguisher every driver has.")
    assert terms["mine"].name == "Mine" and terms["mine"].kind == "hazard"
    assert terms["combat-bumper"].kind == "fixed equipment" and terms["flamer"].kind == "equipment"
    assert terms["C1a"].name == "Left curve" and terms["C1a"].kind == "tile"
    assert terms["grand-prix"].text.endswith("10 tiles, open: from the start to the finish line.")
    assert terms["ring"].text.endswith("4 tiles, closed, 2 laps.")
    assert terms["g3y"].name == "gear 3, yellow zone (speed 8)"
    assert terms["g3y"].text == ("Move 8 squares; 2 red dice, each giving 1 heat on 1-2 (+1 for each Turbo point "
                                 "spent this turn); lane changes: the highest of 2 white dice; a fixed obstruction "
                                 "hit costs the lowest of 2 white dice in structure.")


def _settle(s: Any) -> Any:
    """Past the red and white dice of a turn whatever the data gives them: no heat, the most lane changes."""
    while s.stage is Stage.ROLL and s.need[0] in (Task.HEAT, Task.STEER):
        s = s.apply(max(s.legal_actions(), key=lambda a: (a.startswith("steer"), -int(a.split(":")[1]))))
    return s


def test_the_scoreboard_credits_a_rush_n_crush_to_the_car_that_rammed() -> None:
    """Movement: "If you hit another racer directly from behind, this is a 'Rush 'n' Crush' ... For each
    1-2, both vehicles take a structure point": the rammer deals 1 and takes 1; only the first counts as
    damage dealt."""
    s = slipstream.load("rush-n-crush", players=2, course="sprint", gear_lines="full").start(seed=1)
    s = _settle(play(s, "grid:P1", "gear:g1b", "done"))
    s = _settle(play(s, "ahead", "ahead", "ahead", "ahead", "end", "gear:g1b", "turbo:g1y", "done"))
    s = play(s, "left", "left", "ahead", "ahead", "ahead")
    assert texts(s)[-1] == "P2 rushes P1 from behind: 1 die"
    s = s.apply("die:1")
    board = render.scoreboard(s)
    assert list(board[0]) == ["Place", "Car and driver", "Structure left", "Heat taken", "Damage dealt",
                              "Wrecks caused"]
    assert board[0]["Place"] == "1st" and board[1]["Place"] == "2nd"
    assert board[0]["Car and driver"] == "Armour & Computer / Bumper & Saw"
    assert (board[0]["Damage dealt"], board[1]["Damage dealt"]) == ("0", "1")
    assert board[1]["Structure left"] == f"{s.dash[1].structure - 1} of {s.dash[1].structure}"


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (6, 11)])
def test_the_scoreboard_adds_up_over_a_race(players: int, seed: int) -> None:
    """Over a random race: the heat taken is every heat point gained; damage dealt never exceeds the
    structure the others lost, wrecks caused never exceed the wrecks; a wreck's place says so."""
    game = slipstream.load("rush-n-crush", players=players, course="grand-prix")
    states = random_states(game.start(seed=seed), random.Random(seed))
    end = states[-1]
    assert isinstance(end, RushState)
    board = render.scoreboard(end)
    gained = [0] * players
    for before, after in itertools.pairwise(states):
        assert isinstance(before, RushState) and isinstance(after, RushState)
        for c in range(players):
            gained[c] += max(0, after.heat[c] - before.heat[c])
    assert [int(board[c]["Heat taken"]) for c in range(players)] == gained
    lost = sum(end.dash[c].structure - end.structure[c] for c in range(players))
    assert sum(int(board[c]["Damage dealt"]) for c in range(players)) <= lost
    assert sum(int(board[c]["Wrecks caused"]) for c in range(players)) <= sum(1 for d in end.destroyed if d)
    for c in range(players):
        assert board[c]["Place"].endswith(" (wreck)") == bool(end.destroyed[c])


def test_the_description_tells_a_player_what_the_game_is() -> None:
    cls = type(slipstream.load("rush-n-crush", players=2))
    assert cls.description.startswith("2 to 6 players") and "gear matrix" in cls.description
