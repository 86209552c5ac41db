"""Buying New Chips and Items, and the end of the round (rulebook "Buying New Chips and Items",
"Round Structure")."""

from __future__ import annotations

import random

import pytest

from slipstream.engine import CHANCE, IllegalActionError

from .helpers import bag_of, decide, disc_of, draws, force, new, play, refresh


def to_buy(*coins: int, **options: object):  # type: ignore[no-untyped-def]
    """A race in its buying phase where seat i has ``coins[i]`` coins (coin-1 chips in the discard)."""
    s = new(players=len(coins), **options)
    for seat, n in enumerate(coins):
        force(s, seat, bag={"coin-1": 1, "exhaust-1": 1}, disc={"coin-1": n - 1} if n > 1 else {})
    s = draws(s, *(["coin-1"] * len(coins)))
    s = decide(s, **{f"p{seat}": "stop" for seat in range(len(coins))})
    assert s.view(None)["phase"] == "buy"
    return s


def test_coins_come_from_the_discard_collected_coins_and_the_rev_bonus() -> None:
    """Buying: "the amount of coins in their discard and the amount of bonus coins they earned from
    their Rev Track"; a Coin chip of level X is worth X (the starting bag's "level 2 Coin")."""
    s = new()
    force(s, 0, bag={"coin-2": 1}, disc={"coin-3": 1}, rev=["exhaust-3", "exhaust-3", "exhaust-2"])
    s.collected_coins = (2, 0)
    s = decide(draws(s, "coin-2", "coin-1"), p0="stop", p1="stop")
    assert s.coins_to_spend[0] == 2 + 3 + 2 + 1
    assert s.view(0)["racers"][0]["coins_to_spend"] == 8


def test_no_two_chips_of_the_same_colour() -> None:
    """Buying rule 1: "You cannot buy 2 chips of the same color"."""
    s = to_buy(12, 1)
    assert "0:buy:exhaust-1" in s.legal_actions(0)
    s = s.apply("0:buy:exhaust-1")
    assert not [a for a in s.legal_actions(0) if a.startswith("0:buy:exhaust")]
    assert "0:buy:coin-1" in s.legal_actions(0)


def test_only_one_item_roll_for_1_or_choose_for_3() -> None:
    """Buying: "Roll the Item Die ONCE for 1 Coin or Gain any 1 Item for 3 Coins"; rule 2: "You may
    only gain one Item"."""
    s = to_buy(3, 2)
    assert {"0:item:roll", "0:item:turbo"} <= set(s.legal_actions(0))
    assert "1:item:roll" in s.legal_actions(1) and "1:item:turbo" not in s.legal_actions(1)
    s = s.apply("0:item:turbo")
    assert not [a for a in s.legal_actions(0) if a.startswith("0:item")]
    s = play(s, "0:done", "1:item:roll", "1:done")
    assert s.ready[0] == ("turbo",)
    assert s.actor == CHANCE
    s = s.apply("item:rocket")
    assert s.ready[1] == ("rocket",) and s.round == 2


def test_the_bought_item_roll_has_no_reroll() -> None:
    """Buying: the Item Die is rolled ONCE (rerolls are only for items from the track)."""
    s = to_buy(2, 2)
    force(s, 1, pos=0)
    force(s, 0, pos=30)
    s = play(s, "0:done", "1:item:roll", "1:done")
    s = s.apply("item:shield")
    assert s.ready[1] == ("shield",) and s.round == 2


def test_costs_limit_what_a_racer_can_buy_and_leftover_coins_are_lost() -> None:
    """Buying: "All Chips have a cost"; rule 3: "All leftover coins are lost"."""
    s = to_buy(4, 1)
    legal = s.legal_actions(0)
    assert "0:buy:nitrous-1" in legal and "0:buy:nitrous-2" not in legal and "0:buy:ecoboost-2" not in legal
    s = play(s, "0:buy:coolant-1", "0:done", "1:done")
    assert any(e.text.endswith("loses 1 leftover coin") for e in s.events)
    assert s.collected_coins == (0, 0)
    assert bag_of(s, 0)["coolant-1"] == 1 and bag_of(s, 0)["coin-1"] == 4


def test_scarce_chips_go_to_the_racer_furthest_behind_and_the_other_chooses_again() -> None:
    """Buying: "Buying all happens simultaneously, however, if a chip type would run out, the player
    furthest back on the track will get to choose first"; rule 4: "Furthest behind breaks disputes".
    Issue 13 (RIU-X2): the racer in front then chooses again from what is left, with its whole purse
    (before, it got nothing and lost the coins)."""
    s = to_buy(15, 15)
    force(s, 0, pos=20)
    k = s.game.kinds.index["ecoboost-3"]
    s.supply = tuple(1 if i == k else n for i, n in enumerate(s.supply))
    force(s, 1, pos=12)
    s = play(s, "0:buy:ecoboost-3", "0:buy:coin-2", "1:buy:ecoboost-3", "0:done", "1:done")
    assert bag_of(s, 1).get("ecoboost-3") == 1 and s.supply[k] == 0
    assert "Ecoboost 3 ran out before P1's turn: P1 chooses again from what is left" in [e.text for e in s.events]
    assert s.actor == frozenset({0}) and s.view(0)["phase"] == "buy" and s.view(0)["my_cart"] == []
    assert s.view(0)["racers"][0]["coins_to_spend"] == 15  # nothing of the first cart was bought or lost
    assert "0:buy:ecoboost-3" not in s.legal_actions(0) and "0:buy:coin-2" in s.legal_actions(0)
    assert "coin-2" not in bag_of(s, 0)
    s = play(s, "0:buy:ecoboost-2", "0:buy:coin-2", "0:done")
    assert bag_of(s, 0)["ecoboost-2"] == 1 and bag_of(s, 0)["coin-2"] == 1
    assert s.view(None)["phase"] != "buy"


def test_a_chip_running_out_leaves_later_carts_waiting_and_private() -> None:
    """Buying (RIU-X2), three racers: P3 furthest back takes the last Ecoboost 3; P2's cart asked for it
    too, so P2 chooses again; P1, in front, keeps its closed cart, unseen by the others, and it is filled
    once P2 is done."""
    s = to_buy(10, 10, 10)
    force(s, 0, pos=20)
    force(s, 1, pos=12)
    force(s, 2, pos=4)
    k = s.game.kinds.index["ecoboost-3"]
    s.supply = tuple(1 if i == k else n for i, n in enumerate(s.supply))
    refresh(s)
    s = play(s, "2:buy:ecoboost-3", "1:buy:ecoboost-3", "0:buy:coin-2", "0:done", "1:done", "2:done")
    assert s.actor == frozenset({1}) and bag_of(s, 2)["ecoboost-3"] == 1
    assert s.view(1)["my_cart"] == [] and s.view(0)["my_cart"] == ["buy:coin-2"]  # P1's cart: its own
    assert "coin-2" not in bag_of(s, 0)  # its cart is filled only after P2 has chosen again
    s = play(s, "1:buy:coin-2", "1:done")
    assert bag_of(s, 0)["coin-2"] == 1 and bag_of(s, 1)["coin-2"] == 1


def test_a_sold_out_chip_cannot_be_bought() -> None:
    """Supply per chip (RIU-G9): a chip with no supply left is not on offer."""
    s = to_buy(10, 1)
    force(s, 0)
    k = s.game.kinds.index["coin-2"]
    s.supply = tuple(0 if i == k else n for i, n in enumerate(s.supply))
    refresh(s)
    assert "0:buy:coin-2" not in s.legal_actions(0)


def test_recall_goes_into_an_opponents_bag_and_stays() -> None:
    """Recalls: "placed in your opponent's bags rather than your own"; RIU-A8: once drawn it goes to
    the victim's discard and back to its bag at the end of the round (permanent)."""
    s = to_buy(3, 1)
    s = play(s, "0:buy:recall-1:1", "0:done", "1:done")
    assert bag_of(s, 1)["recall-1"] == 1 and "recall-1" not in bag_of(s, 0)
    s = draws(s, "coin-1", "recall-1")
    s = decide(s, p0="stop", p1="stop")
    assert disc_of(s, 1)["recall-1"] == 1
    while s.view(None)["phase"] == "buy":
        s = s.apply(s.legal_actions()[0].split(":")[0] + ":done")
    assert bag_of(s, 1)["recall-1"] == 1


def test_recall_returns_to_supply_option() -> None:
    """RIU-A8 option recall_returns_to_supply: a drawn Recall leaves the victim's bag at round end."""
    s = to_buy(3, 1, recall_returns_to_supply=True)
    s = play(s, "0:buy:recall-1:1", "0:done", "1:done")
    s = decide(draws(s, "coin-1", "recall-1"), p0="stop", p1="stop")
    while s.view(None)["phase"] == "buy":
        s = s.apply(s.legal_actions()[0].split(":")[0] + ":done")
    assert "recall-1" not in bag_of(s, 1)


def test_upgrade_raises_pulled_chips_by_its_level() -> None:
    """Upgrades: "During the Buying Phase you may return an Upgrade to your bag to upgrade your other
    pulled chips by X levels" (RIU-A9: X single steps, from the supply, on the Rev Track or discard)."""
    s = new()
    force(s, 0, bag={"upgrade-1": 1}, rev=["exhaust-1"], disc={"coin-1": 1})
    s = decide(draws(s, "upgrade-1", "coin-1"), p0="stop", p1="stop")
    ups = [a for a in s.legal_actions(0) if ":up:" in a]
    assert ups == ["0:up:coin-1", "0:up:exhaust-1"]
    s = s.apply("0:up:exhaust-1")
    assert not [a for a in s.legal_actions(0) if ":up:" in a]
    before = s.supply[s.game.kinds.index["exhaust-1"]]
    s = play(s, "0:done")
    if s.view(None)["phase"] == "buy":
        s = s.apply("1:done")
    assert bag_of(s, 0)["exhaust-2"] == 1 and "exhaust-1" not in bag_of(s, 0)
    assert s.supply[s.game.kinds.index["exhaust-1"]] == before + 1


def test_upgrade_two_steps_on_one_chip() -> None:
    """RIU-A9: an Upgrade 2 may raise one chip twice (Exhaust 1 -> 3)."""
    s = new()
    force(s, 0, bag={"upgrade-2": 1}, rev=["exhaust-1"])
    s = decide(draws(s, "upgrade-2", "coin-1"), p0="stop", p1="stop")
    s = play(s, "0:up:exhaust-1", "0:up:exhaust-2", "0:done")
    if s.view(None)["phase"] == "buy":
        s = s.apply("1:done")
    assert bag_of(s, 0)["exhaust-3"] == 1


def test_max_chips_per_buy_option() -> None:
    """RIU-G17 option max_chips_per_buy (Quacks style 2)."""
    s = to_buy(12, 1, max_chips_per_buy=2)
    s = play(s, "0:buy:exhaust-1", "0:buy:coin-1")
    assert not [a for a in s.legal_actions(0) if ":buy:" in a]
    assert "0:item:roll" in s.legal_actions(0)


def test_carts_are_private_until_everyone_is_done() -> None:
    """Buying "all happens simultaneously": no seat sees another's cart; a view says only whether a
    seat is done."""
    s = to_buy(6, 6)
    s = s.apply("0:buy:coolant-1")
    assert s.visible_events(1) == [] and s.visible_events(None) == []
    assert [e["text"] for e in s.visible_events(0)] == ["P1 chose to buy Coolant 1"]
    assert s.view(0)["my_cart"] == ["buy:coolant-1"]
    assert s.view(1)["my_cart"] == []
    assert "buy:coolant-1" not in str(s.view(1)) and "buy:coolant-1" not in str(s.view(None))
    assert s.view(1)["racers"][0]["chosen"] is False
    rng = random.Random(3)
    for _ in range(5):
        other = s.determinize(1, rng)
        assert other.view(1) == s.view(1)
        assert other.legal_actions(1) == s.legal_actions(1)


def test_illegal_buys_are_rejected_and_change_nothing() -> None:
    """Bad input gets a clear error naming the action and changes nothing."""
    s = to_buy(2, 1)
    before = s.view(0)
    for bad in ["0:buy:ecoboost-3", "0:buy:recall-1:0", "1:item:turbo", "0:up:exhaust-1", "2:done"]:
        with pytest.raises(IllegalActionError, match="illegal action"):
            s.apply(bad)
    assert s.view(0) == before


def test_the_item_die_costs_one_coin() -> None:
    """Buying: "Roll the Item Die ONCE for 1 Coin": with 2 coins a racer can roll and still buy an
    Exhaust 1 (cost 1); rolling alone leaves 1 coin, which is lost (rule 3)."""
    s = to_buy(2, 1)
    s = s.apply("0:item:roll")
    assert "0:buy:exhaust-1" in s.legal_actions(0) and "0:buy:coin-1" not in s.legal_actions(0)
    s = play(s, "0:done", "1:done")
    texts = [e.text for e in s.events]
    assert "P1 loses 1 leftover coin" in texts and "P2 loses 1 leftover coin" in texts


def test_a_racer_gains_at_most_one_item_a_phase() -> None:
    """Buying rule 2: "You may only gain one Item": after rolling the die, neither another roll nor a
    chosen item is on offer, however many coins are left."""
    s = to_buy(6, 1)
    s = s.apply("0:item:roll")
    assert not [a for a in s.legal_actions(0) if ":item:" in a]
    assert "0:buy:ecoboost-1" in s.legal_actions(0)


def test_a_recall_goes_only_into_an_opponents_bag() -> None:
    """Recalls: "placed in your opponent's bags rather than your own" (RIU-A8: the buyer names the
    opponent; never itself)."""
    s = to_buy(3, 3)
    legal = s.legal_actions(0)
    assert "0:buy:recall-1:1" in legal and "0:buy:recall-1:0" not in legal


def test_recalls_and_item_chips_cannot_be_upgraded() -> None:
    """Upgrades: "upgrade your other pulled chips by X levels" (RIU-A9: not Recalls, item chips or
    Upgrades themselves)."""
    s = new()
    force(s, 0, bag={"upgrade-2": 1}, disc={"recall-1": 1, "coin-1": 1}, rev=["debris", "bomb"])
    s = decide(draws(s, "upgrade-2", "coin-1"), p0="stop", p1="stop")
    assert s.actor == frozenset({0, 1})
    assert [a for a in s.legal_actions(0) if ":up:" in a] == ["0:up:coin-1"]


def test_upgrades_take_the_higher_chip_from_the_supply() -> None:
    """Upgrades (RIU-A9): each step swaps a chip for the next level from the supply, so with one
    Exhaust 2 left only one Exhaust 1 can become one; and a racer further back who buys that last
    Exhaust 2 gets it first ("Furthest behind breaks disputes"), leaving the upgrade undone."""
    s = new()
    e2 = s.game.kinds.index["exhaust-2"]
    force(s, 0, bag={"upgrade-2": 1}, rev=["exhaust-1", "exhaust-1"], disc={"coin-1": 1}, pos=10)
    force(s, 1, disc={"coin-2": 1}, pos=3)
    s.supply = tuple(1 if k == e2 else n for k, n in enumerate(s.supply))
    s = decide(draws(s, "upgrade-2", "coin-1"), p0="stop", p1="stop")
    assert "0:up:exhaust-1" in s.legal_actions(0)
    s = s.apply("0:up:exhaust-1")
    ups = [a for a in s.legal_actions(0) if ":up:" in a]
    assert "0:up:exhaust-1" not in ups and "0:up:exhaust-2" in ups
    s = play(s, "1:buy:exhaust-2", "0:done", "1:done")
    assert bag_of(s, 1)["exhaust-2"] == 2 + 1 and s.supply[e2] == 0
    assert "Exhaust 2 ran out before P1's turn: P1 chooses again from what is left" in [e.text for e in s.events]
    assert s.actor == frozenset({0}) and "0:up:exhaust-1" not in s.legal_actions(0)
    s = s.apply("0:done")
    assert bag_of(s, 0).get("exhaust-2", 0) == 0 and bag_of(s, 0)["exhaust-1"] == 2


def test_choosing_an_item_costs_three_coins() -> None:
    """Buying: "Gain any 1 Item for 3 Coins": with 4 coins, 1 is left over and lost (rule 3)."""
    s = to_buy(4, 1)
    s = play(s, "0:item:turbo", "0:done", "1:done")
    assert "P1 loses 1 leftover coin" in [e.text for e in s.events]
    assert s.ready[0] == ("turbo",)
