"""Setup (rulebook "Setup", "Player Setup") and options."""

from __future__ import annotations

import pytest

import slipstream
from slipstream.engine import CHANCE, OptionError
from slipstream.games.rev_it_up.content import ITEM_TYPES

from .helpers import bag_of, new


def test_starting_bag_is_the_printed_one() -> None:
    """Setup: "1 level 1 Coolant, 1 level 1 Eco Boost, 1 level 2 Coin, 2 level 1 Coins, 4 level 1 Exhaust,
    2 level 2 Exhaust, 1 level 3 Exhaust"; "All players now place their racers on the start space"."""
    s = new(players=4)
    for seat in range(4):
        assert bag_of(s, seat) == {
            "coolant-1": 1, "ecoboost-1": 1, "coin-2": 1, "coin-1": 2,
            "exhaust-1": 4, "exhaust-2": 2, "exhaust-3": 1,
        }
        assert s.progress[seat] == 0
        assert s.rev_chips[seat] == () and s.ready[seat] == ()
    assert s.actor == CHANCE and s.round == 1 and s.turn == 1


def test_one_item_of_each_type_is_in_play() -> None:
    """Setup 2: "When selecting Items, you must use one item of each type. Trap, Attack, Weapon, Boost,
    Profit, and Shield." The item die has one face per type (RIU-G11)."""
    game = slipstream.load("rev-it-up")
    assert [game.content.items[i].type for i in game.items_in_play] == list(ITEM_TYPES)
    assert sorted(a for a, _ in game.item_die) == sorted(f"item:{i}" for i in game.items_in_play)
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in game.item_die)
    other = slipstream.load("rev-it-up", items="caltrops,shockwave,emp,slipstream,loose-change,heat-sink")
    assert other.items_in_play == ("caltrops", "shockwave", "emp", "slipstream", "loose-change", "heat-sink")


@pytest.mark.parametrize(
    ("items", "problem"),
    [
        ("rocket,shockwave,emp,turbo,sponsor,shield", "two items of type 'attack'"),
        ("oil-slick,rocket,emp,turbo,sponsor", "no item of type 'shield'"),
        ("oil-slick,rocket,emp,turbo,sponsor,banana", "unknown item 'banana'"),
    ],
)
def test_items_option_must_pick_one_of_each_type(items: str, problem: str) -> None:
    """Setup 2: one item of each type; a bad choice is a clear error."""
    with pytest.raises(OptionError, match=problem):
        slipstream.load("rev-it-up", items=items)


def test_tracks_and_laps() -> None:
    """Setup 1: "Select which track ... And decide how many laps"; Standard with 2 laps suggested
    (RIU-A10: the track's laps by default, the option laps overrides)."""
    assert slipstream.load("rev-it-up").finish == 60
    assert slipstream.load("rev-it-up", laps=3).finish == 90
    assert slipstream.load("rev-it-up", track="short").finish == 72
    with pytest.raises(OptionError, match="track"):
        slipstream.load("rev-it-up", track="monaco")


def test_each_player_takes_a_different_character() -> None:
    """Player Setup: "Each player selects one of the 9 Character Boards"."""
    game = slipstream.load("rev-it-up", players=3, characters="racer-9,racer-1,racer-4")
    assert game.characters == ("racer-9", "racer-1", "racer-4")
    with pytest.raises(OptionError, match="different"):
        slipstream.load("rev-it-up", players=2, characters="racer-1,racer-1")
    with pytest.raises(OptionError, match="names 1 characters for 2"):
        slipstream.load("rev-it-up", players=2, characters="racer-1")
    with pytest.raises(OptionError, match="unknown character"):
        slipstream.load("rev-it-up", players=2, characters="racer-1,racer-10")
    with pytest.raises(OptionError, match="players must be from 2 to 6"):
        slipstream.load("rev-it-up", players=7)


def test_asymmetric_side_changes_the_setup() -> None:
    """Player Setup: "refer to your character's setup section of the player board if playing with the
    Asymmetric side" (RIU-G14 defaults)."""
    s = new(players=4, side="asymmetric", characters="racer-1,racer-2,racer-8,racer-6")
    assert bag_of(s, 0)["exhaust-2"] == 1 and bag_of(s, 0)["nitrous-1"] == 1
    assert bag_of(s, 1)["exhaust-1"] == 3 and bag_of(s, 1)["coolant-1"] == 2
    assert "exhaust-2" not in bag_of(s, 2) and bag_of(s, 2)["exhaust-3"] == 2 and bag_of(s, 2)["exhaust-1"] == 5
    assert s.game.rev_length == (10, 9, 10, 11)
    std = new(players=4, side="standard", characters="racer-1,racer-2,racer-8,racer-6")
    assert std.game.rev_length == (10, 10, 10, 10)
    assert bag_of(std, 0) == bag_of(std, 3)


def test_asymmetric_racer_5_starts_with_a_random_item() -> None:
    """RIU-G14: Racer 5 (Asymmetric) starts with 1 random item: an item-die roll before round 1."""
    s = new(players=2, side="asymmetric", characters="racer-5,racer-1")
    assert s.actor == CHANCE and s.legal_actions() == sorted(f"item:{i}" for i in s.game.items_in_play)
    s = s.apply("item:turbo")
    assert s.ready[0] == ("turbo",)
    assert s.legal_actions()[0].startswith("chip:")


@pytest.mark.parametrize(
    ("option", "value"),
    [("side", "both"), ("podium", 0), ("overheat_penalty", "explode"), ("max_chips_per_buy", "x"),
     ("laps", -1), ("nonsense", 1)],
)
def test_bad_options_are_clear_errors(option: str, value: object) -> None:
    with pytest.raises(OptionError, match=option):
        slipstream.load("rev-it-up", **{option: value})


def test_standard_chips_are_set_out_as_the_supply() -> None:
    """Setup 3: "Place the standard cards face up next to the board and set their respective chips next
    to them" (RIU-G7..G9: levels and supply per colour from the content file)."""
    s = new(players=3)
    supply = s.view(None)["supply"]
    assert supply["exhaust-1"] == 12 and supply["exhaust-3"] == 8
    assert supply["nitrous-2"] == 8 and "nitrous-3" not in supply
    assert supply["upgrade-1"] == 8 and supply["recall-3"] == 6
    assert supply["debris"] == 24 and supply["bomb"] == 8
    costs = dict(zip(s.game.kinds.names, s.game.kinds.cost, strict=True))
    assert (costs["exhaust-1"], costs["coin-3"], costs["ecoboost-3"]) == (1, 8, 10)


STARTING = {"coolant-1": 1, "ecoboost-1": 1, "coin-2": 1, "coin-1": 2, "exhaust-1": 4, "exhaust-2": 2,
            "exhaust-3": 1}


@pytest.mark.parametrize(
    ("racer", "changes", "rev", "start_items", "rerolls"),
    [
        ("racer-1", {"exhaust-2": -1, "nitrous-1": +1}, 10, 0, 0),
        ("racer-2", {"exhaust-1": -1, "coolant-1": +1}, 9, 0, 0),
        ("racer-3", {"coin-1": -1, "coin-2": +1}, 9, 0, 0),
        ("racer-4", {"exhaust-1": -1, "ecoboost-1": +1}, 10, 0, 0),
        ("racer-5", {"coin-2": -1, "coin-1": +1}, 10, 1, 0),
        ("racer-6", {"ecoboost-1": -1, "exhaust-1": +1}, 11, 0, 0),
        ("racer-7", {"coin-1": -1, "upgrade-1": +1}, 10, 0, 0),
        ("racer-8", {"exhaust-2": -2, "exhaust-3": +1, "exhaust-1": +1}, 10, 0, 0),
        ("racer-9", {"coin-1": -1}, 10, 0, 1),
    ],
)
def test_every_asymmetric_board_is_the_gaps_table(racer: str, changes: dict[str, int], rev: int,
                                                  start_items: int, rerolls: int) -> None:
    """Player Setup: "refer to your character's setup section of the player board if playing with the
    Asymmetric side" (RIU-G14: the nine boards as in the GAPS table). The Standard side of every board
    is the printed bag and a Rev Track of 10."""
    other = "racer-2" if racer == "racer-1" else "racer-1"
    s = new(side="asymmetric", characters=f"{racer},{other}")
    expected = dict(STARTING)
    for chip, d in changes.items():
        expected[chip] = expected.get(chip, 0) + d
    assert bag_of(s, 0) == {k: v for k, v in expected.items() if v}
    assert (s.game.rev_length[0], s.game.start_items[0], s.game.reroll_bonus[0]) == (rev, start_items, rerolls)
    std = new(side="standard", characters=f"{racer},{other}")
    assert bag_of(std, 0) == STARTING
    assert (std.game.rev_length[0], std.game.start_items[0], std.game.reroll_bonus[0]) == (10, 0, 0)
