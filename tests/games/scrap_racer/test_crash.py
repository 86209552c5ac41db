"""B) Doubles Rolled: crash cards, bonus markers and bonus cards (rulebook pages 6, 10 and 11).

Seats in these scenarios: slot 0 is the active racer (its turn starts every scenario).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from slipstream.engine import CHANCE
from slipstream.engine.fields import replaced
from slipstream.games.scrap_racer.types import DeckCounts, Need, NeedKind

from .helpers import check, content_file, play, position, race, rules, space, texts, whose_turn

NEUTRAL = "hover,twister,crusher,swifty"
LOW, MIDDLE, HIGH = ("die:1", "roll", "die:1"), ("die:3", "roll", "die:3"), ("die:5", "roll", "die:5")


def crash(pos: dict[int, int], double: tuple[str, ...], card: str, *more: str, racers: str = "steel-jacket,"
          "twister,crusher,swifty", **kw: object) -> tuple:
    g = race(racers=racers)
    s = position(g, pos=pos, **kw)  # type: ignore[arg-type]
    log: list = []
    s = play(s, *double, f"crash:{card}", *more, log=log)
    return s, log


@pytest.mark.parametrize(("card", "moved"), [("advance-2", 2), ("advance-3", 3), ("advance-5", 5)])
def test_advance_2_3_5(card: str, moved: int) -> None:
    """Crash cards, Advance 2, 3, 5 spaces: "The player moves their racer forward by the appropriate number
    of spaces." (pile 1/2)."""
    s, log = crash({0: 3, 1: 30, 2: 35, 3: 40}, LOW, card)
    assert s.progress[0] == 3 + moved, "no Steel Jacket ability on a crash turn"
    assert f"Crash cards: {s.game.card_title(card)}" in rules(log)
    assert s.bonus_markers[0] == 1 and whose_turn(s) == "twister"
    check(s)


def test_lukas_rolls_two_dice_for_12_without_a_second_crash() -> None:
    """Crash cards, 2 dice, example: "Lukas (yellow) has drawn the crash card, and must now roll two dice. He
    advances his racer according to the result (12). He does not draw another crash card or bonus marker for
    having rolled the same number on both dice."""
    s, _ = crash({0: 3, 1: 30, 2: 35, 3: 40}, LOW, "two-dice")
    assert s.actor == CHANCE and "dice:6-6" in s.legal_actions()
    probs = dict(s.chance_outcomes())
    assert probs["dice:6-6"] == pytest.approx(1 / 36) and probs["dice:1-2"] == pytest.approx(2 / 36)
    s = play(s, "dice:6-6")
    assert s.progress[0] == 15
    assert s.bonus_markers[0] == 1, "only the one bonus marker of the crash"
    assert s.crash_cards_drawn[0] == 1
    assert whose_turn(s) == "twister"


def test_lars_5_forward_jules_2_back() -> None:
    """Crash cards, 5 forward 2 back: "First, the racer in front of the player is moved back by 2 spaces.
    Then the player moves their racer forward by 5 spaces." Example: "Lars (orange) ... advances his racer 5
    spaces. Jules (blue), who is one position in front of Lars, has to move her racer 2 spaces back."""
    s, _ = crash({0: 10, 1: 14, 2: 30, 3: 40}, LOW, "five-forward-two-back")
    assert s.progress[0] == 15 and s.progress[1] == 12
    assert s.progress[2:] == [30, 40]


def test_5_forward_2_back_in_first_position_moves_no_one_back() -> None:
    """5 forward 2 back: "If the racer is in first position, no other racer is moved back." (SR-A10)"""
    s, _ = crash({0: 45, 1: 14, 2: 30, 3: 40}, LOW, "five-forward-two-back")
    assert s.progress[1:] == [14, 30, 40] and s.progress[0] == 50


def test_5_forward_2_back_lands_on_the_racer_moved_back() -> None:
    """5 forward 2 back, then A) 3) Fight after the effect ("If, after applying the effect, a racer lands
    on a space with another racer, a fight takes place")."""
    s, _ = crash({0: 10, 1: 17, 2: 30, 3: 40}, LOW, "five-forward-two-back")
    assert s.progress[0] == 15 and s.progress[1] == 15 and s.actor == CHANCE
    s = play(s, "fight:6-1")
    assert s.progress[0] == 16 and s.bonus_markers[0] == 1


def test_three_forward_and_stay_put() -> None:
    """Crash cards, 3 forward; Stay put: "The player does not move their racer." Example: "Due to the 3/4
    Crash card the Racer is not moved at all."""
    s, _ = crash({0: 3, 1: 30, 2: 35, 3: 40}, MIDDLE, "three-forward")
    assert s.progress[0] == 6
    s, _ = crash({0: 3, 1: 30, 2: 35, 3: 40}, MIDDLE, "stay-put")
    assert s.progress == [3, 30, 35, 40] and s.bonus_markers[0] == 1


def test_lukas_stays_and_phil_catches_up_2() -> None:
    """Crash cards, Catching Up 2: "The player does not move their racer. The closest racer behind the
    active player moves their racer forward 2 spaces." Example: "Lukas (yellow) ... leave his racer where it
    is. Phil (green), who is one position behind Lukas, is lucky and advances his racer 2 spaces."""
    s, _ = crash({0: 20, 1: 14, 2: 10, 3: 40}, MIDDLE, "catching-up-2")
    assert s.progress == [20, 16, 10, 40]


def test_catching_up_4_and_no_one_behind() -> None:
    """Crash cards, Catching Up 4; SR-A10: in last position nobody is behind, the effect is skipped."""
    s, _ = crash({0: 20, 1: 14, 2: 10, 3: 40}, HIGH, "catching-up-4")
    assert s.progress == [20, 18, 10, 40]
    s, _ = crash({0: 5, 1: 14, 2: 10, 3: 40}, HIGH, "catching-up-4")
    assert s.progress == [5, 14, 10, 40]


@pytest.mark.parametrize("double", [MIDDLE, HIGH])
def test_backwards_die(double: tuple[str, ...]) -> None:
    """Crash cards, Backwards die (in the 3/4 and the 5/6 pile): "The player rolls 1 die and moves their
    racer backwards according to the rolled result."""
    s, _ = crash({0: 20, 1: 14, 2: 10, 3: 40}, double, "backwards-die")
    assert s.actor == CHANCE and s.legal_actions() == [f"die:{n}" for n in range(1, 7)]
    s = play(s, "die:4")
    assert s.progress[0] == 16 and whose_turn(s) == "twister"


def test_push_5_example_a_no_push() -> None:
    """Crash cards, Push 5, example A: "a situation in which no push occurs" (nobody within 5 spaces)."""
    s, _ = crash({0: 20, 1: 26, 2: 10, 3: 40}, MIDDLE, "push-5")
    assert s.progress == [25, 26, 10, 40]


def test_push_5_example_b_the_racer_hit_moves_2() -> None:
    """Push 5, example B: "moves their racer forward by up to 5 spaces, stopping immediately when landing on
    a space with another racer on it. The other racer on this space moves forward by 2 spaces."""
    s, _ = crash({0: 20, 1: 23, 2: 10, 3: 40}, MIDDLE, "push-5")
    assert s.progress == [23, 25, 10, 40]
    s, _ = crash({0: 20, 1: 23, 2: 25, 3: 40}, MIDDLE, "push-5")
    assert s.progress[:3] == [23, 25, 25] and s.actor == CHANCE, "the pushed racer lands on Crusher: a fight"
    s = play(s, "fight:2-3")
    assert s.progress[:3] == [23, 25, 26]


@pytest.mark.parametrize(("card", "n"), [("backwards-4", 4), ("backwards-6", 6)])
def test_4_6_backwards(card: str, n: int) -> None:
    """Crash cards, 4, 6 backwards: "The player moves their racer backwards by the given number of spaces."""
    s, _ = crash({0: 20, 1: 30, 2: 35, 3: 40}, HIGH, card)
    assert s.progress[0] == 20 - n


def test_backwards_never_behind_the_finish_line() -> None:
    """Crash cards, Important: "A racer forced to move backwards because of a crash card will never move
    behind the finish line, no matter what lap it is on. Instead, it stops on the space right in front of the
    finish line." (SR-A1: the first space past the line of its current lap)."""
    s, log = crash({0: 51, 1: 30, 2: 35, 3: 40}, HIGH, "backwards-6")
    assert s.progress[0] == 49 and space(s, 0) == 1 and s.laps[0] == 1
    assert any("stopped at the finish line" in t for t in texts(log))
    s, _ = crash({0: 3, 1: 30, 2: 35, 3: 40}, HIGH, "backwards-4")
    assert s.progress[0] == 1
    s, _ = crash({0: 99, 1: 30, 2: 35, 3: 40}, MIDDLE, "backwards-die", "die:6")
    assert s.progress[0] == 97 and s.laps[0] == 2


def test_loss_of_position_just_behind_the_last_racer() -> None:
    """Crash cards, Loss of position: "The player places their racer on the track just behind the racer in
    last position."""
    s, _ = crash({0: 40, 1: 30, 2: 12, 3: 44}, HIGH, "loss-of-position")
    assert s.progress[0] == 11


def test_loss_of_position_when_already_last() -> None:
    """Loss of position, note: "If the active player is in last position already, their racer does not
    move."""
    s, _ = crash({0: 10, 1: 30, 2: 12, 3: 44}, HIGH, "loss-of-position")
    assert s.progress == [10, 30, 12, 44]


def test_phil_loses_position_stops_at_the_line_and_fights_kai() -> None:
    """Loss of position, example: "Phil (green) ... has to fall back into last place behind Jules (blue).
    But since no racer is allowed to be placed behind the finish line, he only has to fall back to the first
    space in front of the finish line. There he engages in a fight with Kai (red)."""
    # Phil (slot 0) on lap 2 space 6, Kai on lap 2 space 1, Jules last on lap 1 space 45.
    s, _ = crash({0: 54, 1: 49, 2: 45, 3: 60}, HIGH, "loss-of-position")
    assert s.progress[0] == 49 and s.actor == CHANCE and s.legal_actions()[0].startswith("fight:")
    s = play(s, "fight:2-5")
    assert s.progress[:2] == [49, 50]
    assert s.laps[0] == 1


def test_last_place_4() -> None:
    """Crash cards, Last Place 4: "The player does not move their racer. The racer in last position moves
    4 spaces forward." Note: "If the active player is in last position, they move forward by 4 spaces."""
    s, _ = crash({0: 40, 1: 30, 2: 12, 3: 44}, HIGH, "last-place-4")
    assert s.progress == [40, 30, 16, 44]
    s, _ = crash({0: 10, 1: 30, 2: 12, 3: 44}, HIGH, "last-place-4")
    assert s.progress == [14, 30, 12, 44]


def test_crash_cards_before_every_racer_is_on_the_track() -> None:
    """Crash cards, Clarification: "At the start of the game the player order determines the position of
    those racers not on the race track yet ... the player order decides whose racer will move. In that case
    racers are only moved forward, not backwards."""
    # Twister (slot 1) plays second and is behind Steel Jacket, ahead of Crusher and Swifty.
    s, _ = crash({0: 8}, MIDDLE, "catching-up-2")
    assert s.progress == [8, 2, 0, 0]
    s, _ = crash({0: 8}, HIGH, "last-place-4")
    assert s.progress == [8, 0, 0, 4], "Swifty plays last: last place"
    s, _ = crash({}, HIGH, "backwards-6")
    assert s.progress == [0, 0, 0, 0], "a racer not on the track never moves backward"
    s, _ = crash({}, LOW, "five-forward-two-back")
    assert s.progress == [5, 0, 0, 0]
    s, _ = crash({}, HIGH, "loss-of-position")
    assert s.progress == [0, 0, 0, 0]
    s, _ = crash({0: 8}, HIGH, "loss-of-position")
    assert s.progress == [1, 0, 0, 0], "behind the last racer is behind the line: the first space"
    s, _ = crash({}, HIGH, "catching-up-4")
    assert s.progress == [0, 4, 0, 0]


def test_crash_cards_are_discarded_and_the_pile_reshuffled_when_empty() -> None:
    """B) 2nd: "Once the instructions on the crash card have been followed, the card is discarded. If the
    draw deck is now empty, shuffle the discard pile to make a new deck."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 20, 1: 30, 2: 35, 3: 40})
    deck = g.crash_decks[g.pile_of_double[3]]
    n = len(deck.cards)
    stay = deck.cards.index("stay-put")
    discard = list(s.decks[deck.index].draw)
    discard[stay] -= 1
    draw = [0] * n
    draw[stay] = 1
    s.decks = replaced(s.decks, deck.index, DeckCounts(tuple(draw), tuple(discard)))
    s = s.copy()  # the cached legal actions go with the edits
    check(s)
    s = play(s, *MIDDLE)
    assert s.legal_actions() == ["crash:stay-put"]
    s = play(s, "crash:stay-put")
    assert sum(s.decks[deck.index].draw) == 19
    assert s.decks[deck.index].draw[stay] == 4, "the card just drawn is in the new deck"
    assert sum(s.decks[deck.index].discard) == 0
    check(s)


# --- bonus markers and bonus cards -----------------------------------------------------------------


def test_crash_turn_order_effect_fight_then_bonus_marker() -> None:
    """B) 1st: the crash card's effect, then a fight; B) 2nd: "Then, the player takes one bonus marker"."""
    s, log = crash({0: 5, 1: 8, 2: 35, 3: 40}, LOW, "advance-3", "fight:1-2")
    kinds = [e.kind for e in log]
    assert kinds.index("crash-card") < kinds.index("fight-roll") < kinds.index("marker")
    assert s.bonus_markers[0] == 1 and s.bonus_supply == 16


def test_the_third_bonus_marker_becomes_a_hidden_bonus_card() -> None:
    """B) 2nd: "If this is their third marker, they return all markers to the common supply, and draw the
    top card from the Bonus deck, placing it facedown (hidden from other players)"."""
    s, _ = crash({0: 5, 1: 20, 2: 35, 3: 40}, MIDDLE, "stay-put", bmark={0: 2})
    assert s.actor == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert outcomes["bonus:forward-3"] == pytest.approx(6 / 28)
    log2: list = []
    s = play(s, "bonus:straight", log=log2)
    g = s.game
    assert s.bonus_markers[0] == 0 and s.bonus_supply == 17
    assert s.bonus_cards[0][g.bonus_deck.cards.index("straight")] == 1
    assert s.view(0)["my_bonus_cards"] == {"straight": 1}
    assert s.view(1)["my_bonus_cards"] == {}
    assert s.view(1)["bonus_cards_held"]["0"] == 1
    hidden = [e for e in log2 if e.seats is not None]
    assert hidden and all(e.seats == frozenset({0}) for e in hidden)
    assert all("Straight" not in str(e) for e in s.view(1)["events"])
    assert any("Straight" in str(e) for e in s.view(0)["events"])
    check(s)


def test_hover_needs_only_two_bonus_markers() -> None:
    """Racer abilities, Hover: "This racer needs only 2 bonus markers in order to gain a bonus card."""
    g = race(racers="hover,twister,crusher,swifty")
    s = position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 1})
    s = play(s, *MIDDLE, "crash:stay-put")
    assert s.legal_actions()[0].startswith("bonus:")
    s = play(s, "bonus:forward-7")
    assert s.bonus_markers[0] == 0 and s.bonus_cards[0][g.bonus_deck.cards.index("forward-7")] == 1


def test_hover_follows_the_content_file_markers_per_card(tmp_path: Path) -> None:
    """Racer abilities, Hover: "needs only 2 bonus markers in order to gain a bonus card" — the printed
    numbers (3, Hover 2) are content: with ``per_card = 4`` and ``hover_per_card = 3`` Hover's third marker
    is a card and the others' third is not; without ``hover_per_card`` Hover needs one marker fewer than
    ``per_card``."""
    content = content_file(tmp_path, ("per_card = 3 ", "per_card = 4 "), ("hover_per_card = 2", "hover_per_card = 3"))
    g = race(racers="hover,twister,crusher,swifty", content=str(content))
    s = play(position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 2}), *MIDDLE, "crash:stay-put")
    assert s.need.kind is NeedKind.BONUS_CARD, "Hover's third marker of 3 is a card"
    g = race(racers="twister,hover,crusher,swifty", content=str(content))
    s = play(position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 2}), *MIDDLE, "crash:stay-put")
    assert s.bonus_markers[0] == 3 and whose_turn(s) == "hover", "the others need 4"
    s = play(position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 3}), *MIDDLE, "crash:stay-put")
    assert s.need.kind is NeedKind.BONUS_CARD
    g = race(racers="hover,twister,crusher,swifty", content=str(content), start_seat=0)
    s = play(position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 1}), *MIDDLE, "crash:stay-put")
    assert s.bonus_markers[0] == 2 and whose_turn(s) == "twister", "Hover's second marker of 3 is not a card"
    derived = content_file(tmp_path, ("per_card = 3 ", "per_card = 5 "), ("hover_per_card = 2", ""),
                           name="derived.toml")
    g = race(racers="hover,twister,crusher,swifty", content=str(derived))
    s = play(position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 3}), *MIDDLE, "crash:stay-put")
    assert s.need.kind is NeedKind.BONUS_CARD, "no hover_per_card: one fewer than per_card (4 of 5)"
    s = play(position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 2}), *MIDDLE, "crash:stay-put")
    assert s.bonus_markers[0] == 3 and whose_turn(s) == "twister"


def test_hover_may_not_need_more_markers_than_the_others(tmp_path: Path) -> None:
    """Hover "needs only" its number: a content file where Hover needs more than ``per_card`` is refused
    with a ContentError naming the record and the field."""
    from slipstream.engine import ContentError

    content = content_file(tmp_path, ("hover_per_card = 2", "hover_per_card = 4"))
    with pytest.raises(ContentError) as info:
        race(content=str(content))
    assert (info.value.record, info.value.field) == ("bonus_markers", "hover_per_card")
    assert "not more than per_card (3)" in str(info.value)


def test_no_bonus_marker_when_the_supply_is_empty(tmp_path: Path) -> None:
    """SR-G7: the supply of bonus markers is finite; with none left, none is taken. (With the 17 printed
    markers the supply cannot run out: at most two per racer are held. A content file with 6 can.)"""
    content = content_file(tmp_path, ("count = 17", "count = 6"))
    g = race(racers="steel-jacket,twister,crusher,swifty", content=str(content))
    s = position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={1: 2, 2: 2, 3: 2})
    assert s.bonus_supply == 0
    log: list = []
    s = play(s, *MIDDLE, "crash:stay-put", log=log)
    assert s.bonus_markers[0] == 0 and whose_turn(s) == "twister"
    assert any("SR-G7" in r for r in rules(log))


def test_bonus_deck_reshuffled_from_its_discards() -> None:
    """B) 2nd with an empty bonus deck: the played bonus cards are shuffled into a new deck."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 2})
    d = g.bonus_deck
    n = len(d.cards)
    discard = [0, 0, 0, 0, 0, 0]
    discard[d.cards.index("forward-3")] = 5                      # the other five forward-3 were played
    s.decks = replaced(s.decks, d.index, DeckCounts((0,) * n, tuple(discard)))
    s.bonus_cards = ((0, 0, 1, 0, 0, 0),                         # one forward-3 in the active hand ...
                     (4, 5, 0, 5, 3, 5), *s.bonus_cards[2:])     # ... and every other card in seat 1's hand
    s = s.copy()  # the cached legal actions go with the edits
    check(s)
    s = play(s, *MIDDLE, "crash:stay-put")
    assert s.legal_actions() == ["bonus:forward-3"]
    s = play(s, "bonus:forward-3")
    assert s.bonus_cards[0][d.cards.index("forward-3")] == 2
    check(s)


def test_only_the_active_racer_takes_the_bonus_marker() -> None:
    """B) 2nd: "the player takes one bonus marker" — the player who drew the crash card."""
    s, _ = crash({0: 20, 1: 14, 2: 10, 3: 40}, MIDDLE, "catching-up-2")
    assert list(s.bonus_markers) == [1, 0, 0, 0]


def test_no_bonus_card_when_the_deck_and_its_discards_are_empty() -> None:
    """B) 2nd with every bonus card in the players' hands: the markers go back to the supply, no card."""
    g = race(racers=NEUTRAL)
    s = position(g, pos={0: 5, 1: 20, 2: 35, 3: 40}, bmark={0: 2})
    d = g.bonus_deck
    n = len(d.cards)
    s.bonus_cards = replaced(s.bonus_cards, 1, s.decks[d.index].draw)
    s.decks = replaced(s.decks, d.index, s.decks[d.index]._replace(draw=(0,) * n))
    s = s.copy()  # the cached legal actions go with the edits
    check(s)
    log: list = []
    s = play(s, *MIDDLE, "crash:stay-put", log=log)
    assert whose_turn(s) == "twister"
    assert s.bonus_markers[0] == 0 and s.bonus_supply == 17
    assert "The bonus deck is empty: no card" in texts(log)
    check(s)


def test_boost_markers_are_not_used_on_crash_card_dice() -> None:
    """Boost markers change "the die they just rolled" of the turn's roll; the crash card's dice (Backwards
    die, 2 dice) are rolled as the card says, and "rolled dice are ignored" on a crash turn: no boost."""
    boosts = {0: {"plus-minus": 1, "reroll": 1, "turn": 1}}
    s, _ = crash({0: 20, 1: 30, 2: 35, 3: 40}, (*MIDDLE, "crash"), "backwards-die", boosts=boosts)
    assert s.actor == CHANCE and s.legal_actions() == [f"die:{n}" for n in range(1, 7)]
    s = play(s, "die:6")
    assert s.progress[0] == 14 and list(s.boost_markers[0]) == [1, 1, 1]
    s, _ = crash({0: 20, 1: 30, 2: 35, 3: 40}, (*LOW, "crash"), "two-dice", boosts=boosts)
    assert s.actor == CHANCE and all(a.startswith("dice:") for a in s.legal_actions())


def test_the_crash_card_is_shown_to_every_seat() -> None:
    """B) 1st: the player "places it faceup on the table for everybody to see" — every seat's view has it
    (a bonus card drawn, by contrast, is hidden)."""
    s, _ = crash({0: 20, 1: 30, 2: 35, 3: 40}, HIGH, "backwards-4")
    for seat in (None, 0, 1, 2, 3):
        assert any("Crash card: 4 backwards" in str(e) for e in s.view(seat)["events"])


def test_moving_backwards_onto_a_racer_starts_a_fight() -> None:
    """B) 1st: "If, after applying the effect, a racer lands on a space with another racer, a fight takes
    place" — a backward move too: 4 backwards from 20 onto Twister on 16; Twister wins and moves to 17."""
    s, log = crash({0: 20, 1: 16, 2: 35, 3: 40}, HIGH, "backwards-4")
    assert s.progress[:2] == [16, 16] and s.need == Need(NeedKind.FIGHT, racer=0, other=1)
    s = play(s, "fight:3-4", log=log)
    assert s.progress[:2] == [16, 17] and s.bonus_markers[0] == 1 and whose_turn(s) == "twister"
