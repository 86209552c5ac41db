"""The notation (docs/rules/scrap-racer.md): every action string reads into a typed action and back."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.games.scrap_racer import notation
from slipstream.games.scrap_racer.types import Action, BoostUse, Kind
from tests.playout import random_states


@pytest.mark.parametrize(("players", "options"), [(4, {}), (2, {}), (3, {"two_racers": True})])
def test_every_legal_action_of_a_race_reads_and_writes_back(players: int, options: dict[str, object]) -> None:
    game = slipstream.load("scrap-racer", players=players, **options)
    for seed in range(3):
        for state in random_states(game.start(seed=seed), random.Random(seed)):
            for action in state.legal_actions():
                assert notation.text(notation.parse(action)) == action


def test_the_typed_values() -> None:
    assert notation.parse("die:4") == Action(Kind.DIE, "", (4,))
    assert notation.parse("fight:2-5") == Action(Kind.FIGHT_DICE, "", (2, 5))
    assert notation.parse("boost:up") == Action(Kind.BOOST, "", (), BoostUse.UP)
    assert notation.parse("crash") == Action(Kind.ACCEPT_CRASH)
    assert notation.parse("crash:push-5") == Action(Kind.CRASH_CARD, "push-5")
    assert notation.parse("start:P3") == Action(Kind.START_PLAYER, "", (2,))
    assert notation.parse("play:catch-up") == Action(Kind.PLAY_CARD, "catch-up")


@pytest.mark.parametrize("text", ["", "fly", "boost:sideways", "die:x", "play:", "start:3", "roll:1"])
def test_strings_outside_the_notation_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"not a Scrap Racer action|invalid literal|is not a valid BoostUse"):
        notation.parse(text)


def test_done_is_labelled_as_what_it_does() -> None:
    """``done`` closes the bonus-card window after the move (docs/rules/scrap-racer.md, Notation); the
    ability, fight, finish-line and boost-marker steps still follow, a fight choice among them, so its
    button does not say the turn ends."""
    from slipstream.games.scrap_racer.render import describe_action

    game = slipstream.load("scrap-racer")
    assert describe_action(game, "done") == "play no more bonus cards"
    assert "turn" not in describe_action(game, "done")
