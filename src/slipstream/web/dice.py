"""Live chance: every chance outcome of a live match is drawn from a secret only the server holds.

The engine's seeded chance (``state.sample_chance()``, a fast hash of a 48-bit seed and the ply) serves
the library, tests and simulation; on a server it would be guessable: a few dozen public die rolls
single out the seed, and with it every future roll and draw. So the server draws each outcome itself:
HMAC-SHA256 keyed by 256 random bits stored beside the match (never served, never in a record), of the
ply, gives a uniform number that picks among ``state.chance_outcomes()`` by their probabilities. Without
the key no sequence of outcomes says anything about the next one. The outcome is then applied like any
other action and stored, so a finished match's record (which lists every outcome) replays exactly.
The draw depends only on the key and the ply, so a step retried after a failed commit or a restart
draws the same outcome.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

KEY_BYTES = 32
_UNIT = 1.0 / (1 << 53)


def new_key() -> str:
    """256 fresh random bits from the operating system's CSPRNG, as hex."""
    return secrets.token_hex(KEY_BYTES)


def uniform(key: str, ply: int) -> float:
    """A number in [0, 1) that nobody without ``key`` can predict: HMAC-SHA256(key, ply), top 53 bits."""
    digest = hmac.new(bytes.fromhex(key), b"slipstream-chance:%d" % ply, hashlib.sha256).digest()
    return (int.from_bytes(digest[:8], "big") >> 11) * _UNIT


def draw(key: str, ply: int, outcomes: Sequence[tuple[str, float]]) -> str:
    """The outcome the key picks at ``ply`` among ``(action, probability)`` pairs."""
    if not outcomes:
        raise ValueError("a chance node has at least one outcome")
    u = uniform(key, ply)
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if u < acc:
            return action
    return outcomes[-1][0]
