"""Regenerate the golden playthroughs: one readable seeded race per game (with its default options, and
one more for each option set the game lists in ``golden_options``), reviewed as a diff; each in
``tests/golden/<id>.txt`` (``<id>-<option values>.txt``).

    PYTHONPATH=src python scripts/make_golden.py              # every registered game
    PYTHONPATH=src python scripts/make_golden.py GAME [GAME]  # only these games (an unknown id: exit 2)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import slipstream
from slipstream.bots.random_bot import RandomBot
from slipstream.engine.game import CHANCE, State

GOLDEN_DIR = Path(os.environ.get("SLIPSTREAM_GOLDEN_DIR") or Path(__file__).resolve().parents[1] / "tests" / "golden")
"""Where the transcripts live: ``tests/golden``, or ``SLIPSTREAM_GOLDEN_DIR`` (a test's scratch folder)."""
GOLDEN_SEED = 2026


def golden_cases() -> list[tuple[str, dict[str, Any], Path]]:
    """Every golden playthrough as (game id, options, file): each game with its default options in
    ``<id>.txt``, and each option set of its ``golden_options`` in ``<id>-<values>.txt``."""
    out: list[tuple[str, dict[str, Any], Path]] = []
    for gid, cls in slipstream.available_games().items():
        out.append((gid, {}, GOLDEN_DIR / f"{gid}.txt"))
        for options in cls.golden_options:
            suffix = "-".join(str(v) for v in options.values())
            out.append((gid, dict(options), GOLDEN_DIR / f"{gid}-{suffix}.txt"))
    return out


def playthrough(game_id: str, options: dict[str, Any] | None = None) -> str:
    """A seeded race between random bots, written out action by action with its events."""
    game = slipstream.load(game_id, **(options or {}))
    state: State = game.start(seed=GOLDEN_SEED)
    bots = [RandomBot(GOLDEN_SEED + seat) for seat in game.seats]
    lines = [f"# {game.name} golden playthrough: seed {GOLDEN_SEED}, options {game.record_options()}"]
    while state.actor is not None:  # not play(): every step is written with who acted
        actor = state.actor
        if actor == CHANCE:
            action = state.sample_chance()
            who = "chance"
        else:
            seat = min(actor) if isinstance(actor, frozenset) else int(actor)  # type: ignore[arg-type]
            action = bots[seat].choose(state, seat)
            who = game.seat_name(seat)
        state = state.apply(action)
        lines.append(f"{state.ply:4d} {who}: {action}")
        for event in state.events:
            rule = f"  [{event.rule}]" if event.rule else ""
            lines.append(f"       {event.text}{rule}")
    result = state.result
    assert result is not None
    lines.append(f"result: {result.to_json()}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    known = slipstream.available_games()
    unknown = [gid for gid in argv if gid not in known]
    if unknown:
        print(f"make_golden: no game {unknown[0]!r}; the games are {', '.join(known)}", file=sys.stderr)
        return 2
    ids = argv or list(known)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for gid, options, path in golden_cases():
        if gid in ids:
            path.write_text(playthrough(gid, options))
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
