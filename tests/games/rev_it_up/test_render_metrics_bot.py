"""The terminal picture, metrics and the heuristic bot."""

from __future__ import annotations

import slipstream
from slipstream.bots.random_bot import RandomBot
from slipstream.bots.registry import make_bot
from slipstream.engine.play import play
from slipstream.games.rev_it_up import metrics, render, rules
from slipstream.games.rev_it_up.bot import HeuristicBot

from .helpers import draws, force, new

GAME = slipstream.load("rev-it-up")


def test_board_shows_rev_tracks_bags_coins_and_overheat_chance() -> None:
    s = new()
    force(s, 0, rev=["exhaust-3", "exhaust-3"], bag={"exhaust-3": 2, "exhaust-1": 2}, pos=4)
    text = render.board(s.view(0))
    assert "P1 Nitro Nell: rev [. . E3 . . E3 . .$ .$ .$]" in text
    assert "overheat next draw 0%" in text
    s = draws(s, "exhaust-3", "coin-1")
    text = render.board(s.view(0))
    assert "overheat next draw 33%" in text
    assert "bag (3): 2 [white]Exhaust 1[/], 1 [white]Exhaust 3[/]" in text


def test_hints_give_the_overheat_chance() -> None:
    s = new()
    force(s, 0, rev=["exhaust-3", "exhaust-3", "exhaust-2"], bag={"exhaust-3": 1, "coin-1": 3})
    assert rules.overheat_chance(s, 0) == 0.25
    hints = render.hints(s, 0)
    assert hints[0] == "chance to overheat on your next draw: 25%"
    assert any("Rev Track room: 2 space(s); bonus coins now: 1" in h for h in hints)


def test_describe_action_labels() -> None:
    """Actions in words: chips and items by their names, never their ids (issue 31)."""
    assert render.describe_action(GAME, "2:buy:recall-1:0") == "P3: buy Recall 1 for P1's bag"
    assert render.describe_action(GAME, "0:use:rocket:1") == "P1: use Rocket on P2"
    assert render.describe_action(GAME, "chip:exhaust-2") == "draw Exhaust 2"
    assert render.describe_action(GAME, "1:stop") == "P2: stop for this round"
    assert render.describe_action(GAME, "0:item:roll") == "P1: roll the item die (1 coin)"
    assert render.describe_action(GAME, "0:item:oil-slick") == "P1: take Oil Slick for 3 coins"
    assert render.describe_action(GAME, "item:oil-slick") == "the item die shows Oil Slick"
    assert render.describe_action(GAME, "drop:turbo") == "let Turbo go"
    assert render.describe_action(GAME, "give:1") == "put the Bomb in P2's bag"
    assert render.describe_action(GAME, "pass") == "keep your Boost item for later"
    assert render.describe_action(GAME, "0:up:coin-1") == "P1: upgrade a Coin 1"


def test_metrics_and_standings() -> None:
    s = new()
    force(s, 0, pos=58)
    s = draws(s, "exhaust-3", "coin-1")
    m = metrics.race_metrics(s)
    assert m["turns"] == 1 and m["rounds"] == 1 and m["draws"] == 2 and m["spaces_moved"] == 3
    assert metrics.standings(s) == [0, 1]
    assert metrics.seat_labels(s) == {0: "racer-1", 1: "racer-2"}


def test_heuristic_bot_is_found_by_name_and_plays_legal_actions() -> None:
    bot = make_bot("heuristic", "rev-it-up", seed=1)
    assert isinstance(bot, HeuristicBot)
    final = play(new(players=3), [HeuristicBot(1), HeuristicBot(2), RandomBot(3)])
    assert final.is_over


def test_heuristic_bot_pushes_its_luck_by_the_overheat_chance() -> None:
    s = new()
    force(s, 0, rev=["exhaust-3", "exhaust-3"], bag={"exhaust-3": 3, "coin-1": 3})
    s = draws(s, "coin-1", "coin-1")
    bot = HeuristicBot(0)
    assert rules.overheat_chance(s, 0) == 0.0
    assert bot.choose(s, 0) == "0:go"
    t = new()
    force(t, 0, rev=["exhaust-3", "exhaust-3", "exhaust-2"], bag={"exhaust-3": 3, "coin-1": 3})
    t = draws(t, "coin-1", "coin-1")
    assert rules.overheat_chance(t, 0) == 0.6
    assert bot.choose(t, 0) == "0:stop"


def test_heuristic_bot_beats_random_bots() -> None:
    """Over 30 seeded 2-player races the heuristic bot wins most (fixed seeds: deterministic)."""
    wins = 0
    for seed in range(30):
        seats = [HeuristicBot(seed), RandomBot(seed)] if seed % 2 else [RandomBot(seed), HeuristicBot(seed)]
        final = play(new(players=2).game.start(seed=seed), seats)
        assert final.result is not None
        hero = 0 if seed % 2 else 1
        wins += hero in final.result.winners
    assert wins >= 24
