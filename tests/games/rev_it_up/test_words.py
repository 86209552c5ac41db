"""Rev it Up in words (issue 31): chips, items, characters and tracks by their names from the content,
with their effects; places as the board numbers them; the first decision of each kind explained."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text

import slipstream
from slipstream.engine import ContentError
from slipstream.engine.hooks import hooks_of
from slipstream.games.rev_it_up import render
from slipstream.games.rev_it_up.content import DEFAULT_PATH
from slipstream.games.rev_it_up.state import RevState
from slipstream.games.rev_it_up.types import Stage

from .helpers import decide, draws, events, force, new

DEFAULT = DEFAULT_PATH.read_text()


def test_draws_moves_and_rev_placements_say_names_and_places() -> None:
    """Turn Structure 1-2: "P1 draws Exhaust 3", its move to a space the board numbers, its Rev space."""
    s = new().apply("chip:exhaust-3")
    assert events(s) == ["P1 draws Exhaust 3"]
    s = s.apply("chip:coin-1")
    assert events(s)[:3] == ["P2 draws Coin 1", "P1 moves 3 spaces to space 3, lap 1",
                             "P1 places Exhaust 3 on Rev space 3"]
    s = force(new(), 0, pos=29)
    s = draws(s, "ecoboost-1", "coin-1")
    assert "P1 moves 1 space to the start line, lap 2" in events(s)


def test_a_seats_own_choice_is_said_in_words_to_that_seat_only() -> None:
    """Simultaneous play: the chooser reads "P1 chose to keep going"; the others only that P1 has chosen."""
    s = draws(new(), "exhaust-1", "exhaust-1").apply("0:go")
    assert [e["text"] for e in s.visible_events(0)] == ["P1 has chosen", "P1 chose to keep going"]
    assert [e["text"] for e in s.visible_events(1)] == ["P1 has chosen"]


def test_items_are_said_by_name() -> None:
    """Items: used, sprung and shielded by their names ("Oil Slick", "Shield"), never their ids."""
    s = force(new(), 0, ready=("oil-slick",), pos=5)
    s = force(s, 1, pos=3, ready=("shield",))
    s = draws(s, "coin-1", "coin-1")
    s = decide(s, p0="go", p1="go").apply("0:use:oil-slick")
    assert "P1 uses Oil Slick" in events(s)
    s = draws(s, "coin-1", "exhaust-3")
    assert "P2 runs over P1's Oil Slick on space 5" in events(s)
    assert "P2's Shield cancels it" in events(s)


def test_the_glossary_names_and_explains_everything_a_player_meets() -> None:
    """Every chip card and chip, item (all of the content, for the lobby), character and track, with a
    name, an effect and its kind; a chip's effect ends with what this level does."""
    game = slipstream.load("rev-it-up")
    glossary = hooks_of(game).glossary
    assert glossary is not None
    terms = glossary(game)
    content = game.content  # type: ignore[attr-defined]
    expected = {*content.kinds.names, *(c.colour for c in content.model.chips), *content.items,
                *content.characters, *content.tracks}
    assert set(terms) == expected
    assert all(t.name and t.text and t.kind for t in terms.values())
    assert terms["exhaust-2"].name == "Exhaust 2" and terms["exhaust-2"].kind == "chip"
    assert terms["exhaust-2"].text.endswith("This chip: moves 2, heat 2.")
    assert terms["exhaust"].kind == "chip card" and terms["exhaust"].text.startswith("Move forward X spaces")
    assert terms["emp"].name == "EMP" and terms["emp"].kind == "item" and terms["emp"].text.startswith("Weapon. ")
    assert terms["shield"].text.startswith("Held in the ready area")
    assert terms["racer-2"].text.endswith("the Rev Track is 9 spaces long.")
    assert terms["racer-2"].name == "Frosty Finn" and terms["racer-2"].text.startswith("Blue board. ")
    assert terms["standard"].text == "30 spaces a lap, item spaces at 7, 15 and 23; 2 laps unless you choose otherwise."


def test_a_players_own_content_names_its_own_cards(tmp_path: Path) -> None:
    """A content file that renames an item and a chip colour: events, labels and the glossary follow it."""
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace('name = "Oil Slick"', 'name = "Banana Peel"')
                    .replace('name = "Exhaust"', 'name = "Smoke"'))
    game = slipstream.load("rev-it-up", players=2, content=str(path))
    assert render.describe_action(game, "0:use:oil-slick") == "P1: use Banana Peel"
    assert render.describe_action(game, "chip:exhaust-2") == "draw Smoke 2"
    s = game.start(seed=1)
    assert isinstance(s, RevState)
    assert events(s.apply("chip:exhaust-2")) == ["P1 draws Smoke 2"]


@pytest.mark.parametrize(
    ("old", "new", "record", "field"),
    [
        ('name = "Oil Slick"', 'name = ""', "items oil-slick", "name"),
        ('name = "Goldie Gears"\n', "", "characters racer-3", "name"),
        ('text = "Worth X coins in this round\'s buying phase; goes to your discard."', 'text = "  "', "chips Coin",
         "text"),
        ('name = "Bomb"\n', 'name = " "\n', "item_chips bomb", "name"),
        ('give = "Choose the rival', 'gift = "Choose the rival', "decisions", "give"),
    ],
)
def test_names_and_texts_are_validated(tmp_path: Path, old: str, new: str, record: str, field: str) -> None:
    """A missing or blank name or effect text is a ContentError naming the file, the record and the field."""
    assert old in DEFAULT
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace(old, new, 1))
    with pytest.raises(ContentError) as info:
        slipstream.load("rev-it-up", content=str(path))
    assert (info.value.source, info.value.record, info.value.field) == (str(path), record, field)


def test_the_first_decision_of_each_kind_says_what_it_does() -> None:
    """Round 1's stop-or-go choice opens with its one-line explanation; round 2's does not."""
    s = draws(new(), "exhaust-1", "exhaust-1")
    line = s.game.content.model.decisions.stop_or_go
    assert s.stage is Stage.STOP_OR_GO and render.hints(s, 0)[0] == line
    s = decide(s, p0="stop", p1="stop")
    while s.stage is not Stage.STOP_OR_GO:
        s = s.apply(s.legal_actions()[0] if s.actor != "chance" else s.sample_chance())
    assert s.round == 2 and line not in render.hints(s, 0)


def test_the_board_and_its_key_speak_names_and_effects() -> None:
    """The terminal board names the track, characters, chips and items, and its key prints the effects
    of the chip cards and of the items in play."""
    s = force(new(), 0, ready=("rocket",), bag={"exhaust-1": 2, "nitrous-1": 1})
    text = " ".join(Text.from_markup(render.board(s.view(0))).plain.split())
    assert "Standard track: 30 spaces x 2 laps; the start line is space 0" in text
    assert "P1 Nitro Nell: rev" in text and "bag (3): 2 Exhaust 1, 1 Nitrous 1" in text and "ready: Rocket" in text
    assert "Nitrous: Move forward 2X spaces, then place the chip on the next space of your Rev Track." in text
    assert "Rocket: Attack. The racer directly ahead adds 1 Debris to its Rev Track." in text


def test_the_scoreboard_counts_each_racers_race() -> None:
    s = draws(new(), "exhaust-3", "coin-1")
    assert render.scoreboard(s) == {
        0: {"Character": "Nitro Nell",
            "Spaces moved": "3", "Overheats": "0", "Coins spent": "0", "Chips bought": "0", "Items used": "0"},
        1: {"Character": "Frosty Finn",
            "Spaces moved": "0", "Overheats": "0", "Coins spent": "0", "Chips bought": "0", "Items used": "0"},
    }


def test_the_game_describes_itself() -> None:
    assert "bag-building" in slipstream.load("rev-it-up").description


def test_the_nine_characters_have_names_and_colours_of_their_own() -> None:
    """RIU-G14: nine named, coloured boards (defaults, ``source = "default"``): a player reads the name
    with their seat in the events and the text board, never "Racer 3" or the id."""
    game = slipstream.load("rev-it-up", players=6, characters="racer-1,racer-3,racer-5,racer-6,racer-8,racer-9")
    characters = game.content.model.characters  # type: ignore[attr-defined]
    assert len(characters) == 9
    assert len({c.name for c in characters}) == 9 and len({c.colour for c in characters}) == 9
    assert all(c.source == "default" and not c.name.startswith("Racer") for c in characters)
    assert game.seat_name(1) == "P2 (Goldie Gears)"
    state = game.start(seed=3)
    text = " ".join(Text.from_markup(render.board(state.view(0))).plain.split())
    assert "P6 Second-Chance Sam: rev" in text and "Racer " not in text and "racer-" not in text
    while state.actor is not None and state.round < 2:  # not play(): each step's words are checked
        state = state.apply(state.sample_chance() if state.actor == "chance" else state.legal_actions()[0])
        said = " ".join(event.text for event in state.events)
        assert "Racer " not in said and "racer-" not in said, said
