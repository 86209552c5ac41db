"""Every screen speaks to a player: no content id, action string or coded square in what a player reads.

Random races of every game, at 2 players and the game's default count (and each Highway Heist scenario):
the event texts, the acting seats' action descriptions and hints, the terminal board as they see it,
the result's reason and the game's glossary are searched for the ids of ``tests.words``. The ids stay
in the notation, the records and the library.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from slipstream.engine.game import Game
from slipstream.engine.play import pending_seats
from slipstream.engine.registry import game_class, games
from tests.playout import random_action
from tests.words import Leak, Vocabulary, glossary_texts, player_texts

BOARD_EVERY = 7
"""The terminal board is searched at every 7th decision (it is the costliest text to draw)."""


def setups() -> list[Any]:
    out = []
    for game_id in sorted(games()):
        cls = game_class(game_id)
        counts = sorted({max(2, cls.min_players), cls.default_players})
        for players in counts:
            out.append(_setup(game_id, players, {}))
        if game_id == "highway-heist":
            out += [_setup(game_id, cls.default_players, {"scenario": s}) for s in ("semi-heist", "chopper-takedown")]
    return out


def _setup(game_id: str, players: int, options: dict[str, Any]) -> Any:
    name = "-".join([game_id, str(players), *map(str, options.values())])
    return pytest.param(game_id, players, options, id=name)


def leaks_in_races(game: Game, seeds: range) -> list[Leak]:
    vocabulary = Vocabulary.of(game)
    found: dict[tuple[str, str], Leak] = {}

    def search(where: str, text: str) -> None:
        ids = vocabulary.leaks(text)
        if ids and (where, text) not in found:
            found[(where, text)] = Leak(where, text, tuple(ids))

    for where, text in glossary_texts(game):
        search(where, text)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.start(seed=seed)
        decisions = 0
        while True:
            seats = pending_seats(state)
            decisions += bool(seats)
            for where, text in player_texts(state, seats, board=bool(seats) and decisions % BOARD_EVERY == 1):
                search(where, text)
            if state.actor is None:
                break
            state = state.apply(random_action(state, rng))
    return list(found.values())


@pytest.mark.parametrize(("game_id", "players", "options"), setups())
def test_a_player_reads_no_ids(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = game_class(game_id)(players, **options)
    leaks = leaks_in_races(game, range(2))
    shown = "\n".join(str(leak) for leak in sorted(leaks, key=str)[:40])
    assert not leaks, f"{len(leaks)} texts a player reads hold ids:\n{shown}"


def test_the_detector_finds_the_ids_of_the_issue() -> None:
    """The texts the issue found, each with its id, and plain words that are not ids."""
    vocabulary = Vocabulary.of(game_class("rev-it-up")(2))
    assert vocabulary.leaks("P1 chose item:roll") == ["item:roll"]
    assert vocabulary.leaks("Oil Slick (oil-slick)") == ["oil-slick"]
    assert vocabulary.leaks("P1 draws exhaust-1") == ["exhaust-1"]
    assert vocabulary.leaks("P1 takes grid slot 1 at 0.0.7") == ["0.0.7"]
    assert vocabulary.leaks("drive to c1l1, the Enemy Die shows main_right") == ["c1l1", "main_right"]
    assert vocabulary.leaks("gearstick to g1b") == ["g1b"]
    assert vocabulary.leaks("P1 plays [bold]Oil Slick[/]: the racer behind loses 2 spaces.") == []
    assert vocabulary.leaks("re-roll a die; a 4-lane road, speed 12, lane 2") == []
