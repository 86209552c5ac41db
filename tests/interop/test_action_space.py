"""Each game's ``action_space`` hook: complete (every legal action and chance outcome met in seeded
playouts over many options is in it), stable, and what the interop specs number."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import slipstream
from slipstream.engine import CHANCE, ActionSpace, Game, OptionError, State, hooks_of, load
from slipstream.engine import hooks as engine_hooks
from slipstream.interop.pettingzoo import env
from slipstream.interop.spec import (
    HOOK,
    PLAYED,
    SHIPPED,
    GameSpec,
    IncompleteActionSpaceError,
    build_spec,
    seat_actions,
    spec_for,
    spec_for_game,
)
from tests import toygame
from tests.per_game import SHIPPED_SPEC, game_ids, games_with

PLIES = 6000
"""A playout stops here if it has not ended (every game's random races end well before)."""


def space_of(game: Game) -> ActionSpace:
    hook = hooks_of(game).action_space
    assert hook is not None, f"{game.id} declares no action_space"
    return hook(game)


def _items(draw: st.DrawFn) -> str:
    """Rev it Up: one item of each type (Setup 2), each type's first or second card."""
    pairs = (("oil-slick", "caltrops"), ("rocket", "shockwave"), ("sticky-bomb", "emp"), ("turbo", "slipstream"),
             ("sponsor", "loose-change"), ("shield", "heat-sink"))
    return ",".join(draw(st.sampled_from(pair)) for pair in pairs)


def _ids(draw: st.DrawFn, ids: list[str], players: int) -> str:
    return ",".join(draw(st.permutations(ids))[:players])


TEXT_OPTIONS: dict[str, dict[str, Any]] = {
    "scrap-racer": {"track": lambda draw, n: draw(st.sampled_from(["A", "B", "C"]))},
    "rev-it-up": {
        "track": lambda draw, n: draw(st.sampled_from(["standard", "short", "grand"])),
        "items": lambda draw, n: _items(draw),
        "characters": lambda draw, n: _ids(draw, [f"racer-{i}" for i in range(1, 10)], n),
    },
    "rush-n-crush": {"course": lambda draw, n: draw(st.sampled_from(["sprint", "grand-prix", "ring", "oval"]))},
    "highway-heist": {
        "characters": lambda draw, n: _ids(draw, ["dom", "brian", "letty", "roman", "tej", "han"], n),
        "vehicles": lambda draw, n: _ids(draw, ["exotic-supercar", "street-drifter", "american-muscle",
                                                "import-racer"], n),
    },
}
"""Values for the options that take free text (a track, item or character list), by game."""


@st.composite
def configurations(draw: st.DrawFn, game_id: str) -> tuple[int, dict[str, Any]]:
    """A player count and a value for every option: its choices, both booleans, small whole numbers,
    the free-text values above; a content file stays the shipped one."""
    cls = slipstream.available_games()[game_id]
    players = draw(st.integers(cls.min_players, cls.max_players))
    options: dict[str, Any] = {}
    for option in cls.option_specs:
        text = TEXT_OPTIONS.get(game_id, {}).get(option.name)
        if text is not None:
            options[option.name] = text(draw, players)
        elif option.choices is not None:
            options[option.name] = draw(st.sampled_from(option.choices))
        elif option.kind is bool:
            options[option.name] = draw(st.booleans())
        elif option.kind is int and option.minimum is not None and option.maximum is not None:
            options[option.name] = draw(st.integers(option.minimum, min(option.maximum, option.minimum + 3)))
    return players, options


def check_playout(game: Game, space: ActionSpace, seed: int) -> int:
    """Play one seeded race, half the decisions the action least tried so far in it, half at random,
    and check that every legal action of every seat and every chance outcome is in ``space``. Returns
    the positions checked."""
    actions, chance = frozenset(space.actions), frozenset(space.chance)
    rng = random.Random(seed)
    tried: Counter[str] = Counter()
    state: State = game.start(seed=seed)
    positions = 0
    while state.actor is not None and state.ply < PLIES:  # not play(): every position is checked
        positions += 1
        actor = state.actor
        if actor == CHANCE:
            outcomes = [a for a, _ in state.chance_outcomes()]
            assert set(outcomes) <= chance, f"{game.id} {game.options}: {sorted(set(outcomes) - chance)}"
            state = state.apply_chance()
            continue
        seats = sorted(actor) if isinstance(actor, frozenset) else [actor]
        for seat in seats:
            offered = seat_actions(state, seat)
            assert set(offered) <= actions, f"{game.id} {game.options}: {sorted(set(offered) - actions)}"
        legal = state.legal_actions(rng.choice(seats))
        if rng.random() < 0.5:
            fewest = min(tried[a] for a in legal)
            legal = [a for a in legal if tried[a] == fewest]
        choice = rng.choice(legal)
        tried[choice] += 1
        state = state.apply(choice)
    return positions


@pytest.mark.parametrize("game_id", games_with("action_space"))
@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_legal_action_met_is_in_the_declared_space(game_id: str, data: st.DataObject) -> None:
    """Seeded playouts over random options and player counts never meet an action or a chance outcome
    outside the game's ``action_space``."""
    players, options = data.draw(configurations(game_id))
    try:
        game = load(game_id, players=players, **options)
    except OptionError:
        reject()
    space = space_of(game)
    assert list(space.actions) == sorted(set(space.actions)) and list(space.chance) == sorted(set(space.chance))
    assert not any(a.split(":", 1)[0].isdigit() for a in space.actions), "no seat prefixes"
    assert check_playout(game, space, data.draw(st.integers(0, 2**31))) > 0


@pytest.mark.parametrize("game_id", games_with("action_space", SHIPPED_SPEC))
def test_the_space_is_stable_and_numbers_the_shipped_spec(game_id: str) -> None:
    """Same game and options, same list; the shipped spec's actions and chance outcomes are exactly the
    union of the declared spaces over its configurations, sorted (docs/interop.md, "The action space")."""
    spec = GameSpec.from_json(json.loads((SHIPPED / f"{game_id}.json").read_text()))
    assert spec.numbering == HOOK
    actions: set[str] = set()
    chance: set[str] = set()
    for players, options in spec.configs:
        first = space_of(load(game_id, players=players, **options))
        assert first == space_of(load(game_id, players=players, **options))
        actions.update(first.actions)
        chance.update(first.chance)
    assert spec.actions == tuple(sorted(actions)) and spec.chance == tuple(sorted(chance))


def test_options_outside_the_specs_configurations_get_their_actions_numbered_after_the_rest() -> None:
    """A loaded game whose declared space holds strings the game's spec lacks (here: fewer items in the
    shipped spec) gets a spec with those strings after the others; the others keep their numbers."""
    base = spec_for("rev-it-up")
    short = replace(base, actions=tuple(a for a in base.actions if "rocket" not in a))
    game = load("rev-it-up", players=3)
    wider = short.covering(space_of(game))
    assert wider.actions[: len(short.actions)] == short.actions
    assert set(wider.actions[len(short.actions):]) == {a for a in space_of(game).actions if "rocket" in a}
    assert spec_for_game(game) is base, "the shipped spec already covers the default options"


def test_a_spec_build_names_an_action_the_hook_forgot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build checks every legal action its playouts meet against the declared space."""
    game_cls = slipstream.available_games()["scrap-racer"]
    declared = hooks_of(game_cls)
    full = declared.action_space
    assert full is not None

    def without_roll(game: Game) -> ActionSpace:
        space = full(game)
        return replace(space, actions=tuple(a for a in space.actions if a != "roll"))

    monkeypatch.setitem(engine_hooks._CACHE, game_cls, replace(declared, action_space=without_roll))
    with pytest.raises(IncompleteActionSpaceError, match="'roll'"):
        build_spec("scrap-racer", configs=[(2, {})], playouts=2, view_playouts=1)


def test_a_game_without_the_hook_keeps_the_playout_path() -> None:
    """The toy game declares no action_space: its spec is built from what the playouts meet."""
    toygame.install()
    try:
        spec = build_spec(toygame.ToyDash.id, configs=[(2, {})], playouts=6, view_playouts=2)
    finally:
        toygame.uninstall()
    assert spec.numbering == PLAYED and spec.actions


@pytest.mark.filterwarnings("error::UserWarning")
@pytest.mark.parametrize("game_id", game_ids())
def test_a_race_through_the_bridge_raises_no_unseen_action_and_warns_of_no_view_path(game_id: str) -> None:
    """A whole race through PettingZoo on default options: every legal action is numbered and every view
    path (Highway Heist's ``enemy_row_names``, Rush 'n' Crush's events) has slots or is left out on
    purpose, without a warning."""
    aec = env(game_id, observation="full")  # the view's paths: the declared observation reads no view
    aec.reset(seed=11)
    rng = random.Random(11)
    for _agent in aec.agent_iter(50_000):
        observation, _, terminated, truncated, _ = aec.last()
        legal = [i for i, on in enumerate(observation["action_mask"]) if on]
        aec.step(None if terminated or truncated else rng.choice(legal))
    assert aec.state_object.is_over
    assert not aec.table.encoder.unseen
