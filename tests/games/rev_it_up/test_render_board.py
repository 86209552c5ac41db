"""The Rev it Up board and buying hints in the terminal: a key for the Rev Track letters, the shop with
prices, effects and the coins left, every line within an 80-column terminal (issue 16)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.text import Text

import slipstream
from slipstream.engine.game import CHANCE, State
from slipstream.engine.play import pending_seats
from slipstream.games.rev_it_up import rules
from slipstream.games.rev_it_up.render import board, hints, told
from slipstream.games.rev_it_up.state import RevState
from slipstream.games.rev_it_up.types import Stage
from tests.playout import random_states

WIDTH = 76
"""An 80-column terminal less the panel's border and padding."""


def _plain(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.splitlines()


def _states(players: int, seed: int, **options: Any) -> list[State]:
    """Every state of a random race (random choices, seeded chance)."""
    game = slipstream.load("rev-it-up", players=players, **options)
    return random_states(game.start(seed=seed), random.Random(seed))


RACES = [(4, 1, {}), (6, 2, {"side": "asymmetric"}), (2, 3, {"track": "grand"}), (3, 4, {"track": "short"})]


@pytest.mark.parametrize(("players", "seed", "options"), RACES)
def test_every_line_fits_and_every_rev_letter_is_in_the_key(players: int, seed: int,
                                                            options: dict[str, Any]) -> None:
    for state in _states(players, seed, **options)[::3]:
        for seat in (None, 0):
            lines = _plain(board(state.view(seat)))
            assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
            key = next(line for line in lines if line.startswith("rev key: "))
            named = set(re.findall(r"\b([A-Z]) [A-Z][a-z]", key))
            for line in lines:
                if ": rev [" in line:
                    cells = line.split(": rev [", 1)[1].rstrip("]").split()
                    assert {c[0] for c in cells if c[0].isupper()} <= named, (line, key)


def test_the_key_says_what_the_signs_stand_for() -> None:
    lines = _plain(board(_states(4, 1)[30].view(None)))
    text = "\n".join(lines)
    for sign in ("E Exhaust", "N Nitrous", "D Debris", "B Bomb", ". empty", "$ bonus coins"):
        assert sign in text


def _buying(players: int, seed: int) -> list[RevState]:
    out = []
    for state in _states(players, seed):
        assert isinstance(state, RevState)
        if state.stage is Stage.BUY and state.actor != CHANCE:
            out.append(state)
    assert out
    return out


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 5)])
def test_buying_hints_show_the_shop_with_prices_effects_and_the_coins_left(players: int, seed: int) -> None:
    for state in _buying(players, seed):
        g = state.game
        for seat in pending_seats(state):
            lines = hints(state, seat)
            first = told(state, seat)
            assert bool(first) == (state.round == 1) and lines[:len(first)] == first
            lines = lines[len(first):]
            assert all(len(line) <= WIDTH for line in lines), "\n".join(lines)
            left = rules.cart_totals(state, seat).coins_left
            assert lines[0] == (f"coins to spend: {state.coins_to_spend[seat]}; left after your cart: {left} "
                                "(leftover coins are lost)")
            buyable = {a.split(":")[1] for a in rules.cart_options(state, seat) if a.startswith("buy:")}
            for k, _colour, cost, _action, _recall in g.shop:
                name = g.kinds.titles[k]
                row = next(line for line in lines if re.match(rf"[* ]  {re.escape(name)} ", line))
                cells = re.split(r" {2,}", row[3:])
                assert cells[1] == f"{cost} coin" + ("s" if cost != 1 else ""), row
                assert cells[2], row
                assert row.startswith("*") == (g.kinds.names[k] in buyable), row
            if not rules.cart_totals(state, seat).item:
                for item in g.items_in_play:
                    card = g.content.items[item]
                    assert any(line.strip().startswith(f"{card.name}: {card.text[:20]}") for line in lines)


def test_chip_effects_in_words() -> None:
    state = _buying(4, 1)[0]
    lines = hints(state, pending_seats(state)[0])
    effects = {re.split(r" {2,}", line[3:])[0]: re.split(r" {2,}", line[3:])[2]
               for line in lines if re.match(r"[* ]  [A-Z][a-z]+ \d ", line)}
    assert effects["Exhaust 2"] == "moves 2, heat 2"
    assert effects["Ecoboost 3"] == "moves 3, no heat"
    assert effects["Nitrous 1"] == "moves 2, heat 1"
    assert effects["Coin 2"] == "+2 coins to spend"
    assert effects["Coolant 1"] == "cools 1 Rev Track chip"
    assert effects["Recall 2"] == "in a rival's bag: it goes back 2"
    assert effects["Upgrade 1"] == "1 upgrade when buying"
