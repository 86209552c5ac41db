"""BRC Grand Prix in words (issue 31): flag cards by their names with their lines in words ("Flag spaces:
Execution"), the effects a car holds, the flag spaces and tyres explained; the first decision of each kind."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from rich.text import Text

import slipstream
from slipstream.engine import ContentError
from slipstream.engine.play import replayed
from slipstream.games.brc_grand_prix import BRCGrandPrix, render, words
from slipstream.games.brc_grand_prix.content import load_content
from slipstream.games.brc_grand_prix.types import Stage
from tests.playout import random_states

from .helpers import poised, started, texts

CONTENT = load_content()
DEFAULT = (Path(words.__file__).parent / "content.toml").read_text()


def _green_flag_card(card: str) -> list[str]:
    """P1 lands on the green flag of space 5 and draws ``card``: the events of the draw."""
    s = poised(started(), 0, dist=[1, 10, 20, 24]).apply("die:2")
    assert s.flag_colour == "green"
    return texts(s.apply(f"card:{card}")).splitlines()


def test_a_flag_card_says_its_name_and_the_line_used_in_words() -> None:
    """Execution: "Read and follow only the instruction that matches the color of the space you landed on"."""
    assert _green_flag_card("perfect-exit")[0] == "Flag card Perfect Exit, green line: Your next movement roll gets +1."
    assert _green_flag_card("debris")[0] == "Flag card Debris, green line: Nothing happens."
    assert _green_flag_card("clean-air")[0] == ("Flag card Clean Air, green line: Move up to 2 spaces forward: a free "
                                                "move that stops behind a car, with no overtaking and no flag.")


def test_an_effect_a_car_holds_is_said_by_its_name() -> None:
    assert "P1 gets Tyre saver" in _green_flag_card("tyre-saver")
    assert "P1 gets DRS" in _green_flag_card("late-braking")


def test_a_card_line_in_words() -> None:
    assert words.line(CONTENT, "move-1") == "Drop back 1 space (further, to the first free space)."
    assert words.line(CONTENT, "roll-2") == "Your next movement roll gets -2."
    assert words.line(CONTENT, "blue-miss") == "Miss your next turn, unless you are leading."
    assert words.card_text(CONTENT, CONTENT.card_ids.index("track-limits")) == (
        "Green: Nothing happens. Yellow: Your next movement roll gets -1. Blue: Miss your next turn, unless you "
        "are leading.")


def test_the_glossary_names_every_card_held_effect_flag_and_tyre() -> None:
    game = BRCGrandPrix(players=2)
    terms = render.glossary(game)
    effects = {f"effect:{e}" for e in words.SHOWN_EFFECTS}
    assert set(terms) == {*CONTENT.card_ids, *effects, "green", "yellow", "blue", "soft", "hard", "wet"}
    assert all(t.name and t.text and t.kind for t in terms.values())
    assert terms["tyre-saver"].kind == "flag card" and terms["tyre-saver"].name == "Tyre Saver"
    assert terms["effect:tyre-saver"].kind == "flag card effect" and terms["effect:tyre-saver"].name == "Tyre saver"
    assert terms["blue"].name == "Blue flag" and terms["soft"].name == "Soft tyres"


def test_a_players_own_content_names_its_own_cards(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace('name = "Clean Air"', 'name = "Fresh Air"'))
    game = BRCGrandPrix(players=2, content=str(path))
    assert render.describe_action(game, "card:clean-air") == "the flag card Fresh Air"


@pytest.mark.parametrize(
    ("old", "new", "record", "field"),
    [
        ('name = "Clean Air"', 'name = ""', "cards clean-air", "name"),
        ('name = "Green flag"\n', "", "flags green", "name"),
        ('text = "Your next lock-up is ignored."', 'text = " "', "effects tyre-saver", "text"),
        ('text = "Your next movement roll gets {signed}."', 'text = "Roll {bonus} more."', "effects roll", "text"),
        ('id = "let-by"', 'id = "wave-through"', "effects #8", "id"),
        ('tyre_change = "At your pit box', 'tyres_change = "At your pit box', "decisions", "tyre_change"),
    ],
)
def test_names_and_texts_are_validated(tmp_path: Path, old: str, new: str, record: str, field: str) -> None:
    """A missing or blank name or text, a text with an unknown placeholder or an effect the rules do not
    know is a ContentError naming the file, the record and the field."""
    assert old in DEFAULT
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace(old, new, 1))
    with pytest.raises(ContentError) as info:
        BRCGrandPrix(players=2, content=str(path))
    assert (info.value.source, info.value.record, info.value.field) == (str(path), record, field)


def test_every_effect_needs_one_record(tmp_path: Path) -> None:
    data = tomllib.loads(DEFAULT)
    data["effects"] = [e for e in data["effects"] if e["id"] != "drs"]
    path = tmp_path / "mine.json"
    path.write_text(__import__("json").dumps(data))
    with pytest.raises(ContentError, match="'drs' needs exactly one record"):
        BRCGrandPrix(players=2, content=str(path))


def test_the_first_decision_of_each_kind_says_what_it_does() -> None:
    """Tyre Selection at the start; the pit lane before the first stop; an overtake on the first lap."""
    decisions = CONTENT.model.decisions
    start = BRCGrandPrix(players=2).start(seed=1)
    assert render.hints(start, 0)[0] == decisions.starting_tyre
    s = poised(started(), 0, dist=[10, 12, 40, 50]).apply("die:4")  # P2 just ahead: overtake or not
    assert s.stage is Stage.OVERTAKE and render.hints(s, 0)[0] == decisions.overtake
    later = poised(started(), 0, dist=[40, 42, 70, 80]).apply("die:4")
    assert later.stage is Stage.OVERTAKE and decisions.overtake not in render.hints(later, 0)


def test_the_board_speaks_names_and_its_key_says_what_flags_and_cards_do() -> None:
    s = poised(started(), 0, dist=[1, 10, 20, 24]).apply("die:2").apply("card:tyre-saver")
    text = " ".join(Text.from_markup(render.board(s.view(None))).plain.split())
    assert "Green flag: Land exactly here: draw the top flag card and follow its green line." in text
    assert "Tyre saver: Your next lock-up is ignored." in text and "no stop yet, Tyre saver" in text
    assert "Last flag card (green line used), Tyre Saver: Green: Your next lock-up is ignored." in text


def test_the_scoreboard_counts_each_drivers_race() -> None:
    """Each driver's pit stops, final tyres, overtakes, flag cards and lock-ups, counted over the race."""
    game = slipstream.load("brc-grand-prix", players=3, laps=3)
    final = random_states(game.start(seed=2), random.Random(2))[-1]
    board = render.scoreboard(final)
    assert set(board) == {0, 1, 2} and all(list(row) == list(render.SCOREBOARD) for row in board.values())
    flags = sum(1 for _, after in replayed(final) for e in after.events if e.kind == "flag")
    assert sum(int(row["Flag cards"]) for row in board.values()) == flags
    assert all(row["Tyres"].endswith("tyres") for row in board.values())


def test_the_game_describes_itself() -> None:
    assert "Attack Die" in slipstream.load("brc-grand-prix").description
