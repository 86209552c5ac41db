"""Scrap Racer in words (issue 31): cards, boost markers and racers by their names from the content, with
their effects ("Overview of Cards", "Racer abilities"); the first decision of each kind explained."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.text import Text

import slipstream
from slipstream.engine import ContentError
from slipstream.games.scrap_racer import render
from slipstream.games.scrap_racer.content import HERE
from tests.playout import random_states

from .helpers import play, position, race, texts

DEFAULT = (HERE / "content.toml").read_text()


def test_a_crash_card_says_its_name_and_what_it_does() -> None:
    """B) Doubles rolled, 1st: the crash card drawn "is applied": the log says which and what it does."""
    g = race(racers="steel-jacket,twister,crusher,swifty")
    log: list = []
    play(position(g, pos={0: 3, 1: 30, 2: 35, 3: 40}), "die:3", "roll", "die:3", "crash:push-5", log=log)
    assert ("Crash card: Push 5. Move forward up to 5 spaces, stopping on the first space with another racer; "
            "that racer moves forward 2.") in texts(log)


def test_actions_say_racers_and_cards_by_name() -> None:
    game = slipstream.load("scrap-racer", players=2)
    assert render.describe_action(game, "first:steel-jacket") == "Steel Jacket goes first"
    assert render.describe_action(game, "play:catch-up") == "play the bonus card Catch up"
    assert render.describe_action(game, "win:jackal") == "let Jackal win the fight"
    assert render.describe_action(game, "crash:loss-of-position") == "the crash card Loss of position"
    assert render.describe_action(game, "marker:plus-minus") == "a +/- 1 boost marker"
    assert render.describe_action(game, "fight:3-5") == "the fight dice show 3 and 5"


def test_the_glossary_names_and_explains_every_card_racer_deck_and_track() -> None:
    game = slipstream.load("scrap-racer")
    terms = render.glossary(game)
    content = game.content  # type: ignore[attr-defined]
    assert set(terms) == {*dict(content.racers), *content.titles, *content.decks, "A", "B", "C"}
    assert all(t.name and t.text and t.kind for t in terms.values())
    assert terms["steel-jacket"].name == "Steel Jacket" and terms["steel-jacket"].kind == "racer"
    assert "straight space" in terms["steel-jacket"].text
    assert terms["hover"].text == "Hover needs only 2 bonus markers to gain a bonus card."
    assert terms["backwards-die"].kind == "crash card" and terms["catch-up"].kind == "bonus card"
    assert terms["last-place"].kind == "goal card" and terms["reroll"].kind == "boost marker"
    assert terms["crash-low"].name == "Crash cards 1/2" and terms["A"].name == "Track A"


def test_a_players_own_content_names_its_own_cards(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace('name = "Catch up"', 'name = "Slingshot"'))
    game = slipstream.load("scrap-racer", content=str(path))
    assert render.describe_action(game, "play:catch-up") == "play the bonus card Slingshot"
    assert game.card_title("catch-up") == "Slingshot"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("old", "new", "record", "field"),
    [
        ('name = "Push 5"', 'name = ""', "cards push-5", "name"),
        ('text = "Hover needs only 2 bonus markers to gain a bonus card."\n', "", "racers hover", "text"),
        ('name = "Crash cards 3/4"', 'name = "  "', "crash.middle", "name"),
        ('id = "turn"\nname = "Turn"', 'id = "spin"\nname = "Turn"', "cards #28", "id"),
        ('fight = "Two of your racers', 'brawl = "Two of your racers', "decisions", "fight"),
    ],
)
def test_names_and_texts_are_validated(tmp_path: Path, old: str, new: str, record: str, field: str) -> None:
    """A missing or blank name or effect text, or a card the rules do not know, is a ContentError naming
    the file, the record and the field."""
    assert old in DEFAULT
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace(old, new, 1))
    with pytest.raises(ContentError) as info:
        slipstream.load("scrap-racer", content=str(path))
    assert (info.value.source, info.value.record, info.value.field) == (str(path), record, field)


def test_every_card_a_deck_holds_needs_a_record(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace('[[cards]]\nid = "stay-put"\nname = "Stay put"\n'
                                    'text = "Your racer does not move."\nsource = "rulebook"\n', ""))
    with pytest.raises(ContentError, match=r"no record .* 'stay-put'"):
        slipstream.load("scrap-racer", content=str(path))


def test_the_first_roll_says_what_rolling_on_does() -> None:
    """Roll the dice: the first round's roll-or-stop choice opens with its one-line explanation; a double
    (with a boost marker to change it: else it is a crash card at once) says what a double does; a later
    round's roll says nothing more than the odds."""
    g = race()
    decisions = g.content.decisions
    s = play(position(g, pos={0: 3, 1: 5, 2: 7, 3: 9}, boosts={0: {"turn": 1}}), "die:2")
    assert render.hints(s, 0)[0] == decisions.roll and len(render.hints(s, 0)) == 2
    s = play(s, "roll", "die:2")
    assert render.hints(s, 0)[0] == decisions.double
    later = position(g, pos={0: 3, 1: 5, 2: 7, 3: 9})
    later.round = 2
    assert decisions.roll not in render.hints(play(later, "die:2"), 0)


def test_the_board_key_says_what_the_racers_and_boost_markers_do() -> None:
    g = race()
    s = position(g, pos={0: 3, 1: 5, 2: 7, 3: 9}, cards={0: {"curve": 1}})
    text = " ".join(Text.from_markup(render.board(s.view(0))).plain.split())
    assert "Jackal: Jackal wins every fight without dice and moves 2 spaces instead of 1." in text
    assert "Boost marker Turn: Turn the die you just rolled to its opposite face." in text
    assert "Bonus card Curve: Play it before or after your move: your racer moves on to the next curved space." in text
    assert "Your bonus cards: 1 x Curve" in text


def test_the_scoreboard_counts_each_players_race() -> None:
    """Each player's laps, crash cards, bonus cards played and boost markers used, counted over the race."""
    game = slipstream.load("scrap-racer", players=2)
    final = random_states(game.start(seed=3), random.Random(3))[-1]
    board = render.scoreboard(final)
    assert set(board) == {0, 1}
    assert all(list(row) == list(render.SCOREBOARD) for row in board.values())
    assert sum(int(row["Crash cards"]) for row in board.values()) == sum(final.crash_cards_drawn)  # type: ignore[attr-defined]
    assert sum(int(row["Bonus cards played"]) for row in board.values()) == final.bonus_cards_played  # type: ignore[attr-defined]
    assert sum(int(row["Boost markers used"]) for row in board.values()) == final.boost_markers_used  # type: ignore[attr-defined]
    assert all(row["Laps"].count(" and ") == 1 for row in board.values())


def test_the_game_describes_itself() -> None:
    assert "push-your-luck" in slipstream.load("scrap-racer").description
