"""Issue 31, the server's side of the pages outside the boards: the catalog says every option in a
player's words (``web/lobby.py``), a seat's state says whether its view holds anything private and, at the
end, the game's scoreboard (``web/protocol.py``); the finished list names the winner, also of a race the
server no longer holds in memory; the rules page opens with how to play and is rendered once."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

import slipstream
from slipstream.engine.game import CHANCE
from slipstream.engine.registry import game_class, games
from slipstream.web import lobby
from slipstream.web.protocol import holds_private, seat_payload
from tests import toykart
from tests.per_game import players_near
from tests.web.server import Server

REAL_GAMES = sorted(g for g in games() if not g.startswith("toy-"))
RULE_CODE = re.compile(r"\b[A-Z]{2,3}-[A-Z]{1,2}\d+\b")
"""A rulebook gap or decision code (SR-G8, RIU-A10, HH-X3): for the docs, not for a player."""
DEVELOPER_WORDS = ("0-based", "comma-separated", " ids", " id ", ".toml", ".json", "content file", "path")


def catalog_of(game_id: str) -> dict[str, Any]:
    return next(g for g in lobby.catalog() if g["id"] == game_id)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_every_option_in_the_lobby_is_said_for_a_player(game_id: str) -> None:
    """No rulebook codes, file names or "comma-separated ids" in what the lobby shows, no option that names
    a file on the server, a description and a how-to-play page for each game."""
    entry = catalog_of(game_id)
    assert entry["description"] and entry["rules"] == f"/rules/{game_id}"
    assert (lobby.HOW_TO_PLAY / f"{game_id}.md").is_file()
    assert "content" not in [o["name"] for o in entry["options"]]
    for option in entry["options"]:
        shown = " ".join([option["label"], option["help"], *option["choice_labels"].values()])
        assert not RULE_CODE.search(shown), (option["name"], shown)
        assert not any(word in shown for word in DEVELOPER_WORDS), (option["name"], shown)


def test_seat_options_count_from_one_and_racers_are_picked_per_seat() -> None:
    options = {o["name"]: o for o in catalog_of("scrap-racer")["options"]}
    start = options["start_seat"]
    assert start["picker"] == "seat" and start["label"] == "Start player"
    assert start["special"] == [[-1, "drawn at random"]]
    racers = options["racers"]
    assert racers["picker"] == "per-seat" and racers["special"] == [["random", "dealt at random"]]
    assert racers["seat_values"] == [{"players": 2, "options": {}, "count": 2},
                                     {"players": 3, "options": {"two_racers": True}, "count": 2}]
    hidden = {o["name"] for o in catalog_of("highway-heist")["options"]}
    assert "team" not in hidden and {"characters", "vehicles"} <= hidden, "team repeats characters and vehicles"


def test_a_per_seat_option_takes_the_glossarys_names() -> None:
    toykart.install()
    try:
        option = next(o for o in catalog_of("toy-kart")["options"] if o["name"] == "karts")
    finally:
        from slipstream.engine import registry

        registry._GAMES.pop(toykart.ToyKart.id, None)
    assert option["choices"] == list(toykart.KARTS)
    assert option["choice_labels"]["kart-blue"] == "Blue Comet"
    assert option["choice_texts"]["kart-blue"] == "Never stalls on a 1."


NAMED = [g for g in REAL_GAMES if any(s.lobby.terms and not s.lobby.hidden for s in game_class(g).option_specs)]
"""Games with an option whose value names their things (racers, tracks, courses...)."""


@pytest.mark.parametrize("game_id", NAMED)
def test_every_named_option_finds_its_names_in_the_glossary(game_id: str) -> None:
    """An option whose value names racers, characters, vehicles, items, tracks or courses lists them by
    the glossary's names of the default game (the kind it asks for exists there), and every id listed is
    one the game accepts."""
    cls = game_class(game_id)
    named = [s for s in cls.option_specs if s.lobby.terms and not s.lobby.hidden]
    entry = {o["name"]: o for o in catalog_of(game_id)["options"]}
    for spec in named:
        option = entry[spec.name]
        assert option["choices"], f"{spec.name}: no {spec.lobby.terms!r} in the glossary"
        for value in option["choices"]:
            assert option["choice_labels"][value] != value
            if not spec.lobby.per_seat and not spec.lobby.several:
                slipstream.load(game_id, **{spec.name: value})  # accepted


def test_a_view_is_private_when_it_shows_what_spectators_do_not() -> None:
    public = {"seat": None, "hand": None, "cart": [], "positions": [1, 2], "legal_actions": None}
    assert not holds_private({**public, "seat": 0, "legal_actions": ["roll"]}, public), "who looks is no secret"
    assert not holds_private({**public, "cart": []}, public), "an empty cart shows nothing"
    assert holds_private({**public, "hand": "gem-amber"}, public)
    assert holds_private({**public, "cars": [{"tyre": "soft"}]}, {**public, "cars": [{"tyre": None}]})


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_private_views_of_the_real_games(game_id: str) -> None:
    """Highway Heist and Rush 'n' Crush show everyone everything: no seat's view is ever private, so
    hot-seat never asks to pass the device. Rev it Up's views are private only while a seat's secret
    choice or cart is there (its simultaneous turns mostly show nothing private)."""
    import random

    game = slipstream.load(game_id, players=players_near(game_id, 2))
    state = game.start(seed=11)
    rng = random.Random(11)
    private = steps = 0
    while not state.is_over and steps < 250:
        for seat in game.seats:
            private += seat_payload(state, seat, text_board=False)["private"]
        outcomes = state.chance_outcomes() if state.actor == CHANCE else None
        if outcomes:
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
        steps += 1
    if game_id in ("highway-heist", "rush-n-crush"):
        assert private == 0
    elif game_id == "rev-it-up":
        assert 0 < private < steps, (private, steps)


def test_the_rules_page_opens_with_how_to_play_and_is_rendered_once(tmp_path: Path, monkeypatch: Any) -> None:
    cls = game_class("brc-grand-prix")
    page = lobby.rules_page(cls)
    assert page is not None
    body = page.split('<main class="rules-text card" id="rules">', 1)[1]
    assert re.match(r"\s*<section id=\"how-to-play\"[^>]*><h1>How to play BRC Grand Prix</h1>", body), body[:200]
    assert body.index('id="how-to-play"') < body.index('<details id="reference"') < body.index("Gap decisions")
    started = time.perf_counter()
    again = lobby.rules_page(cls)
    assert again is page and time.perf_counter() - started < 0.005, "kept, not rendered again"
    teach = tmp_path / "brc-grand-prix.md"
    teach.write_text("# How to play, changed\n", encoding="utf-8")
    monkeypatch.setattr(lobby, "HOW_TO_PLAY", tmp_path)
    changed = lobby.rules_page(cls)
    assert changed is not None and "How to play, changed" in changed, "an edited file is rendered again"


def test_the_end_of_a_race_carries_the_scoreboard_and_the_finished_list_its_winner(tmp_path: Path) -> None:
    """Toy Kart between three bots: the state at the end carries the scoreboard (the same columns for
    every seat); the finished list names the game and the winner, also after a restart, when the race
    is no longer in memory and is replayed from its moves."""
    srv = Server(str(tmp_path / "lobby.sqlite3"), tmp_path / "server.log").start()
    try:
        client = srv.client()
        made = client.ok("POST", "/api/matches", json={"game": "toy-kart", "players": 3, "public": True,
                                                       "bots": {"0": "random", "1": "random", "2": "random"}})
        mid = made["id"]
        client.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
        deadline = time.monotonic() + 60
        while client.ok("GET", f"/api/matches/{mid}")["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' race did not end"
            time.sleep(0.1)
        state = client.ok("GET", f"/api/matches/{mid}/state")
        board = state["scoreboard"]
        assert board["columns"] == ["Place", "Spaces", "Sprinted"]
        assert [row[1] for row in board["values"]] == [str(p) for p in state["view"]["positions"]]
        assert state["private"] is False, "a spectator's view is never private"

        def listed() -> dict[str, Any]:
            rows = client.ok("GET", "/api/matches?status=finished")
            return next(r for r in rows if r["id"] == mid)

        row = listed()
        winner = state["match"]["seats"][state["result"]["winners"][0]]["name"]
        assert row["game_name"] == "Toy Kart" and row["result"]["winners"] == [winner]
        assert row["updated_at"] >= row["created_at"]
        client.http.close()
        srv.stop()
        srv.start()
        client = srv.client()
        again = listed()
        assert again["result"] == row["result"], "replayed from the database after a restart"
        client.http.close()
    finally:
        srv.stop()


def test_every_scenario_and_character_is_named_not_only_the_defaults() -> None:
    """Highway Heist's default game holds one scenario and four characters: the lobby names the other
    scenarios and Han and Tej too (each from its own game's glossary), never by their ids."""
    options = {o["name"]: o for o in catalog_of("highway-heist")["options"]}
    scenarios = options["scenario"]
    names = [scenarios["choice_labels"].get(str(value)) for value in scenarios["choices"]]
    assert names == ["Tank Assault", "Semi Heist", "Chopper Takedown"], names
    characters = options["characters"]["choice_labels"]
    assert {"Han", "Tej"} <= set(characters.values()) and "han" not in characters.values()


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_every_choice_a_player_picks_in_the_lobby_has_a_name(game_id: str) -> None:
    """Each value offered in a list is named by the game (a picker's words or the glossary), never left
    to the page to spell out its id ("beast", "tank-assault"); numbers are words already."""
    for option in catalog_of(game_id)["options"]:
        for value in option["choices"] or []:
            if isinstance(value, int):
                continue
            label = option["choice_labels"].get(str(value))
            assert label and label != value, (option["name"], value)


def test_highway_heist_scenarios_and_difficulties_are_named_and_described() -> None:
    """The lobby offered "beast" and no word on what a scenario or a difficulty is: each is named, and
    the one picked is described under its list."""
    options = {o["name"]: o for o in catalog_of("highway-heist")["options"]}
    difficulty = options["difficulty"]
    assert [difficulty["choice_labels"][v] for v in difficulty["choices"]] == ["Easy", "Standard", "Hard",
                                                                               "It's a Beast!"]
    assert difficulty["choice_texts"]["beast"].startswith("5 Stunt cards in the deck")
    assert difficulty["choice_texts"]["easy"].startswith("9 Stunt cards in the deck")
    scenario = options["scenario"]
    assert scenario["choice_texts"]["semi-heist"].startswith("Rob the Semi")
    assert all(scenario["choice_texts"][v] for v in scenario["choices"])
