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
from slipstream.games.scrap_racer import ScrapRacer, ScrapState
from slipstream.games.scrap_racer.content import BOOST_TYPES
from slipstream.games.scrap_racer.content import HERE as CONTENT_DIR
from slipstream.games.scrap_racer.rules import SHARED_LISTS

RACERS4 = "swifty,jackal,crusher,hover"


def race(players: int = 4, racers: str = RACERS4, start_player: int = 1, **options: Any) -> ScrapRacer:
    """A game with fixed dashboards and start player: no setup chance at all."""
    game = slipstream.load("scrap-racer", players=players, racers=racers, start_player=start_player, **options)
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
    """A state at the first die roll of the racer ``order[turn]``, with the given plain data.

    ``order``: the turn order of racer slots (the team game, where it is chosen during play);
    ``pos``: progress per racer slot; ``laps`` defaults to the laps that progress has completed.
    ``boosts``: boost markers held per slot by type; ``cards``: bonus cards per seat (taken off the deck);
    ``filled``: the 1-based boost spaces that hold a face-down marker (default: none) and ``boost_supply``
    the face-down markers left in the supply (default: none, so that no refill interrupts a scenario);
    ``filled=None, boost_supply=None`` keeps the setup (every boost space filled, 8 in the supply).
    """
    s = game.start(seed=seed)
    assert isinstance(s, ScrapState)
    length = game.track.length
    for r, p in (pos or {}).items():
        s.pos[r] = p
        s.laps[r] = max(0, (p - 1) // length)
    for r, n in (laps or {}).items():
        s.laps[r] = n
    for r, held in (boosts or {}).items():
        for kind, n in held.items():
            t = BOOST_TYPES.index(kind)
            s.boosts[3 * r + t] = n
            s.unseen[t] -= n
    for r, n in (bmark or {}).items():
        s.bmark[r] = n
        s.bonus_supply -= n
    if bonus_supply is not None:
        s.bonus_supply = bonus_supply
    deck = game.bonus_deck
    ncards = len(deck.cards)
    for seat, held in (cards or {}).items():
        for card, n in held.items():
            i = deck.cards.index(card)
            s.cards[seat * ncards + i] += n
            s.decks[deck.draw + i] -= n
    if filled is not None:
        wanted = set(filled)
        s.filled = 0
        for i, space in enumerate(game.track.boost):
            if space + 1 in wanted:
                s.filled |= 1 << i
        unknown = wanted - {b + 1 for b in game.track.boost}
        if unknown:
            raise ValueError(f"not boost spaces: {sorted(unknown)}")
    on_track = bin(s.filled).count("1")
    if boost_supply is None:
        s.boost_supply = sum(s.unseen) - on_track
    else:
        s.boost_supply = boost_supply
        while sum(s.unseen) > boost_supply + on_track:
            s.unseen[s.unseen.index(max(s.unseen))] -= 1
    if order is not None:
        s.order = list(order)
    if turn or order is not None:
        s.turn = turn
        s._begin_turn([])
    s._legal_cache = None
    problems = s.invariant_problems()
    if problems:
        raise ValueError(f"the position breaks the invariants: {problems}")
    return s


def play(state: ScrapState, *actions: str, log: list[Event] | None = None) -> ScrapState:
    """Apply each action with the checked ``apply``; the events go to ``log`` when given.

    Every apply is also checked to leave the state it was applied to unchanged: a state shares its lists
    with the states made from it, and a change must replace a list, never change it in place (rules.py).
    """
    for action in actions:
        before = board(state)
        new = state.apply(action)
        assert board(state) == before, f"apply({action!r}) changed the state it was applied to"
        state = new
        if log is not None:
            log.extend(state.events)
    return state


def board(state: ScrapState) -> list[list[Any]]:
    """A copy of the lists that a state may share with the states before and after it."""
    return [list(getattr(state, name)) for name in SHARED_LISTS]


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
    return (state.pos[r] - 1) % state.game.track.length + 1 if state.pos[r] else 0


def rules(log: Iterable[Event]) -> list[str]:
    return [e.rule for e in log]


def texts(log: Iterable[Event]) -> list[str]:
    return [e.text for e in log]


def whose_turn(state: ScrapState) -> str:
    return state.racer[state.active]


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
