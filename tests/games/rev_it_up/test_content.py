"""Content files: tracks, chips, items, the item die and characters as validated data (content=PATH)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import slipstream
from slipstream.engine import ContentError, OptionError
from slipstream.games.rev_it_up.content import DEFAULT_PATH, load_content

from .helpers import draws, force

DEFAULT = DEFAULT_PATH.read_text()


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_every_record_says_where_it_comes_from() -> None:
    data = tomllib.loads(DEFAULT)
    for section, value in data.items():
        records = value if isinstance(value, list) else [value]
        for record in records:
            assert record["source"] in ("rulebook", "derived", "default"), (section, record)
    starting = {r["chip"]: r["source"] for r in data["starting_bag"]}
    assert set(starting.values()) == {"rulebook"}


def test_a_players_own_content_file_is_used(tmp_path: Path) -> None:
    """A player who owns the game passes their own file; here a track with item spaces 2 and 3, so one
    move passes two item spaces and rolls twice (RIU-A3)."""
    text = DEFAULT.replace("item_spaces = [7, 15, 23]", "item_spaces = [2, 3]")
    s = slipstream.load("rev-it-up", players=2, content=write(tmp_path, text)).start(seed=1)
    s = draws(s, "exhaust-3", "coin-1")
    assert s.legal_actions()[0].startswith("item:")
    s = s.apply("item:turbo")
    assert s.legal_actions()[0].startswith("item:")
    s = s.apply("item:rocket")
    assert s.ready[0] == ("turbo", "rocket")  # type: ignore[attr-defined]


def test_json_content_is_accepted(tmp_path: Path) -> None:
    data = tomllib.loads(DEFAULT)
    data["rev_track"]["length"] = 12
    game = slipstream.load("rev-it-up", content=write(tmp_path, json.dumps(data), "mine.json"))
    assert game.rev_length == (12, 12, 12, 12)


def test_custom_chip_costs_change_what_is_affordable(tmp_path: Path) -> None:
    text = DEFAULT.replace("costs = [3, 6, 10]", "costs = [1, 6, 10]")
    s = slipstream.load("rev-it-up", players=2, content=write(tmp_path, text)).start(seed=1)
    force(s, 0, bag={"coin-1": 1})  # type: ignore[arg-type]
    s = draws(s, "coin-1", "coin-1")  # type: ignore[arg-type]
    s = s.apply("0:stop").apply("1:stop")
    assert "0:buy:ecoboost-1" in s.legal_actions(0)


@pytest.mark.parametrize(
    ("old", "new", "record", "field", "problem"),
    [
        ('colour = "nitrous"\ncosts = [4, 8]\nsupply = [10, 8]',
         'colour = "nitrous"\ncosts = [4, 8]\nsupply = [10]', "chips Nitrous", "record", "one count per level"),
        ('colour = "recall"', 'colour = "banana"', "chips Recall", "record", "not one of"),
        ('effect = "rocket"', 'effect = "laser"', "items rocket", "record", "effect 'laser'"),
        ('chip = "exhaust-3"', 'chip = "exhaust-9"', "starting_bag exhaust-9", "chip", "not a chip kind"),
        ("length = 10\n", "length = 1\n", "rev_track", "length", "greater than or equal to 3"),
        ("item_spaces = [7, 15, 23]", "item_spaces = [7, 15, 99]", "tracks standard", "record",
         "item space 99"),
        ('asymmetric = { remove = ["exhaust-2"], add = ["nitrous-1"] }',
         'asymmetric = { remove = ["nitrous-1"], add = ["nitrous-1"] }', "characters racer-1",
         "asymmetric.remove", "does not have"),
        ('source = "default"\n\n[rev_track]', 'source = "guess"\n\n[rev_track]', "rules", "source",
         "rulebook"),
    ],
)
def test_bad_content_names_the_file_record_and_field(
    tmp_path: Path, old: str, new: str, record: str, field: str, problem: str
) -> None:
    """A bad file raises ContentError(source, record, field, problem) and nothing is loaded."""
    assert old in DEFAULT
    path = write(tmp_path, DEFAULT.replace(old, new, 1))
    with pytest.raises(ContentError) as info:
        slipstream.load("rev-it-up", content=path)
    err = info.value
    assert err.source == path and err.record == record and err.field == field
    assert problem in str(err)


def test_missing_or_unparsable_files_are_content_errors(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot be read"):
        load_content(tmp_path / "nope.toml")
    with pytest.raises(ContentError, match="syntax"):
        load_content(write(tmp_path, "[rules\nready = 2"))
    with pytest.raises(ContentError, match="Field required"):
        load_content(write(tmp_path, "[rules]\nready_capacity = 2\nsource = 'default'\n"))


def test_unknown_item_types_or_missing_types_are_rejected(tmp_path: Path) -> None:
    text = DEFAULT.replace('type = "shield"\neffect = "shield"', 'type = "boost"\neffect = "shield"')
    text = text.replace('type = "shield"\neffect = "heat_sink"', 'type = "boost"\neffect = "heat_sink"')
    with pytest.raises(ContentError, match="no item of type 'shield'"):
        load_content(write(tmp_path, text))


def test_a_starting_bag_that_could_run_dry_is_rejected(tmp_path: Path) -> None:
    """Setup ("All players will then set up their own bag with ..."): a content file whose starting
    bag (on either side of a board) holds nothing but Recalls is refused. Such a bag can be emptied
    for good (a drawn Recall leaves with recall_returns_to_supply; an empty bag holds no coins), and
    then no racer can ever draw or buy: the race could never move on. Every other chip stays in its
    bag, so one is enough."""
    data = tomllib.loads(DEFAULT)
    for ch in data["characters"]:
        ch.pop("asymmetric", None)
    data["starting_bag"] = [{"chip": "recall-1", "count": 2, "source": "default"}]
    path = write(tmp_path, json.dumps(data), "recalls.json")
    with pytest.raises(ContentError) as info:
        slipstream.load("rev-it-up", content=path)
    assert (info.value.record, info.value.field) == ("starting_bag", "chip")
    assert "a chip other than a Recall" in str(info.value)
    data["starting_bag"] = [{"chip": "exhaust-1", "count": 1, "source": "default"}]
    data["characters"][0]["asymmetric"] = {"remove": ["exhaust-1"], "add": ["recall-2"]}
    path = write(tmp_path, json.dumps(data), "asymmetric.json")
    with pytest.raises(ContentError) as info:
        slipstream.load("rev-it-up", content=path)
    assert (info.value.record, info.value.field) == ("characters racer-1", "asymmetric")
    data["characters"][0]["asymmetric"] = {"add": ["recall-2"]}
    s = slipstream.load("rev-it-up", players=2, side="asymmetric",
                        content=write(tmp_path, json.dumps(data), "fine.json")).start(seed=1)
    assert s.legal_actions() == ["chip:exhaust-1", "chip:recall-2"]


def test_a_content_file_with_fewer_characters_than_players_says_so(tmp_path: Path) -> None:
    """Player Setup: "Each player selects one of the 9 Character Boards": a content file with fewer
    boards than players is a clear error naming the shortage (not a complaint about the option
    ``characters``, which the player did not set)."""
    data = tomllib.loads(DEFAULT)
    data["characters"] = data["characters"][:2]
    path = write(tmp_path, json.dumps(data), "two.json")
    with pytest.raises(OptionError, match="the content has only 2 characters for 4 players"):
        slipstream.load("rev-it-up", players=4, content=path)
    assert slipstream.load("rev-it-up", players=2, content=path).characters == ("racer-1", "racer-2")
