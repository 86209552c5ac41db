"""A generic Monte Carlo tree search bot for any game, through the engine contract alone.

Single-observer information-set MCTS (Cowling, Powley & Whitehouse, 2012): every playout starts from
``state.determinize(seat, rng)``, a world the bot cannot tell from the real one, and descends one shared
tree whose edges are action strings; UCB counts each action's *availability* so that actions legal only in
some worlds are judged fairly. Chance nodes are sampled from ``chance_outcomes()`` with the bot's own RNG
(never ``sample_chance``, which would read the real future from the state's seed). At a simultaneous
choice every pending seat picks from its own statistics (decoupled UCT) and the joint choice is one edge,
so no seat's pick is known to the others when they choose. Playouts below the tree are uniformly random.

Guided search (the default, ``guided=True``, for a game with a heuristic bot): random playouts carry
almost no signal in long push-your-luck races, so the bot starts from the game's own ``HeuristicBot``
move and asks only whether another move is clearly better. Each iteration draws one world
(``determinize``) and one stream of chance outcomes, and plays the heuristic's move and every remaining
alternative in that world with that stream (common random numbers), then the heuristic for every seat
for ``horizon`` plies; the position is scored by the game's optional ``position_value(state, seat)``
hook in ``slipstream.games.<pkg>.metrics`` (an estimated win chance in [0, 1]; else its ``standings``),
a finished race by the win. The paired differences make a small edge visible in a few hundred rollouts;
alternatives clearly not better are dropped as the search goes, and the search stops as soon as every
remaining one is clearly better (most decisions end after ``MIN_PAIRS`` iterations). The move played is
the heuristic's unless an alternative beats it by ``margin`` at ``confidence`` standard errors. This is
flat Monte Carlo at the root (a rollout policy improvement over the heuristic), not a tree: it was the
variant that beat the heuristic bots (docs/simulate.md has the figures). A game without a heuristic bot,
or ``guided=False``, gets the tree search above.

Strength: a number of playouts (rollouts; reproducible for a seed) and/or a time budget per move. The
default, ``MCTSBot()``, runs at most ``DEFAULT_PLAYOUTS`` playouts and stops early at one second, so it
always decides within about a second; it is reproducible whenever the second is not reached (see
``capped_moves``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from slipstream.engine import chance
from slipstream.engine.game import CHANCE, Result, State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import Agent
from slipstream.engine.registry import game_class

DEFAULT_PLAYOUTS = 500
DEFAULT_SECONDS = 1.0
SIMULATION_PLAYOUTS = 100
"""Plain ``mcts`` in ``simulate`` and ``tournament``: this many rollouts a decision and no clock, so a
run is reproducible whatever the machine's load (``registry.make_bot(..., simulation=True)``)."""
DEFAULT_ROLLOUT_LIMIT = 2000
DEFAULT_HORIZON = 60
"""Plies of heuristic play after a candidate move before ``position_value`` scores the position."""
DEFAULT_CONFIDENCE = 2.5
"""Standard errors by which an alternative must beat (or fall short of) the heuristic's move."""
DEFAULT_MARGIN = 0.002
"""The smallest gain in win chance worth leaving the heuristic's move for."""
MIN_PAIRS = 16
CHECK_EVERY = 8

StandingsFn = Callable[[State], list[int]]
ValueFn = Callable[[State, int], float]


def _mean_se(st: list[float]) -> tuple[float, float]:
    n = st[0]
    mean = st[1] / n
    var = max(0.0, st[2] / n - mean * mean) / max(n - 1, 1)
    return mean, math.sqrt(var)


def _upper(st: list[float], z: float) -> float:
    mean, se = _mean_se(st)
    return mean + z * se


def _lower(st: list[float], z: float) -> float:
    mean, se = _mean_se(st)
    return mean - z * se


class _Node:
    """One tree node: per-action ``[visits, reward sum, availability, sum of squared rewards]`` and the
    children by edge."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}
        self.children: dict[object, _Node] = {}


def rewards(result: Result, players: int) -> list[float]:
    """Each seat's reward in [0, 1] for a finished game.

    A race: 1 for a winner, otherwise half the share of the field the seat beat (so winning matters most,
    and a better place still counts). A team game (every seat won, or none): 1 for a win, 0 for a loss.
    """
    winners = set(result.winners)
    if not winners or len(winners) == players:
        return [1.0 if s in winners else 0.0 for s in range(players)]
    out = [0.0] * players
    last = max(players - 1, 1)
    for rank, seat in enumerate(result.order):
        out[seat] = 1.0 if seat in winners else 0.5 * (players - 1 - rank) / last
    return out


def standings_rewards(order: Sequence[int], players: int) -> list[float]:
    """The rewards of an unfinished playout, from the game's standings (leader first)."""
    out = [0.5] * players
    last = max(players - 1, 1)
    for rank, seat in enumerate(order):
        out[seat] = (players - 1 - rank) / last
    return out


def _standings_of(game_id: str) -> StandingsFn | None:
    """The ``standings`` hook the game declares (``Game.hooks``), if any."""
    return hooks_of(game_class(game_id)).standings


def _value_of(game_id: str) -> ValueFn | None:
    """The ``position_value`` hook the game declares (``Game.hooks``), if any."""
    return hooks_of(game_class(game_id)).position_value


def win_share(result: Result, seat: int) -> float:
    """``seat``'s share of the win in a finished game: 1 for a sole winner, 1/k for one of k winners."""
    winners = result.winners
    return 1.0 / len(winners) if seat in winners else 0.0


class MCTSBot:
    """Information-set MCTS with determinization; see the module docstring.

    ``playouts``: playouts per move; ``seconds``: time per move (both may be set: the first reached stops
    the search). ``rollout_limit``: plies of random playout before the game's ``standings`` (when it has
    them) judge the position. ``exploration``: the UCB constant. ``guided``: search around the game's
    heuristic move (``guided_search``) when the game has a heuristic bot; ``horizon``, ``confidence`` and
    ``margin`` tune it. ``heuristic_rollouts`` (``:h``): the tree search with the heuristic in the
    playouts instead. ``deviations`` counts the guided moves that left the heuristic's.
    """

    name = "mcts"

    def __init__(self, seed: int = 0, playouts: int | None = None, seconds: float | None = None,
                 exploration: float = 1.0, rollout_limit: int = DEFAULT_ROLLOUT_LIMIT,
                 heuristic_rollouts: bool = False, epsilon: float = 0.1, guided: bool = True,
                 horizon: int = DEFAULT_HORIZON, confidence: float = DEFAULT_CONFIDENCE,
                 margin: float = DEFAULT_MARGIN) -> None:
        if playouts is None and seconds is None:
            playouts, seconds = DEFAULT_PLAYOUTS, DEFAULT_SECONDS
        if playouts is not None and playouts < 1:
            raise ValueError(f"mcts: playouts must be at least 1, not {playouts}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"mcts: seconds must be more than 0, not {seconds}")
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.heuristic_rollouts = heuristic_rollouts
        self.epsilon = epsilon
        self.guided = guided
        self.horizon = horizon
        self.confidence = confidence
        self.margin = margin
        self._values: dict[str, ValueFn | None] = {}
        self.deviations = 0
        self._policy: dict[str, Agent | None] = {}
        self.capped_moves = 0
        self.searched_moves = 0
        self.total_playouts = 0
        self._standings: dict[str, StandingsFn | None] = {}
        self._rollout_policy: Agent | None = None

    def __repr__(self) -> str:
        return f"MCTSBot(playouts={self.playouts}, seconds={self.seconds})"

    # --- the agent interface ---------------------------------------------------------------------

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"mcts: seat {seat} has no action in this state")
        if len(legal) == 1:
            return legal[0]
        if self.guided and not self.heuristic_rollouts:
            policy = self._policy_for(state.game.id)
            if policy is not None:
                return self.guided_search(state, seat, legal, policy)[0]
        root = self.search(state, seat)
        best = max(legal, key=lambda a: (root.stats[a][0] if a in root.stats else -1.0, -legal.index(a)))
        policy = self._rollout_policy
        if policy is not None:
            return self._safe(root, best, policy.choose(state, seat))
        return best

    def _safe(self, root: _Node, best: str, fallback: str) -> str:
        """``best`` only if its mean reward beats ``fallback``'s by two standard errors, else ``fallback``.

        With heuristic rollouts the heuristic's own move is the default; the search overrides it only
        where the playouts say clearly that another move is better.
        """
        if best == fallback or best not in root.stats or fallback not in root.stats:
            return best if fallback not in root.stats else fallback
        (n1, s1, _, q1), (n2, s2, _, q2) = root.stats[best], root.stats[fallback]
        if n1 < 2 or n2 < 2:
            return fallback
        m1, m2 = s1 / n1, s2 / n2
        v1 = max(0.0, q1 / n1 - m1 * m1) / (n1 - 1)
        v2 = max(0.0, q2 / n2 - m2 * m2) / (n2 - 1)
        return best if m1 - m2 > 2 * math.sqrt(v1 + v2) else fallback

    def search(self, state: State, seat: int) -> _Node:
        """Run the playouts from ``state`` for ``seat``; the root node holds the statistics."""
        gid = state.game.id
        if gid not in self._standings:
            self._standings[gid] = _standings_of(gid)
        standings = self._standings[gid]
        self._rollout_policy = self._policy_for(gid) if self.heuristic_rollouts else None
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self.playouts is None or done < self.playouts:
            if deadline is not None and done and time.perf_counter() >= deadline:  # one playout at least
                if self.playouts is not None:
                    self.capped_moves += 1
                break
            self._playout(state, seat, root, standings)
            done += 1
        self.searched_moves += 1
        self.total_playouts += done
        return root

    # --- guided search: the heuristic's move, overridden only where the rollouts clearly disagree ---

    def _policy_for(self, gid: str) -> Agent | None:
        """The game's heuristic bot (made once, seeded from this bot's RNG), or None."""
        if gid not in self._policy:
            make = hooks_of(game_class(gid)).heuristic_bot
            self._policy[gid] = make(self.rng.randrange(2**31)) if make is not None else None
        return self._policy[gid]

    def _value_for(self, gid: str) -> ValueFn | None:
        if gid not in self._values:
            self._values[gid] = _value_of(gid)
        if gid not in self._standings:
            self._standings[gid] = _standings_of(gid)
        return self._values[gid]

    def guided_search(self, state: State, seat: int, legal: Sequence[str],
                      policy: Agent) -> tuple[str, dict[str, list[float]]]:
        """Rollout search around the game's heuristic move; returns the choice and, per alternative,
        ``[pairs, sum of differences, sum of squared differences]`` against the heuristic's move.

        Each iteration draws one world (``determinize``) and one stream of chance outcomes, and plays
        every candidate move in that same world with those same chance outcomes (common random
        numbers), then the heuristic for every seat for ``horizon`` plies, scored by the game's
        ``position_value`` (a finished race by the win). So each alternative's value is compared with
        the heuristic move's on the same dice: the noise of the race mostly cancels. After
        ``MIN_PAIRS`` iterations, every ``CHECK_EVERY``: an alternative whose mean gain is clearly
        below ``margin`` (upper bound at ``confidence`` standard errors) is dropped; the search stops
        when every remaining one is clearly better (or the budget is spent). The move played is the
        clearly better alternative with the highest mean gain, else the heuristic's.
        """
        gid = state.game.id
        value = self._value_for(gid)
        standings = self._standings[gid]
        base = policy.choose(state.determinize(seat, self.rng), seat)
        if base not in legal:
            base = legal[0]
        diff: dict[str, list[float]] = {a: [0, 0.0, 0.0] for a in legal if a != base}
        live = list(diff)
        z, margin = self.confidence, self.margin
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rng = self.rng
        done = pairs = 0
        while live:
            if self.playouts is not None and done >= self.playouts:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:  # one playout at least
                if self.playouts is not None:
                    self.capped_moves += 1
                break
            world = state.determinize(seat, rng)
            stream = rng.getrandbits(63)
            v_base = self._leaf(world.apply_unchecked(base), seat, stream, policy, value, standings)
            for a in live:
                d = self._leaf(world.apply_unchecked(a), seat, stream, policy, value, standings) - v_base
                st = diff[a]
                st[0] += 1
                st[1] += d
                st[2] += d * d
            done += 1 + len(live)
            pairs += 1
            if pairs >= MIN_PAIRS and pairs % CHECK_EVERY == 0:
                live = [a for a in live if _upper(diff[a], z) > margin]
                if all(_lower(diff[a], z) > margin for a in live):
                    break
        self.searched_moves += 1
        self.total_playouts += done
        better = [a for a in diff if diff[a][0] >= MIN_PAIRS and _lower(diff[a], z) > margin]
        if not better:
            return base, diff
        self.deviations += 1
        return max(better, key=lambda a: (diff[a][1] / diff[a][0], -legal.index(a))), diff

    def _leaf(self, state: State, me: int, stream: int, policy: Agent, value: ValueFn | None,
              standings: StandingsFn | None) -> float:
        """``me``'s value after ``horizon`` plies of the heuristic for every seat, chance drawn from
        ``stream``: the win share if the race ended, else ``position_value`` (else the standings)."""
        u = random.Random(stream).random
        pick = chance.pick
        for _ in range(self.horizon):
            actor = state.actor
            if actor is None:
                break
            if actor == CHANCE:
                action = pick(state.chance_outcomes(), u())
            else:
                action = policy.choose(state, min(actor) if isinstance(actor, frozenset) else int(actor))
            state = state.apply_unchecked(action)
        result = state.result
        if result is not None:
            return win_share(result, me)
        if value is not None:
            return value(state, me)
        if standings is not None:
            return standings_rewards(standings(state), state.game.players)[me]
        return 0.5

    # --- one playout -----------------------------------------------------------------------------

    def _playout(self, root_state: State, me: int, root: _Node, standings: StandingsFn | None) -> None:
        rng = self.rng
        state = root_state.determinize(me, rng)
        players = state.game.players
        node: _Node | None = root
        trail: list[tuple[_Node, list[str], list[int]]] = []
        while node is not None:
            actor = state.actor
            if actor is None:
                break
            key: object
            if actor == CHANCE:
                key = chance.pick(state.chance_outcomes(), rng.random())
                state = state.apply_unchecked(str(key))
            elif isinstance(actor, frozenset):
                picks, seats = self._joint(node, state, actor)
                trail.append((node, picks, seats))
                for action, s in zip(picks, seats, strict=True):
                    if action not in state.legal_actions(s):
                        break
                    state = state.apply_unchecked(action)
                key = tuple(picks)
            else:
                seat = int(actor)
                key = self._select(node, state.legal_actions(seat))
                trail.append((node, [key], [seat]))
                state = state.apply_unchecked(key)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                node = None
            else:
                node = child
        reward = self._rollout(state, players, standings)
        for tree_node, picks, seats in trail:
            for action, s in zip(picks, seats, strict=True):
                st = tree_node.stats[action]
                r = reward[s]
                st[0] += 1
                st[1] += r
                st[3] += r * r

    def _joint(self, node: _Node, state: State, actor: frozenset[int]) -> tuple[list[str], list[int]]:
        seats = sorted(actor)
        return [self._select(node, state.legal_actions(s)) for s in seats], seats

    def _select(self, node: _Node, actions: Sequence[str]) -> str:
        """UCB1 over the available actions, trying each untried one first (in random order)."""
        stats = node.stats
        untried: list[str] = []
        best = ""
        best_value = -math.inf
        c = self.exploration
        for a in actions:
            st = stats.get(a)
            if st is None:
                st = stats[a] = [0, 0.0, 0, 0.0]
            st[2] += 1
            if st[0] == 0:
                untried.append(a)
                continue
            value = st[1] / st[0] + c * math.sqrt(math.log(st[2]) / st[0])
            if value > best_value:
                best, best_value = a, value
        if untried:
            return untried[0] if len(untried) == 1 else self.rng.choice(untried)
        return best

    def _rollout(self, state: State, players: int, standings: StandingsFn | None) -> list[float]:
        rng = self.rng
        pick = chance.pick
        policy = self._rollout_policy
        epsilon = self.epsilon
        for _ in range(self.rollout_limit):
            actor = state.actor
            if actor is None:
                break
            if actor == CHANCE:
                action = pick(state.chance_outcomes(), rng.random())
            elif policy is not None and rng.random() >= epsilon:
                seat = min(actor) if isinstance(actor, frozenset) else int(actor)
                action = policy.choose(state, seat)
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply_unchecked(action)
        result = state.result
        if result is not None:
            return rewards(result, players)
        if standings is not None:
            return standings_rewards(standings(state), players)
        return [0.5] * players
