"""Hypothesis properties over random Scrap Racer races (random seeds, options and choices)."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slipstream
from slipstream.engine.fields import replaced
from slipstream.games.scrap_racer import ScrapState
from slipstream.games.scrap_racer.types import Stage
from tests.playout import random_states

CONFIGS = st.sampled_from([
    (2, {}), (3, {}), (3, {"two_racers": True}), (4, {}), (4, {"track": "B", "short": True}),
    (5, {"track": "C"}), (6, {}), (4, {"short": True}),
])


def playout(players: int, options: dict[str, Any], seed: int, choice_seed: int) -> list[ScrapState]:
    """Every state of a race: chance from the seed, decisions at random (boosts and cards included)."""
    game = slipstream.load("scrap-racer", players=players, **options)
    return random_states(game.start(seed=seed), random.Random(choice_seed))  # type: ignore[return-value]


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(CONFIGS, st.integers(0, 2**32), st.integers(0, 2**32))
def test_progress_never_falls_behind_the_lap_start_and_laps_never_decrease(config: Any, seed: int,
                                                                            choices: int) -> None:
    """Crash cards, Important (SR-A1): a racer never moves behind the finish line; "18 Lap markers" (3 per
    racer): lap markers never decrease and never exceed 3; racers off the track never move backward."""
    states = playout(*config, seed, choices)
    length = states[0].game.track.length
    for before, after in pairwise(states):
        for r, (p, q) in enumerate(zip(before.progress, after.progress, strict=True)):
            if p > 0:
                assert q >= (p - 1) // length * length + 1, f"racer {r} went behind the line: {p} -> {q}"
            else:
                assert q >= 0
            assert before.laps[r] <= after.laps[r] <= 3
            if q > 0 and after.stage in (Stage.ROLL, Stage.DECIDE):
                assert after.laps[r] == min(3, (q - 1) // length), "between turns the laps match the progress"
    final = states[-1]
    assert max(final.laps) == 3


@SETTINGS
@given(CONFIGS, st.integers(0, 2**32), st.integers(0, 2**32))
def test_components_are_conserved(config: Any, seed: int, choices: int) -> None:
    """Components: 17 bonus markers, 28 bonus cards, 56 crash cards, 16 goal cards; boost markers only
    leave the game when used; everyone has the same number of turns at the end."""
    states = playout(*config, seed, choices)
    game = states[0].game
    for s in states:
        assert s.invariant_problems() == []
        assert s.bonus_supply + sum(s.bonus_markers) == 17
        view = s.view(None)
        decks = view["decks"]
        held = sum(view["bonus_cards_held"].values())
        bonus = game.bonus_deck
        assert decks["bonus"] + sum(s.decks[bonus.index].discard) + held == 28
        crash = sum(sum(s.decks[d.index].draw) + sum(s.decks[d.index].discard)
                    for d in game.crash_decks)
        assert crash == 56
        used = s.boost_markers_used
        assert sum(s.unseen_boosts) + sum(map(sum, s.boost_markers)) + used == 18
    final = states[-1]
    assert final.turn == 0 and final.turns % len(final.progress) == 0


def other_hands(state: ScrapState, seat: int, rng: random.Random) -> ScrapState:
    """A copy where every hand but ``seat``'s holds other cards (same sizes), swapped with the deck."""
    game = state.game
    n = len(game.bonus_deck.cards)
    new = state.determinize(seat, rng)
    new.bonus_cards = state.bonus_cards
    bonus = game.bonus_deck.index
    pool = [i for i in range(n) for _ in range(state.decks[bonus].draw[i])]
    for s in range(game.players):
        if s == seat:
            continue
        for i in range(n):
            pool += [i] * state.bonus_cards[s][i]
    rng.shuffle(pool)
    for s in range(game.players):
        if s == seat:
            continue
        size = sum(state.bonus_cards[s])
        new.bonus_cards = replaced(new.bonus_cards, s, tuple(pool[:size].count(i) for i in range(n)))
        pool = pool[size:]
    new.decks = replaced(state.decks, bonus, state.decks[bonus]._replace(draw=tuple(pool.count(i) for i in range(n))))
    return new


@settings(max_examples=15, deadline=None)
@given(CONFIGS, st.integers(0, 2**32), st.integers(0, 2**32))
def test_views_of_other_seats_never_contain_a_seats_bonus_cards(config: Any, seed: int, choices: int) -> None:
    """B) 2nd: the bonus card is drawn "facedown (hidden from other players)". A seat's view shows its own
    hand; the other hands only as counts, and the draw events name the card to the drawer only."""
    states = playout(*config, seed, choices)
    game = states[0].game
    rng = random.Random(seed)
    for s in states[:: max(1, len(states) // 60)] + states[-1:]:
        for seat in game.seats:
            view = s.view(seat)
            own = {c: k for c, k in zip(game.bonus_deck.cards, s.bonus_cards[seat], strict=True) if k}
            assert view["my_bonus_cards"] == own
            hidden = [e.text for e in s.events if e.seats is not None and seat not in e.seats]
            shown = json.dumps(view)
            assert not any(text in shown for text in hidden)
            assert view == other_hands(s, seat, rng).view(seat)
