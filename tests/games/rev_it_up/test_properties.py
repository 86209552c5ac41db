"""Properties over random races: chips are conserved, no seat sees another's pending choice."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import slipstream
from slipstream.engine.fields import declarations_in_source
from slipstream.games.rev_it_up import rules
from slipstream.games.rev_it_up import state as state_module
from slipstream.games.rev_it_up.state import RevState
from slipstream.games.rev_it_up.types import Stage
from tests.playout import random_states

from .helpers import choice_of, draws, force, new, refresh

OPTIONS = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "side": st.sampled_from(["standard", "asymmetric"]),
        "podium": st.integers(1, 3),
        "overheat_penalty": st.sampled_from(["none", "lose_move"]),
        "recall_returns_to_supply": st.booleans(),
        "max_chips_per_buy": st.integers(0, 2),
        "items": st.sampled_from(["", "caltrops,shockwave,emp,slipstream,loose-change,heat-sink"]),
    }
)


def playout(options: dict[str, Any], seed: int, max_plies: int = 4000) -> list[RevState]:
    opts = dict(options)
    players = opts.pop("players")
    if opts["side"] == "asymmetric":
        opts["characters"] = ",".join(f"racer-{i}" for i in (5, 9, 1, 2, 6, 8)[:players])
    state = slipstream.load("rev-it-up", players=players, **opts).start(seed=seed)
    assert isinstance(state, RevState)
    return random_states(state, random.Random(seed), max_plies - 1, must_end=False)  # type: ignore[return-value]


def chip_count(s: RevState) -> list[int]:
    g = s.game
    count = list(s.supply)
    for seat in range(g.players):
        for k in range(g.kind_count):
            count[k] += s.bags[seat][k] + s.discards[seat][k]
        for k in s.rev_chips[seat]:
            count[k] += 1
        if s.drawn[seat] >= 0:
            count[s.drawn[seat]] += 1
    return count


@settings(max_examples=25, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_chips_are_conserved(options: dict[str, Any], seed: int) -> None:
    """Every chip is in exactly one place: a bag, drawn, a Rev Track, a discard or the supply."""
    states = playout(options, seed)
    first = chip_count(states[0])
    for s in states:
        assert chip_count(s) == first
        assert s.invariant_problems() == []
        assert all(len(s.ready[seat]) <= s.game.ready_capacity for seat in range(s.game.players))


@settings(max_examples=15, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_no_seat_sees_another_seats_pending_choice(options: dict[str, Any], seed: int) -> None:
    """Simultaneous play: whatever a seat chooses, while another seat is still choosing that other
    seat's view and visible events are the same (it may learn only that the seat has chosen)."""
    checked = 0
    for s in playout(options, seed, max_plies=1500):
        actor = s.actor
        if not isinstance(actor, frozenset) or len(actor) < 2:
            continue
        for seat in sorted(actor):
            others = [t for t in actor if t != seat]
            mine = s.legal_actions(seat)
            if s.stage is Stage.BUY:
                mine = [a for a in mine if not a.endswith(":done")]
            seen: dict[int | None, Any] = {}
            for action in mine:
                after = s.apply(action)
                for t in [None, *others]:
                    picture = (after.view(t), [e.text for e in after.events if e.visible_to(t)])
                    if t in seen:
                        assert picture == seen[t], (action, t)
                    else:
                        seen[t] = picture
                checked += 1
    assert checked > 0


_SOURCE = (Path(state_module.__file__).parent / "state.py").read_text()
FIELDS = [name for name, _ in declarations_in_source(_SOURCE)["RevState"]]


def raw(s: RevState) -> str:
    """Every piece of a state's data (copy on write must never change a state someone holds)."""
    return repr([getattr(s, n) for n in FIELDS])


@settings(max_examples=10, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_apply_never_changes_the_state_it_was_called_on(options: dict[str, Any], seed: int) -> None:
    """States are values: every legal action from every state leaves that state's data as it was."""
    for s in playout(options, seed, max_plies=600)[::3]:
        before = raw(s)
        for action in s.legal_actions()[:6]:
            s.apply(action)
            assert raw(s) == before, action


def test_determinize_redraws_the_choices_a_seat_cannot_see() -> None:
    """Simultaneous play: a seat sees only *that* another seat has chosen, so ``determinize(seat)``
    redraws that choice (stop or go; an item or pass) and keeps the seat's own."""
    s = draws(new(players=3), "coin-1", "coin-1", "coin-1").apply("1:stop").apply("0:go")
    seen = {choice_of(s.determinize(0, random.Random(i)), 1) for i in range(40)}
    assert seen == {"go", "stop"}
    assert {choice_of(s.determinize(0, random.Random(i)), 0) for i in range(40)} == {"go"}
    t = new()
    force(t, 1, ready=("sponsor",))
    force(t, 0, ready=("sponsor",))
    t = draws(t, "coin-1", "coin-1")
    t = t.apply("0:go").apply("1:go").apply("1:use:sponsor")
    assert {choice_of(t.determinize(0, random.Random(i)), 1) for i in range(40)} == {"pass", "use:sponsor"}


def fresh(s: RevState) -> RevState:
    """A copy of ``s`` with every cache dropped (options, legal actions)."""
    return refresh(s.copy())


@settings(max_examples=12, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_the_fast_paths_agree_with_the_rules_worked_out_afresh(options: dict[str, Any], seed: int) -> None:
    """The caches (each seat's options at a simultaneous choice, the draw's chance table shared by
    equal bags, the legal actions) give what the rules give when worked out from scratch: a draw is
    each chip kind in the drawer's bag with probability count/total (Turn Structure 1), and a seat's
    options are its own ``rules.seat_options``."""
    for s in playout(options, seed, max_plies=800):
        f = fresh(s)
        assert s.legal_actions() == f.legal_actions() == sorted(set(f._legal()))
        actor = s.actor
        if actor == "chance" and s.stage is Stage.DRAW:
            bag = s.bags[s.current]
            total = sum(bag)
            want = {f"chip:{s.game.kinds.names[k]}": n / total for k, n in enumerate(bag) if n}
            assert dict(s.chance_outcomes()) == want
        if isinstance(actor, frozenset):
            every: list[str] = []
            for seat in sorted(actor):
                mine = sorted(f"{seat}:{a}" for a in rules.seat_options(f, seat))
                assert s.legal_actions(seat) == mine == f.legal_actions(seat)
                every += mine
            assert s.legal_actions() == every
