"""The Highway Heist board in the terminal (road grid, boards, Enemy-card and Stunt rows), the odds of
every Skill Roll in the hints, the action labels, and the browser board (run through node)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

import slipstream
from slipstream.engine.hooks import hooks_of
from slipstream.games.highway_heist.render import board, describe_action, hints
from slipstream.games.highway_heist.render import glossary as glossary_of
from slipstream.games.highway_heist.types import Stage
from tests.playout import random_states
from tests.words import Vocabulary

from .helpers import arrange, new

GAME = slipstream.load("highway-heist")

WIDTH = 76
HAN_DRIFTER = {"characters": "han,dom", "vehicles": "street-drifter,exotic-supercar"}
STATIC = Path(slipstream.__file__).parent / "web" / "static"


def escape(text: str) -> str:
    """``text`` as common.js's ``esc`` writes it into the page."""
    return "".join({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}.get(c, c) for c in text)


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
    """Each seat by its character and vehicle names, its place in words and its powers with their effect;
    the Stunt row with each card's roll, Condition and Reward; the scenario's track by name."""
    s = new(stunt="ta-s1a", **HAN_DRIFTER)
    text = board(s.view(0))
    assert "P1 Han, Street Drifter in column 1, lane 3, strength 7 of 7, playing" in text
    assert "   behind the wheel\n   Speed 4, Control 3, Athletics 3, Defense 2; Boost tokens 2 of 3" in text
    assert "   Parkour: After a successful Brawl, Han may Leap one space for free" in text
    assert "   Drift: In each Drive, this vehicle may pass through one space taken" in text
    assert "Enemy cards (deck 12, discard 0), moving toward ACTIVATE!:\n  spot 1: -\n" in text
    assert "  1: Roadblock (level 1, 1 Boost token): Speed roll, 2 successes needed\n" in text
    assert "     Behind the wheel, next to an Enemy SUV that is East of the Tank" in text
    assert f"Tank Damage 0 of {s.g.scenario.goal}" in text
    assert "Tank Assault (Standard), round 1, P1's turn, 2 actions left" in text


def test_board_says_both_effects_of_each_enemy_card_and_which_activates_next() -> None:
    """Enemy Cards: "Because you can see the Activated effect in advance, the team can work together to
    avoid the danger": every card in the row shows its Reveal and its Activated effect in words, the one
    in the spot before ACTIVATE! marked as the next to act."""
    s = new()
    s.enemy_row = ("ta-e05", "ta-e07", "ta-e12")
    text = board(s.view(0))
    assert "  spot 1: Main Cannon\n     revealed: An Enemy Peg climbs onto the Tank.\n" in text
    assert ("     at ACTIVATE!: The Tank's cannon fires East along its lane: the first\n"
            "       Player Vehicle in the way takes 3 damage") in text
    assert "  spot 2 (activates next): Coaxial Gun\n" in text
    assert "     at ACTIVATE!: Each Player Vehicle next to the Tank takes 2 damage.\n" in text
    assert "  ACTIVATE!: Tank Lurches\n     has done: The Tank drops back one space West.\n" in text


def test_the_key_gives_the_effect_of_each_piece_on_the_road() -> None:
    s = arrange(new(), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)], wrecks=[(3, 2)], main={"tank": (9, 4)})
    text = board(s.view(0))
    assert "  Enemy SUV: When the Enemy Die shows Enemy SUV, it slams an adjacent Player\n     Vehicle for 3 damage" \
        in text
    assert "  Wreck: A destroyed vehicle" in text and "  Tank: Owen Shaw's Tank." in text
    assert "Enemy Peg: An enemy" not in text and "Chopper:" not in text   # none on this road


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
    assert lines[0].startswith("Take up to two actions: Drive, Leap")    # round 1: what the decision is
    ram = next(line for line in lines if line.startswith("Ram the Enemy SUV in column 3, lane 3"))
    assert ram == ("Ram the Enemy SUV in column 3, lane 3 (Speed 4 dice, needs 3): 4 dice 31% (Boosted 59%); "
                   "+1 Assist (5 dice) 50% (Boosted 79%)")
    shake_free = [line for line in lines if line.startswith("Shake")]
    assert not shake_free, "no Enemy Peg on the vehicle: no Shake to offer"


def test_hints_in_the_assist_window_show_what_an_assist_adds() -> None:
    """Assist (Team Member): the roll's chance plain and Boosted (labelled: the roller's own token after
    the roll), then with one of the helper's tokens (two dice; a second would add none above five); the
    roller sees the first line only."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)]).apply("ram:c3l3")
    assert s.stage is Stage.ASSIST
    assist = "Assist: discard a Boost token before the roll to give the roller 2 more dice (never more than 5)."
    assert hints(s, 1) == [assist,
                           "P1 (Han) rolls 4 dice for Ram Enemy SUV in column 3, lane 3, needing 3: 31% (Boosted 59%)",
                           "  with 1 of your tokens (5 dice): 50% (Boosted 79%)"]
    assert hints(s, 0) == ["P1 (Han) rolls 4 dice for Ram Enemy SUV in column 3, lane 3, needing 3: 31% (Boosted 59%)"]
    poor = s.copy()
    poor.boost = (0, 2)                       # the roller has no token: no Boosted chance to show
    assert hints(poor, 1)[1] == "P1 (Han) rolls 4 dice for Ram Enemy SUV in column 3, lane 3, needing 3: 31%"


def test_hints_in_the_assist_window_show_one_and_two_tokens() -> None:
    """Assist: Dom on foot rolls 1 die for a Brawl needing 2; Brian's two tokens would make it 3 dice,
    then 5 (never more)."""
    s = arrange(new(characters="dom,brian", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (4, 3), 1: (9, 6)}, suvs=[(5, 3)], pegs=[(5, 3)], on_top={0: (5, 3)},
                main={"tank": (12, 1)}).apply("brawl")
    assert hints(s, 1)[1:] == ["P1 (Dom) rolls 1 die for Brawl, needing 2: 0% (Boosted 0%)",
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
    assert hints(s, 0)[1:] == [
        "P2 (Brian) defends against 3 damage: 2 dice + 1 success (Exotic Supercar)",
        "  chance to block 1+ / 2+ / 3+: 100% / 75% / 25% (Boosted 100% / 89% / 44%)",
        "  with 1 of your tokens (4 dice): 100% / 94% / 69% (Boosted 100% / 99% / 89%)",
        "  with 2 of your tokens (5 dice): 100% / 97% / 81% (Boosted 100% / 100% / 95%)"]
    assert all(len(line) <= 80 for line in hints(s, 0)[1:])   # the odds fit an 80-column terminal


def test_hints_without_a_roll_say_so() -> None:
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)})
    assert hints(s, 0)[-1].startswith("no Skill Roll is open to you now")
    later = s.copy()
    later.round = 2                            # the decision's line is said in the first round only
    assert hints(later, 0)[0].startswith("no Skill Roll is open to you now")


LABELS = [
    ("1:assist", "P2 (Brian): Assist the roll (discard a Boost token: 2 more dice)"),
    ("drive:c5l3", "drive to column 5, lane 3"),
    ("leap:wheel", "leap back behind your wheel"),
    ("stunt:ta-s1a@c3l3", "attempt the Stunt Roadblock on the Enemy SUV in column 3, lane 3"),
    ("effort:2s1b1x", "the Effort Dice show 2 successes, 1 boost, 1 blank"),
    ("enemy-die:main_right", "the Enemy Die shows Main Enemy Moves (right arrow) & Enemy Card"),
    ("enemy-card:ta-e07", "the Enemy card Coaxial Gun is drawn"),
    ("stunt-card:ta-s3", "the Stunt card Harpoon is drawn"),
    ("dir:north-east", "move the Tank one space North-East"),
    ("dir:none", "leave the Tank where it is"),
    ("remove:none", "knock off no other Enemy Peg"),
    ("first:1", "P2 (Brian)'s Player Peg moves first"),
    ("first:enemy", "the Enemy Peg moves first"),
    ("reroll:blank", "reroll a die showing a blank (Wheelman)"),
    ("2:tech", "P3 (Letty): spend a Tej token: a blank die becomes a success (Tech Support)"),
    ("0:take-slam", "P1 (Dom): take the slam for your team mate (Family First)"),
    ("nonsense", "nonsense"),
]


@pytest.mark.parametrize(("action", "label"), LABELS)
def test_describe_action_labels(action: str, label: str) -> None:
    """Every action in words: names from the content, places as the board labels them."""
    assert describe_action(GAME, action) == label


def test_scenario_actions_are_named() -> None:
    semi = slipstream.load("highway-heist", scenario="semi-heist")
    assert describe_action(semi, "act:open-door") == "attempt Open Door"
    assert describe_action(semi, "act:throw-cargo@c7l4") == ("attempt Throw Cargo on the Player Vehicle in "
                                                             "column 7, lane 4")


def test_the_game_declares_its_hooks() -> None:
    hooks = hooks_of(slipstream.load("highway-heist"))
    assert hooks.board_text is board and hooks.hints is hints
    assert hooks.web_board is not None and hooks.web_board.name == "board.js" and hooks.web_board.is_file()


def _draw(view: dict[str, Any], legal: list[str], tmp_path: Path, game: slipstream.Game | None = None,
          with_glossary: bool = True) -> str:
    """The browser board's markup, from ``draw(view, ctx)`` run by node on copies of the modules."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    hooks = hooks_of(slipstream.load("highway-heist"))
    assert hooks.web_board is not None
    source = hooks.web_board.read_text().replace('"/static/common.js"', '"./common.mjs"')
    (tmp_path / "board.mjs").write_text(source)
    shutil.copy(STATIC / "common.js", tmp_path / "common.mjs")
    glossary = {key: term.to_json() for key, term in glossary_of(game or GAME).items()} if with_glossary else {}
    ctx = {"seat": 0, "legal": legal, "names": ["P1", "P2"], "colours": ["#e6194b", "#3cb44b"], "match": {},
           "glossary": glossary}
    script = (f"import {{ draw }} from './board.mjs';\nimport {{ term }} from './common.mjs';\n"
              f"const ctx = {json.dumps(ctx)};\n"
              + ("ctx.term = (id, fallback) => term(ctx.glossary, id, fallback);\n" if with_glossary else "")
              + f"process.stdout.write(draw({json.dumps(view)}, ctx));\n")
    (tmp_path / "run.mjs").write_text(script)
    done = subprocess.run([node, str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_browser_board_makes_squares_and_vehicles_clickable(tmp_path: Path) -> None:
    s = arrange(new(stunt="ta-s1a", **HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(2, 2)],
                wrecks=[(4, 4)], main={"tank": (1, 2)})
    legal = s.legal_actions()
    assert "drive:c5l3" in legal and "ram:c2l2" in legal and "stunt:ta-s1a@c2l2" in legal
    html = _draw(s.view(0), legal, tmp_path)
    assert 'data-action="drive:c5l3"' in html                  # an empty square: Drive there
    assert 'data-piece="' in html and 'data-action="ram:c2l2"' in html   # the SUV: Ram it ...
    assert 'data-action="stunt:ta-s1a@c2l2"' in html          # ... or its Stunt, as a badge
    assert "TANK" in html and "WRECK" in html and "Roadblock" in html and "ACTIVATE!" in html
    assert html.count('class="square"') == 12 * 6


def test_browser_board_draws_the_chopper_ramsey_and_cargo(tmp_path: Path) -> None:
    chopper = new(scenario="chopper-takedown", ramsey_seat=0)
    html = _draw(chopper.view(0), [], tmp_path, chopper.g)
    assert "CHOPPER" in html and "SHAW" in html and 'data-tip-name="Ramsey"' in html
    semi = new(scenario="semi-heist")
    html = _draw(semi.view(None), [], tmp_path, semi.g)
    assert "CAB" in html and "TRAILER" in html and "Cargo in the Semi 4" in html


def test_browser_board_prints_both_effects_of_each_enemy_card(tmp_path: Path) -> None:
    """Enemy Cards ("because you can see the Activated effect in advance, the team can work together to
    avoid the danger"): each card in the row by its name, with its effects as a tip and printed on the
    card (Revealed, At ACTIVATE!), the one in the spot before ACTIVATE! marked as activating next."""
    s = new()
    s.enemy_row = ("ta-e05", "ta-e07", "")
    html = _draw(s.view(0), [], tmp_path, s.g)
    words = s.g.words
    assert 'data-tip-name="Main Cannon"' in html and 'data-tip-name="Coaxial Gun"' in html
    assert f"When revealed: {escape(words.reveal['ta-e07'])} When it reaches ACTIVATE!: " in html
    assert f'<span class="muted">At ACTIVATE!:</span> {escape(words.activated["ta-e05"])}' in html
    assert f'<span class="muted">Revealed:</span> {escape(words.reveal["ta-e07"])}' in html
    assert "spot 2 · activates next" in html and "spot 1 · activates next" not in html


def test_browser_board_gives_each_stunt_power_vehicle_and_enemy_its_tip(tmp_path: Path) -> None:
    """Every Stunt card (its roll, Condition and Reward printed too), character, Special Power, vehicle and
    enemy on the board carries its effect text as a tip (the glossary's), and places are said as the board
    labels its columns and lanes."""
    s = arrange(new(stunt="ta-s1a", **HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(2, 2)],
                pegs=[(2, 2)], main={"tank": (9, 3)})
    html = _draw(s.view(0), s.legal_actions(), tmp_path, s.g)
    terms = s.g.words.terms
    for key in ("ta-s1a", "han", "parkour", "street-drifter", "drift", "dom", "family_first", "exotic-supercar",
                "thoroughbred", "enemy-suv", "enemy-peg", "tank", "tank-assault"):
        assert f'data-tip="{escape(terms[key].text)}"' in html, key
    assert f"Speed roll, 2 successes needed:</span> {escape(s.g.words.card_texts['ta-s1a'])}" in html
    assert ">column</text>" in html and ">lane 6</text>" in html
    assert "<title>column 5, lane 3: drive here</title>" in html
    assert "in column 2, lane 3" in html                       # Han's vehicle, on his seat card


@pytest.mark.parametrize("scenario", ["tank-assault", "semi-heist", "chopper-takedown"])
def test_browser_board_shows_no_ids(scenario: str, tmp_path: Path) -> None:
    """What the browser board shows (its text, tips, titles and labels) is words: no content id, action
    string or coded square (the ids stay in data-action and data-space for the clicks)."""
    game = slipstream.load("highway-heist", players=3, scenario=scenario)
    vocabulary = Vocabulary.of(game)
    states = random_states(game.start(seed=2), random.Random(2))
    for state in states[::max(1, len(states) // 6)]:
        html = _draw(state.view(0), state.legal_actions() if state.actor == 0 else [], tmp_path, game)
        shown = re.findall(r'(?:data-tip|data-tip-name|aria-label)="([^"]*)"', html)
        shown += re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", html, flags=re.S)).split("\n")
        leaks = {leak for text in shown for leak in vocabulary.leaks(unescape(text))}
        assert not leaks, leaks
