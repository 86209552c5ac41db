"""Content files and options: the packaged data is valid and marked; bad input gets a clear error."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import slipstream
from slipstream.engine.errors import ContentError, OptionError
from slipstream.games.brc_grand_prix import BRCGrandPrix
from slipstream.games.brc_grand_prix.content import load_content


def packaged() -> dict[str, Any]:
    text = resources.files("slipstream.games.brc_grand_prix").joinpath("content.toml").read_text()
    return tomllib.loads(text)


def write(tmp_path: Path, data: dict[str, Any], name: str = "board.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_packaged_content_is_valid_and_every_record_names_its_source() -> None:
    data = packaged()
    records = [data["track"], data["pit"], *data["flags"], *data["attack_die"], *data["cards"]]
    assert all(r["source"] in ("rulebook", "derived", "default") for r in records)
    c = load_content()
    assert c.length == 30 and len(c.card_ids) == 18 and dict(c.attack_faces) == {"pass": 3, "fail": 2,
                                                                                    "crash": 1}


def test_a_users_json_content_file_is_used(tmp_path: Path) -> None:
    """content=PATH: a player's own board (here a shorter track and a one-card deck)."""
    data = packaged()
    data["track"]["length"] = 28
    data["cards"] = data["cards"][:1]
    game = slipstream.load("brc-grand-prix", players=2, content=write(tmp_path, data))
    assert game.content.length == 28 and game.content.card_ids == ("clean-air",)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("change", "record", "field"),
    [
        (lambda d: d["track"].pop("length"), "track", "length"),
        (lambda d: d["cards"][2].update(green="teleport"), "cards " + packaged()["cards"][2]["id"], "green"),
        (lambda d: d["flags"][0].update(spaces=[31]), "flags #1", "spaces"),
        (lambda d: d["flags"][1].update(spaces=[5]), "flags #2", "spaces"),
        (lambda d: d["cards"][1].update(id="clean-air"), "cards #2", "id"),
        (lambda d: d["attack_die"][0].update(count=-1), "attack_die #1", "count"),
        (lambda d: d["pit"].update(boxes=[2, 2, 3]), "pit", "record"),
        (lambda d: d["pit"].update(entry_after=29), "pit", "entry_after"),
        (lambda d: d["track"].update(source="guess"), "track", "source"),
        (lambda d: d["track"].update(colour="red"), "track", "colour"),
    ],
)
def test_a_bad_content_file_names_the_file_the_record_and_the_field(
    tmp_path: Path, change: Any, record: str, field: str
) -> None:
    data = packaged()
    change(data)
    path = write(tmp_path, data)
    with pytest.raises(ContentError) as info:
        BRCGrandPrix(players=4, content=path)
    assert info.value.source == path and info.value.record == record and info.value.field == field
    assert isinstance(info.value, ValueError)


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot be read"):
        BRCGrandPrix(content=str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[track\nlength = ")
    with pytest.raises(ContentError, match="not valid TOML/JSON"):
        BRCGrandPrix(content=str(bad))


def test_more_players_than_pit_boxes(tmp_path: Path) -> None:
    data = packaged()
    data["pit"]["boxes"] = [2, 3, 4]
    with pytest.raises(OptionError, match="pit boxes"):
        BRCGrandPrix(players=4, content=write(tmp_path, data))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"laps": 0}, "at least 1"),
        ({"laps": "many"}, "whole number"),
        ({"grid": "fastest"}, "roll-off, qualifying"),
        ({"standings": "points"}, "race-to-end, current-position"),
        ({"sprint": "maybe"}, "true or false"),
        ({"pit_penalty": "fine"}, "drive-through, stop-go"),
        ({"weather": "wet"}, "unknown option"),
        ({"players": 7}, "from 2 to 6"),
        ({"players": 1}, "from 2 to 6"),
    ],
)
def test_bad_options_are_rejected_clearly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        slipstream.load("brc-grand-prix", **options)


def test_options_from_text_as_on_a_command_line() -> None:
    game = slipstream.load("brc-grand-prix", players="3", laps="5", sprint="yes")
    assert game.players == 3 and game.laps == 5 and game.sprint  # type: ignore[attr-defined]


def short_track(tmp_path: Path, length: int, name: str = "short.json") -> dict[str, Any]:
    data = packaged()
    data["track"]["length"] = length
    data["pit"].update(entry_after=length - 5, rejoin=1)
    data["flags"] = [{"source": "default", "colour": "green", "name": "Green flag", "text": "Draw a card.",
                      "spaces": [3]}]
    return data


def test_a_track_shorter_than_the_longest_move_is_refused(tmp_path: Path) -> None:
    """Every move must stay below a lap (Occupying Spaces, the Overtaking Trigger and the Pit Entry are
    found by a car's offset round the loop). Before this check, a 14-space Sprint track let a 2d6 + 4
    move lap a car and end on its space, two cars on one main-track space."""
    data = short_track(tmp_path, 14)
    path = write(tmp_path, data)
    assert BRCGrandPrix(players=2, content=path).content.length == 14  # d6 + 2 (+2 card) fits
    with pytest.raises(ContentError) as info:
        BRCGrandPrix(players=2, content=path, sprint=True)
    assert (info.value.record, info.value.field) == ("track", "length") and "Sprint 2d6 + 4" in str(info.value)
    data["cards"][0]["green"] = "roll+6"  # d6 + 2 + 6 = 14: a full lap
    with pytest.raises(ContentError, match="roll\\+6 card"):
        BRCGrandPrix(players=2, content=write(tmp_path, data, "deck.json"))
