"""The generic MCTS bot, on Toy Dash (secret gems, a simultaneous choice, dice, a once-per-race sprint).

``guided=False`` tests the tree search itself (what a game without a heuristic bot gets); the default,
guided search (around the game's heuristic move) is tested at the end."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.bots.mcts import MCTSBot, rewards, standings_rewards
from slipstream.bots.random_bot import RandomBot
from slipstream.engine import registry
from slipstream.engine.game import CHANCE, Result, State
from slipstream.engine.play import play
from tests import toygame

DEALT = ["card:gem-coral", "card:gem-amber"]
"""Seat 0 is dealt the coral gem, seat 1 the amber."""
OTHER_DEAL = ["card:gem-coral", "card:gem-flint"]
"""The same for seat 0; seat 1's secret gem differs."""


def at(state: State, actions: list[str]) -> State:
    for a in actions:
        state = state.apply(a)
    return state


@pytest.mark.parametrize("guided", [False, True])
def test_plays_whole_races_with_legal_moves_at_every_kind_of_node(toy: str, guided: bool) -> None:
    """Dealt gems (chance), the simultaneous walk/dash choice, the rolls and sprints: MCTS in every seat ends
    the race."""
    for players in (2, 3, 4):
        game = slipstream.load(toy, players=players, sprint=True)
        bots = [MCTSBot(seed, playouts=20, guided=guided) for seed in range(players)]
        final = play(game.start(seed=players), bots)  # play() uses the checked apply
        assert final.is_over
        assert sum(b.searched_moves for b in bots) > 0


@pytest.mark.parametrize("guided", [False, True])
def test_same_seed_and_playouts_give_the_same_choices(toy: str, guided: bool) -> None:
    game = slipstream.load(toy, players=3, sprint=True)
    finals = [play(game.start(seed=9), [MCTSBot(s, playouts=30, guided=guided) for s in range(3)]) for _ in range(2)]
    assert finals[0].actions == finals[1].actions


def test_takes_the_sprint_that_wins_the_race_now(toy: str) -> None:
    """On a 5-space track, P1 dashes and P2 walks (to 1); P1 rolls 2: the sprint (2 + 3) finishes and wins
    now, a move leaves P2 a chance to win."""
    game = slipstream.load(toy, players=2, length=5, sprint=True)
    state = at(game.start(seed=1), [*DEALT, "0:dash", "1:walk", "roll", "die:2"])
    assert state.legal_actions(0) == ["move", "sprint"]
    assert MCTSBot(0, playouts=200, guided=False).choose(state, 0) == "sprint"


def test_learns_that_dash_is_the_better_choice(toy: str) -> None:
    """Dash moves 20/6 a round on average against walk's 1: the search should prefer it."""
    game = slipstream.load(toy, players=2)
    state = at(game.start(seed=2), ["card:gem-beryl", "card:gem-emerald"])
    assert state.actor == frozenset({0, 1})
    bot = MCTSBot(3, playouts=1500, guided=False)
    root = bot.search(state, 0)
    assert bot.choose(state, 0) == "0:dash"
    assert root.stats["0:dash"][0] > root.stats["0:walk"][0]


def test_search_does_not_depend_on_what_the_seat_cannot_see(toy: str) -> None:
    """Two worlds that differ only in the opponent's secret gem and in the state's seed (the future
    dice) give the same statistics: the bot determinizes and samples chance with its own RNG."""
    game = slipstream.load(toy, players=2, sprint=True)
    a = at(game.start(seed=1), [*DEALT, "0:dash", "1:dash", "roll", "die:4"])
    b = at(game.start(seed=777), [*OTHER_DEAL, "0:dash", "1:dash", "roll", "die:4"])
    assert a.view(0) == b.view(0)
    stats_a = MCTSBot(5, playouts=150, guided=False).search(a, 0).stats
    stats_b = MCTSBot(5, playouts=150, guided=False).search(b, 0).stats
    assert stats_a == stats_b


def test_a_pending_simultaneous_choice_stays_hidden(toy: str) -> None:
    """P2 chooses after P1 has chosen in secret: P1's choice does not change P2's search."""
    game = slipstream.load(toy, players=2, sprint=True)
    base = at(game.start(seed=4), ["card:gem-amber", "card:gem-beryl"])
    walk = base.apply("0:walk")
    dash = base.apply("0:dash")
    assert walk.view(1) == dash.view(1)
    assert MCTSBot(8, playouts=100).search(walk, 1).stats == MCTSBot(8, playouts=100).search(dash, 1).stats


def test_beats_random_in_a_seeded_match(toy: str) -> None:
    """30 two-player races of 100 spaces, seats alternating: MCTS (60 playouts) wins at least 70%.

    (Two random bots would win 21 of 30 about 2% of the time; MCTS finds that dash is better.)"""
    game = slipstream.load(toy, players=2, length=100, sprint=True)
    wins = 0
    for race in range(30):
        mcts_seat = race % 2
        bots: list[MCTSBot | RandomBot] = [RandomBot(race), RandomBot(race)]
        bots[mcts_seat] = MCTSBot(race, playouts=60, guided=False)
        final = play(game.start(seed=race), bots)
        assert final.result is not None
        wins += final.result.winners == (mcts_seat,)
    assert wins >= 21


def test_a_time_budget_stops_the_search(toy: str) -> None:
    game = slipstream.load(toy, players=2, sprint=True)
    state = at(game.start(seed=1), DEALT)
    bot = MCTSBot(0, playouts=10**9, seconds=0.05, guided=False)
    assert bot.choose(state, 0) in state.legal_actions(0)
    assert bot.capped_moves == 1
    assert 0 < bot.total_playouts < 10**9


def test_a_single_legal_action_needs_no_search(toy: str) -> None:
    game = slipstream.load(toy, players=2)
    state = at(game.start(seed=1), [*DEALT, "0:dash", "1:dash"])
    assert state.legal_actions(0) == ["roll"]
    bot = MCTSBot(0, playouts=50)
    assert bot.choose(state, 0) == "roll"
    assert bot.searched_moves == 0


@pytest.mark.parametrize("guided", [False, True])
def test_never_uses_the_states_own_chance_sampler(toy: str, monkeypatch: pytest.MonkeyPatch,
                                                  guided: bool) -> None:
    """``sample_chance`` reads the real future from the seed: the search must not call it."""
    def forbidden(self: State) -> str:
        raise AssertionError("MCTS read the state's seeded chance")

    monkeypatch.setattr(State, "sample_chance", forbidden)
    game = slipstream.load(toy, players=2, sprint=True)
    state = at(game.start(seed=1), [*DEALT, "0:dash", "1:dash", "roll", "die:3"])
    assert state.actor == 0 and state.actor != CHANCE and len(state.legal_actions(0)) > 1
    MCTSBot(0, playouts=50, guided=guided).choose(state, 0)


def test_rewards_favour_winning_then_places() -> None:
    race = rewards(Result((2, 0, 1), (2,), "finish"), 3)
    assert race == [0.25, 0.0, 1.0]
    team_win = rewards(Result((0, 1), (0, 1), "escaped"), 2)
    team_loss = rewards(Result((1, 0), (), "caught"), 2)
    assert team_win == [1.0, 1.0] and team_loss == [0.0, 0.0]
    assert standings_rewards([1, 0, 2], 3) == [0.5, 1.0, 0.0]


@pytest.mark.parametrize("kwargs", [{"playouts": 0}, {"seconds": 0.0}, {"seconds": -1.0}])
def test_bad_strength_is_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="mcts"):
        MCTSBot(0, **kwargs)  # type: ignore[arg-type]


def test_default_strength_is_playouts_capped_at_one_second() -> None:
    bot = MCTSBot()
    assert bot.playouts is not None and bot.seconds == 1.0


def test_plays_a_registered_game_through_the_contract_only() -> None:
    """Every registered game: MCTS chooses a legal action from the first few decisions of a race."""
    rng = random.Random(0)
    for gid in registry.games():
        game = slipstream.load(gid)
        state = game.start(seed=3)
        decisions = 0
        while state.actor is not None and decisions < 3:  # not play(): three checked choices only
            if state.actor == CHANCE:
                state = state.apply_chance()
                continue
            actor = state.actor
            seat = min(actor) if isinstance(actor, frozenset) else int(actor)  # type: ignore[arg-type]
            action = MCTSBot(rng.randrange(100), playouts=10).choose(state, seat)
            assert action in state.legal_actions(seat)
            state = state.apply(action)
            decisions += 1


def test_heuristic_playouts_keep_the_heuristic_move_unless_clearly_worse(toy: str) -> None:
    """With ``:h`` the game's heuristic bot plays the playouts, and its move stands unless the search
    finds another better by two standard errors (here: sprint now to win, which the heuristic also does)."""
    from slipstream.bots.registry import make_bot

    game = slipstream.load(toy, players=2, length=5, sprint=True)
    state = at(game.start(seed=1), [*DEALT, "0:dash", "1:walk", "roll", "die:2"])
    bot = make_bot("mcts:100:h", toy, 0)
    assert isinstance(bot, MCTSBot) and bot.heuristic_rollouts
    assert bot.choose(state, 0) == "sprint"
    early = at(game.start(seed=1), DEALT)
    assert bot.choose(early, 0) == "0:dash"


# --- the default, guided search ------------------------------------------------------------------


class WalkBot:
    """A poor heuristic: walk and never a sprint."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        return f"{seat}:walk" if f"{seat}:walk" in legal else "move" if "move" in legal else legal[0]


def test_guided_search_keeps_a_sound_heuristic_move(toy: str) -> None:
    """Toy Dash's heuristic picks dash, the better choice: the search finds nothing clearly better."""
    game = slipstream.load(toy, players=2)
    state = at(game.start(seed=2), ["card:gem-beryl", "card:gem-emerald"])
    bot = MCTSBot(3, playouts=600)
    assert bot.choose(state, 0) == "0:dash"
    assert bot.deviations == 0 and bot.searched_moves == 1


def test_guided_search_overrides_a_poor_heuristic_when_clearly_better(
        toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a heuristic that always walks, the paired rollouts show dash clearly better."""
    toygame.use_hooks(monkeypatch, heuristic_bot=WalkBot)
    game = slipstream.load(toy, players=2, length=40)
    state = at(game.start(seed=2), ["card:gem-beryl", "card:gem-emerald"])
    bot = MCTSBot(3, playouts=2000, horizon=400)
    choice, diff = bot.guided_search(state, 0, state.legal_actions(0), WalkBot())
    assert choice == "0:dash" and bot.deviations == 1
    pairs, total, _ = diff["0:dash"]
    assert pairs >= 16 and total / pairs > 0.05


def test_guided_search_scores_the_horizon_with_the_games_position_value(
        toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``horizon`` plies the game's ``position_value`` judges the position: a value that prizes
    walking makes the bot leave the heuristic's dash for walk."""
    calls: list[int] = []

    def position_value(state: State, seat: int) -> float:
        calls.append(seat)
        return 1.0 if state.revealed[seat] == "walk" else 0.0  # type: ignore[attr-defined]

    toygame.use_hooks(monkeypatch, position_value=position_value)
    game = slipstream.load(toy, players=2)
    state = at(game.start(seed=2), ["card:gem-beryl", "card:gem-emerald"])
    bot = MCTSBot(1, playouts=200, horizon=3)
    assert bot.choose(state, 0) == "0:walk"
    assert calls and set(calls) == {0}


def test_guided_search_does_not_depend_on_what_the_seat_cannot_see(toy: str) -> None:
    game = slipstream.load(toy, players=2, sprint=True)
    a = at(game.start(seed=1), [*DEALT, "0:dash", "1:dash", "roll", "die:4"])
    b = at(game.start(seed=777), [*OTHER_DEAL, "0:dash", "1:dash", "roll", "die:4"])
    assert a.view(0) == b.view(0)
    legal = a.legal_actions(0)
    assert len(legal) > 1
    from tests.toygame import HeuristicBot

    diff_a = MCTSBot(5, playouts=150).guided_search(a, 0, legal, HeuristicBot(0))
    diff_b = MCTSBot(5, playouts=150).guided_search(b, 0, legal, HeuristicBot(0))
    assert diff_a == diff_b


def test_guided_search_stops_at_the_time_budget(toy: str) -> None:
    """With a confidence no evidence can reach, only the clock ends the search."""
    game = slipstream.load(toy, players=2, sprint=True)
    state = at(game.start(seed=1), DEALT)
    bot = MCTSBot(0, playouts=10**9, seconds=0.05, confidence=1e9)
    assert bot.choose(state, 0) == "0:dash"
    assert bot.capped_moves == 1 and 0 < bot.total_playouts < 10**9
