"""What a seat saw happen: the perfect-recall information state of OpenSpiel's CFR family.

A seat's **information state** is everything that seat has seen since the start, in order: each view
it was shown (``view(seat)``, the only thing the engine lets it see), taken again whenever it changed,
and each action it chose itself. Two histories give a seat the same information state exactly when
that seat saw the same sequence, so the state is perfect-recall by construction (it holds the seat's
earlier information states and actions), and it knows nothing a view hides: another seat's card or
pending choice stays out, and so do steps the seat could not see (a chance draw that left its view
unchanged adds nothing, so even the number of hidden steps does not leak).

A whole history of views is long (a race is hundreds of steps of views of a few kilobytes), so it is
kept as a running digest (BLAKE2b, 128 bits) rather than written out:

- the **string** (``information_state_string``) is the seat, its own actions in order, the digest of
  every view it saw, then its current view as JSON (readable; the digest makes it exact);
- the **tensor** (``information_state_tensor``) is the observation vector of the current view
  (``slipstream.interop.encoding``), then how many times the seat chose each action, then a one-hot
  of its last action. A fixed-length vector cannot hold an unbounded history; what a seat saw in a race
  is almost all in its current view (the board, the laps, what it holds, what was played), and the
  counts and last action add its own play. It is therefore not perfect-recall by itself: tabular
  algorithms (CFR, MCCFR) key on the string; networks (Deep CFR, NFSP) read the tensor as features.

The record of a state rebuilds its information states (``recall_of``); a state made by applying one
action to a state whose information states are known extends them (``remember``), so an algorithm
walking down a game pays one view per seat a step, and play that never asks pays nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

import numpy as np
import numpy.typing as npt

from slipstream.engine import CHANCE, State

from .compact import Encoder
from .spec import GameSpec

JSON = Any
DIGEST_BYTES = 16


@dataclass(frozen=True)
class SeatRecall:
    """What one seat has seen: ``digest`` of its views (each change) and own actions, its latest view as
    canonical JSON (``view``) and its own actions (``own``, without the simultaneous prefix)."""

    digest: bytes
    view: str
    own: tuple[str, ...]


Recall = tuple[SeatRecall, ...]
"""Every seat's ``SeatRecall``, by seat."""


def view_text(state: State, seat: int) -> str:
    """``view(seat)`` as canonical JSON (sorted keys, no spaces): equal views give equal text."""
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


def _mix(digest: bytes, tag: bytes, text: str) -> bytes:
    return blake2b(digest + tag + text.encode(), digest_size=DIGEST_BYTES).digest()


def start_recall(state: State) -> Recall:
    """The information states at the start: each seat has seen its first view."""
    out = []
    for seat in range(state.game.players):
        text = view_text(state, seat)
        out.append(SeatRecall(_mix(b"", b"v", text), text, ()))
    return tuple(out)


def _chooser(state: State, action: str) -> tuple[int | None, str]:
    """The seat choosing ``action`` in ``state`` (``None`` for a chance outcome) and the action without
    the simultaneous ``"<seat>:"`` prefix."""
    actor = state.actor
    if actor == CHANCE:
        return None, action
    if isinstance(actor, frozenset):
        seat, _, bare = action.partition(":")
        return int(seat), bare
    if isinstance(actor, int):
        return actor, action
    raise ValueError(f"no seat acts in {state!r}, so {action!r} cannot be applied")


def remember(recall: Recall, before: State, action: str, after: State) -> Recall:
    """The information states after ``action`` (``after = before.apply(action)``): the seat that chose it
    adds it, and every seat whose view changed adds its new view."""
    chooser, bare = _chooser(before, action)
    out = []
    for seat, seen in enumerate(recall):
        digest, own = seen.digest, seen.own
        if seat == chooser:
            digest, own = _mix(digest, b"a", bare), (*own, bare)
        text = view_text(after, seat)
        if text != seen.view:
            digest = _mix(digest, b"v", text)
        out.append(SeatRecall(digest, text, own) if digest is not seen.digest else seen)
    return tuple(out)


def recall_of(state: State) -> Recall:
    """The information states of ``state``, rebuilt from its record (its seed and actions)."""
    record = state.record()
    before = state.game.start(seed=record["seed"])
    recall = start_recall(before)
    for action in record["actions"]:
        after = before.apply(action)
        recall = remember(recall, before, action, after)
        before = after
    return recall


def information_string(seat: int, seen: SeatRecall) -> str:
    """A seat's information state as text (see the module docstring)."""
    return (f"seat {seat}; own actions: {' '.join(seen.own) or '-'}; history {seen.digest.hex()}\n"
            f"{seen.view}")


class InformationEncoder:
    """The information-state tensor (see the module docstring): the observation, the seat's count of
    each action it chose, and a one-hot of its last action."""

    def __init__(self, spec: GameSpec, encoder: Encoder) -> None:
        self.encoder = encoder
        self.spec = spec
        self.actions = spec.actions
        self.size = encoder.size + 2 * len(self.actions)
        self.names: tuple[str, ...] = (
            *encoder.names,
            *(f"own actions/{action}" for action in self.actions),
            *(f"last own action={action}" for action in self.actions),
        )
        """Each slot's name: the observation's, then ``own actions/roll`` (a count), then
        ``last own action=roll`` (a one-hot)."""

    def fill(self, out: npt.NDArray[np.float32], seat: int, seen: SeatRecall, state: State) -> None:
        """Write ``seat``'s information-state tensor at ``state`` into ``out`` (length ``size``); ``seen`` is
        what the seat saw up to ``state`` (its latest view is its view of ``state``)."""
        observed = self.encoder.size
        out[:observed] = self.encoder.observe(state, seat)
        out[observed:] = 0.0
        action_id = self.spec.action_id
        for action in seen.own:
            out[observed + action_id(action)] += 1.0
        if seen.own:
            out[observed + len(self.actions) + action_id(seen.own[-1])] = 1.0
