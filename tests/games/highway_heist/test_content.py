"""Content files: the road, dice, boards, actions and each scenario's pieces and cards as validated data
(content=PATH); a bad file is a ContentError naming the file, the record and the field."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import slipstream
from slipstream.engine import ContentError
from slipstream.games.highway_heist.content import DEFAULT_PATH, EFFECT_FORMS, parse_line

from .helpers import new

DEFAULT = DEFAULT_PATH.read_text()


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def records(data: object) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    if isinstance(data, dict):
        if "source" in data:
            out.append(data)
        for value in data.values():
            out += records(value)
    elif isinstance(data, list):
        for value in data:
            out += records(value)
    return out


def test_every_record_says_where_it_comes_from() -> None:
    data = tomllib.loads(DEFAULT)
    found = records(data)
    assert len(found) > 100
    assert {r["source"] for r in found} == {"rulebook", "derived", "default"}
    for scenario in data["scenarios"].values():
        assert len(scenario["enemy_cards"]) == 12 and len(scenario["stunts"]) == 9
        for card in scenario["enemy_cards"] + scenario["stunts"]:
            assert "source" in card


def test_the_defaults_reproduce_the_rulebooks_numbers() -> None:
    """Derived values (GAPS 2.2): slam 3, Enemy Peg 2, Ram Speed 3, Shake and Hijack 2, five dice, two
    tokens, cap 3 (Roman 5), eight SUVs and nine Enemy Pegs."""
    model = new().g.content.model
    assert (model.rules.slam_damage, model.rules.peg_damage, model.rules.max_dice) == (3, 2, 5)
    assert (model.actions["ram"].skill, model.actions["ram"].need) == ("speed", 3)
    assert model.actions["shake"].need == 2 and model.actions["hijack"].need == 2
    assert (model.rules.start_boost, model.rules.boost_cap) == (2, 3)
    assert (model.supply.enemy_suvs, model.supply.enemy_pegs) == (8, 9)
    assert {c.id: c.boost_cap for c in model.characters}["roman"] == 5


def test_a_players_own_content_file_is_used(tmp_path: Path) -> None:
    """A player who owns the game passes their own file: here the Tank starts in column 7."""
    text = DEFAULT.replace('kind = "tank"\nat = [9, 3]', 'kind = "tank"\nat = [7, 3]')
    s = slipstream.load("highway-heist", players=2, content=write(tmp_path, text)).start(seed=1)
    assert s.view(None)["pieces"][-1]["space"] == "c7l3"


def test_json_content_is_accepted(tmp_path: Path) -> None:
    data = tomllib.loads(DEFAULT)
    data["knobs"]["shaw_slam"] = 5
    s = slipstream.load("highway-heist", players=2, content=write(tmp_path, json.dumps(data), "mine.json"))
    assert s.content.model.knobs.shaw_slam == 5  # type: ignore[attr-defined]


@pytest.mark.parametrize(("change", "record", "field", "problem"), [
    (('name = "Han"\nratings = [2, 1, 3, 1]', 'name = "Han"\nratings = [2, 1, 3]'), "characters han", "ratings",
     "at least 4"),
    (('power = "family_first"', 'power = "flying"'), "characters dom", "power", "flying"),
    (('reveal = ["main_move east"]', 'reveal = ["main_move sideways"]'), "scenarios.tank-assault.enemy_cards ta-e12",
     "reveal", "sideways"),
    (('condition = ["on_top tank"]', 'condition = ["on_top moon"]'), "scenarios.tank-assault.stunts ta-s1c",
     "condition", "moon"),
    (('faces = ["success", "success", "success", "boost", "blank", "blank"]', 'faces = ["success", "six"]'),
     "effort_die", "faces", "six"),
    (("columns = 12", "columns = 3"), "road", "columns", "greater than or equal to 6"),
    # a user's content file names its own cards: a missing or bad name or text (issue 31)
    (('name = "Coaxial Gun"\nreveal_text = "An Enemy SUV appears directly behind the Active Player Vehicle."\n',
      'name = "Coaxial Gun"\n'), "scenarios.tank-assault.enemy_cards ta-e07", "reveal_text", "Field required"),
    (('activated_text = "Each Player Vehicle next to the Tank takes 2 damage."\n', ""),
     "scenarios.tank-assault.enemy_cards ta-e07", "activated_text", "say it in words"),
    (('name = "Roadblock"\ntext = "', 'name = "Roadblock"\ntext = "{slam} '),
     "scenarios.tank-assault.stunts ta-s1a", "text", "{slam} is not a number a text may name"),
    (('name = "Roadblock"\n', 'name = ""\n'), "scenarios.tank-assault.stunts ta-s1a", "name",
     "at least 1 character"),
    (("[powers.nudge]\n", "[powers.nitro]\n"), "powers", "nitro", "not a power the rules know"),
    (("[pieces.chopper]\n", "[pieces.helicopter]\n"), "pieces", "helicopter",
     "not a piece the rules know"),
    (('[decisions]\nchoose_turn = "', '[decisions]\nchoose_turns = "'), "decisions", "choose_turn",
     "Field required"),
])
def test_bad_content_names_the_record_and_the_field(tmp_path: Path, change: tuple[str, str], record: str,
                                                    field: str, problem: str) -> None:
    old, bad = change
    assert old in DEFAULT
    path = write(tmp_path, DEFAULT.replace(old, bad, 1))
    with pytest.raises(ContentError) as info:
        slipstream.load("highway-heist", players=2, content=path)
    message = str(info.value)
    assert message.startswith(f"{path}: {record}: field {field!r}:"), message
    assert problem in message


def test_unreadable_or_broken_files(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot be read"):
        slipstream.load("highway-heist", players=2, content=str(tmp_path / "missing.toml"))
    with pytest.raises(ContentError, match="syntax"):
        slipstream.load("highway-heist", players=2, content=write(tmp_path, "road = [[[", "bad.toml"))


def test_a_scenario_needs_its_main_enemy_and_a_level_3_stunt(tmp_path: Path) -> None:
    old = 'name = "Harpoon"\ntext = "Once Tank Damage is 3 or more, on foot on a roof next to the Tank (not on the ' \
          'Tank itself): harpoon the Tank and the team wins."\nlevel = 3'
    assert old in DEFAULT
    text = DEFAULT.replace(old, old.replace("level = 3", "level = 2"))
    with pytest.raises(ContentError, match="one level 3 card"):
        slipstream.load("highway-heist", players=2, content=write(tmp_path, text))


def test_effect_lines_are_checked() -> None:
    """The effect language: unknown verbs, words and missing parts are errors that say what is wrong."""
    assert parse_line("damage 2 pv_adjacent:tank", EFFECT_FORMS).words == ("pv_adjacent:tank",)
    assert parse_line("if_enemy_peg tank track -1", EFFECT_FORMS).then[0].number == -1
    for bad, why in [("explode tank", "unknown verb"), ("damage two each_pv", "not a whole number"),
                     ("place_suv behind", "needs a selector"), ("damage 2 pv_adjacent:moon", "not a selector"),
                     ("win now", "too many words")]:
        with pytest.raises(ValueError, match=why):
            parse_line(bad, EFFECT_FORMS)
