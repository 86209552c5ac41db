"""One simulated race: the seeds, the bots, the game's own metrics, and the race's line in the records.

Every number a race produces is fixed by ``(master seed, race index)``: the race seed fixes every chance
outcome (through the engine's seeded chance) and each bot's RNG is seeded from the race seed and its seat.
So a run gives the same races whatever the number of processes or machines that play them.
"""

from __future__ import annotations

import importlib
import itertools
import math
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import slipstream
from slipstream.bots.registry import make_bot
from slipstream.engine.chance import mix64
from slipstream.engine.errors import SlipstreamError
from slipstream.engine.game import CHANCE, State
from slipstream.engine.hooks import hooks_of
from slipstream.jsontext import encode

from .store import BULKY, compact

MAX_PLIES = 1_000_000


def race_seed(master: int, index: int) -> int:
    """The seed of race ``index`` of a run with seed ``master`` (a non-negative 63-bit integer)."""
    return mix64(master, index) >> 1


def bot_seed(seed: int, seat: int) -> int:
    """The RNG seed of the bot in ``seat`` of the race with ``seed``."""
    return mix64(seed, 1_000_003 + seat) >> 1


@dataclass(frozen=True)
class RaceSpec:
    """What a worker needs to play one batch of races: plain data, cheap to send to a process."""

    game: str
    players: int
    options: dict[str, Any]
    seats_bots: tuple[tuple[str, ...], ...]
    """The bots by seat for each race index in ``indices`` (same length)."""
    indices: tuple[int, ...]
    master_seed: int
    setup: tuple[str, ...] = field(default=())
    """Modules to import first (``module`` or ``module:function``): a game defined outside the package."""
    seed_group: int = 1
    """Races that share a seed: race ``i`` plays the seed of ``i // seed_group`` (a skill run plays each
    seed once with the stronger bot in every seat)."""

    def part(self, positions: Sequence[int]) -> RaceSpec:
        """The races at ``positions`` of ``indices``, as a spec of their own (a worker's batch)."""
        return RaceSpec(self.game, self.players, dict(self.options), tuple(self.seats_bots[p] for p in positions),
                        tuple(self.indices[p] for p in positions), self.master_seed, self.setup, self.seed_group)

    def seed_of(self, index: int) -> int:
        """The seed of race ``index``."""
        return race_seed(self.master_seed, index // self.seed_group)


class SetupError(SlipstreamError):
    """A setup module that cannot be imported (or has no such function)."""

    code = "bad_setup"


_SETUP_DONE: set[str] = set()


def run_setup(setup: Sequence[str]) -> None:
    """Import each setup module (and call its function), once per process."""
    for entry in setup:
        if entry in _SETUP_DONE:
            continue
        module_name, _, func = entry.partition(":")
        try:
            module = importlib.import_module(module_name)
            if func:
                getattr(module, func)()
        except (ImportError, AttributeError) as exc:
            raise SetupError(f"setup {entry!r} failed: {exc}") from None
        _SETUP_DONE.add(entry)


def play_race(game: slipstream.Game, seed: int, bots: Sequence[str], index: int = 0) -> dict[str, Any]:
    """Play one race between the named bots; its line in the records (see ``docs/simulate.md``).

    The game's ``race_metrics`` give ``turns`` and ``rounds`` (counted during the race by the game's
    ``metrics_tally`` when it has one, so a game whose metrics replay the race is not played twice); a game
    without them gets generic ones: a turn starts whenever another seat (or set of seats choosing at once)
    comes to act, and rounds are turns divided by players, rounded up. ``positions`` holds the game's
    ``standings`` (when it has them) at the start of each round (each turn of the first seat to have played;
    each turn while no seat has had one of its own) and at the end, whenever they changed since the last look,
    with the number of decisions made so far; the lead changes are counted on them (a lead taken and lost
    within a round is not a change). Looking once a round, not once a turn, keeps the simulator's own cost
    small: the games' ``standings`` hooks cost up to a fifth of a random race when called every turn.
    ``turn_order`` lists the seats in the order of their first turn of their own (a choice all seats make at
    once is no one's turn): the order of play, whoever starts; a game whose turns pass without decisions
    gives it instead (``GameHooks.turn_order``). ``start`` holds each seat's start positions
    (``GameHooks.start_positions``), ``choices`` each seat's decisions that had more than one legal action,
    ``seat_decisions`` all of them, and ``half_leader`` the leader halfway through the race's decisions.
    """
    agents = [make_bot(name, game.id, bot_seed(seed, seat), simulation=True) for seat, name in enumerate(bots)]
    hooks = hooks_of(game)
    standings = hooks.standings
    state: State = game.start(seed=seed)
    positions: list[list[Any]] = []
    last: list[int] | None = None
    decisions = 0
    seat_decisions = [0] * game.players
    choices = [0] * game.players
    turns = 0
    previous_actor: object = None
    order: list[int] = []
    players = game.players
    if standings is not None:
        last = list(standings(state))
        positions.append([0, last])
    tally = hooks.metrics_tally(state) if hooks.metrics_tally is not None else None
    observe = tally.observe if tally is not None else None
    before = state
    # The loop is the simulator's own cost on every action, so the common case (a seat's decision within
    # its turn) goes through the fewest steps: a turn's bookkeeping is done only when a turn starts.
    for _ in range(MAX_PLIES):
        actor = state.actor
        if actor.__class__ is int:
            seat = actor
            if actor != previous_actor:
                turns += 1
                if len(order) < players and seat not in order:
                    order.append(seat)
                if standings is not None and decisions and seat == order[0]:
                    now = list(standings(state))
                    if now != last:
                        positions.append([decisions, now])
                        last = now
                previous_actor = actor
        elif actor is None:
            break
        elif actor == CHANCE:
            state = state.apply_chance()
            if observe is not None:
                observe(before, state)
                before = state
            continue
        else:
            if isinstance(actor, frozenset):
                seat = min(actor)
                new_turn = not (isinstance(previous_actor, frozenset) and actor < previous_actor)
            else:
                seat = int(actor)
                new_turn = actor != previous_actor
            if new_turn:
                turns += 1
                if standings is not None and decisions and not order:
                    now = list(standings(state))
                    if now != last:
                        positions.append([decisions, now])
                        last = now
            previous_actor = actor
        action = agents[seat].choose(state, seat)
        seat_decisions[seat] += 1
        if len(state.legal_actions(seat)) > 1:  # the bot asked for them: the state holds them
            choices[seat] += 1
        state = state.apply(action)
        decisions += 1
        if observe is not None:
            observe(before, state)
            before = state
    else:
        raise RuntimeError(f"{game.id}: race {index} (seed {seed}) did not end in {MAX_PLIES} plies")
    if standings is not None:
        now = list(standings(state))
        if now != last:
            positions.append([decisions, now])
    result = state.result
    if result is None:  # pragma: no cover - the loop ends only when the game is over
        raise RuntimeError(f"{game.id}: race {index} (seed {seed}) ended without a result")
    metrics: dict[str, float] = {"turns": float(turns), "rounds": float(-(-turns // game.players))}
    race_metrics = tally.result if tally is not None else hooks.race_metrics
    if race_metrics is not None:
        metrics.update({str(k): float(v) for k, v in race_metrics(state).items()})
    labels_fn = hooks.seat_labels
    labels = {str(k): str(v) for k, v in labels_fn(state).items()} if labels_fn is not None else {}
    lead_changes = half_leader = None
    if standings is not None:
        leaders = [p[1][0] for p in positions if p[1]]
        lead_changes = sum(1 for a, b in itertools.pairwise(leaders) if a != b)
        half_leader = next((p[1][0] for p in reversed(positions) if p[1] and 2 * p[0] <= decisions), None)
    if hooks.turn_order is not None:
        order = [int(seat) for seat in hooks.turn_order(state)]
    start = ({str(kind): [int(x) for x in numbers] for kind, numbers in hooks.start_positions(state).items()}
             if hooks.start_positions is not None else {})
    record = state.record()
    return {
        "index": index,
        **record,
        "bots": list(bots),
        "result": result.to_json(),
        "ranks": [result.rank(s) for s in game.seats],
        "metrics": metrics,
        "labels": labels,
        "lead_changes": lead_changes,
        "decisions": decisions,
        "seat_decisions": seat_decisions,
        "choices": choices,
        "turn_order": order,
        "start": start,
        "half_leader": half_leader,
        "positions": positions,
    }


class RaceFailed(RuntimeError):
    """A race raised an error (a bug in a game or a bot): the message names the race and its seed."""


def run_spec(spec: RaceSpec) -> list[dict[str, Any]]:
    """Play every race of a batch (in-process); ``RaceFailed`` names the race that went wrong."""
    run_setup(spec.setup)
    game = slipstream.load(spec.game, players=spec.players, **spec.options)
    out = []
    for index, bots in zip(spec.indices, spec.seats_bots, strict=True):
        seed = spec.seed_of(index)
        try:
            out.append(play_race(game, seed, bots, index))
        except Exception as exc:
            raise RaceFailed(f"{spec.game}: race {index} (seed {seed}, bots {', '.join(bots)}) failed: "
                             f"{type(exc).__name__}: {exc}") from exc
    return out


Line = tuple[str, str]
"""A finished race as its JSON line for the records file and the JSON text of its compact form (see
``store.compact``): text, not the parsed form, because text is what another process sends cheapest."""


def run_batch(spec: RaceSpec) -> list[Line]:
    """``run_spec`` with each race already serialised, so the process writing the records only writes."""
    return [to_line(race) for race in run_spec(spec)]


def to_line(race: dict[str, Any]) -> Line:
    """A race as its records line and the JSON text of its compact form (``decode`` gives what a resumed
    run reads from the records line).

    The compact part is serialised once; the bulky fields (``store.BULKY``) are serialised after it into
    the same line (the simulator's own cost per race: see ``docs/simulate.md``). A metric that is not a
    number (NaN or infinite) has no JSON text: the race is refused, naming it.
    """
    for name, value in race.get("metrics", {}).items():
        if not math.isfinite(value):
            raise ValueError(f"race {race.get('index')}: metric {name!r} is {value}, not a finite number")
    small = compact(race)
    text = encode(small)
    bulky = encode({key: race[key] for key in BULKY if key in race})
    line = text[:-1] + ("," if small and len(bulky) > 2 else "") + bulky[1:] + "\n"
    return line, text


def run_batch_safe(spec: RaceSpec) -> tuple[list[Line], str | None]:
    """``run_batch`` for another process: any error comes back as text (exceptions may not unpickle)."""
    try:
        return run_batch(spec), None
    except Exception as exc:
        return [], f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
