"""Build Scrap Racer positions readably and drive them with forced chance outcomes.

A scenario starts from ``race(...)`` (fixed racers and start player, so the first state is the first
die roll of the start racer), then ``position(game, pos={...}, ...)`` edits the fresh state's plain data,
and ``play(state, *actions)`` applies the actions (decisions and forced chance outcomes) one by one,
collecting every event. Progress ``p`` (0 = waiting behind the finish line) stands on the 1-based space
``(p - 1) % length + 1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import slipstream
from slipstream.engine import Event
from slipstream.engine.fields import declarations_in_source, replaced
from slipstream.games.scrap_racer import ScrapRacer, ScrapState
from slipstream.games.scrap_racer.content import BOOST_TYPES
from slipstream.games.scrap_racer.content import HERE as CONTENT_DIR
from slipstream.games.scrap_racer.rules import active_racer, begin_turn
from slipstream.games.scrap_racer.types import DeckCounts

FIELDS = [name for name, _ in declarations_in_source((CONTENT_DIR / "state.py").read_text())["ScrapState"]]
"""The fields a state declares (read from the source: a compiled class keeps no annotations)."""

RACERS4 = "swifty,jackal,crusher,hover"


def race(players: int = 4, racers: str = RACERS4, start_seat: int = 0, **options: Any) -> ScrapRacer:
    """A game with fixed dashboards and start player (seat 0 unless told): no setup chance at all."""
    game = slipstream.load("scrap-racer", players=players, racers=racers, start_seat=start_seat, **options)
    assert isinstance(game, ScrapRacer)
    return game


def slot(state: ScrapState, racer: str) -> int:
    """The racer slot of a racer id."""
    return state.racer.index(racer)


def position(
    game: ScrapRacer,
    *,
    pos: Mapping[int, int] | None = None,
    laps: Mapping[int, int] | None = None,
    boosts: Mapping[int, Mapping[str, int]] | None = None,
    bmark: Mapping[int, int] | None = None,
    cards: Mapping[int, Mapping[str, int]] | None = None,
    turn: int = 0,
    order: Iterable[int] | None = None,
    filled: Iterable[int] | None = (),
    boost_supply: int | None = 0,
    bonus_supply: int | None = None,
    seed: int = 0,
) -> ScrapState:
    """A state at the first die roll of the racer ``order[turn]``, with the given plain data (set on a fresh
    copy of the initial state, by the copy rule of ``slipstream.engine.fields``).

    ``order``: the turn order of racer slots (the team game, where it is chosen during play);
    ``pos``: progress per racer slot; ``laps`` defaults to the laps that progress has completed.
    ``boosts``: boost markers held per slot by type; ``cards``: bonus cards per seat (taken off the deck);
    ``filled``: the 1-based boost spaces that hold a face-down marker (default: none) and ``boost_supply``
    the face-down markers left in the supply (default: none, so that no refill interrupts a scenario);
    ``filled=None, boost_supply=None`` keeps the setup (every boost space filled, 8 in the supply).
    """
    s = game.start(seed=seed).copy()
    assert isinstance(s, ScrapState)
    length = game.track.length
    lap_markers = list(s.laps)
    for r, p in (pos or {}).items():
        s.progress[r] = p
        lap_markers[r] = max(0, (p - 1) // length)
    for r, n in (laps or {}).items():
        lap_markers[r] = n
    s.laps = tuple(lap_markers)
    unseen = list(s.unseen_boosts)
    for r, held in (boosts or {}).items():
        markers = list(s.boost_markers[r])
        for kind, n in held.items():
            t = BOOST_TYPES.index(kind)
            markers[t] = n
            unseen[t] -= n
        s.boost_markers = replaced(s.boost_markers, r, tuple(markers))
    for r, n in (bmark or {}).items():
        s.bonus_markers = replaced(s.bonus_markers, r, n)
        s.bonus_supply -= n
    if bonus_supply is not None:
        s.bonus_supply = bonus_supply
    deck = game.bonus_deck
    for seat, held in (cards or {}).items():
        hand = list(s.bonus_cards[seat])
        draw = list(s.decks[deck.index].draw)
        for card, n in held.items():
            i = deck.cards.index(card)
            hand[i] += n
            draw[i] -= n
        s.bonus_cards = replaced(s.bonus_cards, seat, tuple(hand))
        s.decks = replaced(s.decks, deck.index, DeckCounts(tuple(draw), s.decks[deck.index].discard))
    if filled is not None:
        wanted = set(filled)
        s.boost_spaces_filled = tuple(space + 1 in wanted for space in game.track.boost)
        unknown = wanted - {b + 1 for b in game.track.boost}
        if unknown:
            raise ValueError(f"not boost spaces: {sorted(unknown)}")
    on_track = sum(s.boost_spaces_filled)
    if boost_supply is None:
        s.boost_supply = sum(unseen) - on_track
    else:
        s.boost_supply = boost_supply
        while sum(unseen) > boost_supply + on_track:
            unseen[unseen.index(max(unseen))] -= 1
    s.unseen_boosts = tuple(unseen)
    if order is not None:
        s.order = tuple(order)
    if turn or order is not None:
        s.turn = turn
        begin_turn(s, [])
    problems = s.invariant_problems()
    if problems:
        raise ValueError(f"the position breaks the invariants: {problems}")
    return s


def play(state: ScrapState, *actions: str, log: list[Event] | None = None) -> ScrapState:
    """Apply each action with the checked ``apply``; the events go to ``log`` when given.

    Every apply is also checked to leave the state it was applied to unchanged: a state shares every field
    but its lists with the states made from it, and a change must replace a tuple, never change it.
    """
    for action in actions:
        before = board(state)
        new = state.apply(action)
        assert board(state) == before, f"apply({action!r}) changed the state it was applied to"
        state = new
        if log is not None:
            log.extend(state.events)
    return state


def board(state: ScrapState) -> list[Any]:
    """A copy of every declared field of a state (lists copied), to compare before and after an apply."""
    return [copy_value(getattr(state, name)) for name in FIELDS]


def copy_value(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def roll(*faces: int) -> list[str]:
    """The actions of rolling ``faces`` one after another and keeping them: die, roll, die, ..., stop."""
    out: list[str] = []
    for i, face in enumerate(faces):
        if i:
            out.append("roll")
        out.append(f"die:{face}")
    out.append("stop")
    return out


def space(state: ScrapState, r: int) -> int:
    """The 1-based space of racer ``r`` (0 when not on the track)."""
    return (state.progress[r] - 1) % state.game.track.length + 1 if state.progress[r] else 0


def rules(log: Iterable[Event]) -> list[str]:
    return [e.rule for e in log]


def texts(log: Iterable[Event]) -> list[str]:
    return [e.text for e in log]


def whose_turn(state: ScrapState) -> str:
    return state.racer[active_racer(state)]


def check(state: ScrapState) -> None:
    """The components are conserved (the game's own invariant check)."""
    assert state.invariant_problems() == []


def content_file(tmp: Path, *replacements: tuple[str, str], name: str = "content.toml") -> Path:
    """A copy of the shipped content.toml with text replacements (each must match), written in ``tmp``."""
    text = (CONTENT_DIR / "content.toml").read_text()
    for old, new in replacements:
        if old not in text:
            raise ValueError(f"{old!r} is not in content.toml")
        text = text.replace(old, new)
    path = tmp / name
    path.write_text(text)
    return path


def track_file(tmp: Path, text: str, name: str = "track.toml") -> Path:
    path = tmp / name
    path.write_text(text)
    return path
