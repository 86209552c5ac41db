"""The Rush 'n' Crush board: in the terminal, every line within an 80-column terminal with every sign
in the key and every car, wreck, mine and obstruction where the view puts it; in the browser
(``board.js`` run by Node), the same squares, and a click on a square sending the step to it."""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

import slipstream
from slipstream.engine.game import State
from slipstream.games.rush_n_crush import plans, render
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage
from tests.playout import random_states

from .helpers import armed, moving, new, place

GAME = slipstream.load("rush-n-crush")

WIDTH = 76
"""An 80-column terminal less the panel's border and padding."""
BOARD_JS = Path(render.__file__).with_name("board.js")


def _plain(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.splitlines()


def _states(players: int, seed: int, **options: Any) -> list[State]:
    """Every state of a random race (random choices, seeded chance)."""
    game = slipstream.load("rush-n-crush", players=players, **options)
    return random_states(game.start(seed=seed), random.Random(seed))


RACES = [(4, 1, {}), (6, 2, {"course": "grand-prix", "seat_assignment": "random"}), (3, 3, {"course": "ring"}),
         (2, 4, {"course": "oval"})]


def _course_marks(lines: list[str]) -> dict[str, str]:
    """The mark drawn in each square of the terminal picture, by square name (``tile.lane.index``, from 0;
    the picture numbers tiles and lanes from 1, as ``place_words`` says them)."""
    marks: dict[str, str] = {}
    tiles: list[tuple[int, int]] = []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if after.startswith("L1 "):
            tiles = [(int(m.group(1)) - 1, m.start()) for m in re.finditer(r"(\d+) [A-Z]", line)]
        elif re.match(r"L\d ", line):
            lane = int(line[1]) - 1
            for k, (tile, start) in enumerate(tiles):
                end = tiles[k + 1][1] if k + 1 < len(tiles) else len(line)
                cells = line[start:end].split("|")[1:]
                for index, cell in enumerate(cells):
                    marks[f"{tile}.{lane}.{index}"] = cell[0]
    return marks


@pytest.mark.parametrize(("players", "seed", "options"), RACES)
def test_every_line_fits_and_every_square_shows_what_is_there(players: int, seed: int,
                                                              options: dict[str, Any]) -> None:
    for state in _states(players, seed, **options)[::9]:
        view = state.view(None)
        lines = _plain(render.board(view))
        assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
        marks = _course_marks(lines)
        assert len(marks) == sum(len(lane) for tile in view["course"]["tiles"] for lane in tile["lanes"])
        expected = {sq: "#" for sq in view["obstructions"]}
        expected.update({m["square"]: "*" for m in view["mines"]})
        expected.update({sq: "X" for sq in view["wrecks"]})
        expected.update({c["square"]: str(c["seat"] + 1) for c in view["cars"]
                         if c["square"] is not None and not c["destroyed"]})
        assert {sq: m for sq, m in marks.items() if m != "."} == expected
        key = " ".join(line for line in lines if line.startswith(("key:", "     ")))
        for sign in ("1-6 a car", "X Wreck", "* Mine", "# Fixed obstruction", ". empty", "| a square starts",
                     "L1-L4 the lanes, L1 on the left"):
            assert sign in key


def test_a_curve_draws_its_inner_lane_with_fewer_longer_squares() -> None:
    """Content 4: the left curve C1a has lanes of 6, 7, 9 and 10 squares over 10 ranks."""
    view = new(2, course="ring").view(None)
    lines = _plain(render.board(view))
    start = next(i for i, line in enumerate(lines) if line.startswith("   1 Left curve"))
    tile = [line[3:3 + 20] for line in lines[start + 1:start + 5]]
    assert [row.count("|") for row in tile] == [6, 7, 9, 10]
    assert all(len(row) == 20 for row in tile)


def test_dashboard_shows_each_cars_place_gear_tracks_and_pieces() -> None:
    """Each car's dashboard in words: its place as ``place_words`` says it, its gear as the matrix reads,
    its tracks, and its pieces by name (+ armed, - disarmed)."""
    s = new(2)
    s = armed(place(s, {0: "1.1.2", 1: "0.2.7"}, heat=(3, 0), structure=(5, 6)), 0, "side-bumper")
    lines = _plain(render.board(s.view(None)))
    text = "\n".join(lines)
    assert "P1 Armour & Computer / Bumper & Saw, 1st in turn order  <- to play" in text
    assert "   at tile 2 (Left curve), lane 2, square 3" in text
    assert "   the zero spot (speed 0); structure 5, heat 3 of 8" in text
    assert "   points left: steering 6, brake 3, turbo 3" in text
    assert ("   Armor Shielding, On-board Computer; +Side Bumper, -Lateral Circular Saw,\n"
            "   -Rocket Booster, -Fire Extinguisher") in text


def test_the_key_prints_the_effect_of_every_hazard_and_of_the_viewers_pieces() -> None:
    """What a player reads: every sign of the course with the hazard's effect text, and the effect of each
    piece of equipment (a seat's own car; every car's for a spectator), as the content words them."""
    s = new(2)
    content = s.game.content
    own = {"armor-shielding", "onboard-computer", "side-bumper", "circular-saw", "rocket-booster", "fire-extinguisher"}
    for seat, pieces in ((0, own), (None, own | {"combat-bumper", "machine-gun"})):
        text = " ".join(" ".join(_plain(render.board(s.view(seat)))).split())
        for hazard in ("obstruction", "wreck", "mine"):
            assert f"{content.hazards[hazard].name}: {content.hazards[hazard].text}" in text
        for piece, record in content.equipment.items():
            assert (f"{record.name}: {record.text}" in text) == (piece in pieces), (seat, piece)


def test_hints_give_heat_odds_and_expected_lane_changes_for_each_gear() -> None:
    """Turn and Movement: the red dice by zone (heat on 1-2), the white dice by speed (content 2.2):
    from g2y the free action reaches g2o (speed 8, 2 red dice: 1 - (4/6)^2 = 56%, highest of 2: 4.5)."""
    s = new(2)
    s = place(s, {0: "0.1.5", 1: "0.2.7"}, node=(s.game.gear.node("g2y"), 0), round=2)
    lines = render.hints(s, 0)
    assert lines[0] == ("now gear 2, yellow zone (speed 6): heat 33% (1 red die on 1-2); 5.0 lane changes expected "
                        "(highest of 3 white dice)")
    assert ("  accelerate to gear 2, orange zone (speed 8): heat 56% (2 red dice on 1-2); 4.5 lane changes "
            "expected (highest of 2 white dice)") in lines
    assert "  brake to gear 2, blue zone (speed 5): no red dice; unlimited lane changes" in lines
    assert any(line.startswith("  shift to gear 1, orange zone (speed 6): ") for line in lines)
    assert render.hints(s, 1) == []


def test_the_first_decision_of_each_kind_says_what_it_does() -> None:
    """Issue 31: the first time a player meets a kind of decision, one line says what it does (from the
    content's ``[decisions]``): the gearstick and the Activations at the first turn's start, the points,
    the move before its first step; a swerve every time."""
    told = new(2).game.content.model.decisions
    s = new(2)
    assert render.hints(s, 0)[:2] == [told.gear, told.equipment]
    s = s.apply("gear:g1b")
    assert render.hints(s, 0)[0] == told.points
    s = s.apply("done")
    assert render.hints(s, 0)[0] == told.move
    s = s.apply("ahead")
    assert told.move not in render.hints(s, 0)
    later = place(new(2), {0: "0.1.5", 1: "0.2.7"}, node=(1, 0), round=2)
    assert told.gear not in render.hints(later, 0) and told.equipment not in render.hints(later, 0)
    swerve = moving(place(new(2), {0: "4.1.1", 1: "0.2.7"}, round=3), "g1y").apply("ahead")
    assert swerve.stage is Stage.SWERVE and render.hints(swerve, 0) == [told.swerve]


def test_hints_while_moving_name_what_lies_ahead() -> None:
    s = new(2)
    s = moving(place(s, {0: "2.0.0", 1: "2.0.7"}, round=2), "g1y", lane_changes=2)
    lines = render.hints(s, 0)
    assert lines[0] == "movement left 5; lane changes left 2 (+6 Steering points)"
    assert lines[1] == ("straight ahead: Fixed obstruction 2 squares on, Fixed obstruction 3 squares on, "
                        "Fixed obstruction 4 squares on, Fixed obstruction 5 squares on")
    clear = moving(place(new(2), {0: "5.1.2", 1: "5.1.5"}, round=2), "g1o", movement=6)
    assert render.hints(clear, 0)[1] == "straight ahead: P2 3 squares on, the finish line 6 squares on"


def test_describe_action_labels() -> None:
    assert render.describe_action(GAME, "left+bumper+saw") == ("step diagonally forward left, a Side Ram Using the "
                                                        "Side Bumper and the Lateral Circular Saw")
    assert render.describe_action(GAME, "ahead+mine") == "step straight ahead, dropping a mine"
    assert render.describe_action(GAME, "gear:g3y") == "move the gearstick to gear 3, yellow zone (speed 8)"
    assert render.describe_action(GAME, "turbo:g4y") == ("spend a Turbo point: accelerate to gear 4, yellow zone "
                                                          "(speed 10)")
    assert render.describe_action(GAME, "brake:g1b") == "spend a Brake point: brake to gear 1, blue zone (speed 4)"
    assert render.describe_action(GAME, "use:machine-gun") == "Use the Machine Gun"
    assert render.describe_action(GAME, "arm:circular-saw") == "arm the Lateral Circular Saw"
    assert render.describe_action(GAME, "boost:2") == "fire the Rocket Booster: 2 squares straight on"
    assert render.describe_action(GAME, "boost:1+mine") == ("fire the Rocket Booster: 1 square straight on, "
                                                             "dropping a mine")
    assert render.describe_action(GAME, "swerve-right") == "swerve right round the obstruction"
    assert render.describe_action(GAME, "steer:1") == "1 lane change"
    assert render.describe_action(GAME, "crash:4") == "4 structure from the obstruction"
    assert render.describe_action(GAME, "die:5") == "the die shows 5"
    assert render.describe_action(GAME, "grid:P3") == "the next grid slot to P3"
    assert render.describe_action(GAME, "car:ram-mines") == "the car Ram & Mines"
    assert render.describe_action(GAME, "driver:flame-gun") == "the driver Flame & Gun"
    assert render.describe_action(GAME, "nonsense") == "nonsense"


# --- the browser's board, run by Node ---------------------------------------------------------------

NODE = shutil.which("node")
RUNNER = """
import { draw, road, panel, planActions, placeName } from "./board.mjs";
import { esc } from "./common.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = cases.map(({ view, ctx, pick }) => {
  if (ctx.termed) ctx.term = (id, fallback) => `[[${id}|${esc(fallback)}]]`;
  const html = draw(view, ctx);
  const shapes = road(view.course);
  const lanes = {};
  for (const sq of shapes.squares) (lanes[`${sq.tile}.${sq.lane}`] ||= []).push(sq.centre);
  const picked = pick ? panel(view, ctx, (ctx.plans.paths || []).find((p) => p.square === pick) || null,
    (ctx.plans.steps || []).find((s) => s.square === pick) || null) : "";
  const places = Object.fromEntries(shapes.squares.map((sq) => [sq.name, placeName(view, sq.name)]));
  return { html, edges: shapes.edges.map((e) => ({ entry: e.entry, exit: e.exit })), lanes, picked, places,
    actions: pick && ctx.plans.paths
      ? ctx.plans.paths.filter((p) => p.mines.length).map((p) => planActions(p, p.mines[0])) : [] };
});
console.log(JSON.stringify(out));
"""


def _run_board(tmp_path: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``draw`` (and the road, a picked square's panel) of board.js for each (view, ctx), with the shared
    helper stubbed."""
    source = BOARD_JS.read_text().replace('from "/static/common.js"', 'from "./common.mjs"')
    (tmp_path / "board.mjs").write_text(source)
    (tmp_path / "common.mjs").write_text(
        "export function esc(t) { return String(t ?? '').replace(/[&<>\"']/g, (c) => `&#${c.charCodeAt(0)};`); }\n")
    (tmp_path / "run.mjs").write_text(RUNNER)
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    done = subprocess.run([NODE or "node", "run.mjs", "cases.json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def _ctx(state: RushState, seat: int | None, termed: bool = False) -> dict[str, Any]:
    """What match.js gives a board: the seat's legal actions and, for the seat to act, its plans."""
    acting = seat is not None and state.actor == seat
    return {"seat": seat, "legal": state.legal_actions() if acting else [],
            "plans": json.loads(json.dumps(plans.move_plans(state, seat))) if acting and seat is not None else None,
            "names": [f"P{k + 1}" for k in range(state.game.players)], "match": {"id": "m"},
            "colours": ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4"], "narrow": False,
            "termed": termed}


def _close(a: list[float], b: list[float]) -> bool:
    return abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9


def _length(points: list[list[float]]) -> float:
    return sum(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 for (x1, y1), (x2, y2) in itertools.pairwise(points))


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
@pytest.mark.parametrize("course", ["sprint", "grand-prix", "ring", "oval"])
def test_the_browser_draws_the_course_as_one_road(tmp_path: Path, course: str) -> None:
    """Content 4.6: each tile is placed at its entry cell and heading, so the exit edge of a tile is the
    entry edge of the next (and of tile 0 after the last, on a closed course); a 90-degree curve is a
    quarter ring whose inner lane is shorter than its outer one (4.1: "inner lane 6, outer lane 10"),
    turning the road a quarter. Every square of the course is drawn once."""
    state = new(2, course=course)
    track = state.game.track
    [out] = _run_board(tmp_path, [{"view": state.view(None), "ctx": _ctx(state, None)}])
    edges = out["edges"]
    joins = list(itertools.pairwise(edges)) + ([(edges[-1], edges[0])] if track.closed else [])
    for before, after in joins:
        assert _close(before["exit"][0], after["entry"][0]) and _close(before["exit"][1], after["entry"][1])
    for t, kind in enumerate(track.kinds):
        inner, outer = (0, 3) if kind == "left-90" else (3, 0)
        ratio = _length(out["lanes"][f"{t}.{inner}"]) / _length(out["lanes"][f"{t}.{outer}"])
        if kind in ("left-90", "right-90"):
            assert 0.45 < ratio < 0.75, (t, kind, ratio)
            (ax, ay), (bx, by) = edges[t]["entry"]
            (cx, cy), (dx, dy) = edges[t]["exit"]
            assert abs((bx - ax) * (dx - cx) + (by - ay) * (dy - cy)) < 1e-9, "the exit is square to the entry"
        elif kind == "straight":
            assert ratio == pytest.approx(1)
    squares = re.findall(r'data-square="([\d.]+)"', out["html"])
    assert sorted(squares) == sorted(track.name_of(sq) for sq in range(track.squares))
    second_tile = {"sprint": "the first curve", "grand-prix": "the S-bend", "ring": "the second curve",
                   "oval": "the first curve"}[course]
    assert out["places"]["1.1.2"] == f"lane 2, square 3 of {second_tile}"


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_squares_a_move_can_reach_are_picked_on_the_board(tmp_path: Path) -> None:
    """Movement: the car to play is offered every square its plans reach (a click picks one; the panel
    then sends its steps), the squares where a die decides (a Side Ram) and, after an obstruction, the
    two sides of the compulsory lane change as plain clicks; another seat is offered nothing."""
    s = moving(place(new(2), {0: "0.1.3", 1: "0.2.7"}), "g1y")
    assert s.stage is Stage.MOVE
    swerve = moving(place(new(2), {0: "4.1.1", 1: "0.2.7"}), "g1y").apply("ahead")
    assert swerve.stage is Stage.SWERVE
    cases = [{"view": s.view(0), "ctx": _ctx(s, 0)}, {"view": s.view(1), "ctx": _ctx(s, 1)},
             {"view": swerve.view(0), "ctx": _ctx(swerve, 0)}]
    [mover, other, swerving] = _run_board(tmp_path, cases)
    found = plans.move_plans(s, 0) or {}
    picked = set(re.findall(r'class="rnc-square[^"]*" data-square="([\d.]+)" data-rc-plan', mover["html"]))
    assert picked == {p["square"] for p in found["paths"]} | {x["square"] for x in found["steps"]}
    ends = set(re.findall(r'class="rnc-square rnc-target rnc-end" data-square="([\d.]+)"', mover["html"]))
    assert ends == {p["square"] for p in found["paths"] if p["then"] == "stop"} and ends
    assert "data-rc-plan" not in other["html"] and "data-action" not in other["html"]
    assert 'class="racer me" data-seat="0" data-at="0.1.3"' in mover["html"]
    sides = dict(re.findall(r'data-square="([\d.]+)" data-action="([\w-]+)"', swerving["html"]))
    assert sides == {"4.0.2": "swerve-left", "4.2.2": "swerve-right"}
    offers = re.search(r'data-offers="([^"]*)"', mover["html"])
    steps = {a for a in s.legal_actions() if a.split("+")[0] in ("ahead", "left", "right")}
    assert offers and set(offers.group(1).split()) == steps
    for car in s.view(None)["cars"]:
        assert car["car_name"].replace("&", "&#38;") in mover["html"]


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_a_picked_square_sends_its_steps_and_a_ram_offers_its_variants(tmp_path: Path) -> None:
    """Movement: a Side Ram may "Use Side Bumper" or "Use Lateral Circular Saw" (``+bumper``, ``+saw``),
    and "Whenever you leave a space, you may activate the Minelayer" (``+mine``): the panel of a picked
    ram offers each legal variant as a button; a picked square's "Drive" sends its plan's steps, and a
    mine dropped on the way adds ``+mine`` to that step. Introduction: "The winner is the first car to
    cross the finish line": the finish line is a square to pick when a plan crosses it."""
    # P3 (Armour & Mines / Flame & Saw) with its Saw armed, P1 diagonally ahead-left of it
    ram = moving(armed(place(new(3), {2: "0.2.3", 0: "0.1.4", 1: "0.0.1"}, active=2), 2, "circular-saw"), "g1y")
    finish = moving(place(new(3), {2: "5.1.5", 0: "0.0.1", 1: "0.2.1"}, active=2), "g1y")
    far = {p["square"]: p for p in (plans.move_plans(ram, 2) or {})["paths"]}
    target = max(far.values(), key=lambda p: len(p["steps"]))
    [rammer, driver, finisher, watcher] = _run_board(tmp_path, [
        {"view": ram.view(2), "ctx": _ctx(ram, 2), "pick": "0.1.4"},
        {"view": ram.view(2), "ctx": _ctx(ram, 2), "pick": target["square"]},
        {"view": finish.view(2), "ctx": _ctx(finish, 2), "pick": "finish"},
        {"view": finish.view(0), "ctx": _ctx(finish, 0)}])
    buttons = re.findall(r'data-action="([\w+-]+)"', rammer["picked"])
    assert sorted(buttons) == sorted(a for a in ram.legal_actions() if a.startswith("left"))
    assert "Side Ram P1" in rammer["picked"]
    assert re.search(r'data-actions="([\w +-]+)"', driver["picked"]).group(1) == " ".join(target["steps"])
    assert len(target["steps"]) >= 3 and "data-rc-mine" in driver["picked"]
    assert driver["actions"] and all(a.split()[0].endswith("+mine") for a in driver["actions"])
    assert re.search(r'data-rc-plan="finish"', finisher["html"])
    assert re.search(r'data-actions="ahead ahead ahead"', finisher["picked"]) and "win" in finisher["picked"]
    assert 'data-rc-plan="finish"' not in watcher["html"]


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_gear_matrix_offers_each_gearstick_move_and_names_come_from_the_glossary(tmp_path: Path) -> None:
    """Turn: at the gearstick decision the matrix draws every node with its speed, the gearstick where
    it is, and each reachable node as a click sending its action (with the move it is). The pieces are
    one panel, each armed with one click; names go through ``ctx.term`` (the glossary's tips)."""
    s = place(new(2), {0: "0.1.5", 1: "0.2.7"})
    s = s.copy()
    s.node = (s.game.gear.node("g2y"), 0)
    [out] = _run_board(tmp_path, [{"view": s.view(0), "ctx": _ctx(s, 0, termed=True)}])
    nodes = set(re.findall(r'class="rnc-node" data-node="(\w+)"', out["html"]))
    assert len(nodes) == 25
    offered = dict(re.findall(r'class="rnc-node" data-node="(\w+)" data-action="([\w:]+)"', out["html"]))
    assert sorted(offered.values()) == sorted(a for a in s.legal_actions() if a.startswith("gear:") or a == "keep")
    assert offered["g2y"] == "keep", "the gearstick's own node keeps it there"
    assert "Choose your gear: higher is faster but heats the engine." in out["html"]
    arms = re.findall(r'<button type="button" data-action="(arm:[\w-]+)">Arm</button>', out["html"])
    assert sorted(arms) == sorted(a for a in s.legal_actions() if a.startswith("arm:"))
    assert "[[side-bumper|Side Bumper]]" in out["html"] and "[[armour-computer|Armour &#38; Computer]]" in out["html"]
