"""Highway Heist in words (issue 31): the effect texts of the content agree with the effects the rules run,
the texts are validated with the rest of a content file, the glossary names everything a player meets,
the decisions explain themselves, and the scoreboard counts each seat's part."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import slipstream
from slipstream.engine.hooks import hooks_of
from slipstream.games.highway_heist.content import CONDITION_FORMS, EFFECT_FORMS, Line, parse_line
from slipstream.games.highway_heist.game import HighwayHeist
from slipstream.games.highway_heist.render import glossary, hints, scoreboard
from slipstream.games.highway_heist.types import Stage
from slipstream.games.highway_heist.words import numbers
from tests.playout import random_action

from .helpers import arrange, new
from .test_content import DEFAULT, write

SCENARIOS = ("tank-assault", "semi-heist", "chopper-takedown")
PIECE_WORDS = {"tank": "Tank", "semi_cab": "cab", "semi_trailer": "trailer", "semi": "Semi", "shaw_car": "Shaw's Car",
               "chopper": "Chopper", "self": "your", "roof": "roof"}
"""How a text names each piece a line of the effect language names."""
SELECTOR_WORDS = {"each_pv": "each Player Vehicle", "active_pv": "Active Player Vehicle",
                  "ramsey_pv": "Ramsey's vehicle", "each_enemy_suv": "each Enemy SUV",
                  "pv_in_throw_zone": "behind the Semi's trailer",
                  "pv_with_cargo": "carrying Cargo", "self": "your vehicle", "target": "", "roof": "roof"}
DIRECTION_WORDS = {"north": "North", "south": "South", "east": "East", "west": "West",
                   "toward_active_lane": "toward the Active Player Vehicle's lane", "toward_ramsey": "toward Ramsey",
                   "away_from_ramsey": "away from Ramsey", "choice_ns": "North or South", "choice_any": "any direction"}
IMPLIED = {"enemy_suvs": "slam_damage", "enemy_pegs": "peg_damage", "shaw_car": "shaw_slam",
           "shotgun": "shotgun_damage"}
"""The number an activation deals, which its text must say."""


def _selector(word: str) -> list[str]:
    """The words that say a selector: "next to" and "Tank" for ``pv_adjacent:tank``."""
    head, _, piece = word.partition(":")
    if head == "pv_adjacent":
        return ["next to the", PIECE_WORDS[piece]]
    if head == "pv_same_lane":
        return [f"{PIECE_WORDS[piece]}'s lane"]
    if head == "pv_within1":
        return ["within 1 space of the", PIECE_WORDS[piece]]
    return [SELECTOR_WORDS.get(word, PIECE_WORDS.get(word, word))]


def effect_words(line: Line, track: str, knobs: dict[str, int]) -> list[str]:
    """The words and numbers a text must hold to say ``line`` (an effect)."""
    verb, words = line.verb, line.words
    said: dict[str, Callable[[], list[str]]] = {
        "place_suv": lambda: ["Enemy SUV", "behind" if words[0] == "behind" else "in front", *_selector(words[1])],
        "place_suv_lane": lambda: ["Enemy SUV", f"column {line.number}", DIRECTION_WORDS[words[0]]],
        "place_peg": lambda: ["Enemy Peg", *_selector(words[0])],
        "activate": lambda: [{"enemy_suvs": "Every Enemy SUV", "enemy_pegs": "Every Enemy Peg",
                              "shaw_car": "Shaw's Car", "shotgun": "Shotgun"}[words[0]]],
        "damage": lambda: ["damage", *_selector(words[0])], "damage_one": lambda: ["damage", *_selector(words[0])],
        "shoot": lambda: ["cannon", DIRECTION_WORDS[words[0]]],
        "missile": lambda: ["Missile", str(knobs["missile_damage"]), str(knobs["missile_splash"])],
        "main_move": lambda: [DIRECTION_WORDS[words[0]]],
        "track": lambda: [track], "door": lambda: ["door", "open" if words == ("open",) else "closed"],
        "cargo_back": lambda: ["Cargo back"], "cargo_to": lambda: ["Cargo"], "ramsey_to": lambda: ["Ramsey"],
        "wreck": lambda: ["Wreck"], "remove_wreck": lambda: ["removed"], "remove_peg": lambda: ["Enemy Peg"],
        "remove_peg_adjacent": lambda: ["one more"], "win": lambda: ["the team wins"],
        "if_enemy_peg": lambda: ["If an Enemy Peg", PIECE_WORDS[words[0]]],
        "move": lambda: ["move", *(["Shaw's Car"] if words[0] == "shaw_car" else []),
                         *(["space it left"] if "follow" in words else []),
                         *(["behind the trailer"] if "throw_zone" in words else [])],
    }
    out = [w for w in said[line.verb]() if w]
    if verb == "activate" and words and words[0] in IMPLIED:
        out.append(str(knobs[IMPLIED[words[0]]]))
    if line.number and verb != "place_suv_lane":
        out.append(str(abs(line.number)))
    for then in line.then:
        out += effect_words(then, track, knobs)
    return out


def condition_words(line: Line, track: str) -> list[str]:
    """The words and numbers a text must hold to say ``line`` (a Condition)."""
    verb, words, n = line.verb, line.words, line.number
    piece = PIECE_WORDS.get(words[-1], "") if words else ""
    said: dict[str, list[str]] = {
        "manned": ["behind the wheel"], "on_foot": ["on foot"], "on_top": ["on foot on", piece],
        "not_on_top": ["not on", piece], "on_semi": ["on foot on the Semi"],
        "roof_adjacent": ["roof next to the", piece], "roof_within": ["roof within", piece],
        "vehicle_adjacent": ["next to", piece], "vehicle_within": [piece],
        "vehicle_directly_in_front": ["directly in front of", piece],
        "vehicle_directly_behind": ["directly behind", piece], "vehicle_west_of": ["West of", piece],
        "vehicle_in_throw_zone": ["behind the Semi's trailer"], "enemy_peg_on": ["Enemy Peg"],
        "enemy_peg_on_semi": ["Semi with an Enemy Peg"],
        "track_at_least": [track.split()[0], "secured" if track.startswith("Cargo") else "or more"],
        "door_open": ["door open"], "door_closed": ["door is closed"], "cargo_in_semi": ["Cargo"],
        "carries_ramsey": ["Ramsey's vehicle"], "player_pegs_on_semi": ["Player Pegs are on it"],
        "player_peg_on": ["Player Peg is on its", piece], "throw_zone_has_empty": ["empty space"],
        "target": ["Enemy SUV" if words == ("enemy_suv",) else "Player Vehicle"],
        "target_adjacent": ["next to"], "target_directly_beside": ["directly beside"],
        "target_same_lane": ["lane", piece], "target_east_of": ["East of", piece], "target_within": ["within", piece],
        "target_in_throw_zone": ["behind the trailer"],
    }
    out = [w for w in said[verb] if w]
    if n:
        out.append(str(n))
    return out


def missing(text: str, wanted: list[str]) -> list[str]:
    """What ``text`` fails to say: each wanted word (case aside), each number as a whole number."""
    low = text.lower()
    return [w for w in wanted
            if not (re.search(rf"(?<![\d]){w}(?![\d])", text) if w.isdigit() else w.lower() in low)]


def shipped() -> Iterator[tuple[str, str, str, list[str]]]:
    """(scenario, record, its text as a player reads it, what that text must say) for every effect text of
    the shipped content: each Enemy card's Reveal and Activated texts, each Stunt card's and scenario
    action's text (Condition and Reward), each scenario's two arrows of the Enemy Die."""
    for scenario in SCENARIOS:
        game = slipstream.load("highway-heist", scenario=scenario)
        assert isinstance(game, HighwayHeist)
        words, knobs = game.words, numbers(game.content.model, game.scenario)
        track = game.scenario.track_name
        for card in game.enemy_cards.values():
            for lines, text, part in ((card.reveal, words.reveal[card.id], "reveal"),
                                      (card.activated, words.activated[card.id], "activated")):
                if not lines:  # no Activated effect: the content's model refuses a text for it
                    continue
                wanted = [w for line in lines for w in effect_words(line, track, knobs)]
                yield scenario, f"{card.id} {part}", text, wanted
        for action in [*game.stunt_cards.values(), *game.scenario_actions.values()]:
            wanted = [w for line in action.condition for w in condition_words(line, track)]
            wanted += [w for line in action.reward for w in effect_words(line, track, knobs)]
            yield scenario, action.id, words.card_texts[action.id], wanted
        for face, lines in (("main_left", game.main_left), ("main_right", game.main_right)):
            wanted = [w for line in lines for w in effect_words(line, track, knobs)] + [words.main_enemy]
            yield scenario, face, words.face_texts[face], wanted


@pytest.mark.parametrize(("scenario", "record", "text", "wanted"),
                         [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in shipped()])
def test_every_effect_text_says_what_its_effect_does(scenario: str, record: str, text: str, wanted: list[str]) -> None:
    """Each shipped text names what its lines of the effect language do (who is hit, what is placed, which
    way the Main Enemy moves, what the Condition asks) and every number in them (damage, distance,
    columns, track steps, and the damage an activation deals): a card retuned in its numbers fails here
    until its text is told."""
    assert text
    assert not missing(text, wanted), f"{record}: {text!r} does not say {missing(text, wanted)}"


def test_the_agreement_check_catches_a_text_that_disagrees() -> None:
    """The check above can fail: a Coaxial Gun that said 3 damage, a Side Swipe that forgot its target."""
    coaxial = [parse_line("damage 2 pv_adjacent:tank", EFFECT_FORMS)]
    knobs = numbers(new().g.content.model, new().g.scenario)
    wrong = "Each Player Vehicle next to the Tank takes 3 damage."
    assert missing(wrong, [w for line in coaxial for w in effect_words(line, "Tank Damage", knobs)]) == ["2"]
    swipe = [parse_line(text, CONDITION_FORMS)
             for text in ("manned", "target enemy_suv", "target_directly_beside self")]
    vague = "Behind the wheel: wreck something."
    assert missing(vague, [w for line in swipe for w in condition_words(line, "Tank Damage")]) == [
        "Enemy SUV", "directly beside"]


def test_texts_are_filled_with_the_contents_numbers(tmp_path: Path) -> None:
    """A text names a number of the content in braces; a changed number changes the text a player reads."""
    harder = DEFAULT.replace("slam_damage = 3", "slam_damage = 4", 1)
    game = slipstream.load("highway-heist", content=write(tmp_path, harder))
    assert isinstance(game, HighwayHeist)
    assert "slams an adjacent Player Vehicle for 4 damage" in game.words.terms["enemy-suv"].text
    assert "for 4 damage" in game.words.activated["ta-e03"]


def test_a_users_names_and_texts_are_what_a_player_reads(tmp_path: Path) -> None:
    renamed = DEFAULT.replace('name = "Coaxial Gun"', 'name = "Machine Gun Nest"', 1).replace(
        "Each Player Vehicle next to the Tank takes 2 damage.", "Every car beside the Tank takes 2 damage.", 1)
    game = slipstream.load("highway-heist", content=write(tmp_path, renamed))
    assert hooks_of(game).describe_action is not None
    assert hooks_of(game).describe_action(game, "enemy-card:ta-e07") == "the Enemy card Machine Gun Nest is drawn"
    assert glossary(game)["ta-e07"].name == "Machine Gun Nest"
    assert "Every car beside the Tank takes 2 damage." in glossary(game)["ta-e07"].text


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_glossary_names_everything_a_player_meets(scenario: str) -> None:
    """Every character, vehicle and Special Power in play, every action, piece and enemy, both dice's faces,
    every Enemy card, Stunt card and scenario action of the scenario: each with a name, a text and a kind."""
    game = slipstream.load("highway-heist", players=4, scenario=scenario)
    assert isinstance(game, HighwayHeist)
    terms = glossary(game)
    wanted = {scenario, game.scenario.track, *(c.id for c in game.characters), *(c.power for c in game.characters),
              *(b.id for b in game.boards), *(b.power for b in game.boards if b.power != "none"),
              "ram", "force", "shake", "brawl", "hijack", "drive", "leap", "take_boost",
              "enemy-suv", "enemy-peg", "wreck", "abandoned", "tank", "semi-cab", "semi-trailer", "shaw-car", "chopper",
              "ramsey", "cargo", *(f"enemy-die:{f}" for f in game.content.model.enemy_die.faces),
              "effort:success", "effort:boost", "effort:blank", *game.enemy_cards, *game.stunt_cards,
              *game.scenario_actions}
    assert wanted <= set(terms), wanted - set(terms)
    assert all(t.name and t.text and t.kind for t in terms.values())
    assert terms["ta-s1a" if scenario == "tank-assault" else next(iter(game.stunt_cards))].kind == "Stunt card"
    stunt = next(iter(game.stunt_cards.values()))
    assert f"{game.words.card_rolls[stunt.id]}." in terms[stunt.id].text


def test_glossary_texts_of_a_card_and_a_board() -> None:
    terms = glossary(slipstream.load("highway-heist"))
    assert terms["ta-e07"].text == ("When revealed: An Enemy SUV appears directly behind the Active Player Vehicle. "
                                    "When it reaches ACTIVATE!: Each Player Vehicle next to the Tank takes 2 damage.")
    assert terms["ta-e01"].text.endswith("No Activated effect.")
    assert terms["exotic-supercar"].text.startswith("Speed 2, Control 1, Athletics 1, Defense 1 (vehicle icons); "
                                                    "Strength 6. Thoroughbred: While this vehicle")
    assert terms["hijacked-suv"].text.endswith("Strength 5. No Special Power.")
    assert terms["enemy-die:main_left"].text.startswith("The Tank moves one lane North")
    assert terms["ram"].text.endswith("Speed roll, 3 successes needed.")


def test_the_first_decision_of_each_kind_says_what_it_does() -> None:
    """Round 1: whose turn (the team picks), the actions, an Assist; a choice inside an effect every time."""
    s = slipstream.load("highway-heist", players=2).start(seed=1).apply_chance()
    assert s.stage is Stage.CHOOSE_TURN
    assert hints(s, 1)[0] == "Choose who plays next: any player not yet Exhausted this round may take the turn."
    s = arrange(new(), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)]).apply("force:c3l3")
    while s.stage is not Stage.CHOICE:
        best = max(s.legal_actions(), key=lambda a: a.split(":")[-1]) if s.stage is Stage.ROLL else None
        s = s.apply(best or s.legal_actions()[-1])
    assert hints(s, 0)[0] == "Choose where the vehicle you Force goes."
    assert s.view(0)["choice"]["text"] == "Choose where the vehicle you Force goes."
    assert s.view(0)["choice"]["labels"][0].startswith("move it to column ")


def test_the_coming_activated_effect_is_said_in_the_hints() -> None:
    s = new()
    s.enemy_row = ("", "ta-e07", "")
    assert hints(s, 0)[-1] == ("next to reach ACTIVATE! (at the next Enemy Card face): Coaxial Gun: Each Player "
                               "Vehicle next to the Tank takes 2 damage.")


def test_the_scoreboard_counts_each_seats_part() -> None:
    """Per seat: Skill Rolls won and lost, Stunts made, Assists given and damage taken, counted over the
    match: the same numbers as counting the events and actions of a replay by hand."""
    game = slipstream.load("highway-heist", players=3)
    rng = random.Random(11)
    s = game.start(seed=11)
    won, lost, assists, taken = [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]
    while s.actor is not None:
        action = random_action(s, rng)
        roller = s.roll.seat if s.roll is not None else -1
        before = list(s.damage)
        if action.endswith(":assist"):
            assists[int(action.split(":")[0])] += 1
        s = s.apply(action)
        kinds = [e.kind for e in s.events]
        won[roller] += "success" in kinds
        lost[roller] += "fail" in kinds
        if "defense" in kinds:
            taken[roller] += s.damage[roller] - before[roller]
    board = scoreboard(s)
    assert list(board) == [0, 1, 2] and all(list(row) == list(board[0]) for row in board.values())
    assert [int(board[seat]["Skill Rolls won"]) for seat in range(3)] == won
    assert [int(board[seat]["Skill Rolls lost"]) for seat in range(3)] == lost
    assert [int(board[seat]["Assists given"]) for seat in range(3)] == assists
    assert [int(board[seat]["Damage taken"]) for seat in range(3)] == taken
    assert sum(won) + sum(lost) > 0 and sum(assists) > 0
    assert hooks_of(game).scoreboard is scoreboard


def test_the_game_describes_itself() -> None:
    description = HighwayHeist.description
    assert "cooperative" in description and "2 to 4 players" in description
    assert 2 <= description.count(". ") + 1 <= 3
