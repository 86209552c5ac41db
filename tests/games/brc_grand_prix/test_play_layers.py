"""The per-game modules the shared layers use: render, metrics and the heuristic bot."""

from __future__ import annotations

import slipstream
from slipstream.bots.registry import make_bot
from slipstream.engine.play import play
from slipstream.games.brc_grand_prix import metrics, render
from slipstream.games.brc_grand_prix.bot import HeuristicBot
from slipstream.games.brc_grand_prix.types import Stage

from .helpers import poised, started


def test_board_shows_track_pit_lane_weather_and_each_cars_tyres() -> None:
    s = poised(started(), 0, dist=[40, 56, 70, 80], pit=[-1, 3, -1, -1], tyres=["soft", "wet", "hard", "soft"],
               weather="WET")
    text = render.board(s.view(None))
    assert "track [bold blue]WET[/]" in text and "pit window laps 2 to 7" in text
    assert "pit lane: in after space 25, out to space 2" in text and "W weather change" in text
    assert "pit space 3" in text and "WET" in text and "no stop yet" in text


def test_action_labels_and_hints() -> None:
    game = slipstream.load("brc-grand-prix")
    assert render.describe_action(game, "attack:crash") == "Attack Die: collision!"
    assert render.describe_action(game, "dice:2-5") == "roll 2+5"
    assert render.describe_action(game, "1:soft") == "P2 starts on SOFT"
    assert render.describe_action(game, "tyre:wet") == "fit WET tyres"
    assert render.describe_action(game, "card:track-limits") == "the flag card Track Limits"
    s = poised(started(), 0, dist=[30, 32, 26, 26], pit=[-1, -1, 0, 0], tyres=["soft"] * 4)
    hints = render.hints(s, 0)
    assert hints[0].startswith("SOFT on DRY: 1->3!, 2->4") and "average 5.50" in hints[0]
    s = s.apply("die:4")
    assert any(h.startswith("Attack Die: pass 3/6, fail 2/6, collision 1/6") for h in render.hints(s, 0))


def test_metrics_count_what_happened() -> None:
    game = slipstream.load("brc-grand-prix", players=4, laps=3)
    final = play(game.start(seed=4), [HeuristicBot(i) for i in range(4)])
    m = metrics.race_metrics(final)
    assert m["turns"] > 0 and m["rounds"] > 0 and m["finished"] == 4
    assert m["pit_stops"] >= 4  # every heuristic driver pits in the window (lap 2 of 3)
    assert metrics.seat_labels(final) == {i: "SOFT start" for i in range(4)}
    assert metrics.standings(final) == list(final.result.order)  # type: ignore[union-attr]


def test_heuristic_bot_pits_in_the_window_and_fits_tyres_for_the_weather() -> None:
    bot = HeuristicBot(0)
    s = poised(started(), 0, dist=[50, 70, 71, 76], tyres=["soft", "hard", "hard", "hard"]).apply("die:6")
    assert s.stage == Stage.PIT_CHOICE and bot.choose(s, 0) == "stay"  # lap 2, tyres right: it stops late
    s = poised(started(), 0, dist=[200, 220, 221, 226], tyres=["soft", "hard", "hard", "hard"]).apply("die:6")
    assert s.stage != Stage.PIT_CHOICE and s.pit_space[0] == 0  # lap 7 unpitted: the drive-through takes it in (F1-G9)
    stop_go = started(pit_penalty="stop-go")
    s = poised(stop_go, 0, dist=[200, 220, 221, 226], tyres=["soft", "hard", "hard", "hard"]).apply("die:6")
    assert s.stage == Stage.PIT_CHOICE and bot.choose(s, 0) == "pit"  # with stop-go it chooses: the window's last lap
    s = poised(started(), 0, dist=[50, 70, 71, 76], tyres=["soft", "hard", "hard", "hard"], stops=[1, 0, 0, 0])
    assert bot.choose(s.apply("die:6"), 0) == "stay"  # already stopped, tyres right for DRY
    s = poised(started(), 0, dist=[52, 70, 71, 76], tyres=["soft", "hard", "hard", "hard"], stops=[1, 0, 0, 0],
               weather="WET")
    assert bot.choose(s.apply("die:6"), 0) == "pit"  # dry tyres on a wet track
    s = poised(started(), 0, dist=[56, 70, 71, 76], pit=[0, -1, -1, -1], tyres=["soft"] * 4, weather="WET")
    s = s.apply("die:3")
    assert s.stage == Stage.PIT_BOX and bot.choose(s, 0) == "tyre:wet"


def test_heuristic_bot_weighs_overtakes() -> None:
    bot = HeuristicBot(0)
    s = poised(started(), 0, dist=[30, 32, 26, 26], pit=[-1, -1, 0, 0], tyres=["soft"] * 4)
    assert bot.choose(s.apply("die:6"), 0) == "attempt"  # 6 spaces beyond the defender to gain
    assert bot.choose(s.apply("die:1"), 0) == "attempt"  # 1 space beyond, but the pass gains a place
    lapped = poised(started(), 0, dist=[60, 32, 26, 26], pit=[-1, -1, 0, 0], tyres=["soft"] * 4)
    assert bot.choose(lapped.apply("die:6"), 0) == "attempt"  # a lapped car, 6 spaces to gain
    assert bot.choose(lapped.apply("die:1"), 0) == "safe"  # a lapped car, 1 space: not worth a crash


def test_heuristic_bot_beats_random_bots() -> None:
    game = slipstream.load("brc-grand-prix", players=2, laps=3)
    wins = 0
    for seed in range(100):
        bots = [make_bot("heuristic", game.id, seed), make_bot("random", game.id, seed)]
        if seed % 2:
            bots.reverse()
        final = play(game.start(seed=seed), bots)
        winner = final.result.winners[0]  # type: ignore[union-attr]
        wins += winner == seed % 2
    assert wins >= 65


def test_board_and_hints_render_at_every_stage_of_a_race() -> None:
    """The board picture and the hints work for every kind of state (setup, pit lane, finish)."""
    import random

    from slipstream.engine import CHANCE

    for options in ({}, {"sprint": True, "grid": "qualifying"}):
        game = slipstream.load("brc-grand-prix", players=3, laps=3, **options)
        state = game.start(seed=5)
        rng = random.Random(5)
        while True:
            for seat in [None, 0, 1, 2]:
                assert "BRC Grand Prix" in render.board(state.view(seat))
            for seat in range(3):
                assert all(isinstance(h, str) for h in render.hints(state, seat))
            for action in state.legal_actions():
                assert render.describe_action(game, action)
            if state.actor is None:
                break
            if state.actor == CHANCE:
                state = state.apply(state.sample_chance())
            else:
                state = state.apply(rng.choice(state.legal_actions()))
