"""The terminal commands: play (hot-seat and against bots), replay, demo and their errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from slipstream.cli.main import app
from slipstream.engine.record import parse, replay

runner = CliRunner()


def test_play_against_bots_to_the_end_and_save(tmp_path: Path) -> None:
    save = tmp_path / "race.json"
    result = runner.invoke(app, ["play", "scrap-racer", "--seed", "3", "-o", "short=true", "--save", str(save)],
                           input="2\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Result" in result.output and "Finishing order" in result.output
    final = replay(parse(save.read_text()))
    assert final.is_over


def test_hot_seat_two_humans_choose_by_action_text(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "scrap-racer", "--seats", "human,human", "--seed", "1",
                                 "-o", "short=true"], input="first:jackal\nq\n")
    assert result.exit_code == 0, result.output
    assert "P1, your move" in result.output
    assert "Race stopped" in result.output


def test_illegal_choice_is_refused_and_asked_again() -> None:
    result = runner.invoke(app, ["play", "scrap-racer", "--seed", "2"], input="99\nfly\nq\n")
    assert result.exit_code == 0
    assert result.output.count("Not a legal choice") == 2


def test_replay_prints_the_log_and_result(tmp_path: Path) -> None:
    save = tmp_path / "race.json"
    runner.invoke(app, ["play", "scrap-racer", "--humans", "0", "--seed", "5", "--save", str(save)])
    result = runner.invoke(app, ["replay", str(save)])
    assert result.exit_code == 0, result.output
    assert "Finishing order" in result.output


def test_resume_continues_a_saved_race(tmp_path: Path) -> None:
    save = tmp_path / "race.json"
    runner.invoke(app, ["play", "scrap-racer", "--seed", "4", "--save", str(save)], input="2\n2\nq\n")
    before = len(json.loads(save.read_text())["actions"])
    result = runner.invoke(app, ["play", "scrap-racer", "--resume", str(save), "--humans", "0", "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert len(json.loads(save.read_text())["actions"]) > before


def test_demo_runs_a_bot_race() -> None:
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "Finishing order" in result.output


def test_bad_input_gets_a_clear_error_and_exit_code_2(tmp_path: Path) -> None:
    cases = [
        (["play", "no-such-game"], "unknown game"),
        (["play", "scrap-racer", "-o", "trak=B"], "unknown option 'trak'"),
        (["play", "scrap-racer", "-o", "players"], "write KEY=VALUE"),
        (["play", "scrap-racer", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["play", "scrap-racer", "-p", "4", "--seats", "human,random,random"], "4 seats needed"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "scrap-racer"}')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "no 'options' field" in result.output


def test_games_lists_every_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "scrap-racer" in result.output


def test_play_highway_heist_shows_the_road_the_boards_and_the_odds() -> None:
    """Highway Heist in the terminal: the road grid, every seat's boards, the Enemy-card and Stunt rows,
    and the success chance of the Skill Rolls open to the human (here in the first turn, with a Boost
    and an Assist); bots take the other seat; ``q`` stops."""
    result = runner.invoke(app, ["play", "highway-heist", "-p", "2", "--seed", "3", "--seats", "human,heuristic",
                                 "-o", "lanes=3,4"], input="0:play\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "L1" in out and "L6" in out and "Enemy cards (deck 12" in out and "Stunts, East to West" in out
    assert "P1 Dom, Exotic Supercar in column 1, lane 3" in out
    assert "P2 Brian, Street Drifter in column 1, lane 4" in out
    assert "Race stopped" in out


def test_hot_seat_team_picks_who_plays_next_in_a_cooperative_game() -> None:
    """Highway Heist with two people at one keyboard: "the team chooses who plays next" (Playing the Game)
    is one list of both seats' choices, so the table can give the first turn to P2; a seat's text works
    as well as its number."""
    result = runner.invoke(app, ["play", "highway-heist", "-p", "2", "--humans", "2", "--seed", "3"],
                           input="2\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The team's move (P1 (Dom) or P2 (Brian))" in out
    assert "   1  P1 (Dom): take the next turn\n" in out and "   2  P2 (Brian): take the next turn\n" in out
    assert "P2 (Brian) takes a turn" in out and "P1 (Dom) takes a turn" not in out
    by_text = runner.invoke(app, ["play", "highway-heist", "-p", "2", "--humans", "2", "--seed", "3"],
                            input="1:play\nq\n")
    assert "P2 (Brian) takes a turn" in by_text.output


def test_the_menu_speaks_words_not_action_strings() -> None:
    """A new player's first menu in each game: each choice in words, without the action string
    beside it ("P1: keep going  0:go" read as code); the prompt asks for a number."""
    for game in ("scrap-racer", "brc-grand-prix", "rev-it-up", "rush-n-crush", "highway-heist"):
        result = runner.invoke(app, ["play", game, "-p", "2", "--seed", "1"], input="q\n")
        assert result.exit_code == 0, result.output
        menu = [line for line in result.output.splitlines() if re.match(r"^ {1,3}\d{1,2}  \S", line)]
        assert menu, (game, result.output[-2000:])
        for line in menu:
            assert not re.search(r"  \S+$", line.strip()) and ":" not in line.split("  ")[-1].split(" ")[-1], line
        assert "(number; s save, q quit)" in result.output
