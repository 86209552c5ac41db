"""Items (rulebook "Items", Turn Structure 3 and 5; the catalogue of RIU-G10, decided in
docs/rules/rev-it-up.md)."""

from __future__ import annotations

from slipstream.engine import CHANCE
from slipstream.games.rev_it_up import types
from slipstream.games.rev_it_up.state import RevState

from .helpers import bag_of, decide, draws, force, new, play, rev_of

ALT = "caltrops,shockwave,emp,slipstream,loose-change,heat-sink"


def to_use_phase(s: RevState, *chips: str) -> RevState:
    """Draw ``chips`` (coins by default, so nobody moves), everyone keeps going: step 5 opens."""
    s = draws(s, *(chips or ["coin-1"] * s.game.players))
    return decide(s, **{f"p{seat}": "go" for seat in range(s.game.players) if s.status[seat] == types.RACING})


def test_items_are_used_from_the_ready_area_after_the_stop_decision() -> None:
    """Turn Structure 5: "Players can now choose to use items in their ready areas" (after step 4)."""
    s = new()
    force(s, 0, ready=("sponsor",))
    s = to_use_phase(s)
    assert s.view(None)["phase"] == "use-items"
    assert s.actor == frozenset({0})
    assert s.legal_actions(0) == ["0:pass", "0:use:sponsor"]


def test_oil_slick_stops_the_next_racer_there() -> None:
    """Oil Slick (Trap, RIU-G10): "drop on your space; the next racer to enter or pass it stops there"."""
    s = new()
    force(s, 0, ready=("oil-slick",), pos=10)
    force(s, 1, pos=8)
    s = play(to_use_phase(s), "0:use:oil-slick")
    assert s.traps == ((10, "oil-slick", 0),)
    s = draws(s, "coin-1", "exhaust-3")
    assert s.progress[1] == 10 and s.traps == ()


def test_a_used_item_cites_its_type_as_the_items_section_names_it() -> None:
    """The log's rule tag of an item used is its type capitalised, as the rules page writes it ("Items:
    Trap"), so the tag finds its paragraph there (the rules page matches a tag in its own case)."""
    s = new()
    force(s, 0, ready=("oil-slick",), pos=10)
    s = play(to_use_phase(s), "0:use:oil-slick")
    assert [(e.text, e.rule) for e in s.events if e.kind == "item"] == [("P1 uses Oil Slick", "Items: Trap")]


def test_caltrops_add_debris_to_the_next_racer_passing() -> None:
    """Caltrops (Trap, RIU-G10): the next racer to pass it adds 1 Debris to its Rev Track."""
    s = new(items=ALT)
    force(s, 0, ready=("caltrops",), pos=10)
    force(s, 1, pos=8)
    s = play(to_use_phase(s), "0:use:caltrops")
    s = draws(s, "coin-1", "exhaust-3")
    assert s.progress[1] == 11
    assert rev_of(s, 1) == [("debris", 1), ("exhaust-3", 4)]


def test_the_dropper_does_not_spring_its_own_trap() -> None:
    """RIU-G10 decision: a trap waits for the next *other* racer."""
    s = new(items=ALT)
    force(s, 0, ready=("caltrops",), pos=40)
    s = play(to_use_phase(s), "0:use:caltrops")
    force(s, 0, pos=9)
    s = draws(s, "exhaust-1", "coin-1")
    assert rev_of(s, 0) == [("exhaust-1", 1)] and len(s.traps) == 1


def test_rocket_hits_the_racer_directly_ahead() -> None:
    """Attacking Items "will usually add chips to other player's Rev Tracks" (Rocket: the racer directly
    ahead adds 1 Debris)."""
    s = new(players=3)
    force(s, 0, ready=("rocket",), pos=5)
    force(s, 1, pos=9)
    force(s, 2, pos=7)
    s = to_use_phase(s)
    assert s.legal_actions(0) == ["0:pass", "0:use:rocket:2"]
    s = s.apply("0:use:rocket:2")
    assert rev_of(s, 2) == [("debris", 1)] and s.ready[0] == ()


def test_stopped_racers_are_immune_to_attacks() -> None:
    """RIU-A13: stopped racers cannot be hit by Attacks or Weapons."""
    s = new(players=3)
    force(s, 0, ready=("rocket",), pos=5)
    force(s, 1, pos=9)
    force(s, 2, pos=7)
    s = draws(s, "coin-1", "coin-1", "coin-1")
    s = decide(s, p0="go", p1="go", p2="stop")
    assert s.legal_actions(0) == ["0:pass", "0:use:rocket:1"]


def test_debris_on_a_full_rev_track_overheats_a_racing_racer() -> None:
    """Rev Track: no space for a chip means Overheat, for Debris too."""
    s = new()
    force(s, 0, ready=("rocket",))
    force(s, 1, pos=4, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    s = play(to_use_phase(s), "0:use:rocket:1")
    assert s.status[1] == types.OVERHEATED


def test_shockwave_hits_everyone_up_to_three_ahead() -> None:
    """Shockwave (Attack): every racer within 3 spaces ahead adds 1 Debris."""
    s = new(players=4, items=ALT)
    force(s, 0, ready=("shockwave",), pos=5)
    force(s, 1, pos=8)
    force(s, 2, pos=9)
    force(s, 3, pos=6)
    s = play(to_use_phase(s), "0:use:shockwave")
    assert [len(s.rev_chips[t]) for t in range(4)] == [0, 1, 0, 1]


def test_shield_cancels_the_next_attack_and_is_spent() -> None:
    """Shield (RIU-G10): cancels the next Attack, Weapon or Trap on you."""
    s = new()
    force(s, 0, ready=("rocket",))
    force(s, 1, pos=3, ready=("shield",))
    s = play(to_use_phase(s), "0:use:rocket:1")
    assert s.rev_chips[1] == () and s.ready[1] == ()


def test_sticky_bomb_goes_into_an_opponents_bag() -> None:
    """Items: "Some Items may go in an opponent's bag". Sticky Bomb: drawn, the Bomb moves its racer
    back 2 and takes a Rev space; at the end of the round it returns to the supply."""
    s = new(players=3)
    force(s, 0, pos=5)
    s = draws(s, "exhaust-2", "coin-1", "coin-1")
    s = s.apply("item:sticky-bomb")
    assert s.actor == 0 and s.legal_actions() == ["give:1", "give:2"]
    bombs = s.supply[s.game.bomb]
    s = s.apply("give:2")
    assert bag_of(s, 2)["bomb"] == 1 and s.supply[s.game.bomb] == bombs - 1 and s.ready[0] == ()
    force(s, 2, pos=6, bag={"bomb": 1, "coin-1": 1})
    s = decide(s, p0="stop", p1="stop", p2="go")
    s = draws(s, "bomb")
    assert s.progress[2] == 4 and rev_of(s, 2) == [("bomb", 1)]
    s = decide(s, p2="stop")
    while s.view(None)["phase"] == "buy":
        s = s.apply(s.legal_actions()[0].split(":")[0] + ":done")
    assert "bomb" not in bag_of(s, 2) and s.supply[s.game.bomb] == bombs


def test_emp_cancels_the_next_ecoboost_or_nitrous() -> None:
    """EMP (Weapon): the chosen opponent's next drawn Ecoboost or Nitrous gives no movement."""
    s = new(items=ALT)
    force(s, 0, ready=("emp",))
    force(s, 1, bag={"coin-1": 1, "ecoboost-2": 1})
    s = play(to_use_phase(s), "0:use:emp:1")
    assert s.emp_jams[1] == 1
    s = draws(s, "coin-1", "ecoboost-2")
    assert s.progress[1] == 0 and s.emp_jams[1] == 0


def test_turbo_is_used_during_movement() -> None:
    """Turn Structure 5: "Some items are used during the movement phase" (RIU-A5: Boost items, right
    after your own chip has moved). Turbo: +3, no heat; the item spaces it passes count."""
    s = new()
    force(s, 0, ready=("turbo",), pos=2)
    s = draws(s, "exhaust-1", "coin-1")
    assert s.actor == 0 and s.legal_actions() == ["boost:turbo", "pass"]
    assert s.progress[0] == 3
    s = s.apply("boost:turbo")
    assert s.progress[0] == 6 and rev_of(s, 0) == [("exhaust-1", 1)] and s.ready[0] == ()
    s = draws(s)
    t = new()
    force(t, 0, ready=("turbo",), pos=4)
    t = draws(t, "exhaust-1", "coin-1")
    t = t.apply("boost:turbo")
    assert t.progress[0] == 8 and t.actor == CHANCE and t.legal_actions()[0].startswith("item:")


def test_slipstream_moves_to_the_racer_ahead() -> None:
    """Slipstream (Boost): move to the space of the racer directly ahead."""
    s = new(players=3, items=ALT)
    force(s, 0, ready=("slipstream",), pos=1)
    force(s, 1, pos=20)
    force(s, 2, pos=5)
    s = draws(s, "exhaust-1", "coin-1", "coin-1")
    s = s.apply("boost:slipstream")
    assert s.progress[0] == 5


def test_profit_items_give_coins_to_spend() -> None:
    """Round Structure 2: coins "they've collected" (RIU-G16: from Profit items). Sponsor +2 now;
    Loose Change +1 now and +1 in the next buying phase."""
    s = new()
    force(s, 0, ready=("sponsor",))
    s = play(to_use_phase(s), "0:use:sponsor")
    s = decide(draws(s, "coin-1", "coin-1"), p0="stop", p1="stop")
    assert s.coins_to_spend == (2 + 2, 2)
    t = new(items=ALT)
    force(t, 0, ready=("loose-change",))
    t = play(to_use_phase(t), "0:use:loose-change")
    t = decide(draws(t, "coin-1", "coin-1"), p0="stop", p1="stop")
    assert t.coins_to_spend[0] == 2 + 1
    t = play(t, "0:done", "1:done")
    assert t.collected_coins == (1, 0)


def test_heat_sink_removes_the_most_recent_chip() -> None:
    """Heat Sink (Shield): remove 1 chip from your Rev Track (Exhaust to the bag, Debris to supply)."""
    s = new(items=ALT)
    force(s, 0, ready=("heat-sink",), rev=["exhaust-2", "exhaust-3"], bag={"coin-1": 1})
    s = play(to_use_phase(s), "0:use:heat-sink")
    assert rev_of(s, 0) == [("exhaust-2", 2)] and bag_of(s, 0) == {"exhaust-3": 1}


def test_ready_area_holds_two_items_and_items_persist() -> None:
    """RIU-G13: the ready area holds 2 items; gaining a third, the racer drops one. Items stay between
    rounds."""
    s = new()
    force(s, 0, ready=("rocket", "shield"), pos=5)
    s = draws(s, "exhaust-2", "coin-1")
    s = s.apply("item:turbo")
    assert s.actor == 0 and s.legal_actions() == ["drop:rocket", "drop:shield", "drop:turbo"]
    s = s.apply("drop:rocket")
    assert sorted(s.ready[0]) == ["shield", "turbo"]
    s = decide(s, p0="stop", p1="stop")
    while s.view(None)["phase"] == "buy":
        s = s.apply(s.legal_actions()[0].split(":")[0] + ":done")
    assert s.round == 2 and sorted(s.ready[0]) == ["shield", "turbo"]


def test_stopped_racers_do_not_move_or_roll() -> None:
    """RIU-A14: a stopped racer draws no chip, so it neither moves nor rolls for items."""
    s = new()
    s = draws(s, "coin-1", "coin-1")
    s = decide(s, p0="stop", p1="go")
    assert s.view(None)["current"] == 1
    s = draws(s, "exhaust-1")
    assert s.progress == (0, 1)


def test_shield_also_stops_a_sticky_bomb() -> None:
    """Shield: cancels the next Weapon on you; a Sticky Bomb given to a shielded racer is lost."""
    s = new()
    force(s, 0, pos=5)
    force(s, 1, ready=("shield",))
    s = draws(s, "exhaust-2", "coin-1")
    s = s.apply("item:sticky-bomb").apply("give:1")
    assert "bomb" not in bag_of(s, 1) and s.ready[1] == ()


def test_a_bomb_that_cannot_be_placed_overheats_and_goes_back_to_the_supply() -> None:
    """Sticky Bomb (RIU-G10/G12): a drawn Bomb takes a Rev space; with none left the racer overheats
    (Rev Track) and the Bomb, an item chip, returns to the supply."""
    s = new()
    force(s, 1, pos=6, bag={"bomb": 1, "coin-1": 1}, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    bombs = s.supply[s.game.bomb]
    s = draws(s, "coin-1", "bomb")
    assert s.progress[1] == 4 and s.status[1] == types.OVERHEATED
    assert s.supply[s.game.bomb] == bombs + 1 and "bomb" not in bag_of(s, 1)


SHOCK = "oil-slick,shockwave,emp,turbo,sponsor,shield"


def test_shockwave_skips_racers_on_its_own_space_and_stopped_racers() -> None:
    """Shockwave (Attack, RIU-G10): "every racer within 3 spaces ahead" (not one on the user's own
    space); RIU-A13: stopped racers are immune, so with only a stopped racer in range it is not
    offered."""
    s = new(players=4, items=ALT)
    force(s, 0, ready=("shockwave",), pos=5)
    force(s, 1, pos=5)
    force(s, 2, pos=7)
    force(s, 3, pos=8)
    s = draws(s, "coin-1", "coin-1", "coin-1", "coin-1")
    s = decide(s, p0="go", p1="go", p2="stop", p3="go")
    s = s.apply("0:use:shockwave")
    assert [len(s.rev_chips[t]) for t in range(4)] == [0, 0, 0, 1]
    t = new(players=3, items=ALT)
    force(t, 0, ready=("shockwave",), pos=5)
    force(t, 1, pos=7)
    force(t, 2, pos=20)
    t = decide(draws(t, "coin-1", "coin-1", "coin-1"), p0="go", p1="stop", p2="go")
    assert t.actor == CHANCE and t.ready[0] == ("shockwave",)


def test_emp_is_not_offered_against_a_stopped_racer() -> None:
    """RIU-A13: racers that have stopped are immune to Weapons and are not offered as targets."""
    s = new(players=3, items=ALT)
    force(s, 0, ready=("emp",))
    s = decide(draws(s, "coin-1", "coin-1", "coin-1"), p0="go", p1="stop", p2="go")
    assert s.legal_actions(0) == ["0:pass", "0:use:emp:2"]


def test_items_resolve_furthest_behind_first_and_a_racer_overheated_by_one_is_immune_to_the_next() -> None:
    """Turn Structure 5 (RIU-A5: the item choices resolve together, furthest behind first). P2's
    Shockwave (furthest behind) overheats P3 first, so P1's EMP, chosen against P3 while it was
    racing, finds it no longer racing and has no effect (RIU-A13)."""
    s = new(players=3, items=SHOCK)
    force(s, 1, ready=("shockwave",), pos=2)
    force(s, 0, ready=("emp",), pos=4)
    force(s, 2, pos=5, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    s = to_use_phase(s)
    s = play(s, "0:use:emp:2", "1:use:shockwave")
    assert s.status[2] == types.OVERHEATED and s.emp_jams == (0, 0, 0)
    assert rev_of(s, 0) == [("debris", 1)]
    assert any(e.text == "P3 has stopped and is immune" for e in s.events)


def test_emps_stack() -> None:
    """EMP (Weapon, RIU-G10 decision: stacking): two EMPs on one racer cancel its next two Ecoboosts
    or Nitrous."""
    s = new(players=3, items=ALT)
    force(s, 0, ready=("emp",))
    force(s, 1, ready=("emp",))
    force(s, 2, bag={"ecoboost-1": 1, "nitrous-1": 1, "coin-1": 3})
    s = play(to_use_phase(s), "0:use:emp:2", "1:use:emp:2")
    assert s.emp_jams == (0, 0, 2)
    s = decide(draws(s, "coin-1", "coin-1", "nitrous-1"), p0="go", p1="go", p2="go")
    assert s.progress[2] == 0 and s.emp_jams == (0, 0, 1) and rev_of(s, 2) == [("nitrous-1", 1)]
    s = draws(s, "coin-2", "coin-2", "ecoboost-1")
    assert s.progress[2] == 0 and s.emp_jams == (0, 0, 0)


def test_an_emp_cancelled_chip_moves_with_the_zero_moves() -> None:
    """Turn Structure 2: "Highest movement moves first". An Ecoboost 3 cancelled by an EMP moves 0, so
    it resolves after an Exhaust 1 (RIU-A2: zero moves come last)."""
    s = new(items=ALT)
    force(s, 0, bag={"ecoboost-3": 1, "coin-1": 1}, pos=2)
    force(s, 1, pos=8)
    s.emp_jams = (1, 0)
    s = draws(s, "ecoboost-3", "exhaust-1")
    assert [e.data["seat"] for e in s.events if e.kind in ("move", "emp")] == [1, 0]
    assert s.progress == (2, 9)


def test_a_shield_cancels_a_trap() -> None:
    """Shield (RIU-G10): "cancel the next Attack, Weapon or Trap on you": the trap is sprung and gone,
    the Shield is spent, and the racer drives on."""
    s = new()
    force(s, 0, ready=("oil-slick",), pos=10)
    force(s, 1, pos=8, ready=("shield",))
    s = play(to_use_phase(s), "0:use:oil-slick")
    s = draws(s, "coin-1", "exhaust-3")
    assert s.progress[1] == 11 and s.traps == () and s.ready[1] == ()


def test_stopped_racers_may_still_use_items() -> None:
    """Turn Structure 5 (RIU-A5): a racer that has stopped may still use items from its ready area."""
    s = new()
    force(s, 0, ready=("sponsor",))
    s = decide(draws(s, "coin-1", "coin-1"), p0="stop", p1="go")
    assert s.actor == frozenset({0}) and s.legal_actions(0) == ["0:pass", "0:use:sponsor"]
    s = s.apply("0:use:sponsor")
    assert s.collected_coins == (2, 0)


def test_every_trap_on_a_space_springs() -> None:
    """Caltrops (Trap, RIU-G10): "the next racer to pass it adds 1 Debris". Two Caltrops dropped on the
    same space by two racers are two traps: a third racer passing that space springs both."""
    s = new(players=3, items=ALT)
    force(s, 0, ready=("caltrops",), pos=10)
    force(s, 1, ready=("caltrops",), pos=40)
    force(s, 2, pos=8)
    s = play(to_use_phase(s), "0:use:caltrops", "1:use:caltrops")
    assert s.traps == ((10, "caltrops", 0), (10, "caltrops", 1))
    s = draws(s, "coin-1", "coin-1", "exhaust-3")
    assert s.traps == ()
    assert rev_of(s, 2) == [("debris", 1), ("debris", 2), ("exhaust-3", 5)]


def test_lose_move_never_cancels_a_bomb_moving_back() -> None:
    """RIU-A1 option overheat_penalty=lose_move is a penalty: it cancels an overheating chip's movement
    forwards, but a Bomb that overheats its racer still moves it back 2 (Sticky Bomb, RIU-G10)."""
    s = new(overheat_penalty="lose_move")
    force(s, 1, pos=6, bag={"bomb": 1, "coin-1": 1}, rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"])
    s = draws(s, "coin-1", "bomb")
    assert s.progress[1] == 4 and s.status[1] == types.OVERHEATED


def test_an_overheated_racer_may_still_boost_in_that_movement() -> None:
    """Turn Structure 5 (RIU-A5: Boost items right after the racer's own chip moved) with RIU-A1: the
    chip that overheats still moves, and the racer may still use a Turbo then; overheating only ends
    its drawing ("must stop pulling chips")."""
    s = new()
    force(s, 0, ready=("turbo",), rev=["exhaust-3", "exhaust-3", "exhaust-3", "exhaust-1"], pos=1)
    s = draws(s, "exhaust-1", "coin-1")
    assert s.status[0] == types.OVERHEATED and s.actor == 0
    s = s.apply("boost:turbo")
    assert s.progress[0] == 5 and s.status[0] == types.OVERHEATED


def test_moving_back_over_a_trap_does_not_spring_it() -> None:
    """Traps (RIU-G10 decision): a trap springs for a racer entering or passing it moving forwards; a
    Recall carrying a racer back over it leaves it waiting."""
    s = new()
    force(s, 1, ready=("oil-slick",), pos=10)
    force(s, 0, pos=12, bag={"recall-3": 1, "exhaust-3": 1, "coin-1": 1})
    s = play(to_use_phase(s), "1:use:oil-slick")
    s = decide(draws(s, "recall-3", "coin-2"), p0="go", p1="go")
    assert s.progress[0] == 9 and s.traps == ((10, "oil-slick", 1),)
    s = draws(s, "exhaust-3", "exhaust-1")
    assert s.progress[0] == 10 and s.traps == ()


def test_heat_sink_is_offered_only_with_a_chip_to_remove() -> None:
    """Heat Sink (Shield, RIU-G10): "remove 1 chip from your Rev Track": with an empty Rev Track there
    is nothing to use it on, so it is not offered (the racer keeps it)."""
    s = new(items=ALT)
    force(s, 0, ready=("heat-sink",))
    s = to_use_phase(s)
    assert s.actor == CHANCE and s.ready[0] == ("heat-sink",)


def test_with_no_item_chips_left_attacks_and_bombs_do_nothing() -> None:
    """RIU-G12: item chips come from the supply; with no Debris left a Rocket adds nothing (and is
    spent), and with no Bomb left a Sticky Bomb cannot be played."""
    s = new()
    force(s, 0, ready=("rocket",), pos=4)
    force(s, 1, pos=5)
    debris, bomb = s.game.debris, s.game.bomb
    s.supply = tuple(0 if k in (debris, bomb) else n for k, n in enumerate(s.supply))
    s = play(to_use_phase(s), "0:use:rocket:1")
    assert s.rev_chips[1] == () and s.ready[0] == ()
    assert any(e.text == "no Debris left in the supply" for e in s.events)
    s = draws(s, "exhaust-3", "coin-2")
    s = s.apply("item:sticky-bomb")
    assert isinstance(s.actor, frozenset) and "bomb" not in bag_of(s, 1)
    assert any(e.text == "P1 gains Sticky Bomb, but it cannot be played" for e in s.events)


def test_slipstream_needs_a_racer_ahead() -> None:
    """Slipstream (Boost, RIU-G10): "move to the space of the racer directly ahead": the leader (or a
    racer level with the leader) has nobody to follow, so it is not offered and the racer keeps it."""
    s = new(items=ALT)
    force(s, 0, ready=("slipstream",), pos=10)
    force(s, 1, pos=8)
    s = draws(s, "exhaust-1", "exhaust-3")
    assert s.progress == (11, 11) and isinstance(s.actor, frozenset) and s.ready[0] == ("slipstream",)
