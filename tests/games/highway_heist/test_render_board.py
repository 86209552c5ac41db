"""The Highway Heist board in the terminal (road grid, boards, Enemy-card and Stunt rows), the odds of
every Skill Roll in the hints, the action labels, and the browser board (run through node)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

import slipstream
from slipstream.engine.hooks import hooks_of
from slipstream.games.highway_heist.render import board, describe_action, hints
from slipstream.games.highway_heist.state import Stage
from tests.playout import random_action, random_states

from .helpers import arrange, new

GAME = slipstream.load("highway-heist")

WIDTH = 76
HAN_DRIFTER = {"characters": "han,dom", "vehicles": "street-drifter,exotic-supercar"}
STATIC = Path(slipstream.__file__).parent / "web" / "static"


def _rows(text: str) -> dict[str, str]:
    return {line[:3].strip(): line for line in text.splitlines() if line[:1] == "L" and line[1:2].isdigit()}


def test_the_road_grid_puts_every_piece_in_its_space() -> None:
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)], wrecks=[(3, 2)],
                pegs=[(3, 3)], main={"tank": (9, 4)}, on_top={1: (3, 3)})
    rows = _rows(board(s.view(0)))
    cell = 4
    assert rows["L3"][4 + cell:4 + 3 * cell] == "P1  S*^ "   # Han behind the wheel; the SUV with both pegs
    assert rows["L2"][4 + 2 * cell:4 + 3 * cell] == "X   "
    assert rows["L4"][4 + 8 * cell:4 + 9 * cell] == "T   "
    assert rows["L6"][4:4 + cell] == "p2  "                   # Dom is on foot: his vehicle is unmanned


def test_board_shows_each_seat_the_enemy_row_and_the_stunt_row() -> None:
    s = new(stunt="ta-s1a", **HAN_DRIFTER)
    text = board(s.view(0))
    assert "P1 han, street-drifter at c1l3, strength" in text and ", playing" in text
    assert "behind the wheel; Speed 4 Control" in text
    assert "Enemy cards (deck 12, discard 0): 1: -, 2: -, ACTIVATE!: -" in text
    assert "  1: Side Swipe (ta-s1a, level 1, 1 Boost token(s))" in text
    assert f"tank damage 0/{s.g.scenario.goal}" in text


@pytest.mark.parametrize("scenario", ["tank-assault", "semi-heist", "chopper-takedown"])
def test_every_board_line_fits_the_terminal_and_is_valid_markup(scenario: str) -> None:
    game = slipstream.load("highway-heist", players=4, scenario=scenario)
    for state in random_states(game.start(seed=5), random.Random(5))[::3]:
        for seat in (None, 0):
            lines = Text.from_markup(board(state.view(seat))).plain.splitlines()
            assert max(len(line) for line in lines) <= WIDTH


def test_hints_give_each_roll_with_boost_and_each_assist() -> None:
    """Skill Rolls: Speed 4 needing 3 succeeds 31% (59% Boosted); one Assist makes 5 dice, 50% (79%);
    the content's reference odds (highway-heist-content.md section 2)."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)])
    lines = hints(s, 0)
    ram = next(line for line in lines if line.startswith("Ram the Enemy SUV at c3l3"))
    assert ram == ("Ram the Enemy SUV at c3l3 (Speed 4 dice, needs 3): 4 dice 31% (Boosted 59%); "
                   "+1 Assist (5 dice) 50% (Boosted 79%)")
    shake_free = [line for line in lines if line.startswith("Shake")]
    assert not shake_free, "no Enemy Peg on the vehicle: no Shake to offer"


def test_hints_in_the_assist_window_show_what_an_assist_adds() -> None:
    """Assist (Team Member): the roll's chance plain and Boosted (labelled: the roller's own token after
    the roll), then with one of the helper's tokens (two dice; a second would add none above five); the
    roller sees the first line only."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)]).apply("ram:c3l3")
    assert s.stage is Stage.ASSIST
    assert hints(s, 1) == ["P1 rolls 4 dice for ram:c3l3, needing 3: 31% (Boosted 59%)",
                           "  with 1 of your tokens (5 dice): 50% (Boosted 79%)"]
    assert hints(s, 0) == ["P1 rolls 4 dice for ram:c3l3, needing 3: 31% (Boosted 59%)"]
    poor = s.copy()
    poor.boost = (0, 2)                       # the roller has no token: no Boosted chance to show
    assert hints(poor, 1)[0] == "P1 rolls 4 dice for ram:c3l3, needing 3: 31%"


def test_hints_in_the_assist_window_show_one_and_two_tokens() -> None:
    """Assist: Dom on foot rolls 1 die for a Brawl needing 2; Brian's two tokens would make it 3 dice,
    then 5 (never more)."""
    s = arrange(new(characters="dom,brian", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (4, 3), 1: (9, 6)}, suvs=[(5, 3)], pegs=[(5, 3)], on_top={0: (5, 3)},
                main={"tank": (12, 1)}).apply("brawl")
    assert hints(s, 1) == ["P1 rolls 1 die for brawl, needing 2: 0% (Boosted 0%)",
                           "  with 1 of your tokens (3 dice): 50% (Boosted 74%)",
                           "  with 2 of your tokens (5 dice): 81% (Boosted 95%)"]


def test_defense_hints_count_the_exotic_supercars_success() -> None:
    """Damage and Defense with HH-A10: the Exotic Supercar's Thoroughbred success counts on Defense rolls
    too, so with 2 dice + 1 success against a slam of 3, blocking 1 is sure; plain and Boosted, then with
    one and two of the helper's tokens."""
    s = arrange(new(characters="dom,brian", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)], main={"tank": (12, 6)})
    s = s.apply("end-turn").apply("enemy-die:suv")
    assert s.stage is Stage.ASSIST and s.roll is not None and s.roll.seat == 1
    assert hints(s, 0) == [
        "P2 defends against 3 damage: 2 dice + 1 success (Exotic Supercar)",
        "  chance to block 1+ / 2+ / 3+: 100% / 75% / 25% (Boosted 100% / 89% / 44%)",
        "  with 1 of your tokens (4 dice): 100% / 94% / 69% (Boosted 100% / 99% / 89%)",
        "  with 2 of your tokens (5 dice): 100% / 97% / 81% (Boosted 100% / 100% / 95%)"]
    assert all(len(line) <= 80 for line in hints(s, 0))   # an 80-column terminal


def test_hints_without_a_roll_say_so() -> None:
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)})
    assert hints(s, 0)[0].startswith("no Skill Roll is open to you now")


def test_describe_action_labels() -> None:
    assert describe_action(GAME, "1:assist") == "P2: Assist the roll (one Boost token: +2 dice)"
    assert describe_action(GAME, "drive:c5l3") == "drive to c5l3"
    assert describe_action(GAME, "leap:wheel") == "leap back behind the wheel"
    assert describe_action(GAME, "stunt:ta-s1a@c3l3") == "attempt the Stunt ta-s1a on c3l3"
    assert describe_action(GAME, "act:open-door") == "attempt the scenario action open-door"
    assert describe_action(GAME, "effort:2s1b1x") == "the Effort Dice show 2 success, 1 boost, 1 blank"
    assert describe_action(GAME, "remove:none") == "remove no Enemy Peg"
    assert describe_action(GAME, "first:1") == "move P2's Player Peg first"
    assert describe_action(GAME, "first:enemy") == "move the Enemy Peg first"
    assert describe_action(GAME, "nonsense") == "nonsense"


def test_the_game_declares_its_hooks() -> None:
    hooks = hooks_of(slipstream.load("highway-heist"))
    assert hooks.board_text is board and hooks.hints is hints
    assert hooks.web_board is not None and hooks.web_board.name == "board.js" and hooks.web_board.is_file()


def _draw(view: dict[str, Any], legal: list[str], tmp_path: Path) -> str:
    """The browser board's markup, from ``draw(view, ctx)`` run by node on copies of the modules."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    hooks = hooks_of(slipstream.load("highway-heist"))
    assert hooks.web_board is not None
    source = hooks.web_board.read_text().replace('"/static/common.js"', '"./common.mjs"')
    (tmp_path / "board.mjs").write_text(source)
    shutil.copy(STATIC / "common.js", tmp_path / "common.mjs")
    ctx = {"seat": 0, "legal": legal, "names": ["P1", "P2"], "colours": ["#e6194b", "#3cb44b"], "match": {}}
    script = (f"import {{ draw }} from './board.mjs';\n"
              f"process.stdout.write(draw({json.dumps(view)}, {json.dumps(ctx)}));\n")
    (tmp_path / "run.mjs").write_text(script)
    done = subprocess.run([node, str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_browser_board_makes_squares_and_vehicles_clickable(tmp_path: Path) -> None:
    s = arrange(new(stunt="ta-s1a", **HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(2, 2)],
                wrecks=[(4, 4)], main={"tank": (9, 3)})
    legal = s.legal_actions()
    assert "drive:c5l3" in legal and "ram:c2l2" in legal and "stunt:ta-s1a@c2l2" in legal
    html = _draw(s.view(0), legal, tmp_path)
    assert 'data-action="drive:c5l3"' in html                  # an empty square: Drive there
    assert 'data-piece="' in html and 'data-action="ram:c2l2"' in html   # the SUV: Ram it ...
    assert 'data-action="stunt:ta-s1a@c2l2"' in html          # ... or its Stunt, as a badge
    assert "TANK" in html and "WRECK" in html and "Side Swipe" in html and "ACTIVATE!" in html
    assert html.count('class="square"') == 12 * 6


def test_browser_board_draws_the_chopper_ramsey_and_cargo(tmp_path: Path) -> None:
    chopper = new(scenario="chopper-takedown", ramsey_seat=0)
    html = _draw(chopper.view(0), [], tmp_path)
    assert "CHOPPER" in html and "SHAW" in html and "<title>Ramsey</title>" in html
    semi = new(scenario="semi-heist")
    html = _draw(semi.view(None), [], tmp_path)
    assert "CAB" in html and "TRAILER" in html and "Cargo in the Semi 4" in html


def test_browser_board_names_the_enemy_cards_in_the_row(tmp_path: Path) -> None:
    """The Enemy-card row shows each revealed card by its name (the view's ``enemy_row_names``), its id below."""
    rng = random.Random(4)
    s = new()
    while not any(s.view(0)["enemy_row"]):
        s = s.apply(random_action(s, rng))
    view = s.view(0)
    names = [s.g.enemy_cards[c].name if c else None for c in view["enemy_row"]]
    assert view["enemy_row_names"] == names
    html = _draw(view, [], tmp_path)
    assert all(f"<b>{name}</b>" in html for name in names if name)
