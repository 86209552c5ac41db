"""Changes in a 2-player game and the 3-Player Variant (rulebook page 8)."""

from __future__ import annotations

import pytest

from slipstream.engine import CHANCE, IllegalActionError
from slipstream.games.scrap_racer.rules import standings

from .helpers import check, play, position, race, roll, whose_turn

# Hendrik = seat 0 (racer slots 0 and 1), Uschi = seat 1 (racer slots 2 and 3).
TEAM = "hover,crusher,swifty,steel-jacket"


def team(**kw: object) -> object:
    return race(players=2, racers=TEAM, **kw)  # type: ignore[arg-type]


def test_each_player_takes_two_racers_and_chooses_a_start_racer() -> None:
    """Changes in a 2-player game, Turn order: "The first player determines a start racer ... Next they
    play a turn with both of their racers. Then the next player chooses a sequence and makes a turn with both
    of their racers. The turn order is now fixed in this order for the rest of the game."""
    g = race(players=2, racers=TEAM)
    s = g.start(seed=0)
    assert s.actor == 0 and s.legal_actions() == ["first:crusher", "first:hover"]
    s = play(s, "first:crusher")
    assert list(s.order) == [1, 0] and whose_turn(s) == "crusher"
    s = play(s, *roll(1, 2))
    assert whose_turn(s) == "hover"
    s = play(s, *roll(1, 3))
    assert s.actor == 1 and s.legal_actions() == ["first:steel-jacket", "first:swifty"]
    s = play(s, "first:swifty")
    assert list(s.order) == [1, 0, 2, 3] and whose_turn(s) == "swifty"
    s = play(s, *roll(2, 3), *roll(2, 4))
    assert s.round == 2 and whose_turn(s) == "crusher"
    s = play(s, *roll(1, 5), *roll(1, 6), *roll(3, 6))
    assert whose_turn(s) == "steel-jacket" and list(s.order) == [1, 0, 2, 3]
    check(s)


def test_random_dashboards_two_each() -> None:
    """Changes in a 2-player game, Setup: "Each player randomly takes two dashboards and the corresponding
    racers. Determine a start player." (SR-G8: a random start player.)"""
    import slipstream

    g = slipstream.load("scrap-racer", players=2)
    s = g.start(seed=0)
    assert s.actor == CHANCE and len(s.chance_outcomes()) == 6
    for racer in ("jackal", "twister", "hover", "swifty"):
        s = s.apply(f"racer:{racer}")
    assert s.legal_actions() == ["start:P1", "start:P2"]
    s = s.apply("start:P2")
    assert s.actor == 1 and s.legal_actions() == ["first:hover", "first:swifty"]
    assert s.owner == (0, 0, 1, 1)


def test_own_racers_fight_by_choice_without_dice() -> None:
    """Changes in a 2-player game, Fights: "If a fight occurs between two racers of the same player, the
    player simply decides which racer wins the fight and advances it by 1 space without rolling the dice."""
    g = team()
    s = position(g, pos={0: 3, 1: 8, 2: 30, 3: 40}, order=[0, 1, 2, 3])
    s = play(s, *roll(2, 3))
    assert s.actor == 0 and s.legal_actions() == ["win:crusher", "win:hover"]
    s = play(s, "win:crusher")
    assert s.progress[:2] == [8, 9] and whose_turn(s) == "crusher"
    check(s)


def test_fights_between_the_two_players_use_dice() -> None:
    """Changes in a 2-player game, Fights: "A fight between the two players is handled as usual."""
    g = team()
    s = play(position(g, pos={0: 3, 1: 20, 2: 8, 3: 40}, order=[0, 1, 2, 3]), *roll(2, 3))
    assert s.actor == CHANCE and s.legal_actions()[0] == "fight:1-1"


def test_a_fight_with_its_teammate_jackal_is_the_players_choice() -> None:
    """Changes in a 2-player game, Fights: "If a fight occurs between two racers of the same player, the
    player simply decides which racer wins the fight and advances it by 1 space without rolling the dice"
    (issue 13): Jackal or not, with either ``jackal`` option."""
    for option in ("own-turn", "every-fight"):
        g = race(players=2, racers="hover,jackal,swifty,steel-jacket", jackal=option)
        s = play(position(g, pos={0: 3, 1: 8, 2: 30, 3: 40}, order=[0, 1, 2, 3]), *roll(2, 3))
        assert s.actor == 0 and s.legal_actions() == ["win:hover", "win:jackal"]
        s = play(s, "win:hover")
        assert s.progress[:2] == [9, 8] and whose_turn(s) == "jackal"


def test_jackal_in_the_team_game_wins_on_its_players_turn_only() -> None:
    """Playing the Game: "A player may only use the ability of their racer when they are the active
    player" (issue 13): Hendrik's Jackal moving onto Uschi's Swifty on Hendrik's turn wins without dice
    and moves 2; Uschi's Swifty moving onto the Jackal on Uschi's turn makes a rolled fight."""
    g = race(players=2, racers="hover,jackal,swifty,steel-jacket")
    s = play(position(g, pos={0: 20, 1: 3, 2: 8, 3: 40}, order=[0, 1, 2, 3], turn=1), *roll(2, 3))
    assert s.progress[1:3] == [10, 8] and whose_turn(s) == "swifty"
    s = play(position(g, pos={0: 20, 1: 8, 2: 3, 3: 40}, order=[0, 1, 2, 3], turn=2), *roll(2, 3))
    assert s.actor == CHANCE and s.legal_actions()[0].startswith("fight:")


def test_bonus_cards_are_shared_by_the_two_racers() -> None:
    """Changes in a 2-player game, Bonus cards: "All bonus cards are held in common between the player's two
    racers and may be used for either racer, no matter who earned them."""
    g = team()
    s = position(g, pos={0: 3, 1: 20, 2: 30, 3: 40}, bmark={0: 2}, order=[0, 1, 2, 3])
    s = play(s, "die:3", "roll", "die:3", "crash:stay-put", "bonus:forward-5")   # earned by Hover
    assert s.view(0)["my_bonus_cards"] == {"forward-5": 1}
    assert whose_turn(s) == "crusher"
    s = play(s, *roll(1, 2))
    assert s.legal_actions() == ["move", "play:forward-5"]
    s = play(s, "play:forward-5")                                                # played by Crusher
    assert s.progress[1] == 28 and s.view(0)["my_bonus_cards"] == {}
    s = play(s, *roll(1, 2))
    assert not any(a.startswith("play:") for a in s.legal_actions()), "Uschi's racers cannot use them"


def end_race(positions: dict[int, int], *turns: list[str], players: int = 2, racers: str = TEAM,
             **kw: object) -> object:
    g = race(players=players, racers=racers, **kw)  # type: ignore[arg-type]
    s = position(g, pos=positions, order=range(len(positions)))
    for actions in turns:
        s = play(s, *actions)
    return s


def test_hendrik_is_the_only_player_with_three_laps() -> None:
    """Changes in a 2-player game, End of the game 1): "If only one racer of one player has earned a third
    lap marker, the owner of that racer has won the race." Example: "Since Hendrik is the only player with a
    racer (red) that has three lap markers at the end of the game, they are declared the winner."""
    s = end_race({0: 140, 1: 100, 2: 130, 3: 135}, roll(4, 5), roll(1, 2), roll(1, 2), roll(1, 2))
    assert s.is_over and s.result.winners == (0,) and s.result.order == (0, 1)  # type: ignore[attr-defined]
    assert "only player" in s.result.reason  # type: ignore[attr-defined]


def test_uschi_wins_with_the_better_second_racer() -> None:
    """End of the game 2): "If at least two racers have three goal [lap] markers, the winner is determined by
    the second racer of those players ... In this case it does not matter which racer is in first position!"
    Example: "Both players have a racer with 3 lap markers (red/orange) ... Uschi is the winner, since her
    second racer (blue) is further ahead as Hendrik's second racer (purple)."""
    s = end_race({0: 140, 1: 100, 2: 120, 3: 141}, roll(4, 5, 6), roll(1, 2), roll(1, 2), roll(4, 6))
    assert s.is_over
    assert list(s.laps) == [3, 2, 2, 3]
    assert standings(s)[0] == 0, "Hendrik's red racer is in first position"
    assert s.result.winners == (1,) and s.result.order == (1, 0)  # type: ignore[attr-defined]
    assert "second racer" in s.result.reason  # type: ignore[attr-defined]


def test_both_racers_finished_beat_one() -> None:
    """SR-A12: a player with both racers finished wins over a player with one."""
    s = end_race({0: 140, 1: 141, 2: 70, 3: 143}, roll(4, 5), roll(4, 5, 6), roll(1, 2), roll(3, 4))
    assert s.is_over and list(s.laps) == [3, 3, 1, 3]
    assert s.result.winners == (0,)  # type: ignore[attr-defined]


def test_three_player_variant_two_racers_each() -> None:
    """3-Player Variant: "With three players you can also choose to play with two racers each. Apply the same
    rules as above." Each player chooses a start racer in turn; own fights by choice; the team end rule."""
    g = race(players=3, two_racers=True, racers="hover,crusher,swifty,steel-jacket,twister,jackal")
    s = g.start(seed=0)
    assert s.owner == (0, 0, 1, 1, 2, 2)
    s = play(s, "first:hover", *roll(1, 2), *roll(2, 3))
    assert s.actor == 1 and s.legal_actions() == ["first:steel-jacket", "first:swifty"]
    s = play(s, "first:steel-jacket", *roll(2, 5), *roll(3, 6))
    assert s.actor == 2 and s.legal_actions() == ["first:jackal", "first:twister"]
    s = play(s, "first:twister")
    assert list(s.order) == [0, 1, 3, 2, 4, 5]
    s = end_race({0: 140, 1: 100, 2: 130, 3: 135, 4: 120, 5: 110}, roll(4, 5), roll(1, 2), roll(1, 2),
                 roll(1, 2), roll(1, 2), roll(1, 2), players=3, two_racers=True,
                 racers="hover,crusher,swifty,steel-jacket,twister,jackal")
    assert s.is_over and s.result.winners == (0,)  # type: ignore[attr-defined]
    assert s.result.order == (0, 1, 2)  # type: ignore[attr-defined]


def test_two_racers_is_the_three_player_variant_only() -> None:
    """3-Player Variant: the option two_racers needs 3 players (OptionError otherwise)."""
    import slipstream

    with pytest.raises(slipstream.OptionError, match="two_racers"):
        slipstream.load("scrap-racer", players=4, two_racers=True)


def test_only_the_choosing_player_may_pick_the_start_racer() -> None:
    """Changes in a 2-player game: the start racer is the first player's choice of their own racers."""
    g = team()
    s = g.start(seed=0)
    with pytest.raises(IllegalActionError):
        s.apply("first:swifty")


def test_the_start_player_chooses_first() -> None:
    """Changes in a 2-player game: "The first player determines a start racer" — the start player (here P2)."""
    g = race(players=2, racers=TEAM, start_seat=1)
    s = g.start(seed=0)
    assert s.actor == 1 and s.legal_actions() == ["first:steel-jacket", "first:swifty"]
    s = play(s, "first:swifty", *roll(1, 2), *roll(1, 3))
    assert s.actor == 0 and list(s.order) == [2, 3]


def test_markers_stay_with_the_racer_that_earned_them() -> None:
    """Changes in a 2-player game shares the bonus **cards** only: bonus markers lie on the racer's dashboard
    (B) 2nd "places it on their dashboard") and boost markers next to it, so a teammate neither adds to them
    nor uses them. Crusher's first marker is no card though Hover holds one; Hover's boost marker is not
    offered to Crusher."""
    g = team()
    s = position(g, pos={0: 3, 1: 20, 2: 30, 3: 40}, bmark={0: 1}, boosts={0: {"turn": 1}},
                 order=[1, 0, 2, 3])
    s = play(s, "die:3", "roll", "die:3")
    assert s.actor == CHANCE, "Crusher holds no boost marker: the double is checked at once"
    s = play(s, "crash:stay-put")
    assert list(s.bonus_markers[:2]) == [1, 1] and whose_turn(s) == "hover"
    s = play(s, "die:2")
    assert s.legal_actions() == ["boost:turn", "roll", "stop"]


def test_in_the_first_round_the_chosen_order_places_the_racers_not_on_the_track() -> None:
    """Crash cards, Clarification, in the team game: "the player order determines the position of those
    racers not on the race track yet". In the first round the start player's second racer comes next in the
    order, so it is the closest racer behind the start racer (Catching Up 2), ahead of the other player's
    racers, whose order is not chosen yet."""
    g = team()
    s = play(g.start(seed=0), "first:crusher", "die:3", "roll", "die:3", "crash:catching-up-2")
    assert s.progress == [2, 0, 0, 0] and whose_turn(s) == "hover"
